// Faults in the look-backs of the single-pass algorithms and onesweep radix sort: descriptors that
// no block of the launch will publish (never published, foreign, left by an earlier call,
// zeroed) must end in a wrong answer, never in a hang. Every case shortens the wait bound to
// wait_limit_ms through its policy, runs a launch whose descriptors are wrong on purpose, requires
// that it returns within a deadline (else the program ends: a hung kernel would block every later
// case) and, outside compute-sanitizer, checks the answer the documented rule gives: a descriptor
// still unpublished at the bound ends the look-back as an inclusive one holding a
// value-initialized value, and a look-back ends at its chain's first tile whatever that tile's
// descriptor says.
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/device/dispatch/dispatch_rle.cuh>
#include <strata/device/dispatch/dispatch_scan_by_key.cuh>

#include <cuda/std/functional>

#include "common/test_common.cuh"
#include "device_scan_checks.cuh"
#include "scan_tile_kernels.cuh"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace
{
//! The tests' wait bound: long enough that a running block publishes before it, also under the
//! sanitizers and with other programs on the GPU, short enough that a case takes seconds.
constexpr unsigned int wait_limit_ms = 1000;
using fault_lookback_t               = strata::detail::LookbackPolicy<1200, 600, 600, 0, 0, 600, wait_limit_ms>;

//! Whether this run checks the answers a fault gives. Under compute-sanitizer a block may take
//! longer than the tests' bound to publish, and a wait for it may then end early too; those runs
//! check that every launch returns (and the sanitizer its memory accesses), not the answers.
bool check_answers()
{
  return !strata_test::under_sanitizer();
}

//! Waits for `stream` to finish within a deadline far beyond any bound; a launch still running
//! then hangs, and a watchdog ends the program, since every later case would wait behind it.
//! (Waiting rather than polling: compute-sanitizer need not see cudaErrorNotReady.)
void require_finishes(cudaStream_t stream, const char* what)
{
  const auto deadline = std::chrono::seconds(strata_test::under_sanitizer() ? 1200 : 60);
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::thread watchdog(
      [&]
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (!finished.wait_for(lock, deadline, [&] { return done; }))
        {
          std::fprintf(stderr, "FAILED: %s did not return within %lld s: a look-back hangs\n", what,
                       static_cast<long long>(deadline.count()));
          std::fflush(stderr);
          std::_Exit(EXIT_FAILURE);
        }
      });
  const cudaError_t status = cudaStreamSynchronize(stream);
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  finished.notify_one();
  watchdog.join();
  STRATA_TEST_CUDA(status);
  strata_test::check_launch();
}

// --- TilePrefixCallbackOp and WaitForValid ----------------------------------------------------

using strata_test::init_status;
using strata_test::scan_tiles;
using strata_test::scan_tiles_detail::block_threads;
using strata_test::scan_tiles_detail::tile_items;

//! The scan when tile `stuck` never publishes: exact before it, nothing in it, and after it the
//! scan starts again from a value-initialized T (the stuck tile ends every look-back that meets it).
template <typename T, typename OpT>
std::vector<T> scan_without_tile(const std::vector<T>& in, int stuck, OpT op)
{
  const std::size_t stuck_begin = std::size_t(stuck) * tile_items;
  std::vector<T> expected(in.size(), strata_test::poison_value<T>());
  T running{};
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    if (i >= stuck_begin && i < stuck_begin + tile_items)
    {
      running = T{};
      continue;
    }
    running     = i == 0 ? in[0] : op(running, in[i]);
    expected[i] = running;
  }
  return expected;
}

template <typename T, typename OpT>
void check_scan_with_stuck_tile(const std::vector<T>& in, int stuck, OpT op)
{
  const int num_tiles = int(in.size() / tile_items);
  INFO("tiles " << num_tiles << ", tile " << stuck << " never published");
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(in.size());
  d_out.poison();
  size_t bytes = 0;
  REQUIRE(strata::ScanTileState<T>::AllocationSize(num_tiles, bytes) == cudaSuccess);
  strata_test::device_buffer<unsigned char> d_state_bytes(bytes);
  strata_test::device_buffer<unsigned int> d_counter(1);
  strata::ScanTileState<T> tile_state;
  STRATA_TEST_CUDA(tile_state.Init(num_tiles, d_state_bytes.data(), bytes));
  init_status<T><<<(num_tiles + 127) / 128, 128>>>(tile_state, num_tiles, d_counter.data());
  scan_tiles<T, OpT, fault_lookback_t><<<num_tiles, block_threads>>>(d_in.data(), d_out.data(), nullptr, tile_state,
                                                                     d_counter.data(), op, false, stuck);
  require_finishes(0, "a scan with a tile that never publishes");
  if (check_answers())
  {
    strata_test::check_equal(scan_without_tile(in, stuck, op), d_out.download());
  }
}

//! Publishes tiles [0, published) (even ones INCLUSIVE, odd ones PARTIAL) with `values`.
template <typename T>
__global__ void publish_some(strata::ScanTileState<T> tile_state, int published, const T* values)
{
  const int tile = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (tile < published)
  {
    if (tile % 2 == 0)
    {
      tile_state.SetInclusive(tile, values[tile]);
    }
    else
    {
      tile_state.SetPartial(tile, values[tile]);
    }
  }
}

//! Thread i < num_tiles waits for tile i through WaitForValid's ScanTileStatus form, thread
//! num_tiles + i through CUB's StatusWord form, both with the tests' bound.
template <typename T>
__global__ void wait_for_each(strata::ScanTileState<T> tile_state, int num_tiles, int* statuses, T* values)
{
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= 2 * num_tiles)
  {
    return;
  }
  T value;
  if (i < num_tiles)
  {
    strata::ScanTileStatus status;
    tile_state.template WaitForValid<wait_limit_ms>(i, status, value);
    statuses[i] = int(status);
  }
  else
  {
    typename strata::ScanTileState<T>::StatusWord status;
    tile_state
        .template WaitForValid<strata::detail::scan_tile::BackoffDelay, strata::MemoryOrder::relaxed, wait_limit_ms>(
            i - num_tiles, status, value);
    statuses[i] = int(status);
  }
  values[i] = value;
}

template <typename T>
void check_wait_for_unpublished(const std::vector<T>& values, int published)
{
  const int num_tiles = int(values.size());
  INFO(num_tiles << " tiles, " << published << " published");
  size_t bytes = 0;
  REQUIRE(strata::ScanTileState<T>::AllocationSize(num_tiles, bytes) == cudaSuccess);
  strata_test::device_buffer<unsigned char> d_state_bytes(bytes);
  strata_test::device_buffer<unsigned int> d_counter(1);
  strata::ScanTileState<T> tile_state;
  STRATA_TEST_CUDA(tile_state.Init(num_tiles, d_state_bytes.data(), bytes));
  strata_test::device_buffer<T> d_values(values);
  strata_test::device_buffer<int> d_statuses(values.size() * 2);
  strata_test::device_buffer<T> d_seen(values.size() * 2);
  d_statuses.poison();
  d_seen.poison();
  init_status<T><<<(num_tiles + 127) / 128, 128>>>(tile_state, num_tiles, d_counter.data());
  publish_some<T><<<(num_tiles + 127) / 128, 128>>>(tile_state, published, d_values.data());
  wait_for_each<T><<<(2 * num_tiles + 127) / 128, 128>>>(tile_state, num_tiles, d_statuses.data(), d_seen.data());
  require_finishes(0, "WaitForValid on descriptors never published");
  const std::vector<int> statuses = d_statuses.download();
  const std::vector<T> seen       = d_seen.download();
  for (int i = 0; i < 2 * num_tiles; ++i)
  {
    const int tile = i % num_tiles;
    INFO("thread " << i << " waited for tile " << tile);
    const bool is_published = tile < published;
    CHECK(statuses[std::size_t(i)]
          == int(!is_published || tile % 2 == 0 ? strata::SCAN_TILE_INCLUSIVE : strata::SCAN_TILE_PARTIAL));
    CHECK(seen[std::size_t(i)] == (is_published ? values[std::size_t(tile)] : T{}));
  }
}

// --- the single-pass device algorithms, through their dispatch with a short bound -------------

//! A DeviceScan hub whose look-back gives up after wait_limit_ms.
template <typename AccumT>
struct scan_fault_hub
{
  struct Policy600 : strata::ChainedPolicy<600, Policy600, Policy600>
  {
    using ScanPolicy = strata::detail::scan::tuning_policy_t<128, 8, AccumT, strata::LOAD_DEFAULT, fault_lookback_t>;
  };
  using MaxPolicy = Policy600;
};

//! A DeviceSelect hub whose look-back gives up after wait_limit_ms.
struct select_fault_hub
{
  struct Policy600 : strata::ChainedPolicy<600, Policy600, Policy600>
  {
    using SelectIfPolicyT         = strata::AgentSelectIfPolicy<128, 8, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT,
                                                        strata::BLOCK_SCAN_WARP_SCANS, fault_lookback_t>;
    using ThreeWayPartitionPolicy = SelectIfPolicyT;
  };
  using MaxPolicy = Policy600;
};

//! A DeviceScan-by-key hub whose look-back gives up after wait_limit_ms.
struct scan_by_key_fault_hub
{
  struct Policy600 : strata::ChainedPolicy<600, Policy600, Policy600>
  {
    using ScanByKeyPolicyT =
        strata::AgentScanByKeyPolicy<128, 8, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT,
                                     strata::BLOCK_SCAN_WARP_SCANS, strata::BLOCK_STORE_DIRECT, fault_lookback_t>;
  };
  using MaxPolicy = Policy600;
};

//! A DeviceReduce::ReduceByKey hub whose look-back gives up after wait_limit_ms.
struct reduce_by_key_fault_hub
{
  struct Policy600 : strata::ChainedPolicy<600, Policy600, Policy600>
  {
    using ReduceByKeyPolicyT = strata::AgentReduceByKeyPolicy<128, 8, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT,
                                                              strata::BLOCK_SCAN_WARP_SCANS, fault_lookback_t>;
  };
  using MaxPolicy = Policy600;
};

//! A DeviceRunLengthEncode::NonTrivialRuns hub whose look-back gives up after wait_limit_ms.
struct rle_fault_hub
{
  struct Policy600 : strata::ChainedPolicy<600, Policy600, Policy600>
  {
    using RleSweepPolicyT = strata::AgentRlePolicy<128, 8, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT, true,
                                                   strata::BLOCK_SCAN_WARP_SCANS, fault_lookback_t>;
  };
  using MaxPolicy = Policy600;
};

//! Runs a single-pass device call `call(d_temp, bytes, stream)` on descriptors the test chose: the
//! call is captured into a graph, its DeviceScanInitKernel initializes no descriptor and writes its
//! tile counter elsewhere, and its single pass starts at tile `first` with `first` blocks fewer.
//! The temporary storage, laid out as the single pass carves it (the tile counter, then the
//! descriptors, one-word ones 32 bytes apart), holds `first` in the counter, SCAN_TILE_INVALID in
//! every 4-byte word of the descriptors of the tiles that run (as the initialization leaves them),
//! and `fill` in every 4-byte word of the descriptors of tiles [0, first): with SCAN_TILE_INVALID,
//! descriptors that never become valid; with 0, zeroed ones (SCAN_TILE_OOB, value 0) that only
//! tile 0 ends a walk over.
template <typename CallT>
void run_on_descriptors(CallT call, std::uint32_t fill, std::uint32_t first, const char* what)
{
  size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes, cudaStream_t{}));
  strata_test::device_buffer<std::uint32_t> d_temp((bytes + 3) / 4);
  strata_test::device_buffer<unsigned int> d_elsewhere(1);
  cudaStream_t stream;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  STRATA_TEST_CUDA(call(d_temp.data(), bytes, stream));
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph));

  size_t num_nodes = 0;
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &num_nodes));
  std::vector<cudaGraphNode_t> nodes(num_nodes);
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nodes.data(), &num_nodes));
  int init_nodes = 0, pass_nodes = 0;
  int no_tiles            = 0;
  unsigned int* elsewhere = d_elsewhere.data();
  for (cudaGraphNode_t node : nodes)
  {
    cudaGraphNodeType type;
    STRATA_TEST_CUDA(cudaGraphNodeGetType(node, &type));
    REQUIRE(type == cudaGraphNodeTypeKernel);
    cudaKernelNodeParams params{};
    STRATA_TEST_CUDA(cudaGraphKernelNodeGetParams(node, &params));
    const char* name = nullptr;
    STRATA_TEST_CUDA(cudaFuncGetName(&name, params.func));
    INFO("kernel " << name);
    if (std::strstr(name, "DeviceScanInitKernel") != nullptr)
    {
      // DeviceScanInitKernel(tile_state, num_tiles, d_tile_counter)
      void* args[3]       = {params.kernelParams[0], &no_tiles, &elsewhere};
      params.kernelParams = args;
      STRATA_TEST_CUDA(cudaGraphKernelNodeSetParams(node, &params));
      ++init_nodes;
    }
    else
    {
      REQUIRE(params.gridDim.x > first); // one block a tile
      params.gridDim.x -= first;
      STRATA_TEST_CUDA(cudaGraphKernelNodeSetParams(node, &params));
      ++pass_nodes;
    }
  }
  REQUIRE(init_nodes == 1);
  REQUIRE(pass_nodes == 1);

  // Where the descriptors start does not depend on their size: carve a byte of them.
  unsigned int* d_counter = nullptr;
  unsigned char* d_state  = nullptr;
  size_t carved_bytes     = bytes;
  STRATA_TEST_CUDA(strata::detail::CarveTemporaryStorage(
      d_temp.data(), carved_bytes, strata::detail::Slot(d_counter, 1), strata::detail::Slot(d_state, 1)));
  const std::size_t counter_word = std::size_t(d_counter - reinterpret_cast<unsigned int*>(d_temp.data()));
  const std::size_t state_word   = std::size_t(d_state - reinterpret_cast<unsigned char*>(d_temp.data())) / 4;
  const std::size_t fill_words   = std::size_t(first) * strata::detail::scan_tile::descriptor_spacing_bytes / 4;
  REQUIRE(state_word + fill_words <= d_temp.size());
  std::vector<std::uint32_t> words(d_temp.size(), std::uint32_t(strata::SCAN_TILE_INVALID));
  std::fill(words.begin() + std::ptrdiff_t(state_word), words.begin() + std::ptrdiff_t(state_word + fill_words), fill);
  words[counter_word] = first;
  d_temp.upload(words);
  // A copy from pageable memory may still be on its way when cudaMemcpy returns, and the graph
  // runs on a stream that does not wait for the default one.
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  cudaGraphExec_t exec;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream));
  require_finishes(stream, what);
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

constexpr std::uint32_t fills[] = {std::uint32_t(strata::SCAN_TILE_INVALID), 0u};

//! DeviceScan's inclusive sum when tiles [0, first) never run and their descriptors are `fill`: the
//! sum starts again at tile `first`.
void check_scan_on_descriptors(std::uint32_t fill, std::uint64_t seed)
{
  using policy_t      = scan_fault_hub<std::uint32_t>::Policy600::ScanPolicy;
  constexpr int tile  = policy_t::BLOCK_THREADS * policy_t::ITEMS_PER_THREAD;
  constexpr int first = 40; // beyond the first 32-tile window
  const std::size_t n = std::size_t(60) * tile + 333;
  const auto in       = strata_test::random_vector<std::uint32_t>(n, seed);
  strata_test::device_buffer<std::uint32_t> d_in(in);
  strata_test::device_buffer<std::uint32_t> d_out(n);
  d_out.poison();
  using dispatch_t =
      strata::DispatchScan<const std::uint32_t*, std::uint32_t*, cuda::std::plus<>, strata::NullType, std::uint32_t,
                           std::uint32_t, strata::ForceInclusive::No, scan_fault_hub<std::uint32_t>>;
  run_on_descriptors(
      [&](void* d_temp, size_t& bytes, cudaStream_t stream)
      {
        return dispatch_t::Dispatch(d_temp, bytes, static_cast<const std::uint32_t*>(d_in.data()), d_out.data(),
                                    cuda::std::plus<>{}, strata::NullType{}, std::uint32_t(n), stream);
      },
      fill, first, "DeviceScan on descriptors of no launch");
  std::vector<std::uint32_t> expected(n, strata_test::poison_value<std::uint32_t>());
  std::uint32_t running = 0;
  for (std::size_t i = std::size_t(first) * tile; i < n; ++i)
  {
    running += in[i];
    expected[i] = running;
  }
  if (check_answers())
  {
    strata_test::check_equal(expected, d_out.download());
  }
}

//! DeviceSelect::Flagged when tiles [0, first) never run and their descriptors are `fill`: the
//! kept items of the later tiles, from the output's start.
void check_select_on_descriptors(std::uint32_t fill, std::uint64_t seed)
{
  using policy_t      = select_fault_hub::Policy600::SelectIfPolicyT;
  constexpr int tile  = policy_t::BLOCK_THREADS * policy_t::ITEMS_PER_THREAD;
  constexpr int first = 40;
  const std::size_t n = std::size_t(60) * tile + 333;
  const auto in       = strata_test::random_vector<std::uint32_t>(n, seed);
  const auto flags    = strata_test::random_vector<int>(n, seed + 1, 0.0, 1.0);
  strata_test::device_buffer<std::uint32_t> d_in(in);
  strata_test::device_buffer<int> d_flags(flags);
  strata_test::device_buffer<std::uint32_t> d_out(n);
  strata_test::device_buffer<int> d_num_selected(1);
  d_out.poison();
  d_num_selected.poison();
  using dispatch_t =
      strata::DispatchSelectIf<const std::uint32_t*, const int*, std::uint32_t*, int*, strata::NullType,
                               strata::NullType, std::int64_t, strata::SelectImpl::Select, select_fault_hub>;
  run_on_descriptors(
      [&](void* d_temp, size_t& bytes, cudaStream_t stream)
      {
        return dispatch_t::Dispatch(d_temp, bytes, static_cast<const std::uint32_t*>(d_in.data()),
                                    static_cast<const int*>(d_flags.data()), d_out.data(), d_num_selected.data(),
                                    strata::NullType{}, strata::NullType{}, std::int64_t(n), stream);
      },
      fill, first, "DeviceSelect on descriptors of no launch");
  std::vector<std::uint32_t> expected(n, strata_test::poison_value<std::uint32_t>());
  std::size_t kept = 0;
  for (std::size_t i = std::size_t(first) * tile; i < n; ++i)
  {
    if (flags[i] != 0)
    {
      expected[kept++] = in[i];
    }
  }
  if (check_answers())
  {
    CHECK(d_num_selected.download()[0] == int(kept));
    strata_test::check_equal(expected, d_out.download());
  }
}

//! DeviceScan by key, DeviceReduce::ReduceByKey and DeviceRunLengthEncode::NonTrivialRuns when tiles
//! [0, first) never run and their descriptors are `fill`: each returns and writes nothing outside
//! its outputs (guards of poison on both sides), with a run count of at most n (what they write
//! after tile `first` depends on the runs that cross into it; their look-back is the one
//! DeviceScan's and DeviceSelect's cases check exactly).
void check_runs_on_descriptors(std::uint32_t fill, std::uint64_t seed)
{
  constexpr int first = 40;
  const std::size_t n = std::size_t(60) * 1024 + 333; // over 60 tiles of at most 1024 items
  std::vector<int> keys(n);
  const auto lengths = strata_test::random_vector<int>(n, seed, 1.0, 15.0);
  for (std::size_t i = 0, run = 0, left = std::size_t(lengths[0]); i < n; ++i, --left)
  {
    if (left == 0)
    {
      left = std::size_t(lengths[++run]);
    }
    keys[i] = int(run % 7);
  }
  const auto values = strata_test::random_vector<int>(n, seed + 1, -100.0, 100.0);
  strata_test::device_buffer<int> d_keys(keys);
  strata_test::device_buffer<int> d_values(values);
  // Outputs of n items between guards of 1024 poisoned items each; d_out + guard is the output.
  constexpr std::size_t guard = 1024;
  strata_test::device_buffer<int> d_out_arena(n + 2 * guard);
  strata_test::device_buffer<int> d_out2_arena(n + 2 * guard);
  strata_test::device_buffer<int> d_count_arena(1 + 2 * guard);
  d_out_arena.poison();
  d_out2_arena.poison();
  d_count_arena.poison();
  struct
  {
    int* base;
    int* data() const
    {
      return base + guard;
    }
  } d_out{d_out_arena.data()}, d_out2{d_out2_arena.data()}, d_count{d_count_arena.data()};
  const int* keys_in      = d_keys.data();
  const int* values_in    = d_values.data();
  const auto check_guards = [&](const char* what)
  {
    INFO(what);
    for (auto* arena : {&d_out_arena, &d_out2_arena, &d_count_arena})
    {
      const std::vector<int> host = arena->download();
      const std::vector<int> before(host.begin(), host.begin() + std::ptrdiff_t(guard));
      const std::vector<int> after(host.end() - std::ptrdiff_t(guard), host.end());
      const int poison = strata_test::poison_value<int>();
      CHECK(before == std::vector<int>(guard, poison));
      CHECK(after == std::vector<int>(guard, poison));
    }
  };
  using scan_by_key_t =
      strata::DispatchScanByKey<const int*, const int*, int*, cuda::std::equal_to<>, cuda::std::plus<>,
                                strata::NullType, std::uint32_t, int, scan_by_key_fault_hub>;
  run_on_descriptors(
      [&](void* d_temp, size_t& bytes, cudaStream_t stream)
      {
        return scan_by_key_t::Dispatch(d_temp, bytes, keys_in, values_in, d_out.data(), cuda::std::equal_to<>{},
                                       cuda::std::plus<>{}, strata::NullType{}, std::uint32_t(n), stream);
      },
      fill, first, "DeviceScan by key on descriptors of no launch");
  check_guards("DeviceScan by key");
  using reduce_by_key_t = strata::DispatchReduceByKey<const int*, int*, const int*, int*, int*, cuda::std::equal_to<>,
                                                      cuda::std::plus<>, std::int64_t, int, reduce_by_key_fault_hub>;
  run_on_descriptors(
      [&](void* d_temp, size_t& bytes, cudaStream_t stream)
      {
        return reduce_by_key_t::Dispatch(d_temp, bytes, keys_in, d_out.data(), values_in, d_out2.data(), d_count.data(),
                                         cuda::std::equal_to<>{}, cuda::std::plus<>{}, std::int64_t(n), stream);
      },
      fill, first, "DeviceReduce::ReduceByKey on descriptors of no launch");
  check_guards("DeviceReduce::ReduceByKey");
  CHECK(std::size_t(d_count_arena.download()[guard]) <= n);
  using rle_t =
      strata::DeviceRleDispatch<const int*, int*, int*, int*, cuda::std::equal_to<>, std::int64_t, rle_fault_hub>;
  run_on_descriptors(
      [&](void* d_temp, size_t& bytes, cudaStream_t stream)
      {
        return rle_t::Dispatch(d_temp, bytes, keys_in, d_out.data(), d_out2.data(), d_count.data(),
                               cuda::std::equal_to<>{}, std::int64_t(n), stream);
      },
      fill, first, "DeviceRunLengthEncode::NonTrivialRuns on descriptors of no launch");
  check_guards("DeviceRunLengthEncode::NonTrivialRuns");
  CHECK(std::size_t(d_count_arena.download()[guard]) <= n);
}

// --- onesweep radix sort's digit look-back ----------------------------------------------------

//! A onesweep tile of 256 x 8 keys whose look-back gives up after wait_limit_ms.
struct onesweep_fault_policy
    : strata::AgentRadixSortOnesweepPolicy<256, 8, std::uint32_t, 1, strata::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                           strata::BLOCK_SCAN_WARP_SCANS, strata::RADIX_SORT_STORE_DIRECT, 8>
{
  static constexpr unsigned int LOOKBACK_WAIT_LIMIT_MS = wait_limit_ms;
};
using onesweep_agent_t = strata::AgentRadixSortOnesweep<onesweep_fault_policy, false, std::uint32_t, strata::NullType,
                                                        std::uint32_t, strata::detail::identity_decomposer_t>;
static_assert(strata::detail::radix::onesweep_wait_limit_ms_v<onesweep_fault_policy> == wait_limit_ms);
constexpr int onesweep_tile   = onesweep_agent_t::TILE_ITEMS;
constexpr int radix_digits    = 256;
constexpr std::uint32_t epoch = 3;

//! One onesweep pass over the low 8 bits as DeviceRadixSort's kernel runs it, but the block that
//! takes tile `stuck_tile` leaves at once (its look-back words stay as they were), and every tile's
//! chain starts at `first_tile`.
__global__ void __launch_bounds__(onesweep_agent_t::BLOCK_THREADS)
    onesweep_tiles(const std::uint32_t* keys_in, std::uint32_t* keys_out, const std::uint32_t* bins,
                   std::uint32_t* lookback, std::uint32_t* counter, std::uint32_t num_items, int stuck_tile,
                   int first_tile)
{
  __shared__ typename onesweep_agent_t::TempStorage storage;
  onesweep_agent_t agent(storage, keys_in, keys_out, static_cast<const strata::NullType*>(nullptr),
                         static_cast<strata::NullType*>(nullptr), bins, nullptr, lookback, counter, num_items, 0, 8,
                         epoch, strata::detail::identity_decomposer_t{});
  const int tile = int(agent.NextTile());
  if (tile == stuck_tile)
  {
    return;
  }
  const std::uint32_t offset = std::uint32_t(tile) * onesweep_tile;
  agent.ProcessTile(tile, offset, strata::detail::tile::ValidItems<onesweep_tile>(num_items, offset), first_tile, bins);
}

//! A look-back word as the agent writes it.
std::uint32_t lookback_word(std::uint32_t word_epoch, bool inclusive, std::uint32_t count)
{
  return (word_epoch << strata::detail::radix::lookback_epoch_shift)
         | (inclusive ? strata::detail::radix::lookback_inclusive : 0u) | count;
}

//! One onesweep pass with look-back words the test chose, for a chain from tile `first_tile`. Tiles
//! below `first_run` and tile `stuck_tile` do not run; `before(m)` gives, per digit, the keys a
//! look-back from tile m must find (by the rule of the file's top), `bins` the chain's digit starts.
//! Every output place must hold one of the keys the rule sends there (places written by two tiles:
//! either), every other place its poison.
template <typename BeforeT>
void check_onesweep(const std::vector<std::uint32_t>& keys, const std::vector<std::uint32_t>& words, int first_tile,
                    int first_run, int stuck_tile, const std::vector<std::uint32_t>& bins, BeforeT before,
                    const char* what)
{
  const int num_tiles    = int((keys.size() + onesweep_tile - 1) / onesweep_tile);
  const int margin_tiles = 2; // words before tile 0, inclusive and empty: a walk past tile 0 ends there
  std::vector<std::uint32_t> all_words(std::size_t(margin_tiles) * radix_digits, lookback_word(epoch, true, 0));
  all_words.insert(all_words.end(), words.begin(), words.end());
  strata_test::device_buffer<std::uint32_t> d_keys(keys);
  strata_test::device_buffer<std::uint32_t> d_out(keys.size());
  strata_test::device_buffer<std::uint32_t> d_bins(bins);
  strata_test::device_buffer<std::uint32_t> d_words(all_words);
  strata_test::device_buffer<std::uint32_t> d_counter(std::vector<std::uint32_t>{std::uint32_t(first_run)});
  d_out.poison();
  onesweep_tiles<<<num_tiles - first_run, onesweep_agent_t::BLOCK_THREADS>>>(
      d_keys.data(), d_out.data(), d_bins.data(), d_words.data() + std::size_t(margin_tiles) * radix_digits,
      d_counter.data(), std::uint32_t(keys.size()), stuck_tile, first_tile);
  require_finishes(0, what);

  std::vector<std::set<std::uint32_t>> allowed(keys.size());
  for (int tile = first_run; tile < num_tiles; ++tile)
  {
    if (tile == stuck_tile)
    {
      continue;
    }
    std::vector<std::uint32_t> place = before(tile);
    for (int d = 0; d < radix_digits; ++d)
    {
      place[std::size_t(d)] += bins[std::size_t(d)];
    }
    const std::size_t end = std::min(keys.size(), std::size_t(tile + 1) * onesweep_tile);
    for (std::size_t i = std::size_t(tile) * onesweep_tile; i < end; ++i)
    {
      const std::uint32_t at = place[keys[i] & 0xFFu]++; // stable within the tile
      REQUIRE(at < keys.size());
      allowed[at].insert(keys[i]);
    }
  }
  const std::vector<std::uint32_t> out = d_out.download();
  const std::uint32_t poison           = strata_test::poison_value<std::uint32_t>();
  std::size_t wrong                    = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
  {
    const bool ok = allowed[i].empty() ? out[i] == poison : allowed[i].count(out[i]) == 1;
    if (!ok && ++wrong <= 5)
    {
      UNSCOPED_INFO("place " << i << ": " << out[i] << (allowed[i].empty() ? " instead of poison" : " not allowed"));
    }
  }
  if (check_answers())
  {
    CHECK(wrong == 0);
  }
}

//! counts[t][d]: the keys of tile t with low byte d.
std::vector<std::vector<std::uint32_t>> tile_digit_counts(const std::vector<std::uint32_t>& keys)
{
  const std::size_t num_tiles = (keys.size() + onesweep_tile - 1) / onesweep_tile;
  std::vector<std::vector<std::uint32_t>> counts(num_tiles, std::vector<std::uint32_t>(radix_digits, 0));
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    ++counts[i / onesweep_tile][keys[i] & 0xFFu];
  }
  return counts;
}

//! The digit starts of tiles [from, to) placed from 0.
std::vector<std::uint32_t> digit_starts(const std::vector<std::vector<std::uint32_t>>& counts, int from, int to)
{
  std::vector<std::uint32_t> bins(radix_digits, 0);
  for (int d = 1; d < radix_digits; ++d)
  {
    bins[std::size_t(d)] = bins[std::size_t(d) - 1];
    for (int t = from; t < to; ++t)
    {
      bins[std::size_t(d)] += counts[std::size_t(t)][std::size_t(d) - 1];
    }
  }
  return bins;
}

//! The keys of tiles [from, to) per digit.
std::vector<std::uint32_t> keys_between(const std::vector<std::vector<std::uint32_t>>& counts, int from, int to)
{
  std::vector<std::uint32_t> sum(radix_digits, 0);
  for (int t = from; t < to; ++t)
  {
    for (int d = 0; d < radix_digits; ++d)
    {
      sum[std::size_t(d)] += counts[std::size_t(t)][std::size_t(d)];
    }
  }
  return sum;
}
} // namespace

TEST_CASE("A scan's look-back gives up on a tile that never publishes", "[agent][scan][fault]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(307);
  INFO("seed " << seed);
  for (const int stuck : {0, 1, 37, 200})
  {
    check_scan_with_stuck_tile(strata_test::random_vector<std::uint64_t>(std::size_t(401) * tile_items, seed + stuck),
                               stuck, cuda::std::plus<std::uint64_t>{});
  }
  // The two-array descriptors (16-byte values): the zero matrix after the stuck tile.
  std::vector<strata_test::matrix2> matrices(std::size_t(67) * tile_items);
  const auto words = strata_test::random_vector<std::uint32_t>(4 * matrices.size(), seed, 0.0, 3.0);
  for (std::size_t i = 0; i < matrices.size(); ++i)
  {
    matrices[i] = strata_test::matrix2{{words[4 * i] | 1, words[4 * i + 1], words[4 * i + 2], words[4 * i + 3] | 1}};
  }
  check_scan_with_stuck_tile(matrices, 40, strata_test::matrix_product{});
}

TEST_CASE("ScanTileState::WaitForValid gives up on a descriptor never published", "[agent][scan][fault]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(311);
  INFO("seed " << seed);
  check_wait_for_unpublished(strata_test::random_vector<std::uint64_t>(64, seed), 32);
  check_wait_for_unpublished(strata_test::random_vector<std::uint32_t>(64, seed + 1), 0);
}

TEST_CASE("DeviceScan and DeviceSelect return on descriptors of no launch", "[device][scan][select][fault]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(313);
  INFO("seed " << seed);
  for (const std::uint32_t fill : fills)
  {
    INFO("every descriptor word " << fill);
    check_scan_on_descriptors(fill, seed);
    check_select_on_descriptors(fill, seed + 1);
  }
}

TEST_CASE("DeviceScan by key, ReduceByKey and NonTrivialRuns return on descriptors of no launch",
          "[device][scan][runs][fault]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(331);
  INFO("seed " << seed);
  for (const std::uint32_t fill : fills)
  {
    INFO("every descriptor word " << fill);
    check_runs_on_descriptors(fill, seed);
  }
}

TEST_CASE("Onesweep's digit look-back gives up on words not of its launch", "[agent][sort][fault]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(317);
  INFO("seed " << seed);
  const int num_tiles = 40;
  const std::vector<std::uint32_t> keys =
      strata_test::random_vector<std::uint32_t>(std::size_t(num_tiles) * onesweep_tile - 77, seed);
  const std::vector<std::vector<std::uint32_t>> counts = tile_digit_counts(keys);
  // Words an earlier launch left (the epoch before this one, random counts, some inclusive).
  std::vector<std::uint32_t> earlier(std::size_t(num_tiles) * radix_digits);
  const auto bits = strata_test::random_vector<std::uint32_t>(earlier.size(), seed + 1);
  for (std::size_t i = 0; i < earlier.size(); ++i)
  {
    earlier[i] = lookback_word(epoch - 1, (bits[i] & 1u) != 0, bits[i] >> 8 & 0xFFFFu);
  }
  SECTION("a tile that never runs: the tiles after it count from it on")
  {
    for (const int stuck : {0, 1, 17})
    {
      INFO("tile " << stuck << " never runs");
      check_onesweep(
          keys, earlier, 0, 0, stuck, digit_starts(counts, 0, num_tiles),
          [&](int tile)
          { return tile < stuck ? keys_between(counts, 0, tile) : keys_between(counts, stuck + 1, tile); },
          "a onesweep pass with a tile that never runs");
    }
  }
  SECTION("a chain's first tile whose word is not inclusive, after words of this launch")
  {
    // Tiles below first_tile hold words of this launch with one key per digit, tile first_tile
    // its own counts without the inclusive bit: the look-back must stop at first_tile.
    const int first_tile = 5;
    std::vector<std::uint32_t> words(earlier.size(), lookback_word(epoch, false, 1));
    for (int d = 0; d < radix_digits; ++d)
    {
      words[std::size_t(first_tile) * radix_digits + std::size_t(d)] =
          lookback_word(epoch, false, counts[std::size_t(first_tile)][std::size_t(d)]);
    }
    std::copy(earlier.begin() + std::ptrdiff_t(first_tile + 1) * radix_digits, earlier.end(),
              words.begin() + std::ptrdiff_t(first_tile + 1) * radix_digits);
    check_onesweep(
        keys, words, first_tile, first_tile + 1, -1, digit_starts(counts, first_tile, num_tiles),
        [&](int tile) { return keys_between(counts, first_tile, tile); }, "a onesweep chain from tile 5");
  }
}

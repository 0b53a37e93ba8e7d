// examples/multi_gpu/distributed_sort.cu: a sort of keys (or key-value pairs) spread over the GPUs
// of one machine, built from strata's device algorithms and NCCL. One host thread drives every GPU
// (ncclCommInitAll; NCCL calls of several GPUs grouped). Each GPU
//   1. sorts its keys (DeviceRadixSort),
//   2. picks regular samples of them (DeviceFor::Bulk); the samples of all GPUs are gathered
//      (ncclAllGather) and sorted on every GPU, which then all pick the same P - 1 splitters,
//   3. finds where its buckets start with a search of its sorted keys (DeviceFor::Bulk with
//      strata::LowerBound) and exchanges the bucket sizes (ncclSend / ncclRecv); the host reads
//      them, since NCCL needs the counts of the exchange on the host,
//   4. sends bucket q to GPU q and receives one sorted run from every GPU (each send starts on a
//      16-byte boundary, a few keys before the bucket where need be, since NCCL copies aligned
//      buffers much faster),
//   5. merges the runs in rounds of pairs (DeviceMerge).
// GPU p then holds the p-th range of the keys, sorted; equal keys keep the order of the GPUs and
// of their positions (the sort is stable). The program prints the time of each phase (the slowest
// GPU's, CUDA events) and of the whole, then checks the result on the GPUs (order, stability, item
// count and a fingerprint of the multiset) and, up to 2^24 items, against a host sort.
//
// Usage: example_multi_gpu_distributed_sort [--keys-per-gpu N] [--gpus P] [--u64] [--pairs]
//                                           [--repeat R]
// N defaults to 2^22, P to every visible GPU. Exits with 77 where there is no GPU.
#include <strata/device/device_for.cuh>
#include <strata/device/device_merge.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/thread/thread_search.cuh>

#include <nccl.h>
#include <nvtx3/nvToolsExt.h>

#include "../example_common.cuh"
#include "distributed_sort_plan.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

//! Exits with a message when an NCCL call fails.
#define EXAMPLE_NCCL(call)                                                                                             \
  do                                                                                                                   \
  {                                                                                                                    \
    const ncclResult_t example_result_ = (call);                                                                       \
    if (example_result_ != ncclSuccess)                                                                                \
    {                                                                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, ncclGetErrorString(example_result_));         \
      std::exit(1);                                                                                                    \
    }                                                                                                                  \
  } while (false)

namespace
{
using value_t = std::uint32_t; // the payload of the pairs variant

template <typename T>
ncclDataType_t nccl_type()
{
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit unsigned keys and values");
  return sizeof(T) == 4 ? ncclUint32 : ncclUint64;
}

//! Writes sample i of a GPU's n sorted keys (n >= 1).
template <typename KeyT>
struct SampleOp
{
  const KeyT* sorted;
  std::int64_t n;
  int samples;
  KeyT* out;

  __device__ void operator()(int i) const
  {
    out[i] = sorted[distributed_sort::SamplePosition(n, samples, i)];
  }
};

//! Bucket q of a GPU's n sorted keys: where it starts (the first key not below splitter q - 1) and
//! how many keys it holds, the splitters read from the gathered, sorted samples.
template <typename KeyT>
struct BucketOp
{
  const KeyT* sorted;
  std::int64_t n;
  const KeyT* samples; // gathered and sorted
  std::int64_t total_samples;
  int parts;
  std::int64_t* starts;
  std::int64_t* counts;

  __device__ std::int64_t Start(int q) const
  {
    if (q == 0)
    {
      return 0;
    }
    if (q == parts)
    {
      return n;
    }
    const KeyT splitter = samples[distributed_sort::SplitterPosition(total_samples, parts, q - 1)];
    return strata::LowerBound(sorted, n, splitter);
  }

  __device__ void operator()(int q) const
  {
    const std::int64_t start = Start(q);
    starts[q]                = start;
    counts[q]                = Start(q + 1) - start;
  }
};

//! A 64-bit mix of item i (its key, and its value where there are values). Summed over the items
//! (mod 2^64), an order-independent fingerprint of their multiset: the same before and after a sort.
template <typename KeyT>
struct ItemHash
{
  const KeyT* keys;
  const value_t* values; // nullptr for keys alone

  __host__ __device__ unsigned long long operator()(std::int64_t i) const
  {
    std::uint64_t x = (std::uint64_t(keys[i]) + 0x632BE59BD9B4E019ull) * 0x9E3779B97F4A7C15ull;
    if (values != nullptr)
    {
      x ^= (std::uint64_t(values[i]) + 0x85EBCA77C2B2AE63ull) * 0xC2B2AE3D27D4EB4Full;
    }
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return x;
  }
};

//! Counts the neighbours out of order in a GPU's result: a key below the one before it, or (pairs)
//! an equal key whose value, the item's global index, is below the one before it (unstable).
template <typename KeyT>
struct OrderCheckOp
{
  const KeyT* keys;
  const value_t* values; // nullptr for keys alone
  unsigned long long* violations;

  __device__ void operator()(std::int64_t i) const
  {
    const KeyT a = keys[i];
    const KeyT b = keys[i + 1];
    if (b < a || (values != nullptr && b == a && values[i + 1] < values[i]))
    {
      atomicAdd(violations, 1ull);
    }
  }
};

//! A device buffer of `count` items of T, taken and given back in stream order.
template <typename T>
T* allocate(std::int64_t count, cudaStream_t stream)
{
  void* p = nullptr;
  EXAMPLE_CHECK(cudaMallocAsync(&p, std::size_t(count > 0 ? count : 1) * sizeof(T), stream));
  return static_cast<T*>(p);
}

//! One GPU's share: its stream, communicator, buffers and the events between the phases.
template <typename KeyT>
struct Gpu
{
  int device = 0;
  cudaStream_t stream{};
  ncclComm_t comm{};
  std::int64_t n                  = 0;
  KeyT* keys                      = nullptr; // input
  value_t* values                 = nullptr;
  KeyT* sorted                    = nullptr;
  value_t* sorted_values          = nullptr;
  KeyT* samples                   = nullptr;
  KeyT* gathered                  = nullptr;
  KeyT* gathered_sorted           = nullptr;
  std::int64_t* starts_d          = nullptr;            // parts
  std::int64_t* counts_d          = nullptr;            // parts: sent to each GPU
  std::int64_t* received_d        = nullptr;            // parts: received from each GPU
  std::int64_t* received_starts_d = nullptr;            // parts: where those buckets start on their GPUs
  std::int64_t* host              = nullptr;            // pinned: starts, counts, received, received starts (4 parts)
  KeyT* run_keys[2]               = {nullptr, nullptr}; // the received runs, then the merge rounds' buffers
  value_t* run_values[2]          = {nullptr, nullptr};
  int result                      = 0; // which of run_keys holds the result
  std::int64_t received_total     = 0;
  void* temp                      = nullptr;
  std::size_t temp_bytes          = 0;
  cudaEvent_t events[6]{};
};

//! The phases timed on every GPU (between events[k] and events[k + 1]).
const char* const phase_names[5] = {"local sort", "samples and buckets", "bucket sizes exchanged", "keys exchanged",
                                    "runs merged"};

//! Makes sure gpu.temp holds `bytes`.
template <typename KeyT>
void reserve_temp(Gpu<KeyT>& gpu, std::size_t bytes)
{
  if (bytes > gpu.temp_bytes)
  {
    if (gpu.temp != nullptr)
    {
      EXAMPLE_CHECK(cudaFreeAsync(gpu.temp, gpu.stream));
    }
    EXAMPLE_CHECK(cudaMallocAsync(&gpu.temp, bytes, gpu.stream));
    gpu.temp_bytes = bytes;
  }
}

//! Sorts keys (and values) of n items from `in` into `out` on gpu's stream.
template <typename KeyT>
void radix_sort(Gpu<KeyT>& gpu, const KeyT* in, KeyT* out, const value_t* values_in, value_t* values_out,
                std::int64_t n, bool pairs)
{
  std::size_t bytes = 0;
  if (pairs)
  {
    EXAMPLE_CHECK(strata::DeviceRadixSort::SortPairs(nullptr, bytes, in, out, values_in, values_out, n, 0,
                                                     int(sizeof(KeyT) * 8), gpu.stream));
    reserve_temp(gpu, bytes);
    EXAMPLE_CHECK(strata::DeviceRadixSort::SortPairs(gpu.temp, bytes, in, out, values_in, values_out, n, 0,
                                                     int(sizeof(KeyT) * 8), gpu.stream));
  }
  else
  {
    EXAMPLE_CHECK(strata::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n, 0, int(sizeof(KeyT) * 8), gpu.stream));
    reserve_temp(gpu, bytes);
    EXAMPLE_CHECK(strata::DeviceRadixSort::SortKeys(gpu.temp, bytes, in, out, n, 0, int(sizeof(KeyT) * 8), gpu.stream));
  }
}

struct Options
{
  std::int64_t keys_per_gpu = std::int64_t(1) << 22;
  int gpus                  = 0; // every visible GPU
  bool u64                  = false;
  bool pairs                = false;
  int repeat                = 3;
  int samples               = 1024; // per GPU
};

//! One distributed sort of the keys (and values) the GPUs hold; leaves each GPU's result in
//! run_keys[result] (received_total items). Returns the host's wall time of the whole, in ms.
template <typename KeyT>
double distributed_sort_once(std::vector<Gpu<KeyT>>& gpus, const Options& options)
{
  const int parts = int(gpus.size());
  const auto wall = std::chrono::steady_clock::now();
  nvtxRangePushA("distributed sort");

  // 1. Local sorts.
  nvtxRangePushA("local sort");
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(cudaEventRecord(gpu.events[0], gpu.stream));
    radix_sort(gpu, gpu.keys, gpu.sorted, gpu.values, gpu.sorted_values, gpu.n, options.pairs);
    EXAMPLE_CHECK(cudaEventRecord(gpu.events[1], gpu.stream));
  }
  nvtxRangePop();

  // 2. Samples, gathered; splitters and bucket starts.
  nvtxRangePushA("samples and buckets");
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(strata::DeviceFor::Bulk(options.samples,
                                          SampleOp<KeyT>{gpu.sorted, gpu.n, options.samples, gpu.samples}, gpu.stream));
  }
  EXAMPLE_NCCL(ncclGroupStart());
  for (auto& gpu : gpus)
  {
    EXAMPLE_NCCL(ncclAllGather(gpu.samples, gpu.gathered, std::size_t(options.samples), nccl_type<KeyT>(), gpu.comm,
                               gpu.stream));
  }
  EXAMPLE_NCCL(ncclGroupEnd());
  const std::int64_t total_samples = std::int64_t(options.samples) * parts;
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    radix_sort(gpu, gpu.gathered, gpu.gathered_sorted, nullptr, nullptr, total_samples, false);
    EXAMPLE_CHECK(strata::DeviceFor::Bulk(
        parts, BucketOp<KeyT>{gpu.sorted, gpu.n, gpu.gathered_sorted, total_samples, parts, gpu.starts_d, gpu.counts_d},
        gpu.stream));
    EXAMPLE_CHECK(cudaEventRecord(gpu.events[2], gpu.stream));
  }
  nvtxRangePop();

  // 3. Bucket sizes to every GPU; the host reads them (NCCL takes the counts from the host).
  nvtxRangePushA("bucket sizes exchanged");
  EXAMPLE_NCCL(ncclGroupStart());
  for (auto& gpu : gpus)
  {
    for (int q = 0; q < parts; ++q)
    {
      EXAMPLE_NCCL(ncclSend(gpu.counts_d + q, 1, ncclInt64, q, gpu.comm, gpu.stream));
      EXAMPLE_NCCL(ncclRecv(gpu.received_d + q, 1, ncclInt64, q, gpu.comm, gpu.stream));
      EXAMPLE_NCCL(ncclSend(gpu.starts_d + q, 1, ncclInt64, q, gpu.comm, gpu.stream));
      EXAMPLE_NCCL(ncclRecv(gpu.received_starts_d + q, 1, ncclInt64, q, gpu.comm, gpu.stream));
    }
  }
  EXAMPLE_NCCL(ncclGroupEnd());
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(cudaMemcpyAsync(gpu.host, gpu.starts_d, sizeof(std::int64_t) * std::size_t(parts),
                                  cudaMemcpyDeviceToHost, gpu.stream));
    EXAMPLE_CHECK(cudaMemcpyAsync(gpu.host + parts, gpu.counts_d, sizeof(std::int64_t) * std::size_t(parts),
                                  cudaMemcpyDeviceToHost, gpu.stream));
    EXAMPLE_CHECK(cudaMemcpyAsync(gpu.host + 2 * parts, gpu.received_d, sizeof(std::int64_t) * std::size_t(parts),
                                  cudaMemcpyDeviceToHost, gpu.stream));
    EXAMPLE_CHECK(cudaMemcpyAsync(gpu.host + 3 * parts, gpu.received_starts_d,
                                  sizeof(std::int64_t) * std::size_t(parts), cudaMemcpyDeviceToHost, gpu.stream));
    EXAMPLE_CHECK(cudaEventRecord(gpu.events[3], gpu.stream));
  }
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(cudaStreamSynchronize(gpu.stream));
  }
  nvtxRangePop();

  // 4. Bucket q of every GPU to GPU q, into its receive buffer in the order of the senders. Each
  //    send starts on a multiple of `align` items (16 bytes of values, 16 or 32 of keys): leads[q][p]
  //    items of sender p's previous bucket come first and are skipped where the run is read.
  nvtxRangePushA("keys exchanged");
  constexpr std::int64_t align = 4;
  std::vector<std::vector<std::int64_t>> offsets(static_cast<std::size_t>(parts));
  std::vector<std::vector<std::int64_t>> slots(static_cast<std::size_t>(parts));
  std::vector<std::vector<std::int64_t>> leads(static_cast<std::size_t>(parts));
  for (int q = 0; q < parts; ++q)
  {
    auto& gpu = gpus[std::size_t(q)];
    std::vector<std::int64_t> received(gpu.host + 2 * parts, gpu.host + 3 * parts);
    std::vector<std::int64_t> counts(std::size_t(parts) * std::size_t(parts), 0);
    for (int p = 0; p < parts; ++p)
    {
      counts[std::size_t(p) * std::size_t(parts) + std::size_t(q)] = received[std::size_t(p)];
    }
    offsets[std::size_t(q)] = distributed_sort::ReceiveOffsets(counts, parts, q);
    gpu.received_total      = offsets[std::size_t(q)].back();
    for (int p = 0; p < parts; ++p)
    {
      leads[std::size_t(q)].push_back(gpu.host[3 * parts + p] % align);
    }
    slots[std::size_t(q)] = distributed_sort::AlignedSlots(received, leads[std::size_t(q)], align);
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    for (int b = 0; b < 2; ++b)
    {
      if (gpu.run_keys[b] != nullptr)
      {
        EXAMPLE_CHECK(cudaFreeAsync(gpu.run_keys[b], gpu.stream));
      }
      gpu.run_keys[b] = allocate<KeyT>(slots[std::size_t(q)].back(), gpu.stream);
      if (options.pairs)
      {
        if (gpu.run_values[b] != nullptr)
        {
          EXAMPLE_CHECK(cudaFreeAsync(gpu.run_values[b], gpu.stream));
        }
        gpu.run_values[b] = allocate<value_t>(slots[std::size_t(q)].back(), gpu.stream);
      }
    }
  }
  EXAMPLE_NCCL(ncclGroupStart());
  for (int p = 0; p < parts; ++p)
  {
    auto& gpu                  = gpus[std::size_t(p)];
    const std::int64_t* starts = gpu.host;
    const std::int64_t* counts = gpu.host + parts;
    for (int q = 0; q < parts; ++q)
    {
      const std::int64_t from   = starts[q] - starts[q] % align;
      const std::size_t send    = std::size_t(counts[q] + starts[q] % align);
      const std::size_t receive = std::size_t(gpu.host[2 * parts + q] + leads[std::size_t(p)][std::size_t(q)]);
      const std::int64_t at     = slots[std::size_t(p)][std::size_t(q)];
      EXAMPLE_NCCL(ncclSend(gpu.sorted + from, send, nccl_type<KeyT>(), q, gpu.comm, gpu.stream));
      EXAMPLE_NCCL(ncclRecv(gpu.run_keys[0] + at, receive, nccl_type<KeyT>(), q, gpu.comm, gpu.stream));
      if (options.pairs)
      {
        EXAMPLE_NCCL(ncclSend(gpu.sorted_values + from, send, nccl_type<value_t>(), q, gpu.comm, gpu.stream));
        EXAMPLE_NCCL(ncclRecv(gpu.run_values[0] + at, receive, nccl_type<value_t>(), q, gpu.comm, gpu.stream));
      }
    }
  }
  EXAMPLE_NCCL(ncclGroupEnd());
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(cudaEventRecord(gpu.events[4], gpu.stream));
  }
  nvtxRangePop();

  // 5. The received runs merged in rounds of pairs, from one buffer into the other.
  nvtxRangePushA("runs merged");
  for (int q = 0; q < parts; ++q)
  {
    auto& gpu = gpus[std::size_t(q)];
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    int from         = 0;
    bool first_round = true;
    for (const auto& round : distributed_sort::MergeRounds(offsets[std::size_t(q)]))
    {
      const int to = 1 - from;
      for (std::size_t i = 0; i < round.size(); ++i)
      {
        const distributed_sort::Merge& m = round[i];
        const std::int64_t left          = m.middle - m.first;
        const std::int64_t right         = m.last - m.middle;
        // Where the two inputs start: the first round reads runs 2i and 2i + 1 in their slots.
        std::int64_t a_at = m.first;
        std::int64_t b_at = m.middle;
        if (first_round)
        {
          a_at = slots[std::size_t(q)][2 * i] + leads[std::size_t(q)][2 * i];
          b_at = right == 0 ? a_at : slots[std::size_t(q)][2 * i + 1] + leads[std::size_t(q)][2 * i + 1];
        }
        if (right == 0)
        {
          EXAMPLE_CHECK(cudaMemcpyAsync(gpu.run_keys[to] + m.first, gpu.run_keys[from] + a_at,
                                        sizeof(KeyT) * std::size_t(left), cudaMemcpyDeviceToDevice, gpu.stream));
          if (options.pairs)
          {
            EXAMPLE_CHECK(cudaMemcpyAsync(gpu.run_values[to] + m.first, gpu.run_values[from] + a_at,
                                          sizeof(value_t) * std::size_t(left), cudaMemcpyDeviceToDevice, gpu.stream));
          }
          continue;
        }
        std::size_t bytes = 0;
        if (options.pairs)
        {
          const KeyT* a     = gpu.run_keys[from] + a_at;
          const KeyT* b     = gpu.run_keys[from] + b_at;
          const value_t* va = gpu.run_values[from] + a_at;
          const value_t* vb = gpu.run_values[from] + b_at;
          EXAMPLE_CHECK(strata::DeviceMerge::MergePairs(nullptr, bytes, a, va, left, b, vb, right,
                                                        gpu.run_keys[to] + m.first, gpu.run_values[to] + m.first,
                                                        cuda::std::less<>{}, gpu.stream));
          reserve_temp(gpu, bytes);
          EXAMPLE_CHECK(strata::DeviceMerge::MergePairs(gpu.temp, bytes, a, va, left, b, vb, right,
                                                        gpu.run_keys[to] + m.first, gpu.run_values[to] + m.first,
                                                        cuda::std::less<>{}, gpu.stream));
        }
        else
        {
          const KeyT* a = gpu.run_keys[from] + a_at;
          const KeyT* b = gpu.run_keys[from] + b_at;
          EXAMPLE_CHECK(strata::DeviceMerge::MergeKeys(nullptr, bytes, a, left, b, right, gpu.run_keys[to] + m.first,
                                                       cuda::std::less<>{}, gpu.stream));
          reserve_temp(gpu, bytes);
          EXAMPLE_CHECK(strata::DeviceMerge::MergeKeys(gpu.temp, bytes, a, left, b, right, gpu.run_keys[to] + m.first,
                                                       cuda::std::less<>{}, gpu.stream));
        }
      }
      from        = to;
      first_round = false;
    }
    gpu.result = from;
    EXAMPLE_CHECK(cudaEventRecord(gpu.events[5], gpu.stream));
  }
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(cudaStreamSynchronize(gpu.stream));
  }
  nvtxRangePop();
  nvtxRangePop();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall).count();
}

//! The time one exchange of equal parts (each GPU sends n / P keys to every GPU) takes through
//! grouped ncclSend / ncclRecv: the all-to-all bound of step 4, in ms (the slowest GPU).
template <typename KeyT>
double all_to_all_ms(std::vector<Gpu<KeyT>>& gpus, bool pairs)
{
  const int parts         = int(gpus.size());
  const std::size_t share = std::size_t(gpus[0].n / parts / 4 * 4); // 16-byte aligned parts, as in step 4
  double slowest          = 0;
  for (int trial = 0; trial < 2; ++trial) // the first warms NCCL's connections up
  {
    for (auto& gpu : gpus)
    {
      EXAMPLE_CHECK(cudaSetDevice(gpu.device));
      EXAMPLE_CHECK(cudaEventRecord(gpu.events[0], gpu.stream));
    }
    EXAMPLE_NCCL(ncclGroupStart());
    for (auto& gpu : gpus)
    {
      for (int q = 0; q < parts; ++q)
      {
        EXAMPLE_NCCL(ncclSend(gpu.keys + std::size_t(q) * share, share, nccl_type<KeyT>(), q, gpu.comm, gpu.stream));
        EXAMPLE_NCCL(ncclRecv(gpu.sorted + std::size_t(q) * share, share, nccl_type<KeyT>(), q, gpu.comm, gpu.stream));
        if (pairs)
        {
          EXAMPLE_NCCL(ncclSend(gpu.values + std::size_t(q) * share, share, ncclUint32, q, gpu.comm, gpu.stream));
          EXAMPLE_NCCL(
              ncclRecv(gpu.sorted_values + std::size_t(q) * share, share, ncclUint32, q, gpu.comm, gpu.stream));
        }
      }
    }
    EXAMPLE_NCCL(ncclGroupEnd());
    slowest = 0;
    for (auto& gpu : gpus)
    {
      EXAMPLE_CHECK(cudaSetDevice(gpu.device));
      EXAMPLE_CHECK(cudaEventRecord(gpu.events[1], gpu.stream));
      EXAMPLE_CHECK(cudaEventSynchronize(gpu.events[1]));
      float ms = 0;
      EXAMPLE_CHECK(cudaEventElapsedTime(&ms, gpu.events[0], gpu.events[1]));
      slowest = std::max(slowest, double(ms));
    }
  }
  return slowest;
}

//! Random keys (a 64-bit mix of the global index and the seed) and, for pairs, the global index
//! as the value, on every GPU.
template <typename KeyT>
__global__ void fill_keys(KeyT* keys, value_t* values, std::int64_t n, std::int64_t first, std::uint64_t seed)
{
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
  {
    std::uint64_t x = (std::uint64_t(first + i) + seed) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    keys[i] = KeyT(x);
    if (values != nullptr)
    {
      values[i] = value_t(first + i);
    }
  }
}

//! Item counts up to which the result is also compared with a host sort of every item.
constexpr std::int64_t host_check_limit = std::int64_t(1) << 24;

//! The fingerprint of n items (the sum of ItemHash) into *out, on gpu's stream.
template <typename KeyT>
void fingerprint(Gpu<KeyT>& gpu, const KeyT* keys, const value_t* values, std::int64_t n, unsigned long long* out)
{
  using index_t = strata::CountingInputIterator<std::int64_t>;
  const strata::TransformInputIterator<unsigned long long, ItemHash<KeyT>, index_t> items(index_t(0),
                                                                                          ItemHash<KeyT>{keys, values});
  std::size_t bytes = 0;
  EXAMPLE_CHECK(strata::DeviceReduce::Sum(nullptr, bytes, items, out, n, gpu.stream));
  reserve_temp(gpu, bytes);
  EXAMPLE_CHECK(strata::DeviceReduce::Sum(gpu.temp, bytes, items, out, n, gpu.stream));
}

//! Checks the results where they lie, at any size: each GPU's result in order (and, for pairs,
//! stable: equal keys in the order of their global index, the value), each GPU's first item not
//! below the last of the GPU before, as many items out as in, and the same multiset of items
//! (equal sums of ItemHash over the inputs and over the results).
template <typename KeyT>
bool check_on_gpus(std::vector<Gpu<KeyT>>& gpus, const Options& options)
{
  // The values are global indices in 32 bits: they order equal keys while they do not wrap.
  const bool stable = options.pairs && options.keys_per_gpu * std::int64_t(gpus.size()) <= (std::int64_t(1) << 32);
  unsigned long long in_sum = 0, out_sum = 0, violations = 0;
  std::int64_t in_items = 0, out_items = 0;
  bool ends_ordered = true;
  bool have_last    = false;
  KeyT last_key{};
  value_t last_value{};
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    const KeyT* out_keys       = gpu.run_keys[gpu.result];
    const value_t* out_values  = options.pairs ? gpu.run_values[gpu.result] : nullptr;
    unsigned long long* d_sums = allocate<unsigned long long>(3, gpu.stream); // in, out, violations
    EXAMPLE_CHECK(cudaMemsetAsync(d_sums, 0, 3 * sizeof(unsigned long long), gpu.stream));
    fingerprint(gpu, gpu.keys, options.pairs ? gpu.values : nullptr, gpu.n, d_sums);
    fingerprint(gpu, out_keys, out_values, gpu.received_total, d_sums + 1);
    if (gpu.received_total > 1)
    {
      EXAMPLE_CHECK(strata::DeviceFor::Bulk(
          gpu.received_total - 1, OrderCheckOp<KeyT>{out_keys, stable ? out_values : nullptr, d_sums + 2}, gpu.stream));
    }
    unsigned long long sums[3] = {};
    EXAMPLE_CHECK(cudaMemcpyAsync(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost, gpu.stream));
    EXAMPLE_CHECK(cudaFreeAsync(d_sums, gpu.stream));
    EXAMPLE_CHECK(cudaStreamSynchronize(gpu.stream));
    in_sum += sums[0];
    out_sum += sums[1];
    violations += sums[2];
    in_items += gpu.n;
    out_items += gpu.received_total;
    if (gpu.received_total > 0)
    {
      const std::int64_t last = gpu.received_total - 1;
      KeyT first_key{};
      value_t first_value{};
      EXAMPLE_CHECK(cudaMemcpy(&first_key, out_keys, sizeof(KeyT), cudaMemcpyDeviceToHost));
      if (stable)
      {
        EXAMPLE_CHECK(cudaMemcpy(&first_value, out_values, sizeof(value_t), cudaMemcpyDeviceToHost));
      }
      if (have_last && (first_key < last_key || (stable && first_key == last_key && first_value < last_value)))
      {
        ends_ordered = false;
      }
      EXAMPLE_CHECK(cudaMemcpy(&last_key, out_keys + last, sizeof(KeyT), cudaMemcpyDeviceToHost));
      if (stable)
      {
        EXAMPLE_CHECK(cudaMemcpy(&last_value, out_values + last, sizeof(value_t), cudaMemcpyDeviceToHost));
      }
      have_last = true;
    }
  }
  const bool correct = violations == 0 && ends_ordered && in_items == out_items && in_sum == out_sum;
  std::printf("  check on the GPUs: %llu neighbours out of order%s, GPU boundaries %s, %lld items in, %lld out, "
              "fingerprints %s\n",
              violations, stable ? " (or unstable)" : "", ends_ordered ? "in order" : "OUT OF ORDER",
              static_cast<long long>(in_items), static_cast<long long>(out_items),
              in_sum == out_sum ? "equal" : "DIFFERENT");
  return correct;
}

//! Compares the results, read back in the order of the GPUs, with a host sort (stable, for pairs)
//! of every input item.
template <typename KeyT>
bool check_on_host(std::vector<Gpu<KeyT>>& gpus, const Options& options)
{
  std::vector<KeyT> all_keys;
  std::vector<value_t> all_values;
  std::vector<KeyT> result_keys;
  std::vector<value_t> result_values;
  const auto append = [](auto& to, const auto* from, std::int64_t n)
  {
    const std::size_t at = to.size();
    to.resize(at + std::size_t(n));
    EXAMPLE_CHECK(cudaMemcpy(to.data() + at, from, sizeof(to[0]) * std::size_t(n), cudaMemcpyDeviceToHost));
  };
  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    append(all_keys, gpu.keys, gpu.n);
    append(result_keys, gpu.run_keys[gpu.result], gpu.received_total);
    if (options.pairs)
    {
      append(all_values, gpu.values, gpu.n);
      append(result_values, gpu.run_values[gpu.result], gpu.received_total);
    }
  }
  bool correct = result_keys.size() == all_keys.size();
  if (options.pairs)
  {
    std::vector<std::pair<KeyT, value_t>> expected(all_keys.size());
    for (std::size_t i = 0; i < all_keys.size(); ++i)
    {
      expected[i] = {all_keys[i], all_values[i]};
    }
    std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; correct && i < expected.size(); ++i)
    {
      correct = result_keys[i] == expected[i].first && result_values[i] == expected[i].second;
    }
  }
  else
  {
    std::sort(all_keys.begin(), all_keys.end());
    correct = correct && result_keys == all_keys;
  }
  std::printf("  check against a host sort: %s\n", correct ? "equal" : "DIFFERENT");
  return correct;
}

template <typename KeyT>
int run(const Options& options, const std::vector<int>& devices)
{
  const int parts = int(devices.size());
  std::vector<Gpu<KeyT>> gpus(static_cast<std::size_t>(parts));
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(parts));
  EXAMPLE_NCCL(ncclCommInitAll(comms.data(), parts, devices.data()));
  const std::uint64_t seed = 2026;
  for (int p = 0; p < parts; ++p)
  {
    auto& gpu  = gpus[std::size_t(p)];
    gpu.device = devices[std::size_t(p)];
    gpu.comm   = comms[std::size_t(p)];
    gpu.n      = options.keys_per_gpu;
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(cudaStreamCreateWithFlags(&gpu.stream, cudaStreamNonBlocking));
    // Keep freed memory in the pool: the receive buffers come and go with every sort.
    cudaMemPool_t pool{};
    EXAMPLE_CHECK(cudaDeviceGetDefaultMemPool(&pool, gpu.device));
    std::uint64_t keep = ~std::uint64_t(0);
    EXAMPLE_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    gpu.keys              = allocate<KeyT>(gpu.n, gpu.stream);
    gpu.sorted            = allocate<KeyT>(gpu.n, gpu.stream);
    gpu.samples           = allocate<KeyT>(options.samples, gpu.stream);
    gpu.gathered          = allocate<KeyT>(std::int64_t(options.samples) * parts, gpu.stream);
    gpu.gathered_sorted   = allocate<KeyT>(std::int64_t(options.samples) * parts, gpu.stream);
    gpu.starts_d          = allocate<std::int64_t>(parts, gpu.stream);
    gpu.counts_d          = allocate<std::int64_t>(parts, gpu.stream);
    gpu.received_d        = allocate<std::int64_t>(parts, gpu.stream);
    gpu.received_starts_d = allocate<std::int64_t>(parts, gpu.stream);
    if (options.pairs)
    {
      gpu.values        = allocate<value_t>(gpu.n, gpu.stream);
      gpu.sorted_values = allocate<value_t>(gpu.n, gpu.stream);
    }
    EXAMPLE_CHECK(cudaMallocHost(&gpu.host, sizeof(std::int64_t) * 4 * std::size_t(parts)));
    for (cudaEvent_t& event : gpu.events)
    {
      EXAMPLE_CHECK(cudaEventCreate(&event));
    }
    fill_keys<<<1024, 256, 0, gpu.stream>>>(gpu.keys, gpu.values, gpu.n, std::int64_t(p) * gpu.n, seed);
    EXAMPLE_CHECK(cudaGetLastError());
  }

  // The sorts; the last one is checked. Times: the slowest GPU's per phase, medians over repeats.
  std::vector<std::vector<double>> phase_ms(5);
  std::vector<double> wall_ms;
  for (int r = 0; r < options.repeat + 1; ++r)
  {
    const double wall = distributed_sort_once(gpus, options);
    if (r == 0)
    {
      continue; // warm-up: NCCL connections, the memory pool
    }
    wall_ms.push_back(wall);
    for (int k = 0; k < 5; ++k)
    {
      double slowest = 0;
      for (auto& gpu : gpus)
      {
        EXAMPLE_CHECK(cudaSetDevice(gpu.device));
        float ms = 0;
        EXAMPLE_CHECK(cudaEventElapsedTime(&ms, gpu.events[k], gpu.events[k + 1]));
        slowest = std::max(slowest, double(ms));
      }
      phase_ms[std::size_t(k)].push_back(slowest);
    }
  }

  const auto median = [](std::vector<double> v)
  {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  const double exchange_bound = all_to_all_ms(gpus, options.pairs);
  const double total_keys     = double(options.keys_per_gpu) * parts;
  std::printf("distributed sort of %lld %s%s on %d GPU%s (%lld per GPU), %d samples per GPU\n",
              static_cast<long long>(total_keys), options.u64 ? "u64 keys" : "u32 keys",
              options.pairs ? " with u32 values" : "", parts, parts == 1 ? "" : "s",
              static_cast<long long>(options.keys_per_gpu), options.samples);
  double phases = 0;
  for (int k = 0; k < 5; ++k)
  {
    const double ms = median(phase_ms[std::size_t(k)]);
    phases += ms;
    std::printf("  %-24s %9.3f ms\n", phase_names[k], ms);
  }
  const double wall = median(wall_ms);
  std::printf("  %-24s %9.3f ms (phases %.3f ms): %.3g keys/s\n", "end to end", wall, phases, total_keys / wall * 1e3);
  std::printf("  %-24s %9.3f ms (local sort + this: %.3f ms)\n", "all-to-all of n/P each", exchange_bound,
              median(phase_ms[0]) + exchange_bound);
  std::printf("  keys received per GPU:");
  for (const auto& gpu : gpus)
  {
    std::printf(" %lld", static_cast<long long>(gpu.received_total));
  }
  std::printf("\n");

  // The checks of the last sort: on the GPUs always, against a host sort where that is quick.
  bool correct = check_on_gpus(gpus, options);
  if (options.keys_per_gpu * parts <= host_check_limit)
  {
    correct = check_on_host(gpus, options) && correct;
  }
  std::printf("%s\n", correct ? "globally sorted: correct" : "WRONG: see the checks above");

  for (auto& gpu : gpus)
  {
    EXAMPLE_CHECK(cudaSetDevice(gpu.device));
    EXAMPLE_CHECK(cudaStreamSynchronize(gpu.stream));
    for (void* p : {static_cast<void*>(gpu.keys), static_cast<void*>(gpu.sorted), static_cast<void*>(gpu.samples),
                    static_cast<void*>(gpu.gathered), static_cast<void*>(gpu.gathered_sorted),
                    static_cast<void*>(gpu.starts_d), static_cast<void*>(gpu.counts_d),
                    static_cast<void*>(gpu.received_d), static_cast<void*>(gpu.received_starts_d),
                    static_cast<void*>(gpu.values), static_cast<void*>(gpu.sorted_values),
                    static_cast<void*>(gpu.run_keys[0]), static_cast<void*>(gpu.run_keys[1]),
                    static_cast<void*>(gpu.run_values[0]), static_cast<void*>(gpu.run_values[1]), gpu.temp})
    {
      if (p != nullptr)
      {
        EXAMPLE_CHECK(cudaFree(p));
      }
    }
    EXAMPLE_CHECK(cudaFreeHost(gpu.host));
    for (cudaEvent_t event : gpu.events)
    {
      EXAMPLE_CHECK(cudaEventDestroy(event));
    }
    EXAMPLE_CHECK(cudaStreamDestroy(gpu.stream));
    EXAMPLE_NCCL(ncclCommDestroy(gpu.comm));
  }
  return correct ? 0 : 1;
}
} // namespace

int main(int argc, char** argv)
{
  example_require_gpu();
  Options options;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    if (arg == "--keys-per-gpu" && i + 1 < argc)
    {
      options.keys_per_gpu = std::atoll(argv[++i]);
    }
    else if (arg == "--gpus" && i + 1 < argc)
    {
      options.gpus = std::atoi(argv[++i]);
    }
    else if (arg == "--repeat" && i + 1 < argc)
    {
      options.repeat = std::atoi(argv[++i]);
    }
    else if (arg == "--u64")
    {
      options.u64 = true;
    }
    else if (arg == "--pairs")
    {
      options.pairs = true;
    }
    else
    {
      std::fprintf(stderr, "usage: %s [--keys-per-gpu N] [--gpus P] [--u64] [--pairs] [--repeat R]\n", argv[0]);
      return 2;
    }
  }
  int count = 0;
  EXAMPLE_CHECK(cudaGetDeviceCount(&count));
  const int parts = options.gpus > 0 ? std::min(options.gpus, count) : count;
  if (options.keys_per_gpu < 1 || options.repeat < 1)
  {
    std::fprintf(stderr, "at least one key per GPU and one timed sort\n");
    return 2;
  }
  std::vector<int> devices(static_cast<std::size_t>(parts));
  for (int p = 0; p < parts; ++p)
  {
    devices[std::size_t(p)] = p;
  }
  return options.u64 ? run<std::uint64_t>(options, devices) : run<std::uint32_t>(options, devices);
}

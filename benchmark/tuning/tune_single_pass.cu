// Tuning sweep of the single-pass compactions (not built by default: -DSTRATA_ENABLE_TUNING=ON):
// DeviceSelect::If (1%, 50% and 99% of u32 selected), Flagged (u8 flags, half set), Unique (keys
// in runs of mean 8) and DevicePartition::If (50%) through DispatchSelectIf, the three-way
// DevicePartition::If (a third in each part) through DispatchThreeWayPartitionIf, and ReduceByKey (u32
// keys in runs of mean 8, u32 values summed) and RunLengthEncode::Encode (the same keys, as
// ReduceByKey of ones) through DispatchReduceByKey and (as DeviceRunLengthEncode runs it) through
// AgentRle, with NonTrivialRuns of the same keys, with one policy hub per candidate, next to
// CUB, at 2^24 and 2^28 items of rotating input. Candidates: the shipped tiles with each of the
// skeleton's Pipeline modes, then staged ones over threads, items per thread, blocks per SM and
// L2 prefetch. Each candidate's first run checks that it selects (or finds) as many items as CUB.
// Names: "<function>/<NONE|PERSISTENT|STAGED>/<threads>x<items>/<blocks per SM>/p<prefetch KiB>"
// (the skeleton's Pipeline: a block a tile; blocks taking tile after tile; and so with the next
// tile staged in shared memory), "<shipped tile's name>/lb<N>" (other look-back waits, lookback_t)
// and "<function>/cub".
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/device/dispatch/dispatch_rle.cuh>
#include <strata/device/dispatch/dispatch_select_if.cuh>
#include <strata/iterator/constant_input_iterator.cuh>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>

#include "bench_common.cuh"
#include "bench_run_keys.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using u8  = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

//! What a row measures.
enum class op
{
  select_if_1,
  select_if_50,
  select_if_99,
  select_flagged,
  unique,
  partition_if,
  partition_three_way,
  reduce_by_key,
  rle_encode,
  rle_non_trivial_runs
};

//! Selects the items below a threshold: of uniform random words, the fraction threshold / 2^32.
struct less_than
{
  u32 threshold;
  __host__ __device__ bool operator()(const u32& item) const
  {
    return item < threshold;
  }
};

constexpr u32 threshold_of(op kind)
{
  return kind == op::select_if_1    ? u32((u64(1) << 32) / 100)
         : kind == op::select_if_99 ? u32((u64(99) << 32) / 100)
                                    : u32(u64(1) << 31);
}

//! The look-back of a candidate: 0 the shipped one (600 ns before the first read, 300 ns doubling
//! to 600 between reads); 1 none first and 100 ns doubling to 400; 2 300 ns first and 150 to 600.
template <int LB>
using lookback_t =
    std::conditional_t<LB == 1, strata::detail::LookbackPolicy<0, 100, 400, 1024, 100, 200>,
                       std::conditional_t<LB == 2, strata::detail::LookbackPolicy<300, 150, 600, 1024, 100, 200>,
                                          strata::detail::LookbackPolicy<600, 300, 600, 1024, 100, 200>>>;

template <int THREADS, int ITEMS, int BLOCKS, strata::detail::single_pass::Pipeline PIPELINE, int PREFETCH_KIB,
          int LB = 0>
struct candidate_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using SelectIfPolicyT = strata::AgentSelectIfPolicy<THREADS, ITEMS, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT,
                                                        strata::BLOCK_SCAN_WARP_SCANS, lookback_t<LB>, BLOCKS,
                                                        PREFETCH_KIB * 1024, PIPELINE>;
    using ThreeWayPartitionPolicy = SelectIfPolicyT;
  };
  using MaxPolicy = Policy;
};

template <int THREADS, int ITEMS, int BLOCKS, strata::detail::single_pass::Pipeline PIPELINE, int PREFETCH_KIB,
          int LB = 0>
struct by_key_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using ReduceByKeyPolicyT = strata::AgentReduceByKeyPolicy<THREADS, ITEMS, strata::BLOCK_LOAD_WARP_TRANSPOSE,
                                                              strata::LOAD_DEFAULT, strata::BLOCK_SCAN_WARP_SCANS,
                                                              lookback_t<LB>, BLOCKS, PREFETCH_KIB * 1024, PIPELINE>;
  };
  using MaxPolicy = Policy;
};

template <int THREADS, int ITEMS, int BLOCKS, strata::detail::single_pass::Pipeline PIPELINE, int PREFETCH_KIB,
          int LB = 0>
struct rle_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using RleSweepPolicyT =
        strata::AgentRlePolicy<THREADS, ITEMS, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT, true,
                               strata::BLOCK_SCAN_WARP_SCANS, lookback_t<LB>, BLOCKS, PREFETCH_KIB * 1024, PIPELINE>;
  };
  using MaxPolicy = Policy;
};

inline void* temp_storage(std::size_t& bytes)
{
  static bench::device_buffer<unsigned char> temp(std::size_t(64) << 20);
  bytes = temp.bytes();
  return temp.data();
}

//! The counts the calls write (two for the three-way partition); d_count() is the first.
int* d_counts()
{
  static bench::device_buffer<int> counts(2);
  return counts.data();
}

int* d_count()
{
  return d_counts();
}

//! u8 flags, 0 or 1 from random bits, for 2^28 items (the flagged rows read windows of them).
const u8* flags()
{
  static bench::device_buffer<u32> words(std::size_t(1) << 26);
  static const u8* masked = []
  {
    bench::fill_random(words, 4099);
    std::vector<u32> host(words.size());
    bench::check(cudaMemcpy(host.data(), words.data(), words.bytes(), cudaMemcpyDeviceToHost), "flags");
    for (u32& word : host)
    {
      word &= 0x01010101u;
    }
    bench::check(cudaMemcpy(words.data(), host.data(), words.bytes(), cudaMemcpyHostToDevice), "flags");
    return reinterpret_cast<const u8*>(words.data());
  }();
  return masked;
}

template <typename HubT>
struct is_rle_hub : std::false_type
{
};
template <int THREADS, int ITEMS, int BLOCKS, strata::detail::single_pass::Pipeline PIPELINE, int PREFETCH_KIB, int LB>
struct is_rle_hub<rle_hub<THREADS, ITEMS, BLOCKS, PIPELINE, PREFETCH_KIB, LB>> : std::true_type
{
};

//! One call of KIND by strata (with HubT) or by CUB (HubT void).
template <typename HubT, op KIND>
cudaError_t invoke(void* temp, std::size_t& bytes, const u32* in, u32* out, std::int64_t n, cudaStream_t stream)
{
  constexpr bool CUB = std::is_void_v<HubT>;
  if constexpr (KIND == op::select_flagged)
  {
    if constexpr (CUB)
    {
      return cub::DeviceSelect::Flagged(temp, bytes, in, flags(), out, d_count(), n, stream);
    }
    else
    {
      return strata::DispatchSelectIf<const u32*, const u8*, u32*, int*, strata::NullType, strata::NullType,
                                      std::int64_t, strata::SelectImpl::Select, HubT>::Dispatch(temp, bytes, in,
                                                                                                flags(), out, d_count(),
                                                                                                {}, {}, n, stream);
    }
  }
  else if constexpr (KIND == op::partition_three_way)
  {
    u32* second_out = static_cast<u32*>(bench::scratch(1, std::size_t(n) * sizeof(u32)));
    u32* rest_out   = static_cast<u32*>(bench::scratch(2, std::size_t(n) * sizeof(u32)));
    const less_than first_op{u32((u64(1) << 32) / 3)};
    const less_than second_op{u32((u64(2) << 32) / 3)};
    if constexpr (CUB)
    {
      return cub::DevicePartition::If(temp, bytes, in, out, second_out, rest_out, d_counts(), n, first_op, second_op,
                                      stream);
    }
    else
    {
      return strata::DispatchThreeWayPartitionIf<const u32*, u32*, u32*, u32*, int*, less_than, less_than, std::int64_t,
                                                 HubT>::Dispatch(temp, bytes, in, out, second_out, rest_out, d_counts(),
                                                                 first_op, second_op, n, stream);
    }
  }
  else if constexpr (KIND == op::rle_non_trivial_runs || (KIND == op::rle_encode && is_rle_hub<HubT>::value))
  {
    u32* second_out = static_cast<u32*>(bench::scratch(1, std::size_t(n) * sizeof(u32)));
    if constexpr (CUB)
    {
      return cub::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, in, out, second_out, d_count(), n, stream);
    }
    else
    {
      return strata::detail::rle::Dispatch<typename HubT::MaxPolicy, KIND == op::rle_non_trivial_runs>(
          temp, bytes, in, out, second_out, d_count(), cuda::std::equal_to<>{}, n, stream);
    }
  }
  else if constexpr (KIND == op::reduce_by_key || KIND == op::rle_encode)
  {
    u32* second_out = static_cast<u32*>(bench::scratch(1, std::size_t(n) * sizeof(u32)));
    using OnesT     = strata::ConstantInputIterator<u32, std::int64_t>;
    if constexpr (CUB)
    {
      return KIND == op::reduce_by_key
                 ? cub::DeviceReduce::ReduceByKey(temp, bytes, in, out,
                                                  bench::shared_rotating_buffer<u32>(std::size_t(n)).next(), second_out,
                                                  d_count(), cuda::std::plus<>{}, n, stream)
                 : cub::DeviceRunLengthEncode::Encode(temp, bytes, in, out, second_out, d_count(), n, stream);
    }
    else if constexpr (KIND == op::reduce_by_key)
    {
      return strata::DispatchReduceByKey<const u32*, u32*, const u32*, u32*, int*, cuda::std::equal_to<>,
                                         cuda::std::plus<>, std::int64_t, u32,
                                         HubT>::Dispatch(temp, bytes, in, out,
                                                         bench::shared_rotating_buffer<u32>(std::size_t(n)).next(),
                                                         second_out, d_count(), {}, {}, n, stream);
    }
    else
    {
      return strata::DispatchReduceByKey<const u32*, u32*, OnesT, u32*, int*, cuda::std::equal_to<>, cuda::std::plus<>,
                                         std::int64_t, u32, HubT>::Dispatch(temp, bytes, in, out, OnesT(1u), second_out,
                                                                            d_count(), {}, {}, n, stream);
    }
  }
  else if constexpr (KIND == op::unique)
  {
    if constexpr (CUB)
    {
      return cub::DeviceSelect::Unique(temp, bytes, in, out, d_count(), n, stream);
    }
    else
    {
      return strata::DispatchSelectIf<const u32*, strata::NullType*, u32*, int*, strata::NullType,
                                      cuda::std::equal_to<>, std::int64_t, strata::SelectImpl::Select,
                                      HubT>::Dispatch(temp, bytes, in, nullptr, out, d_count(), {}, {}, n, stream);
    }
  }
  else
  {
    constexpr bool PARTITION = KIND == op::partition_if;
    const less_than op_{threshold_of(KIND)};
    if constexpr (CUB)
    {
      return PARTITION ? cub::DevicePartition::If(temp, bytes, in, out, d_count(), n, op_, stream)
                       : cub::DeviceSelect::If(temp, bytes, in, out, d_count(), n, op_, stream);
    }
    else
    {
      return strata::DispatchSelectIf < const u32*, strata::NullType*, u32*, int*, less_than, strata::NullType,
             std::int64_t, PARTITION ? strata::SelectImpl::Partition : strata::SelectImpl::Select,
             HubT > ::Dispatch(temp, bytes, in, nullptr, out, d_count(), op_, {}, n, stream);
    }
  }
}

//! The count a call of KIND wrote.
int count_after(cudaStream_t stream)
{
  int count = -1;
  bench::check(cudaMemcpyAsync(&count, d_count(), sizeof(int), cudaMemcpyDeviceToHost, stream), "count");
  bench::check(cudaStreamSynchronize(stream), "count");
  return count;
}

template <op KIND>
const u32* input(std::size_t n)
{
  if constexpr (KIND == op::unique || KIND == op::reduce_by_key || KIND == op::rle_encode
                || KIND == op::rle_non_trivial_runs)
  {
    return bench::keys_in_runs<2053>().next(n);
  }
  else
  {
    return bench::shared_rotating_buffer<u32>(n).next();
  }
}

template <op KIND>
std::size_t bytes_moved(std::size_t n)
{
  const std::size_t kept = KIND == op::select_if_1    ? n / 100
                           : KIND == op::select_if_99 ? n / 100 * 99
                           : KIND == op::unique       ? n / 8
                           : KIND == op::partition_if ? n
                                                      : n / 2;
  return n * sizeof(u32) + kept * sizeof(u32) + (KIND == op::select_flagged ? n : 0);
}

//! strata with HubT, or CUB (HubT void), over rotating inputs of state.range(0) items.
template <typename HubT, op KIND>
void run(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  u32* out            = static_cast<u32*>(bench::scratch(0, n * sizeof(u32)));
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  if constexpr (!std::is_void_v<HubT>)
  {
    const std::string configuration = std::string(__PRETTY_FUNCTION__) + " at " + std::to_string(n);
    if (bench::first_run(configuration))
    {
      const u32* in = input<KIND>(n);
      bench::check(invoke<void, KIND>(temp, bytes, in, out, std::int64_t(n), nullptr), "cub");
      const int expected = count_after(nullptr);
      bench::check(invoke<HubT, KIND>(temp, bytes, in, out, std::int64_t(n), nullptr), "strata");
      const int got = count_after(nullptr);
      if (!bench::record(
              state, configuration,
              got == expected ? "" : "count " + std::to_string(got) + " against CUB's " + std::to_string(expected)))
      {
        return;
      }
    }
  }
  bench::time_iterations(
      state, [&](cudaStream_t stream)
      { bench::check(invoke<HubT, KIND>(temp, bytes, input<KIND>(n), out, std::int64_t(n), stream), "select"); });
  bench::set_throughput(state, n, bytes_moved<KIND>(n));
}
} // namespace

#define STRATA_SIZES                                                                                                   \
  {                                                                                                                    \
    1 << 24, 1 << 28                                                                                                   \
  }
#define STRATA_ROW(FUNC, NAME, ...)                                                                                    \
  BENCHMARK(run<__VA_ARGS__>)->Name(NAME)->ArgsProduct({STRATA_SIZES})->UseManualTime()->Unit(benchmark::kMicrosecond)
#define STRATA_CANDIDATE(KIND, FUNC, THREADS, ITEMS, BLOCKS, PIPELINE, PREFETCH_KIB)                                   \
  STRATA_ROW(FUNC, FUNC "/" #PIPELINE "/" #THREADS "x" #ITEMS "/" #BLOCKS "/p" #PREFETCH_KIB,                          \
             candidate_hub<THREADS, ITEMS, BLOCKS, strata::detail::single_pass::Pipeline::PIPELINE, PREFETCH_KIB>,     \
             KIND)
#define STRATA_SWEEP(KIND, FUNC)                                                                                       \
  STRATA_ROW(FUNC, FUNC "/cub", void, KIND);                                                                           \
  STRATA_CANDIDATE(KIND, FUNC, 256, 24, 3, NONE, 3072);                                                                \
  STRATA_CANDIDATE(KIND, FUNC, 256, 24, 3, PERSISTENT, 3072);                                                          \
  STRATA_CANDIDATE(KIND, FUNC, 256, 12, 3, PERSISTENT, 3072);                                                          \
  STRATA_CANDIDATE(KIND, FUNC, 256, 8, 4, STAGED, 0);                                                                  \
  STRATA_CANDIDATE(KIND, FUNC, 256, 12, 3, STAGED, 0);                                                                 \
  STRATA_CANDIDATE(KIND, FUNC, 256, 16, 2, STAGED, 0);                                                                 \
  STRATA_CANDIDATE(KIND, FUNC, 256, 12, 3, STAGED, 3072);                                                              \
  STRATA_CANDIDATE(KIND, FUNC, 128, 16, 6, STAGED, 0);                                                                 \
  STRATA_CANDIDATE(KIND, FUNC, 512, 8, 2, STAGED, 0)

#define STRATA_BY_KEY_CANDIDATE(KIND, FUNC, THREADS, ITEMS, BLOCKS, PIPELINE, PREFETCH_KIB)                            \
  STRATA_ROW(FUNC, FUNC "/" #PIPELINE "/" #THREADS "x" #ITEMS "/" #BLOCKS "/p" #PREFETCH_KIB,                          \
             by_key_hub<THREADS, ITEMS, BLOCKS, strata::detail::single_pass::Pipeline::PIPELINE, PREFETCH_KIB>, KIND)
#define STRATA_RLE_CANDIDATE(KIND, FUNC, THREADS, ITEMS, BLOCKS, PIPELINE, PREFETCH_KIB)                               \
  STRATA_ROW(FUNC, FUNC "/" #PIPELINE "/" #THREADS "x" #ITEMS "/" #BLOCKS "/p" #PREFETCH_KIB,                          \
             rle_hub<THREADS, ITEMS, BLOCKS, strata::detail::single_pass::Pipeline::PIPELINE, PREFETCH_KIB>, KIND)
#define STRATA_RLE_SWEEP(KIND, FUNC)                                                                                   \
  STRATA_ROW(FUNC, FUNC "/cub", void, KIND);                                                                           \
  STRATA_RLE_CANDIDATE(KIND, FUNC, 256, 16, 3, NONE, 3072);                                                            \
  STRATA_RLE_CANDIDATE(KIND, FUNC, 256, 16, 3, PERSISTENT, 3072);                                                      \
  STRATA_RLE_CANDIDATE(KIND, FUNC, 256, 8, 4, STAGED, 0);                                                              \
  STRATA_RLE_CANDIDATE(KIND, FUNC, 256, 12, 3, STAGED, 0);                                                             \
  STRATA_RLE_CANDIDATE(KIND, FUNC, 256, 16, 2, STAGED, 0);                                                             \
  STRATA_RLE_CANDIDATE(KIND, FUNC, 256, 12, 3, STAGED, 3072)
#define STRATA_BY_KEY_SWEEP(KIND, FUNC)                                                                                \
  STRATA_ROW(FUNC, FUNC "/cub", void, KIND);                                                                           \
  STRATA_BY_KEY_CANDIDATE(KIND, FUNC, 128, 16, 4, NONE, 3072);                                                         \
  STRATA_BY_KEY_CANDIDATE(KIND, FUNC, 128, 16, 4, PERSISTENT, 3072);                                                   \
  STRATA_BY_KEY_CANDIDATE(KIND, FUNC, 128, 8, 6, STAGED, 0);                                                           \
  STRATA_BY_KEY_CANDIDATE(KIND, FUNC, 128, 16, 4, STAGED, 0);                                                          \
  STRATA_BY_KEY_CANDIDATE(KIND, FUNC, 256, 8, 3, STAGED, 0);                                                           \
  STRATA_BY_KEY_CANDIDATE(KIND, FUNC, 128, 16, 4, STAGED, 3072)

// The shipped tiles with each look-back (names end in /lb<N>, lookback_t).
#define STRATA_LB_ROW(HUB, KIND, FUNC, THREADS, ITEMS, BLOCKS, LB)                                                     \
  STRATA_ROW(FUNC, FUNC "/NONE/" #THREADS "x" #ITEMS "/" #BLOCKS "/p3072/lb" #LB,                                      \
             HUB<THREADS, ITEMS, BLOCKS, strata::detail::single_pass::Pipeline::NONE, 3072, LB>, KIND)
#define STRATA_LB_SWEEP(HUB, KIND, FUNC, THREADS, ITEMS, BLOCKS)                                                       \
  STRATA_LB_ROW(HUB, KIND, FUNC, THREADS, ITEMS, BLOCKS, 1);                                                           \
  STRATA_LB_ROW(HUB, KIND, FUNC, THREADS, ITEMS, BLOCKS, 2)
STRATA_LB_SWEEP(candidate_hub, op::select_if_1, "select_if_1", 256, 24, 3);
STRATA_LB_SWEEP(candidate_hub, op::select_if_50, "select_if_50", 256, 24, 3);
STRATA_LB_SWEEP(candidate_hub, op::partition_if, "partition_if", 256, 24, 3);
STRATA_LB_SWEEP(by_key_hub, op::reduce_by_key, "reduce_by_key", 128, 16, 4);
STRATA_LB_SWEEP(rle_hub, op::rle_encode, "rle_encode", 256, 16, 3);

STRATA_SWEEP(op::select_if_1, "select_if_1");
STRATA_SWEEP(op::select_if_50, "select_if_50");
STRATA_SWEEP(op::select_if_99, "select_if_99");
STRATA_SWEEP(op::select_flagged, "select_flagged");
STRATA_SWEEP(op::unique, "unique");
STRATA_SWEEP(op::partition_if, "partition_if");
STRATA_SWEEP(op::partition_three_way, "partition_three_way");
STRATA_BY_KEY_SWEEP(op::reduce_by_key, "reduce_by_key");
STRATA_BY_KEY_SWEEP(op::rle_encode, "rle_encode_by_key");
STRATA_RLE_SWEEP(op::rle_encode, "rle_encode");
STRATA_RLE_SWEEP(op::rle_non_trivial_runs, "rle_non_trivial_runs");
BENCHMARK_MAIN();

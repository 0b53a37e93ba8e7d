// Tuning sweep of DeviceMergeSort (not built by default: -DSTRATA_ENABLE_TUNING=ON): SortKeysCopy
// of u32 and SortPairsCopy of u32/u32 through DispatchMergeSort with one policy hub per candidate
// (merge tile: threads x items; first-pass tile: threads x items; the tiles from which merge
// passes take their splits from a partition kernel), next to CUB, at 2^16, 2^20 and 2^24 items
// of random bits from a rotating input. Names: "<function>/<type>/m<threads>x<items>/s<threads>x<items>/p<tiles>"
// and "<function>/<type>/cub".
#include <strata/device/device_merge_sort.cuh>

#include <cub/device/device_merge_sort.cuh>

#include "bench_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace
{
using u32 = std::uint32_t;
using strata::NullType;

template <int MT, int MI, int ST, int SI, long long PARTITION, int MB = 1, int SB = 1>
struct candidate_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    struct MergeSortPolicy : strata::AgentMergeSortPolicy<MT, MI, strata::BLOCK_LOAD_WARP_TRANSPOSE,
                                                          strata::LOAD_DEFAULT, strata::BLOCK_STORE_WARP_TRANSPOSE>
    {
      static constexpr int MIN_BLOCKS_PER_SM = MB;
    };
    struct BlockSortPolicy : strata::AgentMergeSortPolicy<ST, SI, strata::BLOCK_LOAD_WARP_TRANSPOSE,
                                                          strata::LOAD_DEFAULT, strata::BLOCK_STORE_WARP_TRANSPOSE>
    {
      static constexpr int MIN_BLOCKS_PER_SM = SB;
    };
    static constexpr long long PARTITION_MIN_TILES = PARTITION;
  };
  using MaxPolicy = Policy;
};

template <typename T, int SLOT = 0>
T* output()
{
  static bench::device_buffer<T> out(std::size_t(1) << 24);
  return out.data();
}

inline void* temp_storage(std::size_t bytes)
{
  static std::size_t size = 0;
  static void* ptr        = nullptr;
  if (bytes > size)
  {
    cudaFree(ptr);
    bench::check(cudaMalloc(&ptr, bytes), "temp storage");
    size = bytes;
  }
  return ptr;
}

//! Times `sort(temp, bytes, keys_in, values_in, stream)` on rotating inputs, then checks one sort's
//! keys against std::sort's (a candidate that sorts wrongly reports an error, not a time).
template <typename KeyT, typename V, typename SortT>
void time_sort(benchmark::State& state, std::size_t n, std::size_t bytes_per_item, SortT sort)
{
  bench::rotating_buffer<KeyT>& keys = bench::shared_rotating_buffer<KeyT>(n);
  bench::rotating_buffer<V>& values  = bench::shared_rotating_buffer<V>(n);
  std::size_t bytes                  = 0;
  bench::check(sort(nullptr, bytes, keys.next(), values.next(), cudaStream_t(0)), "size query");
  void* temp = temp_storage(bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(sort(temp, bytes, keys.next(), values.next(), stream), "sort"); });
  bench::set_throughput(state, n, 2 * n * bytes_per_item);
  KeyT* d_keys_in = keys.next();
  bench::poison(output<KeyT>(), n);
  bench::check(sort(temp, bytes, d_keys_in, values.next(), cudaStream_t(0)), "sort");
  std::vector<KeyT> expected = bench::download(d_keys_in, n);
  std::sort(expected.begin(), expected.end());
  if (bench::download(output<KeyT>(), n) != expected)
  {
    state.SkipWithError("the sorted keys differ from std::sort's");
  }
}

template <bool PAIRS, int MT, int MI, int ST, int SI, long long PARTITION, typename KeyT = u32, int MB = 1, int SB = 1>
void candidate(benchmark::State& state)
{
  using V         = u32;
  using ValueInT  = std::conditional_t<PAIRS, const V*, NullType*>;
  using ValueOutT = std::conditional_t<PAIRS, V*, NullType*>;
  using DispatchT = strata::DispatchMergeSort<const KeyT*, ValueInT, KeyT*, ValueOutT, std::uint32_t, cuda::std::less<>,
                                              candidate_hub<MT, MI, ST, SI, PARTITION, MB, SB>>;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto sort = [n](void* temp, std::size_t& bytes, const KeyT* d_keys_in, const V* d_values_in, cudaStream_t stream)
  {
    if constexpr (PAIRS)
    {
      return DispatchT::Dispatch(temp, bytes, d_keys_in, d_values_in, output<KeyT>(), output<V, 1>(), std::uint32_t(n),
                                 cuda::std::less<>{}, stream);
    }
    else
    {
      return DispatchT::Dispatch(temp, bytes, d_keys_in, static_cast<NullType*>(nullptr), output<KeyT>(),
                                 static_cast<NullType*>(nullptr), std::uint32_t(n), cuda::std::less<>{}, stream);
    }
  };
  time_sort<KeyT, V>(state, n, sizeof(KeyT) + (PAIRS ? sizeof(V) : 0), sort);
}

template <bool PAIRS, typename KeyT = u32>
void cub_sort(benchmark::State& state)
{
  using V             = u32;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto sort = [n](void* temp, std::size_t& bytes, const KeyT* d_keys_in, const V* d_values_in, cudaStream_t stream)
  {
    if constexpr (PAIRS)
    {
      return cub::DeviceMergeSort::SortPairsCopy(temp, bytes, d_keys_in, d_values_in, output<KeyT>(), output<V, 1>(),
                                                 int(n), cuda::std::less<>{}, stream);
    }
    else
    {
      return cub::DeviceMergeSort::SortKeysCopy(temp, bytes, d_keys_in, output<KeyT>(), int(n), cuda::std::less<>{},
                                                stream);
    }
  };
  time_sort<KeyT, V>(state, n, sizeof(KeyT) + (PAIRS ? sizeof(V) : 0), sort);
}
} // namespace

#define STRATA_MERGE_SIZES                                                                                             \
  {                                                                                                                    \
    1 << 16, 1 << 20, 1 << 24                                                                                          \
  }
#define STRATA_TUNE(PAIRS, MT, MI, ST, SI, P)                                                                          \
  BENCHMARK(candidate<PAIRS, MT, MI, ST, SI, P>)                                                                       \
      ->Name((PAIRS ? "SortPairsCopy/u32_u32" : "SortKeysCopy/u32")                                                    \
             + std::string("/m" #MT "x" #MI "/s" #ST "x" #SI "/p" #P))                                                 \
      ->ArgsProduct({STRATA_MERGE_SIZES})                                                                              \
      ->UseManualTime()
#define STRATA_TUNE_CUB(PAIRS)                                                                                         \
  BENCHMARK(cub_sort<PAIRS>)                                                                                           \
      ->Name(PAIRS ? "SortPairsCopy/u32_u32/cub" : "SortKeysCopy/u32/cub")                                             \
      ->ArgsProduct({STRATA_MERGE_SIZES})                                                                              \
      ->UseManualTime()

#define STRATA_TUNE64(MT, MI, ST, SI)                                                                                  \
  BENCHMARK(candidate<false, MT, MI, ST, SI, 1024, std::uint64_t>)                                                     \
      ->Name("SortKeysCopy/u64/m" #MT "x" #MI "/s" #ST "x" #SI "/p1024")                                               \
      ->ArgsProduct({STRATA_MERGE_SIZES})                                                                              \
      ->UseManualTime()

#define STRATA_TUNE_B(PAIRS, MT, MI, ST, SI, MB, SB)                                                                   \
  BENCHMARK(candidate<PAIRS, MT, MI, ST, SI, 1024, u32, MB, SB>)                                                       \
      ->Name((PAIRS ? "SortPairsCopy/u32_u32" : "SortKeysCopy/u32")                                                    \
             + std::string("/m" #MT "x" #MI "/s" #ST "x" #SI "/b" #MB "-" #SB))                                        \
      ->ArgsProduct({STRATA_MERGE_SIZES})                                                                              \
      ->UseManualTime()

STRATA_TUNE_CUB(false);
STRATA_TUNE_B(false, 256, 17, 512, 17, 1, 1);
STRATA_TUNE_B(false, 256, 17, 512, 17, 6, 1);
STRATA_TUNE_B(false, 256, 17, 512, 17, 7, 1);
STRATA_TUNE_B(false, 256, 17, 512, 17, 8, 1);
STRATA_TUNE_B(false, 256, 17, 512, 17, 1, 3);
STRATA_TUNE_B(false, 256, 17, 512, 17, 6, 3);
STRATA_TUNE_CUB(true);
STRATA_TUNE_B(true, 256, 17, 256, 17, 1, 1);
STRATA_TUNE_B(true, 256, 17, 256, 17, 5, 1);
STRATA_TUNE_B(true, 256, 17, 256, 17, 6, 1);
STRATA_TUNE_B(true, 256, 17, 256, 17, 1, 5);
STRATA_TUNE_B(true, 256, 17, 256, 17, 6, 5);
BENCHMARK(cub_sort<false, std::uint64_t>)
    ->Name("SortKeysCopy/u64/cub")
    ->ArgsProduct({STRATA_MERGE_SIZES})
    ->UseManualTime();
STRATA_TUNE64(256, 17, 256, 17);

BENCHMARK_MAIN();

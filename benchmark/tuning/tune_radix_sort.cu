// Tuning sweep of DeviceRadixSort's onesweep pass (not built by default: -DSTRATA_ENABLE_TUNING=ON):
// SortKeys of u32 and u64 and SortPairs of u32/u32 and u64/u64 through DispatchRadixSort (64-bit
// offsets, as a call with a std::size_t count) with one policy hub
// per candidate onesweep tile (threads, keys per thread for 4-byte keys and values, scaled for
// wider ones), ranker (ballot or atomic-OR peers, private histograms) and blocks an SM the
// registers must allow, next to CUB, at 2^16, 2^20, 2^24 and 2^28 keys of random bits from a
// rotating input; of the histogram pass (keys per thread, blocks an SM) at 2^24 and 2^28; and of
// the ranker's shared counters on keys with few distinct digits.
// Names: "<function>/<key>[_<value>]/<threads>x<items>/<ranker>-p<parts>-b<blocks>" and
// "<function>/<key>[_<value>]/cub"; histogram candidates add "/h<blocks>x<keys>".
#include <strata/device/device_radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include "bench_common.cuh"
#include "bench_sort_keys.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace
{
using u32 = std::uint32_t;
//! The offsets of a call with a std::size_t count (as the benchmark's): 64-bit.
using offset_type = strata::detail::offset_t<std::size_t>;
using u64         = std::uint64_t;

template <typename KeyT, typename ValueT, int THREADS, int ITEMS_4B, strata::RadixRankAlgorithm RANKER, int PARTS,
          int MIN_BLOCKS, int HIST_BLOCKS = 0, int HIST_ITEMS = 16>
struct candidate_hub
{
  using DominantT = cuda::std::conditional_t<(sizeof(ValueT) > sizeof(KeyT)), ValueT, KeyT>;
  using base      = typename strata::detail::radix::policy_hub<KeyT, ValueT, offset_type>::Policy900;
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    struct OnesweepPolicy
        : strata::AgentRadixSortOnesweepPolicy<THREADS, ITEMS_4B, DominantT, PARTS, RANKER,
                                               strata::BLOCK_SCAN_WARP_SCANS, strata::RADIX_SORT_STORE_DIRECT, 8>
    {
      static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS;
    };
    //! The hub's histogram policy, or 128 threads of HIST_ITEMS keys at HIST_BLOCKS blocks an SM.
    struct HistogramCandidate : strata::AgentRadixSortHistogramPolicy<128, HIST_ITEMS, 1, KeyT, 8>
    {
      static constexpr int BLOCKS_PER_SM = HIST_BLOCKS;
    };
    using HistogramPolicy =
        cuda::std::conditional_t<HIST_BLOCKS == 0, typename base::HistogramPolicy, HistogramCandidate>;
    using SingleTilePolicy = typename base::SingleTilePolicy;
  };
  using MaxPolicy = Policy;
};

//! Output and temporary storage for the largest case, kept: one output per slot, so that keys
//! and values of one type get buffers of their own.
template <typename T, int SLOT = 0>
T* output()
{
  static bench::device_buffer<T> out(std::size_t(1) << 28);
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

//! Times `sort(temp, bytes, keys_in, values_in, stream)`, a two-phase sort of n keys (and values)
//! into output<KeyT>() (and output<V, 1>()), on rotating inputs. Up to 2^20 keys it then sorts one
//! input into a poisoned output and compares the keys with std::sort's: a candidate that sorts
//! wrongly reports an error, not a time.
template <typename KeyT, typename V, typename SortT>
void time_sort(benchmark::State& state, std::size_t n, std::size_t bytes_per_item, bench::rotating_buffer<KeyT>& keys,
               bench::rotating_buffer<V>& values, SortT sort)
{
  std::size_t bytes = 0;
  bench::check(sort(nullptr, bytes, keys.next(), values.next(), cudaStream_t(0)), "size query");
  void* temp = temp_storage(bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(sort(temp, bytes, keys.next(), values.next(), stream), "sort"); });
  bench::set_throughput(state, n, 2 * n * bytes_per_item);
  if (n <= (std::size_t(1) << 20))
  {
    KeyT* d_keys_in = keys.next(); // read only: the sort may not overwrite its input
    bench::poison(output<KeyT>(), n);
    bench::check(sort(temp, bytes, d_keys_in, values.next(), cudaStream_t(0)), "sort");
    std::vector<KeyT> expected = bench::download(d_keys_in, n);
    std::sort(expected.begin(), expected.end());
    if (bench::download(output<KeyT>(), n) != expected)
    {
      state.SkipWithError("the sorted keys differ from std::sort's");
    }
  }
}

//! SortPairs (ValueT not NullType) or SortKeys with a candidate hub.
template <typename KeyT, typename ValueT, int THREADS, int ITEMS_4B, strata::RadixRankAlgorithm RANKER, int PARTS,
          int MIN_BLOCKS, int HIST_BLOCKS = 0, int HIST_ITEMS = 16, int DIST = bench::uniform>
void candidate(benchmark::State& state)
{
  constexpr bool PAIRS = !std::is_same_v<ValueT, strata::NullType>;
  using DispatchT      = strata::DispatchRadixSort<
      strata::SortOrder::Ascending, KeyT, ValueT, offset_type, strata::detail::identity_decomposer_t,
      candidate_hub<KeyT, ValueT, THREADS, ITEMS_4B, RANKER, PARTS, MIN_BLOCKS, HIST_BLOCKS, HIST_ITEMS>>;
  using V             = cuda::std::conditional_t<PAIRS, ValueT, u32>;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto sort           = [n](void* temp, std::size_t& bytes, KeyT* d_keys_in, V* d_values_in, cudaStream_t stream)
  {
    strata::DoubleBuffer<KeyT> key_buffers(d_keys_in, output<KeyT>());
    strata::DoubleBuffer<ValueT> value_buffers;
    if constexpr (PAIRS)
    {
      value_buffers = strata::DoubleBuffer<ValueT>(d_values_in, output<ValueT, 1>());
    }
    return DispatchT::Dispatch(temp, bytes, key_buffers, value_buffers, offset_type(n), 0, int(sizeof(KeyT) * 8), false,
                               stream);
  };
  time_sort(state, n, sizeof(KeyT) + (PAIRS ? sizeof(V) : 0), bench::sort_key_buffer<KeyT>(n, DIST),
            bench::shared_rotating_buffer<V>(PAIRS ? n : 2), sort);
}

template <typename KeyT, typename ValueT, int DIST = bench::uniform>
void cub_sort(benchmark::State& state)
{
  constexpr bool PAIRS = !std::is_same_v<ValueT, strata::NullType>;
  using V              = cuda::std::conditional_t<PAIRS, ValueT, u32>;
  const std::size_t n  = static_cast<std::size_t>(state.range(0));
  auto sort = [n](void* temp, std::size_t& bytes, const KeyT* d_keys_in, const V* d_values_in, cudaStream_t stream)
  {
    if constexpr (PAIRS)
    {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, d_keys_in, output<KeyT>(), d_values_in, output<V, 1>(), n, 0,
                                             int(sizeof(KeyT) * 8), stream);
    }
    else
    {
      return cub::DeviceRadixSort::SortKeys(temp, bytes, d_keys_in, output<KeyT>(), n, 0, int(sizeof(KeyT) * 8),
                                            stream);
    }
  };
  time_sort(state, n, sizeof(KeyT) + (PAIRS ? sizeof(V) : 0), bench::sort_key_buffer<KeyT>(n, DIST),
            bench::shared_rotating_buffer<V>(PAIRS ? n : 2), sort);
}
} // namespace

using strata::NullType;
#define STRATA_SORT_SIZES                                                                                              \
  {                                                                                                                    \
    1 << 16, 1 << 20, 1 << 24, 1 << 28                                                                                 \
  }
#define STRATA_TUNE(NAME, K, V, THREADS, ITEMS, RANKER, PARTS, BLOCKS)                                                 \
  BENCHMARK(candidate<K, V, THREADS, ITEMS, strata::RADIX_RANK_MATCH_EARLY_COUNTS_##RANKER, PARTS, BLOCKS>)            \
      ->Name(NAME "/" #THREADS "x" #ITEMS "/" #RANKER "-p" #PARTS "-b" #BLOCKS)                                        \
      ->ArgsProduct({STRATA_SORT_SIZES})                                                                               \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_CUB(NAME, K, V)                                                                                    \
  BENCHMARK(cub_sort<K, V>)                                                                                            \
      ->Name(NAME "/cub")                                                                                              \
      ->ArgsProduct({STRATA_SORT_SIZES})                                                                               \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
// Tiles are named by their keys per thread for 4-byte keys and values; 8-byte ones get half.
// CUB's tiles on this GPU, from its temporary storage: 384 x 19 for u32 keys, 384 x 17 for u32
// pairs, 384 x 15 for u64 keys, 384 x 12 for u64 pairs (384x30 and 384x24 here).
#define STRATA_TUNE_ALL(NAME, K, V)                                                                                    \
  STRATA_TUNE_CUB(NAME, K, V);                                                                                         \
  STRATA_TUNE(NAME, K, V, 384, 19, ATOMIC_OR, 1, 3);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 26, ATOMIC_OR, 1, 3);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 30, ATOMIC_OR, 1, 2);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 28, ATOMIC_OR, 1, 2);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 24, ATOMIC_OR, 1, 2);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 23, ATOMIC_OR, 1, 2);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 21, ATOMIC_OR, 1, 2);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 19, ATOMIC_OR, 1, 2);                                                                   \
  STRATA_TUNE(NAME, K, V, 384, 19, ANY, 1, 2)

// The histogram pass (128 threads): keys per thread and blocks an SM, with the onesweep tile of
// the sort's shape; "h<blocks>x<keys>".
#define STRATA_TUNE_HISTOGRAM(NAME, K, V, ITEMS, BLOCKS, HB, HI)                                                       \
  BENCHMARK(candidate<K, V, 384, ITEMS, strata::RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR, 1, BLOCKS, HB, HI>)           \
      ->Name(NAME "/384x" #ITEMS "/ATOMIC_OR-p1-b" #BLOCKS "/h" #HB "x" #HI)                                           \
      ->ArgsProduct({{1 << 24, 1 << 28}})                                                                              \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_HISTOGRAMS(NAME, K, V, ITEMS)                                                                      \
  STRATA_TUNE_HISTOGRAM(NAME, K, V, ITEMS, 2, 12, 16);                                                                 \
  STRATA_TUNE_HISTOGRAM(NAME, K, V, ITEMS, 2, 16, 16);                                                                 \
  STRATA_TUNE_HISTOGRAM(NAME, K, V, ITEMS, 2, 16, 8);                                                                  \
  STRATA_TUNE_HISTOGRAM(NAME, K, V, ITEMS, 2, 8, 32)

// The ranker of the 384 x 30 keys-only tile on keys with few distinct digits: entropy-reduced
// u32 keys (the AND of two random words) and floats of a standard normal distribution (whose top
// byte takes few values); shared copies of the early counts (p) and MatchAny (ANY) against
// atomic-OR peers (four copies do not fit the 48 KiB of static shared memory at 384 x 30). 2^20
// checks the sorted keys.
#define STRATA_TUNE_RANKER(NAME, K, DIST, RANKER, PARTS)                                                               \
  BENCHMARK(candidate<K, NullType, 384, 30, strata::RADIX_RANK_MATCH_EARLY_COUNTS_##RANKER, PARTS, 2, 0, 16, DIST>)    \
      ->Name(NAME "/384x30/" #RANKER "-p" #PARTS "-b2")                                                                \
      ->ArgsProduct({{1 << 20, 1 << 24, 1 << 28}})                                                                     \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_RANKERS(NAME, K, DIST)                                                                             \
  BENCHMARK(cub_sort<K, NullType, DIST>)                                                                               \
      ->Name(NAME "/cub")                                                                                              \
      ->ArgsProduct({{1 << 20, 1 << 24, 1 << 28}})                                                                     \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond);                                                                                 \
  STRATA_TUNE_RANKER(NAME, K, DIST, ATOMIC_OR, 1);                                                                     \
  STRATA_TUNE_RANKER(NAME, K, DIST, ATOMIC_OR, 2);                                                                     \
  STRATA_TUNE_RANKER(NAME, K, DIST, ANY, 1)

STRATA_TUNE_RANKERS("sort_keys/u32_reduced", u32, bench::reduced);
STRATA_TUNE_RANKERS("sort_keys/f32_normal", float, bench::uniform);
STRATA_TUNE_HISTOGRAMS("sort_keys/u32", u32, NullType, 30);
STRATA_TUNE_HISTOGRAMS("sort_keys/u64", u64, NullType, 30);
STRATA_TUNE_ALL("sort_keys/u32", u32, NullType);
STRATA_TUNE_ALL("sort_keys/u64", u64, NullType);
STRATA_TUNE_ALL("sort_pairs/u32_u32", u32, u32);
STRATA_TUNE_ALL("sort_pairs/u64_u64", u64, u64);
BENCHMARK_MAIN();

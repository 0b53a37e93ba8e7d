// Block-wide sorts, strata against CUB with the same class parameters on the same buffers: one
// tile per thread block over 2^24 keys (u32 keys, u64 keys, u32 keys with u32 values). Each
// block loads its tile (blocked), sorts it and stores it; keys/s counts the keys sorted. strata's
// rows first compare their output with CUB's, once per configuration.
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_radix_sort.cuh>

#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_sort.cuh>

#include "bench_common.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
constexpr std::size_t keys_count = std::size_t(1) << 24;

template <typename KeyT, typename ValueT>
struct buffers
{
  bench::device_buffer<KeyT> keys_in{keys_count};
  bench::device_buffer<ValueT> values_in{keys_count};
  bench::device_buffer<KeyT> keys_out{keys_count};
  bench::device_buffer<ValueT> values_out{keys_count};
  buffers()
  {
    bench::fill_random(keys_in, 2027);
    bench::fill_random(values_in, 2028);
  }
};

template <typename KeyT, typename ValueT>
buffers<KeyT, ValueT>& shared_buffers()
{
  static buffers<KeyT, ValueT> b;
  return b;
}

struct less_op
{
  template <typename T>
  __device__ bool operator()(const T& a, const T& b) const
  {
    return a < b;
  }
};

enum class kind
{
  radix, // SortBlockedToStriped, striped store
  merge  // Sort with less, blocked store
};

//! One tile per block: load blocked, sort, store. SortT is strata's or CUB's class.
template <typename SortT, kind KIND, bool PAIRS, int THREADS, int IPT, typename KeyT, typename ValueT>
__global__ void __launch_bounds__(THREADS)
    sort_tiles(const KeyT* keys_in, const ValueT* values_in, KeyT* keys_out, ValueT* values_out)
{
  __shared__ typename SortT::TempStorage storage;
  constexpr int TILE     = THREADS * IPT;
  const std::size_t base = std::size_t(blockIdx.x) * TILE;
  KeyT keys[IPT];
  ValueT values[IPT];
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    keys[i] = keys_in[base + threadIdx.x * IPT + i];
    if constexpr (PAIRS)
    {
      values[i] = values_in[base + threadIdx.x * IPT + i];
    }
  }
  if constexpr (KIND == kind::radix)
  {
    if constexpr (PAIRS)
    {
      SortT(storage).SortBlockedToStriped(keys, values);
    }
    else
    {
      SortT(storage).SortBlockedToStriped(keys);
    }
  }
  else
  {
    if constexpr (PAIRS)
    {
      SortT(storage).Sort(keys, values, less_op{});
    }
    else
    {
      SortT(storage).Sort(keys, less_op{});
    }
  }
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    const std::size_t at = KIND == kind::radix ? base + i * THREADS + threadIdx.x : base + threadIdx.x * IPT + i;
    keys_out[at]         = keys[i];
    if constexpr (PAIRS)
    {
      values_out[at] = values[i];
    }
  }
}

template <typename SortT, kind KIND, bool PAIRS, int THREADS, int IPT, typename KeyT, typename ValueT>
void run(benchmark::State& state)
{
  auto& b            = shared_buffers<KeyT, ValueT>();
  constexpr int TILE = THREADS * IPT;
  const int blocks   = static_cast<int>(keys_count / TILE);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           sort_tiles<SortT, KIND, PAIRS, THREADS, IPT><<<blocks, THREADS, 0, stream>>>(
                               b.keys_in.data(), b.values_in.data(), b.keys_out.data(), b.values_out.data());
                         });
  const std::size_t sorted = std::size_t(blocks) * TILE;
  bench::set_throughput(state, sorted, 2 * sorted * (sizeof(KeyT) + (PAIRS ? sizeof(ValueT) : 0)));
}

//! strata's sort (StrataSortT) and CUB's (CubSortT) of the same tiles, once per configuration:
//! equal keys, and equal values within each run of equal keys (whose order no sort here defines).
template <typename StrataSortT, typename CubSortT, kind KIND, bool PAIRS, int THREADS, int IPT, typename KeyT,
          typename ValueT>
bool sorts_agree(benchmark::State& state)
{
  const std::string configuration = std::string(KIND == kind::radix ? "radix/" : "merge/")
                                    + std::to_string(sizeof(KeyT)) + (PAIRS ? "/pairs/" : "/keys/")
                                    + std::to_string(THREADS) + "x" + std::to_string(IPT);
  if (!bench::first_run(configuration))
  {
    return true;
  }
  auto& b            = shared_buffers<KeyT, ValueT>();
  constexpr int TILE = THREADS * IPT;
  const int blocks   = static_cast<int>(keys_count / TILE);
  auto sort_once     = [&](auto launch)
  {
    bench::poison(b.keys_out.data(), keys_count);
    bench::poison(b.values_out.data(), keys_count);
    launch<<<blocks, THREADS>>>(b.keys_in.data(), b.values_in.data(), b.keys_out.data(), b.values_out.data());
    bench::check(cudaGetLastError(), "sort launch");
    bench::check(cudaDeviceSynchronize(), "sort");
    return std::make_pair(bench::download(b.keys_out.data(), keys_count),
                          PAIRS ? bench::download(b.values_out.data(), keys_count) : std::vector<ValueT>());
  };
  auto strata_out      = sort_once(sort_tiles<StrataSortT, KIND, PAIRS, THREADS, IPT, KeyT, ValueT>);
  auto cub_out         = sort_once(sort_tiles<CubSortT, KIND, PAIRS, THREADS, IPT, KeyT, ValueT>);
  std::string mismatch = bench::compare_exact(strata_out.first, cub_out.first);
  if (mismatch.empty() && PAIRS)
  {
    const std::vector<KeyT>& keys = strata_out.first;
    for (std::size_t begin = 0; begin < keys_count;)
    {
      std::size_t end = begin + 1;
      while (end < keys_count && end % TILE != 0 && keys[end] == keys[begin])
      {
        ++end;
      }
      std::sort(strata_out.second.begin() + begin, strata_out.second.begin() + end);
      std::sort(cub_out.second.begin() + begin, cub_out.second.begin() + end);
      begin = end;
    }
    mismatch = bench::compare_exact(strata_out.second, cub_out.second);
  }
  return bench::record(state, configuration, mismatch);
}

// Radix: strata and CUB with the same parameters (RADIX_BITS 4, memoized outer scan, warp scans).
// strata's rows first compare their output with CUB's.
template <typename KeyT, typename ValueT, int THREADS, int IPT>
void radix_strata(benchmark::State& state)
{
  constexpr bool PAIRS = !std::is_same_v<ValueT, strata::NullType>;
  using V              = std::conditional_t<PAIRS, ValueT, KeyT>;
  using SortT          = strata::BlockRadixSort<KeyT, THREADS, IPT, ValueT>;
  using CubSortT       = cub::BlockRadixSort<KeyT, THREADS, IPT, std::conditional_t<PAIRS, ValueT, cub::NullType>>;
  if (sorts_agree<SortT, CubSortT, kind::radix, PAIRS, THREADS, IPT, KeyT, V>(state))
  {
    run<SortT, kind::radix, PAIRS, THREADS, IPT, KeyT, V>(state);
  }
}

template <typename KeyT, typename ValueT, int THREADS, int IPT>
void radix_cub(benchmark::State& state)
{
  constexpr bool PAIRS = !std::is_same_v<ValueT, cub::NullType>;
  using V              = std::conditional_t<PAIRS, ValueT, KeyT>;
  using SortT          = cub::BlockRadixSort<KeyT, THREADS, IPT, ValueT>;
  run<SortT, kind::radix, PAIRS, THREADS, IPT, KeyT, V>(state);
}

template <typename KeyT, typename ValueT, int THREADS, int IPT>
void merge_strata(benchmark::State& state)
{
  constexpr bool PAIRS = !std::is_same_v<ValueT, strata::NullType>;
  using V              = std::conditional_t<PAIRS, ValueT, KeyT>;
  using SortT          = strata::BlockMergeSort<KeyT, THREADS, IPT, ValueT>;
  using CubSortT       = cub::BlockMergeSort<KeyT, THREADS, IPT, std::conditional_t<PAIRS, ValueT, cub::NullType>>;
  if (sorts_agree<SortT, CubSortT, kind::merge, PAIRS, THREADS, IPT, KeyT, V>(state))
  {
    run<SortT, kind::merge, PAIRS, THREADS, IPT, KeyT, V>(state);
  }
}

template <typename KeyT, typename ValueT, int THREADS, int IPT>
void merge_cub(benchmark::State& state)
{
  constexpr bool PAIRS = !std::is_same_v<ValueT, cub::NullType>;
  using V              = std::conditional_t<PAIRS, ValueT, KeyT>;
  using SortT          = cub::BlockMergeSort<KeyT, THREADS, IPT, ValueT>;
  run<SortT, kind::merge, PAIRS, THREADS, IPT, KeyT, V>(state);
}
} // namespace

#define STRATA_BENCH_SORT(algo, name, K, V_STRATA, V_CUB, THREADS, IPT)                                                \
  BENCHMARK(algo##_strata<K, V_STRATA, THREADS, IPT>)                                                                  \
      ->Name(#algo "_sort/strata/" name "/" #THREADS "x" #IPT)                                                         \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond);                                                                                 \
  BENCHMARK(algo##_cub<K, V_CUB, THREADS, IPT>)                                                                        \
      ->Name(#algo "_sort/cub/" name "/" #THREADS "x" #IPT)                                                            \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)

STRATA_BENCH_SORT(radix, "u32", std::uint32_t, strata::NullType, cub::NullType, 256, 8);
STRATA_BENCH_SORT(radix, "u32", std::uint32_t, strata::NullType, cub::NullType, 128, 16);
STRATA_BENCH_SORT(radix, "u64", std::uint64_t, strata::NullType, cub::NullType, 256, 8);
STRATA_BENCH_SORT(radix, "u32_pairs", std::uint32_t, std::uint32_t, std::uint32_t, 256, 8);
STRATA_BENCH_SORT(merge, "u32", std::uint32_t, strata::NullType, cub::NullType, 256, 8);
STRATA_BENCH_SORT(merge, "u32", std::uint32_t, strata::NullType, cub::NullType, 128, 16);
STRATA_BENCH_SORT(merge, "u64", std::uint64_t, strata::NullType, cub::NullType, 256, 8);
STRATA_BENCH_SORT(merge, "u32_pairs", std::uint32_t, std::uint32_t, std::uint32_t, 256, 8);
STRATA_BENCH_MAIN()

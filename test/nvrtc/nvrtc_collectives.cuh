// Kernels that each use one collective of strata's thread, warp, block or iterator layer, written
// to compile both under NVRTC (test_nvrtc reads this file and compiles it at run time) and under
// nvcc (test_nvrtc includes it), so that both builds of a kernel can be launched on the same input
// and their outputs compared. Every kernel takes (const int* in, int* out) and runs as one block of
// THREADS threads over TILE ints; the list of kernel names is NVRTC_KERNELS below.
#pragma once

#include <strata/strata.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

namespace nvrtc_test
{
constexpr int THREADS = 128;
constexpr int ITEMS   = 4;
constexpr int TILE    = THREADS * ITEMS;

struct TimesThree
{
  __host__ __device__ int operator()(int x) const
  {
    return 3 * x;
  }
};

template <strata::BlockLoadAlgorithm LOAD, strata::BlockStoreAlgorithm STORE>
__device__ void LoadStore(const int* in, int* out)
{
  using LoadT  = strata::BlockLoad<int, THREADS, ITEMS, LOAD>;
  using StoreT = strata::BlockStore<int, THREADS, ITEMS, STORE>;
  __shared__ typename LoadT::TempStorage load_storage;
  __shared__ typename StoreT::TempStorage store_storage;
  int items[ITEMS];
  LoadT(load_storage).Load(in, items);
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] += int(threadIdx.x);
  }
  StoreT(store_storage).Store(out, items);
}

template <strata::BlockReduceAlgorithm ALGORITHM>
__device__ void Reduce(const int* in, int* out)
{
  using ReduceT = strata::BlockReduce<int, THREADS, ALGORITHM>;
  __shared__ typename ReduceT::TempStorage storage;
  int items[ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, items);
  const int sum = ReduceT(storage).Sum(items);
  __syncthreads();
  const int largest = ReduceT(storage).Reduce(items, cuda::maximum<>{});
  if (threadIdx.x == 0)
  {
    out[0] = sum;
    out[1] = largest;
  }
}

template <strata::BlockScanAlgorithm ALGORITHM>
__device__ void Scan(const int* in, int* out)
{
  using ScanT = strata::BlockScan<int, THREADS, ALGORITHM>;
  __shared__ typename ScanT::TempStorage storage;
  int items[ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, items);
  int sums[ITEMS];
  ScanT(storage).InclusiveSum(items, sums);
  __syncthreads();
  int maxima[ITEMS];
  ScanT(storage).ExclusiveScan(items, maxima, -1000000, cuda::maximum<>{});
  for (int i = 0; i < ITEMS; ++i)
  {
    sums[i] ^= maxima[i];
  }
  strata::StoreDirectBlocked(int(threadIdx.x), out, sums);
}
} // namespace nvrtc_test

// The kernels: C linkage, so that NVRTC's names are the source's.
extern "C" __global__ void load_store_direct(const int* in, int* out)
{
  nvrtc_test::LoadStore<strata::BLOCK_LOAD_DIRECT, strata::BLOCK_STORE_DIRECT>(in, out);
}
extern "C" __global__ void load_store_striped(const int* in, int* out)
{
  nvrtc_test::LoadStore<strata::BLOCK_LOAD_STRIPED, strata::BLOCK_STORE_STRIPED>(in, out);
}
extern "C" __global__ void load_store_vectorize(const int* in, int* out)
{
  nvrtc_test::LoadStore<strata::BLOCK_LOAD_VECTORIZE, strata::BLOCK_STORE_VECTORIZE>(in, out);
}
extern "C" __global__ void load_store_transpose(const int* in, int* out)
{
  nvrtc_test::LoadStore<strata::BLOCK_LOAD_TRANSPOSE, strata::BLOCK_STORE_TRANSPOSE>(in, out);
}
extern "C" __global__ void load_store_warp_transpose(const int* in, int* out)
{
  nvrtc_test::LoadStore<strata::BLOCK_LOAD_WARP_TRANSPOSE, strata::BLOCK_STORE_WARP_TRANSPOSE>(in, out);
}
extern "C" __global__ void load_store_warp_transpose_timesliced(const int* in, int* out)
{
  nvrtc_test::LoadStore<strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>(
      in, out);
}

extern "C" __global__ void exchange(const int* in, int* out)
{
  using ExchangeT = strata::BlockExchange<int, nvrtc_test::THREADS, nvrtc_test::ITEMS>;
  __shared__ typename ExchangeT::TempStorage storage;
  int items[nvrtc_test::ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, items);
  ExchangeT(storage).BlockedToStriped(items, items);
  __syncthreads();
  ExchangeT(storage).StripedToBlocked(items, items);
  __syncthreads();
  ExchangeT(storage).BlockedToWarpStriped(items, items);
  strata::StoreDirectWarpStriped(int(threadIdx.x), out, items);
}

extern "C" __global__ void reduce_raking(const int* in, int* out)
{
  nvrtc_test::Reduce<strata::BLOCK_REDUCE_RAKING>(in, out);
}
extern "C" __global__ void reduce_raking_commutative_only(const int* in, int* out)
{
  nvrtc_test::Reduce<strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, out);
}
extern "C" __global__ void reduce_warp_reductions(const int* in, int* out)
{
  nvrtc_test::Reduce<strata::BLOCK_REDUCE_WARP_REDUCTIONS>(in, out);
}

extern "C" __global__ void scan_raking(const int* in, int* out)
{
  nvrtc_test::Scan<strata::BLOCK_SCAN_RAKING>(in, out);
}
extern "C" __global__ void scan_raking_memoize(const int* in, int* out)
{
  nvrtc_test::Scan<strata::BLOCK_SCAN_RAKING_MEMOIZE>(in, out);
}
extern "C" __global__ void scan_warp_scans(const int* in, int* out)
{
  nvrtc_test::Scan<strata::BLOCK_SCAN_WARP_SCANS>(in, out);
}

extern "C" __global__ void radix_sort_keys(const int* in, int* out)
{
  using SortT = strata::BlockRadixSort<int, nvrtc_test::THREADS, nvrtc_test::ITEMS>;
  __shared__ typename SortT::TempStorage storage;
  int keys[nvrtc_test::ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, keys);
  SortT(storage).Sort(keys);
  strata::StoreDirectBlocked(int(threadIdx.x), out, keys);
}
extern "C" __global__ void radix_sort_pairs_descending(const int* in, int* out)
{
  using SortT = strata::BlockRadixSort<int, nvrtc_test::THREADS, nvrtc_test::ITEMS, int>;
  __shared__ typename SortT::TempStorage storage;
  int keys[nvrtc_test::ITEMS];
  int values[nvrtc_test::ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, keys);
  for (int i = 0; i < nvrtc_test::ITEMS; ++i)
  {
    keys[i] &= 0xff; // ties, so that stability shows
    values[i] = int(threadIdx.x) * nvrtc_test::ITEMS + i;
  }
  SortT(storage).SortDescendingBlockedToStriped(keys, values);
  strata::StoreDirectStriped<nvrtc_test::THREADS>(int(threadIdx.x), out, values);
}

extern "C" __global__ void merge_sort(const int* in, int* out)
{
  using SortT = strata::BlockMergeSort<int, nvrtc_test::THREADS, nvrtc_test::ITEMS>;
  __shared__ typename SortT::TempStorage storage;
  int keys[nvrtc_test::ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, keys);
  SortT(storage).Sort(keys, cuda::std::less<>{});
  strata::StoreDirectBlocked(int(threadIdx.x), out, keys);
}

extern "C" __global__ void histogram(const int* in, int* out)
{
  constexpr int BINS = 64;
  using SortHistoT   = strata::BlockHistogram<unsigned char, nvrtc_test::THREADS, nvrtc_test::ITEMS, BINS>;
  using AtomicHistoT =
      strata::BlockHistogram<unsigned char, nvrtc_test::THREADS, nvrtc_test::ITEMS, BINS, strata::BLOCK_HISTO_ATOMIC>;
  __shared__ typename SortHistoT::TempStorage storage;
  __shared__ unsigned int sorted_bins[BINS];
  __shared__ unsigned int atomic_bins[BINS];
  unsigned char samples[nvrtc_test::ITEMS];
  for (int i = 0; i < nvrtc_test::ITEMS; ++i)
  {
    samples[i] = static_cast<unsigned char>(in[threadIdx.x * nvrtc_test::ITEMS + i] & (BINS - 1));
  }
  SortHistoT(storage).Histogram(samples, sorted_bins);
  __shared__ typename AtomicHistoT::TempStorage atomic_storage;
  AtomicHistoT(atomic_storage).Histogram(samples, atomic_bins);
  __syncthreads();
  if (threadIdx.x < BINS)
  {
    out[threadIdx.x]        = int(sorted_bins[threadIdx.x]);
    out[BINS + threadIdx.x] = int(atomic_bins[threadIdx.x]);
  }
}

extern "C" __global__ void discontinuity(const int* in, int* out)
{
  using DiscontinuityT = strata::BlockDiscontinuity<int, nvrtc_test::THREADS>;
  __shared__ typename DiscontinuityT::TempStorage storage;
  int items[nvrtc_test::ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, items);
  for (int i = 0; i < nvrtc_test::ITEMS; ++i)
  {
    items[i] &= 3; // runs
  }
  int heads[nvrtc_test::ITEMS];
  int tails[nvrtc_test::ITEMS];
  DiscontinuityT(storage).FlagHeadsAndTails(heads, tails, items, cuda::std::not_equal_to<>{});
  for (int i = 0; i < nvrtc_test::ITEMS; ++i)
  {
    heads[i] = 2 * heads[i] + tails[i];
  }
  strata::StoreDirectBlocked(int(threadIdx.x), out, heads);
}

extern "C" __global__ void adjacent_difference(const int* in, int* out)
{
  using DifferenceT = strata::BlockAdjacentDifference<int, nvrtc_test::THREADS>;
  __shared__ typename DifferenceT::TempStorage storage;
  int items[nvrtc_test::ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, items);
  int differences[nvrtc_test::ITEMS];
  DifferenceT(storage).SubtractLeft(items, differences, cuda::std::minus<>{});
  strata::StoreDirectBlocked(int(threadIdx.x), out, differences);
}

extern "C" __global__ void shuffle(const int* in, int* out)
{
  using ShuffleT = strata::BlockShuffle<int, nvrtc_test::THREADS>;
  __shared__ typename ShuffleT::TempStorage storage;
  int items[nvrtc_test::ITEMS];
  strata::LoadDirectBlocked(int(threadIdx.x), in, items);
  int previous[nvrtc_test::ITEMS];
  previous[0] = -1; // Up leaves thread 0's first item as it was
  ShuffleT(storage).Up(items, previous);
  __syncthreads();
  int rotated = 0;
  ShuffleT(storage).Rotate(items[0], rotated, 5);
  previous[0] ^= rotated;
  strata::StoreDirectBlocked(int(threadIdx.x), out, previous);
}

extern "C" __global__ void run_length_decode(const int* in, int* out)
{
  // Runs of the values 0, 1, 2, ... with lengths 1 + in[i] % 4: decoded into the first TILE items.
  constexpr int RUNS_PER_THREAD    = 1;
  constexpr int DECODED_PER_THREAD = nvrtc_test::ITEMS;
  using DecodeT = strata::BlockRunLengthDecode<int, nvrtc_test::THREADS, RUNS_PER_THREAD, DECODED_PER_THREAD>;
  __shared__ typename DecodeT::TempStorage storage;
  int values[RUNS_PER_THREAD]  = {int(threadIdx.x)};
  int lengths[RUNS_PER_THREAD] = {1 + (in[threadIdx.x] & 3)};
  int total                    = 0;
  DecodeT decode(storage, values, lengths, total);
  int decoded[DECODED_PER_THREAD];
  decode.RunLengthDecode(decoded, 0);
  strata::StoreDirectBlocked(int(threadIdx.x), out, decoded);
  if (threadIdx.x == 0)
  {
    out[nvrtc_test::TILE] = total;
  }
}

extern "C" __global__ void warp_collectives(const int* in, int* out)
{
  constexpr int WARPS = nvrtc_test::THREADS / 32;
  using WarpReduceT   = strata::WarpReduce<int>;
  using WarpScanT     = strata::WarpScan<int>;
  using WarpLoadT     = strata::WarpLoad<int, nvrtc_test::ITEMS, strata::WARP_LOAD_TRANSPOSE>;
  using WarpStoreT    = strata::WarpStore<int, nvrtc_test::ITEMS, strata::WARP_STORE_TRANSPOSE>;
  using WarpSortT     = strata::WarpMergeSort<int, nvrtc_test::ITEMS, 32>;
  using WarpExchangeT = strata::WarpExchange<int, nvrtc_test::ITEMS>;
  __shared__ typename WarpReduceT::TempStorage reduce_storage[WARPS];
  __shared__ typename WarpScanT::TempStorage scan_storage[WARPS];
  __shared__ typename WarpLoadT::TempStorage load_storage[WARPS];
  __shared__ typename WarpStoreT::TempStorage store_storage[WARPS];
  __shared__ typename WarpSortT::TempStorage sort_storage[WARPS];
  __shared__ typename WarpExchangeT::TempStorage exchange_storage[WARPS];
  const int warp   = int(threadIdx.x) / 32;
  const int offset = warp * 32 * nvrtc_test::ITEMS;
  int items[nvrtc_test::ITEMS];
  WarpLoadT(load_storage[warp]).Load(in + offset, items);
  WarpSortT(sort_storage[warp]).Sort(items, cuda::std::less<>{});
  WarpExchangeT(exchange_storage[warp]).BlockedToStriped(items, items);
  __syncwarp(); // the exchange's storage is used again
  WarpExchangeT(exchange_storage[warp]).StripedToBlocked(items, items);
  const int sum = WarpReduceT(reduce_storage[warp]).Sum(items[0]);
  int prefix    = 0;
  WarpScanT(scan_storage[warp]).InclusiveSum(items[1], prefix);
  items[1] = prefix;
  items[2] += strata::ShuffleIndex<32>(sum, 0, 0xffffffffu);
  WarpStoreT(store_storage[warp]).Store(out + offset, items);
}

extern "C" __global__ void thread_load_store(const int* in, int* out)
{
  const int i = int(threadIdx.x);
  int a       = strata::ThreadLoad<strata::LOAD_CG>(in + i);
  int b       = strata::ThreadLoad<strata::LOAD_LDG>(in + i + nvrtc_test::THREADS);
  int c       = strata::ThreadLoad<strata::LOAD_CS>(in + i + 2 * nvrtc_test::THREADS);
  strata::ThreadStore<strata::STORE_CG>(out + i, a + b);
  strata::ThreadStore<strata::STORE_CS>(out + i + nvrtc_test::THREADS, b ^ c);
  const int three[3] = {a, b, c};
  strata::ThreadStore<strata::STORE_WT>(out + i + 2 * nvrtc_test::THREADS,
                                        strata::ThreadReduce(three, cuda::std::plus<>{}));
}

extern "C" __global__ void iterators(const int* in, int* out)
{
  const int i = int(threadIdx.x);
  strata::CountingInputIterator<int> counting(7);
  strata::ConstantInputIterator<int> constant(11);
  strata::TransformInputIterator<int, nvrtc_test::TimesThree, const int*> tripled(in, nvrtc_test::TimesThree{});
  strata::ArgIndexInputIterator<const int*> indexed(in);
  strata::CacheModifiedInputIterator<strata::LOAD_LDG, int> cached(in);
  strata::CacheModifiedOutputIterator<strata::STORE_CG, int> cached_out(out);
  strata::DiscardOutputIterator<> discard;
  discard[i]                   = in[i];
  const auto pair              = indexed[i + 1];
  cached_out[i]                = counting[i] + constant[i] + tripled[i] + cached[i + 2] + pair.value + int(pair.key);
  out[i + nvrtc_test::THREADS] = int(counting + 5 - counting);
}

//! Compiled, not launched: its iterator needs a texture bound on the host.
extern "C" __global__ void texture_iterator(strata::TexObjInputIterator<int> in, int* out)
{
  out[threadIdx.x] = in[threadIdx.x] + *(in + 1);
}

//! The kernels above, X(name) each, for the test to look up and launch.
#define NVRTC_KERNELS(X)                                                                                               \
  X(load_store_direct)                                                                                                 \
  X(load_store_striped)                                                                                                \
  X(load_store_vectorize)                                                                                              \
  X(load_store_transpose)                                                                                              \
  X(load_store_warp_transpose)                                                                                         \
  X(load_store_warp_transpose_timesliced)                                                                              \
  X(exchange)                                                                                                          \
  X(reduce_raking)                                                                                                     \
  X(reduce_raking_commutative_only)                                                                                    \
  X(reduce_warp_reductions)                                                                                            \
  X(scan_raking)                                                                                                       \
  X(scan_raking_memoize)                                                                                               \
  X(scan_warp_scans)                                                                                                   \
  X(radix_sort_keys)                                                                                                   \
  X(radix_sort_pairs_descending)                                                                                       \
  X(merge_sort)                                                                                                        \
  X(histogram)                                                                                                         \
  X(discontinuity)                                                                                                     \
  X(adjacent_difference)                                                                                               \
  X(shuffle)                                                                                                           \
  X(run_length_decode)                                                                                                 \
  X(warp_collectives)                                                                                                  \
  X(thread_load_store)                                                                                                 \
  X(iterators)

// Every device algorithm, and the block and warp collectives, instantiated for a few types: built
// for each architecture of test/arch/CMakeLists.txt with warnings as errors, never run. A call
// that does not compile (or that ptxas warns about) for a GPU generation fails the build there.
#include <strata/strata.cuh>

#include <cuda/functional>
#include <cuda/std/cstdint>
#include <cuda/std/functional>

#include <cuda_runtime_api.h>

namespace strata_arch
{
struct is_odd
{
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return static_cast<long long>(x) % 2 != 0;
  }
};

struct is_small
{
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return x < T(10);
  }
};

struct twice
{
  template <typename T>
  __host__ __device__ T operator()(const T& x) const
  {
    return x + x;
  }
};

struct scale
{
  float* d_data;
  __host__ __device__ void operator()(int i) const
  {
    d_data[i] *= 2.0f;
  }
};

// The collectives below the device layer, in one kernel of 128 threads.
template <typename T>
__global__ void collectives(const T* d_in, T* d_out)
{
  using BlockLoadT    = strata::BlockLoad<T, 128, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE>;
  using BlockStoreT   = strata::BlockStore<T, 128, 4, strata::BLOCK_STORE_WARP_TRANSPOSE>;
  using BlockReduceT  = strata::BlockReduce<T, 128>;
  using BlockScanT    = strata::BlockScan<T, 128>;
  using BlockRadixT   = strata::BlockRadixSort<int, 128, 4, T>;
  using BlockMergeT   = strata::BlockMergeSort<int, 128, 4>;
  using BlockHistT    = strata::BlockHistogram<unsigned char, 128, 4, 256>;
  using BlockAdjT     = strata::BlockAdjacentDifference<T, 128>;
  using BlockDiscT    = strata::BlockDiscontinuity<T, 128>;
  using BlockShuffleT = strata::BlockShuffle<T, 128>;
  using WarpReduceT   = strata::WarpReduce<T>;
  using WarpBatchedT  = strata::WarpReduceBatched<T, 4, 16>;
  using WarpScanT     = strata::WarpScan<T>;
  using WarpSortT     = strata::WarpMergeSort<int, 4, 32>;
  __shared__ union
  {
    typename BlockLoadT::TempStorage load;
    typename BlockStoreT::TempStorage store;
    typename BlockReduceT::TempStorage reduce;
    typename BlockScanT::TempStorage scan;
    typename BlockRadixT::TempStorage radix;
    typename BlockMergeT::TempStorage merge;
    typename BlockHistT::TempStorage histogram;
    typename BlockAdjT::TempStorage adjacent;
    typename BlockDiscT::TempStorage discontinuity;
    typename BlockShuffleT::TempStorage shuffle;
    typename WarpReduceT::TempStorage warp_reduce[4];
    typename WarpBatchedT::TempStorage warp_batched[8];
    typename WarpScanT::TempStorage warp_scan[4];
    typename WarpSortT::TempStorage warp_sort[4];
  } storage;
  __shared__ unsigned int bins[256];
  const int warp = int(threadIdx.x) / 32;
  T items[4];
  BlockLoadT(storage.load).Load(d_in, items);
  __syncthreads();
  const T total = BlockReduceT(storage.reduce).Sum(items);
  __syncthreads();
  BlockScanT(storage.scan).ExclusiveSum(items, items);
  __syncthreads();
  int keys[4] = {int(threadIdx.x), 3, 1, 2};
  BlockRadixT(storage.radix).Sort(keys, items);
  __syncthreads();
  BlockMergeT(storage.merge).Sort(keys, cuda::std::less<int>{});
  __syncthreads();
  unsigned char samples[4] = {1, 2, 3, 4};
  BlockHistT(storage.histogram).Histogram(samples, bins);
  __syncthreads();
  BlockAdjT(storage.adjacent).SubtractLeft(items, items, cuda::std::minus<>{});
  __syncthreads();
  int flags[4];
  BlockDiscT(storage.discontinuity).FlagHeads(flags, items, cuda::std::not_equal_to<>{});
  __syncthreads();
  BlockShuffleT(storage.shuffle).Up(items, items);
  __syncthreads();
  const T warp_total = WarpReduceT(storage.warp_reduce[warp]).Sum(items[0]);
  __syncthreads();
  const T batch_total = WarpBatchedT(storage.warp_batched[threadIdx.x / 16]).Sum(items);
  __syncthreads();
  T warp_prefix;
  WarpScanT(storage.warp_scan[warp]).InclusiveSum(items[1], warp_prefix);
  __syncthreads();
  WarpSortT(storage.warp_sort[warp]).Sort(keys, cuda::std::less<int>{});
  __syncthreads();
  items[0] += total + warp_total + batch_total + warp_prefix + T(flags[0] + keys[0]);
  BlockStoreT(storage.store).Store(d_out, items);
}

// One call of each device algorithm (the size query instantiates every kernel the call can launch).
template <typename T>
cudaError_t device_algorithms(void* d_temp, size_t& bytes, T* d_a, T* d_b, int* d_keys, int* d_count)
{
  cudaError_t e = cudaSuccess;
  const int n   = 1000;
  auto keep     = [&](cudaError_t r) { e = e != cudaSuccess ? e : r; };
  keep(strata::DeviceReduce::Sum(d_temp, bytes, d_a, d_b, n));
  keep(strata::DeviceReduce::Min(d_temp, bytes, d_a, d_b, n));
  keep(strata::DeviceReduce::ArgMax(d_temp, bytes, d_a, d_b, d_count, n));
  keep(strata::DeviceReduce::ArgMinMax(d_temp, bytes, d_a, d_b, d_keys, d_b + 1, d_keys + 1, n));
  keep(strata::DeviceReduce::Reduce(d_temp, bytes, d_a, d_b, n, cuda::maximum<>{}, T(0)));
  keep(strata::DeviceReduce::TransformReduce(d_temp, bytes, d_a, d_b, n, cuda::std::plus<>{}, twice{}, T(0)));
  keep(strata::DeviceReduce::ReduceByKey(d_temp, bytes, d_keys, d_keys, d_a, d_b, d_count, cuda::std::plus<>{}, n));
  keep(strata::DeviceScan::ExclusiveSum(d_temp, bytes, d_a, d_b, n));
  keep(strata::DeviceScan::InclusiveScan(d_temp, bytes, d_a, d_b, cuda::maximum<>{}, n));
  keep(strata::DeviceScan::ExclusiveScan(d_temp, bytes, d_a, d_b, cuda::std::plus<>{}, T(1), n));
  keep(strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, d_keys, d_a, d_b, n));
  keep(strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, d_keys, d_a, d_b, cuda::std::plus<>{}, T(0), n));
  keep(strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_a, d_b, n));
  keep(strata::DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_a, d_b, d_keys, d_keys, n));
  keep(strata::DeviceMergeSort::SortPairs(d_temp, bytes, d_a, d_keys, n, cuda::std::less<>{}));
  keep(strata::DeviceMergeSort::StableSortKeysCopy(d_temp, bytes, d_a, d_b, n, cuda::std::less<>{}));
  keep(strata::DeviceMerge::MergeKeys(d_temp, bytes, d_a, n, d_a, n, d_b, cuda::std::less<>{}));
  keep(
      strata::DeviceMerge::MergePairs(d_temp, bytes, d_a, d_keys, n, d_a, d_keys, n, d_b, d_keys, cuda::std::less<>{}));
  keep(strata::DeviceSegmentedRadixSort::SortPairs(d_temp, bytes, d_a, d_b, d_keys, d_keys, n, 10, d_count,
                                                   d_count + 1));
  keep(strata::DeviceSegmentedSort::StableSortKeys(d_temp, bytes, d_a, d_b, n, 10, d_count, d_count + 1));
  keep(strata::DeviceSegmentedReduce::Sum(d_temp, bytes, d_a, d_b, 10, d_count, d_count + 1));
  keep(strata::DeviceSegmentedReduce::Max(d_temp, bytes, d_a, d_b, 10, d_count, d_count + 1));
  keep(strata::DeviceSegmentedScan::InclusiveSegmentedSum(d_temp, bytes, d_a, d_b, d_count, d_count + 1, 10));
  keep(strata::DeviceSegmentedScan::ExclusiveSegmentedScan(d_temp, bytes, d_a, d_b, d_count, d_count + 1, 10,
                                                           cuda::std::plus<>{}, T(1)));
  keep(strata::DeviceSelect::If(d_temp, bytes, d_a, d_b, d_count, n, is_small{}));
  keep(strata::DeviceSelect::Flagged(d_temp, bytes, d_a, d_keys, d_b, d_count, n));
  keep(strata::DeviceSelect::Unique(d_temp, bytes, d_a, d_b, d_count, n));
  keep(strata::DeviceSelect::UniqueByKey(d_temp, bytes, d_keys, d_a, d_keys, d_b, d_count, n));
  keep(strata::DevicePartition::If(d_temp, bytes, d_a, d_b, d_count, n, is_small{}));
  keep(strata::DevicePartition::If(d_temp, bytes, d_a, d_b, d_b, d_a, d_count, n, is_small{}, is_odd{}));
  keep(strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, bytes, d_a, d_b, n));
  keep(strata::DeviceAdjacentDifference::SubtractRight(d_temp, bytes, d_a, n));
  keep(strata::DeviceRunLengthEncode::Encode(d_temp, bytes, d_a, d_b, d_keys, d_count, n));
  keep(strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp, bytes, d_a, d_keys, d_keys, d_count, n));
  keep(strata::DeviceTopK::MaxPairs(d_temp, bytes, d_a, d_b, d_keys, d_keys, n, 10));
  keep(strata::DeviceTopK::MinKeys(d_temp, bytes, d_a, d_b, n, 10));
  keep(strata::DeviceFor::ForEachN(d_a, n, twice{}));
  keep(strata::DeviceTransform::Transform(d_a, d_b, n, twice{}));
  keep(strata::DeviceTransform::TransformIf(d_a, d_b, n, is_small{}, twice{}));
  keep(strata::DeviceTransform::Fill(d_b, n, T(3)));
  keep(strata::DeviceFind::FindIf(d_temp, bytes, d_a, d_count, is_small{}, n));
  keep(strata::DeviceFind::LowerBound(d_temp, bytes, d_a, n, d_b, n, d_keys, cuda::std::less<>{}));
  keep(strata::DeviceFind::UpperBoundSortedValues(d_temp, bytes, d_a, n, d_b, n, d_keys, cuda::std::less<>{}));
  return e;
}

// The algorithms without a value type of their own: histograms, batched copies, DeviceFor::Bulk,
// batched top-k.
inline cudaError_t other_algorithms(void* d_temp, size_t& bytes, unsigned char* d_samples, float* d_floats,
                                    int* d_histogram, const void** d_srcs, void** d_dsts, int* d_sizes)
{
  cudaError_t e = cudaSuccess;
  auto keep     = [&](cudaError_t r) { e = e != cudaSuccess ? e : r; };
  keep(strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, d_histogram, 257, 0, 256, 1000));
  keep(strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_floats, d_histogram, 11, 0.0f, 1.0f, 1000));
  keep(strata::DeviceHistogram::HistogramRange(d_temp, bytes, d_floats, d_histogram, 11, d_floats, 1000));
  int* histograms[3] = {d_histogram, d_histogram, d_histogram};
  int levels[3]      = {9, 9, 9};
  unsigned lower[3]  = {0, 0, 0};
  unsigned upper[3]  = {256, 256, 256};
  keep(strata::DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, bytes, d_samples, histograms, levels, lower, upper,
                                                         1000));
  keep(strata::DeviceMemcpy::Batched(d_temp, bytes, d_srcs, d_dsts, d_sizes, 100));
  keep(strata::DeviceCopy::Batched(d_temp, bytes, reinterpret_cast<const float* const*>(d_srcs),
                                   reinterpret_cast<float* const*>(d_dsts), d_sizes, 100));
  keep(strata::DeviceFor::Bulk(1000, scale{d_floats}));
  // A uniform size and k: the thread-per-segment and the block-per-segment kernels; sizes one per
  // segment: the small-segment kernel and the block kernel over its list.
  keep(strata::DeviceBatchedTopK::MaxKeys(d_temp, bytes, reinterpret_cast<const float* const*>(d_srcs),
                                          reinterpret_cast<float* const*>(d_dsts), 64, 8, 100));
  keep(strata::DeviceBatchedTopK::MaxKeys(d_temp, bytes, reinterpret_cast<const float* const*>(d_srcs),
                                          reinterpret_cast<float* const*>(d_dsts), d_sizes, 8, 100));
  return e;
}

template cudaError_t device_algorithms<int>(void*, size_t&, int*, int*, int*, int*);
// 64-bit values too where STRATA_ARCH_TEST_WIDE is defined (the oldest generation): elsewhere the
// double collectives cover the 64-bit warp and block paths, and int keeps the check cheap.
#ifdef STRATA_ARCH_TEST_WIDE
template cudaError_t device_algorithms<double>(void*, size_t&, double*, double*, int*, int*);
#endif
template __global__ void collectives<int>(const int*, int*);
template __global__ void collectives<double>(const double*, double*);
} // namespace strata_arch

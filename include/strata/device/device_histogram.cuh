// strata/device/device_histogram.cuh: DeviceHistogram, histograms of samples in bins of equal
// width (Even) or between given levels (Range), of one channel or several interleaved ones, over
// a sequence or the rows of a 2-D region, with CUB's two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_histogram.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/array>
#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

//! Device-wide histograms. A histogram of num_levels levels has num_levels - 1 bins: Even bins
//! split [lower_level, upper_level) into equal widths (integer samples land in the exact bin,
//! floor((sample - lower) * bins / (upper - lower))), Range bin i holds [d_levels[i], d_levels[i +
//! 1]). Samples outside, and NaN, are not counted. The histograms are overwritten (cleared first).
//! A pixel is NUM_CHANNELS consecutive samples, of which the first NUM_ACTIVE_CHANNELS each get a
//! histogram; the 2-D forms read num_rows rows of num_row_pixels pixels, row_stride_bytes apart (a
//! multiple of the sample size; rows may overlap, as in CUB). An empty, reversed or NaN Even range
//! counts nothing, as in CUB.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. Fewer than two levels, a negative count, a
//! row stride that is not a multiple of the sample size, a null pointer on the second call, or too
//! little temporary storage returns cudaErrorInvalidValue before anything is written. Counts are
//! 32-bit per block in shared memory and added to CounterT with atomics.
//!
//! \code
//! // d_samples {2.2, 6.1, 7.1, 2.9, 3.5, 0.3, 2.9, 2.1, 6.1, 999.5}: 6 bins over [0, 12)
//! strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, d_histogram, 7, 0.0f, 12.0f, 10);
//! // d_histogram {1, 5, 0, 3, 0, 0}
//! \endcode
struct DeviceHistogram
{
  //! One histogram of num_samples samples in bins of equal width.
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples, CounterT* d_histogram,
                int num_levels, LevelT lower_level, LevelT upper_level, OffsetT num_samples, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::HistogramEven");
    return Even<1, 1, SampleIteratorT, CounterT, LevelT, OffsetT>(
        d_temp_storage, temp_storage_bytes, d_samples, {d_histogram}, {num_levels}, {lower_level}, {upper_level},
        num_samples, OffsetT(1), RowBytes<SampleIteratorT>(num_samples, 1), stream);
  }

  //! HistogramEven over num_rows rows of num_row_samples samples, row_stride_bytes apart.
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples, CounterT* d_histogram,
                int num_levels, LevelT lower_level, LevelT upper_level, OffsetT num_row_samples, OffsetT num_rows,
                size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::HistogramEven");
    return Even<1, 1, SampleIteratorT, CounterT, LevelT, OffsetT>(
        d_temp_storage, temp_storage_bytes, d_samples, {d_histogram}, {num_levels}, {lower_level}, {upper_level},
        num_row_samples, num_rows, row_stride_bytes, stream);
  }

  //! One histogram per active channel of num_pixels pixels, bins of equal width.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                     ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                     ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                     ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
                     ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_pixels,
                     cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::MultiHistogramEven");
    return Even<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram,
                                                   num_levels, lower_level, upper_level, num_pixels, OffsetT(1),
                                                   RowBytes<SampleIteratorT>(num_pixels, NUM_CHANNELS), stream);
  }

  //! MultiHistogramEven with C arrays.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                     CounterT* d_histogram[NUM_ACTIVE_CHANNELS], const int num_levels[NUM_ACTIVE_CHANNELS],
                     const LevelT lower_level[NUM_ACTIVE_CHANNELS], const LevelT upper_level[NUM_ACTIVE_CHANNELS],
                     OffsetT num_pixels, cudaStream_t stream = 0)
  {
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, ToArray<NUM_ACTIVE_CHANNELS>(d_histogram),
        ToArray<NUM_ACTIVE_CHANNELS>(num_levels), ToArray<NUM_ACTIVE_CHANNELS>(lower_level),
        ToArray<NUM_ACTIVE_CHANNELS>(upper_level), num_pixels, stream);
  }

  //! MultiHistogramEven over num_rows rows of num_row_pixels pixels, row_stride_bytes apart.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                     ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                     ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                     ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
                     ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_row_pixels,
                     OffsetT num_rows, size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::MultiHistogramEven");
    return Even<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram,
                                                   num_levels, lower_level, upper_level, num_row_pixels, num_rows,
                                                   row_stride_bytes, stream);
  }

  //! The 2-D MultiHistogramEven with C arrays.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                     CounterT* d_histogram[NUM_ACTIVE_CHANNELS], const int num_levels[NUM_ACTIVE_CHANNELS],
                     const LevelT lower_level[NUM_ACTIVE_CHANNELS], const LevelT upper_level[NUM_ACTIVE_CHANNELS],
                     OffsetT num_row_pixels, OffsetT num_rows, size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, ToArray<NUM_ACTIVE_CHANNELS>(d_histogram),
        ToArray<NUM_ACTIVE_CHANNELS>(num_levels), ToArray<NUM_ACTIVE_CHANNELS>(lower_level),
        ToArray<NUM_ACTIVE_CHANNELS>(upper_level), num_row_pixels, num_rows, row_stride_bytes, stream);
  }

  //! One histogram of num_samples samples in the bins between d_levels (num_levels of them).
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  HistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples, CounterT* d_histogram,
                 int num_levels, const LevelT* d_levels, OffsetT num_samples, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::HistogramRange");
    return Range<1, 1, SampleIteratorT, CounterT, LevelT, OffsetT>(
        d_temp_storage, temp_storage_bytes, d_samples, {d_histogram}, {num_levels}, {d_levels}, num_samples, OffsetT(1),
        RowBytes<SampleIteratorT>(num_samples, 1), stream);
  }

  //! HistogramRange over num_rows rows of num_row_samples samples, row_stride_bytes apart.
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  HistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples, CounterT* d_histogram,
                 int num_levels, const LevelT* d_levels, OffsetT num_row_samples, OffsetT num_rows,
                 size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::HistogramRange");
    return Range<1, 1, SampleIteratorT, CounterT, LevelT, OffsetT>(d_temp_storage, temp_storage_bytes, d_samples,
                                                                   {d_histogram}, {num_levels}, {d_levels},
                                                                   num_row_samples, num_rows, row_stride_bytes, stream);
  }

  //! One histogram per active channel of num_pixels pixels, bins between given levels.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                      ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                      ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                      ::cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_pixels,
                      cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::MultiHistogramRange");
    return Range<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram,
                                                    num_levels, d_levels, num_pixels, OffsetT(1),
                                                    RowBytes<SampleIteratorT>(num_pixels, NUM_CHANNELS), stream);
  }

  //! MultiHistogramRange with C arrays.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                      CounterT* d_histogram[NUM_ACTIVE_CHANNELS], const int num_levels[NUM_ACTIVE_CHANNELS],
                      const LevelT* const d_levels[NUM_ACTIVE_CHANNELS], OffsetT num_pixels, cudaStream_t stream = 0)
  {
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, ToArray<NUM_ACTIVE_CHANNELS>(d_histogram),
        ToArray<NUM_ACTIVE_CHANNELS>(num_levels), ToArray<NUM_ACTIVE_CHANNELS>(d_levels), num_pixels, stream);
  }

  //! MultiHistogramRange over num_rows rows of num_row_pixels pixels, row_stride_bytes apart.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                      ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                      ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                      ::cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_row_pixels,
                      OffsetT num_rows, size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceHistogram::MultiHistogramRange");
    return Range<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram,
                                                    num_levels, d_levels, num_row_pixels, num_rows, row_stride_bytes,
                                                    stream);
  }

  //! The 2-D MultiHistogramRange with C arrays.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                      CounterT* d_histogram[NUM_ACTIVE_CHANNELS], const int num_levels[NUM_ACTIVE_CHANNELS],
                      const LevelT* const d_levels[NUM_ACTIVE_CHANNELS], OffsetT num_row_pixels, OffsetT num_rows,
                      size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, ToArray<NUM_ACTIVE_CHANNELS>(d_histogram),
        ToArray<NUM_ACTIVE_CHANNELS>(num_levels), ToArray<NUM_ACTIVE_CHANNELS>(d_levels), num_row_pixels, num_rows,
        row_stride_bytes, stream);
  }

private:
  template <int N, typename T>
  STRATA_HOST_DEVICE static ::cuda::std::array<T, N> ToArray(const T* values)
  {
    ::cuda::std::array<T, N> array{};
    for (int i = 0; i < N; ++i)
    {
      array[i] = values[i];
    }
    return array;
  }

  //! The bytes of one row of a 1-D input (its stride is never used).
  template <typename SampleIteratorT, typename OffsetT>
  STRATA_HOST_DEVICE static size_t RowBytes(OffsetT num_pixels, int channels)
  {
    return num_pixels > OffsetT(0) ? size_t(num_pixels) * size_t(channels) * sizeof(detail::it_value_t<SampleIteratorT>)
                                   : 0;
  }

  //! The offset type of the dispatch: the caller's, widened to 64 bits, since a row stride (a
  //! size_t) may exceed what the caller's count type holds.
  template <typename OffsetT>
  using WideOffset = ::cuda::std::conditional_t<(sizeof(OffsetT) < 8), ::cuda::std::int64_t, OffsetT>;

  template <typename SampleIteratorT, typename OffsetT>
  STRATA_HOST_DEVICE static bool StrideInSamples(size_t row_stride_bytes, OffsetT& row_stride_samples)
  {
    constexpr size_t SAMPLE_BYTES = sizeof(detail::it_value_t<SampleIteratorT>);
    row_stride_samples            = OffsetT(row_stride_bytes / SAMPLE_BYTES);
    return row_stride_bytes % SAMPLE_BYTES == 0;
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Even(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
       ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
       ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
       ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
       ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_row_pixels, OffsetT num_rows,
       size_t row_stride_bytes, cudaStream_t stream)
  {
    using WideT = WideOffset<OffsetT>;
    WideT row_stride_samples{};
    if (!StrideInSamples<SampleIteratorT>(row_stride_bytes, row_stride_samples))
    {
      return STRATA_INVALID_ARGUMENT("row_stride_bytes is not a multiple of the sample size");
    }
    return DispatchHistogram<NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT, LevelT, WideT>::DispatchEven(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels, lower_level, upper_level,
        WideT(num_row_pixels), WideT(num_rows), row_stride_samples, stream);
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Range(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
        ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
        ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
        ::cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_row_pixels, OffsetT num_rows,
        size_t row_stride_bytes, cudaStream_t stream)
  {
    using WideT = WideOffset<OffsetT>;
    WideT row_stride_samples{};
    if (!StrideInSamples<SampleIteratorT>(row_stride_bytes, row_stride_samples))
    {
      return STRATA_INVALID_ARGUMENT("row_stride_bytes is not a multiple of the sample size");
    }
    return DispatchHistogram<NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT, LevelT,
                             WideT>::DispatchRange(d_temp_storage, temp_storage_bytes, d_samples, d_histogram,
                                                   num_levels, d_levels, WideT(num_row_pixels), WideT(num_rows),
                                                   row_stride_samples, stream);
  }
};

STRATA_NAMESPACE_END

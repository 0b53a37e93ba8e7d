// strata/block/block_histogram.cuh: BlockHistogram, which counts the samples of a block's tile
// into the bins of a histogram in shared or global memory.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/block/specializations/block_histogram_atomic.cuh>
#include <strata/block/specializations/block_histogram_sort.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Counts a tile of BLOCK_THREADS * ITEMS_PER_THREAD samples (any arrangement over the threads)
//! into a histogram of BINS counters of any arithmetic CounterT, in shared or global memory.
//! A sample is its own bin: T must convert to an integer, and every sample must lie in
//! [0, BINS) (others are undefined behaviour, as in CUB).
//!
//! - Histogram() zeroes the histogram and counts one tile; InitHistogram() and Composite() do the
//!   same in two steps, so that several tiles can be added into one histogram.
//! - BLOCK_HISTO_SORT updates each bin with a plain read-modify-write by one thread: no other
//!   block may update the same (global) histogram concurrently. BLOCK_HISTO_ATOMIC uses
//!   device-scope atomics, so blocks may share a global histogram.
//! - Every member must be called by all threads of the block. The histogram is complete only
//!   after a `__syncthreads()` (or, in global memory, at the end of the kernel). Call
//!   `__syncthreads()` before the same TempStorage is used again.
//!
//! \code
//! // 256 bins of 512 byte samples: 128 threads, 4 samples each
//! using BlockHistogramT = strata::BlockHistogram<unsigned char, 128, 4, 256>;
//! __shared__ BlockHistogramT::TempStorage temp_storage;
//! __shared__ unsigned int smem_histogram[256];
//! unsigned char samples[4];
//! ...
//! BlockHistogramT(temp_storage).Histogram(samples, smem_histogram);
//! __syncthreads();  // smem_histogram[b] now counts the samples equal to b
//! \endcode
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockHistogram
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");
  static_assert(ITEMS_PER_THREAD >= 1, "every thread holds at least one sample");
  static_assert(BINS >= 1, "a histogram has at least one bin");
  static_assert(ALGORITHM == BLOCK_HISTO_SORT || ALGORITHM == BLOCK_HISTO_ATOMIC, "unknown BlockHistogramAlgorithm");

  using InternalBlockHistogram = ::cuda::std::conditional_t<
      ALGORITHM == BLOCK_HISTO_SORT,
      detail::BlockHistogramSort<T, BLOCK_DIM_X, ITEMS_PER_THREAD, BINS, BLOCK_DIM_Y, BLOCK_DIM_Z>,
      detail::BlockHistogramAtomic<BINS>>;
  using _TempStorage = typename InternalBlockHistogram::TempStorage;

public:
  //! The shared memory the collective needs (may sit in a union with other TempStorage).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage, one per specialization and kernel.
  STRATA_DEVICE STRATA_FORCEINLINE BlockHistogram()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockHistogram(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! \name Histogram operations
  //! InitHistogram sets all BINS counters to zero, without a barrier. Composite adds the block's
  //! samples to the counters. Histogram does both, with a barrier in between. With
  //! BLOCK_HISTO_SORT, Composite may follow InitHistogram directly (as in CUB's snippets: every
  //! bin is zeroed and updated by the same thread); BLOCK_HISTO_ATOMIC needs a `__syncthreads()`
  //! in between.
  //!
  //! \code
  //! // Several tiles into one histogram
  //! BlockHistogramT(temp_storage).InitHistogram(smem_histogram);
  //! __syncthreads();  // needed by BLOCK_HISTO_ATOMIC only
  //! for (int tile = 0; tile < num_tiles; ++tile)
  //! {
  //!   unsigned char samples[4];
  //!   ... // load the tile
  //!   BlockHistogramT(temp_storage).Composite(samples, smem_histogram);
  //!   __syncthreads();  // before temp_storage is used again
  //! }
  //! \endcode
  //! @{
  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void InitHistogram(CounterT histogram[BINS])
  {
    detail::BlockStridedFor<BLOCK_THREADS, BINS>(linear_tid, [histogram](int bin) { histogram[bin] = CounterT{}; });
  }

  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void Histogram(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
    InitHistogram(histogram);
    __syncthreads();
    Composite(items, histogram);
  }

  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
    InternalBlockHistogram(temp_storage).Composite(items, histogram);
  }
  //! @}

private:
  _TempStorage& temp_storage;
  int linear_tid;
};

STRATA_NAMESPACE_END

// strata/block/block_raking_layout.cuh: BlockRakingLayout, the shared-memory grid through which
// a block hands one value per thread to at most one warp of "raking" threads, each of which then
// reduces or scans a contiguous segment of it.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

//! The layout of a raking grid for BLOCK_THREADS values of type T: every thread places one value
//! (PlacementPtr), then RAKING_THREADS threads (at most a warp) each read SEGMENT_LENGTH
//! consecutive values (RakingPtr). When segments are of an even length greater than 2, one pad
//! element follows each segment, so that the raking threads' strided reads fall in different
//! shared-memory banks.
//!
//! \code
//! using Layout = strata::BlockRakingLayout<int, 128>;  // 32 raking threads, segments of 4
//! __shared__ typename Layout::TempStorage grid;
//! *Layout::PlacementPtr(grid, threadIdx.x) = value;
//! __syncthreads();
//! if (threadIdx.x < Layout::RAKING_THREADS)
//! {
//!   int* segment = Layout::RakingPtr(grid, threadIdx.x); // segment[0 .. SEGMENT_LENGTH)
//! }
//! \endcode
template <typename T, int BLOCK_THREADS>
struct BlockRakingLayout
{
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");

  //! Values placed into the grid: one per thread.
  static constexpr int SHARED_ELEMENTS = BLOCK_THREADS;
  //! At most one warp rakes.
  static constexpr int MAX_RAKING_THREADS = BLOCK_THREADS < detail::warp_threads ? BLOCK_THREADS : detail::warp_threads;
  //! Values each raking thread reads.
  static constexpr int SEGMENT_LENGTH = (SHARED_ELEMENTS + MAX_RAKING_THREADS - 1) / MAX_RAKING_THREADS;
  //! Threads that rake: enough segments to cover every value.
  static constexpr int RAKING_THREADS = (SHARED_ELEMENTS + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH;
  //! Whether unpadded segments would start in the same bank for several raking threads.
  static constexpr bool HAS_CONFLICTS = detail::smem_banks % SEGMENT_LENGTH == 0;
  //! How many raking threads would share a bank without padding.
  static constexpr int CONFLICT_DEGREE = HAS_CONFLICTS ? (MAX_RAKING_THREADS * SEGMENT_LENGTH) / detail::smem_banks : 1;
  //! Whether each segment is followed by one pad element.
  static constexpr bool USE_SEGMENT_PADDING = (SEGMENT_LENGTH % 2 == 0) && (SEGMENT_LENGTH > 2);
  //! Elements of the grid, padding included.
  static constexpr int GRID_ELEMENTS = RAKING_THREADS * (SEGMENT_LENGTH + (USE_SEGMENT_PADDING ? 1 : 0));
  //! Whether every segment is full (no raking thread reads past the last placed value).
  static constexpr bool UNGUARDED = SHARED_ELEMENTS % RAKING_THREADS == 0;

  struct alignas(16) _TempStorage
  {
    T buff[GRID_ELEMENTS];
  };

  //! The grid's shared memory (alias it in a union with other TempStorage when phases allow).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Where thread `linear_tid` places its value.
  STRATA_DEVICE STRATA_FORCEINLINE static T* PlacementPtr(TempStorage& temp_storage, unsigned int linear_tid)
  {
    unsigned int offset = linear_tid;
    if constexpr (USE_SEGMENT_PADDING)
    {
      offset += offset / SEGMENT_LENGTH; // skip the pad after every full segment
    }
    return temp_storage.Alias().buff + offset;
  }

  //! Where raking thread `linear_tid` (< RAKING_THREADS) finds its SEGMENT_LENGTH values.
  STRATA_DEVICE STRATA_FORCEINLINE static T* RakingPtr(TempStorage& temp_storage, unsigned int linear_tid)
  {
    return temp_storage.Alias().buff + linear_tid * (SEGMENT_LENGTH + (USE_SEGMENT_PADDING ? 1 : 0));
  }
};

STRATA_NAMESPACE_END

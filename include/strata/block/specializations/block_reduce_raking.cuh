// strata/block/specializations/block_reduce_raking.cuh: BlockReduce's BLOCK_REDUCE_RAKING
// algorithm: every thread places its partial in a raking grid, one warp rakes the grid in order
// and finishes with a warp reduction. Keeps the order of the threads, so non-commutative
// operators work.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_raking_layout.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The raking reduction of a block of BLOCK_THREADS threads (1 to 1024), one partial per thread,
//! combined as partial_0 op partial_1 op ... op partial_{n-1} in the order of the threads' ranks
//! (grouped as the raking segments and the warp's tree make it; the operator must be
//! associative, not commutative). The result is valid in thread 0.
//!
//! - Blocks of at most one warp reduce with one WarpReduce of BLOCK_THREADS lanes: no barrier.
//! - Larger blocks place their partials in a BlockRakingLayout, synchronize once, and each of
//!   the layout's RAKING_THREADS threads (warp 0) reduces its segment; warp 0 then reduces the
//!   segments' results with a 32-lane WarpReduce whose lanes beyond the valid segments are
//!   ignored. That warp reduction shuffles (or, on sm_80+, is one redux.sync), so only the grid
//!   takes shared memory.
template <typename T, int BLOCK_THREADS>
struct BlockReduceRaking
{
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a block has 1 to 1024 threads");

  //! Whether the block is a single (possibly partial) warp, which needs no raking grid.
  static constexpr bool WARP_SYNCHRONOUS = BLOCK_THREADS <= warp_threads;

  using Layout     = BlockRakingLayout<T, BLOCK_THREADS>;
  using SingleWarp = WarpReduce<T, WARP_SYNCHRONOUS ? BLOCK_THREADS : warp_threads>;
  using RakingWarp = WarpReduce<T, warp_threads>;
  using TempStorage =
      ::cuda::std::conditional_t<WARP_SYNCHRONOUS, typename SingleWarp::TempStorage, typename Layout::TempStorage>;
  static constexpr int SEGMENT_LENGTH = Layout::SEGMENT_LENGTH;
  static constexpr int RAKING_THREADS = Layout::RAKING_THREADS;

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE BlockReduceRaking(TempStorage& temp_storage, int linear_tid)
      : temp_storage(temp_storage)
      , linear_tid(linear_tid)
  {
  }

  //! The reduction of the partials of threads 0 .. num_valid - 1 (all of them when FULL_TILE),
  //! valid in thread 0; 1 <= num_valid <= BLOCK_THREADS.
  template <bool FULL_TILE, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T partial, int num_valid, ReductionOpT& reduction_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      SingleWarp warp_reduce(temp_storage);
      return FULL_TILE ? warp_reduce.Reduce(partial, reduction_op)
                       : warp_reduce.Reduce(partial, reduction_op, num_valid);
    }
    else
    {
      *Layout::PlacementPtr(temp_storage, static_cast<unsigned int>(linear_tid)) = partial;
      __syncthreads();
      if (linear_tid < warp_threads)
      {
        if (RAKING_THREADS == warp_threads || linear_tid < RAKING_THREADS)
        {
          partial = RakeSegment<FULL_TILE>(num_valid, reduction_op);
        }
        // Segment s holds the partials from thread s * SEGMENT_LENGTH on: the valid ones are
        // those that start below num_valid.
        const int valid_segments = FULL_TILE ? RAKING_THREADS : (num_valid + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH;
        // A 32-lane WarpReduce keeps its partials in registers: its TempStorage is never touched.
        typename RakingWarp::TempStorage no_storage;
        RakingWarp warp_reduce(no_storage);
        partial = (FULL_TILE && RAKING_THREADS == warp_threads)
                      ? warp_reduce.Reduce(partial, reduction_op)
                      : warp_reduce.Reduce(partial, reduction_op, valid_segments);
      }
      return partial;
    }
  }

private:
  //! The calling raking thread's segment reduced in order; the partials at or beyond num_valid
  //! (or, in a full tile, beyond the block, where the last segment is short) are left out.
  template <bool FULL_TILE, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T RakeSegment(int num_valid, ReductionOpT& reduction_op)
  {
    const T* segment = Layout::RakingPtr(temp_storage, static_cast<unsigned int>(linear_tid));
    if constexpr (FULL_TILE && Layout::UNGUARDED)
    {
      return static_cast<T>(ThreadReduce<SEGMENT_LENGTH>(segment, reduction_op));
    }
    else
    {
      const int end   = FULL_TILE ? BLOCK_THREADS : num_valid;
      const int first = linear_tid * SEGMENT_LENGTH;
      T partial       = segment[0];
#pragma unroll
      for (int i = 1; i < SEGMENT_LENGTH; ++i)
      {
        if (first + i < end)
        {
          partial = static_cast<T>(reduction_op(partial, segment[i]));
        }
      }
      return partial;
    }
  }
};
} // namespace detail

STRATA_NAMESPACE_END

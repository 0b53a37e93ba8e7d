// strata/block/specializations/block_reduce_raking_commutative_only.cuh: BlockReduce's
// BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY algorithm: warp 0 keeps its own partials in registers and
// rakes those of the other warps, which regroups the threads' partials out of order, so the
// operator must be commutative.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_raking_layout.cuh>
#include <strata/block/specializations/block_reduce_raking.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The commutative raking reduction of a block of BLOCK_THREADS threads (1 to 1024), one
//! partial per thread, valid in thread 0; the operator must be associative and commutative.
//!
//! Threads 32 .. BLOCK_THREADS - 1 place their partials in a BlockRakingLayout of
//! BLOCK_THREADS - 32 values, the block synchronizes once, and each lane of warp 0 reduces its
//! own partial with a segment of (BLOCK_THREADS - 32) / 32 placed ones, before a 32-lane
//! WarpReduce. Compared with BLOCK_REDUCE_RAKING, warp 0 stores and reloads nothing and the grid
//! is a warp smaller. A partial tile needs no other path: lane l's segment holds partials of
//! threads above 32 + l, so a lane's segment can only hold valid partials if the lane's own is
//! valid.
//!
//! Blocks whose size is not a multiple of 32, or of a single warp, fall back to
//! BlockReduceRaking (as CUB does).
template <typename T, int BLOCK_THREADS>
struct BlockReduceRakingCommutativeOnly
{
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a block has 1 to 1024 threads");

  static constexpr bool USE_FALLBACK = BLOCK_THREADS % warp_threads != 0 || BLOCK_THREADS <= warp_threads;
  //! The threads outside warp 0, whose partials go through the grid.
  static constexpr int SHARING_THREADS = USE_FALLBACK ? 1 : BLOCK_THREADS - warp_threads;
  static constexpr int SEGMENT_LENGTH  = SHARING_THREADS / warp_threads;

  using Fallback   = BlockReduceRaking<T, BLOCK_THREADS>;
  using Layout     = BlockRakingLayout<T, SHARING_THREADS>;
  using RakingWarp = WarpReduce<T, warp_threads>;
  using TempStorage =
      ::cuda::std::conditional_t<USE_FALLBACK, typename Fallback::TempStorage, typename Layout::TempStorage>;

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE BlockReduceRakingCommutativeOnly(TempStorage& temp_storage, int linear_tid)
      : temp_storage(temp_storage)
      , linear_tid(linear_tid)
  {
  }

  //! The reduction of the partials of threads 0 .. num_valid - 1 (all of them when FULL_TILE),
  //! valid in thread 0; 1 <= num_valid <= BLOCK_THREADS.
  template <bool FULL_TILE, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T partial, int num_valid, ReductionOpT& reduction_op)
  {
    if constexpr (USE_FALLBACK)
    {
      return Fallback(temp_storage, linear_tid).template Reduce<FULL_TILE>(partial, num_valid, reduction_op);
    }
    else
    {
      static_assert(Layout::RAKING_THREADS == warp_threads && Layout::SEGMENT_LENGTH == SEGMENT_LENGTH
                        && Layout::UNGUARDED,
                    "every lane of warp 0 rakes one full segment");
      if (linear_tid >= warp_threads)
      {
        *Layout::PlacementPtr(temp_storage, static_cast<unsigned int>(linear_tid - warp_threads)) = partial;
      }
      __syncthreads();
      if (linear_tid < warp_threads)
      {
        const T* segment = Layout::RakingPtr(temp_storage, static_cast<unsigned int>(linear_tid));
        // A 32-lane WarpReduce keeps its partials in registers: its TempStorage is never touched.
        typename RakingWarp::TempStorage no_storage;
        RakingWarp warp_reduce(no_storage);
        if constexpr (FULL_TILE)
        {
          partial = static_cast<T>(ThreadReduce<SEGMENT_LENGTH>(segment, reduction_op, partial));
          partial = warp_reduce.Reduce(partial, reduction_op);
        }
        else
        {
          // Segment i of lane l is the partial of thread 32 + l * SEGMENT_LENGTH + i.
          const int first = warp_threads + linear_tid * SEGMENT_LENGTH;
#pragma unroll
          for (int i = 0; i < SEGMENT_LENGTH; ++i)
          {
            if (first + i < num_valid)
            {
              partial = static_cast<T>(reduction_op(partial, segment[i]));
            }
          }
          partial = warp_reduce.Reduce(partial, reduction_op, num_valid < warp_threads ? num_valid : warp_threads);
        }
      }
      return partial;
    }
  }
};
} // namespace detail

STRATA_NAMESPACE_END

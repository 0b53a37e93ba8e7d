// strata/block/specializations/block_reduce_warp_reductions.cuh: BlockReduce's
// BLOCK_REDUCE_WARP_REDUCTIONS algorithm: every warp reduces its threads' partials, then warp 0
// reduces the warps' aggregates. Keeps the order of the threads, so non-commutative operators
// work.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The warp-reductions reduction of a block of BLOCK_THREADS threads (1 to 1024), one partial
//! per thread: each warp reduces its lanes in order, its lane 0 publishes the warp's aggregate,
//! the block synchronizes once, and warp 0 reduces the aggregates in the order of the warps. The
//! result, partial_0 op ... op partial_{n-1} in the order of the threads' ranks (the operator
//! must be associative, not commutative), is valid in thread 0.
//!
//! A last warp with fewer than 32 threads reduces with a WarpReduce of its own size, whose
//! member mask names only the lanes that exist.
template <typename T, int BLOCK_THREADS>
struct BlockReduceWarpReductions
{
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a block has 1 to 1024 threads");

  static constexpr int WARPS             = (BLOCK_THREADS + warp_threads - 1) / warp_threads;
  static constexpr int LAST_WARP_THREADS = BLOCK_THREADS - (WARPS - 1) * warp_threads;

  using FullWarp = WarpReduce<T, warp_threads>;
  using LastWarp = WarpReduce<T, LAST_WARP_THREADS>;

  //! The lanes of warp 0 that reduce the warps' aggregates: the whole warp where the operator
  //! maps to redux.sync (one instruction on sm_80+, however many warps), otherwise the fewest
  //! lanes that tile the warp, for the shallowest shuffle tree.
  template <typename ReductionOpT>
  static constexpr int AGGREGATE_LANES =
      warp_redux_v<T, ReductionOpT> != WarpRedux::NONE ? warp_threads : PowerOfTwo<WARPS>::ROUNDED_UP;

  struct MultiWarpStorage
  {
    //! The aggregates of warps 1 .. WARPS - 1 (warp 0's stays in thread 0's registers).
    T warp_aggregates[WARPS - 1];
    typename LastWarp::TempStorage last_warp;
  };
  using TempStorage = ::cuda::std::conditional_t<WARPS == 1, typename LastWarp::TempStorage, MultiWarpStorage>;

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE BlockReduceWarpReductions(TempStorage& temp_storage, int linear_tid)
      : temp_storage(temp_storage)
      , linear_tid(linear_tid)
  {
  }

  //! The reduction of the partials of threads 0 .. num_valid - 1 (all of them when FULL_TILE),
  //! valid in thread 0; 1 <= num_valid <= BLOCK_THREADS.
  template <bool FULL_TILE, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T partial, int num_valid, ReductionOpT& reduction_op)
  {
    if constexpr (WARPS == 1)
    {
      return WarpAggregate<LAST_WARP_THREADS, FULL_TILE>(temp_storage, partial, num_valid, reduction_op);
    }
    else
    {
      const int warp_id    = linear_tid / warp_threads;
      const int lane_id    = linear_tid % warp_threads;
      const int warp_valid = num_valid - warp_id * warp_threads; // may be <= 0 in a partial tile
      T warp_aggregate     = partial;
      if (FULL_TILE || warp_valid > 0) // uniform in each warp
      {
        if (LAST_WARP_THREADS != warp_threads && warp_id == WARPS - 1)
        {
          warp_aggregate =
              WarpAggregate<LAST_WARP_THREADS, FULL_TILE>(temp_storage.last_warp, partial, warp_valid, reduction_op);
        }
        else
        {
          typename FullWarp::TempStorage no_storage; // 32 lanes shuffle: never touched
          warp_aggregate = WarpAggregate<warp_threads, FULL_TILE>(no_storage, partial, warp_valid, reduction_op);
        }
      }
      if (warp_id > 0 && lane_id == 0)
      {
        detail::UninitializedCopy(&temp_storage.warp_aggregates[warp_id - 1], warp_aggregate);
      }
      __syncthreads();
      if (warp_id == 0)
      {
        warp_aggregate = ReduceAggregates<FULL_TILE>(warp_aggregate, num_valid, reduction_op);
      }
      return warp_aggregate;
    }
  }

private:
  //! The calling warp's reduction over its LANES lanes: all of them in a full tile, its first
  //! `warp_valid` (at least 1) otherwise.
  template <int LANES, bool FULL_TILE, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static T WarpAggregate(typename WarpReduce<T, LANES>::TempStorage& storage,
                                                          T partial, int warp_valid, ReductionOpT& reduction_op)
  {
    WarpReduce<T, LANES> warp_reduce(storage);
    return FULL_TILE ? warp_reduce.Reduce(partial, reduction_op)
                     : warp_reduce.Reduce(partial, reduction_op, warp_valid < LANES ? warp_valid : LANES);
  }

  //! Warp 0 (all of it: the block has more than one warp) reduces its own aggregate, held by
  //! lane 0, with those of the other valid warps, read by lanes 1 .. valid_warps - 1.
  template <bool FULL_TILE, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T ReduceAggregates(T aggregate, int num_valid, ReductionOpT& reduction_op)
  {
    constexpr int LANES   = AGGREGATE_LANES<ReductionOpT>;
    const int valid_warps = FULL_TILE ? WARPS : (num_valid + warp_threads - 1) / warp_threads;
    if (linear_tid >= LANES)
    {
      return aggregate;
    }
    if (linear_tid > 0 && linear_tid < valid_warps)
    {
      aggregate = temp_storage.warp_aggregates[linear_tid - 1];
    }
    // LANES is a power of two, so this WarpReduce shuffles and never touches its TempStorage.
    typename WarpReduce<T, LANES>::TempStorage no_storage;
    WarpReduce<T, LANES> warp_reduce(no_storage);
    return (FULL_TILE && LANES == WARPS) ? warp_reduce.Reduce(aggregate, reduction_op)
                                         : warp_reduce.Reduce(aggregate, reduction_op, valid_warps);
  }
};
} // namespace detail

STRATA_NAMESPACE_END

// strata/warp/warp_reduce.cuh: WarpReduce, reductions (sums, any associative operator) over the
// lanes of a logical warp, one item per lane, whole, partial or segmented by flags.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/specializations/warp_reduce_shfl.cuh>
#include <strata/warp/specializations/warp_reduce_smem.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! How many lanes follow the calling one in its segment of the logical warp of `member_mask`
//! (every lane of which must call), from one flag per lane: a head flag starts a segment at its
//! lane, a tail flag ends one there, and the last lane of the logical warp always ends one.
template <bool HEAD_SEGMENTED>
STRATA_DEVICE STRATA_FORCEINLINE int SegmentLanesAfter(bool flag, unsigned int member_mask)
{
  const unsigned int flags     = __ballot_sync(member_mask, flag) & member_mask;
  const unsigned int last_lane = member_mask & ~(member_mask >> 1);
  // A segment ends at a tail, or before a head; the shift would carry the head of the logical
  // warp's first lane out of it, hence the mask after it.
  const unsigned int ends = ((HEAD_SEGMENTED ? flags >> 1 : flags) & member_mask) | last_lane;
  return __ffs(static_cast<int>(ends & LaneMaskGe())) - 1 - static_cast<int>(LaneId());
}
} // namespace detail

//! Cooperative reductions over a logical warp of LOGICAL_WARP_THREADS (1 to 32) lanes, each lane
//! holding one item; works with any associative operator, commutative or not (the order of the
//! lanes is kept). The result is valid in lane 0 of the logical warp (for segmented reductions,
//! in the first lane of each segment); other lanes get unspecified values.
//!
//! - Every group of LOGICAL_WARP_THREADS consecutive lanes from lane 0 of a hardware warp is a
//!   logical warp of its own and reduces independently: with shuffles (no shared memory) for
//!   power-of-two sizes, through shared memory for other sizes, whose lanes past the last whole
//!   group (lanes 28 .. 31 for 7-lane warps) must not call.
//! - On sm_80 and later, Sum and Reduce over integers of up to 32 bits under sums,
//!   cuda::minimum, cuda::maximum and the bitwise operators (transparent or of T) take one
//!   hardware instruction (redux.sync) when the logical warp is alone in its hardware warp (17 to
//!   32 lanes). redux.sync yields one result per warp each time it runs, so several logical warps
//!   per hardware warp, and segments, which would run it once each, keep the tree.
//!
//! Every lane of a logical warp must call the same member with the same `valid_items`. Each
//! logical warp needs its own TempStorage; to reuse it for another call, the lanes must
//! `__syncwarp()` in between.
//!
//! \code
//! using WarpReduceT = strata::WarpReduce<int>; // four 32-lane warps in a block of 128 threads
//! __shared__ WarpReduceT::TempStorage temp_storage[4];
//! int item = d_in[threadIdx.x];
//! int total = WarpReduceT(temp_storage[threadIdx.x / 32]).Sum(item);
//! // items {0, 1, 2, ..., 127} give totals 496, 1520, 2544 and 3568 in threads 0, 32, 64 and 96
//! \endcode
template <typename T, int LOGICAL_WARP_THREADS = detail::warp_threads>
class WarpReduce
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= detail::warp_threads,
                "a logical warp has 1 to 32 threads");

  using InternalWarpReduce  = ::cuda::std::conditional_t<PowerOfTwo<LOGICAL_WARP_THREADS>::VALUE,
                                                        detail::WarpReduceShfl<T, LOGICAL_WARP_THREADS>,
                                                        detail::WarpReduceSmem<T, LOGICAL_WARP_THREADS>>;
  using InternalTempStorage = typename InternalWarpReduce::TempStorage;

public:
  //! The shared memory a logical warp needs (empty for power-of-two sizes); may share a union.
  struct TempStorage : Uninitialized<InternalTempStorage>
  {
  };

  //! A reduction over the calling lane's logical warp that uses `temp_storage` (one per logical
  //! warp).
  STRATA_DEVICE STRATA_FORCEINLINE WarpReduce(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
  {
  }

  //! The sum of the inputs of the logical warp, valid in its lane 0.
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input)
  {
    return ReduceImpl<true>(input, LOGICAL_WARP_THREADS, ::cuda::std::plus<>{});
  }

  //! The sum of the inputs of lanes 0 .. valid_items - 1, valid in lane 0. `valid_items` (1 to
  //! LOGICAL_WARP_THREADS) must be the same in every lane of the logical warp; every lane calls,
  //! and the inputs of the lanes from valid_items on are ignored (they may be uninitialized).
  //!
  //! \code
  //! int item;
  //! if (threadIdx.x < valid_items) item = d_in[threadIdx.x];
  //! int total = WarpReduceT(temp_storage).Sum(item, valid_items); // in lane 0
  //! \endcode
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input, int valid_items)
  {
    return ReduceImpl<false>(input, valid_items, ::cuda::std::plus<>{});
  }

  //! Sums of segments that start at the lanes whose `head_flag` is set (and at lane 0): each
  //! sum is valid in the first lane of its segment.
  //!
  //! \code
  //! // items {0, 1, 2, ..., 31}, head flags {1, 0, 0, 0, 1, 0, 0, 0, ...}:
  //! // 6, 22, 38, ... in lanes 0, 4, 8, ...
  //! int sum = WarpReduceT(temp_storage).HeadSegmentedSum(item, head_flag);
  //! \endcode
  template <typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T HeadSegmentedSum(T input, FlagT head_flag)
  {
    return HeadSegmentedReduce(input, head_flag, ::cuda::std::plus<>{});
  }

  //! Sums of segments that end at the lanes whose `tail_flag` is set (and at the last lane):
  //! each sum is valid in the first lane of its segment (lane 0 and the lanes after a tail).
  //!
  //! \code
  //! // items {0, 1, 2, ..., 31}, tail flags {0, 0, 0, 1, 0, 0, 0, 1, ...}:
  //! // 6, 22, 38, ... in lanes 0, 4, 8, ...
  //! int sum = WarpReduceT(temp_storage).TailSegmentedSum(item, tail_flag);
  //! \endcode
  template <typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T TailSegmentedSum(T input, FlagT tail_flag)
  {
    return TailSegmentedReduce(input, tail_flag, ::cuda::std::plus<>{});
  }

  //! input_0 op input_1 op ... op input_{L-1} with the associative `reduction_op`, valid in lane 0.
  //!
  //! \code
  //! int largest = WarpReduceT(temp_storage).Reduce(item, cuda::maximum<>{});
  //! \endcode
  template <typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOpT reduction_op)
  {
    return ReduceImpl<true>(input, LOGICAL_WARP_THREADS, reduction_op);
  }

  //! input_0 op ... op input_{valid_items-1}, valid in lane 0. `valid_items` (1 to
  //! LOGICAL_WARP_THREADS) must be the same in every lane of the logical warp; every lane calls,
  //! and the inputs of the lanes from valid_items on are ignored.
  template <typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOpT reduction_op, int valid_items)
  {
    return ReduceImpl<false>(input, valid_items, reduction_op);
  }

  //! Reductions of segments that start at the lanes whose `head_flag` is set (and at lane 0),
  //! each valid in the first lane of its segment; the lanes of a segment combine in order.
  template <typename ReductionOpT, typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T HeadSegmentedReduce(T input, FlagT head_flag, ReductionOpT reduction_op)
  {
    return SegmentedReduceImpl<true>(input, static_cast<bool>(head_flag), reduction_op);
  }

  //! Reductions of segments that end at the lanes whose `tail_flag` is set (and at the last
  //! lane), each valid in the first lane of its segment (lane 0 and the lanes after a tail).
  template <typename ReductionOpT, typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T TailSegmentedReduce(T input, FlagT tail_flag, ReductionOpT reduction_op)
  {
    return SegmentedReduceImpl<false>(input, static_cast<bool>(tail_flag), reduction_op);
  }

private:
  //! The redux.sync operation that Sum and Reduce with ReductionOpT take on sm_80+, or NONE (see
  //! the class comment).
  template <typename ReductionOpT>
  static constexpr detail::WarpRedux REDUX =
      2 * LOGICAL_WARP_THREADS > detail::warp_threads ? detail::warp_redux_v<T, ReductionOpT> : detail::WarpRedux::NONE;

  template <bool ALL_VALID, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T ReduceImpl(T input, int valid_items, ReductionOpT reduction_op)
  {
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      return input;
    }
    else
    {
      InternalWarpReduce internal(temp_storage);
      const int last_lane = ALL_VALID ? LOGICAL_WARP_THREADS - 1 : valid_items - 1;
      if constexpr (REDUX<ReductionOpT> != detail::WarpRedux::NONE)
      {
        T result = input;
        NV_IF_TARGET(NV_PROVIDES_SM_80,
                     (result = detail::ReduxReduce<REDUX<ReductionOpT>>(
                          input, ALL_VALID || internal.lane_id <= last_lane, internal.member_mask);),
                     (result = internal.Reduce(input, last_lane, reduction_op);));
        return result;
      }
      else
      {
        return internal.Reduce(input, last_lane, reduction_op);
      }
    }
  }

  template <bool HEAD_SEGMENTED, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T SegmentedReduceImpl(T input, bool flag, ReductionOpT reduction_op)
  {
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      return input;
    }
    else
    {
      InternalWarpReduce internal(temp_storage);
      const int last_lane = internal.lane_id + detail::SegmentLanesAfter<HEAD_SEGMENTED>(flag, internal.member_mask);
      return internal.Reduce(input, last_lane, reduction_op);
    }
  }

  InternalTempStorage& temp_storage;
};

STRATA_NAMESPACE_END

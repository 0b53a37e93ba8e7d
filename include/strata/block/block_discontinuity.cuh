// strata/block/block_discontinuity.cuh: BlockDiscontinuity, which flags the items of a blocked
// arrangement that differ from their predecessor (head flags) or successor (tail flags).
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Whether `op(a, b, index)` can be called with two T and an int (CUB's BinaryOpHasIdxParam):
//! such operators also receive the rank of `b` in the tile; others are called as `op(a, b)`.
template <typename T, typename BinaryOpT>
inline constexpr bool binary_op_has_idx_param_v = ::cuda::std::is_invocable_v<BinaryOpT&, const T&, const T&, int>;

//! `flag_op(a, b, b_index)` or `flag_op(a, b)`, whichever the operator takes, as a bool.
template <typename T, typename FlagOpT>
STRATA_DEVICE STRATA_FORCEINLINE bool ApplyFlagOp(FlagOpT& flag_op, const T& a, const T& b, int b_index)
{
  if constexpr (binary_op_has_idx_param_v<T, FlagOpT>)
  {
    return static_cast<bool>(flag_op(a, b, b_index));
  }
  else
  {
    static_cast<void>(b_index);
    return static_cast<bool>(flag_op(a, b));
  }
}
} // namespace detail

//! Flags discontinuities in a tile of items held in a blocked arrangement (thread t holds items
//! t * ITEMS_PER_THREAD .. (t + 1) * ITEMS_PER_THREAD - 1; threads ranked row-major). A head flag
//! marks an item for which `flag_op(predecessor, item)` is true, a tail flag one for which
//! `flag_op(item, successor)` is true; without a tile predecessor (successor) item, the tile's
//! first (last) item is always flagged.
//!
//! `flag_op` is `bool(const T& a, const T& b)` or `bool(const T& a, const T& b, int b_index)`,
//! where `b_index` is the rank of `b` in the tile (ITEMS_PER_THREAD * BLOCK_THREADS for a tail
//! flag compared with the tile successor item). Flags are written as 0 or 1 into any integer
//! (or bool) FlagT.
//!
//! Every member synchronizes the block once and must be called by all of its threads. Call
//! `__syncthreads()` before the same TempStorage is used again.
//!
//! \code
//! using BlockDiscontinuityT = strata::BlockDiscontinuity<int, 128>;
//! __shared__ BlockDiscontinuityT::TempStorage temp_storage;
//! int items[4];
//! int head_flags[4];
//! BlockDiscontinuityT(temp_storage).FlagHeads(head_flags, items, cuda::std::not_equal_to<>{});
//! // items { [0,0,1,1], [1,1,1,1], [2,3,3,3], [3,4,4,4], ... }
//! // flags { [1,0,1,0], [0,0,0,0], [1,1,0,0], [0,1,0,0], ... }
//! \endcode
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockDiscontinuity
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");

  // Each thread publishes its first item (for its predecessor's tail flag) and its last item
  // (for its successor's head flag). Separate arrays let FlagHeadsAndTails publish both at once.
  struct _TempStorage
  {
    T first_items[BLOCK_THREADS];
    T last_items[BLOCK_THREADS];
  };

public:
  //! The shared memory the collective needs (may sit in a union with other TempStorage).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage, one per specialization and kernel.
  STRATA_DEVICE STRATA_FORCEINLINE BlockDiscontinuity()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockDiscontinuity(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! \name Head flags
  //! `head_flags[i]` is `flag_op(predecessor, input[i])`, where the predecessor is `input[i - 1]`
  //! or, for `input[0]`, the previous thread's last item. Thread 0's `input[0]` is compared with
  //! `tile_predecessor_item` (read from thread 0 only) when given, else always flagged. The
  //! overloads with `preds` also return the predecessors (thread 0's `preds[0]` is left
  //! unchanged when there is no tile predecessor item).
  //!
  //! \code
  //! // items { [0,0,1,1], [1,1,1,1], [2,3,3,3], [3,4,4,4], ... }, tile_predecessor_item 0:
  //! BlockDiscontinuityT(temp_storage).FlagHeads(head_flags, items, cuda::std::not_equal_to<>{}, 0);
  //! // head_flags { [0,0,1,0], [0,0,0,0], [1,1,0,0], [0,1,0,0], ... }
  //! \endcode
  //! @{
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD],
                                                  FlagOpT flag_op)
  {
    T preds[ITEMS_PER_THREAD];
    FlagHeads(head_flags, input, preds, flag_op);
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD],
                                                  FlagOpT flag_op, T tile_predecessor_item)
  {
    T preds[ITEMS_PER_THREAD];
    FlagHeads(head_flags, input, preds, flag_op, tile_predecessor_item);
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD],
                                                  T (&preds)[ITEMS_PER_THREAD], FlagOpT flag_op)
  {
    temp_storage.last_items[linear_tid] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    HeadsAfterSync(head_flags, input, preds, flag_op, NullType{});
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD],
                                                  T (&preds)[ITEMS_PER_THREAD], FlagOpT flag_op,
                                                  T tile_predecessor_item)
  {
    temp_storage.last_items[linear_tid] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    HeadsAfterSync(head_flags, input, preds, flag_op, tile_predecessor_item);
  }
  //! @}

  //! \name Tail flags
  //! `tail_flags[i]` is `flag_op(input[i], successor)`, where the successor is `input[i + 1]`
  //! or, for the last item, the next thread's first item. The last thread's last item is
  //! compared with `tile_successor_item` (read from thread BLOCK_THREADS - 1 only) when given,
  //! else always flagged.
  //!
  //! \code
  //! // items { [0,0,1,1], [1,1,1,1], [2,3,3,3], ..., [124,125,125,125] }:
  //! BlockDiscontinuityT(temp_storage).FlagTails(tail_flags, items, cuda::std::not_equal_to<>{});
  //! // tail_flags { [0,1,0,0], [0,0,0,1], [1,0,0,...], ..., [1,0,0,1] }
  //! \endcode
  //! @{
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagTails(FlagT (&tail_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD],
                                                  FlagOpT flag_op)
  {
    temp_storage.first_items[linear_tid] = input[0];
    __syncthreads();
    TailsAfterSync(tail_flags, input, flag_op, NullType{});
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagTails(FlagT (&tail_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD],
                                                  FlagOpT flag_op, T tile_successor_item)
  {
    temp_storage.first_items[linear_tid] = input[0];
    __syncthreads();
    TailsAfterSync(tail_flags, input, flag_op, tile_successor_item);
  }
  //! @}

  //! \name Head and tail flags
  //! Head and tail flags as FlagHeads and FlagTails compute them, with one synchronization. The
  //! tile predecessor item follows `head_flags` and the tile successor item follows
  //! `tail_flags` in the argument list, where given.
  //!
  //! \code
  //! BlockDiscontinuityT(temp_storage).FlagHeadsAndTails(
  //!   head_flags, tile_predecessor_item, tail_flags, tile_successor_item, items, cuda::std::not_equal_to<>{});
  //! \endcode
  //! @{
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                          FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                          T (&input)[ITEMS_PER_THREAD], FlagOpT flag_op)
  {
    HeadsAndTails(head_flags, NullType{}, tail_flags, NullType{}, input, flag_op);
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                          FlagT (&tail_flags)[ITEMS_PER_THREAD], T tile_successor_item,
                                                          T (&input)[ITEMS_PER_THREAD], FlagOpT flag_op)
  {
    HeadsAndTails(head_flags, NullType{}, tail_flags, tile_successor_item, input, flag_op);
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD], T tile_predecessor_item,
                    FlagT (&tail_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD], FlagOpT flag_op)
  {
    HeadsAndTails(head_flags, tile_predecessor_item, tail_flags, NullType{}, input, flag_op);
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                          T tile_predecessor_item,
                                                          FlagT (&tail_flags)[ITEMS_PER_THREAD], T tile_successor_item,
                                                          T (&input)[ITEMS_PER_THREAD], FlagOpT flag_op)
  {
    HeadsAndTails(head_flags, tile_predecessor_item, tail_flags, tile_successor_item, input, flag_op);
  }
  //! @}

private:
  // The head flags once every thread's last item is published. PredecessorT is T (thread 0
  // compares with the tile predecessor item) or NullType (thread 0 flags its first item).
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT, typename PredecessorT>
  STRATA_DEVICE STRATA_FORCEINLINE void HeadsAfterSync(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                       T (&input)[ITEMS_PER_THREAD], T (&preds)[ITEMS_PER_THREAD],
                                                       FlagOpT& flag_op, const PredecessorT& tile_predecessor_item)
  {
    const int first_rank = linear_tid * ITEMS_PER_THREAD;
    if constexpr (::cuda::std::is_same_v<PredecessorT, NullType>)
    {
      static_cast<void>(tile_predecessor_item);
      if (linear_tid == 0)
      {
        head_flags[0] = 1;
      }
      else
      {
        preds[0]      = temp_storage.last_items[linear_tid - 1];
        head_flags[0] = detail::ApplyFlagOp(flag_op, preds[0], input[0], first_rank);
      }
    }
    else
    {
      preds[0]      = linear_tid == 0 ? tile_predecessor_item : temp_storage.last_items[linear_tid - 1];
      head_flags[0] = detail::ApplyFlagOp(flag_op, preds[0], input[0], first_rank);
    }
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      preds[i]      = input[i - 1];
      head_flags[i] = detail::ApplyFlagOp(flag_op, preds[i], input[i], first_rank + i);
    }
  }

  // The tail flags once every thread's first item is published. SuccessorT is T (the last thread
  // compares with the tile successor item) or NullType (the last thread flags its last item).
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT, typename SuccessorT>
  STRATA_DEVICE STRATA_FORCEINLINE void TailsAfterSync(FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                       T (&input)[ITEMS_PER_THREAD], FlagOpT& flag_op,
                                                       const SuccessorT& tile_successor_item)
  {
    const int first_rank = linear_tid * ITEMS_PER_THREAD;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i)
    {
      tail_flags[i] = detail::ApplyFlagOp(flag_op, input[i], input[i + 1], first_rank + i + 1);
    }
    constexpr int LAST   = ITEMS_PER_THREAD - 1;
    const bool last_rank = linear_tid == BLOCK_THREADS - 1;
    if constexpr (::cuda::std::is_same_v<SuccessorT, NullType>)
    {
      static_cast<void>(tile_successor_item);
      if (last_rank)
      {
        tail_flags[LAST] = 1;
      }
      else
      {
        tail_flags[LAST] =
            detail::ApplyFlagOp(flag_op, input[LAST], temp_storage.first_items[linear_tid + 1], first_rank + LAST + 1);
      }
    }
    else
    {
      const T successor = last_rank ? tile_successor_item : temp_storage.first_items[linear_tid + 1];
      tail_flags[LAST]  = detail::ApplyFlagOp(flag_op, input[LAST], successor, first_rank + LAST + 1);
    }
  }

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOpT, typename PredecessorT, typename SuccessorT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  HeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD], const PredecessorT& tile_predecessor_item,
                FlagT (&tail_flags)[ITEMS_PER_THREAD], const SuccessorT& tile_successor_item,
                T (&input)[ITEMS_PER_THREAD], FlagOpT& flag_op)
  {
    temp_storage.first_items[linear_tid] = input[0];
    temp_storage.last_items[linear_tid]  = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    T preds[ITEMS_PER_THREAD];
    HeadsAfterSync(head_flags, input, preds, flag_op, tile_predecessor_item);
    TailsAfterSync(tail_flags, input, flag_op, tile_successor_item);
  }

  _TempStorage& temp_storage;
  int linear_tid;
};

STRATA_NAMESPACE_END

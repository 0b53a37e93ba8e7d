// strata/block/block_adjacent_difference.cuh: BlockAdjacentDifference, which combines every item
// of a blocked arrangement with its left or right neighbour (adjacent differences).
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

//! Computes adjacent differences over a tile of items held in a blocked arrangement (thread t
//! holds items t * ITEMS_PER_THREAD .. (t + 1) * ITEMS_PER_THREAD - 1; threads ranked row-major).
//! SubtractLeft gives item i `difference_op(item[i], item[i - 1])`, SubtractRight
//! `difference_op(item[i], item[i + 1])`; an item whose neighbour lies outside the tile (or, in
//! the PartialTile variants, outside the first `valid_items` items) is copied unchanged, unless
//! a tile predecessor (successor) item stands in for the missing neighbour.
//!
//! `difference_op` is called with two lvalues of T (an operator taking `T&` works) and its
//! result is converted to OutputT. `output` may be the array passed as `input`.
//!
//! Every member synchronizes the block once and must be called by all of its threads. Call
//! `__syncthreads()` before the same TempStorage is used again (also between a SubtractLeft and
//! a SubtractRight: both use the same shared memory).
//!
//! \code
//! using BlockAdjacentDifferenceT = strata::BlockAdjacentDifference<int, 128>;
//! __shared__ BlockAdjacentDifferenceT::TempStorage temp_storage;
//! int items[4];
//! BlockAdjacentDifferenceT(temp_storage).SubtractLeft(items, items, cuda::std::minus<>{});
//! // items { [4,2,1,1], [1,1,1,1], [2,3,3,3], [3,4,1,4], ... }
//! //    -> { [4,-2,-1,0], [0,0,0,0], [1,1,0,0], [0,1,-3,3], ... }
//! \endcode
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockAdjacentDifference
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");

  // Each call publishes one item per thread: its last item (SubtractLeft*) or its first
  // (SubtractRight*). No call needs both, so one array serves either direction.
  struct _TempStorage
  {
    T items[BLOCK_THREADS];
  };

public:
  //! The shared memory the collective needs (may sit in a union with other TempStorage).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage, one per specialization and kernel.
  STRATA_DEVICE STRATA_FORCEINLINE BlockAdjacentDifference()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockAdjacentDifference(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! \name Subtracting the left neighbour
  //! `output[i] = difference_op(input[i], left)`, where `left` is the item before `input[i]` in
  //! the tile. The tile's first item is copied, or combined with `tile_predecessor_item` (read
  //! from thread 0 only) where given. The PartialTile variants copy every item of rank
  //! >= `valid_items` (and so never read an invalid item as a left neighbour).
  //!
  //! \code
  //! // items { [4,2,1,1], [1,1,1,1], [2,3,3,3], [3,4,1,4], ... }
  //! BlockAdjacentDifferenceT(temp_storage).SubtractLeft(items, items, cuda::std::minus<>{}, 3);
  //! //    -> { [1,-2,-1,0], [0,0,0,0], [1,1,0,0], [0,1,-3,3], ... }
  //! BlockAdjacentDifferenceT(temp_storage).SubtractLeftPartialTile(items, items, cuda::std::minus<>{}, 9);
  //! //    -> { [4,-2,-1,0], [0,0,0,0], [1,3,3,3], [3,4,1,4], ... }  (from the original items)
  //! \endcode
  //! @{
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractLeft(T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                                                     DifferenceOpT difference_op)
  {
    PublishAndSync(input[ITEMS_PER_THREAD - 1]);
    LeftWithinThread(input, output, difference_op);
    if (linear_tid == 0)
    {
      output[0] = input[0];
    }
    else
    {
      output[0] = difference_op(input[0], temp_storage.items[linear_tid - 1]);
    }
  }

  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractLeft(T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                                                     DifferenceOpT difference_op, T tile_predecessor_item)
  {
    PublishAndSync(input[ITEMS_PER_THREAD - 1]);
    LeftWithinThread(input, output, difference_op);
    if (linear_tid == 0)
    {
      output[0] = difference_op(input[0], tile_predecessor_item);
    }
    else
    {
      output[0] = difference_op(input[0], temp_storage.items[linear_tid - 1]);
    }
  }

  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractLeftPartialTile(T (&input)[ITEMS_PER_THREAD],
                                                                OutputT (&output)[ITEMS_PER_THREAD],
                                                                DifferenceOpT difference_op, int valid_items)
  {
    PublishAndSync(input[ITEMS_PER_THREAD - 1]);
    LeftWithinThreadPartial(input, output, difference_op, valid_items);
    if (linear_tid == 0 || linear_tid * ITEMS_PER_THREAD >= valid_items)
    {
      output[0] = input[0];
    }
    else
    {
      output[0] = difference_op(input[0], temp_storage.items[linear_tid - 1]);
    }
  }

  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  SubtractLeftPartialTile(T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                          DifferenceOpT difference_op, int valid_items, T tile_predecessor_item)
  {
    PublishAndSync(input[ITEMS_PER_THREAD - 1]);
    LeftWithinThreadPartial(input, output, difference_op, valid_items);
    if (linear_tid * ITEMS_PER_THREAD >= valid_items)
    {
      output[0] = input[0];
    }
    else if (linear_tid == 0)
    {
      output[0] = difference_op(input[0], tile_predecessor_item);
    }
    else
    {
      output[0] = difference_op(input[0], temp_storage.items[linear_tid - 1]);
    }
  }
  //! @}

  //! \name Subtracting the right neighbour
  //! `output[i] = difference_op(input[i], right)`, where `right` is the item after `input[i]`
  //! in the tile. The tile's last item is copied, or combined with `tile_successor_item` (read
  //! from thread BLOCK_THREADS - 1 only) where given. SubtractRightPartialTile copies every
  //! item of rank >= `valid_items` - 1: the last valid item has no valid right neighbour.
  //! A `valid_items` beyond the tile counts as a full tile.
  //!
  //! \code
  //! // items { ...3], [4,2,1,1], [1,1,1,1], [2,3,3,3], [3,4,1,4] } (threads 123 .. 127)
  //! BlockAdjacentDifferenceT(temp_storage).SubtractRight(items, items, cuda::std::minus<>{});
  //! //    -> { ...-1], [2,1,0,0], [0,0,0,-1], [-1,0,0,0], [-1,3,-3,4] }
  //! BlockAdjacentDifferenceT(temp_storage).SubtractRightPartialTile(items, items, cuda::std::minus<>{}, 507);
  //! //    -> { ...-1], [2,1,0,0], [0,0,0,-1], [-1,0,3,3], [3,4,1,4] }  (from the original items)
  //! \endcode
  //! @{
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractRight(T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                                                      DifferenceOpT difference_op)
  {
    constexpr int LAST = ITEMS_PER_THREAD - 1;
    PublishAndSync(input[0]);
    RightWithinThread(input, output, difference_op);
    if (linear_tid == BLOCK_THREADS - 1)
    {
      output[LAST] = input[LAST];
    }
    else
    {
      output[LAST] = difference_op(input[LAST], temp_storage.items[linear_tid + 1]);
    }
  }

  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractRight(T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                                                      DifferenceOpT difference_op, T tile_successor_item)
  {
    constexpr int LAST = ITEMS_PER_THREAD - 1;
    PublishAndSync(input[0]);
    RightWithinThread(input, output, difference_op);
    if (linear_tid == BLOCK_THREADS - 1)
    {
      output[LAST] = difference_op(input[LAST], tile_successor_item);
    }
    else
    {
      output[LAST] = difference_op(input[LAST], temp_storage.items[linear_tid + 1]);
    }
  }

  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractRightPartialTile(T (&input)[ITEMS_PER_THREAD],
                                                                 OutputT (&output)[ITEMS_PER_THREAD],
                                                                 DifferenceOpT difference_op, int valid_items)
  {
    constexpr int LAST   = ITEMS_PER_THREAD - 1;
    const int first_rank = linear_tid * ITEMS_PER_THREAD;
    PublishAndSync(input[0]);
    // Ascending, so that an aliased `output` overwrites each item after it was read.
#pragma unroll
    for (int i = 0; i < LAST; ++i)
    {
      if (first_rank + i + 1 < valid_items)
      {
        output[i] = difference_op(input[i], input[i + 1]);
      }
      else
      {
        output[i] = input[i];
      }
    }
    // The last thread's test keeps a valid_items beyond the tile from reading past the array.
    if (first_rank + ITEMS_PER_THREAD < valid_items && linear_tid < BLOCK_THREADS - 1)
    {
      output[LAST] = difference_op(input[LAST], temp_storage.items[linear_tid + 1]);
    }
    else
    {
      output[LAST] = input[LAST];
    }
  }
  //! @}

private:
  STRATA_DEVICE STRATA_FORCEINLINE void PublishAndSync(const T& item)
  {
    temp_storage.items[linear_tid] = item;
    __syncthreads();
  }

  // Items 1 .. ITEMS_PER_THREAD - 1 minus their left neighbours, descending, so that an aliased
  // `output` overwrites each item after its last read (item 0 is read last, by the caller).
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static void
  LeftWithinThread(T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD], DifferenceOpT& difference_op)
  {
#pragma unroll
    for (int i = ITEMS_PER_THREAD - 1; i > 0; --i)
    {
      output[i] = difference_op(input[i], input[i - 1]);
    }
  }

  // As LeftWithinThread, copying the items of rank >= valid_items.
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void LeftWithinThreadPartial(T (&input)[ITEMS_PER_THREAD],
                                                                OutputT (&output)[ITEMS_PER_THREAD],
                                                                DifferenceOpT& difference_op, int valid_items)
  {
    const int first_rank = linear_tid * ITEMS_PER_THREAD;
#pragma unroll
    for (int i = ITEMS_PER_THREAD - 1; i > 0; --i)
    {
      if (first_rank + i < valid_items)
      {
        output[i] = difference_op(input[i], input[i - 1]);
      }
      else
      {
        output[i] = input[i];
      }
    }
  }

  // Items 0 .. ITEMS_PER_THREAD - 2 minus their right neighbours, ascending, so that an aliased
  // `output` overwrites each item after its last read (the last item is left to the caller).
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static void
  RightWithinThread(T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD], DifferenceOpT& difference_op)
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i)
    {
      output[i] = difference_op(input[i], input[i + 1]);
    }
  }

  _TempStorage& temp_storage;
  int linear_tid;
};

STRATA_NAMESPACE_END

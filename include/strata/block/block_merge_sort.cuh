// strata/block/block_merge_sort.cuh: MergePath and SerialMerge, the merge sort that block and warp
// share (BlockMergeSortStrategy), and BlockMergeSort, a block-wide stable merge sort of keys or
// key-value pairs with any strict weak order.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_sort.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The merge-path split of output position `diag` of the merge of sorted keys1[0, keys1_count)
//! and keys2[0, keys2_count): how many of the first `diag` merged keys come from keys1. Ties go
//! to keys1 (the merge is stable). A binary search of log2(min(counts)) steps.
template <typename KeyIt1, typename KeyIt2, typename OffsetT, typename BinaryPred>
STRATA_DEVICE STRATA_FORCEINLINE OffsetT MergePath(KeyIt1 keys1, KeyIt2 keys2, OffsetT keys1_count, OffsetT keys2_count,
                                                   OffsetT diag, BinaryPred binary_pred)
{
  // The split s takes keys1[0, s) and keys2[0, diag - s); s is the first value at which keys1[s]
  // must follow keys2[diag - 1 - s].
  OffsetT low  = diag > keys2_count ? diag - keys2_count : OffsetT(0);
  OffsetT high = diag < keys1_count ? diag : keys1_count;
  while (low < high)
  {
    const OffsetT s = low + (high - low) / 2;
    if (binary_pred(keys2[diag - 1 - s], keys1[s]))
    {
      high = s;
    }
    else
    {
      low = s + 1;
    }
  }
  return low;
}

//! Merges ITEMS_PER_THREAD keys from two sorted runs of `keys_shared`, keys1_count keys from
//! keys1_beg and keys2_count from keys2_beg (together at least ITEMS_PER_THREAD), into `output`,
//! with `indices` the position in keys_shared each output key came from. Stable: on equal keys
//! the first run's goes first. Reads the positions of the two runs and the one just past the
//! first run (which it never uses: in the merge of adjacent runs, the second run's first key).
template <typename KeyIt, typename KeyT, typename CompareOp, int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE void SerialMerge(KeyIt keys_shared, int keys1_beg, int keys2_beg, int keys1_count,
                                                  int keys2_count, KeyT (&output)[ITEMS_PER_THREAD],
                                                  int (&indices)[ITEMS_PER_THREAD], CompareOp compare_op)
{
  int next1      = keys1_beg;
  int next2      = keys2_beg;
  const int end1 = keys1_beg + keys1_count;
  const int end2 = keys2_beg + keys2_count;
  // The heads of both runs (an empty run's head is a stand-in that is never taken).
  KeyT head1 = keys_shared[keys1_count > 0 ? next1 : next2];
  KeyT head2 = keys_shared[keys2_count > 0 ? next2 : next1];
#pragma unroll
  for (int item = 0; item < ITEMS_PER_THREAD; ++item)
  {
    // Selects rather than branches, and reads the next head without a bounds check where that is
    // harmless: past the end of the first run. Past the end of the second run lies another
    // merge's part of the memory, which a warp-local round may be rewriting, so that read stays
    // in the run.
    const bool from2 = next2 < end2 && (next1 >= end1 || compare_op(head2, head1));
    output[item]     = from2 ? head2 : head1;
    indices[item]    = from2 ? next2++ : next1++;
    if (from2)
    {
      head2 = keys_shared[next2 < end2 ? next2 : end2 - 1];
    }
    else
    {
      head1 = keys_shared[next1];
    }
  }
}

//! The merge sort of NUM_THREADS threads (a block, or a logical warp) holding ITEMS_PER_THREAD
//! keys (and values) each in a blocked arrangement: every thread sorts its own items, then
//! log2(NUM_THREADS) rounds each merge pairs of sorted runs through shared memory, every thread
//! producing its ITEMS_PER_THREAD outputs of a merge after a merge-path search. Stable. The
//! derived class (CRTP) provides `SyncImplementation()`, the barrier of its threads.
template <typename KeyT, typename ValueT, int NUM_THREADS, int ITEMS_PER_THREAD, typename SynchronizationPolicy>
class BlockMergeSortStrategy
{
  static_assert(NUM_THREADS >= 1 && (NUM_THREADS & (NUM_THREADS - 1)) == 0,
                "merge sort needs a power-of-two number of threads");
  static_assert(ITEMS_PER_THREAD >= 1, "merge sort needs at least one item per thread");

  static constexpr int TILE_ITEMS = NUM_THREADS * ITEMS_PER_THREAD;
  //! The threads of a warp store their runs ITEMS_PER_THREAD items apart: with runs a multiple of
  //! 64 bytes long they all hit the same few banks (16-way conflicts or worse), and one padding
  //! slot every 32 items spreads them. Shorter strides conflict less, and there the padding's
  //! extra address arithmetic cost more than it saved (docs/performance.md).
  static constexpr bool PADDED = NUM_THREADS > 1 && (ITEMS_PER_THREAD * sizeof(KeyT)) % 64 == 0;
  static constexpr int SLOTS   = TILE_ITEMS + (PADDED ? TILE_ITEMS / 32 : 0);
  //! 16-byte alignment (at least) lets the compiler write a thread's unpadded run with 16-byte
  //! stores: for u32 x 8 per thread, 2 stores with 2-way bank conflicts instead of 8 with 8-way.
  static constexpr int ITEM_ALIGNMENT = alignof(KeyT) > alignof(ValueT) ? alignof(KeyT) : alignof(ValueT);
  static constexpr int ALIGNMENT      = ITEM_ALIGNMENT > 16 ? ITEM_ALIGNMENT : 16;

  union alignas(ALIGNMENT) _TempStorage
  {
    KeyT keys_shared[SLOTS];
    ValueT items_shared[SLOTS];
  };

  //! Shared-memory items by tile position, through the padding.
  template <typename T>
  struct PaddedView
  {
    T* slots;
    int base;
    STRATA_DEVICE STRATA_FORCEINLINE T& operator[](int position) const
    {
      const int at = base + position;
      return slots[PADDED ? at + at / 32 : at];
    }
    STRATA_DEVICE STRATA_FORCEINLINE PaddedView operator+(int offset) const
    {
      return PaddedView{slots, base + offset};
    }
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  BlockMergeSortStrategy() = delete;

  //! Uses a private `__shared__` TempStorage.
  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockMergeSortStrategy(unsigned int linear_tid)
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(linear_tid)
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockMergeSortStrategy(TempStorage& temp_storage, unsigned int linear_tid)
      : temp_storage(temp_storage.Alias())
      , linear_tid(linear_tid)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE unsigned int get_linear_tid() const
  {
    return linear_tid;
  }

  //! Sorts keys by `compare_op` (a strict weak order: `compare_op(a, b)` when a goes first).
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op)
  {
    NullType items[ITEMS_PER_THREAD];
    SortImpl<false>(keys, items, compare_op, TILE_ITEMS, keys[0]);
  }

  //! Sorts the first valid_items keys of the tile (in blocked order); the others are first
  //! replaced by oob_default, which must not order before any valid key. The first valid_items
  //! outputs are the sorted valid keys; the whole tile is sorted, so the rest are the copies of
  //! oob_default. (CUB documents the same, but its implementation merges only the valid items and
  //! leaves the outputs past valid_items unspecified; portable code reads only the first ones.)
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op, int valid_items,
                                             KeyT oob_default)
  {
    NullType items[ITEMS_PER_THREAD];
    SortImpl<true>(keys, items, compare_op, valid_items, oob_default);
  }

  //! Sorts key-value pairs by key.
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                             CompareOp compare_op)
  {
    SortImpl<false>(keys, items, compare_op, TILE_ITEMS, keys[0]);
  }

  //! Sorts the first valid_items pairs by key (see the keys-only form); the values of the items
  //! past valid_items go along with their oob_default keys. With IS_LAST_TILE false, valid_items
  //! and oob_default are ignored and the whole tile is sorted.
  template <typename CompareOp, bool IS_LAST_TILE = true>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                             CompareOp compare_op, int valid_items, KeyT oob_default)
  {
    SortImpl<IS_LAST_TILE>(keys, items, compare_op, valid_items, oob_default);
  }

  //! As Sort; every sort here is stable (equal keys keep their order).
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op)
  {
    Sort(keys, compare_op);
  }
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                                   CompareOp compare_op)
  {
    Sort(keys, items, compare_op);
  }
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op,
                                                   int valid_items, KeyT oob_default)
  {
    Sort(keys, compare_op, valid_items, oob_default);
  }
  template <typename CompareOp, bool IS_LAST_TILE = true>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                                   CompareOp compare_op, int valid_items, KeyT oob_default)
  {
    Sort<CompareOp, IS_LAST_TILE>(keys, items, compare_op, valid_items, oob_default);
  }

private:
  _TempStorage& temp_storage;
  const unsigned int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE void Sync() const
  {
    static_cast<const SynchronizationPolicy*>(this)->SyncImplementation();
  }

  //! The barrier of a round whose merges span `group_threads` threads. Groups of at most a warp
  //! touch only their own warp's part of the shared memory, so in a block of whole warps a warp
  //! barrier suffices there: most rounds of a block sort avoid __syncthreads. (Not when keys and
  //! values of different sizes share the memory: a warp's values then overlap other warps' keys.)
  template <bool WARP_LOCAL>
  STRATA_DEVICE STRATA_FORCEINLINE void SyncGroup(int group_threads) const
  {
    if (WARP_LOCAL && NUM_THREADS > detail::warp_threads && group_threads <= detail::warp_threads)
    {
      __syncwarp();
    }
    else
    {
      Sync();
    }
  }

  template <bool PARTIAL, typename ItemsT, typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void SortImpl(KeyT (&keys)[ITEMS_PER_THREAD], ItemsT (&items)[ITEMS_PER_THREAD],
                                                 CompareOp compare_op, int valid_items, KeyT oob_default)
  {
    const int first = int(linear_tid) * ITEMS_PER_THREAD;
    if constexpr (PARTIAL)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (first + i >= valid_items)
        {
          keys[i] = oob_default;
        }
      }
    }
    StableOddEvenSort(keys, items, compare_op);
    constexpr bool WARP_LOCAL = ::cuda::std::is_same_v<ItemsT, NullType> || sizeof(KeyT) == sizeof(ValueT);

    // Round r merges pairs of runs of `run` items (the outputs of 2^r threads) into one.
#pragma unroll 1
    for (int threads = 2; threads <= NUM_THREADS; threads *= 2)
    {
      const int run        = threads / 2 * ITEMS_PER_THREAD;
      const int group_tid  = int(linear_tid) & ~(threads - 1);
      const int run1_begin = group_tid * ITEMS_PER_THREAD;
      const int run2_begin = run1_begin + run;
      const int diag       = first - run1_begin; // this thread's first output within the merge

      SyncGroup<WARP_LOCAL>(threads / 2); // the previous round's readers of this thread's slots are done
      const PaddedView<KeyT> shared_keys{temp_storage.keys_shared, 0};
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        shared_keys[first + i] = keys[i];
      }
      SyncGroup<WARP_LOCAL>(threads);
      const int split = MergePath(shared_keys + run1_begin, shared_keys + run2_begin, run, run, diag, compare_op);
      int indices[ITEMS_PER_THREAD];
      SerialMerge(shared_keys, run1_begin + split, run2_begin + (diag - split), run - split, run - (diag - split), keys,
                  indices, compare_op);
      if constexpr (!::cuda::std::is_same_v<ItemsT, NullType>)
      {
        const PaddedView<ValueT> shared_items{temp_storage.items_shared, 0};
        SyncGroup<WARP_LOCAL>(threads); // the keys' reads are done before the values overwrite them
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          shared_items[first + i] = items[i];
        }
        SyncGroup<WARP_LOCAL>(threads);
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          items[i] = shared_items[indices[i]];
        }
      }
    }
  }
};

//! Sorts the keys (or key-value pairs) of a thread block, ITEMS_PER_THREAD per thread in a
//! blocked arrangement, by any strict weak order `compare_op(a, b)` ("a goes before b"): a stable
//! merge sort (Sort and StableSort are the same here). Partial tiles: the keys past valid_items
//! are replaced by oob_default first, which must not order before any valid key. As in CUB, the
//! block has a power-of-two number of threads (BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, ranked
//! row-major; a static_assert says so otherwise, e.g. for 96 threads) and ITEMS_PER_THREAD is any
//! positive count.
//! Every member synchronizes the block; call `__syncthreads()` before reusing the TempStorage.
//!
//! \code
//! // 128 threads, 4 keys each
//! using BlockMergeSortT = strata::BlockMergeSort<int, 128, 4>;
//! __shared__ BlockMergeSortT::TempStorage temp_storage;
//! int keys[4];
//! BlockMergeSortT(temp_storage).Sort(keys, cuda::std::less<>{}); // thread t: sorted keys 4t .. 4t + 3
//! \endcode
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockMergeSort : public BlockMergeSortStrategy<
                           KeyT, ValueT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, ITEMS_PER_THREAD,
                           BlockMergeSort<KeyT, BLOCK_DIM_X, ITEMS_PER_THREAD, ValueT, BLOCK_DIM_Y, BLOCK_DIM_Z>>
{
  using BlockMergeSortStrategyT =
      BlockMergeSortStrategy<KeyT, ValueT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, ITEMS_PER_THREAD, BlockMergeSort>;

public:
  //! Uses a private `__shared__` TempStorage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockMergeSort()
      : BlockMergeSortStrategyT(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockMergeSort(typename BlockMergeSortStrategyT::TempStorage& temp_storage)
      : BlockMergeSortStrategyT(temp_storage, RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

private:
  friend BlockMergeSortStrategyT;

  STRATA_DEVICE STRATA_FORCEINLINE void SyncImplementation() const
  {
    __syncthreads();
  }
};

STRATA_NAMESPACE_END

// strata/warp/warp_merge_sort.cuh: WarpMergeSort, a stable merge sort of the keys (or key-value
// pairs) held by a logical warp, on the strategy BlockMergeSort uses.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

//! Sorts the keys (or key-value pairs) of a logical warp of LOGICAL_WARP_THREADS lanes (a power
//! of two up to 32), ITEMS_PER_THREAD per lane in a blocked arrangement, by `compare_op(a, b)`
//! ("a goes before b"): a stable merge sort. Several logical warps of one block sort
//! independently, each with its own TempStorage; they synchronize with `__syncwarp` over their
//! own lanes only. Partial tiles work as in BlockMergeSort (valid_items, oob_default).
//!
//! \code
//! // 64 threads: two warps of 32, 4 keys per lane
//! using WarpMergeSortT = strata::WarpMergeSort<int, 4>;
//! __shared__ WarpMergeSortT::TempStorage temp_storage[2];
//! int keys[4];
//! WarpMergeSortT(temp_storage[threadIdx.x / 32]).Sort(keys, cuda::std::less<>{});
//! \endcode
template <typename KeyT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = detail::warp_threads,
          typename ValueT = NullType>
class WarpMergeSort : public BlockMergeSortStrategy<KeyT, ValueT, LOGICAL_WARP_THREADS, ITEMS_PER_THREAD,
                                                    WarpMergeSort<KeyT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS, ValueT>>
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= detail::warp_threads
                    && (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "WarpMergeSort needs a power-of-two logical warp of at most 32 threads");

  using BlockMergeSortStrategyT =
      BlockMergeSortStrategy<KeyT, ValueT, LOGICAL_WARP_THREADS, ITEMS_PER_THREAD, WarpMergeSort>;

public:
  WarpMergeSort() = delete;

  //! Uses the caller's `temp_storage` (one per logical warp).
  STRATA_DEVICE STRATA_FORCEINLINE WarpMergeSort(typename BlockMergeSortStrategyT::TempStorage& temp_storage)
      : BlockMergeSortStrategyT(temp_storage, detail::LogicalLaneId<LOGICAL_WARP_THREADS>())
      , member_mask(detail::LogicalWarpMask<LOGICAL_WARP_THREADS>())
  {
  }

  //! The lanes of this logical warp.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int get_member_mask() const
  {
    return member_mask;
  }

private:
  friend BlockMergeSortStrategyT;

  const unsigned int member_mask;

  STRATA_DEVICE STRATA_FORCEINLINE void SyncImplementation() const
  {
    __syncwarp(member_mask);
  }
};

STRATA_NAMESPACE_END

// strata/tile/tile_compact.cuh: TileCompact, how the compacting single-pass algorithms (select,
// partition) write a tile's kept items: ranked into shared memory, then stored as consecutive runs
// by consecutive threads, so that the global stores coalesce whatever the selection.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! The kept items of a tile of TILE_ITEMS items of T, in their output order.
//!
//! Each thread Places its kept items at their ranks (slots below TILE_ITEMS, distinct across the
//! block); after a barrier, ForEach hands slot k's item to `store(k, item)` in the thread
//! k % BLOCK_THREADS, slots [0, count) in order of k, so that a warp's stores go to consecutive
//! outputs where the caller maps consecutive slots to consecutive outputs.
template <int BLOCK_THREADS, int TILE_ITEMS, typename T>
struct TileCompact
{
  static constexpr int SLOTS_PER_THREAD = (TILE_ITEMS + BLOCK_THREADS - 1) / BLOCK_THREADS;

  struct TempStorage : Uninitialized<T[TILE_ITEMS]>
  {
  };

  T (&slots)[TILE_ITEMS];

  STRATA_DEVICE STRATA_FORCEINLINE explicit TileCompact(TempStorage& storage)
      : slots(storage.Alias())
  {
  }

  //! Puts `item` at `slot` (a rank of the tile's output).
  STRATA_DEVICE STRATA_FORCEINLINE void Place(int slot, const T& item)
  {
    detail::UninitializedCopy(&slots[slot], item);
  }

  //! After every Place of the block: a barrier, then `store(k, slots[k])` for k in [0, count),
  //! slot k in thread k % BLOCK_THREADS. The caller needs a barrier before Placing again.
  template <typename StoreT>
  STRATA_DEVICE STRATA_FORCEINLINE void ForEach(int count, StoreT store)
  {
    __syncthreads(); // every Place before the reads
#pragma unroll
    for (int i = 0; i < SLOTS_PER_THREAD; ++i)
    {
      if (i * BLOCK_THREADS >= count)
      {
        break; // the same for the whole block: sparse outputs skip the empty rounds
      }
      const int k = i * BLOCK_THREADS + int(threadIdx.x);
      if (k < count)
      {
        store(k, slots[k]);
      }
    }
  }
};
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

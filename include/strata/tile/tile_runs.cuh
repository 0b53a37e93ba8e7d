// strata/tile/tile_runs.cuh: RunHeads, where the runs of equal keys of a tile held in
// ScanTileRows' layout start (unique, scans by key), and TileRuns, where they start and end
// (run-length encoding and reduction by key), and how many of the tile's runs end in it.
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_neighbours.cuh>
#include <strata/util_ptx.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! The key just before the warp's part of a tile of RowsT (ScanTileRows) at `tile_offset` of
//! `d_keys`, as lane 0 reads it where it exists and the part holds valid items (other lanes, and
//! lane 0 elsewhere, get their first key, which no caller compares).
template <typename RowsT, typename KeyT, typename KeysIteratorT, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE KeyT KeyBeforeWarp(const RowsT& rows, const KeyT (&keys)[RowsT::ITEMS_PER_THREAD],
                                                    KeysIteratorT d_keys, OffsetT tile_offset, int valid)
{
  const int warp_first = rows.warp * RowsT::WARP_ITEMS;
  KeyT before          = keys[0];
  if (rows.lane == 0 && (tile_offset > 0 || warp_first > 0) && warp_first < valid)
  {
    before = d_keys[tile_offset + OffsetT(warp_first) - 1];
  }
  return before;
}

//! The key just after the warp's part, as lane 31 reads it where it exists (before `num_items`)
//! and the part is all valid (other lanes, and lane 31 elsewhere, get their last key).
template <typename RowsT, typename KeyT, typename KeysIteratorT, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE KeyT KeyAfterWarp(const RowsT& rows, const KeyT (&keys)[RowsT::ITEMS_PER_THREAD],
                                                   KeysIteratorT d_keys, OffsetT tile_offset, int valid,
                                                   OffsetT num_items)
{
  const int warp_end = (rows.warp + 1) * RowsT::WARP_ITEMS; // tile index of the item after the warp's part
  KeyT after         = keys[RowsT::ITEMS_PER_THREAD - 1];
  if (rows.lane == warp_threads - 1 && tile_offset + OffsetT(warp_end) < num_items && warp_end <= valid)
  {
    after = d_keys[tile_offset + OffsetT(warp_end)];
  }
  return after;
}

//! Bit k set: this lane's item k of `keys` (a tile of RowsT at `tile_offset`) starts a run: it is
//! the input's first item, or not equal under `equality_op` to the item before it (`warp_before`,
//! KeyBeforeWarp, for the warp's first). Bits of items past the tile's valid ones mean nothing.
template <typename RowsT, typename KeyT, typename OffsetT, typename EqualityOpT>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int RunHeads(const RowsT& rows, const KeyT (&keys)[RowsT::ITEMS_PER_THREAD],
                                                       const KeyT& warp_before, OffsetT tile_offset,
                                                       EqualityOpT& equality_op)
{
  unsigned int heads = 0;
  WarpRowNeighbours<RowsT::ITEMS_PER_THREAD, RowsT::VEC>::Predecessors(
      keys, warp_before, rows.lane,
      [&](int k, const KeyT& before) { heads |= equality_op(before, keys[k]) ? 0u : (1u << k); });
  if (rows.lane == 0 && tile_offset == 0 && rows.warp == 0)
  {
    heads |= 1u; // the input's first item
  }
  return heads;
}

//! The run edges of one tile of RowsT (ScanTileRows): bit k of `heads` says that this lane's item
//! k starts a run (it is the input's first item, or not equal to the item before it), bit k of
//! `tails` that it ends one (the input's last item, or not equal to the item after it). Items past
//! the tile's `valid` ones are neither. The neighbours outside a warp's part are read from memory.
template <typename RowsT>
struct TileRuns
{
  static constexpr int ITEMS_PER_THREAD = RowsT::ITEMS_PER_THREAD;
  using NeighboursT                     = WarpRowNeighbours<ITEMS_PER_THREAD, RowsT::VEC>;

  //! Whether the tile's first item starts a run, and whether its last valid item ends one, for
  //! the whole block after the next barrier.
  struct TempStorage
  {
    unsigned int starts_run;
    unsigned int ends_run;
  };

  unsigned int heads = 0;
  unsigned int tails = 0;

  //! Finds the edges of this lane's `keys` (loaded with `rows` from `d_keys` at `tile_offset`).
  template <typename KeyT, typename KeysIteratorT, typename OffsetT, typename EqualityOpT>
  STRATA_DEVICE STRATA_FORCEINLINE TileRuns(TempStorage& storage, const RowsT& rows,
                                            const KeyT (&keys)[ITEMS_PER_THREAD], KeysIteratorT d_keys,
                                            OffsetT tile_offset, int valid, OffsetT num_items, EqualityOpT& equality_op)
  {
    // Both neighbours outside the warp's part are read before either is needed.
    const KeyT warp_before = KeyBeforeWarp(rows, keys, d_keys, tile_offset, valid);
    const KeyT warp_after  = KeyAfterWarp(rows, keys, d_keys, tile_offset, valid, num_items);
    heads                  = RunHeads(rows, keys, warp_before, tile_offset, equality_op);
    NeighboursT::Successors(keys, warp_after, rows.lane,
                            [&](int k, const KeyT& after) { tails |= equality_op(keys[k], after) ? 0u : (1u << k); });
    if (threadIdx.x == 0)
    {
      storage.starts_run = heads & 1u; // the tile's first item is thread 0's first
    }
    if (valid == RowsT::TILE_ITEMS && tile_offset + OffsetT(valid) < num_items)
    {
      // A full tile with items after it: its last item is the last of the last lane's vectors.
      if (threadIdx.x == RowsT::BLOCK_THREADS - 1)
      {
        storage.ends_run = (tails >> (ITEMS_PER_THREAD - 1)) & 1u;
      }
      return;
    }
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index = rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC);
      if (index >= valid)
      {
        heads &= ~(1u << k);
        tails &= ~(1u << k);
      }
      else if (index == valid - 1)
      {
        tails |= 1u << k; // the input's last item
        storage.ends_run = 1u;
      }
    }
  }

  //! After a barrier: how many runs end in the tile, given how many start in it.
  STRATA_DEVICE STRATA_FORCEINLINE static int TailsInTile(const TempStorage& storage, int heads_in_tile)
  {
    // Each run with a part in the tile ends in it, but for one that goes on past the tile's end;
    // those with a part in it are the ones that start in it and one that began before the tile.
    return heads_in_tile + (storage.starts_run ? 0 : 1) - (storage.ends_run ? 0 : 1);
  }
};
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

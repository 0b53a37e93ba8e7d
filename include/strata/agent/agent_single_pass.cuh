// strata/agent/agent_single_pass.cuh: the skeleton every single-pass agent (the scans, scans by
// key, compactions, partitions, run-length encoding, reduction by key) runs its tile body in: the
// tile a block takes, its place in the input, the shared storage and the step that finds the
// tile's prefix by decoupled look-back.
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace single_pass
{
//! The tile a block works on: where it lies in the input, its rows (tile::ScanTileRows), and the
//! step that finds the combination of every tile before it (Prefix).
template <typename RowsT, typename PrefixT, typename TileStateT, typename PrefixOpT, typename OffsetT>
struct Tile
{
  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;

  RowsT& rows;
  int index; // the tile's number, in the order blocks took them
  int num_tiles;
  OffsetT offset; // of the tile's first item in the input
  int valid;      // items in the tile (TILE_ITEMS but in the last)
  PrefixT& shared_prefix;
  TileStateT& tile_state;

  STRATA_DEVICE STRATA_FORCEINLINE bool IsFirst() const
  {
    return index == 0;
  }

  STRATA_DEVICE STRATA_FORCEINLINE bool IsLast() const
  {
    return index == num_tiles - 1;
  }

  //! Loads this lane's items of the tile from `d_in` (ScanTileRows::Load).
  template <typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(IteratorT d_in, ItemT (&items)[RowsT::ITEMS_PER_THREAD]) const
  {
    rows.Load(d_in, offset, valid, items);
  }

  //! Stores this lane's items of the tile to `d_out` (ScanTileRows::Store).
  template <typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(IteratorT d_out, ItemT (&items)[RowsT::ITEMS_PER_THREAD]) const
  {
    rows.Store(d_out, offset, valid, items);
  }

  //! Has L2 fetch the tile PREFETCH_TILES ahead of this one from every input (tile::PrefetchAhead).
  template <int PREFETCH_TILES, typename... IteratorTs>
  STRATA_DEVICE STRATA_FORCEINLINE void PrefetchAhead(IteratorTs... inputs) const
  {
    tile::PrefetchAhead<PREFETCH_TILES, TILE_ITEMS, OffsetT>(index, num_tiles, inputs...);
  }

  //! The combination of every tile before this one, the tile's `aggregate` published
  //! (ScanTileRows::TilePrefix, whose options say what comes before the first tile and what this
  //! one needs); `items` are the scanned items warp 0 keeps during its look-back.
  template <typename AccumT, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE PrefixT Prefix(AccumT (&items)[RowsT::ITEMS_PER_THREAD], ScanOpT& scan_op,
                                                  const PrefixT& aggregate,
                                                  const tile::TilePrefixOptions<PrefixT>& options = {})
  {
    return rows.template TilePrefix<PrefixOpT>(items, shared_prefix, tile_state, scan_op, index, num_tiles, aggregate,
                                               options);
  }
};

//! The block storage of a single-pass agent: its rows', the prefix warp 0 shares with the block,
//! and the body's own (BodyStorageT; NullType for none).
template <typename RowsT, typename PrefixT, typename BodyStorageT>
struct SkeletonStorage
{
  typename RowsT::TempStorage rows;
  PrefixT tile_prefix; // from warp 0's look-back to the block
  BodyStorageT body;
};

//! Without body storage.
template <typename RowsT, typename PrefixT>
struct SkeletonStorage<RowsT, PrefixT, NullType>
{
  typename RowsT::TempStorage rows;
  PrefixT tile_prefix;
};

//! The skeleton of a single-pass agent over num_items items: a block takes a tile from the tile
//! counter (in launch order, so that every tile it waits for belongs to a block that is running;
//! with a single tile, tile 0, and neither the counter nor the tile state are used) and runs
//! `body(tile)` on it (Tile). The launch has one block per tile.
template <typename RowsT, typename PrefixT, typename TileStateT, typename PrefixOpT, typename OffsetT,
          typename BodyStorageT = NullType>
struct Skeleton
{
  using TileT                     = Tile<RowsT, PrefixT, TileStateT, PrefixOpT, OffsetT>;
  using StorageT                  = SkeletonStorage<RowsT, PrefixT, BodyStorageT>;
  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;

  struct TempStorage : Uninitialized<StorageT>
  {
  };

  template <typename BodyT>
  STRATA_DEVICE STRATA_FORCEINLINE static void ConsumeRange(TempStorage& temp_storage, OffsetT num_items, int num_tiles,
                                                            TileStateT& tile_state, unsigned int* d_tile_counter,
                                                            BodyT&& body)
  {
    StorageT& storage = temp_storage.Alias();
    RowsT rows(storage.rows);
    const int index      = rows.NextTile(num_tiles, d_tile_counter);
    const OffsetT offset = OffsetT(index) * OffsetT(TILE_ITEMS);
    TileT tile{
        rows,      index, num_tiles, offset, tile::ValidItems<TILE_ITEMS>(num_items, offset), storage.tile_prefix,
        tile_state};
    body(tile);
  }
};
} // namespace single_pass
} // namespace detail
STRATA_NAMESPACE_END

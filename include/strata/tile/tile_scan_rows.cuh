// strata/tile/tile_scan_rows.cuh: ScanTileRows, how the single-pass scans hold a tile in
// registers and scan it there: the layout (TileIo with a warp per part), the tile counter, the
// tile-local scan and the results.
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_scan.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! What ScanTileRows keeps of a tile's local scan while the tile waits for its look-back: a
//! prefix per row, applied in Finish (one operator per row), or the rows' prefixes folded into
//! the items in ScanTile (one operator per item, fewer registers).
enum class RowPrefixes
{
  KEEP,
  FOLD
};

//! Where warp 0 keeps its items while it looks back: in registers, or parked in shared memory so
//! that the look-back's registers need not come on top of the items' (which sets the kernel's
//! register count).
enum class LookbackItems
{
  IN_REGISTERS,
  PARKED
};

//! How ScanTileRows::TilePrefix finds a tile's prefix, as named options (each default is what the
//! compactions' counts need):
//! - `initial`: the value before the first tile (a scan's initial value), where `has_initial`;
//!   tile 0 then gets it as its prefix and publishes it combined with its aggregate;
//! - `aggregate_is_inclusive`: nothing before the tile can change its aggregate (a scan by key
//!   whose tile holds a segment head), so it is published as the tile's inclusive value at once;
//! - `needs_prefix`: the tile waits for its look-back; without it (a tile that starts a segment)
//!   it only publishes, and gets a value-initialized prefix with no barrier.
template <typename PrefixT>
struct TilePrefixOptions
{
  PrefixT initial{};
  bool has_initial            = false;
  bool aggregate_is_inclusive = false;
  bool needs_prefix           = true;
};

//! A tile of BLOCK_THREADS * ITEMS_PER_THREAD items in registers, for single-pass scans.
//!
//! Layout: warp w holds items [w * WARP_ITEMS, (w + 1) * WARP_ITEMS) of the tile, as ROWS rows of
//! 32 vectors of VEC consecutive items; lane l holds vector l of each row (item index
//! w * WARP_ITEMS + (r * 32 + l) * VEC + j is items[r * VEC + j] of lane l). Loads and stores are
//! then one coalesced 16-byte access per lane and row, with no shared-memory transpose, and the
//! scan needs one warp scan per row: within a vector, along the row (lanes), down the rows of the
//! warp, across warps.
//!
//! ROW_PREFIXES and LOOKBACK_ITEMS choose how a tile waiting for its look-back uses registers.
//!
//! AccumT need not be trivially copyable (CUB accepts such accumulators): it moves between lanes
//! as its bytes (ShuffleUp, ShuffleIndex) and is copy-constructed into its shared-memory slots.
template <typename PolicyT, typename AccumT, int VEC_, RowPrefixes ROW_PREFIXES, LookbackItems LOOKBACK_ITEMS>
struct ScanTileRows
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int WARPS            = BLOCK_THREADS / warp_threads;
  static constexpr int VEC              = VEC_;
  static constexpr int ROWS             = ITEMS_PER_THREAD / VEC;
  static constexpr int WARP_ITEMS       = warp_threads * ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static_assert(BLOCK_THREADS % warp_threads == 0, "single-pass scans run whole warps");
  static_assert(ITEMS_PER_THREAD % VEC == 0, "rows hold whole vectors");
  static constexpr bool FOLD_ROWS = ROW_PREFIXES == RowPrefixes::FOLD;
  static constexpr bool PARK      = LOOKBACK_ITEMS == LookbackItems::PARKED;

  using WarpScanT = WarpScan<AccumT>;
  using TileIoT   = TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VEC, warp_threads>;

  struct _TempStorage
  {
    AccumT warp_aggregates[WARPS];
    int tile;
    AccumT parked[PARK ? ITEMS_PER_THREAD * warp_threads : 1]; // warp 0's items during the look-back
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  _TempStorage& temp_storage;
  int warp;
  int lane;

  STRATA_DEVICE STRATA_FORCEINLINE explicit ScanTileRows(TempStorage& storage)
      : temp_storage(storage.Alias())
      , warp(int(threadIdx.x) / warp_threads)
      , lane(int(threadIdx.x) % warp_threads)
  {
  }

  //! The index in the tile of item j of this lane's vector in row r.
  STRATA_DEVICE STRATA_FORCEINLINE int ItemIndex(int r, int j) const
  {
    return TileIoT::ItemIndex(int(threadIdx.x), r, j);
  }

  //! The block's next tile from the counter (thread 0 takes it, a barrier shares it); tile 0
  //! without counter when there is one tile.
  STRATA_DEVICE STRATA_FORCEINLINE int NextTile(int num_tiles, unsigned int* d_tile_counter)
  {
    if (num_tiles == 1)
    {
      return 0;
    }
    if (threadIdx.x == 0)
    {
      temp_storage.tile = int(atomicAdd(d_tile_counter, 1u));
    }
    __syncthreads();
    return temp_storage.tile;
  }

  //! Loads this lane's items of the tile at `tile_offset` (`valid` of them exist) of `d_in`,
  //! converted to ItemT. Items past the end repeat the tile's first item: they follow every valid
  //! item, so they change no valid result.
  template <typename ItemT, typename IteratorT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(IteratorT d_in, OffsetT tile_offset, int valid,
                                             ItemT (&items)[ITEMS_PER_THREAD]) const
  {
    const auto tile = d_in + tile_offset;
    if (valid == TILE_ITEMS)
    {
      TileIoT::template LoadFull<PolicyT::LOAD_MODIFIER>(tile, int(threadIdx.x), TileIoT::VectorAligned(d_in), items);
    }
    else
    {
      const ItemT filler = ItemT(TileIoT::template LoadItem<PolicyT::LOAD_MODIFIER>(tile, 0));
      TileIoT::template LoadPartial<PolicyT::LOAD_MODIFIER>(tile, int(threadIdx.x), valid, items, filler);
    }
  }

  //! Loads this lane's items of a whole tile that a bulk copy put in shared memory at `shared`
  //! (16-byte aligned), converted to ItemT.
  template <typename ItemT, typename SourceT>
  STRATA_DEVICE STRATA_FORCEINLINE void LoadShared(const SourceT* shared, ItemT (&items)[ITEMS_PER_THREAD]) const
  {
    TileIoT::template LoadFull<LOAD_DEFAULT>(shared, int(threadIdx.x), true, items);
  }

  //! Stores this lane's items of the tile at `tile_offset` (`valid` of them) into `d_out`.
  template <typename ItemT, typename IteratorT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(IteratorT d_out, OffsetT tile_offset, int valid,
                                              const ItemT (&items)[ITEMS_PER_THREAD]) const
  {
    const auto tile = d_out + tile_offset;
    if (valid == TILE_ITEMS)
    {
      TileIoT::StoreFull(tile, int(threadIdx.x), TileIoT::VectorAligned(d_out), items);
    }
    else
    {
      TileIoT::StorePartial(tile, int(threadIdx.x), valid, items);
    }
  }

  //! What the tile-local scan leaves for Finish besides the items: the combination of everything
  //! in the tile before the warp's part (undefined for warp 0) and, unless FOLD_ROWS, of
  //! everything in the warp's part before this lane's vector of each row (undefined for the
  //! warp's first vector).
  struct Prefixes
  {
    AccumT warp;
    AccumT rows[FOLD_ROWS ? 1 : ROWS];
  };

  //! The tile-local scan; returns the tile's aggregate (in every thread) and synchronizes the
  //! block. With FOLD_ROWS, items[r * VEC + j] then combines everything in the warp's part of
  //! the tile up to that item (INCLUSIVE) or before it (exclusive; undefined for the warp's first
  //! item), so that only the items and one prefix stay live while the tile waits for its
  //! look-back (fewer registers, one more operator per item). Otherwise the items hold the scans
  //! within their vectors and `prefixes.rows` the rest (one operator per row instead).
  template <bool INCLUSIVE, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE AccumT ScanTile(AccumT (&items)[ITEMS_PER_THREAD], Prefixes& prefixes,
                                                   ScanOpT& scan_op)
  {
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
    {
#pragma unroll
      for (int j = 1; j < VEC; ++j)
      {
        items[r * VEC + j] = scan_op(items[r * VEC + j - 1], items[r * VEC + j]);
      }
    }
    typename WarpScanT::TempStorage no_storage; // the shuffle scan uses none
    WarpScanT warp_scan(no_storage);
    AccumT running{}; // the warp's rows so far, the same in every lane
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
    {
      AccumT inclusive;
      AccumT exclusive;
      warp_scan.Scan(items[r * VEC + VEC - 1], inclusive, exclusive, scan_op);
      const AccumT row_total = warp_scan.Broadcast(inclusive, warp_threads - 1);
      // Everything in the warp before this lane's vector (nothing for the warp's first vector).
      AccumT before = exclusive;
      if (r > 0)
      {
        before = lane == 0 ? running : AccumT(scan_op(running, exclusive));
      }
      if constexpr (FOLD_ROWS)
      {
        ApplyRowPrefix<INCLUSIVE>(items, r, before, !(r == 0 && lane == 0), scan_op);
      }
      else
      {
        prefixes.rows[r] = before;
      }
      running = r == 0 ? row_total : AccumT(scan_op(running, row_total));
    }
    if (lane == 0)
    {
      detail::UninitializedCopy(&temp_storage.warp_aggregates[warp], running);
    }
    __syncthreads();
    AccumT block_aggregate = temp_storage.warp_aggregates[0];
    prefixes.warp          = block_aggregate;
#pragma unroll
    for (int w = 1; w < WARPS; ++w)
    {
      if (w == warp)
      {
        prefixes.warp = block_aggregate;
      }
      block_aggregate = scan_op(block_aggregate, temp_storage.warp_aggregates[w]);
    }
    return block_aggregate;
  }

  //! With PARK, warp 0 keeps its items in shared memory while it looks back, so that the
  //! look-back's registers need not come on top of the items' (which sets the kernel's register
  //! count).
  STRATA_DEVICE STRATA_FORCEINLINE void Park(const AccumT (&items)[ITEMS_PER_THREAD])
  {
    static_assert(PARK, "parking needs the shared memory of PARK");
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      detail::UninitializedCopy(&temp_storage.parked[k * warp_threads + lane], items[k]);
    }
  }
  STRATA_DEVICE STRATA_FORCEINLINE void Unpark(AccumT (&items)[ITEMS_PER_THREAD]) const
  {
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      items[k] = temp_storage.parked[k * warp_threads + lane];
    }
  }

  //! Warp 0's step of a single-pass scan once the tile is scanned: lane 0 publishes the tile's
  //! `aggregate` in `tile_state` (as the tile's inclusive value where `aggregate_is_inclusive`,
  //! i.e. nothing before the tile can change it; else as a partial), and where `needs_prefix` the
  //! warp looks back (PrefixOpT::Lookback) for the combination of every tile before, publishes the
  //! tile's inclusive value and shares the prefix through `shared_prefix`. Returns that prefix in
  //! every thread (after a barrier) where `needs_prefix`, otherwise a value-initialized PrefixT
  //! without a barrier. Warp 0 parks `items` during the look-back where LOOKBACK_ITEMS says so.
  template <typename PrefixOpT, typename PrefixT, typename TileStateT, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE PrefixT LookBack(AccumT (&items)[ITEMS_PER_THREAD], PrefixT& shared_prefix,
                                                    TileStateT& tile_state, ScanOpT& scan_op, int tile,
                                                    const PrefixT& aggregate, bool aggregate_is_inclusive,
                                                    bool needs_prefix)
  {
    if (warp == 0)
    {
      if (lane == 0)
      {
        if (aggregate_is_inclusive)
        {
          tile_state.SetInclusive(tile, aggregate);
        }
        else
        {
          tile_state.SetPartial(tile, aggregate);
        }
      }
      if (needs_prefix)
      {
        if constexpr (PARK)
        {
          Park(items);
        }
        const PrefixT exclusive = PrefixOpT::Lookback(tile_state, scan_op, tile);
        if (lane == 0)
        {
          if (!aggregate_is_inclusive)
          {
            tile_state.SetInclusive(tile, scan_op(exclusive, aggregate));
          }
          detail::UninitializedCopy(&shared_prefix, exclusive);
        }
        if constexpr (PARK)
        {
          Unpark(items);
        }
      }
    }
    if (!needs_prefix)
    {
      return PrefixT{};
    }
    __syncthreads(); // the prefix from warp 0 to every thread
    return shared_prefix;
  }

  //! The combination of every tile before `tile` (TilePrefixOptions say what comes before the
  //! first and what the tile needs): tile 0 gets the initial value or a value-initialized PrefixT
  //! and publishes its inclusive value (when more tiles follow); later tiles publish and look back
  //! (LookBack, a barrier included where they need the prefix).
  template <typename PrefixOpT, typename PrefixT, typename TileStateT, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE PrefixT TilePrefix(AccumT (&items)[ITEMS_PER_THREAD], PrefixT& shared_prefix,
                                                      TileStateT& tile_state, ScanOpT& scan_op, int tile, int num_tiles,
                                                      const PrefixT& aggregate,
                                                      const TilePrefixOptions<PrefixT>& options = {})
  {
    if (tile == 0)
    {
      if (num_tiles > 1 && threadIdx.x == 0)
      {
        tile_state.SetInclusive(0, options.has_initial ? PrefixT(scan_op(options.initial, aggregate)) : aggregate);
      }
      return options.has_initial ? options.initial : PrefixT{};
    }
    return LookBack<PrefixOpT>(items, shared_prefix, tile_state, scan_op, tile, aggregate,
                               options.aggregate_is_inclusive, options.needs_prefix);
  }

  //! Turns the tile-local scan into the scan's results, with `tile_prefix` (when
  //! `has_tile_prefix`) in front of every item. Without a tile prefix, the tile's first item has
  //! no exclusive result (left undefined).
  template <bool INCLUSIVE, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void Finish(AccumT (&items)[ITEMS_PER_THREAD], const Prefixes& prefixes,
                                               const AccumT& tile_prefix, bool has_tile_prefix, ScanOpT& scan_op) const
  {
    // Everything in the tile's input before the warp's part.
    AccumT prefix   = tile_prefix;
    bool has_prefix = has_tile_prefix;
    if (warp > 0)
    {
      prefix     = has_tile_prefix ? AccumT(scan_op(tile_prefix, prefixes.warp)) : prefixes.warp;
      has_prefix = true;
    }
    if constexpr (FOLD_ROWS)
    {
      if (has_prefix)
      {
        // The exclusive result of the warp's first item is the prefix itself.
        const bool first_item = !INCLUSIVE && lane == 0;
#pragma unroll
        for (int k = 0; k < ITEMS_PER_THREAD; ++k)
        {
          items[k] = k == 0 && first_item ? prefix : AccumT(scan_op(prefix, items[k]));
        }
      }
    }
    else
    {
#pragma unroll
      for (int r = 0; r < ROWS; ++r)
      {
        const bool first_vector = r == 0 && lane == 0; // of the warp: no row prefix
        AccumT row_prefix       = prefixes.rows[r];
        if (has_prefix)
        {
          row_prefix = first_vector ? prefix : AccumT(scan_op(prefix, row_prefix));
        }
        ApplyRowPrefix<INCLUSIVE>(items, r, row_prefix, has_prefix || !first_vector, scan_op);
      }
    }
  }

private:
  //! Turns row r's scans within vectors into inclusive or exclusive results with `row_prefix` in
  //! front (when `has_row_prefix`; otherwise the exclusive result of the vector's first item is
  //! left undefined).
  template <bool INCLUSIVE, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static void ApplyRowPrefix(AccumT (&items)[ITEMS_PER_THREAD], int r,
                                                              const AccumT& row_prefix, bool has_row_prefix,
                                                              ScanOpT& scan_op)
  {
    if constexpr (INCLUSIVE)
    {
      if (has_row_prefix)
      {
#pragma unroll
        for (int j = 0; j < VEC; ++j)
        {
          items[r * VEC + j] = scan_op(row_prefix, items[r * VEC + j]);
        }
      }
    }
    else
    {
#pragma unroll
      for (int j = VEC - 1; j > 0; --j)
      {
        items[r * VEC + j] =
            has_row_prefix ? AccumT(scan_op(row_prefix, items[r * VEC + j - 1])) : items[r * VEC + j - 1];
      }
      items[r * VEC] = row_prefix;
    }
  }
};
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

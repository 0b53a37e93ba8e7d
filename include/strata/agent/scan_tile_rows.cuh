// strata/agent/scan_tile_rows.cuh: ScanTileRows, how the single-pass scan agents hold a tile in
// registers and scan it there: the layout, the tile counter, loads, the tile-local scan, and
// stores.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_scan.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{
//! Items of a 16-byte vector behind a pointer to T, or 1 (other iterators, odd sizes).
template <typename IteratorT>
constexpr int PointerVectorItems()
{
  if constexpr (::cuda::std::is_pointer_v<IteratorT>)
  {
    using T = it_value_t<IteratorT>;
    if constexpr (!::cuda::std::is_void_v<T> && ::cuda::std::is_trivially_copyable_v<T>)
    {
      if constexpr (16 % sizeof(T) == 0)
      {
        return int(16 / sizeof(T));
      }
    }
  }
  return 1;
}

//! The L2 prefetch distance in tiles for PREFETCH_BYTES bytes of input ahead, where a tile reads
//! TILE_INPUT_BYTES: 0 for no prefetch, otherwise at least one.
constexpr int PrefetchTiles(int prefetch_bytes, int tile_input_bytes)
{
  return prefetch_bytes <= 0 ? 0 : prefetch_bytes < tile_input_bytes ? 1 : prefetch_bytes / tile_input_bytes;
}

//! The items of one vector access: at most 16 bytes behind each of the iterators, and a divisor
//! of ITEMS_PER_THREAD.
template <int ITEMS_PER_THREAD, typename... IteratorTs>
constexpr int VectorItems()
{
  int items = 16;
  ((items = PointerVectorItems<IteratorTs>() < items ? PointerVectorItems<IteratorTs>() : items), ...);
  while (items > 1 && ITEMS_PER_THREAD % items != 0)
  {
    items /= 2;
  }
  return items;
}

template <typename T, int ITEMS>
struct alignas(sizeof(T) * ITEMS) VectorOf
{
  T items[ITEMS];
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
//! Registers while a tile waits for its look-back: FOLD_ROWS applies the rows' prefixes to the
//! items in ScanTile (one operator per item) instead of keeping them for Finish (one per row),
//! and PARK gives warp 0 shared memory to keep its items in while it looks back (Park, Unpark).
template <typename PolicyT, typename AccumT, int VEC_, bool FOLD_ROWS, bool PARK>
struct ScanTileRows
{
  static_assert(::cuda::std::is_trivially_copyable_v<AccumT>, "single-pass scans shuffle AccumT between lanes");

  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int WARPS            = BLOCK_THREADS / warp_threads;
  static constexpr int VEC              = VEC_;
  static constexpr int ROWS             = ITEMS_PER_THREAD / VEC;
  static constexpr int WARP_ITEMS       = warp_threads * ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static_assert(BLOCK_THREADS % warp_threads == 0, "single-pass scans run whole warps");
  static_assert(ITEMS_PER_THREAD % VEC == 0, "rows hold whole vectors");

  using WarpScanT = WarpScan<AccumT>;

  struct _TempStorage
  {
    AccumT warp_aggregates[WARPS];
    AccumT tile_prefix;
    int tile;
    unsigned int tile_flags; // a word for the agent to share across the tile's scan
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
    return warp * WARP_ITEMS + (r * warp_threads + lane) * VEC + j;
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

  template <typename IteratorT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE static auto LoadItem(IteratorT it, OffsetT index)
  {
    if constexpr (::cuda::std::is_pointer_v<IteratorT>)
    {
      return ThreadLoad<PolicyT::LOAD_MODIFIER>(it + index);
    }
    else
    {
      return it[index];
    }
  }

  template <typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static bool VectorAligned(IteratorT it)
  {
    if constexpr (VEC > 1)
    {
      using T = it_value_t<IteratorT>;
      return reinterpret_cast<::cuda::std::uintptr_t>(it) % (sizeof(T) * VEC) == 0;
    }
    else
    {
      return false;
    }
  }

  //! Asks L2 to fetch the tile at `tile_offset` of `d_in` ahead of its load (sm_90: one bulk
  //! prefetch by the calling thread; full tiles of 16-byte aligned pointers only, nothing else).
  template <typename IteratorT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE static void PrefetchTile([[maybe_unused]] IteratorT d_in,
                                                            [[maybe_unused]] OffsetT tile_offset)
  {
    if constexpr (::cuda::std::is_pointer_v<IteratorT>)
    {
      using T                      = it_value_t<IteratorT>;
      constexpr unsigned int BYTES = unsigned(TILE_ITEMS) * unsigned(sizeof(T));
      if constexpr (BYTES % 16 == 0)
      {
        const T* tile = d_in + tile_offset;
        if (reinterpret_cast<::cuda::std::uintptr_t>(tile) % 16 == 0)
        {
          PrefetchL2(tile, BYTES);
        }
      }
    }
  }

  //! Loads this lane's items of the tile at `tile_offset` (`valid` of them exist) of `d_in`,
  //! converted to ItemT. Items past the end repeat the tile's first item: they follow every valid
  //! item, so they change no valid result.
  template <typename ItemT, typename IteratorT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(IteratorT d_in, OffsetT tile_offset, int valid,
                                             ItemT (&items)[ITEMS_PER_THREAD]) const
  {
    if (valid == TILE_ITEMS)
    {
      if constexpr (VEC > 1)
      {
        if (VectorAligned(d_in))
        {
          using T                = it_value_t<IteratorT>;
          using VectorT          = VectorOf<T, VEC>;
          const VectorT* vectors = reinterpret_cast<const VectorT*>(d_in + tile_offset + OffsetT(ItemIndex(0, 0)));
#pragma unroll
          for (int r = 0; r < ROWS; ++r)
          {
            const VectorT vector = ThreadLoad<PolicyT::LOAD_MODIFIER>(vectors + r * warp_threads);
#pragma unroll
            for (int j = 0; j < VEC; ++j)
            {
              items[r * VEC + j] = ItemT(vector.items[j]);
            }
          }
          return;
        }
      }
#pragma unroll
      for (int r = 0; r < ROWS; ++r)
      {
#pragma unroll
        for (int j = 0; j < VEC; ++j)
        {
          items[r * VEC + j] = ItemT(LoadItem(d_in, tile_offset + OffsetT(ItemIndex(r, j))));
        }
      }
      return;
    }
    const ItemT filler = ItemT(LoadItem(d_in, tile_offset));
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
    {
#pragma unroll
      for (int j = 0; j < VEC; ++j)
      {
        const int index    = ItemIndex(r, j);
        items[r * VEC + j] = index < valid ? ItemT(LoadItem(d_in, tile_offset + OffsetT(index))) : filler;
      }
    }
  }

  //! Stores this lane's items of the tile at `tile_offset` (`valid` of them) into `d_out`.
  template <typename ItemT, typename IteratorT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(IteratorT d_out, OffsetT tile_offset, int valid,
                                              const ItemT (&items)[ITEMS_PER_THREAD]) const
  {
    if (valid == TILE_ITEMS)
    {
      if constexpr (VEC > 1)
      {
        if (VectorAligned(d_out))
        {
          using T          = it_value_t<IteratorT>;
          using VectorT    = VectorOf<T, VEC>;
          VectorT* vectors = reinterpret_cast<VectorT*>(d_out + tile_offset + OffsetT(ItemIndex(0, 0)));
#pragma unroll
          for (int r = 0; r < ROWS; ++r)
          {
            VectorT vector;
#pragma unroll
            for (int j = 0; j < VEC; ++j)
            {
              vector.items[j] = T(items[r * VEC + j]);
            }
            vectors[r * warp_threads] = vector;
          }
          return;
        }
      }
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
    {
#pragma unroll
      for (int j = 0; j < VEC; ++j)
      {
        const int index = ItemIndex(r, j);
        if (valid == TILE_ITEMS || index < valid)
        {
          d_out[tile_offset + OffsetT(index)] = items[r * VEC + j];
        }
      }
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
      temp_storage.warp_aggregates[warp] = running;
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
      temp_storage.parked[k * warp_threads + lane] = items[k];
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

  //! A word that one thread writes before ScanTile and every thread reads after it (the scan's
  //! barriers order the two).
  STRATA_DEVICE STRATA_FORCEINLINE void ShareTileFlags(unsigned int flags)
  {
    temp_storage.tile_flags = flags;
  }
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int SharedTileFlags() const
  {
    return temp_storage.tile_flags;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void ShareTilePrefix(const AccumT& tile_prefix)
  {
    temp_storage.tile_prefix = tile_prefix;
  }
  STRATA_DEVICE STRATA_FORCEINLINE AccumT SharedTilePrefix() const
  {
    return temp_storage.tile_prefix;
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
        items[r * VEC + j] = has_row_prefix ? AccumT(scan_op(row_prefix, items[r * VEC + j - 1])) : items[r * VEC + j - 1];
      }
      items[r * VEC] = row_prefix;
    }
  }
};
} // namespace scan
} // namespace detail
STRATA_NAMESPACE_END

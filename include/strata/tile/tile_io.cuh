// strata/tile/tile_io.cuh: TileIo, how a thread block's threads load and store the items of one
// tile: which items each thread holds, 16-byte vectors where the pointer allows, single items
// otherwise (and for any iterator), full and partial tiles.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! Items of the tile at `tile_offset` (below `num_items`): TILE_ITEMS, or what is left for the last.
template <int TILE_ITEMS, typename OffsetT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE int ValidItems(OffsetT num_items, OffsetT tile_offset)
{
  const OffsetT remaining = num_items - tile_offset;
  return remaining >= OffsetT(TILE_ITEMS) ? TILE_ITEMS : int(remaining);
}

//! A tile of BLOCK_THREADS * ITEMS_PER_THREAD items, ITEMS_PER_THREAD per thread as ROWS vectors
//! of VEC consecutive items. The tile is cut into parts of STRIPE_THREADS * ITEMS_PER_THREAD
//! consecutive items, one per group of STRIPE_THREADS threads (the block, or a warp); within its
//! part, thread t of the group holds vectors t, t + STRIPE_THREADS, ... (item k = r * VEC + j of
//! the thread is the tile's item ItemIndex(tid, r, j)). Every row is then one coalesced access per
//! group. VEC == 1 with the block as the group is CUB's striped arrangement.
//!
//! Functions take the tile's first item (`tile`, an iterator or pointer) and index it with ints,
//! which cannot wrap: the compiler then sees that a thread's items are distinct and issues all of
//! their loads before the first store.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int VEC = 1, int STRIPE_THREADS = BLOCK_THREADS>
struct TileIo
{
  static constexpr int ROWS       = ITEMS_PER_THREAD / VEC;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static_assert(ITEMS_PER_THREAD % VEC == 0, "a thread holds whole vectors");
  static_assert(BLOCK_THREADS % STRIPE_THREADS == 0, "the groups of a stripe fill the block");

  //! The tile index of item j of row r of thread `tid`.
  STRATA_DEVICE STRATA_FORCEINLINE static int ItemIndex(int tid, int r, int j)
  {
    if constexpr (STRIPE_THREADS == BLOCK_THREADS)
    {
      return (r * BLOCK_THREADS + tid) * VEC + j; // tid < BLOCK_THREADS: one group
    }
    else
    {
      const int group = tid / STRIPE_THREADS;
      return group * (STRIPE_THREADS * ITEMS_PER_THREAD) + (r * STRIPE_THREADS + tid % STRIPE_THREADS) * VEC + j;
    }
  }

  //! The tile index of item k (= r * VEC + j) of thread `tid`.
  STRATA_DEVICE STRATA_FORCEINLINE static int ItemIndex(int tid, int k)
  {
    return ItemIndex(tid, k / VEC, k % VEC);
  }

  //! Whether a tile starting at `tile` may move as vectors: a pointer aligned to one vector.
  template <typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static bool VectorAligned([[maybe_unused]] IteratorT tile)
  {
    if constexpr (VEC > 1 && ::cuda::std::is_pointer_v<IteratorT>)
    {
      return IsAligned<int(sizeof(it_value_t<IteratorT>)) * VEC>(tile);
    }
    else
    {
      return false;
    }
  }

  //! One item, through ThreadLoad<MODIFIER> for pointers.
  template <CacheLoadModifier MODIFIER, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static auto LoadItem(IteratorT it, int index)
  {
    if constexpr (::cuda::std::is_pointer_v<IteratorT>)
    {
      return ThreadLoad<MODIFIER>(it + index);
    }
    else
    {
      return it[index];
    }
  }

  //! Loads this thread's items of a full tile, converted to ItemT: as vectors where `vectors`
  //! (the caller checked VectorAligned), else one item at a time.
  template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static void LoadFull(IteratorT tile, int tid, [[maybe_unused]] bool vectors,
                                                        ItemT (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (VEC > 1 && ::cuda::std::is_pointer_v<IteratorT>)
    {
      if (vectors)
      {
        using VectorT          = VectorOf<it_value_t<IteratorT>, VEC>;
        const VectorT* vectors = reinterpret_cast<const VectorT*>(tile + ItemIndex(tid, 0, 0));
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
        {
          const VectorT vector = ThreadLoad<MODIFIER>(vectors + r * STRIPE_THREADS);
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
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      items[k] = ItemT(LoadItem<MODIFIER>(tile, ItemIndex(tid, k)));
    }
  }

  //! Loads this thread's items among the first `valid` of the tile; the others become `filler`.
  template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static void LoadPartial(IteratorT tile, int tid, int valid,
                                                           ItemT (&items)[ITEMS_PER_THREAD], const ItemT& filler)
  {
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index = ItemIndex(tid, k);
      items[k]        = index < valid ? ItemT(LoadItem<MODIFIER>(tile, index)) : filler;
    }
  }

  //! Loads this thread's items among the first `valid` of the tile; the others stay as they are.
  template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static void LoadPartial(IteratorT tile, int tid, int valid,
                                                           ItemT (&items)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index = ItemIndex(tid, k);
      if (index < valid)
      {
        items[k] = ItemT(LoadItem<MODIFIER>(tile, index));
      }
    }
  }

  //! Stores this thread's items of a full tile: as vectors where `vectors` (the caller checked
  //! VectorAligned), else one item at a time.
  template <typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static void StoreFull(IteratorT tile, int tid, [[maybe_unused]] bool vectors,
                                                         const ItemT (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (VEC > 1 && ::cuda::std::is_pointer_v<IteratorT>)
    {
      if (vectors)
      {
        using T          = it_value_t<IteratorT>;
        using VectorT    = VectorOf<T, VEC>;
        VectorT* vectors = reinterpret_cast<VectorT*>(tile + ItemIndex(tid, 0, 0));
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
        {
          VectorT vector;
#pragma unroll
          for (int j = 0; j < VEC; ++j)
          {
            vector.items[j] = T(items[r * VEC + j]);
          }
          vectors[r * STRIPE_THREADS] = vector;
        }
        return;
      }
    }
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      tile[ItemIndex(tid, k)] = items[k];
    }
  }

  //! Stores this thread's items among the first `valid` of the tile.
  template <typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static void StorePartial(IteratorT tile, int tid, int valid,
                                                            const ItemT (&items)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index = ItemIndex(tid, k);
      if (index < valid)
      {
        tile[index] = items[k];
      }
    }
  }
};
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

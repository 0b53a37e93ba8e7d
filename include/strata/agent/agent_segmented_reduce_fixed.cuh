// strata/agent/agent_segmented_reduce_fixed.cuh: AgentSegmentedReduceFixedPolicy and
// AgentSegmentedReduceFixed, one block's tiles of a segmented reduction over consecutive segments of
// one small size (DeviceSegmentedReduce's fixed-size forms).
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
//! The tuning of AgentSegmentedReduceFixed: threads per block; the bytes of input a tile holds
//! (its items follow from the item size); the largest segment size it takes (larger ones go to the
//! load-balanced AgentSegmentedReduce); the cache operator of its loads where the input is a pointer;
//! the blocks per SM the kernels' registers must allow; and the segments one warp reduces straight
//! from global memory (of MIN_WARP_SEGMENT_ITEMS to MAX_WARP_SEGMENT_ITEMS items, more than
//! MAX_SEGMENT_ITEMS and than a warp's lanes, and at least MIN_WARP_SEGMENTS of them, so that the
//! warps fill the device; MAX_WARP_SEGMENT_ITEMS 0: none).
template <int _BLOCK_THREADS, int _TILE_BYTES, int _MAX_SEGMENT_ITEMS, CacheLoadModifier _LOAD_MODIFIER = LOAD_DEFAULT,
          int _MIN_BLOCKS_PER_SM = 1, int _MIN_WARP_SEGMENT_ITEMS = 0, int _MAX_WARP_SEGMENT_ITEMS = 0,
          int _MIN_WARP_SEGMENTS = 2048>
struct AgentSegmentedReduceFixedPolicy
{
  static constexpr int MIN_BLOCKS_PER_SM           = _MIN_BLOCKS_PER_SM;
  static constexpr int MIN_WARP_SEGMENT_ITEMS      = _MIN_WARP_SEGMENT_ITEMS;
  static constexpr int MAX_WARP_SEGMENT_ITEMS      = _MAX_WARP_SEGMENT_ITEMS;
  static constexpr int MIN_WARP_SEGMENTS           = _MIN_WARP_SEGMENTS;
  static constexpr int BLOCK_THREADS               = _BLOCK_THREADS;
  static constexpr int TILE_BYTES                  = _TILE_BYTES;
  static constexpr int MAX_SEGMENT_ITEMS           = _MAX_SEGMENT_ITEMS;
  static constexpr CacheLoadModifier LOAD_MODIFIER = _LOAD_MODIFIER;
};

//! Consecutive segments of segment_size items each (1 to MAX_SEGMENT_ITEMS), reduced a tile of
//! whole segments at a time: the block loads the tile's items coalesced (16-byte vectors where the
//! input is a pointer aligned to them) into shared memory, one padding slot after every 32 items so
//! that neither the stores nor the reading of one segment a thread meet bank conflicts; then thread
//! t reduces segments t, t + BLOCK_THREADS, ... of the tile in their items' order and writes their
//! results side by side.
//!
//! ItemOpT turns (index in the segment, item) into AccumT; with COMBINE_INIT the initial value
//! comes first in every segment's reduction (as AgentSegmentedReduce).
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename InitT,
          typename AccumT, typename ItemOpT, bool COMBINE_INIT>
class AgentSegmentedReduceFixed
{
  using InputT                       = it_value_t<InputIteratorT>;
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int PER_THREAD    = PolicyT::TILE_BYTES / (BLOCK_THREADS * int(sizeof(InputT)));

public:
  //! Items a thread loads: whole 16-byte vectors of them where the input allows, at least one.
  static constexpr int ITEMS_PER_THREAD = PER_THREAD > 0 ? PER_THREAD : 1;
  static constexpr int VEC              = tile::VectorItems<ITEMS_PER_THREAD, 16, InputIteratorT>();
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static_assert(PolicyT::MAX_SEGMENT_ITEMS >= 1 && PolicyT::MAX_SEGMENT_ITEMS <= TILE_ITEMS,
                "a tile holds one segment of the largest size at least");

  //! The tile's items, one padding slot after every 32.
  struct TempStorage
  {
    Uninitialized<InputT> items[TILE_ITEMS + TILE_ITEMS / 32];
  };

  //! Segments a tile takes: as many whole segments as its items hold, a multiple of VEC where that
  //! leaves one (every tile then starts on a vector boundary where the input does).
  STRATA_HOST_DEVICE static constexpr int SegmentsPerTile(int segment_size)
  {
    const int whole = TILE_ITEMS / segment_size;
    return whole >= VEC ? whole / VEC * VEC : whole;
  }

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedReduceFixed(TempStorage& storage, InputIteratorT d_in,
                                                             OutputIteratorT d_out, ReductionOpT reduction_op,
                                                             InitT init, ItemOpT item_op)
      : storage(storage)
      , d_in(d_in)
      , d_out(d_out)
      , reduction_op(reduction_op)
      , init(init)
      , item_op(item_op)
  {
  }

  //! Reduces tiles first_tile, first_tile + tile_stride, ... of num_segments segments of
  //! segment_size items (the whole block calls).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTiles(::cuda::std::int64_t first_tile, ::cuda::std::int64_t tile_stride,
                                                     ::cuda::std::int64_t num_segments, int segment_size)
  {
    const ::cuda::std::int64_t per_tile = SegmentsPerTile(segment_size);
    const ::cuda::std::int64_t tiles    = (num_segments + per_tile - 1) / per_tile;
    for (::cuda::std::int64_t t = first_tile; t < tiles; t += tile_stride)
    {
      if (t != first_tile)
      {
        __syncthreads(); // the previous tile's items are read
      }
      const ::cuda::std::int64_t first_segment = t * per_tile;
      const ::cuda::std::int64_t left          = num_segments - first_segment;
      ConsumeTile(first_segment, int(left < per_tile ? left : per_tile), segment_size,
                  (num_segments - first_segment) * segment_size);
    }
  }

  //! Reduces segments first_segment, first_segment + segment_stride, ... of num_segments segments
  //! of segment_size (more than 32) items, one a warp (each warp calls with its own first segment):
  //! lane l combines items l, l + 32, ... of the segment, WARP_LOADS loads in flight, and the lanes'
  //! values meet in a WarpReduce. Nothing is shared between warps, so no agent (and no storage) is
  //! made.
  STRATA_DEVICE STRATA_FORCEINLINE static void
  ConsumeSegmentsByWarp(InputIteratorT d_in, OutputIteratorT d_out, ReductionOpT reduction_op, InitT init,
                        ItemOpT item_op, ::cuda::std::int64_t first_segment, ::cuda::std::int64_t segment_stride,
                        ::cuda::std::int64_t num_segments, int segment_size)
  {
    constexpr int WARP_LOADS = sizeof(InputT) <= 4 ? 16 : sizeof(InputT) <= 8 ? 8 : 4;
    const int lane           = int(threadIdx.x) % warp_threads;
    for (::cuda::std::int64_t s = first_segment; s < num_segments; s += segment_stride)
    {
      const auto segment = d_in + s * segment_size;
      AccumT acc         = item_op(lane, ThreadLoad<PolicyT::LOAD_MODIFIER>(segment + lane));
      int i              = lane + warp_threads;
      for (; i + (WARP_LOADS - 1) * warp_threads < segment_size; i += WARP_LOADS * warp_threads)
      {
        InputT items[WARP_LOADS];
#pragma unroll
        for (int k = 0; k < WARP_LOADS; ++k)
        {
          items[k] = ThreadLoad<PolicyT::LOAD_MODIFIER>(segment + (i + k * warp_threads));
        }
#pragma unroll
        for (int k = 0; k < WARP_LOADS; ++k)
        {
          acc = reduction_op(acc, item_op(i + k * warp_threads, items[k]));
        }
      }
      for (; i < segment_size; i += warp_threads)
      {
        acc = reduction_op(acc, item_op(i, ThreadLoad<PolicyT::LOAD_MODIFIER>(segment + i)));
      }
      typename WarpReduce<AccumT>::TempStorage no_storage; // a whole warp's reduction shuffles
      acc = WarpReduce<AccumT>(no_storage).Reduce(acc, reduction_op);
      if (lane == 0)
      {
        d_out[s] = COMBINE_INIT ? AccumT(reduction_op(AccumT(init), acc)) : acc;
      }
    }
  }

private:
  using IoT = tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VEC>;

  TempStorage& storage;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ReductionOpT reduction_op;
  InitT init;
  ItemOpT item_op;

  //! The shared-memory slot of tile item i.
  STRATA_DEVICE STRATA_FORCEINLINE static int Slot(int i)
  {
    return i + i / 32;
  }

  //! Reduces `segments` segments from first_segment on; `items_left` items of the input remain from
  //! the tile's first item, so that a full tile's window (past its own segments' items where
  //! TILE_ITEMS is not a multiple of segment_size) is read whole only where the input holds it.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(::cuda::std::int64_t first_segment, int segments, int segment_size,
                                                    ::cuda::std::int64_t items_left)
  {
    const auto tile = d_in + first_segment * segment_size;
    const int tid   = int(threadIdx.x);
    InputT items[ITEMS_PER_THREAD];
    if (items_left >= TILE_ITEMS)
    {
      IoT::template LoadFull<PolicyT::LOAD_MODIFIER>(tile, tid, IoT::VectorAligned(tile), items);
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        UninitializedCopy(&storage.items[Slot(IoT::ItemIndex(tid, k))].Alias(), items[k]);
      }
    }
    else
    {
      const int valid = int(items_left);
      IoT::template LoadPartial<PolicyT::LOAD_MODIFIER>(tile, tid, valid, items);
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        const int i = IoT::ItemIndex(tid, k);
        if (i < valid)
        {
          UninitializedCopy(&storage.items[Slot(i)].Alias(), items[k]);
        }
      }
    }
    __syncthreads();
    for (int s = tid; s < segments; s += BLOCK_THREADS)
    {
      const int first = s * segment_size;
      AccumT sum      = item_op(0, storage.items[Slot(first)].Alias());
      for (int j = 1; j < segment_size; ++j)
      {
        sum = reduction_op(sum, item_op(j, storage.items[Slot(first + j)].Alias()));
      }
      d_out[first_segment + s] = COMBINE_INIT ? AccumT(reduction_op(AccumT(init), sum)) : sum;
    }
  }
};
} // namespace segmented_reduce
} // namespace detail
STRATA_NAMESPACE_END

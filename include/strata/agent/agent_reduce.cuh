// strata/agent/agent_reduce.cuh: AgentReducePolicy and AgentReduce, one thread block's reduction
// of a contiguous range of the input, tile by tile, as the DeviceReduce kernels use it.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/iterator/cache_modified_input_iterator.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentReduce, with CUB's parameters: a tuning for 4-byte items (threads per block,
//! items per thread) that ScalingType turns into BLOCK_THREADS and ITEMS_PER_THREAD for ComputeT
//! (detail::NominalScaling, strata's one rule, or e.g. MemBoundScaling as in CUB), the width of the vector
//! loads (in items) where the input allows them, the BlockReduce algorithm, and the cache
//! operator of the loads.
template <int NOMINAL_BLOCK_THREADS_4B, int NOMINAL_ITEMS_PER_THREAD_4B, typename ComputeT, int _VECTOR_LOAD_LENGTH,
          BlockReduceAlgorithm _BLOCK_ALGORITHM, CacheLoadModifier _LOAD_MODIFIER,
          typename ScalingType =
              detail::NominalScaling<NOMINAL_BLOCK_THREADS_4B, NOMINAL_ITEMS_PER_THREAD_4B, ComputeT>>
struct AgentReducePolicy : ScalingType
{
  static constexpr int VECTOR_LOAD_LENGTH               = _VECTOR_LOAD_LENGTH;
  static constexpr BlockReduceAlgorithm BLOCK_ALGORITHM = _BLOCK_ALGORITHM;
  static constexpr CacheLoadModifier LOAD_MODIFIER      = _LOAD_MODIFIER;
};

namespace detail
{
namespace reduce
{
//! A transform that also receives each item's index in the input (ArgMin / ArgMax pair items
//! with their indices this way, so the raw input can still be read with vector loads).
template <typename T>
inline constexpr bool is_indexed_transform_v = false;

template <typename IndexT, typename ValueT>
struct PairWithIndex
{
  template <typename InputT, typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<IndexT, ValueT> operator()(const InputT& item, OffsetT index) const
  {
    return KeyValuePair<IndexT, ValueT>(static_cast<IndexT>(index), static_cast<ValueT>(item));
  }
};
template <typename IndexT, typename ValueT>
inline constexpr bool is_indexed_transform_v<PairWithIndex<IndexT, ValueT>> = true;
} // namespace reduce
} // namespace detail

//! One thread block's reduction of input items [block_offset, block_end): full tiles of
//! BLOCK_THREADS * ITEMS_PER_THREAD items are loaded all at once (vector loads of the raw input
//! where it is a 16-byte-aligned pointer), transformed, and folded into a per-thread running
//! value; a partial last tile is folded item by item; one BlockReduce combines the threads.
//! The result is valid in thread 0. ReductionOpT must be associative; items are regrouped.
template <typename AgentReducePolicyT, typename InputIteratorT, typename OffsetT, typename ReductionOpT,
          typename AccumT, typename TransformOpT = ::cuda::std::identity>
class AgentReduce
{
  using InputT = typename ::cuda::std::iterator_traits<InputIteratorT>::value_type;

  static constexpr int BLOCK_THREADS    = AgentReducePolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = AgentReducePolicyT::ITEMS_PER_THREAD;
  //! The policy's vector width, narrowed to what the input allows (at most 16 bytes); vectors
  //! narrower than 4 bytes are not worth it.
  static constexpr int VECTOR_LENGTH =
      detail::tile::VectorItems<ITEMS_PER_THREAD, AgentReducePolicyT::VECTOR_LOAD_LENGTH, InputIteratorT>();
  static constexpr bool VECTORIZE = VECTOR_LENGTH > 1 && (sizeof(InputT) * VECTOR_LENGTH) % 4 == 0;
  //! Full tiles: vector v of the tile goes to thread v % BLOCK_THREADS where the input is aligned
  //! for them, else item i to thread i % BLOCK_THREADS (consecutive threads read consecutive
  //! vectors or items either way).
  using VectorIo = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VECTORIZE ? VECTOR_LENGTH : 1>;
  using ItemIo   = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD>;

  using BlockReduceT = BlockReduce<AccumT, BLOCK_THREADS, AgentReducePolicyT::BLOCK_ALGORITHM>;

public:
  //! Items of one full tile.
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  struct TempStorage : BlockReduceT::TempStorage
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentReduce(TempStorage& temp_storage, InputIteratorT d_in,
                                               ReductionOpT reduction_op, TransformOpT transform_op = {})
      : temp_storage(temp_storage)
      , d_in(d_in)
      , reduction_op(reduction_op)
      , transform_op(transform_op)
  {
  }

  //! The reduction of items [block_offset, block_end) (not empty), valid in thread 0.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT ConsumeRange(OffsetT block_offset, OffsetT block_end)
  {
    return ConsumeTiles(block_offset, OffsetT(TILE_ITEMS), block_end);
  }

  //! The reduction of the tiles at offset, offset + stride, offset + 2 * stride, ... below end
  //! (the last one may be partial), valid in thread 0. stride is a multiple of TILE_ITEMS, and
  //! offset < end: contiguous ranges have stride TILE_ITEMS (ConsumeRange), strip-mined grids
  //! the grid's tiles.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT ConsumeTiles(OffsetT offset, OffsetT stride, OffsetT end)
  {
    AccumT thread_aggregate{};
    const int tid       = int(threadIdx.x);
    bool have_aggregate = false;
    // At least one full tile: every thread gets a value from it.
    const bool full = end - offset >= OffsetT(TILE_ITEMS);
    // The threads that end with a value: every one when a full tile or at least BLOCK_THREADS
    // items are there, else the first end - offset.
    const int valid_threads = full || end - offset >= OffsetT(BLOCK_THREADS) ? BLOCK_THREADS : int(end - offset);
    if (full)
    {
      // Software-pipelined: the loads of the next tile are issued before the current tile is
      // reduced, so a long chain of dependent operations (a sequential floating-point sum) never
      // leaves the memory system idle. The first full tile seeds every thread's value; no
      // identity element is needed. Every tile shares the alignment of the first (tiles and
      // strides are whole vectors long).
      const bool aligned = IsAligned(offset);
      InputT items[ITEMS_PER_THREAD];
      LoadFullTile(offset, tid, aligned, items);
      OffsetT items_offset = offset;
      offset               = Next(offset, stride, end);
      bool first           = true;
      while (end - offset >= OffsetT(TILE_ITEMS))
      {
        InputT next[ITEMS_PER_THREAD];
        LoadFullTile(offset, tid, aligned, next);
        const AccumT tile_aggregate = ReduceItems(items, items_offset, tid, aligned);
        thread_aggregate            = first ? tile_aggregate : AccumT(reduction_op(thread_aggregate, tile_aggregate));
        first                       = false;
        items_offset                = offset;
        offset                      = Next(offset, stride, end);
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          items[i] = next[i];
        }
      }
      const AccumT tile_aggregate = ReduceItems(items, items_offset, tid, aligned);
      thread_aggregate            = first ? tile_aggregate : AccumT(reduction_op(thread_aggregate, tile_aggregate));
      have_aggregate              = true;
    }
    const int remaining = int(end - offset); // < TILE_ITEMS: a partial last tile, or none
    // Striped: thread t takes items t, t + BLOCK_THREADS, ... of the partial tile.
    for (int i = tid; i < remaining; i += BLOCK_THREADS)
    {
      const AccumT item = Transformed(offset + OffsetT(i));
      thread_aggregate  = have_aggregate ? AccumT(reduction_op(thread_aggregate, item)) : item;
      have_aggregate    = true;
    }
    return valid_threads == BLOCK_THREADS
               ? BlockReduceT(temp_storage).Reduce(thread_aggregate, reduction_op)
               : BlockReduceT(temp_storage).Reduce(thread_aggregate, reduction_op, valid_threads);
  }

private:
  TempStorage& temp_storage;
  InputIteratorT d_in;
  ReductionOpT reduction_op;
  TransformOpT transform_op;

  //! The tile after the one at `offset`: `offset + stride`, or `end` where that is at or past the
  //! end (without computing a sum that could wrap).
  STRATA_DEVICE STRATA_FORCEINLINE static OffsetT Next(OffsetT offset, OffsetT stride, OffsetT end)
  {
    return end - offset > stride ? offset + stride : end;
  }

  STRATA_DEVICE STRATA_FORCEINLINE AccumT Transformed(OffsetT index)
  {
    return Apply(d_in[index], index);
  }

  STRATA_DEVICE STRATA_FORCEINLINE AccumT Apply(const InputT& item, OffsetT index)
  {
    if constexpr (detail::reduce::is_indexed_transform_v<TransformOpT>)
    {
      return AccumT(transform_op(item, index));
    }
    else
    {
      return AccumT(transform_op(item));
    }
  }

  //! The input index of item i of this thread in the full tile at `offset`.
  STRATA_DEVICE STRATA_FORCEINLINE static OffsetT ItemIndex(OffsetT offset, int tid, bool vectors, int i)
  {
    return offset + OffsetT(VECTORIZE && vectors ? VectorIo::ItemIndex(tid, i) : ItemIo::ItemIndex(tid, i));
  }

  STRATA_DEVICE STRATA_FORCEINLINE bool IsAligned(OffsetT offset) const
  {
    return VectorIo::VectorAligned(d_in + offset);
  }

  //! Loads this thread's ITEMS_PER_THREAD items of the full tile at `offset` (every tile of a
  //! range shares the alignment of its first: tiles are whole vectors long).
  STRATA_DEVICE STRATA_FORCEINLINE void LoadFullTile(OffsetT offset, int tid, bool aligned,
                                                     InputT (&items)[ITEMS_PER_THREAD])
  {
    constexpr CacheLoadModifier MODIFIER = AgentReducePolicyT::LOAD_MODIFIER;
    if (VECTORIZE && aligned)
    {
      VectorIo::template LoadFull<MODIFIER>(d_in + offset, tid, true, items);
    }
    else
    {
      ItemIo::template LoadFull<MODIFIER>(d_in + offset, tid, false, items);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE AccumT ReduceItems(const InputT (&items)[ITEMS_PER_THREAD], OffsetT offset, int tid,
                                                      bool vectors)
  {
    AccumT transformed[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      transformed[i] = Apply(items[i], ItemIndex(offset, tid, vectors, i));
    }
    return ThreadReduce(transformed, reduction_op);
  }
};

STRATA_NAMESPACE_END

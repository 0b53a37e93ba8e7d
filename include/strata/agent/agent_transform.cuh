// strata/agent/agent_transform.cuh: AgentTransform, one thread block's tile of an element-wise
// transform of one or several input sequences into an output sequence.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace transform
{
//! Whether every input and the output are plain pointers to trivially copyable items of one size
//! that divides 16 bytes: then a tile moves as 16-byte vectors, element i of every array in the
//! same thread.
template <typename OutputIteratorT, typename... InputIteratorTs>
inline constexpr bool vectorizable_v =
    (tile::PacksIntoVectors<OutputIteratorT>() && ... && tile::PacksIntoVectors<InputIteratorTs>())
    && ((sizeof(it_value_t<InputIteratorTs>) == sizeof(::cuda::std::remove_pointer_t<OutputIteratorT>)) && ...);

//! N items of T in registers (tuples cannot hold C arrays).
template <typename T, int N>
struct ArrayOf
{
  T items[N];
};
} // namespace transform
} // namespace detail

//! One thread block's tile of out[i] = op(in_0[i], in_1[i], ...) for i in [tile_offset,
//! tile_offset + tile_items). Full tiles of aligned pointers move as 16-byte vectors (every load
//! of the tile issued before the first store); other tiles move item by item, striped over the
//! block, with all of a thread's loads again issued first. With PolicyT::BULK_COPY, on sm_90 and
//! later, the full aligned tiles of one or two inputs arrive instead by bulk copies into shared
//! memory (TempStorage), one per input, issued by one thread and awaited on an mbarrier; the
//! threads then read their vectors from shared memory.
template <typename PolicyT, typename OffsetT, typename TransformOpT, typename OutputIteratorT,
          typename... InputIteratorTs>
class AgentTransform
{
  using OutputT = detail::it_value_t<OutputIteratorT>;

  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr bool VECTORIZE    = detail::transform::vectorizable_v<OutputIteratorT, InputIteratorTs...>;
  static constexpr int VECTOR_ITEMS  = VECTORIZE ? detail::tile::PointerVectorItems<OutputIteratorT>() : 1;
  //! Full aligned tiles: vector v of the tile goes to thread v % BLOCK_THREADS. Other tiles: item
  //! i of a round of the tile to thread i % BLOCK_THREADS.
  using VectorIo = detail::tile::TileIo<BLOCK_THREADS, PolicyT::VECTORS_PER_THREAD * VECTOR_ITEMS, VECTOR_ITEMS>;
  using ItemIo   = detail::tile::TileIo<BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD>;

public:
  //! Items of one tile.
  static constexpr int TILE_ITEMS = VECTORIZE ? BLOCK_THREADS * PolicyT::VECTORS_PER_THREAD * VECTOR_ITEMS
                                              : BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD;

private:
  static constexpr int INPUTS = int(sizeof...(InputIteratorTs));
  //! Bytes of one input's tile of 16-byte vectors: a multiple of 16, as cp.async.bulk needs.
  static constexpr int TILE_BYTES = BLOCK_THREADS * PolicyT::VECTORS_PER_THREAD * 16;
  //! Bulk copies: up to two inputs, so that their tiles stay within 48 KiB of static shared memory.
  static constexpr bool BULK =
      PolicyT::BULK_COPY && VECTORIZE && INPUTS >= 1 && INPUTS <= 2 && INPUTS * TILE_BYTES <= 32768;

  struct BulkStorage
  {
    alignas(128) unsigned char tiles[INPUTS > 0 ? INPUTS : 1][TILE_BYTES];
    ::cuda::std::uint64_t barrier;
  };

public:
  //! Shared memory of the bulk copies (an empty placeholder without them).
  using TempStorage = ::cuda::std::conditional_t<BULK, BulkStorage, NullType>;

  STRATA_DEVICE STRATA_FORCEINLINE AgentTransform(TempStorage& temp_storage, TransformOpT op, OutputIteratorT out,
                                                  InputIteratorTs... ins)
      : temp_storage(temp_storage)
      , op(op)
      , out(out)
      , ins(ins...)
  {
  }

  //! Transforms tile_items items from tile_offset (a full tile has TILE_ITEMS). Every thread of the
  //! block calls it with the same tile.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_offset, int tile_items)
  {
    if constexpr (VECTORIZE)
    {
      if (tile_items == TILE_ITEMS && AllAligned(tile_offset, ::cuda::std::index_sequence_for<InputIteratorTs...>{}))
      {
        if constexpr (BULK)
        {
          NV_IF_TARGET(NV_PROVIDES_SM_90,
                       (BulkTile(tile_offset, ::cuda::std::index_sequence_for<InputIteratorTs...>{}); return;));
        }
        VectorTile(tile_offset, ::cuda::std::index_sequence_for<InputIteratorTs...>{});
        return;
      }
    }
    ItemTile(tile_offset, tile_items, ::cuda::std::index_sequence_for<InputIteratorTs...>{});
  }

private:
  TempStorage& temp_storage;
  TransformOpT op;
  OutputIteratorT out;
  ::cuda::std::tuple<InputIteratorTs...> ins;

  template <::cuda::std::size_t I>
  using InputT = detail::it_value_t<::cuda::std::tuple_element_t<I, ::cuda::std::tuple<InputIteratorTs...>>>;

  //! The tile's inputs arrive in shared memory by bulk copy (sm_90): thread 0 sets up the block's
  //! mbarrier for one arrival and the tiles' bytes and issues the copies; every thread waits for
  //! the barrier's first phase, then moves its vectors as VectorTile does, from shared memory.
  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE void BulkTile(OffsetT tile_offset, ::cuda::std::index_sequence<Is...>)
  {
    BulkStorage& storage = temp_storage;
    if (threadIdx.x == 0)
    {
      detail::MbarrierInit(&storage.barrier, 1u);
      detail::FenceProxyAsyncShared(); // the copies see the initialized barrier
      detail::MbarrierArriveExpectTx(&storage.barrier, ::cuda::std::uint32_t(INPUTS * TILE_BYTES));
      (detail::CpAsyncBulkGlobalToShared<int(sizeof(InputT<Is>))>(storage.tiles[Is], ::cuda::std::get<Is>(ins),
                                                                  tile_offset, ::cuda::std::uint32_t(TILE_BYTES),
                                                                  &storage.barrier),
       ...);
    }
    __syncthreads(); // the barrier is initialized before anyone waits on it
    while (!detail::MbarrierTryWaitParity(&storage.barrier, 0u))
    {
    }
    ::cuda::std::tuple<detail::transform::ArrayOf<InputT<Is>, VectorIo::ROWS * VECTOR_ITEMS>...> loaded;
    (VectorIo::LoadFull(reinterpret_cast<const InputT<Is>*>(storage.tiles[Is]), int(threadIdx.x), true,
                        ::cuda::std::get<Is>(loaded).items),
     ...);
    TransformAndStore(tile_offset, loaded, ::cuda::std::index_sequence<Is...>{});
  }

  //! out[k] = op(in_0[k], in_1[k], ...) for this thread's items of the full tile, stored as vectors.
  template <typename LoadedT, ::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE void TransformAndStore(OffsetT tile_offset, const LoadedT& loaded,
                                                          ::cuda::std::index_sequence<Is...>)
  {
    OutputT results[VectorIo::ROWS * VECTOR_ITEMS];
#pragma unroll
    for (int k = 0; k < VectorIo::ROWS * VECTOR_ITEMS; ++k)
    {
      results[k] = op(::cuda::std::get<Is>(loaded).items[k]...);
    }
    VectorIo::StoreFull(out + tile_offset, int(threadIdx.x), true, results);
  }

  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE bool AllAligned(OffsetT offset, ::cuda::std::index_sequence<Is...>) const
  {
    return VectorIo::VectorAligned(out + offset)
           && (VectorIo::VectorAligned(::cuda::std::get<Is>(ins) + offset) && ...);
  }

  //! Vector v of the tile is moved by thread v % BLOCK_THREADS: consecutive threads, consecutive
  //! 16-byte vectors.
  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE void VectorTile(OffsetT tile_offset, ::cuda::std::index_sequence<Is...>)
  {
    ::cuda::std::tuple<detail::transform::ArrayOf<InputT<Is>, VectorIo::ROWS * VECTOR_ITEMS>...> loaded;
    (VectorIo::LoadFull(::cuda::std::get<Is>(ins) + tile_offset, int(threadIdx.x), true,
                        ::cuda::std::get<Is>(loaded).items),
     ...);
    TransformAndStore(tile_offset, loaded, ::cuda::std::index_sequence<Is...>{});
  }

  //! Items move one at a time, in rounds of ItemIo::TILE_ITEMS (a vectorizable tile that is
  //! partial or misaligned has the TILE_ITEMS of the vector layout); every load of a round is
  //! issued before its first store.
  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE void ItemTile(OffsetT tile_offset, int tile_items,
                                                 ::cuda::std::index_sequence<Is...>)
  {
    const int tid = int(threadIdx.x);
    for (int round = 0; round < tile_items; round += ItemIo::TILE_ITEMS)
    {
      const OffsetT round_offset = tile_offset + OffsetT(round);
      const int valid            = tile_items - round;
      ::cuda::std::tuple<detail::transform::ArrayOf<InputT<Is>, PolicyT::ITEMS_PER_THREAD>...> loaded;
      (ItemIo::LoadPartial(::cuda::std::get<Is>(ins) + round_offset, tid, valid, ::cuda::std::get<Is>(loaded).items),
       ...);
#pragma unroll
      for (int i = 0; i < PolicyT::ITEMS_PER_THREAD; ++i)
      {
        const int index = ItemIo::ItemIndex(tid, i);
        if (index < valid)
        {
          out[round_offset + OffsetT(index)] = op(::cuda::std::get<Is>(loaded).items[i]...);
        }
      }
    }
  }
};

STRATA_NAMESPACE_END

// strata/agent/agent_transform.cuh: AgentTransform, one thread block's tile of an element-wise
// transform of one or several input sequences into an output sequence.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_store.cuh>
#include <strata/util_type.cuh>

#include <cuda/ptx>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace transform
{
template <typename IteratorT>
using value_t = typename ::cuda::std::iterator_traits<IteratorT>::value_type;

//! Whether every input and the output are plain pointers to trivially copyable items of one size
//! that divides 16 bytes: then a tile moves as 16-byte vectors, element i of every array in the
//! same thread.
template <typename OutputIteratorT, typename... InputIteratorTs>
inline constexpr bool vectorizable_v =
    (::cuda::std::is_pointer_v<OutputIteratorT> && ... && ::cuda::std::is_pointer_v<InputIteratorTs>)
    && ((sizeof(value_t<InputIteratorTs>) == sizeof(::cuda::std::remove_pointer_t<OutputIteratorT>)) && ...)
    && (16 % sizeof(::cuda::std::remove_pointer_t<OutputIteratorT>) == 0)
    && (::cuda::std::is_trivially_copyable_v<value_t<InputIteratorTs>> && ...);

template <typename T>
STRATA_DEVICE STRATA_FORCEINLINE bool Aligned16(const T* ptr)
{
  return reinterpret_cast<::cuda::std::uintptr_t>(ptr) % 16 == 0;
}

template <typename T, int N>
struct alignas(16) VectorOf
{
  T items[N];
};

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
  using OutputT = detail::transform::value_t<OutputIteratorT>;

  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr bool VECTORIZE    = detail::transform::vectorizable_v<OutputIteratorT, InputIteratorTs...>;
  static constexpr int VECTOR_ITEMS  = VECTORIZE ? 16 / int(sizeof(::cuda::std::remove_pointer_t<OutputIteratorT>)) : 1;

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
  using InVectorT = detail::transform::VectorOf<
      detail::transform::value_t<::cuda::std::tuple_element_t<I, ::cuda::std::tuple<InputIteratorTs...>>>, VECTOR_ITEMS>;

  //! The tile's inputs arrive in shared memory by bulk copy (sm_90): thread 0 sets up the block's
  //! mbarrier for one arrival and the tiles' bytes and issues the copies; every thread waits for
  //! the barrier's first phase, then moves its vectors as VectorTile does, from shared memory.
  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE void BulkTile(OffsetT tile_offset, ::cuda::std::index_sequence<Is...>)
  {
    BulkStorage& storage = temp_storage;
    if (threadIdx.x == 0)
    {
      ::cuda::ptx::mbarrier_init(&storage.barrier, 1u);
      ::cuda::ptx::fence_proxy_async(::cuda::ptx::space_shared); // the copies see the initialized barrier
      ::cuda::ptx::mbarrier_arrive_expect_tx(::cuda::ptx::sem_release, ::cuda::ptx::scope_cta,
                                             ::cuda::ptx::space_shared, &storage.barrier,
                                             ::cuda::std::uint32_t(INPUTS * TILE_BYTES));
      (::cuda::ptx::cp_async_bulk(::cuda::ptx::space_cluster, ::cuda::ptx::space_global, storage.tiles[Is],
                                  ::cuda::std::get<Is>(ins) + tile_offset, ::cuda::std::uint32_t(TILE_BYTES),
                                  &storage.barrier),
       ...);
    }
    __syncthreads(); // the barrier is initialized before anyone waits on it
    while (!::cuda::ptx::mbarrier_try_wait_parity(&storage.barrier, 0u))
    {
    }
    constexpr int VECTORS = PolicyT::VECTORS_PER_THREAD;
    const int tid         = int(threadIdx.x);
    using OutVectorT        = detail::transform::VectorOf<OutputT, VECTOR_ITEMS>;
    OutVectorT* out_vectors = reinterpret_cast<OutVectorT*>(out + tile_offset);
#pragma unroll
    for (int v = 0; v < VECTORS; ++v)
    {
      const ::cuda::std::tuple<InVectorT<Is>...> loaded(
          reinterpret_cast<const InVectorT<Is>*>(storage.tiles[Is])[v * BLOCK_THREADS + tid]...);
      OutVectorT result;
#pragma unroll
      for (int j = 0; j < VECTOR_ITEMS; ++j)
      {
        result.items[j] = op(::cuda::std::get<Is>(loaded).items[j]...);
      }
      out_vectors[v * BLOCK_THREADS + tid] = result;
    }
  }

  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE bool AllAligned(OffsetT offset, ::cuda::std::index_sequence<Is...>) const
  {
    return detail::transform::Aligned16(out + offset)
        && (detail::transform::Aligned16(::cuda::std::get<Is>(ins) + offset) && ...);
  }

  //! Vector v of the tile is moved by thread v % BLOCK_THREADS: consecutive threads, consecutive
  //! 16-byte vectors.
  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE void VectorTile(OffsetT tile_offset, ::cuda::std::index_sequence<Is...>)
  {
    constexpr int VECTORS = PolicyT::VECTORS_PER_THREAD;
    const int tid         = int(threadIdx.x);
    ::cuda::std::tuple<detail::transform::ArrayOf<
        detail::transform::VectorOf<detail::transform::value_t<InputIteratorTs>, VECTOR_ITEMS>, VECTORS>...>
        loaded;
#pragma unroll
    for (int v = 0; v < VECTORS; ++v)
    {
      ((::cuda::std::get<Is>(loaded).items[v] = ThreadLoad<LOAD_DEFAULT>(
            reinterpret_cast<const detail::transform::VectorOf<detail::transform::value_t<InputIteratorTs>, VECTOR_ITEMS>*>(
                ::cuda::std::get<Is>(ins) + tile_offset)
            + v * BLOCK_THREADS + tid)),
       ...);
    }
    using OutVectorT = detail::transform::VectorOf<OutputT, VECTOR_ITEMS>;
    OutVectorT* out_vectors = reinterpret_cast<OutVectorT*>(out + tile_offset);
#pragma unroll
    for (int v = 0; v < VECTORS; ++v)
    {
      OutVectorT result;
#pragma unroll
      for (int j = 0; j < VECTOR_ITEMS; ++j)
      {
        result.items[j] = op(::cuda::std::get<Is>(loaded).items[v].items[j]...);
      }
      out_vectors[v * BLOCK_THREADS + tid] = result;
    }
  }

  //! Item i of the thread is tile item i * BLOCK_THREADS + tid.
  template <::cuda::std::size_t... Is>
  STRATA_DEVICE STRATA_FORCEINLINE void ItemTile(OffsetT tile_offset, int tile_items, ::cuda::std::index_sequence<Is...>)
  {
    constexpr int ITEMS = PolicyT::ITEMS_PER_THREAD;
    const int tid       = int(threadIdx.x);
    // A vectorizable tile that is partial or misaligned has TILE_ITEMS of the vector layout:
    // cover it in rounds of BLOCK_THREADS * ITEMS items.
    for (int round = 0; round < tile_items; round += BLOCK_THREADS * ITEMS)
    {
      ::cuda::std::tuple<detail::transform::ArrayOf<detail::transform::value_t<InputIteratorTs>, ITEMS>...> loaded;
#pragma unroll
      for (int i = 0; i < ITEMS; ++i)
      {
        const int idx = round + i * BLOCK_THREADS + tid;
        if (idx < tile_items)
        {
          ((::cuda::std::get<Is>(loaded).items[i] = ::cuda::std::get<Is>(ins)[tile_offset + OffsetT(idx)]), ...);
        }
      }
#pragma unroll
      for (int i = 0; i < ITEMS; ++i)
      {
        const int idx = round + i * BLOCK_THREADS + tid;
        if (idx < tile_items)
        {
          out[tile_offset + OffsetT(idx)] = op(::cuda::std::get<Is>(loaded).items[i]...);
        }
      }
    }
  }
};

STRATA_NAMESPACE_END

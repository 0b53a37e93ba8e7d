// strata/agent/agent_transform.cuh: AgentTransform, one thread block's tile of an element-wise
// transform of one or several input sequences into an output sequence.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_store.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

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
//! block, with all of a thread's loads again issued first.
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

  STRATA_DEVICE STRATA_FORCEINLINE AgentTransform(TransformOpT op, OutputIteratorT out, InputIteratorTs... ins)
      : op(op)
      , out(out)
      , ins(ins...)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_offset, int tile_items)
  {
    if constexpr (VECTORIZE)
    {
      if (tile_items == TILE_ITEMS && AllAligned(tile_offset, ::cuda::std::index_sequence_for<InputIteratorTs...>{}))
      {
        VectorTile(tile_offset, ::cuda::std::index_sequence_for<InputIteratorTs...>{});
        return;
      }
    }
    ItemTile(tile_offset, tile_items, ::cuda::std::index_sequence_for<InputIteratorTs...>{});
  }

private:
  TransformOpT op;
  OutputIteratorT out;
  ::cuda::std::tuple<InputIteratorTs...> ins;

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

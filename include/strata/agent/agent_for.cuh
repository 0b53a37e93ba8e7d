// strata/agent/agent_for.cuh: AgentFor, one thread block's tile of a DeviceFor call: an operator
// applied to every index of the tile, or to every item of a tile of 16-byte vectors.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace for_each
{
//! Items of T in one 16-byte vector (1 for items that do not pack into one).
template <typename T>
inline constexpr int vector_items = (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? int(16 / sizeof(T)) : 1;

template <typename T>
struct alignas(16) Vector
{
  T items[vector_items<T>];
};

//! ForEach: the operator gets a reference to item i.
template <typename IteratorT, typename OpT>
struct ApplyToItem
{
  IteratorT first;
  OpT op;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT i)
  {
    op(first[i]);
  }
};

//! ForEachCopy without vectors: the operator gets a copy of item i.
template <typename IteratorT, typename OpT>
struct ApplyToCopy
{
  IteratorT first;
  OpT op;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT i)
  {
    using T = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(first[i])>>;
    op(static_cast<T>(first[i]));
  }
};
} // namespace for_each
} // namespace detail

//! One thread block's tile of a DeviceFor call.
template <typename PolicyT, typename OffsetT, typename OpT>
struct AgentFor
{
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int TILE_ITEMS    = BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD;

  OpT op;

  //! op(i) for every index of the tile at `tile_offset` with `tile_items` indices.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_offset, int tile_items)
  {
    const int tid = int(threadIdx.x);
    if (tile_items == TILE_ITEMS)
    {
#pragma unroll
      for (int i = 0; i < PolicyT::ITEMS_PER_THREAD; ++i)
      {
        op(tile_offset + OffsetT(i * BLOCK_THREADS + tid));
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < PolicyT::ITEMS_PER_THREAD; ++i)
      {
        const int index = i * BLOCK_THREADS + tid;
        if (index < tile_items)
        {
          op(tile_offset + OffsetT(index));
        }
      }
    }
  }
};

//! One thread block's tile of ForEachCopy over an aligned pointer: VECTORS_PER_THREAD 16-byte
//! vectors per thread, all loaded before the operator sees their items.
template <typename PolicyT, typename OffsetT, typename T, typename OpT>
struct AgentForCopyVectors
{
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int VECTOR_ITEMS  = detail::for_each::vector_items<T>;
  static constexpr int TILE_VECTORS  = BLOCK_THREADS * PolicyT::VECTORS_PER_THREAD;
  static constexpr int TILE_ITEMS    = TILE_VECTORS * VECTOR_ITEMS;

  const T* first;
  OpT op;

  //! The tile of `tile_items` items at `tile_offset` (a multiple of TILE_ITEMS).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_offset, int tile_items)
  {
    using VectorT = detail::for_each::Vector<T>;
    const int tid = int(threadIdx.x);
    if (tile_items == TILE_ITEMS)
    {
      const VectorT* vectors = reinterpret_cast<const VectorT*>(first + tile_offset);
      VectorT loaded[PolicyT::VECTORS_PER_THREAD];
#pragma unroll
      for (int v = 0; v < PolicyT::VECTORS_PER_THREAD; ++v)
      {
        loaded[v] = ThreadLoad<LOAD_LDG>(vectors + v * BLOCK_THREADS + tid);
      }
#pragma unroll
      for (int v = 0; v < PolicyT::VECTORS_PER_THREAD; ++v)
      {
#pragma unroll
        for (int j = 0; j < VECTOR_ITEMS; ++j)
        {
          op(loaded[v].items[j]);
        }
      }
    }
    else
    {
      for (int index = tid; index < tile_items; index += BLOCK_THREADS)
      {
        op(T(first[tile_offset + OffsetT(index)]));
      }
    }
  }
};

STRATA_NAMESPACE_END

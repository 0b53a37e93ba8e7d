// strata/agent/agent_for.cuh: AgentFor, one thread block's tile of a DeviceFor call: an operator
// applied to every index of the tile, or to every item of a tile of 16-byte vectors; and the
// wrappers that turn ForEach, ForEachCopy, Bulk and ForEachInExtents into operators on indices.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_io.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/span>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace for_each
{
// AgentFor calls its operator as op(tile_offset, local) for index tile_offset + local. The items
// of a tile are reached from the tile's start with an int `local`, whose arithmetic cannot wrap:
// the compiler then sees that a thread's items are distinct and issues all of their loads before
// the first store (with an unsigned 32-bit index it could not, and each item would wait for the
// previous one's store).

//! Whether R is a proxy reference with a fancy address: a class returned by value whose `&r` has
//! `.get()` giving a raw pointer (Thrust's device_reference, whose address is a device_ptr).
template <typename R, typename = void>
inline constexpr bool is_proxy_reference_v = false;
template <typename R>
inline constexpr bool is_proxy_reference_v<R, ::cuda::std::void_t<decltype(*(&::cuda::std::declval<R&>()).get())>> =
    !::cuda::std::is_reference_v<
        R> && ::cuda::std::is_class_v<R> && ::cuda::std::is_pointer_v<decltype((&::cuda::std::declval<R&>()).get())>;

//! The item a dereferenced iterator names: a proxy reference is unwrapped to the raw reference of
//! its item (as CUB unwraps with Thrust's raw_reference_cast), so that an operator taking `T&`
//! accepts it; anything else passes through.
template <typename R>
STRATA_DEVICE STRATA_FORCEINLINE decltype(auto) RawReference(R&& reference)
{
  if constexpr (is_proxy_reference_v<R>)
  {
    return *(&reference).get();
  }
  else
  {
    return static_cast<R&&>(reference);
  }
}

//! ForEach: the operator gets a reference to the item.
template <typename IteratorT, typename OpT>
struct ApplyToItem
{
  IteratorT first;
  OpT op;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local)
  {
    op(RawReference((first + tile_offset)[local]));
  }
};

//! ForEachCopy without vectors: the operator gets a copy of the item.
template <typename IteratorT, typename OpT>
struct ApplyToCopy
{
  IteratorT first;
  OpT op;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local)
  {
    using T = typename ::cuda::std::iterator_traits<IteratorT>::value_type;
    op(static_cast<T>((first + tile_offset)[local]));
  }
};

//! Bulk: the operator gets the index as the shape's type (the kernel counts in an unsigned offset
//! type, so that shapes of 8- and 16-bit types work too).
template <typename ShapeT, typename OpT>
struct ApplyToIndex
{
  OpT op;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local)
  {
    op(static_cast<ShapeT>(tile_offset + OffsetT(local)));
  }
};

//! ForEachInExtents: the operator gets the linear index i (as the promoted index type) and the
//! coordinates of i in ExtentsT, the last extent varying fastest (row-major, as
//! cuda::std::layout_right). Static extents divide by constants.
template <typename ExtentsT, typename OpT>
struct ApplyToCoordinates
{
  using index_type  = typename ExtentsT::index_type;
  using linear_type = decltype(+index_type{});

  ExtentsT extents;
  OpT op;

  template <::cuda::std::size_t R, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE OffsetT Extent() const
  {
    if constexpr (ExtentsT::static_extent(R) != ::cuda::std::dynamic_extent)
    {
      return static_cast<OffsetT>(ExtentsT::static_extent(R));
    }
    else
    {
      return static_cast<OffsetT>(extents.extent(R));
    }
  }

  template <typename OffsetT, ::cuda::std::size_t... R>
  STRATA_DEVICE STRATA_FORCEINLINE void Apply(OffsetT i, ::cuda::std::index_sequence<R...>)
  {
    constexpr ::cuda::std::size_t RANK = sizeof...(R);
    index_type coordinates[RANK];
    OffsetT rest = i;
    // Peel the coordinates off from the last extent to the first (a comma fold runs in order).
    ((coordinates[RANK - 1 - R] = static_cast<index_type>(rest % Extent<RANK - 1 - R, OffsetT>()),
      rest /= Extent<RANK - 1 - R, OffsetT>()),
     ...);
    op(static_cast<linear_type>(i), coordinates[R]...);
  }

  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local)
  {
    const OffsetT i = tile_offset + OffsetT(local);
    if constexpr (ExtentsT::rank() == 0)
    {
      op(static_cast<linear_type>(i));
    }
    else
    {
      Apply(i, ::cuda::std::make_index_sequence<ExtentsT::rank()>{});
    }
  }
};
} // namespace for_each
} // namespace detail

//! One thread block's tile of a DeviceFor call: op(tile_offset, local) for the indices
//! tile_offset + local of the tile, each thread taking ITEMS_PER_THREAD indices a block apart
//! (local = j * BLOCK_THREADS + thread), so that neighbouring threads touch neighbouring items.
template <typename PolicyT, typename OffsetT, typename OpT>
struct AgentFor
{
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  using TileIoT                      = detail::tile::TileIo<BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD>;
  static constexpr int TILE_ITEMS    = TileIoT::TILE_ITEMS;

  OpT op;

  //! The tile at `tile_offset` with `tile_items` indices.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_offset, int tile_items)
  {
    const int tid = int(threadIdx.x);
    if (tile_items == TILE_ITEMS)
    {
#pragma unroll
      for (int i = 0; i < PolicyT::ITEMS_PER_THREAD; ++i)
      {
        op(tile_offset, TileIoT::ItemIndex(tid, i));
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < PolicyT::ITEMS_PER_THREAD; ++i)
      {
        const int index = TileIoT::ItemIndex(tid, i);
        if (index < tile_items)
        {
          op(tile_offset, index);
        }
      }
    }
  }
};

//! One thread block's tile of ForEachCopy over 16-byte-aligned items: VECTORS_PER_THREAD 16-byte
//! vectors per thread, all loaded before the operator sees their items (so that every load of
//! the thread is in flight at once).
template <typename PolicyT, typename OffsetT, typename T, typename OpT>
struct AgentForCopyVectors
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int VECTOR_ITEMS     = detail::tile::items_per_vector_v<T>;
  static constexpr int ITEMS_PER_THREAD = PolicyT::VECTORS_PER_THREAD * VECTOR_ITEMS;
  using TileIoT                         = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VECTOR_ITEMS>;
  static constexpr int TILE_ITEMS       = TileIoT::TILE_ITEMS;

  const T* first; // 16-byte aligned
  OpT op;

  //! The tile of `tile_items` items at `tile_offset` (a multiple of TILE_ITEMS).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_offset, int tile_items)
  {
    const int tid = int(threadIdx.x);
    if (tile_items == TILE_ITEMS)
    {
      T items[ITEMS_PER_THREAD];
      TileIoT::template LoadFull<LOAD_LDG>(first + tile_offset, tid, true, items);
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        op(items[k]);
      }
    }
    else
    {
      for (int index = tid; index < tile_items; index += BLOCK_THREADS)
      {
        op(T((first + tile_offset)[index]));
      }
    }
  }

  //! The `head_items` (< VECTOR_ITEMS) items just before `first`, where the input starts short of
  //! a 16-byte boundary: one per thread.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeHead(int head_items)
  {
    const int tid = int(threadIdx.x);
    if (tid < head_items)
    {
      op(T(first[tid - head_items]));
    }
  }
};

STRATA_NAMESPACE_END

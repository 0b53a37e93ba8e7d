// strata/tile/tile_vector.cuh: the vectors of up to 16 bytes that tiles move items in, and which
// iterators and alignments allow them.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! The widest access one thread makes: 16 bytes.
inline constexpr int max_vector_bytes = 16;

//! Items of T in one 16-byte vector, or 1 for items that do not pack evenly into one.
template <typename T>
inline constexpr int items_per_vector_v = (sizeof(T) <= max_vector_bytes && max_vector_bytes % sizeof(T) == 0)
                                              ? int(max_vector_bytes / sizeof(T))
                                              : 1;

//! ITEMS consecutive items of T, aligned as one access of their size.
template <typename T, int ITEMS>
struct alignas(sizeof(T) * ITEMS) VectorOf
{
  T items[ITEMS];
};

//! Whether IteratorT can move as 16-byte vectors: a pointer (not to volatile) to trivially
//! copyable items that pack evenly into them.
template <typename IteratorT>
constexpr bool PacksIntoVectors()
{
  if constexpr (::cuda::std::is_pointer_v<IteratorT>)
  {
    using T = it_value_t<IteratorT>;
    if constexpr (
        !::cuda::std::is_void_v<
            T> && !::cuda::std::is_volatile_v<::cuda::std::remove_pointer_t<IteratorT>> && ::cuda::std::is_trivially_copyable_v<T>)
    {
      return sizeof(T) <= max_vector_bytes && max_vector_bytes % sizeof(T) == 0;
    }
  }
  return false;
}

//! Items of a 16-byte vector behind IteratorT where it packs into them, else 1.
template <typename IteratorT>
constexpr int PointerVectorItems()
{
  if constexpr (PacksIntoVectors<IteratorT>())
  {
    return items_per_vector_v<it_value_t<IteratorT>>;
  }
  return 1;
}

//! The items of one vector access that every one of IteratorTs allows, at most MAX_ITEMS, halved
//! until it divides ITEMS_PER_THREAD (1: no vectors).
template <int ITEMS_PER_THREAD, int MAX_ITEMS, typename... IteratorTs>
constexpr int VectorItems()
{
  int items = MAX_ITEMS;
  ((items = PointerVectorItems<IteratorTs>() < items ? PointerVectorItems<IteratorTs>() : items), ...);
  while (items > 1 && ITEMS_PER_THREAD % items != 0)
  {
    items /= 2;
  }
  return items;
}

//! Whether `ptr` is aligned to ALIGN_BYTES.
template <int ALIGN_BYTES, typename T>
STRATA_HOST_DEVICE STRATA_FORCEINLINE bool IsAligned(T* ptr)
{
  return reinterpret_cast<::cuda::std::uintptr_t>(ptr) % ALIGN_BYTES == 0;
}

//! The bytes from `ptr` to the next ALIGN_BYTES boundary (0 where `ptr` is on one): the head that
//! goes item by item before the vectors.
template <int ALIGN_BYTES, typename T>
STRATA_HOST_DEVICE STRATA_FORCEINLINE int AlignmentHeadBytes(T* ptr)
{
  return int((ALIGN_BYTES - reinterpret_cast<::cuda::std::uintptr_t>(ptr) % ALIGN_BYTES) % ALIGN_BYTES);
}
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

// strata/device/device_for.cuh: DeviceFor, device-wide loops: an operator applied to every
// index of a shape (Bulk) or of a multi-dimensional index space (ForEachInExtents), or to every
// item of a sequence (ForEach, ForEachN, ForEachCopy, ForEachCopyN).
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>
#include <strata/util_debug.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/limits>
#include <cuda/std/mdspan>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace for_each
{
//! Whether ForEachCopy over IteratorT may read 16-byte vectors: a pointer (not to volatile) to
//! trivially copyable, default-constructible items that pack evenly into them.
template <typename IteratorT>
inline constexpr bool copy_vectorizable_v = tile::PointerVectorItems<IteratorT>() > 1
                                            && ::cuda::std::is_default_constructible_v<it_value_t<IteratorT>>;

template <typename IteratorT, typename NumItemsT, typename OpT>
STRATA_RUNTIME_FUNCTION cudaError_t ForEachN(IteratorT first, NumItemsT num_items, OpT op, cudaStream_t stream)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative, or last is before first");
  }
  if (num_items > NumItemsT(0) && IsNullPointer(first))
  {
    return STRATA_INVALID_ARGUMENT("first is null");
  }
  using OffsetT = offset_t<NumItemsT>;
  using WrapT   = ApplyToItem<IteratorT, OpT>;
  return DispatchFor<OffsetT, WrapT>::Dispatch(static_cast<OffsetT>(num_items), WrapT{first, op}, stream);
}

template <typename IteratorT, typename NumItemsT, typename OpT>
STRATA_RUNTIME_FUNCTION cudaError_t ForEachCopyN(IteratorT first, NumItemsT num_items, OpT op, cudaStream_t stream)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative, or last is before first");
  }
  if (num_items > NumItemsT(0) && IsNullPointer(first))
  {
    return STRATA_INVALID_ARGUMENT("first is null");
  }
  using OffsetT       = offset_t<NumItemsT>;
  const OffsetT count = static_cast<OffsetT>(num_items);
  if constexpr (copy_vectorizable_v<IteratorT>)
  {
    // The items before the first 16-byte boundary (if the input starts at a whole item) go one
    // per thread, the rest as vectors.
    using T            = it_value_t<IteratorT>;
    const auto address = reinterpret_cast<::cuda::std::uintptr_t>(first);
    if (address % sizeof(T) == 0)
    {
      const int head_items = static_cast<int>((16 - address % 16) % 16 / sizeof(T));
      if (count > OffsetT(head_items))
      {
        return DispatchFor<OffsetT, OpT, true, T>::Dispatch(count - OffsetT(head_items), op, stream, first + head_items,
                                                            head_items);
      }
    }
  }
  using WrapT = ApplyToCopy<IteratorT, OpT>;
  return DispatchFor<OffsetT, WrapT>::Dispatch(count, WrapT{first, op}, stream);
}

//! The number of indices of `extents`; false if an extent is negative or the linear index does
//! not fit the promoted index type.
template <typename ExtentsT>
STRATA_HOST_DEVICE bool ExtentsSize(const ExtentsT& extents, ::cuda::std::uint64_t& size)
{
  using linear_type = typename ApplyToCoordinates<ExtentsT, int>::linear_type;
  size              = 1;
  if constexpr (ExtentsT::rank() > 0)
  {
    constexpr auto limit = static_cast<::cuda::std::uint64_t>(::cuda::std::numeric_limits<linear_type>::max());
    for (typename ExtentsT::rank_type r = 0; r < ExtentsT::rank(); ++r)
    {
      if (!IsValidCount(extents.extent(r)))
      {
        return false;
      }
      if (extents.extent(r) == 0)
      {
        size = 0;
        return true;
      }
    }
    for (typename ExtentsT::rank_type r = 0; r < ExtentsT::rank(); ++r)
    {
      const auto extent = static_cast<::cuda::std::uint64_t>(extents.extent(r));
      if (size > limit / extent)
      {
        return false;
      }
      size *= extent;
    }
  }
  return true;
}
} // namespace for_each

//! The number of indices of `extents` in the unsigned index type (CUB's `detail::size`, which its
//! ForEachInExtents documentation uses; unchecked: the product wraps where it does not fit).
template <typename IndexType, ::cuda::std::size_t... Extents>
STRATA_HOST_DEVICE constexpr ::cuda::std::make_unsigned_t<IndexType>
size(const ::cuda::std::extents<IndexType, Extents...>& extents)
{
  ::cuda::std::make_unsigned_t<IndexType> product = 1;
  if constexpr (sizeof...(Extents) > 0)
  {
    for (::cuda::std::size_t r = 0; r < sizeof...(Extents); ++r)
    {
      product *= static_cast<::cuda::std::make_unsigned_t<IndexType>>(extents.extent(r));
    }
  }
  return product;
}
} // namespace detail

//! Device-wide loops. Each call is one launch on `stream` (none for no items), applies the
//! operator in no particular order and returns without waiting for it. The operator's return
//! value, if any, is ignored. Item counts and shapes may be any integral type: 64-bit ones index
//! more than 2^32 items. Returns cudaErrorInvalidValue for a negative count, shape or extent, or
//! a null pointer with items.
//!
//! The forms with temporary storage follow CUB's two-phase convention, though they need none:
//! the size query (`d_temp_storage == nullptr`) writes 1 to `temp_storage_bytes` and does
//! nothing else; the second call, as CUB's, accepts any `temp_storage_bytes` (0 too).
//!
//! \code
//! // square every item in place
//! strata::DeviceFor::ForEachN(d_data, n, [] __device__ (float& x) { x *= x; });
//! \endcode
struct DeviceFor
{
  //! op(i) for every i in [0, shape), i of type ShapeT (an integral type).
  //!
  //! \code
  //! strata::DeviceFor::Bulk(n, [d_out] __device__ (int i) { d_out[i] = i * i; }, stream);
  //! \endcode
  template <typename ShapeT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Bulk(ShapeT shape, OpT op, cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::Bulk");
    static_assert(::cuda::std::is_integral_v<ShapeT>, "Bulk needs an integral shape");
    if (!detail::IsValidCount(shape))
    {
      return STRATA_INVALID_ARGUMENT("shape is negative");
    }
    using OffsetT = detail::offset_t<ShapeT>;
    using WrapT   = detail::for_each::ApplyToIndex<ShapeT, OpT>;
    return DispatchFor<OffsetT, WrapT>::Dispatch(static_cast<OffsetT>(shape), WrapT{op}, stream);
  }

  //! Bulk with CUB's temporary-storage arguments (see DeviceFor).
  template <typename ShapeT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Bulk(void* d_temp_storage, size_t& temp_storage_bytes, ShapeT shape,
                                                  OpT op, cudaStream_t stream = {})
  {
    static_assert(::cuda::std::is_integral_v<ShapeT>, "Bulk needs an integral shape");
    detail::for_each::QueryNoTemporaryStorage(d_temp_storage, temp_storage_bytes);
    if (d_temp_storage == nullptr)
    {
      return cudaSuccess;
    }
    return Bulk(shape, op, stream);
  }

  //! op(first[i]) for every i in [0, num_items): op gets a reference to the item and may modify it.
  //!
  //! \code
  //! strata::DeviceFor::ForEachN(d_data, n, [] __device__ (int& x) { x += 1; }, stream);
  //! \endcode
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachN(RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                      cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEachN");
    return detail::for_each::ForEachN(first, num_items, op, stream);
  }

  //! ForEachN with CUB's temporary-storage arguments (see DeviceFor).
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachN(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                      cudaStream_t stream = {})
  {
    detail::for_each::QueryNoTemporaryStorage(d_temp_storage, temp_storage_bytes);
    if (d_temp_storage == nullptr)
    {
      return cudaSuccess;
    }
    return ForEachN(first, num_items, op, stream);
  }

  //! op(*it) for every it in [first, last): op gets a reference to the item and may modify it.
  //!
  //! \code
  //! strata::DeviceFor::ForEach(d_data, d_data + n, [] __device__ (int& x) { x += 1; }, stream);
  //! \endcode
  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEach(RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                                                     cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEach");
    return detail::for_each::ForEachN(first, last - first, op, stream);
  }

  //! ForEach with CUB's temporary-storage arguments (see DeviceFor).
  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEach(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                                                     cudaStream_t stream = {})
  {
    detail::for_each::QueryNoTemporaryStorage(d_temp_storage, temp_storage_bytes);
    if (d_temp_storage == nullptr)
    {
      return cudaSuccess;
    }
    return ForEach(first, last, op, stream);
  }

  //! op(first[i]) for every i in [0, num_items), op getting a copy of the item (so the items may
  //! be read ahead): a pointer to items of 1, 2, 4 or 8 bytes is read as 16-byte vectors from its
  //! first 16-byte boundary on.
  //!
  //! \code
  //! // count the odd items
  //! strata::DeviceFor::ForEachCopyN(d_data, n, [d_count] __device__ (int x) {
  //!   if (x % 2) { atomicAdd(d_count, 1); } }, stream);
  //! \endcode
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopyN(RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                          cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEachCopyN");
    return detail::for_each::ForEachCopyN(first, num_items, op, stream);
  }

  //! ForEachCopyN with CUB's temporary-storage arguments (see DeviceFor).
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopyN(void* d_temp_storage, size_t& temp_storage_bytes,
                                                          RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                          cudaStream_t stream = {})
  {
    detail::for_each::QueryNoTemporaryStorage(d_temp_storage, temp_storage_bytes);
    if (d_temp_storage == nullptr)
    {
      return cudaSuccess;
    }
    return ForEachCopyN(first, num_items, op, stream);
  }

  //! op(*it) for every it in [first, last), op getting a copy of the item (see ForEachCopyN).
  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopy(RandomAccessIteratorT first, RandomAccessIteratorT last,
                                                         OpT op, cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEachCopy");
    return detail::for_each::ForEachCopyN(first, last - first, op, stream);
  }

  //! ForEachCopy with CUB's temporary-storage arguments (see DeviceFor).
  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopy(void* d_temp_storage, size_t& temp_storage_bytes,
                                                         RandomAccessIteratorT first, RandomAccessIteratorT last,
                                                         OpT op, cudaStream_t stream = {})
  {
    detail::for_each::QueryNoTemporaryStorage(d_temp_storage, temp_storage_bytes);
    if (d_temp_storage == nullptr)
    {
      return cudaSuccess;
    }
    return ForEachCopy(first, last, op, stream);
  }

  //! op(i, c_0, ..., c_{r-1}) for every index of the r-dimensional `extents`: i the linear index
  //! (the index type, promoted) and c_0 ... c_{r-1} its coordinates (the index type), the last
  //! one varying fastest (row-major, as cuda::std::layout_right). An index space whose linear
  //! index does not fit the promoted index type gives cudaErrorInvalidValue.
  //!
  //! \code
  //! cuda::std::dextents<int, 2> extents(rows, cols);
  //! strata::DeviceFor::ForEachInExtents(extents, [d_m, cols] __device__ (int i, int row, int col) {
  //!   d_m[row * cols + col] = row + col; }, stream);
  //! \endcode
  template <typename IndexType, ::cuda::std::size_t... Extents, typename OpType>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ForEachInExtents(const ::cuda::std::extents<IndexType, Extents...>& extents, OpType op, cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEachInExtents");
    using ExtentsT             = ::cuda::std::extents<IndexType, Extents...>;
    using WrapT                = detail::for_each::ApplyToCoordinates<ExtentsT, OpType>;
    using OffsetT              = detail::offset_t<typename WrapT::linear_type>;
    ::cuda::std::uint64_t size = 0;
    if (!detail::for_each::ExtentsSize(extents, size))
    {
      return STRATA_INVALID_ARGUMENT("an extent is negative, or the extents' size overflows the promoted index type");
    }
    return DispatchFor<OffsetT, WrapT>::Dispatch(static_cast<OffsetT>(size), WrapT{extents, op}, stream);
  }

  //! ForEachInExtents with CUB's temporary-storage arguments (see DeviceFor).
  template <typename IndexType, ::cuda::std::size_t... Extents, typename OpType>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ForEachInExtents(void* d_temp_storage, size_t& temp_storage_bytes,
                   const ::cuda::std::extents<IndexType, Extents...>& extents, OpType op, cudaStream_t stream = {})
  {
    detail::for_each::QueryNoTemporaryStorage(d_temp_storage, temp_storage_bytes);
    if (d_temp_storage == nullptr)
    {
      return cudaSuccess;
    }
    return ForEachInExtents(extents, op, stream);
  }
};

STRATA_NAMESPACE_END

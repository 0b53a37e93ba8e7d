// strata/device/device_for.cuh: DeviceFor, device-wide loops: an operator applied to every
// index of a shape (Bulk) or to every item of a sequence (ForEach, ForEachN, ForEachCopy,
// ForEachCopyN).
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace for_each
{
template <typename IteratorT>
using value_t = typename ::cuda::std::iterator_traits<IteratorT>::value_type;

//! Whether ForEachCopy over IteratorT may read 16-byte vectors: a pointer to trivially copyable
//! items that pack evenly into them.
template <typename IteratorT>
inline constexpr bool copy_vectorizable_v =
    ::cuda::std::is_pointer_v<IteratorT> && ::cuda::std::is_trivially_copyable_v<value_t<IteratorT>>
    && vector_items<value_t<IteratorT>> > 1;

template <typename IteratorT, typename NumItemsT, typename OpT>
STRATA_RUNTIME_FUNCTION cudaError_t ForEachN(IteratorT first, NumItemsT num_items, OpT op, cudaStream_t stream)
{
  if (!IsValidCount(num_items) || (num_items > NumItemsT(0) && IsNullPointer(first)))
  {
    return cudaErrorInvalidValue;
  }
  using OffsetT = offset_t<NumItemsT>;
  using WrapT   = ApplyToItem<IteratorT, OpT>;
  return DispatchFor<OffsetT, WrapT>::Dispatch(static_cast<OffsetT>(num_items), WrapT{first, op}, stream);
}

template <typename IteratorT, typename NumItemsT, typename OpT>
STRATA_RUNTIME_FUNCTION cudaError_t ForEachCopyN(IteratorT first, NumItemsT num_items, OpT op, cudaStream_t stream)
{
  if (!IsValidCount(num_items) || (num_items > NumItemsT(0) && IsNullPointer(first)))
  {
    return cudaErrorInvalidValue;
  }
  using OffsetT = offset_t<NumItemsT>;
  if constexpr (copy_vectorizable_v<IteratorT>)
  {
    using T = value_t<IteratorT>;
    if (reinterpret_cast<::cuda::std::uintptr_t>(first) % 16 == 0)
    {
      return DispatchFor<OffsetT, OpT, true, T>::Dispatch(static_cast<OffsetT>(num_items), op, stream, first);
    }
  }
  using WrapT = ApplyToCopy<IteratorT, OpT>;
  return DispatchFor<OffsetT, WrapT>::Dispatch(static_cast<OffsetT>(num_items), WrapT{first, op}, stream);
}
} // namespace for_each
} // namespace detail

//! Device-wide loops, each one launch (none for no items) on `stream`, in no particular order of
//! the indices or items. The forms with temporary storage exist for CUB's two-phase convention
//! (they need none: the size query reports one byte). Returns cudaErrorInvalidValue for a
//! negative count or shape, or a null pointer with items.
//!
//! \code
//! // square every item in place
//! strata::DeviceFor::ForEachN(d_data, n, [] __device__ (float& x) { x *= x; });
//! \endcode
struct DeviceFor
{
  //! op(i) for every i in [0, shape) (ShapeT an integer type).
  template <typename ShapeT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Bulk(ShapeT shape, OpT op, cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::Bulk");
    static_assert(::cuda::std::is_integral_v<ShapeT>, "Bulk needs an integral shape");
    if (!detail::IsValidCount(shape))
    {
      return cudaErrorInvalidValue;
    }
    return DispatchFor<ShapeT, OpT>::Dispatch(shape, op, stream);
  }

  template <typename ShapeT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Bulk(void* d_temp_storage, size_t& temp_storage_bytes, ShapeT shape,
                                                  OpT op, cudaStream_t stream = {})
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Bulk(shape, op, stream);
  }

  //! op(first[i]) for every i in [0, num_items); op gets a reference and may modify the item.
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachN(RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                      cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEachN");
    return detail::for_each::ForEachN(first, num_items, op, stream);
  }

  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachN(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                      cudaStream_t stream = {})
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return ForEachN(first, num_items, op, stream);
  }

  //! op(*it) for every it in [first, last); op gets a reference and may modify the item.
  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEach(RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                                                     cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEach");
    return detail::for_each::ForEachN(first, last - first, op, stream);
  }

  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEach(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                                                     cudaStream_t stream = {})
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return ForEach(first, last, op, stream);
  }

  //! op(first[i]) for every i in [0, num_items), op getting a copy: contiguous, 16-byte-aligned
  //! input is read as 16-byte vectors.
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopyN(RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                          cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEachCopyN");
    return detail::for_each::ForEachCopyN(first, num_items, op, stream);
  }

  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopyN(void* d_temp_storage, size_t& temp_storage_bytes,
                                                          RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                                          cudaStream_t stream = {})
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return ForEachCopyN(first, num_items, op, stream);
  }

  //! op(*it) for every it in [first, last), op getting a copy (see ForEachCopyN).
  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopy(RandomAccessIteratorT first, RandomAccessIteratorT last,
                                                         OpT op, cudaStream_t stream = {})
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFor::ForEachCopy");
    return detail::for_each::ForEachCopyN(first, last - first, op, stream);
  }

  template <typename RandomAccessIteratorT, typename OpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ForEachCopy(void* d_temp_storage, size_t& temp_storage_bytes,
                                                         RandomAccessIteratorT first, RandomAccessIteratorT last,
                                                         OpT op, cudaStream_t stream = {})
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return ForEachCopy(first, last, op, stream);
  }
};

STRATA_NAMESPACE_END

// strata/detail/device_arguments.cuh: what every device call checks of its arguments, and the
// offset type its item count selects.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! Whether an iterator is a null pointer (iterators that are not pointers never are).
template <typename IteratorT>
STRATA_HOST_DEVICE bool IsNullPointer(const IteratorT& it)
{
  if constexpr (::cuda::std::is_pointer_v<IteratorT>)
  {
    return it == nullptr;
  }
  else
  {
    return false;
  }
}

//! Whether an item count is usable (not negative).
template <typename NumItemsT>
STRATA_HOST_DEVICE bool IsValidCount(NumItemsT num_items)
{
  if constexpr (::cuda::std::is_signed_v<NumItemsT>)
  {
    return num_items >= 0;
  }
  else
  {
    return true;
  }
}

//! The unsigned offset type of a device call with a `NumItemsT` count: 32 bits where they
//! suffice, 64 for 64-bit counts (more than 2^32 items then work).
template <typename NumItemsT>
using offset_t = ::cuda::std::conditional_t<(sizeof(NumItemsT) <= 4), ::cuda::std::uint32_t, ::cuda::std::uint64_t>;
} // namespace detail
STRATA_NAMESPACE_END

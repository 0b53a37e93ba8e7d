// strata/iterator/counting_input_iterator.cuh: CountingInputIterator, the sequence val, val + 1,
// val + 2, ...
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! A random-access input iterator that yields `val + i` at offset i, with no memory behind it.
//! Usable and dereferenceable on the host and the device. The arithmetic is ValueT's: offsets
//! are converted to ValueT and added, so a 64-bit ValueT and OffsetT count past 2^31, and an
//! unsigned ValueT wraps around.
//!
//! \code
//! strata::CountingInputIterator<int> itr(5);
//! // itr[0] == 5, itr[1] == 6, itr[50] == 55
//! \endcode
//!
//! \tparam ValueT   the value type (an integer or floating-point type)
//! \tparam OffsetT  the difference_type
template <typename ValueT, typename OffsetT = ::cuda::std::ptrdiff_t>
class CountingInputIterator : public detail::IteratorFacade<CountingInputIterator<ValueT, OffsetT>, OffsetT>
{
public:
  using self_type         = CountingInputIterator;
  using difference_type   = OffsetT;
  using value_type        = ValueT;
  using pointer           = ValueT*;
  using reference         = ValueT;
  using iterator_category = detail::random_access_iterator_tag;

  CountingInputIterator() = default;
  //! An iterator whose first item is `val`.
  STRATA_HOST_DEVICE CountingInputIterator(const ValueT& val)
      : val_(val)
  {
  }

  STRATA_HOST_DEVICE reference operator*() const
  {
    return val_;
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE reference operator[](DistanceT n) const
  {
    return static_cast<ValueT>(val_ + static_cast<ValueT>(n));
  }
  //! Points to the current value, which the iterator holds.
  STRATA_HOST_DEVICE pointer operator->()
  {
    return &val_;
  }
  STRATA_HOST_DEVICE const ValueT* operator->() const
  {
    return &val_;
  }

#if !defined(__CUDACC_RTC__)
  //! Prints the current value, e.g. `[5]` (`?` for a value without operator<<).
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type& it)
  {
    os << "[";
    detail::PrintValue(os, it.val_);
    return os << "]";
  }
#endif

private:
  friend class detail::IteratorFacade<CountingInputIterator, OffsetT>;

  STRATA_HOST_DEVICE void Advance(difference_type n)
  {
    val_ = static_cast<ValueT>(val_ + static_cast<ValueT>(n));
  }
  STRATA_HOST_DEVICE difference_type DistanceFrom(const self_type& origin) const
  {
    if constexpr (::cuda::std::is_integral_v<ValueT>)
    {
      // An unsigned difference that wrapped is a negative distance: read it as signed, so
      // that CountingInputIterator<unsigned>(3) - CountingInputIterator<unsigned>(5) == -2.
      return static_cast<difference_type>(static_cast<::cuda::std::make_signed_t<ValueT>>(val_ - origin.val_));
    }
    else
    {
      return static_cast<difference_type>(val_ - origin.val_);
    }
  }
  STRATA_HOST_DEVICE bool Equals(const self_type& other) const
  {
    return val_ == other.val_;
  }

  ValueT val_{};
};

STRATA_NAMESPACE_END

// strata/iterator/constant_input_iterator.cuh: ConstantInputIterator, a sequence whose every item
// is one value.
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>

#include <cuda/std/cstddef>

STRATA_NAMESPACE_BEGIN

//! A random-access input iterator that yields `val` at every offset, with no memory behind it.
//! Usable and dereferenceable on the host and the device. It still keeps a position, so that
//! distances and comparisons between two such iterators mean what they do for a pointer.
//!
//! \code
//! strata::ConstantInputIterator<double> itr(5.0);
//! // itr[0] == 5.0, itr[1] == 5.0, itr[50] == 5.0
//! \endcode
//!
//! \tparam ValueT   the value type
//! \tparam OffsetT  the difference_type
template <typename ValueT, typename OffsetT = ::cuda::std::ptrdiff_t>
class ConstantInputIterator : public detail::IteratorFacade<ConstantInputIterator<ValueT, OffsetT>, OffsetT>
{
public:
  using self_type         = ConstantInputIterator;
  using difference_type   = OffsetT;
  using value_type        = ValueT;
  using pointer           = ValueT*;
  using reference         = ValueT;
  using iterator_category = detail::random_access_iterator_tag;

  ConstantInputIterator() = default;
  //! An iterator yielding `val`, at position `offset`.
  STRATA_HOST_DEVICE ConstantInputIterator(ValueT val, OffsetT offset = 0)
      : val_(val)
      , offset_(offset)
  {
  }

  STRATA_HOST_DEVICE reference operator*() const
  {
    return val_;
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE reference operator[](DistanceT) const
  {
    return val_;
  }
  //! Points to the iterator's own copy of the value.
  STRATA_HOST_DEVICE pointer operator->()
  {
    return &val_;
  }
  STRATA_HOST_DEVICE const ValueT* operator->() const
  {
    return &val_;
  }

#if !defined(__CUDACC_RTC__)
  //! Prints the value and the position, e.g. `[5,3]` (`?` for a value without operator<<).
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type& it)
  {
    os << "[";
    detail::PrintValue(os, it.val_);
    return os << "," << it.offset_ << "]";
  }
#endif

private:
  friend class detail::IteratorFacade<ConstantInputIterator, OffsetT>;

  STRATA_HOST_DEVICE void Advance(difference_type n)
  {
    offset_ += n;
  }
  STRATA_HOST_DEVICE difference_type DistanceFrom(const self_type& origin) const
  {
    return offset_ - origin.offset_;
  }
  STRATA_HOST_DEVICE bool Equals(const self_type& other) const
  {
    return offset_ == other.offset_ && val_ == other.val_;
  }

  ValueT val_{};
  OffsetT offset_{0};
};

STRATA_NAMESPACE_END

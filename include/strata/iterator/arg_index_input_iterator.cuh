// strata/iterator/arg_index_input_iterator.cuh: ArgIndexInputIterator, which pairs each value of
// a wrapped input iterator with its offset (the input of ArgMin / ArgMax).
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstddef>

STRATA_NAMESPACE_BEGIN

//! A random-access input iterator whose item at offset i is the KeyValuePair `{i, itr[i]}`:
//! the key counts items from where the iterator was constructed (plus the constructor's
//! `offset`), the value is the wrapped iterator's item there, converted to OutputValueT.
//!
//! Usable on the host and the device; dereference it where the wrapped iterator can be
//! dereferenced. normalize() moves the wrapped iterator to the current position and restarts
//! the keys at 0 there (algorithms do this when they hand one tile to a block).
//!
//! \code
//! // d_in: [8.0, 6.0, 7.0, 5.0]
//! strata::ArgIndexInputIterator<const double*> itr(d_in);
//! // in device code:
//! auto pair = itr[3]; // pair.key == 3, pair.value == 5.0
//! \endcode
//!
//! \tparam InputIteratorT  the wrapped random-access input iterator
//! \tparam OffsetT         the key type, and this iterator's difference_type
//! \tparam OutputValueT    the value type of the pairs (default: InputIteratorT's value type)
template <typename InputIteratorT, typename OffsetT = ::cuda::std::ptrdiff_t,
          typename OutputValueT = detail::it_value_t<InputIteratorT>>
class ArgIndexInputIterator
    : public detail::IteratorFacade<ArgIndexInputIterator<InputIteratorT, OffsetT, OutputValueT>, OffsetT>
{
public:
  using self_type         = ArgIndexInputIterator;
  using difference_type   = OffsetT;
  using value_type        = KeyValuePair<difference_type, OutputValueT>;
  using pointer           = value_type*;
  using reference         = value_type;
  using iterator_category = detail::random_access_iterator_tag;

  ArgIndexInputIterator() = default;
  //! An iterator at `offset` items from `itr`, whose key there is `offset`.
  STRATA_HOST_DEVICE ArgIndexInputIterator(InputIteratorT itr, difference_type offset = 0)
      : itr_(itr)
      , offset_(offset)
  {
  }

  STRATA_HOST_DEVICE reference operator*() const
  {
    return value_type(offset_, itr_[offset_]);
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE reference operator[](DistanceT n) const
  {
    const difference_type offset = offset_ + static_cast<difference_type>(n);
    return value_type(offset, itr_[offset]);
  }
  //! `it->key` and `it->value` read a copy of `*it` that lives to the end of the expression.
  STRATA_HOST_DEVICE detail::ArrowProxy<value_type> operator->() const
  {
    return {**this};
  }

  //! Moves the wrapped iterator to the current position and makes the current key 0.
  STRATA_HOST_DEVICE void normalize()
  {
    itr_ += offset_;
    offset_ = 0;
  }

#if !defined(__CUDACC_RTC__)
  //! Prints the current key, e.g. `[5]` (the wrapped iterator need not be printable).
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type& it)
  {
    return os << "[" << it.offset_ << "]";
  }
#endif

private:
  friend class detail::IteratorFacade<ArgIndexInputIterator, OffsetT>;

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
    return itr_ == other.itr_ && offset_ == other.offset_;
  }

  InputIteratorT itr_{};
  difference_type offset_{0};
};

STRATA_NAMESPACE_END

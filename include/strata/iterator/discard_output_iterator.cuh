// strata/iterator/discard_output_iterator.cuh: DiscardOutputIterator, an output that drops
// whatever is written to it.
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>

#include <cuda/std/cstddef>

STRATA_NAMESPACE_BEGIN

//! A random-access output iterator that ignores every value assigned through it, for outputs
//! an algorithm must write but the caller does not need (e.g. the keys of a reduce-by-key).
//! Usable on the host and the device. It keeps a position, so distances and comparisons work
//! as for a pointer. value_type, pointer and reference are void (an output iterator); code
//! that needs a value type for it uses strata::detail::non_void_value_t.
//!
//! \code
//! strata::DiscardOutputIterator<> out;
//! out[7] = 3.5; // no effect
//! \endcode
//!
//! \tparam OffsetT  the difference_type
template <typename OffsetT = ::cuda::std::ptrdiff_t>
class DiscardOutputIterator : public detail::IteratorFacade<DiscardOutputIterator<OffsetT>, OffsetT>
{
public:
  using self_type         = DiscardOutputIterator;
  using difference_type   = OffsetT;
  using value_type        = void;
  using pointer           = void;
  using reference         = void;
  using iterator_category = detail::random_access_iterator_tag;

  //! An iterator at position `offset`.
  STRATA_HOST_DEVICE DiscardOutputIterator(OffsetT offset = 0)
      : offset_(offset)
  {
  }

  //! The iterator itself stands for the item: assigning any value to it does nothing.
  STRATA_HOST_DEVICE self_type& operator*()
  {
    return *this;
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE self_type& operator[](DistanceT)
  {
    return *this;
  }
  //! Drops `value`. (Assigning another DiscardOutputIterator copies it as usual instead.)
  template <typename T>
  STRATA_HOST_DEVICE void operator=(const T&)
  {
  }

#if !defined(__CUDACC_RTC__)
  //! Prints the position, e.g. `[5]`.
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type& it)
  {
    return os << "[" << it.offset_ << "]";
  }
#endif

private:
  friend class detail::IteratorFacade<DiscardOutputIterator, OffsetT>;

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
    return offset_ == other.offset_;
  }

  OffsetT offset_;
};

STRATA_NAMESPACE_END

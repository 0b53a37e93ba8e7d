// strata/iterator/cache_modified_input_iterator.cuh: CacheModifiedInputIterator, a pointer whose
// reads use a PTX cache operator (ThreadLoad<MODIFIER>).
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>
#include <strata/thread/thread_load.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! A random-access input iterator over device memory that reads each item with
//! `ThreadLoad<MODIFIER>` (e.g. LOAD_LDG through the read-only cache, LOAD_CS for data read
//! once). It can be made, moved and compared on the host and the device, and dereferenced in
//! device code only. `ptr` is the wrapped pointer at the current position.
//!
//! \code
//! // d_in: [8.0, 6.0, 7.0]
//! strata::CacheModifiedInputIterator<strata::LOAD_LDG, double> itr(d_in);
//! // in device code:
//! double x = itr[2]; // 7.0, read with ld.global.nc
//! \endcode
//!
//! \tparam MODIFIER  the cache operator of every read
//! \tparam ValueT    the value type
//! \tparam OffsetT   the difference_type
template <CacheLoadModifier MODIFIER, typename ValueT, typename OffsetT = ::cuda::std::ptrdiff_t>
class CacheModifiedInputIterator
    : public detail::IteratorFacade<CacheModifiedInputIterator<MODIFIER, ValueT, OffsetT>, OffsetT>
{
public:
  using self_type         = CacheModifiedInputIterator;
  using difference_type   = OffsetT;
  using value_type        = ValueT;
  using pointer           = ValueT*;
  using reference         = ValueT;
  using iterator_category = detail::random_access_iterator_tag;

  //! The current position.
  ValueT* ptr = nullptr;

  CacheModifiedInputIterator() = default;
  //! Wraps `ptr` (const and volatile qualifiers are dropped: the iterator only reads).
  template <typename QualifiedValueT>
  STRATA_HOST_DEVICE CacheModifiedInputIterator(QualifiedValueT* ptr)
      : ptr(const_cast<::cuda::std::remove_cv_t<QualifiedValueT>*>(ptr))
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE reference operator*() const
  {
    return ThreadLoad<MODIFIER>(ptr);
  }
  template <typename DistanceT>
  STRATA_DEVICE STRATA_FORCEINLINE reference operator[](DistanceT n) const
  {
    return ThreadLoad<MODIFIER>(ptr + static_cast<difference_type>(n));
  }
  //! `it->member` reads the whole item once, with MODIFIER, into a copy that lives to the end
  //! of the expression.
  STRATA_DEVICE STRATA_FORCEINLINE detail::ArrowProxy<value_type> operator->() const
  {
    return {ThreadLoad<MODIFIER>(ptr)};
  }

#if !defined(__CUDACC_RTC__)
  //! Prints the current position, e.g. `[0x7f0000000200]`.
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type& it)
  {
    return os << "[" << static_cast<const void*>(it.ptr) << "]";
  }
#endif

private:
  friend class detail::IteratorFacade<CacheModifiedInputIterator, OffsetT>;

  STRATA_HOST_DEVICE void Advance(difference_type n)
  {
    ptr += n;
  }
  STRATA_HOST_DEVICE difference_type DistanceFrom(const self_type& origin) const
  {
    return static_cast<difference_type>(ptr - origin.ptr);
  }
  STRATA_HOST_DEVICE bool Equals(const self_type& other) const
  {
    return ptr == other.ptr;
  }
};

STRATA_NAMESPACE_END

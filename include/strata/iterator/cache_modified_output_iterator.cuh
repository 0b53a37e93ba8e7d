// strata/iterator/cache_modified_output_iterator.cuh: CacheModifiedOutputIterator, a pointer
// whose writes use a PTX cache operator (ThreadStore<MODIFIER>).
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>
#include <strata/thread/thread_store.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! A random-access output iterator over device memory that writes each item with
//! `ThreadStore<MODIFIER>` (e.g. STORE_CS for results nobody reads soon). It can be made, moved
//! and compared on the host and the device; `*it = x` and `it[i] = x` store in device code
//! only. Dereferencing yields a proxy (`reference`) whose assignment performs the store, so
//! value_type and pointer are void, as for any output iterator.
//!
//! \code
//! strata::CacheModifiedOutputIterator<strata::STORE_CS, double> itr(d_out);
//! // in device code:
//! itr[0] = 8.0; // st.global.cs.f64
//! \endcode
//!
//! \tparam MODIFIER  the cache operator of every write
//! \tparam ValueT    the type of the items stored
//! \tparam OffsetT   the difference_type
template <CacheStoreModifier MODIFIER, typename ValueT, typename OffsetT = ::cuda::std::ptrdiff_t>
class CacheModifiedOutputIterator
    : public detail::IteratorFacade<CacheModifiedOutputIterator<MODIFIER, ValueT, OffsetT>, OffsetT>
{
  //! One item of the output: assigning a value to it stores the value there.
  class Reference
  {
  public:
    STRATA_HOST_DEVICE explicit Reference(ValueT* ptr)
        : ptr_(ptr)
    {
    }
    //! Stores `val` with MODIFIER and returns it.
    STRATA_DEVICE STRATA_FORCEINLINE ValueT operator=(ValueT val) const
    {
      ThreadStore<MODIFIER>(ptr_, val);
      return val;
    }

  private:
    ValueT* ptr_;
  };

public:
  using self_type         = CacheModifiedOutputIterator;
  using difference_type   = OffsetT;
  using value_type        = void;
  using pointer           = void;
  using reference         = Reference;
  using iterator_category = detail::random_access_iterator_tag;

  CacheModifiedOutputIterator() = default;
  //! Wraps `ptr` (a volatile qualifier is dropped: MODIFIER decides how the store is made).
  template <typename QualifiedValueT>
  STRATA_HOST_DEVICE CacheModifiedOutputIterator(QualifiedValueT* ptr)
      : ptr_(const_cast<::cuda::std::remove_cv_t<QualifiedValueT>*>(ptr))
  {
  }

  STRATA_HOST_DEVICE reference operator*() const
  {
    return Reference(ptr_);
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE reference operator[](DistanceT n) const
  {
    return Reference(ptr_ + static_cast<difference_type>(n));
  }

#if !defined(__CUDACC_RTC__)
  //! Prints the current position, e.g. `[0x7f0000000200]`.
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type& it)
  {
    return os << "[" << static_cast<const void*>(it.ptr_) << "]";
  }
#endif

private:
  friend class detail::IteratorFacade<CacheModifiedOutputIterator, OffsetT>;

  STRATA_HOST_DEVICE void Advance(difference_type n)
  {
    ptr_ += n;
  }
  STRATA_HOST_DEVICE difference_type DistanceFrom(const self_type& origin) const
  {
    return static_cast<difference_type>(ptr_ - origin.ptr_);
  }
  STRATA_HOST_DEVICE bool Equals(const self_type& other) const
  {
    return ptr_ == other.ptr_;
  }

  ValueT* ptr_ = nullptr;
};

STRATA_NAMESPACE_END

// strata/iterator/detail/iterator_facade.cuh: the position arithmetic and comparisons that
// every strata iterator shares (IteratorFacade), the proxy that operator-> of an iterator
// returning values by copy hands out (ArrowProxy), and printing of values (PrintValue).
#pragma once

#include <strata/config.cuh>

#include <cuda/std/type_traits>

// Under NVRTC (run-time compilation of device code) there is no host standard library: iterators
// take libcu++'s category tag and have no operator<<.
#if defined(__CUDACC_RTC__)
#  include <cuda/std/iterator>
#else
#  include <iosfwd>
#  include <iterator>
#endif

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The iterator_category of strata's iterators: the standard library's random-access tag, which
//! host algorithms (std::distance, Thrust) recognise, or libcu++'s under NVRTC.
#if defined(__CUDACC_RTC__)
using random_access_iterator_tag = ::cuda::std::random_access_iterator_tag;
#else
using random_access_iterator_tag = std::random_access_iterator_tag;
#endif

//! Gives an iterator class DerivedT the random-access operators from three members of its own,
//! so that each iterator states only what is particular to it:
//!
//! - `void Advance(DifferenceT n)`: moves by n items (n may be negative);
//! - `DifferenceT DistanceFrom(const DerivedT& origin) const`: how many items `*this` lies
//!   after `origin` (both on one sequence);
//! - `bool Equals(const DerivedT& other) const`.
//!
//! These may be private when DerivedT befriends `IteratorFacade<DerivedT, DifferenceT>`.
//!
//! DerivedT defines dereference (`*`, `[]`, `->`) itself, because where that may run (host,
//! device or both) differs between iterators. The facade holds no data, so DerivedT stays as
//! small and as trivially copyable as its members.
template <typename DerivedT, typename DifferenceT>
class IteratorFacade
{
public:
  STRATA_HOST_DEVICE DerivedT& operator++()
  {
    Derived().Advance(DifferenceT(1));
    return Derived();
  }
  STRATA_HOST_DEVICE DerivedT operator++(int)
  {
    DerivedT old = Derived();
    Derived().Advance(DifferenceT(1));
    return old;
  }
  STRATA_HOST_DEVICE DerivedT& operator--()
  {
    Derived().Advance(DifferenceT(-1));
    return Derived();
  }
  STRATA_HOST_DEVICE DerivedT operator--(int)
  {
    DerivedT old = Derived();
    Derived().Advance(DifferenceT(-1));
    return old;
  }

  template <typename DistanceT>
  STRATA_HOST_DEVICE DerivedT& operator+=(DistanceT n)
  {
    Derived().Advance(static_cast<DifferenceT>(n));
    return Derived();
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE DerivedT& operator-=(DistanceT n)
  {
    Derived().Advance(static_cast<DifferenceT>(-static_cast<DifferenceT>(n)));
    return Derived();
  }

  // The binary operators are friends taking `const DerivedT&`, not members: a member's implicit
  // object argument would need a derived-to-base conversion, which makes `it - 3` ambiguous
  // with `it - DerivedT(3)` for iterators constructible from an integer.
  template <typename DistanceT>
  friend STRATA_HOST_DEVICE DerivedT operator+(const DerivedT& it, DistanceT n)
  {
    DerivedT moved = it;
    moved += n;
    return moved;
  }
  template <typename DistanceT>
  friend STRATA_HOST_DEVICE DerivedT operator-(const DerivedT& it, DistanceT n)
  {
    DerivedT moved = it;
    moved -= n;
    return moved;
  }
  friend STRATA_HOST_DEVICE DerivedT operator+(DifferenceT n, const DerivedT& it)
  {
    return it + n;
  }
  //! The number of items from `origin` to `it` (both on one sequence).
  friend STRATA_HOST_DEVICE DifferenceT operator-(const DerivedT& it, const DerivedT& origin)
  {
    return Distance(it, origin);
  }

  friend STRATA_HOST_DEVICE bool operator==(const DerivedT& a, const DerivedT& b)
  {
    return Equal(a, b);
  }
  friend STRATA_HOST_DEVICE bool operator!=(const DerivedT& a, const DerivedT& b)
  {
    return !Equal(a, b);
  }
  // Order is the sign of the distance, which an unsigned difference type cannot tell.
  friend STRATA_HOST_DEVICE bool operator<(const DerivedT& a, const DerivedT& b)
  {
    static_assert(::cuda::std::is_signed_v<DifferenceT>, "ordering iterators needs a signed OffsetT");
    return Distance(a, b) < DifferenceT(0);
  }
  friend STRATA_HOST_DEVICE bool operator>(const DerivedT& a, const DerivedT& b)
  {
    return b < a;
  }
  friend STRATA_HOST_DEVICE bool operator<=(const DerivedT& a, const DerivedT& b)
  {
    return !(b < a);
  }
  friend STRATA_HOST_DEVICE bool operator>=(const DerivedT& a, const DerivedT& b)
  {
    return !(a < b);
  }

private:
  // DerivedT befriends the facade, not the facade's friend operators: they reach DerivedT's
  // private members through these.
  STRATA_HOST_DEVICE static DifferenceT Distance(const DerivedT& it, const DerivedT& origin)
  {
    return it.DistanceFrom(origin);
  }
  STRATA_HOST_DEVICE static bool Equal(const DerivedT& a, const DerivedT& b)
  {
    return a.Equals(b);
  }
  STRATA_HOST_DEVICE DerivedT& Derived()
  {
    return static_cast<DerivedT&>(*this);
  }
  STRATA_HOST_DEVICE const DerivedT& Derived() const
  {
    return static_cast<const DerivedT&>(*this);
  }
};

//! What operator-> returns for an iterator whose operator* makes a value rather than referring
//! to one: the proxy keeps that value alive until the end of the full expression, so
//! `it->member` reads a live copy (a pointer to operator*'s temporary would dangle).
template <typename T>
struct ArrowProxy
{
  T value;

  STRATA_HOST_DEVICE T* operator->()
  {
    return &value;
  }
};

#if !defined(__CUDACC_RTC__)
template <typename OStreamT, typename T, typename = void>
inline constexpr bool is_printable_v = false;
template <typename OStreamT, typename T>
inline constexpr bool is_printable_v<
    OStreamT, T, ::cuda::std::void_t<decltype(::cuda::std::declval<OStreamT&>() << ::cuda::std::declval<const T&>())>> =
    true;

//! Writes `value`, or `?` for a type without an operator<< (e.g. __half): an iterator's
//! operator<< must compile for every value type, since test frameworks probe and call it. The
//! stream is a template parameter, so that only a program that prints needs <ostream>.
template <typename OStreamT, typename T>
OStreamT& PrintValue(OStreamT& os, const T& value)
{
  if constexpr (is_printable_v<OStreamT, T>)
  {
    return os << value;
  }
  else
  {
    return os << "?";
  }
}
#endif // !__CUDACC_RTC__
} // namespace detail

STRATA_NAMESPACE_END

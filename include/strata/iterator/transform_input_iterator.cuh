// strata/iterator/transform_input_iterator.cuh: TransformInputIterator, which applies a unary
// functor to each item of a wrapped input iterator.
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/detail/iterator_facade.cuh>

#include <cuda/std/cstddef>

STRATA_NAMESPACE_BEGIN

//! A random-access input iterator whose item at offset i is `conversion_op(input_itr[i])`,
//! converted to ValueT. Usable on the host and the device; dereference it where both the
//! wrapped iterator and the functor can run. The functor is called through a const object, so
//! its `operator()` must be const.
//!
//! \code
//! struct TripleAsDouble
//! {
//!   __host__ __device__ double operator()(int a) const { return 3.0 * a; }
//! };
//! // d_in: [8, 6, 7]
//! strata::TransformInputIterator<double, TripleAsDouble, const int*> itr(d_in, TripleAsDouble{});
//! // in device code:
//! double x = itr[1]; // 18.0
//! \endcode
//!
//! \tparam ValueT          the value type (what the functor's result is converted to)
//! \tparam ConversionOpT   the unary functor applied to each item
//! \tparam InputIteratorT  the wrapped random-access input iterator
//! \tparam OffsetT         the difference_type
template <typename ValueT, typename ConversionOpT, typename InputIteratorT, typename OffsetT = ::cuda::std::ptrdiff_t>
class TransformInputIterator
    : public detail::IteratorFacade<TransformInputIterator<ValueT, ConversionOpT, InputIteratorT, OffsetT>, OffsetT>
{
public:
  using self_type         = TransformInputIterator;
  using difference_type   = OffsetT;
  using value_type        = ValueT;
  using pointer           = ValueT*;
  using reference         = ValueT;
  using iterator_category = detail::random_access_iterator_tag;

  TransformInputIterator() = default;
  //! Applies `conversion_op` to the items of `input_itr`.
  STRATA_HOST_DEVICE TransformInputIterator(InputIteratorT input_itr, ConversionOpT conversion_op)
      : input_itr_(input_itr)
      , conversion_op_(conversion_op)
  {
  }

  STRATA_HOST_DEVICE reference operator*() const
  {
    return conversion_op_(*input_itr_);
  }
  template <typename DistanceT>
  STRATA_HOST_DEVICE reference operator[](DistanceT n) const
  {
    return conversion_op_(input_itr_[static_cast<difference_type>(n)]);
  }
  //! `it->member` reads a copy of `*it` that lives to the end of the expression.
  STRATA_HOST_DEVICE detail::ArrowProxy<value_type> operator->() const
  {
    return {**this};
  }

#if !defined(__CUDACC_RTC__)
  //! Prints nothing: neither the functor nor the wrapped iterator need be printable.
  template <typename CharT, typename Traits>
  friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, const self_type&)
  {
    return os;
  }
#endif

private:
  friend class detail::IteratorFacade<TransformInputIterator, OffsetT>;

  STRATA_HOST_DEVICE void Advance(difference_type n)
  {
    input_itr_ += n;
  }
  STRATA_HOST_DEVICE difference_type DistanceFrom(const self_type& origin) const
  {
    return static_cast<difference_type>(input_itr_ - origin.input_itr_);
  }
  STRATA_HOST_DEVICE bool Equals(const self_type& other) const
  {
    return input_itr_ == other.input_itr_;
  }

  InputIteratorT input_itr_{};
  ConversionOpT conversion_op_;
};

STRATA_NAMESPACE_END

// test/common/output_iterators.cuh: a random-access output iterator that is no pointer, for the
// device tests' "iterator output" cases: it stores op(x) where an algorithm assigns x; and the
// operators those cases transform inputs and outputs with.
#pragma once

#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/iterator>

namespace strata_test
{
//! Writes `op(x)` to `out[i]` where an algorithm assigns x to position i (as
//! thrust::transform_output_iterator does). Its value_type is void, as for any output iterator.
template <typename T, typename OpT>
class transform_output
{
public:
  //! What dereferencing gives: a write-only reference to one position.
  struct proxy
  {
    T* at;
    OpT op;
    template <typename U>
    __host__ __device__ const proxy& operator=(const U& x) const
    {
      *at = op(x);
      return *this;
    }
  };

  using value_type        = void;
  using difference_type   = ::cuda::std::ptrdiff_t;
  using pointer           = void;
  using reference         = proxy;
  using iterator_category = ::cuda::std::random_access_iterator_tag;

  __host__ __device__ transform_output(T* out, OpT op)
      : out_(out)
      , op_(op)
  {
  }

  __host__ __device__ proxy operator*() const
  {
    return proxy{out_, op_};
  }
  __host__ __device__ proxy operator[](difference_type i) const
  {
    return proxy{out_ + i, op_};
  }
  __host__ __device__ transform_output operator+(difference_type i) const
  {
    return transform_output(out_ + i, op_);
  }
  __host__ __device__ transform_output operator-(difference_type i) const
  {
    return transform_output(out_ - i, op_);
  }
  __host__ __device__ difference_type operator-(const transform_output& other) const
  {
    return out_ - other.out_;
  }
  __host__ __device__ transform_output& operator+=(difference_type i)
  {
    out_ += i;
    return *this;
  }
  __host__ __device__ transform_output& operator++()
  {
    ++out_;
    return *this;
  }
  __host__ __device__ transform_output operator++(int)
  {
    transform_output before = *this;
    ++out_;
    return before;
  }
  __host__ __device__ bool operator==(const transform_output& other) const
  {
    return out_ == other.out_;
  }
  __host__ __device__ bool operator!=(const transform_output& other) const
  {
    return out_ != other.out_;
  }

private:
  T* out_;
  OpT op_;
};

//! The iterator cases' operators: an input transform (x squared, widened) and an output one.
struct square
{
  __host__ __device__ ::cuda::std::int64_t operator()(::cuda::std::int32_t x) const
  {
    return ::cuda::std::int64_t(x) * x;
  }
};

//! 3 x + 1, wrapping.
struct three_x_plus_one
{
  __host__ __device__ ::cuda::std::int64_t operator()(::cuda::std::int64_t x) const
  {
    return static_cast<::cuda::std::int64_t>(3u * static_cast<::cuda::std::uint64_t>(x) + 1u);
  }
};
} // namespace strata_test

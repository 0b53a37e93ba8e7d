// test/common/reference.cuh: what the tests' independent host references share: values computed
// in double for floating-point types (reference_t), the left-to-right fold and scans that the
// collectives are defined by, and non-commutative operators (2x2 matrix product, composition of
// affine maps) under which any change of operand order shows in a result; and the byte keys of
// the sorts' more-than-2^31-keys tests with their check by counting.
#pragma once

#include "random.cuh"
#include "types.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! A 2x2 matrix of unsigned integers: its product (wrapping, so exact and associative) is not
//! commutative, so a scan over it reveals any change of operand order. Also has a sum, so the
//! WarpScan sum members work on it too.
struct mat2x2
{
  std::uint32_t a, b, c, d; // row-major

  friend __host__ __device__ constexpr bool operator==(const mat2x2& x, const mat2x2& y)
  {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }
  friend __host__ __device__ constexpr bool operator!=(const mat2x2& x, const mat2x2& y)
  {
    return !(x == y);
  }
  friend __host__ __device__ constexpr mat2x2 operator+(const mat2x2& x, const mat2x2& y)
  {
    return mat2x2{x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
  }
};

//! The matrix product x * y. Its call operator is deliberately not const: WarpScan must accept
//! such user functors, as CUB does.
struct mat2x2_product
{
  __host__ __device__ constexpr mat2x2 operator()(const mat2x2& x, const mat2x2& y)
  {
    return mat2x2{x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

//! An affine map x -> a * x + b over wrapping 32-bit unsigned integers. Composition (the left
//! map first, then the right one) is associative but not commutative, so a reduction over it
//! reveals any change of operand order. Also has a (member-wise) sum, so the Sum members work
//! on it too.
struct affine_map
{
  std::uint32_t a;
  std::uint32_t b;

  friend __host__ __device__ constexpr bool operator==(const affine_map& x, const affine_map& y)
  {
    return x.a == y.a && x.b == y.b;
  }
  friend __host__ __device__ constexpr bool operator!=(const affine_map& x, const affine_map& y)
  {
    return !(x == y);
  }
  friend __host__ __device__ constexpr affine_map operator+(const affine_map& x, const affine_map& y)
  {
    return affine_map{x.a + y.a, x.b + y.b};
  }
  friend std::ostream& operator<<(std::ostream& out, const affine_map& f)
  {
    return out << "{" << f.a << " x + " << f.b << "}";
  }
};

//! f then g: x -> g.a * (f.a * x + f.b) + g.b. Its call operator is deliberately not const:
//! WarpReduce must accept such user functors, as CUB does.
struct affine_compose
{
  __host__ __device__ constexpr affine_map operator()(const affine_map& f, const affine_map& g)
  {
    return affine_map{g.a * f.a, g.a * f.b + g.b};
  }
};

//! The host reference computes floating-point values in double, everything else in T.
template <typename T>
using reference_t = std::conditional_t<is_floating_v<T>, double, T>;

template <typename T>
reference_t<T> to_reference(const T& x)
{
  if constexpr (is_floating_v<T>)
  {
    return to_double(x);
  }
  else
  {
    return x;
  }
}

template <typename T>
T from_reference(const reference_t<T>& x)
{
  if constexpr (is_floating_v<T>)
  {
    return from_double<T>(x);
  }
  else
  {
    return x;
  }
}

//! x[first] op x[first + 1] op ... op x[last], left to right, in the reference type.
template <typename T, typename OpT>
T fold(const std::vector<T>& x, int first, int last, OpT op)
{
  reference_t<T> acc = to_reference(x[static_cast<std::size_t>(first)]);
  for (int i = first + 1; i <= last; ++i)
  {
    acc = static_cast<reference_t<T>>(op(acc, to_reference(x[static_cast<std::size_t>(i)])));
  }
  return from_reference<T>(acc);
}

//! The expected results of a scan of inputs x[0..n): the sequential left-to-right scans the
//! warp and block scans are defined by.
template <typename T, typename OpT>
struct scan_reference
{
  std::vector<T> inclusive;      //!< x0 op ... op xi
  std::vector<T> exclusive;      //!< x0 op ... op x(i-1); element 0 is undefined
  std::vector<T> inclusive_init; //!< init op x0 op ... op xi
  std::vector<T> exclusive_init; //!< init op x0 op ... op x(i-1); element 0 is init
  T aggregate;                   //!< x0 op ... op x(n-1)

  scan_reference(const std::vector<T>& x, const T& init, OpT op)
  {
    const std::size_t n         = x.size();
    reference_t<T> running      = to_reference(x[0]);
    reference_t<T> running_init = static_cast<reference_t<T>>(op(to_reference(init), to_reference(x[0])));
    inclusive.push_back(from_reference<T>(running));
    inclusive_init.push_back(from_reference<T>(running_init));
    exclusive.push_back(x[0]); // undefined: any value
    exclusive_init.push_back(init);
    for (std::size_t i = 1; i < n; ++i)
    {
      exclusive.push_back(from_reference<T>(running));
      exclusive_init.push_back(from_reference<T>(running_init));
      running      = static_cast<reference_t<T>>(op(running, to_reference(x[i])));
      running_init = static_cast<reference_t<T>>(op(running_init, to_reference(x[i])));
      inclusive.push_back(from_reference<T>(running));
      inclusive_init.push_back(from_reference<T>(running_init));
    }
    aggregate = from_reference<T>(running);
  }
};

//! n random affine maps or matrices, each from random 32-bit words over their whole range.
template <typename T>
std::vector<T> random_words_as(std::size_t n, std::uint64_t seed)
{
  static_assert(std::is_same_v<T, affine_map> || std::is_same_v<T, mat2x2>, "a type made of 32-bit words");
  constexpr std::size_t WORDS            = sizeof(T) / sizeof(std::uint32_t);
  const std::vector<std::uint32_t> words = random_vector<std::uint32_t>(WORDS * n, seed);
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    if constexpr (std::is_same_v<T, affine_map>)
    {
      values[i] = affine_map{words[2 * i], words[2 * i + 1]};
    }
    else
    {
      values[i] = mat2x2{words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3]};
    }
  }
  return values;
}

//! Inputs: unsigned integers, the custom types and matrices over their whole range (they wrap);
//! signed integers small enough that int32/int64 sums cannot overflow; floating point positive,
//! so that sums do not cancel and their rounding error stays relative (see sum_tolerance).
template <typename T>
std::vector<T> scan_inputs(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, mat2x2>)
  {
    return random_words_as<T>(n, seed);
  }
  else if constexpr (is_floating_v<T>)
  {
    return random_vector<T>(n, seed, 1.0, 100.0);
  }
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
  {
    return random_vector<T>(n, seed, -100.0, 100.0);
  }
  else
  {
    return random_vector<T>(n, seed);
  }
}
//! n random bytes from `seed`, eight at a time (fast enough for the 2^31 keys of the large sorts).
inline std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed)
{
  std::vector<std::uint8_t> bytes(n);
  std::mt19937_64 engine(seed);
  for (std::size_t i = 0; i < n; i += 8)
  {
    const std::uint64_t word = engine();
    std::memcpy(bytes.data() + i, &word, n - i < 8 ? n - i : 8);
  }
  return bytes;
}

//! How many keys of each value `keys` holds.
inline std::vector<std::size_t> byte_counts(const std::vector<std::uint8_t>& keys)
{
  std::vector<std::size_t> counts(256, 0);
  for (std::uint8_t key : keys)
  {
    ++counts[key];
  }
  return counts;
}

//! How many of `sorted` differ from the ascending order of keys with these `counts` (the
//! reference of a sort of byte keys, without sorting billions of them on the host); sizes that
//! disagree count as a difference too.
inline std::size_t sorted_bytes_mismatches(const std::vector<std::size_t>& counts,
                                           const std::vector<std::uint8_t>& sorted)
{
  std::size_t at    = 0;
  std::size_t wrong = 0;
  std::size_t total = 0;
  for (std::size_t key = 0; key < counts.size(); ++key)
  {
    total += counts[key];
    for (std::size_t i = 0; i < counts[key] && at < sorted.size(); ++i, ++at)
    {
      wrong += sorted[at] != key;
    }
  }
  return wrong + (total == sorted.size() ? 0 : 1);
}

} // namespace strata_test

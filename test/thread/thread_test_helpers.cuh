// test/thread/thread_test_helpers.cuh: what the reduce and scan tests share: the lengths they
// run, an operator that pins down evaluation order, and their inputs.
#pragma once

#include "common/test_common.cuh"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata_test
{
using thread_test_lengths = std::integer_sequence<int, 1, 2, 3, 7, 16>;

//! Calls f(std::integral_constant<int, N>{}) for each N of the sequence.
template <typename F, int... N>
void for_each_length(std::integer_sequence<int, N...>, F&& f)
{
  (f(std::integral_constant<int, N>{}), ...);
}

//! Neither commutative nor associative, so every result pins down the evaluation order exactly
//! (unsigned wrap-around and exact halving keep it well defined and identical on host and device).
struct ordered_op
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t acc, std::uint32_t x) const
  {
    return acc * 3u + x;
  }
  __host__ __device__ float operator()(float acc, float x) const
  {
    return acc * 0.5f + x;
  }
};

//! Test inputs: small signed values (sums stay far from overflow), whole-range unsigned ones.
template <typename T>
std::vector<T> thread_test_inputs(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
  {
    return random_vector<T>(n, seed);
  }
  else
  {
    return random_vector<T>(n, seed, -100.0, 100.0);
  }
}
} // namespace strata_test

// test/common/random.cuh: seeded random values of every test type (never all zeros).
#pragma once

#include "harness.cuh"
#include "types.cuh"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! Random values of T from a seed: integers over their whole range (or [lo, hi]), floating
//! point uniform in [lo, hi] (default [-100, 100]; the 16-bit types round to nearest).
template <typename T>
class generator
{
public:
  explicit generator(std::uint64_t seed)
      : engine_(seed)
  {
  }

  T operator()()
  {
    if constexpr (std::is_same_v<T, custom_t>)
    {
      return custom_t{next_int<std::int32_t>(), next_int<std::int32_t>(), next_int<std::int32_t>()};
    }
    else if constexpr (std::is_integral_v<T>)
    {
      return next_int<T>();
    }
    else
    {
      return (*this)(-100.0, 100.0);
    }
  }

  //! A value in [lo, hi] (for floating point; integers: the integers in it).
  T operator()(double lo, double hi)
  {
    if constexpr (std::is_integral_v<T>)
    {
      using wide_t = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
      std::uniform_int_distribution<wide_t> dist(static_cast<wide_t>(lo), static_cast<wide_t>(hi));
      return static_cast<T>(dist(engine_));
    }
    else if constexpr (std::is_same_v<T, custom_t>)
    {
      generator<std::int32_t> members(engine_());
      return custom_t{members(lo, hi), members(lo, hi), members(lo, hi)};
    }
    else
    {
      std::uniform_real_distribution<double> dist(lo, hi);
      return from_double<T>(dist(engine_));
    }
  }

  std::mt19937_64& engine()
  {
    return engine_;
  }

private:
  template <typename I>
  I next_int()
  {
    using wide_t = std::conditional_t<std::is_signed_v<I>, std::int64_t, std::uint64_t>;
    std::uniform_int_distribution<wide_t> dist(std::numeric_limits<I>::lowest(), std::numeric_limits<I>::max());
    return static_cast<I>(dist(engine_));
  }

  std::mt19937_64 engine_;
};

//! `n` random values of T from `seed`.
template <typename T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed)
{
  generator<T> gen(seed);
  std::vector<T> values(n);
  for (auto& v : values)
  {
    v = gen();
  }
  return values;
}

//! `n` random values of T in [lo, hi] from `seed`.
template <typename T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed, double lo, double hi)
{
  generator<T> gen(seed);
  std::vector<T> values(n);
  for (auto& v : values)
  {
    v = gen(lo, hi);
  }
  return values;
}
} // namespace strata_test

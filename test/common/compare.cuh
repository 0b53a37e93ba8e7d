// test/common/compare.cuh: whole-output comparison against a host reference: exact for integers
// and custom types, within a relative tolerance for floating point; failures list the first
// mismatches and the seed.
#pragma once

#include "harness.cuh"
#include "types.cuh"

#include <catch2/catch_get_random_seed.hpp>
#include <catch2/catch_tostring.hpp>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <vector>

namespace strata_test
{
//! Whether `actual` matches `expected`: bitwise-equal values (NaN included) always do; floating
//! point also within |a - e| <= rel_tol * max(|a|, |e|, 1).
template <typename T>
bool matches(const T& expected, const T& actual, double rel_tol)
{
  if constexpr (is_floating_v<T>)
  {
    const double e = to_double(expected);
    const double a = to_double(actual);
    if (std::isnan(e) || std::isnan(a))
    {
      return std::isnan(e) && std::isnan(a);
    }
    if (e == a)
    {
      return true;
    }
    return std::abs(a - e) <= rel_tol * std::fmax(std::fmax(std::abs(a), std::abs(e)), 1.0);
  }
  else
  {
    static_cast<void>(rel_tol);
    return expected == actual;
  }
}

//! CHECKs every element of `actual` against `expected` and reports the first few mismatches.
template <typename T>
void check_equal(const std::vector<T>& expected, const std::vector<T>& actual, double rel_tol = 0.0)
{
  REQUIRE(expected.size() == actual.size());
  std::size_t mismatches = 0;
  std::ostringstream report;
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    if (!matches(expected[i], actual[i], rel_tol))
    {
      if (mismatches < 8)
      {
        report << "  [" << i << "] expected " << Catch::Detail::stringify(expected[i]) << ", got "
               << Catch::Detail::stringify(actual[i]) << "\n";
      }
      ++mismatches;
    }
  }
  INFO(mismatches << " of " << expected.size() << " elements differ (relative tolerance " << rel_tol
                  << "; rerun with --rng-seed " << Catch::getSeed() << "):\n"
                  << report.str());
  CHECK(mismatches == 0);
}

//! `a < b` on host and device: the order the sort tests pass to strata's sorts.
struct less_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a < b;
  }
};
} // namespace strata_test

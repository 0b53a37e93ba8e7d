// Tests of strata/device/device_reduce.cuh, part 4: Min, Max, ArgMin and ArgMax (both forms) of
// every integer type, against an exact host reference (integers compared as integers, never
// through double). Each input holds the type's extremes and neighbours of them at planted
// positions, and repeats them: max() - 1 and max() of the 64-bit types round to the same double,
// so a comparison through double would report the wrong value or index.
#include "common/test_common.cuh"
#include "device_extremum_checks.cuh"

#include <cstdint>
#include <limits>
#include <vector>

namespace
{
//! Random values of T over its whole range with, where n allows, max() - 1 before max() and
//! lowest() + 1 before lowest(), and a second max() and lowest() after the first ones.
template <typename T>
std::vector<T> planted_extremes(std::size_t n, std::uint64_t seed)
{
  std::vector<T> in = strata_test::random_vector<T>(n, seed);
  const T hi        = std::numeric_limits<T>::max();
  const T lo        = std::numeric_limits<T>::lowest();
  if (n >= 2)
  {
    in[n / 3]     = T(hi - 1);
    in[2 * n / 3] = hi;
  }
  if (n >= 8)
  {
    in[n / 4]     = T(lo + 1);
    in[3 * n / 4] = lo;
    in[n - 1]     = hi;
    in[n - 2]     = lo;
  }
  return in;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceReduce extrema of integers are exact and report the first index", "[device][reduce]",
                        strata_test::integral_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T = TestType;
  for (std::size_t n : strata_test::reduce_sizes(strata_test::reduce_max_items))
  {
    if (n == 0)
    {
      continue; // covered by the Min / Max tests
    }
    const std::uint64_t seed = strata_test::seed(301 + n);
    INFO("num_items " << n << ", seed " << seed);
    const std::vector<T> in = planted_extremes<T>(n, seed);
    std::size_t first_min   = 0;
    std::size_t first_max   = 0;
    for (std::size_t i = 1; i < n; ++i)
    {
      first_min = in[i] < in[first_min] ? i : first_min;
      first_max = in[first_max] < in[i] ? i : first_max;
    }
    const strata_test::device_buffer<T> d_in(in);
    const strata_test::extrema<T> r = strata_test::run_extrema(d_in.data(), n);
    // Integers: the initial values (max() for Min, lowest() for Max) never change the result.
    CHECK(r.min == in[first_min]);
    CHECK(r.max == in[first_max]);
    CHECK(r.arg_min.key == static_cast<int>(first_min));
    CHECK(r.arg_min.value == in[first_min]);
    CHECK(r.arg_max.key == static_cast<int>(first_max));
    CHECK(r.arg_max.value == in[first_max]);
    CHECK(r.split_min_index == static_cast<std::int64_t>(first_min));
    CHECK(r.split_min == in[first_min]);
    CHECK(r.split_max_index == static_cast<std::int64_t>(first_max));
    CHECK(r.split_max == in[first_max]);
  }
}

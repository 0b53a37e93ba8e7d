// Tests of strata/device/device_reduce.cuh, part 2: Min, Max, ArgMin and ArgMax (the
// KeyValuePair form and CUB 3's form with separate value and index outputs), over integers,
// float, double and __half, at every size from 0 to 2^24 + 13. Inputs repeat their extremes, so
// the index reported must be the first of equal ones; empty inputs give CUB's values.
#include <strata/device/device_reduce.cuh>

#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <cstdint>
#include <limits>
#include <vector>

namespace
{
using strata_test::reduce_sizes;

template <typename T>
double as_double(T x)
{
  return strata_test::to_double(x);
}

//! Random values from a small range (so extremes repeat), as T.
template <typename T>
std::vector<T> repeating_values(std::uint64_t seed)
{
  return strata_test::random_vector<T>(strata_test::reduce_max_items, seed, -50.0, 50.0);
}

//! Index of the first minimum (or maximum) of in[0, n).
template <typename T>
std::size_t first_extremum(const std::vector<T>& in, std::size_t n, bool minimum)
{
  std::size_t best = 0;
  for (std::size_t i = 1; i < n; ++i)
  {
    const bool better = minimum ? as_double(in[i]) < as_double(in[best]) : as_double(in[i]) > as_double(in[best]);
    best              = better ? i : best;
  }
  return best;
}
using minmax_types = std::tuple<std::int8_t, std::int32_t, std::uint64_t, float, double, __half>;
using arg_types    = std::tuple<std::int32_t, float, double>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceReduce::Min and Max", "[device][reduce]", minmax_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(97);
  INFO("seed " << seed);
  const std::vector<T> in = strata_test::random_vector<T>(strata_test::reduce_max_items, seed);
  strata_test::device_buffer<T> d_in(in);
  for (std::size_t n : reduce_sizes(in.size()))
  {
    INFO("num_items " << n);
    const T min =
        strata_test::run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                                   { return strata::DeviceReduce::Min(d_temp, bytes, d_in.data(), d_out, n); });
    const T max = strata_test::run_reduce<T>(
        [&](void* d_temp, std::size_t& bytes, T* d_out)
        { return strata::DeviceReduce::Max(d_temp, bytes, d_in.data(), d_out, static_cast<std::int64_t>(n)); });
    // An empty input gives the initial values: the largest / lowest finite value of T.
    const T expected_min = n == 0 ? cuda::std::numeric_limits<T>::max() : in[first_extremum(in, n, true)];
    const T expected_max = n == 0 ? cuda::std::numeric_limits<T>::lowest() : in[first_extremum(in, n, false)];
    CHECK(as_double(min) == as_double(expected_min));
    CHECK(as_double(max) == as_double(expected_max));
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceReduce::ArgMin and ArgMax report the first extremum", "[device][reduce]", arg_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  using PairT              = strata::KeyValuePair<int, T>;
  const std::uint64_t seed = strata_test::seed(101);
  INFO("seed " << seed);
  const std::vector<T> in = repeating_values<T>(seed);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_value(1);
  strata_test::device_buffer<std::int64_t> d_index(1);
  for (std::size_t n : reduce_sizes(in.size()))
  {
    INFO("num_items " << n);
    for (bool minimum : {true, false})
    {
      INFO((minimum ? "ArgMin" : "ArgMax"));
      const PairT pair = strata_test::run_reduce<PairT>(
          [&](void* d_temp, std::size_t& bytes, PairT* d_out)
          {
            return minimum ? strata::DeviceReduce::ArgMin(d_temp, bytes, d_in.data(), d_out, static_cast<int>(n))
                           : strata::DeviceReduce::ArgMax(d_temp, bytes, d_in.data(), d_out, static_cast<int>(n));
          });
      // The split form: value and index into separate outputs (64-bit index).
      d_value.poison();
      d_index.poison();
      std::size_t bytes = 0;
      auto split        = [&](void* d_temp)
      {
        return minimum ? strata::DeviceReduce::ArgMin(d_temp, bytes, d_in.data(), d_value.data(), d_index.data(),
                                                      static_cast<std::int64_t>(n))
                       : strata::DeviceReduce::ArgMax(d_temp, bytes, d_in.data(), d_value.data(), d_index.data(),
                                                      static_cast<std::int64_t>(n));
      };
      STRATA_TEST_CUDA(split(nullptr));
      strata_test::device_buffer<unsigned char> d_temp(bytes);
      d_temp.poison();
      STRATA_TEST_CUDA(split(d_temp.data()));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());

      if (n == 0)
      {
        const T init = minimum ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
        CHECK(pair.key == 1);
        CHECK(pair.value == init);
        CHECK(d_index.download()[0] == 1);
        CHECK(d_value.download()[0] == init);
      }
      else
      {
        const std::size_t first = first_extremum(in, n, minimum);
        CHECK(pair.key == static_cast<int>(first));
        CHECK(pair.value == in[first]);
        CHECK(d_index.download()[0] == static_cast<std::int64_t>(first));
        CHECK(d_value.download()[0] == in[first]);
      }
    }
  }
}

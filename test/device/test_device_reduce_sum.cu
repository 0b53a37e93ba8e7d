// Tests of strata/device/device_reduce.cuh, part 1: Sum, Reduce (a custom struct with a custom
// operator, and a non-zero initial value) and TransformReduce, over the integer types (sums wrap
// as in the accumulator type CUB defines, then convert to the output), float, double, and __half
// (through TransformReduce into float), at sizes from 0 to 2^24 + 13 (every size is a run-time
// value, so each costs no compile time). Floating-point sums are checked within a relative
// tolerance stated below against a double-precision host sum of non-negative inputs.
#include <strata/device/device_reduce.cuh>

#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using strata_test::reduce_sizes;

//! Sum of `in` into OutputT, reduced on the device at every size, against `expected(prefix)`.
template <typename InputT, typename OutputT, typename ExpectedF>
void check_sum(const std::vector<InputT>& in, ExpectedF expected, double rel_tol)
{
  strata_test::device_buffer<InputT> d_in(in);
  for (std::size_t n : reduce_sizes(in.size()))
  {
    INFO("num_items " << n);
    const OutputT result = strata_test::run_reduce<OutputT>(
        [&](void* d_temp, std::size_t& bytes, OutputT* d_out)
        { return strata::DeviceReduce::Sum(d_temp, bytes, d_in.data(), d_out, static_cast<int>(n)); });
    strata_test::check_equal(std::vector<OutputT>{expected(n)}, std::vector<OutputT>{result}, rel_tol);
  }
}

template <typename T>
using wide_t = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;

struct custom_plus
{
  __host__ __device__ strata_test::custom_t operator()(const strata_test::custom_t& a,
                                                       const strata_test::custom_t& b) const
  {
    return a + b;
  }
};

struct half_to_float
{
  __device__ float operator()(__half x) const
  {
    return __half2float(x);
  }
};

struct square_to_wide
{
  __host__ __device__ std::int64_t operator()(std::int32_t x) const
  {
    return std::int64_t(x) * x;
  }
};
using float_types = std::tuple<float, double>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceReduce::Sum of integers wraps like CUB's accumulator", "[device][reduce]",
                        strata_test::integral_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(71);
  INFO("seed " << seed);
  const std::vector<T> in = strata_test::random_vector<T>(strata_test::reduce_max_items, seed);
  // The accumulator is the type of T + T (int at least); the result converts to T (modulo 2^bits).
  using AccumT = decltype(T{} + T{});
  std::vector<wide_t<T>> prefix(in.size() + 1, 0);
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    prefix[i + 1] = prefix[i] + static_cast<wide_t<T>>(in[i]);
  }
  check_sum<T, T>(
      in, [&](std::size_t n) { return static_cast<T>(static_cast<AccumT>(prefix[n])); }, 0.0);
}

TEMPLATE_LIST_TEST_CASE("DeviceReduce::Sum of floating point within a relative tolerance", "[device][reduce]",
                        float_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(73);
  INFO("seed " << seed);
  const std::vector<T> in = strata_test::random_vector<T>(strata_test::reduce_max_items, seed, 0.0, 1.0);
  std::vector<double> prefix(in.size() + 1, 0.0);
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    prefix[i + 1] = prefix[i] + double(in[i]);
  }
  // Tree sums of n non-negative values err by at most about log2(n) roundings.
  const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  check_sum<T, T>(
      in, [&](std::size_t n) { return T(prefix[n]); }, tolerance);
}

TEST_CASE("DeviceReduce::TransformReduce of __half summed in float", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(79);
  INFO("seed " << seed);
  const std::vector<__half> in = strata_test::random_vector<__half>(strata_test::reduce_max_items, seed, 0.0, 1.0);
  std::vector<double> prefix(in.size() + 1, 0.0);
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    prefix[i + 1] = prefix[i] + strata_test::to_double(in[i]);
  }
  strata_test::device_buffer<__half> d_in(in);
  for (std::size_t n : reduce_sizes(in.size()))
  {
    INFO("num_items " << n);
    const float result = strata_test::run_reduce<float>(
        [&](void* d_temp, std::size_t& bytes, float* d_out)
        {
          return strata::DeviceReduce::TransformReduce(d_temp, bytes, d_in.data(), d_out, n, cuda::std::plus<>{},
                                                       half_to_float{}, 0.0f);
        });
    strata_test::check_equal(std::vector<float>{float(prefix[n])}, std::vector<float>{result}, 1e-5);
  }
}

TEST_CASE("DeviceReduce::Reduce of a custom struct with a custom operator and an initial value", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  using strata_test::custom_t;
  const std::uint64_t seed = strata_test::seed(83);
  INFO("seed " << seed);
  const std::vector<custom_t> in = strata_test::random_vector<custom_t>(strata_test::reduce_max_items, seed);
  const custom_t init{1, -2, 3};
  std::vector<custom_t> prefix(in.size() + 1, init);
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    prefix[i + 1] = prefix[i] + in[i];
  }
  strata_test::device_buffer<custom_t> d_in(in);
  for (std::size_t n : reduce_sizes(in.size()))
  {
    INFO("num_items " << n);
    const custom_t result = strata_test::run_reduce<custom_t>(
        [&](void* d_temp, std::size_t& bytes, custom_t* d_out)
        {
          return strata::DeviceReduce::Reduce(d_temp, bytes, d_in.data(), d_out, static_cast<std::int64_t>(n),
                                              custom_plus{}, init);
        });
    CHECK(result == prefix[n]);
  }
}

TEST_CASE("DeviceReduce::TransformReduce: a sum of squares into 64 bits", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(89);
  INFO("seed " << seed);
  const std::vector<std::int32_t> in =
      strata_test::random_vector<std::int32_t>(strata_test::reduce_max_items, seed, -30000.0, 30000.0);
  std::vector<std::int64_t> prefix(in.size() + 1, 5);
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    prefix[i + 1] = prefix[i] + std::int64_t(in[i]) * in[i];
  }
  strata_test::device_buffer<std::int32_t> d_in(in);
  for (std::size_t n : reduce_sizes(in.size()))
  {
    INFO("num_items " << n);
    const std::int64_t result = strata_test::run_reduce<std::int64_t>(
        [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out)
        {
          return strata::DeviceReduce::TransformReduce(d_temp, bytes, d_in.data(), d_out, static_cast<std::size_t>(n),
                                                       cuda::std::plus<>{}, square_to_wide{}, std::int64_t(5));
        });
    CHECK(result == prefix[n]);
  }
}

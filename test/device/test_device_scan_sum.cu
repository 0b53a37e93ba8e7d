// Tests of strata/device/device_scan.cuh, part 1: ExclusiveSum and InclusiveSum over every
// integer type (exact, wrapping as CUB's accumulator does, then converted to the output type),
// float and double (within a relative tolerance stated below), out of place and in place, at
// sizes from 0 to 2^24 + 13. The largest size runs twice: a race in the look-back would show as
// a difference.
#include <strata/device/device_scan.cuh>

#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <cstdint>
#include <vector>

namespace
{
using strata_test::check_scan;
using strata_test::host_plus;
using strata_test::run_scan;
using strata_test::scan_sizes;

//! Exclusive and inclusive sums of `in` on the device at every size, against the references.
template <typename T, typename AccumT>
void check_sums(const std::vector<T>& in, const std::vector<T>& exclusive, const std::vector<T>& inclusive,
                double rel_tol)
{
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(in.size());
  for (std::size_t n : scan_sizes(strata_test::scan_tile_items<AccumT>(), in.size()))
  {
    INFO("num_items " << n);
    const int runs = n == in.size() ? 2 : 1;
    for (int run = 0; run < runs; ++run)
    {
      check_scan(
          exclusive,
          run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                   { return strata::DeviceScan::ExclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), int(n)); }),
          n, rel_tol);
      check_scan(inclusive,
                 run_scan(d_out,
                          [&](void* d_temp, std::size_t& bytes) {
                            return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in.data(), d_out.data(),
                                                                    std::int64_t(n));
                          }),
                 n, rel_tol);
    }
  }
}

} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceScan::ExclusiveSum and InclusiveSum of integers", "[device][scan]",
                        strata_test::integral_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  using AccumT             = decltype(T{} + T{}); // CUB's accumulator (the output is T: no widening)
  const std::uint64_t seed = strata_test::seed(201);
  INFO("seed " << seed);
  const std::vector<T> in = strata_test::random_vector<T>(strata_test::scan_max_items, seed);
  const AccumT zero{};
  const auto exclusive = strata_test::reference_scan<false, T, AccumT>(in, host_plus<AccumT>{}, &zero);
  const auto inclusive =
      strata_test::reference_scan<true, T, AccumT>(in, host_plus<AccumT>{}, static_cast<const AccumT*>(nullptr));
  check_sums<T, AccumT>(in, exclusive, inclusive, 0.0);
}

TEMPLATE_TEST_CASE("DeviceScan::ExclusiveSum and InclusiveSum of floating point within a relative tolerance",
                   "[device][scan]", float, double)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(203);
  INFO("seed " << seed);
  const std::vector<T> in = strata_test::random_vector<T>(strata_test::scan_max_items, seed, 0.0, 1.0);
  const double zero       = 0.0;
  const auto exclusive    = strata_test::reference_scan<false, T, double>(in, host_plus<double>{}, &zero);
  const auto inclusive =
      strata_test::reference_scan<true, T, double>(in, host_plus<double>{}, static_cast<const double*>(nullptr));
  // Sums of non-negative values: each prefix passes through one rounding per tile of the
  // look-back chain (2^24 / 4096 tiles) and about 20 within a tile.
  const double tolerance = std::is_same_v<T, float> ? 1e-3 : 1e-11;
  check_sums<T, T>(in, exclusive, inclusive, tolerance);
}

TEST_CASE("DeviceScan::ExclusiveSum and InclusiveSum in place", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(205);
  INFO("seed " << seed);
  const std::size_t n                 = 1000003;
  const std::vector<std::uint32_t> in = strata_test::random_vector<std::uint32_t>(n, seed);
  const std::uint32_t zero            = 0;
  const auto exclusive = strata_test::reference_scan<false, std::uint32_t>(in, host_plus<std::uint32_t>{}, &zero);
  const auto inclusive = strata_test::reference_scan<true, std::uint32_t>(in, host_plus<std::uint32_t>{},
                                                                          static_cast<const std::uint32_t*>(nullptr));
  strata_test::device_buffer<std::uint32_t> d_data(n);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(nullptr, bytes, d_data.data(), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();

  d_data.upload(in);
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(d_temp.data(), bytes, d_data.data(), n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  strata_test::check_equal(exclusive, d_data.download());

  d_data.upload(in);
  STRATA_TEST_CUDA(strata::DeviceScan::InclusiveSum(d_temp.data(), bytes, d_data.data(), n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  strata_test::check_equal(inclusive, d_data.download());
}

TEST_CASE("DeviceScan sums of narrow integers into a wider output accumulate in the output's type", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(207);
  INFO("seed " << seed);
  const std::size_t n                = 3000017;
  const std::vector<std::uint8_t> in = strata_test::random_vector<std::uint8_t>(n, seed);
  const std::uint64_t zero           = 0;
  const auto exclusive = strata_test::reference_scan<false, std::uint64_t>(in, host_plus<std::uint64_t>{}, &zero);
  const auto inclusive = strata_test::reference_scan<true, std::uint64_t>(in, host_plus<std::uint64_t>{},
                                                                          static_cast<const std::uint64_t*>(nullptr));
  strata_test::device_buffer<std::uint8_t> d_in(in);
  strata_test::device_buffer<std::uint64_t> d_out(n);
  check_scan(exclusive,
             run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                      { return strata::DeviceScan::ExclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), n); }),
             n);
  check_scan(inclusive,
             run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                      { return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), n); }),
             n);
}

// Tests of strata/device/device_radix_sort.cuh, part 2a: float and double keys (random bits:
// NaNs of both signs, infinities, -0.0 beside +0.0, denormals) with 4-byte values, every form,
// sizes 0 to 2^24 + 13, five key distributions and bit ranges.
#include <strata/device/device_radix_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_cases.cuh"

TEMPLATE_TEST_CASE("DeviceRadixSort sorts floating-point keys", "[device][sort]", float, double)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(311);
  INFO("seed " << seed);
  strata_test::run_radix_sort_cases<TestType>(seed);
}

TEMPLATE_TEST_CASE("DeviceRadixSort sorts 2^24 + 13 floating-point keys", "[device][sort][slow]", float, double)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(313);
  INFO("seed " << seed);
  strata_test::run_large_radix_sort_cases<TestType>(seed);
}

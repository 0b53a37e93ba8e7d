// Tests of strata/device/device_radix_sort.cuh, part 1b: integer keys of 32 and 64 bits with
// 4-byte values (their input positions, so stability is checked exactly), every form, sizes 0 to
// 2^24 + 13, five key distributions and bit ranges.
#include <strata/device/device_radix_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_cases.cuh"

#include <cstdint>

TEMPLATE_TEST_CASE("DeviceRadixSort sorts integer keys", "[device][sort]", std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(301);
  INFO("seed " << seed);
  strata_test::run_radix_sort_cases<TestType>(seed);
}

TEMPLATE_TEST_CASE("DeviceRadixSort sorts 2^24 + 13 integer keys", "[device][sort][slow]", std::int32_t, std::uint32_t,
                   std::int64_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(305);
  INFO("seed " << seed);
  strata_test::run_large_radix_sort_cases<TestType>(seed);
}

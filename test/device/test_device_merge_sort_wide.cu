// Tests of strata/device/device_merge_sort.cuh, part 2: SortKeysCopy and SortPairsCopy of 4- and
// 8-byte integer and floating-point keys (signed zeros and infinities among the floats) against a
// stable host sort, bit for bit, at every edge size of the tiles and at 2^24 + 13 pairs; and the
// same sorts with every merge pass taking its splits from the partition kernel (a policy hub's
// PARTITION_MIN_TILES).
#include "device_merge_sort_checks.cuh"

#include <cstdint>
#include <tuple>

using merge_sort_wide_types = std::tuple<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;

TEMPLATE_LIST_TEST_CASE("DeviceMergeSort sorts wide integer and floating-point keys and pairs stably", "[device][sort]",
                        merge_sort_wide_types)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(409);
  INFO("seed " << seed);
  strata_test::run_merge_sort_cases<TestType>(seed);
}

TEMPLATE_LIST_TEST_CASE("DeviceMergeSort sorts wide integer and floating-point keys and pairs through the "
                        "partition kernel",
                        "[device][sort]", merge_sort_wide_types)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(411);
  INFO("seed " << seed);
  strata_test::run_partition_merge_sort_cases<TestType>(seed);
}

// Tests of strata/device/device_merge_sort.cuh, part 1: SortKeysCopy and SortPairsCopy of 1- and
// 2-byte integer keys (cuda::std::less order) against a stable host sort, at every edge size of the
// tiles, on random, few-valued, sorted and reversed keys; and the same sorts with every merge pass
// taking its splits from the partition kernel (a policy hub's PARTITION_MIN_TILES).
#include "device_merge_sort_checks.cuh"

#include <cstdint>
#include <tuple>

using merge_sort_narrow_types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t>;

TEMPLATE_LIST_TEST_CASE("DeviceMergeSort sorts narrow integer keys and pairs stably", "[device][sort]",
                        merge_sort_narrow_types)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(401);
  INFO("seed " << seed);
  strata_test::run_merge_sort_cases<TestType>(seed);
}

TEMPLATE_LIST_TEST_CASE("DeviceMergeSort sorts narrow integer keys and pairs through the partition kernel",
                        "[device][sort]", merge_sort_narrow_types)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(403);
  INFO("seed " << seed);
  strata_test::run_partition_merge_sort_cases<TestType>(seed);
}

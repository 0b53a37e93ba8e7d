// Tests of strata/device/device_segmented_radix_sort.cuh and device_segmented_sort.cuh, part 2:
// keys with values (the values carry the items' input positions, so stability is checked
// exactly): 4-byte values with keys of 8, 16, 32 and 64 bits, float and double, 16-byte values
// with 32-bit and double keys; every class, name, order and form, on segments of every length bin
// of the engine and its edges, with gaps, backwards segments and misaligned buffers, power-law
// lengths, and bit ranges.
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>

#include "common/test_common.cuh"
#include "device_segmented_sort_checks.cuh"

#include <cstdint>

STRATA_SEGMENTED_SORT_TESTS("DeviceSegmentedRadixSort and DeviceSegmentedSort sort segments of pairs stably", 511,
                            std::uint32_t, std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double)

STRATA_SEGMENTED_SORT_TESTS("DeviceSegmentedRadixSort and DeviceSegmentedSort sort segments of pairs of 16-byte values",
                            513, strata_test::value16, std::uint32_t, double)

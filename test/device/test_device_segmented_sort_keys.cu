// Tests of strata/device/device_segmented_radix_sort.cuh and device_segmented_sort.cuh, part 1:
// keys only, every integer key type of 8 to 64 bits, float and double (NaNs of both signs,
// infinities, -0.0 beside +0.0, denormals), through every class, name, order and form, on
// segments of every length bin of the engine and its edges, with gaps, backwards segments and
// misaligned buffers, power-law lengths, and bit ranges; bit for bit against a stable host sort
// of each segment.
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>

#include "common/test_common.cuh"
#include "device_segmented_sort_checks.cuh"

#include <cstdint>

STRATA_SEGMENTED_SORT_TESTS("DeviceSegmentedRadixSort and DeviceSegmentedSort sort segments of keys", 501,
                            strata::NullType, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                            std::uint32_t, std::int64_t, std::uint64_t, float, double)

// Tests of strata/device/device_radix_sort.cuh, part 2a: float and double keys (random bits:
// NaNs of both signs, infinities, -0.0 beside +0.0, denormals) with 4-byte values, every form,
// sizes 0 to 2^24 + 13, five key distributions and bit ranges.
#include <strata/device/device_radix_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_cases.cuh"

STRATA_RADIX_SORT_KEY_TESTS("floating-point", 311, float, double)

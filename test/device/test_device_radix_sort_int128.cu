// Tests of strata/device/device_radix_sort.cuh, part 1c: 128-bit integer keys with 4-byte values
// (their input positions, so stability is checked exactly), every form, sizes 0 to 2^24 + 13,
// five key distributions and bit ranges.
#include <strata/device/device_radix_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_cases.cuh"

#include <cstdint>

STRATA_RADIX_SORT_KEY_TESTS("integer", 301, __int128, unsigned __int128)

// Tests of strata/device/device_radix_sort.cuh, part 1b: integer keys of 32 and 64 bits with
// 4-byte values (their input positions, so stability is checked exactly), every form, sizes 0 to
// 2^24 + 13, five key distributions and bit ranges.
#include <strata/device/device_radix_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_cases.cuh"

#include <cstdint>

STRATA_RADIX_SORT_KEY_TESTS("integer", 301, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t)

// Tests of strata/device/device_segmented_radix_sort.cuh and device_segmented_sort.cuh, part 4:
// the key types beyond the integers of 8 to 64 bits, float and double: __half, __nv_bfloat16,
// __nv_fp8_e4m3 and __nv_fp8_e5m2 (NaNs of both signs, infinities or e4m3's largest numbers,
// -0.0 beside +0.0 kept in input order, denormals), __int128 and unsigned __int128, and bool
// (bytes of 0 and 1 on the host); keys only, and pairs with 4-byte values (their input positions,
// so stability is checked exactly) for one type of each width. Each through every class, name,
// order and form, on segments of every length bin of the engine and its edges, with gaps,
// backwards segments and misaligned buffers, power-law lengths, and bit ranges; bit for bit
// against a stable host sort of each segment in CUB's radix order (the reference of
// DeviceRadixSort's tests).
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>

#include "common/test_common.cuh"
#include "device_segmented_sort_checks.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

STRATA_SEGMENTED_SORT_TESTS("DeviceSegmentedRadixSort and DeviceSegmentedSort sort segments of other keys", 515,
                            strata::NullType, __half, __nv_bfloat16, __nv_fp8_e4m3, __nv_fp8_e5m2, __int128,
                            unsigned __int128, bool)

STRATA_SEGMENTED_SORT_TESTS("DeviceSegmentedRadixSort and DeviceSegmentedSort sort segments of pairs of other keys",
                            517, std::uint32_t, __half, __nv_fp8_e4m3, __int128, bool)

// Tests of strata/block/block_scan.cuh with BLOCK_SCAN_RAKING and BLOCK_SCAN_RAKING_MEMOIZE:
// every BlockScan member (see block_scan_checks.cuh) over every block shape in {32, 80, 128,
// 256, 1024, 16x8, 8x4x2} and a 20-thread block, items per thread cycling through {1, 3, 4, 7,
// 11} and the types spread over the rows (with test_block_scan_warp_scans.cu, every type),
// several blocks of several tiles each. Scans use maximum or minimum, or the non-commutative
// matrix product, which pins the order in which the algorithm combines.
#include "block_scan_checks.cuh"

#include <cstdint>

namespace
{
using strata::BLOCK_SCAN_RAKING;
using strata::BLOCK_SCAN_RAKING_MEMOIZE;
using strata_test::custom_t;
using strata_test::mat2x2;
using strata_test::mat2x2_product;
using strata_test::scan_config;
using max_op = cuda::maximum<>;
using min_op = cuda::minimum<>;

// Rows: shapes in order, items per thread cycling; __nv_bfloat16 and __half sit on tiles small
// enough for exact sums (see exact_input_bound). The 20-thread block is a single warp that is not
// a power of two (its warp scan goes through shared memory). RAKING_MEMOIZE keeps its segments in
// registers in every block here but the 1024-thread one (whose 32-item segments it re-reads).
using r0 = scan_config<__nv_bfloat16, BLOCK_SCAN_RAKING, 32, 1, 1, 1, max_op>;
using r1 = scan_config<std::int8_t, BLOCK_SCAN_RAKING, 80, 1, 1, 3, min_op>;
using r2 = scan_config<mat2x2, BLOCK_SCAN_RAKING, 128, 1, 1, 4, mat2x2_product>;
using r3 = scan_config<std::uint16_t, BLOCK_SCAN_RAKING, 256, 1, 1, 7, max_op>;
using r4 = scan_config<std::int32_t, BLOCK_SCAN_RAKING, 1024, 1, 1, 11, min_op>;
using r5 = scan_config<__half, BLOCK_SCAN_RAKING, 16, 8, 1, 1, max_op>;
using r6 = scan_config<custom_t, BLOCK_SCAN_RAKING, 8, 4, 2, 3, max_op>;
using r7 = scan_config<mat2x2, BLOCK_SCAN_RAKING, 20, 1, 1, 7, mat2x2_product>;
using m0 = scan_config<mat2x2, BLOCK_SCAN_RAKING_MEMOIZE, 32, 1, 1, 4, mat2x2_product>;
using m1 = scan_config<float, BLOCK_SCAN_RAKING_MEMOIZE, 80, 1, 1, 7, max_op>;
using m2 = scan_config<std::uint64_t, BLOCK_SCAN_RAKING_MEMOIZE, 128, 1, 1, 11, min_op>;
using m3 = scan_config<std::int16_t, BLOCK_SCAN_RAKING_MEMOIZE, 256, 1, 1, 1, max_op>;
using m4 = scan_config<std::uint32_t, BLOCK_SCAN_RAKING_MEMOIZE, 1024, 1, 1, 3, max_op>;
using m5 = scan_config<std::int64_t, BLOCK_SCAN_RAKING_MEMOIZE, 16, 8, 1, 4, min_op>;
using m6 = scan_config<custom_t, BLOCK_SCAN_RAKING_MEMOIZE, 8, 4, 2, 7, min_op>;
using m7 = scan_config<mat2x2, BLOCK_SCAN_RAKING_MEMOIZE, 80, 1, 1, 1, mat2x2_product>;
} // namespace

TEMPLATE_TEST_CASE("BlockScan RAKING: every member over block shapes, item counts and types", "[block][scan]", r0, r1,
                   r2, r3, r4, r5, r6, r7)
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::check_every_member<TestType>(TestType::threads * 16 + TestType::items);
}

TEMPLATE_TEST_CASE("BlockScan RAKING_MEMOIZE: every member over block shapes, item counts and types", "[block][scan]",
                   m0, m1, m2, m3, m4, m5, m6, m7)
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::check_every_member<TestType>(TestType::threads * 16 + TestType::items + 7);
}

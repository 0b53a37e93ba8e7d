// Tests of strata/block/block_scan.cuh with BLOCK_SCAN_WARP_SCANS: every BlockScan member (see
// block_scan_checks.cuh) over every block shape in {32, 96, 128, 256, 1024, 16x8, 8x4x2}, plus 80
// threads (not whole warps: BlockScan falls back to raking, as CUB does), items per thread
// cycling through {1, 3, 4, 7, 11} and types spread over the rows (with
// test_block_scan_raking.cu, every type), several blocks of several tiles each. The matrix
// product rows pin the order in which warps and lanes are combined (up to 32 warps).
#include "block_scan_checks.cuh"

#include <cstdint>

namespace
{
using strata::BLOCK_SCAN_WARP_SCANS;
using strata_test::mat2x2;
using strata_test::mat2x2_product;
using strata_test::scan_config;
using max_op = cuda::maximum<>;
using min_op = cuda::minimum<>;

using w0 = scan_config<std::uint8_t, BLOCK_SCAN_WARP_SCANS, 32, 1, 1, 11, max_op>;
using w1 = scan_config<double, BLOCK_SCAN_WARP_SCANS, 96, 1, 1, 1, max_op>;
using w2 = scan_config<mat2x2, BLOCK_SCAN_WARP_SCANS, 128, 1, 1, 3, mat2x2_product>;
using w3 = scan_config<float, BLOCK_SCAN_WARP_SCANS, 256, 1, 1, 4, min_op>;
using w4 = scan_config<std::uint32_t, BLOCK_SCAN_WARP_SCANS, 1024, 1, 1, 7, min_op>;
using w5 = scan_config<std::int8_t, BLOCK_SCAN_WARP_SCANS, 16, 8, 1, 11, max_op>;
using w6 = scan_config<__half, BLOCK_SCAN_WARP_SCANS, 8, 4, 2, 1, min_op>;
using w7 = scan_config<std::int32_t, BLOCK_SCAN_WARP_SCANS, 80, 1, 1, 3, max_op>;
using w8 = scan_config<mat2x2, BLOCK_SCAN_WARP_SCANS, 1024, 1, 1, 1, mat2x2_product>;
using w9 = scan_config<mat2x2, BLOCK_SCAN_WARP_SCANS, 8, 4, 2, 7, mat2x2_product>;
} // namespace

TEMPLATE_TEST_CASE("BlockScan WARP_SCANS: every member over block shapes, item counts and types", "[block][scan]", w0,
                   w1, w2, w3, w4, w5, w6, w7, w8, w9)
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::check_every_member<TestType>(TestType::threads * 16 + TestType::items + 13);
}

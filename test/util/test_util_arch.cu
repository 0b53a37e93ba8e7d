// Tests of strata/util_arch.cuh: STRATA_PTX_ARCH, the architecture constants, and how
// RegBoundScaling / MemBoundScaling scale a 4-byte tuning to other item sizes.
#include <strata/util_arch.cuh>
#include <strata/util_device.cuh>

#include "common/test_common.cuh"

namespace
{
struct bytes12
{
  int x, y, z;
};
struct bytes32
{
  double a, b, c, d;
};

__global__ void ptx_arch_kernel(int* out)
{
  *out = STRATA_PTX_ARCH;
}
} // namespace

TEST_CASE("Architecture constants", "[util][arch]")
{
  CHECK(STRATA_PTX_ARCH == 0); // host code (a static assertion would also see the device pass)
  STATIC_REQUIRE(strata::detail::warp_threads == 1 << strata::detail::log2_warp_threads);
  STATIC_REQUIRE(strata::detail::smem_banks == 1 << strata::detail::log2_smem_banks);
  STATIC_REQUIRE(STRATA_MAX_DEVICES >= 1);
}

TEST_CASE("MemBoundScaling keeps bytes per thread and never grows items for small types", "[util][arch]")
{
  STATIC_REQUIRE(strata::MemBoundScaling<256, 16, int>::ITEMS_PER_THREAD == 16);
  STATIC_REQUIRE(strata::MemBoundScaling<256, 16, int>::BLOCK_THREADS == 256);
  STATIC_REQUIRE(strata::MemBoundScaling<256, 16, double>::ITEMS_PER_THREAD == 8);
  STATIC_REQUIRE(strata::MemBoundScaling<512, 16, char>::ITEMS_PER_THREAD == 16);
  STATIC_REQUIRE(strata::MemBoundScaling<256, 16, bytes32>::ITEMS_PER_THREAD == 2);
  STATIC_REQUIRE(strata::MemBoundScaling<256, 1, bytes32>::ITEMS_PER_THREAD == 1);
  // A tile of 1024 x 32 ints would need 128 KiB: the block shrinks to fit 48 KiB (384 threads).
  STATIC_REQUIRE(strata::MemBoundScaling<1024, 32, int>::BLOCK_THREADS == 384);
}

TEST_CASE("RegBoundScaling keeps registers per thread", "[util][arch]")
{
  STATIC_REQUIRE(strata::RegBoundScaling<128, 20, int>::ITEMS_PER_THREAD == 20);
  STATIC_REQUIRE(strata::RegBoundScaling<128, 20, char>::ITEMS_PER_THREAD == 20);
  STATIC_REQUIRE(strata::RegBoundScaling<128, 20, bytes32>::ITEMS_PER_THREAD == 2);
  STATIC_REQUIRE(strata::RegBoundScaling<128, 20, bytes32>::BLOCK_THREADS == 128);
  STATIC_REQUIRE(strata::RegBoundScaling<256, 8, bytes12>::ITEMS_PER_THREAD == 2);
  STATIC_REQUIRE(strata::RegBoundScaling<1024, 20, double>::BLOCK_THREADS == 608);
  STATIC_REQUIRE(strata::RegBoundScaling<1024, 20, double>::BLOCK_THREADS % 32 == 0);
}

TEST_CASE("STRATA_PTX_ARCH in device code is the architecture that runs", "[util][arch][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_arch(1);
  d_arch.poison();
  ptx_arch_kernel<<<1, 1>>>(d_arch.data());
  strata_test::check_launch();
  int ptx_version = 0;
  STRATA_TEST_CUDA(strata::PtxVersion(ptx_version));
  CHECK(d_arch.download()[0] == ptx_version);
  CHECK(ptx_version >= 750);
}

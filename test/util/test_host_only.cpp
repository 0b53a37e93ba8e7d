// A translation unit of the host C++ compiler (not nvcc) that includes the headers CUB lets a
// host compiler read: version, util_debug, util_device (its host functions) and util_allocator,
// and uses them. It compiles with warnings as errors, so a device-only construct leaking into
// these headers fails the build.
#include <strata/util_allocator.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_math.cuh>
#include <strata/version.cuh>

#include "common/exit_code.hpp"
#include "common/harness.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__CUDACC__)
#  error "this test must be compiled by the host C++ compiler"
#endif

static_assert(STRATA_VERSION == STRATA_MAJOR_VERSION * 100000 + STRATA_MINOR_VERSION * 100 + STRATA_SUBMINOR_VERSION);
static_assert(strata::Nominal4BItemsToItems<double>(16) == 8);
static_assert(STRATA_PTX_WARP_THREADS == 32 && STRATA_PTX_ARCH == 0);

TEST_CASE("Host-compiled strata: errors, bins and policies without a device", "[util][host_only]")
{
  CHECK(STRATA_DEBUG(cudaErrorInvalidValue) == cudaErrorInvalidValue);
  const strata::detail::AllocationBin bin = strata::detail::RoundUpToBin(8, 3, 7, 1000);
  CHECK(bin.bin == 4);
  CHECK(bin.bytes == 4096);

  // A host translation unit has no device code whose PTX version could be asked.
  int ptx_version = -1;
  CHECK(strata::PtxVersionUncached(ptx_version) == cudaErrorInvalidDeviceFunction);
  CHECK(ptx_version == 0);

  // Device 0 exists only on a machine with a GPU; a negative ordinal never does.
  int sm_version = 0;
  CHECK(strata::SmVersion(sm_version, -1) == cudaErrorInvalidDevice);
  strata::CachingDeviceAllocator allocator;
  void* d_ptr = reinterpret_cast<void*>(std::uintptr_t{0x1234});
  CHECK(allocator.DeviceAllocate(-5, &d_ptr, 16) == cudaErrorInvalidDevice);
  CHECK(allocator.DeviceFree(nullptr) == cudaSuccess);
}

TEST_CASE("Host-compiled strata: device queries and the caching allocator", "[util][host_only][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int device = strata::CurrentDevice();
  REQUIRE(device >= 0);
  int count = 0;
  STRATA_TEST_CUDA(cudaGetDeviceCount(&count));
  CHECK(strata::DeviceCount() == count);

  cudaDeviceProp properties{};
  STRATA_TEST_CUDA(cudaGetDeviceProperties(&properties, device));
  int sm_version = 0;
  STRATA_TEST_CUDA(strata::SmVersion(sm_version, device));
  CHECK(sm_version == properties.major * 100 + properties.minor * 10);
  int uncached = 0;
  STRATA_TEST_CUDA(strata::SmVersionUncached(uncached));
  CHECK(uncached == sm_version);

  // A host-compiled translation unit asks for the PTX version of no kernel: an error, not a crash.
  int ptx_version = -1;
  CHECK(strata::PtxVersion(ptx_version) == cudaErrorInvalidDeviceFunction);
  REQUIRE(cudaPeekAtLastError() == cudaSuccess);

  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  const std::size_t words = 1000 + static_cast<std::size_t>(seed % 1000);
  std::vector<std::uint32_t> host(words);
  for (std::size_t i = 0; i < words; ++i)
  {
    host[i] = static_cast<std::uint32_t>(seed * 2654435761u + i * 40503u) | 1u; // never zero
  }
  strata::CachingDeviceAllocator allocator;
  void* d_ptr = nullptr;
  STRATA_TEST_CUDA(allocator.DeviceAllocate(&d_ptr, words * sizeof(std::uint32_t)));
  REQUIRE(d_ptr != nullptr);
  STRATA_TEST_CUDA(cudaMemcpy(d_ptr, host.data(), words * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  std::vector<std::uint32_t> back(words, 0);
  STRATA_TEST_CUDA(cudaMemcpy(back.data(), d_ptr, words * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  CHECK(back == host);
  STRATA_TEST_CUDA(allocator.DeviceFree(d_ptr));

  // The freed block is cached: the same request gets it back.
  void* again = nullptr;
  STRATA_TEST_CUDA(allocator.DeviceAllocate(&again, words * sizeof(std::uint32_t)));
  CHECK(again == d_ptr);
  STRATA_TEST_CUDA(allocator.DeviceFree(again));
  STRATA_TEST_CUDA(allocator.FreeAllCached());
}

// The exit status of every test program (test/common/main.cpp): no count of failures may read as
// "skipped" (77), "no test ran" (2) or success.
TEST_CASE("A test program's exit status from the counts of its run", "[util][host_only]")
{
  using strata_test::exit_code;
  using strata_test::run_counts;
  for (const std::uint64_t failures : {1u, 2u, 4u, 77u, 255u, 256u, 1000u})
  {
    INFO(failures << " failed assertions");
    CHECK(exit_code(4, run_counts{5, 1, 0, failures}) == 1);
    CHECK(exit_code(failures % 256, run_counts{5, 0, 0, failures}) == 1);
    CHECK(exit_code(42, run_counts{5, 1, 4, failures}) == 1); // a failure beside skips
  }
  CHECK(exit_code(0, run_counts{3, 1, 0, 0}) == 1);  // a failed case without a failed assertion
  CHECK(exit_code(4, run_counts{3, 0, 3, 0}) == 77); // every case skipped
  CHECK(exit_code(0, run_counts{3, 0, 2, 0}) == 0);  // some skipped, some passed
  CHECK(exit_code(0, run_counts{3, 0, 0, 0}) == 0);  // all passed
  CHECK(exit_code(2, run_counts{0, 0, 0, 0}) == 2);  // no test case matched
  STATIC_REQUIRE(strata_test::skipped_exit_code == 77);
}

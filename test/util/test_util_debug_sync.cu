// Tests of STRATA_DEBUG_SYNC (util_debug.cuh): detail::DebugSyncStream waits for the stream and
// returns the launch's error first, and logs the outcome (STRATA_DEBUG_SYNC implies
// STRATA_DEBUG_LOG).
#define STRATA_DEBUG_SYNC
#include <strata/util_debug.cuh>

#include "common/fd_capture.cuh"
#include "common/test_common.cuh"

#include <string>

#if !defined(STRATA_DEBUG_LOG)
#  error "STRATA_DEBUG_SYNC implies STRATA_DEBUG_LOG"
#endif

namespace
{
__global__ void slow_write(volatile int* flag, int value)
{
  // Long enough that a caller that did not wait would read the flag before it is written.
  for (int i = 0; i < 100; ++i)
  {
    __nanosleep(10000);
  }
  *flag = value;
}
} // namespace

TEST_CASE("DebugSyncStream waits for the stream and reports launch errors", "[util][debug][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int value = static_cast<int>(strata_test::seed() % 1000) + 1;
  int* flag       = nullptr;
  STRATA_TEST_CUDA(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *flag               = -1;
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  slow_write<<<1, 1, 0, stream>>>(flag, value);
  cudaError_t synced = cudaErrorUnknown;
  std::string log;
  {
    strata_test::fd_capture capture(1);
    synced = strata::detail::DebugSyncStream(stream);
    log    = capture.text();
  }
  CHECK(synced == cudaSuccess);
  CHECK(*reinterpret_cast<volatile int*>(flag) == value);
  INFO("stdout: " << log);
  CHECK(strata_test::contains(log, "strata: kernel on stream "));
  CHECK(strata_test::contains(log, " finished with CUDA error 0\n"));

  // A launch that cannot start (more threads than a block may have) is reported, not waited on.
  slow_write<<<1, 4096, 0, stream>>>(flag, value + 1);
  const cudaError_t reported = strata::detail::DebugSyncStream(stream);
  CHECK(reported != cudaSuccess);
  CHECK(reported == cudaGetLastError()); // the launch's own error
  CHECK(*reinterpret_cast<volatile int*>(flag) == value);

  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
  STRATA_TEST_CUDA(cudaFreeHost(flag));
}

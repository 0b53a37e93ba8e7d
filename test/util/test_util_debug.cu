// Tests of strata/util_debug.cuh: StrataDebug's result, its clearing of the runtime's last error
// and its messages (STRATA_STDERR is defined here), StrataDebugExit, and DebugSyncStream without
// STRATA_DEBUG_SYNC.
#define STRATA_STDERR
#include <strata/util_debug.cuh>

#include "common/fd_capture.cuh"
#include "common/test_common.cuh"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace
{
__global__ void device_debug_kernel(int* results)
{
  results[0] = static_cast<int>(strata::Debug(cudaErrorInvalidValue, "device_file.cu", 7));
  results[1] = static_cast<int>(strata::Debug(cudaSuccess, "device_file.cu", 8));
}
} // namespace

// First in this file, before any test creates a CUDA context that the child would inherit.
TEST_CASE("StrataDebugExit exits with status 1 on an error (host)", "[util][debug]")
{
  int pipe_fds[2] = {-1, -1};
  REQUIRE(pipe(pipe_fds) == 0);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0)
  {
    dup2(pipe_fds[1], 2);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    StrataDebugExit(cudaErrorInvalidValue);
    std::_Exit(0); // not reached when StrataDebugExit works
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[256];
  for (ssize_t n = read(pipe_fds[0], buffer, sizeof(buffer)); n > 0; n = read(pipe_fds[0], buffer, sizeof(buffer)))
  {
    message.append(buffer, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  INFO("child's stderr: " << message);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(strata_test::contains(message, "strata: CUDA error 1 ("));
}

TEST_CASE("StrataDebugExit does nothing on success (host)", "[util][debug]")
{
  bool continued = false;
  strata_test::fd_capture capture(2);
  StrataDebugExit(cudaSuccess);
  continued              = true;
  const std::string text = capture.text();
  CHECK(continued);
  CHECK(text.empty());
}

TEST_CASE("StrataDebug returns its argument and reports errors on stderr (host)", "[util][debug]")
{
  std::string quiet;
  cudaError_t success_result = cudaErrorUnknown;
  {
    strata_test::fd_capture capture(2);
    success_result = StrataDebug(cudaSuccess);
    quiet          = capture.text();
  }
  CHECK(success_result == cudaSuccess);
  CHECK(quiet.empty());

  for (const cudaError_t error : {cudaErrorInvalidValue, cudaErrorMemoryAllocation, cudaErrorInvalidDevice})
  {
    INFO("error " << static_cast<int>(error));
    cudaError_t result = cudaSuccess;
    int line           = 0;
    std::string text;
    {
      strata_test::fd_capture capture(2);
      // clang-format off
      line = __LINE__; result = StrataDebug(error);
      // clang-format on
      text = capture.text();
    }
    INFO("stderr: " << text);
    CHECK(result == error);
    CHECK(strata_test::contains(text, "strata: CUDA error " + std::to_string(static_cast<int>(error)) + " ("
                                          + cudaGetErrorString(error) + ")"));
    CHECK(strata_test::contains(text, "test_util_debug.cu:" + std::to_string(line) + "\n"));
  }

  std::string direct;
  cudaError_t direct_result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    direct_result = strata::Debug(cudaErrorNotReady, "some_file.cu", 42);
    direct        = capture.text();
  }
  CHECK(direct_result == cudaErrorNotReady);
  CHECK(strata_test::contains(direct, " at some_file.cu:42\n"));
}

TEST_CASE("DebugSyncStream does not wait or check without STRATA_DEBUG_SYNC (host)", "[util][debug]")
{
#if defined(STRATA_DEBUG_SYNC)
  FAIL("this test expects STRATA_DEBUG_SYNC to be undefined");
#endif
  // A stream handle that names no stream: not even looked at.
  const auto bogus = reinterpret_cast<cudaStream_t>(std::uintptr_t{0x1234});
  CHECK(strata::detail::DebugSyncStream(bogus) == cudaSuccess);
  CHECK(strata::detail::DebugSyncStream(nullptr) == cudaSuccess);
}

TEST_CASE("StrataDebug clears a pending error from cudaGetLastError", "[util][debug][gpu]")
{
  // Without a driver every runtime call fails with a sticky error, which nothing clears.
  STRATA_TEST_REQUIRE_GPU();
  void* ptr                 = nullptr;
  const cudaError_t failure = cudaMalloc(&ptr, std::size_t(1) << 60); // 1 EiB: not sticky
  REQUIRE(failure == cudaErrorMemoryAllocation);
  REQUIRE(cudaPeekAtLastError() == failure);

  // Success leaves a pending error alone; an error clears it.
  strata_test::fd_capture capture(2);
  const cudaError_t passed  = StrataDebug(cudaSuccess);
  const cudaError_t pending = cudaPeekAtLastError();
  const cudaError_t handled = StrataDebug(failure);
  const cudaError_t after   = cudaGetLastError();
  const std::string text    = capture.text();
  INFO("stderr: " << text);
  CHECK(passed == cudaSuccess);
  CHECK(pending == failure);
  CHECK(handled == failure);
  CHECK(after == cudaSuccess);
  CHECK(strata_test::contains(text, "strata: CUDA error 2 ("));

  // DebugSyncStream neither reports nor clears a pending error without STRATA_DEBUG_SYNC.
  REQUIRE(cudaMalloc(&ptr, std::size_t(1) << 60) == cudaErrorMemoryAllocation);
  CHECK(strata::detail::DebugSyncStream(nullptr) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
}

TEST_CASE("strata::Debug in device code returns its argument and prints the error", "[util][debug][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_results(2);
  d_results.poison();
  std::string text;
  cudaError_t launch = cudaSuccess;
  cudaError_t sync   = cudaSuccess;
  {
    // Device printf reaches stdout when the host synchronizes.
    strata_test::fd_capture capture(1);
    device_debug_kernel<<<1, 1>>>(d_results.data());
    launch = cudaGetLastError();
    sync   = cudaDeviceSynchronize();
    text   = capture.text();
  }
  INFO("stdout: " << text);
  CHECK(launch == cudaSuccess);
  CHECK(sync == cudaSuccess);
  strata_test::check_equal(std::vector<int>{static_cast<int>(cudaErrorInvalidValue), 0}, d_results.download());
  CHECK(strata_test::contains(text, "strata: CUDA error 1 at device_file.cu:7 [block (0,0,0), thread (0,0,0)]"));
  CHECK_FALSE(strata_test::contains(text, "device_file.cu:8"));
}

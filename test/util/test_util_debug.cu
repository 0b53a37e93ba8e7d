// Tests of strata/util_debug.cuh: STRATA_DEBUG's result (its argument, or the runtime's pending
// error when the argument is cudaSuccess), its clearing of the runtime's last error and its
// messages (STRATA_STDERR is defined here), STRATA_DEBUG_EXIT, detail::ReportError, and
// DebugSyncStream without STRATA_DEBUG_SYNC. Without a driver the runtime reports a sticky error
// to every call, so the cases that pass cudaSuccess need a GPU.
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
TEST_CASE("STRATA_DEBUG_EXIT exits with status 1 on an error (host)", "[util][debug]")
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
    STRATA_DEBUG_EXIT(cudaErrorInvalidValue);
    std::_Exit(0); // not reached when STRATA_DEBUG_EXIT works
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

TEST_CASE("STRATA_DEBUG_EXIT does nothing on success", "[util][debug][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  REQUIRE(cudaPeekAtLastError() == cudaSuccess);
  bool continued = false;
  strata_test::fd_capture capture(2);
  STRATA_DEBUG_EXIT(cudaSuccess);
  continued              = true;
  const std::string text = capture.text();
  CHECK(continued);
  CHECK(text.empty());
}

TEST_CASE("STRATA_DEBUG returns its error argument and reports it on stderr (host)", "[util][debug]")
{
  for (const cudaError_t error : {cudaErrorInvalidValue, cudaErrorMemoryAllocation, cudaErrorInvalidDevice})
  {
    INFO("error " << static_cast<int>(error));
    cudaError_t result = cudaSuccess;
    int line           = 0;
    std::string text;
    {
      strata_test::fd_capture capture(2);
      // clang-format off
      line = __LINE__; result = STRATA_DEBUG(error);
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

  std::string reported;
  cudaError_t reported_result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    reported_result = strata::detail::ReportError(cudaErrorInvalidPitchValue, "other_file.cu", 9);
    reported        = capture.text();
  }
  CHECK(reported_result == cudaErrorInvalidPitchValue);
  CHECK(strata_test::contains(reported, " at other_file.cu:9\n"));
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

TEST_CASE("STRATA_DEBUG reports and clears a pending error from cudaGetLastError", "[util][debug][gpu]")
{
  // Without a driver every runtime call fails with a sticky error, which nothing clears.
  STRATA_TEST_REQUIRE_GPU();
  REQUIRE(cudaPeekAtLastError() == cudaSuccess);
  std::string quiet;
  cudaError_t success_result = cudaErrorUnknown;
  {
    strata_test::fd_capture capture(2);
    success_result = STRATA_DEBUG(cudaSuccess);
    quiet          = capture.text();
  }
  CHECK(success_result == cudaSuccess);
  CHECK(quiet.empty());

  void* ptr                 = nullptr;
  const cudaError_t failure = cudaMalloc(&ptr, std::size_t(1) << 60); // 1 EiB: not sticky
  REQUIRE(failure == cudaErrorMemoryAllocation);
  REQUIRE(cudaPeekAtLastError() == failure);

  // Success with a pending error reports the pending error and clears it (as CubDebug does); an
  // error argument is returned as it is, and clears a pending error too.
  strata_test::fd_capture capture(2);
  const cudaError_t passed       = STRATA_DEBUG(cudaSuccess);
  const cudaError_t after_passed = cudaPeekAtLastError();
  REQUIRE(cudaMalloc(&ptr, std::size_t(1) << 60) == cudaErrorMemoryAllocation);
  const cudaError_t handled = STRATA_DEBUG(cudaErrorInvalidValue);
  const cudaError_t after   = cudaGetLastError();
  // strata's own reports leave an unrelated pending error alone.
  REQUIRE(cudaMalloc(&ptr, std::size_t(1) << 60) == cudaErrorMemoryAllocation);
  const cudaError_t own       = strata::detail::ReportError(cudaSuccess, "own_file.cu", 3);
  const cudaError_t untouched = cudaGetLastError();
  const std::string text      = capture.text();
  INFO("stderr: " << text);
  CHECK(passed == failure);
  CHECK(after_passed == cudaSuccess);
  CHECK(handled == cudaErrorInvalidValue);
  CHECK(after == cudaSuccess);
  CHECK(own == cudaSuccess);
  CHECK(untouched == failure);
  CHECK(strata_test::contains(text, "strata: CUDA error 2 ("));
  CHECK_FALSE(strata_test::contains(text, "own_file.cu"));

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

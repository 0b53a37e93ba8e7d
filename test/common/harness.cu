// test/common/harness.cu: the non-template parts of the test harness.
#include "harness.cuh"

#include <sys/stat.h>

#include <cstdlib>
#include <sstream>
#include <string>

namespace strata_test
{
namespace
{
//! An NVIDIA device node: the kernel driver knows a GPU even if the CUDA driver library is missing.
bool nvidia_device_node_exists()
{
  for (const char* node : {"/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg"})
  {
    struct stat info;
    if (stat(node, &info) == 0)
    {
      return true;
    }
  }
  return false;
}

gpu_verdict decide_gpu()
{
  int count               = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  static_cast<void>(cudaGetLastError()); // a missing device is not an error for the tests that follow
  if (error == cudaSuccess && count > 0)
  {
    return {true, false, ""};
  }
  int driver_version = 0;
  static_cast<void>(cudaDriverGetVersion(&driver_version));
  const bool no_gpu = (error == cudaSuccess) || error == cudaErrorNoDevice
                      || (error == cudaErrorInsufficientDriver && driver_version == 0 && !nvidia_device_node_exists());
  const std::string what = error == cudaSuccess ? std::string("no CUDA device visible") : describe(error);
  if (!no_gpu)
  {
    return {false, true,
            "the CUDA device cannot be used: cudaGetDeviceCount gives " + what + " (driver version "
                + std::to_string(driver_version) + ")"};
  }
  const char* expect = std::getenv("STRATA_TEST_EXPECT_GPU");
  if (expect != nullptr && std::string(expect) == "1")
  {
    return {false, true, "STRATA_TEST_EXPECT_GPU=1 but there is no CUDA device: " + what};
  }
  return {false, false, "no CUDA device (" + what + "): GPU test case skipped"};
}
} // namespace

const gpu_verdict& gpu_check()
{
  static const gpu_verdict verdict = decide_gpu();
  return verdict;
}

bool gpu_available()
{
  return gpu_check().available;
}

bool under_sanitizer()
{
  static const bool value = []
  {
    const char* env = std::getenv("STRATA_TEST_UNDER_SANITIZER");
    return env != nullptr && std::string(env) == "1";
  }();
  return value;
}

std::uint64_t seed(std::uint64_t salt)
{
  // splitmix64 of (Catch2 seed, salt): nearby salts give unrelated streams.
  std::uint64_t z = (static_cast<std::uint64_t>(Catch::getSeed()) << 32) + salt + 0x9E3779B97F4A7C15ull;
  z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string describe(cudaError_t error)
{
  std::ostringstream out;
  out << cudaGetErrorName(error) << " (" << static_cast<int>(error) << "): " << cudaGetErrorString(error);
  return out.str();
}

void check_launch()
{
  STRATA_TEST_CUDA(cudaGetLastError());
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}
} // namespace strata_test

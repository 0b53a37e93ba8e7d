// test/common/harness.cu: the non-template parts of the test harness.
#include "harness.cuh"

#include <sstream>

namespace strata_test
{
bool gpu_available()
{
  static const bool available = []
  {
    int count     = 0;
    const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    static_cast<void>(cudaGetLastError()); // no device is not an error for the tests that follow
    return ok;
  }();
  return available;
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

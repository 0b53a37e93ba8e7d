// One translation unit with CUB and strata: the same device algorithm from both, each sized with
// its own two-phase query (built, not run).
#include <cub/device/device_reduce.cuh>

#include <strata/strata.cuh>

#include <cstddef>

int main()
{
  const int* d_in                = nullptr;
  int* d_out                     = nullptr;
  std::size_t cub_bytes          = 0;
  std::size_t strata_bytes       = 0;
  const cudaError_t cub_error    = cub::DeviceReduce::Sum(nullptr, cub_bytes, d_in, d_out, 1000);
  const cudaError_t strata_error = strata::DeviceReduce::Sum(nullptr, strata_bytes, d_in, d_out, 1000);
  return cub_error == cudaSuccess && strata_error == cudaSuccess ? 0 : 1;
}

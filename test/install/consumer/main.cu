// A consumer's program: includes all of strata, uses a thread-level collective and a device algorithm.
#include <strata/strata.cuh>

#include <cstddef>
#include <cstdio>

__global__ void sum_kernel(const int* in, int* out)
{
  int items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = strata::ThreadLoad<strata::LOAD_LDG>(in + 4 * threadIdx.x + i);
  }
  out[threadIdx.x] = strata::ThreadReduce(items, ::cuda::std::plus<>{});
}

int host_strata_version(); // host.cpp, compiled by the host compiler

int main()
{
  std::printf("strata %d.%d.%d\n", STRATA_MAJOR_VERSION, STRATA_MINOR_VERSION, STRATA_SUBMINOR_VERSION);
  // A device algorithm's size query (the program is built, not run: the build needs no GPU).
  std::size_t bytes = 0;
  const cudaError_t error =
      strata::DeviceReduce::Sum(nullptr, bytes, static_cast<const int*>(nullptr), static_cast<int*>(nullptr), 1000);
  return error == cudaSuccess && host_strata_version() == STRATA_VERSION ? 0 : 1;
}

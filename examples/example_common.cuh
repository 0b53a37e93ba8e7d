// examples/example_common.cuh: the little every example needs: error checks and the no-GPU exit.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

//! Exits with a message when a CUDA call fails.
#define EXAMPLE_CHECK(call)                                                                                            \
  do                                                                                                                   \
  {                                                                                                                    \
    const cudaError_t example_error_ = (call);                                                                         \
    if (example_error_ != cudaSuccess)                                                                                 \
    {                                                                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(example_error_));          \
      std::exit(1);                                                                                                    \
    }                                                                                                                  \
  } while (false)

//! Exits with status 77 (reported as "skipped" by CTest) when the machine has no CUDA device.
inline void example_require_gpu()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
  {
    std::printf("no CUDA device: example skipped\n");
    std::exit(77);
  }
}

// Example: CachingDeviceAllocator. Temporary buffers of a loop come from a cache of freed blocks
// instead of cudaMalloc/cudaFree on every iteration.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>

__global__ void fill(int* d_out, int n, int value)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    d_out[i] = value + i;
  }
}

int main()
{
  example_require_gpu();
  strata::CachingDeviceAllocator allocator;
  cudaStream_t stream = nullptr;
  EXAMPLE_CHECK(cudaStreamCreate(&stream));

  const int n       = 1 << 16;
  void* first_block = nullptr;
  int reused        = 0;
  int errors        = 0;
  for (int iteration = 0; iteration < 10; ++iteration)
  {
    int* d_buffer = nullptr;
    EXAMPLE_CHECK(allocator.DeviceAllocate(reinterpret_cast<void**>(&d_buffer), n * sizeof(int), stream));
    if (iteration == 0)
    {
      first_block = d_buffer;
    }
    reused += d_buffer == first_block;
    fill<<<(n + 255) / 256, 256, 0, stream>>>(d_buffer, n, iteration);
    EXAMPLE_CHECK(cudaGetLastError());
    int last = 0;
    EXAMPLE_CHECK(cudaMemcpyAsync(&last, d_buffer + n - 1, sizeof(int), cudaMemcpyDeviceToHost, stream));
    EXAMPLE_CHECK(cudaStreamSynchronize(stream));
    errors += last != iteration + n - 1;
    // Returned to the cache, not to CUDA: the next iteration gets the same block back.
    EXAMPLE_CHECK(allocator.DeviceFree(d_buffer));
  }
  std::printf("10 allocations on one stream, %d served by the first block; results %s\n", reused,
              errors == 0 ? "correct" : "WRONG");
  EXAMPLE_CHECK(cudaStreamDestroy(stream));
  return errors == 0 && reused == 10 ? 0 : 1;
}

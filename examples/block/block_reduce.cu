// Example: a block-wide reduction. Each of 128 threads loads 4 consecutive items
// (LoadDirectBlocked) and BlockReduce sums the block's 512 items through a TempStorage in shared
// memory; the result is valid in thread 0. Every block writes its own sum.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <vector>

constexpr int block_threads    = 128;
constexpr int items_per_thread = 4;
constexpr int tile_items       = block_threads * items_per_thread;

__global__ void block_sum(const int* d_in, int* d_out)
{
  using BlockReduce = strata::BlockReduce<int, block_threads>;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  int items[items_per_thread];
  strata::LoadDirectBlocked(static_cast<int>(threadIdx.x), d_in + blockIdx.x * tile_items, items);
  const int sum = BlockReduce(temp_storage).Sum(items);
  if (threadIdx.x == 0)
  {
    d_out[blockIdx.x] = sum;
  }
}

int main()
{
  example_require_gpu();
  const int blocks = 100;
  std::vector<int> h_in(blocks * tile_items);
  for (int i = 0; i < static_cast<int>(h_in.size()); ++i)
  {
    h_in[i] = (i * 7) % 13 - 6;
  }
  int* d_in  = nullptr;
  int* d_out = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, h_in.size() * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, blocks * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(int), cudaMemcpyHostToDevice));
  block_sum<<<blocks, block_threads>>>(d_in, d_out);
  EXAMPLE_CHECK(cudaGetLastError());
  std::vector<int> h_out(blocks);
  EXAMPLE_CHECK(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaFree(d_in));
  EXAMPLE_CHECK(cudaFree(d_out));

  int errors = 0;
  for (int b = 0; b < blocks; ++b)
  {
    int expected = 0;
    for (int i = 0; i < tile_items; ++i)
    {
      expected += h_in[b * tile_items + i];
    }
    errors += h_out[b] != expected;
  }
  std::printf("block 0 sum %d; %d blocks %s\n", h_out[0], blocks, errors == 0 ? "correct" : "WRONG");
  return errors == 0 ? 0 : 1;
}

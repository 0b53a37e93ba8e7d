// Tests of strata/grid/grid_queue.cuh: blocks draining a queue take every item exactly once;
// the fill count set from the host, from FillAndResetDrainKernel, and grown by Fill, reads back
// through FillSize.
#include <strata/grid/grid_queue.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace
{
//! Every block drains pieces of `piece` items until the queue of fill_size items is empty.
__global__ void drain_all(strata::GridQueue<int> queue, int fill_size, int piece, int* taken)
{
  __shared__ int start;
  for (;;)
  {
    if (threadIdx.x == 0)
    {
      start = queue.Drain(piece);
    }
    __syncthreads();
    const int first = start;
    __syncthreads();
    if (first >= fill_size)
    {
      return;
    }
    for (int i = first + int(threadIdx.x); i < first + piece && i < fill_size; i += int(blockDim.x))
    {
      atomicAdd(taken + i, 1);
    }
  }
}

__global__ void fill_from_device(strata::GridQueue<int> queue, int* starts)
{
  starts[threadIdx.x] = queue.Fill(3);
}
} // namespace

TEST_CASE("GridQueue::AllocationSize holds two counters (host)", "[grid][host]")
{
  constexpr std::size_t int_bytes = strata::GridQueue<int>::AllocationSize(); // usable at compile time
  CHECK(int_bytes == 2 * sizeof(int));
  CHECK(strata::GridQueue<unsigned long long>::AllocationSize() == 2 * sizeof(unsigned long long));
}

TEST_CASE("GridQueue hands out every item once", "[grid]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<unsigned char> d_storage(strata::GridQueue<int>::AllocationSize());
  strata::GridQueue<int> queue(d_storage.data());
  for (int fill_size : {1, 1000, 123457})
  {
    INFO("fill size " << fill_size);
    for (bool from_device : {false, true})
    {
      if (from_device)
      {
        strata::FillAndResetDrainKernel<<<1, 1>>>(queue, fill_size);
        strata_test::check_launch();
      }
      else
      {
        STRATA_TEST_CUDA(queue.FillAndResetDrain(fill_size));
      }
      int read_back = -1;
      STRATA_TEST_CUDA(queue.FillSize(read_back));
      CHECK(read_back == fill_size);
      strata_test::device_buffer<int> d_taken(static_cast<std::size_t>(fill_size));
      STRATA_TEST_CUDA(cudaMemset(d_taken.data(), 0, d_taken.bytes()));
      drain_all<<<40, 64>>>(queue, fill_size, 100, d_taken.data());
      strata_test::check_launch();
      const std::vector<int> taken = d_taken.download();
      std::size_t wrong            = 0;
      for (int t : taken)
      {
        wrong += t != 1;
      }
      CHECK(wrong == 0);
    }
  }

  // Fill from the device: 32 threads add 3 each to a fill count of 10.
  STRATA_TEST_CUDA(queue.FillAndResetDrain(10));
  STRATA_TEST_CUDA(queue.ResetDrain());
  strata_test::device_buffer<int> d_starts(32);
  fill_from_device<<<1, 32>>>(queue, d_starts.data());
  strata_test::check_launch();
  int fill = 0;
  STRATA_TEST_CUDA(queue.FillSize(fill));
  CHECK(fill == 10 + 32 * 3);
  std::vector<int> starts = d_starts.download();
  std::sort(starts.begin(), starts.end());
  for (int i = 0; i < 32; ++i)
  {
    CHECK(starts[i] == 10 + 3 * i);
  }
  STRATA_TEST_CUDA(queue.ResetFill());
  STRATA_TEST_CUDA(queue.FillSize(fill));
  CHECK(fill == 0);
}

// Example: a device-wide sum with strata::DeviceReduce::Sum and CUB's two-phase call. The first
// call, with no temporary storage, only reports how many bytes it needs; the second, given that
// much device memory, runs. The host checks the sum.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <random>
#include <vector>

int main()
{
  example_require_gpu();

  // Random non-zero items in [-1000, 1000]: 2^20 of them cannot overflow an int sum.
  const int num_items = 1 << 20;
  std::mt19937 generator(2024);
  std::uniform_int_distribution<int> magnitude(1, 1000);
  std::vector<int> h_in(num_items);
  for (int& item : h_in)
  {
    item = magnitude(generator) * (generator() % 2 == 0 ? 1 : -1);
  }

  int* d_in  = nullptr;
  int* d_out = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));

  // Phase 1: the size query (d_temp_storage is null: nothing runs, nothing is touched).
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items));
  // Phase 2: allocate that much and run the reduction (asynchronously, on the default stream).
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items));

  int h_out = 0;
  EXAMPLE_CHECK(cudaMemcpy(&h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost)); // waits for the sum
  EXAMPLE_CHECK(cudaFree(d_temp_storage));
  EXAMPLE_CHECK(cudaFree(d_in));
  EXAMPLE_CHECK(cudaFree(d_out));

  long long expected = 0;
  for (const int item : h_in)
  {
    expected += item;
  }
  const bool correct = h_out == expected;
  std::printf("sum of %d items: %d (expected %lld, %zu bytes of temporary storage): %s\n", num_items, h_out, expected,
              temp_storage_bytes, correct ? "correct" : "WRONG");
  return correct ? 0 : 1;
}

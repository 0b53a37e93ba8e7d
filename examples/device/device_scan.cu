// Example: a device-wide prefix sum with strata::DeviceScan::ExclusiveSum and CUB's two-phase
// call: a size query for the temporary storage, then the scan. d_out[i] is the sum of the items
// before i (0 for the first); the host checks every output.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <random>
#include <vector>

int main()
{
  example_require_gpu();

  // Random non-zero items in [1, 100]; a count that is not a multiple of any tile size, so the
  // last tile is partial. The total (below 2^31) fits an int.
  const int num_items = (1 << 20) + 12345;
  std::mt19937 generator(2025);
  std::uniform_int_distribution<int> value(1, 100);
  std::vector<int> h_in(num_items);
  for (int& item : h_in)
  {
    item = value(generator);
  }

  int* d_in  = nullptr;
  int* d_out = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));

  // Phase 1: the size query (d_temp_storage is null: nothing runs, nothing is touched).
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceScan::ExclusiveSum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items));
  // Phase 2: allocate that much and run the scan (asynchronously, on the default stream).
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceScan::ExclusiveSum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items));

  std::vector<int> h_out(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_out.data(), d_out, num_items * sizeof(int), cudaMemcpyDeviceToHost)); // waits
  EXAMPLE_CHECK(cudaFree(d_temp_storage));
  EXAMPLE_CHECK(cudaFree(d_in));
  EXAMPLE_CHECK(cudaFree(d_out));

  int errors         = 0;
  int first_wrong    = -1;
  int first_expected = 0;
  int running        = 0; // the sum of the items before i
  for (int i = 0; i < num_items; ++i)
  {
    if (h_out[i] != running)
    {
      if (errors == 0)
      {
        first_wrong    = i;
        first_expected = running;
      }
      ++errors;
    }
    running += h_in[i];
  }
  std::printf("exclusive sum of %d items: last output %d, total %d (%zu bytes of temporary storage): ", num_items,
              h_out[num_items - 1], running, temp_storage_bytes);
  if (errors == 0)
  {
    std::printf("correct\n");
    return 0;
  }
  std::printf("WRONG: %d outputs differ, the first at %d (%d, expected %d)\n", errors, first_wrong, h_out[first_wrong],
              first_expected);
  return 1;
}

// Example: an argsort of floats with strata::DeviceRadixSort::SortPairs. The keys are the floats,
// the values their positions, read from a CountingInputIterator (no array of positions is
// stored); sorting the pairs leaves the positions in the keys' sorted order. The sort is stable:
// equal keys keep their input order. The host checks the order.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <random>
#include <vector>

int main()
{
  example_require_gpu();

  const int num_items = 1 << 20;
  std::mt19937 generator(2025);
  std::normal_distribution<float> value(0.0f, 100.0f);
  std::vector<float> h_keys(num_items);
  for (float& key : h_keys)
  {
    key = value(generator);
  }

  float* d_keys_in  = nullptr;
  float* d_keys_out = nullptr;
  int* d_values_out = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_keys_in, num_items * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_keys_out, num_items * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_values_out, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_keys_in, h_keys.data(), num_items * sizeof(float), cudaMemcpyHostToDevice));

  // Phase 1: the size query. Phase 2: the sort (asynchronously, on the default stream).
  const strata::CountingInputIterator<int> positions(0); // 0, 1, 2, ...
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, positions,
                                                   d_values_out, num_items));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, positions,
                                                   d_values_out, num_items));

  std::vector<int> h_order(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_order.data(), d_values_out, num_items * sizeof(int), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaFree(d_temp_storage));
  EXAMPLE_CHECK(cudaFree(d_keys_in));
  EXAMPLE_CHECK(cudaFree(d_keys_out));
  EXAMPLE_CHECK(cudaFree(d_values_out));

  // The positions must be a permutation that visits the keys in non-decreasing order, equal keys
  // by increasing position.
  std::vector<char> seen(num_items, 0);
  bool correct = true;
  for (int i = 0; i < num_items && correct; ++i)
  {
    const int p = h_order[i];
    correct     = p >= 0 && p < num_items && !seen[p];
    if (correct)
    {
      seen[p] = 1;
    }
    if (correct && i > 0)
    {
      const int q = h_order[i - 1];
      correct     = h_keys[q] < h_keys[p] || (h_keys[q] == h_keys[p] && q < p);
    }
  }
  std::printf("argsort of %d floats: smallest %.3f at %d, largest %.3f at %d (%zu bytes of temporary storage): %s\n",
              num_items, h_keys[h_order[0]], h_order[0], h_keys[h_order[num_items - 1]], h_order[num_items - 1],
              temp_storage_bytes, correct ? "correct" : "WRONG");
  return correct ? 0 : 1;
}

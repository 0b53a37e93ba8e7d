// Example: stream compaction and distinct values with strata::DeviceSelect. DeviceSelect::If keeps
// the items a predicate accepts (here the positive values of an array) in their order, and
// DeviceSelect::Unique keeps the first item of every run of equal ones, which for a sorted array
// are its distinct values. Both write the items they keep to the front of the output and their
// number to d_num_selected, and both take CUB's two-phase call: a size query for the temporary
// storage, then the run. One function per algorithm checks its result on the host and prints it;
// main runs them in turn.
#include <strata/device/device_select.cuh>

#include "../example_common.cuh"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <random>
#include <vector>

//! DeviceSelect::If's predicate: a functor the device can call.
struct is_positive
{
  __host__ __device__ bool operator()(int x) const
  {
    return x > 0;
  }
};

//! Stream compaction: the positive values of a million random ones in [-1000, 1000].
bool keep_positive_values()
{
  const int num_items = 1000000;
  std::mt19937 generator(2025);
  std::uniform_int_distribution<int> value(-1000, 1000);
  std::vector<int> h_in(num_items);
  for (int& item : h_in)
  {
    item = value(generator);
  }

  int* d_in           = nullptr;
  int* d_out          = nullptr;
  int* d_num_selected = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, num_items * sizeof(int))); // room for every item: all may be kept
  EXAMPLE_CHECK(cudaMalloc(&d_num_selected, sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));

  // Phase 1: the size query (d_temp_storage is null: nothing runs, nothing is touched).
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceSelect::If(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
                                         is_positive{}));
  // Phase 2: allocate that much and select (asynchronously, on the default stream).
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceSelect::If(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
                                         is_positive{}));

  std::vector<int> expected;
  std::copy_if(h_in.begin(), h_in.end(), std::back_inserter(expected), is_positive{});
  int num_selected = 0;
  EXAMPLE_CHECK(cudaMemcpy(&num_selected, d_num_selected, sizeof(int), cudaMemcpyDeviceToHost)); // waits
  bool correct = num_selected == static_cast<int>(expected.size());
  if (correct)
  {
    std::vector<int> h_out(num_selected); // only [d_out, d_out + num_selected) is written
    EXAMPLE_CHECK(cudaMemcpy(h_out.data(), d_out, num_selected * sizeof(int), cudaMemcpyDeviceToHost));
    correct = h_out == expected;
  }
  for (void* p :
       {static_cast<void*>(d_in), static_cast<void*>(d_out), static_cast<void*>(d_num_selected), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  std::printf("DeviceSelect::If: %d of %d values are positive, kept in their order (%zu bytes of temporary "
              "storage): %s\n",
              num_selected, num_items, temp_storage_bytes, correct ? "correct" : "WRONG");
  return correct;
}

//! Distinct values: those of a million random ones in [0, 99999], sorted.
bool distinct_values_of_sorted()
{
  const int num_items = 1000000;
  std::mt19937 generator(7);
  std::uniform_int_distribution<int> value(0, 99999);
  std::vector<int> h_in(num_items);
  for (int& item : h_in)
  {
    item = value(generator);
  }
  std::sort(h_in.begin(), h_in.end()); // equal values side by side: each forms one run

  int* d_in           = nullptr;
  int* d_out          = nullptr;
  int* d_num_selected = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_num_selected, sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(
      strata::DeviceSelect::Unique(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(
      strata::DeviceSelect::Unique(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items));

  std::vector<int> expected = h_in;
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  int num_selected = 0;
  EXAMPLE_CHECK(cudaMemcpy(&num_selected, d_num_selected, sizeof(int), cudaMemcpyDeviceToHost));
  bool correct = num_selected == static_cast<int>(expected.size());
  if (correct)
  {
    std::vector<int> h_out(num_selected);
    EXAMPLE_CHECK(cudaMemcpy(h_out.data(), d_out, num_selected * sizeof(int), cudaMemcpyDeviceToHost));
    correct = h_out == expected;
  }
  for (void* p :
       {static_cast<void*>(d_in), static_cast<void*>(d_out), static_cast<void*>(d_num_selected), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  std::printf("DeviceSelect::Unique: %d sorted values hold %d distinct ones (%zu bytes of temporary storage): %s\n",
              num_items, num_selected, temp_storage_bytes, correct ? "correct" : "WRONG");
  return correct;
}

int main()
{
  example_require_gpu();

  bool correct = keep_positive_values();
  correct      = distinct_values_of_sorted() && correct;
  return correct ? 0 : 1;
}

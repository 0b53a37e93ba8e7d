// Example: stream compaction, distinct values and run-length encoding. DeviceSelect::If keeps the
// items a predicate accepts (here the positive values of an array) in their order, and
// DeviceSelect::Unique keeps the first item of every run of equal ones, which for a sorted array
// are its distinct values. Both write the items they keep to the front of the output and their
// number to d_num_selected. For a sorted array of small values, DeviceRunLengthEncode::Encode
// writes each run's value and length, NonTrivialRuns where each run of more than one item starts
// and its length, and DeviceReduce::ReduceByKey the sum of the values beside each run of equal
// keys; these three write the number of runs to d_num_runs. All take CUB's two-phase call: a size
// query for the temporary storage, then the run. One function per algorithm (one for both
// run-length encodings) checks its result on the host and prints it; main runs them in turn.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_run_length_encode.cuh>
#include <strata/device/device_select.cuh>

#include <cuda/std/functional>

#include "../example_common.cuh"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <random>
#include <utility>
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

//! A device copy of h_items (free it with cudaFree).
int* to_device(const std::vector<int>& h_items)
{
  int* d_items = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_items, h_items.size() * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_items, h_items.data(), h_items.size() * sizeof(int), cudaMemcpyHostToDevice));
  return d_items;
}

//! 40 random values in [0, 14], sorted: runs of equal values, some of them one item long.
std::vector<int> sorted_small_values()
{
  std::mt19937 generator(11);
  std::uniform_int_distribution<int> value(0, 14);
  std::vector<int> h_values(40);
  for (int& item : h_values)
  {
    item = value(generator);
  }
  std::sort(h_values.begin(), h_values.end());
  return h_values;
}

//! The runs of h_keys, computed on the host: each run's offset and length.
std::vector<std::pair<int, int>> host_runs(const std::vector<int>& h_keys)
{
  const int num_items = static_cast<int>(h_keys.size());
  std::vector<std::pair<int, int>> runs;
  for (int begin = 0, end = 0; begin < num_items; begin = end)
  {
    while (end < num_items && h_keys[end] == h_keys[begin])
    {
      ++end;
    }
    runs.emplace_back(begin, end - begin);
  }
  return runs;
}

//! Reads a call's number of runs and the first that many items of its two outputs (waiting for the
//! GPU), prints them as (first, second) pairs after `what`, and returns whether they are the
//! expected ones. A count outside [0, capacity] reads no items.
bool check_runs(const char* what, const int* d_num_runs, const int* d_first, const int* d_second, int capacity,
                const std::vector<int>& first_expected, const std::vector<int>& second_expected)
{
  int num_runs = 0;
  EXAMPLE_CHECK(cudaMemcpy(&num_runs, d_num_runs, sizeof(int), cudaMemcpyDeviceToHost));
  const int valid = std::clamp(num_runs, 0, capacity);
  std::vector<int> first(valid);
  std::vector<int> second(valid);
  EXAMPLE_CHECK(cudaMemcpy(first.data(), d_first, valid * sizeof(int), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaMemcpy(second.data(), d_second, valid * sizeof(int), cudaMemcpyDeviceToHost));
  const bool correct = num_runs == valid && first == first_expected && second == second_expected;
  std::printf("%s: %d runs:", what, num_runs);
  for (int r = 0; r < valid; ++r)
  {
    std::printf(" (%d, %d)", first[r], second[r]);
  }
  std::printf(": %s\n", correct ? "correct" : "WRONG");
  return correct;
}

//! Run-length encoding of a sorted array: Encode (every run) and NonTrivialRuns (the runs of two
//! or more items).
bool run_lengths_of_sorted()
{
  const std::vector<int> h_in = sorted_small_values();
  const int num_items         = static_cast<int>(h_in.size());
  std::vector<int> values_expected, lengths_expected, long_offsets_expected, long_lengths_expected;
  for (auto [offset, length] : host_runs(h_in))
  {
    values_expected.push_back(h_in[offset]);
    lengths_expected.push_back(length);
    if (length > 1)
    {
      long_offsets_expected.push_back(offset);
      long_lengths_expected.push_back(length);
    }
  }

  int* d_in       = to_device(h_in);
  int* d_first    = nullptr; // each run's value (Encode) or offset (NonTrivialRuns)
  int* d_lengths  = nullptr;
  int* d_num_runs = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_first, num_items * sizeof(int))); // room for every item: all may be runs of one
  EXAMPLE_CHECK(cudaMalloc(&d_lengths, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_num_runs, sizeof(int)));

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceRunLengthEncode::Encode(d_temp_storage, temp_storage_bytes, d_in, d_first, d_lengths,
                                                      d_num_runs, num_items));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceRunLengthEncode::Encode(d_temp_storage, temp_storage_bytes, d_in, d_first, d_lengths,
                                                      d_num_runs, num_items));
  bool correct = check_runs("DeviceRunLengthEncode::Encode (value, length)", d_num_runs, d_first, d_lengths, num_items,
                            values_expected, lengths_expected);
  EXAMPLE_CHECK(cudaFree(d_temp_storage));

  // NonTrivialRuns has its own two phases: its temporary storage may differ in size.
  d_temp_storage     = nullptr;
  temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp_storage, temp_storage_bytes, d_in, d_first,
                                                              d_lengths, d_num_runs, num_items));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp_storage, temp_storage_bytes, d_in, d_first,
                                                              d_lengths, d_num_runs, num_items));
  correct = check_runs("DeviceRunLengthEncode::NonTrivialRuns (offset, length)", d_num_runs, d_first, d_lengths,
                       num_items, long_offsets_expected, long_lengths_expected)
            && correct;

  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_first), static_cast<void*>(d_lengths),
                  static_cast<void*>(d_num_runs), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return correct;
}

//! Sums by key: the sum of the values (random, in [1, 100]) beside each run of equal sorted keys.
bool sums_by_key()
{
  const std::vector<int> h_keys = sorted_small_values();
  const int num_items           = static_cast<int>(h_keys.size());
  std::mt19937 generator(5);
  std::uniform_int_distribution<int> value(1, 100);
  std::vector<int> h_values(num_items);
  for (int& item : h_values)
  {
    item = value(generator);
  }
  std::vector<int> keys_expected, sums_expected;
  for (auto [offset, length] : host_runs(h_keys))
  {
    keys_expected.push_back(h_keys[offset]);
    sums_expected.push_back(std::accumulate(h_values.begin() + offset, h_values.begin() + offset + length, 0));
  }

  int* d_keys     = to_device(h_keys);
  int* d_values   = to_device(h_values);
  int* d_unique   = nullptr;
  int* d_sums     = nullptr;
  int* d_num_runs = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_unique, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_sums, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_num_runs, sizeof(int)));

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceReduce::ReduceByKey(d_temp_storage, temp_storage_bytes, d_keys, d_unique, d_values,
                                                  d_sums, d_num_runs, cuda::std::plus<>{}, num_items));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceReduce::ReduceByKey(d_temp_storage, temp_storage_bytes, d_keys, d_unique, d_values,
                                                  d_sums, d_num_runs, cuda::std::plus<>{}, num_items));
  const bool correct = check_runs("DeviceReduce::ReduceByKey (key, sum)", d_num_runs, d_unique, d_sums, num_items,
                                  keys_expected, sums_expected);

  for (void* p : {static_cast<void*>(d_keys), static_cast<void*>(d_values), static_cast<void*>(d_unique),
                  static_cast<void*>(d_sums), static_cast<void*>(d_num_runs), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return correct;
}

int main()
{
  example_require_gpu();

  bool correct = keep_positive_values();
  correct      = distinct_values_of_sorted() && correct;
  correct      = run_lengths_of_sorted() && correct;
  correct      = sums_by_key() && correct;
  return correct ? 0 : 1;
}

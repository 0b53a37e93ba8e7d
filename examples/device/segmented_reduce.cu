// Example: segmented reductions. DeviceSegmentedReduce reduces each segment of an input on its
// own: here the rows of a matrix stored row after row (segment r is items [r * columns,
// (r + 1) * columns), given by iterators that compute the offsets instead of arrays), summed with
// Sum, and the largest item of each row and its column found with ArgMax. Both take CUB's
// two-phase call: a size query for the temporary storage, then the run. main checks both results
// on the host and prints a few rows.
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <random>
#include <vector>

//! Row r's first item: r * columns.
struct row_start
{
  int columns;
  __host__ __device__ int operator()(int row) const
  {
    return row * columns;
  }
};

int main()
{
  example_require_gpu();

  const int rows    = 1000;
  const int columns = 517;
  std::mt19937 generator(11);
  std::uniform_int_distribution<int> value(-500, 500);
  std::vector<int> h_matrix(rows * columns);
  for (int& item : h_matrix)
  {
    item = value(generator);
  }
  int* d_matrix                            = nullptr;
  long long* d_sums                        = nullptr;
  strata::KeyValuePair<int, int>* d_maxima = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_matrix, h_matrix.size() * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_sums, rows * sizeof(long long)));
  EXAMPLE_CHECK(cudaMalloc(&d_maxima, rows * sizeof(strata::KeyValuePair<int, int>)));
  EXAMPLE_CHECK(cudaMemcpy(d_matrix, h_matrix.data(), h_matrix.size() * sizeof(int), cudaMemcpyHostToDevice));

  // Segment r begins at starts[r] and ends at starts[r + 1]: no offset array in memory.
  strata::TransformInputIterator<int, row_start, strata::CountingInputIterator<int>> starts(
      strata::CountingInputIterator<int>(0), row_start{columns});

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceSegmentedReduce::Sum(d_temp_storage, temp_storage_bytes, d_matrix, d_sums, rows, starts,
                                                   starts + 1));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceSegmentedReduce::Sum(d_temp_storage, temp_storage_bytes, d_matrix, d_sums, rows, starts,
                                                   starts + 1));
  size_t arg_bytes = 0;
  EXAMPLE_CHECK(
      strata::DeviceSegmentedReduce::ArgMax(nullptr, arg_bytes, d_matrix, d_maxima, rows, starts, starts + 1));
  void* d_arg_storage = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_arg_storage, arg_bytes));
  EXAMPLE_CHECK(
      strata::DeviceSegmentedReduce::ArgMax(d_arg_storage, arg_bytes, d_matrix, d_maxima, rows, starts, starts + 1));

  std::vector<long long> h_sums(rows);
  std::vector<strata::KeyValuePair<int, int>> h_maxima(rows);
  EXAMPLE_CHECK(cudaMemcpy(h_sums.data(), d_sums, rows * sizeof(long long), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(
      cudaMemcpy(h_maxima.data(), d_maxima, rows * sizeof(strata::KeyValuePair<int, int>), cudaMemcpyDeviceToHost));
  bool correct = true;
  for (int r = 0; r < rows; ++r)
  {
    long long sum = 0;
    int best      = 0; // the first column holding the row's largest item
    for (int c = 0; c < columns; ++c)
    {
      sum += h_matrix[r * columns + c];
      best = h_matrix[r * columns + c] > h_matrix[r * columns + best] ? c : best;
    }
    correct =
        correct && h_sums[r] == sum && h_maxima[r].key == best && h_maxima[r].value == h_matrix[r * columns + best];
  }
  for (int r = 0; r < 3; ++r)
  {
    std::printf("row %d: sum %lld, largest item %d in column %d\n", r, h_sums[r], h_maxima[r].value, h_maxima[r].key);
  }
  std::printf("DeviceSegmentedReduce::Sum and ArgMax over %d rows of %d: %s\n", rows, columns,
              correct ? "correct" : "WRONG");
  for (void* p : {static_cast<void*>(d_matrix), static_cast<void*>(d_sums), static_cast<void*>(d_maxima),
                  d_temp_storage, d_arg_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return correct ? 0 : 1;
}

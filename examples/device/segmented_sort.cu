// Example: sorting the rows of a CSR sparse matrix by column with strata::DeviceSegmentedSort::SortPairs.
// Each row is a segment of the column indices, [row_offsets[r], row_offsets[r + 1]): the begin
// offsets are row_offsets and the end offsets row_offsets + 1, and the values ride along with
// their columns. A random matrix of 100000 rows with 0 to 64 nonzeros each (distinct columns,
// shuffled within each row) is sorted; the host checks that every row is in column order and
// still holds each of its (column, value) pairs.
#include <strata/device/device_segmented_sort.cuh>

#include "../example_common.cuh"

#include <algorithm>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

int main()
{
  example_require_gpu();

  const int num_rows    = 100000;
  const int num_columns = 100000;
  std::mt19937 generator(2025);
  std::uniform_int_distribution<int> row_length(0, 64);
  std::uniform_int_distribution<int> column(0, num_columns - 1);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<int> h_row_offsets(num_rows + 1, 0);
  std::vector<int> h_columns;
  std::vector<float> h_values;
  for (int r = 0; r < num_rows; ++r)
  {
    const int begin  = h_row_offsets[r];
    const int length = row_length(generator);
    while (static_cast<int>(h_columns.size()) - begin < length)
    {
      const int c = column(generator);
      if (std::find(h_columns.begin() + begin, h_columns.end(), c) == h_columns.end()) // distinct in a row
      {
        h_columns.push_back(c);
        h_values.push_back(value(generator));
      }
    }
    h_row_offsets[r + 1] = static_cast<int>(h_columns.size());
  }
  // The columns come in the order they were drawn: each row is shuffled.
  const int num_nonzeros = h_row_offsets[num_rows];

  int* d_row_offsets  = nullptr;
  int* d_columns_in   = nullptr;
  int* d_columns_out  = nullptr;
  float* d_values_in  = nullptr;
  float* d_values_out = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_row_offsets, (num_rows + 1) * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_columns_in, num_nonzeros * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_columns_out, num_nonzeros * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_values_in, num_nonzeros * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_values_out, num_nonzeros * sizeof(float)));
  EXAMPLE_CHECK(cudaMemcpy(d_row_offsets, h_row_offsets.data(), (num_rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_columns_in, h_columns.data(), num_nonzeros * sizeof(int), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_values_in, h_values.data(), num_nonzeros * sizeof(float), cudaMemcpyHostToDevice));

  // Phase 1: the size query. Phase 2: the sort (asynchronously, on the default stream). The rows
  // are the segments: row r begins at d_row_offsets[r] and ends at (d_row_offsets + 1)[r].
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceSegmentedSort::SortPairs(d_temp_storage, temp_storage_bytes, d_columns_in, d_columns_out,
                                                       d_values_in, d_values_out, num_nonzeros, num_rows, d_row_offsets,
                                                       d_row_offsets + 1));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceSegmentedSort::SortPairs(d_temp_storage, temp_storage_bytes, d_columns_in, d_columns_out,
                                                       d_values_in, d_values_out, num_nonzeros, num_rows, d_row_offsets,
                                                       d_row_offsets + 1));

  std::vector<int> h_sorted_columns(num_nonzeros);
  std::vector<float> h_sorted_values(num_nonzeros);
  EXAMPLE_CHECK(cudaMemcpy(h_sorted_columns.data(), d_columns_out, num_nonzeros * sizeof(int), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaMemcpy(h_sorted_values.data(), d_values_out, num_nonzeros * sizeof(float), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaFree(d_temp_storage));
  EXAMPLE_CHECK(cudaFree(d_row_offsets));
  EXAMPLE_CHECK(cudaFree(d_columns_in));
  EXAMPLE_CHECK(cudaFree(d_columns_out));
  EXAMPLE_CHECK(cudaFree(d_values_in));
  EXAMPLE_CHECK(cudaFree(d_values_out));

  // Each row must be in increasing column order (its columns are distinct) and hold the same
  // (column, value) pairs as before: the input row's pairs, sorted on the host, must equal it.
  bool correct = true;
  int bad_row  = -1;
  int longest  = 0;
  for (int r = 0; r < num_rows && correct; ++r)
  {
    const int begin = h_row_offsets[r];
    const int end   = h_row_offsets[r + 1];
    std::vector<std::pair<int, float>> expected;
    for (int i = begin; i < end; ++i)
    {
      expected.emplace_back(h_columns[i], h_values[i]);
    }
    std::sort(expected.begin(), expected.end());
    for (int i = begin; i < end && correct; ++i)
    {
      correct = (i == begin || h_sorted_columns[i - 1] < h_sorted_columns[i])
                && h_sorted_columns[i] == expected[i - begin].first && h_sorted_values[i] == expected[i - begin].second;
    }
    if (!correct)
    {
      bad_row = r;
    }
    longest = std::max(longest, end - begin);
  }
  if (!correct)
  {
    std::printf("row %d of the CSR matrix is not sorted by column or lost a (column, value) pair: WRONG\n", bad_row);
    return 1;
  }
  std::printf("sorted the %d rows of a %d x %d CSR matrix (%d nonzeros, at most %d in a row) by column, values "
              "carried along (%zu bytes of temporary storage): correct\n",
              num_rows, num_rows, num_columns, num_nonzeros, longest, temp_storage_bytes);
  return 0;
}

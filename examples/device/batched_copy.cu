// Example: batched copies and adjacent differences. DeviceMemcpy::Batched copies many byte buffers
// of any sizes and alignments in one call (here a thousand messages packed into one array, moved
// to other places); DeviceCopy::Batched copies ranges given by iterators, which with constant
// iterators as sources decodes a run-length encoding. DeviceAdjacentDifference::SubtractLeftCopy
// turns a sequence into the differences of neighbours. Each takes CUB's two-phase call: a size
// query for the temporary storage, then the run. Each function checks its result on the host and
// prints it; main runs them in turn.
#include <strata/device/device_adjacent_difference.cuh>
#include <strata/device/device_copy.cuh>
#include <strata/device/device_memcpy.cuh>
#include <strata/iterator/constant_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

//! A thousand messages of 0 to 200 bytes, packed one after the other, copied to the same places
//! of another array shifted by 3 bytes (so that sources and destinations differ in alignment).
bool copy_messages()
{
  const int num_buffers = 1000;
  std::mt19937 generator(7);
  std::vector<size_t> h_sizes(num_buffers);
  std::vector<size_t> h_offsets(num_buffers);
  size_t total = 0;
  for (int b = 0; b < num_buffers; ++b)
  {
    h_sizes[b]   = generator() % 201;
    h_offsets[b] = total;
    total += h_sizes[b];
  }
  std::vector<unsigned char> h_src(total);
  for (unsigned char& byte : h_src)
  {
    byte = static_cast<unsigned char>(generator());
  }

  unsigned char* d_src = nullptr;
  unsigned char* d_dst = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_src, total));
  EXAMPLE_CHECK(cudaMalloc(&d_dst, total + 3));
  EXAMPLE_CHECK(cudaMemcpy(d_src, h_src.data(), total, cudaMemcpyHostToDevice));
  // The batch: a pointer to each source, a pointer to each destination, each size in bytes.
  std::vector<void*> h_srcs(num_buffers);
  std::vector<void*> h_dsts(num_buffers);
  for (int b = 0; b < num_buffers; ++b)
  {
    h_srcs[b] = d_src + h_offsets[b];
    h_dsts[b] = d_dst + 3 + h_offsets[b];
  }
  void** d_srcs   = nullptr;
  void** d_dsts   = nullptr;
  size_t* d_sizes = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_srcs, num_buffers * sizeof(void*)));
  EXAMPLE_CHECK(cudaMalloc(&d_dsts, num_buffers * sizeof(void*)));
  EXAMPLE_CHECK(cudaMalloc(&d_sizes, num_buffers * sizeof(size_t)));
  EXAMPLE_CHECK(cudaMemcpy(d_srcs, h_srcs.data(), num_buffers * sizeof(void*), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_dsts, h_dsts.data(), num_buffers * sizeof(void*), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_sizes, h_sizes.data(), num_buffers * sizeof(size_t), cudaMemcpyHostToDevice));

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(
      strata::DeviceMemcpy::Batched(d_temp_storage, temp_storage_bytes, d_srcs, d_dsts, d_sizes, num_buffers));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(
      strata::DeviceMemcpy::Batched(d_temp_storage, temp_storage_bytes, d_srcs, d_dsts, d_sizes, num_buffers));

  std::vector<unsigned char> h_dst(total);
  EXAMPLE_CHECK(cudaMemcpy(h_dst.data(), d_dst + 3, total, cudaMemcpyDeviceToHost)); // waits
  const bool correct = h_dst == h_src;
  std::printf("DeviceMemcpy::Batched: %d buffers, %zu bytes in all, to destinations 3 bytes off: %s\n", num_buffers,
              total, correct ? "correct" : "WRONG");
  for (void* p : {static_cast<void*>(d_src), static_cast<void*>(d_dst), static_cast<void*>(d_srcs),
                  static_cast<void*>(d_dsts), static_cast<void*>(d_sizes), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return correct;
}

//! Run r's source: a constant iterator repeating its value.
struct repeat_value
{
  __host__ __device__ strata::ConstantInputIterator<int> operator()(int value) const
  {
    return strata::ConstantInputIterator<int>(value);
  }
};

//! Run r's destination: the output from the run's offset on.
struct output_at
{
  int* d_out;
  __host__ __device__ int* operator()(int offset) const
  {
    return d_out + offset;
  }
};

//! Run-length decoding: values {1, 7, 3, 9} with lengths {2, 0, 3, 1} become {1, 1, 3, 3, 3, 9}.
bool decode_runs()
{
  const std::vector<int> h_values{1, 7, 3, 9};
  const std::vector<int> h_lengths{2, 0, 3, 1};
  std::vector<int> h_offsets(h_lengths.size());
  std::exclusive_scan(h_lengths.begin(), h_lengths.end(), h_offsets.begin(), 0);
  const int num_runs  = static_cast<int>(h_values.size());
  const int num_items = h_offsets.back() + h_lengths.back();

  int* d_values  = nullptr;
  int* d_lengths = nullptr;
  int* d_offsets = nullptr;
  int* d_out     = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_values, num_runs * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_lengths, num_runs * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_offsets, num_runs * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_values, h_values.data(), num_runs * sizeof(int), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_lengths, h_lengths.data(), num_runs * sizeof(int), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_offsets, h_offsets.data(), num_runs * sizeof(int), cudaMemcpyHostToDevice));

  // Iterators of iterators: run r copies d_lengths[r] items of a constant d_values[r] to
  // d_out + d_offsets[r].
  strata::TransformInputIterator<strata::ConstantInputIterator<int>, repeat_value, int*> sources(d_values, {});
  strata::TransformInputIterator<int*, output_at, int*> destinations(d_offsets, output_at{d_out});
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(
      strata::DeviceCopy::Batched(d_temp_storage, temp_storage_bytes, sources, destinations, d_lengths, num_runs));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(
      strata::DeviceCopy::Batched(d_temp_storage, temp_storage_bytes, sources, destinations, d_lengths, num_runs));

  std::vector<int> h_out(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_out.data(), d_out, num_items * sizeof(int), cudaMemcpyDeviceToHost));
  const bool correct = h_out == std::vector<int>{1, 1, 3, 3, 3, 9};
  std::printf("DeviceCopy::Batched run-length decoding:");
  for (int item : h_out)
  {
    std::printf(" %d", item);
  }
  std::printf(": %s\n", correct ? "correct" : "WRONG");
  for (void* p : {static_cast<void*>(d_values), static_cast<void*>(d_lengths), static_cast<void*>(d_offsets),
                  static_cast<void*>(d_out), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return correct;
}

//! Differences of neighbours: {1, 4, 9, 16, 25} becomes {1, 3, 5, 7, 9} (the first item stays).
bool neighbour_differences()
{
  const std::vector<int> h_in{1, 4, 9, 16, 25};
  const int num_items = static_cast<int>(h_in.size());
  int* d_in           = nullptr;
  int* d_out          = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(
      strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(
      strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items));

  std::vector<int> h_out(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_out.data(), d_out, num_items * sizeof(int), cudaMemcpyDeviceToHost));
  const bool correct = h_out == std::vector<int>{1, 3, 5, 7, 9};
  std::printf("DeviceAdjacentDifference::SubtractLeftCopy:");
  for (int item : h_out)
  {
    std::printf(" %d", item);
  }
  std::printf(": %s\n", correct ? "correct" : "WRONG");
  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_out), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return correct;
}

int main()
{
  example_require_gpu();

  bool correct = copy_messages();
  correct      = decode_runs() && correct;
  correct      = neighbour_differences() && correct;
  return correct ? 0 : 1;
}

// One translation unit as a user writes it: DeviceSelect::If with a functor and DeviceSelect::Unique
// on int (size query, then the run), through strata or CUB (see compile_cost.cuh).
#include "compile_cost.cuh"

struct is_positive
{
  __host__ __device__ bool operator()(int x) const
  {
    return x > 0;
  }
};

cudaError_t SelectPositiveThenUnique(void* d_temp, size_t& temp_bytes, const int* d_in, int* d_positive, int* d_unique,
                                     int* d_counts, int n, cudaStream_t stream)
{
  size_t if_bytes     = 0;
  size_t unique_bytes = 0;
  cudaError_t error   = lib::DeviceSelect::If(nullptr, if_bytes, d_in, d_positive, d_counts, n, is_positive{}, stream);
  if (error == cudaSuccess)
  {
    error = lib::DeviceSelect::Unique(nullptr, unique_bytes, d_in, d_unique, d_counts + 1, n, stream);
  }
  if (error != cudaSuccess || d_temp == nullptr)
  {
    temp_bytes = if_bytes > unique_bytes ? if_bytes : unique_bytes;
    return error;
  }
  error = lib::DeviceSelect::If(d_temp, if_bytes, d_in, d_positive, d_counts, n, is_positive{}, stream);
  if (error == cudaSuccess)
  {
    error = lib::DeviceSelect::Unique(d_temp, unique_bytes, d_in, d_unique, d_counts + 1, n, stream);
  }
  return error;
}

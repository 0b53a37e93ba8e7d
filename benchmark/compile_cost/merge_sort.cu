// One translation unit as a user writes it: DeviceMergeSort::SortPairs of float keys with int
// values by a functor (size query, then the sort), through strata or CUB (see compile_cost.cuh).
#include "compile_cost.cuh"

struct by_magnitude
{
  __host__ __device__ bool operator()(float a, float b) const
  {
    return (a < 0 ? -a : a) < (b < 0 ? -b : b);
  }
};

cudaError_t SortByMagnitude(void* d_temp, size_t& temp_bytes, float* d_keys, int* d_values, int n, cudaStream_t stream)
{
  return lib::DeviceMergeSort::SortPairs(d_temp, temp_bytes, d_keys, d_values, n, by_magnitude{}, stream);
}

// One translation unit as a user writes it: DeviceSegmentedReduce::Sum of float segments given by
// an offsets array (size query, then the run), through strata or CUB (see compile_cost.cuh).
#include "compile_cost.cuh"

cudaError_t SegmentSums(void* d_temp, size_t& temp_bytes, const float* d_in, float* d_sums, const int* d_offsets,
                        int num_segments, cudaStream_t stream)
{
  return lib::DeviceSegmentedReduce::Sum(d_temp, temp_bytes, d_in, d_sums, num_segments, d_offsets, d_offsets + 1,
                                         stream);
}

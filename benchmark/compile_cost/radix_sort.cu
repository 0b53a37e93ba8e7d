// One translation unit as a user writes it: DeviceRadixSort::SortPairs of uint32_t keys with
// uint32_t values (size query, then the sort), through strata or CUB (see compile_cost.cuh).
#include "compile_cost.cuh"

#include <cstdint>

cudaError_t SortPairs(void* d_temp, size_t& temp_bytes, const std::uint32_t* d_keys_in, std::uint32_t* d_keys_out,
                      const std::uint32_t* d_values_in, std::uint32_t* d_values_out, int n, cudaStream_t stream)
{
  return lib::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0, 32,
                                         stream);
}

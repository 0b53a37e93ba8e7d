// One translation unit as a user writes it: DeviceReduce::Sum and DeviceScan::InclusiveSum on
// uint32_t, through strata or, with -DCOMPILE_COST_CUB, through CUB (scripts/compile-cost times both).
#include "compile_cost.cuh"

#include <cstdint>

cudaError_t SumAndScan(void* d_temp, size_t& temp_bytes, const std::uint32_t* d_in, std::uint32_t* d_sum,
                       std::uint32_t* d_scan, int n, cudaStream_t stream)
{
  size_t reduce_bytes = 0;
  size_t scan_bytes   = 0;
  cudaError_t error   = lib::DeviceReduce::Sum(nullptr, reduce_bytes, d_in, d_sum, n, stream);
  if (error == cudaSuccess)
  {
    error = lib::DeviceScan::InclusiveSum(nullptr, scan_bytes, d_in, d_scan, n, stream);
  }
  if (error != cudaSuccess || d_temp == nullptr)
  {
    temp_bytes = reduce_bytes > scan_bytes ? reduce_bytes : scan_bytes;
    return error;
  }
  error = lib::DeviceReduce::Sum(d_temp, reduce_bytes, d_in, d_sum, n, stream);
  if (error == cudaSuccess)
  {
    error = lib::DeviceScan::InclusiveSum(d_temp, scan_bytes, d_in, d_scan, n, stream);
  }
  return error;
}

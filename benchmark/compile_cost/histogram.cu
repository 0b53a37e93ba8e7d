// One translation unit as a user writes it: DeviceHistogram::HistogramEven of uint8_t samples into
// 256 int counters, and MultiHistogramEven<4, 3> of RGBA pixels (the cuda::std::array form), through
// strata or CUB (see compile_cost.cuh).
#include "compile_cost.cuh"

#include <cuda/std/array>

#include <cstdint>

cudaError_t Histograms(void* d_temp, size_t& temp_bytes, const std::uint8_t* d_samples, int* d_histogram,
                       cuda::std::array<int*, 3> d_rgb, int n, cudaStream_t stream)
{
  size_t even_bytes                     = 0;
  size_t multi_bytes                    = 0;
  const cuda::std::array<int, 3> levels = {257, 257, 257};
  const cuda::std::array<int, 3> lower  = {0, 0, 0};
  const cuda::std::array<int, 3> upper  = {256, 256, 256};
  cudaError_t error =
      lib::DeviceHistogram::HistogramEven(nullptr, even_bytes, d_samples, d_histogram, 257, 0, 256, n, stream);
  if (error == cudaSuccess)
  {
    error = lib::DeviceHistogram::MultiHistogramEven<4, 3>(nullptr, multi_bytes, d_samples, d_rgb, levels, lower, upper,
                                                           n / 4, stream);
  }
  if (error != cudaSuccess || d_temp == nullptr)
  {
    temp_bytes = even_bytes > multi_bytes ? even_bytes : multi_bytes;
    return error;
  }
  error = lib::DeviceHistogram::HistogramEven(d_temp, even_bytes, d_samples, d_histogram, 257, 0, 256, n, stream);
  if (error == cudaSuccess)
  {
    error = lib::DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, multi_bytes, d_samples, d_rgb, levels, lower, upper,
                                                           n / 4, stream);
  }
  return error;
}

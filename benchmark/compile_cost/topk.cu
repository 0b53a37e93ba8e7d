// One translation unit as a user writes it: DeviceTopK::MaxKeys of float keys and MaxPairs of
// float keys with uint32_t values (size query, then the call), through strata or CUB 3.5 (see
// compile_cost.cuh; CUB 3.5's headers come from scripts/compile-cost --cccl-next). CUB is given
// the only requirements it compiles (nondeterministic, unsorted); strata gives its default.
#include "compile_cost.cuh"

#include <cstdint>

#if defined(COMPILE_COST_CUB)
#  include <cuda/stream>

static auto environment(cudaStream_t stream)
{
  return cuda::std::execution::env{cuda::stream_ref{stream},
                                   cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                            cuda::execution::output_ordering::unsorted)};
}
#else
static cudaStream_t environment(cudaStream_t stream)
{
  return stream;
}
#endif

cudaError_t MaxKeys(void* d_temp, size_t& temp_bytes, const float* d_keys_in, float* d_keys_out, int n, int k,
                    cudaStream_t stream)
{
  return lib::DeviceTopK::MaxKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n, k, environment(stream));
}

cudaError_t MaxPairs(void* d_temp, size_t& temp_bytes, const float* d_keys_in, float* d_keys_out,
                     const std::uint32_t* d_values_in, std::uint32_t* d_values_out, int n, int k, cudaStream_t stream)
{
  return lib::DeviceTopK::MaxPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, k,
                                   environment(stream));
}

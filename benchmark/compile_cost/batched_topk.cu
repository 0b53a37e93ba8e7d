// One translation unit as a user writes it: DeviceBatchedTopK::MaxKeys and MaxPairs (uint32_t
// values) of float keys in segments of 1024 items, k = 32 (size query, then the call), through
// strata or CUB 3.5 (see compile_cost.cuh; CUB 3.5's headers come from scripts/compile-cost
// --cccl-next). CUB is given the only requirements it compiles (nondeterministic, unsorted) and the
// segment size as the compile-time constant it needs; strata takes plain integers.
#include "compile_cost.cuh"

#include <cstdint>

#if defined(COMPILE_COST_CUB)
#  include <cuda/argument>
#  include <cuda/stream>

static auto environment(cudaStream_t stream)
{
  return cuda::std::execution::env{cuda::stream_ref{stream},
                                   cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                            cuda::execution::tie_break::unspecified,
                                                            cuda::execution::output_ordering::unsorted)};
}
static auto segment_size()
{
  return cuda::args::constant<1024>{};
}
#else
static cudaStream_t environment(cudaStream_t stream)
{
  return stream;
}
static int segment_size()
{
  return 1024;
}
#endif

cudaError_t MaxKeys(void* d_temp, size_t& temp_bytes, const float* const* d_keys_in, float* const* d_keys_out,
                    int num_segments, cudaStream_t stream)
{
  return lib::DeviceBatchedTopK::MaxKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, segment_size(), 32, num_segments,
                                         environment(stream));
}

cudaError_t MaxPairs(void* d_temp, size_t& temp_bytes, const float* const* d_keys_in, float* const* d_keys_out,
                     const std::uint32_t* const* d_values_in, std::uint32_t* const* d_values_out, int num_segments,
                     cudaStream_t stream)
{
  return lib::DeviceBatchedTopK::MaxPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                          segment_size(), 32, num_segments, environment(stream));
}

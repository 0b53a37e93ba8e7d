// strata/detail/single_call.cuh: WithTemporaryStorage, how the single-call forms of a device
// algorithm (those without temporary-storage arguments) size, allocate and free their storage.
#pragma once

#include <strata/config.cuh>
#include <strata/util_device.cuh> // host code: under NVRTC its guard stops the compilation first

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! The single-call forms: sizes the temporary storage, allocates it stream-ordered
//! (cudaMallocAsync on `stream`), runs `call(d_temp_storage, temp_storage_bytes)` and frees it.
template <typename CallT>
STRATA_RUNTIME_FUNCTION cudaError_t WithTemporaryStorage(cudaStream_t stream, CallT call)
{
  size_t bytes      = 0;
  cudaError_t error = call(nullptr, bytes);
  if (error != cudaSuccess)
  {
    return error;
  }
  void* d_temp_storage = nullptr;
  error                = cudaMallocAsync(&d_temp_storage, bytes, stream);
  if (error != cudaSuccess)
  {
    return error;
  }
  error                        = call(d_temp_storage, bytes);
  const cudaError_t free_error = cudaFreeAsync(d_temp_storage, stream);
  return error != cudaSuccess ? error : free_error;
}
} // namespace detail
STRATA_NAMESPACE_END

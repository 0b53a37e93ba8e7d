// strata/detail/copy_bytes.cuh: memcpy in host and device code with every libcu++ strata supports.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/cstddef>

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! Copies `bytes` bytes of object representation from `src` to `dst` (host or device code).
//! cuda::std::memcpy does the same, but libcu++ has it only from CCCL 3.0 (CUDA 13).
STRATA_HOST_DEVICE STRATA_FORCEINLINE void CopyBytes(void* dst, const void* src, ::cuda::std::size_t bytes)
{
#if defined(__CUDACC_RTC__)
  memcpy(dst, src, bytes); // NVRTC has no __builtin_memcpy; memcpy is built in there
#else
  __builtin_memcpy(dst, src, bytes);
#endif
}
} // namespace detail
STRATA_NAMESPACE_END

// strata/util_debug.cuh: error reporting (StrataDebug, StrataDebugExit) and debug synchronization.
//
// Define STRATA_STDERR before including strata to have every failing StrataDebug(...) print
// the error with its file and line (to stderr on the host, with printf on the device).
// Define STRATA_DEBUG_SYNC to synchronize the stream and check for errors after every kernel
// launch a device algorithm makes (slow; for finding the launch that fails).
#pragma once

#include <strata/config.cuh>

#include <cstdio>
#include <cstdlib>

STRATA_NAMESPACE_BEGIN

//! Returns `error` unchanged; if it is not cudaSuccess, clears the runtime's last (non-sticky)
//! error on the host and, when STRATA_STDERR is defined, prints it with `filename` and `line`.
STRATA_HOST_DEVICE inline cudaError_t Debug(cudaError_t error, const char* filename, int line)
{
  if (error != cudaSuccess)
  {
    // A caller that handles the returned code should not see it again from cudaGetLastError().
    NV_IF_TARGET(NV_IS_HOST, (static_cast<void>(cudaGetLastError());));
#if defined(STRATA_STDERR)
    NV_IF_TARGET(
        NV_IS_HOST,
        (std::fprintf(stderr, "strata: CUDA error %d (%s) at %s:%d\n", static_cast<int>(error),
                      cudaGetErrorString(error), filename, line);
         std::fflush(stderr);),
        (printf("strata: CUDA error %d at %s:%d [block (%u,%u,%u), thread (%u,%u,%u)]\n", static_cast<int>(error),
                filename, line, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);));
#else
    static_cast<void>(filename);
    static_cast<void>(line);
#endif
  }
  return error;
}

namespace detail
{
//! After a kernel launch: with STRATA_DEBUG_SYNC, waits for `stream` and returns the first error
//! (the launch's own, then the kernel's); otherwise returns cudaSuccess without waiting.
STRATA_RUNTIME_FUNCTION inline cudaError_t DebugSyncStream([[maybe_unused]] cudaStream_t stream)
{
#if defined(STRATA_DEBUG_SYNC)
  const cudaError_t launch_error = cudaPeekAtLastError();
  if (launch_error != cudaSuccess)
  {
    return launch_error;
  }
  // The device runtime cannot wait for a stream: there only the launch error is known.
  NV_IF_TARGET(NV_IS_HOST, (return cudaStreamSynchronize(stream);), (return cudaSuccess;));
#else
  return cudaSuccess;
#endif
}
} // namespace detail

STRATA_NAMESPACE_END

//! Passes a CUDA error code through strata::Debug with the caller's file and line.
#define StrataDebug(error) ::strata::Debug(static_cast<cudaError_t>(error), __FILE__, __LINE__)

//! Like StrataDebug, but exits the program with status 1 when the code is an error.
#define StrataDebugExit(error)                                                                                         \
  do                                                                                                                   \
  {                                                                                                                    \
    if (StrataDebug(error))                                                                                            \
    {                                                                                                                  \
      ::std::exit(1);                                                                                                  \
    }                                                                                                                  \
  } while (false)

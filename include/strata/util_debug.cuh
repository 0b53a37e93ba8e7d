// strata/util_debug.cuh: error reporting (STRATA_DEBUG, STRATA_DEBUG_EXIT, STRATA_INVALID_ARGUMENT),
// launch logging (STRATA_LOG) and debug synchronization. A host compiler may read it.
//
// Switches a program may define before including strata:
// - STRATA_STDERR: every failing STRATA_DEBUG(...) prints the error with its file and line (to
//   stderr on the host, with printf on the device), and a device call that rejects an argument
//   prints why (STRATA_INVALID_ARGUMENT). DEBUG or _DEBUG turn it on, as in CUB.
// - STRATA_DEBUG_SYNC: after every kernel launch a device algorithm makes, synchronize the stream
//   and check for errors (slow; for finding the launch that fails). Implies STRATA_DEBUG_LOG.
// - STRATA_DEBUG_LOG: print every kernel launch of a device algorithm and its outcome.
// - STRATA_DEBUG_ALL: both STRATA_DEBUG_LOG and STRATA_DEBUG_SYNC.
#pragma once

#include <strata/version.cuh>
#include <strata/util_macro.cuh>
#include <strata/util_namespace.cuh>
#include <strata/util_arch.cuh>

#include <nv/target>

#if !defined(__CUDACC_RTC__) // NVRTC compiles device code alone: printf is built in there
#  include <cstdio>
#  include <cstdlib>
#endif

#if defined(STRATA_DEBUG_ALL)
#  if !defined(STRATA_DEBUG_LOG)
#    define STRATA_DEBUG_LOG
#  endif
#  if !defined(STRATA_DEBUG_SYNC)
#    define STRATA_DEBUG_SYNC
#  endif
#endif
#if defined(STRATA_DEBUG_SYNC) && !defined(STRATA_DEBUG_LOG)
#  define STRATA_DEBUG_LOG
#endif
#if (defined(DEBUG) || defined(_DEBUG)) && !defined(STRATA_STDERR)
#  define STRATA_STDERR
#endif

//! printf(format, ...) on the host; on the device prefixed with the calling block and thread
//! (CUB's _CubLog). At least one argument must follow the format.
#define STRATA_LOG(format, ...)                                                                                        \
  do                                                                                                                   \
  {                                                                                                                    \
    NV_IF_TARGET(NV_IS_HOST, (std::printf(format, __VA_ARGS__);),                                                      \
                 (printf("[block (%u,%u,%u), thread (%u,%u,%u)]: " format, blockIdx.x, blockIdx.y, blockIdx.z,         \
                         threadIdx.x, threadIdx.y, threadIdx.z, __VA_ARGS__);));                                       \
  } while (false)

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Returns `error` unchanged; if it is not cudaSuccess, clears the runtime's last (non-sticky)
//! error on the host and, when STRATA_STDERR is defined, prints it with `filename` and `line`.
//! strata's own host code reports its errors through it: an unrelated pending error stays pending.
STRATA_HOST_DEVICE inline cudaError_t ReportError(cudaError_t error, const char* filename, int line)
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
#endif
  }
  static_cast<void>(filename);
  static_cast<void>(line);
  return error;
}

//! Returns cudaErrorInvalidValue, for a device call whose argument is bad; when STRATA_STDERR is
//! defined, prints `what` (why the argument is bad) with `filename` and `line`. Unlike
//! ReportError it neither queries nor clears the runtime's error: no CUDA call is made.
STRATA_HOST_DEVICE inline cudaError_t InvalidArgument(const char* what, const char* filename, int line)
{
#if defined(STRATA_STDERR)
  NV_IF_TARGET(
      NV_IS_HOST,
      (std::fprintf(stderr, "strata: invalid argument: %s (cudaErrorInvalidValue) at %s:%d\n", what, filename, line);
       std::fflush(stderr);),
      (printf("strata: invalid argument: %s (cudaErrorInvalidValue) at %s:%d [block (%u,%u,%u), thread (%u,%u,%u)]\n",
              what, filename, line, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);));
#endif
  static_cast<void>(what);
  static_cast<void>(filename);
  static_cast<void>(line);
  return cudaErrorInvalidValue;
}
} // namespace detail

//! Returns `error`, or, when that is cudaSuccess, the runtime's pending error, which it clears
//! (cudaGetLastError(): on the host, and on the device with relocatable device code). A result
//! other than cudaSuccess is printed with `filename` and `line` when STRATA_STDERR is defined.
STRATA_HOST_DEVICE inline cudaError_t Debug(cudaError_t error, const char* filename, int line)
{
#if defined(STRATA_RDC_ENABLED)
  const cudaError_t last_error = cudaGetLastError();
#else
  cudaError_t last_error = cudaSuccess;
  NV_IF_TARGET(NV_IS_HOST, (last_error = cudaGetLastError();));
#endif
  return detail::ReportError(error != cudaSuccess ? error : last_error, filename, line);
}

#if !defined(__CUDACC_RTC__) // host code: the launches of the device layer
namespace detail
{
//! After a kernel launch: with STRATA_DEBUG_SYNC, waits for `stream` and returns the first error
//! (the launch's own, then the kernel's); otherwise returns cudaSuccess without waiting. With
//! STRATA_DEBUG_LOG, prints the outcome.
STRATA_RUNTIME_FUNCTION inline cudaError_t DebugSyncStream([[maybe_unused]] cudaStream_t stream)
{
#  if defined(STRATA_DEBUG_SYNC)
  cudaError_t error = cudaPeekAtLastError();
  if (error == cudaSuccess)
  {
    // The device runtime cannot wait for a stream: there only the launch error is known.
    NV_IF_TARGET(NV_IS_HOST, (error = cudaStreamSynchronize(stream);));
  }
  STRATA_LOG("strata: kernel on stream %p finished with CUDA error %d\n", static_cast<void*>(stream),
             static_cast<int>(error));
  return error;
#  else
#    if defined(STRATA_DEBUG_LOG)
  STRATA_LOG("strata: kernel launched on stream %p\n", static_cast<void*>(stream));
#    endif
  return cudaSuccess;
#  endif
}
} // namespace detail
#endif

STRATA_NAMESPACE_END

//! Passes a CUDA error code through strata::Debug with the caller's file and line: the code, or
//! the pending one when the code is cudaSuccess (CubDebug).
#define STRATA_DEBUG(error) ::strata::Debug(static_cast<cudaError_t>(error), __FILE__, __LINE__)

//! strata's own error reports: detail::ReportError with the caller's file and line.
#define STRATA_DETAIL_REPORT(error) ::strata::detail::ReportError(static_cast<cudaError_t>(error), __FILE__, __LINE__)

//! A bad argument of a device call: cudaErrorInvalidValue, with the reason `what` (a string)
//! printed with the caller's file and line when STRATA_STDERR is defined.
#define STRATA_INVALID_ARGUMENT(what) ::strata::detail::InvalidArgument(what, __FILE__, __LINE__)

//! Like STRATA_DEBUG, but exits the program with status 1 when the result is an error
//! (CubDebugExit).
#define STRATA_DEBUG_EXIT(error)                                                                                       \
  do                                                                                                                   \
  {                                                                                                                    \
    if (STRATA_DEBUG(error))                                                                                           \
    {                                                                                                                  \
      ::std::exit(1);                                                                                                  \
    }                                                                                                                  \
  } while (false)

// strata/util_macro.cuh: execution-space, inlining and kernel-declaration macros.
//
// A host compiler may read this header (and version, util_namespace, util_arch, util_math,
// util_debug, util_device, util_allocator): there the execution-space macros expand to nothing.
// Every other strata header needs a CUDA compiler and says so (see config.cuh).
#pragma once

#include <cuda_runtime_api.h>

#if __cplusplus < 201703L
#  error "strata needs C++17 or later (-std=c++17)."
#endif

#if defined(__CUDACC__)
//! A function callable from host and device code.
#  define STRATA_HOST_DEVICE __host__ __device__
//! A function callable from device code only.
#  define STRATA_DEVICE __device__
//! A function callable from host code only.
#  define STRATA_HOST __host__
//! Forces inlining in hot device paths (register arrays must stay in registers).
#  define STRATA_FORCEINLINE __forceinline__
#else
#  define STRATA_HOST_DEVICE
#  define STRATA_DEVICE
#  define STRATA_HOST
#  define STRATA_FORCEINLINE inline
#endif

//! Device-layer entry points: host code, and device code too when relocatable device code
//! (and so CUDA dynamic parallelism) is enabled.
#if defined(__CUDACC_RDC__)
#  define STRATA_RDC_ENABLED 1
#  define STRATA_RUNTIME_FUNCTION STRATA_HOST_DEVICE
#else
#  define STRATA_RUNTIME_FUNCTION STRATA_HOST
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define STRATA_DETAIL_VISIBILITY_HIDDEN __attribute__((visibility("hidden")))
#else
#  define STRATA_DETAIL_VISIBILITY_HIDDEN
#endif

//! Declares a strata kernel: `__global__` with hidden visibility, so that kernels instantiated
//! in different shared libraries never resolve to one another.
#define STRATA_KERNEL_ATTRIBUTES __global__ STRATA_DETAIL_VISIBILITY_HIDDEN

//! Around kernel definitions: a kernel instantiated with a user type of internal linkage (in an
//! anonymous namespace, a lambda) cannot be hidden, and nvcc warns (1407) that the attribute does
//! not apply. That is expected and harmless, so the kernels' definitions silence it. nvcc 12 also
//! puts the attribute where the host compiler ignores it (and warns): silenced there too.
#if defined(__NVCC__) && (defined(__GNUC__) || defined(__clang__))
#  define STRATA_KERNELS_BEGIN                                                                                         \
    _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1407") _Pragma("GCC diagnostic push")                      \
        _Pragma("GCC diagnostic ignored \"-Wattributes\"")
#  define STRATA_KERNELS_END _Pragma("GCC diagnostic pop") _Pragma("nv_diagnostic pop")
#elif defined(__NVCC__)
#  define STRATA_KERNELS_BEGIN _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1407")
#  define STRATA_KERNELS_END _Pragma("nv_diagnostic pop")
#else
#  define STRATA_KERNELS_BEGIN
#  define STRATA_KERNELS_END
#endif

//! Placed before a `__host__ __device__` template that calls user code (an operator, a
//! comparison): nvcc otherwise rejects instantiations used only on the host whose callee is a
//! host function, e.g. any host lambda (error 20013).
#if defined(__NVCC__)
#  define STRATA_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#  define STRATA_EXEC_CHECK_DISABLE
#endif

#if defined(__SIZEOF_INT128__)
//! Defined when the compiler has __int128 / unsigned __int128 (host and device).
#  define STRATA_HAS_INT128 1
#endif

//! Quotes its argument after macro expansion.
#define STRATA_STRINGIFY(x) STRATA_DETAIL_STRINGIFY_IMPL(x)
#define STRATA_DETAIL_STRINGIFY_IMPL(x) #x

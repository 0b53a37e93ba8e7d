// strata/config.cuh: everything a strata device header needs first (version, namespaces, macros,
// arch).
//
// The headers a host compiler may read (version, util_macro, util_namespace, util_arch, util_math,
// util_debug, util_device, util_allocator) include these parts directly; every other header
// includes this one, so this is where they stop outside a CUDA compiler.
#pragma once

#if !defined(__CUDACC__)
#  error                                                                                                               \
      "this strata header needs a CUDA compiler (nvcc); a host compiler may include only version, util_macro, util_namespace, util_arch, util_math, util_debug, util_device and util_allocator"
#endif

// CCCL's configuration macros (_CCCL_COMPILER(...), ...), as <cub/config.cuh> makes them available.
#if !__has_include(<cuda/__cccl_config>)
#  error                                                                                                               \
      "strata needs libcu++ from CCCL 2.8 or newer (CUDA 12.9 ships it); with an older toolkit, put a newer CCCL's include folder ahead of the toolkit's."
#else
#  include <cuda/__cccl_config>
#endif
#include <nv/target>

// The oldest toolkit and libcu++ strata is built and tested with.
#if defined(__CUDACC_VER_MAJOR__)                                                                                      \
    && (__CUDACC_VER_MAJOR__ < 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ < 4))
#  error "strata needs nvcc 12.4 or newer (CUDA 12.4)."
#endif
#if !defined(CCCL_VERSION) || CCCL_VERSION < 2008000
#  error                                                                                                               \
      "strata needs libcu++ from CCCL 2.8 or newer (CUDA 12.9 ships it); with an older toolkit, put a newer CCCL's include folder ahead of the toolkit's."
#endif

#include <strata/version.cuh>
#include <strata/util_macro.cuh>
#include <strata/util_namespace.cuh>
#include <strata/util_arch.cuh>

// strata's kernels use instructions of Turing and later; older targets stop here, not in ptxas.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750
#  error "strata needs compute capability 7.5 (sm_75, Turing) or newer; this pass compiles for an older architecture."
#endif

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

#include <strata/version.cuh>
#include <strata/util_macro.cuh>
#include <strata/util_namespace.cuh>
#include <strata/util_arch.cuh>

#include <nv/target>

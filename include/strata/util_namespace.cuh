// strata/util_namespace.cuh: the namespace macros and the versioned inline ABI namespace.
//
// Everything in strata lives in `strata::<abi>::`, an inline namespace whose name encodes the
// strata version and the architectures of this compilation (__CUDA_ARCH_LIST__), e.g.
// `strata::SV_100_SM_800_900`. Two shared libraries built with different strata versions or
// architecture lists therefore never share a kernel symbol, and a program may link both.
#pragma once

#include <strata/version.cuh>

#define STRATA_DETAIL_CAT_IMPL(a, b) a##b
#define STRATA_DETAIL_CAT(a, b) STRATA_DETAIL_CAT_IMPL(a, b)

// Counts 1..16 macro arguments (nvcc's architecture list is rarely longer than a handful).
#define STRATA_DETAIL_NARGS_IMPL(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define STRATA_DETAIL_NARGS(...)                                                                                       \
  STRATA_DETAIL_NARGS_IMPL(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

// Joins a list of architecture numbers into one identifier piece: (800, 900) -> _800_900.
#define STRATA_DETAIL_ARCHS_1(a) STRATA_DETAIL_CAT(_, a)
#define STRATA_DETAIL_ARCHS_2(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_1(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_3(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_2(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_4(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_3(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_5(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_4(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_6(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_5(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_7(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_6(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_8(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_7(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_9(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_8(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_10(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_9(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_11(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_10(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_12(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_11(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_13(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_12(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_14(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_13(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_15(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_14(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS_16(a, ...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_1(a), STRATA_DETAIL_ARCHS_15(__VA_ARGS__))
#define STRATA_DETAIL_ARCHS(...) STRATA_DETAIL_CAT(STRATA_DETAIL_ARCHS_, STRATA_DETAIL_NARGS(__VA_ARGS__))(__VA_ARGS__)

#if defined(__CUDA_ARCH_LIST__)
#  define STRATA_DETAIL_ARCH_TAG STRATA_DETAIL_CAT(SM, STRATA_DETAIL_ARCHS(__CUDA_ARCH_LIST__))
#else
#  define STRATA_DETAIL_ARCH_TAG SM_none
#endif

//! The name of the inline ABI namespace, e.g. SV_100_SM_800_900.
#define STRATA_ABI_NAMESPACE                                                                                           \
  STRATA_DETAIL_CAT(STRATA_DETAIL_CAT(SV_, STRATA_VERSION), STRATA_DETAIL_CAT(_, STRATA_DETAIL_ARCH_TAG))

//! Opens `namespace strata` and its versioned inline namespace.
#define STRATA_NAMESPACE_BEGIN                                                                                         \
  namespace strata                                                                                                     \
  {                                                                                                                    \
  inline namespace STRATA_ABI_NAMESPACE                                                                                \
  {
//! Closes what STRATA_NAMESPACE_BEGIN opened.
#define STRATA_NAMESPACE_END                                                                                           \
  }                                                                                                                    \
  }

//! The qualified name of strata's namespace (CUB's CUB_NS_QUALIFIER).
#define STRATA_NS_QUALIFIER ::strata

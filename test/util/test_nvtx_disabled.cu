// Part of test_nvtx: compiled without STRATA_ENABLE_NVTX (the default; test_nvtx.cu has it), so
// that strata's NVTX ranges are compiled out here. Only the macro is used in this file: strata's
// templates instantiated here and in test_nvtx.cu would otherwise differ between the two.
#include <strata/detail/nvtx.cuh>

#if defined(STRATA_ENABLE_NVTX)
#  error "test_nvtx_disabled.cu must be compiled without STRATA_ENABLE_NVTX"
#endif

//! Runs a scope with a range; returns whether strata's NVTX support is compiled in here.
bool StrataTestNvtxDisabledScope()
{
  STRATA_NVTX_RANGE_SCOPE("strata::test::disabled");
#if defined(STRATA_HAS_NVTX)
  return true;
#else
  return false;
#endif
}

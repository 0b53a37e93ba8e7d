// strata/detail/nvtx.cuh: NVTX ranges around device calls, so that strata's calls show up by name
// in Nsight Systems (domain "strata"). Off unless STRATA_ENABLE_NVTX is defined (NVTX's
// header-only implementation adds about 110 KB of object code and half a second of compile time
// to every translation unit that includes it); STRATA_DISABLE_NVTX wins over it. Uses the NVTX v3
// C API of the CUDA toolkit.
#pragma once

#include <strata/config.cuh>

#include <nv/target>

// The ranges are host code: device compilation passes leave NVTX out.
#if defined(STRATA_ENABLE_NVTX) && !defined(STRATA_DISABLE_NVTX) && !defined(__CUDA_ARCH__)                            \
    && __has_include(<nvtx3/nvToolsExt.h>)
#  define STRATA_HAS_NVTX 1
#  include <nvtx3/nvToolsExt.h>
#endif

STRATA_NAMESPACE_BEGIN
namespace detail
{
#if defined(STRATA_HAS_NVTX)
//! The "strata" NVTX domain, created on first use.
inline nvtxDomainHandle_t NvtxDomain()
{
  static const nvtxDomainHandle_t domain = nvtxDomainCreateA("strata");
  return domain;
}

//! An NVTX range that is open from Start() to the end of the object's scope.
class NvtxRange
{
public:
  STRATA_HOST_DEVICE NvtxRange() {}
  NvtxRange(const NvtxRange&)            = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;

  void Start(nvtxStringHandle_t name)
  {
    nvtxEventAttributes_t attributes{};
    attributes.version            = NVTX_VERSION;
    attributes.size               = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType        = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = name;
    nvtxDomainRangePushEx(NvtxDomain(), &attributes);
    open_ = true;
  }
  STRATA_HOST_DEVICE ~NvtxRange()
  {
    NV_IF_TARGET(NV_IS_HOST, (if (open_) { nvtxDomainRangePop(NvtxDomain()); }));
  }

private:
  bool open_ = false;
};

//! Registers `name` in the strata domain once per call site.
#  define STRATA_NVTX_RANGE_SCOPE_IF(condition, name)                                                                  \
    ::strata::detail::NvtxRange strata_nvtx_range_;                                                                    \
    NV_IF_TARGET(NV_IS_HOST, (static const nvtxStringHandle_t strata_nvtx_name_ =                                      \
                                  nvtxDomainRegisterStringA(::strata::detail::NvtxDomain(), name);                     \
                              if (condition) { strata_nvtx_range_.Start(strata_nvtx_name_); }))
#else
#  define STRATA_NVTX_RANGE_SCOPE_IF(condition, name) static_cast<void>(0)
#endif

//! Opens an NVTX range named `name` for the rest of the enclosing scope.
#define STRATA_NVTX_RANGE_SCOPE(name) STRATA_NVTX_RANGE_SCOPE_IF(true, name)
} // namespace detail
STRATA_NAMESPACE_END

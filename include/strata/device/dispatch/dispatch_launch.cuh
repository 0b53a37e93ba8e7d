// strata/device/dispatch/dispatch_launch.cuh: what the dispatch classes share: the defaults of the
// KernelSource and KernelLauncherFactory template parameters that CUB's dispatch classes end
// with, and how a hub's policy names its tile policy.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! The default KernelSource of DispatchReduce and DispatchScan. strata's dispatch classes launch
//! their own kernels: the parameter exists so that CUB's spelling of a dispatch class compiles,
//! and the classes reject any other type rather than ignore it.
struct DefaultKernelSource
{
};

//! The default KernelLauncherFactory (CUB's name): launches are triple-chevron launches, or
//! programmatic dependent launches where strata chooses them. The only one accepted, as
//! DefaultKernelSource is.
struct TripleChevronFactory
{
};

//! Rejects, at compile time, a dispatch class's KernelSource or KernelLauncherFactory other than
//! the defaults (`static_assert(RequireDefaultLaunch<...>::value)`).
template <typename KernelSource, typename KernelLauncherFactory>
struct RequireDefaultLaunch
{
  static_assert(
      ::cuda::std::is_same_v<
          KernelSource, DefaultKernelSource> && ::cuda::std::is_same_v<KernelLauncherFactory, TripleChevronFactory>,
      "strata launches its own kernels: a custom KernelSource or KernelLauncherFactory would be ignored");
  static constexpr bool value = true;
};

//! The tile policy of a hub's policy PolicyT: the member CubMemberT names where PolicyT has it (a
//! hub written for CUB: ScanPolicyT, ScanByKeyPolicyT), else strata's ScanPolicy.
template <typename PolicyT, template <typename> class CubMemberT, typename = void>
struct hub_scan_policy
{
  using type = typename PolicyT::ScanPolicy;
};
template <typename PolicyT, template <typename> class CubMemberT>
struct hub_scan_policy<PolicyT, CubMemberT, ::cuda::std::void_t<CubMemberT<PolicyT>>>
{
  using type = CubMemberT<PolicyT>;
};
} // namespace detail
STRATA_NAMESPACE_END

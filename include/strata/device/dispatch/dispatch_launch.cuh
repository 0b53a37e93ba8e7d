// strata/device/dispatch/dispatch_launch.cuh: the defaults of the KernelSource and
// KernelLauncherFactory template parameters that CUB's dispatch classes end with.
#pragma once

#include <strata/config.cuh>

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
} // namespace detail
STRATA_NAMESPACE_END

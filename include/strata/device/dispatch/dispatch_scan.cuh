// strata/device/dispatch/dispatch_scan.cuh: the kernels of DeviceScan and DispatchScan, which
// picks the policy for the device, sizes and carves the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_scan.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/dispatch_single_pass.cuh>
#include <strata/device/dispatch/tuning/tuning_scan.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

//! Whether DispatchScan's scan with an initial value is inclusive (CUB's values).
enum class ForceInclusive
{
  Yes,
  No
};

namespace detail
{
namespace scan
{
template <typename PolicyT>
using cub_scan_policy_t = typename PolicyT::ScanPolicyT;
//! The scan policy of a hub's policy: CUB's ScanPolicyT, or strata's ScanPolicy.
template <typename PolicyT>
using scan_policy_t = typename hub_scan_policy<PolicyT, cub_scan_policy_t>::type;

//! The type of the items an initial value of type InitValueT stands for (CUB's
//! InitValueT::value_type): InputT without one (NullType), T for detail::InputValue<T>, the type
//! itself otherwise.
template <typename InitValueT, typename InputT>
struct init_value
{
  using type = InitValueT;
};
template <typename InputT>
struct init_value<NullType, InputT>
{
  using type = InputT;
};
template <typename T, typename IterT, typename InputT>
struct init_value<InputValue<T, IterT>, InputT>
{
  using type = T;
};
template <typename InitValueT, typename InputT>
using init_value_t = typename init_value<InitValueT, InputT>::type;
} // namespace scan
} // namespace detail

STRATA_KERNELS_BEGIN

//! The single pass: each block scans the tile it takes from the counter.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
          typename OffsetT, typename AccumT, bool FORCE_INCLUSIVE>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(detail::scan::scan_policy_t<typename MaxPolicyT::ActivePolicy>::BLOCK_THREADS,
                  detail::scan::scan_policy_t<typename MaxPolicyT::ActivePolicy>::
                      MIN_BLOCKS_PER_SM) void DeviceScanKernel(InputIteratorT d_in, OutputIteratorT d_out,
                                                               ScanTileState<AccumT> tile_state,
                                                               unsigned int* d_tile_counter, ScanOpT scan_op,
                                                               InitValueT init_value, OffsetT num_items, int num_tiles)
{
  using PolicyT = detail::scan::scan_policy_t<typename MaxPolicyT::ActivePolicy>;
  using AgentT =
      AgentScan<PolicyT, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, OffsetT, AccumT, FORCE_INCLUSIVE>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::WaitForPrimaryGrid(); // the descriptors and the tile counter, from DeviceScanInitKernel
  AgentT(temp_storage, d_in, d_out, scan_op, init_value, num_items).ConsumeRange(num_tiles, tile_state, d_tile_counter);
}

STRATA_KERNELS_END

//! Dispatches a scan of num_items items of d_in into d_out with scan_op: exclusive from
//! init_value, inclusive without one (InitValueT = NullType), or inclusive from init_value
//! (EnforceInclusive = ForceInclusive::Yes). One tile takes one launch; more take two (the
//! descriptors' initialization, then the single pass).
//!
//! The template parameters are CUB's. PolicyHubT's policies name their AgentScanPolicy ScanPolicyT
//! (as CUB's) or ScanPolicy (as strata's). KernelSource and KernelLauncherFactory exist for CUB's
//! spelling; only their defaults are accepted.
template <
    typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT, typename OffsetT,
    typename AccumT                 = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>,
                                            detail::scan::init_value_t<InitValueT, detail::it_value_t<InputIteratorT>>>,
    ForceInclusive EnforceInclusive = ForceInclusive::No,
    typename PolicyHubT             = detail::scan::policy_hub<AccumT, OffsetT, ScanOpT>,
    typename KernelSource = detail::DefaultKernelSource, typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DispatchScan
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ScanOpT scan_op;
  InitValueT init_value;
  OffsetT num_items;
  cudaStream_t stream;
  int ptx_version;
  KernelSource kernel_source;
  KernelLauncherFactory launcher_factory;

  using MaxPolicyT = typename PolicyHubT::MaxPolicy;
  using TileStateT = ScanTileState<AccumT>;

  static constexpr bool FORCE_INCLUSIVE = EnforceInclusive == ForceInclusive::Yes;

  STRATA_RUNTIME_FUNCTION DispatchScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                       OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value, OffsetT num_items,
                                       cudaStream_t stream, int ptx_version, KernelSource kernel_source = {},
                                       KernelLauncherFactory launcher_factory = {})
      : d_temp_storage(d_temp_storage)
      , temp_storage_bytes(temp_storage_bytes)
      , d_in(d_in)
      , d_out(d_out)
      , scan_op(scan_op)
      , init_value(init_value)
      , num_items(num_items)
      , stream(stream)
      , ptx_version(ptx_version)
      , kernel_source(kernel_source)
      , launcher_factory(launcher_factory)
  {
  }

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT = detail::scan::scan_policy_t<ActivePolicyT>;
    using AgentT =
        AgentScan<PolicyT, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, OffsetT, AccumT, FORCE_INCLUSIVE>;
    return detail::single_pass::Invoke<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, OffsetT(AgentT::TILE_ITEMS), ptx_version, stream,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic)
        {
          return detail::LaunchKernel(programmatic,
                                      DeviceScanKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT,
                                                       OffsetT, AccumT, FORCE_INCLUSIVE>,
                                      num_tiles, PolicyT::BLOCK_THREADS, stream, d_in, d_out, tile_state,
                                      d_tile_counter, scan_op, init_value, num_items, num_tiles);
        });
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the scan.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                                      InitValueT init_value, OffsetT num_items, cudaStream_t stream,
                                                      KernelSource kernel_source             = {},
                                                      KernelLauncherFactory launcher_factory = {})
  {
    if (d_temp_storage != nullptr && num_items > 0 && (detail::IsNullPointer(d_in) || detail::IsNullPointer(d_out)))
    {
      return STRATA_INVALID_ARGUMENT("d_in or d_out is null");
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchScan(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, init_value, num_items, stream,
                              ptx_version, kernel_source, launcher_factory);
        });
  }
};

STRATA_NAMESPACE_END

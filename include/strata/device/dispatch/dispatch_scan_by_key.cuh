// strata/device/dispatch/dispatch_scan_by_key.cuh: the kernel of DeviceScan's scans by key and
// DispatchScanByKey, which picks the policy for the device, sizes and carves the temporary
// storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/device/dispatch/tuning/tuning_scan_by_key.cuh>
#include <strata/util_debug.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace scan_by_key
{
template <typename PolicyT>
using cub_scan_by_key_policy_t = typename PolicyT::ScanByKeyPolicyT;
//! The policy of a hub's policy: CUB's ScanByKeyPolicyT, or strata's ScanPolicy.
template <typename PolicyT>
using scan_by_key_policy_t = typename hub_scan_policy<PolicyT, cub_scan_by_key_policy_t>::type;
} // namespace scan_by_key
} // namespace detail

STRATA_KERNELS_BEGIN

//! The single pass of a scan by key: each block scans the tile it takes from the counter.
template <typename MaxPolicyT, typename KeysInputIteratorT, typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT, typename EqualityOpT, typename ScanOpT, typename InitValueT, typename OffsetT,
          typename AccumT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::scan_by_key::scan_by_key_policy_t<typename MaxPolicyT::ActivePolicy>::BLOCK_THREADS,
    detail::scan_by_key::scan_by_key_policy_t<typename MaxPolicyT::ActivePolicy>::
        MIN_BLOCKS_PER_SM) void DeviceScanByKeyKernel(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                                      ValuesOutputIteratorT d_values_out,
                                                      ScanTileState<AccumT> tile_state, unsigned int* d_tile_counter,
                                                      EqualityOpT equality_op, ScanOpT scan_op, InitValueT init_value,
                                                      OffsetT num_items, int num_tiles)
{
  using PolicyT = detail::scan_by_key::scan_by_key_policy_t<typename MaxPolicyT::ActivePolicy>;
  using AgentT  = AgentScanByKey<PolicyT, KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT, EqualityOpT,
                                ScanOpT, InitValueT, OffsetT, AccumT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::WaitForPrimaryGrid(); // the descriptors and the tile counter, from DeviceScanInitKernel
  AgentT(temp_storage, d_keys_in, d_values_in, d_values_out, equality_op, scan_op, init_value, num_items)
      .ConsumeRange(num_tiles, tile_state, d_tile_counter);
}

STRATA_KERNELS_END

//! Dispatches a scan by key of num_items values: exclusive from init_value in every segment, or
//! inclusive (InitValueT = NullType). One tile takes one launch, more take two.
//!
//! The template parameters are CUB's. PolicyHubT's policies name their policy ScanByKeyPolicyT
//! (as CUB's, e.g. an AgentScanByKeyPolicy) or ScanPolicy (as strata's).
template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
          typename EqualityOpT, typename ScanOpT, typename InitValueT, typename OffsetT,
          typename AccumT =
              detail::accumulator_t<ScanOpT, detail::it_value_t<ValuesInputIteratorT>,
                                    detail::scan::init_value_t<InitValueT, detail::it_value_t<ValuesInputIteratorT>>>,
          typename PolicyHubT =
              detail::scan_by_key::policy_hub<detail::it_value_t<KeysInputIteratorT>, AccumT, ScanOpT>>
struct DispatchScanByKey
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeysInputIteratorT d_keys_in;
  ValuesInputIteratorT d_values_in;
  ValuesOutputIteratorT d_values_out;
  EqualityOpT equality_op;
  ScanOpT scan_op;
  InitValueT init_value;
  OffsetT num_items;
  cudaStream_t stream;
  int ptx_version;

  using MaxPolicyT = typename PolicyHubT::MaxPolicy;
  using TileStateT = ScanTileState<AccumT>;

  STRATA_RUNTIME_FUNCTION
  DispatchScanByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                    ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, EqualityOpT equality_op,
                    ScanOpT scan_op, InitValueT init_value, OffsetT num_items, cudaStream_t stream, int ptx_version)
      : d_temp_storage(d_temp_storage)
      , temp_storage_bytes(temp_storage_bytes)
      , d_keys_in(d_keys_in)
      , d_values_in(d_values_in)
      , d_values_out(d_values_out)
      , equality_op(equality_op)
      , scan_op(scan_op)
      , init_value(init_value)
      , num_items(num_items)
      , stream(stream)
      , ptx_version(ptx_version)
  {
  }

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT = detail::scan_by_key::scan_by_key_policy_t<ActivePolicyT>;
    using AgentT = AgentScanByKey<PolicyT, KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT, EqualityOpT,
                                  ScanOpT, InitValueT, OffsetT, AccumT>;
    return detail::single_pass::Invoke<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, OffsetT(AgentT::TILE_ITEMS), ptx_version, stream,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic)
        {
          return detail::LaunchKernel(
              programmatic,
              DeviceScanByKeyKernel<MaxPolicyT, KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT,
                                    EqualityOpT, ScanOpT, InitValueT, OffsetT, AccumT>,
              num_tiles, PolicyT::BLOCK_THREADS, stream, d_keys_in, d_values_in, d_values_out, tile_state,
              d_tile_counter, equality_op, scan_op, init_value, num_items, num_tiles);
        });
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the scan.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                                      ValuesOutputIteratorT d_values_out, EqualityOpT equality_op,
                                                      ScanOpT scan_op, InitValueT init_value, OffsetT num_items,
                                                      cudaStream_t stream)
  {
    if (d_temp_storage != nullptr && num_items > 0
        && (detail::IsNullPointer(d_keys_in) || detail::IsNullPointer(d_values_in)
            || detail::IsNullPointer(d_values_out)))
    {
      return STRATA_INVALID_ARGUMENT("d_keys_in, d_values_in or d_values_out is null");
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchScanByKey(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                   equality_op, scan_op, init_value, num_items, stream, ptx_version);
        });
  }
};

STRATA_NAMESPACE_END

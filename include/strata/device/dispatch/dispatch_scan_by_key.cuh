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
#include <strata/util_device.cuh>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! The single pass of a scan by key: each block scans the tile it takes from the counter.
template <typename MaxPolicyT, typename KeysInputIteratorT, typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT, typename EqualityOpT, typename ScanOpT, typename InitValueT, typename OffsetT,
          typename AccumT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ScanPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::ScanPolicy::MIN_BLOCKS_PER_SM) void
DeviceScanByKeyKernel(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                      ValuesOutputIteratorT d_values_out, ScanTileState<AccumT> tile_state,
                      unsigned int* d_tile_counter, EqualityOpT equality_op, ScanOpT scan_op, InitValueT init_value,
                      OffsetT num_items, int num_tiles)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::ScanPolicy;
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
template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
          typename EqualityOpT, typename ScanOpT, typename InitValueT, typename OffsetT, typename AccumT,
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

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT = typename ActivePolicyT::ScanPolicy;
    using AgentT = AgentScanByKey<PolicyT, KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT, EqualityOpT,
                                  ScanOpT, InitValueT, OffsetT, AccumT>;
    return detail::scan::SinglePassInvoke<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, OffsetT(AgentT::TILE_ITEMS), ptx_version, stream,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic)
        {
          const cudaError_t error = detail::LaunchKernel(
              programmatic,
              DeviceScanByKeyKernel<MaxPolicyT, KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT,
                                    EqualityOpT, ScanOpT, InitValueT, OffsetT, AccumT>,
              num_tiles, PolicyT::BLOCK_THREADS, stream, d_keys_in, d_values_in, d_values_out, tile_state,
              d_tile_counter, equality_op, scan_op, init_value, num_items, num_tiles);
          return error != cudaSuccess ? error : detail::DebugSyncStream(stream);
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
      return cudaErrorInvalidValue;
    }
    int ptx_version   = 0;
    cudaError_t error = PtxVersion(ptx_version);
    if (error != cudaSuccess)
    {
      return error;
    }
    DispatchScanByKey dispatch{d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, equality_op,
                               scan_op,        init_value,         num_items, stream,    ptx_version};
    return MaxPolicyT::Invoke(ptx_version, dispatch);
  }
};

STRATA_NAMESPACE_END

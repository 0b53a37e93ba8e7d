// strata/device/dispatch/dispatch_for.cuh: the kernels of DeviceFor and DispatchFor, which picks
// the policy for the device and launches one block per tile.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_for.cuh>
#include <strata/device/dispatch/tuning/tuning_for.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! Block b applies the operator to the indices of tile b.
template <typename MaxPolicyT, typename OffsetT, typename OpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ForPolicy::BLOCK_THREADS) void
DeviceForKernel(OffsetT num_items, OpT op)
{
  using AgentT              = AgentFor<typename MaxPolicyT::ActivePolicy::ForPolicy, OffsetT, OpT>;
  const OffsetT tile_offset = OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS);
  const OffsetT remaining   = num_items - tile_offset;
  AgentT{op}.ConsumeTile(tile_offset, remaining < OffsetT(AgentT::TILE_ITEMS) ? int(remaining) : AgentT::TILE_ITEMS);
}

//! Block b hands the items of tile b, loaded as 16-byte vectors, to the operator.
template <typename MaxPolicyT, typename OffsetT, typename T, typename OpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ForPolicy::BLOCK_THREADS) void
DeviceForCopyVectorsKernel(const T* first, OffsetT num_items, OpT op)
{
  using AgentT = AgentForCopyVectors<typename MaxPolicyT::ActivePolicy::ForPolicy, OffsetT, T, OpT>;
  const OffsetT tile_offset = OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS);
  const OffsetT remaining   = num_items - tile_offset;
  AgentT{first, op}.ConsumeTile(tile_offset,
                                remaining < OffsetT(AgentT::TILE_ITEMS) ? int(remaining) : AgentT::TILE_ITEMS);
}

STRATA_KERNELS_END

//! Dispatches op(i) for every i in [0, num_items) (VECTORS: op(first[i]) for every item of an
//! aligned pointer, read as 16-byte vectors).
template <typename OffsetT, typename OpT, bool VECTORS = false, typename T = char>
struct DispatchFor
{
  OffsetT num_items;
  OpT op;
  const T* first;
  cudaStream_t stream;

  using MaxPolicyT = detail::for_each::policy_hub::MaxPolicy;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT = typename ActivePolicyT::ForPolicy;
    constexpr int TILE_ITEMS =
        VECTORS ? AgentForCopyVectors<PolicyT, OffsetT, T, OpT>::TILE_ITEMS : AgentFor<PolicyT, OffsetT, OpT>::TILE_ITEMS;
    const OffsetT tiles = num_items / OffsetT(TILE_ITEMS) + (num_items % OffsetT(TILE_ITEMS) != 0);
    if (tiles > OffsetT(0x7FFFFFFF))
    {
      return cudaErrorInvalidValue; // more tiles than a grid holds
    }
    if constexpr (VECTORS)
    {
      DeviceForCopyVectorsKernel<MaxPolicyT, OffsetT, T, OpT>
          <<<unsigned(tiles), PolicyT::BLOCK_THREADS, 0, stream>>>(first, num_items, op);
    }
    else
    {
      DeviceForKernel<MaxPolicyT, OffsetT, OpT><<<unsigned(tiles), PolicyT::BLOCK_THREADS, 0, stream>>>(num_items, op);
    }
    const cudaError_t error = cudaPeekAtLastError();
    return error != cudaSuccess ? error : detail::DebugSyncStream(stream);
  }

  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(OffsetT num_items, OpT op, cudaStream_t stream,
                                                      const T* first = nullptr)
  {
    if (num_items == OffsetT(0))
    {
      return cudaSuccess;
    }
    int ptx_version   = 0;
    cudaError_t error = PtxVersion(ptx_version);
    if (error != cudaSuccess)
    {
      return error;
    }
    DispatchFor dispatch{num_items, op, first, stream};
    return MaxPolicyT::Invoke(ptx_version, dispatch);
  }
};

STRATA_NAMESPACE_END

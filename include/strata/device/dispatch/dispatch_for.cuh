// strata/device/dispatch/dispatch_for.cuh: the kernels of DeviceFor and DispatchFor, which picks
// the policy for the device and launches one block per tile.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_for.cuh>
#include <strata/device/dispatch/tuning/tuning_for.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! Block b applies the operator to the indices of tile b, tiles counted from `begin`.
template <typename MaxPolicyT, typename OffsetT, typename OpT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::ForPolicy::BLOCK_THREADS) void DeviceForKernel(OffsetT begin,
                                                                                           OffsetT num_items, OpT op)
{
  using AgentT              = AgentFor<typename MaxPolicyT::ActivePolicy::ForPolicy, OffsetT, OpT>;
  const OffsetT tile_offset = begin + OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS);
  AgentT{op}.ConsumeTile(tile_offset, detail::tile::ValidItems<AgentT::TILE_ITEMS>(num_items, tile_offset));
}

//! Block b hands the items of tile b (counted from `begin`) of the 16-byte-aligned `first`,
//! loaded as 16-byte vectors, to the operator; block 0 also the `head_items` items before `first`.
template <typename MaxPolicyT, typename OffsetT, typename T, typename OpT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::ForPolicy::BLOCK_THREADS) void DeviceForCopyVectorsKernel(
    const T* first, int head_items, OffsetT begin, OffsetT num_items, OpT op)
{
  using AgentT              = AgentForCopyVectors<typename MaxPolicyT::ActivePolicy::ForPolicy, OffsetT, T, OpT>;
  const OffsetT tile_offset = begin + OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS);
  AgentT agent{first, op};
  agent.ConsumeTile(tile_offset, detail::tile::ValidItems<AgentT::TILE_ITEMS>(num_items, tile_offset));
  if (blockIdx.x == 0)
  {
    agent.ConsumeHead(head_items);
  }
}

STRATA_KERNELS_END

namespace detail
{
namespace for_each
{
//! The temporary storage of a DeviceFor call: none. The size query (`d_temp_storage == nullptr`)
//! reports one byte, as every device call does; the second call, as CUB's, accepts any size.
STRATA_RUNTIME_FUNCTION inline void QueryNoTemporaryStorage(void* d_temp_storage, size_t& temp_storage_bytes)
{
  if (d_temp_storage == nullptr)
  {
    temp_storage_bytes = 1;
  }
}
} // namespace for_each
} // namespace detail

//! Dispatches op(tile_offset, local) for every index tile_offset + local in [0, num_items)
//! (OffsetT unsigned; see AgentFor). With VECTORS: op(item) for the `head_items` items before
//! the 16-byte-aligned `first` and the num_items items from it, read as 16-byte vectors.
template <typename OffsetT, typename OpT, bool VECTORS = false, typename T = char>
struct DispatchFor
{
  static_assert(::cuda::std::is_unsigned_v<OffsetT>, "DispatchFor counts in an unsigned offset type");

  OffsetT num_items;
  OpT op;
  const T* first;
  int head_items;
  cudaStream_t stream;

  using MaxPolicyT = detail::for_each::policy_hub::MaxPolicy;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT            = typename ActivePolicyT::ForPolicy;
    constexpr int TILE_ITEMS = VECTORS ? AgentForCopyVectors<PolicyT, OffsetT, T, OpT>::TILE_ITEMS
                                       : AgentFor<PolicyT, OffsetT, OpT>::TILE_ITEMS;
    using WideT              = ::cuda::std::uint64_t;
    const WideT tiles        = WideT(num_items) / WideT(TILE_ITEMS) + (WideT(num_items) % WideT(TILE_ITEMS) != 0);
    // A grid holds at most 2^31 - 1 blocks; more tiles (only possible with 64-bit offsets) take
    // several launches.
    constexpr WideT max_grid = 0x7FFFFFFF;
    for (WideT first_tile = 0; first_tile < tiles; first_tile += max_grid)
    {
      const int grid      = static_cast<int>(tiles - first_tile < max_grid ? tiles - first_tile : max_grid);
      const OffsetT begin = static_cast<OffsetT>(first_tile * WideT(TILE_ITEMS));
      cudaError_t error   = cudaSuccess;
      if constexpr (VECTORS)
      {
        error = detail::LaunchKernel(false, DeviceForCopyVectorsKernel<MaxPolicyT, OffsetT, T, OpT>, grid,
                                     PolicyT::BLOCK_THREADS, stream, first, first_tile == 0 ? head_items : 0, begin,
                                     num_items, op);
      }
      else
      {
        error = detail::LaunchKernel(false, DeviceForKernel<MaxPolicyT, OffsetT, OpT>, grid, PolicyT::BLOCK_THREADS,
                                     stream, begin, num_items, op);
      }
      if (error != cudaSuccess)
      {
        return error;
      }
    }
    return cudaSuccess;
  }

  //! Launches nothing for no items.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(OffsetT num_items, OpT op, cudaStream_t stream,
                                                      const T* first = nullptr, int head_items = 0)
  {
    if (num_items == OffsetT(0))
    {
      return cudaSuccess;
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int) {
          return DispatchFor{num_items, op, first, head_items, stream};
        });
  }
};

STRATA_NAMESPACE_END

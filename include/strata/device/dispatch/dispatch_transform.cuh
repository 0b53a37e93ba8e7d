// strata/device/dispatch/dispatch_transform.cuh: the kernel of DeviceTransform and
// DispatchTransform, which picks the policy for the device and launches one block per tile.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_transform.cuh>
#include <strata/device/dispatch/tuning/tuning_transform.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! Block b transforms tile b: items [b * TILE_ITEMS, min((b + 1) * TILE_ITEMS, num_items)).
template <typename MaxPolicyT, typename OffsetT, typename TransformOpT, typename OutputIteratorT,
          typename... InputIteratorTs>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::TransformPolicy::BLOCK_THREADS) void DeviceTransformKernel(
    OffsetT num_items, TransformOpT transform_op, OutputIteratorT out, InputIteratorTs... ins)
{
  using AgentT              = AgentTransform<typename MaxPolicyT::ActivePolicy::TransformPolicy, OffsetT, TransformOpT,
                                OutputIteratorT, InputIteratorTs...>;
  const OffsetT tile_offset = OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS);
  const int tile_items      = detail::tile::ValidItems<AgentT::TILE_ITEMS>(num_items, tile_offset);
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT(temp_storage, transform_op, out, ins...).ConsumeTile(tile_offset, tile_items);
}

STRATA_KERNELS_END

//! Dispatches out[i] = transform_op(ins[i]...) for i in [0, num_items).
template <typename OffsetT, typename TransformOpT, typename OutputIteratorT, typename... InputIteratorTs>
struct DispatchTransform
{
  OffsetT num_items;
  TransformOpT transform_op;
  OutputIteratorT out;
  ::cuda::std::tuple<InputIteratorTs...> ins;
  cudaStream_t stream;

  using MaxPolicyT = typename detail::transform::policy_hub<int(sizeof...(InputIteratorTs))>::MaxPolicy;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    return Launch<ActivePolicyT>(::cuda::std::index_sequence_for<InputIteratorTs...>{});
  }

  template <typename ActivePolicyT, ::cuda::std::size_t... Is>
  STRATA_RUNTIME_FUNCTION cudaError_t Launch(::cuda::std::index_sequence<Is...>)
  {
    using AgentT = AgentTransform<typename ActivePolicyT::TransformPolicy, OffsetT, TransformOpT, OutputIteratorT,
                                  InputIteratorTs...>;
    const OffsetT tiles = num_items / OffsetT(AgentT::TILE_ITEMS) + (num_items % OffsetT(AgentT::TILE_ITEMS) != 0);
    if (tiles > OffsetT(0x7FFFFFFF))
    {
      // More tiles than a grid holds.
      return STRATA_INVALID_ARGUMENT("num_items is too large: more than 2^31 - 1 tiles");
    }
    return detail::LaunchKernel(
        false, DeviceTransformKernel<MaxPolicyT, OffsetT, TransformOpT, OutputIteratorT, InputIteratorTs...>,
        int(tiles), ActivePolicyT::TransformPolicy::BLOCK_THREADS, stream, num_items, transform_op, out,
        ::cuda::std::get<Is>(ins)...);
  }

  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(::cuda::std::tuple<InputIteratorTs...> ins, OutputIteratorT out,
                                                      OffsetT num_items, TransformOpT transform_op, cudaStream_t stream)
  {
    if (num_items == 0)
    {
      return cudaSuccess;
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int) {
          return DispatchTransform{num_items, transform_op, out, ins, stream};
        });
  }
};

STRATA_NAMESPACE_END

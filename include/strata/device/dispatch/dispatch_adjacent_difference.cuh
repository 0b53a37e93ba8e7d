// strata/device/dispatch/dispatch_adjacent_difference.cuh: the kernels of DeviceAdjacentDifference
// and DispatchAdjacentDifference (CUB's name), which picks the policy, sizes and carves the
// temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_adjacent_difference.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_adjacent_difference.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/limits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

//! Which neighbour an adjacent difference takes (CUB's names): the item before, or after.
enum class ReadOption
{
  Left,
  Right
};

STRATA_KERNELS_BEGIN

//! Before an adjacent difference in place: each tile's edge item that the next (Left) or the
//! previous (Right) tile needs, saved before the output may overwrite it.
template <int TILE_ITEMS, bool READ_LEFT, typename InputIteratorT, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES void DeviceAdjacentDifferenceEdgesKernel(InputIteratorT d_in,
                                                                  detail::it_value_t<InputIteratorT>* d_tile_edges,
                                                                  OffsetT num_items, int num_tiles)
{
  const int tile = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (tile < num_tiles)
  {
    const OffsetT first = OffsetT(tile) * OffsetT(TILE_ITEMS);
    const OffsetT last  = num_items - first > OffsetT(TILE_ITEMS) ? first + OffsetT(TILE_ITEMS - 1) : num_items - 1;
    d_tile_edges[tile]  = d_in[READ_LEFT ? last : first];
  }
}

//! Each block takes one tile.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT,
          typename OffsetT, bool MAY_ALIAS, bool READ_LEFT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    MaxPolicyT::ActivePolicy::AdjacentDifferencePolicy::
        BLOCK_THREADS) void DeviceAdjacentDifferenceDifferenceKernel(InputIteratorT d_in, OutputIteratorT d_out,
                                                                     const detail::it_value_t<InputIteratorT>*
                                                                         d_tile_edges,
                                                                     DifferenceOpT difference_op, OffsetT num_items,
                                                                     int num_tiles)
{
  using AgentT = AgentAdjacentDifference<typename MaxPolicyT::ActivePolicy::AdjacentDifferencePolicy, InputIteratorT,
                                         OutputIteratorT, DifferenceOpT, OffsetT, MAY_ALIAS, READ_LEFT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT(temp_storage, d_in, d_out, d_tile_edges, difference_op, num_items).ConsumeTile(int(blockIdx.x), num_tiles);
}

STRATA_KERNELS_END

//! Dispatches an adjacent difference of num_items items (CUB's DispatchAdjacentDifference):
//! ReadOpt says which neighbour, AliasOpt whether d_output may be d_input (then the tiles' edge
//! items are saved first, in the temporary storage). Negative counts and null pointers on the run
//! call are rejected with cudaErrorInvalidValue before anything is written.
template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT, typename OffsetT,
          MayAlias AliasOpt, ReadOption ReadOpt,
          typename PolicyHub = detail::adjacent_difference::policy_hub<detail::non_void_value_t<InputIteratorT, char>,
                                                                       AliasOpt == MayAlias::Yes>>
struct DispatchAdjacentDifference
{
  using MaxPolicyT      = typename PolicyHub::MaxPolicy;
  using UnsignedOffsetT = detail::offset_t<OffsetT>;
  using InputT          = detail::it_value_t<InputIteratorT>;

  static constexpr bool MAY_ALIAS = AliasOpt == MayAlias::Yes;
  static constexpr bool READ_LEFT = ReadOpt == ReadOption::Left;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_input;
  OutputIteratorT d_output;
  UnsignedOffsetT num_items;
  DifferenceOpT difference_op;
  cudaStream_t stream;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using AgentT             = AgentAdjacentDifference<typename ActivePolicyT::AdjacentDifferencePolicy, InputIteratorT,
                                           OutputIteratorT, DifferenceOpT, UnsignedOffsetT, MAY_ALIAS, READ_LEFT>;
    constexpr int TILE_ITEMS = AgentT::TILE_ITEMS;
    const UnsignedOffsetT tiles =
        num_items / UnsignedOffsetT(TILE_ITEMS) + (num_items % UnsignedOffsetT(TILE_ITEMS) != 0);
    if (tiles > UnsignedOffsetT(::cuda::std::numeric_limits<int>::max()))
    {
      return STRATA_INVALID_ARGUMENT("num_items is too large: more than 2^31 - 1 tiles");
    }
    const int num_tiles  = int(tiles);
    InputT* d_tile_edges = nullptr;
    cudaError_t error    = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes,
                                                         detail::Slot(d_tile_edges, MAY_ALIAS ? size_t(num_tiles) : 1));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_tiles == 0)
    {
      return error;
    }
    constexpr int EDGE_THREADS = 256;
    if (MAY_ALIAS && num_tiles > 1)
    {
      error = detail::LaunchKernel(
          false, DeviceAdjacentDifferenceEdgesKernel<TILE_ITEMS, READ_LEFT, InputIteratorT, UnsignedOffsetT>,
          (num_tiles + EDGE_THREADS - 1) / EDGE_THREADS, EDGE_THREADS, stream, d_input, d_tile_edges, num_items,
          num_tiles);
      if (error != cudaSuccess)
      {
        return error;
      }
    }
    return detail::LaunchKernel(
        false,
        DeviceAdjacentDifferenceDifferenceKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, DifferenceOpT,
                                                 UnsignedOffsetT, MAY_ALIAS, READ_LEFT>,
        num_tiles, AgentT::BLOCK_THREADS, stream, d_input, d_output, static_cast<const InputT*>(d_tile_edges),
        difference_op, num_items, num_tiles);
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) it.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputIteratorT d_input, OutputIteratorT d_output,
                                                      OffsetT num_items, DifferenceOpT difference_op,
                                                      cudaStream_t stream)
  {
    if (!detail::IsValidCount(num_items))
    {
      return STRATA_INVALID_ARGUMENT("num_items is negative");
    }
    if (d_temp_storage != nullptr && num_items > 0
        && (detail::IsNullPointer(d_input) || detail::IsNullPointer(d_output)))
    {
      return STRATA_INVALID_ARGUMENT("d_input or d_output is null");
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int)
        {
          return DispatchAdjacentDifference{
              d_temp_storage, temp_storage_bytes, d_input, d_output, UnsignedOffsetT(num_items), difference_op, stream};
        });
  }
};

STRATA_NAMESPACE_END

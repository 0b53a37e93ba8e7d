// strata/device/dispatch/dispatch_merge.cuh: the kernels of DeviceMerge and detail::merge::dispatch_t,
// which picks the policy for the device, sizes and carves the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_merge.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/shared_fit.cuh>
#include <strata/device/dispatch/tuning/tuning_merge.cuh>
#include <strata/device/dispatch/tuning/tuning_merge_sort.cuh>
#include <strata/tile/tile_merge.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge
{
//! Threads per block of the partition kernel (a warp per split).
inline constexpr int partition_block_threads = 256;

template <typename MaxPolicyT, typename KeyT, typename ValueT>
using active_merge_policy_t = fitted_merge_policy_t<typename MaxPolicyT::ActivePolicy, KeyT, ValueT>;
} // namespace merge
} // namespace detail

STRATA_KERNELS_BEGIN

//! Before the merge of many tiles: warp w finds where tile w of the output starts in the first
//! input (tile::WarpMergePath), for tiles 0 .. num_tiles - 1.
template <typename MaxPolicyT, typename KeyIt1, typename KeyIt2, typename OffsetT, typename CompareOpT, typename KeyT,
          typename ValueT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(detail::merge::partition_block_threads) void DeviceMergePartitionKernel(
    KeyIt1 keys1, OffsetT num_items1, KeyIt2 keys2, OffsetT num_items2, int num_tiles, OffsetT* d_splits,
    CompareOpT compare_op)
{
  constexpr int WARPS          = detail::merge::partition_block_threads / detail::warp_threads;
  constexpr OffsetT TILE_ITEMS = detail::merge::active_merge_policy_t<MaxPolicyT, KeyT, ValueT>::ITEMS_PER_TILE;
  const int tile               = int(blockIdx.x) * WARPS + int(threadIdx.x) / detail::warp_threads;
  detail::TriggerDependentLaunch(); // the merge may launch; it waits for this grid's splits
  if (tile < num_tiles)
  {
    const OffsetT split =
        detail::tile::WarpMergePath(keys1, keys2, num_items1, num_items2, OffsetT(tile) * TILE_ITEMS, compare_op);
    if (threadIdx.x % detail::warp_threads == 0)
    {
      d_splits[tile] = split;
    }
  }
}

//! The merge: block b writes tile b of the output.
template <typename MaxPolicyT, typename KeyIt1, typename ValueIt1, typename KeyIt2, typename ValueIt2,
          typename KeyOutIt, typename ValueOutIt, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(detail::merge::active_merge_policy_t<MaxPolicyT, KeyT, ValueT>::BLOCK_THREADS) void DeviceMergeKernel(
    KeyIt1 keys1, ValueIt1 values1, OffsetT num_items1, KeyIt2 keys2, ValueIt2 values2, OffsetT num_items2,
    KeyOutIt keys_out, ValueOutIt values_out, const OffsetT* d_splits, CompareOpT compare_op, void* d_block_storage)
{
  using PolicyT = detail::merge::active_merge_policy_t<MaxPolicyT, KeyT, ValueT>;
  using AgentT  = detail::merge::agent_t<PolicyT, KeyIt1, ValueIt1, KeyIt2, ValueIt2, KeyOutIt, ValueOutIt, OffsetT,
                                        CompareOpT, KeyT, ValueT>;
  auto& temp_storage = detail::BlockTempStorage<typename AgentT::TempStorage>(d_block_storage);
  detail::WaitForPrimaryGrid(); // the splits
  AgentT(temp_storage, keys1, values1, num_items1, keys2, values2, num_items2, keys_out, values_out, compare_op)
      .Process(OffsetT(blockIdx.x), d_splits);
}

STRATA_KERNELS_END

namespace detail
{
namespace merge
{
//! Dispatches the stable merge of two sorted inputs (CUB's internal name and parameters): the keys
//! (and values; ValueIt = NullType*: keys only) of d_keys1[0, num_items1) and d_keys2[0,
//! num_items2) into d_keys_out, ties taking the first input first. Merges of at least
//! merge_sort::partition_min_tiles_v tiles launch a partition kernel first (a warp per tile's
//! split) and need a split per tile of temporary storage; smaller ones one kernel and 1 byte.
template <typename KeyIt1, typename ValueIt1, typename KeyIt2, typename ValueIt2, typename KeyIt3, typename ValueIt3,
          typename Offset, typename CompareOp,
          typename PolicyHub = policy_hub<it_value_t<KeyIt1>, it_value_t<ValueIt1>>>
struct dispatch_t
{
  using KeyT                      = it_value_t<KeyIt1>;
  using ValueT                    = it_value_t<ValueIt1>;
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  //! Offsets inside the kernels: unsigned, 64-bit.
  using OffsetT = ::cuda::std::uint64_t;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyIt1 d_keys1;
  ValueIt1 d_values1;
  Offset num_items1;
  KeyIt2 d_keys2;
  ValueIt2 d_values2;
  Offset num_items2;
  KeyIt3 d_keys_out;
  ValueIt3 d_values_out;
  CompareOp compare_op;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using MaxPolicyT       = typename PolicyHub::MaxPolicy;
    using PolicyT          = fitted_merge_policy_t<ActivePolicyT, KeyT, ValueT>;
    constexpr OffsetT TILE = PolicyT::ITEMS_PER_TILE;
    const OffsetT items1   = OffsetT(num_items1);
    const OffsetT items2   = OffsetT(num_items2);
    const OffsetT tiles    = (items1 + items2 + TILE - 1) / TILE;
    if (tiles > OffsetT(::cuda::std::numeric_limits<int>::max()))
    {
      // A block per tile.
      return STRATA_INVALID_ARGUMENT("num_keys1 + num_keys2 is too large: more than 2^31 - 1 tiles");
    }
    const int num_tiles  = int(tiles);
    const bool partition = num_tiles >= merge_sort::partition_min_tiles_v<ActivePolicyT>;
    OffsetT* d_splits    = nullptr;
    // A tile too large for shared memory even at a warp of one item: a slice of global memory per
    // block (first, so that where it is empty the layout is the same as without it).
    constexpr size_t BLOCK_BYTES =
        global_storage_bytes_v<typename agent_t<PolicyT, KeyIt1, ValueIt1, KeyIt2, ValueIt2, KeyIt3, ValueIt3, OffsetT,
                                                CompareOp, KeyT, ValueT>::TempStorage>;
    unsigned char* d_block_storage = nullptr;
    cudaError_t error              = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes,
                                                           Slot(d_block_storage, size_t(num_tiles) * BLOCK_BYTES),
                                                           Slot(d_splits, partition ? size_t(num_tiles) : size_t(0)));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_tiles == 0)
    {
      return error;
    }
    if (partition)
    {
      constexpr int WARPS = partition_block_threads / warp_threads;
      error =
          LaunchKernel(false, DeviceMergePartitionKernel<MaxPolicyT, KeyIt1, KeyIt2, OffsetT, CompareOp, KeyT, ValueT>,
                       (num_tiles + WARPS - 1) / WARPS, partition_block_threads, stream, d_keys1, items1, d_keys2,
                       items2, num_tiles, d_splits, compare_op);
      if (error != cudaSuccess)
      {
        return error;
      }
    }
    return LaunchKernel(partition && ptx_version >= 900,
                        DeviceMergeKernel<MaxPolicyT, KeyIt1, ValueIt1, KeyIt2, ValueIt2, KeyIt3, ValueIt3, OffsetT,
                                          CompareOp, KeyT, ValueT>,
                        num_tiles, PolicyT::BLOCK_THREADS, stream, d_keys1, d_values1, items1, d_keys2, d_values2,
                        items2, d_keys_out, d_values_out, partition ? static_cast<const OffsetT*>(d_splits) : nullptr,
                        compare_op, static_cast<void*>(d_block_storage));
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the merge.
  STRATA_RUNTIME_FUNCTION static cudaError_t dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyIt1 d_keys1,
                                                      ValueIt1 d_values1, Offset num_items1, KeyIt2 d_keys2,
                                                      ValueIt2 d_values2, Offset num_items2, KeyIt3 d_keys_out,
                                                      ValueIt3 d_values_out, CompareOp compare_op, cudaStream_t stream)
  {
    if (!IsValidCount(num_items1) || !IsValidCount(num_items2))
    {
      return STRATA_INVALID_ARGUMENT("num_keys1/num_keys2 or num_pairs1/num_pairs2 is negative");
    }
    if (d_temp_storage != nullptr
        && ((num_items1 > 0 && (IsNullPointer(d_keys1) || (!KEYS_ONLY && IsNullPointer(d_values1))))
            || (num_items2 > 0 && (IsNullPointer(d_keys2) || (!KEYS_ONLY && IsNullPointer(d_values2))))
            || (num_items1 + num_items2 > 0
                && (IsNullPointer(d_keys_out) || (!KEYS_ONLY && IsNullPointer(d_values_out))))))
    {
      return STRATA_INVALID_ARGUMENT("a key or value pointer is null");
    }
    return InvokeForCurrentDevice<typename PolicyHub::MaxPolicy>(
        [&](int ptx_version)
        {
          return dispatch_t{d_temp_storage, temp_storage_bytes, d_keys1,    d_values1,    num_items1, d_keys2,
                            d_values2,      num_items2,         d_keys_out, d_values_out, compare_op, stream,
                            ptx_version};
        });
  }
};
} // namespace merge
} // namespace detail

STRATA_NAMESPACE_END

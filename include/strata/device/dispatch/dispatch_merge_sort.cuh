// strata/device/dispatch/dispatch_merge_sort.cuh: the kernels of DeviceMergeSort and
// DispatchMergeSort, which picks the policy for the device, sizes and carves the temporary
// storage, and launches the first pass and the merge passes.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_merge_sort.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/shared_fit.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_merge_sort.cuh>
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
namespace merge_sort
{
template <typename MaxPolicyT, typename KeyT, typename ValueT>
using active_policies_t = agent_policies<typename MaxPolicyT::ActivePolicy, KeyT, ValueT>;

//! Threads per block of the partition kernel (a warp per split).
inline constexpr int partition_block_threads = 256;

//! The only VSMemHelperT DispatchMergeSort accepts: strata fits its tiles to shared memory
//! (fitted_policy) and keeps in global memory only those that do not fit even so
//! (BlockTempStorage).
struct NoVirtualSharedMemory
{
};

//! The agents of the kernels, for the bytes of global memory their blocks need
//! (global_storage_bytes_v).
template <typename PolicyT, typename KeyInIt, typename ValueInIt, typename KeyOutIt, typename ValueOutIt,
          typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
using block_sort_storage_t = typename AgentBlockSort<PolicyT, KeyInIt, ValueInIt, KeyOutIt, ValueOutIt, OffsetT,
                                                     CompareOpT, KeyT, ValueT>::TempStorage;
template <typename PolicyT, typename KeyInIt, typename ValueInIt, typename KeyOutIt, typename ValueOutIt,
          typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
using merge_storage_t = typename AgentMerge<PolicyT, KeyInIt, ValueInIt, KeyOutIt, ValueOutIt, OffsetT, CompareOpT,
                                            KeyT, ValueT>::TempStorage;
} // namespace merge_sort
} // namespace detail

STRATA_KERNELS_BEGIN

//! The first pass: block b sorts the input's tile b into a sorted run, in the temporary buffer
//! (`to_buffer`) or the output.
template <typename MaxPolicyT, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT,
          typename ValueIteratorT, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::merge_sort::active_policies_t<MaxPolicyT, KeyT, ValueT>::block_sort_t::BLOCK_THREADS,
    detail::merge_sort::active_policies_t<MaxPolicyT, KeyT, ValueT>::
        SORT_MIN_BLOCKS) void DeviceMergeSortBlockSortKernel(bool to_buffer, KeyInputIteratorT d_keys_in,
                                                             ValueInputIteratorT d_values_in, KeyIteratorT d_keys_out,
                                                             ValueIteratorT d_values_out, OffsetT num_items,
                                                             KeyT* keys_buffer, ValueT* values_buffer,
                                                             CompareOpT compare_op, void* d_block_storage)
{
  using PolicyT = typename detail::merge_sort::active_policies_t<MaxPolicyT, KeyT, ValueT>::block_sort_t;
  using AgentT  = AgentBlockSort<PolicyT, KeyInputIteratorT, ValueInputIteratorT, KeyIteratorT, ValueIteratorT, OffsetT,
                                CompareOpT, KeyT, ValueT>;
  auto& temp_storage = detail::BlockTempStorage<typename AgentT::TempStorage>(d_block_storage);
  detail::TriggerDependentLaunch(); // the first merge pass may launch; it waits for this grid's writes
  AgentT(temp_storage, d_keys_in, d_values_in, d_keys_out, d_values_out, keys_buffer, values_buffer, num_items,
         compare_op)
      .Process(OffsetT(blockIdx.x), to_buffer);
}

//! Before a merge pass over many tiles: warp w finds where merge tile w of the pass starts in its
//! pair of runs (detail::merge_sort::WarpRunSplit), for tiles 0 .. num_tiles - 1.
template <typename MaxPolicyT, typename KeyInIt, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(detail::merge_sort::partition_block_threads) void DeviceMergeSortPartitionKernel(
    KeyInIt d_keys_in, OffsetT num_items, OffsetT run_items, int num_tiles, OffsetT* d_splits, CompareOpT compare_op)
{
  constexpr int WARPS = detail::merge_sort::partition_block_threads / detail::warp_threads;
  constexpr OffsetT TILE_ITEMS =
      detail::merge_sort::active_policies_t<MaxPolicyT, KeyT, ValueT>::merge_t::ITEMS_PER_TILE;
  const int tile = int(blockIdx.x) * WARPS + int(threadIdx.x) / detail::warp_threads;
  detail::WaitForPrimaryGrid(); // the previous pass's runs
  detail::TriggerDependentLaunch();
  if (tile < num_tiles)
  {
    const OffsetT split =
        detail::merge_sort::WarpRunSplit(d_keys_in, num_items, run_items, OffsetT(tile) * TILE_ITEMS, compare_op);
    if (threadIdx.x % detail::warp_threads == 0)
    {
      d_splits[tile] = split;
    }
  }
}

//! A merge pass: block b writes tile b of the merge of the input's runs of `run_items` items.
template <typename MaxPolicyT, typename KeyInIt, typename ValueInIt, typename KeyOutIt, typename ValueOutIt,
          typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(detail::merge_sort::active_policies_t<MaxPolicyT, KeyT, ValueT>::merge_t::BLOCK_THREADS,
                  detail::merge_sort::active_policies_t<MaxPolicyT, KeyT, ValueT>::
                      MERGE_MIN_BLOCKS) void DeviceMergeSortMergeKernel(KeyInIt d_keys_in, ValueInIt d_values_in,
                                                                        KeyOutIt d_keys_out, ValueOutIt d_values_out,
                                                                        OffsetT num_items, OffsetT run_items,
                                                                        const OffsetT* d_splits, CompareOpT compare_op,
                                                                        void* d_block_storage)
{
  using PolicyT      = typename detail::merge_sort::active_policies_t<MaxPolicyT, KeyT, ValueT>::merge_t;
  using AgentT       = AgentMerge<PolicyT, KeyInIt, ValueInIt, KeyOutIt, ValueOutIt, OffsetT, CompareOpT, KeyT, ValueT>;
  auto& temp_storage = detail::BlockTempStorage<typename AgentT::TempStorage>(d_block_storage);
  detail::WaitForPrimaryGrid(); // the previous pass's runs
  detail::TriggerDependentLaunch();
  AgentT(temp_storage, d_keys_in, d_values_in, d_keys_out, d_values_out, num_items, compare_op)
      .Process(OffsetT(blockIdx.x), run_items, d_splits);
}

STRATA_KERNELS_END

//! Dispatches a stable merge sort of num_items keys (and values) read from d_input_keys
//! (d_input_items) into d_output_keys (d_output_items), ordered by compare_op. A first pass sorts
//! tiles into runs; each merge pass then merges pairs of runs, alternating between the output and
//! a temporary buffer so that the last pass writes the output. A sort of one tile needs no buffer
//! and one launch.
//!
//! The template parameters are CUB's. PolicyHubT's policies name their AgentMergeSortPolicy
//! MergeSortPolicy (CUB's member) and, optionally, strata's BlockSortPolicy (the first pass's
//! tile) and PARTITION_MIN_TILES. KernelSource, KernelLauncherFactory and VSMemHelperT exist for
//! CUB's spelling; only their defaults are accepted. An empty sort launches nothing and, as CUB's,
//! accepts any temporary storage, none included (its size query still reports a byte).
template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
          typename OffsetT, typename CompareOpT,
          typename PolicyHub             = detail::merge_sort::policy_hub<KeyIteratorT, ValueIteratorT>,
          typename KernelSource          = detail::DefaultKernelSource,
          typename KernelLauncherFactory = detail::TripleChevronFactory,
          typename VSMemHelperT          = detail::merge_sort::NoVirtualSharedMemory,
          typename KeyT = detail::it_value_t<KeyIteratorT>, typename ValueT = detail::it_value_t<ValueIteratorT>>
struct DispatchMergeSort
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  static_assert(::cuda::std::is_same_v<VSMemHelperT, detail::merge_sort::NoVirtualSharedMemory>,
                "strata fits merge sort tiles to shared memory: a custom VSMemHelperT would be ignored");

  //! Whether there are no values to move with the keys.
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyInputIteratorT d_input_keys;
  ValueInputIteratorT d_input_items;
  KeyIteratorT d_output_keys;
  ValueIteratorT d_output_items;
  OffsetT num_items;
  CompareOpT compare_op;
  cudaStream_t stream;
  int ptx_version;
  KernelSource kernel_source;
  KernelLauncherFactory launcher_factory;

  using MaxPolicyT = typename PolicyHub::MaxPolicy;

  STRATA_RUNTIME_FUNCTION
  DispatchMergeSort(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                    ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys, ValueIteratorT d_output_items,
                    OffsetT num_items, CompareOpT compare_op, cudaStream_t stream, int ptx_version,
                    KernelSource kernel_source = {}, KernelLauncherFactory launcher_factory = {})
      : d_temp_storage(d_temp_storage)
      , temp_storage_bytes(temp_storage_bytes)
      , d_input_keys(d_input_keys)
      , d_input_items(d_input_items)
      , d_output_keys(d_output_keys)
      , d_output_items(d_output_items)
      , num_items(num_items)
      , compare_op(compare_op)
      , stream(stream)
      , ptx_version(ptx_version)
      , kernel_source(kernel_source)
      , launcher_factory(launcher_factory)
  {
  }

  //! One merge pass from runs of `run_items` items in the keys and values at KeyInIt and ValueInIt
  //! to the outputs: the partition kernel first where `d_splits` is given.
  template <typename KeyInIt, typename ValueInIt, typename KeyOutIt, typename ValueOutIt, typename MergePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t MergePass(KeyInIt keys_in, ValueInIt values_in, KeyOutIt keys_out,
                                                ValueOutIt values_out, OffsetT run_items, int merge_tiles,
                                                OffsetT* d_splits, void* d_block_storage, bool programmatic)
  {
    if (d_splits != nullptr)
    {
      constexpr int WARPS     = detail::merge_sort::partition_block_threads / detail::warp_threads;
      const cudaError_t error = detail::LaunchKernel(
          programmatic, DeviceMergeSortPartitionKernel<MaxPolicyT, KeyInIt, OffsetT, CompareOpT, KeyT, ValueT>,
          (merge_tiles + WARPS - 1) / WARPS, detail::merge_sort::partition_block_threads, stream, keys_in, num_items,
          run_items, merge_tiles, d_splits, compare_op);
      if (error != cudaSuccess)
      {
        return error;
      }
    }
    return detail::LaunchKernel(programmatic,
                                DeviceMergeSortMergeKernel<MaxPolicyT, KeyInIt, ValueInIt, KeyOutIt, ValueOutIt,
                                                           OffsetT, CompareOpT, KeyT, ValueT>,
                                merge_tiles, MergePolicyT::BLOCK_THREADS, stream, keys_in, values_in, keys_out,
                                values_out, num_items, run_items, static_cast<const OffsetT*>(d_splits), compare_op,
                                d_block_storage);
  }

  //! Sizes or runs the sort with ActivePolicyT (the argument is CUB's spelling: a policy object).
  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke(ActivePolicyT = {})
  {
    using WideT                = ::cuda::std::uint64_t;
    using PoliciesT            = detail::merge_sort::agent_policies<ActivePolicyT, KeyT, ValueT>;
    using SortPolicyT          = typename PoliciesT::block_sort_t;
    using MergePolicyT         = typename PoliciesT::merge_t;
    constexpr WideT SORT_TILE  = SortPolicyT::ITEMS_PER_TILE;
    constexpr WideT MERGE_TILE = MergePolicyT::ITEMS_PER_TILE;

    const WideT items = WideT(num_items);
    if (items == 0 && d_temp_storage != nullptr)
    {
      return cudaSuccess; // nothing to sort: CUB asks for no temporary storage here
    }
    const WideT sort_tiles  = (items + SORT_TILE - 1) / SORT_TILE;
    const WideT merge_tiles = (items + MERGE_TILE - 1) / MERGE_TILE;
    if (merge_tiles > WideT(::cuda::std::numeric_limits<int>::max()))
    {
      // A block per tile.
      return STRATA_INVALID_ARGUMENT("num_items is too large: more than 2^31 - 1 merge tiles");
    }
    int passes = 0; // merge passes: the runs double from one tile until one run holds everything
    for (WideT run = SORT_TILE; run < items; run *= 2)
    {
      ++passes;
    }

    // The buffer the passes alternate with: none when the first pass writes the output at once.
    const size_t buffer_items = passes > 0 ? size_t(items) : 0;
    KeyT* keys_buffer         = nullptr;
    ValueT* values_buffer     = nullptr;
    OffsetT* d_splits         = nullptr;
    const bool partition = passes > 0 && merge_tiles >= WideT(detail::merge_sort::partition_min_tiles_v<ActivePolicyT>);
    // Tiles too large for shared memory even at a warp of one item: a slice of global memory per
    // block, for the first pass and (one after the other) the merge passes.
    using detail::merge_sort::block_sort_storage_t;
    using detail::merge_sort::merge_storage_t;
    constexpr size_t SORT_BYTES = detail::global_storage_bytes_v<
        block_sort_storage_t<SortPolicyT, KeyInputIteratorT, ValueInputIteratorT, KeyIteratorT, ValueIteratorT, OffsetT,
                             CompareOpT, KeyT, ValueT>>;
    constexpr size_t MERGE_FROM_BUFFER_BYTES = detail::global_storage_bytes_v<
        merge_storage_t<MergePolicyT, KeyT*, ValueT*, KeyIteratorT, ValueIteratorT, OffsetT, CompareOpT, KeyT, ValueT>>;
    constexpr size_t MERGE_TO_BUFFER_BYTES = detail::global_storage_bytes_v<
        merge_storage_t<MergePolicyT, KeyIteratorT, ValueIteratorT, KeyT*, ValueT*, OffsetT, CompareOpT, KeyT, ValueT>>;
    constexpr size_t MERGE_BYTES =
        MERGE_FROM_BUFFER_BYTES > MERGE_TO_BUFFER_BYTES ? MERGE_FROM_BUFFER_BYTES : MERGE_TO_BUFFER_BYTES;
    unsigned char* d_sort_storage  = nullptr;
    unsigned char* d_merge_storage = nullptr;
    // (First, so that where they are empty the layout is the same as without them.)
    cudaError_t error = detail::CarveTemporaryStorage(
        d_temp_storage, temp_storage_bytes, detail::Slot(d_sort_storage, size_t(sort_tiles) * SORT_BYTES),
        detail::Slot(d_merge_storage, passes > 0 ? size_t(merge_tiles) * MERGE_BYTES : 0),
        detail::Slot(keys_buffer, buffer_items), detail::Slot(values_buffer, KEYS_ONLY ? 0 : buffer_items),
        detail::Slot(d_splits, partition ? size_t(merge_tiles) : 0));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }

    // An odd number of merge passes starts from the buffer, so that the last one writes the output.
    bool in_buffer = passes % 2 == 1;
    error          = detail::LaunchKernel(
                 false,
                 DeviceMergeSortBlockSortKernel<MaxPolicyT, KeyInputIteratorT, ValueInputIteratorT, KeyIteratorT, ValueIteratorT,
                                       OffsetT, CompareOpT, KeyT, ValueT>,
                 int(sort_tiles), SortPolicyT::BLOCK_THREADS, stream, in_buffer, d_input_keys, d_input_items, d_output_keys,
                 d_output_items, num_items, keys_buffer, values_buffer, compare_op, static_cast<void*>(d_sort_storage));
    const bool programmatic = ptx_version >= 900;
    WideT run               = SORT_TILE;
    for (int pass = 0; pass < passes && error == cudaSuccess; ++pass, run *= 2, in_buffer = !in_buffer)
    {
      error = in_buffer ? MergePass<KeyT*, ValueT*, KeyIteratorT, ValueIteratorT, MergePolicyT>(
                  keys_buffer, values_buffer, d_output_keys, d_output_items, OffsetT(run), int(merge_tiles),
                  partition ? d_splits : nullptr, d_merge_storage, programmatic)
                        : MergePass<KeyIteratorT, ValueIteratorT, KeyT*, ValueT*, MergePolicyT>(
                            d_output_keys, d_output_items, keys_buffer, values_buffer, OffsetT(run), int(merge_tiles),
                            partition ? d_splits : nullptr, d_merge_storage, programmatic);
    }
    return error;
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the sort.
  //! `max_policy` is CUB's last parameter; the kernels are compiled for PolicyHub's chain, so it
  //! must be that chain (its default).
  template <typename MaxPolicyArgT = MaxPolicyT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
           ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys, ValueIteratorT d_output_items,
           OffsetT num_items, CompareOpT compare_op, cudaStream_t stream, KernelSource kernel_source = {},
           KernelLauncherFactory launcher_factory = {}, [[maybe_unused]] MaxPolicyArgT max_policy = {})
  {
    static_assert(::cuda::std::is_same_v<MaxPolicyArgT, MaxPolicyT>,
                  "DispatchMergeSort's kernels use PolicyHub's policies: name another hub as PolicyHub instead");
    if (!detail::IsValidCount(num_items))
    {
      return STRATA_INVALID_ARGUMENT("num_items is negative");
    }
    if (d_temp_storage != nullptr && num_items > 0
        && (detail::IsNullPointer(d_input_keys) || detail::IsNullPointer(d_output_keys)
            || (!KEYS_ONLY && (detail::IsNullPointer(d_input_items) || detail::IsNullPointer(d_output_items)))))
    {
      return STRATA_INVALID_ARGUMENT("a key or item pointer is null");
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchMergeSort(d_temp_storage, temp_storage_bytes, d_input_keys, d_input_items, d_output_keys,
                                   d_output_items, num_items, compare_op, stream, ptx_version, kernel_source,
                                   launcher_factory);
        });
  }
};

STRATA_NAMESPACE_END

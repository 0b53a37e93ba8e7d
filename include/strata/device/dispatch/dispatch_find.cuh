// strata/device/dispatch/dispatch_find.cuh: the kernels of DeviceFind and the dispatch classes
// that pick the policy for the device, carve the temporary storage and launch them.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_find.cuh>
#include <strata/device/dispatch/dispatch_radix_sort.cuh>
#include <strata/device/dispatch/tuning/tuning_find.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace find
{
//! The partition kernel of a sorted-values merge: its block, and the fewest tiles it pays for.
inline constexpr int partition_block_threads               = 256;
inline constexpr ::cuda::std::uint64_t partition_min_tiles = 64;
} // namespace find
} // namespace detail

STRATA_KERNELS_BEGIN

//! Before FindIf's search: no match found, no tile taken, no block finished.
template <typename StateT>
STRATA_KERNEL_ATTRIBUTES void DeviceFindInitKernel(StateT* state)
{
  detail::TriggerDependentLaunch(); // the search may launch now; it waits for this grid's writes
  *state = StateT{};
}

//! FindIf's search (AgentFindIf); the block that finishes last writes the first match's index.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename PredicateT, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::FindIfPolicyT::BLOCK_THREADS) void DeviceFindIfKernel(
    InputIteratorT d_in, OutputIteratorT d_out, PredicateT predicate, OffsetT num_items, detail::find::FindState* state)
{
  using AgentT =
      detail::find::AgentFindIf<typename MaxPolicyT::ActivePolicy::FindIfPolicyT, InputIteratorT, OffsetT, PredicateT>;
  __shared__ typename AgentT::TempStorage storage;
  detail::WaitForPrimaryGrid(); // a programmatic dependent launch: the state zeroed
  OffsetT first{};
  if (AgentT{storage, d_in, predicate, num_items, state}.ConsumeTiles(first))
  {
    *d_out = first;
  }
}

//! The samples of a bound search: d_samples[s] = d_range[SamplePosition<SAMPLES>(s)].
template <int SAMPLES, typename RangeIteratorT, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES void DeviceFindSampleKernel(RangeIteratorT d_range, OffsetT num_items,
                                                     detail::it_value_t<RangeIteratorT>* d_samples)
{
  detail::TriggerDependentLaunch();
  const int s = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (s < SAMPLES)
  {
    d_samples[s] = d_range[detail::find::SamplePosition<SAMPLES>(s, num_items)];
  }
}

//! LowerBound or UpperBound (AgentBoundSearch); `d_samples` null where the range is not sampled.
template <typename MaxPolicyT, detail::find::bound BOUND, typename RangeIteratorT, typename ValuesIteratorT,
          typename OutputIteratorT, typename OffsetT, typename ValuesOffsetT, typename CompareOpT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::BoundSearchPolicyT::BLOCK_THREADS) void DeviceFindBoundKernel(
    RangeIteratorT d_range, OffsetT range_num_items, ValuesIteratorT d_values, ValuesOffsetT values_num_items,
    OutputIteratorT d_output, CompareOpT comp, const detail::it_value_t<RangeIteratorT>* d_samples)
{
  using AgentT =
      detail::find::AgentBoundSearch<typename MaxPolicyT::ActivePolicy::BoundSearchPolicyT, BOUND, RangeIteratorT,
                                     ValuesIteratorT, OutputIteratorT, OffsetT, ValuesOffsetT, CompareOpT>;
  __shared__ typename AgentT::TempStorage storage;
  detail::WaitForPrimaryGrid(); // a programmatic dependent launch: the samples gathered
  AgentT{storage, d_range, range_num_items, d_values, values_num_items, d_output, comp}.ConsumeTiles(d_samples);
}

//! Before a merge of many tiles (LowerBoundSortedValues, UpperBoundSortedValues): warp w finds
//! where tile w starts in the merge's first input, for the num_splits - 1 tiles and their end.
template <typename MaxPolicyT, detail::find::bound BOUND, typename RangeIteratorT, typename ValuesIteratorT,
          typename OutputIteratorT, typename OffsetT, typename CompareOpT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(detail::find::partition_block_threads) void DeviceFindBoundSortedValuesPartitionKernel(
    RangeIteratorT d_range, OffsetT range_num_items, ValuesIteratorT d_values, OffsetT values_num_items,
    OffsetT num_splits, OffsetT* d_splits, CompareOpT comp)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::BoundSortedValuesPolicyT;
  using AgentT  = detail::find::AgentBoundSortedValues<PolicyT, BOUND, RangeIteratorT, ValuesIteratorT, OutputIteratorT,
                                                      OffsetT, CompareOpT>;
  constexpr int WARPS = detail::find::partition_block_threads / detail::warp_threads;
  const OffsetT split = OffsetT(blockIdx.x) * WARPS + OffsetT(threadIdx.x / detail::warp_threads);
  const OffsetT total = range_num_items + values_num_items;
  detail::TriggerDependentLaunch(); // the merge may launch; it waits for this grid's splits
  if (split < num_splits)
  {
    const OffsetT diag  = total / OffsetT(AgentT::TILE_ITEMS) >= split ? split * OffsetT(AgentT::TILE_ITEMS) : total;
    const OffsetT first = AgentT::Split(d_range, range_num_items, d_values, values_num_items, diag, comp);
    if (threadIdx.x % detail::warp_threads == 0)
    {
      d_splits[split] = first;
    }
  }
}

//! LowerBoundSortedValues or UpperBoundSortedValues: block b takes tile b of the merge
//! (AgentBoundSortedValues), its bounds in the merge's first input from `d_splits` where the
//! partition kernel wrote them (else null).
template <typename MaxPolicyT, detail::find::bound BOUND, typename RangeIteratorT, typename ValuesIteratorT,
          typename OutputIteratorT, typename OffsetT, typename CompareOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    MaxPolicyT::ActivePolicy::BoundSortedValuesPolicyT::
        BLOCK_THREADS) void DeviceFindBoundSortedValuesKernel(RangeIteratorT d_range, OffsetT range_num_items,
                                                              ValuesIteratorT d_values, OffsetT values_num_items,
                                                              OutputIteratorT d_output, const OffsetT* d_splits,
                                                              CompareOpT comp)
{
  using AgentT =
      detail::find::AgentBoundSortedValues<typename MaxPolicyT::ActivePolicy::BoundSortedValuesPolicyT, BOUND,
                                           RangeIteratorT, ValuesIteratorT, OutputIteratorT, OffsetT, CompareOpT>;
  __shared__ typename AgentT::TempStorage storage;
  detail::WaitForPrimaryGrid(); // the splits
  AgentT{storage, d_range, range_num_items, d_values, values_num_items, d_output, comp}.ConsumeTile(OffsetT(blockIdx.x),
                                                                                                    d_splits);
}

STRATA_KERNELS_END

namespace detail
{
namespace find
{
//! The blocks of a launch of `kernel` that take `tiles` tiles from a counter or by stride: as
//! many as the device holds at once (BLOCKS_PER_SM an SM at most), no more than the tiles, at
//! least one. Up to a tile an SM, a block a tile, without asking for the kernel's occupancy (an
//! uncached query, a cost small inputs notice).
template <int BLOCK_THREADS, int BLOCKS_PER_SM, typename KernelT>
STRATA_RUNTIME_FUNCTION cudaError_t ResidentBlocks(int& blocks, ::cuda::std::uint64_t tiles, KernelT kernel)
{
  int sm_count      = 0;
  cudaError_t error = SmCount(sm_count);
  if (error != cudaSuccess)
  {
    return error;
  }
  if (tiles <= ::cuda::std::uint64_t(sm_count))
  {
    blocks = tiles > 0 ? int(tiles) : 1;
    return cudaSuccess;
  }
  int occupancy = 0;
  error         = STRATA_DETAIL_REPORT(MaxSmOccupancy(occupancy, kernel, BLOCK_THREADS));
  if (error != cudaSuccess)
  {
    return error;
  }
  const int per_sm = occupancy < BLOCKS_PER_SM ? occupancy : BLOCKS_PER_SM;
  const ::cuda::std::uint64_t resident =
      ::cuda::std::uint64_t(sm_count) * ::cuda::std::uint64_t(per_sm > 0 ? per_sm : 1);
  blocks = int(tiles < resident ? (tiles > 0 ? tiles : 1) : resident);
  return cudaSuccess;
}

//! The order a radix sort puts values in so that they are sorted by CompareOpT: ascending for
//! less, descending for greater; none for other comparators.
template <typename CompareOpT>
inline constexpr int sort_order_v = 0;
template <typename T>
inline constexpr int sort_order_v<::cuda::std::less<T>> = 1;
template <typename T>
inline constexpr int sort_order_v<::cuda::std::greater<T>> = 2;

//! Whether LowerBound and UpperBound can sort the values (radix sort with their positions) and
//! merge them with the range: values in memory, of an arithmetic type, ordered by less or greater.
template <typename ValuesIteratorT, typename CompareOpT>
inline constexpr bool can_sort_values_v =
    ::cuda::std::is_pointer_v<ValuesIteratorT>&& ::cuda::std::is_arithmetic_v<it_value_t<
        ValuesIteratorT>> && !::cuda::std::is_same_v<::cuda::std::remove_cv_t<it_value_t<ValuesIteratorT>>, bool> && sort_order_v<CompareOpT> != 0;

//! Whether sorting the values and merging them with the range beats a search for each: enough
//! values to pay for the sort, and dense enough in a long range that reading all of it (coalesced)
//! costs less than their searches' scattered reads of its deeper levels.
STRATA_HOST_DEVICE constexpr bool SortAndMergePays(::cuda::std::uint64_t range_num_items,
                                                   ::cuda::std::uint64_t values_num_items)
{
  return values_num_items >= (::cuda::std::uint64_t(1) << 16) && values_num_items <= 0xFFFFFFFFull
         && range_num_items >= (::cuda::std::uint64_t(1) << 16) && values_num_items * 64 >= range_num_items;
}

//! An output iterator whose position i is out[indices[i]]: the merge of the sorted values writes
//! each value's bound where the value stood before the sort.
template <typename OutputIteratorT, typename IndexT>
struct ScatterOutput
{
  OutputIteratorT out;
  const IndexT* indices;

  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE decltype(auto) operator[](OffsetT i)
  {
    return out[indices[i]];
  }
};
} // namespace find
} // namespace detail

//! Dispatches DeviceFind::FindIf (OffsetT unsigned): its temporary storage holds the state the
//! blocks share (detail::find::FindState), zeroed by a first kernel; the search follows as a
//! programmatic dependent launch where the device allows it.
template <typename InputIteratorT, typename OutputIteratorT, typename PredicateT, typename OffsetT,
          typename PolicyHub = detail::find::policy_hub>
struct DispatchFindIf
{
  using MaxPolicyT = typename PolicyHub::MaxPolicy;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  PredicateT predicate;
  OffsetT num_items;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT                    = typename ActivePolicyT::FindIfPolicyT;
    using AgentT                     = detail::find::AgentFindIf<PolicyT, InputIteratorT, OffsetT, PredicateT>;
    detail::find::FindState* d_state = nullptr;
    cudaError_t error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_state, 1));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }
    auto kernel = DeviceFindIfKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, PredicateT, OffsetT>;
    const ::cuda::std::uint64_t tiles =
        (::cuda::std::uint64_t(num_items) + AgentT::TILE_ITEMS - 1) / ::cuda::std::uint64_t(AgentT::TILE_ITEMS);
    int blocks = 0;
    error      = detail::find::ResidentBlocks<PolicyT::BLOCK_THREADS, PolicyT::BLOCKS_PER_SM>(blocks, tiles, kernel);
    if (error != cudaSuccess)
    {
      return error;
    }
    error = detail::LaunchKernel(false, DeviceFindInitKernel<detail::find::FindState>, 1, 1, stream, d_state);
    if (error != cudaSuccess)
    {
      return error;
    }
    return detail::LaunchKernel(ptx_version >= 900, kernel, blocks, PolicyT::BLOCK_THREADS, stream, d_in, d_out,
                                predicate, num_items, d_state);
  }

  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputIteratorT d_in, OutputIteratorT d_out, PredicateT predicate,
                                                      OffsetT num_items, cudaStream_t stream)
  {
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version) {
          return DispatchFindIf{d_temp_storage, temp_storage_bytes, d_in,   d_out,
                                predicate,      num_items,          stream, ptx_version};
        });
  }
};

//! Dispatches DeviceFind::LowerBound or UpperBound (BOUND; OffsetT and ValuesOffsetT unsigned).
//! With many values in a long range (SortAndMergePays) that can be radix-sorted in the
//! comparator's order, its temporary storage holds the sorted values, their positions and the
//! sort's storage, and the sorted values are merged with the range. Otherwise, where the range is
//! long enough, it holds samples of the range, gathered by a first kernel, that every block of the
//! search then keeps in shared memory (AgentBoundSearch); else it needs none (the size query
//! reports one byte).
template <detail::find::bound BOUND, typename RangeIteratorT, typename ValuesIteratorT, typename OutputIteratorT,
          typename OffsetT, typename ValuesOffsetT, typename CompareOpT, typename PolicyHub = detail::find::policy_hub>
struct DispatchFindBound
{
  using MaxPolicyT = typename PolicyHub::MaxPolicy;
  using RangeT     = detail::it_value_t<RangeIteratorT>;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  RangeIteratorT d_range;
  OffsetT range_num_items;
  ValuesIteratorT d_values;
  ValuesOffsetT values_num_items;
  OutputIteratorT d_output;
  CompareOpT comp;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    if constexpr (detail::find::can_sort_values_v<ValuesIteratorT, CompareOpT>)
    {
      if (detail::find::SortAndMergePays(range_num_items, values_num_items))
      {
        return SortAndMerge<ActivePolicyT>();
      }
    }
    return Search<ActivePolicyT>();
  }

  //! The values sorted with their positions (a radix sort into the temporary storage), then merged
  //! with the range as LowerBoundSortedValues does, each bound written at its value's position.
  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t SortAndMerge()
  {
    using KeyT     = ::cuda::std::remove_cv_t<detail::it_value_t<ValuesIteratorT>>;
    using IndexT   = ::cuda::std::uint32_t;
    using IndicesT = CountingInputIterator<IndexT, IndexT>;
    constexpr SortOrder ORDER =
        detail::find::sort_order_v<CompareOpT> == 1 ? SortOrder::Ascending : SortOrder::Descending;
    using SortT                   = DispatchRadixSort<ORDER, KeyT, IndexT, IndexT, detail::identity_decomposer_t,
                                    detail::radix::policy_hub<KeyT, IndexT, IndexT>, IndicesT>;
    using MergeOffsetT            = ::cuda::std::common_type_t<OffsetT, ValuesOffsetT>;
    using PolicyT                 = typename ActivePolicyT::BoundSortedValuesPolicyT;
    constexpr int TILE_ITEMS      = PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD;
    const IndexT num_values       = IndexT(values_num_items);
    KeyT* d_sorted                = nullptr;
    IndexT* d_indices             = nullptr;
    unsigned char* d_sort_storage = nullptr;
    size_t sort_bytes             = 0;
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_values), nullptr);
    cudaError_t error = SortT::DispatchFromIterator(nullptr, sort_bytes, keys, IndicesT(0), d_indices, num_values, 0,
                                                    int(sizeof(KeyT) * 8), stream);
    if (error != cudaSuccess)
    {
      return error;
    }
    error =
        detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_sorted, num_values),
                                      detail::Slot(d_indices, num_values), detail::Slot(d_sort_storage, sort_bytes));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }
    keys  = DoubleBuffer<KeyT>(const_cast<KeyT*>(d_values), d_sorted);
    error = SortT::DispatchFromIterator(d_sort_storage, sort_bytes, keys, IndicesT(0), d_indices, num_values, 0,
                                        int(sizeof(KeyT) * 8), stream);
    if (error != cudaSuccess)
    {
      return error;
    }
    using ScatterT                    = detail::find::ScatterOutput<OutputIteratorT, IndexT>;
    const ::cuda::std::uint64_t total = ::cuda::std::uint64_t(range_num_items) + ::cuda::std::uint64_t(num_values);
    const ::cuda::std::uint64_t tiles = (total + TILE_ITEMS - 1) / TILE_ITEMS;
    if (tiles > 0x7FFFFFFFull)
    {
      return STRATA_INVALID_ARGUMENT("the range and the values are too long: more than 2^31 - 1 tiles");
    }
    return detail::LaunchKernel(false,
                                DeviceFindBoundSortedValuesKernel<MaxPolicyT, BOUND, RangeIteratorT, const KeyT*,
                                                                  ScatterT, MergeOffsetT, CompareOpT>,
                                int(tiles), PolicyT::BLOCK_THREADS, stream, d_range, MergeOffsetT(range_num_items),
                                static_cast<const KeyT*>(keys.Current()), MergeOffsetT(num_values),
                                ScatterT{d_output, d_indices}, static_cast<const MergeOffsetT*>(nullptr), comp);
  }

  //! A search for each value, its first levels through samples of the range in shared memory.
  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Search()
  {
    using PolicyT = typename ActivePolicyT::BoundSearchPolicyT;
    using AgentT  = detail::find::AgentBoundSearch<PolicyT, BOUND, RangeIteratorT, ValuesIteratorT, OutputIteratorT,
                                                  OffsetT, ValuesOffsetT, CompareOpT>;
    constexpr int SAMPLES = AgentT::SAMPLES;
    // Sampling pays where it leaves a much shorter span to search in the range.
    const bool sampled = SAMPLES > 0 && ::cuda::std::uint64_t(range_num_items) > 4 * ::cuda::std::uint64_t(SAMPLES + 1);
    RangeT* d_samples  = nullptr;
    cudaError_t error  = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes,
                                                       detail::Slot(d_samples, sampled ? size_t(SAMPLES) : size_t(0)));
    if (error != cudaSuccess || d_temp_storage == nullptr || values_num_items == ValuesOffsetT(0))
    {
      return error;
    }
    auto kernel = DeviceFindBoundKernel<MaxPolicyT, BOUND, RangeIteratorT, ValuesIteratorT, OutputIteratorT, OffsetT,
                                        ValuesOffsetT, CompareOpT>;
    const ::cuda::std::uint64_t tiles = (::cuda::std::uint64_t(values_num_items) + AgentT::TILE_VALUES - 1)
                                        / ::cuda::std::uint64_t(AgentT::TILE_VALUES);
    int blocks = 0;
    error      = detail::find::ResidentBlocks<PolicyT::BLOCK_THREADS, 64>(blocks, tiles, kernel);
    if (error != cudaSuccess)
    {
      return error;
    }
    if (sampled)
    {
      constexpr int SAMPLE_THREADS = 256;
      error = detail::LaunchKernel(false, DeviceFindSampleKernel<SAMPLES, RangeIteratorT, OffsetT>,
                                   (SAMPLES + SAMPLE_THREADS - 1) / SAMPLE_THREADS, SAMPLE_THREADS, stream, d_range,
                                   range_num_items, d_samples);
      if (error != cudaSuccess)
      {
        return error;
      }
    }
    return detail::LaunchKernel(sampled && ptx_version >= 900, kernel, blocks, PolicyT::BLOCK_THREADS, stream, d_range,
                                range_num_items, d_values, values_num_items, d_output, comp,
                                static_cast<const RangeT*>(sampled ? d_samples : nullptr));
  }

  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      RangeIteratorT d_range, OffsetT range_num_items,
                                                      ValuesIteratorT d_values, ValuesOffsetT values_num_items,
                                                      OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream)
  {
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchFindBound{d_temp_storage,   temp_storage_bytes, d_range, range_num_items, d_values,
                                   values_num_items, d_output,           comp,    stream,          ptx_version};
        });
  }
};

//! Dispatches DeviceFind::LowerBoundSortedValues or UpperBoundSortedValues (BOUND; OffsetT
//! unsigned): one block a tile of the merge of the values and the range. A merge of at least
//! find::partition_min_tiles tiles first has a partition kernel find every tile's bounds (a warp a
//! tile, one split a tile and one more of temporary storage); a smaller one is one kernel whose
//! blocks find their own, and the size query reports one byte.
template <detail::find::bound BOUND, typename RangeIteratorT, typename ValuesIteratorT, typename OutputIteratorT,
          typename OffsetT, typename CompareOpT, typename PolicyHub = detail::find::policy_hub>
struct DispatchFindBoundSortedValues
{
  using MaxPolicyT = typename PolicyHub::MaxPolicy;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  RangeIteratorT d_range;
  OffsetT range_num_items;
  ValuesIteratorT d_values;
  OffsetT values_num_items;
  OutputIteratorT d_output;
  CompareOpT comp;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT                     = typename ActivePolicyT::BoundSortedValuesPolicyT;
    constexpr int TILE_ITEMS          = PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD;
    const ::cuda::std::uint64_t total = ::cuda::std::uint64_t(range_num_items) + values_num_items;
    const ::cuda::std::uint64_t tiles = (total + TILE_ITEMS - 1) / TILE_ITEMS;
    if (tiles > 0x7FFFFFFFull)
    {
      return STRATA_INVALID_ARGUMENT("the range and the values are too long: more than 2^31 - 1 tiles");
    }
    const bool partition = values_num_items > OffsetT(0) && tiles >= detail::find::partition_min_tiles;
    OffsetT* d_splits    = nullptr;
    cudaError_t error    = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes,
                                                         detail::Slot(d_splits, partition ? size_t(tiles) + 1 : 0));
    if (error != cudaSuccess || d_temp_storage == nullptr || values_num_items == OffsetT(0))
    {
      return error;
    }
    if (partition)
    {
      constexpr int WARPS = detail::find::partition_block_threads / detail::warp_threads;
      error               = detail::LaunchKernel(
                        false,
                        DeviceFindBoundSortedValuesPartitionKernel<MaxPolicyT, BOUND, RangeIteratorT, ValuesIteratorT,
                                                     OutputIteratorT, OffsetT, CompareOpT>,
                        int((tiles + 1 + WARPS - 1) / WARPS), detail::find::partition_block_threads, stream, d_range, range_num_items,
                        d_values, values_num_items, OffsetT(tiles + 1), d_splits, comp);
      if (error != cudaSuccess)
      {
        return error;
      }
    }
    return detail::LaunchKernel(partition && ptx_version >= 900,
                                DeviceFindBoundSortedValuesKernel<MaxPolicyT, BOUND, RangeIteratorT, ValuesIteratorT,
                                                                  OutputIteratorT, OffsetT, CompareOpT>,
                                int(tiles), PolicyT::BLOCK_THREADS, stream, d_range, range_num_items, d_values,
                                values_num_items, d_output, partition ? static_cast<const OffsetT*>(d_splits) : nullptr,
                                comp);
  }

  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      RangeIteratorT d_range, OffsetT range_num_items,
                                                      ValuesIteratorT d_values, OffsetT values_num_items,
                                                      OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream)
  {
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchFindBoundSortedValues{d_temp_storage, temp_storage_bytes, d_range,  range_num_items,
                                               d_values,       values_num_items,   d_output, comp,
                                               stream,         ptx_version};
        });
  }
};

STRATA_NAMESPACE_END

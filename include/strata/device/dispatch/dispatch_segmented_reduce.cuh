// strata/device/dispatch/dispatch_segmented_reduce.cuh: the kernels of DeviceSegmentedReduce, and
// the dispatch class (CUB's DispatchSegmentedReduce) that scans the segments' costs, sizes and
// carves the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_segmented_reduce.cuh>
#include <strata/agent/agent_segmented_reduce_fixed.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_cost_line.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace segmented_reduce
{
//! Where segment s of segments of one size starts: s * segment_size.
struct FixedSegmentStart
{
  ::cuda::std::int64_t segment_size;
  STRATA_HOST_DEVICE ::cuda::std::int64_t operator()(::cuda::std::int64_t s) const
  {
    return s * segment_size;
  }
};

//! The begin offsets of segments of `segment_size` items each (the end offsets: the same plus one).
using FixedSegmentOffsets =
    TransformInputIterator<::cuda::std::int64_t, FixedSegmentStart, CountingInputIterator<::cuda::std::int64_t>>;

//! Whether the segments may read d_in: not where they are all empty by construction (the
//! fixed-size forms with segment_size 0, which accept a null d_in as DeviceReduce does with no items).
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
STRATA_RUNTIME_FUNCTION bool MayReadInput(const BeginOffsetIteratorT&, const EndOffsetIteratorT&)
{
  return true;
}
STRATA_RUNTIME_FUNCTION inline bool MayReadInput(const FixedSegmentOffsets& begin, const FixedSegmentOffsets& end)
{
  return begin[0] != end[0];
}

//! An item as it enters the reduction: converted to AccumT (Reduce, Sum, Min, Max).
template <typename AccumT>
struct ConvertItem
{
  template <typename IndexT, typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT operator()(IndexT, const T& item) const
  {
    return AccumT(item);
  }
};

//! An item as it enters an arg reduction: paired with its index in its segment (ArgMin, ArgMax).
template <typename PairT>
struct IndexItem
{
  template <typename IndexT, typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE PairT operator()(IndexT index, const T& item) const
  {
    return PairT(static_cast<decltype(PairT{}.key)>(index), static_cast<decltype(PairT{}.value)>(item));
  }
};
} // namespace segmented_reduce
} // namespace detail

STRATA_KERNELS_BEGIN

//! The first pass of DeviceSegmentedReduce: each warp reduces its chunks of the segments' cost
//! line, writing whole segments out and the parts of cut ones to the temporary storage. Both
//! passes may be programmatic dependent launches: they wait for the launch before them first.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename ReductionOpT, typename InitT, typename AccumT, typename ItemOpT,
          bool COMBINE_INIT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    MaxPolicyT::ActivePolicy::SegmentedReducePolicy::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::SegmentedReducePolicy::
        MIN_BLOCKS_PER_SM) void DeviceSegmentedReduceKernel(InputIteratorT d_in, OutputIteratorT d_out,
                                                            BeginOffsetIteratorT d_begin_offsets,
                                                            EndOffsetIteratorT d_end_offsets,
                                                            ::cuda::std::int64_t num_segments,
                                                            const ::cuda::std::uint64_t* d_offsets,
                                                            detail::segmented_reduce::ChunkParts<AccumT> parts,
                                                            ReductionOpT reduction_op, InitT init, ItemOpT item_op,
                                                            ::cuda::std::uint64_t max_chunks)
{
  using PolicyT                         = typename MaxPolicyT::ActivePolicy::SegmentedReducePolicy;
  constexpr ::cuda::std::uint64_t WARPS = PolicyT::BLOCK_THREADS / detail::warp_threads;
  detail::WaitForPrimaryGrid(); // a programmatic dependent launch: what the launch before wrote
  detail::segmented_reduce::AgentSegmentedReduce<PolicyT, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                                 EndOffsetIteratorT, ReductionOpT, InitT, AccumT, ItemOpT,
                                                 COMBINE_INIT>(
      d_in, d_out, d_begin_offsets, d_end_offsets, num_segments, d_offsets, parts, reduction_op, init, item_op)
      .ConsumeChunks(::cuda::std::uint64_t(blockIdx.x) * WARPS + threadIdx.x / detail::warp_threads,
                     ::cuda::std::uint64_t(gridDim.x) * WARPS, max_chunks);
}

//! The second pass: the parts of each segment cut by chunk borders, joined.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename ReductionOpT, typename InitT, typename AccumT, typename ItemOpT,
          bool COMBINE_INIT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedReducePolicy::BLOCK_THREADS) void DeviceSegmentedReduceJoinKernel(
    InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
    ::cuda::std::int64_t num_segments, const ::cuda::std::uint64_t* d_offsets,
    detail::segmented_reduce::ChunkParts<AccumT> parts, ReductionOpT reduction_op, InitT init, ItemOpT item_op,
    ::cuda::std::uint64_t max_chunks)
{
  using PolicyT                         = typename MaxPolicyT::ActivePolicy::SegmentedReducePolicy;
  constexpr ::cuda::std::uint64_t WARPS = PolicyT::BLOCK_THREADS / detail::warp_threads;
  detail::WaitForPrimaryGrid(); // a programmatic dependent launch: what the launch before wrote
  detail::segmented_reduce::AgentSegmentedReduce<PolicyT, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                                 EndOffsetIteratorT, ReductionOpT, InitT, AccumT, ItemOpT,
                                                 COMBINE_INIT>(
      d_in, d_out, d_begin_offsets, d_end_offsets, num_segments, d_offsets, parts, reduction_op, init, item_op)
      .Join(::cuda::std::uint64_t(blockIdx.x) * WARPS + threadIdx.x / detail::warp_threads,
            ::cuda::std::uint64_t(gridDim.x) * WARPS, max_chunks);
}

//! DeviceSegmentedReduce over consecutive segments of one small size (the fixed-size forms):
//! AgentSegmentedReduceFixed, block b taking tiles b, b + gridDim.x, ...
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename InitT,
          typename AccumT, typename ItemOpT, bool COMBINE_INIT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    MaxPolicyT::ActivePolicy::SegmentedReduceFixedPolicy::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::SegmentedReduceFixedPolicy::
        MIN_BLOCKS_PER_SM) void DeviceSegmentedReduceFixedKernel(InputIteratorT d_in, OutputIteratorT d_out,
                                                                 ::cuda::std::int64_t num_segments, int segment_size,
                                                                 ReductionOpT reduction_op, InitT init, ItemOpT item_op)
{
  using AgentT =
      detail::segmented_reduce::AgentSegmentedReduceFixed<typename MaxPolicyT::ActivePolicy::SegmentedReduceFixedPolicy,
                                                          InputIteratorT, OutputIteratorT, ReductionOpT, InitT, AccumT,
                                                          ItemOpT, COMBINE_INIT>;
  __shared__ typename AgentT::TempStorage storage;
  AgentT(storage, d_in, d_out, reduction_op, init, item_op)
      .ConsumeTiles(::cuda::std::int64_t(blockIdx.x), ::cuda::std::int64_t(gridDim.x), num_segments, segment_size);
}

//! DeviceSegmentedReduce over consecutive segments of one medium size: AgentSegmentedReduceFixed's
//! ConsumeSegmentsByWarp, warp w of block b taking segments b * WARPS + w, + gridDim.x * WARPS, ...
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename InitT,
          typename AccumT, typename ItemOpT, bool COMBINE_INIT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    MaxPolicyT::ActivePolicy::SegmentedReduceFixedPolicy::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::SegmentedReduceFixedPolicy::
        MIN_BLOCKS_PER_SM) void DeviceSegmentedReduceFixedWarpKernel(InputIteratorT d_in, OutputIteratorT d_out,
                                                                     ::cuda::std::int64_t num_segments,
                                                                     int segment_size, ReductionOpT reduction_op,
                                                                     InitT init, ItemOpT item_op)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::SegmentedReduceFixedPolicy;
  using AgentT =
      detail::segmented_reduce::AgentSegmentedReduceFixed<PolicyT, InputIteratorT, OutputIteratorT, ReductionOpT, InitT,
                                                          AccumT, ItemOpT, COMBINE_INIT>;
  constexpr int WARPS = PolicyT::BLOCK_THREADS / detail::warp_threads;
  AgentT::ConsumeSegmentsByWarp(d_in, d_out, reduction_op, init, item_op,
                                ::cuda::std::int64_t(blockIdx.x) * WARPS + int(threadIdx.x) / detail::warp_threads,
                                ::cuda::std::int64_t(gridDim.x) * WARPS, num_segments, segment_size);
}

STRATA_KERNELS_END

namespace detail
{
namespace segmented_reduce
{
//! Whether a policy has a SegmentedReduceFixedPolicy (a user's hub may have only the other).
template <typename PolicyT, typename = void>
inline constexpr bool has_fixed_policy_v = false;
template <typename PolicyT>
inline constexpr bool has_fixed_policy_v<PolicyT, ::cuda::std::void_t<typename PolicyT::SegmentedReduceFixedPolicy>> =
    true;

//! The host side of a segmented reduction with ItemOpT and COMBINE_INIT (AgentSegmentedReduce, or
//! AgentSegmentedReduceFixed for consecutive segments of one small size).
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename ReductionOpT, typename InitT, typename AccumT, typename ItemOpT,
          bool COMBINE_INIT>
struct dispatch_t
{
  using CostT = ::cuda::std::uint64_t;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ::cuda::std::int64_t num_segments;
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  ReductionOpT reduction_op;
  InitT init;
  ItemOpT item_op;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    // Consecutive segments of one small size skip the cost line: a tile of whole segments a block.
    if constexpr (
        ::cuda::std::is_same_v<
            BeginOffsetIteratorT,
            FixedSegmentOffsets> && ::cuda::std::is_same_v<EndOffsetIteratorT, FixedSegmentOffsets> && has_fixed_policy_v<ActivePolicyT>)
    {
      const ::cuda::std::int64_t segment_size = d_end_offsets[0] - d_begin_offsets[0];
      using FixedPolicyT                      = typename ActivePolicyT::SegmentedReduceFixedPolicy;
      if (segment_size >= 1 && segment_size <= FixedPolicyT::MAX_SEGMENT_ITEMS)
      {
        return InvokeFixed<ActivePolicyT>(int(segment_size), false);
      }
      if (segment_size > FixedPolicyT::MAX_SEGMENT_ITEMS && segment_size > warp_threads
          && segment_size >= FixedPolicyT::MIN_WARP_SEGMENT_ITEMS
          && segment_size <= FixedPolicyT::MAX_WARP_SEGMENT_ITEMS && num_segments >= FixedPolicyT::MIN_WARP_SEGMENTS)
      {
        return InvokeFixed<ActivePolicyT>(int(segment_size), true);
      }
    }
    return InvokeLine<ActivePolicyT>();
  }

  //! The fixed-size paths (AgentSegmentedReduceFixed): no temporary storage (one byte reported), as
  //! many blocks as tiles (or, by_warp, as a block's warps take segments) up to what the grid holds.
  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t InvokeFixed(int segment_size, bool by_warp)
  {
    using PolicyT = typename ActivePolicyT::SegmentedReduceFixedPolicy;
    using AgentT  = AgentSegmentedReduceFixed<PolicyT, InputIteratorT, OutputIteratorT, ReductionOpT, InitT, AccumT,
                                             ItemOpT, COMBINE_INIT>;
    unsigned char* none = nullptr;
    cudaError_t error   = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(none, 1));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_segments == 0)
    {
      return error;
    }
    if (by_warp)
    {
      constexpr int WARPS               = PolicyT::BLOCK_THREADS / warp_threads;
      const ::cuda::std::int64_t needed = (num_segments + WARPS - 1) / WARPS;
      return LaunchKernel(false,
                          DeviceSegmentedReduceFixedWarpKernel<MaxPolicyT, InputIteratorT, OutputIteratorT,
                                                               ReductionOpT, InitT, AccumT, ItemOpT, COMBINE_INIT>,
                          needed < 0x7FFFFFFF ? int(needed) : 0x7FFFFFFF, PolicyT::BLOCK_THREADS, stream, d_in, d_out,
                          num_segments, segment_size, reduction_op, init, item_op);
    }
    const ::cuda::std::int64_t per_tile = AgentT::SegmentsPerTile(segment_size);
    const ::cuda::std::int64_t tiles    = (num_segments + per_tile - 1) / per_tile;
    const int blocks                    = tiles < 0x7FFFFFFF ? int(tiles) : 0x7FFFFFFF;
    return LaunchKernel(false,
                        DeviceSegmentedReduceFixedKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, ReductionOpT,
                                                         InitT, AccumT, ItemOpT, COMBINE_INIT>,
                        blocks, PolicyT::BLOCK_THREADS, stream, d_in, d_out, num_segments, segment_size, reduction_op,
                        init, item_op);
  }

  //! The load-balanced path over the segments' cost line (AgentSegmentedReduce).
  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t InvokeLine()
  {
    using PolicyT = typename ActivePolicyT::SegmentedReducePolicy;
    using LineT   = cost_line::Line<SegmentCost<BeginOffsetIteratorT, EndOffsetIteratorT, PolicyT::SEGMENT_COST_ITEMS>>;
    auto kernel   = DeviceSegmentedReduceKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                              EndOffsetIteratorT, ReductionOpT, InitT, AccumT, ItemOpT, COMBINE_INIT>;
    auto join     = DeviceSegmentedReduceJoinKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                                EndOffsetIteratorT, ReductionOpT, InitT, AccumT, ItemOpT, COMBINE_INIT>;

    // As many blocks as fit on the device at once; ROUNDS chunks a warp bound the chunks, and so
    // the storage of their parts, whatever the segments hold.
    int blocks        = 0;
    cudaError_t error = cost_line::DeviceFillingGrid(blocks, kernel, PolicyT::BLOCK_THREADS);
    if (error != cudaSuccess)
    {
      return error;
    }
    const CostT max_chunks = CostT(blocks) * (PolicyT::BLOCK_THREADS / warp_threads) * PolicyT::ROUNDS;

    const LineT line{{d_begin_offsets, d_end_offsets, num_segments}, num_segments};
    size_t scan_bytes = 0;
    error             = line.Scan(nullptr, scan_bytes, nullptr, stream);
    if (error != cudaSuccess)
    {
      return error;
    }
    CostT* d_offsets              = nullptr;
    ChunkParts<AccumT> parts      = {};
    unsigned char* d_scan_storage = nullptr;
    error = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_offsets, line.Offsets()),
                                  Slot(parts.head, size_t(max_chunks)), Slot(parts.tail, size_t(max_chunks)),
                                  Slot(parts.tail_segment, size_t(max_chunks)), Slot(d_scan_storage, scan_bytes));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_segments == 0)
    {
      return error;
    }
    error = line.Scan(d_scan_storage, scan_bytes, d_offsets, stream);
    // The passes start while the launch before them ends, where the device has that (sm_90).
    const bool programmatic = ptx_version >= 900;
    if (error == cudaSuccess)
    {
      error = LaunchKernel(programmatic, kernel, blocks, PolicyT::BLOCK_THREADS, stream, d_in, d_out, d_begin_offsets,
                           d_end_offsets, num_segments, static_cast<const CostT*>(d_offsets), parts, reduction_op, init,
                           item_op, max_chunks);
    }
    if (error == cudaSuccess)
    {
      error = LaunchKernel(programmatic, join, blocks, PolicyT::BLOCK_THREADS, stream, d_in, d_out, d_begin_offsets,
                           d_end_offsets, num_segments, static_cast<const CostT*>(d_offsets), parts, reduction_op, init,
                           item_op, max_chunks);
    }
    return error;
  }
};

//! Validates the arguments, then runs (or sizes) the reduction.
template <typename MaxPolicyT, typename AccumT, bool COMBINE_INIT, typename InputIteratorT, typename OutputIteratorT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename ReductionOpT, typename InitT,
          typename ItemOpT>
STRATA_RUNTIME_FUNCTION cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                             OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                             BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                             ReductionOpT reduction_op, InitT init, ItemOpT item_op,
                                             cudaStream_t stream)
{
  if (num_segments < 0)
  {
    return STRATA_INVALID_ARGUMENT("num_segments is negative");
  }
  if (d_temp_storage != nullptr && num_segments > 0
      && ((IsNullPointer(d_in) && segmented_reduce::MayReadInput(d_begin_offsets, d_end_offsets))
          || IsNullPointer(d_out) || IsNullPointer(d_begin_offsets) || IsNullPointer(d_end_offsets)))
  {
    return STRATA_INVALID_ARGUMENT("d_in, d_out, d_begin_offsets or d_end_offsets is null");
  }
  using DispatchT = dispatch_t<MaxPolicyT, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT,
                               ReductionOpT, InitT, AccumT, ItemOpT, COMBINE_INIT>;
  return InvokeForCurrentDevice<MaxPolicyT>(
      [&](int ptx_version)
      {
        return DispatchT{d_temp_storage, temp_storage_bytes, d_in, d_out,   num_segments, d_begin_offsets,
                         d_end_offsets,  reduction_op,       init, item_op, stream,       ptx_version};
      });
}
} // namespace segmented_reduce
} // namespace detail

//! Dispatches a segmented reduction (CUB's name and template parameters): d_out[s] =
//! reduction_op(init, the reduction of d_in[d_begin_offsets[s], d_end_offsets[s])) for every
//! segment s (init alone for an empty one, where the end is not past the begin). Two passes after
//! an exclusive scan of the segments' costs: AgentSegmentedReduce. A negative count, or a null
//! pointer among the iterators on the run call, is rejected with cudaErrorInvalidValue before
//! anything is written; no segments is a successful no-op.
template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename OffsetT, typename ReductionOpT,
          typename InitT        = detail::non_void_value_t<OutputIteratorT, detail::it_value_t<InputIteratorT>>,
          typename AccumT       = detail::accumulator_t<ReductionOpT, detail::it_value_t<InputIteratorT>, InitT>,
          typename PolicyHub    = detail::segmented_reduce::policy_hub<AccumT, OffsetT, ReductionOpT>,
          typename KernelSource = detail::DefaultKernelSource,
          typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DispatchSegmentedReduce
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  using MaxPolicyT = typename PolicyHub::MaxPolicy;

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) it.
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
           ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
           ReductionOpT reduction_op, InitT init, cudaStream_t stream)
  {
    return detail::segmented_reduce::Dispatch<MaxPolicyT, AccumT, true>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets, reduction_op,
        init, detail::segmented_reduce::ConvertItem<AccumT>{}, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/dispatch/dispatch_batched_topk.cuh: the kernels of DeviceBatchedTopK (one thread
// block per segment, AgentBatchedTopK; one thread per small segment, AgentBatchedTopKThread), and
// DispatchBatchedTopK, which validates what the host knows of the arguments, picks the policy for
// the device and the kernels, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_batched_topk.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/tuning/tuning_batched_topk.cuh>
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
namespace topk
{
//! A segment's size or k as a count within it: negative values count as 0.
template <typename IndexT, typename T>
STRATA_HOST_DEVICE STRATA_FORCEINLINE IndexT SegmentCount(T value)
{
  if constexpr (::cuda::std::is_signed_v<T>)
  {
    return value < T(0) ? IndexT(0) : IndexT(value);
  }
  else
  {
    return IndexT(value);
  }
}
} // namespace topk
} // namespace detail

STRATA_KERNELS_BEGIN

//! The k best of each segment, one block per segment in turn (AgentBatchedTopK): of every segment,
//! or of the `*d_num_large` segments listed in `d_large`. A segment's k is at most its size: a
//! larger one takes the whole segment. Where `d_counts` is given, the blocks of the filter kernel
//! have kept each segment's candidates at two thresholds (`d_counts[2 s]` of them at `d_candidates
//! + 2 s * BUFFER_ITEMS`, `d_counts[2 s + 1]` at the higher one BUFFER_ITEMS further).
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyInputIteratorItT, typename KeyOutputIteratorItT,
          typename ValueInputIteratorItT, typename ValueOutputIteratorItT, typename SizesT, typename KsT,
          typename IndexT, typename CandidateT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::BatchedTopKPolicy::BLOCK_THREADS) void DeviceBatchedTopKKernel(
    KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in,
    ValueOutputIteratorItT d_values_out, SizesT segment_sizes, KsT ks, ::cuda::std::int64_t num_segments,
    const ::cuda::std::int64_t* d_large, const unsigned long long* d_num_large, const CandidateT* d_candidates,
    const IndexT* d_counts)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::BatchedTopKPolicy;
  using AgentT  = AgentBatchedTopK<PolicyT, SELECT, detail::it_value_t<KeyInputIteratorItT>,
                                  detail::it_value_t<KeyOutputIteratorItT>, detail::it_value_t<ValueInputIteratorItT>,
                                  detail::it_value_t<ValueOutputIteratorItT>, IndexT>;
  static_assert(::cuda::std::is_same_v<CandidateT, typename AgentT::CandidateT>, "the filter kernel's candidates");
  __shared__ typename AgentT::TempStorage temp_storage;
  // Every segment in turn, or those of the list d_large (the segments the thread kernel left).
  const ::cuda::std::int64_t count = d_large == nullptr ? num_segments : ::cuda::std::int64_t(*d_num_large);
  for (::cuda::std::int64_t i = blockIdx.x; i < count; i += gridDim.x)
  {
    const ::cuda::std::int64_t segment = d_large == nullptr ? i : d_large[i];
    const IndexT num_items             = detail::topk::SegmentCount<IndexT>(segment_sizes(segment));
    const ::cuda::std::uint64_t wanted = detail::topk::SegmentCount<::cuda::std::uint64_t>(ks(segment));
    const IndexT k                     = wanted < ::cuda::std::uint64_t(num_items) ? IndexT(wanted) : num_items;
    if (k == 0)
    {
      continue;
    }
    AgentT agent(temp_storage, d_keys_in[segment], num_items);
    const auto process = [&](auto values_in, auto values_out)
    {
      if (d_counts != nullptr)
      {
        const CandidateT* candidates = d_candidates + 2 * segment * AgentT::BUFFER_ITEMS;
        agent.ProcessCandidates(k, candidates, d_counts[2 * segment], candidates + AgentT::BUFFER_ITEMS,
                                d_counts[2 * segment + 1], d_keys_out[segment], values_in, values_out);
      }
      else
      {
        agent.Process(k, d_keys_out[segment], values_in, values_out);
      }
    };
    if constexpr (AgentT::KEYS_ONLY)
    {
      process(static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr));
    }
    else
    {
      process(d_values_in[segment], d_values_out[segment]);
    }
    __syncthreads(); // the next segment reuses the shared memory
  }
}

//! The agent that samples and filters segments that several blocks share (keys alone: it writes
//! no output).
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyInputIteratorItT, typename IndexT>
using batched_filter_agent_t =
    AgentBatchedTopK<typename MaxPolicyT::ActivePolicy::BatchedTopKPolicy, SELECT,
                     detail::it_value_t<KeyInputIteratorItT>, NullType*, NullType*, NullType*, IndexT>;

//! For segments that several blocks filter: each segment's two thresholds from a sample of its keys
//! (the key bits of the `rank`-th and the `tight_rank`-th best, AgentBatchedTopK::SampleThresholds),
//! a block a segment, and its two counts of candidates set to zero.
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyInputIteratorItT, typename SizesT,
          typename IndexT, typename ThresholdT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::BatchedTopKPolicy::BLOCK_THREADS) void DeviceBatchedTopKSampleKernel(
    KeyInputIteratorItT d_keys_in, SizesT segment_sizes, ::cuda::std::int64_t num_segments, IndexT rank,
    IndexT tight_rank, ThresholdT* d_thresholds, IndexT* d_counts)
{
  using AgentT = batched_filter_agent_t<MaxPolicyT, SELECT, KeyInputIteratorItT, IndexT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  for (::cuda::std::int64_t segment = blockIdx.x; segment < num_segments; segment += gridDim.x)
  {
    AgentT agent(temp_storage, d_keys_in[segment], detail::topk::SegmentCount<IndexT>(segment_sizes(segment)));
    ThresholdT threshold       = 0;
    ThresholdT tight_threshold = 0;
    agent.SampleThresholds(rank, tight_rank, threshold, tight_threshold);
    if (threadIdx.x == 0)
    {
      d_thresholds[2 * segment]     = threshold;
      d_thresholds[2 * segment + 1] = tight_threshold;
      d_counts[2 * segment]         = 0;
      d_counts[2 * segment + 1]     = 0;
    }
  }
}

//! For segments that several blocks filter: a block a part of PART_ITEMS keys of a segment (`parts`
//! parts a segment), which appends the items at or above each of the segment's two thresholds to
//! that threshold's BUFFER_ITEMS candidates (those past the end counted, not kept).
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyInputIteratorItT, typename SizesT,
          typename IndexT, typename ThresholdT, typename CandidateT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::BatchedTopKPolicy::BLOCK_THREADS) void DeviceBatchedTopKFilterKernel(
    KeyInputIteratorItT d_keys_in, SizesT segment_sizes, ::cuda::std::int64_t num_segments, ::cuda::std::int64_t parts,
    const ThresholdT* d_thresholds, IndexT* d_counts, CandidateT* d_candidates)
{
  using AgentT = batched_filter_agent_t<MaxPolicyT, SELECT, KeyInputIteratorItT, IndexT>;
  static_assert(::cuda::std::is_same_v<CandidateT, typename AgentT::CandidateT>, "the block kernel's candidates");
  constexpr IndexT PART_ITEMS = IndexT(MaxPolicyT::ActivePolicy::PART_TILES) * IndexT(AgentT::TILE_ITEMS);
  __shared__ typename AgentT::TempStorage temp_storage;
  for (::cuda::std::int64_t id = blockIdx.x; id < num_segments * parts; id += gridDim.x)
  {
    const ::cuda::std::int64_t segment = id / parts;
    const IndexT num_items             = detail::topk::SegmentCount<IndexT>(segment_sizes(segment));
    const IndexT begin                 = IndexT(id % parts) * PART_ITEMS;
    if (begin >= num_items)
    {
      continue;
    }
    const IndexT end                 = num_items - begin > PART_ITEMS ? begin + PART_ITEMS : num_items;
    const ThresholdT threshold       = d_thresholds[2 * segment];
    const ThresholdT tight_threshold = d_thresholds[2 * segment + 1];
    CandidateT* candidates           = d_candidates + 2 * segment * AgentT::BUFFER_ITEMS;
    AgentT agent(temp_storage, d_keys_in[segment], num_items);
    agent.AppendTwo([&](const CandidateT& c) { return c.key >= threshold; },
                    [&](const CandidateT& c) { return c.key >= tight_threshold; }, begin, end, d_counts + 2 * segment,
                    candidates, d_counts + 2 * segment + 1, candidates + AgentT::BUFFER_ITEMS,
                    IndexT(AgentT::BUFFER_ITEMS));
    __syncthreads(); // the next part reuses the shared memory
  }
}

//! The k best of each segment of at most THREAD_ITEMS keys with k of at most 32, a thread each
//! (AgentBatchedTopKThread, 32 segments a warp). The others, where sizes or k come one per segment,
//! go to the list `d_large` (in no particular order; `*d_num_large` counts them, from 0) for the
//! block kernel; where both are uniform the host sends no others here, and no list. No k exceeds
//! MAX_K (8, 16 or 32: the registers a thread keeps its best in).
template <typename MaxPolicyT, int MAX_K, detail::topk::select SELECT, typename KeyInputIteratorItT,
          typename KeyOutputIteratorItT, typename ValueInputIteratorItT, typename ValueOutputIteratorItT,
          typename SizesT, typename KsT, typename IndexT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::THREAD_BLOCK_THREADS) void DeviceBatchedTopKThreadKernel(
    KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in,
    ValueOutputIteratorItT d_values_out, SizesT segment_sizes, KsT ks, ::cuda::std::int64_t num_segments,
    ::cuda::std::int64_t* d_large, unsigned long long* d_num_large)
{
  constexpr int WARPS        = MaxPolicyT::ActivePolicy::THREAD_BLOCK_THREADS / 32;
  constexpr int THREAD_ITEMS = MaxPolicyT::ActivePolicy::THREAD_ITEMS;
  using AgentT               = AgentBatchedTopKThread<WARPS, SELECT, KeyInputIteratorItT, IndexT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT agent(temp_storage);
  const int lane                    = int(threadIdx.x % 32);
  const ::cuda::std::int64_t stride = ::cuda::std::int64_t(gridDim.x) * WARPS * 32;
  for (::cuda::std::int64_t first = (::cuda::std::int64_t(blockIdx.x) * WARPS + threadIdx.x / 32) * 32;
       first < num_segments; first += stride)
  {
    const ::cuda::std::int64_t segment = first + lane;
    IndexT num_items                   = 0;
    IndexT k                           = 0;
    if (segment < num_segments)
    {
      num_items                          = detail::topk::SegmentCount<IndexT>(segment_sizes(segment));
      const ::cuda::std::uint64_t wanted = detail::topk::SegmentCount<::cuda::std::uint64_t>(ks(segment));
      k                                  = wanted < ::cuda::std::uint64_t(num_items) ? IndexT(wanted) : num_items;
    }
    const bool small = num_items <= IndexT(THREAD_ITEMS) && k <= IndexT(32);
    // Where sizes come one per segment (a list is kept), a small segment of more than
    // WARP_MIN_ITEMS keys takes the whole warp, where a thread would keep the warp's other lanes
    // waiting on it.
    const bool by_warp = d_large != nullptr && small && num_items > IndexT(MaxPolicyT::ActivePolicy::WARP_MIN_ITEMS);
    // The others go to the list, one atomic a warp.
    const unsigned large = __ballot_sync(0xffffffffu, k > 0 && !small);
    if (large != 0)
    {
      const int leader        = __ffs(large) - 1;
      unsigned long long base = 0;
      if (lane == leader)
      {
        base = atomicAdd(d_num_large, static_cast<unsigned long long>(__popc(large)));
      }
      base = __shfl_sync(0xffffffffu, base, leader);
      if ((large >> lane) & 1u)
      {
        d_large[base + __popc(large & ((1u << lane) - 1u))] = segment;
      }
    }
    agent.template Process<MAX_K>(d_keys_in, d_keys_out, d_values_in, d_values_out, first, k > 0 && small && !by_warp,
                                  num_items, k);
    for (unsigned by_warps = __ballot_sync(0xffffffffu, k > 0 && by_warp); by_warps != 0; by_warps &= by_warps - 1)
    {
      const int owner = __ffs(by_warps) - 1;
      agent.ProcessSegment(d_keys_in, d_keys_out, d_values_in, d_values_out, first + owner,
                           __shfl_sync(0xffffffffu, num_items, owner), __shfl_sync(0xffffffffu, k, owner));
    }
  }
}

STRATA_KERNELS_END

namespace detail
{
namespace topk
{
//! A segment size or k as the kernel reads it: a plain integer is the same for every segment, an
//! iterator gives one per segment.
template <typename T>
using segment_parameter_t =
    ::cuda::std::conditional_t<::cuda::std::is_integral_v<T>, UniformParameter<T>, PerSegmentParameter<T>>;

//! The integer type of a segment parameter: itself, or the iterator's value type.
template <typename T, bool = ::cuda::std::is_integral_v<T>>
struct segment_value
{
  using type = T;
};
template <typename T>
struct segment_value<T, false>
{
  using type = it_value_t<T>;
};
template <typename T>
using segment_value_t = typename segment_value<T>::type;

//! Runs (or sizes) a batched top-k: for each segment, its k best keys in order, best first, ties to
//! the earlier item; values (NullType** iterators for keys only) follow their keys.
template <select SELECT, typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename ValueInputIteratorItT,
          typename ValueOutputIteratorItT, typename SegmentSizeParameterT, typename KParameterT,
          typename IndexT    = offset_t<segment_value_t<SegmentSizeParameterT>>,
          typename PolicyHub = batched_policy_hub<it_value_t<it_value_t<KeyInputIteratorItT>>, IndexT>>
struct DispatchBatchedTopK
{
  using max_policy_t              = typename PolicyHub::MaxPolicy;
  using SizesT                    = segment_parameter_t<SegmentSizeParameterT>;
  using KsT                       = segment_parameter_t<KParameterT>;
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueOutputIteratorItT, NullType**>;
  static_assert(::cuda::std::is_integral_v<segment_value_t<SegmentSizeParameterT>>,
                "segment_sizes is an integer or an iterator over integers (one per segment)");
  static_assert(::cuda::std::is_integral_v<segment_value_t<KParameterT>>,
                "k is an integer or an iterator over integers (one per segment)");

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyInputIteratorItT d_keys_in;
  KeyOutputIteratorItT d_keys_out;
  ValueInputIteratorItT d_values_in;
  ValueOutputIteratorItT d_values_out;
  SizesT segment_sizes;
  KsT ks;
  ::cuda::std::int64_t num_segments;
  cudaStream_t stream;

  //! The small-segment kernel for k of at most MAX_K.
  template <int MAX_K>
  static constexpr auto ThreadKernel()
  {
    return DeviceBatchedTopKThreadKernel<max_policy_t, MAX_K, SELECT, KeyInputIteratorItT, KeyOutputIteratorItT,
                                         ValueInputIteratorItT, ValueOutputIteratorItT, SizesT, KsT, IndexT>;
  }

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT                           = typename ActivePolicyT::BatchedTopKPolicy;
    constexpr ::cuda::std::int64_t MAX_GRID = ::cuda::std::int64_t(1) << 30;
    constexpr int THREADS                   = ActivePolicyT::THREAD_BLOCK_THREADS;
    constexpr bool UNIFORM =
        ::cuda::std::is_integral_v<SegmentSizeParameterT> && ::cuda::std::is_integral_v<KParameterT>;
    // Sizes or k one per segment, unless every segment is too large for a thread: the small kernel
    // takes the small segments and lists the others for the block kernel, in temporary storage.
    bool split = !UNIFORM;
    if constexpr (::cuda::std::is_integral_v<SegmentSizeParameterT>)
    {
      split = split && SegmentCount<IndexT>(segment_sizes.value) <= IndexT(ActivePolicyT::THREAD_ITEMS);
    }
    // The uniform segment size and k (at most the size), where both are plain integers.
    IndexT num_items = 0;
    IndexT k         = 0;
    if constexpr (UNIFORM)
    {
      num_items = SegmentCount<IndexT>(segment_sizes.value);
      k         = SegmentCount<IndexT>(ks.value) < num_items ? SegmentCount<IndexT>(ks.value) : num_items;
    }
    // Uniform segments of at least SHARE_MIN_ITEMS keys whose sample can tell the few candidates:
    // several blocks a segment filter it (`parts` each), and a block a segment selects from what
    // they kept; each segment keeps two thresholds (the second higher, for a sample that
    // under-counts the best keys), a count and BUFFER_ITEMS candidates for each.
    using FilterAgentT =
        AgentBatchedTopK<PolicyT, SELECT, it_value_t<KeyInputIteratorItT>, NullType*, NullType*, NullType*, IndexT>;
    using ThresholdT = typename FilterAgentT::bit_ordered_type;
    using CandidateT = typename FilterAgentT::CandidateT;
    constexpr ::cuda::std::int64_t PART_ITEMS =
        ::cuda::std::int64_t(ActivePolicyT::PART_TILES) * FilterAgentT::TILE_ITEMS;
    const IndexT rank                = UNIFORM && k > 0 && num_items >= IndexT(ActivePolicyT::SHARE_MIN_ITEMS)
                                           ? FilterAgentT::SampleRank(k, num_items)
                                           : IndexT(0);
    const IndexT tight_rank          = rank > 0 ? FilterAgentT::TightSampleRank(k, num_items) : IndexT(0);
    const ::cuda::std::int64_t parts = rank > 0 ? (::cuda::std::int64_t(num_items) + PART_ITEMS - 1) / PART_ITEMS : 0;
    const ::cuda::std::int64_t shared_segments = parts > 0 ? num_segments : 0;
    // Otherwise nothing is kept; the size query still reports one byte, so that the buffer a
    // caller allocates from it is never null.
    unsigned long long* d_num_large = nullptr;
    ::cuda::std::int64_t* d_large   = nullptr;
    ThresholdT* d_thresholds        = nullptr;
    IndexT* d_counts                = nullptr;
    CandidateT* d_candidates        = nullptr;
    cudaError_t error               = CarveTemporaryStorage(
                      d_temp_storage, temp_storage_bytes, Slot(d_num_large, 1), Slot(d_large, split ? num_segments : 0),
                      Slot(d_thresholds, 2 * shared_segments), Slot(d_counts, 2 * shared_segments),
                      Slot(d_candidates, 2 * ::cuda::std::uint64_t(shared_segments) * FilterAgentT::BUFFER_ITEMS));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_segments == 0)
    {
      return error;
    }
    if (parts == 0)
    {
      // Empty slots still point into the storage: the block kernel takes a null d_counts to mean
      // that no filter ran.
      d_thresholds = nullptr;
      d_counts     = nullptr;
      d_candidates = nullptr;
    }
    const ::cuda::std::int64_t thread_blocks = (num_segments + THREADS - 1) / THREADS;
    const int thread_grid                    = int(thread_blocks < MAX_GRID ? thread_blocks : MAX_GRID);
    // Uniform small segments and a small uniform k: a thread per segment, and nothing listed, in a
    // kernel whose registers fit that k.
    if constexpr (UNIFORM)
    {
      if (num_items <= IndexT(ActivePolicyT::THREAD_ITEMS) && k <= IndexT(32))
      {
        const auto launch = [&](auto kernel)
        {
          return LaunchKernel(false, kernel, thread_grid, THREADS, stream, d_keys_in, d_keys_out, d_values_in,
                              d_values_out, segment_sizes, ks, num_segments,
                              static_cast<::cuda::std::int64_t*>(nullptr), static_cast<unsigned long long*>(nullptr));
        };
        return k == 0            ? cudaSuccess
               : k <= IndexT(8)  ? launch(ThreadKernel<8>())
               : k <= IndexT(16) ? launch(ThreadKernel<16>())
                                 : launch(ThreadKernel<32>());
      }
    }
    auto block_kernel =
        DeviceBatchedTopKKernel<max_policy_t, SELECT, KeyInputIteratorItT, KeyOutputIteratorItT, ValueInputIteratorItT,
                                ValueOutputIteratorItT, SizesT, KsT, IndexT, CandidateT>;
    if (!split)
    {
      const int grid = int(num_segments < MAX_GRID ? num_segments : MAX_GRID);
      if (parts > 0)
      {
        auto sample_kernel =
            DeviceBatchedTopKSampleKernel<max_policy_t, SELECT, KeyInputIteratorItT, SizesT, IndexT, ThresholdT>;
        auto filter_kernel = DeviceBatchedTopKFilterKernel<max_policy_t, SELECT, KeyInputIteratorItT, SizesT, IndexT,
                                                           ThresholdT, CandidateT>;
        const ::cuda::std::int64_t filter_blocks = num_segments * parts;
        error = LaunchKernel(false, sample_kernel, grid, PolicyT::BLOCK_THREADS, stream, d_keys_in, segment_sizes,
                             num_segments, rank, tight_rank, d_thresholds, d_counts);
        if (error == cudaSuccess)
        {
          error = LaunchKernel(false, filter_kernel, int(filter_blocks < MAX_GRID ? filter_blocks : MAX_GRID),
                               PolicyT::BLOCK_THREADS, stream, d_keys_in, segment_sizes, num_segments, parts,
                               static_cast<const ThresholdT*>(d_thresholds), d_counts, d_candidates);
        }
        if (error != cudaSuccess)
        {
          return error;
        }
      }
      return LaunchKernel(false, block_kernel, grid, PolicyT::BLOCK_THREADS, stream, d_keys_in, d_keys_out, d_values_in,
                          d_values_out, segment_sizes, ks, num_segments,
                          static_cast<const ::cuda::std::int64_t*>(nullptr),
                          static_cast<const unsigned long long*>(nullptr), static_cast<const CandidateT*>(d_candidates),
                          static_cast<const IndexT*>(d_counts));
    }
    // The list starts empty; the block kernel's grid is what the device holds at once (each block
    // takes the listed segments in turn), or fewer where there are fewer segments.
    int sm_count = 0;
    error        = cudaMemsetAsync(d_num_large, 0, sizeof(unsigned long long), stream);
    if (error == cudaSuccess)
    {
      error = detail::SmCount(sm_count);
    }
    if (error == cudaSuccess)
    {
      error = LaunchKernel(false, ThreadKernel<32>(), thread_grid, THREADS, stream, d_keys_in, d_keys_out, d_values_in,
                           d_values_out, segment_sizes, ks, num_segments, d_large, d_num_large);
    }
    if (error != cudaSuccess)
    {
      return error;
    }
    const ::cuda::std::int64_t resident = ::cuda::std::int64_t(sm_count) * ActivePolicyT::LIST_BLOCKS_PER_SM;
    const int grid                      = int(num_segments < resident ? num_segments : resident);
    return LaunchKernel(false, block_kernel, grid, PolicyT::BLOCK_THREADS, stream, d_keys_in, d_keys_out, d_values_in,
                        d_values_out, segment_sizes, ks, num_segments,
                        static_cast<const ::cuda::std::int64_t*>(d_large),
                        static_cast<const unsigned long long*>(d_num_large), static_cast<const CandidateT*>(nullptr),
                        static_cast<const IndexT*>(nullptr));
  }

  //! Validates what the host knows of the arguments (counts, k within a uniform segment size,
  //! buffers present), picks the policy for the current device and runs (or sizes) the selection.
  template <typename NumSegmentsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorItT d_keys_in,
           KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in, ValueOutputIteratorItT d_values_out,
           SegmentSizeParameterT segment_sizes, KParameterT k, NumSegmentsT num_segments, cudaStream_t stream)
  {
    static_assert(::cuda::std::is_integral_v<NumSegmentsT>, "num_segments is an integer");
    if (!IsValidCount(num_segments))
    {
      return STRATA_INVALID_ARGUMENT("num_segments is negative");
    }
    if (static_cast<::cuda::std::uint64_t>(num_segments)
        > static_cast<::cuda::std::uint64_t>(::cuda::std::numeric_limits<::cuda::std::int64_t>::max()))
    {
      return STRATA_INVALID_ARGUMENT("num_segments is larger than INT64_MAX");
    }
    if constexpr (::cuda::std::is_integral_v<SegmentSizeParameterT>)
    {
      if (!IsValidCount(segment_sizes))
      {
        return STRATA_INVALID_ARGUMENT("segment_sizes is negative");
      }
    }
    if constexpr (::cuda::std::is_integral_v<KParameterT>)
    {
      if (!IsValidCount(k))
      {
        return STRATA_INVALID_ARGUMENT("k is negative");
      }
      if constexpr (::cuda::std::is_integral_v<SegmentSizeParameterT>)
      {
        if (static_cast<::cuda::std::uint64_t>(k) > static_cast<::cuda::std::uint64_t>(segment_sizes))
        {
          return STRATA_INVALID_ARGUMENT("k is larger than segment_sizes");
        }
      }
    }
    if (d_temp_storage != nullptr && num_segments > 0
        && (IsNullPointer(d_keys_in) || IsNullPointer(d_keys_out)
            || (!KEYS_ONLY && (IsNullPointer(d_values_in) || IsNullPointer(d_values_out)))
            || (!::cuda::std::is_integral_v<SegmentSizeParameterT> && IsNullPointer(segment_sizes))
            || (!::cuda::std::is_integral_v<KParameterT> && IsNullPointer(k))))
    {
      return STRATA_INVALID_ARGUMENT(
          "d_keys_in, d_keys_out, d_values_in, d_values_out, segment_sizes or k is a null pointer");
    }
    return InvokeForCurrentDevice<max_policy_t>(
        [&](int)
        {
          return DispatchBatchedTopK{d_temp_storage,
                                     temp_storage_bytes,
                                     d_keys_in,
                                     d_keys_out,
                                     d_values_in,
                                     d_values_out,
                                     SizesT{segment_sizes},
                                     KsT{k},
                                     static_cast<::cuda::std::int64_t>(num_segments),
                                     stream};
        });
  }
};
} // namespace topk
} // namespace detail

STRATA_NAMESPACE_END

// strata/device/dispatch/dispatch_segmented_sort.cuh: the kernels of the segmented sorts
// (DeviceSegmentedRadixSort, DeviceSegmentedSort) and their dispatch. One kernel bins the
// segments by length; each bin of short segments is sorted by its own kernel (a few lanes, a
// warp, a block, a larger block per segment); the long segments are cut into onesweep tiles whose
// look-back stays inside the segment, counted by one histogram pass and sorted by one onesweep
// launch per digit, as DeviceRadixSort sorts one array. No count goes back to the host: every
// grid is sized for the most segments a bin can hold, and blocks past the bin's count end at once.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_radix_sort_histogram.cuh>
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/agent/agent_segmented_sort.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/policy_member.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/dispatch_gather.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_sort.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace segmented_sort
{
template <typename MaxPolicyT>
using active_t = typename MaxPolicyT::ActivePolicy;

//! Warps of a block of the tiny bin's sorter: as many as 40 KiB of staging rows allow (1 to 8).
template <typename KeyT, typename ValueT>
inline constexpr int thread_sorter_warps_v =
    40960
            / int(sizeof(typename AgentSegmentThreadSort<false, KeyT, ValueT>::TempStorage))<
                1 ? 1 : 40960 / int(sizeof(typename AgentSegmentThreadSort<false, KeyT, ValueT>::TempStorage))> 8
        ? 8
        : 40960 / int(sizeof(typename AgentSegmentThreadSort<false, KeyT, ValueT>::TempStorage));

//! Warps of the tiny bin's sorter an SM should hold to hide the staging loads' latency: fewer
//! with values, whose network (keys and places in 64 bits) needs more registers.
template <typename ValueT>
inline constexpr int thread_sorter_sm_warps_v = ::cuda::std::is_same_v<ValueT, NullType> ? 24 : 16;

//! Blocks of the tiny bin's sorter an SM must hold at once: registers are bounded so that
//! thread_sorter_sm_warps_v warps fit (as many as shared memory allows).
template <typename KeyT, typename ValueT>
inline constexpr int thread_sorter_min_blocks_v = []
{
  constexpr int warps    = thread_sorter_warps_v<KeyT, ValueT>;
  constexpr int by_warps = thread_sorter_sm_warps_v<ValueT> / warps;
  constexpr int by_storage =
      200 * 1024 / int(sizeof(typename AgentSegmentThreadSort<false, KeyT, ValueT>::TempStorage) * warps);
  // Keys of 8 bytes sort pairs of (bits, place) that need every register they can have.
  return sizeof(KeyT) > 4 ? 1 : (by_warps < by_storage ? by_warps : by_storage);
}();

//! Tiles of a onesweep launch window: the hub's WINDOW_TILES if it names one (tests use small
//! windows), else a portion of its onesweep policy (radix::portion_tiles_v).
STRATA_DETAIL_POLICY_MEMBER_OR(window_tiles_v, long long, WINDOW_TILES, 0)

template <typename MaxPolicyT>
inline constexpr int onesweep_tile_v =
    active_t<MaxPolicyT>::OnesweepPolicy::BLOCK_THREADS* active_t<MaxPolicyT>::OnesweepPolicy::ITEMS_PER_THREAD;
} // namespace segmented_sort
} // namespace detail

STRATA_KERNELS_BEGIN

//! Bins the segments by length: each block takes rounds of classify_threads * classify_segments
//! segments, counts each bin's in shared memory, takes the bins' room with one atomic per bin,
//! and writes the segment numbers. A long segment also takes its onesweep tiles and chains.
template <typename MaxPolicyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(detail::segmented_sort::classify_threads) void DeviceSegmentedSortBinKernel(
    BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end, ::cuda::std::int64_t num_segments,
    detail::segmented_sort::offset_t num_items, ::cuda::std::int64_t* d_bin0, ::cuda::std::int64_t* d_bin1,
    ::cuda::std::int64_t* d_bin2, ::cuda::std::int64_t* d_bin3, detail::segmented_sort::LongSegment* d_long,
    detail::segmented_sort::Counters* d_counters, detail::segmented_sort::Capacity capacity)
{
  using AgentT = detail::segmented_sort::AgentSegmentBinning<detail::segmented_sort::active_t<MaxPolicyT>,
                                                             detail::segmented_sort::onesweep_tile_v<MaxPolicyT>,
                                                             BeginOffsetIteratorT, EndOffsetIteratorT>;
  __shared__ typename AgentT::TempStorage storage;
  AgentT(storage, d_begin, d_end, num_segments, num_items, d_counters, capacity)
      .Process(d_bin0, d_bin1, d_bin2, d_bin3, d_long);
}

//! Sorts the segments of bin 0, a thread each (AgentSegmentThreadSort): warps take 32 of the bin's
//! segments at a time.
template <typename MaxPolicyT, bool PLAIN, bool IS_DESCENDING, typename KeyT, typename ValueT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::segmented_sort::thread_sorter_warps_v<KeyT, ValueT>* detail::warp_threads,
    detail::segmented_sort::thread_sorter_min_blocks_v<
        KeyT, ValueT>) void DeviceSegmentedSortThreadKernel(BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                                                            detail::segmented_sort::offset_t num_items,
                                                            const ::cuda::std::int64_t* d_bin,
                                                            const detail::segmented_sort::Counters* d_counters,
                                                            unsigned long long capacity, const KeyT* d_keys_in,
                                                            KeyT* d_keys_out, const ValueT* d_values_in,
                                                            ValueT* d_values_out, int begin_bit, int end_bit)
{
  using namespace detail::segmented_sort;
  constexpr int WARPS = thread_sorter_warps_v<KeyT, ValueT>;
  using AgentT        = AgentSegmentThreadSort<IS_DESCENDING, KeyT, ValueT>;
  __shared__ typename AgentT::TempStorage storage[WARPS];
  const int warp                 = int(threadIdx.x) / detail::warp_threads;
  const int lane                 = int(threadIdx.x) % detail::warp_threads;
  const unsigned long long count = d_counters->bin[0];
  const unsigned long long n     = count < capacity ? count : capacity;
  const BitRangeOrder<KeyT, IS_DESCENDING> order(begin_bit, end_bit);
  for (unsigned long long base = ((unsigned long long)blockIdx.x * WARPS + warp) * detail::warp_threads; base < n;
       base += (unsigned long long)gridDim.x * WARPS * detail::warp_threads)
  {
    const unsigned long long i = base + lane;
    offset_t begin = 0, end = 0;
    if (i < n)
    {
      SegmentRange(d_begin, d_end, d_bin[i], num_items, begin, end);
    }
    AgentT::template Sort<PLAIN>(storage[warp], lane, d_keys_in, d_keys_out, d_values_in, d_values_out, i < n, begin,
                                 int(end - begin), order);
  }
}

//! Sorts the segments of bin 1, a warp each (AgentSegmentWarpSort): warps take the bin's segments
//! in turn.
template <typename MaxPolicyT, bool IS_DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(detail::segmented_sort::warp_sorter_threads) void DeviceSegmentedSortWarpKernel(
    BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end, detail::segmented_sort::offset_t num_items,
    const ::cuda::std::int64_t* d_bin, const detail::segmented_sort::Counters* d_counters, unsigned long long capacity,
    const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, int begin_bit,
    int end_bit)
{
  using namespace detail::segmented_sort;
  using PolicyT        = typename active_t<MaxPolicyT>::SmallPolicy;
  constexpr int LANES  = PolicyT::THREADS_PER_SEGMENT;
  constexpr int GROUPS = warp_sorter_threads / LANES;
  using AgentT         = AgentSegmentWarpSort<LANES, PolicyT::ITEMS_PER_THREAD, IS_DESCENDING, KeyT, ValueT>;
  __shared__ typename AgentT::TempStorage storage[GROUPS];
  const int group                = int(threadIdx.x) / LANES;
  const int lane                 = int(threadIdx.x) % LANES;
  const unsigned long long count = d_counters->bin[1];
  const unsigned long long n     = count < capacity ? count : capacity;
  const BitRangeOrder<KeyT, IS_DESCENDING> order(begin_bit, end_bit);
  for (unsigned long long i = (unsigned long long)blockIdx.x * GROUPS + group; i < n;
       i += (unsigned long long)gridDim.x * GROUPS)
  {
    offset_t begin, end;
    SegmentRange(d_begin, d_end, d_bin[i], num_items, begin, end);
    AgentT::Sort(storage[group], lane, d_keys_in, d_keys_out, d_values_in, d_values_out, begin, int(end - begin),
                 order);
  }
}

//! Sorts the segments of bin 2 (a block of MediumPolicy each) or 3 (LARGE: LargePolicy): blocks take
//! the bin's segments in turn.
template <typename MaxPolicyT, bool LARGE, bool IS_DESCENDING, typename KeyT, typename ValueT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    ::cuda::std::conditional_t<LARGE, typename detail::segmented_sort::active_t<MaxPolicyT>::LargePolicy,
                               typename detail::segmented_sort::active_t<MaxPolicyT>::MediumPolicy>::
        THREADS_PER_SEGMENT) void DeviceSegmentedSortBlockKernel(BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                                                                 detail::segmented_sort::offset_t num_items,
                                                                 const ::cuda::std::int64_t* d_bin,
                                                                 const detail::segmented_sort::Counters* d_counters,
                                                                 unsigned long long capacity, const KeyT* d_keys_in,
                                                                 KeyT* d_keys_out, const ValueT* d_values_in,
                                                                 ValueT* d_values_out, int begin_bit, int end_bit)
{
  using namespace detail::segmented_sort;
  using PolicyT = ::cuda::std::conditional_t<LARGE, typename active_t<MaxPolicyT>::LargePolicy,
                                             typename active_t<MaxPolicyT>::MediumPolicy>;
  using AgentT =
      AgentSegmentBlockSort<PolicyT::THREADS_PER_SEGMENT, PolicyT::ITEMS_PER_THREAD, IS_DESCENDING, KeyT, ValueT>;
  __shared__ typename AgentT::TempStorage storage;
  const unsigned long long count = d_counters->bin[LARGE ? 3 : 2];
  const unsigned long long n     = count < capacity ? count : capacity;
  for (unsigned long long i = blockIdx.x; i < n; i += gridDim.x)
  {
    offset_t begin, end;
    SegmentRange(d_begin, d_end, d_bin[i], num_items, begin, end);
    AgentT::Sort(storage, d_keys_in, d_keys_out, d_values_in, d_values_out, begin, int(end - begin), begin_bit,
                 end_bit);
  }
}

//! Lays out the long segments' chains and tiles (a warp per segment): each chain's items and first
//! tile, each tile's chain, and zero digit counts for every pass of every chain.
template <typename MaxPolicyT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(256) void DeviceSegmentedSortChainKernel(
    const detail::segmented_sort::LongSegment* d_long, const detail::segmented_sort::Counters* d_counters,
    detail::segmented_sort::Capacity capacity, detail::segmented_sort::Chain* d_chains,
    ::cuda::std::uint32_t* d_tile_chain, detail::segmented_sort::offset_t* d_counts, int num_passes)
{
  detail::segmented_sort::AgentSegmentChains<
      detail::segmented_sort::onesweep_tile_v<MaxPolicyT>,
      1 << detail::segmented_sort::active_t<MaxPolicyT>::OnesweepPolicy::RADIX_BITS>(d_counters, capacity)
      .Process(d_long, d_chains, d_tile_chain, d_counts, num_passes);
}

//! Counts every pass's digits of each chain (AgentRadixSortHistogram), a tile per block and round.
template <typename MaxPolicyT, typename KeyT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::segmented_sort::active_t<MaxPolicyT>::HistogramPolicy::
        BLOCK_THREADS) void DeviceSegmentedSortHistogramKernel(const KeyT* d_keys,
                                                               const detail::segmented_sort::Chain* d_chains,
                                                               const ::cuda::std::uint32_t* d_tile_chain,
                                                               const detail::segmented_sort::Counters* d_counters,
                                                               detail::segmented_sort::Capacity capacity,
                                                               detail::segmented_sort::offset_t* d_counts,
                                                               int begin_bit, int end_bit)
{
  using namespace detail::segmented_sort;
  using PolicyT           = active_t<MaxPolicyT>;
  constexpr offset_t TILE = offset_t(onesweep_tile_v<MaxPolicyT>);
  using AgentT = AgentRadixSortHistogram<typename PolicyT::HistogramPolicy, PolicyT::OnesweepPolicy::RADIX_BITS, KeyT,
                                         offset_t, detail::identity_decomposer_t>;
  __shared__ typename AgentT::TempStorage storage;
  const ::cuda::std::uint32_t tiles = d_counters->tiles;
  const ::cuda::std::uint32_t n     = tiles < capacity.max_tiles ? tiles : capacity.max_tiles;
  for (::cuda::std::uint32_t t = blockIdx.x; t < n; t += gridDim.x)
  {
    const ::cuda::std::uint32_t chain = d_tile_chain[t];
    if (chain == no_chain)
    {
      continue;
    }
    const Chain c         = d_chains[chain];
    const offset_t offset = c.begin + offset_t(t - c.first_tile) * TILE;
    const offset_t valid  = c.end - offset < TILE ? c.end - offset : TILE;
    AgentT(storage, d_keys + offset, d_counts, valid, int(chain), int(capacity.max_chains), 0, 1, begin_bit, end_bit,
           detail::identity_decomposer_t{})
        .Process();
    __syncthreads(); // the counts are flushed before the next tile clears them
  }
}

//! Turns each long segment's digit counts into the digit starts of its first chain, in place (one
//! thread per digit): a digit starts after the segment's keys of the digits that sort before it.
//! A later chain's starts depend on where the pass before left the keys: the chain before it
//! writes them in each pass (AgentRadixSortOnesweep's next-portion starts). Block b works on pass
//! b % num_passes.
template <typename MaxPolicyT, bool IS_DESCENDING>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    1 << detail::segmented_sort::active_t<MaxPolicyT>::OnesweepPolicy::
        RADIX_BITS) void DeviceSegmentedSortScanKernel(const detail::segmented_sort::LongSegment* d_long,
                                                       const detail::segmented_sort::Counters* d_counters,
                                                       detail::segmented_sort::Capacity capacity,
                                                       detail::segmented_sort::offset_t* d_counts, int num_passes)
{
  using AgentT = detail::segmented_sort::AgentSegmentDigitStarts<
      1 << detail::segmented_sort::active_t<MaxPolicyT>::OnesweepPolicy::RADIX_BITS, IS_DESCENDING>;
  __shared__ typename AgentT::TempStorage storage;
  AgentT(storage, d_counters, capacity).Process(d_long, d_counts, num_passes);
}

//! One onesweep launch over the tiles of one window (from window_first on) of the long segments,
//! for the digit at current_bit: each block takes the next tile, finds its chain, and ranks and
//! scatters it with a look-back that stops at the chain's first tile.
template <typename MaxPolicyT, bool IS_DESCENDING, typename KeyT, typename ValueT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::segmented_sort::active_t<MaxPolicyT>::OnesweepPolicy::BLOCK_THREADS,
    detail::radix::onesweep_min_blocks_v<
        typename detail::segmented_sort::active_t<MaxPolicyT>::
            OnesweepPolicy>) void DeviceSegmentedSortOnesweepKernel(const KeyT* d_keys_in, KeyT* d_keys_out,
                                                                    const ValueT* d_values_in, ValueT* d_values_out,
                                                                    const detail::segmented_sort::Chain* d_chains,
                                                                    const ::cuda::std::uint32_t* d_tile_chain,
                                                                    detail::segmented_sort::offset_t* d_bins,
                                                                    ::cuda::std::uint32_t* d_lookback,
                                                                    ::cuda::std::uint32_t* d_tile_counter,
                                                                    const detail::segmented_sort::Counters* d_counters,
                                                                    detail::segmented_sort::Capacity capacity,
                                                                    ::cuda::std::uint32_t window_first, int current_bit,
                                                                    int num_bits, ::cuda::std::uint32_t epoch)
{
  using namespace detail::segmented_sort;
  using PolicyT = typename active_t<MaxPolicyT>::OnesweepPolicy;
  using AgentT  = AgentRadixSortOnesweep<PolicyT, IS_DESCENDING, KeyT, ValueT, offset_t, detail::identity_decomposer_t>;
  constexpr offset_t TILE = offset_t(AgentT::TILE_ITEMS);
  constexpr int DIGITS    = AgentT::RADIX_DIGITS;
  __shared__ typename AgentT::TempStorage storage;
  const ::cuda::std::uint32_t tiles = d_counters->tiles < capacity.max_tiles ? d_counters->tiles : capacity.max_tiles;
  // Exactly the blocks below the window's tile count take tiles, so each tile is taken once, in
  // the order blocks start: a tile's look-back only waits for tiles that running blocks hold.
  if (tiles <= window_first || blockIdx.x >= tiles - window_first)
  {
    return;
  }
  AgentT agent(storage, d_keys_in, d_keys_out, d_values_in, d_values_out, nullptr, nullptr, d_lookback, d_tile_counter,
               0, current_bit, num_bits, epoch, detail::identity_decomposer_t{});
  const int tile                    = int(agent.NextTile());
  const ::cuda::std::uint32_t chain = d_tile_chain[window_first + tile];
  if (chain == no_chain)
  {
    return;
  }
  const Chain c         = d_chains[chain];
  const offset_t offset = c.begin + offset_t(window_first + tile - c.first_tile) * TILE;
  const offset_t valid  = c.end - offset < TILE ? c.end - offset : TILE;
  // The chain's last tile writes the digit starts of the segment's next chain for this pass.
  agent.num_items   = c.end;
  agent.d_bins_next = c.has_next ? d_bins + ::cuda::std::size_t(chain + 1) * DIGITS : nullptr;
  agent.ProcessTile(tile, offset, int(valid), int(c.first_tile - window_first),
                    d_bins + ::cuda::std::size_t(chain) * DIGITS);
}

STRATA_KERNELS_END

namespace detail
{
namespace segmented_sort
{
//! Dispatches a segmented sort of KeyT keys (and ValueT values; NullType: keys only) by the bits
//! [begin_bit, end_bit). The pointer forms pass is_overwrite_okay = false: the result goes to the
//! alternate buffers and the current ones are only read. With is_overwrite_okay, the sort uses
//! both buffers and flips the selectors when the result ends in the alternate ones.
template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename PolicyHub = policy_hub<KeyT, ValueT>>
struct dispatch_t
{
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  using MaxPolicyT                = typename PolicyHub::MaxPolicy;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  DoubleBuffer<KeyT>& d_keys;
  DoubleBuffer<ValueT>& d_values;
  bool is_overwrite_okay;
  offset_t num_items;
  ::cuda::std::int64_t num_segments;
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  int begin_bit;
  int end_bit;
  cudaStream_t stream;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using OnesweepPolicyT       = typename ActivePolicyT::OnesweepPolicy;
    constexpr int RADIX_BITS    = OnesweepPolicyT::RADIX_BITS;
    constexpr int DIGITS        = 1 << RADIX_BITS;
    constexpr offset_t TILE     = offset_t(OnesweepPolicyT::BLOCK_THREADS * OnesweepPolicyT::ITEMS_PER_THREAD);
    constexpr offset_t WINDOW   = window_tiles_v < ActivePolicyT >> 0 ? offset_t(window_tiles_v<ActivePolicyT>)
                                                                      : offset_t(radix::portion_tiles_v<OnesweepPolicyT>);
    const unsigned long long ns = static_cast<unsigned long long>(num_segments);
    const unsigned long long ni = num_items;
    auto at_most                = [](unsigned long long a, unsigned long long b) { return a < b ? a : b; };

    Capacity capacity{};
    capacity.bin[0]                     = at_most(ns, ni);
    capacity.bin[1]                     = at_most(ns, ni / (ActivePolicyT::TinyPolicy::MAX_ITEMS + 1));
    capacity.bin[2]                     = at_most(ns, ni / (ActivePolicyT::SmallPolicy::MAX_ITEMS + 1));
    capacity.bin[3]                     = at_most(ns, ni / (ActivePolicyT::MediumPolicy::MAX_ITEMS + 1));
    capacity.bin[long_bin]              = at_most(ns, ni / (ActivePolicyT::LargePolicy::MAX_ITEMS + 1));
    const unsigned long long longs      = capacity.bin[long_bin];
    const unsigned long long max_tiles  = longs == 0 ? 0 : (ni + TILE - 1) / TILE + longs;
    const unsigned long long windows    = (max_tiles + WINDOW - 1) / WINDOW;
    const unsigned long long max_chains = longs == 0 ? 0 : longs + windows;
    if (max_chains > 0xFFFFFFFEull || max_tiles > 0xFFFFFFFEull)
    {
      // Beyond 32-bit tile numbers (about 2^44 items).
      return STRATA_INVALID_ARGUMENT("num_items is too large: more than 2^32 - 2 tiles");
    }
    capacity.max_tiles                      = ::cuda::std::uint32_t(max_tiles);
    capacity.max_chains                     = ::cuda::std::uint32_t(max_chains);
    capacity.window_tiles                   = ::cuda::std::uint32_t(WINDOW);
    const int num_bits                      = end_bit - begin_bit;
    const int num_passes                    = num_bits == 0 ? 1 : (num_bits + RADIX_BITS - 1) / RADIX_BITS;
    const unsigned long long lookback_tiles = at_most(max_tiles, WINDOW);
    const unsigned long long launches       = windows * static_cast<unsigned long long>(num_passes);
    const bool buffer                       = !is_overwrite_okay && num_passes > 1 && longs > 0;

    Counters* d_counters                  = nullptr;
    ::cuda::std::int64_t* d_bins[4]       = {};
    LongSegment* d_long                   = nullptr;
    Chain* d_chains                       = nullptr;
    ::cuda::std::uint32_t* d_tile_chain   = nullptr;
    offset_t* d_counts                    = nullptr;
    ::cuda::std::uint32_t* d_lookback     = nullptr;
    ::cuda::std::uint32_t* d_tile_counter = nullptr;
    KeyT* d_keys_buffer                   = nullptr;
    ValueT* d_values_buffer               = nullptr;
    cudaError_t error                     = CarveTemporaryStorage(
                            d_temp_storage, temp_storage_bytes, Slot(d_counters, 1), Slot(d_bins[0], capacity.bin[0]),
                            Slot(d_bins[1], capacity.bin[1]), Slot(d_bins[2], capacity.bin[2]), Slot(d_bins[3], capacity.bin[3]),
                            Slot(d_long, longs), Slot(d_chains, max_chains), Slot(d_tile_chain, max_tiles),
                            Slot(d_counts, static_cast<size_t>(max_chains) * num_passes * DIGITS),
                            Slot(d_lookback, static_cast<size_t>(lookback_tiles) * DIGITS), Slot(d_tile_counter, launches),
                            Slot(d_keys_buffer, buffer ? ni : 0), Slot(d_values_buffer, buffer && !KEYS_ONLY ? ni : 0));
    if (error != cudaSuccess || d_temp_storage == nullptr || ns == 0 || ni == 0)
    {
      return error;
    }

    int sm_count = 0;
    error        = detail::SmCount(sm_count);
    if (error == cudaSuccess)
    {
      error = cudaMemsetAsync(d_counters, 0, sizeof(Counters), stream);
    }
    if (error == cudaSuccess && longs > 0)
    {
      error =
          cudaMemsetAsync(d_lookback, 0, static_cast<size_t>(lookback_tiles) * DIGITS * sizeof(*d_lookback), stream);
    }
    if (error == cudaSuccess && longs > 0)
    {
      error = cudaMemsetAsync(d_tile_counter, 0, static_cast<size_t>(launches) * sizeof(*d_tile_counter), stream);
    }
    if (error != cudaSuccess)
    {
      return error;
    }
    const unsigned long long resident = static_cast<unsigned long long>(sm_count) * 8;
    auto grid_for = [&](unsigned long long items, unsigned long long per_block, unsigned long long most)
    {
      const unsigned long long blocks = (items + per_block - 1) / per_block;
      return int(blocks < most ? (blocks == 0 ? 1 : blocks) : most);
    };

    // Bin the segments.
    error = LaunchKernel(false, DeviceSegmentedSortBinKernel<MaxPolicyT, BeginOffsetIteratorT, EndOffsetIteratorT>,
                         grid_for(ns, classify_threads * classify_segments, resident), classify_threads, stream,
                         d_begin_offsets, d_end_offsets, num_segments, num_items, d_bins[0], d_bins[1], d_bins[2],
                         d_bins[3], d_long, d_counters, capacity);
    if (error != cudaSuccess)
    {
      return error;
    }

    // Where the result goes: the pointer forms' output; with leave to overwrite, the buffer the
    // long segments' last pass writes (the passes alternate, starting with the alternate buffer).
    const bool flip       = is_overwrite_okay && num_passes % 2 == 1;
    KeyT* keys_in         = d_keys.Current();
    ValueT* values_in     = d_values.Current();
    KeyT* keys_result     = is_overwrite_okay && !flip ? d_keys.Current() : d_keys.Alternate();
    ValueT* values_result = is_overwrite_okay && !flip ? d_values.Current() : d_values.Alternate();

    // The short segments, each bin by its sorter.
    {
      constexpr int TINY_THREADS = thread_sorter_warps_v<KeyT, ValueT> * warp_threads;
      constexpr int SMALL_GROUPS = warp_sorter_threads / ActivePolicyT::SmallPolicy::THREADS_PER_SEGMENT;
      // Integer keys sorted by all their bits (values of at most 8 bytes beside them) take a
      // network without places.
      auto launch_tiny = [&](auto plain)
      {
        return LaunchKernel(false,
                            DeviceSegmentedSortThreadKernel<MaxPolicyT, decltype(plain)::value, IS_DESCENDING, KeyT,
                                                            ValueT, BeginOffsetIteratorT, EndOffsetIteratorT>,
                            grid_for(capacity.bin[0], TINY_THREADS, resident), TINY_THREADS, stream, d_begin_offsets,
                            d_end_offsets, num_items, static_cast<const ::cuda::std::int64_t*>(d_bins[0]),
                            static_cast<const Counters*>(d_counters), capacity.bin[0],
                            static_cast<const KeyT*>(keys_in), keys_result, static_cast<const ValueT*>(values_in),
                            values_result, begin_bit, end_bit);
      };
      using ThreadAgentT = AgentSegmentThreadSort<IS_DESCENDING, KeyT, ValueT>;
      if constexpr (ThreadAgentT::PLAIN_FIT)
      {
        error = begin_bit == 0 && end_bit == int(sizeof(KeyT) * 8) ? launch_tiny(::cuda::std::true_type{})
                                                                   : launch_tiny(::cuda::std::false_type{});
      }
      else
      {
        error = launch_tiny(::cuda::std::false_type{});
      }
      if (error == cudaSuccess && capacity.bin[1] > 0)
      {
        error =
            LaunchKernel(false,
                         DeviceSegmentedSortWarpKernel<MaxPolicyT, IS_DESCENDING, KeyT, ValueT, BeginOffsetIteratorT,
                                                       EndOffsetIteratorT>,
                         grid_for(capacity.bin[1], SMALL_GROUPS, resident), warp_sorter_threads, stream,
                         d_begin_offsets, d_end_offsets, num_items, static_cast<const ::cuda::std::int64_t*>(d_bins[1]),
                         static_cast<const Counters*>(d_counters), capacity.bin[1], static_cast<const KeyT*>(keys_in),
                         keys_result, static_cast<const ValueT*>(values_in), values_result, begin_bit, end_bit);
      }
      if (error == cudaSuccess && capacity.bin[2] > 0)
      {
        error = LaunchKernel(
            false,
            DeviceSegmentedSortBlockKernel<MaxPolicyT, false, IS_DESCENDING, KeyT, ValueT, BeginOffsetIteratorT,
                                           EndOffsetIteratorT>,
            grid_for(capacity.bin[2], 1, resident), ActivePolicyT::MediumPolicy::THREADS_PER_SEGMENT, stream,
            d_begin_offsets, d_end_offsets, num_items, static_cast<const ::cuda::std::int64_t*>(d_bins[2]),
            static_cast<const Counters*>(d_counters), capacity.bin[2], static_cast<const KeyT*>(keys_in), keys_result,
            static_cast<const ValueT*>(values_in), values_result, begin_bit, end_bit);
      }
      if (error == cudaSuccess && capacity.bin[3] > 0)
      {
        error = LaunchKernel(
            false,
            DeviceSegmentedSortBlockKernel<MaxPolicyT, true, IS_DESCENDING, KeyT, ValueT, BeginOffsetIteratorT,
                                           EndOffsetIteratorT>,
            grid_for(capacity.bin[3], 1, resident / 2), ActivePolicyT::LargePolicy::THREADS_PER_SEGMENT, stream,
            d_begin_offsets, d_end_offsets, num_items, static_cast<const ::cuda::std::int64_t*>(d_bins[3]),
            static_cast<const Counters*>(d_counters), capacity.bin[3], static_cast<const KeyT*>(keys_in), keys_result,
            static_cast<const ValueT*>(values_in), values_result, begin_bit, end_bit);
      }
      if (error != cudaSuccess)
      {
        return error;
      }
      if (longs == 0)
      {
        if (flip)
        {
          d_keys.selector ^= 1;
          d_values.selector ^= 1;
        }
        return cudaSuccess;
      }
    }

    // The long segments: chains and tiles, every pass's digit counts, the chains' digit starts,
    // then one onesweep launch per pass and window.
    error = LaunchKernel(false, DeviceSegmentedSortChainKernel<MaxPolicyT>, grid_for(longs, 8, resident), 256, stream,
                         static_cast<const LongSegment*>(d_long), static_cast<const Counters*>(d_counters), capacity,
                         d_chains, d_tile_chain, d_counts, num_passes);
    if (error == cudaSuccess)
    {
      using HistogramPolicyT = typename ActivePolicyT::HistogramPolicy;
      error                  = LaunchKernel(
                           false, DeviceSegmentedSortHistogramKernel<MaxPolicyT, KeyT>,
                           grid_for(max_tiles, 1,
                                    static_cast<unsigned long long>(sm_count) * radix::histogram_blocks_per_sm_v<HistogramPolicyT>),
                           HistogramPolicyT::BLOCK_THREADS, stream, static_cast<const KeyT*>(keys_in),
                           static_cast<const Chain*>(d_chains), static_cast<const ::cuda::std::uint32_t*>(d_tile_chain),
                           static_cast<const Counters*>(d_counters), capacity, d_counts, begin_bit, end_bit);
    }
    if (error == cudaSuccess)
    {
      error = LaunchKernel(false, DeviceSegmentedSortScanKernel<MaxPolicyT, IS_DESCENDING>,
                           int(at_most(longs, resident)) * num_passes, DIGITS, stream,
                           static_cast<const LongSegment*>(d_long), static_cast<const Counters*>(d_counters), capacity,
                           d_counts, num_passes);
    }
    // The passes alternate buffers. With leave to overwrite: alternate, current, ... Without:
    // the first reads the input, and the last writes the output (the alternate buffer).
    const KeyT* keys_source     = keys_in;
    const ValueT* values_source = values_in;
    int launch                  = 0;
    for (int pass = 0; error == cudaSuccess && pass < num_passes; ++pass)
    {
      const bool to_alternate = is_overwrite_okay ? pass % 2 == 0 : (num_passes - 1 - pass) % 2 == 0;
      KeyT* keys_target = to_alternate ? d_keys.Alternate() : (is_overwrite_okay ? d_keys.Current() : d_keys_buffer);
      ValueT* values_target =
          to_alternate ? d_values.Alternate() : (is_overwrite_okay ? d_values.Current() : d_values_buffer);
      const int current_bit = begin_bit + pass * RADIX_BITS;
      const int pass_bits   = end_bit - current_bit < RADIX_BITS ? end_bit - current_bit : RADIX_BITS;
      for (unsigned long long window = 0; error == cudaSuccess && window < windows; ++window, ++launch)
      {
        // Every seventh launch reuses an epoch: the words of the launch seven before must not pass
        // for this one's (a window with fewer tiles leaves its later words as they were).
        if (launch > 0 && launch % radix::lookback_epochs == 0)
        {
          error = cudaMemsetAsync(d_lookback, 0, static_cast<size_t>(lookback_tiles) * DIGITS * sizeof(*d_lookback),
                                  stream);
          if (error != cudaSuccess)
          {
            break;
          }
        }
        const unsigned long long first = window * WINDOW;
        error                          = LaunchKernel(
                                     false, DeviceSegmentedSortOnesweepKernel<MaxPolicyT, IS_DESCENDING, KeyT, ValueT>,
                                     int(at_most(max_tiles - first, WINDOW)), OnesweepPolicyT::BLOCK_THREADS, stream, keys_source, keys_target,
                                     values_source, values_target, static_cast<const Chain*>(d_chains),
                                     static_cast<const ::cuda::std::uint32_t*>(d_tile_chain),
                                     d_counts + static_cast<size_t>(pass) * max_chains * DIGITS, d_lookback, d_tile_counter + launch,
                                     static_cast<const Counters*>(d_counters), capacity, ::cuda::std::uint32_t(first), current_bit,
            pass_bits < 0 ? 0 : pass_bits, radix::LookbackEpoch(launch));
      }
      keys_source   = keys_target;
      values_source = values_target;
    }
    if (error == cudaSuccess && flip)
    {
      d_keys.selector ^= 1;
      d_values.selector ^= 1;
    }
    return error;
  }
};

template <SortOrder Order, typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename PolicyHub = policy_hub<KeyT, ValueT>>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes, bool is_overwrite_okay,
                                        DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                        ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        int begin_bit, int end_bit, cudaStream_t stream);

//! A sort of values wider than the sorters stage (max_sorted_value_bytes): the keys are sorted
//! with the 32-bit indices of their values, which are then gathered from the current buffer into
//! the alternate one. The indices start as 0, 1, ... in the current buffer and as `unsorted` in
//! the alternate one, so a value outside every segment is gathered only where its index stayed in
//! place, as its key did (a DoubleBuffer form whose keys did not move); otherwise it is left as
//! it is in the output.
template <SortOrder Order, typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
STRATA_RUNTIME_FUNCTION cudaError_t RunGathered(void* d_temp_storage, size_t& temp_storage_bytes,
                                                bool is_overwrite_okay, DoubleBuffer<KeyT>& d_keys,
                                                DoubleBuffer<ValueT>& d_values, ::cuda::std::int64_t num_items,
                                                ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                                                EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit,
                                                cudaStream_t stream)
{
  using IndexT = ::cuda::std::uint32_t;
  if (num_items >= ::cuda::std::int64_t(gather::GatherValues<ValueT>::unsorted))
  {
    // The indices are 32-bit (2^32 such values fill no GPU's memory).
    return STRATA_INVALID_ARGUMENT("num_items is too large: values wider than 256 bytes are sorted by 32-bit indices");
  }
  using InnerHub = policy_hub<KeyT, IndexT>;
  return gather::SortByIndices(
      d_temp_storage, temp_storage_bytes, IndexT(num_items), num_items > 0 && num_segments > 0, d_values, stream,
      [&](void* d_sort_storage, size_t& sort_bytes, DoubleBuffer<IndexT>& indices)
      {
        const cudaError_t error = Run<Order, KeyT, IndexT, BeginOffsetIteratorT, EndOffsetIteratorT, InnerHub>(
            d_sort_storage, sort_bytes, is_overwrite_okay, d_keys, indices, num_items, num_segments, d_begin_offsets,
            d_end_offsets, begin_bit, end_bit, stream);
        // The pointer forms leave the sorted indices in the alternate buffer without flipping the
        // selector (unlike DeviceRadixSort's): point the gather at them.
        if (error == cudaSuccess && d_sort_storage != nullptr && !is_overwrite_okay)
        {
          indices.selector ^= 1;
        }
        return error;
      });
}

//! Every segmented sort call ends here: checks the counts, the bit range and the pointers, picks
//! the device's policy and dispatches (values wider than max_sorted_value_bytes: RunGathered).
template <SortOrder Order, typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename PolicyHub>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes, bool is_overwrite_okay,
                                        DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                        ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        int begin_bit, int end_bit, cudaStream_t stream)
{
  static_assert(is_radix_fundamental_v<KeyT>,
                "segmented sorts take integer, bool or floating-point keys (sort structs with DeviceMergeSort)");
  constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  if (num_items < 0)
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  if (num_segments < 0)
  {
    return STRATA_INVALID_ARGUMENT("num_segments is negative");
  }
  if (begin_bit < 0 || end_bit < begin_bit || end_bit > int(sizeof(KeyT) * 8))
  {
    return STRATA_INVALID_ARGUMENT("begin_bit/end_bit out of range");
  }
  // No bits to sort by, with leave to overwrite: each segment is sorted where it is, and nothing
  // is read or written (as in CUB, so the buffers may be null).
  if (begin_bit == end_bit && is_overwrite_okay)
  {
    char* d_unused = nullptr;
    return CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_unused, 1));
  }
  if (d_temp_storage != nullptr && num_items > 0 && num_segments > 0
      && (d_keys.Current() == nullptr || d_keys.Alternate() == nullptr
          || (!KEYS_ONLY && (d_values.Current() == nullptr || d_values.Alternate() == nullptr))))
  {
    return STRATA_INVALID_ARGUMENT("a key or value buffer is null");
  }
  if constexpr (!KEYS_ONLY && sizeof(ValueT) > max_sorted_value_bytes)
  {
    return RunGathered<Order>(d_temp_storage, temp_storage_bytes, is_overwrite_okay, d_keys, d_values, num_items,
                              num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, stream);
  }
  else
  {
    using DispatchT =
        dispatch_t<Order == SortOrder::Descending, KeyT, ValueT, BeginOffsetIteratorT, EndOffsetIteratorT, PolicyHub>;
    return InvokeForCurrentDevice<typename DispatchT::MaxPolicyT>(
        [&](int)
        {
          return DispatchT{d_temp_storage,    temp_storage_bytes,  d_keys,       d_values,
                           is_overwrite_okay, offset_t(num_items), num_segments, d_begin_offsets,
                           d_end_offsets,     begin_bit,           end_bit,      stream};
        });
  }
}
} // namespace segmented_sort
} // namespace detail

//! CUB's dispatch of DeviceSegmentedSort (its name and template list): a stable sort of each
//! segment by every bit of the key. OffsetT is accepted for CUB's list (strata's offsets are
//! 64-bit); PolicyHub is a hub of detail::segmented_sort::policy_hub's shape.
template <SortOrder Order, typename KeyT, typename ValueT, typename OffsetT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename PolicyHub = detail::segmented_sort::policy_hub<KeyT, ValueT>>
struct DispatchSegmentedSort
{
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
           ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
           EndOffsetIteratorT d_end_offsets, bool is_overwrite_okay, cudaStream_t stream)
  {
    return detail::segmented_sort::Run<Order, KeyT, ValueT, BeginOffsetIteratorT, EndOffsetIteratorT, PolicyHub>(
        d_temp_storage, temp_storage_bytes, is_overwrite_okay, d_keys, d_values, num_items, num_segments,
        d_begin_offsets, d_end_offsets, 0, int(sizeof(KeyT) * 8), stream);
  }
};

//! CUB's dispatch of DeviceSegmentedRadixSort (its name and template list): a stable sort of each
//! segment by the key bits [begin_bit, end_bit). OffsetT is accepted for CUB's list (counts are
//! 64-bit here, CUB's int converts); PolicyHub is a hub of detail::segmented_sort::policy_hub's
//! shape; keys are fundamental, so DecomposerT must stay the identity.
template <SortOrder Order, typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename OffsetT, typename PolicyHub = detail::segmented_sort::policy_hub<KeyT, ValueT>,
          typename DecomposerT = detail::identity_decomposer_t>
struct DispatchSegmentedRadixSort
{
  static_assert(::cuda::std::is_same_v<DecomposerT, detail::identity_decomposer_t>,
                "segmented radix sorts take integer, bool or floating-point keys, not decomposed ones");

  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
           ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
           EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit, bool is_overwrite_okay, cudaStream_t stream)
  {
    return detail::segmented_sort::Run<Order, KeyT, ValueT, BeginOffsetIteratorT, EndOffsetIteratorT, PolicyHub>(
        d_temp_storage, temp_storage_bytes, is_overwrite_okay, d_keys, d_values, num_items, num_segments,
        d_begin_offsets, d_end_offsets, begin_bit, end_bit, stream);
  }
};

STRATA_NAMESPACE_END

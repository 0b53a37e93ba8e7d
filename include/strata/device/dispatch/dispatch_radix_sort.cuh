// strata/device/dispatch/dispatch_radix_sort.cuh: the kernels of DeviceRadixSort, and
// DispatchRadixSort, which picks the policy for the device, sizes and carves the temporary
// storage, and launches: one block for small inputs, else a onesweep sort (one histogram pass
// over the keys for every digit, then one pass per digit).
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_radix_sort_histogram.cuh>
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/agent/agent_radix_sort_single_tile.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/dispatch_gather.cuh>
#include <strata/device/dispatch/tuning/tuning_radix_sort.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! Inputs of one tile: one block loads the keys (blocked), sorts them with BlockRadixSort and
//! stores them (striped) to d_keys_out, values alike.
template <typename MaxPolicyT, bool IS_DESCENDING, typename KeyT, typename ValueT, typename OffsetT,
          typename DecomposerT, typename ValuesInputIteratorT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::SingleTilePolicy::BLOCK_THREADS) void DeviceRadixSortSingleTileKernel(
    const KeyT* d_keys_in, KeyT* d_keys_out, ValuesInputIteratorT d_values_in, ValueT* d_values_out, OffsetT num_items,
    int begin_bit, int end_bit, DecomposerT decomposer)
{
  using AgentT = AgentRadixSortSingleTile<typename MaxPolicyT::ActivePolicy::SingleTilePolicy, IS_DESCENDING, KeyT,
                                          ValueT, DecomposerT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT(temp_storage)
      .Process(d_keys_in, d_keys_out, d_values_in, d_values_out, int(num_items), begin_bit, end_bit, decomposer);
}

//! The histogram pass: `blocks_per_portion` blocks per portion, portion after portion, and
//! `last_blocks` (no more) for the last portion, which may hold few keys. Its grid is about blocks
//! per SM times SMs, so the registers are bounded to let that many blocks fit at once.
template <typename MaxPolicyT, typename KeyT, typename OffsetT, typename DecomposerT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    MaxPolicyT::ActivePolicy::HistogramPolicy::BLOCK_THREADS,
    detail::radix::histogram_blocks_per_sm_v<
        typename MaxPolicyT::ActivePolicy::HistogramPolicy>) void DeviceRadixSortHistogramKernel(const KeyT* d_keys,
                                                                                                 OffsetT* d_bins,
                                                                                                 OffsetT num_items,
                                                                                                 OffsetT portion_items,
                                                                                                 int num_portions,
                                                                                                 int blocks_per_portion,
                                                                                                 int last_blocks,
                                                                                                 int begin_bit,
                                                                                                 int end_bit,
                                                                                                 DecomposerT decomposer)
{
  using ActivePolicyT = typename MaxPolicyT::ActivePolicy;
  using AgentT        = AgentRadixSortHistogram<typename ActivePolicyT::HistogramPolicy,
                                         ActivePolicyT::OnesweepPolicy::RADIX_BITS, KeyT, OffsetT, DecomposerT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::TriggerDependentLaunch(); // the exclusive sum may launch; it waits for this grid's counts
  const int portion   = int(blockIdx.x) / blocks_per_portion;
  const OffsetT first = OffsetT(portion) * portion_items;
  const OffsetT items = num_items - first < portion_items ? num_items - first : portion_items;
  AgentT(temp_storage, d_keys + first, d_bins, items, portion, num_portions,
         int(blockIdx.x) - portion * blocks_per_portion, portion == num_portions - 1 ? last_blocks : blocks_per_portion,
         begin_bit, end_bit, decomposer)
      .Process();
}

//! Turns the digit counts into the digit starts of each pass's first portion, in place, one
//! block (one thread per digit) per pass: a digit starts after every key of the digits that sort
//! before it (lower digits, higher ones when descending). A later portion's starts come from the
//! onesweep launch of the portion before it, since a pass moves keys between portions. A pass
//! whose keys all have one digit moves no key: its tile counters get the trivial-pass flag and
//! its later portions their starts here, and its tiles are copied (AgentRadixSortOnesweep).
template <typename MaxPolicyT, bool IS_DESCENDING, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES
    __launch_bounds__(1 << MaxPolicyT::ActivePolicy::OnesweepPolicy::RADIX_BITS) void DeviceRadixSortExclusiveSumKernel(
        OffsetT* d_bins, ::cuda::std::uint32_t* d_tile_counters, int num_portions, OffsetT portion_items)
{
  using AgentT =
      AgentRadixSortExclusiveSum<MaxPolicyT::ActivePolicy::OnesweepPolicy::RADIX_BITS, IS_DESCENDING, OffsetT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::TriggerDependentLaunch();
  detail::WaitForPrimaryGrid(); // the counts, from the histogram pass
  AgentT(temp_storage).Process(d_bins, d_tile_counters, num_portions, portion_items);
}

namespace detail
{
namespace radix
{
//! Histogram blocks for a portion of `portion_keys` of a sort of `num_items` keys: the grid's
//! `grid_blocks` in proportion to the portion's keys (rounded up, so at least one), and no more
//! than the portion has tiles of `tile` keys.
STRATA_HOST_DEVICE constexpr int histogram_portion_blocks(unsigned long long grid_blocks,
                                                          unsigned long long portion_keys, unsigned long long num_items,
                                                          int tile)
{
  const unsigned long long wanted = (grid_blocks * portion_keys + num_items - 1) / num_items;
  const unsigned long long tiles  = (portion_keys + static_cast<unsigned long long>(tile) - 1) / tile;
  return int(wanted < tiles ? wanted : tiles);
}

//! The onesweep policy of the active policy: the one for small inputs where SMALL.
template <typename MaxPolicyT, bool SMALL>
using onesweep_policy_t = ::cuda::std::conditional_t<SMALL, onesweep_small_policy_t<typename MaxPolicyT::ActivePolicy>,
                                                     typename MaxPolicyT::ActivePolicy::OnesweepPolicy>;
} // namespace radix
} // namespace detail

//! One onesweep launch: one tile of one portion per block, for the digit at current_bit, with the
//! tiles of the policy for small inputs where SMALL.
template <typename MaxPolicyT, bool SMALL, bool IS_DESCENDING, typename KeyT, typename ValueT, typename OffsetT,
          typename DecomposerT, typename ValuesInputIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::radix::onesweep_policy_t<MaxPolicyT, SMALL>::BLOCK_THREADS,
    detail::radix::onesweep_min_blocks_v<detail::radix::onesweep_policy_t<
        MaxPolicyT, SMALL>>) void DeviceRadixSortOnesweepKernel(const KeyT* d_keys_in, KeyT* d_keys_out,
                                                                ValuesInputIteratorT d_values_in, ValueT* d_values_out,
                                                                const OffsetT* d_bins, OffsetT* d_bins_next,
                                                                ::cuda::std::uint32_t* d_lookback,
                                                                ::cuda::std::uint32_t* d_tile_counter,
                                                                OffsetT num_items, int current_bit, int num_bits,
                                                                ::cuda::std::uint32_t epoch, DecomposerT decomposer)
{
  using AgentT = AgentRadixSortOnesweep<detail::radix::onesweep_policy_t<MaxPolicyT, SMALL>, IS_DESCENDING, KeyT,
                                        ValueT, OffsetT, DecomposerT, ValuesInputIteratorT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::TriggerDependentLaunch(); // the next pass may launch: its blocks wait for this grid to end
  detail::WaitForPrimaryGrid();     // the keys of the pass before, the digit starts
  AgentT(temp_storage, d_keys_in, d_keys_out, d_values_in, d_values_out, d_bins, d_bins_next, d_lookback,
         d_tile_counter, num_items, current_bit, num_bits, epoch, decomposer)
      .Process();
}

//! A sort by no bits with values read through an iterator: the values are copied to d_values_out
//! (the keys, from pointers, are copied with cudaMemcpyAsync).
template <typename ValuesInputIteratorT, typename ValueT, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(256) void DeviceRadixSortCopyValuesKernel(ValuesInputIteratorT d_values_in,
                                                                                     ValueT* d_values_out,
                                                                                     OffsetT num_items)
{
  constexpr int ITEMS = 4;
  using TileIoT       = detail::tile::TileIo<256, ITEMS>;
  for (OffsetT tile_offset = OffsetT(blockIdx.x) * TileIoT::TILE_ITEMS; tile_offset < num_items;
       tile_offset += OffsetT(gridDim.x) * TileIoT::TILE_ITEMS)
  {
    ValueT values[ITEMS];
    const int valid = detail::tile::ValidItems<TileIoT::TILE_ITEMS>(num_items, tile_offset);
    TileIoT::LoadPartial(d_values_in + tile_offset, int(threadIdx.x), valid, values);
    TileIoT::StorePartial(d_values_out + tile_offset, int(threadIdx.x), valid, values);
  }
}

STRATA_KERNELS_END

//! Dispatches a radix sort of `num_items` keys (and values, unless ValueT is NullType) by bits
//! [begin_bit, end_bit). The keys are read from `d_keys.Current()`; the sorted keys end in
//! `d_keys.Alternate()` when `is_overwrite_okay` is false (the input stays as it was; the
//! temporary storage then holds a buffer of keys and values for the passes between), else in
//! either buffer. Either way `d_keys.selector` (and `d_values.selector`) names the buffer that
//! holds the result afterwards. The template parameters are CUB's.
//!
//! Beyond CUB: ValuesInputIteratorT, when it is not `const ValueT*`, is where the values are read
//! (DispatchFromIterator), e.g. a CountingInputIterator for an argsort; `d_values.Current()` is
//! then unused.
template <SortOrder Order, typename KeyT, typename ValueT, typename OffsetT,
          typename DecomposerT          = detail::identity_decomposer_t,
          typename PolicyHub            = detail::radix::policy_hub<KeyT, ValueT, OffsetT>,
          typename ValuesInputIteratorT = const ValueT*>
struct DispatchRadixSort
{
  static constexpr bool VALUES_FROM_POINTER = ::cuda::std::is_same_v<ValuesInputIteratorT, const ValueT*>;
  static constexpr bool KEYS_ONLY           = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr bool IS_DESCENDING       = Order == SortOrder::Descending;
  using max_policy_t                        = typename PolicyHub::MaxPolicy;
  using traits                              = detail::radix::traits_t<KeyT>;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  DoubleBuffer<KeyT>& d_keys;
  DoubleBuffer<ValueT>& d_values;
  OffsetT num_items;
  int begin_bit;
  int end_bit;
  cudaStream_t stream;
  int ptx_version;
  bool is_overwrite_okay;
  DecomposerT decomposer;
  ValuesInputIteratorT d_values_in; // the values the first pass reads

  STRATA_RUNTIME_FUNCTION DispatchRadixSort(void* d_temp_storage, size_t& temp_storage_bytes,
                                            DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                            OffsetT num_items, int begin_bit, int end_bit, bool is_overwrite_okay,
                                            cudaStream_t stream, int ptx_version, DecomposerT decomposer = {})
      : DispatchRadixSort(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit,
                          is_overwrite_okay, stream, ptx_version, decomposer, d_values.Current())
  {
  }

  STRATA_RUNTIME_FUNCTION DispatchRadixSort(void* d_temp_storage, size_t& temp_storage_bytes,
                                            DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                            OffsetT num_items, int begin_bit, int end_bit, bool is_overwrite_okay,
                                            cudaStream_t stream, int ptx_version, DecomposerT decomposer,
                                            ValuesInputIteratorT d_values_in)
      : d_temp_storage(d_temp_storage)
      , temp_storage_bytes(temp_storage_bytes)
      , d_keys(d_keys)
      , d_values(d_values)
      , num_items(num_items)
      , begin_bit(begin_bit)
      , end_bit(end_bit)
      , stream(stream)
      , ptx_version(ptx_version)
      , is_overwrite_okay(is_overwrite_okay)
      , decomposer(decomposer)
      , d_values_in(d_values_in)
  {
  }

  //! After a sort that wrote its result to the alternate buffers: they become the current ones.
  STRATA_RUNTIME_FUNCTION void FlipSelectors()
  {
    d_keys.selector ^= 1;
    if constexpr (!KEYS_ONLY)
    {
      d_values.selector ^= 1;
    }
  }

  //! No bits to sort by: the input is the result (copied to the alternate buffers when the input
  //! must not be overwritten).
  STRATA_RUNTIME_FUNCTION cudaError_t InvokeCopy()
  {
    char* d_unused    = nullptr;
    cudaError_t error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_unused, 1));
    if (error != cudaSuccess || d_temp_storage == nullptr || is_overwrite_okay || num_items == 0)
    {
      return error;
    }
    error = cudaMemcpyAsync(d_keys.Alternate(), d_keys.Current(), size_t(num_items) * sizeof(KeyT),
                            cudaMemcpyDeviceToDevice, stream);
    if constexpr (!KEYS_ONLY && VALUES_FROM_POINTER)
    {
      if (error == cudaSuccess)
      {
        error = cudaMemcpyAsync(d_values.Alternate(), d_values_in, size_t(num_items) * sizeof(ValueT),
                                cudaMemcpyDeviceToDevice, stream);
      }
    }
    else if constexpr (!KEYS_ONLY)
    {
      if (error == cudaSuccess)
      {
        constexpr OffsetT COPY_TILE = 256 * 4;
        const OffsetT tiles         = num_items / COPY_TILE + (num_items % COPY_TILE != 0);
        error = detail::LaunchKernel(false, DeviceRadixSortCopyValuesKernel<ValuesInputIteratorT, ValueT, OffsetT>,
                                     int(tiles < OffsetT(4096) ? tiles : OffsetT(4096)), 256, stream, d_values_in,
                                     d_values.Alternate(), num_items);
      }
    }
    if (error == cudaSuccess)
    {
      FlipSelectors();
      error = detail::DebugSyncStream(stream);
    }
    return error;
  }

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t InvokeSingleTile()
  {
    char* d_unused    = nullptr;
    cudaError_t error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_unused, 1));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }
    error = detail::LaunchKernel(false,
                                 DeviceRadixSortSingleTileKernel<max_policy_t, IS_DESCENDING, KeyT, ValueT, OffsetT,
                                                                 DecomposerT, ValuesInputIteratorT>,
                                 1, ActivePolicyT::SingleTilePolicy::BLOCK_THREADS, stream,
                                 static_cast<const KeyT*>(d_keys.Current()), d_keys.Alternate(), d_values_in,
                                 d_values.Alternate(), num_items, begin_bit, end_bit, decomposer);
    if (error == cudaSuccess)
    {
      FlipSelectors();
    }
    return error;
  }

  template <typename ActivePolicyT, bool SMALL>
  STRATA_RUNTIME_FUNCTION cudaError_t InvokeOnesweep()
  {
    using OnesweepPolicyT    = ::cuda::std::conditional_t<SMALL, detail::radix::onesweep_small_policy_t<ActivePolicyT>,
                                                       typename ActivePolicyT::OnesweepPolicy>;
    using HistogramPolicyT   = typename ActivePolicyT::HistogramPolicy;
    constexpr int RADIX_BITS = OnesweepPolicyT::RADIX_BITS;
    constexpr int RADIX_DIGITS   = 1 << RADIX_BITS;
    constexpr int TILE_ITEMS     = OnesweepPolicyT::BLOCK_THREADS * OnesweepPolicyT::ITEMS_PER_THREAD;
    constexpr int HISTOGRAM_TILE = HistogramPolicyT::BLOCK_THREADS * HistogramPolicyT::ITEMS_PER_THREAD;
    constexpr int PORTION_TILES  = detail::radix::portion_tiles_v<OnesweepPolicyT>;
    static_assert(PORTION_TILES >= 1 && PORTION_TILES <= detail::radix::max_portion_tiles_v<TILE_ITEMS>,
                  "a portion holds at least one tile, and no more keys than a look-back word counts");
    constexpr OffsetT PORTION_ITEMS = OffsetT(PORTION_TILES) * OffsetT(TILE_ITEMS);

    const int num_passes      = (end_bit - begin_bit + RADIX_BITS - 1) / RADIX_BITS;
    const OffsetT portions    = num_items / PORTION_ITEMS + (num_items % PORTION_ITEMS != 0);
    const int num_portions    = int(portions);
    const OffsetT first_items = num_items < PORTION_ITEMS ? num_items : PORTION_ITEMS;
    const int max_tiles       = int(first_items / TILE_ITEMS + (first_items % TILE_ITEMS != 0));
    const size_t bin_count    = size_t(num_passes) * size_t(num_portions) * RADIX_DIGITS;
    // Without leave to overwrite the input, a buffer for the passes between input and output.
    const bool need_buffer = !is_overwrite_okay && num_passes > 1;

    OffsetT* d_bins                   = nullptr;
    ::cuda::std::uint32_t* d_counters = nullptr;
    ::cuda::std::uint32_t* d_lookback = nullptr;
    KeyT* d_keys_buffer               = nullptr;
    ValueT* d_values_buffer           = nullptr;
    cudaError_t error =
        detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_bins, bin_count),
                                      detail::Slot(d_counters, size_t(num_passes) * size_t(num_portions)),
                                      detail::Slot(d_lookback, size_t(max_tiles) * RADIX_DIGITS),
                                      detail::Slot(d_keys_buffer, need_buffer ? size_t(num_items) : 0),
                                      detail::Slot(d_values_buffer, need_buffer && !KEYS_ONLY ? size_t(num_items) : 0));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }

    // Digit counts (then starts), tile counters and look-back words start at zero (one memset:
    // they are adjacent).
    error = cudaMemsetAsync(d_bins, 0,
                            size_t(reinterpret_cast<char*>(d_lookback + size_t(max_tiles) * RADIX_DIGITS)
                                   - reinterpret_cast<char*>(d_bins)),
                            stream);
    if (error != cudaSuccess)
    {
      return error;
    }

    int sm_count = 0;
    error        = detail::SmCount(sm_count);
    if (error != cudaSuccess)
    {
      return error;
    }
    // The histogram's blocks go to the portions in proportion to their keys: every portion but
    // the last is full (first_items keys), and the last, which may hold a few keys, no more.
    const unsigned long long grid_blocks =
        static_cast<unsigned long long>(sm_count) * detail::radix::histogram_blocks_per_sm_v<HistogramPolicyT>;
    const int histogram_x =
        detail::radix::histogram_portion_blocks(grid_blocks, static_cast<unsigned long long>(first_items),
                                                static_cast<unsigned long long>(num_items), HISTOGRAM_TILE);
    const int last_blocks = detail::radix::histogram_portion_blocks(
        grid_blocks, static_cast<unsigned long long>(num_items - OffsetT(num_portions - 1) * PORTION_ITEMS),
        static_cast<unsigned long long>(num_items), HISTOGRAM_TILE);
    const KeyT* d_keys_in = d_keys.Current();
    error = detail::LaunchKernel(false, DeviceRadixSortHistogramKernel<max_policy_t, KeyT, OffsetT, DecomposerT>,
                                 histogram_x * (num_portions - 1) + last_blocks, HistogramPolicyT::BLOCK_THREADS,
                                 stream, d_keys_in, d_bins, num_items, PORTION_ITEMS, num_portions, histogram_x,
                                 last_blocks, begin_bit, end_bit, decomposer);
    if (error != cudaSuccess)
    {
      return error;
    }
    // From here on each launch is a programmatic dependent launch where the device has them (its
    // kernel waits for the one before at its start, and lets the next one launch).
    const bool programmatic = ptx_version >= 900;
    error = detail::LaunchKernel(programmatic, DeviceRadixSortExclusiveSumKernel<max_policy_t, IS_DESCENDING, OffsetT>,
                                 num_passes, RADIX_DIGITS, stream, d_bins, d_counters, num_portions, PORTION_ITEMS);
    if (error != cudaSuccess)
    {
      return error;
    }

    // The passes ping-pong between the two buffers. With leave to overwrite the input: current
    // and alternate. Without: the first pass reads the input, and the destinations alternate
    // between the output (the alternate buffer, the last pass's) and the temporary buffer.
    KeyT* keys_out_final     = d_keys.Alternate();
    ValueT* values_out_final = d_values.Alternate();
    KeyT* keys_other         = is_overwrite_okay ? d_keys.Current() : d_keys_buffer;
    ValueT* values_other     = is_overwrite_okay ? d_values.Current() : d_values_buffer;
    const KeyT* keys_source  = d_keys.Current();
    ValueT* values_source    = nullptr; // after the first pass
    int launch               = 0;
    // One launch of the pass at current_bit over one portion, values read from `values`.
    auto launch_portion = [&](auto values, int pass, int portion, KeyT* keys_target, ValueT* values_target)
    {
      using ValuesT         = decltype(values);
      const int current_bit = begin_bit + pass * RADIX_BITS;
      const int num_bits    = end_bit - current_bit < RADIX_BITS ? end_bit - current_bit : RADIX_BITS;
      const OffsetT first   = OffsetT(portion) * PORTION_ITEMS;
      const OffsetT items   = num_items - first < PORTION_ITEMS ? num_items - first : PORTION_ITEMS;
      const int tiles       = int(items / TILE_ITEMS + (items % TILE_ITEMS != 0));
      if constexpr (!KEYS_ONLY)
      {
        values += first;
      }
      return detail::LaunchKernel(
          programmatic,
          DeviceRadixSortOnesweepKernel<max_policy_t, SMALL, IS_DESCENDING, KeyT, ValueT, OffsetT, DecomposerT,
                                        ValuesT>,
          tiles, OnesweepPolicyT::BLOCK_THREADS, stream, keys_source + first, keys_target, values, values_target,
          static_cast<const OffsetT*>(d_bins + (size_t(pass) * num_portions + portion) * RADIX_DIGITS),
          portion + 1 < num_portions ? d_bins + (size_t(pass) * num_portions + portion + 1) * RADIX_DIGITS : nullptr,
          d_lookback, d_counters + size_t(pass) * num_portions + portion, items, current_bit, num_bits,
          detail::radix::LookbackEpoch(launch), decomposer);
    };
    for (int pass = 0; pass < num_passes; ++pass)
    {
      // Destination: with overwriting, alternate for even passes; without, the output for the
      // passes an even number before the last.
      const bool to_final   = is_overwrite_okay ? pass % 2 == 0 : (num_passes - 1 - pass) % 2 == 0;
      KeyT* keys_target     = to_final ? keys_out_final : keys_other;
      ValueT* values_target = to_final ? values_out_final : values_other;
      for (int portion = 0; portion < num_portions; ++portion, ++launch)
      {
        error = pass == 0 ? launch_portion(d_values_in, pass, portion, keys_target, values_target)
                          : launch_portion(static_cast<const ValueT*>(values_source), pass, portion, keys_target,
                                           values_target);
        if (error != cudaSuccess)
        {
          return error;
        }
      }
      keys_source   = keys_target;
      values_source = values_target;
    }
    // The result is in the alternate buffers unless an even number of passes overwrote the input.
    if (!is_overwrite_okay || num_passes % 2 == 1)
    {
      FlipSelectors();
    }
    return cudaSuccess;
  }

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using SingleTilePolicyT = typename ActivePolicyT::SingleTilePolicy;
    if (begin_bit == end_bit)
    {
      return InvokeCopy();
    }
    if (num_items <= OffsetT(SingleTilePolicyT::BLOCK_THREADS * SingleTilePolicyT::ITEMS_PER_THREAD))
    {
      if (num_items == 0)
      {
        char* d_unused = nullptr;
        return detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_unused, 1));
      }
      return InvokeSingleTile<ActivePolicyT>();
    }
    if constexpr (detail::radix::onesweep_small_below_v < ActivePolicyT >> 0)
    {
      if (static_cast<long long>(num_items) < detail::radix::onesweep_small_below_v<ActivePolicyT>)
      {
        return InvokeOnesweep<ActivePolicyT, true>();
      }
    }
    return InvokeOnesweep<ActivePolicyT, false>();
  }

  //! Beyond CUB: a sort whose values are read through `d_values_in` (any random-access iterator)
  //! and written to `d_values_out`; the keys go from `d_keys.Current()` to `d_keys.Alternate()`,
  //! and the input keys stay as they were.
  STRATA_RUNTIME_FUNCTION static cudaError_t
  DispatchFromIterator(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                       ValuesInputIteratorT d_values_in, ValueT* d_values_out, OffsetT num_items, int begin_bit,
                       int end_bit, cudaStream_t stream, DecomposerT decomposer = {})
  {
    static_assert(!KEYS_ONLY, "values read through an iterator need a value type");
    if (begin_bit < 0 || end_bit < begin_bit || end_bit > traits::default_end_bit(decomposer))
    {
      return STRATA_INVALID_ARGUMENT("begin_bit/end_bit out of range");
    }
    if (d_temp_storage != nullptr && num_items > 0
        && (d_keys.Current() == nullptr || d_keys.Alternate() == nullptr || d_values_out == nullptr
            || detail::IsNullPointer(d_values_in)))
    {
      return STRATA_INVALID_ARGUMENT("d_keys_in, d_keys_out, d_values_in or d_values_out is null");
    }
    DoubleBuffer<ValueT> d_values(nullptr, d_values_out);
    return detail::InvokeForCurrentDevice<max_policy_t>(
        [&](int ptx_version)
        {
          return DispatchRadixSort(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit,
                                   false, stream, ptx_version, decomposer, d_values_in);
        });
  }

  //! Validates the arguments (bits within the key, buffers present), picks the policy for the
  //! current device and runs (or sizes) the sort.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                                      OffsetT num_items, int begin_bit, int end_bit,
                                                      bool is_overwrite_okay, cudaStream_t stream,
                                                      DecomposerT decomposer = {})
  {
    if (begin_bit < 0 || end_bit < begin_bit || end_bit > traits::default_end_bit(decomposer))
    {
      return STRATA_INVALID_ARGUMENT("begin_bit/end_bit out of range");
    }
    // With no bits and leave to overwrite, nothing is read or written (as in CUB): the buffers
    // may be null.
    const bool touches_items = num_items > 0 && !(begin_bit == end_bit && is_overwrite_okay);
    if (d_temp_storage != nullptr && touches_items
        && (d_keys.Current() == nullptr || d_keys.Alternate() == nullptr
            || (!KEYS_ONLY && (d_values.Current() == nullptr || d_values.Alternate() == nullptr))))
    {
      return STRATA_INVALID_ARGUMENT("a key or value buffer is null");
    }
    return detail::InvokeForCurrentDevice<max_policy_t>(
        [&](int ptx_version)
        {
          return DispatchRadixSort(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit,
                                   is_overwrite_okay, stream, ptx_version, decomposer);
        });
  }
};

namespace detail
{
namespace radix
{
//! The widest values the onesweep tiles carry beside the keys; wider ones are sorted as 32-bit
//! indices and gathered after (DispatchGathered).
inline constexpr int max_sorted_value_bytes = 256;

//! A sort of values wider than max_sorted_value_bytes: the keys are sorted with the 32-bit indices
//! of their values in the temporary storage, then the values are gathered (gather::SortByIndices).
template <SortOrder Order, typename KeyT, typename ValueT, typename OffsetT, typename DecomposerT>
STRATA_RUNTIME_FUNCTION cudaError_t DispatchGathered(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                                     OffsetT num_items, int begin_bit, int end_bit,
                                                     bool is_overwrite_okay, cudaStream_t stream,
                                                     DecomposerT decomposer)
{
  using IndexT = ::cuda::std::uint32_t;
  using InnerT = DispatchRadixSort<Order, KeyT, IndexT, OffsetT, DecomposerT>;
  if (static_cast<unsigned long long>(num_items) >= gather::GatherValues<ValueT>::unsorted)
  {
    // The indices are 32-bit (2^32 such values fill no GPU's memory).
    return STRATA_INVALID_ARGUMENT("num_items is too large: values wider than 256 bytes are sorted by 32-bit indices");
  }
  // No bits with leave to overwrite: nothing moves, as in the direct sort (the buffers may be null).
  const bool work = num_items > 0 && !(begin_bit == end_bit && is_overwrite_okay);
  if (d_temp_storage != nullptr && work && (d_values.Current() == nullptr || d_values.Alternate() == nullptr))
  {
    return STRATA_INVALID_ARGUMENT("a value buffer is null");
  }
  return gather::SortByIndices(d_temp_storage, temp_storage_bytes, IndexT(num_items), work, d_values, stream,
                               [&](void* d_sort_storage, size_t& sort_bytes, DoubleBuffer<IndexT>& indices)
                               {
                                 return InnerT::Dispatch(d_sort_storage, sort_bytes, d_keys, indices, num_items,
                                                         begin_bit, end_bit, is_overwrite_okay, stream, decomposer);
                               });
}
} // namespace radix
} // namespace detail

STRATA_NAMESPACE_END

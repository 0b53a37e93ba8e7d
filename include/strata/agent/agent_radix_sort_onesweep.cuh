// strata/agent/agent_radix_sort_onesweep.cuh: AgentRadixSortOnesweep, one block's tile of one
// onesweep pass: rank the tile's keys by one digit, find each digit's place in the output by a
// look-back over the digit counts of the tiles before it, and scatter keys and values there.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_radix_rank.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/detail/policy_member.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! How a onesweep tile writes its keys (CUB's names). strata writes every tile the same way,
//! through shared memory in rank order, so the two are accepted and behave alike.
enum RadixSortStoreAlgorithm
{
  RADIX_SORT_STORE_DIRECT,
  RADIX_SORT_STORE_ALIGNED
};

//! The tiles of a onesweep pass (CUB's parameter list): threads and keys per thread tuned for
//! 4-byte ComputeT (the larger of key and value) and scaled by ScalingType, the private
//! histograms and algorithm of the ranker (one that reports digit counts early:
//! RADIX_RANK_MATCH_EARLY_COUNTS_ANY or _ATOMIC_OR), its inner scan, and the digit width.
template <int NOMINAL_BLOCK_THREADS_4B, int NOMINAL_ITEMS_PER_THREAD_4B, typename ComputeT, int _RANK_NUM_PARTS,
          RadixRankAlgorithm _RANK_ALGORITHM, BlockScanAlgorithm _SCAN_ALGORITHM,
          RadixSortStoreAlgorithm _STORE_ALGORITHM, int _RADIX_BITS,
          typename ScalingType = RegBoundScaling<NOMINAL_BLOCK_THREADS_4B, NOMINAL_ITEMS_PER_THREAD_4B, ComputeT>>
struct AgentRadixSortOnesweepPolicy : ScalingType
{
  static constexpr int RANK_NUM_PARTS                      = _RANK_NUM_PARTS;
  static constexpr int RADIX_BITS                          = _RADIX_BITS;
  static constexpr RadixRankAlgorithm RANK_ALGORITHM       = _RANK_ALGORITHM;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM       = _SCAN_ALGORITHM;
  static constexpr RadixSortStoreAlgorithm STORE_ALGORITHM = _STORE_ALGORITHM;
};

namespace detail
{
namespace radix
{
//! A look-back word: bits 0-27 a digit count, bit 28 whether the count is inclusive (all tiles up
//! to this one) or the tile's own, bits 29-31 the epoch of the launch that wrote it (1-7; 0 is
//! never written, so zeroed words are unpublished). The counts of a portion stay below 2^28.
inline constexpr ::cuda::std::uint32_t lookback_count_mask = (1u << 28) - 1;
inline constexpr ::cuda::std::uint32_t lookback_inclusive  = 1u << 28;
inline constexpr int lookback_epoch_shift                  = 29;
inline constexpr int lookback_epochs                       = 7;
//! Items of a portion, the keys one onesweep launch sorts at most: 2^28 - 1 (the largest count a
//! look-back word holds) rounded down to whole tiles.
template <int TILE_ITEMS>
inline constexpr ::cuda::std::uint32_t portion_items_v = lookback_count_mask / TILE_ITEMS* TILE_ITEMS;

//! Set in a pass's tile counters when every key of the sort has one digit in the pass: the tile
//! numbers below it count as usual, and each tile is copied to the same place.
inline constexpr ::cuda::std::uint32_t trivial_pass_flag = 1u << 31;

//! How long a onesweep look-back waits for a word of its launch (scan_tile::WaitBound): the
//! policy's LOOKBACK_WAIT_LIMIT_MS where it has one (tests of faults shorten it), else the default.
STRATA_DETAIL_POLICY_MEMBER_OR(onesweep_wait_limit_ms_v, unsigned int, LOOKBACK_WAIT_LIMIT_MS, scan_tile::wait_limit_ms)

//! The look-back word at `at` once it carries `epoch` (one thread waits). A word that does not
//! within the bound (scan_tile::WaitBound: a foreign or overwritten word) comes back as an
//! inclusive word of this launch with no keys, so that the look-back ends there, as at a chain's
//! first tile.
template <unsigned int WAIT_LIMIT_MS>
STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t WaitForEpoch(const ::cuda::std::uint32_t* at,
                                                                    ::cuda::std::uint32_t epoch)
{
  scan_tile::WaitBound<WAIT_LIMIT_MS> bound;
  while (true)
  {
    const ::cuda::std::uint32_t word = LoadRelaxed(at);
    if ((word >> lookback_epoch_shift) == epoch)
    {
      return word;
    }
    if (bound.Reached())
    {
      return (epoch << lookback_epoch_shift) | lookback_inclusive;
    }
  }
}

//! The epoch of the k-th onesweep launch of a sort (1-7). A launch reads the words of the one
//! before and of the one before that (a shorter last portion leaves the tiles past its end), so
//! that cycling through seven epochs never takes a word of an earlier launch for one of this one.
STRATA_HOST_DEVICE constexpr ::cuda::std::uint32_t LookbackEpoch(int launch)
{
  return ::cuda::std::uint32_t(launch % lookback_epochs) + 1;
}
} // namespace radix
} // namespace detail

//! One onesweep launch sorts the keys of one portion by the digit of `num_bits` bits at
//! `current_bit`. Each block takes the next tile from `d_tile_counter` (so every tile it waits for
//! belongs to a running block), loads its keys warp-striped (the order the ranker keeps stable),
//! ranks them, publishes its digit counts to `d_lookback` while it ranks, then sums the counts of
//! earlier tiles per digit until it meets an inclusive one. A key's place is its digit's start in
//! the portion (`d_bins`), plus the earlier tiles' keys of that digit, plus its rank among the
//! tile's keys of the digit; the portion's last tile writes the next portion's digit starts. Keys,
//! then values, go through shared memory in rank order so that each warp's stores are mostly
//! contiguous. Values are read through ValuesInputIteratorT (a pointer, or any random-access
//! iterator in a sort's first pass).
template <typename PolicyT, bool IS_DESCENDING, typename KeyT, typename ValueT, typename OffsetT, typename DecomposerT,
          typename ValuesInputIteratorT = const ValueT*>
struct AgentRadixSortOnesweep
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int RADIX_BITS       = PolicyT::RADIX_BITS;
  static constexpr int RADIX_DIGITS     = 1 << RADIX_BITS;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr bool KEYS_ONLY       = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr int DIGIT_WIDTH      = RADIX_BITS <= 8 ? 8 : 16; // bits of a packed digit
  static constexpr int DIGITS_PER_WORD  = 32 / DIGIT_WIDTH;
  static constexpr int PACKED_WORDS     = (ITEMS_PER_THREAD + DIGITS_PER_WORD - 1) / DIGITS_PER_WORD;

  using traits           = detail::radix::traits_t<KeyT>;
  using bit_ordered_type = typename traits::bit_ordered_type;
  using RankT            = BlockRadixRankMatchEarlyCounts<
      BLOCK_THREADS, RADIX_BITS, IS_DESCENDING, PolicyT::SCAN_ALGORITHM,
      PolicyT::RANK_ALGORITHM == RADIX_RANK_MATCH_EARLY_COUNTS_ANY ? WARP_MATCH_ANY : WARP_MATCH_ATOMIC_OR,
      PolicyT::RANK_NUM_PARTS>;
  static constexpr int BINS_PER_THREAD = RankT::BINS_PER_THREAD;
  static_assert(PolicyT::RANK_ALGORITHM == RADIX_RANK_MATCH_EARLY_COUNTS_ANY
                    || PolicyT::RANK_ALGORITHM == RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR,
                "a onesweep pass needs a ranker that reports digit counts before it ranks: "
                "RADIX_RANK_MATCH_EARLY_COUNTS_ANY or RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR");
  //! Warp-striped single items: item k of lane l of warp w is the tile's item w * 32 * ITEMS + k * 32 + l.
  using TileIoT        = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, 1, detail::warp_threads>;
  using ExchangeValueT = ::cuda::std::conditional_t<KEYS_ONLY, char, ValueT>;

  struct _TempStorage
  {
    union
    {
      typename RankT::TempStorage rank;
      Uninitialized<bit_ordered_type[TILE_ITEMS]> keys;
      Uninitialized<ExchangeValueT[TILE_ITEMS]> values;
    };
    OffsetT digit_offsets[RADIX_DIGITS]; // a key's place: digit_offsets[digit] + its rank
    ::cuda::std::uint32_t tile;          // the tile counter's value: the tile, and the trivial-pass flag
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  _TempStorage& storage;
  const KeyT* d_keys_in;            // the portion's first key
  KeyT* d_keys_out;                 // the whole output: places count from the first key of the sort
  ValuesInputIteratorT d_values_in; // the portion's first value
  ValueT* d_values_out;
  const OffsetT* d_bins; // the portion's digit starts
  OffsetT* d_bins_next;  // the next portion's, which the last tile writes (null for the last portion)
  ::cuda::std::uint32_t* d_lookback;
  ::cuda::std::uint32_t* d_tile_counter;
  OffsetT num_items; // of the portion
  int current_bit;
  int num_bits;
  ::cuda::std::uint32_t epoch;
  DecomposerT decomposer;

  STRATA_DEVICE STRATA_FORCEINLINE AgentRadixSortOnesweep(TempStorage& storage, const KeyT* d_keys_in, KeyT* d_keys_out,
                                                          ValuesInputIteratorT d_values_in, ValueT* d_values_out,
                                                          const OffsetT* d_bins, OffsetT* d_bins_next,
                                                          ::cuda::std::uint32_t* d_lookback,
                                                          ::cuda::std::uint32_t* d_tile_counter, OffsetT num_items,
                                                          int current_bit, int num_bits, ::cuda::std::uint32_t epoch,
                                                          DecomposerT decomposer)
      : storage(storage.Alias())
      , d_keys_in(d_keys_in)
      , d_keys_out(d_keys_out)
      , d_values_in(d_values_in)
      , d_values_out(d_values_out)
      , d_bins(d_bins)
      , d_bins_next(d_bins_next)
      , d_lookback(d_lookback)
      , d_tile_counter(d_tile_counter)
      , num_items(num_items)
      , current_bit(current_bit)
      , num_bits(num_bits)
      , epoch(epoch)
      , decomposer(decomposer)
  {
  }

  //! Bits that rank after every key: the filler of a partial tile's missing items.
  STRATA_DEVICE STRATA_FORCEINLINE bit_ordered_type Filler() const
  {
    return IS_DESCENDING ? traits::to_bit_ordered(decomposer, traits::min_raw_binary_key(decomposer))
                         : traits::to_bit_ordered(decomposer, traits::max_raw_binary_key(decomposer));
  }

  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t Word(bool inclusive, ::cuda::std::uint32_t count) const
  {
    return (epoch << detail::radix::lookback_epoch_shift) | (inclusive ? detail::radix::lookback_inclusive : 0u)
           | count;
  }

  //! A tile of a pass in which every key has one digit: its keys and values keep their order, at
  //! their digit's start plus their place in the portion. The tile still publishes look-back words
  //! of this launch's epoch, so that no later launch takes an older word for one of its own.
  STRATA_DEVICE STRATA_FORCEINLINE void CopyTile(int tile, OffsetT tile_offset, int valid, bool full)
  {
    const int tid = int(threadIdx.x);
#pragma unroll
    for (int j = 0; j < BINS_PER_THREAD; ++j)
    {
      const int digit = tid * BINS_PER_THREAD + j;
      if (digit < RADIX_DIGITS)
      {
        detail::StoreRelaxed(&d_lookback[tile * RADIX_DIGITS + digit], Word(true, 0));
      }
    }
    KeyT keys[ITEMS_PER_THREAD];
    if (full)
    {
      TileIoT::LoadFull(d_keys_in + tile_offset, tid, false, keys);
    }
    else
    {
      TileIoT::LoadPartial(d_keys_in + tile_offset, tid, valid, keys);
    }
    if (!full && TileIoT::ItemIndex(tid, 0) >= valid)
    {
      return; // no item of this thread (no barrier follows)
    }
    bit_ordered_type first = traits::to_bit_ordered(decomposer, ::cuda::std::bit_cast<bit_ordered_type>(keys[0]));
    const auto extractor =
        traits::template digit_extractor<ShiftDigitExtractor<KeyT>>(current_bit, num_bits, decomposer);
    const OffsetT place = d_bins[extractor.Digit(first)] + tile_offset;
    if (full)
    {
      TileIoT::StoreFull(d_keys_out + place, tid, false, keys);
    }
    else
    {
      TileIoT::StorePartial(d_keys_out + place, tid, valid, keys);
    }
    if constexpr (!KEYS_ONLY)
    {
      ValueT values[ITEMS_PER_THREAD];
      if (full)
      {
        TileIoT::LoadFull(d_values_in + tile_offset, tid, false, values);
        TileIoT::StoreFull(d_values_out + place, tid, false, values);
      }
      else
      {
        TileIoT::LoadPartial(d_values_in + tile_offset, tid, valid, values);
        TileIoT::StorePartial(d_values_out + place, tid, valid, values);
      }
    }
  }

  //! The next tile of this launch, in the order blocks start (so every tile a block waits for
  //! belongs to a running block), with the trivial-pass flag of the pass.
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t NextTile()
  {
    if (threadIdx.x == 0)
    {
      storage.tile = atomicAdd(d_tile_counter, 1u);
    }
    __syncthreads();
    return storage.tile;
  }

  //! One tile of the portion: the next from the tile counter.
  STRATA_DEVICE STRATA_FORCEINLINE void Process()
  {
    const ::cuda::std::uint32_t counter = NextTile();
    const int tile                      = int(counter & ~detail::radix::trivial_pass_flag);
    const OffsetT tile_offset           = OffsetT(tile) * OffsetT(TILE_ITEMS);
    const int valid                     = detail::tile::ValidItems<TILE_ITEMS>(num_items, tile_offset);
    if (counter & detail::radix::trivial_pass_flag)
    {
      CopyTile(tile, tile_offset, valid, valid == TILE_ITEMS);
      return;
    }
    ProcessTile(tile, tile_offset, valid, 0, d_bins);
  }

  //! Ranks and scatters the `valid` keys at `tile_offset` (tile `tile` of this launch's look-back
  //! words). The look-back runs back to `first_tile`, the first tile of the tile's chain, whose
  //! digit starts are `bins`: a plain sort's chain is its portion; a segmented sort's, the tiles of
  //! one segment (DeviceSegmentedRadixSort).
  STRATA_DEVICE STRATA_FORCEINLINE void ProcessTile(int tile, OffsetT tile_offset, int valid, int first_tile,
                                                    const OffsetT* bins)
  {
    const int tid   = int(threadIdx.x);
    const bool full = valid == TILE_ITEMS;

    // The tile's keys as ordered bits; missing items of a partial tile rank last.
    KeyT raw_keys[ITEMS_PER_THREAD];
    if (full)
    {
      TileIoT::LoadFull(d_keys_in + tile_offset, tid, false, raw_keys);
    }
    else
    {
      TileIoT::LoadPartial(d_keys_in + tile_offset, tid, valid, raw_keys);
    }
    bit_ordered_type keys[ITEMS_PER_THREAD];
    const bit_ordered_type filler = Filler();
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      keys[k] = full || TileIoT::ItemIndex(tid, k) < valid
                    ? traits::to_bit_ordered(decomposer, ::cuda::std::bit_cast<bit_ordered_type>(raw_keys[k]))
                    : filler;
    }

    const auto extractor =
        traits::template digit_extractor<ShiftDigitExtractor<KeyT>>(current_bit, num_bits, decomposer);
    bit_ordered_type filler_copy = filler;
    const int filler_digit       = int(extractor.Digit(filler_copy));

    // Rank; the tile's digit counts (without the fillers) are published as soon as they are known.
    int ranks[ITEMS_PER_THREAD];
    int exclusive_digit_prefix[BINS_PER_THREAD];
    ::cuda::std::uint32_t tile_counts[BINS_PER_THREAD];
    RankT(storage.rank)
        .RankKeys(keys, ranks, extractor, exclusive_digit_prefix,
                  [&](int(&bins)[BINS_PER_THREAD])
                  {
#pragma unroll
                    for (int j = 0; j < BINS_PER_THREAD; ++j)
                    {
                      const int digit = tid * BINS_PER_THREAD + j;
                      if (digit < RADIX_DIGITS)
                      {
                        tile_counts[j] =
                            ::cuda::std::uint32_t(bins[j] - (digit == filler_digit ? TILE_ITEMS - valid : 0));
                        detail::StoreRelaxed(&d_lookback[tile * RADIX_DIGITS + digit],
                                             Word(tile == first_tile, tile_counts[j]));
                      }
                    }
                  });

    // Look back: the keys of each digit in the tiles before this one.
#pragma unroll
    for (int j = 0; j < BINS_PER_THREAD; ++j)
    {
      const int digit = tid * BINS_PER_THREAD + j;
      if (digit < RADIX_DIGITS)
      {
        ::cuda::std::uint32_t before = 0;
        if (tile > first_tile)
        {
          // Ends at an inclusive word or at the chain's first tile, whatever its word says.
          int predecessor = tile - 1;
          while (true)
          {
            const ::cuda::std::uint32_t* at = &d_lookback[predecessor * RADIX_DIGITS + digit];
            ::cuda::std::uint32_t word      = detail::LoadRelaxed(at);
            if ((word >> detail::radix::lookback_epoch_shift) != epoch)
            {
              word = detail::radix::WaitForEpoch<detail::radix::onesweep_wait_limit_ms_v<PolicyT>>(at, epoch);
            }
            before += word & detail::radix::lookback_count_mask;
            if ((word & detail::radix::lookback_inclusive) || predecessor <= first_tile)
            {
              break;
            }
            --predecessor;
          }
          detail::StoreRelaxed(&d_lookback[tile * RADIX_DIGITS + digit], Word(true, before + tile_counts[j]));
        }
        storage.digit_offsets[digit] = bins[digit] + OffsetT(before) - OffsetT(exclusive_digit_prefix[j]);
        // The next portion's keys of a digit follow this portion's: the last tile knows how many.
        if (d_bins_next != nullptr && tile_offset + OffsetT(TILE_ITEMS) >= num_items)
        {
          d_bins_next[digit] = bins[digit] + OffsetT(before) + OffsetT(tile_counts[j]);
        }
      }
    }
    __syncthreads(); // the offsets are in place, and the ranker's storage is free

    // Keys in rank order through shared memory, then to their places.
    bit_ordered_type* shared_keys = storage.keys.Alias();
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      shared_keys[ranks[k]] = keys[k];
    }
    __syncthreads();
    // The digits of the keys this thread stores, packed into words for the values' stores: a place
    // per key would hold one or two registers each through the values' load.
    ::cuda::std::uint32_t packed_digits[KEYS_ONLY ? 1 : PACKED_WORDS] = {};
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int rank = k * BLOCK_THREADS + tid;
      if (full || rank < valid)
      {
        bit_ordered_type key              = shared_keys[rank];
        const ::cuda::std::uint32_t digit = extractor.Digit(key);
        d_keys_out[storage.digit_offsets[digit] + OffsetT(rank)] =
            ::cuda::std::bit_cast<KeyT>(traits::from_bit_ordered(decomposer, key));
        if constexpr (!KEYS_ONLY)
        {
          packed_digits[k / DIGITS_PER_WORD] |= digit << (DIGIT_WIDTH * (k % DIGITS_PER_WORD));
        }
      }
    }

    if constexpr (!KEYS_ONLY)
    {
      // Values are loaded only now: they hold no registers while the keys are ranked.
      ValueT values[ITEMS_PER_THREAD];
      if (full)
      {
        TileIoT::LoadFull(d_values_in + tile_offset, tid, false, values);
      }
      else
      {
        TileIoT::LoadPartial(d_values_in + tile_offset, tid, valid, values);
      }
      __syncthreads(); // every key is read before values take their room
      ValueT* shared_values = storage.values.Alias();
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        if (full || TileIoT::ItemIndex(tid, k) < valid)
        {
          shared_values[ranks[k]] = values[k];
        }
      }
      __syncthreads();
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        const int rank = k * BLOCK_THREADS + tid;
        if (full || rank < valid)
        {
          const ::cuda::std::uint32_t digit =
              (packed_digits[k / DIGITS_PER_WORD] >> (DIGIT_WIDTH * (k % DIGITS_PER_WORD))) & (RADIX_DIGITS - 1);
          d_values_out[storage.digit_offsets[digit] + OffsetT(rank)] = shared_values[rank];
        }
      }
    }
  }
};

//! Turns the digit counts of a onesweep sort into the digit starts of each pass's first portion,
//! in place (a block of one thread per digit per pass; the pass is the block's index): a digit
//! starts after every key of the digits that sort before it (lower digits, higher ones when
//! descending). A later portion's starts come from the onesweep launch of the portion before it,
//! since a pass moves keys between portions. A pass whose keys all have one digit moves no key:
//! its tile counters get the trivial-pass flag and its later portions their starts here, and its
//! tiles are copied (AgentRadixSortOnesweep).
template <int RADIX_BITS, bool IS_DESCENDING, typename OffsetT>
struct AgentRadixSortExclusiveSum
{
  static constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
  using BlockScanT                  = BlockScan<OffsetT, RADIX_DIGITS>;
  using TempStorage                 = typename BlockScanT::TempStorage;

  TempStorage& temp_storage;

  STRATA_DEVICE STRATA_FORCEINLINE explicit AgentRadixSortExclusiveSum(TempStorage& temp_storage)
      : temp_storage(temp_storage)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Process(OffsetT* d_bins, ::cuda::std::uint32_t* d_tile_counters,
                                                int num_portions, OffsetT portion_items)
  {
    const unsigned pass                  = blockIdx.x;
    const int digit                      = int(threadIdx.x);
    const ::cuda::std::size_t pass_first = ::cuda::std::size_t(pass) * num_portions * RADIX_DIGITS;
    OffsetT total                        = 0;
    for (int portion = 0; portion < num_portions; ++portion)
    {
      total += d_bins[pass_first + ::cuda::std::size_t(portion) * RADIX_DIGITS + digit];
    }
    OffsetT start = 0;
    OffsetT all   = 0;
    BlockScanT(temp_storage).ExclusiveSum(total, start, all); // every count is read before any start is written
    start                      = IS_DESCENDING ? all - start - total : start;
    d_bins[pass_first + digit] = start;
    const bool holds_all       = total == all;
    if (__syncthreads_or(holds_all))
    {
      for (int portion = 1; holds_all && portion < num_portions; ++portion)
      {
        d_bins[pass_first + ::cuda::std::size_t(portion) * RADIX_DIGITS + digit] =
            start + OffsetT(portion) * portion_items;
      }
      for (int portion = digit; portion < num_portions; portion += RADIX_DIGITS)
      {
        d_tile_counters[::cuda::std::size_t(pass) * num_portions + portion] = detail::radix::trivial_pass_flag;
      }
    }
  }
};

STRATA_NAMESPACE_END

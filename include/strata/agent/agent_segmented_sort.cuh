// strata/agent/agent_segmented_sort.cuh: the agents of the segmented sorts' short segments: a
// segment sorted by a few lanes of a warp (WarpMergeSort on ordered key bits) or by a block in
// shared memory (BlockRadixSort).
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/thread/thread_sort.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_merge_sort.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace segmented_sort
{
using offset_t = ::cuda::std::uint64_t;

//! The bins of segments a sorter takes whole (the policy's Tiny, Small, Medium, Large), and the
//! bin of long segments (onesweep passes).
inline constexpr int sorter_bins = 4;
inline constexpr int long_bin    = 4;
//! A tile that belongs to no segment (a long segment past the room the host sized).
inline constexpr ::cuda::std::uint32_t no_chain = 0xFFFFFFFFu;
inline constexpr int classify_threads           = 256;
inline constexpr int classify_segments          = 4; // per thread and round
inline constexpr int warp_sorter_threads        = 256;

//! A long segment: its items, its onesweep tiles (numbered across all long segments) and its
//! chains (runs of its tiles inside one launch window; chains == 0: dropped).
struct LongSegment
{
  offset_t begin;
  offset_t end;
  ::cuda::std::uint32_t first_tile;
  ::cuda::std::uint32_t tiles;
  ::cuda::std::uint32_t first_chain;
  ::cuda::std::uint32_t chains;
};

//! The tiles of one look-back chain: items [begin, end) from tile first_tile on; has_next when the
//! segment's next chain follows (in the next window).
struct Chain
{
  offset_t begin;
  offset_t end;
  ::cuda::std::uint32_t first_tile;
  ::cuda::std::uint32_t has_next;
};

//! What the binning writes: the segments of each bin, the long segments, their tiles and chains.
struct Counters
{
  unsigned long long bin[5];
  ::cuda::std::uint32_t tiles;
  ::cuda::std::uint32_t chains;
};

//! The room the host sized for each bin, tile and chain.
struct Capacity
{
  unsigned long long bin[5];
  ::cuda::std::uint32_t max_tiles;
  ::cuda::std::uint32_t max_chains;
  ::cuda::std::uint32_t window_tiles;
};

//! A segment's items, clamped to [0, num_items).
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void SegmentRange(BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                                                   ::cuda::std::int64_t segment, offset_t num_items, offset_t& begin,
                                                   offset_t& end)
{
  const long long b = static_cast<long long>(d_begin[segment]);
  const long long e = static_cast<long long>(d_end[segment]);
  begin             = b < 0 ? 0 : (offset_t(b) > num_items ? num_items : offset_t(b));
  end               = e < 0 ? 0 : (offset_t(e) > num_items ? num_items : offset_t(e));
  end               = end < begin ? begin : end;
}

//! Orders ordered key bits (the radix sort's twiddled bits) by their bits [begin_bit, begin_bit +
//! num_bits), -0.0 as +0.0, ascending or descending: the order of a radix sort of that bit range,
//! so that a stable merge sort with it matches a stable radix sort.
template <typename KeyT, bool IS_DESCENDING>
struct BitRangeOrder
{
  using bits_t = typename Traits<KeyT>::UnsignedBits;
  int begin_bit;
  bits_t mask;

  STRATA_HOST_DEVICE BitRangeOrder(int begin_bit, int end_bit)
      : begin_bit(end_bit > begin_bit ? begin_bit : 0)
      , mask(end_bit - begin_bit >= int(sizeof(bits_t) * 8) ? bits_t(~bits_t(0))
             : end_bit > begin_bit                          ? bits_t((bits_t(1) << (end_bit - begin_bit)) - 1)
                                                            : bits_t(0))
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE bits_t Field(bits_t key) const
  {
    return bits_t(MergeFloatZeros<KeyT>(key) >> begin_bit) & mask;
  }

  STRATA_DEVICE STRATA_FORCEINLINE bool operator()(bits_t a, bits_t b) const
  {
    return IS_DESCENDING ? Field(b) < Field(a) : Field(a) < Field(b);
  }
};

//! One segment of at most LANES * ITEMS keys sorted by a logical warp of LANES lanes: the keys
//! (blocked: lane l holds items l * ITEMS ...) as ordered bits, missing ones filled with bits that
//! order last, a stable WarpMergeSort, and the first `count` stored back.
template <int LANES, int ITEMS, bool IS_DESCENDING, typename KeyT, typename ValueT>
struct AgentSegmentWarpSort
{
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  using bits_t                    = typename Traits<KeyT>::UnsignedBits;
  using SortT                     = WarpMergeSort<bits_t, ITEMS, LANES, ValueT>;
  using TempStorage               = typename SortT::TempStorage;
  static constexpr int TILE_ITEMS = LANES * ITEMS;

  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE static void Sort(TempStorage& storage, int lane, const KeyT* keys_in, KeyT* keys_out,
                                                    const ValueT* values_in, ValueT* values_out, OffsetT begin,
                                                    int count, BitRangeOrder<KeyT, IS_DESCENDING> order)
  {
    const bits_t filler = IS_DESCENDING ? bits_t(0) : bits_t(~bits_t(0));
    bits_t keys[ITEMS];
    ValueT values[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
    {
      const int i = lane * ITEMS + k;
      keys[k]     = i < count ? Traits<KeyT>::TwiddleIn(::cuda::std::bit_cast<bits_t>(keys_in[begin + i])) : filler;
      if constexpr (!KEYS_ONLY)
      {
        if (i < count)
        {
          values[k] = values_in[begin + i];
        }
      }
    }
    if constexpr (KEYS_ONLY)
    {
      SortT(storage).StableSort(keys, order);
    }
    else
    {
      SortT(storage).StableSort(keys, values, order);
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
    {
      const int i = lane * ITEMS + k;
      if (i < count)
      {
        keys_out[begin + i] = ::cuda::std::bit_cast<KeyT>(Traits<KeyT>::TwiddleOut(keys[k]));
        if constexpr (!KEYS_ONLY)
        {
          values_out[begin + i] = values[k];
        }
      }
    }
  }
};

//! Segments of at most 32 keys, one per thread: a warp takes 32 segments at once. The warp
//! stages each segment's keys (and values) into a row of shared memory with coalesced loads, each
//! thread sorts its row in registers (a bitonic network over the key bits with the item's place
//! below them, so equal keys keep their order; integer keys sorted by all their bits without
//! values need no place), and the warp writes the rows back with coalesced stores.
template <bool IS_DESCENDING, typename KeyT, typename ValueT>
struct AgentSegmentThreadSort
{
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr int MAX_ITEMS  = 32;
  static constexpr int ROW        = MAX_ITEMS + 1; // rows one bank apart: a thread per row, conflict-free
  using bits_t                    = typename Traits<KeyT>::UnsignedBits;
  using ValueStorageT             = ::cuda::std::conditional_t<KEYS_ONLY, char, ValueT>;
  //! Keys whose bits order them as themselves: integers (floats have two zeros that must stay
  //! in order).
  static constexpr bool PLAIN_BITS = Traits<KeyT>::CATEGORY != FLOATING_POINT && sizeof(bits_t) <= 4;
  //! Rows the network sorts by the keys' bits alone, values in registers beside them.
  static constexpr bool PLAIN_FIT = PLAIN_BITS && (KEYS_ONLY || sizeof(ValueT) <= 8);

  struct TempStorage
  {
    bits_t keys[detail::warp_threads][ROW];
    ValueStorageT values[KEYS_ONLY ? 1 : detail::warp_threads][ROW];
  };

  //! A thread's row as ordered key bits (inverted when descending; missing keys last) and values.
  STRATA_DEVICE STRATA_FORCEINLINE static void LoadRow(TempStorage& storage, int lane, int count,
                                                       bits_t (&items)[MAX_ITEMS],
                                                       ValueStorageT (&values)[KEYS_ONLY ? 1 : MAX_ITEMS])
  {
#pragma unroll
    for (int k = 0; k < MAX_ITEMS; ++k)
    {
      const bits_t bits = Traits<KeyT>::TwiddleIn(storage.keys[lane][k]);
      items[k]          = k < count ? (IS_DESCENDING ? bits_t(~bits) : bits) : bits_t(~bits_t(0));
      if constexpr (!KEYS_ONLY)
      {
        values[k] = storage.values[lane][k];
      }
    }
  }

  //! PLAIN: PLAIN_FIT keys and values, sorted by all the keys' bits (the caller checks).
  template <bool PLAIN, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE static void Sort(TempStorage& storage, int lane, const KeyT* keys_in, KeyT* keys_out,
                                                    const ValueT* values_in, ValueT* values_out, bool has_segment,
                                                    OffsetT begin, int count, BitRangeOrder<KeyT, IS_DESCENDING> order)
  {
    static_assert(!PLAIN || PLAIN_FIT, "the plain network sorts integer keys, with values of at most 8 bytes");
    count = has_segment ? count : 0;
    // Stage: segment j's items go to row j, lane i loading item i; BATCH segments' loads are in
    // flight before their stores to shared memory (which the compiler may not move past them).
    constexpr int BATCH = 8;
#pragma unroll 1
    for (int j0 = 0; j0 < detail::warp_threads; j0 += BATCH)
    {
      bits_t keys[BATCH];
      ValueStorageT values[KEYS_ONLY ? 1 : BATCH];
      int counts[BATCH];
#pragma unroll
      for (int jj = 0; jj < BATCH; ++jj)
      {
        const OffsetT b = __shfl_sync(0xFFFFFFFFu, begin, j0 + jj);
        counts[jj]      = __shfl_sync(0xFFFFFFFFu, count, j0 + jj);
        if (lane < counts[jj])
        {
          keys[jj] = ::cuda::std::bit_cast<bits_t>(keys_in[b + lane]);
          if constexpr (!KEYS_ONLY)
          {
            values[jj] = values_in[b + lane];
          }
        }
      }
#pragma unroll
      for (int jj = 0; jj < BATCH; ++jj)
      {
        if (lane < counts[jj])
        {
          storage.keys[j0 + jj][lane] = keys[jj];
          if constexpr (!KEYS_ONLY)
          {
            storage.values[j0 + jj][lane] = values[jj];
          }
        }
      }
    }
    __syncwarp();
    if constexpr (PLAIN)
    {
      // Sorted by their whole ordered bits (inverted when descending), values moving with them.
      bits_t items[MAX_ITEMS];
      ValueStorageT values[KEYS_ONLY ? 1 : MAX_ITEMS];
      LoadRow(storage, lane, count, items, values);
      if constexpr (KEYS_ONLY)
      {
        ThreadBitonicSort(items);
      }
      else
      {
        // The network does not keep equal keys in order: a row with equal keys sorts again,
        // stably (odd-even transposition), which random keys almost never need. A key equal to
        // the filler (all bits set) counts too: the network may have put a filler before it.
        ThreadBitonicSortPairs(items, values);
        bool equal = false;
#pragma unroll
        for (int k = 0; k + 1 < MAX_ITEMS; ++k)
        {
          equal |= k < count && items[k] == items[k + 1];
        }
        if (equal)
        {
          LoadRow(storage, lane, count, items, values);
          StableOddEvenSort(items, values, ::cuda::std::less<>{}); // stable
        }
      }
#pragma unroll
      for (int k = 0; k < MAX_ITEMS; ++k)
      {
        if (k < count)
        {
          storage.keys[lane][k] = Traits<KeyT>::TwiddleOut(IS_DESCENDING ? bits_t(~items[k]) : items[k]);
          if constexpr (!KEYS_ONLY)
          {
            storage.values[lane][k] = values[k];
          }
        }
      }
    }
    else
    {
      // Sort (key field, place) pairs, then gather keys and values by place.
      using packed_t = ::cuda::std::conditional_t<(sizeof(bits_t) <= 4), ::cuda::std::uint64_t, void>;
      // The sorted places, a byte each: the network's items are dead before the gather's loads.
      ::cuda::std::uint32_t places[MAX_ITEMS / 4] = {};
      if constexpr (sizeof(bits_t) <= 4)
      {
        ::cuda::std::uint64_t items[MAX_ITEMS];
#pragma unroll
        for (int k = 0; k < MAX_ITEMS; ++k)
        {
          const bits_t field = order.Field(Traits<KeyT>::TwiddleIn(storage.keys[lane][k]));
          const bits_t rank  = IS_DESCENDING ? bits_t(order.mask - field) : field;
          items[k]           = k < count ? (packed_t(rank) << 5) | packed_t(k) : ~packed_t(0);
        }
        ThreadBitonicSort(items);
#pragma unroll
        for (int k = 0; k < MAX_ITEMS; ++k)
        {
          places[k / 4] |= ::cuda::std::uint32_t(items[k] & 31u) << (8 * (k % 4));
        }
      }
      else
      {
        // Wide keys: the field and the place compared as a pair.
        struct Item
        {
          bits_t field;
          int place;
          STRATA_DEVICE STRATA_FORCEINLINE bool operator<(const Item& other) const
          {
            return field < other.field || (field == other.field && place < other.place);
          }
        };
        Item items[MAX_ITEMS];
#pragma unroll
        for (int k = 0; k < MAX_ITEMS; ++k)
        {
          const bits_t field = order.Field(Traits<KeyT>::TwiddleIn(storage.keys[lane][k]));
          items[k]           = k < count ? Item{IS_DESCENDING ? bits_t(order.mask - field) : field, k}
                                         : Item{bits_t(~bits_t(0)), MAX_ITEMS};
        }
        ThreadBitonicSort(items);
#pragma unroll
        for (int k = 0; k < MAX_ITEMS; ++k)
        {
          places[k / 4] |= ::cuda::std::uint32_t(items[k].place & 31) << (8 * (k % 4));
        }
      }
      bits_t keys[MAX_ITEMS];
      ValueStorageT values[KEYS_ONLY ? 1 : MAX_ITEMS];
#pragma unroll
      for (int k = 0; k < MAX_ITEMS; ++k)
      {
        if (k < count)
        {
          const int place = int((places[k / 4] >> (8 * (k % 4))) & 0xFFu);
          keys[k]         = storage.keys[lane][place];
          if constexpr (!KEYS_ONLY)
          {
            values[k] = storage.values[lane][place];
          }
        }
      }
#pragma unroll
      for (int k = 0; k < MAX_ITEMS; ++k)
      {
        if (k < count)
        {
          storage.keys[lane][k] = keys[k];
          if constexpr (!KEYS_ONLY)
          {
            storage.values[lane][k] = values[k];
          }
        }
      }
    }
    __syncwarp();
    // Write back: row j to segment j, lane i storing item i.
#pragma unroll 1
    for (int j0 = 0; j0 < detail::warp_threads; j0 += BATCH)
    {
      bits_t keys[BATCH];
      ValueStorageT values[KEYS_ONLY ? 1 : BATCH];
#pragma unroll
      for (int jj = 0; jj < BATCH; ++jj)
      {
        keys[jj] = storage.keys[j0 + jj][lane];
        if constexpr (!KEYS_ONLY)
        {
          values[jj] = storage.values[j0 + jj][lane];
        }
      }
#pragma unroll
      for (int jj = 0; jj < BATCH; ++jj)
      {
        const OffsetT b = __shfl_sync(0xFFFFFFFFu, begin, j0 + jj);
        const int n     = __shfl_sync(0xFFFFFFFFu, count, j0 + jj);
        if (lane < n)
        {
          keys_out[b + lane] = ::cuda::std::bit_cast<KeyT>(keys[jj]);
          if constexpr (!KEYS_ONLY)
          {
            values_out[b + lane] = values[jj];
          }
        }
      }
    }
    __syncwarp(); // the rows are free for the warp's next segments
  }
};

//! One segment of at most BLOCK_THREADS * ITEMS keys sorted by a block: loaded blocked, the
//! missing keys filled with the key that sorts last, BlockRadixSort by the bit range, stored
//! striped.
template <int BLOCK_THREADS, int ITEMS, bool IS_DESCENDING, typename KeyT, typename ValueT>
struct AgentSegmentBlockSort
{
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS;
  using SortT                     = BlockRadixSort<KeyT, BLOCK_THREADS, ITEMS, ValueT, 4>;
  using TempStorage               = typename SortT::TempStorage;
  using BlockedT                  = tile::TileIo<BLOCK_THREADS, ITEMS, 1, 1>;
  using StripedT                  = tile::TileIo<BLOCK_THREADS, ITEMS>;

  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE static void Sort(TempStorage& storage, const KeyT* keys_in, KeyT* keys_out,
                                                    const ValueT* values_in, ValueT* values_out, OffsetT begin,
                                                    int count, int begin_bit, int end_bit)
  {
    const int tid     = int(threadIdx.x);
    const KeyT filler = ::cuda::std::bit_cast<KeyT>(RadixSortTwiddle<IS_DESCENDING, KeyT>::DefaultKey());
    KeyT keys[ITEMS];
    ValueT values[ITEMS];
    BlockedT::LoadPartial(keys_in + begin, tid, count, keys, filler);
    if constexpr (!KEYS_ONLY)
    {
      BlockedT::LoadPartial(values_in + begin, tid, count, values);
    }
    if (end_bit > begin_bit)
    {
      if constexpr (KEYS_ONLY)
      {
        IS_DESCENDING ? SortT(storage).SortDescendingBlockedToStriped(keys, begin_bit, end_bit)
                      : SortT(storage).SortBlockedToStriped(keys, begin_bit, end_bit);
      }
      else
      {
        IS_DESCENDING ? SortT(storage).SortDescendingBlockedToStriped(keys, values, begin_bit, end_bit)
                      : SortT(storage).SortBlockedToStriped(keys, values, begin_bit, end_bit);
      }
      StripedT::StorePartial(keys_out + begin, tid, count, keys);
      if constexpr (!KEYS_ONLY)
      {
        StripedT::StorePartial(values_out + begin, tid, count, values);
      }
    }
    else
    {
      // No bits to sort by: every key is equal, and the segment keeps its order.
      BlockedT::StorePartial(keys_out + begin, tid, count, keys);
      if constexpr (!KEYS_ONLY)
      {
        BlockedT::StorePartial(values_out + begin, tid, count, values);
      }
    }
    __syncthreads(); // the block's storage is free for its next segment
  }
};
//! Bins segments by length for DeviceSegmentedSort (a block of classify_threads): each block takes
//! rounds of classify_threads * classify_segments segments, counts each bin's in shared memory,
//! takes the bins' room with one atomic per bin, and writes the segment numbers. A long segment
//! also takes its onesweep tiles (of TILE_ITEMS) and a chain for each launch window they touch.
//! PolicyT: the active policy (its bins' MAX_ITEMS).
template <typename PolicyT, int TILE_ITEMS, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
struct AgentSegmentBinning
{
  struct TempStorage
  {
    unsigned int counts[5];
    unsigned long long bases[5];
  };

  TempStorage& storage;
  BeginOffsetIteratorT d_begin;
  EndOffsetIteratorT d_end;
  ::cuda::std::int64_t num_segments;
  offset_t num_items;
  Counters* d_counters;
  Capacity capacity;

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentBinning(TempStorage& storage, BeginOffsetIteratorT d_begin,
                                                       EndOffsetIteratorT d_end, ::cuda::std::int64_t num_segments,
                                                       offset_t num_items, Counters* d_counters, Capacity capacity)
      : storage(storage)
      , d_begin(d_begin)
      , d_end(d_end)
      , num_segments(num_segments)
      , num_items(num_items)
      , d_counters(d_counters)
      , capacity(capacity)
  {
  }

  //! Writes each segment's number to its bin (d_bin0 ... d_bin3), or a long segment's entry to d_long.
  STRATA_DEVICE STRATA_FORCEINLINE void Process(::cuda::std::int64_t* d_bin0, ::cuda::std::int64_t* d_bin1,
                                                ::cuda::std::int64_t* d_bin2, ::cuda::std::int64_t* d_bin3,
                                                LongSegment* d_long)
  {
    constexpr int THREADS         = classify_threads;
    constexpr int PER_THREAD      = classify_segments;
    constexpr long long ROUND     = THREADS * PER_THREAD;
    constexpr offset_t TILE       = offset_t(TILE_ITEMS);
    unsigned int* counts          = storage.counts;
    unsigned long long* bases     = storage.bases;
    ::cuda::std::int64_t* bins[4] = {d_bin0, d_bin1, d_bin2, d_bin3};
    const int tid                 = int(threadIdx.x);
    for (long long round = (long long)blockIdx.x * ROUND; round < num_segments; round += (long long)gridDim.x * ROUND)
    {
      if (tid < 5)
      {
        counts[tid] = 0;
      }
      __syncthreads();
      int bin[PER_THREAD];
      unsigned int slot[PER_THREAD];
      offset_t begin[PER_THREAD];
      offset_t end[PER_THREAD];
#pragma unroll
      for (int k = 0; k < PER_THREAD; ++k)
      {
        const long long segment = round + k * THREADS + tid;
        bin[k]                  = -1;
        if (segment < num_segments)
        {
          SegmentRange(d_begin, d_end, segment, num_items, begin[k], end[k]);
          const offset_t length = end[k] - begin[k];
          if (length > 0)
          {
            bin[k] = length <= offset_t(PolicyT::TinyPolicy::MAX_ITEMS)     ? 0
                     : length <= offset_t(PolicyT::SmallPolicy::MAX_ITEMS)  ? 1
                     : length <= offset_t(PolicyT::MediumPolicy::MAX_ITEMS) ? 2
                     : length <= offset_t(PolicyT::LargePolicy::MAX_ITEMS)  ? 3
                                                                            : long_bin;
          }
        }
        // One shared atomic per bin and warp: the lanes of a bin take consecutive slots.
        const unsigned lane = unsigned(tid) % detail::warp_threads;
#pragma unroll
        for (int b = 0; b < 5; ++b)
        {
          const unsigned mask = __ballot_sync(0xFFFFFFFFu, bin[k] == b);
          if (mask != 0)
          {
            const unsigned leader = unsigned(__ffs(mask)) - 1;
            unsigned first        = 0;
            if (lane == leader)
            {
              first = atomicAdd(&counts[b], unsigned(__popc(mask)));
            }
            first = __shfl_sync(0xFFFFFFFFu, first, int(leader));
            if (bin[k] == b)
            {
              slot[k] = first + unsigned(__popc(mask & ((1u << lane) - 1u)));
            }
          }
        }
      }
      __syncthreads();
      if (tid < 5 && counts[tid] != 0)
      {
        bases[tid] = atomicAdd(&d_counters->bin[tid], (unsigned long long)counts[tid]);
      }
      __syncthreads();
#pragma unroll
      for (int k = 0; k < PER_THREAD; ++k)
      {
        if (bin[k] < 0)
        {
          continue;
        }
        const unsigned long long index = bases[bin[k]] + slot[k];
        if (index >= capacity.bin[bin[k]])
        {
          continue; // more items in segments than num_items (overlapping segments): not sorted
        }
        const long long segment = round + k * THREADS + tid;
        if (bin[k] < sorter_bins)
        {
          bins[bin[k]][index] = segment;
          continue;
        }
        // A long segment: its tiles, and a chain for each launch window they touch.
        const offset_t tiles              = (end[k] - begin[k] + TILE - 1) / TILE;
        const ::cuda::std::uint32_t first = atomicAdd(&d_counters->tiles, ::cuda::std::uint32_t(tiles));
        LongSegment entry{begin[k], end[k], first, ::cuda::std::uint32_t(tiles), 0, 0};
        if (offset_t(first) + tiles <= offset_t(capacity.max_tiles))
        {
          const ::cuda::std::uint32_t chains =
              (first + ::cuda::std::uint32_t(tiles) - 1) / capacity.window_tiles - first / capacity.window_tiles + 1;
          const ::cuda::std::uint32_t first_chain = atomicAdd(&d_counters->chains, chains);
          if (offset_t(first_chain) + chains <= offset_t(capacity.max_chains))
          {
            entry.first_chain = first_chain;
            entry.chains      = chains;
          }
        }
        d_long[index] = entry;
      }
      __syncthreads(); // the counts are read before the next round clears them
    }
  }
};

//! Lays out the long segments' chains and tiles (a warp per segment): each chain's items and first
//! tile (tiles of TILE_ITEMS), each tile's chain, and zero digit counts (DIGITS a pass) for every
//! pass of every chain.
template <int TILE_ITEMS, int DIGITS>
struct AgentSegmentChains
{
  const Counters* d_counters;
  Capacity capacity;

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentChains(const Counters* d_counters, Capacity capacity)
      : d_counters(d_counters)
      , capacity(capacity)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Process(const LongSegment* d_long, Chain* d_chains,
                                                ::cuda::std::uint32_t* d_tile_chain, offset_t* d_counts, int num_passes)
  {
    constexpr offset_t TILE        = offset_t(TILE_ITEMS);
    const int lane                 = int(threadIdx.x) % detail::warp_threads;
    const unsigned long long warps = (unsigned long long)gridDim.x * (blockDim.x / detail::warp_threads);
    const unsigned long long count = d_counters->bin[long_bin];
    const unsigned long long n     = count < capacity.bin[long_bin] ? count : capacity.bin[long_bin];
    for (unsigned long long e =
             (unsigned long long)blockIdx.x * (blockDim.x / detail::warp_threads) + threadIdx.x / detail::warp_threads;
         e < n; e += warps)
    {
      const LongSegment segment = d_long[e];
      const ::cuda::std::uint32_t last_tile =
          offset_t(segment.first_tile) + segment.tiles < offset_t(capacity.max_tiles)
              ? segment.first_tile + segment.tiles
              : capacity.max_tiles;
      if (segment.chains == 0)
      {
        for (::cuda::std::uint32_t t = segment.first_tile + lane; t < last_tile; t += detail::warp_threads)
        {
          d_tile_chain[t] = no_chain;
        }
        continue;
      }
      const ::cuda::std::uint32_t first_window = segment.first_tile / capacity.window_tiles;
      for (::cuda::std::uint32_t j = 0; j < segment.chains; ++j)
      {
        const ::cuda::std::uint32_t chain        = segment.first_chain + j;
        const ::cuda::std::uint32_t window_first = (first_window + j) * capacity.window_tiles;
        const ::cuda::std::uint32_t first = segment.first_tile > window_first ? segment.first_tile : window_first;
        const ::cuda::std::uint32_t end_tile =
            last_tile < window_first + capacity.window_tiles ? last_tile : window_first + capacity.window_tiles;
        if (lane == 0)
        {
          const offset_t begin = segment.begin + offset_t(first - segment.first_tile) * TILE;
          const offset_t end   = segment.begin + offset_t(end_tile - segment.first_tile) * TILE;
          d_chains[chain] =
              Chain{begin, end < segment.end ? end : segment.end, first, j + 1 < segment.chains ? 1u : 0u};
        }
        for (::cuda::std::uint32_t t = first + lane; t < end_tile; t += detail::warp_threads)
        {
          d_tile_chain[t] = chain;
        }
        for (int pass = 0; pass < num_passes; ++pass)
        {
          for (int digit = lane; digit < DIGITS; digit += detail::warp_threads)
          {
            d_counts[(::cuda::std::size_t(pass) * capacity.max_chains + chain) * DIGITS + digit] = 0;
          }
        }
      }
    }
  }
};

//! Turns each long segment's digit counts (DIGITS a pass) into the digit starts of its first
//! chain, in place (a block of DIGITS threads, one per digit): a digit starts after the segment's
//! keys of the digits that sort before it. A later chain's starts depend on where the pass before
//! left the keys: the chain before it writes them in each pass (AgentRadixSortOnesweep's
//! next-portion starts). Block b works on pass b % num_passes.
template <int DIGITS, bool IS_DESCENDING>
struct AgentSegmentDigitStarts
{
  using BlockScanT  = BlockScan<offset_t, DIGITS>;
  using TempStorage = typename BlockScanT::TempStorage;

  TempStorage& storage;
  const Counters* d_counters;
  Capacity capacity;

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentDigitStarts(TempStorage& storage, const Counters* d_counters,
                                                           Capacity capacity)
      : storage(storage)
      , d_counters(d_counters)
      , capacity(capacity)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Process(const LongSegment* d_long, offset_t* d_counts, int num_passes)
  {
    const int pass                 = int(blockIdx.x) % num_passes;
    const unsigned first_entry     = blockIdx.x / unsigned(num_passes);
    const unsigned stride          = gridDim.x / unsigned(num_passes);
    const int digit                = int(threadIdx.x);
    const unsigned long long count = d_counters->bin[long_bin];
    const unsigned long long n     = count < capacity.bin[long_bin] ? count : capacity.bin[long_bin];
    offset_t* pass_counts          = d_counts + ::cuda::std::size_t(pass) * capacity.max_chains * DIGITS;
    for (unsigned long long e = first_entry; e < n; e += stride)
    {
      const LongSegment segment = d_long[e];
      if (segment.chains == 0)
      {
        continue;
      }
      offset_t total = 0;
      for (::cuda::std::uint32_t j = 0; j < segment.chains; ++j)
      {
        total += pass_counts[::cuda::std::size_t(segment.first_chain + j) * DIGITS + digit];
      }
      offset_t start = 0;
      offset_t all   = 0;
      BlockScanT(storage).ExclusiveSum(total, start, all);
      pass_counts[::cuda::std::size_t(segment.first_chain) * DIGITS + digit] =
          segment.begin + (IS_DESCENDING ? all - start - total : start);
      __syncthreads(); // the scan's storage is free for the next segment
    }
  }
};
} // namespace segmented_sort
} // namespace detail

STRATA_NAMESPACE_END

// strata/agent/agent_segmented_sort.cuh: the agents of the segmented sorts' short segments: a
// segment sorted by a few lanes of a warp (WarpMergeSort on ordered key bits) or by a block in
// shared memory (BlockRadixSort).
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_radix_sort.cuh>
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
} // namespace segmented_sort
} // namespace detail

STRATA_NAMESPACE_END

// strata/block/specializations/block_histogram_sort.cuh: BlockHistogram's BLOCK_HISTO_SORT
// algorithm: sort the tile's bins, then count every bin as the length of its run in the sorted
// tile. Holds the block-wide bin sort it needs (a stable LSD radix sort).
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_scan.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Calls `f(index)` for every index in [0, COUNT), spreading the indices over BLOCK_THREADS
//! threads: thread `linear_tid` takes linear_tid, linear_tid + BLOCK_THREADS, and so on.
template <int BLOCK_THREADS, int COUNT, typename F>
STRATA_DEVICE STRATA_FORCEINLINE void BlockStridedFor(int linear_tid, F f)
{
  constexpr int ROUNDS = (COUNT + BLOCK_THREADS - 1) / BLOCK_THREADS;
#pragma unroll
  for (int round = 0; round < ROUNDS; ++round)
  {
    const int index = round * BLOCK_THREADS + linear_tid;
    if (COUNT % BLOCK_THREADS == 0 || index < COUNT)
    {
      f(index);
    }
  }
}

//! Sorts the bins (integers in [0, BINS)) of a tile of BLOCK_THREADS * ITEMS_PER_THREAD samples
//! into shared memory, with a stable least-significant-digit radix sort over just the bits that
//! BINS needs, a few bits per pass. It serves BLOCK_HISTO_SORT until strata has a BlockRadixSort.
//!
//! One pass ranks every key by its digit:
//! 1. Every warp walks its keys item by item; the lanes holding one digit (found with
//!    `__match_any_sync`) take consecutive ranks after a per-warp, per-digit counter in shared
//!    memory, which the group's lowest lane advances.
//! 2. The lanes of warp 0 scan the counters in (digit, warp) order, so that a counter then holds
//!    the number of keys that precede its warp's keys of its digit in the sorted order.
//! 3. Every key goes to its counter plus its rank within the warp.
//!
//! Within a warp, keys are ranked in (item, lane) order; the next pass reads the sorted tile back
//! in that very order (warp w, item i, lane l takes position w * 32 * ITEMS_PER_THREAD +
//! i * lanes_of_warp_w + l), which keeps the sort stable across passes.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int BINS>
class BlockBinSort
{
public:
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  //! Bits of the largest bin.
  static constexpr int KEY_BITS = ::cuda::std::bit_width(static_cast<unsigned int>(BINS - 1));
  //! The narrowest unsigned integer that holds every bin: it keeps the sorted tile small.
  using KeyT = ::cuda::std::conditional_t<
      (KEY_BITS <= 8), ::cuda::std::uint8_t,
      ::cuda::std::conditional_t<(KEY_BITS <= 16), ::cuda::std::uint16_t, ::cuda::std::uint32_t>>;

private:
  static_assert(BINS >= 2, "sorting needs at least two bins");

  // At most 32 digits keep the counters small enough for one warp to scan quickly; the bits are
  // spread evenly over the passes.
  static constexpr int MAX_RADIX_BITS = 5;
  static constexpr int PASSES         = (KEY_BITS + MAX_RADIX_BITS - 1) / MAX_RADIX_BITS;
  static constexpr int RADIX_BITS     = (KEY_BITS + PASSES - 1) / PASSES;
  static constexpr int RADIX_DIGITS   = 1 << RADIX_BITS;

  static constexpr int WARPS             = (BLOCK_THREADS + warp_threads - 1) / warp_threads;
  static constexpr int LAST_WARP_THREADS = BLOCK_THREADS - (WARPS - 1) * warp_threads;

  // One counter per (digit, warp); COUNTERS of them in scan order, cut into RAKING_THREADS
  // segments of SEGMENT_LENGTH. Segments start SEGMENT_STRIDE (odd) words apart, so that the
  // raking lanes read from distinct banks.
  static constexpr int COUNTERS = RADIX_DIGITS * WARPS;
  static constexpr int RAKING_THREADS =
      static_cast<int>(::cuda::std::bit_floor(static_cast<unsigned int>(ConstexprMin(warp_threads, BLOCK_THREADS))));
  static constexpr int SEGMENT_LENGTH = (COUNTERS + RAKING_THREADS - 1) / RAKING_THREADS;
  static constexpr int SEGMENT_STRIDE = SEGMENT_LENGTH | 1;

  using RakingScanT = WarpScan<unsigned int, RAKING_THREADS>;

  struct _TempStorage
  {
    KeyT keys[TILE_ITEMS];
    unsigned int counters[RAKING_THREADS * SEGMENT_STRIDE];
    typename RakingScanT::TempStorage raking_scan;
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE BlockBinSort(TempStorage& temp_storage, int linear_tid)
      : temp_storage(temp_storage.Alias())
      , linear_tid(linear_tid)
      , warp(linear_tid / warp_threads)
      , lane(linear_tid % warp_threads)
      , warp_lanes((LAST_WARP_THREADS == warp_threads || warp < WARPS - 1) ? warp_threads : LAST_WARP_THREADS)
  {
  }

  //! Sorts the bins in `keys` (a tile in any arrangement) ascending into SortedTile(). Ends with
  //! a barrier, after which every thread may read the whole sorted tile; `keys` is clobbered.
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int pass = 0; pass < PASSES; ++pass)
    {
      BlockStridedFor<BLOCK_THREADS, RAKING_THREADS * SEGMENT_STRIDE>(linear_tid, [this](int slot)
                                                                      { temp_storage.counters[slot] = 0; });
      __syncthreads();

      unsigned int digits[ITEMS_PER_THREAD];
      unsigned int ranks[ITEMS_PER_THREAD];
      RankInWarp(keys, pass * RADIX_BITS, digits, ranks);
      __syncthreads();

      ScanCounters();
      __syncthreads();

#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        temp_storage.keys[temp_storage.counters[CounterSlot(digits[i])] + ranks[i]] = keys[i];
      }
      __syncthreads();

      if (pass + 1 < PASSES)
      {
        const int warp_offset = warp * warp_threads * ITEMS_PER_THREAD;
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          keys[i] = temp_storage.keys[warp_offset + i * warp_lanes + lane];
        }
      }
    }
  }

  //! The sorted tile (TILE_ITEMS keys in shared memory), valid after Sort().
  STRATA_DEVICE STRATA_FORCEINLINE const KeyT* SortedTile() const
  {
    return temp_storage.keys;
  }

private:
  _TempStorage& temp_storage;
  int linear_tid;
  int warp;
  int lane;
  int warp_lanes;

  //! Where the calling warp's counter of `digit` lies.
  STRATA_DEVICE STRATA_FORCEINLINE int CounterSlot(unsigned int digit) const
  {
    const int index = static_cast<int>(digit) * WARPS + warp;
    return (index / SEGMENT_LENGTH) * SEGMENT_STRIDE + index % SEGMENT_LENGTH;
  }

  //! The digit of every key and its rank among the warp's keys of that digit (in (item, lane)
  //! order) after those of earlier items; leaves the warp's digit totals in the counters.
  STRATA_DEVICE STRATA_FORCEINLINE void RankInWarp(const KeyT (&keys)[ITEMS_PER_THREAD], int shift,
                                                   unsigned int (&digits)[ITEMS_PER_THREAD],
                                                   unsigned int (&ranks)[ITEMS_PER_THREAD])
  {
    const unsigned int member_mask = 0xFFFFFFFFu >> (warp_threads - warp_lanes);
    const unsigned int lanes_below = LaneMaskLt();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const unsigned int digit = (static_cast<unsigned int>(keys[i]) >> shift) & (RADIX_DIGITS - 1);
      const unsigned int peers = __match_any_sync(member_mask, digit);
      const int leader         = __ffs(static_cast<int>(peers)) - 1;
      unsigned int warp_count  = 0;
      if (lane == leader)
      {
        unsigned int& counter = temp_storage.counters[CounterSlot(digit)];
        warp_count            = counter;
        counter               = warp_count + static_cast<unsigned int>(__popc(peers));
      }
      warp_count = __shfl_sync(member_mask, warp_count, leader);
      digits[i]  = digit;
      ranks[i]   = warp_count + static_cast<unsigned int>(__popc(peers & lanes_below));
      // The next item's group of this digit may have another leader, which must see the count.
      __syncwarp(member_mask);
    }
  }

  //! Replaces every counter by the sum of the counters before it in (digit, warp) order.
  STRATA_DEVICE STRATA_FORCEINLINE void ScanCounters()
  {
    if (linear_tid < RAKING_THREADS)
    {
      unsigned int* segment = temp_storage.counters + linear_tid * SEGMENT_STRIDE;
      unsigned int sum      = 0;
#pragma unroll
      for (int j = 0; j < SEGMENT_LENGTH; ++j)
      {
        sum += segment[j];
      }
      unsigned int prefix;
      RakingScanT(temp_storage.raking_scan).ExclusiveSum(sum, prefix);
#pragma unroll
      for (int j = 0; j < SEGMENT_LENGTH; ++j)
      {
        const unsigned int count = segment[j];
        segment[j]               = prefix;
        prefix += count;
      }
    }
  }
};

//! Composites samples into a histogram by sorting their bins (BlockBinSort) and then reading each
//! bin's count as the length of its run in the sorted tile. Every bin of the histogram is then
//! updated by one thread with a plain read-modify-write, so the histogram (shared or global
//! memory) must not be updated by other blocks at the same time. Its speed does not depend on
//! how the samples are distributed over the bins.
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
class BlockHistogramSort
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE_ITEMS    = BLOCK_THREADS * ITEMS_PER_THREAD;

  // With a single bin there is nothing to sort: every sample falls into bin 0.
  using BinSortT = BlockBinSort<BLOCK_THREADS, ITEMS_PER_THREAD, (BINS > 1 ? BINS : 2)>;
  using KeyT     = typename BinSortT::KeyT;

  struct _TempStorage
  {
    typename BinSortT::TempStorage sort;
    // Bin b's samples occupy positions [run_begin[b], run_end[b]) of the sorted tile; an empty
    // bin keeps the initial [TILE_ITEMS, TILE_ITEMS).
    unsigned int run_begin[BINS];
    unsigned int run_end[BINS];
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockHistogramSort(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
    if constexpr (BINS == 1)
    {
      if (linear_tid == 0)
      {
        histogram[0] += static_cast<CounterT>(TILE_ITEMS);
      }
    }
    else
    {
      KeyT keys[ITEMS_PER_THREAD];
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        keys[i] = static_cast<KeyT>(items[i]); // samples are bins: integers in [0, BINS)
      }
      // The sort's barriers also order this initialization before the run search below.
      BlockStridedFor<BLOCK_THREADS, BINS>(linear_tid,
                                           [this](int bin)
                                           {
                                             temp_storage.run_begin[bin] = TILE_ITEMS;
                                             temp_storage.run_end[bin]   = TILE_ITEMS;
                                           });

      BinSortT sorter(temp_storage.sort, linear_tid);
      sorter.Sort(keys);
      const KeyT* sorted = sorter.SortedTile();

      // Every position where the bin changes ends one run and begins the next; the last run
      // ends at TILE_ITEMS, where it was initialized.
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int position = i * BLOCK_THREADS + linear_tid;
        const KeyT bin     = sorted[position];
        if (position == 0)
        {
          temp_storage.run_begin[bin] = 0;
        }
        else
        {
          const KeyT previous_bin = sorted[position - 1];
          if (previous_bin != bin)
          {
            temp_storage.run_begin[bin]        = static_cast<unsigned int>(position);
            temp_storage.run_end[previous_bin] = static_cast<unsigned int>(position);
          }
        }
      }
      __syncthreads();

      BlockStridedFor<BLOCK_THREADS, BINS>(
          linear_tid, [this, histogram](int bin)
          { histogram[bin] += static_cast<CounterT>(temp_storage.run_end[bin] - temp_storage.run_begin[bin]); });
    }
  }

private:
  _TempStorage& temp_storage;
  int linear_tid;
};
} // namespace detail

STRATA_NAMESPACE_END

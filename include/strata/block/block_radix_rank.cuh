// strata/block/block_radix_rank.cuh: BlockRadixRank, BlockRadixRankMatch and
// BlockRadixRankMatchEarlyCounts, which rank a tile of keys by one radix digit (the position each
// key takes in a stable sort of the tile by that digit), and RadixRankAlgorithm to choose one.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

//! A counts callback that does nothing (the default of the rankers that take one).
template <int BINS_PER_THREAD>
struct BlockRadixRankEmptyCallback
{
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(int (&)[BINS_PER_THREAD]) {}
};

namespace detail
{
//! Thread t's bins are digits t * BINS .. t * BINS + BINS - 1 (those below RADIX_DIGITS).
template <int RADIX_DIGITS, int BLOCK_THREADS>
inline constexpr int radix_bins_per_thread = (RADIX_DIGITS + BLOCK_THREADS - 1) / BLOCK_THREADS;

//! The digit in rank order: a descending rank counts digits from the top.
template <bool IS_DESCENDING, int RADIX_DIGITS>
STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t RankOrderDigit(::cuda::std::uint32_t digit)
{
  return IS_DESCENDING ? ::cuda::std::uint32_t(RADIX_DIGITS - 1) - digit : digit;
}

//! The lanes of warp `warp` of a block of BLOCK_THREADS threads that exist.
template <int BLOCK_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int BlockWarpMembers(int warp)
{
  constexpr int WARPS        = (BLOCK_THREADS + warp_threads - 1) / warp_threads;
  constexpr int LAST_THREADS = BLOCK_THREADS - (WARPS - 1) * warp_threads;
  if constexpr (LAST_THREADS == warp_threads)
  {
    return 0xFFFFFFFFu;
  }
  else
  {
    return warp == WARPS - 1 ? (0xFFFFFFFFu >> (warp_threads - LAST_THREADS)) : 0xFFFFFFFFu;
  }
}
} // namespace detail

//! Ranks keys by one radix digit with per-thread digit counters in shared memory: each thread
//! counts its own keys per digit, one block-wide scan over the counters (digit-major, then thread)
//! turns counts into offsets, and a key's rank is its digit's offset for its thread plus the keys
//! of that digit the thread counted before it. Ranks are stable: keys of equal digit keep the order
//! of (thread rank, item index), i.e. of a blocked arrangement. Two to four 16-bit counters share
//! a 32- or 64-bit word (SMEM_CONFIG), so a tile holds at most 65535 keys.
//!
//! \code
//! // 2 threads, 5-bit digits: keys {[16, 10], [9, 11]} rank {[3, 1], [0, 2]}
//! using BlockRadixRankT = strata::BlockRadixRank<2, 5, false>;
//! __shared__ BlockRadixRankT::TempStorage temp_storage;
//! unsigned int keys[2];
//! int ranks[2];
//! BlockRadixRankT(temp_storage).RankKeys(keys, ranks, strata::BFEDigitExtractor<unsigned int>(0, 5));
//! \endcode
//!
//! \tparam MEMOIZE_OUTER_SCAN  keep each thread's counters in registers between the two halves of
//!                             the outer scan (fewer shared-memory accesses, more registers)
//! \tparam INNER_SCAN_ALGORITHM the BlockScan algorithm of the scan over the threads' counter sums
template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING, bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixRank
{
  static_assert(RADIX_BITS >= 1, "BlockRadixRank needs digits of at least one bit");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int RADIX_DIGITS  = 1 << RADIX_BITS;

  using PackedCounter =
      ::cuda::std::conditional_t<SMEM_CONFIG == cudaSharedMemBankSizeEightByte, unsigned long long, unsigned int>;
  using DigitCounter = unsigned short;
  //! 16-bit counters per word: digit d counts in field d / COUNTER_LANES of word (d % COUNTER_LANES, thread).
  static constexpr int FIELDS            = sizeof(PackedCounter) / sizeof(DigitCounter);
  static constexpr int COUNTER_LANES     = RADIX_DIGITS > FIELDS ? RADIX_DIGITS / FIELDS : 1;
  static constexpr int LOG_COUNTER_LANES = Log2<COUNTER_LANES>::VALUE;
  static constexpr int MAX_TILE          = 0xFFFF;

  //! The words in scan order are lane-major, then thread. One extra lane, always zero, makes the
  //! run of words each thread scans (its share, RUN = COUNTER_LANES + 1 consecutive words) odd in
  //! length, so the threads of a warp scanning their runs hit different banks; appended last, it
  //! changes no offset.
  static constexpr int RUN   = COUNTER_LANES + 1;
  static constexpr int WORDS = RUN * BLOCK_THREADS;

  using BlockScanT = BlockScan<PackedCounter, BLOCK_DIM_X, INNER_SCAN_ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  struct _TempStorage
  {
    union
    {
      PackedCounter words[WORDS];
      DigitCounter counters[WORDS * FIELDS]; // counter f of word w is counters[w * FIELDS + f]
    };
    typename BlockScanT::TempStorage scan;
  };

public:
  //! Digits each thread reports in exclusive_digit_prefix (thread t: digits t * BINS_TRACKED_PER_THREAD ...).
  static constexpr int BINS_TRACKED_PER_THREAD = detail::radix_bins_per_thread<RADIX_DIGITS, BLOCK_THREADS>;

  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRank()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRank(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Ranks the block's keys (a blocked arrangement) by the digit `digit_extractor.Digit(key)`:
  //! ranks[i] is the position of keys[i] in the tile stably sorted by digit (descending digits
  //! first if IS_DESCENDING). Synchronizes the block; call `__syncthreads()` before reusing
  //! temp_storage.
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                                                 DigitExtractorT digit_extractor)
  {
    static_assert(BLOCK_THREADS * KEYS_PER_THREAD <= MAX_TILE,
                  "BlockRadixRank counts in 16 bits: a tile holds at most 65535 keys");
    // Each thread clears the words it alone increments: no barrier needed before counting.
#pragma unroll
    for (int lane = 0; lane < RUN; ++lane)
    {
      temp_storage.words[lane * BLOCK_THREADS + linear_tid] = 0;
    }

    int counter[KEYS_PER_THREAD]; // which 16-bit counter each key incremented
#pragma unroll
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      const ::cuda::std::uint32_t digit =
          detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(digit_extractor.Digit(keys[i]));
      counter[i]                        = CounterIndex(int(digit), linear_tid);
      const DigitCounter before         = temp_storage.counters[counter[i]];
      ranks[i]                          = before; // this thread's earlier keys of the digit
      temp_storage.counters[counter[i]] = DigitCounter(before + 1);
    }
    __syncthreads();
    ScanCounters();
    __syncthreads();
#pragma unroll
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      ranks[i] += temp_storage.counters[counter[i]];
    }
  }

  //! RankKeys, and exclusive_digit_prefix[j] = the rank of the first key of digit
  //! linear_tid * BINS_TRACKED_PER_THREAD + j (for digits below 2^RADIX_BITS).
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                                                 DigitExtractorT digit_extractor,
                                                 int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD])
  {
    RankKeys(keys, ranks, digit_extractor);
#pragma unroll
    for (int track = 0; track < BINS_TRACKED_PER_THREAD; ++track)
    {
      const int bin = linear_tid * BINS_TRACKED_PER_THREAD + track;
      if (BLOCK_THREADS * BINS_TRACKED_PER_THREAD == RADIX_DIGITS || bin < RADIX_DIGITS)
      {
        // Thread 0's counter of the digit holds the offset of the digit's first key.
        const int digit               = int(detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(bin));
        exclusive_digit_prefix[track] = temp_storage.counters[CounterIndex(digit, 0)];
      }
    }
  }

private:
  _TempStorage& temp_storage;
  int linear_tid;

  //! The 16-bit counter of `digit` (in rank order) for `thread`.
  STRATA_DEVICE STRATA_FORCEINLINE static int CounterIndex(int digit, int thread)
  {
    const int lane  = digit & (COUNTER_LANES - 1);
    const int field = digit >> LOG_COUNTER_LANES;
    return (lane * BLOCK_THREADS + thread) * FIELDS + field;
  }

  //! Replaces every counter word by the exclusive sum of the words before it in scan order, with
  //! each 16-bit field also offset by the totals of the lower fields (lower digits).
  STRATA_DEVICE STRATA_FORCEINLINE void ScanCounters()
  {
    PackedCounter* run = temp_storage.words + linear_tid * RUN;
    PackedCounter cached[MEMOIZE_OUTER_SCAN ? RUN : 1];
    PackedCounter run_sum = 0;
#pragma unroll
    for (int j = 0; j < RUN; ++j)
    {
      const PackedCounter word = run[j];
      if constexpr (MEMOIZE_OUTER_SCAN)
      {
        cached[j] = word;
      }
      run_sum += word;
    }
    PackedCounter offset;
    PackedCounter totals;
    BlockScanT(temp_storage.scan).ExclusiveSum(run_sum, offset, totals);
    // Field f of `totals` counts digits of field f; shifting the totals up by one, two, ... fields
    // and adding gives every field the count of all lower fields. No field overflows: every sum
    // is at most the tile size.
#pragma unroll
    for (int f = 1; f < FIELDS; ++f)
    {
      offset += totals << (16 * f);
    }
#pragma unroll
    for (int j = 0; j < RUN; ++j)
    {
      const PackedCounter word = MEMOIZE_OUTER_SCAN ? cached[j] : run[j];
      run[j]                   = offset;
      offset += word;
    }
  }
};

//! Ranks keys by one radix digit warp by warp: the lanes of a warp holding the same digit find
//! each other (MatchAny's ballots) and count once, into per-warp digit counters in shared memory; one
//! block-wide scan over the counters (digit-major, then warp) turns counts into offsets. Ranks are
//! stable in the order (warp, item index, lane), i.e. of a warp-striped arrangement. Any block
//! size works (a partial last warp too).
//!
//! The counts callback receives, for thread t, the number of keys of each digit
//! t * BINS_TRACKED_PER_THREAD + j before RankKeys returns.
template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixRankMatch
{
  static_assert(RADIX_BITS >= 1 && RADIX_BITS <= 16, "BlockRadixRankMatch ranks digits of 1 to 16 bits");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int RADIX_DIGITS  = 1 << RADIX_BITS;
  static constexpr int WARPS         = (BLOCK_THREADS + detail::warp_threads - 1) / detail::warp_threads;

  //! Counters in scan order (digit-major, then warp); thread t scans SEGMENT of them. An even
  //! segment gets one padding word so that the threads of a warp scan on different banks.
  static constexpr int COUNTERS       = RADIX_DIGITS * WARPS;
  static constexpr int SEGMENT        = (COUNTERS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  static constexpr int SEGMENT_STRIDE = SEGMENT > 1 && SEGMENT % 2 == 0 ? SEGMENT + 1 : SEGMENT;

  using BlockScanT = BlockScan<int, BLOCK_DIM_X, INNER_SCAN_ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  struct _TempStorage
  {
    int counters[SEGMENT_STRIDE * BLOCK_THREADS];
    typename BlockScanT::TempStorage scan;
  };

public:
  static constexpr int BINS_TRACKED_PER_THREAD = detail::radix_bins_per_thread<RADIX_DIGITS, BLOCK_THREADS>;

  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRankMatch()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRankMatch(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Ranks the block's keys by digit (stable in warp-striped order); calls `callback(bins)` with
  //! the digit counts of this thread's bins. Synchronizes the block.
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT, typename CountsCallback>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                                                 DigitExtractorT digit_extractor, CountsCallback callback)
  {
    int* counters = temp_storage.counters;
    int* run      = counters + linear_tid * SEGMENT_STRIDE;
#pragma unroll
    for (int j = 0; j < SEGMENT; ++j)
    {
      run[j] = 0;
    }
    __syncthreads();

    const int warp                 = linear_tid / detail::warp_threads;
    const unsigned int members     = detail::BlockWarpMembers<BLOCK_THREADS>(warp);
    const unsigned int lanes_below = LaneMaskLt();
    int counter_index[KEYS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      const ::cuda::std::uint32_t digit =
          detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(digit_extractor.Digit(keys[i]));
      const unsigned int peers = detail::MatchLanes<RADIX_BITS>(digit, members);
      counter_index[i]         = Slot(int(digit) * WARPS + warp);
      const int before         = counters[counter_index[i]];
      const int peers_below    = __popc(peers & lanes_below);
      // Every peer has read the counter before the lowest peer advances it past the whole group.
      __syncwarp(members);
      if (peers_below == 0)
      {
        counters[counter_index[i]] = before + __popc(peers);
      }
      __syncwarp(members);
      ranks[i] = before + peers_below;
    }
    __syncthreads();

    int run_sum = 0;
#pragma unroll
    for (int j = 0; j < SEGMENT; ++j)
    {
      run_sum += run[j];
    }
    int offset;
    BlockScanT(temp_storage.scan).ExclusiveSum(run_sum, offset);
#pragma unroll
    for (int j = 0; j < SEGMENT; ++j)
    {
      const int count = run[j];
      run[j]          = offset;
      offset += count;
    }
    __syncthreads();

    if constexpr (!::cuda::std::is_same_v<CountsCallback, BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>>)
    {
      CallBack<KEYS_PER_THREAD>(callback);
    }
#pragma unroll
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      ranks[i] += counters[counter_index[i]];
    }
  }

  //! Ranks the block's keys by digit (stable in warp-striped order).
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                                                 DigitExtractorT digit_extractor)
  {
    RankKeys(keys, ranks, digit_extractor, BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>());
  }

  //! Calls `callback(bins)` with the number of keys of digit linear_tid * BINS_TRACKED_PER_THREAD
  //! + j in bins[j] (0 past the last digit), from the counters of the last RankKeys with
  //! KEYS_PER_THREAD keys per thread; valid until the temp storage is reused. RankKeys with a
  //! callback calls it itself.
  template <int KEYS_PER_THREAD, typename CountsCallback>
  STRATA_DEVICE STRATA_FORCEINLINE void CallBack(CountsCallback callback)
  {
    const int* counters = temp_storage.counters;
    int bins[BINS_TRACKED_PER_THREAD];
#pragma unroll
    for (int track = 0; track < BINS_TRACKED_PER_THREAD; ++track)
    {
      bins[track]   = 0;
      const int bin = linear_tid * BINS_TRACKED_PER_THREAD + track;
      if (bin < RADIX_DIGITS)
      {
        const int digit = int(detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(bin));
        const int next =
            digit + 1 < RADIX_DIGITS ? counters[Slot((digit + 1) * WARPS)] : BLOCK_THREADS * KEYS_PER_THREAD;
        bins[track] = next - counters[Slot(digit * WARPS)];
      }
    }
    callback(bins);
  }

  //! RankKeys, and exclusive_digit_prefix[j] = the rank of the first key of digit
  //! linear_tid * BINS_TRACKED_PER_THREAD + j.
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT, typename CountsCallback>
  STRATA_DEVICE STRATA_FORCEINLINE void
  RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor,
           int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD], CountsCallback callback)
  {
    RankKeys(keys, ranks, digit_extractor, callback);
#pragma unroll
    for (int track = 0; track < BINS_TRACKED_PER_THREAD; ++track)
    {
      const int bin = linear_tid * BINS_TRACKED_PER_THREAD + track;
      if (BLOCK_THREADS * BINS_TRACKED_PER_THREAD == RADIX_DIGITS || bin < RADIX_DIGITS)
      {
        const int digit               = int(detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(bin));
        exclusive_digit_prefix[track] = temp_storage.counters[Slot(digit * WARPS)];
      }
    }
  }

  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                                                 DigitExtractorT digit_extractor,
                                                 int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD])
  {
    RankKeys(keys, ranks, digit_extractor, exclusive_digit_prefix,
             BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>());
  }

private:
  _TempStorage& temp_storage;
  int linear_tid;

  //! Where counter `index` (in scan order) lives.
  STRATA_DEVICE STRATA_FORCEINLINE static int Slot(int index)
  {
    return SEGMENT_STRIDE == SEGMENT ? index : (index / SEGMENT) * SEGMENT_STRIDE + index % SEGMENT;
  }
};

//! Ranks keys by one radix digit, with the digit counts of the whole tile known early: every warp
//! first builds a histogram of its digits (shared-memory atomics, spread over NUM_PARTS copies to
//! lower contention), the counts are scanned into offsets (and handed to the callback, e.g. to
//! publish them to other blocks before ranking ends), then every warp ranks its keys, finding the
//! lanes with equal digits by MatchAny's ballots (WARP_MATCH_ANY) or by OR-ing lane bits into shared masks
//! (WARP_MATCH_ATOMIC_OR). Ranks are stable in (warp, item index, lane) order, a warp-striped
//! arrangement. The block is BLOCK_DIM_X threads, a multiple of 32.
template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          WarpMatchAlgorithm MATCH_ALGORITHM = WARP_MATCH_ANY, int NUM_PARTS = 1>
class BlockRadixRankMatchEarlyCounts
{
  static_assert(BLOCK_DIM_X % detail::warp_threads == 0,
                "BlockRadixRankMatchEarlyCounts needs a block of whole warps (BLOCK_DIM_X a multiple of 32)");
  static_assert(RADIX_BITS >= 1 && RADIX_BITS <= 16, "BlockRadixRankMatchEarlyCounts ranks digits of 1 to 16 bits");
  static_assert(NUM_PARTS >= 1, "NUM_PARTS is at least 1");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X;
  static constexpr int RADIX_DIGITS  = 1 << RADIX_BITS;
  static constexpr int WARPS         = BLOCK_THREADS / detail::warp_threads;
  static constexpr int MASK_WARPS    = MATCH_ALGORITHM == WARP_MATCH_ATOMIC_OR ? WARPS : 1;

public:
  static constexpr int BINS_PER_THREAD         = detail::radix_bins_per_thread<RADIX_DIGITS, BLOCK_THREADS>;
  static constexpr int BINS_TRACKED_PER_THREAD = BINS_PER_THREAD;

private:
  using BlockScanT = BlockScan<int, BLOCK_THREADS, INNER_SCAN_ALGORITHM>;

  struct _TempStorage
  {
    union
    {
      int histograms[WARPS][RADIX_DIGITS][NUM_PARTS]; // per warp and digit (rank order), counts
      int offsets[WARPS][RADIX_DIGITS];               // then the rank of the warp's next key of the digit
    };
    unsigned int match_masks[MASK_WARPS][RADIX_DIGITS];
    typename BlockScanT::TempStorage scan;
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRankMatchEarlyCounts()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRankMatchEarlyCounts(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
  {
  }

  //! Ranks the block's keys by digit; calls `callback(bins)` with thread t's digit counts
  //! (digits t * BINS_PER_THREAD + j) as soon as the tile's histogram is known, and returns in
  //! exclusive_digit_prefix[j] the rank of the first key of each of those digits. Synchronizes
  //! the block.
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT, typename CountsCallback>
  STRATA_DEVICE STRATA_FORCEINLINE void
  RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor,
           int (&exclusive_digit_prefix)[BINS_PER_THREAD], CountsCallback callback)
  {
    _TempStorage& s               = temp_storage;
    const int tid                 = int(threadIdx.x);
    const int warp                = tid / detail::warp_threads;
    const int lane                = tid % detail::warp_threads;
    int* flat_histograms          = &s.histograms[0][0][0];
    unsigned int* masks           = &s.match_masks[0][0];
    constexpr int HISTOGRAM_WORDS = WARPS * RADIX_DIGITS * NUM_PARTS;
#pragma unroll
    for (int i = tid; i < HISTOGRAM_WORDS; i += BLOCK_THREADS)
    {
      flat_histograms[i] = 0;
    }
    if constexpr (MATCH_ALGORITHM == WARP_MATCH_ATOMIC_OR)
    {
#pragma unroll
      for (int i = tid; i < MASK_WARPS * RADIX_DIGITS; i += BLOCK_THREADS)
      {
        masks[i] = 0;
      }
    }
    __syncthreads();

    // Digits are extracted again where they are needed: keeping them would cost a register per key.
#pragma unroll
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      const ::cuda::std::uint32_t digit =
          detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(digit_extractor.Digit(keys[i]));
      atomicAdd(&s.histograms[warp][digit][lane % NUM_PARTS], 1);
    }
    __syncthreads();

    // Thread t owns digits t * BINS_PER_THREAD + j: it sums their counts over warps and parts.
    int warp_counts[BINS_PER_THREAD][WARPS];
    int bins[BINS_PER_THREAD];
#pragma unroll
    for (int j = 0; j < BINS_PER_THREAD; ++j)
    {
      const int bin = tid * BINS_PER_THREAD + j;
      bins[j]       = 0;
#pragma unroll
      for (int w = 0; w < WARPS; ++w)
      {
        warp_counts[j][w] = 0;
        if (bin < RADIX_DIGITS)
        {
          const int digit = int(detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(bin));
#pragma unroll
          for (int p = 0; p < NUM_PARTS; ++p)
          {
            warp_counts[j][w] += s.histograms[w][digit][p];
          }
        }
        bins[j] += warp_counts[j][w];
      }
    }
    __syncthreads(); // the offsets overwrite the histograms
    callback(bins);

    // Offsets in rank order: ascending digits rank after the lower digits, descending ones after
    // the higher digits (the total minus the inclusive prefix in digit order).
    int total = 0;
    BlockScanT(s.scan).ExclusiveSum(bins, exclusive_digit_prefix, total);
#pragma unroll
    for (int j = 0; j < BINS_PER_THREAD; ++j)
    {
      const int bin = tid * BINS_PER_THREAD + j;
      if (IS_DESCENDING)
      {
        exclusive_digit_prefix[j] = total - exclusive_digit_prefix[j] - bins[j];
      }
      if (bin < RADIX_DIGITS)
      {
        const int digit = int(detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(bin));
        int offset      = exclusive_digit_prefix[j];
#pragma unroll
        for (int w = 0; w < WARPS; ++w)
        {
          s.offsets[w][digit] = offset;
          offset += warp_counts[j][w];
        }
      }
    }
    __syncthreads();

    const unsigned int lanes_below = LaneMaskLt();
#pragma unroll
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      const ::cuda::std::uint32_t digit =
          detail::RankOrderDigit<IS_DESCENDING, RADIX_DIGITS>(digit_extractor.Digit(keys[i]));
      if constexpr (MATCH_ALGORITHM == WARP_MATCH_ATOMIC_OR)
      {
        atomicOr(&s.match_masks[warp][digit], 1u << lane);
        __syncwarp();
        const unsigned int peers = s.match_masks[warp][digit];
        const int before         = s.offsets[warp][digit];
        const int peers_below    = __popc(peers & lanes_below);
        // Every peer has read the offset and mask before the lowest peer moves them on.
        __syncwarp();
        if (peers_below == 0)
        {
          s.offsets[warp][digit]     = before + __popc(peers);
          s.match_masks[warp][digit] = 0;
        }
        __syncwarp();
        ranks[i] = before + peers_below;
      }
      else
      {
        // The highest peer alone moves the digit's offset on, and hands the old one to its peers.
        const unsigned int peers = detail::MatchLanes<RADIX_BITS>(digit, 0xFFFFFFFFu);
        const int leader         = detail::warp_threads - 1 - __clz(peers);
        int before               = 0;
        if (lane == leader)
        {
          before                 = s.offsets[warp][digit];
          s.offsets[warp][digit] = before + __popc(peers);
        }
        before   = __shfl_sync(0xFFFFFFFFu, before, leader);
        ranks[i] = before + __popc(peers & lanes_below);
        __syncwarp(); // the new offset is seen by the next item's leader
      }
    }
  }

  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                                                 DigitExtractorT digit_extractor,
                                                 int (&exclusive_digit_prefix)[BINS_PER_THREAD])
  {
    RankKeys(keys, ranks, digit_extractor, exclusive_digit_prefix, BlockRadixRankEmptyCallback<BINS_PER_THREAD>());
  }

  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                                                 DigitExtractorT digit_extractor)
  {
    int exclusive_digit_prefix[BINS_PER_THREAD];
    RankKeys(keys, ranks, digit_extractor, exclusive_digit_prefix);
  }

private:
  _TempStorage& temp_storage;
};

namespace detail
{
//! The ranker a policy's RadixRankAlgorithm names.
template <RadixRankAlgorithm RANK_ALGORITHM, int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING,
          BlockScanAlgorithm SCAN_ALGORITHM>
using block_radix_rank_t = ::cuda::std::conditional_t<
    RANK_ALGORITHM == RADIX_RANK_BASIC, BlockRadixRank<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, false, SCAN_ALGORITHM>,
    ::cuda::std::conditional_t<
        RANK_ALGORITHM == RADIX_RANK_MEMOIZE,
        BlockRadixRank<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, true, SCAN_ALGORITHM>,
        ::cuda::std::conditional_t<
            RANK_ALGORITHM == RADIX_RANK_MATCH,
            BlockRadixRankMatch<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, SCAN_ALGORITHM>,
            ::cuda::std::conditional_t<
                RANK_ALGORITHM == RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                BlockRadixRankMatchEarlyCounts<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, SCAN_ALGORITHM, WARP_MATCH_ANY>,
                BlockRadixRankMatchEarlyCounts<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, SCAN_ALGORITHM,
                                               WARP_MATCH_ATOMIC_OR>>>>>;
} // namespace detail

STRATA_NAMESPACE_END

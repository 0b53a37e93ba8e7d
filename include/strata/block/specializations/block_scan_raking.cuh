// strata/block/specializations/block_scan_raking.cuh: BlockScan's raking algorithms
// (BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE): the threads of one warp reduce segments of a
// shared-memory grid that holds one value per thread, scan the segment reductions with a warp
// scan, and scan their segments again seeded with the result.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_raking_layout.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_scan.cuh>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Block-wide scans of one value per thread by raking (the algorithm behind BLOCK_SCAN_RAKING;
//! with MEMOIZE, BLOCK_SCAN_RAKING_MEMOIZE). Five steps, two barriers:
//!
//! 1. every thread places its value into the raking grid (BlockRakingLayout);
//! 2. each raking thread (at most one warp) reduces its segment of the grid;
//! 3. the raking threads scan the segment reductions with a WarpScan, which gives each segment
//!    the reduction of everything before it (and the seed: initial value or callback prefix);
//! 4. each raking thread scans its segment in place from that prefix;
//! 5. every thread reads its output back from its place in the grid.
//!
//! MEMOIZE keeps the segment in registers from step 2 to step 4 instead of reading it from
//! shared memory twice: fewer shared-memory reads, more registers held across the warp scan. It
//! does so only where the segment takes at most a quarter of the registers a thread can have in
//! a full block (not in 1024-thread blocks, whose 32-item segments would take half or all of the
//! 64 available): beyond that the caller's own values spill to local memory, which costs more
//! than the shared-memory reads saved.
//!
//! A block of at most one warp skips the grid: the warp scan alone is the block scan, with no
//! barrier.
//!
//! The prefix callback is called by the raking threads (all of warp 0 when the block has a
//! multiple of 32 threads; threads 0 .. RAKING_THREADS - 1 otherwise); thread 0's result seeds
//! the scan.
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z, bool MEMOIZE>
struct BlockScanRaking
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");

  using Layout                        = BlockRakingLayout<T, BLOCK_THREADS>;
  static constexpr int RAKING_THREADS = Layout::RAKING_THREADS;
  static constexpr int SEGMENT_LENGTH = Layout::SEGMENT_LENGTH;
  //! A block of at most a warp has one raking thread per thread: no grid is needed.
  static constexpr bool WARP_SYNCHRONOUS = BLOCK_THREADS == RAKING_THREADS;

  //! Registers per thread when a block of BLOCK_THREADS threads fills an SM's 64K registers.
  static constexpr int MAX_REGISTERS = (64 * 1024 / BLOCK_THREADS) < 255 ? (64 * 1024 / BLOCK_THREADS) : 255;
  //! Whether the raking threads keep their segment in registers (see the class comment).
  static constexpr bool CACHE_SEGMENT =
      MEMOIZE && SEGMENT_LENGTH * static_cast<int>((sizeof(T) + 3) / 4) <= MAX_REGISTERS / 4;

  using WarpScanT = WarpScan<T, RAKING_THREADS>;

  struct TempStorage
  {
    typename WarpScanT::TempStorage warp_scan;
    typename Layout::TempStorage raking_grid;
    T block_aggregate; //!< from raking thread 0 to every thread
  };

  TempStorage& temp_storage;
  unsigned int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE BlockScanRaking(TempStorage& temp_storage, unsigned int linear_tid)
      : temp_storage(temp_storage)
      , linear_tid(linear_tid)
  {
  }

  //! Exclusive scan without a seed: thread 0's output is undefined.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOpT& scan_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, scan_op);
    }
    else
    {
      output = RakingScan<false>(input, scan_op,
                                 [&](T partial, bool& apply_prefix)
                                 { return UnseededPrefix(partial, scan_op, apply_prefix); });
    }
  }

  //! Exclusive scan without a seed (thread 0's output is undefined), and the block aggregate.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOpT& scan_op, T& block_aggregate)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, scan_op, block_aggregate);
    }
    else
    {
      output          = RakingScan<false>(input, scan_op,
                                 [&](T partial, bool& apply_prefix)
                                 { return UnseededPrefixAndAggregate(partial, scan_op, apply_prefix); });
      block_aggregate = temp_storage.block_aggregate;
    }
  }

  //! Exclusive scan seeded with `initial_value` (thread 0's output).
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOpT& scan_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, initial_value, scan_op);
    }
    else
    {
      output = RakingScan<false>(input, scan_op,
                                 [&](T partial, bool&) { return SeededPrefix(partial, initial_value, scan_op); });
    }
  }

  //! Exclusive scan seeded with `initial_value`, and the block aggregate (without the seed).
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOpT& scan_op,
                                                      T& block_aggregate)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
    }
    else
    {
      output = RakingScan<false>(
          input, scan_op, [&](T partial, bool&) { return SeededPrefixAndAggregate(partial, initial_value, scan_op); });
      block_aggregate = temp_storage.block_aggregate;
    }
  }

  //! Exclusive scan seeded with the value the callback returns in thread 0.
  template <typename ScanOpT, typename BlockPrefixCallbackOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScanWithCallback(T input, T& output, ScanOpT& scan_op,
                                                                  BlockPrefixCallbackOpT& block_prefix_callback_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      T exclusive, aggregate;
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, exclusive, scan_op, aggregate);
      const T block_prefix = CallbackPrefix(block_prefix_callback_op, aggregate);
      output               = linear_tid == 0 ? block_prefix : static_cast<T>(scan_op(block_prefix, exclusive));
    }
    else
    {
      output = RakingScan<false>(input, scan_op,
                                 [&](T partial, bool&)
                                 { return CallbackSeededPrefix(partial, scan_op, block_prefix_callback_op); });
    }
  }

  //! Inclusive scan.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOpT& scan_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).InclusiveScan(input, output, scan_op);
    }
    else
    {
      output = RakingScan<true>(input, scan_op,
                                [&](T partial, bool& apply_prefix)
                                { return UnseededPrefix(partial, scan_op, apply_prefix); });
    }
  }

  //! Inclusive scan, and the block aggregate.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOpT& scan_op, T& block_aggregate)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).InclusiveScan(input, output, scan_op, block_aggregate);
    }
    else
    {
      output          = RakingScan<true>(input, scan_op,
                                [&](T partial, bool& apply_prefix)
                                { return UnseededPrefixAndAggregate(partial, scan_op, apply_prefix); });
      block_aggregate = temp_storage.block_aggregate;
    }
  }

  //! Inclusive scan seeded with the value the callback returns in thread 0.
  template <typename ScanOpT, typename BlockPrefixCallbackOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScanWithCallback(T input, T& output, ScanOpT& scan_op,
                                                                  BlockPrefixCallbackOpT& block_prefix_callback_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      T inclusive, aggregate;
      WarpScanT(temp_storage.warp_scan).InclusiveScan(input, inclusive, scan_op, aggregate);
      const T block_prefix = CallbackPrefix(block_prefix_callback_op, aggregate);
      output               = static_cast<T>(scan_op(block_prefix, inclusive));
    }
    else
    {
      output = RakingScan<true>(input, scan_op,
                                [&](T partial, bool&)
                                { return CallbackSeededPrefix(partial, scan_op, block_prefix_callback_op); });
    }
  }

private:
  //! Whether item `i` of the calling raking thread's segment holds a thread's value: only the
  //! last segment can be short, and only when the segments do not divide the block.
  STRATA_DEVICE STRATA_FORCEINLINE bool InSegment(int i) const
  {
    return Layout::UNGUARDED || static_cast<int>(linear_tid) * SEGMENT_LENGTH + i < BLOCK_THREADS;
  }

  //! Step 2: the reduction of the calling raking thread's segment, left to right. With
  //! CACHE_SEGMENT the segment is also copied into `items` for the downsweep.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T ReduceSegment(const T* segment, T (&items)[SEGMENT_LENGTH], ScanOpT& scan_op) const
  {
    T partial = segment[0];
    if constexpr (CACHE_SEGMENT)
    {
      items[0] = partial;
    }
#pragma unroll
    for (int i = 1; i < SEGMENT_LENGTH; ++i)
    {
      if (InSegment(i))
      {
        const T item = segment[i];
        if constexpr (CACHE_SEGMENT)
        {
          items[i] = item;
        }
        partial = static_cast<T>(scan_op(partial, item));
      }
    }
    return partial;
  }

  //! Step 4: scans the segment from `prefix` (left out when `apply_prefix` is false: the first
  //! segment of an unseeded scan) and writes the results back over it. The items come from
  //! `items` with CACHE_SEGMENT, from the segment itself otherwise (each read before it is
  //! overwritten).
  template <bool INCLUSIVE, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScanSegment(T* segment, const T (&items)[SEGMENT_LENGTH], ScanOpT& scan_op,
                                                    T prefix, bool apply_prefix) const
  {
    const auto item = [&](int i) { return CACHE_SEGMENT ? items[i] : segment[i]; };
    T running       = apply_prefix ? static_cast<T>(scan_op(prefix, item(0))) : item(0);
    segment[0]      = INCLUSIVE ? running : prefix;
#pragma unroll
    for (int i = 1; i < SEGMENT_LENGTH; ++i)
    {
      if (InSegment(i))
      {
        const T next = static_cast<T>(scan_op(running, item(i)));
        segment[i]   = INCLUSIVE ? next : running;
        running      = next;
      }
    }
  }

  //! Steps 1 to 5 (see the class comment). `segment_prefix(partial, apply_prefix)` runs in the
  //! raking threads only: from the reduction of the caller's segment it returns the prefix the
  //! segment's scan starts from, and may clear `apply_prefix` (preset to true) where there is
  //! none. Returns the calling thread's output.
  template <bool INCLUSIVE, typename ScanOpT, typename SegmentPrefixT>
  STRATA_DEVICE STRATA_FORCEINLINE T RakingScan(T input, ScanOpT& scan_op, SegmentPrefixT segment_prefix)
  {
    T* placement = Layout::PlacementPtr(temp_storage.raking_grid, linear_tid);
    *placement   = input;
    __syncthreads();
    if (linear_tid < static_cast<unsigned int>(RAKING_THREADS))
    {
      T* segment = Layout::RakingPtr(temp_storage.raking_grid, linear_tid);
      T items[SEGMENT_LENGTH]; // used with CACHE_SEGMENT only
      const T partial   = ReduceSegment(segment, items, scan_op);
      bool apply_prefix = true;
      const T prefix    = segment_prefix(partial, apply_prefix);
      ScanSegment<INCLUSIVE>(segment, items, scan_op, prefix, apply_prefix);
    }
    __syncthreads();
    return *placement;
  }

  //! The exclusive warp scan of the segment reductions, without a seed: the first segment has no
  //! prefix.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T UnseededPrefix(T partial, ScanOpT& scan_op, bool& apply_prefix)
  {
    T prefix;
    WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, prefix, scan_op);
    apply_prefix = linear_tid != 0;
    return prefix;
  }

  //! As UnseededPrefix, and publishes the block aggregate for every thread.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T UnseededPrefixAndAggregate(T partial, ScanOpT& scan_op, bool& apply_prefix)
  {
    T prefix, aggregate;
    WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, prefix, scan_op, aggregate);
    PublishAggregate(aggregate);
    apply_prefix = linear_tid != 0;
    return prefix;
  }

  //! The exclusive warp scan of the segment reductions, seeded with `initial_value`.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T SeededPrefix(T partial, const T& initial_value, ScanOpT& scan_op)
  {
    T prefix;
    WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, prefix, initial_value, scan_op);
    return prefix;
  }

  //! As SeededPrefix, and publishes the block aggregate for every thread.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T SeededPrefixAndAggregate(T partial, const T& initial_value, ScanOpT& scan_op)
  {
    T prefix, aggregate;
    WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, prefix, initial_value, scan_op, aggregate);
    PublishAggregate(aggregate);
    return prefix;
  }

  //! The exclusive warp scan of the segment reductions, seeded with the callback's prefix.
  template <typename ScanOpT, typename BlockPrefixCallbackOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T CallbackSeededPrefix(T partial, ScanOpT& scan_op,
                                                          BlockPrefixCallbackOpT& block_prefix_callback_op)
  {
    T prefix, aggregate;
    WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, prefix, scan_op, aggregate);
    const T block_prefix = CallbackPrefix(block_prefix_callback_op, aggregate);
    return linear_tid == 0 ? block_prefix : static_cast<T>(scan_op(block_prefix, prefix));
  }

  //! Raking thread 0 stores the block aggregate; every thread reads it after the final barrier.
  STRATA_DEVICE STRATA_FORCEINLINE void PublishAggregate(const T& aggregate)
  {
    if (linear_tid == 0)
    {
      temp_storage.block_aggregate = aggregate;
    }
  }

  //! Calls the callback in every raking thread and hands thread 0's result to all of them.
  template <typename BlockPrefixCallbackOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T CallbackPrefix(BlockPrefixCallbackOpT& block_prefix_callback_op, T aggregate)
  {
    const T block_prefix = static_cast<T>(block_prefix_callback_op(aggregate));
    // The raking threads are lanes 0 .. RAKING_THREADS - 1 of warp 0.
    return ShuffleIndex<warp_threads>(block_prefix, 0, WarpMask<RAKING_THREADS>(0));
  }
};
} // namespace detail

STRATA_NAMESPACE_END

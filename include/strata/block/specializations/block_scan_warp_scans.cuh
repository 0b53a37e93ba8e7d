// strata/block/specializations/block_scan_warp_scans.cuh: BlockScan's BLOCK_SCAN_WARP_SCANS
// algorithm: every warp scans its own values, and each thread then adds the aggregates of the
// warps before its own.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_scan.cuh>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Block-wide scans of one value per thread by tiled warp scans (BLOCK_SCAN_WARP_SCANS), for
//! blocks of two or more full warps:
//!
//! 1. every warp scans its 32 values with a shuffle-based WarpScan, and its last lane publishes
//!    the warp's aggregate;
//! 2. after one barrier every thread combines the aggregates of the warps before its own (the
//!    warp prefix) and of all warps (the block aggregate) in registers;
//! 3. each thread combines seed, warp prefix and its warp-scan output.
//!
//! One barrier, or two with a prefix callback: warp 0 calls the callback with the block aggregate
//! and thread 0 hands its result to the block through shared memory.
//!
//! Fewer dependent steps than raking (lower latency), but every thread does the warp-scan work
//! (more instructions in total).
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct BlockScanWarpScans
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int WARPS         = BLOCK_THREADS / warp_threads;
  static_assert(BLOCK_THREADS % warp_threads == 0 && WARPS >= 2,
                "BlockScanWarpScans needs two or more full warps (BlockScan uses raking otherwise)");

  using WarpScanT = WarpScan<T>;

  struct TempStorage
  {
    typename WarpScanT::TempStorage warp_scan[WARPS];
    T warp_aggregates[WARPS];
    T block_prefix; //!< the callback's result, from thread 0 to every thread
  };

  TempStorage& temp_storage;
  unsigned int linear_tid;
  unsigned int warp_id;
  unsigned int lane_id;

  STRATA_DEVICE STRATA_FORCEINLINE BlockScanWarpScans(TempStorage& temp_storage, unsigned int linear_tid)
      : temp_storage(temp_storage)
      , linear_tid(linear_tid)
      , warp_id(linear_tid / warp_threads)
      // Hardware warps are formed from consecutive row-major thread ranks.
      , lane_id(linear_tid % warp_threads)
  {
  }

  //! Exclusive scan without a seed: thread 0's output is undefined.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOpT& scan_op)
  {
    T block_aggregate;
    ExclusiveScan(input, output, scan_op, block_aggregate);
  }

  //! Exclusive scan without a seed (thread 0's output is undefined), and the block aggregate.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOpT& scan_op, T& block_aggregate)
  {
    const T exclusive   = ScanWarps<false>(input, scan_op);
    const T warp_prefix = WarpPrefix(scan_op, block_aggregate);
    if (warp_id == 0)
    {
      output = exclusive;
    }
    else
    {
      output = lane_id == 0 ? warp_prefix : static_cast<T>(scan_op(warp_prefix, exclusive));
    }
  }

  //! Exclusive scan seeded with `initial_value` (thread 0's output).
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOpT& scan_op)
  {
    T block_aggregate;
    ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
  }

  //! Exclusive scan seeded with `initial_value`, and the block aggregate (without the seed).
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOpT& scan_op,
                                                      T& block_aggregate)
  {
    const T exclusive   = ScanWarps<false>(input, scan_op);
    const T warp_prefix = WarpPrefix(scan_op, block_aggregate);
    output              = SeededExclusive(exclusive, warp_prefix, initial_value, scan_op);
  }

  //! Exclusive scan seeded with the value the callback returns in thread 0.
  template <typename ScanOpT, typename BlockPrefixCallbackOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScanWithCallback(T input, T& output, ScanOpT& scan_op,
                                                                  BlockPrefixCallbackOpT& block_prefix_callback_op)
  {
    T block_aggregate;
    const T exclusive    = ScanWarps<false>(input, scan_op);
    const T warp_prefix  = WarpPrefix(scan_op, block_aggregate);
    const T block_prefix = CallbackPrefix(block_prefix_callback_op, block_aggregate);
    output               = SeededExclusive(exclusive, warp_prefix, block_prefix, scan_op);
  }

  //! Inclusive scan.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOpT& scan_op)
  {
    T block_aggregate;
    InclusiveScan(input, output, scan_op, block_aggregate);
  }

  //! Inclusive scan, and the block aggregate.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOpT& scan_op, T& block_aggregate)
  {
    const T inclusive   = ScanWarps<true>(input, scan_op);
    const T warp_prefix = WarpPrefix(scan_op, block_aggregate);
    output              = warp_id == 0 ? inclusive : static_cast<T>(scan_op(warp_prefix, inclusive));
  }

  //! Inclusive scan seeded with the value the callback returns in thread 0.
  template <typename ScanOpT, typename BlockPrefixCallbackOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScanWithCallback(T input, T& output, ScanOpT& scan_op,
                                                                  BlockPrefixCallbackOpT& block_prefix_callback_op)
  {
    T block_aggregate;
    const T inclusive    = ScanWarps<true>(input, scan_op);
    const T warp_prefix  = WarpPrefix(scan_op, block_aggregate);
    const T block_prefix = CallbackPrefix(block_prefix_callback_op, block_aggregate);
    output               = static_cast<T>(scan_op(ThreadPrefix(warp_prefix, block_prefix, scan_op), inclusive));
  }

private:
  //! Step 1: the calling thread's scan within its warp (inclusive, or exclusive with lane 0's
  //! undefined); the last lane of each warp publishes the warp's aggregate, and the block
  //! synchronizes so that every thread can read all of them.
  template <bool INCLUSIVE, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T ScanWarps(T input, ScanOpT& scan_op)
  {
    WarpScanT warp_scan(temp_storage.warp_scan[warp_id]);
    T inclusive, exclusive;
    if constexpr (INCLUSIVE)
    {
      warp_scan.InclusiveScan(input, inclusive, scan_op);
    }
    else
    {
      warp_scan.Scan(input, inclusive, exclusive, scan_op);
    }
    if (lane_id == warp_threads - 1)
    {
      temp_storage.warp_aggregates[warp_id] = inclusive;
    }
    __syncthreads();
    if constexpr (INCLUSIVE)
    {
      return inclusive;
    }
    else
    {
      return exclusive;
    }
  }

  //! Step 2: the reduction of the aggregates of the warps before the calling thread's
  //! (undefined in warp 0), and of all warps in `block_aggregate`. The loop runs over every warp
  //! in every thread so that its indices stay compile-time constants: the aggregates are
  //! broadcast reads, and the chain is short next to the barrier before it.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T WarpPrefix(ScanOpT& scan_op, T& block_aggregate) const
  {
    T running     = temp_storage.warp_aggregates[0];
    T warp_prefix = running;
#pragma unroll
    for (int w = 1; w < WARPS; ++w)
    {
      if (warp_id == static_cast<unsigned int>(w))
      {
        warp_prefix = running;
      }
      running = static_cast<T>(scan_op(running, temp_storage.warp_aggregates[w]));
    }
    block_aggregate = running;
    return warp_prefix;
  }

  //! The reduction of the seed and of everything before the calling thread's warp.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T ThreadPrefix(const T& warp_prefix, const T& seed, ScanOpT& scan_op) const
  {
    return warp_id == 0 ? seed : static_cast<T>(scan_op(seed, warp_prefix));
  }

  //! Step 3 for seeded exclusive scans.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T SeededExclusive(const T& exclusive, const T& warp_prefix, const T& seed,
                                                     ScanOpT& scan_op) const
  {
    const T prefix = ThreadPrefix(warp_prefix, seed, scan_op);
    return lane_id == 0 ? prefix : static_cast<T>(scan_op(prefix, exclusive));
  }

  //! Warp 0 calls the callback with the block aggregate; thread 0's result reaches every thread
  //! through shared memory (a second barrier).
  template <typename BlockPrefixCallbackOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T CallbackPrefix(BlockPrefixCallbackOpT& block_prefix_callback_op,
                                                    const T& block_aggregate)
  {
    if (warp_id == 0)
    {
      const T block_prefix = static_cast<T>(block_prefix_callback_op(block_aggregate));
      if (lane_id == 0)
      {
        temp_storage.block_prefix = block_prefix;
      }
    }
    __syncthreads();
    return temp_storage.block_prefix;
  }
};
} // namespace detail

STRATA_NAMESPACE_END

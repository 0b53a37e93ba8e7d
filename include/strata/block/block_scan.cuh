// strata/block/block_scan.cuh: BlockScan, block-wide prefix scans (sums and any associative
// operator, inclusive and exclusive) of one or several items per thread.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/block/block_scan_running_prefix_op.cuh>
#include <strata/block/specializations/block_scan_raking.cuh>
#include <strata/block/specializations/block_scan_warp_scans.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Block-wide prefix scans. Each thread contributes one item, or ITEMS_PER_THREAD consecutive
//! items (a blocked arrangement: thread t holds items t * ITEMS_PER_THREAD ..
//! t * ITEMS_PER_THREAD + ITEMS_PER_THREAD - 1 of the tile). Threads are ranked row-major (x
//! fastest, then y, then z). Scan operators must be associative; they need not be commutative
//! (the order of the items is kept). Floating-point sums are regrouped, so they may differ from a
//! sequential sum by rounding.
//!
//! - Exclusive scans give item i the reduction of items 0 .. i-1, seeded with an initial value
//!   (0 for sums) or a prefix callback. Without a seed, thread 0's (first) output is undefined.
//! - Inclusive scans give item i the reduction of items 0 .. i.
//! - `block_aggregate` receives the reduction of all items of the block (without the seed) in
//!   every thread.
//! - A prefix callback (`T operator()(T block_aggregate)`) is called by the first warp of the
//!   block (for raking, by its threads that rake: all of warp 0 when the block is a multiple of 32
//!   threads) with the block aggregate; the value it returns in thread 0 seeds the scan. It may
//!   keep state, e.g. a running total across the tiles a block scans in turn
//!   (BlockScanRunningPrefixOp).
//!
//! Every member must be called by all threads of the block (blocks of more than one warp
//! synchronize in it). Call `__syncthreads()` before the same TempStorage is used again. Outputs
//! may alias inputs.
//!
//! \code
//! using BlockScanT = strata::BlockScan<int, 128>;
//! __shared__ BlockScanT::TempStorage temp_storage;
//! int items[4];  // {1, 1, 1, 1} in every thread
//! BlockScanT(temp_storage).ExclusiveSum(items, items);
//! // thread t: {4t, 4t + 1, 4t + 2, 4t + 3}
//! \endcode
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockScan
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  // Tiled warp scans need whole warps (as in CUB, other sizes fall back to raking); for a single
  // warp every algorithm is the same warp scan, which the raking implementation runs directly.
  static constexpr bool USE_WARP_SCANS = ALGORITHM == BLOCK_SCAN_WARP_SCANS && BLOCK_THREADS % detail::warp_threads == 0
                                         && BLOCK_THREADS > detail::warp_threads;

  using InternalBlockScan = ::cuda::std::conditional_t<
      USE_WARP_SCANS, detail::BlockScanWarpScans<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>,
      detail::BlockScanRaking<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, ALGORITHM == BLOCK_SCAN_RAKING_MEMOIZE>>;
  using _TempStorage = typename InternalBlockScan::TempStorage;

public:
  //! The shared memory the collective needs (may sit in a union with other TempStorage).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage, one per specialization and kernel.
  STRATA_DEVICE STRATA_FORCEINLINE BlockScan()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(static_cast<unsigned int>(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockScan(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(static_cast<unsigned int>(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)))
  {
  }

  //! \name Exclusive prefix sums
  //! Thread 0 (item 0 of thread 0) gets zero, `T{}`; item i gets the sum of items 0 .. i-1.
  //! `output` may alias `input`.
  //!
  //! \code
  //! // 128 threads, one item each: {1, 1, ..., 1} -> {0, 1, ..., 127}, block_aggregate 128
  //! int block_aggregate;
  //! BlockScanT(temp_storage).ExclusiveSum(item, item, block_aggregate);
  //! \endcode
  //! @{

  //! Exclusive sum of one item per thread.
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& output)
  {
    ExclusiveScan(input, output, T{}, ::cuda::std::plus<>{});
  }

  //! Exclusive sum of one item per thread; every thread also gets the sum of all items.
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& output, T& block_aggregate)
  {
    ExclusiveScan(input, output, T{}, ::cuda::std::plus<>{}, block_aggregate);
  }

  //! Exclusive sum of one item per thread seeded with the prefix the callback returns in thread
  //! 0 (called by the first warp with the sum of all items; see the class comment).
  //!
  //! \code
  //! struct RunningTotal  // carries the sum of the tiles scanned so far
  //! {
  //!   int total;
  //!   __device__ int operator()(int block_aggregate)
  //!   {
  //!     const int prefix = total;
  //!     total += block_aggregate;
  //!     return prefix;
  //!   }
  //! };
  //! RunningTotal running{0};
  //! for (int offset = 0; offset < num_items; offset += 128)
  //! {
  //!   int item = d_data[offset + threadIdx.x];
  //!   BlockScanT(temp_storage).ExclusiveSum(item, item, running);
  //!   __syncthreads();  // before temp_storage is used again
  //!   d_data[offset + threadIdx.x] = item;
  //! }
  //! // all ones: the first tile gets 0 .. 127, the second 128 .. 255, ...
  //! \endcode
  template <typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& output,
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    ExclusiveScan(input, output, ::cuda::std::plus<>{}, block_prefix_callback_op);
  }

  //! Exclusive sum of ITEMS_PER_THREAD items per thread (blocked arrangement).
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD])
  {
    ExclusiveScan(input, output, T{}, ::cuda::std::plus<>{});
  }

  //! Exclusive sum of ITEMS_PER_THREAD items per thread; every thread also gets the sum of all
  //! items.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     T& block_aggregate)
  {
    ExclusiveScan(input, output, T{}, ::cuda::std::plus<>{}, block_aggregate);
  }

  //! Exclusive sum of ITEMS_PER_THREAD items per thread seeded with the callback's prefix.
  template <int ITEMS_PER_THREAD, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    ExclusiveScan(input, output, ::cuda::std::plus<>{}, block_prefix_callback_op);
  }

  //! @}
  //! \name Exclusive prefix scans
  //! Item i gets the reduction of items 0 .. i-1 with `scan_op`, seeded with `initial_value` (the
  //! output of thread 0's first item) or the callback's prefix. Without a seed, thread 0's first
  //! output is undefined (its other items' outputs are defined). `output` may alias `input`.
  //!
  //! \code
  //! // 128 threads, one item each: {0, -1, 2, -3, ..., 126, -127}
  //! BlockScanT(temp_storage).ExclusiveScan(item, item, INT_MIN, cuda::maximum<>{});
  //! // {INT_MIN, 0, 0, 2, 2, ..., 124, 126}
  //! \endcode
  //! @{

  //! Exclusive scan of one item per thread seeded with `initial_value`.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op)
  {
    InternalBlockScan(temp_storage, linear_tid).ExclusiveScan(input, output, initial_value, scan_op);
  }

  //! Exclusive scan of one item per thread seeded with `initial_value`; every thread also gets
  //! the reduction of all items (without `initial_value`).
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op,
                                                      T& block_aggregate)
  {
    InternalBlockScan(temp_storage, linear_tid).ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
  }

  //! Exclusive scan of one item per thread seeded with the prefix the callback returns in thread
  //! 0 (called by the first warp with the reduction of all items).
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InternalBlockScan(temp_storage, linear_tid)
        .ExclusiveScanWithCallback(input, output, scan_op, block_prefix_callback_op);
  }

  //! Exclusive scan of ITEMS_PER_THREAD items per thread seeded with `initial_value`.
  //!
  //! \code
  //! // 128 threads of 4 items: {[0, -1, 2, -3], [4, -5, 6, -7], ..., [508, -509, 510, -511]}
  //! BlockScanT(temp_storage).ExclusiveScan(items, items, INT_MIN, cuda::maximum<>{});
  //! // {[INT_MIN, 0, 0, 2], [2, 4, 4, 6], ..., [506, 508, 508, 510]}
  //! \endcode
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op)
  {
    T thread_prefix = ThreadPartial(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op);
    ThreadScanExclusive(input, output, scan_op, thread_prefix);
  }

  //! Exclusive scan of ITEMS_PER_THREAD items per thread seeded with `initial_value`; every
  //! thread also gets the reduction of all items (without `initial_value`).
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op, T& block_aggregate)
  {
    T thread_prefix = ThreadPartial(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op, block_aggregate);
    ThreadScanExclusive(input, output, scan_op, thread_prefix);
  }

  //! Exclusive scan of ITEMS_PER_THREAD items per thread seeded with the callback's prefix.
  template <int ITEMS_PER_THREAD, typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    T thread_prefix = ThreadPartial(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_prefix_callback_op);
    ThreadScanExclusive(input, output, scan_op, thread_prefix);
  }

  //! Exclusive scan of one item per thread without a seed: thread 0's output is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op)
  {
    InternalBlockScan(temp_storage, linear_tid).ExclusiveScan(input, output, scan_op);
  }

  //! Exclusive scan of one item per thread without a seed (thread 0's output is undefined);
  //! every thread also gets the reduction of all items.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    InternalBlockScan(temp_storage, linear_tid).ExclusiveScan(input, output, scan_op, block_aggregate);
  }

  //! Exclusive scan of ITEMS_PER_THREAD items per thread without a seed: `output[0]` of thread 0
  //! is undefined.
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op)
  {
    T thread_prefix = ThreadPartial(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, scan_op);
    ThreadScanExclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
  }

  //! Exclusive scan of ITEMS_PER_THREAD items per thread without a seed (`output[0]` of thread 0
  //! is undefined); every thread also gets the reduction of all items.
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, T& block_aggregate)
  {
    T thread_prefix = ThreadPartial(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_aggregate);
    ThreadScanExclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
  }

  //! @}
  //! \name Inclusive prefix sums
  //! Item i gets the sum of items 0 .. i. `output` may alias `input`.
  //!
  //! \code
  //! // 128 threads of 4 items, all ones: {[1, 2, 3, 4], [5, 6, 7, 8], ..., [509, 510, 511, 512]}
  //! BlockScanT(temp_storage).InclusiveSum(items, items);
  //! \endcode
  //! @{

  //! Inclusive sum of one item per thread.
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& output)
  {
    InclusiveScan(input, output, ::cuda::std::plus<>{});
  }

  //! Inclusive sum of one item per thread; every thread also gets the sum of all items.
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& output, T& block_aggregate)
  {
    InclusiveScan(input, output, ::cuda::std::plus<>{}, block_aggregate);
  }

  //! Inclusive sum of one item per thread seeded with the prefix the callback returns in thread
  //! 0 (called by the first warp with the sum of all items).
  template <typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& output,
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InclusiveScan(input, output, ::cuda::std::plus<>{}, block_prefix_callback_op);
  }

  //! Inclusive sum of ITEMS_PER_THREAD items per thread.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD])
  {
    InclusiveScan(input, output, ::cuda::std::plus<>{});
  }

  //! Inclusive sum of ITEMS_PER_THREAD items per thread; every thread also gets the sum of all
  //! items.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     T& block_aggregate)
  {
    InclusiveScan(input, output, ::cuda::std::plus<>{}, block_aggregate);
  }

  //! Inclusive sum of ITEMS_PER_THREAD items per thread seeded with the callback's prefix.
  template <int ITEMS_PER_THREAD, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InclusiveScan(input, output, ::cuda::std::plus<>{}, block_prefix_callback_op);
  }

  //! @}
  //! \name Inclusive prefix scans
  //! Item i gets the reduction of items 0 .. i with `scan_op`, seeded (on the left) with
  //! `initial_value` or the callback's prefix where given. `output` may alias `input`.
  //!
  //! \code
  //! // 128 threads of 4 items: {[0, -1, 2, -3], [4, -5, 6, -7], ..., [508, -509, 510, -511]}
  //! int block_aggregate;
  //! BlockScanT(temp_storage).InclusiveScan(items, items, cuda::maximum<>{}, block_aggregate);
  //! // {[0, 0, 2, 2], [4, 4, 6, 6], ..., [508, 508, 510, 510]}, block_aggregate 510
  //! \endcode
  //! @{

  //! Inclusive scan of one item per thread.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op)
  {
    InternalBlockScan(temp_storage, linear_tid).InclusiveScan(input, output, scan_op);
  }

  //! Inclusive scan of one item per thread; every thread also gets the reduction of all items.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    InternalBlockScan(temp_storage, linear_tid).InclusiveScan(input, output, scan_op, block_aggregate);
  }

  //! Inclusive scan of one item per thread seeded with the prefix the callback returns in thread
  //! 0 (called by the first warp with the reduction of all items).
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InternalBlockScan(temp_storage, linear_tid)
        .InclusiveScanWithCallback(input, output, scan_op, block_prefix_callback_op);
  }

  //! Inclusive scan of ITEMS_PER_THREAD items per thread.
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveScan(input[0], output[0], scan_op);
    }
    else
    {
      T thread_prefix = ThreadPartial(input, scan_op);
      ExclusiveScan(thread_prefix, thread_prefix, scan_op);
      ThreadScanInclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
    }
  }

  //! Inclusive scan of ITEMS_PER_THREAD items per thread seeded with `initial_value`.
  //!
  //! \code
  //! // 64 threads of 2 items: {[0, -1], [2, -3], ..., [126, -127]}
  //! BlockScanT(temp_storage).InclusiveScan(items, items, 1, cuda::maximum<>{});
  //! // {[1, 1], [2, 2], [4, 4], ..., [126, 126]}
  //! \endcode
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op)
  {
    T thread_prefix = ThreadPartial(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op);
    ThreadScanInclusive(input, output, scan_op, thread_prefix);
  }

  //! Inclusive scan of ITEMS_PER_THREAD items per thread; every thread also gets the reduction
  //! of all items.
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, T& block_aggregate)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveScan(input[0], output[0], scan_op, block_aggregate);
    }
    else
    {
      T thread_prefix = ThreadPartial(input, scan_op);
      ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_aggregate);
      ThreadScanInclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
    }
  }

  //! Inclusive scan of ITEMS_PER_THREAD items per thread seeded with `initial_value`; every
  //! thread also gets the reduction of all items (without `initial_value`).
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op, T& block_aggregate)
  {
    T thread_prefix = ThreadPartial(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op, block_aggregate);
    ThreadScanInclusive(input, output, scan_op, thread_prefix);
  }

  //! Inclusive scan of ITEMS_PER_THREAD items per thread seeded with the callback's prefix.
  template <int ITEMS_PER_THREAD, typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveScan(input[0], output[0], scan_op, block_prefix_callback_op);
    }
    else
    {
      T thread_prefix = ThreadPartial(input, scan_op);
      ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_prefix_callback_op);
      ThreadScanInclusive(input, output, scan_op, thread_prefix);
    }
  }

  //! @}

private:
  //! The reduction of the calling thread's items, as T (ThreadReduce may accumulate wider, e.g.
  //! int for sums of int8_t; the block scan works in T).
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE static T ThreadPartial(const T (&input)[ITEMS_PER_THREAD], ScanOp& scan_op)
  {
    return static_cast<T>(ThreadReduce(input, scan_op));
  }

  _TempStorage& temp_storage;
  unsigned int linear_tid;
};

STRATA_NAMESPACE_END

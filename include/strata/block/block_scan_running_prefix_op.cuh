// strata/block/block_scan_running_prefix_op.cuh: BlockScanRunningPrefixOp, the prefix callback
// that carries a running total from one BlockScan of a block to its next (CUB declares it with the
// single-pass scan operators; it lives here, in the block layer, so that BlockScan users have it).
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

//! A BlockScan prefix callback for a block that scans a sequence tile after tile: each call
//! returns the running total of the tiles before (the prefix of this tile) and adds this tile's
//! aggregate to it with `op`. The callback keeps its state in the calling thread, and BlockScan
//! uses thread 0's result, so keep the object in a variable of the thread (not a temporary) for
//! the whole sequence.
//!
//! \code
//! using BlockScanT = strata::BlockScan<int, 128>;
//! __shared__ BlockScanT::TempStorage temp_storage;
//! strata::BlockScanRunningPrefixOp<int, cuda::std::plus<>> prefix_op(0, cuda::std::plus<>{});
//! for (int tile = 0; tile < num_tiles; ++tile)
//! {
//!   int item = d_data[tile * 128 + threadIdx.x];
//!   BlockScanT(temp_storage).ExclusiveScan(item, item, cuda::std::plus<>{}, prefix_op);
//!   __syncthreads(); // temp_storage is used again
//!   d_data[tile * 128 + threadIdx.x] = item;
//! }
//! \endcode
template <typename T, typename ScanOpT>
struct BlockScanRunningPrefixOp
{
  //! The operator that adds a tile's aggregate to the running total.
  ScanOpT op;
  //! The reduction of the aggregates seen so far (seeded with the starting prefix).
  T running_total;

  //! Starts the running total at T() (CUB leaves it uninitialized): pass the starting prefix
  //! where T() is not what the first tile's prefix should be.
  STRATA_HOST_DEVICE STRATA_FORCEINLINE BlockScanRunningPrefixOp(ScanOpT op)
      : op(op)
      , running_total()
  {
  }

  //! Starts with `starting_prefix`, the prefix of the first tile.
  STRATA_HOST_DEVICE STRATA_FORCEINLINE BlockScanRunningPrefixOp(T starting_prefix, ScanOpT op)
      : op(op)
      , running_total(starting_prefix)
  {
  }

  //! Returns the running total, then combines `block_aggregate` into it: op(running_total,
  //! block_aggregate).
  STRATA_EXEC_CHECK_DISABLE
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(const T& block_aggregate)
  {
    const T prefix = running_total;
    running_total  = op(running_total, block_aggregate);
    return prefix;
  }
};

STRATA_NAMESPACE_END

// test/device/scan_tile_kernels.cuh: the tile-by-tile scan kernel that test_single_pass_scan_operators
// and test_device_lookback_faults run TilePrefixCallbackOp's look-back in: each block takes a tile
// from a counter, scans it with BlockScan and gets its prefix from the look-back.
#pragma once

#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>

#include <cstddef>

namespace strata_test
{
namespace scan_tiles_detail
{
constexpr int block_threads = 128;
constexpr int block_items   = 4;
constexpr int tile_items    = block_threads * block_items;
} // namespace scan_tiles_detail

//! Descriptors of `num_tiles` tiles made INVALID (tile_state's own initialization) and the tile
//! counter zeroed.
template <typename T>
__global__ void init_status(strata::ScanTileState<T> tile_state, int num_tiles, unsigned int* counter)
{
  tile_state.InitializeStatus(num_tiles);
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    *counter = 0;
  }
}

//! Out of each tile's look-back, what the callback kept: its tile id, exclusive and inclusive
//! prefix and aggregate, read through the accessors after the scan.
template <typename T>
struct kept_t
{
  int tile;
  T exclusive;
  T inclusive;
  T aggregate;
};

//! An inclusive scan of in[0, num_tiles * tile_items) with one block a tile. With `tile0_partial`,
//! tile 0 publishes its aggregate as PARTIAL (a status a look-back must not walk past) instead of
//! INCLUSIVE; the block that takes tile `stuck_tile` (none where negative) leaves at once, so that
//! its descriptor stays unpublished for good; where `kept` is not null, each later tile's callback
//! state goes there.
template <typename T, typename OpT, typename LookbackT>
__global__ void __launch_bounds__(scan_tiles_detail::block_threads)
    scan_tiles(const T* in, T* out, kept_t<T>* kept, strata::ScanTileState<T> tile_state, unsigned int* counter, OpT op,
               bool tile0_partial, int stuck_tile)
{
  using namespace scan_tiles_detail;
  using BlockScanT = strata::BlockScan<T, block_threads>;
  using PrefixOpT  = strata::TilePrefixCallbackOp<T, OpT, strata::ScanTileState<T>, LookbackT>;
  __shared__ typename BlockScanT::TempStorage scan_storage;
  __shared__ typename PrefixOpT::TempStorage prefix_storage;
  __shared__ int tile_shared;
  if (threadIdx.x == 0)
  {
    tile_shared = int(atomicAdd(counter, 1u));
  }
  __syncthreads();
  const int tile = tile_shared;
  if (tile == stuck_tile)
  {
    return;
  }
  T items[block_items];
  strata::LoadDirectBlocked(int(threadIdx.x), in + std::size_t(tile) * tile_items, items);
  if (tile == 0)
  {
    T aggregate;
    BlockScanT(scan_storage).InclusiveScan(items, items, op, aggregate);
    if (threadIdx.x == 0)
    {
      if (tile0_partial)
      {
        tile_state.SetPartial(0, aggregate);
      }
      else
      {
        tile_state.SetInclusive(0, aggregate);
      }
    }
  }
  else
  {
    PrefixOpT prefix_op(tile_state, prefix_storage, op, tile);
    BlockScanT(scan_storage).InclusiveScan(items, items, op, prefix_op);
    if (kept != nullptr)
    {
      __syncthreads();
      if (threadIdx.x == 0)
      {
        kept[tile] = kept_t<T>{prefix_op.GetTileIdx(), prefix_op.GetExclusivePrefix(), prefix_op.GetInclusivePrefix(),
                               prefix_op.GetBlockAggregate()};
      }
    }
  }
#pragma unroll
  for (int i = 0; i < block_items; ++i)
  {
    out[std::size_t(tile) * tile_items + threadIdx.x * block_items + i] = items[i];
  }
}
} // namespace strata_test

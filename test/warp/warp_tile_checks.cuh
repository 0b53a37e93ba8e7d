// test/warp/warp_tile_checks.cuh: what the WarpExchange, WarpLoad and WarpStore tests share: where
// the logical warps of a test grid sit, their tiles, the valid_items each gets, and the value of
// poisoned memory.
#pragma once

#include "warp_layout.cuh"

#include <strata/util_ptx.cuh>

#include "common/test_common.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace strata_test
{
//! Test grids: two blocks of three hardware warps, every logical warp with its own tile.
inline constexpr int tile_blocks        = 2;
inline constexpr int tile_block_threads = 96;

//! Where the logical warps of LOGICAL_WARP_THREADS lanes sit in a test grid: each block as
//! logical_warp_layout says (several per hardware warp for sizes up to 16, the lanes past the last
//! whole group sitting out). Logical warp g of the grid owns tile g: items g * TILE ..
//! (g + 1) * TILE - 1 of the data.
template <int LOGICAL_WARP_THREADS, int ITEMS_PER_THREAD>
struct tile_layout
{
  using block_layout                   = logical_warp_layout<LOGICAL_WARP_THREADS, tile_block_threads>;
  static constexpr int WARPS_PER_BLOCK = block_layout::WARPS;
  static constexpr int WARPS           = WARPS_PER_BLOCK * tile_blocks;
  static constexpr int TILE            = LOGICAL_WARP_THREADS * ITEMS_PER_THREAD;
  static constexpr int ITEMS           = WARPS * TILE;

  //! The calling thread's logical warp in the grid and lane in it; false when it sits out.
  __device__ static bool locate(int& warp, int& lane)
  {
    const bool in_warp = block_layout::locate(static_cast<int>(threadIdx.x), warp, lane);
    warp += static_cast<int>(blockIdx.x) * WARPS_PER_BLOCK;
    return in_warp;
  }

  //! The lanes of the calling thread's logical warp, for __syncwarp between uses of one TempStorage.
  __device__ static unsigned int member_mask()
  {
    return strata::WarpMask<LOGICAL_WARP_THREADS>(strata::LaneId() / LOGICAL_WARP_THREADS);
  }
};

} // namespace strata_test

// test/warp/warp_layout.cuh: where the logical warps of a warp-layer test sit in a block.
#pragma once

namespace strata_test
{
//! Logical warps of LOGICAL_WARP_THREADS lanes in a block of BLOCK_THREADS threads: power-of-two
//! sizes tile the block; other sizes take lanes 0 .. L-1 of every hardware warp (the rest sit
//! out), as CUB defines them.
template <int LOGICAL_WARP_THREADS, int BLOCK_THREADS>
struct logical_warp_layout
{
  static constexpr bool TILES = (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0;
  //! Logical warps per block, and the distance between the first threads of two of them.
  static constexpr int WARPS  = TILES ? BLOCK_THREADS / LOGICAL_WARP_THREADS : BLOCK_THREADS / 32;
  static constexpr int STRIDE = TILES ? LOGICAL_WARP_THREADS : 32;

  //! The thread that is lane `lane` of logical warp `warp`.
  __host__ __device__ static constexpr int thread(int warp, int lane)
  {
    return warp * STRIDE + lane;
  }
};
} // namespace strata_test

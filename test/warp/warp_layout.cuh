// test/warp/warp_layout.cuh: where the logical warps of a warp-layer test sit in a block.
#pragma once

namespace strata_test
{
//! Logical warps of LOGICAL_WARP_THREADS lanes in a block of BLOCK_THREADS threads: every hardware
//! warp splits into groups of LOGICAL_WARP_THREADS consecutive lanes from lane 0 (several per
//! hardware warp for sizes up to 16), and the lanes past its last whole group sit out, as do the
//! threads of a partial last hardware warp that fill no whole group.
template <int LOGICAL_WARP_THREADS, int BLOCK_THREADS>
struct logical_warp_layout
{
  static constexpr int PER_HARDWARE_WARP = 32 / LOGICAL_WARP_THREADS;
  //! Logical warps per block.
  static constexpr int WARPS = BLOCK_THREADS / 32 * PER_HARDWARE_WARP + BLOCK_THREADS % 32 / LOGICAL_WARP_THREADS;
  static_assert(WARPS > 0, "the block holds no whole logical warp");

  //! The thread that is lane `lane` of logical warp `warp`.
  __host__ __device__ static constexpr int thread(int warp, int lane)
  {
    return warp / PER_HARDWARE_WARP * 32 + warp % PER_HARDWARE_WARP * LOGICAL_WARP_THREADS + lane;
  }

  //! The logical warp and lane of thread `tid`; false when the thread sits out.
  __host__ __device__ static constexpr bool locate(int tid, int& warp, int& lane)
  {
    const int group = tid % 32 / LOGICAL_WARP_THREADS;
    warp            = tid / 32 * PER_HARDWARE_WARP + group;
    lane            = tid % 32 % LOGICAL_WARP_THREADS;
    return group < PER_HARDWARE_WARP && warp < WARPS;
  }
};
} // namespace strata_test

// test/block/block_move_checks.cuh: what the BlockExchange, BlockLoad and BlockStore tests share:
// block shapes, the tile positions of the blocked, striped and warp-striped arrangements, the
// valid_items each block gets, and the value of poisoned memory.
#pragma once

#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace strata_test
{
//! A thread block of DX * DY * DZ threads with ITEMS_PER_THREAD items each.
template <int DX, int DY, int DZ, int ITEMS_PER_THREAD>
struct block_tile
{
  static constexpr int THREADS = DX * DY * DZ;
  static constexpr int TILE    = THREADS * ITEMS_PER_THREAD;

  static dim3 block()
  {
    return dim3(DX, DY, DZ);
  }
  //! The calling thread's row-major rank (x fastest), computed independently of strata.
  __device__ static int rank()
  {
    return static_cast<int>(threadIdx.x + DX * (threadIdx.y + DY * threadIdx.z));
  }
};

//! The tile positions of item i of the thread of rank t in a block of `threads` threads with
//! `items` items each: blocked, striped, and warp-striped (a partial last warp of W threads
//! stripes its items over those W).
inline int blocked_pos(int t, int i, int /*threads*/, int items)
{
  return t * items + i;
}
inline int striped_pos(int t, int i, int threads, int /*items*/)
{
  return i * threads + t;
}
inline int warp_striped_pos(int t, int i, int threads, int items)
{
  const int warp         = t / 32;
  const int warp_threads = std::min(32, threads - warp * 32);
  return warp * 32 * items + i * warp_threads + t % 32;
}

//! Writes the calling thread's items to `out` in thread-major order (thread t's item i at
//! t * ITEMS_PER_THREAD + i), whatever arrangement they are in.
template <typename T, int ITEMS_PER_THREAD>
__device__ void dump_items(T* out, int rank, const T (&items)[ITEMS_PER_THREAD])
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    out[rank * ITEMS_PER_THREAD + i] = items[i];
  }
}
} // namespace strata_test

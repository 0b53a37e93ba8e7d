// test/tile/tile_checks.cuh: what the tile floor's tests share: the policy ScanTileRows reads, the
// tile layouts written out from their documentation (not from strata's code), poisoned
// expectations and one-warp-per-case launches.
#pragma once

#include "common/test_common.cuh"

#include <strata/thread/thread_load.cuh>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata_test
{
//! The members of an agent policy that ScanTileRows reads.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, strata::CacheLoadModifier LOAD_MODIFIER_ = strata::LOAD_DEFAULT>
struct rows_policy
{
  static constexpr int BLOCK_THREADS                       = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD                    = ITEMS_PER_THREAD_;
  static constexpr strata::CacheLoadModifier LOAD_MODIFIER = LOAD_MODIFIER_;
};

//! The tile index of item k (= r * vec + j) of thread t, when the tile is cut into parts of
//! stripe * items consecutive items, one per group of `stripe` threads, and thread t of a group
//! holds vectors t, t + stripe, ... (of `vec` items) of its part.
inline int striped_vector_index(int t, int k, int items, int vec, int stripe)
{
  const int group = t / stripe;
  const int r     = k / vec;
  const int j     = k % vec;
  return group * stripe * items + (r * stripe + t % stripe) * vec + j;
}

//! `n` copies of the value a poisoned buffer holds.
template <typename T>
std::vector<T> poisoned(std::size_t n)
{
  return std::vector<T>(n, poison_value<T>());
}

//! Whether `ptr` is a multiple of `bytes`, computed on the host.
inline bool host_aligned(const void* ptr, std::size_t bytes)
{
  return reinterpret_cast<std::uintptr_t>(ptr) % bytes == 0;
}

//! Item counts on both sides of `tile`, 0 and 1 included, and a few larger non-multiples.
inline std::vector<long long> sizes_around(long long tile)
{
  return {0, 1, 2, tile - 1, tile, tile + 1, 2 * tile - 1, 3 * tile, 3 * tile + 17, 7 * tile + tile / 2 + 3};
}
} // namespace strata_test

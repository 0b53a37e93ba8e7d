// Tests of strata/thread/thread_direct.cuh: every LoadDirect* and StoreDirect* form (full, guarded,
// guarded with a default) in blocked, vectorized, striped and warp-striped order, over blocks
// that each move their own tile with valid_items 0, 1, tile - 1, tile and a random count; stores
// into poisoned memory, which must keep its poison wherever nothing may be written. Vectorized
// forms also run from a misaligned pointer, where they must fall back to item-by-item accesses.
#include <strata/thread/thread_direct.cuh>

#include "common/test_common.cuh"

#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
enum class arrangement
{
  blocked,
  vectorized,
  striped,
  warp_striped
};

enum class guard : int
{
  none,
  valid_items,
  valid_items_default
};

//! Blocks per test grid: one for each count of valid_items_per_tile.
constexpr int test_blocks = 5;

//! Where thread t's item i lies in its block's tile (the definitions of the arrangements).
int tile_position(arrangement a, int block_threads, int items_per_thread, int t, int i)
{
  switch (a)
  {
  case arrangement::striped:
    return i * block_threads + t;
  case arrangement::warp_striped:
    return (t / 32) * 32 * items_per_thread + i * 32 + t % 32;
  default:
    return t * items_per_thread + i;
  }
}

//! Each block loads its tile (items preset to `sentinel`) with the form chosen by A and `mode`,
//! and writes the items out thread by thread.
template <arrangement A, int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename DefaultT>
__global__ void load_kernel(const T* in, const int* valid_items, guard mode, T sentinel, DefaultT oob_default, T* out)
{
  const int tid   = static_cast<int>(threadIdx.x);
  const T* tile   = in + blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
  const int valid = valid_items[blockIdx.x];
  T items[ITEMS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = sentinel;
  }
  if constexpr (A == arrangement::vectorized)
  {
    strata::LoadDirectBlockedVectorized(tid, tile, items);
  }
  else if (mode == guard::none)
  {
    if constexpr (A == arrangement::blocked)
    {
      strata::LoadDirectBlocked(tid, tile, items);
    }
    else if constexpr (A == arrangement::striped)
    {
      strata::LoadDirectStriped<BLOCK_THREADS>(tid, tile, items);
    }
    else
    {
      strata::LoadDirectWarpStriped(tid, tile, items);
    }
  }
  else if (mode == guard::valid_items)
  {
    if constexpr (A == arrangement::blocked)
    {
      strata::LoadDirectBlocked(tid, tile, items, valid);
    }
    else if constexpr (A == arrangement::striped)
    {
      strata::LoadDirectStriped<BLOCK_THREADS>(tid, tile, items, valid);
    }
    else
    {
      strata::LoadDirectWarpStriped(tid, tile, items, valid);
    }
  }
  else
  {
    if constexpr (A == arrangement::blocked)
    {
      strata::LoadDirectBlocked(tid, tile, items, valid, oob_default);
    }
    else if constexpr (A == arrangement::striped)
    {
      strata::LoadDirectStriped<BLOCK_THREADS>(tid, tile, items, valid, oob_default);
    }
    else
    {
      strata::LoadDirectWarpStriped(tid, tile, items, valid, oob_default);
    }
  }
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    out[(blockIdx.x * BLOCK_THREADS + tid) * ITEMS_PER_THREAD + i] = items[i];
  }
}

//! Each block stores its threads' items (thread t's item i is input t * N + i of the block) into
//! its tile with the form chosen by A and `mode`.
template <arrangement A, int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD>
__global__ void store_kernel(const T* in, const int* valid_items, guard mode, T* out)
{
  const int tid   = static_cast<int>(threadIdx.x);
  T* tile         = out + blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
  const int valid = valid_items[blockIdx.x];
  T items[ITEMS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = in[(blockIdx.x * BLOCK_THREADS + tid) * ITEMS_PER_THREAD + i];
  }
  if constexpr (A == arrangement::vectorized)
  {
    strata::StoreDirectBlockedVectorized(tid, tile, items);
  }
  else if (mode == guard::none)
  {
    if constexpr (A == arrangement::blocked)
    {
      strata::StoreDirectBlocked(tid, tile, items);
    }
    else if constexpr (A == arrangement::striped)
    {
      strata::StoreDirectStriped<BLOCK_THREADS>(tid, tile, items);
    }
    else
    {
      strata::StoreDirectWarpStriped(tid, tile, items);
    }
  }
  else
  {
    if constexpr (A == arrangement::blocked)
    {
      strata::StoreDirectBlocked(tid, tile, items, valid);
    }
    else if constexpr (A == arrangement::striped)
    {
      strata::StoreDirectStriped<BLOCK_THREADS>(tid, tile, items, valid);
    }
    else
    {
      strata::StoreDirectWarpStriped(tid, tile, items, valid);
    }
  }
}

//! Runs the load and store forms of one arrangement over a grid of test_blocks blocks and checks
//! every element read or written. `offset` shifts the data by that many items from the
//! allocation's start (1 misaligns the vector words).
template <arrangement A, int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename DefaultT = T>
void check_direct(std::uint64_t salt, int offset = 0)
{
  constexpr int TILE  = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr int ITEMS = test_blocks * TILE;
  const auto seed     = strata_test::seed(salt);
  INFO("seed " << seed << ", " << BLOCK_THREADS << " threads, " << ITEMS_PER_THREAD << " items per thread, offset "
               << offset);

  const std::vector<T> data    = strata_test::random_vector<T>(ITEMS + offset, seed);
  const std::vector<int> valid = strata_test::valid_items_per_tile(test_blocks, TILE, seed + 1);
  const T sentinel             = strata_test::random_vector<T>(1, seed + 2)[0];
  const DefaultT oob_default   = strata_test::random_vector<DefaultT>(1, seed + 3)[0];
  const T* in                  = data.data() + offset;

  strata_test::device_buffer<T> d_data(data);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(ITEMS + offset));

  // The vectorized forms have no guarded variant.
  constexpr bool GUARDED = A != arrangement::vectorized;
  const std::vector<guard> load_modes =
      GUARDED ? std::vector<guard>{guard::none, guard::valid_items, guard::valid_items_default}
              : std::vector<guard>{guard::none};
  const std::vector<guard> store_modes =
      GUARDED ? std::vector<guard>{guard::none, guard::valid_items} : std::vector<guard>{guard::none};

  for (const guard mode : load_modes)
  {
    INFO("load, guard " << static_cast<int>(mode));
    d_out.poison();
    load_kernel<A, BLOCK_THREADS, T, ITEMS_PER_THREAD><<<test_blocks, BLOCK_THREADS>>>(
        d_data.data() + offset, d_valid.data(), mode, sentinel, oob_default, d_out.data());
    strata_test::check_launch();
    std::vector<T> expected(static_cast<std::size_t>(ITEMS + offset), strata_test::poison_value<T>());
    for (int b = 0; b < test_blocks; ++b)
    {
      for (int t = 0; t < BLOCK_THREADS; ++t)
      {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          const int pos        = tile_position(A, BLOCK_THREADS, ITEMS_PER_THREAD, t, i);
          const bool valid_pos = mode == guard::none || pos < valid[static_cast<std::size_t>(b)];
          const T fill         = mode == guard::valid_items_default ? static_cast<T>(oob_default) : sentinel;
          expected[static_cast<std::size_t>((b * BLOCK_THREADS + t) * ITEMS_PER_THREAD + i)] =
              valid_pos ? in[b * TILE + pos] : fill;
        }
      }
    }
    strata_test::check_equal(expected, d_out.download());
  }

  for (const guard mode : store_modes)
  {
    INFO("store, guard " << static_cast<int>(mode));
    d_out.poison();
    store_kernel<A, BLOCK_THREADS, T, ITEMS_PER_THREAD>
        <<<test_blocks, BLOCK_THREADS>>>(d_data.data(), d_valid.data(), mode, d_out.data() + offset);
    strata_test::check_launch();
    std::vector<T> expected(static_cast<std::size_t>(ITEMS + offset), strata_test::poison_value<T>());
    for (int b = 0; b < test_blocks; ++b)
    {
      for (int t = 0; t < BLOCK_THREADS; ++t)
      {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          const int pos = tile_position(A, BLOCK_THREADS, ITEMS_PER_THREAD, t, i);
          if (mode == guard::none || pos < valid[static_cast<std::size_t>(b)])
          {
            expected[static_cast<std::size_t>(offset + b * TILE + pos)] =
                data[static_cast<std::size_t>((b * BLOCK_THREADS + t) * ITEMS_PER_THREAD + i)];
          }
        }
      }
    }
    strata_test::check_equal(expected, d_out.download());
  }
}
} // namespace

TEST_CASE("LoadDirectBlocked / StoreDirectBlocked", "[thread][direct]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_direct<arrangement::blocked, 64, std::int32_t, 3>(1);
  check_direct<arrangement::blocked, 32, __half, 4>(2);
  check_direct<arrangement::blocked, 96, strata_test::custom_t, 7>(3);
  check_direct<arrangement::blocked, 40, std::int64_t, 1>(4);
}

TEST_CASE("LoadDirectBlockedVectorized / StoreDirectBlockedVectorized", "[thread][direct]")
{
  STRATA_TEST_REQUIRE_GPU();
  // 16-byte words: one for 4 ints and for 8 halves, two for 4 doubles, three for 4 custom_t.
  for (const int offset : {0, 1})
  {
    check_direct<arrangement::vectorized, 64, std::int32_t, 4>(11, offset);
    check_direct<arrangement::vectorized, 32, __half, 8>(12, offset);
    check_direct<arrangement::vectorized, 64, double, 4>(13, offset);
    check_direct<arrangement::vectorized, 32, strata_test::custom_t, 4>(14, offset);
    // Narrower words: 4 bytes of 4 int8 and of 2 bfloat16.
    check_direct<arrangement::vectorized, 64, std::int8_t, 4>(15, offset);
    check_direct<arrangement::vectorized, 32, __nv_bfloat16, 2>(16, offset);
    // No word wider than the item: item by item.
    check_direct<arrangement::vectorized, 32, std::int32_t, 3>(17, offset);
    check_direct<arrangement::vectorized, 64, std::uint16_t, 7>(18, offset);
  }
}

TEST_CASE("LoadDirectStriped / StoreDirectStriped", "[thread][direct]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_direct<arrangement::striped, 64, float, 4>(21);
  // A default of another type than the items, converted.
  check_direct<arrangement::striped, 96, std::int64_t, 3, std::int32_t>(22);
  check_direct<arrangement::striped, 32, strata_test::custom_t, 1>(23);
  // Striping does not need whole warps.
  check_direct<arrangement::striped, 50, std::uint8_t, 7>(24);
}

TEST_CASE("LoadDirectWarpStriped / StoreDirectWarpStriped", "[thread][direct]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_direct<arrangement::warp_striped, 64, std::uint8_t, 7>(31);
  check_direct<arrangement::warp_striped, 96, double, 4>(32);
  check_direct<arrangement::warp_striped, 32, __nv_bfloat16, 3>(33);
}

TEST_CASE("thread_direct tests: the reference arrangements cover every tile position once", "[thread][direct]")
{
  for (const arrangement a : {arrangement::blocked, arrangement::striped, arrangement::warp_striped})
  {
    constexpr int threads = 96;
    constexpr int items   = 3;
    std::vector<int> hits(threads * items, 0);
    for (int t = 0; t < threads; ++t)
    {
      for (int i = 0; i < items; ++i)
      {
        ++hits[static_cast<std::size_t>(tile_position(a, threads, items, t, i))];
      }
    }
    CHECK(hits == std::vector<int>(threads * items, 1));
  }
  // Thread 33 of 4 items: blocked 132..135, striped over 96 threads 33, 129, ..., warp-striped in
  // the second warp's 128 items from lane 1.
  CHECK(tile_position(arrangement::blocked, 96, 4, 33, 2) == 134);
  CHECK(tile_position(arrangement::striped, 96, 4, 33, 1) == 129);
  CHECK(tile_position(arrangement::warp_striped, 96, 4, 33, 1) == 128 + 1 + 32);
}

TEST_CASE("LoadDirectBlockedVectorized: the vector words", "[thread][direct]")
{
  using strata::detail::BlockedVector;
  STATIC_REQUIRE(BlockedVector<std::int32_t, 4>::WORD_BYTES == 16);
  STATIC_REQUIRE(BlockedVector<std::int32_t, 4>::WORDS == 1);
  STATIC_REQUIRE(BlockedVector<double, 4>::WORD_BYTES == 16);
  STATIC_REQUIRE(BlockedVector<double, 4>::WORDS == 2);
  STATIC_REQUIRE(BlockedVector<strata_test::custom_t, 4>::WORDS == 3);
  STATIC_REQUIRE(BlockedVector<__half, 8>::WORD_BYTES == 16);
  STATIC_REQUIRE(BlockedVector<std::int8_t, 4>::WORD_BYTES == 4);
  STATIC_REQUIRE(BlockedVector<std::int8_t, 4>::ENABLED);
  STATIC_REQUIRE(std::is_same_v<BlockedVector<__nv_bfloat16, 2>::Word, unsigned int>);
  // Words no wider than the item's alignment gain nothing.
  STATIC_REQUIRE_FALSE(BlockedVector<std::int32_t, 3>::ENABLED);
  STATIC_REQUIRE_FALSE(BlockedVector<double, 1>::ENABLED);
  STATIC_REQUIRE_FALSE(BlockedVector<std::uint16_t, 7>::ENABLED);
}

// Tests of strata/tile/tile_prefetch.cuh: PrefetchTiles' distance in tiles, and PrefetchAhead
// (with PrefetchTile under it) called from every tile of inputs that end their allocation, as the
// agents call it before loading their own tile: whole tiles and a partial last tile, pointers
// aligned to 16 bytes and not, tiles whose bytes are no multiple of 16, two inputs at once and an
// iterator input. A prefetch is a hint, so what can be checked is that it never faults (a bulk
// prefetch past an allocation, where memcheck watches too) and never changes what the block loads.
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_prefetch.cuh>

#include "tile_checks.cuh"

#include <cstdint>
#include <vector>

namespace
{
namespace tile = strata::detail::tile;

constexpr int block_threads = 64;

//! Block b prefetches ahead of tile b of `num_tiles` for both inputs, then adds its tile of each
//! into out.
template <int PREFETCH_TILES, int TILE_ITEMS, typename OffsetT, typename InputItA, typename InputItB, typename T>
__global__ void __launch_bounds__(block_threads)
    prefetch_kernel(InputItA in_a, InputItB in_b, OffsetT num_items, T* out)
{
  const int t               = static_cast<int>(blockIdx.x);
  const int num_tiles       = static_cast<int>((num_items + OffsetT(TILE_ITEMS) - 1) / OffsetT(TILE_ITEMS));
  const OffsetT tile_offset = OffsetT(t) * OffsetT(TILE_ITEMS);
  tile::PrefetchAhead<PREFETCH_TILES, TILE_ITEMS, OffsetT>(t, num_tiles, in_a, in_b);
  const int valid = tile::ValidItems<TILE_ITEMS>(num_items, tile_offset);
  for (int i = static_cast<int>(threadIdx.x); i < valid; i += block_threads)
  {
    out[tile_offset + OffsetT(i)] = T(in_a[tile_offset + OffsetT(i)] + in_b[tile_offset + OffsetT(i)]);
  }
}

//! Both inputs end their allocations; `b_offset` items misalign the second one.
template <int PREFETCH_TILES, int TILE_ITEMS, typename T, typename OffsetT>
void check_prefetch(long long n, int b_offset, std::uint64_t salt)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed << ", " << n << " items, tiles of " << TILE_ITEMS << " x " << sizeof(T) << " bytes, "
               << PREFETCH_TILES << " tiles ahead, second input misaligned by " << b_offset << " items");
  const auto size        = static_cast<std::size_t>(n);
  const std::vector<T> a = strata_test::random_vector<T>(size, seed);
  const std::vector<T> b = strata_test::random_vector<T>(size + static_cast<std::size_t>(b_offset), seed + 1);
  strata_test::device_buffer<T> d_a(a);
  strata_test::device_buffer<T> d_b(b);
  strata_test::device_buffer<T> d_out(size + 1);
  d_out.poison();
  const int tiles = static_cast<int>((n + TILE_ITEMS - 1) / TILE_ITEMS);
  if (tiles > 0)
  {
    prefetch_kernel<PREFETCH_TILES, TILE_ITEMS><<<tiles, block_threads>>>(static_cast<const T*>(d_a.data()),
                                                                          static_cast<const T*>(d_b.data() + b_offset),
                                                                          static_cast<OffsetT>(n), d_out.data());
    strata_test::check_launch();
  }
  std::vector<T> expected = strata_test::poisoned<T>(size + 1);
  for (std::size_t i = 0; i < size; ++i)
  {
    expected[i] = T(a[i] + b[i + static_cast<std::size_t>(b_offset)]);
  }
  strata_test::check_equal(expected, d_out.download());
}
} // namespace

TEST_CASE("PrefetchTiles: none for no bytes, at least one tile otherwise, whole tiles of the bytes ahead",
          "[tile][prefetch]")
{
  STATIC_REQUIRE(tile::PrefetchTiles(0, 4096) == 0);
  STATIC_REQUIRE(tile::PrefetchTiles(-16, 4096) == 0);
  STATIC_REQUIRE(tile::PrefetchTiles(1, 4096) == 1);
  STATIC_REQUIRE(tile::PrefetchTiles(4095, 4096) == 1);
  STATIC_REQUIRE(tile::PrefetchTiles(4096, 4096) == 1);
  STATIC_REQUIRE(tile::PrefetchTiles(8191, 4096) == 1);
  STATIC_REQUIRE(tile::PrefetchTiles(8192, 4096) == 2);
  STATIC_REQUIRE(tile::PrefetchTiles(65536, 3000) == 21);
}

TEST_CASE("PrefetchAhead: never faults nor changes the loads, whatever the input", "[tile][prefetch]")
{
  STRATA_TEST_REQUIRE_GPU();
  // 512 4-byte items: 2 KiB tiles, prefetched where aligned; the last tile whole or partial.
  for (const long long n : {1ll, 511ll, 512ll, 513ll, 2048ll, 2049ll, 10 * 512ll, 10 * 512ll + 77})
  {
    check_prefetch<1, 512, std::uint32_t, std::uint32_t>(n, 0, 1);
    check_prefetch<3, 512, std::uint32_t, std::uint64_t>(n, 1, 2);
  }
  // 2-byte items, 192 a tile: 384 bytes, a multiple of 16; 1-byte items, 200 a tile (200 bytes,
  // not a multiple of 16: never prefetched), the second input misaligned as well.
  for (const long long n : {191ll, 192ll, 1920ll, 1921ll})
  {
    check_prefetch<2, 192, std::int16_t, std::int32_t>(n, 0, 3);
  }
  for (const long long n : {1000ll, 1999ll})
  {
    check_prefetch<1, 200, std::int8_t, std::uint32_t>(n, 3, 4);
  }
}

TEST_CASE("PrefetchAhead: no prefetch and an iterator input leave the loads alone", "[tile][prefetch]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(5);
  INFO("seed " << seed);
  constexpr int TILE                = 256;
  const long long n                 = 7 * TILE + 5;
  const std::vector<std::int64_t> a = strata_test::random_vector<std::int64_t>(static_cast<std::size_t>(n), seed);
  strata_test::device_buffer<std::int64_t> d_a(a);
  strata_test::device_buffer<std::int64_t> d_out(static_cast<std::size_t>(n));
  const std::int64_t base = static_cast<std::int64_t>(seed % 1000003);
  std::vector<std::int64_t> expected(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    expected[i] = a[i] + base + static_cast<std::int64_t>(i);
  }
  SECTION("a pointer and a CountingInputIterator, two tiles ahead")
  {
    d_out.poison();
    prefetch_kernel<2, TILE><<<8, block_threads>>>(static_cast<const std::int64_t*>(d_a.data()),
                                                   strata::CountingInputIterator<std::int64_t>(base),
                                                   static_cast<std::int32_t>(n), d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());
  }
  SECTION("no prefetch")
  {
    d_out.poison();
    prefetch_kernel<0, TILE><<<8, block_threads>>>(static_cast<const std::int64_t*>(d_a.data()),
                                                   strata::CountingInputIterator<std::int64_t>(base),
                                                   static_cast<std::int32_t>(n), d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());
  }
}

// Tests of strata/grid/grid_even_share.cuh: DispatchInit sizes the grid; under GRID_MAPPING_RAKE
// every block gets a contiguous range of whole tiles, ranges in block order, their sizes
// differing by at most one tile, together covering every item once; under
// GRID_MAPPING_STRIP_MINE the blocks' strided tiles cover every tile once. The mapping is checked
// on the host (BlockInit with a strategy tag) and, on a GPU, through BlockInit in a kernel.
#include <strata/grid/grid_even_share.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <vector>

namespace
{
constexpr int tile_items = 128;

template <strata::GridMappingStrategy STRATEGY>
__global__ void visit_tiles(strata::GridEvenShare<long long> even_share, int* visits, long long* ranges)
{
  even_share.BlockInit<tile_items, STRATEGY>();
  if (threadIdx.x == 0)
  {
    ranges[2 * blockIdx.x]     = even_share.block_offset;
    ranges[2 * blockIdx.x + 1] = even_share.block_end;
    for (long long offset = even_share.block_offset; offset < even_share.block_end; offset += even_share.block_stride)
    {
      atomicAdd(visits + offset / tile_items, 1);
    }
  }
}

//! Checks one mapping given every block's [block_offset, block_end) and the tile visits.
template <strata::GridMappingStrategy STRATEGY>
void check_mapping(long long num_items, int grid, const std::vector<int>& visits, const std::vector<long long>& ranges)
{
  const long long tiles = (num_items + tile_items - 1) / tile_items;
  std::size_t wrong     = 0;
  for (long long t = 0; t < tiles; ++t)
  {
    wrong += visits[static_cast<std::size_t>(t)] != 1;
  }
  CHECK(wrong == 0);
  if (STRATEGY == strata::GRID_MAPPING_RAKE && tiles > 0)
  {
    long long expected_begin = 0;
    long long smallest       = tiles;
    long long largest        = 0;
    for (int b = 0; b < grid; ++b)
    {
      CHECK(ranges[2 * b] == expected_begin);
      CHECK(ranges[2 * b] % tile_items == 0);
      const long long block_tiles = (ranges[2 * b + 1] - ranges[2 * b] + tile_items - 1) / tile_items;
      smallest                    = std::min(smallest, block_tiles);
      largest                     = std::max(largest, block_tiles);
      expected_begin              = ranges[2 * b + 1];
    }
    CHECK(expected_begin == num_items);
    CHECK(largest - smallest <= 1);
  }
}

//! The mapping computed on the host, block by block, as the kernel computes it.
template <strata::GridMappingStrategy STRATEGY>
void check_even_share_host(long long num_items, int max_grid)
{
  INFO(num_items << " items, at most " << max_grid << " blocks, strategy " << int(STRATEGY));
  strata::GridEvenShare<long long> even_share;
  even_share.DispatchInit(num_items, max_grid, tile_items);
  const long long tiles = (num_items + tile_items - 1) / tile_items;
  REQUIRE(even_share.grid_size == std::max<long long>(1, std::min<long long>(tiles, max_grid)));
  const int grid = even_share.grid_size;
  std::vector<int> visits(static_cast<std::size_t>(tiles) + 1, 0);
  std::vector<long long> ranges(2 * static_cast<std::size_t>(grid));
  for (int b = 0; b < grid; ++b)
  {
    strata::GridEvenShare<long long> block = even_share;
    if (STRATEGY == strata::GRID_MAPPING_RAKE)
    {
      block.BlockInit<tile_items>(b, strata::detail::constant_v<strata::GRID_MAPPING_RAKE>);
      CHECK(block.block_stride == tile_items);
    }
    else
    {
      block.BlockInit<tile_items>(b, strata::detail::constant_v<strata::GRID_MAPPING_STRIP_MINE>);
      CHECK(block.block_stride == static_cast<long long>(grid) * tile_items);
    }
    ranges[2 * b]     = block.block_offset;
    ranges[2 * b + 1] = block.block_end;
    for (long long offset = block.block_offset; offset < block.block_end; offset += block.block_stride)
    {
      ++visits[static_cast<std::size_t>(offset / tile_items)];
    }
  }
  check_mapping<STRATEGY>(num_items, grid, visits, ranges);
}

//! The mapping computed by BlockInit in a kernel.
template <strata::GridMappingStrategy STRATEGY>
void check_even_share(long long num_items, int max_grid)
{
  INFO(num_items << " items, at most " << max_grid << " blocks, strategy " << int(STRATEGY));
  strata::GridEvenShare<long long> even_share;
  even_share.DispatchInit(num_items, max_grid, tile_items);
  const long long tiles = (num_items + tile_items - 1) / tile_items;
  const int grid        = even_share.grid_size;

  strata_test::device_buffer<int> d_visits(static_cast<std::size_t>(tiles) + 1);
  strata_test::device_buffer<long long> d_ranges(2 * static_cast<std::size_t>(grid));
  STRATA_TEST_CUDA(cudaMemset(d_visits.data(), 0, d_visits.bytes()));
  d_ranges.poison();
  visit_tiles<STRATEGY><<<grid, 32>>>(even_share, d_visits.data(), d_ranges.data());
  strata_test::check_launch();
  check_mapping<STRATEGY>(num_items, grid, d_visits.download(), d_ranges.download());
}
} // namespace

TEST_CASE("GridEvenShare::DispatchInit sizes the grid", "[grid][host]")
{
  strata::GridEvenShare<int> even_share;
  even_share.DispatchInit(1000, 64, 100); // 10 tiles
  CHECK(even_share.grid_size == 10);
  strata::GridEvenShare<int> beyond = even_share; // a block past the last tile: an empty range
  beyond.BlockInit<100>(12, strata::detail::constant_v<strata::GRID_MAPPING_RAKE>);
  CHECK(beyond.block_offset == 1000);
  CHECK(beyond.block_end == 1000);
  even_share.DispatchInit(100000, 64, 100); // 1000 tiles
  CHECK(even_share.grid_size == 64);
  even_share.DispatchInit(0, 64, 100);
  CHECK(even_share.grid_size == 1);
  CHECK(even_share.block_offset == even_share.block_end);
}

TEST_CASE("GridEvenShare maps every tile to one block (host)", "[grid][host]")
{
  for (long long n : {0LL, 1LL, 127LL, 128LL, 129LL, 1000LL, 100003LL, 5000000LL})
  {
    for (int max_grid : {1, 2, 7, 132, 1000, 100000})
    {
      check_even_share_host<strata::GRID_MAPPING_RAKE>(n, max_grid);
      check_even_share_host<strata::GRID_MAPPING_STRIP_MINE>(n, max_grid);
    }
  }
  // More than 2^31 items: 64-bit offsets.
  check_even_share_host<strata::GRID_MAPPING_RAKE>((1LL << 32) + 77, 264);
  check_even_share_host<strata::GRID_MAPPING_STRIP_MINE>((1LL << 32) + 77, 264);
}

TEST_CASE("GridEvenShare maps every tile to one block", "[grid]")
{
  STRATA_TEST_REQUIRE_GPU();
  for (long long n : {0LL, 1LL, 127LL, 128LL, 129LL, 100003LL, 5000000LL})
  {
    for (int max_grid : {1, 7, 132, 1000})
    {
      check_even_share<strata::GRID_MAPPING_RAKE>(n, max_grid);
      check_even_share<strata::GRID_MAPPING_STRIP_MINE>(n, max_grid);
    }
  }
}

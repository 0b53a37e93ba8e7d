// Tests of strata/grid/grid_even_share.cuh: DispatchInit sizes the grid; under GRID_MAPPING_RAKE
// every block gets a contiguous range of whole tiles, ranges in block order, their sizes
// differing by at most one tile, together covering every item once; under
// GRID_MAPPING_STRIP_MINE the blocks' strided tiles cover every tile once.
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

template <strata::GridMappingStrategy STRATEGY>
void check_even_share(long long num_items, int max_grid)
{
  INFO(num_items << " items, at most " << max_grid << " blocks, strategy " << int(STRATEGY));
  strata::GridEvenShare<long long> even_share;
  even_share.DispatchInit(num_items, max_grid, tile_items);
  const long long tiles = (num_items + tile_items - 1) / tile_items;
  CHECK(even_share.grid_size == std::max<long long>(1, std::min<long long>(tiles, max_grid)));
  const int grid = even_share.grid_size;

  strata_test::device_buffer<int> d_visits(static_cast<std::size_t>(tiles) + 1);
  strata_test::device_buffer<long long> d_ranges(2 * static_cast<std::size_t>(grid));
  STRATA_TEST_CUDA(cudaMemset(d_visits.data(), 0, d_visits.bytes()));
  d_ranges.poison();
  visit_tiles<STRATEGY><<<grid, 32>>>(even_share, d_visits.data(), d_ranges.data());
  strata_test::check_launch();
  const std::vector<int> visits = d_visits.download();
  std::size_t wrong = 0;
  for (long long t = 0; t < tiles; ++t)
  {
    wrong += visits[static_cast<std::size_t>(t)] != 1;
  }
  CHECK(wrong == 0);
  if (STRATEGY == strata::GRID_MAPPING_RAKE && tiles > 0)
  {
    const std::vector<long long> ranges = d_ranges.download();
    long long expected_begin = 0;
    long long smallest = tiles;
    long long largest  = 0;
    for (int b = 0; b < grid; ++b)
    {
      CHECK(ranges[2 * b] == expected_begin);
      const long long block_tiles = (ranges[2 * b + 1] - ranges[2 * b] + tile_items - 1) / tile_items;
      smallest                    = std::min(smallest, block_tiles);
      largest                     = std::max(largest, block_tiles);
      expected_begin              = ranges[2 * b + 1];
    }
    CHECK(expected_begin == num_items);
    CHECK(largest - smallest <= 1);
  }
}
} // namespace

TEST_CASE("GridEvenShare::DispatchInit sizes the grid", "[grid][host]")
{
  strata::GridEvenShare<int> even_share;
  even_share.DispatchInit(1000, 64, 100); // 10 tiles
  CHECK(even_share.grid_size == 10);
  even_share.DispatchInit(100000, 64, 100); // 1000 tiles
  CHECK(even_share.grid_size == 64);
  even_share.DispatchInit(0, 64, 100);
  CHECK(even_share.grid_size == 1);
  CHECK(even_share.block_offset == even_share.block_end);
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

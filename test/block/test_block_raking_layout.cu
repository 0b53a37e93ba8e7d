// Tests of strata/block/block_raking_layout.cuh: the layout constants for every block size, and a
// kernel that places each thread's value and rakes it back: every value is read exactly once.
#include <strata/block/block_raking_layout.cuh>

#include "common/test_common.cuh"

#include <numeric>

namespace
{
// Each raking thread sums its segment (guarding the last one when the layout is not UNGUARDED)
// and writes the segment's values back in order.
template <int BLOCK_THREADS>
__global__ void rake_kernel(const int* in, int* raked, int* segment_sums)
{
  using Layout = strata::BlockRakingLayout<int, BLOCK_THREADS>;
  __shared__ typename Layout::TempStorage grid;
  const int t                    = static_cast<int>(threadIdx.x);
  *Layout::PlacementPtr(grid, t) = in[t];
  __syncthreads();
  if (t < Layout::RAKING_THREADS)
  {
    const int* segment = Layout::RakingPtr(grid, t);
    int sum            = 0;
    for (int i = 0; i < Layout::SEGMENT_LENGTH; ++i)
    {
      const int item = t * Layout::SEGMENT_LENGTH + i;
      if (Layout::UNGUARDED || item < BLOCK_THREADS)
      {
        sum += segment[i];
        raked[item] = segment[i];
      }
    }
    segment_sums[t] = sum;
  }
}

template <int BLOCK_THREADS>
void check_rake(std::uint64_t seed)
{
  using Layout = strata::BlockRakingLayout<int, BLOCK_THREADS>;
  INFO("block threads " << BLOCK_THREADS << ", seed " << seed);
  const std::vector<int> values = strata_test::random_vector<int>(BLOCK_THREADS, seed, -1000, 1000);
  std::vector<int> sums(Layout::RAKING_THREADS, 0);
  for (int i = 0; i < BLOCK_THREADS; ++i)
  {
    sums[i / Layout::SEGMENT_LENGTH] += values[i];
  }
  strata_test::device_buffer<int> d_in(values);
  strata_test::device_buffer<int> d_raked(BLOCK_THREADS);
  strata_test::device_buffer<int> d_sums(Layout::RAKING_THREADS);
  d_raked.poison();
  d_sums.poison();
  rake_kernel<BLOCK_THREADS><<<1, BLOCK_THREADS>>>(d_in.data(), d_raked.data(), d_sums.data());
  strata_test::check_launch();
  strata_test::check_equal(values, d_raked.download());
  strata_test::check_equal(sums, d_sums.download());
}
} // namespace

TEST_CASE("BlockRakingLayout constants", "[block][raking_layout]")
{
  using L128 = strata::BlockRakingLayout<int, 128>;
  STATIC_REQUIRE(L128::SHARED_ELEMENTS == 128);
  STATIC_REQUIRE(L128::MAX_RAKING_THREADS == 32);
  STATIC_REQUIRE(L128::SEGMENT_LENGTH == 4);
  STATIC_REQUIRE(L128::RAKING_THREADS == 32);
  STATIC_REQUIRE(L128::USE_SEGMENT_PADDING);
  STATIC_REQUIRE(L128::GRID_ELEMENTS == 160);
  STATIC_REQUIRE(L128::UNGUARDED);
  STATIC_REQUIRE(L128::HAS_CONFLICTS);
  STATIC_REQUIRE(L128::CONFLICT_DEGREE == 4);

  using L80 = strata::BlockRakingLayout<double, 80>; // segments of 3: no padding, a short last one
  STATIC_REQUIRE(L80::SEGMENT_LENGTH == 3);
  STATIC_REQUIRE(L80::RAKING_THREADS == 27);
  STATIC_REQUIRE_FALSE(L80::USE_SEGMENT_PADDING);
  STATIC_REQUIRE_FALSE(L80::UNGUARDED);
  STATIC_REQUIRE(L80::GRID_ELEMENTS == 81);

  using L20 = strata::BlockRakingLayout<char, 20>; // fewer threads than a warp: one value each
  STATIC_REQUIRE(L20::RAKING_THREADS == 20);
  STATIC_REQUIRE(L20::SEGMENT_LENGTH == 1);
  STATIC_REQUIRE(L20::GRID_ELEMENTS == 20);

  using L1024 = strata::BlockRakingLayout<int, 1024>;
  STATIC_REQUIRE(L1024::SEGMENT_LENGTH == 32);
  STATIC_REQUIRE(L1024::GRID_ELEMENTS == 32 * 33);
  STATIC_REQUIRE(alignof(L1024::TempStorage) >= 16);
}

TEST_CASE("BlockRakingLayout: every placed value is raked exactly once", "[block][raking_layout][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  check_rake<20>(seed);
  check_rake<80>(seed + 1);
  check_rake<128>(seed + 2);
  check_rake<1024>(seed + 3);
}

// Tests of strata/tile/tile_neighbours.cuh: WarpRowNeighbours over a warp's part of a tile in
// ScanTileRows' layout (lane l holds vector l of each row): every item's predecessor and successor
// in input order, across vectors, lanes and rows, with the caller's neighbours for the warp's first
// and last items (taken from lane 0 and lane 31 alone: the other lanes offer decoys), each item
// visited exactly once. Rows of 1, 2, 4 and 16 items, one to six rows, 1-, 2-, 4-, 8- and 12-byte
// items, several warps in several blocks.
#include <strata/tile/tile_neighbours.cuh>

#include "tile_checks.cuh"

#include <cstdint>
#include <vector>

namespace
{
namespace tile = strata::detail::tile;

//! The input index of item k of `lane` in the warp's part starting at `part` (the documented
//! layout: vector `lane` of row k / VEC, item k % VEC of it).
template <int VEC>
__device__ int part_index(int part, int lane, int k)
{
  return part + ((k / VEC) * 32 + lane) * VEC + k % VEC;
}

//! Each warp g holds part g of `in`; its neighbours outside are befores[g] and afters[g].
//! Predecessors go to preds, successors to succs; every visit of item i adds 1 (predecessor) or
//! 16 (successor) to visits[i].
template <int IPT, int VEC, typename T>
__global__ void neighbours_kernel(const T* in, const T* befores, const T* afters, const T* decoys, T* preds, T* succs,
                                  int* visits)
{
  using NeighboursT = tile::WarpRowNeighbours<IPT, VEC>;
  const int lane    = static_cast<int>(threadIdx.x) % 32;
  const int warp    = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
  const int part    = warp * 32 * IPT;
  T items[IPT];
#pragma unroll
  for (int k = 0; k < IPT; ++k)
  {
    items[k] = in[part_index<VEC>(part, lane, k)];
  }
  const T before = lane == 0 ? befores[warp] : decoys[warp * 32 + lane];
  const T after  = lane == 31 ? afters[warp] : decoys[warp * 32 + lane];
  NeighboursT::Predecessors(items, before, lane,
                            [&](int k, const T& predecessor)
                            {
                              const int i = part_index<VEC>(part, lane, k);
                              preds[i]    = predecessor;
                              atomicAdd(&visits[i], 1);
                            });
  NeighboursT::Successors(items, after, lane,
                          [&](int k, const T& successor)
                          {
                            const int i = part_index<VEC>(part, lane, k);
                            succs[i]    = successor;
                            atomicAdd(&visits[i], 16);
                          });
}

template <int BT, int IPT, int VEC, typename T>
void check_neighbours(std::uint64_t salt)
{
  constexpr int BLOCKS    = 3;
  constexpr int WARPS     = BLOCKS * BT / 32;
  constexpr int PART      = 32 * IPT;
  constexpr std::size_t N = static_cast<std::size_t>(WARPS * PART);
  const auto seed         = strata_test::seed(salt);
  INFO("seed " << seed << ", " << IPT << " items a lane in vectors of " << VEC << ", " << sizeof(T) << "-byte items");
  const std::vector<T> in      = strata_test::random_vector<T>(N, seed);
  const std::vector<T> befores = strata_test::random_vector<T>(WARPS, seed + 1);
  const std::vector<T> afters  = strata_test::random_vector<T>(WARPS, seed + 2);
  const std::vector<T> decoys  = strata_test::random_vector<T>(WARPS * 32, seed + 3);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_befores(befores);
  strata_test::device_buffer<T> d_afters(afters);
  strata_test::device_buffer<T> d_decoys(decoys);
  strata_test::device_buffer<T> d_preds(N);
  strata_test::device_buffer<T> d_succs(N);
  strata_test::device_buffer<int> d_visits(N);
  d_preds.poison();
  d_succs.poison();
  STRATA_TEST_CUDA(cudaMemset(d_visits.data(), 0, d_visits.bytes()));
  neighbours_kernel<IPT, VEC><<<BLOCKS, BT>>>(d_in.data(), d_befores.data(), d_afters.data(), d_decoys.data(),
                                              d_preds.data(), d_succs.data(), d_visits.data());
  strata_test::check_launch();

  std::vector<T> expected_preds(N);
  std::vector<T> expected_succs(N);
  for (std::size_t i = 0; i < N; ++i)
  {
    const std::size_t warp = i / PART;
    const std::size_t at   = i % PART;
    expected_preds[i]      = at == 0 ? befores[warp] : in[i - 1];
    expected_succs[i]      = at == PART - 1 ? afters[warp] : in[i + 1];
  }
  strata_test::check_equal(expected_preds, d_preds.download());
  strata_test::check_equal(expected_succs, d_succs.download());
  strata_test::check_equal(std::vector<int>(N, 17), d_visits.download());
}
} // namespace

TEST_CASE("WarpRowNeighbours: one item a lane", "[tile][neighbours]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_neighbours<64, 1, 1, std::int8_t>(1);
}

TEST_CASE("WarpRowNeighbours: three rows of single 12-byte items", "[tile][neighbours]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_neighbours<96, 3, 1, strata_test::custom_t>(2);
}

TEST_CASE("WarpRowNeighbours: two rows of four floats", "[tile][neighbours]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_neighbours<64, 8, 4, float>(3);
}

TEST_CASE("WarpRowNeighbours: three rows of two doubles, one warp a block", "[tile][neighbours]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_neighbours<32, 6, 2, double>(4);
}

TEST_CASE("WarpRowNeighbours: one row of sixteen bytes", "[tile][neighbours]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_neighbours<64, 16, 16, std::uint8_t>(5);
}

TEST_CASE("WarpRowNeighbours: six rows of 2-byte items", "[tile][neighbours]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_neighbours<128, 6, 1, __half>(6);
}

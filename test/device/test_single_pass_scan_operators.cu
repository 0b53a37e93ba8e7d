// Tests of strata/agent/single_pass_scan_operators.cuh used directly, as CUB's users use it in
// their own single-pass kernels: TilePrefixCallbackOp as the prefix callback of BlockScan (tiles
// taken from a counter in launch order), its accessors, and ScanTileState's WaitForValid over a
// chain of tiles. One-word descriptors (4, 8 and 12-byte values) and the two-array path (a 16-byte
// 2x2 matrix under a non-commutative product). A look-back ends at tile 0 whatever tile 0's
// status says: tile 0 published as PARTIAL, descriptors left PARTIAL by an earlier call, and
// descriptors never initialized (random bytes). The bounded waits are test_device_lookback_faults.
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>

#include <cuda/std/functional>

#include "common/test_common.cuh"
#include "device_scan_checks.cuh"
#include "scan_tile_kernels.cuh"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace
{
using strata_test::init_status;
using strata_test::kept_t;
using strata_test::scan_tiles;
using strata_test::scan_tiles_detail::block_threads;
using strata_test::scan_tiles_detail::tile_items;

//! One thread per block: block b takes tile t from the counter, waits for tile t - 1 with
//! WaitForValid (which must see it INCLUSIVE: each tile publishes only that) and publishes
//! in[0] op ... op in[t]; seen[t] records the status it saw.
template <typename T, typename OpT>
__global__ void wait_chain(const T* in, T* out, int* seen, strata::ScanTileState<T> tile_state, unsigned int* counter,
                           OpT op)
{
  const int tile = int(atomicAdd(counter, 1u));
  T inclusive    = in[tile];
  if (tile > 0)
  {
    strata::ScanTileStatus status;
    T before;
    tile_state.WaitForValid(tile - 1, status, before);
    seen[tile] = int(status);
    inclusive  = op(before, inclusive);
  }
  tile_state.SetInclusive(tile, inclusive);
  out[tile] = inclusive;
}

template <typename T>
struct tile_state_buffer
{
  strata::ScanTileState<T> state;
  strata_test::device_buffer<unsigned char> bytes;
  strata_test::device_buffer<unsigned int> counter{1};

  explicit tile_state_buffer(int num_tiles)
      : bytes(allocation(num_tiles))
  {
    STRATA_TEST_CUDA(state.Init(num_tiles, bytes.data(), bytes.size()));
    init_status<T><<<(num_tiles + 127) / 128, 128>>>(state, num_tiles, counter.data());
    strata_test::check_launch();
  }
  static std::size_t allocation(int num_tiles)
  {
    std::size_t size = 0;
    REQUIRE(strata::ScanTileState<T>::AllocationSize(num_tiles, size) == cudaSuccess);
    return size;
  }
};

template <typename T, typename OpT, typename LookbackT = strata::detail::DefaultLookbackPolicy>
void check_block_scan_tiles(const std::vector<T>& in, OpT op, LookbackT = {}, bool tile0_partial = false)
{
  const int num_tiles = int(in.size() / tile_items);
  INFO("tiles " << num_tiles);
  const std::vector<T> expected = strata_test::reference_scan<true, T>(in, op, static_cast<const T*>(nullptr));
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(in.size());
  strata_test::device_buffer<kept_t<T>> d_kept{static_cast<std::size_t>(num_tiles)};
  d_out.poison();
  d_kept.poison();
  tile_state_buffer<T> tile_state(num_tiles);
  scan_tiles<T, OpT, LookbackT><<<num_tiles, block_threads>>>(
      d_in.data(), d_out.data(), d_kept.data(), tile_state.state, tile_state.counter.data(), op, tile0_partial, -1);
  strata_test::check_launch();
  strata_test::check_equal(expected, d_out.download());
  const std::vector<kept_t<T>> kept = d_kept.download();
  for (int tile = 1; tile < num_tiles; ++tile)
  {
    INFO("tile " << tile);
    const std::size_t first = std::size_t(tile) * tile_items;
    T aggregate             = in[first];
    for (std::size_t i = first + 1; i < first + tile_items; ++i)
    {
      aggregate = op(aggregate, in[i]);
    }
    CHECK(kept[tile].tile == tile);
    CHECK(kept[tile].exclusive == expected[first - 1]);
    CHECK(kept[tile].inclusive == expected[first + tile_items - 1]);
    CHECK(kept[tile].aggregate == aggregate);
  }
}

template <typename T, typename OpT>
void check_wait_chain(const std::vector<T>& in, OpT op)
{
  const int num_tiles = int(in.size());
  INFO("tiles " << num_tiles);
  const std::vector<T> expected = strata_test::reference_scan<true, T>(in, op, static_cast<const T*>(nullptr));
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(in.size());
  strata_test::device_buffer<int> d_seen(in.size());
  d_out.poison();
  d_seen.poison();
  tile_state_buffer<T> tile_state(num_tiles);
  wait_chain<<<num_tiles, 1>>>(d_in.data(), d_out.data(), d_seen.data(), tile_state.state, tile_state.counter.data(),
                               op);
  strata_test::check_launch();
  strata_test::check_equal(expected, d_out.download());
  const std::vector<int> seen = d_seen.download();
  for (int tile = 1; tile < num_tiles; ++tile)
  {
    INFO("tile " << tile);
    CHECK(seen[tile] == int(strata::SCAN_TILE_INCLUSIVE));
  }
}

//! Each descriptor as Load reads it.
template <typename T>
__global__ void load_descriptors(strata::ScanTileState<T> tile_state, int num_tiles, int* statuses, T* values)
{
  const int tile = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (tile < num_tiles)
  {
    strata::ScanTileStatus status;
    T value{};
    tile_state.Load(tile, status, value);
    statuses[tile] = int(status);
    values[tile]   = value;
  }
}

//! Publishes descriptor t with `values[t]`: INCLUSIVE where `inclusive[t]`, else PARTIAL.
template <typename T>
__global__ void publish_descriptors(strata::ScanTileState<T> tile_state, int num_tiles, const int* inclusive,
                                    const T* values)
{
  const int tile = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (tile < num_tiles)
  {
    if (inclusive[tile])
    {
      tile_state.SetInclusive(tile, values[tile]);
    }
    else
    {
      tile_state.SetPartial(tile, values[tile]);
    }
  }
}

//! One warp per entry of `tiles`: TilePrefixCallbackOp::Lookback for that tile, from every lane.
template <typename T, typename OpT>
__global__ void __launch_bounds__(32)
    lookback_tiles(strata::ScanTileState<T> tile_state, const int* tiles, T* prefixes, OpT op)
{
  using PrefixOpT                         = strata::TilePrefixCallbackOp<T, OpT, strata::ScanTileState<T>>;
  prefixes[blockIdx.x * 32 + threadIdx.x] = PrefixOpT::Lookback(tile_state, op, tiles[blockIdx.x]);
}

//! The look-back of `tile` over descriptors as Load read them: the values from the nearest
//! INCLUSIVE predecessor, or from tile 0 whatever its status, on; T{} for tile 0.
template <typename T, typename OpT>
T reference_lookback(const std::vector<int>& statuses, const std::vector<T>& values, int tile, OpT op)
{
  if (tile <= 0)
  {
    return T{};
  }
  int from = tile - 1;
  while (from > 0 && statuses[from] != int(strata::SCAN_TILE_INCLUSIVE))
  {
    --from;
  }
  T prefix = values[from];
  for (int t = from + 1; t < tile; ++t)
  {
    prefix = op(prefix, values[t]);
  }
  return prefix;
}

//! Runs Lookback from tiles on both sides of the 32-tile windows over the descriptors in
//! `tile_state` and compares every lane's result with the reference over the descriptors: those
//! the caller published (`published`: statuses and values, which Load must read back), or, where
//! nobody published them (random bytes), what Load reads.
template <typename T, typename OpT>
void check_lookbacks(const strata::ScanTileState<T>& tile_state, int num_tiles, OpT op,
                     const std::pair<std::vector<int>, std::vector<T>>* published = nullptr)
{
  strata_test::device_buffer<int> d_statuses{static_cast<std::size_t>(num_tiles)};
  strata_test::device_buffer<T> d_values{static_cast<std::size_t>(num_tiles)};
  load_descriptors<<<(num_tiles + 127) / 128, 128>>>(tile_state, num_tiles, d_statuses.data(), d_values.data());
  strata_test::check_launch();
  std::vector<int> statuses = d_statuses.download();
  std::vector<T> values     = d_values.download();
  for (int status : statuses)
  {
    REQUIRE(status != int(strata::SCAN_TILE_INVALID)); // no waits here: those are the fault tests'
  }
  if (published != nullptr)
  {
    // Load reads back what was published, and the reference comes from the host's own copy.
    CHECK(statuses == published->first);
    CHECK(values == published->second);
    statuses = published->first;
    values   = published->second;
  }
  std::vector<int> tiles;
  for (int tile : {0, 1, 2, 31, 32, 33, 63, 64, 65, 100, num_tiles - 1, num_tiles})
  {
    if (tile <= num_tiles)
    {
      tiles.push_back(tile);
    }
  }
  strata_test::device_buffer<int> d_tiles(tiles);
  strata_test::device_buffer<T> d_prefixes(tiles.size() * 32);
  d_prefixes.poison();
  lookback_tiles<<<int(tiles.size()), 32>>>(tile_state, d_tiles.data(), d_prefixes.data(), op);
  strata_test::check_launch();
  const std::vector<T> prefixes = d_prefixes.download();
  for (std::size_t i = 0; i < tiles.size(); ++i)
  {
    INFO("look-back of tile " << tiles[i]);
    const T expected = reference_lookback(statuses, values, tiles[i], op);
    for (int lane = 0; lane < 32; ++lane)
    {
      CHECK(prefixes[i * 32 + lane] == expected);
    }
  }
}

//! Descriptors an earlier call left: PARTIAL aggregates, INCLUSIVE at the tiles in `inclusive_at`
//! only (tile 0 PARTIAL), checked with check_lookbacks.
template <typename T, typename OpT>
void check_lookbacks_over_partials(const std::vector<T>& values, const std::vector<int>& inclusive_at, OpT op)
{
  const int num_tiles = int(values.size());
  std::vector<int> inclusive(values.size(), 0);
  for (int tile : inclusive_at)
  {
    inclusive[std::size_t(tile)] = 1;
  }
  tile_state_buffer<T> tile_state(num_tiles);
  strata_test::device_buffer<int> d_inclusive(inclusive);
  strata_test::device_buffer<T> d_values(values);
  publish_descriptors<<<(num_tiles + 127) / 128, 128>>>(tile_state.state, num_tiles, d_inclusive.data(),
                                                        d_values.data());
  strata_test::check_launch();
  std::pair<std::vector<int>, std::vector<T>> published{std::vector<int>(values.size()), values};
  for (std::size_t tile = 0; tile < values.size(); ++tile)
  {
    published.first[tile] = int(inclusive[tile] ? strata::SCAN_TILE_INCLUSIVE : strata::SCAN_TILE_PARTIAL);
  }
  check_lookbacks(tile_state.state, num_tiles, op, &published);
}

//! Descriptors never initialized: the bytes of the whole allocation random, checked with
//! check_lookbacks (statuses that read as INVALID are not expected of random words).
template <typename T, typename OpT>
void check_lookbacks_over_random_bytes(int num_tiles, std::uint64_t seed, OpT op)
{
  strata_test::device_buffer<unsigned char> bytes(tile_state_buffer<T>::allocation(num_tiles));
  bytes.upload(strata_test::random_vector<unsigned char>(bytes.size(), seed));
  strata::ScanTileState<T> tile_state;
  STRATA_TEST_CUDA(tile_state.Init(num_tiles, bytes.data(), bytes.size()));
  check_lookbacks(tile_state, num_tiles, op);
}

std::vector<strata_test::matrix2> random_matrices(std::size_t n, std::uint64_t seed)
{
  const std::vector<std::uint32_t> words = strata_test::random_vector<std::uint32_t>(4 * n, seed, 0.0, 3.0);
  std::vector<strata_test::matrix2> matrices(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    matrices[i] = strata_test::matrix2{{words[4 * i] | 1, words[4 * i + 1], words[4 * i + 2], words[4 * i + 3] | 1}};
  }
  return matrices;
}
} // namespace

TEMPLATE_TEST_CASE("TilePrefixCallbackOp as BlockScan's prefix callback, and its accessors", "[agent][scan]",
                   std::int32_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(271);
  INFO("seed " << seed);
  for (const int tiles : {1, 2, 33, 401})
  {
    check_block_scan_tiles(
        strata_test::random_vector<TestType>(std::size_t(tiles) * tile_items, seed + tiles, 0.0, 1000.0),
        cuda::std::plus<TestType>{});
  }
}

TEST_CASE("TilePrefixCallbackOp with look-back waits of other policies", "[agent][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(283);
  INFO("seed " << seed);
  const std::vector<std::uint64_t> in = strata_test::random_vector<std::uint64_t>(std::size_t(401) * tile_items, seed);
  SECTION("tiles below 32 read at once, later ones wait 1.2 us first")
  {
    check_block_scan_tiles(in, cuda::std::plus<std::uint64_t>{}, strata::detail::LookbackPolicy<1200, 600, 600, 32>{});
  }
  SECTION("tiles below 32 wait 100 ns first and 200 ns between reads, later ones 1.2 us and 600 ns")
  {
    check_block_scan_tiles(in, cuda::std::plus<std::uint64_t>{},
                           strata::detail::LookbackPolicy<1200, 600, 600, 32, 100, 200>{});
  }
  SECTION("no waits at all")
  {
    check_block_scan_tiles(in, cuda::std::plus<std::uint64_t>{}, strata::detail::LookbackPolicy<0, 0, 0>{});
  }
}

TEST_CASE("TilePrefixCallbackOp with non-commutative operators", "[agent][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(277);
  INFO("seed " << seed);
  SECTION("affine composition of 12-byte values (one-word descriptors)")
  {
    check_block_scan_tiles(strata_test::random_vector<strata_test::custom_t>(std::size_t(67) * tile_items, seed),
                           strata_test::affine_op{});
  }
  SECTION("2x2 matrix product (16 bytes: values and status apart)")
  {
    check_block_scan_tiles(random_matrices(std::size_t(67) * tile_items, seed), strata_test::matrix_product{});
  }
}

TEST_CASE("ScanTileState::WaitForValid sees each predecessor's inclusive prefix", "[agent][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(281);
  INFO("seed " << seed);
  SECTION("4-byte values")
  {
    check_wait_chain(strata_test::random_vector<std::int32_t>(3001, seed, -1000.0, 1000.0),
                     cuda::std::plus<std::int32_t>{});
  }
  SECTION("2x2 matrices")
  {
    check_wait_chain(random_matrices(1001, seed), strata_test::matrix_product{});
  }
}

TEST_CASE("TilePrefixCallbackOp's look-back ends at tile 0 whatever its status", "[agent][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(293);
  INFO("seed " << seed);
  SECTION("tile 0 published as PARTIAL: the scan is still exact")
  {
    for (const int tiles : {2, 33, 401})
    {
      check_block_scan_tiles(strata_test::random_vector<std::uint64_t>(std::size_t(tiles) * tile_items, seed + tiles),
                             cuda::std::plus<std::uint64_t>{}, strata::detail::DefaultLookbackPolicy{}, true);
    }
    check_block_scan_tiles(random_matrices(std::size_t(67) * tile_items, seed), strata_test::matrix_product{},
                           strata::detail::DefaultLookbackPolicy{}, true);
  }
  SECTION("descriptors an earlier call left PARTIAL, with a few INCLUSIVE ones")
  {
    const std::vector<int> inclusive_at = {5, 70, 71, 150};
    check_lookbacks_over_partials(strata_test::random_vector<std::uint64_t>(200, seed), inclusive_at,
                                  cuda::std::plus<std::uint64_t>{});
    check_lookbacks_over_partials(random_matrices(200, seed), inclusive_at, strata_test::matrix_product{});
    check_lookbacks_over_partials(strata_test::random_vector<std::uint64_t>(200, seed + 1), {},
                                  cuda::std::plus<std::uint64_t>{});
  }
  SECTION("descriptors never initialized (random bytes)")
  {
    check_lookbacks_over_random_bytes<std::uint64_t>(200, seed, cuda::std::plus<std::uint64_t>{});
    check_lookbacks_over_random_bytes<std::uint32_t>(97, seed + 1, cuda::std::plus<std::uint32_t>{});
    check_lookbacks_over_random_bytes<strata_test::matrix2>(200, seed + 2, strata_test::matrix_product{});
  }
}

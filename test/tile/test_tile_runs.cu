// Tests of strata/tile/tile_runs.cuh: TileRuns over tiles loaded with ScanTileRows, one block per
// tile as the run-length agents work. For every item: whether it starts a run (the input's first
// item, or unequal to the item before it, read from memory across warp and tile edges) and whether
// it ends one (the input's last item, or unequal to the item after it); items past `valid` neither.
// For every tile: whether its first item starts a run, whether its last valid item ends one, and
// TailsInTile, the runs that end in the tile. Runs of length 1, random lengths, lengths of exactly
// a warp's part (edges on every warp and tile edge), a warp's part +- 1, a tile +- 1, and one run;
// sizes on both sides of a warp's part and of the tile. Keys: bytes (vectors of 8), floats with
// NaN runs (each NaN its own run) and mixed-sign zeros (one run), int64 under an equality coarser
// than == (equal keys differ in their low bits), and ints through an iterator.
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/tile/tile_runs.cuh>
#include <strata/tile/tile_scan_rows.cuh>

#include "tile_checks.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace tile = strata::detail::tile;

//! Equal where the keys agree but for their two low bits.
struct same_quarter
{
  __host__ __device__ bool operator()(std::int64_t a, std::int64_t b) const
  {
    return (a >> 2) == (b >> 2);
  }
};

//! a == b, on host and device (NaN is unequal to itself).
struct equal_keys
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a == b;
  }
};

//! x / 3: the iterator case's keys (runs of three of a counting input, and of whatever else).
struct third
{
  __host__ __device__ int operator()(int x) const
  {
    return x / 3;
  }
};

namespace
{
//! Block b finds the run edges of tile b: item flags at their input index (heads, tails; items past
//! the input stay 0) and, from thread 0, the tile's starts_run, ends_run, TailsInTile and its heads.
template <typename RowsT, typename KeyT, typename KeysIt, typename EqualityOpT>
__global__ void __launch_bounds__(RowsT::BLOCK_THREADS)
    runs_kernel(KeysIt keys_in, long long num_items, EqualityOpT equality_op, int* heads, int* tails, int* edges)
{
  using RunsT       = tile::TileRuns<RowsT>;
  constexpr int IPT = RowsT::ITEMS_PER_THREAD;
  __shared__ typename RowsT::TempStorage rows_storage;
  __shared__ typename RunsT::TempStorage runs_storage;
  __shared__ int heads_in_tile;
  RowsT rows(rows_storage);
  const int tid               = static_cast<int>(threadIdx.x);
  const int b                 = static_cast<int>(blockIdx.x);
  const long long tile_offset = static_cast<long long>(b) * RowsT::TILE_ITEMS;
  const int valid             = tile::ValidItems<RowsT::TILE_ITEMS>(num_items, tile_offset);
  KeyT keys[IPT];
  rows.Load(keys_in, tile_offset, valid, keys);
  if (tid == 0)
  {
    heads_in_tile = 0;
  }
  __syncthreads();
  const RunsT runs(runs_storage, rows, keys, keys_in, tile_offset, valid, num_items, equality_op);
  // The layout as documented (warp w: items [w * 32 * IPT, ...), lane l: vector l of each row).
  const int warp = tid / 32;
  const int lane = tid % 32;
#pragma unroll
  for (int k = 0; k < IPT; ++k)
  {
    const long long at = tile_offset + warp * 32 * IPT + ((k / RowsT::VEC) * 32 + lane) * RowsT::VEC + k % RowsT::VEC;
    heads[at]          = static_cast<int>((runs.heads >> k) & 1u);
    tails[at]          = static_cast<int>((runs.tails >> k) & 1u);
  }
  atomicAdd(&heads_in_tile, __popc(runs.heads));
  __syncthreads();
  if (tid == 0)
  {
    edges[4 * b]     = static_cast<int>(runs_storage.starts_run);
    edges[4 * b + 1] = static_cast<int>(runs_storage.ends_run);
    edges[4 * b + 2] = RunsT::TailsInTile(runs_storage, heads_in_tile);
    edges[4 * b + 3] = heads_in_tile;
  }
}

//! A ScanTileRows layout for keys behind KeysIt, with the agents' vector width.
template <int BT, int IPT, typename KeysIt>
using rows_for = tile::ScanTileRows<strata_test::rows_policy<BT, IPT>, int, tile::VectorItems<IPT, 16, KeysIt>(),
                                    tile::RowPrefixes::FOLD, tile::LookbackItems::IN_REGISTERS>;

enum run_layout : int
{
  runs_of_one,
  runs_random,
  runs_of_a_part,
  runs_of_a_part_plus_minus_one,
  runs_of_a_tile_plus_minus_one,
  one_run,
  run_layout_count
};

//! Run lengths covering n items in `layout`.
inline std::vector<long long> run_lengths(run_layout layout, long long n, int part, int tile_items,
                                          std::mt19937_64& engine)
{
  std::vector<long long> lengths;
  long long covered = 0;
  for (int r = 0; covered < n; ++r)
  {
    long long length = 1;
    switch (layout)
    {
    case runs_of_one:
      length = 1;
      break;
    case runs_random:
      length = 1 + static_cast<long long>(engine() % 16);
      break;
    case runs_of_a_part:
      length = part;
      break;
    case runs_of_a_part_plus_minus_one:
      length = r % 2 == 0 ? part - 1 : part + 1;
      break;
    case runs_of_a_tile_plus_minus_one:
      length = tile_items + (r % 3) - 1;
      break;
    default:
      length = n;
      break;
    }
    lengths.push_back(std::min(length, n - covered));
    covered += lengths.back();
  }
  return lengths;
}

//! Runs kernel and checks every flag and tile edge against the definition over `keys`.
template <typename RowsT, typename KeyT, typename KeysIt, typename EqualityOpT>
void check_runs(KeysIt keys_in, const std::vector<KeyT>& keys, EqualityOpT equality_op)
{
  constexpr int TILE = RowsT::TILE_ITEMS;
  const auto n       = static_cast<long long>(keys.size());
  const int tiles    = static_cast<int>((n + TILE - 1) / TILE);
  const auto slots   = static_cast<std::size_t>(tiles) * TILE;
  strata_test::device_buffer<int> d_heads(slots);
  strata_test::device_buffer<int> d_tails(slots);
  strata_test::device_buffer<int> d_edges(static_cast<std::size_t>(4 * tiles));
  d_heads.poison();
  d_tails.poison();
  d_edges.poison();
  runs_kernel<RowsT, KeyT>
      <<<tiles, RowsT::BLOCK_THREADS>>>(keys_in, n, equality_op, d_heads.data(), d_tails.data(), d_edges.data());
  strata_test::check_launch();

  std::vector<int> heads(slots, 0);
  std::vector<int> tails(slots, 0);
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    heads[i] = i == 0 || !equality_op(keys[i - 1], keys[i]) ? 1 : 0;
    tails[i] = i + 1 == keys.size() || !equality_op(keys[i], keys[i + 1]) ? 1 : 0;
  }
  std::vector<int> edges;
  for (int t = 0; t < tiles; ++t)
  {
    const auto first = static_cast<std::size_t>(t) * TILE;
    const auto end   = std::min(first + TILE, keys.size());
    int tile_heads   = 0;
    int tile_tails   = 0;
    for (std::size_t i = first; i < end; ++i)
    {
      tile_heads += heads[i];
      tile_tails += tails[i];
    }
    edges.push_back(heads[first]);
    edges.push_back(tails[end - 1]);
    edges.push_back(tile_tails);
    edges.push_back(tile_heads);
  }
  strata_test::check_equal(heads, d_heads.download());
  strata_test::check_equal(tails, d_tails.download());
  strata_test::check_equal(edges, d_edges.download());
}

//! Every layout at the largest sizes, random runs and one run at the smaller ones; `make_keys`
//! turns run lengths into keys.
template <typename RowsT, typename KeyT, typename EqualityOpT, typename MakeKeys>
void check_runs_pointer(std::uint64_t salt, EqualityOpT equality_op, MakeKeys make_keys)
{
  constexpr int TILE = RowsT::TILE_ITEMS;
  constexpr int PART = RowsT::WARP_ITEMS;
  const auto seed    = strata_test::seed(salt);
  std::mt19937_64 engine(seed);
  const long long small[] = {1, 2, PART - 1, PART + 1, TILE - 1, TILE, TILE + 1};
  const long long large[] = {3ll * TILE, 3ll * TILE + 17};
  for (int layout = 0; layout < run_layout_count; ++layout)
  {
    for (const long long n : large)
    {
      INFO("seed " << seed << ", " << n << " items, layout " << layout << ", tiles of " << TILE << ", vectors of "
                   << RowsT::VEC);
      const std::vector<KeyT> keys =
          make_keys(run_lengths(static_cast<run_layout>(layout), n, PART, TILE, engine), engine);
      strata_test::device_buffer<KeyT> d_keys(keys);
      check_runs<RowsT>(static_cast<const KeyT*>(d_keys.data()), keys, equality_op);
    }
  }
  for (const int layout : {runs_random, one_run})
  {
    for (const long long n : small)
    {
      INFO("seed " << seed << ", " << n << " items, layout " << layout << ", tiles of " << TILE << ", vectors of "
                   << RowsT::VEC);
      const std::vector<KeyT> keys =
          make_keys(run_lengths(static_cast<run_layout>(layout), n, PART, TILE, engine), engine);
      strata_test::device_buffer<KeyT> d_keys(keys);
      check_runs<RowsT>(static_cast<const KeyT*>(d_keys.data()), keys, equality_op);
    }
  }
}
} // namespace

TEST_CASE("TileRuns: byte keys in vectors of eight", "[tile][runs]")
{
  STRATA_TEST_REQUIRE_GPU();
  using RowsT = rows_for<64, 8, const std::uint8_t*>;
  static_assert(RowsT::VEC == 8, "bytes move in vectors of eight here");
  check_runs_pointer<RowsT, std::uint8_t>(1, equal_keys{},
                                          [](const std::vector<long long>& lengths, std::mt19937_64& engine)
                                          {
                                            std::vector<std::uint8_t> keys;
                                            std::uint8_t value = static_cast<std::uint8_t>(engine());
                                            for (const long long length : lengths)
                                            {
                                              // A value different from the run before.
                                              value = static_cast<std::uint8_t>(value + 1 + engine() % 255);
                                              keys.insert(keys.end(), static_cast<std::size_t>(length), value);
                                            }
                                            return keys;
                                          });
}

TEST_CASE("TileRuns: float keys with NaN runs and mixed-sign zeros", "[tile][runs]")
{
  STRATA_TEST_REQUIRE_GPU();
  using RowsT = rows_for<96, 7, const float*>;
  check_runs_pointer<RowsT, float>(2, equal_keys{},
                                   [](const std::vector<long long>& lengths, std::mt19937_64& engine)
                                   {
                                     std::vector<float> keys;
                                     for (std::size_t r = 0; r < lengths.size(); ++r)
                                     {
                                       const unsigned kind = static_cast<unsigned>(engine() % 4);
                                       const float value =
                                           static_cast<float>(static_cast<int>(engine() % 2001) - 1000) + 0.5f;
                                       for (long long i = 0; i < lengths[r]; ++i)
                                       {
                                         keys.push_back(kind == 0   ? std::numeric_limits<float>::quiet_NaN()
                                                        : kind == 1 ? (engine() % 2 == 0 ? 0.0f : -0.0f)
                                                                    : value + static_cast<float>(r % 2));
                                       }
                                     }
                                     return keys;
                                   });
}

TEST_CASE("TileRuns: int64 keys under an equality coarser than ==", "[tile][runs]")
{
  STRATA_TEST_REQUIRE_GPU();
  using RowsT = rows_for<128, 4, const std::int64_t*>;
  static_assert(RowsT::VEC == 2, "int64 keys move in vectors of two here");
  check_runs_pointer<RowsT, std::int64_t>(3, same_quarter{},
                                          [](const std::vector<long long>& lengths, std::mt19937_64& engine)
                                          {
                                            std::vector<std::int64_t> keys;
                                            std::int64_t quarter = static_cast<std::int64_t>(engine() >> 8);
                                            for (const long long length : lengths)
                                            {
                                              quarter += 1 + static_cast<std::int64_t>(engine() % 1000);
                                              for (long long i = 0; i < length; ++i)
                                              {
                                                // Equal keys of a run differ in their low bits.
                                                keys.push_back(quarter * 4 + static_cast<std::int64_t>(engine() % 4));
                                              }
                                            }
                                            return keys;
                                          });
}

TEST_CASE("TileRuns: keys through an iterator", "[tile][runs]")
{
  STRATA_TEST_REQUIRE_GPU();
  using KeysIt = strata::TransformInputIterator<int, third, const int*>;
  using RowsT  = rows_for<64, 5, KeysIt>;
  static_assert(RowsT::VEC == 1, "iterators move one item at a time");
  const auto seed = strata_test::seed(4);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (const long long n : {1ll, 2ll * RowsT::TILE_ITEMS + 1, 3ll * RowsT::TILE_ITEMS})
  {
    // Counting values, with every 50th run of thirds broken by a jump.
    std::vector<int> values;
    int value = static_cast<int>(engine() % 1000);
    for (long long i = 0; i < n; ++i)
    {
      value += engine() % 50 == 0 ? 7 : 1;
      values.push_back(value);
    }
    strata_test::device_buffer<int> d_values(values);
    std::vector<int> keys;
    for (const int v : values)
    {
      keys.push_back(third{}(v));
    }
    INFO(n << " items");
    check_runs<RowsT>(KeysIt(d_values.data(), third{}), keys, equal_keys{});
  }
}

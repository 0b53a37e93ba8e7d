// Tests of strata/tile/tile_compact.cuh: TileCompact, a tile's kept items placed at their slots by
// whichever threads hold them, then handed out by ForEach: slot k to thread k % BLOCK_THREADS, each
// thread's slots in increasing order, exactly the slots [0, count), the store's writes landing at
// the right offsets (everything after them keeps its poison). Selections of nothing, one item,
// about a third, all but one and everything; kept items then rejected ones in reverse (as the
// partitions place them); slots in a random order; partial tiles. Each block compacts two tiles
// in turn through the same shared memory, with the barrier the contract asks for in between.
// Tiles of 128 x 7 12-byte items, of 1000 doubles over 96 threads (not a multiple of the block)
// and of 256 bytes over 64 threads.
#include <strata/tile/tile_compact.cuh>

#include "tile_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace
{
namespace tile = strata::detail::tile;

constexpr int rounds = 2;

//! Block b compacts tiles rounds * b + r: item i of tile t (held by thread i % BT) goes to slot
//! slots[t * TILE + i] (none where negative); ForEach then writes slot k to out[t * TILE + k] and
//! its thread to owners[t * TILE + k], and counts slots a thread got out of order.
template <int BT, int TILE, typename T>
__global__ void __launch_bounds__(BT)
    compact_kernel(const T* in, const int* slots, const int* counts, T* out, int* owners, int* out_of_order)
{
  using CompactT = tile::TileCompact<BT, TILE, T>;
  __shared__ typename CompactT::TempStorage storage;
  CompactT compact(storage);
  const int tid = static_cast<int>(threadIdx.x);
  for (int r = 0; r < rounds; ++r)
  {
    const int t = static_cast<int>(blockIdx.x) * rounds + r;
    for (int i = tid; i < TILE; i += BT)
    {
      const int slot = slots[t * TILE + i];
      if (slot >= 0)
      {
        compact.Place(slot, in[t * TILE + i]);
      }
    }
    int last = -1;
    compact.ForEach(counts[t],
                    [&](int k, const T& item)
                    {
                      out[t * TILE + k]    = item;
                      owners[t * TILE + k] = tid;
                      if (k <= last)
                      {
                        atomicAdd(out_of_order, 1);
                      }
                      last = k;
                    });
    __syncthreads(); // every ForEach read before the next tile's Place
  }
}

enum selection : int
{
  keep_none,
  keep_one,
  keep_a_third,
  keep_all_but_one,
  keep_all,
  partition_style, // kept items first, then the rejected ones in reverse
  random_slots,    // every valid item, at a random permutation of the slots
  selection_count
};

template <int BT, int TILE, typename T>
void check_compact(std::uint64_t salt)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed << ", tiles of " << TILE << " items over " << BT << " threads");
  std::mt19937_64 engine(seed);
  // Every selection on a full tile, then on partial tiles of a random size and of one item.
  std::vector<int> valid;
  std::vector<int> kinds;
  for (int kind = 0; kind < selection_count; ++kind)
  {
    valid.push_back(TILE);
    kinds.push_back(kind);
    valid.push_back(1 + static_cast<int>(engine() % (TILE - 1)));
    kinds.push_back(kind);
  }
  for (const int kind : {keep_one, keep_all, partition_style, random_slots})
  {
    valid.push_back(1);
    kinds.push_back(kind);
  }
  if (valid.size() % rounds != 0)
  {
    valid.push_back(TILE - 1);
    kinds.push_back(keep_a_third);
  }
  const std::size_t tiles = valid.size();
  const auto n            = tiles * TILE;
  const std::vector<T> in = strata_test::random_vector<T>(n, seed + 1);
  std::vector<int> slots(n, -1);
  std::vector<int> counts(tiles, 0);
  std::vector<T> expected_out      = strata_test::poisoned<T>(n);
  std::vector<int> expected_owners = strata_test::poisoned<int>(n);
  for (std::size_t t = 0; t < tiles; ++t)
  {
    const int v = valid[t];
    std::vector<int> kept;
    std::vector<int> rejected;
    const int lone = static_cast<int>(engine() % static_cast<unsigned>(v));
    for (int i = 0; i < v; ++i)
    {
      bool keep = false;
      switch (kinds[t])
      {
      case keep_none:
        keep = false;
        break;
      case keep_one:
        keep = i == lone;
        break;
      case keep_a_third:
        keep = engine() % 3 == 0;
        break;
      case keep_all_but_one:
        keep = i != lone;
        break;
      case keep_all:
        keep = true;
        break;
      case partition_style:
        keep = engine() % 2 == 0;
        break;
      default:
        keep = true;
        break;
      }
      (keep ? kept : rejected).push_back(i);
    }
    std::vector<int> order = kept; // the items in slot order
    if (kinds[t] == partition_style)
    {
      order.insert(order.end(), rejected.rbegin(), rejected.rend());
    }
    if (kinds[t] == random_slots)
    {
      std::shuffle(order.begin(), order.end(), engine);
    }
    counts[t] = static_cast<int>(order.size());
    for (std::size_t k = 0; k < order.size(); ++k)
    {
      const std::size_t item        = t * TILE + static_cast<std::size_t>(order[k]);
      slots[item]                   = static_cast<int>(k);
      expected_out[t * TILE + k]    = in[item];
      expected_owners[t * TILE + k] = static_cast<int>(k % BT);
    }
  }
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_slots(slots);
  strata_test::device_buffer<int> d_counts(counts);
  strata_test::device_buffer<T> d_out(n);
  strata_test::device_buffer<int> d_owners(n);
  strata_test::device_buffer<int> d_out_of_order(1);
  d_out.poison();
  d_owners.poison();
  STRATA_TEST_CUDA(cudaMemset(d_out_of_order.data(), 0, sizeof(int)));
  compact_kernel<BT, TILE><<<static_cast<unsigned>(tiles / rounds), BT>>>(
      d_in.data(), d_slots.data(), d_counts.data(), d_out.data(), d_owners.data(), d_out_of_order.data());
  strata_test::check_launch();
  strata_test::check_equal(expected_out, d_out.download());
  strata_test::check_equal(expected_owners, d_owners.download());
  strata_test::check_equal(std::vector<int>{0}, d_out_of_order.download());
}
} // namespace

TEST_CASE("TileCompact: 128 threads, 7 12-byte items each", "[tile][compact]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_compact<128, 128 * 7, strata_test::custom_t>(1);
}

TEST_CASE("TileCompact: 96 threads, 1000 doubles a tile", "[tile][compact]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_compact<96, 1000, double>(2);
}

TEST_CASE("TileCompact: 64 threads, 256 bytes a tile", "[tile][compact]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_compact<64, 256, std::uint8_t>(3);
}

// Tests of strata/tile/tile_scan_rows.cuh: ScanTileRows as the single-pass agents use it.
// - Load, ScanTile, Finish, Store: one block per tile; every thread's loaded registers against the
//   documented layout (warp w holds items [w * WARP_ITEMS, (w + 1) * WARP_ITEMS), lane l vector l
//   of each row), the tile's first item repeated past `valid`, the aggregate in every thread, and
//   the inclusive or exclusive results with a tile prefix and without one, for both ways of keeping
//   the rows' prefixes (KEEP, FOLD). The operator composes affine maps (associative, not
//   commutative: any change of operand order shows); ranks of 16 items of uint16 per thread sum as
//   int, as the compactions do. Inputs by aligned pointers (vectors of 2, 4 and 8 items), by
//   pointers misaligned by one item and by an iterator; sizes 1, a warp's part + 1, tile - 1, tile
//   and several tiles + 17.
// - NextTile: each block gets a distinct tile from the counter; one tile needs no counter.
// - LookBack and TilePrefix, with a tile state and look-back that record what they are asked: the
//   aggregate published as partial or inclusive, the look-back done by warp 0 alone and only where
//   a prefix is needed, the tile's inclusive value from the prefix and the aggregate, the prefix in
//   every thread, warp 0's items unchanged by parking them.
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/tile/tile_scan_rows.cuh>

#include "tile_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace tile = strata::detail::tile;
using strata_test::affine_compose;
using strata_test::affine_map;

//! A 32-bit word as an affine map (an odd factor, so that no composition collapses to a constant).
struct to_affine
{
  __host__ __device__ affine_map operator()(std::uint32_t x) const
  {
    return affine_map{x * 2654435761u | 1u, x ^ 0x9E3779B9u};
  }
};

//! int addition on host and device.
struct int_sum
{
  __host__ __device__ int operator()(int a, int b) const
  {
    return a + b;
  }
};

namespace
{
//! Block b scans tile b of `num_items` items: Load, registers to `regs` (thread-major) and block
//! 0's ItemIndex to `indices`, ScanTile (its aggregate from every thread to `aggregates`), Finish
//! with tile_prefixes[b] where has_tile_prefix[b], Store.
template <typename RowsT, bool INCLUSIVE, typename AccumT, typename InputIt, typename OutputIt, typename ScanOpT>
__global__ void __launch_bounds__(RowsT::BLOCK_THREADS)
    scan_kernel(InputIt in, OutputIt out, long long num_items, const AccumT* tile_prefixes, const int* has_tile_prefix,
                ScanOpT scan_op, AccumT* regs, int* indices, AccumT* aggregates)
{
  constexpr int BT  = RowsT::BLOCK_THREADS;
  constexpr int IPT = RowsT::ITEMS_PER_THREAD;
  __shared__ typename RowsT::TempStorage storage;
  RowsT rows(storage);
  const int tid               = static_cast<int>(threadIdx.x);
  const int b                 = static_cast<int>(blockIdx.x);
  const long long tile_offset = static_cast<long long>(b) * RowsT::TILE_ITEMS;
  const int valid             = tile::ValidItems<RowsT::TILE_ITEMS>(num_items, tile_offset);
  AccumT items[IPT];
  rows.Load(in, tile_offset, valid, items);
#pragma unroll
  for (int k = 0; k < IPT; ++k)
  {
    regs[(b * BT + tid) * IPT + k] = items[k];
    if (b == 0)
    {
      indices[tid * IPT + k] = rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC);
    }
  }
  typename RowsT::Prefixes prefixes;
  aggregates[b * BT + tid] = rows.template ScanTile<INCLUSIVE>(items, prefixes, scan_op);
  rows.template Finish<INCLUSIVE>(items, prefixes, tile_prefixes[b], has_tile_prefix[b] != 0, scan_op);
  rows.Store(out, tile_offset, valid, items);
}

//! One ScanTileRows configuration: the agent's policy, accumulator, input iterator (which sets
//! the vector width as the agents set it), how rows keep their prefixes, inclusive or exclusive.
template <int BT, int IPT, typename AccumT, typename InputIt, tile::RowPrefixes ROW_PREFIXES, bool INCLUSIVE,
          typename ScanOpT, strata::CacheLoadModifier MODIFIER = strata::LOAD_DEFAULT>
struct rows_case
{
  static constexpr int vec = tile::VectorItems<IPT, 16, InputIt>();
  using rows_t             = tile::ScanTileRows<strata_test::rows_policy<BT, IPT, MODIFIER>, AccumT, vec, ROW_PREFIXES,
                                    tile::LookbackItems::IN_REGISTERS>;
  using accum_t            = AccumT;
  using input_t            = InputIt;
  using scan_op_t          = ScanOpT;
  static constexpr bool inclusive = INCLUSIVE;
  static constexpr int tile_items = BT * IPT;
  static constexpr int warp_items = 32 * IPT;
};

//! Runs scan_kernel over `num_items` items of `in` (whose item i is input_at(i)) into `out_data`
//! + out_offset and checks registers, indices, aggregates and results in full, first with the
//! odd tiles given a prefix, then the even ones.
template <typename Case, typename InputAt>
void check_scan(typename Case::input_t in, InputAt input_at, long long num_items, int out_offset, std::uint64_t seed)
{
  using AccumT       = typename Case::accum_t;
  using RowsT        = typename Case::rows_t;
  constexpr int BT   = RowsT::BLOCK_THREADS;
  constexpr int IPT  = RowsT::ITEMS_PER_THREAD;
  constexpr int TILE = Case::tile_items;
  const int tiles    = static_cast<int>((num_items + TILE - 1) / TILE);
  typename Case::scan_op_t op{};
  INFO(num_items << " items, output offset " << out_offset << ", " << BT << " threads x " << IPT
                 << " items, vectors of " << RowsT::VEC << (Case::inclusive ? ", inclusive" : ", exclusive"));

  // The tile as loaded: its valid items, then its first item repeated.
  std::vector<std::vector<AccumT>> loaded(static_cast<std::size_t>(tiles));
  std::vector<std::vector<AccumT>> scanned(static_cast<std::size_t>(tiles)); // inclusive, tile-local
  for (int t = 0; t < tiles; ++t)
  {
    auto& tile_items = loaded[static_cast<std::size_t>(t)];
    for (long long i = 0; i < TILE; ++i)
    {
      const long long at = static_cast<long long>(t) * TILE + i;
      tile_items.push_back(at < num_items ? input_at(at) : tile_items[0]);
    }
    auto& tile_scan = scanned[static_cast<std::size_t>(t)];
    tile_scan.push_back(tile_items[0]);
    for (int i = 1; i < TILE; ++i)
    {
      tile_scan.push_back(op(tile_scan.back(), tile_items[static_cast<std::size_t>(i)]));
    }
  }
  std::vector<AccumT> prefixes;
  if constexpr (std::is_same_v<AccumT, affine_map>)
  {
    prefixes = strata_test::random_words_as<affine_map>(static_cast<std::size_t>(tiles), seed + 7);
  }
  else
  {
    prefixes = strata_test::random_vector<AccumT>(static_cast<std::size_t>(tiles), seed + 7, -1000000, 1000000);
  }

  strata_test::device_buffer<AccumT> d_prefixes(prefixes);
  strata_test::device_buffer<AccumT> d_out(static_cast<std::size_t>(out_offset + num_items + 16));
  strata_test::device_buffer<AccumT> d_regs(static_cast<std::size_t>(tiles * TILE));
  strata_test::device_buffer<int> d_indices(static_cast<std::size_t>(TILE));
  strata_test::device_buffer<AccumT> d_aggregates(static_cast<std::size_t>(tiles * BT));
  for (const int with_prefix : {1, 0})
  {
    INFO((with_prefix ? "odd" : "even") << " tiles have a tile prefix");
    std::vector<int> has_prefix(static_cast<std::size_t>(tiles));
    for (int t = 0; t < tiles; ++t)
    {
      has_prefix[static_cast<std::size_t>(t)] = t % 2 == with_prefix ? 1 : 0;
    }
    strata_test::device_buffer<int> d_has_prefix(has_prefix);
    d_out.poison();
    d_regs.poison();
    d_indices.poison();
    d_aggregates.poison();
    scan_kernel<RowsT, Case::inclusive><<<tiles, BT>>>(in, d_out.data() + out_offset, num_items, d_prefixes.data(),
                                                       d_has_prefix.data(), op, d_regs.data(), d_indices.data(),
                                                       d_aggregates.data());
    strata_test::check_launch();

    std::vector<AccumT> expected_regs;
    std::vector<int> expected_indices;
    std::vector<AccumT> expected_aggregates;
    for (int t = 0; t < tiles; ++t)
    {
      for (int tid = 0; tid < BT; ++tid)
      {
        for (int k = 0; k < IPT; ++k)
        {
          const int index = strata_test::striped_vector_index(tid, k, IPT, RowsT::VEC, 32);
          expected_regs.push_back(loaded[static_cast<std::size_t>(t)][static_cast<std::size_t>(index)]);
          if (t == 0)
          {
            expected_indices.push_back(index);
          }
        }
        expected_aggregates.push_back(scanned[static_cast<std::size_t>(t)].back());
      }
    }
    strata_test::check_equal(expected_regs, d_regs.download());
    strata_test::check_equal(expected_indices, d_indices.download());
    strata_test::check_equal(expected_aggregates, d_aggregates.download());

    const std::vector<AccumT> out = d_out.download();
    std::vector<AccumT> expected  = strata_test::poisoned<AccumT>(out.size());
    for (long long at = 0; at < num_items; ++at)
    {
      const int t                = static_cast<int>(at / TILE);
      const auto i               = static_cast<std::size_t>(at % TILE);
      const auto& tile_scan      = scanned[static_cast<std::size_t>(t)];
      const AccumT& prefix       = prefixes[static_cast<std::size_t>(t)];
      const bool tile_has_prefix = has_prefix[static_cast<std::size_t>(t)] != 0;
      const auto slot            = static_cast<std::size_t>(out_offset + at);
      if (Case::inclusive)
      {
        expected[slot] = tile_has_prefix ? op(prefix, tile_scan[i]) : tile_scan[i];
      }
      else if (i == 0)
      {
        // Without a tile prefix the exclusive result of the tile's first item is undefined.
        expected[slot] = tile_has_prefix ? prefix : out[slot];
      }
      else
      {
        expected[slot] = tile_has_prefix ? op(prefix, tile_scan[i - 1]) : tile_scan[i - 1];
      }
    }
    strata_test::check_equal(expected, out);
  }
}

//! A pointer input (of InT), at offsets 0 and 1 item for input and output, over sizes on both sides
//! of a warp's part and of the tile.
template <typename Case, typename InT>
void check_scan_pointers(std::uint64_t salt, double lo = 0.0, double hi = 0.0)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed);
  const long long sizes[] = {1, Case::warp_items + 1, Case::tile_items - 1, Case::tile_items,
                             3ll * Case::tile_items + 17};
  for (const long long n : sizes)
  {
    for (const int in_offset : {0, 1})
    {
      for (const int out_offset : {0, 1})
      {
        if (in_offset != out_offset && n != sizes[4])
        {
          continue; // mixed alignments at the largest size only
        }
        INFO("input offset " << in_offset);
        std::vector<InT> input;
        if constexpr (std::is_same_v<InT, affine_map>)
        {
          input = strata_test::random_words_as<affine_map>(static_cast<std::size_t>(n + in_offset), seed);
        }
        else
        {
          input = strata_test::random_vector<InT>(static_cast<std::size_t>(n + in_offset), seed, lo, hi);
        }
        strata_test::device_buffer<InT> d_in(input);
        const auto input_at = [&](long long i)
        { return typename Case::accum_t(input[static_cast<std::size_t>(i + in_offset)]); };
        check_scan<Case>(static_cast<const InT*>(d_in.data() + in_offset), input_at, n, out_offset, seed);
      }
    }
  }
}

//! A TransformInputIterator input (one item at a time in the same layout).
template <typename Case>
void check_scan_iterator(std::uint64_t salt)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed);
  for (const long long n : {1ll, Case::warp_items + 1ll, 2ll * Case::tile_items, 2ll * Case::tile_items + 5})
  {
    const std::vector<std::uint32_t> words =
        strata_test::random_vector<std::uint32_t>(static_cast<std::size_t>(n), seed);
    strata_test::device_buffer<std::uint32_t> d_words(words);
    const typename Case::input_t in(d_words.data(), to_affine{});
    const auto input_at = [&](long long i) { return to_affine{}(words[static_cast<std::size_t>(i)]); };
    check_scan<Case>(in, input_at, n, 0, seed);
  }
}

using affine_input_t = const affine_map*;
using affine_words_t = strata::TransformInputIterator<affine_map, to_affine, const std::uint32_t*>;
using case_fold_inclusive =
    rows_case<128, 8, affine_map, affine_input_t, tile::RowPrefixes::FOLD, true, affine_compose>;
using case_fold_exclusive =
    rows_case<128, 8, affine_map, affine_input_t, tile::RowPrefixes::FOLD, false, affine_compose>;
using case_keep_inclusive = rows_case<96, 6, affine_map, affine_input_t, tile::RowPrefixes::KEEP, true, affine_compose>;
using case_keep_exclusive =
    rows_case<96, 6, affine_map, affine_input_t, tile::RowPrefixes::KEEP, false, affine_compose>;
using case_ranks =
    rows_case<128, 16, int, const std::uint16_t*, tile::RowPrefixes::FOLD, false, int_sum, strata::LOAD_LDG>;
using case_one_warp      = rows_case<32, 4, int, const int*, tile::RowPrefixes::KEEP, true, int_sum>;
using case_iterator_keep = rows_case<64, 7, affine_map, affine_words_t, tile::RowPrefixes::KEEP, false, affine_compose>;
using case_iterator_fold = rows_case<64, 7, affine_map, affine_words_t, tile::RowPrefixes::FOLD, true, affine_compose>;
static_assert(case_fold_inclusive::vec == 2 && case_keep_exclusive::vec == 2 && case_ranks::vec == 8
                  && case_one_warp::vec == 4 && case_iterator_keep::vec == 1,
              "the vector widths the cases are meant to cover");

//! A tile state that records what ScanTileRows publishes, and a look-back that records who asks
//! and answers with a prefix chosen by the test.
struct recording_tile_state
{
  affine_map* partials;
  affine_map* inclusives;
  int* sets; // per tile: SetPartial calls, SetInclusive calls
  const affine_map* exclusives;
  int* lookback_lanes;
  int* lookback_warps; // bit w: warp w looked back

  __device__ void SetPartial(int tile, affine_map value)
  {
    partials[tile] = value;
    atomicAdd(&sets[2 * tile], 1);
  }
  __device__ void SetInclusive(int tile, affine_map value)
  {
    inclusives[tile] = value;
    atomicAdd(&sets[2 * tile + 1], 1);
  }
};

struct recording_prefix_op
{
  template <typename ScanOpT>
  __device__ static affine_map Lookback(recording_tile_state& state, ScanOpT&, int tile)
  {
    atomicAdd(&state.lookback_lanes[tile], 1);
    atomicOr(&state.lookback_warps[tile], 1 << (threadIdx.x / 32));
    return state.exclusives[tile];
  }
};

//! Block b: LookBack (flags[b]: bit 0 the aggregate is inclusive, bit 1 a prefix is needed) or,
//! with num_tiles > 0, TilePrefix; the result from every thread to `results`, the items after it
//! to `regs`.
template <typename RowsT>
__global__ void __launch_bounds__(RowsT::BLOCK_THREADS)
    lookback_kernel(recording_tile_state state, const affine_map* in, const affine_map* aggregates, const int* flags,
                    int num_tiles, affine_map* results, affine_map* regs)
{
  constexpr int BT  = RowsT::BLOCK_THREADS;
  constexpr int IPT = RowsT::ITEMS_PER_THREAD;
  __shared__ typename RowsT::TempStorage storage;
  __shared__ affine_map shared_prefix;
  RowsT rows(storage);
  const int tid = static_cast<int>(threadIdx.x);
  const int b   = static_cast<int>(blockIdx.x);
  affine_map items[IPT];
#pragma unroll
  for (int k = 0; k < IPT; ++k)
  {
    items[k] = in[(b * BT + tid) * IPT + k];
  }
  affine_compose op;
  affine_map result;
  if (num_tiles == 0)
  {
    result = rows.template LookBack<recording_prefix_op>(items, shared_prefix, state, op, b, aggregates[b],
                                                         (flags[b] & 1) != 0, (flags[b] & 2) != 0);
  }
  else
  {
    result =
        rows.template TilePrefix<recording_prefix_op>(items, shared_prefix, state, op, b, num_tiles, aggregates[b]);
  }
  results[b * BT + tid] = result;
#pragma unroll
  for (int k = 0; k < IPT; ++k)
  {
    regs[(b * BT + tid) * IPT + k] = items[k];
  }
}

//! What LookBack (num_tiles == 0, flags per tile) or TilePrefix (num_tiles tiles) must do.
template <typename RowsT>
void check_lookback(int tiles, int num_tiles, std::uint64_t salt)
{
  constexpr int BT  = RowsT::BLOCK_THREADS;
  constexpr int IPT = RowsT::ITEMS_PER_THREAD;
  const auto seed   = strata_test::seed(salt);
  INFO("seed " << seed << ", " << tiles << " tiles, " << (num_tiles == 0 ? "LookBack" : "TilePrefix"));
  const auto n_tiles                       = static_cast<std::size_t>(tiles);
  const std::vector<affine_map> items      = strata_test::random_words_as<affine_map>(n_tiles * BT * IPT, seed);
  const std::vector<affine_map> aggregates = strata_test::random_words_as<affine_map>(n_tiles, seed + 1);
  const std::vector<affine_map> exclusives = strata_test::random_words_as<affine_map>(n_tiles, seed + 2);
  std::vector<int> flags(n_tiles);
  for (std::size_t t = 0; t < n_tiles; ++t)
  {
    flags[t] = static_cast<int>(t % 4);
  }
  strata_test::device_buffer<affine_map> d_items(items);
  strata_test::device_buffer<affine_map> d_aggregates(aggregates);
  strata_test::device_buffer<affine_map> d_exclusives(exclusives);
  strata_test::device_buffer<int> d_flags(flags);
  strata_test::device_buffer<affine_map> d_partials(n_tiles);
  strata_test::device_buffer<affine_map> d_inclusives(n_tiles);
  strata_test::device_buffer<int> d_sets(2 * n_tiles);
  strata_test::device_buffer<int> d_lanes(n_tiles);
  strata_test::device_buffer<int> d_warps(n_tiles);
  strata_test::device_buffer<affine_map> d_results(n_tiles * BT);
  strata_test::device_buffer<affine_map> d_regs(n_tiles * BT * IPT);
  d_partials.poison();
  d_inclusives.poison();
  d_results.poison();
  d_regs.poison();
  STRATA_TEST_CUDA(cudaMemset(d_sets.data(), 0, d_sets.bytes()));
  STRATA_TEST_CUDA(cudaMemset(d_lanes.data(), 0, d_lanes.bytes()));
  STRATA_TEST_CUDA(cudaMemset(d_warps.data(), 0, d_warps.bytes()));
  const recording_tile_state state{d_partials.data(),   d_inclusives.data(), d_sets.data(),
                                   d_exclusives.data(), d_lanes.data(),      d_warps.data()};
  lookback_kernel<RowsT><<<tiles, BT>>>(state, d_items.data(), d_aggregates.data(), d_flags.data(), num_tiles,
                                        d_results.data(), d_regs.data());
  strata_test::check_launch();

  affine_compose op;
  const affine_map poison = strata_test::poison_value<affine_map>();
  std::vector<affine_map> expected_partials(n_tiles, poison);
  std::vector<affine_map> expected_inclusives(n_tiles, poison);
  std::vector<int> expected_sets(2 * n_tiles, 0);
  std::vector<int> expected_lanes(n_tiles, 0);
  std::vector<int> expected_warps(n_tiles, 0);
  std::vector<affine_map> expected_results;
  for (std::size_t t = 0; t < n_tiles; ++t)
  {
    // TilePrefix: tile 0 publishes its aggregate as inclusive where more tiles follow and has no
    // prefix; the others publish a partial and look back.
    const bool tile_zero    = num_tiles > 0 && t == 0;
    const bool is_inclusive = num_tiles == 0 ? (flags[t] & 1) != 0 : tile_zero;
    const bool needs_prefix = num_tiles == 0 ? (flags[t] & 2) != 0 : !tile_zero;
    if (is_inclusive)
    {
      if (!tile_zero || num_tiles > 1)
      {
        expected_inclusives[t]   = aggregates[t];
        expected_sets[2 * t + 1] = 1;
      }
    }
    else
    {
      expected_partials[t] = aggregates[t];
      expected_sets[2 * t] = 1;
      if (needs_prefix)
      {
        expected_inclusives[t]   = op(exclusives[t], aggregates[t]);
        expected_sets[2 * t + 1] = 1;
      }
    }
    expected_lanes[t] = needs_prefix ? 32 : 0;
    expected_warps[t] = needs_prefix ? 1 : 0;
    for (int tid = 0; tid < BT; ++tid)
    {
      expected_results.push_back(needs_prefix ? exclusives[t] : affine_map{});
    }
  }
  strata_test::check_equal(expected_partials, d_partials.download());
  strata_test::check_equal(expected_inclusives, d_inclusives.download());
  strata_test::check_equal(expected_sets, d_sets.download());
  strata_test::check_equal(expected_lanes, d_lanes.download());
  strata_test::check_equal(expected_warps, d_warps.download());
  strata_test::check_equal(expected_results, d_results.download());
  strata_test::check_equal(items, d_regs.download());
}

using rows_parked       = tile::ScanTileRows<strata_test::rows_policy<96, 6>, affine_map, 2, tile::RowPrefixes::FOLD,
                                       tile::LookbackItems::PARKED>;
using rows_in_registers = tile::ScanTileRows<strata_test::rows_policy<64, 5>, affine_map, 1, tile::RowPrefixes::KEEP,
                                             tile::LookbackItems::IN_REGISTERS>;

//! Block b takes a tile from the counter; every thread reports it.
template <typename RowsT>
__global__ void __launch_bounds__(RowsT::BLOCK_THREADS)
    next_tile_kernel(int num_tiles, unsigned int* counter, int* taken)
{
  __shared__ typename RowsT::TempStorage storage;
  RowsT rows(storage);
  taken[blockIdx.x * RowsT::BLOCK_THREADS + threadIdx.x] = rows.NextTile(num_tiles, counter);
}
} // namespace

TEST_CASE("ScanTileRows: rows folded into the items, inclusive", "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan_pointers<case_fold_inclusive, affine_map>(1);
}

TEST_CASE("ScanTileRows: rows folded into the items, exclusive", "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan_pointers<case_fold_exclusive, affine_map>(2);
}

TEST_CASE("ScanTileRows: a prefix kept per row, inclusive", "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan_pointers<case_keep_inclusive, affine_map>(3);
}

TEST_CASE("ScanTileRows: a prefix kept per row, exclusive", "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan_pointers<case_keep_exclusive, affine_map>(4);
}

TEST_CASE("ScanTileRows: 16 uint16 items a thread summed as int (vectors of 8, LOAD_LDG)", "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan_pointers<case_ranks, std::uint16_t>(5, 1.0, 65535.0);
}

TEST_CASE("ScanTileRows: a block of one warp and one row", "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan_pointers<case_one_warp, int>(6, -1000.0, 1000.0);
}

TEST_CASE("ScanTileRows: an iterator input", "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan_iterator<case_iterator_keep>(7);
  check_scan_iterator<case_iterator_fold>(8);
}

TEST_CASE("ScanTileRows::NextTile: distinct tiles from the counter, tile 0 without it for one tile",
          "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int BT = rows_parked::BLOCK_THREADS;
  strata_test::device_buffer<unsigned int> d_counter(1);
  SECTION("one tile: the counter is neither read nor written")
  {
    strata_test::device_buffer<int> d_taken(BT);
    d_counter.poison();
    d_taken.poison();
    next_tile_kernel<rows_parked><<<1, BT>>>(1, d_counter.data(), d_taken.data());
    strata_test::check_launch();
    strata_test::check_equal(std::vector<int>(BT, 0), d_taken.download());
    strata_test::check_equal(strata_test::poisoned<unsigned int>(1), d_counter.download());
  }
  SECTION("37 tiles: each block's threads agree, the blocks share out every tile once")
  {
    constexpr int TILES = 37;
    strata_test::device_buffer<int> d_taken(TILES * BT);
    STRATA_TEST_CUDA(cudaMemset(d_counter.data(), 0, sizeof(unsigned int)));
    d_taken.poison();
    next_tile_kernel<rows_parked><<<TILES, BT>>>(TILES, d_counter.data(), d_taken.data());
    strata_test::check_launch();
    const std::vector<int> taken = d_taken.download();
    std::vector<int> per_block;
    std::vector<int> agree;
    for (int b = 0; b < TILES; ++b)
    {
      const int first = taken[static_cast<std::size_t>(b * BT)];
      per_block.push_back(first);
      for (int t = 0; t < BT; ++t)
      {
        agree.push_back(taken[static_cast<std::size_t>(b * BT + t)] == first ? 1 : 0);
      }
    }
    strata_test::check_equal(std::vector<int>(TILES * BT, 1), agree);
    std::sort(per_block.begin(), per_block.end());
    std::vector<int> all(TILES);
    for (int t = 0; t < TILES; ++t)
    {
      all[static_cast<std::size_t>(t)] = t;
    }
    strata_test::check_equal(all, per_block);
    strata_test::check_equal(std::vector<unsigned int>{TILES}, d_counter.download());
  }
}

TEST_CASE("ScanTileRows::LookBack: publishes the aggregate, looks back by warp 0 where asked, shares the prefix",
          "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  SECTION("warp 0 parks its items")
  {
    check_lookback<rows_parked>(8, 0, 11);
  }
  SECTION("items stay in registers")
  {
    check_lookback<rows_in_registers>(8, 0, 12);
  }
}

TEST_CASE("ScanTileRows::TilePrefix: tile 0 has no prefix and publishes its aggregate when tiles follow",
          "[tile][scan_rows]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_lookback<rows_parked>(1, 1, 13);
  check_lookback<rows_parked>(5, 5, 14);
  check_lookback<rows_in_registers>(3, 3, 15);
}

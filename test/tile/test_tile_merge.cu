// Tests of strata/tile/tile_merge.cuh against a host stable merge (std::merge: ties take the first
// input first).
// - WarpMergePath: the split of every output position of two sorted ranges, by every lane of the
//   warp: empty sides, one item, duplicates across the boundary (keys from a small range), all keys
//   equal, disjoint ranges either way round, a descending order, and counting iterators whose
//   counts pass 2^31 (32-bit offsets) and 2^32 (64-bit).
// - LoadTwoRanges: range1 then range2 in shared memory, converted, at every split of a full tile
//   and at partial counts (the slots after them untouched), from a pointer and an iterator.
// - TileMerge: each block writes one tile of a merge's output, with the splits given (read only
//   where the tile does not end the merge) or searched by two warps (one warp for a block of 32),
//   full and partial tiles, keys with values (their origins: a stable merge keeps ties in input
//   order) and keys alone; outputs checked in full, poisoned margin included.
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/tile/tile_merge.cuh>

#include "tile_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace tile = strata::detail::tile;

//! a > b: the order of descending inputs.
struct greater_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a > b;
  }
};

//! 2 i and 2 i + 1: evens and odds, whose merge alternates.
struct twice
{
  __host__ __device__ std::int64_t operator()(std::int64_t i) const
  {
    return 2 * i;
  }
};
struct twice_plus_one
{
  __host__ __device__ std::int64_t operator()(std::int64_t i) const
  {
    return 2 * i + 1;
  }
};

namespace
{
using strata_test::less_op;

//! The stable merge of a and b under `compare`: which input (0 or 1) and index each output has.
template <typename KeyT, typename CompareOp>
std::vector<std::pair<int, std::size_t>> merge_origins(const std::vector<KeyT>& a, const std::vector<KeyT>& b,
                                                       CompareOp compare)
{
  std::vector<std::pair<int, std::size_t>> origins;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size())
  {
    // b's key goes first only where it orders strictly before a's.
    if (j < b.size() && (i == a.size() || compare(b[j], a[i])))
    {
      origins.emplace_back(1, j++);
    }
    else
    {
      origins.emplace_back(0, i++);
    }
  }
  return origins;
}

//! How many of the first d outputs come from the first input, for every d in [0, outputs].
inline std::vector<long long> splits_of(const std::vector<std::pair<int, std::size_t>>& origins)
{
  std::vector<long long> splits{0};
  for (const auto& origin : origins)
  {
    splits.push_back(splits.back() + (origin.first == 0 ? 1 : 0));
  }
  return splits;
}

//! Each warp takes queries q, q + warps, ...: every lane's split of diags[q] to splits[q * 32 + lane].
template <typename KeyIt1, typename KeyIt2, typename OffsetT, typename CompareOp>
__global__ void merge_path_kernel(KeyIt1 keys1, KeyIt2 keys2, OffsetT count1, OffsetT count2, const OffsetT* diags,
                                  int num_diags, CompareOp compare_op, OffsetT* splits)
{
  const int lane  = static_cast<int>(threadIdx.x % 32);
  const int warps = static_cast<int>(gridDim.x * blockDim.x / 32);
  for (int q = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32); q < num_diags; q += warps)
  {
    splits[q * 32 + lane] = tile::WarpMergePath(keys1, keys2, count1, count2, diags[q], compare_op);
  }
}

//! Runs merge_path_kernel for `diags` and checks every lane against `expected` (one per diag).
template <typename KeyIt1, typename KeyIt2, typename OffsetT, typename CompareOp>
void check_merge_path(KeyIt1 keys1, KeyIt2 keys2, OffsetT count1, OffsetT count2, const std::vector<OffsetT>& diags,
                      const std::vector<OffsetT>& expected, CompareOp compare_op)
{
  INFO(count1 << " + " << count2 << " keys, " << diags.size() << " positions");
  strata_test::device_buffer<OffsetT> d_diags(diags);
  strata_test::device_buffer<OffsetT> d_splits(diags.size() * 32);
  d_splits.poison();
  merge_path_kernel<<<8, 128>>>(keys1, keys2, count1, count2, d_diags.data(), static_cast<int>(diags.size()),
                                compare_op, d_splits.data());
  strata_test::check_launch();
  std::vector<OffsetT> every_lane;
  for (const OffsetT split : expected)
  {
    every_lane.insert(every_lane.end(), 32, split);
  }
  strata_test::check_equal(every_lane, d_splits.download());
}

//! Sorted keys under `compare` from `values` (their order as given otherwise).
template <typename KeyT, typename CompareOp>
std::vector<KeyT> sorted(std::vector<KeyT> values, CompareOp compare)
{
  std::stable_sort(values.begin(), values.end(), compare);
  return values;
}

//! Every output position of the merge of a and b (pointers, OffsetT offsets) against the host's.
template <typename OffsetT, typename KeyT, typename CompareOp>
void check_merge_path_all(const std::vector<KeyT>& a, const std::vector<KeyT>& b, CompareOp compare)
{
  strata_test::device_buffer<KeyT> d_a(a);
  strata_test::device_buffer<KeyT> d_b(b);
  const std::vector<long long> splits = splits_of(merge_origins(a, b, compare));
  std::vector<OffsetT> diags;
  std::vector<OffsetT> expected;
  for (std::size_t d = 0; d < splits.size(); ++d)
  {
    diags.push_back(static_cast<OffsetT>(d));
    expected.push_back(static_cast<OffsetT>(splits[d]));
  }
  check_merge_path(static_cast<const KeyT*>(d_a.data()), static_cast<const KeyT*>(d_b.data()),
                   static_cast<OffsetT>(a.size()), static_cast<OffsetT>(b.size()), diags, expected, compare);
}

//! Merges of evens (count1 of them) and odds (count2) made by iterators: for d <= 2 count2 the
//! outputs alternate (split ceil(d / 2), when count1 >= count2), then only evens remain.
template <typename OffsetT>
void check_merge_path_counting(OffsetT count1, OffsetT count2, std::uint64_t seed)
{
  using counting_t = strata::CountingInputIterator<std::int64_t>;
  const strata::TransformInputIterator<std::int64_t, twice, counting_t> evens(counting_t(0), twice{});
  const strata::TransformInputIterator<std::int64_t, twice_plus_one, counting_t> odds(counting_t(0), twice_plus_one{});
  const OffsetT total = count1 + count2;
  std::vector<OffsetT> diags{0, 1, 2, 3, 31, 32, 33, 2 * count2 - 1, 2 * count2, 2 * count2 + 1, total - 1, total};
  std::mt19937_64 engine(seed);
  for (int i = 0; i < 200; ++i)
  {
    diags.push_back(static_cast<OffsetT>(engine() % (static_cast<std::uint64_t>(total) + 1)));
  }
  std::vector<OffsetT> expected;
  for (const OffsetT d : diags)
  {
    expected.push_back(d <= 2 * count2 ? (d + 1) / 2 : d - count2);
  }
  check_merge_path(evens, odds, count1, count2, diags, expected, less_op{});
}

//! Copies range1[0, counts1[b]) and range2[0, counts2[b]) of block b (at its starts) to shared
//! memory that holds `sentinel` before, and dumps the whole tile.
template <int BT, int IPT, bool FULL, typename T, typename It1, typename It2>
__global__ void __launch_bounds__(BT) two_ranges_kernel(It1 range1, It2 range2, const int* counts1, const int* counts2,
                                                        const int* starts1, const int* starts2, T sentinel, T* out)
{
  constexpr int TILE = BT * IPT;
  __shared__ T shared[TILE];
  const int tid = static_cast<int>(threadIdx.x);
  const int b   = static_cast<int>(blockIdx.x);
  for (int i = tid; i < TILE; i += BT)
  {
    shared[i] = sentinel;
  }
  __syncthreads();
  tile::LoadTwoRanges<BT, IPT, FULL>(shared, range1 + starts1[b], counts1[b], range2 + starts2[b], counts2[b], tid);
  __syncthreads();
  for (int i = tid; i < TILE; i += BT)
  {
    out[b * TILE + i] = shared[i];
  }
}

template <int BT, int IPT, bool FULL>
void check_two_ranges(const std::vector<int>& counts1, const std::vector<int>& counts2, std::uint64_t seed)
{
  constexpr int TILE = BT * IPT;
  const int blocks   = static_cast<int>(counts1.size());
  INFO("seed " << seed << (FULL ? ", full tiles" : ", partial tiles"));
  // range1: int16 items packed block after block; range2: a counting sequence from a random base.
  std::vector<int> starts1;
  std::vector<int> starts2;
  int packed = 0;
  for (int b = 0; b < blocks; ++b)
  {
    starts1.push_back(packed);
    packed += counts1[static_cast<std::size_t>(b)];
    starts2.push_back(b * TILE);
  }
  const std::vector<std::int16_t> items1 =
      strata_test::random_vector<std::int16_t>(static_cast<std::size_t>(packed), seed);
  const int base = static_cast<int>(seed % 100000);
  strata_test::device_buffer<std::int16_t> d_items1(items1);
  strata_test::device_buffer<int> d_counts1(counts1);
  strata_test::device_buffer<int> d_counts2(counts2);
  strata_test::device_buffer<int> d_starts1(starts1);
  strata_test::device_buffer<int> d_starts2(starts2);
  strata_test::device_buffer<int> d_out(static_cast<std::size_t>(blocks * TILE));
  d_out.poison();
  const int sentinel = -123456789;
  two_ranges_kernel<BT, IPT, FULL>
      <<<blocks, BT>>>(static_cast<const std::int16_t*>(d_items1.data()), strata::CountingInputIterator<int>(base),
                       d_counts1.data(), d_counts2.data(), d_starts1.data(), d_starts2.data(), sentinel, d_out.data());
  strata_test::check_launch();
  std::vector<int> expected;
  for (int b = 0; b < blocks; ++b)
  {
    const int c1 = counts1[static_cast<std::size_t>(b)];
    const int c2 = counts2[static_cast<std::size_t>(b)];
    for (int i = 0; i < TILE; ++i)
    {
      expected.push_back(i < c1        ? items1[static_cast<std::size_t>(starts1[static_cast<std::size_t>(b)] + i)]
                         : i < c1 + c2 ? base + b * TILE + (i - c1)
                                       : sentinel);
    }
  }
  strata_test::check_equal(expected, d_out.download());
}

//! `values + offset`, or `values` where there are none (NullType): the agents offset no such pointer.
template <typename ValueT, typename OffsetT>
__device__ ValueT* values_at(ValueT* values, OffsetT offset)
{
  if constexpr (std::is_same_v<std::remove_const_t<ValueT>, strata::NullType>)
  {
    return values;
  }
  else
  {
    return values + offset;
  }
}

//! Block b writes output tile b of the merge of keys1[0, count1) and keys2[0, count2) (with their
//! values unless ValueT is NullType), the splits from d_splits or searched (d_splits null); every
//! thread's splits go to found.
template <int BT, int IPT, typename KeyT, typename ValueT, typename OffsetT, typename CompareOp>
__global__ void __launch_bounds__(BT)
    tile_merge_kernel(const KeyT* keys1, const ValueT* values1, OffsetT count1, const KeyT* keys2,
                      const ValueT* values2, OffsetT count2, const OffsetT* d_splits, KeyT* keys_out,
                      ValueT* values_out, CompareOp compare_op, OffsetT* found)
{
  constexpr int TILE = BT * IPT;
  using TileMergeT   = tile::TileMerge<BT, IPT, KeyT, ValueT, strata::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ typename TileMergeT::TempStorage storage;
  TileMergeT merge(storage);
  const OffsetT t          = OffsetT(blockIdx.x);
  const OffsetT tile_begin = t * OffsetT(TILE);
  const OffsetT left       = count1 + count2 - tile_begin;
  const int valid          = left >= OffsetT(TILE) ? TILE : int(left);
  OffsetT split_begin;
  OffsetT split_end;
  merge.Splits(keys1, keys2, count1, count2, tile_begin, tile_begin + OffsetT(valid),
               d_splits != nullptr ? d_splits + t : nullptr, split_begin, split_end, compare_op);
  found[2 * (t * BT + threadIdx.x)]     = split_begin;
  found[2 * (t * BT + threadIdx.x) + 1] = split_end;
  const int from1                       = int(split_end - split_begin);
  const OffsetT begin2                  = tile_begin - split_begin;
  if (valid == TILE)
  {
    merge.template Merge<true>(keys1 + split_begin, values_at(values1, split_begin), from1, keys2 + begin2,
                               values_at(values2, begin2), valid - from1, keys_out + tile_begin,
                               values_at(values_out, tile_begin), compare_op);
  }
  else
  {
    merge.template Merge<false>(keys1 + split_begin, values_at(values1, split_begin), from1, keys2 + begin2,
                                values_at(values2, begin2), valid - from1, keys_out + tile_begin,
                                values_at(values_out, tile_begin), compare_op);
  }
}

//! Merges a and b (sorted under `compare`) tile by tile, with given and with searched splits.
template <int BT, int IPT, typename ValueT, typename KeyT, typename CompareOp>
void check_tile_merge(const std::vector<KeyT>& a, const std::vector<KeyT>& b, CompareOp compare)
{
  using OffsetT        = std::uint32_t;
  constexpr bool PAIRS = !std::is_same_v<ValueT, strata::NullType>;
  constexpr int TILE   = BT * IPT;
  const std::size_t n  = a.size() + b.size();
  const int tiles      = static_cast<int>((n + TILE - 1) / TILE);
  INFO(a.size() << " + " << b.size() << " keys, tiles of " << BT << " x " << IPT << (PAIRS ? ", with values" : ""));
  const auto origins                  = merge_origins(a, b, compare);
  const std::vector<long long> splits = splits_of(origins);
  // Values: where the item came from (first input: its index, second: count1 + its index).
  std::vector<KeyT> expected_keys  = strata_test::poisoned<KeyT>(n + 16);
  std::vector<int> expected_values = strata_test::poisoned<int>(n + 16);
  for (std::size_t i = 0; i < n; ++i)
  {
    const auto& origin = origins[i];
    expected_keys[i]   = origin.first == 0 ? a[origin.second] : b[origin.second];
    expected_values[i] = static_cast<int>(origin.first == 0 ? origin.second : a.size() + origin.second);
  }
  std::vector<int> values1(a.size());
  std::vector<int> values2(b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
  {
    values1[i] = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < b.size(); ++i)
  {
    values2[i] = static_cast<int>(a.size() + i);
  }
  std::vector<OffsetT> tile_splits; // one per tile: the split where it starts
  std::vector<OffsetT> expected_found;
  for (int t = 0; t < tiles; ++t)
  {
    const std::size_t begin = static_cast<std::size_t>(t) * TILE;
    const std::size_t end   = std::min(begin + TILE, n);
    tile_splits.push_back(static_cast<OffsetT>(splits[begin]));
    for (int tid = 0; tid < BT; ++tid)
    {
      expected_found.push_back(static_cast<OffsetT>(splits[begin]));
      expected_found.push_back(static_cast<OffsetT>(splits[end]));
    }
  }
  strata_test::device_buffer<KeyT> d_a(a);
  strata_test::device_buffer<KeyT> d_b(b);
  strata_test::device_buffer<int> d_values1(values1);
  strata_test::device_buffer<int> d_values2(values2);
  strata_test::device_buffer<OffsetT> d_tile_splits(tile_splits); // no entry past the last tile
  strata_test::device_buffer<KeyT> d_keys_out(n + 16);
  strata_test::device_buffer<int> d_values_out(n + 16);
  strata_test::device_buffer<OffsetT> d_found(static_cast<std::size_t>(2 * tiles * BT));
  for (const bool given : {true, false})
  {
    INFO((given ? "splits given" : "splits searched"));
    d_keys_out.poison();
    d_values_out.poison();
    d_found.poison();
    const OffsetT* splits_in = given ? d_tile_splits.data() : nullptr;
    if constexpr (PAIRS)
    {
      tile_merge_kernel<BT, IPT><<<tiles, BT>>>(
          static_cast<const KeyT*>(d_a.data()), static_cast<const int*>(d_values1.data()), OffsetT(a.size()),
          static_cast<const KeyT*>(d_b.data()), static_cast<const int*>(d_values2.data()), OffsetT(b.size()), splits_in,
          d_keys_out.data(), d_values_out.data(), compare, d_found.data());
    }
    else
    {
      tile_merge_kernel<BT, IPT><<<tiles, BT>>>(
          static_cast<const KeyT*>(d_a.data()), static_cast<const strata::NullType*>(nullptr), OffsetT(a.size()),
          static_cast<const KeyT*>(d_b.data()), static_cast<const strata::NullType*>(nullptr), OffsetT(b.size()),
          splits_in, d_keys_out.data(), static_cast<strata::NullType*>(nullptr), compare, d_found.data());
    }
    strata_test::check_launch();
    strata_test::check_equal(expected_found, d_found.download());
    strata_test::check_equal(expected_keys, d_keys_out.download());
    if constexpr (PAIRS)
    {
      strata_test::check_equal(expected_values, d_values_out.download());
    }
  }
}

//! The (count1, count2) pairs and key shapes every TileMerge configuration runs.
template <int BT, int IPT, typename ValueT, typename KeyT, typename CompareOp>
void check_tile_merge_shapes(std::uint64_t salt, CompareOp compare)
{
  constexpr int TILE = BT * IPT;
  const auto seed    = strata_test::seed(salt);
  INFO("seed " << seed);
  std::uint64_t s = seed;
  // Keys from a small range: ties within and across both inputs and across tile edges.
  const auto few_keys = [&](std::size_t count)
  { return sorted(strata_test::random_vector<KeyT>(count, ++s, 0, 15), compare); };
  const std::size_t counts[][2] = {{0, 1},
                                   {1, 0},
                                   {0, TILE},
                                   {TILE, 0},
                                   {1, TILE - 1},
                                   {TILE - 1, 1},
                                   {TILE, TILE},
                                   {3 * TILE + 5, 2 * TILE - 7},
                                   {100, 5 * TILE + 3}};
  for (const auto& count : counts)
  {
    const std::vector<KeyT> a = few_keys(count[0]);
    const std::vector<KeyT> b = few_keys(count[1]);
    check_tile_merge<BT, IPT, ValueT>(a, b, compare);
  }
  // All keys equal: the whole first input, then the second.
  const std::vector<KeyT> same_a(2 * TILE + 1, KeyT(7));
  const std::vector<KeyT> same_b(TILE + 2, KeyT(7));
  check_tile_merge<BT, IPT, ValueT>(same_a, same_b, compare);
  // Disjoint: the second input's keys all go before the first's.
  const std::vector<KeyT> wide_a = sorted(strata_test::random_vector<KeyT>(TILE + 3, ++s, 100, 200), compare);
  const std::vector<KeyT> wide_b = sorted(strata_test::random_vector<KeyT>(2 * TILE, ++s, 300, 400), compare);
  if (compare(wide_a.front(), wide_b.front()))
  {
    check_tile_merge<BT, IPT, ValueT>(wide_b, wide_a, compare);
  }
  else
  {
    check_tile_merge<BT, IPT, ValueT>(wide_a, wide_b, compare);
  }
}
} // namespace

TEST_CASE("WarpMergePath: every split of two sorted ranges", "[tile][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(1);
  INFO("seed " << seed);
  std::uint64_t s     = seed;
  const auto few_keys = [&](std::size_t count)
  { return sorted(strata_test::random_vector<std::int32_t>(count, ++s, 0, 7), less_op{}); };
  const std::size_t counts[][2] = {{0, 0},      {0, 7},      {7, 0},       {1, 1},      {33, 31},
                                   {100, 1000}, {1000, 100}, {1024, 1024}, {5000, 3001}};
  for (const auto& count : counts)
  {
    const std::vector<std::int32_t> a = few_keys(count[0]);
    const std::vector<std::int32_t> b = few_keys(count[1]);
    check_merge_path_all<std::uint32_t>(a, b, less_op{});
  }
  // All keys equal; disjoint ranges either way round.
  check_merge_path_all<std::uint32_t>(std::vector<std::int32_t>(500, 5), std::vector<std::int32_t>(300, 5), less_op{});
  const std::vector<std::int32_t> low =
      sorted(strata_test::random_vector<std::int32_t>(700, ++s, -900, -100), less_op{});
  const std::vector<std::int32_t> high =
      sorted(strata_test::random_vector<std::int32_t>(900, ++s, 100, 900), less_op{});
  check_merge_path_all<std::uint32_t>(low, high, less_op{});
  check_merge_path_all<std::uint32_t>(high, low, less_op{});
  // Descending int64 keys with int64 offsets.
  const std::vector<std::int64_t> down_a =
      sorted(strata_test::random_vector<std::int64_t>(2000, ++s, -5, 5), greater_op{});
  const std::vector<std::int64_t> down_b =
      sorted(strata_test::random_vector<std::int64_t>(1500, ++s, -5, 5), greater_op{});
  check_merge_path_all<std::int64_t>(down_a, down_b, greater_op{});
}

TEST_CASE("WarpMergePath: counts past 2^31 and 2^32 through iterators", "[tile][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(2);
  INFO("seed " << seed);
  check_merge_path_counting<std::uint32_t>(3000000000u, 1200000000u, seed);
  check_merge_path_counting<std::int64_t>(5000000000ll, 3000000000ll, seed + 1);
}

TEST_CASE("LoadTwoRanges: both ranges in order in shared memory, nothing past them", "[tile][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed    = strata_test::seed(3);
  constexpr int BT   = 64;
  constexpr int IPT  = 5;
  constexpr int TILE = BT * IPT;
  std::vector<int> full1;
  std::vector<int> full2;
  for (int c1 = 0; c1 <= TILE; ++c1)
  {
    full1.push_back(c1);
    full2.push_back(TILE - c1);
  }
  check_two_ranges<BT, IPT, true>(full1, full2, seed);
  std::mt19937_64 engine(seed);
  std::vector<int> partial1{0, 0, 1, 0, TILE - 1, 0, 17, BT, BT - 1};
  std::vector<int> partial2{0, 1, 0, TILE - 1, 0, 1, 17, 1, BT};
  for (int i = 0; i < 16; ++i)
  {
    const int total = static_cast<int>(engine() % TILE);
    const int c1    = total == 0 ? 0 : static_cast<int>(engine() % static_cast<unsigned>(total + 1));
    partial1.push_back(c1);
    partial2.push_back(total - c1);
  }
  check_two_ranges<BT, IPT, false>(partial1, partial2, seed + 1);
}

TEST_CASE("TileMerge: keys and values, two warps search the splits", "[tile][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_merge_shapes<64, 7, int, std::int32_t>(4, less_op{});
}

TEST_CASE("TileMerge: keys alone in descending order, a block of one warp", "[tile][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_merge_shapes<32, 5, strata::NullType, std::uint16_t>(5, greater_op{});
}

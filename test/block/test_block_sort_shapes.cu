// Tests of strata/block/block_radix_sort.cuh and block_merge_sort.cuh at the shapes the block-sort
// benchmark times: 256 threads x 8 items and 128 x 16 (32-bit keys), 256 x 8 (64-bit keys, and
// 32-bit key-value pairs). BlockRadixSort with its default parameters, Sort (blocked result) and
// SortBlockedToStriped (striped result), is checked exactly against std::stable_sort; BlockMergeSort
// Sort (no stability promised) must give the sorted keys, and values that are a permutation
// carrying each key's input position. Keys cover the whole range and repeat a few values often.
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_radix_sort.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
constexpr int shape_blocks = 6;

using strata_test::less_op;

enum sort_kind : int
{
  radix_blocked,
  radix_striped,
  merge_blocked,
};

//! One tile per block: keys (and their input positions as values) loaded blocked, sorted, stored
//! blocked or (radix_striped) striped.
template <sort_kind KIND, typename KeyT, bool PAIRS, int THREADS, int IPT>
__global__ void __launch_bounds__(THREADS) shape_kernel(const KeyT* keys_in, KeyT* keys_out, int* values_out)
{
  using ValueT = std::conditional_t<PAIRS, int, strata::NullType>;
  using SortT  = std::conditional_t<KIND == merge_blocked, strata::BlockMergeSort<KeyT, THREADS, IPT, ValueT>,
                                   strata::BlockRadixSort<KeyT, THREADS, IPT, ValueT>>;
  __shared__ typename SortT::TempStorage storage;
  constexpr int TILE = THREADS * IPT;
  const int base     = static_cast<int>(blockIdx.x) * TILE;
  const int rank     = static_cast<int>(threadIdx.x);
  KeyT keys[IPT];
  int values[IPT];
  for (int i = 0; i < IPT; ++i)
  {
    keys[i]   = keys_in[base + rank * IPT + i];
    values[i] = rank * IPT + i;
  }
  if constexpr (KIND == merge_blocked)
  {
    if constexpr (PAIRS)
      SortT(storage).Sort(keys, values, less_op{});
    else
      SortT(storage).Sort(keys, less_op{});
  }
  else if constexpr (KIND == radix_striped)
  {
    if constexpr (PAIRS)
      SortT(storage).SortBlockedToStriped(keys, values);
    else
      SortT(storage).SortBlockedToStriped(keys);
  }
  else
  {
    if constexpr (PAIRS)
      SortT(storage).Sort(keys, values);
    else
      SortT(storage).Sort(keys);
  }
  for (int i = 0; i < IPT; ++i)
  {
    const int at        = KIND == radix_striped ? i * THREADS + rank : rank * IPT + i;
    keys_out[base + at] = keys[i];
    if constexpr (PAIRS)
    {
      values_out[base + at] = values[i];
    }
  }
}

template <sort_kind KIND, typename KeyT, bool PAIRS, int THREADS, int IPT>
void check_shape(std::uint64_t salt)
{
  constexpr int TILE       = THREADS * IPT;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO((KIND == merge_blocked   ? "BlockMergeSort"
        : KIND == radix_striped ? "BlockRadixSort to striped"
                                : "BlockRadixSort")
       << " " << THREADS << "x" << IPT << ", " << sizeof(KeyT) * 8 << "-bit keys" << (PAIRS ? " and values" : "")
       << ", seed " << seed);
  // A quarter of the keys from 16 values (repeats: stability shows), the rest over the whole range.
  std::vector<KeyT> keys      = strata_test::random_vector<KeyT>(std::size_t(shape_blocks) * TILE, seed);
  const std::vector<KeyT> few = strata_test::random_vector<KeyT>(16, seed + 1);
  strata_test::generator<int> pick(seed + 2);
  for (auto& key : keys)
  {
    key = pick(0, 3) == 0 ? few[std::size_t(pick(0, 15))] : key;
  }
  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<KeyT> d_keys_out(keys.size());
  strata_test::device_buffer<int> d_values_out(keys.size());
  d_keys_out.poison();
  d_values_out.poison();
  shape_kernel<KIND, KeyT, PAIRS, THREADS, IPT>
      <<<shape_blocks, THREADS>>>(d_keys.data(), d_keys_out.data(), d_values_out.data());
  strata_test::check_launch();
  const std::vector<KeyT> keys_out  = d_keys_out.download();
  const std::vector<int> values_out = d_values_out.download();
  for (int b = 0; b < shape_blocks; ++b)
  {
    INFO("block " << b);
    const auto tile_keys = keys.begin() + std::ptrdiff_t(b) * TILE;
    std::vector<int> order(TILE);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return tile_keys[x] < tile_keys[y]; });
    std::vector<KeyT> expected_keys(TILE);
    std::transform(order.begin(), order.end(), expected_keys.begin(), [&](int p) { return tile_keys[p]; });
    const std::vector<KeyT> actual_keys(keys_out.begin() + std::ptrdiff_t(b) * TILE,
                                        keys_out.begin() + std::ptrdiff_t(b + 1) * TILE);
    strata_test::check_equal(expected_keys, actual_keys);
    if constexpr (PAIRS)
    {
      const std::vector<int> actual_values(values_out.begin() + std::ptrdiff_t(b) * TILE,
                                           values_out.begin() + std::ptrdiff_t(b + 1) * TILE);
      if constexpr (KIND == merge_blocked)
      {
        // Each value names an input position holding its key, each position once.
        std::vector<int> seen(TILE, 0);
        std::size_t wrong = 0;
        for (int p = 0; p < TILE; ++p)
        {
          const int v      = actual_values[p];
          const bool valid = v >= 0 && v < TILE && seen[v]++ == 0 && tile_keys[v] == actual_keys[p];
          wrong += !valid;
        }
        CHECK(wrong == 0);
      }
      else
      {
        strata_test::check_equal(order, actual_values);
      }
    }
  }
}
} // namespace

TEST_CASE("BlockRadixSort at the benchmarked shapes", "[block][radix_sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_shape<radix_blocked, std::uint32_t, false, 256, 8>(801);
  check_shape<radix_blocked, std::uint32_t, false, 128, 16>(803);
  check_shape<radix_blocked, std::uint64_t, false, 256, 8>(805);
  check_shape<radix_blocked, std::uint32_t, true, 256, 8>(807);
  check_shape<radix_striped, std::uint32_t, false, 256, 8>(809);
  check_shape<radix_striped, std::uint32_t, false, 128, 16>(811);
  check_shape<radix_striped, std::uint64_t, false, 256, 8>(813);
  check_shape<radix_striped, std::uint32_t, true, 256, 8>(815);
}

TEST_CASE("BlockMergeSort at the benchmarked shapes", "[block][merge_sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_shape<merge_blocked, std::uint32_t, false, 256, 8>(821);
  check_shape<merge_blocked, std::uint32_t, false, 128, 16>(823);
  check_shape<merge_blocked, std::uint64_t, false, 256, 8>(825);
  check_shape<merge_blocked, std::uint32_t, true, 256, 8>(827);
}

// Tests of strata/warp/warp_store.cuh: every WarpStore algorithm, full and guarded, into poisoned
// memory that must keep its poison at and beyond valid_items (0, 1, tile - 1, tile and random
// counts over the logical warps of two blocks, each storing its own tile); the stored items must
// come back unchanged. Every algorithm runs with several logical warp sizes and types, every size
// in {1, 2, 4, 7, 8, 16, 19, 32} with several algorithms and every type at least once; each also
// to a misaligned pointer (WARP_STORE_VECTORIZE falls back to items). An output iterator other
// than a pointer, the default constructor and the documented example have cases of their own.
#include <strata/iterator/cache_modified_output_iterator.cuh>
#include <strata/warp/warp_store.cuh>

#include "warp_tile_checks.cuh"

#include <cstdint>
#include <tuple>
#include <vector>

namespace
{
//! Both Store overloads, into `out_full` and `out_guarded`, on one TempStorage per logical warp
//! (with the __syncwarp that reuse requires in between); lane l's item i is input l * N + i of
//! its tile. The items are written to `out_items` afterwards, to show that the stores left them.
template <typename T, int ITEMS_PER_THREAD, strata::WarpStoreAlgorithm ALGORITHM, int LOGICAL_WARP_THREADS>
__global__ void store_kernel(const T* in, const int* valid_items, T* out_full, T* out_guarded, T* out_items)
{
  using layout       = strata_test::tile_layout<LOGICAL_WARP_THREADS, ITEMS_PER_THREAD>;
  using WarpStoreT   = strata::WarpStore<T, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>;
  constexpr int TILE = layout::TILE;
  __shared__ typename WarpStoreT::TempStorage temp_storage[layout::WARPS_PER_BLOCK];

  int warp = 0;
  int lane = 0;
  if (!layout::locate(warp, lane))
  {
    return;
  }
  const int first = warp * TILE + lane * ITEMS_PER_THREAD;
  T items[ITEMS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = in[first + i];
  }

  WarpStoreT store(temp_storage[warp % layout::WARPS_PER_BLOCK]);
  store.Store(out_full + warp * TILE, items);
  __syncwarp(layout::member_mask());
  store.Store(out_guarded + warp * TILE, items, valid_items[warp]);

#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    out_items[first + i] = items[i];
  }
}

//! A full store of every logical warp's tile through `first` (tile g at first + g * TILE).
template <int ITEMS_PER_THREAD, strata::WarpStoreAlgorithm ALGORITHM, int LOGICAL_WARP_THREADS, typename IteratorT>
__global__ void store_iterator_kernel(const int* in, IteratorT first)
{
  using layout     = strata_test::tile_layout<LOGICAL_WARP_THREADS, ITEMS_PER_THREAD>;
  using WarpStoreT = strata::WarpStore<int, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>;
  __shared__ typename WarpStoreT::TempStorage temp_storage[layout::WARPS_PER_BLOCK];
  int warp = 0;
  int lane = 0;
  if (!layout::locate(warp, lane))
  {
    return;
  }
  int items[ITEMS_PER_THREAD];
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = in[warp * layout::TILE + lane * ITEMS_PER_THREAD + i];
  }
  WarpStoreT(temp_storage[warp % layout::WARPS_PER_BLOCK]).Store(first + warp * layout::TILE, items);
}

//! Where lane l's item i goes in its tile.
int tile_position(strata::WarpStoreAlgorithm algorithm, int lanes, int items_per_lane, int l, int i)
{
  return algorithm == strata::WARP_STORE_STRIPED ? i * lanes + l : l * items_per_lane + i;
}

template <typename T, int LOGICAL_WARP_THREADS, int ITEMS_PER_THREAD, strata::WarpStoreAlgorithm ALGORITHM>
struct store_case
{
  using type                                            = T;
  static constexpr int logical_warp_threads             = LOGICAL_WARP_THREADS;
  static constexpr int items_per_thread                 = ITEMS_PER_THREAD;
  static constexpr strata::WarpStoreAlgorithm algorithm = ALGORITHM;
};

//! Runs the store kernel to an aligned and to a misaligned pointer and checks every element of
//! the outputs, the poison around the tiles included.
template <typename Case>
void check_store(std::uint64_t salt)
{
  using T                  = typename Case::type;
  constexpr int L          = Case::logical_warp_threads;
  constexpr int N          = Case::items_per_thread;
  constexpr auto ALGORITHM = Case::algorithm;
  using layout             = strata_test::tile_layout<L, N>;
  constexpr auto ITEMS     = static_cast<std::size_t>(layout::ITEMS);

  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed << ", algorithm " << ALGORITHM << ", logical warp " << L << ", items per lane " << N);
  const std::vector<T> in      = strata_test::random_vector<T>(ITEMS, seed);
  const std::vector<int> valid = strata_test::valid_items_per_tile(layout::WARPS, layout::TILE, seed + 1);

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<T> d_full(ITEMS + 1);
  strata_test::device_buffer<T> d_guarded(ITEMS + 1);
  strata_test::device_buffer<T> d_items(ITEMS);
  for (const int offset : {0, 1})
  {
    INFO("output offset " << offset);
    d_full.poison();
    d_guarded.poison();
    d_items.poison();
    store_kernel<T, N, ALGORITHM, L><<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(
        d_in.data(), d_valid.data(), d_full.data() + offset, d_guarded.data() + offset, d_items.data());
    strata_test::check_launch();

    const T poison = strata_test::poison_value<T>();
    std::vector<T> full(ITEMS + 1, poison);
    std::vector<T> guarded(ITEMS + 1, poison);
    for (int g = 0; g < layout::WARPS; ++g)
    {
      for (int l = 0; l < L; ++l)
      {
        for (int i = 0; i < N; ++i)
        {
          const int pos     = tile_position(ALGORITHM, L, N, l, i);
          const auto target = static_cast<std::size_t>(offset + g * layout::TILE + pos);
          const T item      = in[static_cast<std::size_t>(g * layout::TILE + l * N + i)];
          full[target]      = item;
          if (pos < valid[static_cast<std::size_t>(g)])
          {
            guarded[target] = item;
          }
        }
      }
    }
    {
      INFO("full store");
      strata_test::check_equal(full, d_full.download());
    }
    {
      INFO("guarded store");
      strata_test::check_equal(guarded, d_guarded.download());
    }
    {
      INFO("the items after the stores");
      strata_test::check_equal(in, d_items.download());
    }
  }
}

// Each algorithm with four to seven (type, logical warp size, items per lane) triples, paired
// differently from the WarpLoad tests.
using store_cases = std::tuple<
    store_case<std::int16_t, 32, 4, strata::WARP_STORE_DIRECT>, store_case<double, 8, 3, strata::WARP_STORE_DIRECT>,
    store_case<strata_test::custom_t, 1, 7, strata::WARP_STORE_DIRECT>,
    store_case<std::uint8_t, 19, 1, strata::WARP_STORE_DIRECT>,
    store_case<std::int8_t, 16, 7, strata::WARP_STORE_STRIPED>,
    store_case<std::uint64_t, 7, 4, strata::WARP_STORE_STRIPED>,
    store_case<__nv_bfloat16, 4, 3, strata::WARP_STORE_STRIPED>, store_case<float, 2, 1, strata::WARP_STORE_STRIPED>,
    // Vector words of 16 bytes (ints, doubles, halves, custom_t), 2 bytes (int8), none (3 uint16).
    store_case<std::int32_t, 32, 4, strata::WARP_STORE_VECTORIZE>,
    store_case<double, 16, 4, strata::WARP_STORE_VECTORIZE>, store_case<__half, 8, 8, strata::WARP_STORE_VECTORIZE>,
    store_case<strata_test::custom_t, 19, 4, strata::WARP_STORE_VECTORIZE>,
    store_case<std::int8_t, 2, 2, strata::WARP_STORE_VECTORIZE>,
    store_case<std::uint16_t, 7, 3, strata::WARP_STORE_VECTORIZE>,
    store_case<std::uint32_t, 32, 7, strata::WARP_STORE_TRANSPOSE>,
    store_case<__half, 1, 4, strata::WARP_STORE_TRANSPOSE>,
    store_case<std::int64_t, 19, 3, strata::WARP_STORE_TRANSPOSE>,
    store_case<strata_test::custom_t, 4, 4, strata::WARP_STORE_TRANSPOSE>,
    store_case<__nv_bfloat16, 8, 1, strata::WARP_STORE_TRANSPOSE>,
    store_case<float, 16, 8, strata::WARP_STORE_TRANSPOSE>,
    store_case<std::int32_t, 7, 1, strata::WARP_STORE_TRANSPOSE>,
    // Several logical warps of a size that does not divide 32 in each hardware warp.
    store_case<std::int32_t, 5, 3, strata::WARP_STORE_TRANSPOSE>,
    store_case<std::int16_t, 3, 4, strata::WARP_STORE_STRIPED>, store_case<float, 12, 2, strata::WARP_STORE_TRANSPOSE>,
    store_case<std::uint64_t, 31, 2, strata::WARP_STORE_DIRECT>>;

//! The class documentation's example: four 32-lane warps, each storing 4 blocked ints per lane
//! with WARP_STORE_TRANSPOSE.
__global__ void documented_example_kernel(const int* d_in, int* d_out)
{
  using WarpStoreT = strata::WarpStore<int, 4, strata::WARP_STORE_TRANSPOSE>;
  __shared__ WarpStoreT::TempStorage temp_storage[4];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  int items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = d_in[threadIdx.x * 4 + i];
  }
  WarpStoreT(temp_storage[warp]).Store(d_out + warp * 128, items);
}

//! The default constructor: private shared storage, one per block, so one logical warp per block
//! for WARP_STORE_TRANSPOSE; the other algorithms need none and take any number.
template <strata::WarpStoreAlgorithm ALGORITHM, int LOGICAL_WARP_THREADS>
__global__ void default_constructor_kernel(const int* d_in, int* d_out)
{
  const int warp = static_cast<int>(threadIdx.x) / LOGICAL_WARP_THREADS;
  int items[3];
  for (int i = 0; i < 3; ++i)
  {
    items[i] = d_in[threadIdx.x * 3 + i];
  }
  strata::WarpStore<int, 3, ALGORITHM, LOGICAL_WARP_THREADS>().Store(d_out + warp * 3 * LOGICAL_WARP_THREADS, items);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("WarpStore: every algorithm, full and guarded", "[warp][store]", store_cases)
{
  STRATA_TEST_REQUIRE_GPU();
  check_store<TestType>(static_cast<std::uint64_t>(TestType::algorithm * 10000 + TestType::logical_warp_threads * 100
                                                   + TestType::items_per_thread));
}

TEST_CASE("WarpStore: an output iterator other than a pointer", "[warp][store]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int L = 8;
  constexpr int N = 4;
  using layout    = strata_test::tile_layout<L, N>;
  const auto seed = strata_test::seed(50);
  INFO("seed " << seed);
  const std::vector<int> in = strata_test::random_vector<int>(layout::ITEMS, seed);
  strata_test::device_buffer<int> d_in(in);
  strata_test::device_buffer<int> d_out(layout::ITEMS);
  const strata::CacheModifiedOutputIterator<strata::STORE_CG, int> out(d_out.data());

  d_out.poison();
  store_iterator_kernel<N, strata::WARP_STORE_VECTORIZE, L>
      <<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(d_in.data(), out);
  strata_test::check_launch();
  strata_test::check_equal(in, d_out.download());

  d_out.poison();
  store_iterator_kernel<N, strata::WARP_STORE_TRANSPOSE, L>
      <<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(d_in.data(), out);
  strata_test::check_launch();
  strata_test::check_equal(in, d_out.download());
}

TEST_CASE("WarpStore: the default constructor", "[warp][store]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(51);
  INFO("seed " << seed);
  const std::vector<int> in = strata_test::random_vector<int>(64 * 3, seed);
  strata_test::device_buffer<int> d_in(in);
  strata_test::device_buffer<int> d_out(64 * 3);

  d_out.poison();
  default_constructor_kernel<strata::WARP_STORE_TRANSPOSE, 32><<<1, 32>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  std::vector<int> expected(in.begin(), in.begin() + 32 * 3);
  expected.resize(64 * 3, strata_test::poison_value<int>());
  strata_test::check_equal(expected, d_out.download());

  d_out.poison();
  default_constructor_kernel<strata::WARP_STORE_DIRECT, 8><<<1, 64>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  strata_test::check_equal(in, d_out.download());
}

TEST_CASE("WarpStore: the documented example", "[warp][store]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(52);
  INFO("seed " << seed);
  const std::vector<int> in = strata_test::random_vector<int>(4 * 128, seed);
  strata_test::device_buffer<int> d_in(in);
  strata_test::device_buffer<int> d_out(4 * 128);
  d_out.poison();
  documented_example_kernel<<<1, 128>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  // Blocked items in thread-major order are the tile in order.
  strata_test::check_equal(in, d_out.download());
}

TEST_CASE("WarpStore tests: tile positions and the poison value", "[warp][store]")
{
  CHECK(tile_position(strata::WARP_STORE_STRIPED, 8, 3, 5, 2) == 21);
  CHECK(tile_position(strata::WARP_STORE_VECTORIZE, 8, 3, 5, 2) == 17);
  CHECK(strata_test::poison_value<std::uint32_t>() == 0xCDCDCDCDu);
  CHECK(strata_test::poison_value<std::uint16_t>() == 0xCDCDu);
}

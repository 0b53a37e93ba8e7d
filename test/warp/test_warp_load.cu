// Tests of strata/warp/warp_load.cuh: every WarpLoad algorithm, full and guarded (items past
// valid_items kept or set to oob_default), with valid_items 0, 1, tile - 1, tile and random counts
// over the logical warps of two blocks, each loading its own tile. Every algorithm runs with
// several logical warp sizes and types, every size in {1, 2, 4, 7, 8, 16, 19, 32} with several
// algorithms and every type at least once; each also from a misaligned pointer (WARP_LOAD_VECTORIZE
// falls back to items). Iterators other than pointers, the default constructor and the documented
// example have cases of their own.
#include <strata/iterator/cache_modified_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/warp/warp_load.cuh>

#include "warp_tile_checks.cuh"

#include <cstdint>
#include <tuple>
#include <vector>

namespace
{
//! Output regions of the load kernel, one per Load overload.
enum load_slot : int
{
  load_full,
  load_guarded,
  load_guarded_default,
  load_slot_count
};

//! Writes lane `lane`'s items into region `slot` of `out`, in lane-major order.
template <int WARPS, int TILE, typename T, int ITEMS_PER_THREAD>
__device__ void write_items(T* out, int slot, int warp, int lane, const T (&items)[ITEMS_PER_THREAD])
{
  T* region = out + (slot * WARPS + warp) * TILE + lane * ITEMS_PER_THREAD;
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    region[i] = items[i];
  }
}

//! Every Load overload in turn, on one TempStorage per logical warp (with the __syncwarp that
//! reuse requires in between). Guarded loads start from items that all hold `sentinel`.
template <typename T, int ITEMS_PER_THREAD, strata::WarpLoadAlgorithm ALGORITHM, int LOGICAL_WARP_THREADS>
__global__ void load_kernel(const T* in, const int* valid_items, T sentinel, T oob_default, T* out)
{
  using layout        = strata_test::tile_layout<LOGICAL_WARP_THREADS, ITEMS_PER_THREAD>;
  using WarpLoadT     = strata::WarpLoad<T, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>;
  constexpr int WARPS = layout::WARPS;
  constexpr int TILE  = layout::TILE;
  __shared__ typename WarpLoadT::TempStorage temp_storage[layout::WARPS_PER_BLOCK];

  int warp = 0;
  int lane = 0;
  if (!layout::locate(warp, lane))
  {
    return;
  }
  const unsigned int member_mask = layout::member_mask();
  WarpLoadT load(temp_storage[warp % layout::WARPS_PER_BLOCK]);
  const T* tile   = in + warp * TILE;
  const int valid = valid_items[warp];

  T items[ITEMS_PER_THREAD];
  load.Load(tile, items);
  write_items<WARPS, TILE>(out, load_full, warp, lane, items);
  __syncwarp(member_mask);

#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = sentinel;
  }
  load.Load(tile, items, valid);
  write_items<WARPS, TILE>(out, load_guarded, warp, lane, items);
  __syncwarp(member_mask);

#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = sentinel;
  }
  load.Load(tile, items, valid, oob_default);
  write_items<WARPS, TILE>(out, load_guarded_default, warp, lane, items);
}

//! A full load of every logical warp's tile through `first` (tile g at first + g * TILE).
template <int ITEMS_PER_THREAD, strata::WarpLoadAlgorithm ALGORITHM, int LOGICAL_WARP_THREADS, typename IteratorT>
__global__ void load_iterator_kernel(IteratorT first, int* out)
{
  using layout    = strata_test::tile_layout<LOGICAL_WARP_THREADS, ITEMS_PER_THREAD>;
  using WarpLoadT = strata::WarpLoad<int, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>;
  __shared__ typename WarpLoadT::TempStorage temp_storage[layout::WARPS_PER_BLOCK];
  int warp = 0;
  int lane = 0;
  if (!layout::locate(warp, lane))
  {
    return;
  }
  int items[ITEMS_PER_THREAD];
  WarpLoadT(temp_storage[warp % layout::WARPS_PER_BLOCK]).Load(first + warp * layout::TILE, items);
  write_items<layout::WARPS, layout::TILE>(out, 0, warp, lane, items);
}

//! Where lane l's item i comes from in its tile.
int tile_position(strata::WarpLoadAlgorithm algorithm, int lanes, int items_per_lane, int l, int i)
{
  return algorithm == strata::WARP_LOAD_STRIPED ? i * lanes + l : l * items_per_lane + i;
}

template <typename T, int LOGICAL_WARP_THREADS, int ITEMS_PER_THREAD, strata::WarpLoadAlgorithm ALGORITHM>
struct load_case
{
  using type                                           = T;
  static constexpr int logical_warp_threads            = LOGICAL_WARP_THREADS;
  static constexpr int items_per_thread                = ITEMS_PER_THREAD;
  static constexpr strata::WarpLoadAlgorithm algorithm = ALGORITHM;
};

//! Runs the load kernel from an aligned and from a misaligned pointer and checks every region.
template <typename Case>
void check_load(std::uint64_t salt)
{
  using T                  = typename Case::type;
  constexpr int L          = Case::logical_warp_threads;
  constexpr int N          = Case::items_per_thread;
  constexpr auto ALGORITHM = Case::algorithm;
  using layout             = strata_test::tile_layout<L, N>;

  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed << ", algorithm " << ALGORITHM << ", logical warp " << L << ", items per lane " << N);
  const std::vector<T> data    = strata_test::random_vector<T>(layout::ITEMS + 1, seed);
  const std::vector<int> valid = strata_test::valid_items_per_tile(layout::WARPS, layout::TILE, seed + 1);
  const std::vector<T> fills   = strata_test::random_vector<T>(2, seed + 2);
  const T sentinel             = fills[0];
  const T oob_default          = fills[1];

  strata_test::device_buffer<T> d_data(data);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(load_slot_count * layout::ITEMS));
  for (const int offset : {0, 1})
  {
    INFO("input offset " << offset);
    d_out.poison();
    load_kernel<T, N, ALGORITHM, L><<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(
        d_data.data() + offset, d_valid.data(), sentinel, oob_default, d_out.data());
    strata_test::check_launch();

    std::vector<T> expected(static_cast<std::size_t>(load_slot_count * layout::ITEMS));
    for (int g = 0; g < layout::WARPS; ++g)
    {
      const T* tile = data.data() + offset + g * layout::TILE;
      for (int l = 0; l < L; ++l)
      {
        for (int i = 0; i < N; ++i)
        {
          const int pos        = tile_position(ALGORITHM, L, N, l, i);
          const bool valid_pos = pos < valid[static_cast<std::size_t>(g)];
          const auto at        = [&](int slot)
          { return static_cast<std::size_t>((slot * layout::WARPS + g) * layout::TILE + l * N + i); };
          expected[at(load_full)]            = tile[pos];
          expected[at(load_guarded)]         = valid_pos ? tile[pos] : sentinel;
          expected[at(load_guarded_default)] = valid_pos ? tile[pos] : oob_default;
        }
      }
    }
    strata_test::check_equal(expected, d_out.download());
  }
}

// Each algorithm with four to seven (type, logical warp size, items per lane) triples.
using load_cases = std::tuple<
    load_case<std::int8_t, 32, 7, strata::WARP_LOAD_DIRECT>, load_case<float, 7, 4, strata::WARP_LOAD_DIRECT>,
    load_case<strata_test::custom_t, 2, 3, strata::WARP_LOAD_DIRECT>,
    load_case<std::uint64_t, 16, 1, strata::WARP_LOAD_DIRECT>,
    load_case<std::int16_t, 19, 3, strata::WARP_LOAD_STRIPED>, load_case<__half, 32, 4, strata::WARP_LOAD_STRIPED>,
    load_case<double, 1, 7, strata::WARP_LOAD_STRIPED>, load_case<std::uint32_t, 8, 4, strata::WARP_LOAD_STRIPED>,
    // Vector words of 16 bytes (ints, custom_t, halves), 4 bytes (uint8), none (3 doubles, 7 bfloat16).
    load_case<std::int32_t, 16, 4, strata::WARP_LOAD_VECTORIZE>,
    load_case<strata_test::custom_t, 32, 4, strata::WARP_LOAD_VECTORIZE>,
    load_case<__half, 4, 8, strata::WARP_LOAD_VECTORIZE>, load_case<std::uint8_t, 7, 4, strata::WARP_LOAD_VECTORIZE>,
    load_case<double, 19, 3, strata::WARP_LOAD_VECTORIZE>, load_case<__nv_bfloat16, 2, 7, strata::WARP_LOAD_VECTORIZE>,
    load_case<std::int64_t, 32, 3, strata::WARP_LOAD_TRANSPOSE>,
    load_case<__nv_bfloat16, 16, 7, strata::WARP_LOAD_TRANSPOSE>,
    load_case<std::uint16_t, 4, 1, strata::WARP_LOAD_TRANSPOSE>,
    load_case<std::int32_t, 7, 4, strata::WARP_LOAD_TRANSPOSE>, load_case<float, 8, 8, strata::WARP_LOAD_TRANSPOSE>,
    load_case<strata_test::custom_t, 19, 1, strata::WARP_LOAD_TRANSPOSE>,
    load_case<std::int8_t, 1, 4, strata::WARP_LOAD_TRANSPOSE>,
    // Several logical warps of a size that does not divide 32 in each hardware warp.
    load_case<std::int32_t, 3, 4, strata::WARP_LOAD_TRANSPOSE>, load_case<float, 5, 2, strata::WARP_LOAD_STRIPED>,
    load_case<std::uint8_t, 12, 3, strata::WARP_LOAD_TRANSPOSE>, load_case<double, 31, 2, strata::WARP_LOAD_DIRECT>>;

//! The class documentation's example: four 32-lane warps, each loading 128 ints with
//! WARP_LOAD_TRANSPOSE.
__global__ void documented_example_kernel(const int* d_in, int* d_out)
{
  using WarpLoadT = strata::WarpLoad<int, 4, strata::WARP_LOAD_TRANSPOSE>;
  __shared__ WarpLoadT::TempStorage temp_storage[4];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  int items[4];
  WarpLoadT(temp_storage[warp]).Load(d_in + warp * 128, items);
  for (int i = 0; i < 4; ++i)
  {
    d_out[threadIdx.x * 4 + i] = items[i];
  }
}

//! The default constructor: private shared storage, one per block, so one logical warp per block
//! for WARP_LOAD_TRANSPOSE; the other algorithms need none and take any number.
template <strata::WarpLoadAlgorithm ALGORITHM, int LOGICAL_WARP_THREADS>
__global__ void default_constructor_kernel(const int* d_in, int* d_out)
{
  const int warp = static_cast<int>(threadIdx.x) / LOGICAL_WARP_THREADS;
  int items[3];
  strata::WarpLoad<int, 3, ALGORITHM, LOGICAL_WARP_THREADS>().Load(d_in + warp * 3 * LOGICAL_WARP_THREADS, items);
  for (int i = 0; i < 3; ++i)
  {
    d_out[threadIdx.x * 3 + i] = items[i];
  }
}

//! 0, 1, 2, ... for `threads` threads of `items_per_thread` items: the thread-major output of a
//! blocked load of the identity.
std::vector<int> blocked_identity(int threads, int items_per_thread)
{
  std::vector<int> v(static_cast<std::size_t>(threads * items_per_thread));
  for (std::size_t k = 0; k < v.size(); ++k)
  {
    v[k] = static_cast<int>(k);
  }
  return v;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("WarpLoad: every algorithm, full and guarded", "[warp][load]", load_cases)
{
  STRATA_TEST_REQUIRE_GPU();
  check_load<TestType>(static_cast<std::uint64_t>(TestType::algorithm * 10000 + TestType::logical_warp_threads * 100
                                                  + TestType::items_per_thread));
}

TEST_CASE("WarpLoad: iterators other than pointers", "[warp][load]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int L = 16;
  constexpr int N = 4;
  using layout    = strata_test::tile_layout<L, N>;
  const auto seed = strata_test::seed(40);
  INFO("seed " << seed);
  const std::vector<int> data = strata_test::random_vector<int>(layout::ITEMS, seed);
  strata_test::device_buffer<int> d_data(data);
  strata_test::device_buffer<int> d_out(layout::ITEMS);

  SECTION("a cache-modified iterator, vectorized with its cache operator")
  {
    d_out.poison();
    load_iterator_kernel<N, strata::WARP_LOAD_VECTORIZE, L>
        <<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(
            strata::CacheModifiedInputIterator<strata::LOAD_CG, int>(d_data.data()), d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(data, d_out.download());
  }
  SECTION("a counting iterator, item by item (vectorize) and transposed")
  {
    d_out.poison();
    load_iterator_kernel<N, strata::WARP_LOAD_VECTORIZE, L>
        <<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(strata::CountingInputIterator<int>(1000),
                                                                        d_out.data());
    strata_test::check_launch();
    std::vector<int> expected = blocked_identity(layout::ITEMS, 1);
    for (int& x : expected)
    {
      x += 1000;
    }
    strata_test::check_equal(expected, d_out.download());

    d_out.poison();
    load_iterator_kernel<N, strata::WARP_LOAD_TRANSPOSE, L>
        <<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(strata::CountingInputIterator<int>(1000),
                                                                        d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());
  }
}

TEST_CASE("WarpLoad: the default constructor", "[warp][load]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_in(blocked_identity(64, 3));
  strata_test::device_buffer<int> d_out(64 * 3);

  d_out.poison();
  default_constructor_kernel<strata::WARP_LOAD_TRANSPOSE, 32><<<1, 32>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  const std::vector<int> out = d_out.download();
  strata_test::check_equal(blocked_identity(32, 3), std::vector<int>(out.begin(), out.begin() + 32 * 3));

  d_out.poison();
  default_constructor_kernel<strata::WARP_LOAD_DIRECT, 8><<<1, 64>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  strata_test::check_equal(blocked_identity(64, 3), d_out.download());
}

TEST_CASE("WarpLoad: the documented example", "[warp][load]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(41);
  INFO("seed " << seed);
  const std::vector<int> data = strata_test::random_vector<int>(4 * 128, seed);
  strata_test::device_buffer<int> d_in(data);
  strata_test::device_buffer<int> d_out(4 * 128);
  d_out.poison();
  documented_example_kernel<<<1, 128>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  // Lane l of warp w holds d_in[128w + 4l .. 128w + 4l + 3]: thread-major order is the input's.
  strata_test::check_equal(data, d_out.download());
}

TEST_CASE("WarpLoad tests: valid_items per logical warp", "[warp][load]")
{
  const std::vector<int> valid = strata_test::valid_items_per_tile(12, 28, strata_test::seed(42));
  REQUIRE(valid.size() == 12);
  CHECK(valid[0] == 0);
  CHECK(valid[1] == 1);
  CHECK(valid[2] == 27);
  CHECK(valid[3] == 28);
  CHECK(valid[5] == 0);
  for (const int v : valid)
  {
    CHECK((v >= 0 && v <= 28));
  }
  CHECK(tile_position(strata::WARP_LOAD_STRIPED, 8, 3, 5, 2) == 21);
  CHECK(tile_position(strata::WARP_LOAD_TRANSPOSE, 8, 3, 5, 2) == 17);
}

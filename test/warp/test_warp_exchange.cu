// Tests of strata/warp/warp_exchange.cuh: BlockedToStriped, StripedToBlocked and both forms of
// ScatterToStriped (separate output and in place), for WARP_EXCHANGE_SMEM over every type, each
// with one or two logical warp sizes and items per lane (every size in {1, 2, 4, 7, 8, 16, 19, 32}
// with at least two types), and for WARP_EXCHANGE_SHUFFLE over every square tile; the tiles of all
// logical warps of two blocks differ, and every output is checked against a host reference.
#include <strata/warp/warp_exchange.cuh>

#include "warp_tile_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
//! Output regions of the exchange kernel, one per member call.
enum exchange_slot : int
{
  blocked_to_striped,
  blocked_to_striped_in_place,
  striped_to_blocked,
  striped_to_blocked_in_place,
  scatter_to_striped,
  scatter_to_striped_in_place,
  exchange_slot_count
};

//! Writes lane `lane`'s items into region `slot` of `out`, in lane-major order.
template <int WARPS, int TILE, typename OutputT, typename T, int ITEMS_PER_THREAD>
__device__ void write_items(OutputT* out, int slot, int warp, int lane, const T (&items)[ITEMS_PER_THREAD])
{
  OutputT* region = out + (slot * WARPS + warp) * TILE + lane * ITEMS_PER_THREAD;
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    region[i] = static_cast<OutputT>(items[i]);
  }
}

//! Every member of WarpExchange in turn on one TempStorage per logical warp (with the __syncwarp
//! that reuse requires in between). Blocked inputs are lane l's tile items l * N + i; striped
//! ones are items i * L + l; ranks are read in blocked order.
template <typename T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS, strata::WarpExchangeAlgorithm ALGORITHM,
          typename OutputT, typename OffsetT>
__global__ void exchange_kernel(const T* in, const OffsetT* ranks, OutputT* out)
{
  using layout        = strata_test::tile_layout<LOGICAL_WARP_THREADS, ITEMS_PER_THREAD>;
  using WarpExchangeT = strata::WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS, ALGORITHM>;
  constexpr int WARPS = layout::WARPS;
  constexpr int TILE  = layout::TILE;
  __shared__ typename WarpExchangeT::TempStorage temp_storage[layout::WARPS_PER_BLOCK];

  int warp = 0;
  int lane = 0;
  if (!layout::locate(warp, lane))
  {
    return;
  }
  const unsigned int member_mask = layout::member_mask();
  WarpExchangeT exchange(temp_storage[warp % layout::WARPS_PER_BLOCK]);

  const T* tile = in + warp * TILE;
  T blocked[ITEMS_PER_THREAD];
  T striped[ITEMS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    blocked[i] = tile[lane * ITEMS_PER_THREAD + i];
    striped[i] = tile[i * LOGICAL_WARP_THREADS + lane];
  }

  OutputT result[ITEMS_PER_THREAD];
  T in_place[ITEMS_PER_THREAD];

  exchange.BlockedToStriped(blocked, result);
  write_items<WARPS, TILE>(out, blocked_to_striped, warp, lane, result);
  __syncwarp(member_mask);

#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    in_place[i] = blocked[i];
  }
  exchange.BlockedToStriped(in_place, in_place);
  write_items<WARPS, TILE>(out, blocked_to_striped_in_place, warp, lane, in_place);
  __syncwarp(member_mask);

  exchange.StripedToBlocked(striped, result);
  write_items<WARPS, TILE>(out, striped_to_blocked, warp, lane, result);
  __syncwarp(member_mask);

#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    in_place[i] = striped[i];
  }
  exchange.StripedToBlocked(in_place, in_place);
  write_items<WARPS, TILE>(out, striped_to_blocked_in_place, warp, lane, in_place);

  if constexpr (ALGORITHM == strata::WARP_EXCHANGE_SMEM)
  {
    OffsetT item_ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      item_ranks[i] = ranks[warp * TILE + lane * ITEMS_PER_THREAD + i];
    }
    __syncwarp(member_mask);
    exchange.ScatterToStriped(blocked, result, item_ranks);
    write_items<WARPS, TILE>(out, scatter_to_striped, warp, lane, result);
    __syncwarp(member_mask);

#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      in_place[i] = blocked[i];
    }
    exchange.ScatterToStriped(in_place, item_ranks);
    write_items<WARPS, TILE>(out, scatter_to_striped_in_place, warp, lane, in_place);
  }
}

//! One tile's expected outputs in lane-major order (lane l's item i at l * N + i), built from the
//! definitions of the arrangements.
template <typename T>
struct exchange_reference
{
  std::vector<T> blocked_to_striped; // lane l's item i is tile item i * L + l
  std::vector<T> striped_to_blocked; // lane l's item i is tile item l * N + i
  std::vector<T> scatter_to_striped; // lane l's item i is the item ranked i * L + l

  exchange_reference(const T* tile, const std::int64_t* ranks, int lanes, int items_per_lane)
  {
    const int n = lanes * items_per_lane;
    std::vector<T> by_rank(static_cast<std::size_t>(n));
    for (int p = 0; p < n; ++p)
    {
      by_rank[static_cast<std::size_t>(ranks[p])] = tile[p]; // the item at blocked position p
    }
    for (int l = 0; l < lanes; ++l)
    {
      for (int i = 0; i < items_per_lane; ++i)
      {
        const int striped_pos = i * lanes + l;
        blocked_to_striped.push_back(tile[striped_pos]);
        striped_to_blocked.push_back(tile[l * items_per_lane + i]);
        scatter_to_striped.push_back(by_rank[static_cast<std::size_t>(striped_pos)]);
      }
    }
  }
};

//! A random permutation of 0 .. n - 1 for each of `tiles` tiles, concatenated.
inline std::vector<std::int64_t> random_ranks(int tiles, int n, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::vector<std::int64_t> ranks;
  for (int t = 0; t < tiles; ++t)
  {
    std::vector<std::int64_t> tile(static_cast<std::size_t>(n));
    std::iota(tile.begin(), tile.end(), std::int64_t{0});
    std::shuffle(tile.begin(), tile.end(), engine);
    ranks.insert(ranks.end(), tile.begin(), tile.end());
  }
  return ranks;
}

//! A test configuration: item type, logical warp size, items per lane, and the output and rank types.
template <typename T, int LOGICAL_WARP_THREADS, int ITEMS_PER_THREAD, typename OutputT = T, typename OffsetT = int>
struct exchange_case
{
  using type                                = T;
  using output_type                         = OutputT;
  using offset_type                         = OffsetT;
  static constexpr int logical_warp_threads = LOGICAL_WARP_THREADS;
  static constexpr int items_per_thread     = ITEMS_PER_THREAD;
};

template <typename Case, strata::WarpExchangeAlgorithm ALGORITHM>
void check_exchange(std::uint64_t salt)
{
  using T                 = typename Case::type;
  using OutputT           = typename Case::output_type;
  using OffsetT           = typename Case::offset_type;
  constexpr int L         = Case::logical_warp_threads;
  constexpr int N         = Case::items_per_thread;
  using layout            = strata_test::tile_layout<L, N>;
  constexpr bool SCATTERS = ALGORITHM == strata::WARP_EXCHANGE_SMEM;
  constexpr int SLOTS     = SCATTERS ? exchange_slot_count : scatter_to_striped;

  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed << ", logical warp " << L << ", items per lane " << N);
  const std::vector<T> in                 = strata_test::random_vector<T>(layout::ITEMS, seed);
  const std::vector<std::int64_t> ranks64 = random_ranks(layout::WARPS, layout::TILE, seed + 1);
  const std::vector<OffsetT> ranks(ranks64.begin(), ranks64.end());

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<OffsetT> d_ranks(ranks);
  strata_test::device_buffer<OutputT> d_out(static_cast<std::size_t>(SLOTS * layout::ITEMS));
  d_out.poison();
  exchange_kernel<T, N, L, ALGORITHM, OutputT, OffsetT>
      <<<strata_test::tile_blocks, strata_test::tile_block_threads>>>(d_in.data(), d_ranks.data(), d_out.data());
  strata_test::check_launch();

  std::vector<OutputT> expected(static_cast<std::size_t>(SLOTS * layout::ITEMS));
  const auto put = [&](int slot, int warp, const std::vector<T>& values)
  {
    for (int k = 0; k < layout::TILE; ++k)
    {
      expected[static_cast<std::size_t>((slot * layout::WARPS + warp) * layout::TILE + k)] =
          static_cast<OutputT>(values[static_cast<std::size_t>(k)]);
    }
  };
  for (int g = 0; g < layout::WARPS; ++g)
  {
    const exchange_reference<T> ref(in.data() + g * layout::TILE, ranks64.data() + g * layout::TILE, L, N);
    put(blocked_to_striped, g, ref.blocked_to_striped);
    put(blocked_to_striped_in_place, g, ref.blocked_to_striped);
    put(striped_to_blocked, g, ref.striped_to_blocked);
    put(striped_to_blocked_in_place, g, ref.striped_to_blocked);
    if constexpr (SCATTERS)
    {
      put(scatter_to_striped, g, ref.scatter_to_striped);
      put(scatter_to_striped_in_place, g, ref.scatter_to_striped);
    }
  }
  strata_test::check_equal(expected, d_out.download());
}

// Every type with one or two (logical warp size, items per lane) pairs; every size with at least
// two types. Power-of-two items per lane of 4- and 8-byte types take the padded shared-memory
// layout.
using smem_cases =
    std::tuple<exchange_case<std::int8_t, 32, 7>, exchange_case<std::int8_t, 7, 4>, exchange_case<std::uint8_t, 16, 3>,
               exchange_case<std::int16_t, 19, 4>, exchange_case<std::uint16_t, 2, 7>,
               exchange_case<std::int32_t, 32, 4>, exchange_case<std::int32_t, 1, 3>,
               exchange_case<std::uint32_t, 8, 8>, exchange_case<std::int64_t, 4, 1>,
               exchange_case<std::uint64_t, 16, 4>, exchange_case<float, 19, 8>, exchange_case<float, 4, 7>,
               exchange_case<double, 7, 3>, exchange_case<__half, 32, 3>, exchange_case<__half, 2, 4>,
               exchange_case<__nv_bfloat16, 8, 7>, exchange_case<__nv_bfloat16, 1, 1>,
               exchange_case<strata_test::custom_t, 32, 4>, exchange_case<strata_test::custom_t, 19, 1>,
               // Several logical warps of a size that does not divide 32 in each hardware warp.
               exchange_case<std::int32_t, 3, 5>, exchange_case<std::uint64_t, 5, 4>, exchange_case<float, 12, 3>,
               exchange_case<std::int16_t, 31, 2>,
               // Output and rank types other than the item type.
               exchange_case<std::int16_t, 16, 4, std::int32_t, long long>>;

// Every square tile size, each with a different type (8 x 8 with two).
using shuffle_cases =
    std::tuple<exchange_case<std::int8_t, 1, 1>, exchange_case<__half, 2, 2>, exchange_case<double, 4, 4>,
               exchange_case<strata_test::custom_t, 8, 8>, exchange_case<std::uint16_t, 8, 8>,
               exchange_case<float, 16, 16>, exchange_case<std::int32_t, 32, 32>, exchange_case<__nv_bfloat16, 32, 32>>;

//! The class documentation's example: 16-lane logical warps, 4 items per lane, 128 threads.
__global__ void documented_example_kernel(int* d_out)
{
  using WarpExchangeT = strata::WarpExchange<int, 4, 16>;
  __shared__ WarpExchangeT::TempStorage temp_storage[128 / 16];
  int items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = 4 * (static_cast<int>(threadIdx.x) % 16) + i;
  }
  WarpExchangeT(temp_storage[threadIdx.x / 16]).BlockedToStriped(items, items);
  for (int i = 0; i < 4; ++i)
  {
    d_out[threadIdx.x * 4 + i] = items[i];
  }
}
} // namespace

TEMPLATE_LIST_TEST_CASE("WarpExchange (WARP_EXCHANGE_SMEM): every member", "[warp][exchange]", smem_cases)
{
  STRATA_TEST_REQUIRE_GPU();
  check_exchange<TestType, strata::WARP_EXCHANGE_SMEM>(TestType::logical_warp_threads * 100
                                                       + TestType::items_per_thread);
}

TEMPLATE_LIST_TEST_CASE("WarpExchange (WARP_EXCHANGE_SHUFFLE): blocked <-> striped", "[warp][exchange]", shuffle_cases)
{
  STRATA_TEST_REQUIRE_GPU();
  check_exchange<TestType, strata::WARP_EXCHANGE_SHUFFLE>(TestType::logical_warp_threads * 1000 + 7);
}

TEST_CASE("WarpExchange: the documented example", "[warp][exchange]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_out(128 * 4);
  d_out.poison();
  documented_example_kernel<<<1, 128>>>(d_out.data());
  strata_test::check_launch();
  std::vector<int> expected;
  for (int t = 0; t < 128; ++t)
  {
    const int lane = t % 16;
    for (int i = 0; i < 4; ++i)
    {
      expected.push_back(lane + 16 * i);
    }
  }
  strata_test::check_equal(expected, d_out.download());
}

TEST_CASE("WarpExchange tests: the reference on CUB's documented examples", "[warp][exchange]")
{
  // 16 lanes of 4 items: blocked {[0,1,2,3], [4,5,6,7], ...} is striped {[0,16,32,48], [1,17,33,49], ...};
  // ranks {[63,62,61,60], ..., [3,2,1,0]} scatter it to {[63,47,31,15], [62,46,30,14], ..., [48,32,16,0]}.
  std::vector<int> tile(64);
  std::iota(tile.begin(), tile.end(), 0);
  std::vector<std::int64_t> reversed(64);
  for (int p = 0; p < 64; ++p)
  {
    reversed[static_cast<std::size_t>(p)] = 63 - p;
  }
  const exchange_reference<int> ref(tile.data(), reversed.data(), 16, 4);
  for (int l = 0; l < 16; ++l)
  {
    for (int i = 0; i < 4; ++i)
    {
      const auto k = static_cast<std::size_t>(l * 4 + i);
      CHECK(ref.blocked_to_striped[k] == l + 16 * i);
      CHECK(ref.striped_to_blocked[k] == l * 4 + i);
      CHECK(ref.scatter_to_striped[k] == 63 - (l + 16 * i));
    }
  }
}

TEST_CASE("WarpExchange: temporary storage", "[warp][exchange]")
{
  // Shared memory holds the whole tile (plus bank padding for power-of-two strides of 4- and
  // 8-byte items); shuffles need none.
  STATIC_REQUIRE(sizeof(strata::WarpExchange<int, 3, 32>::TempStorage) == 3 * 32 * sizeof(int));
  STATIC_REQUIRE(sizeof(strata::WarpExchange<int, 6, 32>::TempStorage) == 6 * 32 * sizeof(int));
  STATIC_REQUIRE(sizeof(strata::WarpExchange<int, 4, 32>::TempStorage) == (4 * 32 + 3) * sizeof(int));
  STATIC_REQUIRE(sizeof(strata::WarpExchange<double, 4, 16>::TempStorage) == (4 * 16 + 3) * sizeof(double));
  STATIC_REQUIRE(sizeof(strata::WarpExchange<std::int8_t, 4, 7>::TempStorage) == 4 * 7);
  STATIC_REQUIRE(
      std::is_same_v<strata::WarpExchange<float, 8, 8, strata::WARP_EXCHANGE_SHUFFLE>::TempStorage, strata::NullType>);
}

// Tests of strata/block/block_exchange.cuh: all eight exchanges of BlockExchange on random tiles
// of three blocks, with and without WARP_TIME_SLICING, over block shapes {32, 80, 96, 128, 256,
// 1024, 16x8, 8x4x2, 8x3}, items per thread {1, 3, 4, 7, 11} and 8 and 16 (the padded buffer),
// and every type, combined pairwise; each case calls the members in place, with aliased or with
// separate output arrays, through a private or a caller's TempStorage, with ranks of one integer
// type. Scatters use a random permutation of ranks per block; the guarded scatter skips random
// items (negative ranks), the flagged one random items whose ranks collide with valid ones.
// The documented examples, outputs of another type and the TempStorage sizes have cases of their own.
#include <strata/block/block_exchange.cuh>
#include <strata/thread/thread_direct.cuh>

#include "block_move_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
//! Output regions of the exchange kernel, one per member.
enum exchange_slot : int
{
  striped_to_blocked,
  blocked_to_striped,
  warp_striped_to_blocked,
  blocked_to_warp_striped,
  scatter_to_blocked,
  scatter_to_striped,
  scatter_to_striped_guarded,
  scatter_to_striped_flagged,
  exchange_slot_count
};

//! How a case calls the members: the in-place overloads, or the two-array ones with the same
//! array twice or with a separate output array.
enum call_form : int
{
  in_place,
  aliased,
  separate
};

template <typename T, int DX, int DY, int DZ, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING, typename RankT,
          call_form FORM, bool PRIVATE_STORAGE>
struct exchange_case
{
  using type                            = T;
  using tile                            = strata_test::block_tile<DX, DY, DZ, ITEMS_PER_THREAD>;
  using rank_type                       = RankT;
  using exchange                        = strata::BlockExchange<T, DX, ITEMS_PER_THREAD, WARP_TIME_SLICING, DY, DZ>;
  static constexpr int items_per_thread = ITEMS_PER_THREAD;
  static constexpr bool time_slicing    = WARP_TIME_SLICING;
  static constexpr call_form form       = FORM;
  static constexpr bool private_storage = PRIVATE_STORAGE;
};

template <typename BlockExchangeT, bool PRIVATE_STORAGE>
__device__ __forceinline__ BlockExchangeT make_exchange(typename BlockExchangeT::TempStorage& temp_storage)
{
  if constexpr (PRIVATE_STORAGE)
  {
    static_cast<void>(temp_storage);
    return BlockExchangeT();
  }
  else
  {
    return BlockExchangeT(temp_storage);
  }
}

//! values[i] = src[i], converted.
template <typename T, int N, typename SourceT>
__device__ __forceinline__ void load_items(T (&values)[N], const SourceT* src)
{
#pragma unroll
  for (int i = 0; i < N; ++i)
  {
    values[i] = static_cast<T>(src[i]);
  }
}

//! The kernel's buffers: items and ranks thread-major per block (thread t's item i at
//! t * ITEMS_PER_THREAD + i of its block's tile), and one output region per member.
template <typename T>
struct exchange_buffers
{
  const T* in;
  const int* ranks;
  const int* guarded_ranks; //!< negative for skipped items
  const int* flagged_ranks;
  const unsigned char* flags;
  T* out;
};

//! Member SLOT on `items` in the case's form: the in-place overload, or the two-array one into
//! `items` itself or into `outputs`. Ranks are read right before use and converted to the case's
//! rank type (its signed counterpart for the guarded scatter).
template <typename Case, int SLOT, typename T, int N>
__device__ __forceinline__ void call_member(typename Case::exchange& exchange, T (&items)[N], T (&outputs)[N],
                                            const exchange_buffers<T>& buffers, int first)
{
  using RankT            = typename Case::rank_type;
  constexpr bool INPLACE = Case::form == in_place;
  T(&result)[N]          = Case::form == separate ? outputs : items;
  if constexpr (SLOT == striped_to_blocked)
  {
    INPLACE ? exchange.StripedToBlocked(items) : exchange.StripedToBlocked(items, result);
  }
  else if constexpr (SLOT == blocked_to_striped)
  {
    INPLACE ? exchange.BlockedToStriped(items) : exchange.BlockedToStriped(items, result);
  }
  else if constexpr (SLOT == warp_striped_to_blocked)
  {
    INPLACE ? exchange.WarpStripedToBlocked(items) : exchange.WarpStripedToBlocked(items, result);
  }
  else if constexpr (SLOT == blocked_to_warp_striped)
  {
    INPLACE ? exchange.BlockedToWarpStriped(items) : exchange.BlockedToWarpStriped(items, result);
  }
  else if constexpr (SLOT == scatter_to_blocked)
  {
    RankT ranks[N];
    load_items(ranks, buffers.ranks + first);
    INPLACE ? exchange.ScatterToBlocked(items, ranks) : exchange.ScatterToBlocked(items, result, ranks);
  }
  else if constexpr (SLOT == scatter_to_striped)
  {
    RankT ranks[N];
    load_items(ranks, buffers.ranks + first);
    INPLACE ? exchange.ScatterToStriped(items, ranks) : exchange.ScatterToStriped(items, result, ranks);
  }
  else if constexpr (SLOT == scatter_to_striped_guarded)
  {
    std::make_signed_t<RankT> ranks[N];
    load_items(ranks, buffers.guarded_ranks + first);
    INPLACE ? exchange.ScatterToStripedGuarded(items, ranks) : exchange.ScatterToStripedGuarded(items, result, ranks);
  }
  else
  {
    RankT ranks[N];
    bool is_valid[N];
    load_items(ranks, buffers.flagged_ranks + first);
    load_items(is_valid, buffers.flags + first);
    INPLACE ? exchange.ScatterToStripedFlagged(items, ranks, is_valid)
            : exchange.ScatterToStripedFlagged(items, result, ranks, is_valid);
  }
}

//! Member SLOT on fresh inputs; its result dumped thread-major into region SLOT.
template <typename Case, int SLOT, typename T>
__device__ __forceinline__ void run_member(typename Case::exchange& exchange, const exchange_buffers<T>& buffers)
{
  using tile      = typename Case::tile;
  constexpr int N = Case::items_per_thread;
  const int rank  = tile::rank();
  const int first = static_cast<int>(blockIdx.x) * tile::TILE + rank * N;
  T items[N];
  T outputs[N];
  load_items(items, buffers.in + first);
  call_member<Case, SLOT>(exchange, items, outputs, buffers, first);
  T* region = buffers.out + (SLOT * static_cast<int>(gridDim.x) + static_cast<int>(blockIdx.x)) * tile::TILE;
  strata_test::dump_items(region, rank, Case::form == separate ? outputs : items);
}

//! Member `slot` (chosen at run time, so that the members' register needs do not add up).
template <typename Case, typename T = typename Case::type>
__global__ void __launch_bounds__(Case::tile::THREADS) exchange_kernel(exchange_buffers<T> buffers, int slot)
{
  using BlockExchangeT = typename Case::exchange;
  __shared__ typename BlockExchangeT::TempStorage temp_storage;
  BlockExchangeT exchange = make_exchange<BlockExchangeT, Case::private_storage>(temp_storage);
  switch (slot)
  {
  case striped_to_blocked:
    run_member<Case, striped_to_blocked>(exchange, buffers);
    break;
  case blocked_to_striped:
    run_member<Case, blocked_to_striped>(exchange, buffers);
    break;
  case warp_striped_to_blocked:
    run_member<Case, warp_striped_to_blocked>(exchange, buffers);
    break;
  case blocked_to_warp_striped:
    run_member<Case, blocked_to_warp_striped>(exchange, buffers);
    break;
  case scatter_to_blocked:
    run_member<Case, scatter_to_blocked>(exchange, buffers);
    break;
  case scatter_to_striped:
    run_member<Case, scatter_to_striped>(exchange, buffers);
    break;
  case scatter_to_striped_guarded:
    run_member<Case, scatter_to_striped_guarded>(exchange, buffers);
    break;
  default:
    run_member<Case, scatter_to_striped_flagged>(exchange, buffers);
    break;
  }
}

//! The ranks of one test run, thread-major per block like the items.
struct scatter_ranks
{
  std::vector<int> ranks;   //!< a random permutation of the tile positions, per block
  std::vector<int> guarded; //!< the same, with random items' ranks negative
  std::vector<int> flagged; //!< the same, with random invalid items ranked as valid ones
  std::vector<unsigned char> flags;
};

scatter_ranks make_ranks(int blocks, int tile_items, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> third(0, 2);
  scatter_ranks r;
  for (int b = 0; b < blocks; ++b)
  {
    std::vector<int> perm(static_cast<std::size_t>(tile_items));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), engine);
    std::vector<int> valid_ranks;
    for (int k = 0; k < tile_items; ++k)
    {
      const int rank = perm[static_cast<std::size_t>(k)];
      r.ranks.push_back(rank);
      r.guarded.push_back(third(engine) == 0 ? -1 - k % 3 : rank);
      const bool valid = third(engine) != 0;
      r.flags.push_back(valid ? 1 : 0);
      if (valid)
      {
        valid_ranks.push_back(rank);
      }
    }
    // Invalid items of the flagged scatter get the rank of some valid item (their own when
    // there is none), so that writing them would overwrite a checked output.
    const std::size_t begin = static_cast<std::size_t>(b * tile_items);
    for (int k = 0; k < tile_items; ++k)
    {
      const std::size_t at = begin + static_cast<std::size_t>(k);
      r.flagged.push_back(r.flags[at] != 0 || valid_ranks.empty()
                              ? r.ranks[at]
                              : valid_ranks[static_cast<std::size_t>(k) % valid_ranks.size()]);
    }
  }
  return r;
}

//! The expected output of every slot (thread-major, like the kernel's), and whether each output
//! is defined: the scatters leave the positions no item went to undefined.
template <typename T>
void exchange_reference(const std::vector<T>& in, const scatter_ranks& r, int blocks, int threads, int items,
                        std::vector<T>& expected, std::vector<char>& defined)
{
  const int tile_items = threads * items;
  expected.assign(static_cast<std::size_t>(exchange_slot_count * blocks * tile_items), T{});
  defined.assign(expected.size(), 0);
  for (int slot = 0; slot < exchange_slot_count; ++slot)
  {
    for (int b = 0; b < blocks; ++b)
    {
      std::vector<T> tile(static_cast<std::size_t>(tile_items));
      std::vector<char> written(tile.size(), 0);
      for (int t = 0; t < threads; ++t)
      {
        for (int i = 0; i < items; ++i)
        {
          const std::size_t k = static_cast<std::size_t>(b * tile_items + t * items + i);
          int pos             = -1;
          switch (slot)
          {
          case striped_to_blocked:
            pos = strata_test::striped_pos(t, i, threads, items);
            break;
          case warp_striped_to_blocked:
            pos = strata_test::warp_striped_pos(t, i, threads, items);
            break;
          case blocked_to_striped:
          case blocked_to_warp_striped:
            pos = strata_test::blocked_pos(t, i, threads, items);
            break;
          case scatter_to_blocked:
          case scatter_to_striped:
            pos = r.ranks[k];
            break;
          case scatter_to_striped_guarded:
            pos = r.guarded[k];
            break;
          default:
            pos = r.flags[k] != 0 ? r.flagged[k] : -1;
            break;
          }
          if (pos >= 0)
          {
            tile[static_cast<std::size_t>(pos)]    = in[k];
            written[static_cast<std::size_t>(pos)] = 1;
          }
        }
      }
      for (int t = 0; t < threads; ++t)
      {
        for (int i = 0; i < items; ++i)
        {
          int pos = 0;
          switch (slot)
          {
          case striped_to_blocked:
          case warp_striped_to_blocked:
          case scatter_to_blocked:
            pos = strata_test::blocked_pos(t, i, threads, items);
            break;
          case blocked_to_warp_striped:
            pos = strata_test::warp_striped_pos(t, i, threads, items);
            break;
          default:
            pos = strata_test::striped_pos(t, i, threads, items);
            break;
          }
          const std::size_t at = static_cast<std::size_t>((slot * blocks + b) * tile_items + t * items + i);
          expected[at]         = tile[static_cast<std::size_t>(pos)];
          defined[at]          = written[static_cast<std::size_t>(pos)];
        }
      }
    }
  }
}

template <typename Case>
void check_exchange(std::uint64_t salt)
{
  using T              = typename Case::type;
  using tile           = typename Case::tile;
  constexpr int N      = Case::items_per_thread;
  constexpr int BLOCKS = 3;
  const auto seed      = strata_test::seed(salt);
  INFO("seed " << seed << ", block " << tile::THREADS << " threads (" << tile::block().x << "x" << tile::block().y
               << "x" << tile::block().z << "), " << N << " items per thread, time slicing " << Case::time_slicing
               << ", form " << Case::form << ", private storage " << Case::private_storage);

  const std::vector<T> in = strata_test::random_vector<T>(static_cast<std::size_t>(BLOCKS * tile::TILE), seed);
  const scatter_ranks r   = make_ranks(BLOCKS, tile::TILE, seed + 1);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_ranks(r.ranks);
  strata_test::device_buffer<int> d_guarded(r.guarded);
  strata_test::device_buffer<int> d_flagged(r.flagged);
  strata_test::device_buffer<unsigned char> d_flags(r.flags);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(exchange_slot_count * BLOCKS * tile::TILE));
  d_out.poison();
  const exchange_buffers<T> buffers{d_in.data(),      d_ranks.data(), d_guarded.data(),
                                    d_flagged.data(), d_flags.data(), d_out.data()};
  for (int slot = 0; slot < exchange_slot_count; ++slot)
  {
    exchange_kernel<Case><<<BLOCKS, tile::block()>>>(buffers, slot);
    strata_test::check_launch();
  }

  std::vector<T> expected;
  std::vector<char> defined;
  exchange_reference(in, r, BLOCKS, tile::THREADS, N, expected, defined);
  const std::vector<T> actual = d_out.download();
  REQUIRE(actual.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k)
  {
    if (!defined[k])
    {
      expected[k] = actual[k];
    }
  }
  strata_test::check_equal(expected, actual);
}

using strata_test::custom_t;
// Pairwise: each shape, items-per-thread value, type and option appears several times, and with
// several of each other's values; tiles stay within 48 KiB of static shared memory.
using exchange_cases = std::tuple<exchange_case<std::int32_t, 128, 1, 1, 4, false, int, separate, false>,
                                  exchange_case<std::int64_t, 32, 1, 1, 8, true, long long, in_place, false>,
                                  exchange_case<std::uint8_t, 80, 1, 1, 3, false, std::uint16_t, aliased, true>,
                                  exchange_case<float, 80, 1, 1, 7, true, int, separate, false>,
                                  exchange_case<double, 256, 1, 1, 16, true, int, in_place, false>,
                                  exchange_case<__half, 1024, 1, 1, 11, false, std::int16_t, aliased, false>,
                                  exchange_case<custom_t, 16, 8, 1, 1, false, int, in_place, true>,
                                  exchange_case<std::uint32_t, 8, 4, 2, 11, true, unsigned int, separate, false>,
                                  exchange_case<__nv_bfloat16, 96, 1, 1, 4, false, std::int16_t, in_place, false>,
                                  exchange_case<std::uint16_t, 8, 3, 1, 3, true, std::uint8_t, aliased, true>,
                                  exchange_case<std::int16_t, 256, 1, 1, 7, false, std::int64_t, separate, false>,
                                  exchange_case<std::uint64_t, 1024, 1, 1, 1, true, int, in_place, false>,
                                  exchange_case<std::int8_t, 32, 1, 1, 16, false, int, aliased, false>,
                                  exchange_case<custom_t, 128, 1, 1, 3, true, int, separate, false>,
                                  exchange_case<float, 16, 8, 1, 8, false, unsigned int, in_place, false>,
                                  exchange_case<double, 8, 4, 2, 4, false, int, separate, true>,
                                  exchange_case<std::int32_t, 1024, 1, 1, 3, false, int, aliased, false>>;

//! The documented examples, 128 threads with 4 ints each, on d_in = 0, 1, 2, ...: slot 0 a
//! striped load made blocked, slot 1 blocked items made striped, slot 2 a warp-striped load
//! made blocked, slot 3 blocked items made warp-striped.
__global__ void documented_examples_kernel(const int* d_in, int* d_out)
{
  using BlockExchangeT = strata::BlockExchange<int, 128, 4>;
  __shared__ BlockExchangeT::TempStorage temp_storage;
  const int t = static_cast<int>(threadIdx.x);
  int items[4];

  strata::LoadDirectStriped<128>(t, d_in, items);
  BlockExchangeT(temp_storage).StripedToBlocked(items);
  strata_test::dump_items(d_out, t, items);
  __syncthreads();

  strata::LoadDirectBlocked(t, d_in, items);
  BlockExchangeT(temp_storage).BlockedToStriped(items, items);
  strata_test::dump_items(d_out + 512, t, items);
  __syncthreads();

  strata::LoadDirectWarpStriped(t, d_in, items);
  BlockExchangeT(temp_storage).WarpStripedToBlocked(items);
  strata_test::dump_items(d_out + 1024, t, items);
  __syncthreads();

  strata::LoadDirectBlocked(t, d_in, items);
  BlockExchangeT(temp_storage).BlockedToWarpStriped(items, items);
  strata_test::dump_items(d_out + 1536, t, items);
}

//! Outputs of a wider type than the inputs: 64 threads with 3 shorts each, made blocked from
//! striped (slot 0) and scattered in reverse into blocked order (slot 1), as ints.
__global__ void widening_kernel(const short* d_in, int* d_out)
{
  using BlockExchangeT = strata::BlockExchange<short, 64, 3>;
  __shared__ BlockExchangeT::TempStorage temp_storage;
  const int t = static_cast<int>(threadIdx.x);
  short items[3];
  int wide[3];
  strata::LoadDirectStriped<64>(t, d_in, items);
  BlockExchangeT(temp_storage).StripedToBlocked(items, wide);
  strata_test::dump_items(d_out, t, wide);
  __syncthreads();

  const std::int64_t ranks[3] = {191 - 3 * t, 190 - 3 * t, 189 - 3 * t};
  strata::LoadDirectBlocked(t, d_in, items);
  BlockExchangeT(temp_storage).ScatterToBlocked(items, wide, ranks);
  strata_test::dump_items(d_out + 192, t, wide);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("BlockExchange: every member", "[block][exchange]", exchange_cases)
{
  STRATA_TEST_REQUIRE_GPU();
  using tile = typename TestType::tile;
  check_exchange<TestType>(static_cast<std::uint64_t>(tile::THREADS * 1000 + TestType::items_per_thread * 10
                                                      + (TestType::time_slicing ? 1 : 0)));
}

TEST_CASE("BlockExchange: the documented examples", "[block][exchange]")
{
  STRATA_TEST_REQUIRE_GPU();
  std::vector<int> identity(512);
  std::iota(identity.begin(), identity.end(), 0);
  strata_test::device_buffer<int> d_in(identity);
  strata_test::device_buffer<int> d_out(4 * 512);
  d_out.poison();
  documented_examples_kernel<<<1, 128>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  const std::vector<int> out = d_out.download();

  std::vector<int> expected(4 * 512);
  for (int t = 0; t < 128; ++t)
  {
    for (int i = 0; i < 4; ++i)
    {
      const std::size_t k = static_cast<std::size_t>(t * 4 + i);
      expected[k]         = t * 4 + i;                        // blocked
      expected[512 + k]   = i * 128 + t;                      // striped
      expected[1024 + k]  = t * 4 + i;                        // blocked
      expected[1536 + k]  = (t / 32) * 128 + i * 32 + t % 32; // warp-striped
    }
  }
  strata_test::check_equal(expected, out);
  // The values the documentation quotes: striped {[0,128,256,384], [1,129,257,385], ...,
  // [127,255,383,511]} and warp-striped {[0,32,64,96], [1,33,65,97], ..., [415,447,479,511]}.
  CHECK(std::vector<int>(out.begin() + 512, out.begin() + 516) == std::vector<int>{0, 128, 256, 384});
  CHECK(std::vector<int>(out.begin() + 1020, out.begin() + 1024) == std::vector<int>{127, 255, 383, 511});
  CHECK(std::vector<int>(out.begin() + 1540, out.begin() + 1544) == std::vector<int>{1, 33, 65, 97});
  CHECK(std::vector<int>(out.begin() + 2044, out.begin() + 2048) == std::vector<int>{415, 447, 479, 511});
}

TEST_CASE("BlockExchange: outputs of another type", "[block][exchange]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(7);
  INFO("seed " << seed);
  const std::vector<short> in = strata_test::random_vector<short>(192, seed);
  strata_test::device_buffer<short> d_in(in);
  strata_test::device_buffer<int> d_out(2 * 192);
  d_out.poison();
  widening_kernel<<<1, 64>>>(d_in.data(), d_out.data());
  strata_test::check_launch();

  std::vector<int> expected(2 * 192);
  for (int t = 0; t < 64; ++t)
  {
    for (int i = 0; i < 3; ++i)
    {
      const int k = t * 3 + i;
      // The striped load of the tile, made blocked, is the tile in order.
      expected[static_cast<std::size_t>(k)]       = static_cast<int>(in[static_cast<std::size_t>(k)]);
      expected[static_cast<std::size_t>(192 + k)] = static_cast<int>(in[static_cast<std::size_t>(191 - k)]);
    }
  }
  strata_test::check_equal(expected, d_out.download());
}

TEST_CASE("BlockExchange: shared memory of the padded and time-sliced buffers", "[block][exchange]")
{
  // The whole tile; one padding item per 32 when ITEMS_PER_THREAD is a power of two above 4 (as
  // in CUB); with time slicing one warp's share of the tile.
  STATIC_REQUIRE(sizeof(strata::BlockExchange<int, 128, 4>::TempStorage) == 128 * 4 * 4);
  STATIC_REQUIRE(sizeof(strata::BlockExchange<int, 80, 3>::TempStorage) == 80 * 3 * 4);
  STATIC_REQUIRE(sizeof(strata::BlockExchange<int, 32, 8>::TempStorage) == (256 + 8) * 4);
  STATIC_REQUIRE(sizeof(strata::BlockExchange<int, 8, 8, false, 4>::TempStorage) == (256 + 8) * 4);
  STATIC_REQUIRE(sizeof(strata::BlockExchange<double, 256, 8, true>::TempStorage) == (256 + 8) * 8);
  STATIC_REQUIRE(sizeof(strata::BlockExchange<std::int16_t, 512, 3, true>::TempStorage) == 32 * 3 * 2);
  STATIC_REQUIRE(sizeof(strata::BlockExchange<char, 20, 3>::TempStorage) == 64); // 60 bytes, 16-byte aligned
  STATIC_REQUIRE(alignof(strata::BlockExchange<char, 32, 1>::TempStorage) == 16);
}

TEST_CASE("BlockExchange tests: arrangements and ranks", "[block][exchange]")
{
  // 80 threads: warps of 32, 32 and 16; the last one stripes its 16 * 3 items over 16 lanes.
  CHECK(strata_test::warp_striped_pos(33, 2, 80, 3) == 96 + 64 + 1);
  CHECK(strata_test::warp_striped_pos(70, 2, 80, 3) == 192 + 32 + 6);
  CHECK(strata_test::warp_striped_pos(79, 2, 80, 3) == 239);
  CHECK(strata_test::striped_pos(5, 2, 80, 3) == 165);
  CHECK(strata_test::blocked_pos(5, 2, 80, 3) == 17);

  const scatter_ranks r = make_ranks(2, 40, strata_test::seed(8));
  REQUIRE(r.ranks.size() == 80);
  for (int b = 0; b < 2; ++b)
  {
    std::vector<int> block_ranks(r.ranks.begin() + b * 40, r.ranks.begin() + (b + 1) * 40);
    std::sort(block_ranks.begin(), block_ranks.end());
    std::vector<int> positions(40);
    std::iota(positions.begin(), positions.end(), 0);
    CHECK(block_ranks == positions);
  }
  int skipped = 0;
  for (std::size_t k = 0; k < 80; ++k)
  {
    CHECK((r.guarded[k] == r.ranks[k] || r.guarded[k] < 0));
    skipped += r.guarded[k] < 0 ? 1 : 0;
    if (r.flags[k] != 0)
    {
      CHECK(r.flagged[k] == r.ranks[k]);
    }
  }
  CHECK(skipped > 0);
  CHECK(skipped < 80);
}

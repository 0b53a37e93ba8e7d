// The public names of CUB 3.0.1 that code using CUB may spell, used here as CUB spells them
// through `namespace lib = strata;` (so a missing one fails to compile): the umbrella
// <strata/cub.cuh>, BlockScanRunningPrefixOp, util_math, CubVector, MAX_VEC_ELEMENTS, MatchAny with
// a partial warp, Log2's three parameters, ThreadExit, UnitWord::ALIGN_BYTES / IsMultiple,
// FutureValue's const conversion, BaseDigitExtractor, BlockRadixRankMatch::CallBack,
// UnrolledThreadLoad / UnrolledCopy, GridEvenShare::BlockInit with a strategy tag, the implicit
// constructors of WarpMergeSort and GridQueue, and the STRATA_ counterparts of CUB's macros.
// Values CUB defines are checked at compile time; behaviour on the host here and on a GPU below.
#define STRATA_DEBUG_ALL
#include <strata/cub.cuh>

#include "common/test_common.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace lib = strata;

// ---- macros ----------------------------------------------------------------------------------
#if !defined(STRATA_DEBUG_LOG) || !defined(STRATA_DEBUG_SYNC)
#  error "STRATA_DEBUG_ALL turns on STRATA_DEBUG_LOG and STRATA_DEBUG_SYNC"
#endif
static_assert(STRATA_PTX_WARP_THREADS == 32 && STRATA_WARP_THREADS(0) == 32 && STRATA_PTX_LOG_WARP_THREADS == 5);
static_assert(STRATA_LOG_WARP_THREADS(0) == 5 && STRATA_SMEM_BANKS(0) == 32 && STRATA_LOG_SMEM_BANKS(0) == 5);
static_assert(STRATA_PTX_SMEM_BANKS == 32 && STRATA_PTX_LOG_SMEM_BANKS == 5);
static_assert(STRATA_SUBSCRIPTION_FACTOR(0) == 5 && STRATA_PTX_SUBSCRIPTION_FACTOR == 5);
static_assert(STRATA_PREFER_CONFLICT_OVER_PADDING(0) == 1 && STRATA_PTX_PREFER_CONFLICT_OVER_PADDING == 1);

// ---- util_math -------------------------------------------------------------------------------
namespace
{
struct bytes12
{
  int a, b, c;
};
struct bytes32
{
  double a, b, c, d;
};
} // namespace
static_assert(lib::Nominal4BItemsToItems<int>(16) == 16);
static_assert(lib::Nominal4BItemsToItems<double>(16) == 8);
static_assert(lib::Nominal4BItemsToItems<char>(16) == 16);  // never more than nominal
static_assert(lib::Nominal4BItemsToItems<bytes32>(7) == 1); // at least one
static_assert(lib::Nominal4BItemsToItemsCombined(16, 8) == 16);
static_assert(lib::Nominal4BItemsToItemsCombined(16, 12) == 10);
static_assert(lib::Nominal4BItemsToItemsCombined(4, 64) == 1);
static_assert(lib::Nominal8BItemsToItems<double>(12) == 12);
static_assert(lib::Nominal8BItemsToItems<char>(12) == 12);
static_assert(lib::Nominal8BItemsToItems<bytes12>(7) == 5); // ceil(56 / 12)
static_assert(lib::Nominal8BItemsToItems<bytes32>(12) == 3);
static_assert(lib::MidPoint(3, 10) == 6);
static_assert(lib::MidPoint(INT_MAX - 2, INT_MAX) == INT_MAX - 1);
static_assert(lib::MidPoint<unsigned>(4000000000u, 4000000010u) == 4000000005u);

// ---- util_type -------------------------------------------------------------------------------
static_assert(lib::Log2<1>::VALUE == 0 && lib::Log2<2>::VALUE == 1 && lib::Log2<3>::VALUE == 2);
static_assert(lib::Log2<8>::VALUE == 3 && lib::Log2<1000>::VALUE == 10 && lib::Log2<1024>::VALUE == 10);
static_assert(lib::Log2<1025>::VALUE == 11 && lib::Log2<INT_MAX>::VALUE == 31);
static_assert(lib::Log2<5, 5, 0>::VALUE == 3);
static_assert(lib::Log2<8, 4, 1>::VALUE == 3); // a step of CUB's recursion gives the same answer

namespace
{
struct alignas(4) char12
{
  char c[12];
};
} // namespace
static_assert(lib::UnitWord<double>::ALIGN_BYTES == 8 && lib::UnitWord<char12>::ALIGN_BYTES == 4);
static_assert(lib::UnitWord<double>::IsMultiple<int>::IS_MULTIPLE);
static_assert(lib::UnitWord<double>::IsMultiple<int>::UNIT_ALIGN_BYTES == 4);
static_assert(lib::UnitWord<char12>::IsMultiple<int>::IS_MULTIPLE);
static_assert(!lib::UnitWord<char12>::IsMultiple<long long>::IS_MULTIPLE);
static_assert(!lib::UnitWord<short>::IsMultiple<int>::IS_MULTIPLE);

static_assert(lib::MAX_VEC_ELEMENTS == 4);
static_assert(std::is_same_v<lib::CubVector<int, 2>::Type, int2> && std::is_base_of_v<int2, lib::CubVector<int, 2>>);
static_assert(std::is_same_v<lib::CubVector<float, 4>::Type, float4>);
static_assert(std::is_same_v<lib::CubVector<unsigned char, 3>::Type, uchar3>);
static_assert(
    std::is_same_v<lib::CubVector<bool, 1>::Type, uchar1> && std::is_same_v<lib::CubVector<bool, 1>::BaseType, bool>);
static_assert(sizeof(lib::CubVector<double, 4>) == 4 * sizeof(double));
static_assert(std::is_same_v<lib::CubVector<bytes12, 3>::Type, lib::CubVector<bytes12, 3>>);
static_assert(std::is_same_v<lib::CubVector<bytes12, 3>::BaseType, bytes12>);

// ---- implicit constructors -------------------------------------------------------------------
static_assert(std::is_convertible_v<void*, lib::GridQueue<int>>);
using WarpSortT = lib::WarpMergeSort<int, 4, 16>;
static_assert(std::is_convertible_v<WarpSortT::TempStorage&, WarpSortT>);

// ---- radix extractors ------------------------------------------------------------------------
static_assert(std::is_same_v<lib::BaseDigitExtractor<float>::TraitsT, lib::Traits<float>>);
static_assert(std::is_same_v<lib::BaseDigitExtractor<double>::UnsignedBits, unsigned long long>);
static_assert(std::is_base_of_v<lib::BaseDigitExtractor<float>, lib::BFEDigitExtractor<float>>);
static_assert(std::is_base_of_v<lib::BaseDigitExtractor<int>, lib::ShiftDigitExtractor<int>>);

namespace
{
// ---- kernels ---------------------------------------------------------------------------------
constexpr int scan_threads = 128;
constexpr int scan_items   = 4;
constexpr int scan_tile    = scan_threads * scan_items;

// One block scans num_tiles tiles in turn, carrying the running sum (from `start`) and the running
// maximum (from T(), i.e. 0) from tile to tile.
template <lib::BlockScanAlgorithm ALGORITHM>
__global__ void running_prefix_kernel(const int* in, int* sums, int* maxima, int num_tiles, int start)
{
  using BlockScanT = lib::BlockScan<int, scan_threads, ALGORITHM>;
  __shared__ typename BlockScanT::TempStorage temp_storage;
  lib::BlockScanRunningPrefixOp<int, ::cuda::std::plus<>> sum_prefix(start, ::cuda::std::plus<>{});
  lib::BlockScanRunningPrefixOp<int, ::cuda::maximum<>> max_prefix(::cuda::maximum<>{});
  for (int tile = 0; tile < num_tiles; ++tile)
  {
    const int base = tile * scan_tile + static_cast<int>(threadIdx.x) * scan_items;
    int items[scan_items];
    int sum[scan_items];
    int max[scan_items];
    for (int i = 0; i < scan_items; ++i)
    {
      items[i] = in[base + i];
    }
    BlockScanT(temp_storage).ExclusiveScan(items, sum, ::cuda::std::plus<>{}, sum_prefix);
    __syncthreads();
    BlockScanT(temp_storage).InclusiveScan(items, max, ::cuda::maximum<>{}, max_prefix);
    __syncthreads();
    for (int i = 0; i < scan_items; ++i)
    {
      sums[base + i]   = sum[i];
      maxima[base + i] = max[i];
    }
  }
}

template <int LABEL_BITS, int WARP_ACTIVE_THREADS>
__global__ void match_any_kernel(const unsigned* labels, unsigned* masks)
{
  const int t = static_cast<int>(threadIdx.x);
  masks[t]    = lib::MatchAny<LABEL_BITS, WARP_ACTIVE_THREADS>(labels[t]);
}

__global__ void thread_exit_kernel(const int* in, int* out)
{
  const int t = static_cast<int>(threadIdx.x);
  if (t % 3 == 0)
  {
    lib::ThreadExit();
  }
  out[t] = in[t] + 1;
}

__global__ void unrolled_kernel(const int* in, int* loaded, int* copied)
{
  const int t = static_cast<int>(threadIdx.x);
  int words[4];
  lib::UnrolledThreadLoad<4, lib::LOAD_CG>(in + 4 * t, words);
  int counts[3];
  lib::UnrolledCopy<3>(lib::CountingInputIterator<int>(100 * t), counts);
  for (int i = 0; i < 4; ++i)
  {
    loaded[4 * t + i] = words[i];
  }
  for (int i = 0; i < 3; ++i)
  {
    copied[3 * t + i] = counts[i];
  }
}

constexpr int rank_threads = 64;
constexpr int rank_keys    = 3;
constexpr int rank_bits    = 4;
using RankT                = lib::BlockRadixRankMatch<rank_threads, rank_bits, false>;

struct StoreBins
{
  int* out;
  template <int BINS>
  __device__ void operator()(int (&bins)[BINS]) const
  {
    for (int j = 0; j < BINS; ++j)
    {
      out[static_cast<int>(threadIdx.x) * BINS + j] = bins[j];
    }
  }
};

__global__ void rank_callback_kernel(const unsigned* keys_in, int* bins_out)
{
  __shared__ RankT::TempStorage temp_storage;
  unsigned keys[rank_keys];
  int ranks[rank_keys];
  for (int i = 0; i < rank_keys; ++i)
  {
    keys[i] = keys_in[threadIdx.x * rank_keys + i];
  }
  RankT rank(temp_storage);
  rank.RankKeys(keys, ranks, lib::BFEDigitExtractor<unsigned>(4, rank_bits));
  rank.CallBack<rank_keys>(StoreBins{bins_out});
}

template <int TILE_ITEMS, lib::GridMappingStrategy STRATEGY>
__global__ void even_share_kernel(lib::GridEvenShare<long long> even_share, long long* out)
{
  even_share.BlockInit<TILE_ITEMS>(static_cast<int>(blockIdx.x), lib::detail::constant_t<STRATEGY>{});
  if (threadIdx.x == 0)
  {
    out[3 * blockIdx.x + 0] = even_share.block_offset;
    out[3 * blockIdx.x + 1] = even_share.block_end;
    out[3 * blockIdx.x + 2] = even_share.block_stride;
  }
}

// ---- host references -------------------------------------------------------------------------
//! [block_offset, block_end, block_stride] of every block under GRID_MAPPING_RAKE: whole tiles,
//! the first (tiles % grid) blocks one tile more, the last range clipped to num_items.
std::vector<long long> rake_reference(long long num_items, int max_grid, int tile)
{
  const long long tiles = (num_items + tile - 1) / tile;
  const long long grid  = std::max<long long>(1, std::min<long long>(tiles, max_grid));
  std::vector<long long> out;
  long long offset = 0;
  for (long long b = 0; b < grid; ++b)
  {
    const long long my_tiles = tiles / grid + (b < tiles % grid ? 1 : 0);
    const long long end      = std::min(num_items, offset + my_tiles * tile);
    out.insert(out.end(), {offset, end, tile});
    offset = end;
  }
  return out;
}

std::vector<long long> strip_mine_reference(long long num_items, int max_grid, int tile)
{
  const long long tiles = (num_items + tile - 1) / tile;
  const long long grid  = std::max<long long>(1, std::min<long long>(tiles, max_grid));
  std::vector<long long> out;
  for (long long b = 0; b < grid; ++b)
  {
    out.insert(out.end(), {b * tile, num_items, grid * tile});
  }
  return out;
}

template <int TILE_ITEMS, lib::GridMappingStrategy STRATEGY>
std::vector<long long> even_share_on_host(long long num_items, int max_grid)
{
  lib::GridEvenShare<long long> even_share;
  even_share.DispatchInit(num_items, max_grid, TILE_ITEMS);
  std::vector<long long> out;
  for (int b = 0; b < even_share.grid_size; ++b)
  {
    lib::GridEvenShare<long long> block = even_share;
    block.BlockInit<TILE_ITEMS>(b, lib::detail::constant_v<STRATEGY>);
    out.insert(out.end(), {block.block_offset, block.block_end, block.block_stride});
  }
  return out;
}
} // namespace

TEST_CASE("util_math scales items per thread and finds midpoints", "[util][cub_names]")
{
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  strata_test::generator<int> gen(seed);
  for (int trial = 0; trial < 200; ++trial)
  {
    const int nominal = gen(1, 64);
    const int bytes   = gen(1, 64);
    INFO("nominal " << nominal << ", combined bytes " << bytes);
    CHECK(lib::Nominal4BItemsToItemsCombined(nominal, bytes) == std::clamp(nominal * 8 / bytes, 1, nominal));
    CHECK(lib::Nominal4BItemsToItems<bytes12>(nominal) == std::clamp(nominal * 4 / 12, 1, nominal));
    CHECK(lib::Nominal8BItemsToItems<bytes32>(nominal) == std::clamp((nominal * 8 + 31) / 32, 1, nominal));
    // MidPoint avoids the overflow of begin + end; end - begin must still fit.
    const int a = gen(0, INT_MAX), b = gen(0, INT_MAX);
    const long long lo = std::min(a, b), hi = std::max(a, b);
    CHECK(lib::MidPoint(static_cast<int>(lo), static_cast<int>(hi)) == static_cast<int>(lo + (hi - lo) / 2));
  }
}

TEST_CASE("CubVector adds and subtracts element by element", "[util][cub_names]")
{
  const auto seed = strata_test::seed(1);
  INFO("seed " << seed);
  const std::vector<int> v = strata_test::random_vector<int>(8, seed, -1000, 1000);
  lib::CubVector<int, 4> a{};
  lib::CubVector<int, 4> b{};
  a.x = v[0], a.y = v[1], a.z = v[2], a.w = v[3];
  b.x = v[4], b.y = v[5], b.z = v[6], b.w = v[7];
  const lib::CubVector<int, 4> sum = a + b;
  const lib::CubVector<int, 4> dif = a - b;
  CHECK(std::vector<int>{sum.x, sum.y, sum.z, sum.w}
        == std::vector<int>{v[0] + v[4], v[1] + v[5], v[2] + v[6], v[3] + v[7]});
  CHECK(std::vector<int>{dif.x, dif.y, dif.z, dif.w}
        == std::vector<int>{v[0] - v[4], v[1] - v[5], v[2] - v[6], v[3] - v[7]});

  lib::CubVector<long long, 3> c{};
  c.x = v[0], c.y = v[1], c.z = v[2];
  const lib::CubVector<long long, 3> twice = c + c;
  CHECK(twice.x == 2LL * v[0]);
  CHECK(twice.z == 2LL * v[2]);
}

TEST_CASE("BlockScanRunningPrefixOp returns the running total and then adds the aggregate", "[util][cub_names]")
{
  const auto seed = strata_test::seed(2);
  INFO("seed " << seed);
  const std::vector<int> aggregates = strata_test::random_vector<int>(10, seed, -1000, 1000);
  const int start                   = aggregates[0];
  lib::BlockScanRunningPrefixOp<int, ::cuda::std::plus<>> sums(start, ::cuda::std::plus<>{});
  lib::BlockScanRunningPrefixOp<int, ::cuda::maximum<>> maxima(::cuda::maximum<>{});
  int expected_sum = start;
  int expected_max = 0;
  for (const int aggregate : aggregates)
  {
    CHECK(sums(aggregate) == expected_sum);
    CHECK(maxima(aggregate) == expected_max);
    expected_sum += aggregate;
    expected_max = std::max(expected_max, aggregate);
    CHECK(sums.running_total == expected_sum);
    CHECK(maxima.running_total == expected_max);
  }
}

TEST_CASE("FutureValue converts to its value through a const object", "[util][cub_names]")
{
  int value = static_cast<int>(strata_test::seed(3) % 100000) + 1;
  const lib::FutureValue<int> future(&value);
  const int read = future;
  CHECK(read == value);
  value += 7; // read when converted, not when constructed
  CHECK(static_cast<int>(future) == value);
}

TEST_CASE("BaseDigitExtractor merges the zeros of floating-point keys only", "[util][cub_names]")
{
  using FloatTraits             = lib::Traits<float>;
  const unsigned twiddled_minus = FloatTraits::TwiddleIn(0x80000000u);
  const unsigned twiddled_plus  = FloatTraits::TwiddleIn(0u);
  REQUIRE(twiddled_minus != twiddled_plus);
  CHECK(lib::BaseDigitExtractor<float>::ProcessFloatMinusZero(twiddled_minus) == twiddled_plus);
  CHECK(lib::BaseDigitExtractor<int>::ProcessFloatMinusZero(twiddled_minus) == twiddled_minus);
  const auto seed = strata_test::seed(4);
  INFO("seed " << seed);
  for (const unsigned bits : strata_test::random_vector<unsigned>(64, seed))
  {
    if (bits != twiddled_minus)
    {
      CHECK(lib::BaseDigitExtractor<float>::ProcessFloatMinusZero(bits) == bits);
    }
  }
}

TEST_CASE("GridEvenShare::BlockInit with a strategy tag maps blocks to tiles (host)", "[util][cub_names]")
{
  const auto seed = strata_test::seed(5);
  INFO("seed " << seed);
  strata_test::generator<long long> gen(seed);
  for (int trial = 0; trial < 50; ++trial)
  {
    const long long num_items = gen(1, 100000);
    const int max_grid        = static_cast<int>(gen(1, 300));
    INFO("num_items " << num_items << ", max grid " << max_grid);
    strata_test::check_equal(rake_reference(num_items, max_grid, 96),
                             even_share_on_host<96, lib::GRID_MAPPING_RAKE>(num_items, max_grid));
    strata_test::check_equal(strip_mine_reference(num_items, max_grid, 96),
                             even_share_on_host<96, lib::GRID_MAPPING_STRIP_MINE>(num_items, max_grid));
  }
}

TEST_CASE("STRATA_DEBUG returns an error argument", "[util][cub_names]")
{
  CHECK(STRATA_DEBUG(cudaErrorInvalidValue) == cudaErrorInvalidValue);
}

TEST_CASE("STRATA_DEBUG and STRATA_DEBUG_EXIT pass success through", "[util][cub_names][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  REQUIRE(cudaPeekAtLastError() == cudaSuccess);
  CHECK(STRATA_DEBUG(cudaSuccess) == cudaSuccess);
  STRATA_DEBUG_EXIT(cudaSuccess);
  SUCCEED("STRATA_DEBUG_EXIT returned");
}

TEMPLATE_TEST_CASE_SIG("BlockScanRunningPrefixOp carries a block's scan across tiles", "[util][cub_names][gpu]",
                       ((lib::BlockScanAlgorithm ALGORITHM), ALGORITHM), lib::BLOCK_SCAN_RAKING,
                       lib::BLOCK_SCAN_WARP_SCANS)
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(6);
  INFO("seed " << seed);
  strata_test::generator<int> gen(seed);
  const int num_tiles = gen(2, 9);
  const int start     = gen(-100000, 100000);
  const int n         = num_tiles * scan_tile;
  INFO("tiles " << num_tiles << ", start " << start);
  const std::vector<int> in = strata_test::random_vector<int>(static_cast<std::size_t>(n), seed + 1, 0, 1000);

  std::vector<int> sums(n), maxima(n);
  int running_sum = start;
  int running_max = 0;
  for (int i = 0; i < n; ++i)
  {
    sums[i] = running_sum;
    running_sum += in[i];
    running_max = std::max(running_max, in[i]);
    maxima[i]   = running_max;
  }

  strata_test::device_buffer<int> d_in(in);
  strata_test::device_buffer<int> d_sums(n), d_maxima(n);
  d_sums.poison();
  d_maxima.poison();
  running_prefix_kernel<ALGORITHM><<<1, scan_threads>>>(d_in.data(), d_sums.data(), d_maxima.data(), num_tiles, start);
  strata_test::check_launch();
  strata_test::check_equal(sums, d_sums.download());
  strata_test::check_equal(maxima, d_maxima.download());
}

TEST_CASE("MatchAny groups the lanes of a full or a partial warp", "[util][cub_names][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(7);
  INFO("seed " << seed);
  const auto check = [&](auto kernel, int threads, unsigned label_mask, std::uint64_t salt)
  {
    std::vector<unsigned> labels = strata_test::random_vector<unsigned>(static_cast<std::size_t>(threads), seed + salt);
    strata_test::generator<unsigned> gen(seed + salt + 1);
    for (auto& label : labels)
    {
      label = (label & ~0x7u) | gen(0, 5); // few distinct low bits: groups of several lanes
    }
    std::vector<unsigned> expected(static_cast<std::size_t>(threads), 0);
    for (int t = 0; t < threads; ++t)
    {
      const int warp_base = t / 32 * 32;
      for (int u = warp_base; u < std::min(threads, warp_base + 32); ++u)
      {
        if ((labels[u] & label_mask) == (labels[t] & label_mask))
        {
          expected[t] |= 1u << (u - warp_base);
        }
      }
    }
    strata_test::device_buffer<unsigned> d_labels(labels);
    strata_test::device_buffer<unsigned> d_masks(static_cast<std::size_t>(threads));
    d_masks.poison();
    kernel<<<1, threads>>>(d_labels.data(), d_masks.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_masks.download());
  };
  check(match_any_kernel<3, 20>, 20, 0x7u, 10);
  check(match_any_kernel<2, 7>, 7, 0x3u, 20);
  check(match_any_kernel<5, 32>, 64, 0x1Fu, 30);
}

TEST_CASE("ThreadExit ends the calling thread", "[util][cub_names][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(8);
  INFO("seed " << seed);
  constexpr int threads     = 96;
  const std::vector<int> in = strata_test::random_vector<int>(threads, seed, -100000, 100000);
  int poison                = 0;
  std::memset(&poison, strata_test::poison_byte, sizeof(poison));
  std::vector<int> expected(threads);
  for (int t = 0; t < threads; ++t)
  {
    expected[t] = t % 3 == 0 ? poison : in[t] + 1;
  }
  strata_test::device_buffer<int> d_in(in);
  strata_test::device_buffer<int> d_out(threads);
  d_out.poison();
  thread_exit_kernel<<<1, threads>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  strata_test::check_equal(expected, d_out.download());
}

TEST_CASE("UnrolledThreadLoad and UnrolledCopy copy consecutive items", "[util][cub_names][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(9);
  INFO("seed " << seed);
  constexpr int threads     = 64;
  const std::vector<int> in = strata_test::random_vector<int>(4 * threads, seed);
  std::vector<int> counts(3 * threads);
  for (int t = 0; t < threads; ++t)
  {
    for (int i = 0; i < 3; ++i)
    {
      counts[3 * t + i] = 100 * t + i;
    }
  }
  strata_test::device_buffer<int> d_in(in);
  strata_test::device_buffer<int> d_loaded(4 * threads), d_copied(3 * threads);
  d_loaded.poison();
  d_copied.poison();
  unrolled_kernel<<<1, threads>>>(d_in.data(), d_loaded.data(), d_copied.data());
  strata_test::check_launch();
  strata_test::check_equal(in, d_loaded.download());
  strata_test::check_equal(counts, d_copied.download());
}

TEST_CASE("BlockRadixRankMatch::CallBack hands each thread its digits' counts", "[util][cub_names][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(10);
  INFO("seed " << seed);
  constexpr int bins_per_thread    = RankT::BINS_TRACKED_PER_THREAD;
  constexpr int digits             = 1 << rank_bits;
  const std::vector<unsigned> keys = strata_test::random_vector<unsigned>(rank_threads * rank_keys, seed);
  std::vector<int> expected(rank_threads * bins_per_thread, 0);
  for (const unsigned key : keys)
  {
    ++expected[(key >> 4) & (digits - 1)]; // bin b of thread t is entry t * bins_per_thread + b = digit
  }
  strata_test::device_buffer<unsigned> d_keys(keys);
  strata_test::device_buffer<int> d_bins(expected.size());
  d_bins.poison();
  rank_callback_kernel<<<1, rank_threads>>>(d_keys.data(), d_bins.data());
  strata_test::check_launch();
  strata_test::check_equal(expected, d_bins.download());
}

TEST_CASE("GridEvenShare::BlockInit with a strategy tag in a kernel", "[util][cub_names][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(11);
  INFO("seed " << seed);
  strata_test::generator<long long> gen(seed);
  const long long num_items = gen(1000, 1000000);
  const int max_grid        = static_cast<int>(gen(2, 200));
  INFO("num_items " << num_items << ", max grid " << max_grid);
  lib::GridEvenShare<long long> even_share;
  even_share.DispatchInit(num_items, max_grid, 256);
  const auto run = [&](auto kernel)
  {
    strata_test::device_buffer<long long> d_out(3 * static_cast<std::size_t>(even_share.grid_size));
    d_out.poison();
    kernel<<<even_share.grid_size, 32>>>(even_share, d_out.data());
    strata_test::check_launch();
    return d_out.download();
  };
  strata_test::check_equal(rake_reference(num_items, max_grid, 256),
                           run(even_share_kernel<256, lib::GRID_MAPPING_RAKE>));
  strata_test::check_equal(strip_mine_reference(num_items, max_grid, 256),
                           run(even_share_kernel<256, lib::GRID_MAPPING_STRIP_MINE>));
}

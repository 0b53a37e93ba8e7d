// Tests of strata/block/block_radix_rank.cuh: BlockRadixRank (basic and memoized outer scan, 4-
// and 8-byte counter words), BlockRadixRankMatch and BlockRadixRankMatchEarlyCounts (match.any and
// atomic-or matching, several histogram parts), ascending and descending, RADIX_BITS 1..8, block
// shapes from 32 threads to 1024 and 2D/3D, against a host stable counting rank in the order each
// ranker promises (blocked for BlockRadixRank, warp-striped for the match rankers). Also the
// exclusive digit prefixes, the counts callback, and CUB's documented example.
#include <strata/block/block_radix_rank.cuh>

#include "common/shapes.cuh"
#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
constexpr int rank_blocks = 4;

enum class ranker
{
  basic, // BlockRadixRank: stable in blocked order, no callback
  match, // BlockRadixRankMatch: warp-striped order, callback
  early  // BlockRadixRankMatchEarlyCounts: warp-striped order, callback
};

//! One ranker with its block shape, items per thread and digit width.
template <typename RankT, ranker KIND, int BX, int BY, int BZ, int IPT, int BITS, bool DESCENDING, bool SHIFT = false>
struct rank_config : strata_test::block_shape<BX, BY, BZ, IPT>
{
  using rank_type                  = RankT;
  static constexpr ranker kind     = KIND;
  static constexpr int bits        = BITS;
  static constexpr int digits      = 1 << BITS;
  static constexpr bool descending = DESCENDING;
  static constexpr bool shift      = SHIFT; // ShiftDigitExtractor instead of BFEDigitExtractor
};

template <int BINS>
struct record_counts
{
  int* counts; // this block's counts, by digit
  int first_bin;

  __device__ void operator()(int (&bins)[BINS])
  {
    for (int j = 0; j < BINS; ++j)
    {
      counts[first_bin + j] = bins[j];
    }
  }
};

template <typename RankT>
inline constexpr int bins_of = RankT::BINS_TRACKED_PER_THREAD;

//! Block b ranks keys[b * TILE ..] (blocked: thread t holds t * IPT + i) by the digit at
//! bit_starts[b]; writes ranks, the digits' exclusive prefixes and (match rankers) the counts.
//! Out-of-range bins of the per-thread outputs go to a scratch area past the digits.
template <typename ConfigT>
__global__ void __launch_bounds__(ConfigT::threads)
    rank_kernel(const unsigned int* keys_in, const int* bit_starts, int* ranks_out, int* prefix_out, int* counts_out)
{
  using RankT         = typename ConfigT::rank_type;
  constexpr int IPT   = ConfigT::items;
  constexpr int BINS  = bins_of<RankT>;
  constexpr int SLOTS = ConfigT::threads * BINS; // prefix/count slots per block (>= digits)
  __shared__ typename RankT::TempStorage temp_storage;

  const int rank  = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block = static_cast<int>(blockIdx.x);
  unsigned int keys[IPT];
  for (int i = 0; i < IPT; ++i)
  {
    keys[i] = keys_in[block * ConfigT::tile + rank * IPT + i];
  }
  int ranks[IPT];
  int prefix[BINS];
  for (int j = 0; j < BINS; ++j)
  {
    prefix[j] = -7; // left alone for bins past the digits
  }
  const unsigned int bit_start = static_cast<unsigned int>(bit_starts[block]);
  auto run                     = [&](auto extractor)
  {
    if constexpr (ConfigT::kind == ranker::basic)
    {
      RankT(temp_storage).RankKeys(keys, ranks, extractor, prefix);
    }
    else
    {
      record_counts<BINS> callback{counts_out + block * SLOTS, rank * BINS};
      RankT(temp_storage).RankKeys(keys, ranks, extractor, prefix, callback);
    }
  };
  if constexpr (ConfigT::shift)
  {
    run(strata::ShiftDigitExtractor<unsigned int>(bit_start, ConfigT::bits));
  }
  else
  {
    run(strata::BFEDigitExtractor<unsigned int>(bit_start, ConfigT::bits));
  }
  for (int i = 0; i < IPT; ++i)
  {
    ranks_out[block * ConfigT::tile + rank * IPT + i] = ranks[i];
  }
  for (int j = 0; j < BINS; ++j)
  {
    prefix_out[block * SLOTS + rank * BINS + j] = prefix[j];
  }
}

struct rank_reference
{
  std::vector<int> ranks;  // by blocked position
  std::vector<int> prefix; // by digit: rank of its first key
  std::vector<int> counts; // by digit
};

//! A stable counting rank of one tile: keys of lower digits (higher if descending) first, equal
//! digits in `order` (a list of blocked positions).
rank_reference reference_rank(const std::vector<unsigned int>& keys, const std::vector<int>& order,
                              unsigned int bit_start, int bits, bool descending)
{
  const int digits = 1 << bits;
  rank_reference ref{std::vector<int>(keys.size()), std::vector<int>(digits), std::vector<int>(digits, 0)};
  auto digit_of = [&](unsigned int key) { return static_cast<int>((key >> bit_start) & ((1u << bits) - 1u)); };
  for (unsigned int key : keys)
  {
    ++ref.counts[digit_of(key)];
  }
  int running = 0;
  for (int k = 0; k < digits; ++k)
  {
    const int digit   = descending ? digits - 1 - k : k;
    ref.prefix[digit] = running;
    running += ref.counts[digit];
  }
  std::vector<int> next = ref.prefix;
  for (int position : order)
  {
    ref.ranks[position] = next[digit_of(keys[position])]++;
  }
  return ref;
}

template <typename ConfigT>
void check_rank(std::uint64_t salt)
{
  using RankT              = typename ConfigT::rank_type;
  constexpr int TILE       = ConfigT::tile;
  constexpr int IPT        = ConfigT::items;
  constexpr int THREADS    = ConfigT::threads;
  constexpr int SLOTS      = THREADS * bins_of<RankT>;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO("block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", " << IPT
                << " keys per thread, " << ConfigT::bits << " radix bits, "
                << (ConfigT::descending ? "descending" : "ascending") << ", seed " << seed);

  std::vector<unsigned int> keys = strata_test::random_vector<unsigned int>(rank_blocks * TILE, seed);
  // Block 1 has only two distinct keys (long runs of one digit); block 2 only one.
  for (int i = 0; i < TILE; ++i)
  {
    keys[TILE + i]     = (keys[TILE + i] & 1u) ? 0xA5A5A5A5u : 0x5A5A5A5Au;
    keys[2 * TILE + i] = 0x12345678u;
  }
  strata_test::generator<int> gen(seed + 1);
  std::vector<int> bit_starts(rank_blocks);
  for (int b = 0; b < rank_blocks; ++b)
  {
    bit_starts[b] = b == 0 ? 0 : gen(0, 32 - ConfigT::bits);
  }

  // The order in which equal digits rank: blocked, or warp-striped (warp, item, lane).
  std::vector<int> order(TILE);
  std::iota(order.begin(), order.end(), 0);
  if (ConfigT::kind != ranker::basic)
  {
    auto striped_key = [](int position)
    {
      const int thread = position / IPT;
      const int item   = position % IPT;
      return std::make_tuple(thread / 32, item, thread % 32);
    };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return striped_key(a) < striped_key(b); });
  }

  strata_test::device_buffer<unsigned int> d_keys(keys);
  strata_test::device_buffer<int> d_bit_starts(bit_starts);
  strata_test::device_buffer<int> d_ranks(keys.size());
  strata_test::device_buffer<int> d_prefix(static_cast<std::size_t>(rank_blocks) * SLOTS);
  strata_test::device_buffer<int> d_counts(static_cast<std::size_t>(rank_blocks) * SLOTS);
  d_ranks.poison();
  d_prefix.poison();
  d_counts.poison();
  rank_kernel<ConfigT><<<rank_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(
      d_keys.data(), d_bit_starts.data(), d_ranks.data(), d_prefix.data(), d_counts.data());
  strata_test::check_launch();
  const std::vector<int> ranks  = d_ranks.download();
  const std::vector<int> prefix = d_prefix.download();
  const std::vector<int> counts = d_counts.download();

  for (int b = 0; b < rank_blocks; ++b)
  {
    INFO("block " << b << ", digit at bit " << bit_starts[b]);
    const std::vector<unsigned int> tile_keys(keys.begin() + b * TILE, keys.begin() + (b + 1) * TILE);
    const rank_reference ref =
        reference_rank(tile_keys, order, static_cast<unsigned int>(bit_starts[b]), ConfigT::bits, ConfigT::descending);
    const std::vector<int> tile_ranks(ranks.begin() + b * TILE, ranks.begin() + (b + 1) * TILE);
    {
      INFO("ranks");
      strata_test::check_equal(ref.ranks, tile_ranks);
    }
    const std::vector<int> tile_prefix(prefix.begin() + b * SLOTS, prefix.begin() + b * SLOTS + ConfigT::digits);
    {
      INFO("exclusive_digit_prefix");
      strata_test::check_equal(ref.prefix, tile_prefix);
    }
    if (ConfigT::kind != ranker::basic)
    {
      const std::vector<int> tile_counts(counts.begin() + b * SLOTS, counts.begin() + b * SLOTS + ConfigT::digits);
      {
        INFO("callback counts");
        strata_test::check_equal(ref.counts, tile_counts);
      }
    }
  }
}

template <int BX, int BITS, bool DESC, bool MEMO = true,
          strata::BlockScanAlgorithm SCAN = strata::BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM = cudaSharedMemBankSizeFourByte, int BY = 1, int BZ = 1>
using basic_t = strata::BlockRadixRank<BX, BITS, DESC, MEMO, SCAN, SMEM, BY, BZ>;

template <int BX, int BITS, bool DESC, strata::BlockScanAlgorithm SCAN = strata::BLOCK_SCAN_WARP_SCANS, int BY = 1,
          int BZ = 1>
using match_t = strata::BlockRadixRankMatch<BX, BITS, DESC, SCAN, BY, BZ>;

template <int BX, int BITS, bool DESC, strata::WarpMatchAlgorithm MATCH, int PARTS,
          strata::BlockScanAlgorithm SCAN = strata::BLOCK_SCAN_WARP_SCANS>
using early_t = strata::BlockRadixRankMatchEarlyCounts<BX, BITS, DESC, SCAN, MATCH, PARTS>;

constexpr auto four_bytes  = cudaSharedMemBankSizeFourByte;
constexpr auto eight_bytes = cudaSharedMemBankSizeEightByte;
constexpr auto raking      = strata::BLOCK_SCAN_RAKING;
constexpr auto memoize     = strata::BLOCK_SCAN_RAKING_MEMOIZE;
constexpr auto warp_scans  = strata::BLOCK_SCAN_WARP_SCANS;

// clang-format off
using basic_configs = std::tuple<
  rank_config<basic_t<128, 4, false>,                                      ranker::basic, 128, 1, 1, 4, 4, false>,
  rank_config<basic_t<96, 5, true, false>,                                 ranker::basic, 96, 1, 1, 3, 5, true, true>,
  rank_config<basic_t<32, 8, false, true, raking, eight_bytes>,            ranker::basic, 32, 1, 1, 11, 8, false>,
  rank_config<basic_t<8, 1, true, false, warp_scans, four_bytes, 4, 2>,    ranker::basic, 8, 4, 2, 11, 1, true>,
  rank_config<basic_t<1024, 2, false, true, memoize>,                      ranker::basic, 1024, 1, 1, 7, 2, false>,
  rank_config<basic_t<256, 6, true, true, warp_scans, eight_bytes>,        ranker::basic, 256, 1, 1, 1, 6, true, true>,
  rank_config<basic_t<16, 7, false, false, raking, four_bytes, 8>,         ranker::basic, 16, 8, 1, 3, 7, false>,
  rank_config<basic_t<80, 3, false, true, warp_scans, eight_bytes>,        ranker::basic, 80, 1, 1, 4, 3, false>>;

using match_configs = std::tuple<
  rank_config<match_t<128, 8, false>,                       ranker::match, 128, 1, 1, 4, 8, false>,
  rank_config<match_t<80, 3, true, raking>,                 ranker::match, 80, 1, 1, 7, 3, true, true>,
  rank_config<match_t<16, 6, false, warp_scans, 8>,         ranker::match, 16, 8, 1, 11, 6, false>,
  rank_config<match_t<32, 7, true>,                         ranker::match, 32, 1, 1, 1, 7, true>,
  rank_config<match_t<8, 1, false, memoize, 4, 2>,          ranker::match, 8, 4, 2, 3, 1, false>,
  rank_config<match_t<1024, 5, true>,                       ranker::match, 1024, 1, 1, 4, 5, true>>;

using early_configs = std::tuple<
  rank_config<early_t<256, 8, false, strata::WARP_MATCH_ANY, 1>,              ranker::early, 256, 1, 1, 4, 8, false>,
  rank_config<early_t<128, 4, true, strata::WARP_MATCH_ATOMIC_OR, 2, raking>, ranker::early, 128, 1, 1, 3, 4, true, true>,
  rank_config<early_t<64, 8, true, strata::WARP_MATCH_ATOMIC_OR, 1>,          ranker::early, 64, 1, 1, 7, 8, true>,
  rank_config<early_t<32, 1, false, strata::WARP_MATCH_ANY, 4>,               ranker::early, 32, 1, 1, 11, 1, false>,
  rank_config<early_t<1024, 6, false, strata::WARP_MATCH_ANY, 2>,             ranker::early, 1024, 1, 1, 1, 6, false>,
  rank_config<early_t<96, 2, true, strata::WARP_MATCH_ANY, 1, memoize>,       ranker::early, 96, 1, 1, 11, 2, true>>;
// clang-format on

__global__ void documented_example_kernel(int* ranks_out)
{
  using BlockRadixRankT = strata::BlockRadixRank<2, 5, false>;
  __shared__ BlockRadixRankT::TempStorage temp_storage;
  const unsigned int all_keys[2][2] = {{16, 10}, {9, 11}};
  unsigned int keys[2]              = {all_keys[threadIdx.x][0], all_keys[threadIdx.x][1]};
  int ranks[2];
  BlockRadixRankT(temp_storage).RankKeys(keys, ranks, strata::BFEDigitExtractor<unsigned int>(0, 5));
  ranks_out[2 * threadIdx.x]     = ranks[0];
  ranks_out[2 * threadIdx.x + 1] = ranks[1];
}
} // namespace

TEST_CASE("BlockRadixRank: CUB's example, keys {[16,10],[9,11]} rank {[3,1],[0,2]}", "[block][radix_rank]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_ranks(4);
  d_ranks.poison();
  documented_example_kernel<<<1, 2>>>(d_ranks.data());
  strata_test::check_launch();
  CHECK(d_ranks.download() == std::vector<int>{3, 1, 0, 2});
}

TEMPLATE_LIST_TEST_CASE("BlockRadixRank ranks stably in blocked order", "[block][radix_rank]", basic_configs)
{
  STRATA_TEST_REQUIRE_GPU();
  check_rank<TestType>(31);
}

TEMPLATE_LIST_TEST_CASE("BlockRadixRankMatch ranks stably in warp-striped order", "[block][radix_rank]", match_configs)
{
  STRATA_TEST_REQUIRE_GPU();
  check_rank<TestType>(37);
}

TEMPLATE_LIST_TEST_CASE("BlockRadixRankMatchEarlyCounts ranks stably in warp-striped order", "[block][radix_rank]",
                        early_configs)
{
  STRATA_TEST_REQUIRE_GPU();
  check_rank<TestType>(41);
}

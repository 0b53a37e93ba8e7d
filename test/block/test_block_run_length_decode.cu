// Tests of strata/block/block_run_length_decode.cuh: all four constructors (run lengths or run
// offsets; caller or private TempStorage), RunLengthDecode with and without item offsets, and
// windows from any decoded offset, over item types, block shapes in {32, 80, 96, 128, 256, 1024,
// 16x8, 8x4x2}, runs per thread and decoded items per thread in {1, 3, 4, 7, 11}, and several
// offset and length types. Every block of a grid gets its own kind of runs: short, all of length
// 1, some long ones (many windows), empty runs anywhere, empty runs at the end (CUB's padding),
// only the last run non-empty, and nothing at all.
#include <strata/block/block_run_length_decode.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace
{
constexpr int rld_blocks = 7; // one per kind of runs

template <typename ItemT, int BX, int BY, int BZ, int RPT, int DIPT, typename OffsetT, typename LengthT, typename RelT>
struct rld_config
{
  using item_type                  = ItemT;
  using offset_type                = OffsetT; // DecodedOffsetT
  using length_type                = LengthT; // the run lengths' type
  using relative_type              = RelT;    // the item offsets' type
  static constexpr int block_dim_x = BX;
  static constexpr int block_dim_y = BY;
  static constexpr int block_dim_z = BZ;
  static constexpr int runs        = RPT;
  static constexpr int decoded     = DIPT;
  static constexpr int threads     = BX * BY * BZ;
  static constexpr int block_runs  = threads * RPT;
  static constexpr int window      = threads * DIPT;
};

//! The kernel's inputs (runs of all blocks, run by run; per-block window starts) and outputs
//! (decoded items of all blocks, block b's decoded item k at out_base[b] + k; totals per thread).
template <typename ConfigT>
struct rld_args
{
  using item_t   = typename ConfigT::item_type;
  using offset_t = typename ConfigT::offset_type;
  using rel_t    = typename ConfigT::relative_type;

  const item_t* values;
  const typename ConfigT::length_type* lengths;
  const offset_t* offsets;
  const unsigned long long* out_base;
  const offset_t* totals;
  const offset_t* from_windows; // first window of phase 2
  const offset_t* from_single;  // the window of phase 3
  const offset_t* from_last;    // the window of phase 4

  item_t* items_lengths; // phase 1: lengths, caller storage, every window from 0, item offsets
  rel_t* rel_lengths;
  item_t* items_offsets; // phase 2: offsets, private storage, windows from from_windows
  item_t* items_single;  // phase 3: lengths, private storage, one window, item offsets
  rel_t* rel_single;
  item_t* items_last; // phase 4: offsets, caller storage, one window, item offsets
  rel_t* rel_last;
  unsigned long long* totals_caller; // per thread: total_decoded_size of phase 1
  offset_t* totals_private;          // per thread: total_decoded_size of phase 3
};

//! Stores the items of one window (decoded offsets window + rank * DIPT + i) that lie before
//! `total`; `rel` may be null.
template <int DIPT, typename ItemT, typename OffsetT, typename RelT>
__device__ void store_window(const ItemT (&items)[DIPT], const RelT (&rel)[DIPT], OffsetT window, OffsetT total,
                             int rank, ItemT* out_items, RelT* out_rel)
{
#pragma unroll
  for (int i = 0; i < DIPT; ++i)
  {
    const unsigned long long offset = static_cast<unsigned long long>(window) + rank * DIPT + i;
    if (offset < total)
    {
      out_items[offset] = items[i];
      if (out_rel != nullptr)
      {
        out_rel[offset] = rel[i];
      }
    }
  }
}

template <typename ConfigT>
__global__ void __launch_bounds__(ConfigT::threads, 1) rld_kernel(rld_args<ConfigT> args)
{
  using ItemT                 = typename ConfigT::item_type;
  using OffsetT               = typename ConfigT::offset_type;
  using LengthT               = typename ConfigT::length_type;
  using RelT                  = typename ConfigT::relative_type;
  constexpr int RPT           = ConfigT::runs;
  constexpr int DIPT          = ConfigT::decoded;
  constexpr int WINDOW        = ConfigT::window;
  using BlockRunLengthDecodeT = strata::BlockRunLengthDecode<ItemT, ConfigT::block_dim_x, RPT, DIPT, OffsetT,
                                                             ConfigT::block_dim_y, ConfigT::block_dim_z>;
  __shared__ typename BlockRunLengthDecodeT::TempStorage temp_storage;

  const int rank  = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block = static_cast<int>(blockIdx.x);
  const int first = (block * ConfigT::threads + rank) * RPT;
  ItemT values[RPT];
  LengthT lengths[RPT];
  OffsetT offsets[RPT];
  for (int i = 0; i < RPT; ++i)
  {
    values[i]  = args.values[first + i];
    lengths[i] = args.lengths[first + i];
    offsets[i] = args.offsets[first + i];
  }
  const OffsetT total    = args.totals[block];
  const auto base        = args.out_base[block];
  const int thread_slot  = block * ConfigT::threads + rank;
  RelT* const no_offsets = nullptr;

  ItemT items[DIPT];
  RelT rel[DIPT];

  unsigned long long total_caller = 0;
  BlockRunLengthDecodeT by_lengths(temp_storage, values, lengths, total_caller);
  args.totals_caller[thread_slot] = total_caller;
  for (OffsetT window = 0; window < total; window = static_cast<OffsetT>(window + WINDOW))
  {
    by_lengths.RunLengthDecode(items, rel, window);
    store_window(items, rel, window, total, rank, args.items_lengths + base, args.rel_lengths + base);
  }

  BlockRunLengthDecodeT by_offsets(values, offsets);
  for (OffsetT window = args.from_windows[block]; window < total; window = static_cast<OffsetT>(window + WINDOW))
  {
    by_offsets.RunLengthDecode(items, window);
    store_window(items, rel, window, total, rank, args.items_offsets + base, no_offsets);
  }
  __syncthreads(); // the private TempStorage is used again

  OffsetT total_private = 0;
  BlockRunLengthDecodeT private_lengths(values, lengths, total_private);
  args.totals_private[thread_slot] = total_private;
  private_lengths.RunLengthDecode(items, rel, args.from_single[block]);
  store_window(items, rel, args.from_single[block], total, rank, args.items_single + base, args.rel_single + base);
  __syncthreads(); // the caller's TempStorage is used again

  BlockRunLengthDecodeT caller_offsets(temp_storage, values, offsets);
  caller_offsets.RunLengthDecode(items, rel, args.from_last[block]);
  store_window(items, rel, args.from_last[block], total, rank, args.items_last + base, args.rel_last + base);
}

template <typename ConfigT>
void check_block_run_length_decode(std::uint64_t salt)
{
  using ItemT              = typename ConfigT::item_type;
  using OffsetT            = typename ConfigT::offset_type;
  using LengthT            = typename ConfigT::length_type;
  using RelT               = typename ConfigT::relative_type;
  constexpr int RUNS       = ConfigT::block_runs;
  constexpr int WINDOW     = ConfigT::window;
  constexpr int THREADS    = ConfigT::threads;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO("block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", "
                << ConfigT::runs << " runs and " << ConfigT::decoded << " decoded items per thread, seed " << seed);

  // Runs of every block (see the file comment for the kinds).
  const std::vector<ItemT> values = strata_test::random_vector<ItemT>(rld_blocks * RUNS, seed);
  strata_test::generator<long long> gen(seed + 1);
  const long long max_length = static_cast<long long>(std::min<unsigned long long>(
      std::numeric_limits<LengthT>::max(), static_cast<unsigned long long>(std::numeric_limits<long long>::max())));
  const auto capped          = [&](long long lo, long long hi)
  { return static_cast<LengthT>(std::min(gen(lo, hi), max_length)); };
  std::vector<LengthT> lengths(rld_blocks * RUNS);
  for (int r = 0; r < RUNS; ++r)
  {
    lengths[0 * RUNS + r] = capped(1, 5);
    lengths[1 * RUNS + r] = 1;
    lengths[2 * RUNS + r] = r % 32 == 0 ? capped(WINDOW / 2, 2 * WINDOW) : capped(1, 4);
    lengths[3 * RUNS + r] = gen(0, 9) < 4 ? 0 : capped(1, 6);
    lengths[4 * RUNS + r] = r < RUNS / 2 ? capped(1, 8) : 0;
    lengths[5 * RUNS + r] = r == RUNS - 1 ? capped(1, 3 * WINDOW) : 0;
    lengths[6 * RUNS + r] = 0;
  }

  std::vector<OffsetT> offsets(rld_blocks * RUNS), totals(rld_blocks), from_windows(rld_blocks),
      from_single(rld_blocks), from_last(rld_blocks);
  std::vector<unsigned long long> out_base(rld_blocks);
  std::vector<ItemT> decoded;
  std::vector<RelT> relative;
  for (int b = 0; b < rld_blocks; ++b)
  {
    out_base[b]             = decoded.size();
    unsigned long long size = 0;
    for (int r = b * RUNS; r < (b + 1) * RUNS; ++r)
    {
      offsets[r] = static_cast<OffsetT>(size);
      for (unsigned long long k = 0; k < static_cast<unsigned long long>(lengths[r]); ++k)
      {
        decoded.push_back(values[r]);
        relative.push_back(static_cast<RelT>(k));
      }
      size += static_cast<unsigned long long>(lengths[r]);
    }
    REQUIRE(size + WINDOW <= std::numeric_limits<OffsetT>::max());
    totals[b]       = static_cast<OffsetT>(size);
    const auto last = static_cast<long long>(size);
    from_windows[b] = static_cast<OffsetT>(size == 0 ? 0 : gen(0, last - 1));
    from_single[b]  = static_cast<OffsetT>(gen(0, last));
    from_last[b]    = static_cast<OffsetT>(b == 0 ? last : gen(0, last));
  }
  INFO("decoded sizes " << Catch::Detail::stringify(std::vector<unsigned long long>(totals.begin(), totals.end())));

  // Expected outputs: the decoded items where a phase writes them, poison elsewhere.
  const std::size_t decoded_size = decoded.size();
  std::vector<ItemT> items_offsets(decoded_size, strata_test::poison_value<ItemT>());
  std::vector<ItemT> items_single(decoded_size, strata_test::poison_value<ItemT>()),
      items_last(decoded_size, strata_test::poison_value<ItemT>());
  std::vector<RelT> rel_single(decoded_size, strata_test::poison_value<RelT>()),
      rel_last(decoded_size, strata_test::poison_value<RelT>());
  std::vector<unsigned long long> totals_caller(rld_blocks * THREADS);
  std::vector<OffsetT> totals_private(rld_blocks * THREADS);
  for (int b = 0; b < rld_blocks; ++b)
  {
    const std::size_t base  = out_base[b];
    const std::size_t total = totals[b];
    for (std::size_t k = from_windows[b]; k < total; ++k)
    {
      items_offsets[base + k] = decoded[base + k];
    }
    for (std::size_t k = from_single[b]; k < std::min<std::size_t>(total, from_single[b] + WINDOW); ++k)
    {
      items_single[base + k] = decoded[base + k];
      rel_single[base + k]   = relative[base + k];
    }
    for (std::size_t k = from_last[b]; k < std::min<std::size_t>(total, from_last[b] + WINDOW); ++k)
    {
      items_last[base + k] = decoded[base + k];
      rel_last[base + k]   = relative[base + k];
    }
    std::fill_n(totals_caller.begin() + b * THREADS, THREADS, total);
    std::fill_n(totals_private.begin() + b * THREADS, THREADS, totals[b]);
  }

  strata_test::device_buffer<ItemT> d_values(values);
  strata_test::device_buffer<LengthT> d_lengths(lengths);
  strata_test::device_buffer<OffsetT> d_offsets(offsets), d_totals(totals), d_from_windows(from_windows),
      d_from_single(from_single), d_from_last(from_last);
  strata_test::device_buffer<unsigned long long> d_out_base(out_base);
  strata_test::device_buffer<ItemT> d_items_lengths(decoded_size), d_items_offsets(decoded_size),
      d_items_single(decoded_size), d_items_last(decoded_size);
  strata_test::device_buffer<RelT> d_rel_lengths(decoded_size), d_rel_single(decoded_size), d_rel_last(decoded_size);
  strata_test::device_buffer<unsigned long long> d_totals_caller(rld_blocks * THREADS);
  strata_test::device_buffer<OffsetT> d_totals_private(rld_blocks * THREADS);
  for (auto* buffer : {&d_items_lengths, &d_items_offsets, &d_items_single, &d_items_last})
  {
    buffer->poison();
  }
  for (auto* buffer : {&d_rel_lengths, &d_rel_single, &d_rel_last})
  {
    buffer->poison();
  }
  d_totals_caller.poison();
  d_totals_private.poison();

  const rld_args<ConfigT> args{
      d_values.data(),        d_lengths.data(),       d_offsets.data(),    d_out_base.data(),      d_totals.data(),
      d_from_windows.data(),  d_from_single.data(),   d_from_last.data(),  d_items_lengths.data(), d_rel_lengths.data(),
      d_items_offsets.data(), d_items_single.data(),  d_rel_single.data(), d_items_last.data(),    d_rel_last.data(),
      d_totals_caller.data(), d_totals_private.data()};
  rld_kernel<ConfigT><<<rld_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(args);
  strata_test::check_launch();

  {
    INFO("run lengths, caller TempStorage: total_decoded_size in every thread");
    strata_test::check_equal(totals_caller, d_totals_caller.download());
  }
  {
    INFO("run lengths, caller TempStorage: every window from 0, items");
    strata_test::check_equal(decoded, d_items_lengths.download());
  }
  {
    INFO("run lengths, caller TempStorage: every window from 0, item offsets");
    strata_test::check_equal(relative, d_rel_lengths.download());
  }
  {
    INFO("run offsets, private TempStorage: windows from "
         << Catch::Detail::stringify(std::vector<unsigned long long>(from_windows.begin(), from_windows.end())));
    strata_test::check_equal(items_offsets, d_items_offsets.download());
  }
  {
    INFO("run lengths, private TempStorage: total_decoded_size in every thread");
    strata_test::check_equal(totals_private, d_totals_private.download());
  }
  {
    INFO("run lengths, private TempStorage: one window from "
         << Catch::Detail::stringify(std::vector<unsigned long long>(from_single.begin(), from_single.end())));
    strata_test::check_equal(items_single, d_items_single.download());
    strata_test::check_equal(rel_single, d_rel_single.download());
  }
  {
    INFO("run offsets, caller TempStorage: one window from "
         << Catch::Detail::stringify(std::vector<unsigned long long>(from_last.begin(), from_last.end())));
    strata_test::check_equal(items_last, d_items_last.download());
    strata_test::check_equal(rel_last, d_rel_last.download());
  }
}

//! The class snippet: 128 threads with runs {2t, 2t + 1} of lengths (r mod 5) + 1 (run r), the
//! first window of 512 items with item offsets, and the total decoded size.
__global__ void __launch_bounds__(128)
    documented_rld_kernel(std::uint64_t* d_items, std::uint32_t* d_offsets, std::uint32_t* d_total)
{
  using RunItemT              = std::uint64_t;
  using RunLengthT            = std::uint32_t;
  using BlockRunLengthDecodeT = strata::BlockRunLengthDecode<RunItemT, 128, 2, 4>;
  __shared__ BlockRunLengthDecodeT::TempStorage temp_storage;
  const int t = static_cast<int>(threadIdx.x);
  RunItemT run_values[2];
  RunLengthT run_lengths[2];
  for (int i = 0; i < 2; ++i)
  {
    run_values[i]  = static_cast<RunItemT>(2 * t + i);
    run_lengths[i] = static_cast<RunLengthT>((2 * t + i) % 5 + 1);
  }
  std::uint32_t total_decoded_size = 0;
  BlockRunLengthDecodeT block_rld(temp_storage, run_values, run_lengths, total_decoded_size);
  RunLengthT relative_offsets[4];
  RunItemT decoded_items[4];
  block_rld.RunLengthDecode(decoded_items, relative_offsets, 0u);
  for (int i = 0; i < 4; ++i)
  {
    d_items[4 * t + i]   = decoded_items[i];
    d_offsets[4 * t + i] = relative_offsets[i];
  }
  d_total[t] = total_decoded_size;
}

using std::int32_t;
using std::int8_t;
using std::uint16_t;
using std::uint32_t;
using std::uint64_t;
using std::uint8_t;
using strata_test::custom_t;

// Shapes, runs per thread and decoded items per thread cycle pairwise; item types, offset types
// (uint16/32/64), run-length types and item-offset types vary across them.
using r0 = rld_config<uint64_t, 128, 1, 1, 2, 4, uint32_t, uint32_t, uint32_t>;
using r1 = rld_config<int32_t, 32, 1, 1, 1, 1, uint32_t, uint16_t, int>;
using r2 = rld_config<float, 80, 1, 1, 3, 7, uint32_t, int, uint32_t>;
using r3 = rld_config<custom_t, 16, 8, 1, 4, 3, uint64_t, uint64_t, uint64_t>;
using r4 = rld_config<int8_t, 8, 4, 2, 7, 11, uint32_t, uint8_t, uint16_t>;
using r5 = rld_config<double, 256, 1, 1, 3, 4, uint32_t, uint32_t, uint32_t>;
using r6 = rld_config<__half, 1024, 1, 1, 1, 11, uint32_t, uint32_t, uint64_t>;
using r7 = rld_config<uint16_t, 96, 1, 1, 4, 1, uint16_t, uint8_t, uint16_t>;
using r8 = rld_config<__nv_bfloat16, 32, 1, 1, 11, 7, uint32_t, uint32_t, int>;
} // namespace

TEMPLATE_TEST_CASE("BlockRunLengthDecode: constructors, windows and item offsets against a host decoder",
                   "[block][run_length_decode]", r0, r1, r2, r3, r4, r5, r6, r7, r8)
{
  STRATA_TEST_REQUIRE_GPU();
  check_block_run_length_decode<TestType>(TestType::threads * 256 + TestType::runs * 16 + TestType::decoded);
}

TEST_CASE("BlockRunLengthDecode: the first window of the class snippet", "[block][run_length_decode]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<std::uint64_t> d_items(512);
  strata_test::device_buffer<std::uint32_t> d_offsets(512), d_total(128);
  d_items.poison();
  d_offsets.poison();
  d_total.poison();
  documented_rld_kernel<<<1, 128>>>(d_items.data(), d_offsets.data(), d_total.data());
  strata_test::check_launch();
  const std::vector<std::uint64_t> items   = d_items.download();
  const std::vector<std::uint32_t> offsets = d_offsets.download();

  // The values the snippet lists: threads 0 to 3 and thread 127.
  const std::vector<std::uint64_t> first_items   = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5};
  const std::vector<std::uint32_t> first_offsets = {0, 0, 1, 0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 3, 4, 0};
  strata_test::check_equal(first_items, std::vector<std::uint64_t>(items.begin(), items.begin() + 16));
  strata_test::check_equal(first_offsets, std::vector<std::uint32_t>(offsets.begin(), offsets.begin() + 16));
  strata_test::check_equal(std::vector<std::uint64_t>{169, 169, 170, 171},
                           std::vector<std::uint64_t>(items.end() - 4, items.end()));
  strata_test::check_equal(std::vector<std::uint32_t>{3, 4, 0, 0},
                           std::vector<std::uint32_t>(offsets.end() - 4, offsets.end()));

  // The whole window, and the total (51 cycles of lengths 1..5, then one run of length 1).
  std::vector<std::uint64_t> expected_items;
  std::vector<std::uint32_t> expected_offsets;
  for (std::uint32_t run = 0; run < 256 && expected_items.size() < 512; ++run)
  {
    for (std::uint32_t k = 0; k < run % 5 + 1 && expected_items.size() < 512; ++k)
    {
      expected_items.push_back(run);
      expected_offsets.push_back(k);
    }
  }
  strata_test::check_equal(expected_items, items);
  strata_test::check_equal(expected_offsets, offsets);
  strata_test::check_equal(std::vector<std::uint32_t>(128, 766u), d_total.download());
}

TEST_CASE("BlockRunLengthDecode: TempStorage fits in a union", "[block][run_length_decode]")
{
  using BlockRunLengthDecodeT = strata::BlockRunLengthDecode<strata_test::custom_t, 80, 3, 7>;
  STATIC_REQUIRE(std::is_trivially_default_constructible_v<BlockRunLengthDecodeT::TempStorage>);
  STATIC_REQUIRE(std::is_trivially_destructible_v<BlockRunLengthDecodeT::TempStorage>);
  // The runs (an offset and a value each) share the memory of the scan of their lengths.
  STATIC_REQUIRE(sizeof(BlockRunLengthDecodeT::TempStorage)
                 == 80 * 3 * (sizeof(std::uint32_t) + sizeof(strata_test::custom_t)));
}

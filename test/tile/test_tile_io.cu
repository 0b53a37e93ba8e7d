// Tests of strata/tile/tile_io.cuh: ValidItems, and TileIo in each arrangement the agents use
// (vectors striped over the block or over each warp, 16 one-byte vectors, 8 bfloat16 vectors, CUB's
// striped items, blocked items, vectors of two int64, vectors of two with items converted on the
// way in and out). Each block moves its own tile: LoadFull/StoreFull on whole tiles from aligned
// pointers (vectors) and from pointers misaligned by one item and by half a vector (items one at
// a time in the same layout), LoadPartial (with and without filler) and StorePartial at every
// valid count from 0 to a tile. Every thread's registers are checked against the layout written
// out from TileIo's documentation, the outputs in full (past `valid` the poison must stay);
// partial inputs are packed so that the last tile's items end their allocation (memcheck sees a
// read past `valid`). Iterators: a CountingInputIterator and a TransformInputIterator in, a
// transforming output iterator and a DiscardOutputIterator out.
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/tile/tile_io.cuh>

#include "common/output_iterators.cuh"
#include "tile_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace
{
namespace tile = strata::detail::tile;

enum io_mode : int
{
  mode_full,           // LoadFull, StoreFull
  mode_partial_filler, // LoadPartial with a filler, StorePartial
  mode_partial_keep    // LoadPartial keeping the items past valid, StorePartial
};

//! Block b moves tile b, read at in + in_starts[b], written at out + b * TILE, as `mode` says; its
//! registers go to regs (thread-major), block 0's ItemIndex(tid, k) to indices (-1 where the two
//! overloads disagree), and thread 0 reports whether the tile's input and output were found
//! vector-aligned.
template <int BT, int IPT, int VEC, int STRIPE, strata::CacheLoadModifier MODIFIER, typename ItemT, typename InputIt,
          typename OutputIt>
__global__ void __launch_bounds__(BT)
    io_kernel(InputIt in, const long long* in_starts, OutputIt out, const int* valid, int mode, ItemT filler,
              ItemT sentinel, ItemT* regs, int* indices, int* aligned)
{
  using IoT       = tile::TileIo<BT, IPT, VEC, STRIPE>;
  const int tid   = static_cast<int>(threadIdx.x);
  const int b     = static_cast<int>(blockIdx.x);
  const auto from = in + in_starts[b];
  const auto to   = out + b * IoT::TILE_ITEMS;
  ItemT items[IPT];
  if (mode == mode_full)
  {
    const bool vectors_in  = IoT::VectorAligned(from);
    const bool vectors_out = IoT::VectorAligned(to);
    IoT::template LoadFull<MODIFIER>(from, tid, vectors_in, items);
    IoT::StoreFull(to, tid, vectors_out, items);
    if (tid == 0)
    {
      aligned[2 * b]     = vectors_in;
      aligned[2 * b + 1] = vectors_out;
    }
  }
  else
  {
#pragma unroll
    for (int k = 0; k < IPT; ++k)
    {
      items[k] = sentinel;
    }
    if (mode == mode_partial_filler)
    {
      IoT::template LoadPartial<MODIFIER>(from, tid, valid[b], items, filler);
    }
    else
    {
      IoT::template LoadPartial<MODIFIER>(from, tid, valid[b], items);
    }
    IoT::StorePartial(to, tid, valid[b], items);
  }
#pragma unroll
  for (int k = 0; k < IPT; ++k)
  {
    regs[(b * BT + tid) * IPT + k] = items[k];
    if (b == 0)
    {
      const int index        = IoT::ItemIndex(tid, k);
      indices[tid * IPT + k] = index == IoT::ItemIndex(tid, k / VEC, k % VEC) ? index : -1;
    }
  }
}

//! A TileIo arrangement and the types it moves: InT in memory, ItemT in registers, OutT out.
template <int BT, int IPT, int VEC, int STRIPE, typename InT, typename ItemT = InT, typename OutT = InT,
          strata::CacheLoadModifier MODIFIER = strata::LOAD_DEFAULT>
struct io_case
{
  static constexpr int threads                        = BT;
  static constexpr int items                          = IPT;
  static constexpr int vec                            = VEC;
  static constexpr int stripe                         = STRIPE;
  static constexpr int tile                           = BT * IPT;
  static constexpr strata::CacheLoadModifier modifier = MODIFIER;
  using in_t                                          = InT;
  using item_t                                        = ItemT;
  using out_t                                         = OutT;
};

//! What one launch gives back.
template <typename ItemT>
struct io_result
{
  std::vector<ItemT> regs;
  std::vector<int> indices;
  std::vector<int> aligned;
};

//! Launches io_kernel on `tiles` blocks.
template <typename Case, typename InputIt, typename OutputIt, typename ItemT = typename Case::item_t>
io_result<ItemT> run_io(InputIt in, const std::vector<long long>& in_starts, OutputIt out,
                        const std::vector<int>& valid, int mode, ItemT filler, ItemT sentinel)
{
  const int tiles = static_cast<int>(in_starts.size());
  strata_test::device_buffer<long long> d_starts(in_starts);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<ItemT> d_regs(static_cast<std::size_t>(tiles * Case::tile));
  strata_test::device_buffer<int> d_indices(static_cast<std::size_t>(Case::tile));
  strata_test::device_buffer<int> d_aligned(static_cast<std::size_t>(2 * tiles));
  d_regs.poison();
  d_indices.poison();
  d_aligned.poison();
  io_kernel<Case::threads, Case::items, Case::vec, Case::stripe, Case::modifier, ItemT>
      <<<tiles, Case::threads>>>(in, d_starts.data(), out, d_valid.data(), mode, filler, sentinel, d_regs.data(),
                                 d_indices.data(), d_aligned.data());
  strata_test::check_launch();
  return {d_regs.download(), d_indices.download(), d_aligned.download()};
}

//! The registers every thread must hold: item k of thread t of tile b is the input at
//! in_starts[b] + (its tile index), where that is below valid[b]; otherwise `past`.
template <typename Case, typename ItemT, typename InputAt>
std::vector<ItemT> expected_regs(const std::vector<long long>& in_starts, const std::vector<int>& valid,
                                 InputAt input_at, ItemT past)
{
  std::vector<ItemT> regs;
  for (std::size_t b = 0; b < in_starts.size(); ++b)
  {
    for (int t = 0; t < Case::threads; ++t)
    {
      for (int k = 0; k < Case::items; ++k)
      {
        const int index = strata_test::striped_vector_index(t, k, Case::items, Case::vec, Case::stripe);
        regs.push_back(index < valid[b] ? input_at(in_starts[b] + index) : past);
      }
    }
  }
  return regs;
}

//! Every thread's ItemIndex must match the documented layout, both overloads alike.
template <typename Case>
void check_indices(const std::vector<int>& indices)
{
  std::vector<int> expected;
  for (int t = 0; t < Case::threads; ++t)
  {
    for (int k = 0; k < Case::items; ++k)
    {
      expected.push_back(strata_test::striped_vector_index(t, k, Case::items, Case::vec, Case::stripe));
    }
  }
  strata_test::check_equal(expected, indices);
}

//! Input item offsets that leave the vector path (one item, half a vector) beside the aligned 0.
template <typename Case>
std::vector<int> input_offsets()
{
  std::vector<int> offsets{0, 1};
  if (Case::vec > 2)
  {
    offsets.push_back(Case::vec / 2);
  }
  return offsets;
}

//! Whole tiles between pointers: aligned ones take the vector path, misaligned ones the scalar
//! path; registers and outputs (with a poisoned margin on both sides) must be exact either way.
template <typename Case>
void check_full_tiles(std::uint64_t salt)
{
  using InT           = typename Case::in_t;
  using ItemT         = typename Case::item_t;
  using OutT          = typename Case::out_t;
  constexpr int TILE  = Case::tile;
  constexpr int TILES = 3;
  const auto seed     = strata_test::seed(salt);
  INFO("seed " << seed << ", " << Case::threads << " threads x " << Case::items << " items, vectors of " << Case::vec
               << ", striped over " << Case::stripe);
  for (const int in_offset : input_offsets<Case>())
  {
    for (const int out_offset : input_offsets<Case>())
    {
      INFO("input offset " << in_offset << ", output offset " << out_offset << " items");
      const std::vector<InT> input =
          strata_test::random_vector<InT>(static_cast<std::size_t>(in_offset + TILES * TILE), seed);
      strata_test::device_buffer<InT> d_in(input);
      strata_test::device_buffer<OutT> d_out(static_cast<std::size_t>(out_offset + TILES * TILE + 16));
      d_out.poison();
      std::vector<long long> starts;
      for (int b = 0; b < TILES; ++b)
      {
        starts.push_back(b * TILE);
      }
      const std::vector<int> valid(TILES, TILE);
      const io_result<ItemT> result = run_io<Case>(static_cast<const InT*>(d_in.data() + in_offset), starts,
                                                   d_out.data() + out_offset, valid, mode_full, ItemT{}, ItemT{});

      const auto input_at = [&](long long i) { return ItemT(input[static_cast<std::size_t>(in_offset + i)]); };
      strata_test::check_equal(expected_regs<Case>(starts, valid, input_at, ItemT{}), result.regs);
      check_indices<Case>(result.indices);
      std::vector<OutT> expected_out = strata_test::poisoned<OutT>(d_out.size());
      for (int i = 0; i < TILES * TILE; ++i)
      {
        expected_out[static_cast<std::size_t>(out_offset + i)] = OutT(input_at(i));
      }
      strata_test::check_equal(expected_out, d_out.download());
      // The vector path is taken exactly where the pointer allows it (here: the tile's start).
      const bool vectors_in =
          Case::vec > 1 && strata_test::host_aligned(d_in.data() + in_offset, sizeof(InT) * Case::vec);
      const bool vectors_out =
          Case::vec > 1 && strata_test::host_aligned(d_out.data() + out_offset, sizeof(OutT) * Case::vec);
      CHECK(vectors_in == (Case::vec > 1 && in_offset == 0));
      CHECK(vectors_out == (Case::vec > 1 && out_offset == 0));
      std::vector<int> expected_aligned;
      for (int b = 0; b < TILES; ++b)
      {
        expected_aligned.push_back(vectors_in);
        expected_aligned.push_back(vectors_out);
      }
      strata_test::check_equal(expected_aligned, result.aligned);
    }
  }
}

//! Every valid count from 0 to a tile, one tile per block, inputs packed back to back (so that
//! the last tile's last valid item ends the allocation), each output tile in its own slot.
template <typename Case>
void check_partial_tiles(std::uint64_t salt)
{
  using InT           = typename Case::in_t;
  using ItemT         = typename Case::item_t;
  using OutT          = typename Case::out_t;
  constexpr int TILE  = Case::tile;
  constexpr int TILES = TILE + 1;
  const auto seed     = strata_test::seed(salt);
  INFO("seed " << seed << ", " << Case::threads << " threads x " << Case::items << " items, vectors of " << Case::vec
               << ", striped over " << Case::stripe);
  // valid[b] = TILE - b: the last two tiles hold one item and none, at the allocation's end.
  std::vector<int> valid;
  std::vector<long long> starts;
  long long packed = 0;
  for (int b = 0; b < TILES; ++b)
  {
    valid.push_back(TILE - b);
    starts.push_back(packed);
    packed += TILE - b;
  }
  const std::vector<ItemT> fills = strata_test::random_vector<ItemT>(2, seed + 1);
  for (const int offset : {0, 1})
  {
    const std::vector<InT> input = strata_test::random_vector<InT>(static_cast<std::size_t>(offset + packed), seed);
    strata_test::device_buffer<InT> d_in(input);
    strata_test::device_buffer<OutT> d_out(static_cast<std::size_t>(offset + TILES * TILE + 16));
    const auto input_at = [&](long long i) { return ItemT(input[static_cast<std::size_t>(offset + i)]); };
    for (const int mode : {mode_partial_filler, mode_partial_keep})
    {
      INFO("offset " << offset << " items, " << (mode == mode_partial_filler ? "with filler" : "keeping items"));
      d_out.poison();
      const io_result<ItemT> result = run_io<Case>(static_cast<const InT*>(d_in.data() + offset), starts,
                                                   d_out.data() + offset, valid, mode, fills[0], fills[1]);
      strata_test::check_equal(
          expected_regs<Case>(starts, valid, input_at, mode == mode_partial_filler ? fills[0] : fills[1]), result.regs);
      check_indices<Case>(result.indices);
      std::vector<OutT> expected_out = strata_test::poisoned<OutT>(d_out.size());
      for (int b = 0; b < TILES; ++b)
      {
        for (int i = 0; i < valid[static_cast<std::size_t>(b)]; ++i)
        {
          expected_out[static_cast<std::size_t>(offset + b * TILE + i)] =
              OutT(input_at(starts[static_cast<std::size_t>(b)] + i));
        }
      }
      strata_test::check_equal(expected_out, d_out.download());
    }
  }
}

template <typename Case>
void check_tile_io(std::uint64_t salt)
{
  SECTION("full tiles")
  {
    check_full_tiles<Case>(salt);
  }
  SECTION("partial tiles of every size")
  {
    check_partial_tiles<Case>(salt + 100);
  }
}

// Vectors striped over the block (AgentReduce), over each warp (AgentAdjacentDifference, with
// LOAD_LDG), 16 one-byte vectors a thread, CUB's striped items of a 12-byte type, blocked items
// (the segmented sort's thread-per-segment rows), vectors of two 2-byte items held as int and
// stored as int64, eight bfloat16 a vector, three rows of two int64 in a one-warp block.
using case_block_vectors = io_case<64, 8, 4, 64, std::int32_t>;
using case_warp_vectors  = io_case<64, 8, 4, 32, float, float, float, strata::LOAD_LDG>;
using case_byte_vectors  = io_case<32, 16, 16, 32, std::uint8_t>;
using case_striped       = io_case<96, 4, 1, 96, strata_test::custom_t>;
using case_blocked       = io_case<64, 3, 1, 1, double>;
using case_converted     = io_case<64, 6, 2, 32, std::uint16_t, std::int32_t, std::int64_t>;
using case_half_vectors  = io_case<64, 8, 8, 64, __nv_bfloat16>;
using case_pair_vectors  = io_case<32, 6, 2, 32, std::int64_t>;
} // namespace

TEST_CASE("ValidItems: a whole tile, or what is left of the input for its last tile", "[tile][io]")
{
  CHECK(tile::ValidItems<512>(1000u, 0u) == 512);
  CHECK(tile::ValidItems<512>(1000u, 512u) == 488);
  CHECK(tile::ValidItems<512>(1024u, 512u) == 512);
  CHECK(tile::ValidItems<512>(1u, 0u) == 1);
  CHECK(tile::ValidItems<512>(4294967295u, 4294966784u) == 511);
  CHECK(tile::ValidItems<512>((1ll << 40) + 5, 1ll << 40) == 5);
  CHECK(tile::ValidItems<512>((1ll << 40) + 513, 1ll << 40) == 512);
  CHECK(tile::ValidItems<7>(std::int64_t{20}, std::int64_t{14}) == 6);
}

TEST_CASE("TileIo: vectors striped over the block", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_block_vectors>(1);
}

TEST_CASE("TileIo: vectors striped over each warp", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_warp_vectors>(2);
}

TEST_CASE("TileIo: sixteen one-byte items a vector", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_byte_vectors>(3);
}

TEST_CASE("TileIo: items striped over the block (12-byte items)", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_striped>(4);
}

TEST_CASE("TileIo: blocked items (groups of one thread)", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_blocked>(5);
}

TEST_CASE("TileIo: eight 2-byte floating-point items a vector", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_half_vectors>(8);
}

TEST_CASE("TileIo: three rows of two int64 a thread, one warp", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_pair_vectors>(9);
}

TEST_CASE("TileIo: items converted on the way in and out", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_tile_io<case_converted>(6);
}

TEST_CASE("TileIo: iterators in and out move one item at a time in the same layout", "[tile][io]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(7);
  INFO("seed " << seed);
  constexpr int TILES = 3;
  std::vector<long long> starts;
  for (int b = 0; b < TILES; ++b)
  {
    starts.push_back(b * 512);
  }
  // One full tile, one partial tile of a random count and one of a single item.
  const std::vector<int> full(TILES, 512);
  std::vector<int> partial{static_cast<int>(seed % 511) + 1, 1, 511};

  SECTION("CountingInputIterator in, a pointer out (whose stores may be vectors)")
  {
    using Case              = case_block_vectors;
    const std::int32_t base = static_cast<std::int32_t>(seed % 100000) - 50000;
    const auto input_at     = [&](long long i) { return static_cast<std::int32_t>(base + i); };
    strata_test::device_buffer<std::int32_t> d_out(static_cast<std::size_t>(TILES * 512));
    for (const int mode : {mode_full, mode_partial_filler, mode_partial_keep})
    {
      INFO("mode " << mode);
      const std::vector<int>& valid = mode == mode_full ? full : partial;
      d_out.poison();
      const io_result<std::int32_t> result =
          run_io<Case>(strata::CountingInputIterator<std::int32_t>(base), starts, d_out.data(), valid, mode,
                       std::int32_t{-7}, std::int32_t{-9});
      strata_test::check_equal(expected_regs<Case>(starts, valid, input_at,
                                                   mode == mode_partial_filler ? std::int32_t{-7} : std::int32_t{-9}),
                               result.regs);
      std::vector<std::int32_t> expected_out = strata_test::poisoned<std::int32_t>(d_out.size());
      for (int b = 0; b < TILES; ++b)
      {
        for (int i = 0; i < valid[static_cast<std::size_t>(b)]; ++i)
        {
          expected_out[static_cast<std::size_t>(b * 512 + i)] = input_at(b * 512 + i);
        }
      }
      strata_test::check_equal(expected_out, d_out.download());
      if (mode == mode_full)
      {
        strata_test::check_equal(std::vector<int>{0, 1, 0, 1, 0, 1}, result.aligned);
      }
    }
  }

  SECTION("TransformInputIterator in, a transforming output iterator out")
  {
    using Case                            = io_case<64, 8, 4, 32, std::int64_t>;
    const std::vector<std::int32_t> input = strata_test::random_vector<std::int32_t>(TILES * 512, seed);
    strata_test::device_buffer<std::int32_t> d_in(input);
    strata_test::device_buffer<std::int64_t> d_out(static_cast<std::size_t>(TILES * 512));
    const auto input_at = [&](long long i) { return strata_test::square{}(input[static_cast<std::size_t>(i)]); };
    const strata::TransformInputIterator<std::int64_t, strata_test::square, const std::int32_t*> in(
        d_in.data(), strata_test::square{});
    const strata_test::transform_output<std::int64_t, strata_test::three_x_plus_one> out(
        d_out.data(), strata_test::three_x_plus_one{});
    for (const int mode : {mode_full, mode_partial_filler, mode_partial_keep})
    {
      INFO("mode " << mode);
      const std::vector<int>& valid = mode == mode_full ? full : partial;
      d_out.poison();
      const io_result<std::int64_t> result =
          run_io<Case>(in, starts, out, valid, mode, std::int64_t{-70}, std::int64_t{-90});
      strata_test::check_equal(expected_regs<Case>(starts, valid, input_at,
                                                   mode == mode_partial_filler ? std::int64_t{-70} : std::int64_t{-90}),
                               result.regs);
      std::vector<std::int64_t> expected_out = strata_test::poisoned<std::int64_t>(d_out.size());
      for (int b = 0; b < TILES; ++b)
      {
        for (int i = 0; i < valid[static_cast<std::size_t>(b)]; ++i)
        {
          expected_out[static_cast<std::size_t>(b * 512 + i)] = strata_test::three_x_plus_one{}(input_at(b * 512 + i));
        }
      }
      strata_test::check_equal(expected_out, d_out.download());
      if (mode == mode_full)
      {
        strata_test::check_equal(std::vector<int>(2 * TILES, 0), result.aligned);
      }
    }
  }

  SECTION("a pointer in (whose loads may be vectors), DiscardOutputIterator out")
  {
    using Case                            = case_block_vectors;
    const std::vector<std::int32_t> input = strata_test::random_vector<std::int32_t>(TILES * 512, seed);
    strata_test::device_buffer<std::int32_t> d_in(input);
    const auto input_at = [&](long long i) { return input[static_cast<std::size_t>(i)]; };
    for (const int mode : {mode_full, mode_partial_filler, mode_partial_keep})
    {
      INFO("mode " << mode);
      const std::vector<int>& valid = mode == mode_full ? full : partial;
      const io_result<std::int32_t> result =
          run_io<Case>(static_cast<const std::int32_t*>(d_in.data()), starts, strata::DiscardOutputIterator<>(), valid,
                       mode, std::int32_t{-7}, std::int32_t{-9});
      strata_test::check_equal(expected_regs<Case>(starts, valid, input_at,
                                                   mode == mode_partial_filler ? std::int32_t{-7} : std::int32_t{-9}),
                               result.regs);
      if (mode == mode_full)
      {
        strata_test::check_equal(std::vector<int>{1, 0, 1, 0, 1, 0}, result.aligned);
      }
    }
  }
}

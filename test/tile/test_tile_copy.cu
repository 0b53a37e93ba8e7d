// Tests of strata/tile/tile_copy.cuh, one warp per copy, many copies a launch.
// - WarpCopyBytes: every source address modulo 16 against every destination address modulo 16
//   (16-byte words where they agree, 4-byte words where they agree modulo 4, words cut from pairs
//   of source words otherwise, bytes below 16) at lengths 0 to 4109 around each path's limits,
//   with UNROLL 1 and 4; destinations poisoned and checked in full (the gaps between copies keep
//   their poison). Sources also end exactly at the end of their allocation, at every alignment, so
//   that memcheck sees any read past the source.
// - WarpCopyItems: 12-byte and 8-byte items between pointers, and a CountingInputIterator into a
//   transforming output iterator, at lengths around one round of UNROLL loads per lane.
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/tile/tile_copy.cuh>

#include "common/output_iterators.cuh"
#include "tile_checks.cuh"

#include <cstdint>
#include <vector>

namespace
{
namespace tile = strata::detail::tile;

constexpr int copy_blocks  = 32;
constexpr int copy_threads = 128;

//! Copy c (taken by warp c, c + warps, ...): lens[c] bytes from src + src_at[c] to dst + dst_at[c].
template <int UNROLL>
__global__ void copy_bytes_kernel(const unsigned char* src, unsigned char* dst, const long long* src_at,
                                  const long long* dst_at, const long long* lens, int copies)
{
  const int lane  = static_cast<int>(threadIdx.x % 32);
  const int warps = static_cast<int>(gridDim.x * blockDim.x / 32);
  for (int c = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32); c < copies; c += warps)
  {
    tile::WarpCopyBytes<UNROLL>(src + src_at[c], dst + dst_at[c], static_cast<std::uint64_t>(lens[c]), lane);
  }
}

//! Copy c: lens[c] items from src + at[c] to dst + at[c].
template <int UNROLL, typename InputIt, typename OutputIt>
__global__ void copy_items_kernel(InputIt src, OutputIt dst, const long long* at, const long long* lens, int copies)
{
  const int lane  = static_cast<int>(threadIdx.x % 32);
  const int warps = static_cast<int>(gridDim.x * blockDim.x / 32);
  for (int c = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32); c < copies; c += warps)
  {
    tile::WarpCopyItems<UNROLL>(src + at[c], dst + at[c], static_cast<std::uint64_t>(lens[c]), lane);
  }
}

//! A batch of byte copies: where each reads and writes, and how many bytes.
struct byte_copies
{
  std::vector<long long> src_at;
  std::vector<long long> dst_at;
  std::vector<long long> lens;
};

//! Runs the batch from `src` (whose bytes the host has in `source`) into a poisoned arena of
//! `arena` bytes and checks the whole arena.
template <int UNROLL>
void run_byte_copies(const byte_copies& copies, const unsigned char* src, const std::vector<unsigned char>& source,
                     std::size_t arena)
{
  INFO(copies.lens.size() << " copies, UNROLL " << UNROLL);
  strata_test::device_buffer<long long> d_src_at(copies.src_at);
  strata_test::device_buffer<long long> d_dst_at(copies.dst_at);
  strata_test::device_buffer<long long> d_lens(copies.lens);
  strata_test::device_buffer<unsigned char> d_dst(arena);
  d_dst.poison();
  copy_bytes_kernel<UNROLL><<<copy_blocks, copy_threads>>>(src, d_dst.data(), d_src_at.data(), d_dst_at.data(),
                                                           d_lens.data(), static_cast<int>(copies.lens.size()));
  strata_test::check_launch();
  std::vector<unsigned char> expected = strata_test::poisoned<unsigned char>(arena);
  for (std::size_t c = 0; c < copies.lens.size(); ++c)
  {
    for (long long i = 0; i < copies.lens[c]; ++i)
    {
      expected[static_cast<std::size_t>(copies.dst_at[c] + i)] = source[static_cast<std::size_t>(copies.src_at[c] + i)];
    }
  }
  const std::vector<unsigned char> actual = d_dst.download();
  // Bytes compare as ints, so that a mismatch prints as a number.
  strata_test::check_equal(std::vector<int>(expected.begin(), expected.end()),
                           std::vector<int>(actual.begin(), actual.end()));
}

//! Every (source, destination) alignment modulo 16 at every length, each copy in a slot of its own
//! with a margin on both sides.
template <int UNROLL>
void check_every_alignment(std::uint64_t salt)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed);
  const long long lengths[] = {0, 1, 3, 4, 7, 8, 15, 16, 17, 19, 31, 32, 33, 47, 63, 64, 100, 1000, 4109};
  byte_copies copies;
  long long slot = 0;
  for (int s = 0; s < 16; ++s)
  {
    for (int d = 0; d < 16; ++d)
    {
      for (const long long len : lengths)
      {
        copies.src_at.push_back(slot + 16 + s);
        copies.dst_at.push_back(slot + 16 + d);
        copies.lens.push_back(len);
        slot += (len + 48 + 15) / 16 * 16;
      }
    }
  }
  const auto arena                        = static_cast<std::size_t>(slot);
  const std::vector<unsigned char> source = strata_test::random_vector<unsigned char>(arena, seed);
  strata_test::device_buffer<unsigned char> d_src(source);
  run_byte_copies<UNROLL>(copies, d_src.data(), source, arena);
}

//! Sources that end their allocation: 16 allocations of 4096 + a bytes (a in [0, 16)), each read
//! from its end at several lengths into every destination alignment.
void check_sources_at_allocation_end(std::uint64_t salt)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed);
  const long long lengths[] = {16, 17, 18, 19, 20, 31, 33, 64, 100, 1000};
  for (int a = 0; a < 16; ++a)
  {
    const long long size = 4096 + a;
    const std::vector<unsigned char> source =
        strata_test::random_vector<unsigned char>(static_cast<std::size_t>(size), seed + static_cast<std::uint64_t>(a));
    strata_test::device_buffer<unsigned char> d_src(source);
    byte_copies copies;
    long long slot = 0;
    for (const long long len : lengths)
    {
      for (int d = 0; d < 16; ++d)
      {
        copies.src_at.push_back(size - len);
        copies.dst_at.push_back(slot + 16 + d);
        copies.lens.push_back(len);
        slot += (len + 48 + 15) / 16 * 16;
      }
    }
    INFO("allocation of " << size << " bytes");
    run_byte_copies<4>(copies, d_src.data(), source, static_cast<std::size_t>(slot));
  }
}

//! Copy lengths around one round of UNROLL loads a lane, and their places in an arena (5 items apart).
template <int UNROLL>
void item_copies(std::vector<long long>& at, std::vector<long long>& lens, long long& arena)
{
  const long long round = 32ll * UNROLL;
  arena                 = 0;
  for (const long long len : {0ll, 1ll, 31ll, 32ll, 33ll, round - 1, round, round + 1, 3 * round + 7, 1000ll, 4099ll})
  {
    at.push_back(arena + 5);
    lens.push_back(len);
    arena += len + 5;
  }
  arena += 5;
}

template <int UNROLL, typename T>
void check_item_pointers(std::uint64_t salt)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed << ", " << sizeof(T) << "-byte items, UNROLL " << UNROLL);
  std::vector<long long> at;
  std::vector<long long> lens;
  long long arena = 0;
  item_copies<UNROLL>(at, lens, arena);
  const std::vector<T> source = strata_test::random_vector<T>(static_cast<std::size_t>(arena), seed);
  strata_test::device_buffer<T> d_src(source);
  strata_test::device_buffer<T> d_dst(static_cast<std::size_t>(arena));
  strata_test::device_buffer<long long> d_at(at);
  strata_test::device_buffer<long long> d_lens(lens);
  d_dst.poison();
  copy_items_kernel<UNROLL><<<copy_blocks, copy_threads>>>(static_cast<const T*>(d_src.data()), d_dst.data(),
                                                           d_at.data(), d_lens.data(), static_cast<int>(lens.size()));
  strata_test::check_launch();
  std::vector<T> expected = strata_test::poisoned<T>(static_cast<std::size_t>(arena));
  for (std::size_t c = 0; c < lens.size(); ++c)
  {
    for (long long i = 0; i < lens[c]; ++i)
    {
      expected[static_cast<std::size_t>(at[c] + i)] = source[static_cast<std::size_t>(at[c] + i)];
    }
  }
  strata_test::check_equal(expected, d_dst.download());
}
} // namespace

TEST_CASE("WarpCopyBytes: every alignment of source and destination modulo 16", "[tile][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  SECTION("UNROLL 1")
  {
    check_every_alignment<1>(1);
  }
  SECTION("UNROLL 4")
  {
    check_every_alignment<4>(2);
  }
}

TEST_CASE("WarpCopyBytes: sources that end their allocation", "[tile][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_sources_at_allocation_end(3);
}

TEST_CASE("WarpCopyItems: items between pointers", "[tile][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_item_pointers<4, strata_test::custom_t>(4);
  check_item_pointers<1, std::int64_t>(5);
}

TEST_CASE("WarpCopyItems: a CountingInputIterator into a transforming output iterator", "[tile][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(6);
  INFO("seed " << seed);
  std::vector<long long> at;
  std::vector<long long> lens;
  long long arena = 0;
  item_copies<2>(at, lens, arena);
  const std::int64_t base = static_cast<std::int64_t>(seed % 1000003) - 500000;
  strata_test::device_buffer<std::int64_t> d_dst(static_cast<std::size_t>(arena));
  strata_test::device_buffer<long long> d_at(at);
  strata_test::device_buffer<long long> d_lens(lens);
  d_dst.poison();
  copy_items_kernel<2><<<copy_blocks, copy_threads>>>(
      strata::CountingInputIterator<std::int64_t>(base),
      strata_test::transform_output<std::int64_t, strata_test::three_x_plus_one>(d_dst.data(), {}), d_at.data(),
      d_lens.data(), static_cast<int>(lens.size()));
  strata_test::check_launch();
  std::vector<std::int64_t> expected = strata_test::poisoned<std::int64_t>(static_cast<std::size_t>(arena));
  for (std::size_t c = 0; c < lens.size(); ++c)
  {
    for (long long i = 0; i < lens[c]; ++i)
    {
      expected[static_cast<std::size_t>(at[c] + i)] = strata_test::three_x_plus_one{}(base + at[c] + i);
    }
  }
  strata_test::check_equal(expected, d_dst.download());
}

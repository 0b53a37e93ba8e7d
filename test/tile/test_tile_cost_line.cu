// Tests of strata/tile/tile_cost_line.cuh: WarpConsumeChunk, a warp's walk through one chunk of a
// cost line. Spans of random lengths (empty ones, ones longer than a chunk, runs of one-item
// spans) each cost their items plus a fixed cost, as the agents' do; every warp walks chunks w,
// w + warps, ... of the line. Checked against the host: every item of every span is handed out
// exactly once, parts of at most lane_items items to their own lane and larger ones to the whole
// warp (every lane with the same part), each span has exactly one owner chunk, and it is whole
// there exactly when its items all lie in that chunk.
#include <strata/tile/tile_cost_line.cuh>

#include "tile_checks.cuh"

#include <cstdint>
#include <random>
#include <vector>

namespace
{
namespace tile = strata::detail::tile;

constexpr std::uint64_t fixed_cost = 3; // every span's cost on top of its items

//! What the callbacks saw, counted per item and per span; `bad` counts broken promises.
struct Record
{
  unsigned int* item_hits;     // per item of the spans laid end to end
  unsigned int* owners;        // per span: done() calls with part.owner
  unsigned int* wholes;        // per span: done() calls with part.whole
  unsigned int* bad;           // one counter
  const long long* first_item; // per span: where its items start in item_hits
};

//! A lane's span, as read() gives it.
struct LaneSpan
{
  long long span;
  std::uint64_t items;
};

__global__ void consume_kernel(const std::uint64_t* offsets, const std::uint64_t* lengths, long long num_spans,
                               std::uint64_t chunk, std::uint64_t lane_items, Record record)
{
  const int lane            = static_cast<int>(threadIdx.x % 32);
  const std::uint64_t warp  = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const std::uint64_t warps = gridDim.x * blockDim.x / 32;
  const std::uint64_t total = offsets[num_spans];
  for (std::uint64_t c = warp; c * chunk < total; c += warps)
  {
    const std::uint64_t first = c * chunk;
    const std::uint64_t last  = first + chunk < total ? first + chunk : total;
    tile::WarpConsumeChunk(
        offsets, num_spans, first, last, lane_items, lane,
        [&](long long span, bool) {
          return LaneSpan{span, lengths[span]};
        },
        [&](const tile::CostLinePart& part, const LaneSpan& mine)
        {
          if (part.count == 0 || part.count > lane_items || mine.span != part.span || !part.active)
          {
            atomicAdd(record.bad, 1u);
          }
          for (std::uint64_t i = 0; i < part.count; ++i)
          {
            atomicAdd(record.item_hits + record.first_item[part.span] + part.begin + i, 1u);
          }
        },
        [&](int owner, long long span, std::uint64_t begin, std::uint64_t count, const LaneSpan& mine)
        {
          // Every lane gets lane `owner`'s part; the owner's own read was of that span.
          const long long owner_span = __shfl_sync(0xFFFFFFFFu, mine.span, owner);
          const bool split_part      = __any_sync(0xFFFFFFFFu, span != __shfl_sync(0xFFFFFFFFu, span, 0)
                                                                   || begin != __shfl_sync(0xFFFFFFFFu, begin, 0)
                                                                   || count != __shfl_sync(0xFFFFFFFFu, count, 0));
          if (count <= lane_items || owner_span != span || split_part)
          {
            atomicAdd(record.bad, 1u);
          }
          for (std::uint64_t i = lane; i < count; i += 32)
          {
            atomicAdd(record.item_hits + record.first_item[span] + begin + i, 1u);
          }
        },
        [&](const tile::CostLinePart& part)
        {
          if (part.owner)
          {
            atomicAdd(record.owners + part.span, 1u);
          }
          if (part.whole)
          {
            atomicAdd(record.wholes + part.span, 1u);
          }
          if ((part.owner || part.whole) && !part.active)
          {
            atomicAdd(record.bad, 1u);
          }
        });
  }
}

//! Walks the line of spans of `lengths` in chunks of `chunk` units and checks what the warps saw.
void check_line(const std::vector<std::uint64_t>& lengths, std::uint64_t chunk, std::uint64_t lane_items)
{
  const auto num_spans = static_cast<long long>(lengths.size());
  INFO(num_spans << " spans, chunks of " << chunk << ", lane parts up to " << lane_items);
  std::vector<std::uint64_t> offsets{0};
  std::vector<long long> first_item{0};
  for (const std::uint64_t length : lengths)
  {
    offsets.push_back(offsets.back() + length + fixed_cost);
    first_item.push_back(first_item.back() + static_cast<long long>(length));
  }
  const auto items = static_cast<std::size_t>(first_item.back());
  strata_test::device_buffer<std::uint64_t> d_offsets(offsets);
  strata_test::device_buffer<std::uint64_t> d_lengths(lengths);
  strata_test::device_buffer<long long> d_first_item(first_item);
  strata_test::device_buffer<unsigned int> d_hits(items > 0 ? items : 1);
  strata_test::device_buffer<unsigned int> d_owners(lengths.size());
  strata_test::device_buffer<unsigned int> d_wholes(lengths.size());
  strata_test::device_buffer<unsigned int> d_bad(1);
  for (auto* counts : {&d_hits, &d_owners, &d_wholes, &d_bad})
  {
    counts->upload(std::vector<unsigned int>(counts->size(), 0u));
  }
  const Record record{d_hits.data(), d_owners.data(), d_wholes.data(), d_bad.data(), d_first_item.data()};
  consume_kernel<<<4, 128>>>(d_offsets.data(), d_lengths.data(), num_spans, chunk, lane_items, record);
  strata_test::check_launch();

  CHECK(d_bad.download()[0] == 0u);
  const std::vector<unsigned int> hits = d_hits.download();
  CHECK(std::vector<unsigned int>(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(items))
        == std::vector<unsigned int>(items, 1u));
  std::vector<unsigned int> expected_wholes;
  for (std::size_t s = 0; s < lengths.size(); ++s)
  {
    // The owner is the chunk of the span's first unit; whole where its items end in it.
    const bool whole = lengths[s] == 0 || (offsets[s] + lengths[s] - 1) / chunk == offsets[s] / chunk;
    expected_wholes.push_back(whole ? 1u : 0u);
  }
  strata_test::check_equal(std::vector<unsigned int>(lengths.size(), 1u), d_owners.download());
  strata_test::check_equal(expected_wholes, d_wholes.download());
}

//! `count` random lengths: mostly short (0 to 40), some long (up to `longest`), runs of 1s.
std::vector<std::uint64_t> random_lengths(std::mt19937_64& engine, std::size_t count, std::uint64_t longest)
{
  std::vector<std::uint64_t> lengths(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    const auto kind = engine() % 8;
    lengths[i]      = kind == 0 ? engine() % (longest + 1) : kind == 1 ? 1 : engine() % 41;
  }
  return lengths;
}
} // namespace

TEST_CASE("WarpConsumeChunk hands out every item of every span once", "[tile][cost_line]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(1);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (const std::uint64_t lane_items : {8ull, 64ull})
  {
    for (const std::uint64_t chunk : {32ull, 256ull, 1000ull})
    {
      check_line({5}, chunk, lane_items);
      check_line({0, 0, 7, 0}, chunk, lane_items);
      check_line({5000}, chunk, lane_items);
      for (const std::size_t count : {31, 32, 33, 1000})
      {
        check_line(random_lengths(engine, count, 3000), chunk, lane_items);
      }
    }
  }
  // Many spans, chunks of the agents' size; fewer under a sanitizer, where atomics are slow.
  check_line(random_lengths(engine, strata_test::under_sanitizer() ? 10000 : 100000, 2000), 16384, 32);
}

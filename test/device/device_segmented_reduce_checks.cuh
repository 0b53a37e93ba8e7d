// test/device/device_segmented_reduce_checks.cuh: what the DeviceSegmentedReduce tests share: the
// policy's work split, the segment layouts every function runs over (named begin and end offsets on
// the host), their offsets on the device, one two-phase call into poisoned outputs (one more than
// there are segments: that one must keep its poison) and the host references.
#pragma once

#include <strata/device/device_segmented_reduce.cuh>

#include "common/test_common.cuh"

#include <cuda/std/functional>
#include <cuda/std/limits>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! The policy DeviceSegmentedReduce runs (the same for every accumulator): the layouts below take
//! its chunk size, segment cost, lane part and warp round from it, so that a change of policy moves
//! them along.
using segmented_reduce_policy =
    strata::detail::segmented_reduce::policy_hub<int, int, cuda::std::plus<>>::MaxPolicy::SegmentedReducePolicy;

//! Cost units of a chunk where the cost line is short (the smallest chunk there is).
inline constexpr std::int64_t sr_chunk = segmented_reduce_policy::MIN_CHUNK_ITEMS;
//! What a segment costs on top of its items.
inline constexpr std::int64_t sr_segment_cost = segmented_reduce_policy::SEGMENT_COST_ITEMS;
//! The largest part of a segment one lane reduces alone.
inline constexpr std::int64_t sr_lane = segmented_reduce_policy::LANE_ITEMS;
//! Items a warp loads in one unrolled round of a larger part.
inline constexpr std::int64_t sr_round = std::int64_t(segmented_reduce_policy::WARP_LOADS) * 32;
//! The fewest chunks a launch may cut its cost line into (one block's warps, ROUNDS chunks each): a
//! cost line of at most sr_min_chunks * sr_chunk units is cut into chunks of exactly sr_chunk units
//! on any GPU.
inline constexpr std::int64_t sr_min_chunks =
    std::int64_t(segmented_reduce_policy::BLOCK_THREADS / 32) * segmented_reduce_policy::ROUNDS;

//! Segments of an input: segment s is [begin[s], end[s]) (empty where end <= begin).
struct segment_layout
{
  std::string name;
  std::vector<std::int64_t> begin;
  std::vector<std::int64_t> end;
  //! end[s] == begin[s + 1] for every s: the call gets `offsets` and `offsets + 1`, as CUB's
  //! examples pass contiguous segments.
  bool contiguous = false;

  std::int64_t segments() const
  {
    return std::int64_t(begin.size());
  }
  //! The input items the segments reach into (at least one).
  std::size_t items() const
  {
    std::int64_t last = 1;
    for (std::size_t s = 0; s < begin.size(); ++s)
    {
      last = std::max(last, std::max(begin[s], end[s]));
    }
    return std::size_t(last);
  }
};

//! Contiguous segments of the given lengths, the first at input position 0.
inline segment_layout contiguous_layout(std::string name, const std::vector<std::int64_t>& lengths)
{
  segment_layout layout{std::move(name), {}, {}, true};
  layout.begin.reserve(lengths.size());
  layout.end.reserve(lengths.size());
  std::int64_t position = 0;
  for (const std::int64_t length : lengths)
  {
    layout.begin.push_back(position);
    position += length;
    layout.end.push_back(position);
  }
  return layout;
}

//! `count` lengths from `length(engine)`.
template <typename LengthT>
std::vector<std::int64_t> random_lengths(std::size_t count, std::uint64_t seed, LengthT length)
{
  std::mt19937_64 engine(seed);
  std::vector<std::int64_t> lengths(count);
  for (auto& l : lengths)
  {
    l = length(engine);
  }
  return lengths;
}

//! A length uniform in [lo, hi].
inline std::int64_t uniform_length(std::mt19937_64& engine, std::int64_t lo, std::int64_t hi)
{
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(engine);
}

//! min(65536, floor(1 / u^2)) - 1 for u uniform in (0, 1]: mean about 500, about 30% empty.
inline std::int64_t power_law_length(std::mt19937_64& engine)
{
  const double u = double((engine() >> 11) + 1) / double(1ull << 53);
  return std::int64_t(std::min(65536.0, std::floor(1.0 / (u * u)))) - 1;
}

//! 1 to 200 items for one segment in 64, else none.
inline std::int64_t mostly_empty_length(std::mt19937_64& engine)
{
  return uniform_length(engine, 0, 63) == 0 ? uniform_length(engine, 1, 200) : 0;
}

//! Segments that chunk borders cut at every place the agent tells apart: for each piece length
//! (1, 2, around the lane part, around two lane parts, the warp round, a round and a lane part, the
//! chunk, two chunks, three chunks and 7) and each count of its items in front of a border (0: it
//! starts on the border; 1, 31, 32, 33, half of it, length - 33, - 32, - 31, - 1; its length: it ends
//! on the border; length + 1, + cost - 1, + cost: only its overhead straddles the border, or none of
//! it), a filler segment (of any length, empty ones too) moves the piece to that place on the cost
//! line, or none where the piece already starts there. Pieces longer than a chunk leave whole chunks
//! between their parts. Batches of at most sr_min_chunks chunks, so that the chunks are sr_chunk
//! units on any GPU.
inline std::vector<segment_layout> chunk_pieces()
{
  const std::int64_t chunk = sr_chunk;
  const std::int64_t cost  = sr_segment_cost;
  const std::int64_t lane  = sr_lane;
  const std::int64_t limit = sr_min_chunks * chunk;
  std::vector<std::int64_t> lengths{1, 2, 3 * chunk + 7};
  for (const std::int64_t around : {lane, 2 * lane, sr_round, sr_round + lane, chunk, 2 * chunk})
  {
    lengths.insert(lengths.end(), {around - 1, around, around + 1});
  }
  std::vector<segment_layout> batches;
  std::vector<std::int64_t> batch_lengths;
  std::int64_t cursor = 0; // the cost line's end so far
  // Where a piece `before` units ahead of a border starts, the line ending at `at`: right there, or
  // after a filler (which costs at least `cost`).
  const auto place = [&](std::int64_t at, std::int64_t before)
  {
    std::int64_t border = (at + before + chunk - 1) / chunk * chunk;
    while (border - before != at && border - before - at < cost)
    {
      border += chunk;
    }
    return border - before;
  };
  const auto close_batch = [&]
  {
    batches.push_back(
        contiguous_layout("pieces cut by chunk borders, part " + std::to_string(batches.size() + 1), batch_lengths));
    batch_lengths.clear();
    cursor = 0;
  };
  for (const std::int64_t length : lengths)
  {
    std::vector<std::int64_t> befores{0, 1, lane - 1, lane, lane + 1, length / 2};
    for (const std::int64_t from_end :
         {-lane - 1, -lane, -lane + 1, std::int64_t(-1), std::int64_t(0), std::int64_t(1), cost - 1, cost})
    {
      befores.push_back(length + from_end);
    }
    std::sort(befores.begin(), befores.end());
    befores.erase(std::unique(befores.begin(), befores.end()), befores.end());
    for (const std::int64_t before : befores)
    {
      if (before < 0)
      {
        continue;
      }
      std::int64_t start = place(cursor, before);
      if (start + length + cost > limit && cursor > 0)
      {
        close_batch();
        start = place(cursor, before);
      }
      if (start > cursor)
      {
        batch_lengths.push_back(start - cursor - cost); // the filler
      }
      batch_lengths.push_back(length);
      cursor = start + length + cost;
    }
  }
  close_batch();
  return batches;
}

//! Every layout the type tests run, from `seed`; under the sanitizers (under_sanitizer()) the
//! largest ones shrink to sizes that still take many chunks each:
//! - no segments; one segment of 0, 1, 32, 33, 1025, 100003 and 2^24 + 13 (2^20 + 7) items;
//! - chunk_pieces();
//! - 16 equal segments holding 2^24 + 13 (2^20 + 7) items, the last one 13 (7) longer;
//! - 2^22 (2^16) tiny segments of 0 to 3 items;
//! - 2^14 (2^10) power-law lengths, min(65536, 1 / u^2) - 1 for u uniform in (0, 1] (mean ~ 500,
//!   about 30% empty);
//! - 2^17 (2^12) segments mostly empty: one in 64 holds 1 to 200 items, so that many chunks hold
//!   nothing but the overhead of empty segments;
//! - 2^13 (2^10) lengths uniform in [0, 2 chunks];
//! - all empty: 2^17 + 3 (4099) segments at random places, end == begin or end < begin;
//! - scattered: 2^15 (2^11) segments in random order at random places of 2^20 (2^16) items,
//!   overlapping, one in 20 reversed (empty), lengths 0 to 40 (half of them), 41 to 3000, or (one in
//!   50) up to 20000;
//! - gapped and descending: 2^12 (2^9) segments of 0 to 2100 items with gaps of 0 to 50 items
//!   between them, listed from the last to the first.
inline std::vector<segment_layout> segment_shapes(std::uint64_t seed)
{
  const bool full        = !under_sanitizer();
  const std::int64_t big = full ? (std::int64_t(1) << 24) + 13 : (std::int64_t(1) << 20) + 7;
  std::vector<segment_layout> shapes;
  shapes.push_back(contiguous_layout("no segments", {}));
  for (const std::int64_t n :
       {std::int64_t(0), std::int64_t(1), sr_lane, sr_lane + 1, sr_chunk + 1, std::int64_t(100003), big})
  {
    shapes.push_back(contiguous_layout("one segment of " + std::to_string(n) + " items", {n}));
  }
  for (segment_layout& pieces : chunk_pieces())
  {
    shapes.push_back(std::move(pieces));
  }
  {
    std::vector<std::int64_t> lengths(16, big / 16);
    lengths.back() += big % 16;
    shapes.push_back(contiguous_layout("16 equal segments of " + std::to_string(big) + " items", lengths));
  }
  const auto count = [full](int full_log2, int small_log2)
  { return std::size_t(1) << (full ? full_log2 : small_log2); };
  shapes.push_back(contiguous_layout(
      "tiny segments of 0 to 3 items",
      random_lengths(count(22, 16), seed + 1, [](std::mt19937_64& e) { return uniform_length(e, 0, 3); })));
  shapes.push_back(contiguous_layout("power-law lengths", random_lengths(count(14, 10), seed + 2, power_law_length)));
  shapes.push_back(
      contiguous_layout("mostly empty segments", random_lengths(count(17, 12), seed + 3, mostly_empty_length)));
  shapes.push_back(contiguous_layout(
      "lengths uniform in [0, 2 chunks]",
      random_lengths(count(13, 10), seed + 4, [](std::mt19937_64& e) { return uniform_length(e, 0, 2 * sr_chunk); })));
  {
    segment_layout empty{"all segments empty, some reversed", {}, {}, false};
    std::mt19937_64 engine(seed + 5);
    const std::size_t n = full ? (std::size_t(1) << 17) + 3 : 4099;
    for (std::size_t s = 0; s < n; ++s)
    {
      const std::int64_t begin = uniform_length(engine, 3, 1000);
      empty.begin.push_back(begin);
      empty.end.push_back(begin - uniform_length(engine, 0, 3));
    }
    shapes.push_back(std::move(empty));
  }
  {
    segment_layout scattered{"scattered, overlapping segments in random order", {}, {}, false};
    std::mt19937_64 engine(seed + 6);
    const std::int64_t items = full ? std::int64_t(1) << 20 : std::int64_t(1) << 16;
    const std::size_t n      = count(15, 11);
    for (std::size_t s = 0; s < n; ++s)
    {
      const std::int64_t begin = uniform_length(engine, 0, items - 1);
      const std::int64_t kind  = uniform_length(engine, 0, 99);
      const std::int64_t length =
          kind < 50 ? uniform_length(engine, 0, 40)
                    : (kind < 98 ? uniform_length(engine, 41, 3000) : uniform_length(engine, 3001, 20000));
      scattered.begin.push_back(begin);
      // Reversed ones end at 0 at the lowest, so that uint32 offsets hold them too.
      scattered.end.push_back(kind % 20 == 7 ? std::max<std::int64_t>(0, begin - length)
                                             : std::min(items, begin + length));
    }
    shapes.push_back(std::move(scattered));
  }
  {
    segment_layout gapped{"segments with gaps between them, in descending order", {}, {}, false};
    std::mt19937_64 engine(seed + 7);
    const std::size_t n   = count(12, 9);
    std::int64_t position = 0;
    for (std::size_t s = 0; s < n; ++s)
    {
      position += uniform_length(engine, 0, 50);
      gapped.begin.push_back(position);
      position += uniform_length(engine, 0, 2100);
      gapped.end.push_back(position);
    }
    std::reverse(gapped.begin.begin(), gapped.begin.end());
    std::reverse(gapped.end.begin(), gapped.end.end());
    shapes.push_back(std::move(gapped));
  }
  return shapes;
}

//! The input items a list of layouts needs.
inline std::size_t items_of(const std::vector<segment_layout>& layouts)
{
  std::size_t items = 1;
  for (const segment_layout& layout : layouts)
  {
    items = std::max(items, layout.items());
  }
  return items;
}

//! A layout's offsets on the device as OffsetT: for a contiguous layout one array of segments + 1
//! offsets (begin() and begin() + 1), else the begin and the end offsets.
template <typename OffsetT>
class device_segments
{
public:
  explicit device_segments(const segment_layout& layout)
      : contiguous_(layout.contiguous)
  {
    std::vector<OffsetT> first(layout.begin.begin(), layout.begin.end());
    if (contiguous_)
    {
      first.push_back(OffsetT(layout.end.empty() ? 0 : layout.end.back()));
    }
    else
    {
      second_ = device_buffer<OffsetT>(std::vector<OffsetT>(layout.end.begin(), layout.end.end()));
    }
    first_ = device_buffer<OffsetT>(first);
  }

  const OffsetT* begin() const
  {
    return first_.data();
  }
  const OffsetT* end() const
  {
    return contiguous_ ? first_.data() + 1 : second_.data();
  }

private:
  bool contiguous_;
  device_buffer<OffsetT> first_;
  device_buffer<OffsetT> second_;
};

//! Whether every byte of `x` is poison_byte. Byte by byte, padding included: a copy of a poison
//! value need not keep its padding bytes (KeyValuePair<int, double> has four).
template <typename T>
bool is_poison(const T& x)
{
  const auto* bytes = reinterpret_cast<const unsigned char*>(&x);
  for (std::size_t i = 0; i < sizeof(T); ++i)
  {
    if (bytes[i] != poison_byte)
    {
      return false;
    }
  }
  return true;
}

//! Runs a two-phase call `call(d_temp, bytes, d_out)` (size query, then the run with that much
//! storage) for `num_segments` segments into num_segments + 1 poisoned outputs; CHECKs that the one
//! past the segments keeps its poison and returns the others.
template <typename OutputT, typename CallT>
std::vector<OutputT> run_segmented(std::int64_t num_segments, CallT&& call)
{
  device_buffer<OutputT> d_out(std::size_t(num_segments) + 1);
  d_out.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes, d_out.data()));
  REQUIRE(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(call(d_temp.data(), bytes, d_out.data()));
  check_launch();
  std::vector<OutputT> out = d_out.download();
  INFO("the output past the last segment is written");
  CHECK(is_poison(out.back()));
  out.pop_back();
  return out;
}

//! op(init, the items of segment s in order) for every segment (init alone for an empty one).
template <typename AccT, typename T, typename OpT>
std::vector<AccT> reference_reduce(const std::vector<T>& in, const segment_layout& layout, AccT init, OpT op)
{
  std::vector<AccT> out(layout.begin.size());
  for (std::size_t s = 0; s < out.size(); ++s)
  {
    AccT acc = init;
    for (std::int64_t i = layout.begin[s]; i < layout.end[s]; ++i)
    {
      acc = op(acc, in[std::size_t(i)]);
    }
    out[s] = acc;
  }
  return out;
}

//! a < b, exactly for every type (__half through double, which holds it exactly).
template <typename T>
bool value_less(const T& a, const T& b)
{
  if constexpr (is_extended_float_v<T>)
  {
    return to_double(a) < to_double(b);
  }
  else
  {
    return a < b;
  }
}

//! The expected ArgMin or ArgMax of every segment: the position in the segment of its first
//! smallest (largest) item and that item; {1, the type's largest (lowest) value} for an empty one.
template <typename T>
struct arg_reference
{
  std::vector<int> keys;
  std::vector<T> values;

  arg_reference(const std::vector<T>& in, const segment_layout& layout, bool minimum)
  {
    const T empty = minimum ? cuda::std::numeric_limits<T>::max() : cuda::std::numeric_limits<T>::lowest();
    for (std::size_t s = 0; s < layout.begin.size(); ++s)
    {
      const std::int64_t begin = layout.begin[s];
      if (layout.end[s] <= begin)
      {
        keys.push_back(1);
        values.push_back(empty);
        continue;
      }
      std::int64_t best = begin;
      for (std::int64_t i = begin + 1; i < layout.end[s]; ++i)
      {
        const T& x = in[std::size_t(i)];
        const T& b = in[std::size_t(best)];
        best       = (minimum ? value_less(x, b) : value_less(b, x)) ? i : best;
      }
      keys.push_back(int(best - begin));
      values.push_back(in[std::size_t(best)]);
    }
  }
};

//! CHECKs ArgMin / ArgMax outputs against the reference, keys and values apart.
template <typename T>
void check_pairs(const arg_reference<T>& expected, const std::vector<strata::KeyValuePair<int, T>>& actual)
{
  std::vector<int> keys;
  std::vector<T> values;
  for (const auto& pair : actual)
  {
    keys.push_back(pair.key);
    values.push_back(pair.value);
  }
  {
    INFO("the keys (positions in the segments)");
    check_equal(expected.keys, keys);
  }
  INFO("the values");
  check_equal(expected.values, values);
}
} // namespace strata_test

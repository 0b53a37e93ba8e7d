// test/device/device_memcpy_checks.cuh: what the DeviceMemcpy::Batched and DeviceCopy::Batched
// tests share: the policy's work split (chunks of cost units, a fixed cost per buffer, the largest
// part one lane copies), buffer sizes in units (bytes, or items) drawn from distributions that
// place buffers on both sides of the chunk boundaries, layouts of the buffers in a source and a
// destination arena (packed, shifted, with gaps, in reversed or shuffled order, null pointers for
// empty buffers), the host reference and a comparison of the whole destination arena, gaps
// included, unit by unit.
#pragma once

#include <strata/device/dispatch/tuning/tuning_batch_memcpy.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace strata_test
{
//! The byte written into destination arenas before a batched copy: the gaps between destinations,
//! and every destination of an empty or negative buffer, must still hold it afterwards.
inline constexpr unsigned char copy_poison = 0xAB;

//! The tuning the batched copies run with on sm_90 (sm_75 and sm_80 have the same numbers now): the
//! sizes below follow its chunk, buffer cost and lane part, so that a change of policy moves the
//! tests with it.
using batch_copy_policy =
    strata::detail::batch_memcpy::policy_hub<std::uint64_t, std::uint32_t>::Policy900::BatchMemcpyPolicyT;

//! The work split in units (bytes of DeviceMemcpy, items of DeviceCopy): a warp's chunk of the
//! cost line, what each buffer costs on top of its units, the largest part one lane copies alone.
struct copy_split
{
  std::int64_t chunk;
  std::int64_t buffer_cost;
  std::int64_t lane;
};

//! The split of a batch of `unit_bytes`-byte units.
inline copy_split split_of(std::size_t unit_bytes)
{
  const auto lane = std::int64_t(batch_copy_policy::LANE_BYTES) / std::int64_t(unit_bytes);
  return {batch_copy_policy::CHUNK_UNITS, batch_copy_policy::BUFFER_COST_UNITS, lane > 0 ? lane : 1};
}

//! How buffer sizes are drawn.
enum class size_dist
{
  zeros,     //!< every buffer empty
  tiny,      //!< uniform in [0, lane]: every buffer copied by one lane
  uniform,   //!< uniform in [0, 4096]
  power_law, //!< min(65536, floor(1 / u^2)) for u uniform in (0, 1]: mean about 512, tail to 64 Ki
  straddle,  //!< one chunk (or two, three, 64) and -1, 0, +1, 17 around it, the buffer cost too
  pieces     //!< fillers and buffers cut by chunk boundaries into pieces of 0, 1, 3, 15, 16, 17,
             //!< lane - 1, lane, lane + 1, 2 lane + 1 and 63 units on either side (a whole chunk
             //!< between them in turn)
};

inline const char* dist_name(size_dist dist)
{
  switch (dist)
  {
  case size_dist::zeros:
    return "all zero";
  case size_dist::tiny:
    return "tiny (0 to lane)";
  case size_dist::uniform:
    return "uniform 0 to 4096";
  case size_dist::power_law:
    return "power law 1 to 65536";
  case size_dist::straddle:
    return "straddling chunk multiples";
  default:
    return "pieces at chunk boundaries";
  }
}

inline const std::vector<size_dist>& all_dists()
{
  static const std::vector<size_dist> dists{size_dist::zeros,     size_dist::tiny,     size_dist::uniform,
                                            size_dist::power_law, size_dist::straddle, size_dist::pieces};
  return dists;
}

//! `count` sizes whose buffers fall on the cost line so that chunk boundaries cut them into
//! pieces of every length in a list on either side (buffers of exactly those lengths too, where the
//! boundary falls at a buffer's start or end): each cut buffer follows a filler that ends the cost
//! line where it must start.
inline std::vector<std::int64_t> boundary_pieces(std::size_t count, const copy_split& split)
{
  // 15 to 17: around the 16-byte words of WarpCopyBytes; lane +- 1: around the largest part one lane
  // copies alone.
  std::vector<std::int64_t> lengths{0, 1, 3, 15, 16, 17, split.lane - 1, split.lane, split.lane + 1, 2 * split.lane + 1,
                                    63};
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  const std::size_t kinds = lengths.size();
  std::vector<std::int64_t> sizes;
  std::int64_t cursor   = 0; // the next buffer's offset on the cost line
  std::int64_t boundary = split.chunk;
  for (std::size_t combo = 0; sizes.size() < count; ++combo)
  {
    const std::int64_t head   = lengths[combo % kinds];
    const std::int64_t tail   = lengths[combo / kinds % kinds];
    const std::int64_t middle = combo / (kinds * kinds) % 2 == 1 ? split.chunk : 0;
    if (head + middle + tail == 0)
    {
      continue;
    }
    // The filler before the cut buffer costs at least buffer_cost (it may be empty).
    while (boundary - head < cursor || (boundary - head > cursor && boundary - head - cursor < split.buffer_cost))
    {
      boundary += split.chunk;
    }
    if (boundary - head > cursor)
    {
      sizes.push_back(boundary - head - cursor - split.buffer_cost);
      cursor = boundary - head;
      if (sizes.size() == count)
      {
        break;
      }
    }
    sizes.push_back(head + middle + tail);
    cursor += head + middle + tail + split.buffer_cost;
    boundary += split.chunk + middle;
  }
  return sizes;
}

//! `count` sizes of `dist` in units, from `seed`.
inline std::vector<std::int64_t> make_sizes(size_dist dist, std::size_t count, std::uint64_t seed,
                                            const copy_split& split)
{
  std::mt19937_64 engine(seed);
  std::vector<std::int64_t> sizes(count, 0);
  switch (dist)
  {
  case size_dist::zeros:
    break;
  case size_dist::tiny:
  {
    std::uniform_int_distribution<std::int64_t> size(0, split.lane);
    std::generate(sizes.begin(), sizes.end(), [&] { return size(engine); });
    break;
  }
  case size_dist::uniform:
  {
    std::uniform_int_distribution<std::int64_t> size(0, 4096);
    std::generate(sizes.begin(), sizes.end(), [&] { return size(engine); });
    break;
  }
  case size_dist::power_law:
  {
    std::generate(sizes.begin(), sizes.end(),
                  [&]
                  {
                    const double u = double((engine() >> 11) + 1) / double(std::uint64_t(1) << 53); // (0, 1]
                    return std::min<std::int64_t>(65536, std::int64_t(1.0 / (u * u)));
                  });
    break;
  }
  case size_dist::straddle:
  {
    const std::int64_t c                   = split.chunk;
    const std::int64_t k                   = split.buffer_cost;
    const std::vector<std::int64_t> around = {c - 1,     c,         c + 1,      c + 17,    c - k,      c - k - 1,
                                              c - k + 1, 2 * c - 1, 2 * c + 17, 3 * c + 1, split.lane, split.lane + 1,
                                              1,         0};
    std::uniform_int_distribution<std::size_t> pick(0, around.size() - 1);
    std::uniform_int_distribution<int> rare(0, 63);
    std::generate(sizes.begin(), sizes.end(), [&] { return rare(engine) == 0 ? 64 * c + 3 : around[pick(engine)]; });
    break;
  }
  default:
    sizes = boundary_pieces(count, split);
    break;
  }
  return sizes;
}

//! Replaces about one size in eight by a negative one (-1, -16, -17, -4096 or INT32_MIN): such a
//! buffer copies nothing.
inline void add_negative_sizes(std::vector<std::int64_t>& sizes, std::uint64_t seed)
{
  const std::int64_t negatives[] = {-1, -16, -17, -4096, std::numeric_limits<std::int32_t>::min()};
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> pick(0, 39);
  for (std::int64_t& size : sizes)
  {
    const int p = pick(engine);
    if (p < 5)
    {
      size = negatives[p];
    }
  }
}

//! The units a batch copies.
inline std::uint64_t total_units(const std::vector<std::int64_t>& sizes)
{
  std::uint64_t total = 0;
  for (const std::int64_t size : sizes)
  {
    total += size > 0 ? std::uint64_t(size) : 0;
  }
  return total;
}

//! Where the buffers lie in the source and destination arenas.
enum class layout
{
  packed,    //!< back to back in both, at the same offsets
  shifted_1, //!< packed, each destination 1 unit after its source's offset
  shifted_2,
  shifted_3,
  shifted_4,
  shifted_8,
  gapped,   //!< in order in both, random gaps of 0 to 40 units before each buffer in each arena
  reversed, //!< sources in order, destinations in reverse order, both with gaps
  shuffled  //!< sources and destinations in two random orders, with gaps
};

inline const char* layout_name(layout l)
{
  constexpr const char* names[] = {"packed",           "dst shifted by 1",      "dst shifted by 2",
                                   "dst shifted by 3", "dst shifted by 4",      "dst shifted by 8",
                                   "with gaps",        "reversed destinations", "shuffled"};
  return names[static_cast<int>(l)];
}

//! Every layout; DeviceCopy's items keep their alignment whatever the shift, so its tests take
//! those without shifts.
inline const std::vector<layout>& all_layouts()
{
  static const std::vector<layout> layouts{layout::packed,    layout::shifted_1, layout::shifted_2,
                                           layout::shifted_3, layout::shifted_4, layout::shifted_8,
                                           layout::gapped,    layout::reversed,  layout::shuffled};
  return layouts;
}

//! The offset of a null pointer.
inline constexpr std::uint64_t null_offset = ~std::uint64_t(0);

//! Each buffer's offset in units in the source and in the destination arena (null_offset: a null
//! pointer), and the arenas' sizes: the destination arena ends with 64 units after its last
//! destination.
struct placement
{
  std::vector<std::uint64_t> src;
  std::vector<std::uint64_t> dst;
  std::size_t src_units = 0;
  std::size_t dst_units = 0;
};

//! The buffers of `sizes` laid out as `l` says. Of the buffers with nothing to copy (size 0 or
//! negative), every fourth has two null pointers, every fourth a null source, every fourth a null
//! destination; the others point into the arenas (where a write would show).
inline placement place(const std::vector<std::int64_t>& sizes, layout l, std::uint64_t seed)
{
  const std::size_t n = sizes.size();
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<std::uint64_t> gap_units(0, 40);
  const bool gaps           = l == layout::gapped || l == layout::reversed || l == layout::shuffled;
  const auto gap            = [&] { return gaps ? gap_units(engine) : 0; };
  constexpr int shifts[]    = {0, 1, 2, 3, 4, 8};
  const std::uint64_t shift = gaps ? 0 : std::uint64_t(shifts[static_cast<int>(l)]);

  std::vector<std::size_t> src_order(n);
  std::iota(src_order.begin(), src_order.end(), std::size_t(0));
  std::vector<std::size_t> dst_order = src_order;
  if (l == layout::reversed)
  {
    std::reverse(dst_order.begin(), dst_order.end());
  }
  if (l == layout::shuffled)
  {
    std::shuffle(src_order.begin(), src_order.end(), engine);
    std::shuffle(dst_order.begin(), dst_order.end(), engine);
  }
  placement p;
  p.src.resize(n);
  p.dst.resize(n);
  std::uint64_t cursor = 0;
  for (const std::size_t b : src_order)
  {
    cursor += gap();
    p.src[b] = cursor;
    cursor += sizes[b] > 0 ? std::uint64_t(sizes[b]) : 0;
  }
  p.src_units = std::size_t(cursor);
  cursor      = shift;
  for (const std::size_t b : dst_order)
  {
    cursor += gap();
    p.dst[b] = cursor;
    cursor += sizes[b] > 0 ? std::uint64_t(sizes[b]) : 0;
  }
  p.dst_units       = std::size_t(cursor) + 64;
  std::size_t empty = 0;
  for (std::size_t b = 0; b < n; ++b)
  {
    if (sizes[b] <= 0)
    {
      const std::size_t kind = empty++ % 4;
      if (kind == 1 || kind == 2)
      {
        p.src[b] = null_offset;
      }
      if (kind == 1 || kind == 3)
      {
        p.dst[b] = null_offset;
      }
    }
  }
  return p;
}

//! The destination arena after the batch: `poison` everywhere but the copied buffers.
template <typename T>
std::vector<T> reference_copy(const std::vector<T>& src, const std::vector<std::int64_t>& sizes, const placement& p,
                              const T& poison)
{
  std::vector<T> dst(p.dst_units, poison);
  for (std::size_t b = 0; b < sizes.size(); ++b)
  {
    if (sizes[b] > 0)
    {
      std::copy_n(src.begin() + std::ptrdiff_t(p.src[b]), sizes[b], dst.begin() + std::ptrdiff_t(p.dst[b]));
    }
  }
  return dst;
}

//! A T whose bytes are all copy_poison.
template <typename T>
T copy_poison_value()
{
  T value;
  std::memset(static_cast<void*>(&value), copy_poison, sizeof(T));
  return value;
}

//! Fills a device arena with copy_poison and waits for it.
template <typename T>
void poison_arena(const device_buffer<T>& arena)
{
  if (arena.size() > 0)
  {
    STRATA_TEST_CUDA(cudaMemset(arena.data(), copy_poison, arena.bytes()));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
  }
}

//! Where unit `at` of the destination arena belongs: a buffer's unit, or no destination.
inline std::string locate(std::size_t at, const std::vector<std::int64_t>& sizes, const placement& p)
{
  for (std::size_t b = 0; b < sizes.size(); ++b)
  {
    if (sizes[b] > 0 && p.dst[b] <= at && at < p.dst[b] + std::uint64_t(sizes[b]))
    {
      std::ostringstream text;
      text << "buffer " << b << " of " << sizes[b] << " units (source at " << p.src[b] << "), unit " << at - p.dst[b];
      return text.str();
    }
  }
  return "outside every destination";
}

//! The bytes of a value in hex.
template <typename T>
std::string hex_bytes(const T& value)
{
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  std::ostringstream text;
  text << std::hex << std::setfill('0');
  for (const unsigned char byte : bytes)
  {
    text << std::setw(2) << int(byte);
  }
  return text.str();
}

//! CHECKs the whole destination arena against the reference, byte for byte, and names the buffer
//! (or the gap) of the first mismatches.
template <typename T>
void check_arena(const std::vector<T>& expected, const std::vector<T>& actual, const std::vector<std::int64_t>& sizes,
                 const placement& p)
{
  REQUIRE(expected.size() == actual.size());
  std::size_t mismatches = 0;
  std::ostringstream report;
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    if (std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0)
    {
      if (mismatches < 8)
      {
        report << "  unit " << i << " (" << locate(i, sizes, p) << "): expected " << hex_bytes(expected[i]) << ", got "
               << hex_bytes(actual[i]) << "\n";
      }
      ++mismatches;
    }
  }
  INFO(mismatches << " of " << expected.size() << " units of the destination arena differ (rerun with --rng-seed "
                  << Catch::getSeed() << "):\n"
                  << report.str());
  CHECK(mismatches == 0);
}
} // namespace strata_test

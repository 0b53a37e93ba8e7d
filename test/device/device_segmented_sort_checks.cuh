// test/device/device_segmented_sort_checks.cuh: what the DeviceSegmentedRadixSort and
// DeviceSegmentedSort tests share: segment layouts (contiguous, or with gaps, backwards segments and
// segments listed out of order), segment lengths around every bin of the engine, keys drawn per
// segment, a host reference (a stable sort of each segment by the key bits in [begin_bit, end_bit)
// of their radix order, from device_radix_sort_checks.cuh), one call of any of the 24 sort
// functions, and one checked sort: both of the caller's buffers poisoned around the items,
// compared in full against the reference.
#pragma once

#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_checks.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata_test
{
//! Segment i is the items [begin[i], end[i]) of num_items; end <= begin is an empty segment.
struct segment_layout
{
  std::string name;
  std::int64_t num_items = 0;
  std::vector<std::int64_t> begin;
  std::vector<std::int64_t> end;

  std::int64_t num_segments() const
  {
    return std::int64_t(begin.size());
  }
};

//! Segments of these lengths one after the other, from item 0 to the last.
inline segment_layout contiguous_layout(std::string name, const std::vector<std::int64_t>& lengths)
{
  segment_layout layout{std::move(name), 0, {}, {}};
  for (std::int64_t length : lengths)
  {
    layout.begin.push_back(layout.num_items);
    layout.num_items += length;
    layout.end.push_back(layout.num_items);
  }
  return layout;
}

//! Segments of these lengths with gaps of 0 to `max_gap` items before each and after the last,
//! backwards segments (end < begin, empty: their items are gaps too) before about one in five, and
//! the segments listed in a random order (they need not be in the order of their items).
inline segment_layout gapped_layout(std::string name, const std::vector<std::int64_t>& lengths, std::uint64_t seed,
                                    std::int64_t max_gap)
{
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<std::int64_t> gap(0, max_gap);
  std::uniform_int_distribution<std::int64_t> backwards_length(1, 300);
  std::vector<std::pair<std::int64_t, std::int64_t>> segments;
  std::int64_t at = 0;
  for (std::int64_t length : lengths)
  {
    at += gap(engine);
    if (engine() % 5 == 0)
    {
      const std::int64_t skipped = backwards_length(engine);
      segments.emplace_back(at + skipped, at);
      at += skipped + gap(engine);
    }
    segments.emplace_back(at, at + length);
    at += length;
  }
  at += gap(engine) + 1; // at least one item after the last segment
  std::shuffle(segments.begin(), segments.end(), engine);
  segment_layout layout{std::move(name), at, {}, {}};
  for (const auto& segment : segments)
  {
    layout.begin.push_back(segment.first);
    layout.end.push_back(segment.second);
  }
  return layout;
}

//! The longest segment of each bin of segments that one sorter takes whole (a few lanes, a warp,
//! a block, a larger block) for KeyT keys with ValueT values on sm_90, and the onesweep tile of the
//! longer segments.
template <typename KeyT, typename ValueT>
struct segmented_bins
{
  using policy_t                       = typename strata::detail::segmented_sort::policy_hub<KeyT, ValueT>::Policy900;
  static constexpr std::int64_t tiny   = policy_t::TinyPolicy::MAX_ITEMS;
  static constexpr std::int64_t small  = policy_t::SmallPolicy::MAX_ITEMS;
  static constexpr std::int64_t medium = policy_t::MediumPolicy::MAX_ITEMS;
  static constexpr std::int64_t large  = policy_t::LargePolicy::MAX_ITEMS;
  static constexpr std::int64_t onesweep =
      std::int64_t(policy_t::OnesweepPolicy::BLOCK_THREADS) * policy_t::OnesweepPolicy::ITEMS_PER_THREAD;
};

//! Segment lengths in every bin of the engine and on both sides of each bin's edge: those of the
//! design (32, 256, 2048, a block's tile of 4096 or 8192) and those of KeyT's and ValueT's policy;
//! segments of one, two and three onesweep tiles and either side of them; empty ones; random
//! lengths in each bin; shuffled, so that the bins interleave. Unless `reduced` (under
//! compute-sanitizer), also segments of 12000, 16384, 16385, 100003 and 300007 items (onesweep
//! chains longer than the three-tile ones, down the same paths) and four times as many random
//! lengths.
template <typename KeyT, typename ValueT>
std::vector<std::int64_t> bin_edge_lengths(std::uint64_t seed, bool reduced)
{
  using bins_t = segmented_bins<KeyT, ValueT>;
  std::vector<std::int64_t> lengths{0,    0,    1,    2,    3,    5,    16,   31,   32,   33,   64,   255,  256, 257,
                                    1000, 2047, 2048, 2049, 3000, 4095, 4096, 4097, 6000, 8191, 8192, 8193, 8194};
  for (std::int64_t edge : {bins_t::tiny, bins_t::small, bins_t::medium, bins_t::large})
  {
    lengths.insert(lengths.end(), {edge - 1, edge, edge + 1});
  }
  const std::int64_t tile = bins_t::onesweep;
  lengths.insert(lengths.end(), {tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile, 2 * tile + 1, 3 * tile + 7});
  if (!reduced)
  {
    lengths.insert(lengths.end(), {12000, 16384, 16385, 100003, 300007});
  }
  std::mt19937_64 engine(seed);
  const std::pair<std::int64_t, std::int64_t> ranges[] = {{0, 40},      {30, 300},    {250, 2100},
                                                          {2040, 4100}, {4090, 8200}, {8190, 40000}};
  const int per_range[]                                = {64, 24, 8, 4, 4, 2};
  for (int r = 0; r < 6; ++r)
  {
    std::uniform_int_distribution<std::int64_t> length(ranges[r].first, ranges[r].second);
    for (int i = 0; i < (reduced ? (per_range[r] + 3) / 4 : per_range[r]); ++i)
    {
      lengths.push_back(length(engine));
    }
  }
  std::shuffle(lengths.begin(), lengths.end(), engine);
  return lengths;
}

//! `count` lengths of 0 to 16 items.
inline std::vector<std::int64_t> tiny_lengths(std::int64_t count, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::vector<std::int64_t> lengths(std::size_t(count), 0);
  for (auto& length : lengths)
  {
    length = std::int64_t(engine() % 17);
  }
  return lengths;
}

//! Lengths of a power law (P(length >= x) ~ x^-1.2: mostly a few items, rarely up to `cap`) until
//! they add up to at least `total` items.
inline std::vector<std::int64_t> power_law_lengths(std::int64_t total, std::int64_t cap, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::int64_t> lengths;
  std::int64_t sum = 0;
  while (sum < total)
  {
    const double x            = std::pow(1.0 - uniform(engine), -1.0 / 1.2) - 1.0;
    const std::int64_t length = std::min(cap, std::int64_t(x));
    lengths.push_back(length);
    sum += length;
  }
  return lengths;
}

//! How the keys of each segment are drawn.
enum class segment_keys
{
  random,     //!< random bits (floats: one key in eight a special: +-0.0, +-inf, NaNs of both signs, denormals)
  few_values, //!< four keys shared by all segments (floats: +0.0, -0.0, a NaN and a random key), so that
              //!< equal keys abound in every segment
  mixed       //!< each segment one of: random, few values, all equal, one constant in every byte but the
              //!< lowest and highest (radix passes in which the segment has one digit), sorted, reversed
};

//! The host's type of KeyT keys: bool keys are bytes of 0 and 1 on the host (std::vector<bool>
//! packs bits), passed to the sorts as bool.
template <typename KeyT>
using host_key_t = std::conditional_t<std::is_same_v<KeyT, bool>, std::uint8_t, KeyT>;

//! The mantissa bits of a floating-point key type.
template <typename KeyT>
constexpr int mantissa_bits()
{
  if constexpr (std::is_same_v<KeyT, __half>)
  {
    return 10;
  }
  else if constexpr (std::is_same_v<KeyT, __nv_bfloat16>)
  {
    return 7;
  }
  else if constexpr (std::is_same_v<KeyT, __nv_fp8_e4m3>)
  {
    return 3;
  }
  else if constexpr (std::is_same_v<KeyT, __nv_fp8_e5m2>)
  {
    return 2;
  }
  else
  {
    return std::numeric_limits<KeyT>::digits - 1;
  }
}

//! Bit patterns of a floating-point key type (of up to 64 bits).
template <typename KeyT>
struct float_bits
{
  static constexpr int width              = int(sizeof(KeyT)) * 8;
  static constexpr std::uint64_t all      = width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
  static constexpr std::uint64_t sign     = std::uint64_t(1) << (width - 1);
  static constexpr std::uint64_t mantissa = (std::uint64_t(1) << mantissa_bits<KeyT>()) - 1;
  static constexpr std::uint64_t exponent = all & ~sign & ~mantissa;
  static constexpr std::uint64_t quiet    = std::uint64_t(1) << (mantissa_bits<KeyT>() - 1);
  static constexpr std::uint64_t nan      = exponent | mantissa; // a NaN in every format (e4m3's only one)
};

//! A random key (as the host holds it): random bits; bool keys 0 or 1; for floating-point keys
//! one in eight is a special value (for fp8 e4m3, which has no infinities, the patterns of
//! infinities and NaNs are its largest numbers and its NaN).
template <typename KeyT>
host_key_t<KeyT> random_segment_key(std::mt19937_64& engine)
{
  host_key_t<KeyT> key;
  std::uint64_t bits[2] = {engine(), 0};
  if constexpr (std::is_same_v<KeyT, bool>)
  {
    bits[0] &= 1;
  }
  else if constexpr (sizeof(KeyT) > 8)
  {
    bits[1] = engine();
  }
  else if constexpr (is_radix_float_v<KeyT>)
  {
    using f                         = float_bits<KeyT>;
    const std::uint64_t payload     = engine() & (f::quiet - 1);
    const std::uint64_t random_sign = (engine() & 1) ? f::sign : 0;
    if (engine() % 8 == 0)
    {
      switch (engine() % 6)
      {
      case 0:
        bits[0] = 0;
        break; // +0.0
      case 1:
        bits[0] = f::sign;
        break; // -0.0
      case 2:
        bits[0] = random_sign | f::exponent;
        break; // +-inf
      case 3:
        bits[0] = random_sign | f::exponent | f::quiet | payload;
        break; // quiet NaN
      case 4:
        bits[0] = random_sign | f::exponent | (payload == 0 ? 1 : payload);
        break; // signalling NaN
      default:
        bits[0] = random_sign | (payload == 0 ? 1 : payload);
        break; // denormal
      }
    }
  }
  std::memcpy(static_cast<void*>(&key), bits, sizeof(key));
  return key;
}

//! Keys for the items of a layout (the items in gaps get random keys too), as the host holds them.
template <typename KeyT>
std::vector<host_key_t<KeyT>> segmented_keys(const segment_layout& layout, segment_keys kind, std::uint64_t seed)
{
  using key_t = host_key_t<KeyT>;
  std::mt19937_64 engine(seed);
  std::vector<key_t> keys(std::size_t(layout.num_items));
  for (auto& key : keys)
  {
    key = random_segment_key<KeyT>(engine);
  }
  key_t pool[4];
  for (auto& key : pool)
  {
    key = random_segment_key<KeyT>(engine);
  }
  if constexpr (is_radix_float_v<KeyT>)
  {
    using f                         = float_bits<KeyT>;
    const std::uint64_t specials[3] = {0, f::sign, ((engine() & 1) ? f::sign : 0) | f::nan};
    for (int i = 0; i < 3; ++i)
    {
      std::memcpy(static_cast<void*>(&pool[i]), &specials[i], sizeof(KeyT));
    }
  }
  if (kind == segment_keys::random)
  {
    return keys;
  }
  for (std::size_t s = 0; s < layout.begin.size(); ++s)
  {
    const std::int64_t first = layout.begin[s];
    const std::int64_t last  = layout.end[s];
    if (last <= first)
    {
      continue;
    }
    const auto segment_begin = keys.begin() + std::ptrdiff_t(first);
    const auto segment_end   = keys.begin() + std::ptrdiff_t(last);
    const int choice         = kind == segment_keys::few_values ? 1 : int(engine() % 6);
    switch (choice)
    {
    case 0: // random
      break;
    case 1: // few values
      std::for_each(segment_begin, segment_end, [&](key_t& key) { key = pool[engine() % 4]; });
      break;
    case 2: // all equal
      std::fill(segment_begin, segment_end, random_segment_key<KeyT>(engine));
      break;
    case 3: // one constant in the middle bytes
      if constexpr (sizeof(KeyT) >= 4)
      {
        constexpr int width     = int(sizeof(KeyT)) * 8;
        const key_bits_t outer  = key_bits_t(0xff) | (key_bits_t(0xff) << (width - 8));
        const key_bits_t low    = engine();
        const key_bits_t random = width > 64 ? (key_bits_t(engine()) << 64) | low : low;
        const key_bits_t middle = random & ~outer;
        std::for_each(segment_begin, segment_end,
                      [&](key_t& key)
                      {
                        key_bits_t bits = raw_bits(key);
                        bits            = (bits & outer) | middle;
                        std::memcpy(static_cast<void*>(&key), &bits, sizeof(KeyT));
                      });
      }
      break;
    default: // sorted or reversed by the whole key
    {
      const bool reversed = choice == 5;
      std::stable_sort(segment_begin, segment_end,
                       [&](const key_t& a, const key_t& b)
                       { return reversed ? order_bits(a) > order_bits(b) : order_bits(a) < order_bits(b); });
      break;
    }
    }
  }
  return keys;
}

//! Which class and name sorts.
enum class segmented_api
{
  radix,      //!< DeviceSegmentedRadixSort (the bit range applies)
  sort,       //!< DeviceSegmentedSort::Sort*
  stable_sort //!< DeviceSegmentedSort::StableSort*
};

//! The forms of a call.
enum class sort_form
{
  pointers,     //!< const inputs, outputs
  double_buffer //!< DoubleBuffers of the caller's two buffers
};

//! What one sort call is asked to do.
struct segmented_call
{
  segmented_api api  = segmented_api::radix;
  bool descending    = false;
  sort_form form     = sort_form::pointers;
  int begin_bit      = 0;
  int end_bit        = -1; //!< -1: all the key's bits (always so for DeviceSegmentedSort)
  int shift          = 0;  //!< the items start this many elements into each allocation (misaligned when 1)
  int first_selector = 0;  //!< a DoubleBuffer's selector before the call (1: its d_buffers[1] holds the input)
};

inline std::string call_name(const segmented_call& call)
{
  std::ostringstream out;
  out << (call.api == segmented_api::radix  ? "DeviceSegmentedRadixSort"
          : call.api == segmented_api::sort ? "DeviceSegmentedSort"
                                            : "DeviceSegmentedSort Stable")
      << (call.descending ? " descending" : " ascending")
      << (call.form == sort_form::pointers ? ", pointers" : ", DoubleBuffer (selector before: ")
      << (call.form == sort_form::pointers ? std::string() : std::to_string(call.first_selector) + ")");
  if (call.api == segmented_api::radix)
  {
    out << ", bits [" << call.begin_bit << ", " << call.end_bit << ")";
  }
  out << ", shift " << call.shift;
  return out.str();
}

//! Calls the function that `call` names. The pointer forms read keys.Current() and values.Current()
//! and write keys.Alternate() and values.Alternate(); the DoubleBuffer forms take the DoubleBuffers.
template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
cudaError_t call_segmented_sort(const segmented_call& call, void* d_temp, std::size_t& bytes,
                                strata::DoubleBuffer<KeyT>& keys, strata::DoubleBuffer<ValueT>& values,
                                std::int64_t num_items, std::int64_t num_segments, BeginOffsetIteratorT d_begin,
                                EndOffsetIteratorT d_end, cudaStream_t stream = 0)
{
  using radix_t        = strata::DeviceSegmentedRadixSort;
  using sort_t         = strata::DeviceSegmentedSort;
  constexpr bool PAIRS = !std::is_same_v<ValueT, strata::NullType>;
  const int b          = call.begin_bit;
  const int e          = call.end_bit < 0 ? int(sizeof(KeyT)) * 8 : call.end_bit;
  const bool down      = call.descending;
  const bool stable    = call.api == segmented_api::stable_sort;
  const KeyT* keys_in  = keys.Current();
  KeyT* keys_out       = keys.Alternate();
  if constexpr (PAIRS)
  {
    const ValueT* values_in = values.Current();
    ValueT* values_out      = values.Alternate();
    if (call.form == sort_form::pointers)
    {
      if (call.api == segmented_api::radix)
      {
        return down ? radix_t::SortPairsDescending(d_temp, bytes, keys_in, keys_out, values_in, values_out, num_items,
                                                   num_segments, d_begin, d_end, b, e, stream)
                    : radix_t::SortPairs(d_temp, bytes, keys_in, keys_out, values_in, values_out, num_items,
                                         num_segments, d_begin, d_end, b, e, stream);
      }
      if (stable)
      {
        return down ? sort_t::StableSortPairsDescending(d_temp, bytes, keys_in, keys_out, values_in, values_out,
                                                        num_items, num_segments, d_begin, d_end, stream)
                    : sort_t::StableSortPairs(d_temp, bytes, keys_in, keys_out, values_in, values_out, num_items,
                                              num_segments, d_begin, d_end, stream);
      }
      return down ? sort_t::SortPairsDescending(d_temp, bytes, keys_in, keys_out, values_in, values_out, num_items,
                                                num_segments, d_begin, d_end, stream)
                  : sort_t::SortPairs(d_temp, bytes, keys_in, keys_out, values_in, values_out, num_items, num_segments,
                                      d_begin, d_end, stream);
    }
    if (call.api == segmented_api::radix)
    {
      return down ? radix_t::SortPairsDescending(d_temp, bytes, keys, values, num_items, num_segments, d_begin, d_end,
                                                 b, e, stream)
                  : radix_t::SortPairs(d_temp, bytes, keys, values, num_items, num_segments, d_begin, d_end, b, e,
                                       stream);
    }
    if (stable)
    {
      return down ? sort_t::StableSortPairsDescending(d_temp, bytes, keys, values, num_items, num_segments, d_begin,
                                                      d_end, stream)
                  : sort_t::StableSortPairs(d_temp, bytes, keys, values, num_items, num_segments, d_begin, d_end,
                                            stream);
    }
    return down ? sort_t::SortPairsDescending(d_temp, bytes, keys, values, num_items, num_segments, d_begin, d_end,
                                              stream)
                : sort_t::SortPairs(d_temp, bytes, keys, values, num_items, num_segments, d_begin, d_end, stream);
  }
  else
  {
    static_cast<void>(values);
    if (call.form == sort_form::pointers)
    {
      if (call.api == segmented_api::radix)
      {
        return down ? radix_t::SortKeysDescending(d_temp, bytes, keys_in, keys_out, num_items, num_segments, d_begin,
                                                  d_end, b, e, stream)
                    : radix_t::SortKeys(d_temp, bytes, keys_in, keys_out, num_items, num_segments, d_begin, d_end, b, e,
                                        stream);
      }
      if (stable)
      {
        return down ? sort_t::StableSortKeysDescending(d_temp, bytes, keys_in, keys_out, num_items, num_segments,
                                                       d_begin, d_end, stream)
                    : sort_t::StableSortKeys(d_temp, bytes, keys_in, keys_out, num_items, num_segments, d_begin, d_end,
                                             stream);
      }
      return down ? sort_t::SortKeysDescending(d_temp, bytes, keys_in, keys_out, num_items, num_segments, d_begin,
                                               d_end, stream)
                  : sort_t::SortKeys(d_temp, bytes, keys_in, keys_out, num_items, num_segments, d_begin, d_end, stream);
    }
    if (call.api == segmented_api::radix)
    {
      return down ? radix_t::SortKeysDescending(d_temp, bytes, keys, num_items, num_segments, d_begin, d_end, b, e,
                                                stream)
                  : radix_t::SortKeys(d_temp, bytes, keys, num_items, num_segments, d_begin, d_end, b, e, stream);
    }
    if (stable)
    {
      return down ? sort_t::StableSortKeysDescending(d_temp, bytes, keys, num_items, num_segments, d_begin, d_end,
                                                     stream)
                  : sort_t::StableSortKeys(d_temp, bytes, keys, num_items, num_segments, d_begin, d_end, stream);
    }
    return down ? sort_t::SortKeysDescending(d_temp, bytes, keys, num_items, num_segments, d_begin, d_end, stream)
                : sort_t::SortKeys(d_temp, bytes, keys, num_items, num_segments, d_begin, d_end, stream);
  }
}

//! For each item of the output, the input position the reference puts there: each segment sorted
//! stably by bits [begin_bit, end_bit) of its keys' radix order (order_bits: -0.0 equal to +0.0,
//! negative NaNs first, positive NaNs last); -1 for items outside every segment. Fails the test
//! case when the layout's segments overlap (a defect of the test itself).
template <typename KeyT>
std::vector<std::int64_t> segmented_reference(const std::vector<KeyT>& keys, const segment_layout& layout,
                                              int begin_bit, int end_bit, bool descending)
{
  const int bits        = end_bit - begin_bit;
  const key_bits_t mask = bits >= 128 ? ~key_bits_t(0) : (key_bits_t(1) << bits) - 1;
  std::vector<std::int64_t> source(keys.size(), -1);
  std::vector<key_bits_t> digits;
  std::size_t overlapping = 0;
  for (std::size_t s = 0; s < layout.begin.size(); ++s)
  {
    const std::int64_t first = layout.begin[s];
    const std::int64_t last  = layout.end[s];
    if (last <= first)
    {
      continue;
    }
    const std::size_t length = std::size_t(last - first);
    digits.resize(length);
    std::vector<std::int64_t> order(length);
    for (std::size_t i = 0; i < length; ++i)
    {
      digits[i] = (order_bits(keys[std::size_t(first) + i]) >> begin_bit) & mask;
      order[i]  = std::int64_t(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t a, std::int64_t b)
                     {
                       return descending ? digits[std::size_t(a)] > digits[std::size_t(b)]
                                         : digits[std::size_t(a)] < digits[std::size_t(b)];
                     });
    for (std::size_t i = 0; i < length; ++i)
    {
      std::int64_t& at = source[std::size_t(first) + i];
      overlapping += at != -1;
      at = first + order[i];
    }
  }
  INFO("items in more than one segment of layout " << layout.name);
  REQUIRE(overlapping == 0);
  return source;
}

//! A 16-byte value: both members derive from the item's input position, so a value that moved
//! with the wrong key, or in halves, shows.
struct value16
{
  std::uint64_t position;
  std::uint64_t tag;

  friend bool operator==(const value16& x, const value16& y)
  {
    return x.position == y.position && x.tag == y.tag;
  }
  friend bool operator!=(const value16& x, const value16& y)
  {
    return !(x == y);
  }
  friend std::ostream& operator<<(std::ostream& out, const value16& v)
  {
    return out << "{" << v.position << ", " << v.tag << "}";
  }
};

//! The value of the item at input position p.
template <typename ValueT>
ValueT value_at(std::int64_t p)
{
  if constexpr (std::is_same_v<ValueT, value16>)
  {
    return value16{std::uint64_t(p), std::uint64_t(p) * 0x9E3779B97F4A7C15ull ^ 0x5bd1e995u};
  }
  else
  {
    return ValueT(p);
  }
}

//! The bits of a key as an unsigned integer (to compare keys bit for bit): 64 bits, or 128 for
//! wider keys.
template <typename KeyT>
auto key_word(const KeyT& key)
{
  using word_t = std::conditional_t<(sizeof(KeyT) > 8), key_bits_t, std::uint64_t>;
  return word_t(raw_bits(key));
}

//! Copies `host` into `buffer` from element `offset` on.
template <typename T>
void upload_at(device_buffer<T>& buffer, std::size_t offset, const std::vector<T>& host)
{
  REQUIRE(offset + host.size() <= buffer.size());
  if (!host.empty())
  {
    STRATA_TEST_CUDA(cudaMemcpy(buffer.data() + offset, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
}

//! Items past the end of every buffer, which must keep their poison.
inline constexpr std::size_t segmented_guard = 67;

//! One sort of `keys` (values: value_at of their positions when ValueT is not NullType) over
//! `layout`, as `call` says, with both of the caller's buffers allocated with `call.shift` items
//! before and segmented_guard items after the items: reset() fills them (the input buffer with
//! the inputs, everything else with poison), run() calls the sort, verify() checks both buffers
//! in full against the reference:
//! - the result (the output, or what Current() names afterwards): each segment sorted, stably;
//! - items outside every segment, before the items and after them: as they were in both buffers;
//! - the pointer forms: the inputs as they were; the DoubleBuffer forms: Current() and Alternate()
//!   are the caller's two buffers.
template <typename KeyT, typename ValueT = strata::NullType>
class segmented_sort_case
{
public:
  static constexpr bool PAIRS = !std::is_same_v<ValueT, strata::NullType>;
  using value_store_t         = std::conditional_t<PAIRS, ValueT, unsigned char>;
  using key_store_t           = host_key_t<KeyT>;

  segmented_sort_case(std::vector<key_store_t> keys, segment_layout layout, segmented_call call)
      : keys_(std::move(keys))
      , layout_(std::move(layout))
      , call_(call)
  {
    if (call_.api != segmented_api::radix || call_.end_bit < 0)
    {
      call_.begin_bit = call_.api == segmented_api::radix ? call_.begin_bit : 0;
      call_.end_bit   = int(sizeof(KeyT)) * 8;
    }
  }

  const segmented_call& call() const
  {
    return call_;
  }
  const segment_layout& layout() const
  {
    return layout_;
  }
  std::string name() const
  {
    return call_name(call_) + "; layout " + layout_.name + ": " + std::to_string(layout_.num_items) + " items, "
           + std::to_string(layout_.num_segments()) + " segments" + (PAIRS ? ", pairs" : ", keys only");
  }

  //! Allocates (once) and fills both buffers: the inputs in buffer 0, poison everywhere else.
  void reset()
  {
    const std::size_t n     = keys_.size();
    const std::size_t shift = std::size_t(call_.shift);
    if (source_.empty() && n > 0)
    {
      source_ = segmented_reference(keys_, layout_, call_.begin_bit, call_.end_bit, call_.descending);
    }
    for (int i = 0; i < 2; ++i)
    {
      if (key_buffers_[i].size() == 0)
      {
        key_buffers_[i] = device_buffer<key_store_t>(shift + n + segmented_guard);
        if constexpr (PAIRS)
        {
          value_buffers_[i] = device_buffer<value_store_t>(shift + n + segmented_guard);
        }
      }
      key_buffers_[i].poison();
      value_buffers_[i].poison();
    }
    upload_at(key_buffers_[0], shift, keys_);
    if constexpr (PAIRS)
    {
      std::vector<ValueT> values(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        values[i] = value_at<ValueT>(std::int64_t(i));
      }
      upload_at(value_buffers_[0], shift, values);
    }
    // A copy from pageable memory may still be on its way when cudaMemcpy returns, and callers
    // run on streams that do not wait for the default one.
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    keys_db_ = make_double_buffer<KeyT>(key_buffers_);
    if constexpr (PAIRS)
    {
      values_db_ = make_double_buffer<ValueT>(value_buffers_);
    }
  }

  //! The sort, through the offsets given.
  template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  cudaError_t run(void* d_temp, std::size_t& bytes, BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                  cudaStream_t stream = 0)
  {
    if (call_.form == sort_form::pointers)
    {
      // The pointer forms read buffer 0 and write buffer 1, whatever the DoubleBuffer says.
      strata::DoubleBuffer<KeyT> keys(key_pointer(key_buffers_[0]), key_pointer(key_buffers_[1]));
      strata::DoubleBuffer<ValueT> values;
      if constexpr (PAIRS)
      {
        values = strata::DoubleBuffer<ValueT>(in_pointer(value_buffers_[0]), in_pointer(value_buffers_[1]));
      }
      return call_segmented_sort(call_, d_temp, bytes, keys, values, layout_.num_items, layout_.num_segments(), d_begin,
                                 d_end, stream);
    }
    return call_segmented_sort(call_, d_temp, bytes, keys_db_, values_db_, layout_.num_items, layout_.num_segments(),
                               d_begin, d_end, stream);
  }

  //! The sort, through the layout's begin and end offsets as two arrays of int64_t (uploaded once).
  cudaError_t run(void* d_temp, std::size_t& bytes, cudaStream_t stream = 0)
  {
    if (d_begin_.size() != layout_.begin.size())
    {
      d_begin_ = device_buffer<std::int64_t>(layout_.begin);
      d_end_   = device_buffer<std::int64_t>(layout_.end);
    }
    return run(d_temp, bytes, static_cast<const std::int64_t*>(d_begin_.data()),
               static_cast<const std::int64_t*>(d_end_.data()), stream);
  }

  //! The size query, then the sort in poisoned temporary storage of the size it asked for.
  template <typename... OffsetsT>
  void sort(OffsetsT... offsets)
  {
    std::size_t bytes  = 0;
    const int selector = keys_db_.selector;
    STRATA_TEST_CUDA(run(nullptr, bytes, offsets...));
    CHECK(keys_db_.selector == selector); // the query changes nothing
    device_buffer<unsigned char> d_temp(bytes);
    d_temp.poison();
    STRATA_TEST_CUDA(run(d_temp.data(), bytes, offsets...));
    STRATA_TEST_CUDA(cudaGetLastError());
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
  }

  //! Checks both buffers of keys (and values) in full.
  void verify() const
  {
    INFO(name());
    const int result = result_buffer(keys_db_, key_buffers_);
    REQUIRE(result >= 0);
    check_buffers<key_store_t>(
        key_buffers_, result, keys_, [](const key_store_t& key) { return key_word(key); },
        [](std::int64_t, const key_store_t& key) { return key_word(key); });
    if constexpr (PAIRS)
    {
      const int value_result = result_buffer(values_db_, value_buffers_);
      REQUIRE(value_result >= 0);
      std::vector<ValueT> values(keys_.size());
      for (std::size_t i = 0; i < values.size(); ++i)
      {
        values[i] = value_at<ValueT>(std::int64_t(i));
      }
      check_buffers<ValueT>(
          value_buffers_, value_result, values, [](const ValueT& v) { return v; },
          [](std::int64_t p, const ValueT&) { return value_at<ValueT>(p); });
    }
  }

private:
  template <typename T>
  T* in_pointer(const device_buffer<T>& buffer) const
  {
    return buffer.size() == 0 ? nullptr : buffer.data() + call_.shift;
  }

  //! The items of a buffer as the sorts' T (bool keys are bytes on the host).
  template <typename T, typename StoreT>
  T* as_items(const device_buffer<StoreT>& buffer) const
  {
    static_assert(sizeof(T) == sizeof(StoreT), "the host holds the items bit for bit");
    return reinterpret_cast<T*>(in_pointer(buffer));
  }
  KeyT* key_pointer(const device_buffer<key_store_t>& buffer) const
  {
    return as_items<KeyT>(buffer);
  }

  //! The DoubleBuffer of the caller's two buffers, its Current() the input (buffer 0).
  template <typename T, typename StoreT>
  strata::DoubleBuffer<T> make_double_buffer(const device_buffer<StoreT>* buffers) const
  {
    strata::DoubleBuffer<T> db(as_items<T>(buffers[0]), as_items<T>(buffers[1]));
    if (call_.first_selector == 1)
    {
      db.d_buffers[0] = as_items<T>(buffers[1]);
      db.d_buffers[1] = as_items<T>(buffers[0]);
      db.selector     = 1;
    }
    return db;
  }

  //! Which of the two buffers holds the result: 1 for the pointer forms; for the DoubleBuffer
  //! forms the one Current() names, after checking that the DoubleBuffer still holds both.
  template <typename T, typename StoreT>
  int result_buffer(const strata::DoubleBuffer<T>& db, const device_buffer<StoreT>* buffers) const
  {
    if (call_.form == sort_form::pointers)
    {
      return 1;
    }
    const T* zero = as_items<T>(buffers[0]);
    const T* one  = as_items<T>(buffers[1]);
    INFO("DoubleBuffer after the sort: selector " << db.selector);
    CHECK((db.selector == 0 || db.selector == 1));
    const bool both =
        (db.Current() == zero && db.Alternate() == one) || (db.Current() == one && db.Alternate() == zero);
    CHECK(both);
    return !both ? -1 : db.Current() == zero ? 0 : 1;
  }

  //! Compares both buffers with what they must hold. `word` makes an element comparable;
  //! `expected_at(p, input)` is the result's element for the item of input position p.
  template <typename T, typename StoreT, typename WordT, typename ExpectedT>
  void check_buffers(const device_buffer<StoreT>* buffers, int result, const std::vector<T>& inputs, WordT word,
                     ExpectedT expected_at) const
  {
    using word_t             = decltype(word(std::declval<const T&>()));
    const std::size_t n      = keys_.size();
    const std::size_t shift  = std::size_t(call_.shift);
    const word_t poison_word = word(poison_value<T>());
    for (int b = 0; b < 2; ++b)
    {
      INFO((b == 0 ? "the input buffer" : "the other buffer") << (b == result ? " (the result)" : "") << "; elements ["
                                                              << shift << ", " << shift + n << ") are the items");
      const std::vector<StoreT> raw = buffers[b].download();
      std::vector<word_t> got(raw.size());
      std::vector<word_t> expected(raw.size(), poison_word);
      for (std::size_t i = 0; i < raw.size(); ++i)
      {
        T element;
        std::memcpy(static_cast<void*>(&element), static_cast<const void*>(&raw[i]), sizeof(T));
        got[i] = word(element);
      }
      for (std::size_t i = 0; i < n; ++i)
      {
        const std::int64_t p = source_[i];
        word_t& e            = expected[shift + i];
        if (p < 0 || (b != result && call_.form == sort_form::pointers))
        {
          e = b == 0 ? word(inputs[i]) : poison_word; // untouched
        }
        else if (b == result)
        {
          e = expected_at(p, inputs[std::size_t(p)]);
        }
        else
        {
          e = got[shift + i]; // a DoubleBuffer's other buffer: scratch inside the segments
        }
      }
      check_equal(expected, got);
    }
  }

  std::vector<key_store_t> keys_;
  segment_layout layout_;
  segmented_call call_;
  std::vector<std::int64_t> source_;
  device_buffer<key_store_t> key_buffers_[2];
  device_buffer<value_store_t> value_buffers_[2];
  device_buffer<std::int64_t> d_begin_;
  device_buffer<std::int64_t> d_end_;
  strata::DoubleBuffer<KeyT> keys_db_;
  strata::DoubleBuffer<ValueT> values_db_;
};

//! Sorts `keys` over `layout` as `call` says and checks the result (see segmented_sort_case);
//! `offsets...` are the begin and end offset iterators, or nothing for int64_t arrays of the
//! layout's.
template <typename ValueT, typename KeyT, typename... OffsetsT>
void check_segmented_sort(const std::vector<KeyT>& keys, const segment_layout& layout, const segmented_call& call,
                          OffsetsT... offsets)
{
  segmented_sort_case<KeyT, ValueT> sort_case(keys, layout, call);
  INFO(sort_case.name());
  sort_case.reset();
  sort_case.sort(offsets...);
  sort_case.verify();
}

//! check_segmented_sort of KeyT keys held on the host as host_key_t<KeyT> (bool keys as bytes).
template <typename KeyT, typename ValueT>
void check_segmented_sort_of(const std::vector<host_key_t<KeyT>>& keys, const segment_layout& layout,
                             const segmented_call& call)
{
  segmented_sort_case<KeyT, ValueT> sort_case(keys, layout, call);
  INFO(sort_case.name());
  sort_case.reset();
  sort_case.sort();
  sort_case.verify();
}

//! The forms a key type runs over a layout: each class and name, both orders, both forms; under
//! compute-sanitizer (whose checks cost much per launch) four of them, which still cover each
//! class, order and form.
inline std::vector<segmented_call> every_form(bool reduced)
{
  std::vector<segmented_call> calls;
  for (segmented_api api : {segmented_api::radix, segmented_api::sort, segmented_api::stable_sort})
  {
    for (bool descending : {false, true})
    {
      for (sort_form form : {sort_form::pointers, sort_form::double_buffer})
      {
        const int k = int(api) * 4 + int(descending) * 2 + int(form);
        // radix ascending pointers, radix descending DoubleBuffer, Sort descending pointers,
        // StableSort ascending DoubleBuffer
        const bool sampled = k == 0 || k == 3 || k == 6 || k == 9;
        if (!reduced || sampled)
        {
          segmented_call call;
          call.api        = api;
          call.descending = descending;
          call.form       = form;
          calls.push_back(call);
        }
      }
    }
  }
  return calls;
}

//! The cases of one key type and value type (NullType: keys only), in three test cases (each its
//! own compute-sanitizer run): run_segmented_sort_forms, run_segmented_sort_gaps and
//! run_segmented_sort_power_law_and_bits. Under compute-sanitizer the layouts are smaller and
//! fewer forms run.

//! Every form on segments of every bin with keys drawn per segment.
template <typename KeyT, typename ValueT>
void run_segmented_sort_forms(std::uint64_t seed)
{
  const bool reduced        = under_sanitizer();
  const segment_layout bins = contiguous_layout("every bin", bin_edge_lengths<KeyT, ValueT>(seed, reduced));
  const std::vector<host_key_t<KeyT>> mixed = segmented_keys<KeyT>(bins, segment_keys::mixed, seed + 3);
  for (const segmented_call& call : every_form(reduced))
  {
    check_segmented_sort_of<KeyT, ValueT>(mixed, bins, call);
  }
}

//! Random and few-valued keys on segments of every bin with gaps, backwards segments and
//! misaligned buffers.
template <typename KeyT, typename ValueT>
void run_segmented_sort_gaps(std::uint64_t seed)
{
  const segment_layout gaps =
      gapped_layout("every bin with gaps", bin_edge_lengths<KeyT, ValueT>(seed + 1, under_sanitizer()), seed + 2, 40);
  const std::vector<host_key_t<KeyT>> random = segmented_keys<KeyT>(gaps, segment_keys::random, seed + 4);
  const std::vector<host_key_t<KeyT>> few    = segmented_keys<KeyT>(gaps, segment_keys::few_values, seed + 5);
  segmented_call misaligned;
  misaligned.shift = 1;
  check_segmented_sort_of<KeyT, ValueT>(random, gaps, misaligned);
  misaligned.api            = segmented_api::stable_sort;
  misaligned.descending     = true;
  misaligned.form           = sort_form::double_buffer;
  misaligned.first_selector = 1;
  check_segmented_sort_of<KeyT, ValueT>(random, gaps, misaligned);
  misaligned.api = segmented_api::radix;
  check_segmented_sort_of<KeyT, ValueT>(few, gaps, misaligned);
  misaligned.api            = segmented_api::sort;
  misaligned.descending     = false;
  misaligned.form           = sort_form::pointers;
  misaligned.first_selector = 0;
  check_segmented_sort_of<KeyT, ValueT>(few, gaps, misaligned);
}

//! Power-law lengths, and bit ranges of DeviceSegmentedRadixSort: none at bit 0 and in the middle
//! (each segment as it is), a few low bits, the upper half.
template <typename KeyT, typename ValueT>
void run_segmented_sort_power_law_and_bits(std::uint64_t seed)
{
  constexpr int key_bits = int(sizeof(KeyT)) * 8;
  const bool reduced     = under_sanitizer();
  const segment_layout power =
      contiguous_layout("power law", power_law_lengths(reduced ? 1 << 17 : 1 << 20, 200000, seed + 6));
  const std::vector<host_key_t<KeyT>> power_keys = segmented_keys<KeyT>(power, segment_keys::mixed, seed + 7);
  segmented_call call;
  check_segmented_sort_of<KeyT, ValueT>(power_keys, power, call);
  call.api        = segmented_api::sort;
  call.descending = true;
  call.form       = sort_form::double_buffer;
  check_segmented_sort_of<KeyT, ValueT>(power_keys, power, call);

  struct bit_range
  {
    int begin_bit;
    int end_bit;
    sort_form form;
    bool sampled; //!< runs under compute-sanitizer too
  };
  const bit_range ranges[]  = {{0, 0, sort_form::pointers, false},
                               {key_bits / 2, key_bits / 2, sort_form::double_buffer, true},
                               {std::min(3, key_bits - 1), std::min(key_bits, 20), sort_form::pointers, false},
                               {std::min(3, key_bits - 1), std::min(key_bits, 20), sort_form::double_buffer, true},
                               {key_bits / 2, key_bits, sort_form::pointers, false}};
  const segment_layout bins = contiguous_layout("every bin", bin_edge_lengths<KeyT, ValueT>(seed, reduced));
  const segment_layout gaps =
      gapped_layout("every bin with gaps", bin_edge_lengths<KeyT, ValueT>(seed + 1, reduced), seed + 2, 40);
  const std::vector<host_key_t<KeyT>> mixed = segmented_keys<KeyT>(bins, segment_keys::mixed, seed + 3);
  const std::vector<host_key_t<KeyT>> few   = segmented_keys<KeyT>(gaps, segment_keys::few_values, seed + 5);
  for (const bit_range& range : ranges)
  {
    if (reduced && !range.sampled)
    {
      continue;
    }
    segmented_call bits;
    bits.begin_bit  = range.begin_bit;
    bits.end_bit    = range.end_bit;
    bits.form       = range.form;
    bits.descending = range.form == sort_form::double_buffer;
    if (range.form == sort_form::pointers)
    {
      check_segmented_sort_of<KeyT, ValueT>(mixed, bins, bits);
    }
    else
    {
      check_segmented_sort_of<KeyT, ValueT>(few, gaps, bits);
    }
  }
}
} // namespace strata_test

//! The three test cases of a key type list with values of VALUE_T (strata::NullType: keys only):
//! every form, gaps and misaligned buffers, power-law lengths and bit ranges. NAME begins the
//! cases' names; SALT seeds them.
#define STRATA_SEGMENTED_SORT_TESTS(NAME, SALT, VALUE_T, ...)                                                          \
  TEMPLATE_TEST_CASE(NAME " in every form", "[device][sort]", __VA_ARGS__)                                             \
  {                                                                                                                    \
    STRATA_TEST_REQUIRE_GPU();                                                                                         \
    const std::uint64_t seed = strata_test::seed(SALT);                                                                \
    INFO("seed " << seed);                                                                                             \
    strata_test::run_segmented_sort_forms<TestType, VALUE_T>(seed);                                                    \
  }                                                                                                                    \
  TEMPLATE_TEST_CASE(NAME " with gaps and misaligned buffers", "[device][sort]", __VA_ARGS__)                          \
  {                                                                                                                    \
    STRATA_TEST_REQUIRE_GPU();                                                                                         \
    const std::uint64_t seed = strata_test::seed(SALT);                                                                \
    INFO("seed " << seed);                                                                                             \
    strata_test::run_segmented_sort_gaps<TestType, VALUE_T>(seed);                                                     \
  }                                                                                                                    \
  TEMPLATE_TEST_CASE(NAME " of power-law lengths and by bit ranges", "[device][sort]", __VA_ARGS__)                    \
  {                                                                                                                    \
    STRATA_TEST_REQUIRE_GPU();                                                                                         \
    const std::uint64_t seed = strata_test::seed(SALT);                                                                \
    INFO("seed " << seed);                                                                                             \
    strata_test::run_segmented_sort_power_law_and_bits<TestType, VALUE_T>(seed);                                       \
  }

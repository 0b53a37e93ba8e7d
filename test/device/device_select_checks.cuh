// test/device/device_select_checks.cuh: what the DeviceSelect and DevicePartition tests share: a
// 16-byte record, the sizes and selection fractions every function runs at, seeded inputs (random
// items with NaN, signed zeros and infinities; runs of equal items for Unique), the predicates and
// the equality operator, host references built from std algorithms, the two-phase call, and
// checks that compare outputs byte for byte and find every write outside the expected items; and
// for the cases of more than 2^31 items, inputs from a periodic table and checks of outputs of
// many GiB, piece by piece.
#pragma once

#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! A 16-byte record: a key and two payload words. operator== compares all three (Unique); the
//! coarse_equal operator looks at the key alone, so runs equal under it carry different payloads.
struct item16
{
  std::int64_t key;
  std::uint32_t a;
  std::uint32_t b;

  friend __host__ __device__ constexpr bool operator==(const item16& x, const item16& y)
  {
    return x.key == y.key && x.a == y.a && x.b == y.b;
  }
  friend __host__ __device__ constexpr bool operator!=(const item16& x, const item16& y)
  {
    return !(x == y);
  }
};
static_assert(sizeof(item16) == 16, "item16 must stay 16 bytes, without padding");

//! Every item type of DeviceSelect::If: integers of each width, float, double and the record.
using select_types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t,
                                std::int64_t, std::uint64_t, float, double, item16>;

//! Items past the expected outputs in every output buffer: they must keep the poison.
inline constexpr std::size_t select_slack = 5;

//! The sizes: empty, tiny, both sides of every tile size the policies may pick (1024 to 8192
//! items), a large odd size and 2^20 + 7; with `huge`, 2^24 + 13 as well. Under compute-sanitizer
//! the sizes stop at 100003 (nine or more tiles of every policy still run).
inline std::vector<std::size_t> select_sizes(bool huge = false)
{
  std::vector<std::size_t> sizes{0,    1,    2,    1023, 1024, 1025, 2047, 2048,
                                 2049, 4095, 4096, 4097, 8191, 8192, 8193, 100003};
  if (!under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 20) + 7);
    if (huge)
    {
      sizes.push_back((std::size_t(1) << 24) + 13);
    }
  }
  return sizes;
}

//! The selection fractions, in percent, at the size of index `size_index`: all five (none, 1 %,
//! half, 99 %, all); under compute-sanitizer half and one of the others in turn, so that every
//! fraction still runs at several sizes but each size runs twice instead of five times.
inline std::vector<std::uint32_t> select_percents(std::size_t size_index)
{
  if (!under_sanitizer())
  {
    return {0, 1, 50, 99, 100};
  }
  constexpr std::uint32_t others[4] = {0, 1, 99, 100};
  return {50, others[size_index % 4]};
}

//! The splitmix64 finalizer: a well-mixed 64-bit hash of x.
__host__ __device__ constexpr std::uint64_t mix64(std::uint64_t x)
{
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

//! The bits of an item, as a 64-bit integer (what the predicates hash).
template <typename T>
__host__ __device__ std::uint64_t item_bits(const T& x)
{
  if constexpr (::cuda::std::is_same_v<T, item16>)
  {
    return mix64(static_cast<std::uint64_t>(x.key)) ^ ((std::uint64_t(x.a) << 32) | x.b);
  }
  else if constexpr (::cuda::std::is_same_v<T, float>)
  {
    return ::cuda::std::bit_cast<std::uint32_t>(x);
  }
  else if constexpr (::cuda::std::is_same_v<T, double>)
  {
    return ::cuda::std::bit_cast<std::uint64_t>(x);
  }
  else
  {
    return static_cast<std::uint64_t>(x);
  }
}

//! Selects an item when a hash of its bits (and `salt`) falls into the lowest `percent` of 100
//! classes: about that fraction of random items, none for 0 and all for 100. A NaN is never
//! selected (so 100 % of float items is every item that is not NaN).
struct select_percent
{
  std::uint32_t percent;
  std::uint64_t salt;

  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    if constexpr (::cuda::std::is_floating_point_v<T>)
    {
      if (x != x)
      {
        return false;
      }
    }
    return mix64(item_bits(x) ^ salt) % 100 < percent;
  }
};

//! The class an item falls in under coarse_equal: its key (or value) divided by 4, a float's
//! floor, one class for every NaN.
template <typename T>
__host__ __device__ std::int64_t coarse_class(const T& x)
{
  if constexpr (::cuda::std::is_same_v<T, item16>)
  {
    return x.key / 4;
  }
  else if constexpr (::cuda::std::is_floating_point_v<T>)
  {
    const double d = static_cast<double>(x);
    if (d != d)
    {
      return ::cuda::std::numeric_limits<std::int64_t>::lowest();
    }
    if (!(d > -1e18 && d < 1e18))
    {
      return d > 0 ? ::cuda::std::numeric_limits<std::int64_t>::max()
                   : ::cuda::std::numeric_limits<std::int64_t>::lowest() + 1;
    }
    return static_cast<std::int64_t>(::floor(d));
  }
  else
  {
    return static_cast<std::int64_t>(x) / 4;
  }
}

//! An equivalence relation coarser than operator==: equal classes (coarse_class). Two NaN are
//! equal under it, +0 and -0 too; an item16 is compared by its key alone.
struct coarse_equal
{
  template <typename T>
  __host__ __device__ bool operator()(const T& x, const T& y) const
  {
    return coarse_class(x) == coarse_class(y);
  }
};

//! A special floating-point value: NaN, +0, -0, +inf or -inf (by `which` modulo 5).
template <typename T>
T special_float(std::uint64_t which)
{
  switch (which % 5)
  {
  case 0:
    return std::numeric_limits<T>::quiet_NaN();
  case 1:
    return T(0);
  case 2:
    return -T(0);
  case 3:
    return std::numeric_limits<T>::infinity();
  default:
    return -std::numeric_limits<T>::infinity();
  }
}

//! `n` random items of T from `seed`: integers over their whole range, floating point uniform in
//! [-100, 100] with one item in 32 special (NaN, +-0, +-inf), records with random members.
template <typename T>
std::vector<T> select_inputs(std::size_t n, std::uint64_t seed)
{
  std::vector<T> items(n);
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(-100.0, 100.0);
  for (auto& item : items)
  {
    const std::uint64_t word = engine();
    if constexpr (std::is_same_v<T, item16>)
    {
      item = item16{static_cast<std::int64_t>(word), static_cast<std::uint32_t>(engine()),
                    static_cast<std::uint32_t>(engine() >> 32)};
    }
    else if constexpr (std::is_floating_point_v<T>)
    {
      item = word % 32 == 0 ? special_float<T>(word >> 8) : static_cast<T>(uniform(engine));
    }
    else
    {
      item = static_cast<T>(word);
    }
  }
  return items;
}

//! How the items of a Unique input are grouped into runs of equal items.
enum class run_shape
{
  singles,    //!< every item differs from the one before it: all are selected
  random,     //!< run lengths 1 + a geometric variable of mean 7 (mean 8)
  whole,      //!< one run of every item: the first alone is selected
  long_random //!< run lengths 1 + a geometric variable of mean 1999 (mean 2000): runs cross tiles
};

inline const char* run_shape_name(run_shape shape)
{
  switch (shape)
  {
  case run_shape::singles:
    return "runs of 1";
  case run_shape::random:
    return "random runs (mean 8)";
  case run_shape::long_random:
    return "long random runs (mean 2000)";
  default:
    return "one run";
  }
}

inline constexpr run_shape run_shapes[] = {run_shape::singles, run_shape::random, run_shape::whole,
                                           run_shape::long_random};

//! One value of a Unique input, from a small alphabet (so that coarse_equal merges neighbouring
//! runs now and then): base + k for integers (wrapping) and records (with random payloads),
//! base + k / 2 for floating point, k in [0, 32).
template <typename T>
T run_value(std::mt19937_64& engine, std::uint64_t base)
{
  const std::uint64_t k = engine() % 32;
  if constexpr (std::is_same_v<T, item16>)
  {
    return item16{static_cast<std::int64_t>(base % 1000003) - 500000 + static_cast<std::int64_t>(k),
                  static_cast<std::uint32_t>(engine()), static_cast<std::uint32_t>(engine() >> 32)};
  }
  else if constexpr (std::is_floating_point_v<T>)
  {
    return static_cast<T>(static_cast<double>(base % 201) - 100.0 + 0.5 * static_cast<double>(k));
  }
  else
  {
    return static_cast<T>(base + k);
  }
}

//! `n` items of T in runs of equal items (operator==), each run's value different from the run
//! before it. Floating-point random runs (of either mean) are now and then NaN (each NaN a run of
//! its own, since NaN != NaN) or a mix of +0 and -0 (one run: +0 == -0, and Unique keeps its
//! first item, bits and all).
template <typename T>
std::vector<T> run_inputs(std::size_t n, run_shape shape, std::uint64_t seed)
{
  std::vector<T> items;
  items.reserve(n);
  std::mt19937_64 engine(seed);
  const std::uint64_t base = engine();
  std::geometric_distribution<std::size_t> extra(1.0 / 8.0);
  std::geometric_distribution<std::size_t> long_extra(1.0 / 2000.0);
  const bool random_lengths = shape == run_shape::random || shape == run_shape::long_random;
  while (items.size() < n)
  {
    const std::size_t length = shape == run_shape::singles       ? 1
                               : shape == run_shape::whole       ? n
                               : shape == run_shape::long_random ? 1 + long_extra(engine)
                                                                 : 1 + extra(engine);
    const std::size_t end    = std::min(n, items.size() + length);
    const std::uint64_t kind = engine() % 16;
    if constexpr (std::is_floating_point_v<T>)
    {
      const bool after_zero = !items.empty() && items.back() == T(0);
      if (random_lengths && (kind == 0 || (kind == 1 && !after_zero)))
      {
        while (items.size() < end)
        {
          items.push_back(kind == 0 ? std::numeric_limits<T>::quiet_NaN() : engine() % 2 == 0 ? T(0) : -T(0));
        }
        continue;
      }
    }
    T value = run_value<T>(engine, base);
    while (!items.empty() && value == items.back())
    {
      value = run_value<T>(engine, base);
    }
    while (items.size() < end)
    {
      items.push_back(value);
    }
  }
  return items;
}

//! Flags that are nonzero with probability percent / 100: random values in [1, 255] (a flag
//! selects whatever nonzero value it holds), otherwise 0.
inline std::vector<std::uint8_t> random_flags(std::size_t n, std::uint32_t percent, std::uint64_t seed)
{
  std::vector<std::uint8_t> flags(n);
  std::mt19937_64 engine(seed);
  for (auto& flag : flags)
  {
    const std::uint64_t word = engine();
    flag                     = word % 100 < percent ? static_cast<std::uint8_t>(1 + (word >> 32) % 255) : 0;
  }
  return flags;
}

// The host references.

//! The items `pred` selects, in input order.
template <typename T, typename PredT>
std::vector<T> reference_select(const std::vector<T>& in, PredT pred)
{
  std::vector<T> out;
  std::copy_if(in.begin(), in.end(), std::back_inserter(out), pred);
  return out;
}

//! The items in[i] with pred(flags[i]), in input order.
template <typename T, typename FlagT, typename PredT>
std::vector<T> reference_select_flagged(const std::vector<T>& in, const std::vector<FlagT>& flags, PredT pred)
{
  std::vector<T> out;
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    if (pred(flags[i]))
    {
      out.push_back(in[i]);
    }
  }
  return out;
}

//! A two-way partition: the items `pred` selects in input order, then the others in reverse
//! input order.
template <typename T, typename PredT>
std::vector<T> reference_partition(const std::vector<T>& in, PredT pred)
{
  std::vector<T> out = reference_select(in, pred);
  std::remove_copy_if(in.rbegin(), in.rend(), std::back_inserter(out), pred);
  return out;
}

//! The positions i where a run of items equal under `equal` begins: 0 and every i with
//! !equal(in[i - 1], in[i]) (each item is compared with its predecessor, as Unique does).
template <typename T, typename EqualT>
std::vector<std::size_t> run_heads(const std::vector<T>& in, EqualT equal)
{
  std::vector<std::size_t> heads;
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    if (i == 0 || !equal(in[i - 1], in[i]))
    {
      heads.push_back(i);
    }
  }
  return heads;
}

//! in[p] for every p of `positions`.
template <typename T>
std::vector<T> gather(const std::vector<T>& in, const std::vector<std::size_t>& positions)
{
  std::vector<T> out;
  out.reserve(positions.size());
  for (std::size_t p : positions)
  {
    out.push_back(in[p]);
  }
  return out;
}

// Running and checking.

//! A device buffer of `n` poisoned items.
template <typename T>
device_buffer<T> poisoned_buffer(std::size_t n)
{
  device_buffer<T> buffer(n);
  buffer.poison();
  return buffer;
}

//! Poisons all of `buffer`, then copies `host` to its first items.
template <typename T>
void upload_prefix(device_buffer<T>& buffer, const std::vector<T>& host)
{
  REQUIRE(host.size() <= buffer.size());
  buffer.poison();
  if (!host.empty())
  {
    STRATA_TEST_CUDA(cudaMemcpy(buffer.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
}

template <typename T>
bool same_bytes(const T& x, const T& y)
{
  return std::memcmp(static_cast<const void*>(&x), static_cast<const void*>(&y), sizeof(T)) == 0;
}

//! CHECKs that out[at, at + expected.size()) equals `expected` byte for byte (so a float's sign
//! of zero and NaN bits count too), listing the first mismatches.
template <typename T>
void check_items(const std::vector<T>& expected, const std::vector<T>& out, std::size_t at = 0)
{
  REQUIRE(at + expected.size() <= out.size());
  std::size_t mismatches = 0;
  std::ostringstream report;
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    if (!same_bytes(expected[i], out[at + i]))
    {
      if (mismatches < 8)
      {
        report << "  [" << i << "] expected " << Catch::Detail::stringify(expected[i]) << ", got "
               << Catch::Detail::stringify(out[at + i]) << "\n";
      }
      ++mismatches;
    }
  }
  INFO(mismatches << " of " << expected.size() << " items differ (rerun with --rng-seed " << Catch::getSeed() << "):\n"
                  << report.str());
  CHECK(mismatches == 0);
}

//! CHECKs that out[first, last) kept the poison: nothing was written there.
template <typename T>
void check_untouched(const std::vector<T>& out, std::size_t first, std::size_t last)
{
  REQUIRE(first <= last);
  REQUIRE(last <= out.size());
  const T poison            = poison_value<T>();
  std::size_t written       = 0;
  std::size_t first_written = last;
  for (std::size_t i = first; i < last; ++i)
  {
    if (!same_bytes(out[i], poison))
    {
      first_written = written == 0 ? i : first_written;
      ++written;
    }
  }
  INFO(written << " items of [" << first << ", " << last << ") were written, the first at " << first_written);
  CHECK(written == 0);
}

//! CHECKs the output of a selection into `out` (downloaded), written from position `at`: the
//! expected items at [at, at + expected.size()), the poison everywhere else.
template <typename T>
void check_selected(const std::vector<T>& expected, const std::vector<T>& out, std::size_t at = 0)
{
  check_items(expected, out, at);
  check_untouched(out, 0, at);
  check_untouched(out, at + expected.size(), out.size());
}

//! CHECKs that the counts written to `d_num` are `expected` (in order) and that the items after
//! them kept the poison.
template <typename NumT>
void check_counts(const device_buffer<NumT>& d_num, const std::vector<std::size_t>& expected)
{
  const std::vector<NumT> num = d_num.download();
  REQUIRE(num.size() >= expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    INFO("count " << i);
    CHECK(static_cast<std::uint64_t>(num[i]) == static_cast<std::uint64_t>(expected[i]));
  }
  check_untouched(num, expected.size(), num.size());
}

// Cases of more than 2^31 items.

//! The period of their inputs: a prime, so that positions 2^31 or 2^32 apart (a position cut to 31
//! or 32 bits) fall on different entries of the table.
inline constexpr std::int64_t large_period = 65521;

//! Item i of those cases: table[i % large_period], a byte of a seeded random table in device
//! memory, so that inputs of many GiB take none and the expected outputs repeat with the period.
struct periodic_byte
{
  const std::uint8_t* table;
  __host__ __device__ std::uint8_t operator()(std::int64_t i) const
  {
    return table[i % large_period];
  }
};

using periodic_iterator =
    strata::TransformInputIterator<std::uint8_t, periodic_byte, strata::CountingInputIterator<std::int64_t>>;

//! The items table[i % large_period] for i = 0, 1, ... (`d_table` in device memory).
inline periodic_iterator periodic_bytes(const std::uint8_t* d_table)
{
  return periodic_iterator(strata::CountingInputIterator<std::int64_t>(0), periodic_byte{d_table});
}

//! SKIPs the case unless the GPU has `bytes` free and 256 MiB more.
inline void require_free_memory(std::size_t bytes)
{
  std::size_t free_bytes  = 0;
  std::size_t total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = bytes + (std::size_t(256) << 20);
  if (free_bytes < needed)
  {
    SKIP("the case needs " << needed / (1 << 20) << " MiB of GPU memory; " << free_bytes / (1 << 20)
                           << " MiB are free");
  }
}

//! Writes items[(phase + k) % items.size()] to out[k] for k in [0, count), a period at a time.
template <typename T>
void fill_periodic(const std::vector<T>& items, std::size_t phase, std::size_t count, T* out)
{
  while (count > 0)
  {
    const std::size_t run = std::min(count, items.size() - phase);
    std::copy_n(items.data() + phase, run, out);
    out += run;
    count -= run;
    phase = 0;
  }
}

//! CHECKs d_items[0, count) (integers), an output of many GiB, against the host reference piece by
//! piece (2^26 items at a time): fill(first, n, out) writes the expected items [first, first + n)
//! to out. Names the first mismatch.
template <typename T, typename FillT>
void check_large(const T* d_items, std::size_t count, FillT&& fill)
{
  constexpr std::size_t piece = std::size_t(1) << 26;
  std::vector<T> actual(std::min(count, piece));
  std::vector<T> expected(actual.size());
  std::size_t mismatches = 0;
  std::ostringstream first;
  for (std::size_t at = 0; at < count; at += piece)
  {
    const std::size_t items = std::min(piece, count - at);
    STRATA_TEST_CUDA(cudaMemcpy(actual.data(), d_items + at, items * sizeof(T), cudaMemcpyDeviceToHost));
    fill(at, items, expected.data());
    if (std::memcmp(actual.data(), expected.data(), items * sizeof(T)) == 0)
    {
      continue;
    }
    for (std::size_t k = 0; k < items; ++k)
    {
      if (actual[k] != expected[k] && mismatches++ == 0)
      {
        first << "[" << at + k << "] expected " << +expected[k] << ", got " << +actual[k];
      }
    }
  }
  INFO(mismatches << " of " << count << " items differ, the first " << first.str() << " (rerun with --rng-seed "
                  << Catch::getSeed() << ")");
  CHECK(mismatches == 0);
}
} // namespace strata_test

namespace Catch
{
template <>
struct StringMaker<strata_test::item16>
{
  static std::string convert(const strata_test::item16& x)
  {
    return "{" + std::to_string(x.key) + ", " + std::to_string(x.a) + ", " + std::to_string(x.b) + "}";
  }
};
} // namespace Catch

// test/device/device_radix_sort_checks.cuh: what the DeviceRadixSort tests share: key
// distributions, a host reference (a stable sort by the key's bits in the range, twiddled here
// independently of strata's traits), and one check that runs a sort form on the device and
// compares keys bit for bit and values (the input positions, so stability is checked exactly).
#pragma once

#include <strata/device/device_radix_sort.cuh>

#include <cuda_fp8.h>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! Tile sizes of the SM 9.0 policy for KeyT with 4-byte values: one block below `single`, one
//! onesweep tile of `onesweep` items per block above.
template <typename KeyT, typename ValueT = std::uint32_t>
struct radix_tiles
{
  using hub                           = strata::detail::radix::policy_hub<KeyT, ValueT, std::uint32_t>;
  using single_policy                 = typename hub::Policy900::SingleTilePolicy;
  using onesweep_policy               = typename hub::Policy900::OnesweepPolicy;
  using small_policy                  = strata::detail::radix::onesweep_small_policy_t<typename hub::Policy900>;
  static constexpr std::size_t single = std::size_t(single_policy::BLOCK_THREADS) * single_policy::ITEMS_PER_THREAD;
  static constexpr std::size_t onesweep =
      std::size_t(onesweep_policy::BLOCK_THREADS) * onesweep_policy::ITEMS_PER_THREAD;
  //! The tile of sorts of fewer than `small_below` keys (0: one tile for every size).
  static constexpr std::size_t onesweep_small =
      std::size_t(small_policy::BLOCK_THREADS) * small_policy::ITEMS_PER_THREAD;
  static constexpr std::size_t small_below =
      std::size_t(strata::detail::radix::onesweep_small_below_v<typename hub::Policy900>);
};

//! Sizes up to `max`: empty, tiny, around a warp, around the one-block limit, around one and a few
//! onesweep tiles (of pairs, and of keys only in a small input, whose tiles differ), and larger odd
//! sizes. `reduced` (under compute-sanitizer) leaves out 2, 31 and the sizes one below a tile,
//! whose partial tiles take the paths of one key, one tile + 1 and the small tile + 1.
template <typename KeyT>
std::vector<std::size_t> radix_sizes(std::size_t max, bool reduced = false)
{
  using tiles      = radix_tiles<KeyT>;
  using keys_tiles = radix_tiles<KeyT, strata::NullType>;
  const std::vector<std::size_t> left_out =
      reduced ? std::vector<std::size_t>{std::size_t(2), std::size_t(31), tiles::single - 1, tiles::onesweep - 1,
                                         keys_tiles::onesweep_small - 1}
              : std::vector<std::size_t>{};
  std::vector<std::size_t> sizes;
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(31), tiles::single - 1, tiles::single,
        tiles::single + 1, tiles::onesweep - 1, tiles::onesweep, tiles::onesweep + 1, keys_tiles::onesweep_small - 1,
        keys_tiles::onesweep_small, keys_tiles::onesweep_small + 1, 5 * tiles::onesweep + 777, std::size_t(100003),
        (std::size_t(1) << 20) + 7, (std::size_t(1) << 24) + 13})
  {
    const bool kept = std::find(left_out.begin(), left_out.end(), n) == left_out.end();
    if (n <= max && kept && std::find(sizes.begin(), sizes.end(), n) == sizes.end())
    {
      sizes.push_back(n);
    }
  }
  return sizes;
}

//! How the keys of a test are drawn.
enum class key_distribution
{
  random_bits, //!< every bit random (floats include NaNs, infinities, -0.0 and denormals)
  few_values,  //!< the AND of three random words: few distinct keys, long runs of equal ones
  all_equal,   //!< one random key everywhere
  sorted,      //!< random bits, sorted by the whole key
  reversed     //!< random bits, sorted by the whole key, descending
};

//! Key bits of up to 128, as an unsigned integer.
using key_bits_t = unsigned __int128;

//! Whether KeyT is a floating-point key (8-, 16-, 32- or 64-bit).
template <typename KeyT>
inline constexpr bool is_radix_float_v =
    is_floating_v<KeyT> || std::is_same_v<KeyT, __nv_fp8_e4m3> || std::is_same_v<KeyT, __nv_fp8_e5m2>;

//! The bits of `key` as an unsigned integer.
template <typename KeyT>
key_bits_t raw_bits(const KeyT& key)
{
  static_assert(sizeof(KeyT) <= 16, "keys of up to 128 bits");
  key_bits_t bits = 0;
  std::memcpy(&bits, static_cast<const void*>(&key), sizeof(KeyT));
  return bits;
}

//! Bits whose unsigned order is the order of KeyT, as CUB documents it: unsigned keys as they
//! are, signed ones with the sign bit flipped, floating point with negative values inverted and
//! positive ones with the sign set (so negative NaNs come first and positive NaNs last), and -0.0
//! equal to +0.0.
template <typename KeyT>
key_bits_t order_bits(const KeyT& key)
{
  constexpr int width   = int(sizeof(KeyT)) * 8;
  const key_bits_t all  = width == 128 ? ~key_bits_t(0) : (key_bits_t(1) << width) - 1;
  const key_bits_t sign = key_bits_t(1) << (width - 1);
  key_bits_t bits       = raw_bits(key);
  if constexpr (is_radix_float_v<KeyT>)
  {
    if (bits == sign)
    {
      bits = 0; // -0.0
    }
    return (bits & sign) ? (~bits & all) : (bits | sign);
  }
  else if constexpr (std::is_signed_v<KeyT> || std::is_same_v<KeyT, __int128>)
  {
    return bits ^ sign;
  }
  else
  {
    return bits;
  }
}

//! The positions of keys[0, n) in a stable sort by bits [begin_bit, end_bit) of their order.
template <typename KeyT>
std::vector<std::uint32_t> reference_order(const std::vector<KeyT>& keys, std::size_t n, int begin_bit, int end_bit,
                                           bool descending)
{
  const int bits        = end_bit - begin_bit;
  const key_bits_t mask = bits >= 128 ? ~key_bits_t(0) : (key_bits_t(1) << bits) - 1;
  std::vector<key_bits_t> digits(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    digits[i] = (order_bits(keys[i]) >> begin_bit) & mask;
  }
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b)
                   { return descending ? digits[a] > digits[b] : digits[a] < digits[b]; });
  return order;
}

//! `n` keys of a distribution from `seed`.
template <typename KeyT>
std::vector<KeyT> radix_keys(std::size_t n, key_distribution distribution, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  auto random_key = [&]
  {
    if constexpr (std::is_same_v<KeyT, bool>)
    {
      return bool(engine() & 1);
    }
    else
    {
      std::uint64_t words[2] = {engine(), engine()};
      if (distribution == key_distribution::few_values)
      {
        for (auto& word : words)
        {
          word &= engine() & engine();
        }
      }
      KeyT key;
      std::memcpy(static_cast<void*>(&key), words, sizeof(KeyT));
      return key;
    }
  };
  std::vector<KeyT> keys(n);
  const KeyT same = random_key();
  for (auto& key : keys)
  {
    key = distribution == key_distribution::all_equal ? same : random_key();
  }
  if (distribution == key_distribution::sorted || distribution == key_distribution::reversed)
  {
    const auto order = reference_order(keys, n, 0, int(sizeof(KeyT)) * 8, distribution == key_distribution::reversed);
    std::vector<KeyT> sorted(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      sorted[i] = keys[order[i]];
    }
    keys = std::move(sorted);
  }
  return keys;
}

//! The forms of a DeviceRadixSort call.
enum class radix_form
{
  pointers,     //!< const input, output pointers
  double_buffer //!< DoubleBuffer of the caller's two buffers
};

//! What one sort call is asked to do.
struct radix_call
{
  bool descending;
  bool pairs;
  radix_form form;
  int begin_bit;
  int end_bit;
};

//! check_radix_sort's default: the sorts go through strata::DeviceRadixSort itself.
template <typename KeyT, typename ValueT>
struct device_radix_sort_api;

template <template <typename, typename> class HubT>
inline constexpr bool is_device_radix_sort_api_v = false;
template <>
inline constexpr bool is_device_radix_sort_api_v<device_radix_sort_api> = true;

//! `call` through DispatchRadixSort with the policy hub HubT<KeyT, ValueT> (ValueT NullType: keys
//! only) and 32-bit offsets; the pointer forms are a DoubleBuffer of input and output without
//! leave to overwrite.
template <template <typename, typename> class HubT, typename KeyT, typename ValueT>
cudaError_t dispatch_radix_sort(const radix_call& call, void* d_temp, std::size_t& bytes,
                                strata::DoubleBuffer<KeyT>& keys, strata::DoubleBuffer<ValueT>& values, std::size_t n)
{
  const bool overwrite = call.form == radix_form::double_buffer;
  auto run             = [&](auto order)
  {
    return strata::DispatchRadixSort<decltype(order)::value, KeyT, ValueT, std::uint32_t,
                                     strata::detail::identity_decomposer_t,
                                     HubT<KeyT, ValueT>>::Dispatch(d_temp, bytes, keys, values, std::uint32_t(n),
                                                                   call.begin_bit, call.end_bit, overwrite, 0);
  };
  using order_t = strata::SortOrder;
  return call.descending ? run(std::integral_constant<order_t, order_t::Descending>{})
                         : run(std::integral_constant<order_t, order_t::Ascending>{});
}

//! Runs `call` on keys[0, n) (values: their positions) on the device and checks keys bit for bit
//! and values against the reference; poisoned outputs show what a sort leaves unwritten, and
//! the pointer forms must leave their input as it was. The sort is strata::DeviceRadixSort's, or
//! with HubT (a template of key and value type) DispatchRadixSort's with the policy hub HubT.
template <typename KeyT, template <typename, typename> class HubT = device_radix_sort_api>
void check_radix_sort(const std::vector<KeyT>& all_keys, std::size_t n, const radix_call& call)
{
  INFO("num_items " << n << ", bits [" << call.begin_bit << ", " << call.end_bit << "), "
                    << (call.descending ? "descending" : "ascending") << ", " << (call.pairs ? "pairs" : "keys") << ", "
                    << (call.form == radix_form::pointers ? "pointers" : "DoubleBuffer"));
  const std::vector<KeyT> keys(all_keys.begin(), all_keys.begin() + std::ptrdiff_t(n));
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  const std::vector<std::uint32_t> order = reference_order(keys, n, call.begin_bit, call.end_bit, call.descending);

  device_buffer<KeyT> d_keys_in(keys);
  device_buffer<KeyT> d_keys_out(n);
  device_buffer<std::uint32_t> d_values_in(positions);
  device_buffer<std::uint32_t> d_values_out(n);
  d_keys_out.poison();
  d_values_out.poison();

  using strata::DeviceRadixSort;
  strata::DoubleBuffer<KeyT> keys_buffer(d_keys_in.data(), d_keys_out.data());
  strata::DoubleBuffer<std::uint32_t> values_buffer(d_values_in.data(), d_values_out.data());
  const int b = call.begin_bit;
  const int e = call.end_bit;
  auto run    = [&](void* d_temp, std::size_t& bytes) -> cudaError_t
  {
    if constexpr (!is_device_radix_sort_api_v<HubT>)
    {
      strata::DoubleBuffer<KeyT> keys(d_keys_in.data(), d_keys_out.data());
      strata::DoubleBuffer<std::uint32_t> values(d_values_in.data(), d_values_out.data());
      strata::DoubleBuffer<KeyT>& key_target = call.form == radix_form::pointers ? keys : keys_buffer;
      if (call.pairs)
      {
        return dispatch_radix_sort<HubT>(call, d_temp, bytes, key_target,
                                         call.form == radix_form::pointers ? values : values_buffer, n);
      }
      strata::DoubleBuffer<strata::NullType> no_values;
      return dispatch_radix_sort<HubT>(call, d_temp, bytes, key_target, no_values, n);
    }
    else
    {
      const int count = int(n);
      if (call.form == radix_form::pointers)
      {
        if (call.pairs)
        {
          return call.descending
                     ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                            d_values_in.data(), d_values_out.data(), count, b, e)
                     : DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                  d_values_in.data(), d_values_out.data(), count, b, e);
        }
        return call.descending
                   ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, d_keys_in.data(), d_keys_out.data(), count, b,
                                                         e)
                   : DeviceRadixSort::SortKeys(d_temp, bytes, d_keys_in.data(), d_keys_out.data(), count, b, e);
      }
      if (call.pairs)
      {
        return call.descending
                   ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, keys_buffer, values_buffer, count, b, e)
                   : DeviceRadixSort::SortPairs(d_temp, bytes, keys_buffer, values_buffer, count, b, e);
      }
      return call.descending ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, keys_buffer, count, b, e)
                             : DeviceRadixSort::SortKeys(d_temp, bytes, keys_buffer, count, b, e);
    }
  };
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(run(nullptr, bytes));
  REQUIRE(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(run(d_temp.data(), bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());

  std::vector<KeyT> got_keys;
  std::vector<std::uint32_t> got_values;
  if (call.form == radix_form::pointers)
  {
    got_keys                            = d_keys_out.download();
    got_values                          = d_values_out.download();
    const std::vector<KeyT> input_after = d_keys_in.download();
    std::size_t changed                 = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      changed += raw_bits(input_after[i]) != raw_bits(keys[i]);
    }
    CHECK(changed == 0);
    check_equal(positions, d_values_in.download());
  }
  else
  {
    // The selector names the result's buffer; keys and values agree on it.
    if (call.pairs)
    {
      CHECK(keys_buffer.selector == values_buffer.selector);
    }
    got_keys   = (keys_buffer.selector == 0 ? d_keys_in : d_keys_out).download();
    got_values = (values_buffer.selector == 0 ? d_values_in : d_values_out).download();
  }

  std::vector<key_bits_t> expected_bits(n);
  std::vector<key_bits_t> got_bits(n);
  std::vector<std::uint32_t> expected_values(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected_bits[i]   = raw_bits(keys[order[i]]);
    got_bits[i]        = raw_bits(got_keys[i]);
    expected_values[i] = order[i];
  }
  check_equal(expected_bits, got_bits);
  if (call.pairs)
  {
    check_equal(expected_values, got_values);
  }
}
} // namespace strata_test

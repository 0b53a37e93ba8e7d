// Shared by the DeviceTopK tests: the host's order of keys (that of DeviceRadixSort, the earlier
// item first among equal keys), key shapes, sizes, values of k, and the check of an output.
#pragma once

#include <strata/device/device_topk.cuh>

#include "common/bits.cuh"
#include "common/test_common.cuh"
#include "common/two_phase.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace topk_test
{
using strata_test::device_buffer;

//! Items the passes of a tile hold (256 threads of 16 four-byte keys).
inline constexpr std::size_t tile = 4096;
//! Outputs past k that must keep their poison.
inline constexpr std::size_t slack = 7;

using strata_test::bits_of;
using strata_test::bits_t;
using strata_test::from_bits;

//! The host's own order of keys (that of DeviceRadixSort): an unsigned integer that grows with the
//! key. Floating point: negative keys (sign bit set) in reverse bit order below the positive ones.
template <typename T>
bits_t<T> order_of(const T& key)
{
  using U          = bits_t<T>;
  const U bits     = bits_of(key);
  constexpr U sign = U(U(1) << (sizeof(T) * 8 - 1));
  if constexpr (std::is_unsigned_v<T>)
  {
    return bits;
  }
  else if constexpr (std::is_integral_v<T>)
  {
    return U(bits ^ sign);
  }
  else
  {
    return (bits & sign) != 0 ? U(~bits) : U(bits | sign);
  }
}

enum class shape
{
  random_bits, // any bit pattern
  duplicates,  // about 16 copies of each key: ties at the k-th key, among few candidates
  few_values,  // four distinct keys
  all_equal
};

inline const char* shape_name(shape s)
{
  return s == shape::random_bits  ? "random bits"
         : s == shape::duplicates ? "16 copies of each key"
         : s == shape::few_values ? "four distinct keys"
                                  : "all equal";
}

template <typename T>
std::vector<T> make_keys(std::size_t n, shape s, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::vector<T> keys(n);
  std::vector<T> values;
  const std::size_t distinct = s == shape::duplicates ? n / 16 + 1 : 4;
  for (std::size_t i = 0; i < distinct; ++i)
  {
    values.push_back(from_bits<T>(bits_t<T>(engine())));
  }
  for (std::size_t i = 0; i < n; ++i)
  {
    keys[i] = s == shape::random_bits ? from_bits<T>(bits_t<T>(engine()))
              : s == shape::all_equal ? values[0]
                                      : values[engine() % distinct];
  }
  return keys;
}

//! The indices of the items in the order DeviceTopK returns them: the best key first (largest
//! for Max, smallest for Min), the earlier item first among equal keys.
template <typename T>
std::vector<std::size_t> reference_order(const std::vector<T>& keys, bool max)
{
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b)
                   { return max ? order_of(keys[a]) > order_of(keys[b]) : order_of(keys[a]) < order_of(keys[b]); });
  return order;
}

//! The values of k to try with n items. Under a sanitizer, one on each side of the paths' limits
//! (none, one, a warp and one, a tile and one, 65536, half, all): the others repeat their code.
inline std::vector<std::size_t> ks_for(std::size_t n)
{
  std::vector<std::size_t> ks;
  std::vector<std::size_t> tries = {std::size_t(0),     std::size_t(1),  std::size_t(2), std::size_t(31),
                                    std::size_t(32),    std::size_t(33), tile - 1,       tile + 1,
                                    std::size_t(65536), n / 2,           n - 1,          n};
  if (strata_test::under_sanitizer())
  {
    tries = {std::size_t(0), std::size_t(1), std::size_t(33), tile + 1, std::size_t(65536), n / 2, n};
  }
  for (std::size_t k : tries)
  {
    if (k <= n && std::find(ks.begin(), ks.end(), k) == ks.end() && (k != n - 1 || n > 0))
    {
      ks.push_back(k);
    }
  }
  return ks;
}

//! The key shapes to try. Under a sanitizer four distinct keys are left out: all equal keys and
//! duplicates take the same paths (ties at the k-th key, the whole input among the candidates).
inline std::vector<shape> shapes()
{
  if (strata_test::under_sanitizer())
  {
    return {shape::random_bits, shape::duplicates, shape::all_equal};
  }
  return {shape::random_bits, shape::duplicates, shape::few_values, shape::all_equal};
}

inline std::vector<std::size_t> sizes()
{
  if (strata_test::under_sanitizer())
  {
    return {0, 1, 33, tile + 1, 70001};
  }
  return {0, 1, 2, 31, 32, 33, tile - 1, tile, tile + 1, 70001, (std::size_t(1) << 20) + 123};
}

//! Checks that the keys (and values) of `out` are the first k of `order`, and that the slack
//! past them kept its poison.
template <typename T>
void check_keys(const std::vector<T>& keys, const std::vector<std::size_t>& order, std::size_t k,
                const std::vector<T>& out)
{
  REQUIRE(out.size() == k + slack);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < k; ++i)
  {
    if (bits_of(out[i]) != bits_of(keys[order[i]]))
    {
      if (wrong++ == 0)
      {
        FAIL_CHECK("key " << i << " of " << k << ": expected bits " << std::uint64_t(bits_of(keys[order[i]]))
                          << ", got " << std::uint64_t(bits_of(out[i])));
      }
    }
  }
  CHECK(wrong == 0);
  const T poison = strata_test::poison_value<T>();
  for (std::size_t i = k; i < k + slack; ++i)
  {
    CHECK(bits_of(out[i]) == bits_of(poison));
  }
}

//! Checks MaxKeys and MinKeys of T keys over every size, shape and k against the host's order.
template <typename T>
void check_max_min_keys()
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(811);
  INFO("seed " << seed);
  for (std::size_t n : sizes())
  {
    for (shape s : shapes())
    {
      INFO("num_items " << n << ", " << shape_name(s));
      const std::vector<T> keys = make_keys<T>(n, s, seed + n + std::uint64_t(s));
      device_buffer<T> d_keys(keys);
      for (bool max : {true, false})
      {
        INFO((max ? "MaxKeys" : "MinKeys"));
        const std::vector<std::size_t> order = reference_order(keys, max);
        for (std::size_t k : ks_for(n))
        {
          INFO("k " << k);
          device_buffer<T> d_out(k + slack);
          d_out.poison();
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return max ? strata::DeviceTopK::MaxKeys(d_temp, bytes, static_cast<const T*>(d_keys.data()),
                                                         d_out.data(), n, k)
                           : strata::DeviceTopK::MinKeys(d_temp, bytes, static_cast<const T*>(d_keys.data()),
                                                         d_out.data(), n, k);
              });
          check_keys(keys, order, k, d_out.download());
        }
      }
    }
  }
}
} // namespace topk_test

// Tests of strata/device/device_topk.cuh's decomposer forms (see test_device_topk.cu): user key
// types of two members, 64 and 96 bits, ordered member by member.
#include <strata/device/device_topk.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"
#include "topk_test_common.cuh"

#include <cuda/std/tuple>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using namespace topk_test;
using strata_test::device_buffer;

namespace
{
//! A user's key of two members, ordered by `major`, then `minor` (64 bits).
struct pair_key
{
  std::int32_t major;
  float minor;
};
struct pair_key_decomposer
{
  __host__ __device__ cuda::std::tuple<std::int32_t&, float&> operator()(pair_key& key) const
  {
    return {key.major, key.minor};
  }
};
//! A user's key of 96 bits: the selection packs it into 128.
struct wide_key
{
  double first;
  std::uint32_t second;
};
struct wide_key_decomposer
{
  __host__ __device__ cuda::std::tuple<double&, std::uint32_t&> operator()(wide_key& key) const
  {
    return {key.first, key.second};
  }
};

template <typename KeyT, typename DecomposerT, typename MakeT>
void check_user_keys(const char* name, std::uint64_t seed, MakeT make)
{
  INFO("key type " << name);
  for (std::size_t n : {std::size_t(1), std::size_t(33), tile + 1, std::size_t(70001)})
  {
    INFO("num_items " << n);
    std::mt19937_64 engine(seed + n);
    std::vector<KeyT> keys(n);
    for (KeyT& key : keys)
    {
      key = make(engine);
    }
    // Keys compare by their members' bits (a key's padding holds anything).
    const auto same_members = [](const KeyT& a, const KeyT& b)
    {
      KeyT x    = a;
      KeyT y    = b;
      auto in_x = DecomposerT{}(x);
      auto in_y = DecomposerT{}(y);
      return bits_of(cuda::std::get<0>(in_x)) == bits_of(cuda::std::get<0>(in_y))
             && bits_of(cuda::std::get<1>(in_x)) == bits_of(cuda::std::get<1>(in_y));
    };
    // The host's order: member by member, each as order_of orders it.
    const auto ranks = [](const KeyT& key)
    {
      KeyT copy    = key;
      auto members = DecomposerT{}(copy);
      return std::make_pair(order_of(cuda::std::get<0>(members)), order_of(cuda::std::get<1>(members)));
    };
    device_buffer<KeyT> d_keys(keys);
    std::vector<std::uint32_t> values(n);
    std::iota(values.begin(), values.end(), std::uint32_t(0));
    device_buffer<std::uint32_t> d_values(values);
    for (bool max : {true, false})
    {
      INFO((max ? "MaxPairs" : "MinKeys"));
      std::vector<std::size_t> order(n);
      std::iota(order.begin(), order.end(), std::size_t(0));
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b)
                       { return max ? ranks(keys[a]) > ranks(keys[b]) : ranks(keys[a]) < ranks(keys[b]); });
      for (std::size_t k : {std::size_t(1), std::size_t(33), n / 2, n})
      {
        if (k > n)
        {
          continue;
        }
        INFO("k " << k);
        device_buffer<KeyT> d_out(k + slack);
        device_buffer<std::uint32_t> d_values_out(k + slack);
        d_out.poison();
        d_values_out.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              const KeyT* in = d_keys.data();
              return max ? strata::DeviceTopK::MaxPairs(d_temp, bytes, in, d_out.data(),
                                                        static_cast<const std::uint32_t*>(d_values.data()),
                                                        d_values_out.data(), n, k, DecomposerT{})
                         : strata::DeviceTopK::MinKeys(d_temp, bytes, in, d_out.data(), n, k, DecomposerT{});
            });
        const std::vector<KeyT> got               = d_out.download();
        const std::vector<std::uint32_t> got_vals = d_values_out.download();
        std::size_t wrong                         = 0;
        for (std::size_t i = 0; i < k; ++i)
        {
          if (!same_members(got[i], keys[order[i]]) && wrong++ == 0)
          {
            FAIL_CHECK("key " << i << ": expected the key of item " << order[i] << " (order "
                              << std::uint64_t(ranks(keys[order[i]]).first) << ", "
                              << std::uint64_t(ranks(keys[order[i]]).second) << "), got order "
                              << std::uint64_t(ranks(got[i]).first) << ", " << std::uint64_t(ranks(got[i]).second));
          }
          wrong += max && got_vals[i] != std::uint32_t(order[i]);
        }
        CHECK(wrong == 0);
      }
    }
  }
}
} // namespace

TEST_CASE("DeviceTopK of a user's key type orders it through its decomposer", "[device][topk]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(819);
  INFO("seed " << seed);
  // Few majors, so that the minor members decide among many keys.
  check_user_keys<pair_key, pair_key_decomposer>(
      "pair_key", seed,
      [](std::mt19937_64& engine) {
        return pair_key{std::int32_t(engine() % 7) - 3, float(std::int64_t(engine() % 2001) - 1000) / 8.0f};
      });
  check_user_keys<wide_key, wide_key_decomposer>(
      "wide_key", seed + 1,
      [](std::mt19937_64& engine) {
        return wide_key{double(std::int64_t(engine() % 5) - 2) * 0.5, std::uint32_t(engine() % 100)};
      });
}

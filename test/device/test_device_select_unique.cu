// Tests of strata/device/device_select.cuh, part 2: DeviceSelect::Unique and UniqueByKey, against a
// host walk that keeps every item unequal to its predecessor. Items of uint32, int8, uint64, float
// (NaN, never equal to itself, is a run of its own; a run mixing +0 and -0 is one run whose first
// item, sign and all, is kept) and a 16-byte record, in runs of 1, of random lengths (mean 8) and
// one run of every item; keys with values of another type, compared with operator== (an int64_t
// count) and with an operator coarser than it (an int count). Sizes from 0 through both sides of
// every tile size to 2^20 + 7 (2^24 + 13 for uint32); outputs past the kept items and the count
// must keep their poison. Also: misaligned keys, values and outputs (d_in + 1, d_out + 3).
#include <strata/device/device_select.cuh>

#include "common/test_common.cuh"
#include "device_select_checks.cuh"

#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::item16;
using strata_test::run_shape;

using unique_types = std::tuple<std::uint32_t, std::int8_t, std::uint64_t, float, item16>;

//! Keys and values of UniqueByKey: each key type with values of another size.
using unique_by_key_types =
    std::tuple<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::int8_t, double>,
               std::pair<std::uint64_t, std::uint8_t>, std::pair<float, item16>, std::pair<item16, float>>;

//! The run shapes at the size of index `size_index`: all three; under compute-sanitizer random
//! runs and one of the others in turn.
std::vector<run_shape> shapes_at(std::size_t size_index)
{
  if (!strata_test::under_sanitizer())
  {
    return {run_shape::singles, run_shape::random, run_shape::whole};
  }
  return {run_shape::random, size_index % 2 == 0 ? run_shape::singles : run_shape::whole};
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceSelect::Unique keeps the first item of every run of equal items", "[device][select]",
                        unique_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(611);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes(std::is_same_v<T, std::uint32_t>);
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n = sizes[s];
    device_buffer<T> d_in(n);
    device_buffer<T> d_out(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    for (run_shape shape : shapes_at(s))
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<T> in = strata_test::run_inputs<T>(n, shape, seed + n + std::uint64_t(shape));
      const std::vector<T> expected =
          strata_test::gather(in, strata_test::run_heads(in, [](const T& x, const T& y) { return x == y; }));
      d_in.upload(in);
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::Unique(d_temp, bytes, static_cast<const T*>(d_in.data()), d_out.data(),
                                                d_num.data(), std::int64_t(n));
          });
      strata_test::check_counts(d_num, {expected.size()});
      strata_test::check_selected(expected, d_out.download());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceSelect::UniqueByKey keeps the first key of every run, with its value",
                        "[device][select]", unique_by_key_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using K                  = typename TestType::first_type;
  using V                  = typename TestType::second_type;
  const std::uint64_t seed = strata_test::seed(613);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n         = sizes[s];
    const std::vector<V> values = strata_test::select_inputs<V>(n, seed + 5 * n);
    device_buffer<K> d_keys(n);
    device_buffer<V> d_values(values);
    device_buffer<K> d_keys_out(n + strata_test::select_slack);
    device_buffer<V> d_values_out(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    for (run_shape shape : shapes_at(s))
    {
      const std::vector<K> keys = strata_test::run_inputs<K>(n, shape, seed + n + std::uint64_t(shape));
      d_keys.upload(keys);
      for (bool coarse : {false, true})
      {
        INFO("num_items " << n << ", " << strata_test::run_shape_name(shape)
                          << (coarse ? ", coarse_equal (an int count)" : ", operator== (an int64_t count)"));
        const std::vector<std::size_t> heads =
            coarse ? strata_test::run_heads(keys, strata_test::coarse_equal{})
                   : strata_test::run_heads(keys, [](const K& x, const K& y) { return x == y; });
        d_keys_out.poison();
        d_values_out.poison();
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              const K* keys_in   = d_keys.data();
              const V* values_in = d_values.data();
              return coarse ? strata::DeviceSelect::UniqueByKey(d_temp, bytes, keys_in, values_in, d_keys_out.data(),
                                                                d_values_out.data(), d_num.data(), int(n),
                                                                strata_test::coarse_equal{})
                            : strata::DeviceSelect::UniqueByKey(d_temp, bytes, keys_in, values_in, d_keys_out.data(),
                                                                d_values_out.data(), d_num.data(), std::int64_t(n));
            });
        strata_test::check_counts(d_num, {heads.size()});
        strata_test::check_selected(strata_test::gather(keys, heads), d_keys_out.download());
        strata_test::check_selected(strata_test::gather(values, heads), d_values_out.download());
      }
    }
  }
}

TEMPLATE_TEST_CASE("DeviceSelect::Unique and UniqueByKey read and write misaligned pointers", "[device][select]",
                   std::uint32_t, float)
{
  // Four-byte keys and values one item past an aligned address in, three past it out.
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(615);
  INFO("seed " << seed);
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(100003)})
  {
    INFO("num_items " << n);
    const std::vector<T> in = strata_test::run_inputs<T>(n + 1, run_shape::random, seed + n); // in[0]: before d_in + 1
    const std::vector<T> items(in.begin() + 1, in.end());
    const std::vector<std::size_t> heads = strata_test::run_heads(items, [](const T& x, const T& y) { return x == y; });
    device_buffer<T> d_in(in);
    device_buffer<T> d_out(n + 3 + strata_test::select_slack);
    device_buffer<int> d_num(2);
    d_out.poison();
    d_num.poison();
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSelect::Unique(d_temp, bytes, static_cast<const T*>(d_in.data() + 1), d_out.data() + 3,
                                              d_num.data(), std::int64_t(n));
        });
    strata_test::check_counts(d_num, {heads.size()});
    strata_test::check_selected(strata_test::gather(items, heads), d_out.download(), 3);

    if constexpr (std::is_same_v<T, std::uint32_t>)
    {
      const std::vector<T> values = strata_test::select_inputs<T>(n + 1, seed + 2 * n);
      device_buffer<T> d_values(values);
      device_buffer<T> d_values_out(n + 3 + strata_test::select_slack);
      d_out.poison();
      d_values_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::UniqueByKey(d_temp, bytes, static_cast<const T*>(d_in.data() + 1),
                                                     static_cast<const T*>(d_values.data() + 1), d_out.data() + 3,
                                                     d_values_out.data() + 3, d_num.data(), std::int64_t(n));
          });
      strata_test::check_counts(d_num, {heads.size()});
      strata_test::check_selected(strata_test::gather(items, heads), d_out.download(), 3);
      strata_test::check_selected(strata_test::gather(std::vector<T>(values.begin() + 1, values.end()), heads),
                                  d_values_out.download(), 3);
    }
  }
}

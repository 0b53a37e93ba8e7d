// Tests of DeviceReduce::ReduceByKey (strata/device/device_reduce.cuh), against a host walk that
// reduces each run of equal keys from left to right. Keys of every integer width, float (NaN, never
// equal to itself, is a run of its own; a run mixing +0 and -0 is one run whose first key, sign
// and all, is written), double and a 16-byte record, summing int32, uint64, float and double values
// chosen so that every sum is exact in any order (so the aggregates compare byte for byte); also
// cuda::minimum<>, an associative operator that is not commutative (a wrong order of the values
// gives another result), and an equality operator coarser than operator== (strata's overload).
// Runs of 1, of random lengths of mean 8 and of mean 2000 (crossing tiles), and one run; sizes from
// 0 through both sides of every tile size (1024, 2048, 4096 items) to 2^20 + 7 (2^24 + 13 for some
// types); everything past the expected runs and the count must keep its poison. Also misaligned
// keys, values and outputs, and keys and values read through iterators.
#include <strata/device/device_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_runs_checks.cuh"
#include "device_select_checks.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using strata_test::counting_iterator;
using strata_test::device_buffer;
using strata_test::divided_iterator;
using strata_test::equal_op;
using strata_test::item16;
using strata_test::run_shape;

//! Keys with the values they sum: every key type, each value type with several key widths, and
//! tiles of 4096 (4-byte key and value), 2048 (an 8-byte one) and 1024 items (the record).
using sum_types =
    std::tuple<std::pair<std::int8_t, std::int32_t>, std::pair<std::uint8_t, std::uint64_t>,
               std::pair<std::int16_t, float>, std::pair<std::uint16_t, double>, std::pair<std::int32_t, std::int32_t>,
               std::pair<std::uint32_t, float>, std::pair<std::int64_t, double>,
               std::pair<std::uint64_t, std::uint64_t>, std::pair<float, float>, std::pair<float, std::uint64_t>,
               std::pair<double, std::int32_t>, std::pair<item16, std::int32_t>, std::pair<item16, double>>;

//! The pairs that also run at 2^24 + 13 items: every value type and tile size once.
template <typename K, typename V>
constexpr bool huge_pair_v = (std::is_same_v<K, std::int32_t> && std::is_same_v<V, std::int32_t>)
                             || (std::is_same_v<K, float> && std::is_same_v<V, float>)
                             || (std::is_same_v<K, std::int64_t> && std::is_same_v<V, double>)
                             || (std::is_same_v<K, std::uint64_t> && std::is_same_v<V, std::uint64_t>)
                             || (std::is_same_v<K, item16> && std::is_same_v<V, std::int32_t>);

//! Keys and values of the minimum: values over their whole range (floats in [-100, 100]).
using min_types = std::tuple<std::pair<std::uint16_t, std::int32_t>, std::pair<std::int64_t, float>,
                             std::pair<double, std::uint64_t>, std::pair<item16, double>>;

//! x -> x * mul + add, wrapping: composing them in input order gives a polynomial hash of the
//! run's values (for mul = 3 everywhere, the fold h = h * 3 + add). Composition is associative
//! but not commutative, so any change in the order of a run's values changes its aggregate.
struct affine
{
  std::uint64_t mul;
  std::uint64_t add;
};
static_assert(sizeof(affine) == 16, "affine: two words, no padding");

//! First x, then y.
struct compose
{
  __host__ __device__ affine operator()(const affine& x, const affine& y) const
  {
    return affine{x.mul * y.mul, x.add * y.mul + y.add};
  }
};

//! `n` random affine maps with odd multipliers.
std::vector<affine> affine_values(std::size_t n, std::uint64_t seed)
{
  std::vector<affine> values(n);
  std::mt19937_64 engine(seed);
  for (auto& value : values)
  {
    value.mul = engine() | 1u;
    value.add = engine();
  }
  return values;
}

//! CHECKs one call's outputs against `expected`: the count, then the unique keys and the
//! aggregates from position `at` of their buffers, with the poison everywhere else.
template <typename K, typename AccumT, typename NumT>
void check_runs(const strata_test::runs_reference<K, AccumT>& expected, const device_buffer<K>& d_unique,
                const device_buffer<AccumT>& d_aggregates, const device_buffer<NumT>& d_num, std::size_t at = 0)
{
  strata_test::check_counts(d_num, {expected.keys.size()});
  {
    INFO("unique keys");
    strata_test::check_selected(expected.keys, d_unique.download(), at);
  }
  {
    INFO("aggregates");
    strata_test::check_selected(expected.aggregates, d_aggregates.download(), at);
  }
}
} // namespace

namespace Catch
{
template <>
struct StringMaker<affine>
{
  static std::string convert(const affine& x)
  {
    return "{mul " + std::to_string(x.mul) + ", add " + std::to_string(x.add) + "}";
  }
};
} // namespace Catch

TEMPLATE_LIST_TEST_CASE("DeviceReduce::ReduceByKey sums the values of every run of equal keys",
                        "[device][reduce_by_key]", sum_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using K                  = typename TestType::first_type;
  using V                  = typename TestType::second_type;
  const std::uint64_t seed = strata_test::seed(1301);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes(huge_pair_v<K, V>);
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n         = sizes[s];
    const std::vector<V> values = strata_test::runs_values<V>(n, seed + 5 * n);
    device_buffer<K> d_keys(n);
    device_buffer<V> d_values(values);
    device_buffer<K> d_unique(n + strata_test::select_slack);
    device_buffer<V> d_aggregates(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    for (run_shape shape : strata_test::runs_shapes_at(s))
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<K> keys = strata_test::run_inputs<K>(n, shape, seed + n + std::uint64_t(shape));
      const auto expected       = strata_test::reference_reduce_by_key(keys, values, equal_op{}, cuda::std::plus<>{});
      d_keys.upload(keys);
      d_unique.poison();
      d_aggregates.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceReduce::ReduceByKey(d_temp, bytes, static_cast<const K*>(d_keys.data()),
                                                     d_unique.data(), static_cast<const V*>(d_values.data()),
                                                     d_aggregates.data(), d_num.data(), cuda::std::plus<>{},
                                                     std::int64_t(n));
          });
      check_runs(expected, d_unique, d_aggregates, d_num);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceReduce::ReduceByKey with cuda::minimum<> keeps the least value of every run",
                        "[device][reduce_by_key]", min_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using K                  = typename TestType::first_type;
  using V                  = typename TestType::second_type;
  const std::uint64_t seed = strata_test::seed(1303);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n         = sizes[s];
    const std::vector<V> values = strata_test::random_vector<V>(n, seed + 7 * n);
    device_buffer<K> d_keys(n);
    device_buffer<V> d_values(values);
    device_buffer<K> d_unique(n + strata_test::select_slack);
    device_buffer<V> d_aggregates(n + strata_test::select_slack);
    device_buffer<std::int64_t> d_num(2);
    for (run_shape shape : strata_test::runs_shapes_at(s))
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<K> keys = strata_test::run_inputs<K>(n, shape, seed + n + std::uint64_t(shape));
      const auto expected       = strata_test::reference_reduce_by_key(keys, values, equal_op{}, cuda::minimum<>{});
      d_keys.upload(keys);
      d_unique.poison();
      d_aggregates.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceReduce::ReduceByKey(d_temp, bytes, static_cast<const K*>(d_keys.data()),
                                                     d_unique.data(), static_cast<const V*>(d_values.data()),
                                                     d_aggregates.data(), d_num.data(), cuda::minimum<>{},
                                                     std::int64_t(n));
          });
      check_runs(expected, d_unique, d_aggregates, d_num);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::ReduceByKey reduces every run's values in input order", "[device][reduce_by_key]",
                   std::int32_t, double)
{
  // Composition of affine maps: associative, not commutative. Item counts of two other integral
  // types: uint32 (int32 keys) and size_t (double keys).
  STRATA_TEST_REQUIRE_GPU();
  using K                  = TestType;
  using CountT             = std::conditional_t<std::is_same_v<K, std::int32_t>, std::uint32_t, std::size_t>;
  const std::uint64_t seed = strata_test::seed(1305);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n              = sizes[s];
    const std::vector<affine> values = affine_values(n, seed + 3 * n);
    device_buffer<K> d_keys(n);
    device_buffer<affine> d_values(values);
    device_buffer<K> d_unique(n + strata_test::select_slack);
    device_buffer<affine> d_aggregates(n + strata_test::select_slack);
    device_buffer<std::uint64_t> d_num(2);
    for (run_shape shape : strata_test::runs_shapes_at(s))
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<K> keys = strata_test::run_inputs<K>(n, shape, seed + n + std::uint64_t(shape));
      const auto expected       = strata_test::reference_reduce_by_key(keys, values, equal_op{}, compose{});
      d_keys.upload(keys);
      d_unique.poison();
      d_aggregates.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceReduce::ReduceByKey(d_temp, bytes, static_cast<const K*>(d_keys.data()),
                                                     d_unique.data(), static_cast<const affine*>(d_values.data()),
                                                     d_aggregates.data(), d_num.data(), compose{}, CountT(n));
          });
      check_runs(expected, d_unique, d_aggregates, d_num);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::ReduceByKey with an equality operator reduces runs of keys equal under it",
                   "[device][reduce_by_key]", std::int32_t, std::uint8_t, float, item16)
{
  // coarse_equal: keys equal when key / 4 (a float's floor) is; every NaN equal to every other, +0
  // to -0, a record by its key alone. Runs of it merge runs of operator==, and the key written is
  // the first of the merged run. An int item count.
  STRATA_TEST_REQUIRE_GPU();
  using K                  = TestType;
  using V                  = std::int32_t;
  const std::uint64_t seed = strata_test::seed(1307);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n         = sizes[s];
    const std::vector<V> values = strata_test::runs_values<V>(n, seed + 11 * n);
    device_buffer<K> d_keys(n);
    device_buffer<V> d_values(values);
    device_buffer<K> d_unique(n + strata_test::select_slack);
    device_buffer<V> d_aggregates(n + strata_test::select_slack);
    device_buffer<std::int64_t> d_num(2);
    for (run_shape shape : strata_test::runs_shapes_at(s))
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<K> keys = strata_test::run_inputs<K>(n, shape, seed + n + std::uint64_t(shape));
      const auto expected =
          strata_test::reference_reduce_by_key(keys, values, strata_test::coarse_equal{}, cuda::std::plus<>{});
      d_keys.upload(keys);
      d_unique.poison();
      d_aggregates.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceReduce::ReduceByKey(d_temp, bytes, static_cast<const K*>(d_keys.data()),
                                                     d_unique.data(), static_cast<const V*>(d_values.data()),
                                                     d_aggregates.data(), d_num.data(), strata_test::coarse_equal{},
                                                     cuda::std::plus<>{}, int(n));
          });
      check_runs(expected, d_unique, d_aggregates, d_num);
    }
  }
}

TEST_CASE("DeviceReduce::ReduceByKey reads and writes misaligned pointers", "[device][reduce_by_key]")
{
  // uint32 keys and float values one item past an aligned address in, three past it out.
  STRATA_TEST_REQUIRE_GPU();
  using K                  = std::uint32_t;
  using V                  = float;
  const std::uint64_t seed = strata_test::seed(1309);
  INFO("seed " << seed);
  for (std::size_t n : strata_test::runs_few_sizes())
  {
    for (run_shape shape : {run_shape::random, run_shape::long_random})
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      // in[0] lies before d_keys + 1 and d_values + 1.
      const std::vector<K> keys_in   = strata_test::run_inputs<K>(n + 1, shape, seed + n + std::uint64_t(shape));
      const std::vector<V> values_in = strata_test::runs_values<V>(n + 1, seed + 2 * n);
      const auto expected = strata_test::reference_reduce_by_key(std::vector<K>(keys_in.begin() + 1, keys_in.end()),
                                                                 std::vector<V>(values_in.begin() + 1, values_in.end()),
                                                                 equal_op{}, cuda::std::plus<>{});
      device_buffer<K> d_keys(keys_in);
      device_buffer<V> d_values(values_in);
      device_buffer<K> d_unique(n + 3 + strata_test::select_slack);
      device_buffer<V> d_aggregates(n + 3 + strata_test::select_slack);
      device_buffer<int> d_num(2);
      d_unique.poison();
      d_aggregates.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceReduce::ReduceByKey(d_temp, bytes, static_cast<const K*>(d_keys.data() + 1),
                                                     d_unique.data() + 3, static_cast<const V*>(d_values.data() + 1),
                                                     d_aggregates.data() + 3, d_num.data(), cuda::std::plus<>{},
                                                     std::int64_t(n));
          });
      check_runs(expected, d_unique, d_aggregates, d_num, 3);
    }
  }
}

TEST_CASE("DeviceReduce::ReduceByKey reads keys and values through iterators", "[device][reduce_by_key]")
{
  // Keys i / length from a TransformInputIterator over a CountingInputIterator, values i from a
  // CountingInputIterator: run r is key r with the sum of its positions.
  STRATA_TEST_REQUIRE_GPU();
  for (std::size_t n : strata_test::runs_few_sizes())
  {
    for (std::int64_t length : {std::int64_t(1), std::int64_t(7), std::int64_t(3001)})
    {
      INFO("num_items " << n << ", runs of " << length);
      const std::int64_t items = std::int64_t(n);
      strata_test::runs_reference<std::int64_t, std::int64_t> expected;
      for (std::int64_t first = 0; first < items; first += length)
      {
        expected.keys.push_back(first / length);
        expected.aggregates.push_back(strata_test::sum_of_range(first, std::min(items, first + length)));
      }
      device_buffer<std::int64_t> d_unique(n + strata_test::select_slack);
      device_buffer<std::int64_t> d_aggregates(n + strata_test::select_slack);
      device_buffer<std::int64_t> d_num(2);
      d_unique.poison();
      d_aggregates.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceReduce::ReduceByKey(
                d_temp, bytes, divided_iterator(counting_iterator(0), strata_test::divide_by{length}), d_unique.data(),
                counting_iterator(0), d_aggregates.data(), d_num.data(), cuda::std::plus<>{}, items);
          });
      check_runs(expected, d_unique, d_aggregates, d_num);
    }
  }
}

// Tests of strata/device/device_scan.cuh, part 3: the scans by key (ExclusiveSumByKey,
// InclusiveSumByKey, ExclusiveScanByKey, InclusiveScanByKey) over every integer type, float,
// double and a custom struct with a non-commutative operator, with keys in runs of length 1,
// random runs (mean length 8) and very long runs (2^20 items, across many tiles), a custom key
// equality, and 8-, 32- and 64-bit keys. Sizes from 0 to 2^24 + 13; the largest runs twice.
// Float and double values are small integers: the sums are exact and compared exactly.
#include <strata/device/device_scan.cuh>

#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <cuda/functional>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace
{
using strata_test::check_scan;
using strata_test::custom_t;
using strata_test::host_max;
using strata_test::host_plus;
using strata_test::run_scan;
using strata_test::scan_sizes;

enum class runs
{
  single, // every key differs from the one before
  random, // run lengths uniform in [1, 15]
  long_   // runs of 2^20 items
};

std::string describe(runs r)
{
  return r == runs::single ? "runs of 1" : r == runs::random ? "random runs (mean 8)" : "runs of 2^20";
}

template <typename KeyT>
std::vector<KeyT> make_keys(std::size_t n, runs r, std::uint64_t seed)
{
  std::vector<KeyT> keys(n);
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> length(1, 15);
  KeyT key       = KeyT(engine());
  std::size_t to = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (i == to)
    {
      to  = i + (r == runs::single ? 1 : r == runs::random ? std::size_t(length(engine)) : std::size_t(1) << 20);
      key = KeyT(key + 1 + KeyT(engine() % 3)); // a different key, also for 8-bit keys
    }
    keys[i] = key;
  }
  return keys;
}

//! A sequential scan by key in AccumT: exclusive from `init` in every segment, or inclusive
//! (init == nullptr).
template <typename OutT, typename AccumT, typename KeyT, typename ValueT, typename OpT, typename EqT>
std::vector<OutT> reference_by_key(const std::vector<KeyT>& keys, const std::vector<ValueT>& values, OpT op, EqT eq,
                                   const AccumT* init)
{
  std::vector<OutT> out(values.size());
  AccumT running{};
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    const bool head = i == 0 || !eq(keys[i - 1], keys[i]);
    if (init != nullptr)
    {
      running = head ? *init : op(running, AccumT(values[i - 1]));
      out[i]  = OutT(running);
    }
    else
    {
      running = head ? AccumT(values[i]) : op(running, AccumT(values[i]));
      out[i]  = OutT(running);
    }
  }
  return out;
}

struct host_equal
{
  template <typename T>
  bool operator()(const T& a, const T& b) const
  {
    return a == b;
  }
};

//! Keys are equal when they agree but for the lowest two bits.
struct equal_but_low_bits
{
  __host__ __device__ bool operator()(std::int32_t a, std::int32_t b) const
  {
    return (a >> 2) == (b >> 2);
  }
};

//! Runs `call(d_temp, bytes, d_keys, d_values, d_out, n)` at every size against `expected`.
template <typename AccumT, typename KeyT, typename T, typename OutT, typename CallT>
void check_all_sizes(const std::vector<KeyT>& keys, const std::vector<T>& values, const std::vector<OutT>& expected,
                     CallT call)
{
  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<T> d_values(values);
  strata_test::device_buffer<OutT> d_out(values.size());
  const std::vector<std::size_t> sizes = scan_sizes(strata_test::scan_by_key_tile_items<KeyT, AccumT>(), values.size());
  for (std::size_t n : sizes)
  {
    INFO("num_items " << n);
    const int repeats = n == sizes.back() ? 2 : 1; // the largest twice: the second reuses the storage
    for (int repeat = 0; repeat < repeats; ++repeat)
    {
      check_scan(expected,
                 run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                          { return call(d_temp, bytes, d_keys.data(), d_values.data(), d_out.data(), n); }),
                 n);
    }
  }
}

using sum_types = decltype(std::tuple_cat(strata_test::integral_types{}, std::tuple<float, double>{}));
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceScan::ExclusiveSumByKey and InclusiveSumByKey", "[device][scan][by_key]", sum_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  using AccumT             = std::conditional_t<std::is_integral_v<T>, decltype(T{} + T{}), double>;
  const std::uint64_t seed = strata_test::seed(229);
  INFO("seed " << seed);
  const std::size_t size = strata_test::scan_input_items();
  // Floating point: integers in [1, 15], so that every sum within a segment (at most 15 * 2^20 <
  // 2^24) is exact in float whatever the order, and the outputs are compared exactly: a dropped
  // or doubled item moves a sum by at least 1.
  std::vector<T> values(size);
  if constexpr (std::is_integral_v<T>)
  {
    values = strata_test::random_vector<T>(size, seed);
  }
  else
  {
    const std::vector<int> integers = strata_test::random_vector<int>(size, seed, 1.0, 15.0);
    for (std::size_t i = 0; i < size; ++i)
    {
      values[i] = T(integers[i]);
    }
  }
  for (runs r : {runs::single, runs::random, runs::long_})
  {
    INFO(describe(r));
    const std::vector<std::int32_t> keys = make_keys<std::int32_t>(values.size(), r, seed + 1);
    const AccumT zero{};
    const auto exclusive = reference_by_key<T>(keys, values, host_plus<AccumT>{}, host_equal{}, &zero);
    const auto inclusive =
        reference_by_key<T>(keys, values, host_plus<AccumT>{}, host_equal{}, static_cast<const AccumT*>(nullptr));
    using DeviceAccumT = std::conditional_t<std::is_integral_v<T>, AccumT, T>;
    check_all_sizes<DeviceAccumT>(
        keys, values, exclusive,
        [](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys, const T* d_values, T* d_out, std::size_t n)
        { return strata::DeviceScan::ExclusiveSumByKey(d_temp, bytes, d_keys, d_values, d_out, n); });
    check_all_sizes<DeviceAccumT>(
        keys, values, inclusive,
        [](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys, const T* d_values, T* d_out, std::size_t n)
        { return strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, d_keys, d_values, d_out, int(n)); });
  }
}

TEMPLATE_TEST_CASE("DeviceScan::ExclusiveScanByKey with maximum and keys of several widths", "[device][scan][by_key]",
                   std::int8_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using KeyT               = TestType;
  const std::uint64_t seed = strata_test::seed(233);
  INFO("seed " << seed);
  const std::vector<std::int32_t> values =
      strata_test::random_vector<std::int32_t>(strata_test::scan_input_items(), seed);
  const std::int32_t init = -7;
  for (runs r : {runs::single, runs::random, runs::long_})
  {
    INFO(describe(r));
    const std::vector<KeyT> keys = make_keys<KeyT>(values.size(), r, seed + 2);
    const auto expected = reference_by_key<std::int32_t>(keys, values, host_max<std::int32_t>{}, host_equal{}, &init);
    check_all_sizes<std::int32_t>(keys, values, expected,
                                  [&](void* d_temp, std::size_t& bytes, const KeyT* d_keys,
                                      const std::int32_t* d_values, std::int32_t* d_out, std::size_t n) {
                                    return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, d_keys, d_values,
                                                                                  d_out, cuda::maximum<>{}, init, n);
                                  });
  }
}

TEST_CASE("DeviceScan::InclusiveScanByKey and ExclusiveScanByKey of a non-commutative operator with a custom "
          "key equality",
          "[device][scan][by_key]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(239);
  INFO("seed " << seed);
  std::vector<custom_t> values = strata_test::random_vector<custom_t>(strata_test::scan_input_items(), seed);
  for (auto& x : values)
  {
    x.a |= 1;
    x.c = 1;
  }
  const auto op = strata_test::affine_op{};
  const custom_t init{5, 1, 0};
  for (runs r : {runs::single, runs::random, runs::long_})
  {
    INFO(describe(r));
    // Keys that differ only in their lowest two bits compare equal: runs merge.
    std::vector<std::int32_t> keys = make_keys<std::int32_t>(values.size(), r, seed + 3);
    for (auto& k : keys)
    {
      k = k * 3;
    }
    const auto inclusive =
        reference_by_key<custom_t>(keys, values, op, equal_but_low_bits{}, static_cast<const custom_t*>(nullptr));
    const auto exclusive = reference_by_key<custom_t>(keys, values, op, equal_but_low_bits{}, &init);
    check_all_sizes<custom_t>(keys, values, inclusive,
                              [&](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys,
                                  const custom_t* d_values, custom_t* d_out, std::size_t n)
                              {
                                return strata::DeviceScan::InclusiveScanByKey(d_temp, bytes, d_keys, d_values, d_out,
                                                                              op, n, equal_but_low_bits{});
                              });
    check_all_sizes<custom_t>(keys, values, exclusive,
                              [&](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys,
                                  const custom_t* d_values, custom_t* d_out, std::size_t n)
                              {
                                return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, d_keys, d_values, d_out,
                                                                              op, init, n, equal_but_low_bits{});
                              });
  }
}

TEST_CASE("DeviceScan::InclusiveSumByKey in place", "[device][scan][by_key]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(241);
  INFO("seed " << seed);
  const std::size_t n                     = 1000003;
  const std::vector<std::uint32_t> values = strata_test::random_vector<std::uint32_t>(n, seed);
  const std::vector<std::int32_t> keys    = make_keys<std::int32_t>(n, runs::random, seed + 4);
  const auto expected = reference_by_key<std::uint32_t>(keys, values, host_plus<std::uint32_t>{}, host_equal{},
                                                        static_cast<const std::uint32_t*>(nullptr));
  strata_test::device_buffer<std::int32_t> d_keys(keys);
  strata_test::device_buffer<std::uint32_t> d_data(values);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(
      strata::DeviceScan::InclusiveSumByKey(nullptr, bytes, d_keys.data(), d_data.data(), d_data.data(), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(
      strata::DeviceScan::InclusiveSumByKey(d_temp.data(), bytes, d_keys.data(), d_data.data(), d_data.data(), n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  strata_test::check_equal(expected, d_data.download());
}

// Tests of strata/device/device_merge.cuh: MergeKeys and MergePairs of int32, uint64, float (signed
// zeros tie across the inputs) and a 16-byte record with a comparator, against std::merge (which
// puts the first input's equal keys first), at empty, tiny, tile-edge, lopsided and large sizes
// (the large ones take the partition kernel); values tell which input and position each output
// came from. Also: a descending order, keys and values read through iterators, misaligned
// pointers, bad arguments (an error code, nothing written) and a merge on a stream of its own.
#include <strata/device/device_merge.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;

//! A 16-byte record ordered by `key` alone.
struct record
{
  std::int64_t key;
  std::uint32_t a;
  std::uint32_t b;
};
struct record_less
{
  __host__ __device__ bool operator()(const record& x, const record& y) const
  {
    return x.key < y.key;
  }
};

struct greater_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a > b;
  }
};

//! n sorted keys of T (by `compare`), with many equal ones: random in a small range, or (floats)
//! small integers with signed zeros.
template <typename T, typename CompareT>
std::vector<T> sorted_keys(std::size_t n, std::uint64_t seed, CompareT compare)
{
  std::vector<T> keys(n);
  if constexpr (std::is_same_v<T, record>)
  {
    const std::vector<std::int32_t> words = strata_test::random_vector<std::int32_t>(2 * n, seed, -500, 500);
    for (std::size_t i = 0; i < n; ++i)
    {
      keys[i] = record{words[2 * i], std::uint32_t(i), std::uint32_t(words[2 * i + 1])};
    }
  }
  else if constexpr (std::is_floating_point_v<T>)
  {
    const std::vector<std::int32_t> words = strata_test::random_vector<std::int32_t>(n, seed, -50, 50);
    for (std::size_t i = 0; i < n; ++i)
    {
      keys[i] = words[i] == 0 ? (i % 2 == 0 ? T(0) : -T(0)) : T(words[i]) / T(4);
    }
  }
  else
  {
    keys = strata_test::random_vector<T>(n, seed, 0, 2000);
  }
  std::stable_sort(keys.begin(), keys.end(), compare);
  return keys;
}

template <typename T>
bool same_bytes(const std::vector<T>& x, const std::vector<T>& y)
{
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

//! Merges keys1 (values: positions) and keys2 (values: positions with the top bit set) with
//! MergeKeys or MergePairs into poisoned outputs and checks both against std::merge, byte for byte.
template <typename T, typename CompareT>
void check_merge(const std::vector<T>& keys1, const std::vector<T>& keys2, bool pairs, CompareT compare)
{
  const std::size_t n1 = keys1.size();
  const std::size_t n2 = keys2.size();
  INFO("num_items1 " << n1 << ", num_items2 " << n2 << (pairs ? ", pairs" : ", keys"));
  using item_t = std::pair<T, std::uint32_t>;
  std::vector<item_t> items1(n1);
  std::vector<item_t> items2(n2);
  for (std::size_t i = 0; i < n1; ++i)
  {
    items1[i] = {keys1[i], std::uint32_t(i)};
  }
  for (std::size_t i = 0; i < n2; ++i)
  {
    items2[i] = {keys2[i], std::uint32_t(i) | 0x80000000u};
  }
  std::vector<item_t> merged(n1 + n2);
  std::merge(items1.begin(), items1.end(), items2.begin(), items2.end(), merged.begin(),
             [&](const item_t& a, const item_t& b) { return compare(a.first, b.first); });
  std::vector<T> expected_keys(n1 + n2);
  std::vector<std::uint32_t> expected_values(n1 + n2);
  std::vector<std::uint32_t> values1(n1);
  std::vector<std::uint32_t> values2(n2);
  for (std::size_t i = 0; i < n1 + n2; ++i)
  {
    expected_keys[i]   = merged[i].first;
    expected_values[i] = merged[i].second;
  }
  for (std::size_t i = 0; i < n1; ++i)
  {
    values1[i] = items1[i].second;
  }
  for (std::size_t i = 0; i < n2; ++i)
  {
    values2[i] = items2[i].second;
  }

  device_buffer<T> d_keys1(keys1);
  device_buffer<T> d_keys2(keys2);
  device_buffer<std::uint32_t> d_values1(values1);
  device_buffer<std::uint32_t> d_values2(values2);
  device_buffer<T> d_keys_out(n1 + n2 + 5);
  device_buffer<std::uint32_t> d_values_out(n1 + n2 + 5);
  d_keys_out.poison();
  d_values_out.poison();
  const std::vector<T> poisoned_keys                 = d_keys_out.download();
  const std::vector<std::uint32_t> poisoned_values   = d_values_out.download();
  std::size_t bytes                                  = 0;
  const auto call = [&](void* d_temp) {
    return pairs ? strata::DeviceMerge::MergePairs(d_temp, bytes, static_cast<const T*>(d_keys1.data()),
                                                   static_cast<const std::uint32_t*>(d_values1.data()),
                                                   std::int64_t(n1), static_cast<const T*>(d_keys2.data()),
                                                   static_cast<const std::uint32_t*>(d_values2.data()),
                                                   std::int64_t(n2), d_keys_out.data(), d_values_out.data(), compare)
                 : strata::DeviceMerge::MergeKeys(d_temp, bytes, static_cast<const T*>(d_keys1.data()),
                                                  std::int64_t(n1), static_cast<const T*>(d_keys2.data()),
                                                  std::int64_t(n2), d_keys_out.data(), compare);
  };
  STRATA_TEST_CUDA(call(nullptr));
  CHECK(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(call(d_temp.data()));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());

  std::vector<T> keys_out = d_keys_out.download();
  CHECK(std::memcmp(keys_out.data() + n1 + n2, poisoned_keys.data() + n1 + n2, 5 * sizeof(T)) == 0);
  keys_out.resize(n1 + n2);
  CHECK(same_bytes(expected_keys, keys_out));
  std::vector<std::uint32_t> values_out = d_values_out.download();
  if (pairs)
  {
    CHECK(std::equal(values_out.begin() + std::ptrdiff_t(n1 + n2), values_out.end(),
                     poisoned_values.begin() + std::ptrdiff_t(n1 + n2)));
    values_out.resize(n1 + n2);
    strata_test::check_equal(expected_values, values_out);
  }
  else
  {
    CHECK(values_out == poisoned_values); // keys only: no value written
  }
}

//! The sizes of both inputs: empty, tiny, around one tile, lopsided, and large (under
//! compute-sanitizer up to about 10^5 items).
std::vector<std::pair<std::size_t, std::size_t>> merge_sizes(std::size_t tile)
{
  std::vector<std::pair<std::size_t, std::size_t>> sizes{
    {0, 0}, {0, 5}, {5, 0}, {1, 1}, {tile - 1, 1}, {tile / 2, tile / 2}, {tile, tile + 1}, {3 * tile + 7, 5},
    {100003, 7}, {7, 100003}, {60001, 40009}};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back({1000003, 1500007});
    sizes.push_back({(std::size_t(1) << 22) + 5, (std::size_t(1) << 23) + 3}); // the partition kernel's path
  }
  return sizes;
}

template <typename T>
inline constexpr std::size_t merge_tile_v =
  strata::detail::merge::fitted_merge_policy_t<typename strata::detail::merge::policy_hub<T, std::uint32_t>::Policy900,
                                               T, std::uint32_t>::ITEMS_PER_TILE;

using merge_types = std::tuple<std::int32_t, std::uint64_t, float>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceMerge merges keys and pairs stably", "[device][merge]", merge_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(441);
  INFO("seed " << seed);
  const auto less = strata_test::less_op{};
  for (const auto& [n1, n2] : merge_sizes(merge_tile_v<T>))
  {
    const std::vector<T> keys1 = sorted_keys<T>(n1, seed + n1, less);
    const std::vector<T> keys2 = sorted_keys<T>(n2, seed + 3 * n2 + 1, less);
    check_merge(keys1, keys2, false, less);
    check_merge(keys1, keys2, true, less);
  }
}

TEST_CASE("DeviceMerge merges records by a comparator and in descending order", "[device][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(443);
  INFO("seed " << seed);
  for (const auto& [n1, n2] : {std::pair<std::size_t, std::size_t>{1, 1}, {3000, 70001}, {100003, 99991}})
  {
    check_merge(sorted_keys<record>(n1, seed, record_less{}), sorted_keys<record>(n2, seed + 1, record_less{}), true,
                record_less{});
    check_merge(sorted_keys<std::int32_t>(n1, seed + 2, greater_op{}),
                sorted_keys<std::int32_t>(n2, seed + 3, greater_op{}), true, greater_op{});
  }
}

TEST_CASE("DeviceMerge reads keys and values through iterators and misaligned pointers", "[device][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(445);
  INFO("seed " << seed);
  // keys2 = 0, 1, 2, ... (a counting iterator); values from counting iterators too.
  const std::size_t n1 = 200003;
  const std::size_t n2 = 150001;
  std::vector<std::int64_t> keys1 =
    strata_test::random_vector<std::int64_t>(n1 + 1, seed, 0, double(n2)); // element 0 is the misalignment
  std::sort(keys1.begin() + 1, keys1.end());
  std::vector<std::int64_t> expected_keys;
  std::vector<std::int64_t> expected_values;
  {
    std::vector<std::pair<std::int64_t, std::int64_t>> a(n1);
    std::vector<std::pair<std::int64_t, std::int64_t>> b(n2);
    for (std::size_t i = 0; i < n1; ++i)
    {
      a[i] = {keys1[i + 1], std::int64_t(i) + 1000};
    }
    for (std::size_t i = 0; i < n2; ++i)
    {
      b[i] = {std::int64_t(i), -std::int64_t(i) - 1};
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> merged(n1 + n2);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin(),
               [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& item : merged)
    {
      expected_keys.push_back(item.first);
      expected_values.push_back(item.second);
    }
  }
  // Values of the second input: -1, -2, ... through a counting iterator's negation is not one
  // iterator of strata's; store them instead.
  std::vector<std::int64_t> values2(n2);
  for (std::size_t i = 0; i < n2; ++i)
  {
    values2[i] = -std::int64_t(i) - 1;
  }
  device_buffer<std::int64_t> d_keys1(keys1);
  device_buffer<std::int64_t> d_values2(values2);
  device_buffer<std::int64_t> d_keys_out(n1 + n2 + 1);
  device_buffer<std::int64_t> d_values_out(n1 + n2 + 1);
  d_keys_out.poison();
  d_values_out.poison();
  const strata::CountingInputIterator<std::int64_t> keys2(0);
  const strata::CountingInputIterator<std::int64_t> values1(1000);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceMerge::MergePairs(nullptr, bytes, d_keys1.data() + 1, values1, std::int64_t(n1), keys2,
                                                   d_values2.data(), std::int64_t(n2), d_keys_out.data() + 1,
                                                   d_values_out.data() + 1));
  device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(strata::DeviceMerge::MergePairs(d_temp.data(), bytes, d_keys1.data() + 1, values1, std::int64_t(n1),
                                                   keys2, d_values2.data(), std::int64_t(n2), d_keys_out.data() + 1,
                                                   d_values_out.data() + 1));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  const std::vector<std::int64_t> keys_out   = d_keys_out.download();
  const std::vector<std::int64_t> values_out = d_values_out.download();
  strata_test::check_equal(expected_keys, std::vector<std::int64_t>(keys_out.begin() + 1, keys_out.end()));
  strata_test::check_equal(expected_values, std::vector<std::int64_t>(values_out.begin() + 1, values_out.end()));
}

TEST_CASE("DeviceMerge rejects bad arguments and writes nothing", "[device][merge]")
{
  std::size_t bytes = 1000;
  int dummy[4]      = {};
  const int* in     = dummy;
  CHECK(strata::DeviceMerge::MergeKeys(nullptr, bytes, in, -1, in, 4, dummy) == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergeKeys(nullptr, bytes, in, 4, in, -1, dummy) == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergeKeys(dummy, bytes, static_cast<const int*>(nullptr), 4, in, 4, dummy)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergeKeys(dummy, bytes, in, 4, in, 4, static_cast<int*>(nullptr))
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergePairs(dummy, bytes, in, in, 4, in, static_cast<const int*>(nullptr), 4, dummy,
                                        dummy)
        == cudaErrorInvalidValue);
  CHECK(bytes == 1000);

  STRATA_TEST_REQUIRE_GPU();
  // Too little temporary storage for a merge that takes the partition kernel.
  const std::size_t n                    = 3 * std::size_t(1 << 21);
  const std::vector<std::int32_t> keys1 = sorted_keys<std::int32_t>(n, 5, strata_test::less_op{});
  device_buffer<std::int32_t> d_keys1(keys1);
  device_buffer<std::int32_t> d_out(2 * n);
  d_out.poison();
  const std::vector<std::int32_t> poisoned = d_out.download();
  std::size_t need                         = 0;
  STRATA_TEST_CUDA(strata::DeviceMerge::MergeKeys(nullptr, need, static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), d_out.data()));
  REQUIRE(need > 1);
  device_buffer<unsigned char> d_temp(need);
  std::size_t short_bytes = need - 1;
  CHECK(strata::DeviceMerge::MergeKeys(d_temp.data(), short_bytes, static_cast<const std::int32_t*>(d_keys1.data()),
                                       std::int64_t(n), static_cast<const std::int32_t*>(d_keys1.data()),
                                       std::int64_t(n), d_out.data())
        == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_out.download() == poisoned);

  // The same merge, run on a stream of its own: both copies of each key, in order.
  cudaStream_t stream = strata_test::new_stream();
  STRATA_TEST_CUDA(strata::DeviceMerge::MergeKeys(d_temp.data(), need, static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), d_out.data(), strata_test::less_op{}, stream));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
  std::vector<std::int32_t> expected(2 * n);
  std::merge(keys1.begin(), keys1.end(), keys1.begin(), keys1.end(), expected.begin());
  strata_test::check_equal(expected, d_out.download());
}

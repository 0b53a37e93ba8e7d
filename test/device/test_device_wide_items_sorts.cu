// Tests of the sorts and merges over items of 1 to 256 bytes: DeviceMergeSort::SortKeys (wide keys)
// and SortPairs (4-byte keys, wide values), DeviceMerge::MergeKeys and MergePairs, DeviceRadixSort::
// SortPairs (wide values), and the segmented sorts' pairs (values wider than 32 bytes are sorted
// as indices and gathered).
// Wide items shrink the tiles until they fit in shared memory; every size must compile and give
// the host reference's answer, byte for byte (equal keys keep their order).
#include <strata/device/device_merge.cuh>
#include <strata/device/device_merge_sort.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>

#include "wide_items.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::mismatches;
using strata_test::poisoned;
using strata_test::run_two_phase;

//! 4-byte keys ordered as unsigned numbers.
struct u32_less
{
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a < b;
  }
};

//! Wide items made from their positions: a value that says where its pair came from.
template <typename ItemT>
std::vector<ItemT> position_items(std::size_t n, std::uint32_t first)
{
  std::vector<ItemT> items(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    items[i] = ItemT::of(std::uint32_t(first + i * 13));
  }
  return items;
}
//! The host reference of a stable sort of pairs: keys and values in the order of their keys,
//! equal keys in input order.
template <typename ItemT>
void stable_pairs(const std::vector<std::uint32_t>& keys, const std::vector<ItemT>& values,
                  std::vector<std::uint32_t>& expected_keys, std::vector<ItemT>& expected_values)
{
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i)
  {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  expected_keys.resize(order.size());
  expected_values.resize(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
  {
    expected_keys[i]   = keys[order[i]];
    expected_values[i] = values[order[i]];
  }
}
} // namespace

TEMPLATE_TEST_CASE("DeviceMergeSort sorts keys and values of every size stably", "[device][merge_sort][wide]",
                   STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes())
  {
    CAPTURE(sizeof(ItemT), n);
    // Wide keys from few values, so that equal keys are many (their items are equal too).
    {
      const std::vector<ItemT> keys =
          strata_test::random_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT)), 200);
      std::vector<ItemT> expected = keys;
      std::stable_sort(expected.begin(), expected.end(), strata_test::key_less{});
      device_buffer<ItemT> d_keys(keys);
      run_two_phase(
          [&](void* t, std::size_t& b)
          { return strata::DeviceMergeSort::SortKeys(t, b, d_keys.data(), std::int64_t(n), strata_test::key_less{}); });
      CHECK(mismatches(d_keys.download(), expected) == 0);
    }
    // 4-byte keys of few values with wide values made from their positions: a stable sort keeps
    // the values of equal keys in input order.
    {
      const std::vector<std::uint32_t> random =
          strata_test::random_vector<std::uint32_t>(n, strata_test::seed(sizeof(ItemT) + 1));
      std::vector<std::uint32_t> keys(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        keys[i] = random[i] % 300;
      }
      const std::vector<ItemT> values = position_items<ItemT>(n, 5);
      std::vector<std::uint32_t> expected_keys;
      std::vector<ItemT> expected_values;
      stable_pairs(keys, values, expected_keys, expected_values);
      device_buffer<std::uint32_t> d_keys(keys);
      device_buffer<ItemT> d_values(values);
      run_two_phase(
          [&](void* t, std::size_t& b) {
            return strata::DeviceMergeSort::SortPairs(t, b, d_keys.data(), d_values.data(), std::int64_t(n),
                                                      u32_less{});
          });
      CHECK(mismatches(d_keys.download(), expected_keys) == 0);
      CHECK(mismatches(d_values.download(), expected_values) == 0);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceMerge merges keys and values of every size", "[device][merge][wide]", STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes())
  {
    // Two sorted inputs of n and about n / 3 items, with keys in common.
    const std::size_t n1 = n;
    const std::size_t n2 = n / 3 + (n % 2);
    CAPTURE(sizeof(ItemT), n1, n2);
    {
      std::vector<ItemT> keys1 = strata_test::random_items<sizeof(ItemT)>(n1, strata_test::seed(sizeof(ItemT)), 500);
      std::vector<ItemT> keys2 =
          strata_test::random_items<sizeof(ItemT)>(n2, strata_test::seed(sizeof(ItemT) + 2), 500);
      std::stable_sort(keys1.begin(), keys1.end(), strata_test::key_less{});
      std::stable_sort(keys2.begin(), keys2.end(), strata_test::key_less{});
      std::vector<ItemT> expected(n1 + n2);
      std::merge(keys1.begin(), keys1.end(), keys2.begin(), keys2.end(), expected.begin(), strata_test::key_less{});
      const device_buffer<ItemT> d_keys1(keys1);
      const device_buffer<ItemT> d_keys2(keys2);
      device_buffer<ItemT> d_out(std::max<std::size_t>(n1 + n2, 1));
      STRATA_TEST_CUDA(cudaMemset(d_out.data(), strata_test::poison_byte, d_out.bytes()));
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceMerge::MergeKeys(t, b, d_keys1.data(), std::int64_t(n1), d_keys2.data(),
                                                  std::int64_t(n2), d_out.data(), strata_test::key_less{});
          });
      CHECK(mismatches(d_out.download(), expected) == 0);
    }
    // 4-byte keys with wide values made from their positions: equal keys take the first input's
    // values first, each input's in order.
    {
      std::vector<std::uint32_t> keys1 =
          strata_test::random_vector<std::uint32_t>(n1, strata_test::seed(sizeof(ItemT) + 3));
      std::vector<std::uint32_t> keys2 =
          strata_test::random_vector<std::uint32_t>(n2, strata_test::seed(sizeof(ItemT) + 4));
      for (auto& k : keys1)
      {
        k %= 700;
      }
      for (auto& k : keys2)
      {
        k %= 700;
      }
      std::sort(keys1.begin(), keys1.end());
      std::sort(keys2.begin(), keys2.end());
      const std::vector<ItemT> values1 = position_items<ItemT>(n1, 1);
      const std::vector<ItemT> values2 = position_items<ItemT>(n2, 2);
      std::vector<std::uint32_t> expected_keys;
      std::vector<ItemT> expected_values;
      std::size_t i = 0, j = 0;
      while (i < n1 || j < n2)
      {
        const bool take_second = i == n1 || (j < n2 && keys2[j] < keys1[i]);
        expected_keys.push_back(take_second ? keys2[j] : keys1[i]);
        expected_values.push_back(take_second ? values2[j++] : values1[i++]);
      }
      const device_buffer<std::uint32_t> d_keys1(keys1);
      const device_buffer<std::uint32_t> d_keys2(keys2);
      const device_buffer<ItemT> d_values1(values1);
      const device_buffer<ItemT> d_values2(values2);
      device_buffer<std::uint32_t> d_keys_out(std::max<std::size_t>(n1 + n2, 1));
      device_buffer<ItemT> d_values_out(std::max<std::size_t>(n1 + n2, 1));
      STRATA_TEST_CUDA(cudaMemset(d_keys_out.data(), strata_test::poison_byte, d_keys_out.bytes()));
      STRATA_TEST_CUDA(cudaMemset(d_values_out.data(), strata_test::poison_byte, d_values_out.bytes()));
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceMerge::MergePairs(t, b, d_keys1.data(), d_values1.data(), std::int64_t(n1),
                                                   d_keys2.data(), d_values2.data(), std::int64_t(n2),
                                                   d_keys_out.data(), d_values_out.data(), u32_less{});
          });
      CHECK(mismatches(d_keys_out.download(), expected_keys) == 0);
      CHECK(mismatches(d_values_out.download(), expected_values) == 0);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceRadixSort sorts pairs of values of every size stably", "[device][radix_sort][wide]",
                   STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes())
  {
    CAPTURE(sizeof(ItemT), n);
    std::vector<std::uint32_t> keys =
        strata_test::random_vector<std::uint32_t>(n, strata_test::seed(sizeof(ItemT) + 5));
    for (std::size_t i = 0; i < n; ++i)
    {
      keys[i] = (keys[i] % 1000) * 0x10001u; // few values, bits in both halves
    }
    const std::vector<ItemT> values = position_items<ItemT>(n, 3);
    std::vector<std::uint32_t> expected_keys;
    std::vector<ItemT> expected_values;
    stable_pairs(keys, values, expected_keys, expected_values);
    const device_buffer<std::uint32_t> d_keys(keys);
    const device_buffer<ItemT> d_values(values);
    device_buffer<std::uint32_t> d_keys_out(std::max<std::size_t>(n, 1));
    device_buffer<ItemT> d_values_out(std::max<std::size_t>(n, 1));
    STRATA_TEST_CUDA(cudaMemset(d_keys_out.data(), strata_test::poison_byte, d_keys_out.bytes()));
    STRATA_TEST_CUDA(cudaMemset(d_values_out.data(), strata_test::poison_byte, d_values_out.bytes()));
    run_two_phase(
        [&](void* t, std::size_t& b)
        {
          return strata::DeviceRadixSort::SortPairs(t, b, d_keys.data(), d_keys_out.data(), d_values.data(),
                                                    d_values_out.data(), std::int64_t(n));
        });
    CHECK(mismatches(d_keys_out.download(), expected_keys) == 0);
    CHECK(mismatches(d_values_out.download(), expected_values) == 0);
  }
}

TEMPLATE_TEST_CASE("The segmented sorts sort pairs of values of every size", "[device][segmented_sort][wide]",
                   STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes())
  {
    CAPTURE(sizeof(ItemT), n);
    // Segments of every bin's lengths: a few keys, a warp's, a block's, and one of thousands; one
    // in four leaves its last two items outside every segment (the outputs keep their poison).
    std::vector<int> begins;
    std::vector<int> ends;
    const int lengths[] = {0, 3, 31, 200, 900, 5000};
    for (std::size_t s = 0, at = 0; at < n; ++s)
    {
      const int length = std::min<int>(int(n - at), lengths[s % 6]);
      begins.push_back(int(at));
      ends.push_back(int(at) + (s % 4 == 1 && length >= 2 ? length - 2 : length));
      at += std::size_t(length);
    }
    const int segments = int(begins.size());
    std::vector<std::uint32_t> keys =
        strata_test::random_vector<std::uint32_t>(n, strata_test::seed(sizeof(ItemT) + 6));
    for (auto& k : keys)
    {
      k %= 50; // many equal keys: a stable sort keeps their values in order
    }
    const std::vector<ItemT> values = position_items<ItemT>(n, 4);
    // Where no segment covers an item, the pointer forms' outputs keep their poison.
    const std::vector<std::uint32_t> poison_keys = poisoned<std::uint32_t>(n).download();
    const std::vector<ItemT> poison_values       = poisoned<ItemT>(n).download();
    std::vector<std::uint32_t> expected_keys(poison_keys.begin(), poison_keys.begin() + std::ptrdiff_t(n));
    std::vector<ItemT> expected_values(poison_values.begin(), poison_values.begin() + std::ptrdiff_t(n));
    std::vector<bool> covered(n, false);
    for (int s = 0; s < segments; ++s)
    {
      std::vector<std::size_t> order;
      for (int i = begins[s]; i < ends[s]; ++i)
      {
        order.push_back(std::size_t(i));
        covered[std::size_t(i)] = true;
      }
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
      for (std::size_t k = 0; k < order.size(); ++k)
      {
        expected_keys[std::size_t(begins[s]) + k]   = keys[order[k]];
        expected_values[std::size_t(begins[s]) + k] = values[order[k]];
      }
    }
    const device_buffer<std::uint32_t> d_keys(keys);
    const device_buffer<ItemT> d_values(values);
    const device_buffer<int> d_begins(begins);
    const device_buffer<int> d_ends(ends);
    for (const bool radix : {true, false})
    {
      CAPTURE(radix);
      device_buffer<std::uint32_t> d_keys_out = poisoned<std::uint32_t>(n);
      device_buffer<ItemT> d_values_out       = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return radix ? strata::DeviceSegmentedRadixSort::SortPairs(
                       t, b, d_keys.data(), d_keys_out.data(), d_values.data(), d_values_out.data(), std::int64_t(n),
                       std::int64_t(segments), d_begins.data(), d_ends.data())
                         : strata::DeviceSegmentedSort::StableSortPairs(
                             t, b, d_keys.data(), d_keys_out.data(), d_values.data(), d_values_out.data(),
                             std::int64_t(n), std::int64_t(segments), d_begins.data(), d_ends.data());
          });
      CHECK(mismatches(d_keys_out.download(), expected_keys) == 0);
      CHECK(mismatches(d_values_out.download(), expected_values) == 0);
    }
    // The DoubleBuffer form: the result is in the current buffers afterwards (the items outside
    // every segment are not looked at).
    {
      device_buffer<std::uint32_t> d_keys_a(keys);
      device_buffer<ItemT> d_values_a(values);
      device_buffer<std::uint32_t> d_keys_b = poisoned<std::uint32_t>(n);
      device_buffer<ItemT> d_values_b       = poisoned<ItemT>(n);
      strata::DoubleBuffer<std::uint32_t> keys_buffers(d_keys_a.data(), d_keys_b.data());
      strata::DoubleBuffer<ItemT> values_buffers(d_values_a.data(), d_values_b.data());
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceSegmentedSort::StableSortPairs(t, b, keys_buffers, values_buffers, std::int64_t(n),
                                                                std::int64_t(segments), d_begins.data(), d_ends.data());
          });
      const auto& got_keys_buffer   = keys_buffers.Current() == d_keys_a.data() ? d_keys_a : d_keys_b;
      const auto& got_values_buffer = values_buffers.Current() == d_values_a.data() ? d_values_a : d_values_b;
      const std::vector<std::uint32_t> got_keys = got_keys_buffer.download();
      const std::vector<ItemT> got_values       = got_values_buffer.download();
      std::size_t wrong                         = 0;
      for (std::size_t i = 0; i < n; ++i)
      {
        wrong += covered[i] && (got_keys[i] != expected_keys[i] || got_values[i] != expected_values[i]);
      }
      CHECK(wrong == 0);
    }
  }
}

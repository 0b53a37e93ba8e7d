// Tests of the reductions and scans over items of 1 to 256 bytes: DeviceReduce::Reduce,
// DeviceReduce::ReduceByKey (wide values, and wide keys), DeviceSegmentedReduce::Reduce,
// DeviceScan::InclusiveScan, ExclusiveScan and InclusiveScanByKey. The operator adds the items'
// keys; every size must compile and give the host reference's answer, byte for byte.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_segmented_reduce.cuh>

#include "wide_items.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::mismatches;
using strata_test::poisoned;
using strata_test::run_two_phase;

//! 4-byte keys in runs of 1 to 6 equal ones.
std::vector<std::uint32_t> run_keys(std::size_t n, std::uint64_t seed)
{
  const std::vector<std::uint32_t> random = strata_test::random_vector<std::uint32_t>(n + 1, seed);
  std::vector<std::uint32_t> keys(n);
  std::uint32_t key = 0;
  for (std::size_t i = 0; i < n;)
  {
    const std::size_t length = 1 + random[i] % 6;
    key += 1 + random[i + 1] % 3;
    for (std::size_t k = 0; k < length && i < n; ++k)
    {
      keys[i++] = key;
    }
  }
  return keys;
}
} // namespace

TEMPLATE_TEST_CASE("DeviceReduce and DeviceSegmentedReduce reduce items of every size", "[device][reduce][wide]",
                   STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<ItemT> items = strata_test::random_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT)));
    const device_buffer<ItemT> d_in(items);

    // Reduce from an initial item.
    {
      std::uint32_t sum = 11;
      for (const ItemT& item : items)
      {
        sum += item.key();
      }
      device_buffer<ItemT> d_out = poisoned<ItemT>(1);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceReduce::Reduce(t, b, d_in.data(), d_out.data(), std::int64_t(n),
                                                strata_test::key_plus{}, ItemT::of(11));
          });
      CHECK(d_out.download()[0] == ItemT::of(sum));
    }
    // Segments of random lengths (some empty) over the items.
    {
      const std::vector<std::uint32_t> random =
          strata_test::random_vector<std::uint32_t>(n / 50 + 2, strata_test::seed(sizeof(ItemT) + 1));
      std::vector<int> offsets{0};
      for (std::size_t s = 0; offsets.back() < int(n); ++s)
      {
        const int length = s % 5 == 0 ? 0 : 1 + int(random[s % random.size()] % 119); // every fifth empty
        offsets.push_back(std::min<int>(int(n), offsets.back() + length));
      }
      const int segments = int(offsets.size()) - 1;
      std::vector<ItemT> expected(segments);
      for (int s = 0; s < segments; ++s)
      {
        std::uint32_t sum = 3;
        for (int i = offsets[s]; i < offsets[s + 1]; ++i)
        {
          sum += items[i].key();
        }
        expected[s] = ItemT::of(sum);
      }
      const device_buffer<int> d_offsets(offsets);
      device_buffer<ItemT> d_out = poisoned<ItemT>(segments);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceSegmentedReduce::Reduce(t, b, d_in.data(), d_out.data(), segments, d_offsets.data(),
                                                         d_offsets.data() + 1, strata_test::key_plus{}, ItemT::of(3));
          });
      CHECK(mismatches(d_out.download(), expected) == 0);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::ReduceByKey reduces runs of items of every size", "[device][reduce_by_key][wide]",
                   STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<std::uint32_t> keys = run_keys(n, strata_test::seed(sizeof(ItemT) + 2));
    const std::vector<ItemT> items = strata_test::random_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT) + 3));
    std::vector<std::uint32_t> unique_keys;
    std::vector<ItemT> unique_items;
    std::vector<ItemT> aggregates;
    std::vector<std::uint32_t> key_sums;
    for (std::size_t i = 0; i < n; ++i)
    {
      if (i == 0 || keys[i] != keys[i - 1])
      {
        unique_keys.push_back(keys[i]);
        unique_items.push_back(ItemT::of(keys[i]));
        aggregates.push_back(items[i]);
        key_sums.push_back(items[i].key());
      }
      else
      {
        aggregates.back() = ItemT::of(aggregates.back().key() + items[i].key());
        key_sums.back() += items[i].key();
      }
    }
    // 4-byte keys, wide values.
    {
      const device_buffer<std::uint32_t> d_keys(keys);
      const device_buffer<ItemT> d_values(items);
      device_buffer<std::uint32_t> d_unique = poisoned<std::uint32_t>(n);
      device_buffer<ItemT> d_aggregates     = poisoned<ItemT>(n);
      device_buffer<int> d_count            = poisoned<int>(1);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceReduce::ReduceByKey(t, b, d_keys.data(), d_unique.data(), d_values.data(),
                                                     d_aggregates.data(), d_count.data(), strata_test::key_plus{},
                                                     std::int64_t(n));
          });
      REQUIRE(std::size_t(d_count.download()[0]) == unique_keys.size());
      CHECK(mismatches(d_unique.download(), unique_keys) == 0);
      CHECK(mismatches(d_aggregates.download(), aggregates) == 0);
    }
    // Wide keys (made from the 4-byte ones, so the runs are the same; 1- and 2-byte items keep
    // their low bits, which may join neighbouring runs: the reference follows the wide keys),
    // 4-byte values.
    {
      std::vector<ItemT> wide_keys(n);
      std::vector<std::uint32_t> values(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        wide_keys[i] = ItemT::of(keys[i]);
        values[i]    = items[i].key();
      }
      std::vector<ItemT> expected_keys;
      std::vector<std::uint32_t> expected_sums;
      for (std::size_t i = 0; i < n; ++i)
      {
        if (i == 0 || wide_keys[i] != wide_keys[i - 1])
        {
          expected_keys.push_back(wide_keys[i]);
          expected_sums.push_back(values[i]);
        }
        else
        {
          expected_sums.back() += values[i];
        }
      }
      const device_buffer<ItemT> d_keys(wide_keys);
      const device_buffer<std::uint32_t> d_values(values);
      device_buffer<ItemT> d_unique             = poisoned<ItemT>(n);
      device_buffer<std::uint32_t> d_aggregates = poisoned<std::uint32_t>(n);
      device_buffer<int> d_count                = poisoned<int>(1);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceReduce::ReduceByKey(t, b, d_keys.data(), d_unique.data(), d_values.data(),
                                                     d_aggregates.data(), d_count.data(), strata_test::key_equal{},
                                                     cuda::std::plus<>{}, std::int64_t(n));
          });
      REQUIRE(std::size_t(d_count.download()[0]) == expected_keys.size());
      CHECK(mismatches(d_unique.download(), expected_keys) == 0);
      CHECK(mismatches(d_aggregates.download(), expected_sums) == 0);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceScan scans items of every size, by key too", "[device][scan][wide]", STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<ItemT> items = strata_test::random_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT) + 4));
    const device_buffer<ItemT> d_in(items);
    std::vector<ItemT> inclusive(n), exclusive(n);
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      exclusive[i] = ItemT::of(running + 9);
      running += items[i].key();
      inclusive[i] = ItemT::of(running);
    }
    {
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceScan::InclusiveScan(t, b, d_in.data(), d_out.data(), strata_test::key_plus{},
                                                     std::int64_t(n));
          });
      CHECK(mismatches(d_out.download(), inclusive) == 0);
    }
    {
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceScan::ExclusiveScan(t, b, d_in.data(), d_out.data(), strata_test::key_plus{},
                                                     ItemT::of(9), std::int64_t(n));
          });
      CHECK(mismatches(d_out.download(), exclusive) == 0);
    }
    // By 4-byte keys in runs: the scan restarts at each run.
    {
      const std::vector<std::uint32_t> keys = run_keys(n, strata_test::seed(sizeof(ItemT) + 5));
      std::vector<ItemT> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected[i] = i == 0 || keys[i] != keys[i - 1] ? items[i] : ItemT::of(expected[i - 1].key() + items[i].key());
      }
      const device_buffer<std::uint32_t> d_keys(keys);
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceScan::InclusiveScanByKey(t, b, d_keys.data(), d_in.data(), d_out.data(),
                                                          strata_test::key_plus{}, std::int64_t(n));
          });
      CHECK(mismatches(d_out.download(), expected) == 0);
    }
  }
}

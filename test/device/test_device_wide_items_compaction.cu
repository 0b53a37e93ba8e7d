// Tests of the compactions over items of 1 to 256 bytes: DeviceSelect::If, Unique and UniqueByKey
// (wide keys, and wide values), DevicePartition::If in two and three parts, and
// DeviceRunLengthEncode::Encode and NonTrivialRuns. Wide items shrink the tiles until they fit in
// shared memory; every size must compile and give the host reference's answer, byte for byte.
#include <strata/device/device_partition.cuh>
#include <strata/device/device_run_length_encode.cuh>
#include <strata/device/device_select.cuh>

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

//! CHECKs the first `count` items of `got` against `expected` and that the rest kept the poison.
template <typename T>
void check_prefix(const std::vector<T>& got, const std::vector<T>& expected, std::size_t count, std::size_t n)
{
  REQUIRE(expected.size() == count);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < count; ++i)
  {
    mismatches += got[i] != expected[i];
  }
  CHECK(mismatches == 0);
  const T poison      = strata_test::poison_value<T>();
  std::size_t written = 0;
  for (std::size_t i = count; i < n; ++i)
  {
    written += got[i] != poison;
  }
  CHECK(written == 0);
}

//! Keys in runs of 1 to 4 equal items (keys below 16, so that runs of equal neighbours also meet).
template <int N>
std::vector<strata_test::wide_item<N>> runs_of_items(std::size_t n, std::uint64_t seed)
{
  const std::vector<std::uint32_t> random = strata_test::random_vector<std::uint32_t>(n + 1, seed);
  std::vector<strata_test::wide_item<N>> items(n);
  std::size_t i = 0;
  for (std::size_t r = 0; i < n; ++r)
  {
    const std::size_t length = 1 + random[r % random.size()] % 4;
    const auto item          = strata_test::wide_item<N>::of((random[(r + 1) % random.size()] >> 8) % 16);
    for (std::size_t k = 0; k < length && i < n; ++k)
    {
      items[i++] = item;
    }
  }
  return items;
}
} // namespace

TEMPLATE_TEST_CASE("DeviceSelect::If, Unique and UniqueByKey compact items of every size", "[device][select][wide]",
                   STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<ItemT> items = runs_of_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT)));
    const device_buffer<ItemT> d_in(items);
    device_buffer<int> d_count = poisoned<int>(1);

    // If: the items whose key is odd.
    {
      std::vector<ItemT> expected;
      std::copy_if(items.begin(), items.end(), std::back_inserter(expected), strata_test::key_bit<0>{});
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceSelect::If(t, b, d_in.data(), d_out.data(), d_count.data(), std::int64_t(n),
                                            strata_test::key_bit<0>{});
          });
      const int count = d_count.download()[0];
      REQUIRE(std::size_t(count) == expected.size());
      check_prefix(d_out.download(), expected, expected.size(), n);
    }
    // Unique: the first item of every run of equal items.
    {
      std::vector<ItemT> expected = items;
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          { return strata::DeviceSelect::Unique(t, b, d_in.data(), d_out.data(), d_count.data(), std::int64_t(n)); });
      REQUIRE(std::size_t(d_count.download()[0]) == expected.size());
      check_prefix(d_out.download(), expected, expected.size(), n);
    }
    // UniqueByKey, wide keys with 4-byte values, then 4-byte keys with wide values (each value
    // made from its position, so the kept one is known).
    {
      std::vector<std::uint32_t> positions(n);
      std::vector<ItemT> position_items(n);
      std::vector<std::uint32_t> int_keys(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        positions[i]      = std::uint32_t(i);
        position_items[i] = ItemT::of(std::uint32_t(i * 7 + 1));
        int_keys[i]       = items[i].key();
      }
      std::vector<ItemT> expected_keys;
      std::vector<std::uint32_t> expected_positions;
      std::vector<std::uint32_t> expected_int_keys;
      std::vector<ItemT> expected_values;
      for (std::size_t i = 0; i < n; ++i)
      {
        if (i == 0 || items[i].key() != items[i - 1].key())
        {
          expected_keys.push_back(items[i]);
          expected_positions.push_back(positions[i]);
          expected_int_keys.push_back(int_keys[i]);
          expected_values.push_back(position_items[i]);
        }
      }
      const device_buffer<std::uint32_t> d_positions(positions);
      device_buffer<ItemT> d_keys_out           = poisoned<ItemT>(n);
      device_buffer<std::uint32_t> d_values_out = poisoned<std::uint32_t>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceSelect::UniqueByKey(t, b, d_in.data(), d_positions.data(), d_keys_out.data(),
                                                     d_values_out.data(), d_count.data(), std::int64_t(n),
                                                     strata_test::key_equal{});
          });
      REQUIRE(std::size_t(d_count.download()[0]) == expected_keys.size());
      check_prefix(d_keys_out.download(), expected_keys, expected_keys.size(), n);
      check_prefix(d_values_out.download(), expected_positions, expected_positions.size(), n);

      const device_buffer<std::uint32_t> d_int_keys(int_keys);
      const device_buffer<ItemT> d_values(position_items);
      device_buffer<std::uint32_t> d_int_keys_out = poisoned<std::uint32_t>(n);
      device_buffer<ItemT> d_wide_values_out      = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceSelect::UniqueByKey(t, b, d_int_keys.data(), d_values.data(), d_int_keys_out.data(),
                                                     d_wide_values_out.data(), d_count.data(), std::int64_t(n));
          });
      REQUIRE(std::size_t(d_count.download()[0]) == expected_int_keys.size());
      check_prefix(d_int_keys_out.download(), expected_int_keys, expected_int_keys.size(), n);
      check_prefix(d_wide_values_out.download(), expected_values, expected_values.size(), n);
    }
  }
}

TEMPLATE_TEST_CASE("DevicePartition::If splits items of every size in two and in three parts",
                   "[device][partition][wide]", STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<ItemT> items = strata_test::random_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT)));
    const device_buffer<ItemT> d_in(items);
    device_buffer<int> d_count = poisoned<int>(2);

    // Two parts: the selected items in order, then the others in reverse order.
    {
      std::vector<ItemT> expected;
      std::copy_if(items.begin(), items.end(), std::back_inserter(expected), strata_test::key_bit<1>{});
      const std::size_t selected = expected.size();
      for (std::size_t i = n; i-- > 0;)
      {
        if (!strata_test::key_bit<1>{}(items[i]))
        {
          expected.push_back(items[i]);
        }
      }
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DevicePartition::If(t, b, d_in.data(), d_out.data(), d_count.data(), std::int64_t(n),
                                               strata_test::key_bit<1>{});
          });
      REQUIRE(std::size_t(d_count.download()[0]) == selected);
      check_prefix(d_out.download(), expected, n, n);
    }
    // Three parts: key bit 2 set; else key bit 3 set; else the rest, each in input order.
    {
      std::vector<ItemT> first, second, rest;
      for (const ItemT& item : items)
      {
        (strata_test::key_bit<2>{}(item) ? first : strata_test::key_bit<3>{}(item) ? second : rest).push_back(item);
      }
      device_buffer<ItemT> d_first  = poisoned<ItemT>(n);
      device_buffer<ItemT> d_second = poisoned<ItemT>(n);
      device_buffer<ItemT> d_rest   = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DevicePartition::If(t, b, d_in.data(), d_first.data(), d_second.data(), d_rest.data(),
                                               d_count.data(), std::int64_t(n), strata_test::key_bit<2>{},
                                               strata_test::key_bit<3>{});
          });
      const std::vector<int> counts = d_count.download();
      REQUIRE(std::size_t(counts[0]) == first.size());
      REQUIRE(std::size_t(counts[1]) == second.size());
      check_prefix(d_first.download(), first, first.size(), n);
      check_prefix(d_second.download(), second, second.size(), n);
      check_prefix(d_rest.download(), rest, rest.size(), n);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceRunLengthEncode::Encode and NonTrivialRuns encode items of every size",
                   "[device][run_length_encode][wide]", STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<ItemT> items = runs_of_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT) + 100));
    const device_buffer<ItemT> d_in(items);
    device_buffer<int> d_count = poisoned<int>(1);

    std::vector<ItemT> unique_items;
    std::vector<int> lengths, long_offsets, long_lengths;
    for (std::size_t i = 0; i < n;)
    {
      std::size_t j = i + 1;
      while (j < n && items[j] == items[i])
      {
        ++j;
      }
      unique_items.push_back(items[i]);
      lengths.push_back(int(j - i));
      if (j - i > 1)
      {
        long_offsets.push_back(int(i));
        long_lengths.push_back(int(j - i));
      }
      i = j;
    }

    device_buffer<ItemT> d_unique = poisoned<ItemT>(n);
    device_buffer<int> d_lengths  = poisoned<int>(n);
    run_two_phase(
        [&](void* t, std::size_t& b)
        {
          return strata::DeviceRunLengthEncode::Encode(t, b, d_in.data(), d_unique.data(), d_lengths.data(),
                                                       d_count.data(), std::int64_t(n));
        });
    REQUIRE(std::size_t(d_count.download()[0]) == unique_items.size());
    check_prefix(d_unique.download(), unique_items, unique_items.size(), n);
    check_prefix(d_lengths.download(), lengths, lengths.size(), n);

    device_buffer<int> d_offsets     = poisoned<int>(n);
    device_buffer<int> d_run_lengths = poisoned<int>(n);
    run_two_phase(
        [&](void* t, std::size_t& b)
        {
          return strata::DeviceRunLengthEncode::NonTrivialRuns(t, b, d_in.data(), d_offsets.data(),
                                                               d_run_lengths.data(), d_count.data(), std::int64_t(n));
        });
    REQUIRE(std::size_t(d_count.download()[0]) == long_offsets.size());
    check_prefix(d_offsets.download(), long_offsets, long_offsets.size(), n);
    check_prefix(d_run_lengths.download(), long_lengths, long_lengths.size(), n);
  }
}

// Tests of the device algorithms whose tiles keep items in shared memory, over 2 KiB items: a warp
// of one such item each needs 64 KiB, more than a kernel's static shared memory, so the tile lives
// in global memory instead (detail::BlockTempStorage, CUB's "virtual shared memory"): DeviceSelect
// (If, Unique, UniqueByKey), DevicePartition (two and three parts), DeviceRunLengthEncode (Encode,
// NonTrivialRuns), DeviceReduce::ReduceByKey, DeviceMergeSort and DeviceMerge; DeviceRadixSort,
// which sorts values of more than 256 bytes as indices and gathers them; and DeviceReduce::Reduce,
// whose single block is smaller for such accumulators. Sizes around the tile of
// 32 items up to 33 tiles; poisoned outputs; host references, word for word.
#include <strata/device/device_merge.cuh>
#include <strata/device/device_merge_sort.cuh>
#include <strata/device/device_partition.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_run_length_encode.cuh>
#include <strata/device/device_select.cuh>

#include "wide_items.cuh"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::poisoned;
using strata_test::run_two_phase;

//! 2 KiB: a 4-byte key in the low half of the first word, every other word a function of the key
//! and its place (8-byte words rather than wide_item's bytes, which take the compiler minutes).
struct alignas(16) huge_item
{
  static constexpr int WORDS = 256;
  std::uint64_t words[WORDS];

  __host__ __device__ std::uint32_t key() const
  {
    return std::uint32_t(words[0]);
  }
  __host__ __device__ static huge_item of(std::uint32_t k)
  {
    huge_item item;
    item.words[0] = k;
    for (int i = 1; i < WORDS; ++i)
    {
      item.words[i] = (std::uint64_t(k) * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(i) << 40);
    }
    return item;
  }
  __host__ __device__ friend bool operator==(const huge_item& a, const huge_item& b)
  {
    for (int i = 0; i < WORDS; ++i)
    {
      if (a.words[i] != b.words[i])
      {
        return false;
      }
    }
    return true;
  }
  __host__ __device__ friend bool operator!=(const huge_item& a, const huge_item& b)
  {
    return !(a == b);
  }
};
using ItemT = huge_item;

//! The item of the sum of two items' keys (associative and commutative).
struct huge_plus
{
  __host__ __device__ huge_item operator()(const huge_item& a, const huge_item& b) const
  {
    return huge_item::of(a.key() + b.key());
  }
};

//! The number of places among the first count where got and expected differ, plus the places from
//! count to n that lost their poison.
template <typename T>
std::size_t wrong_places(const std::vector<T>& got, const std::vector<T>& expected, std::size_t count, std::size_t n)
{
  REQUIRE(expected.size() >= count);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < count; ++i)
  {
    wrong += got[i] != expected[i];
  }
  const T poison = strata_test::poison_value<T>();
  for (std::size_t i = count; i < n; ++i)
  {
    wrong += got[i] != poison;
  }
  return wrong;
}

std::vector<std::size_t> sizes()
{
  return {0, 1, 31, 32, 33, 1000, 1057};
}

//! Items of keys below 8 (runs of equal neighbours, and every key bit pattern).
std::vector<ItemT> small_key_items(std::size_t n, std::uint64_t seed)
{
  const std::vector<std::uint32_t> keys = strata_test::random_vector<std::uint32_t>(n, seed);
  std::vector<ItemT> items(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    items[i] = ItemT::of(keys[i] % 8);
  }
  return items;
}

//! 4-byte keys below 40 (many equal ones: stability shows).
std::vector<std::uint32_t> small_keys(std::size_t n, std::uint64_t seed)
{
  std::vector<std::uint32_t> keys = strata_test::random_vector<std::uint32_t>(n, seed);
  for (auto& k : keys)
  {
    k %= 40;
  }
  return keys;
}

//! 4-byte keys ordered as unsigned numbers.
struct u32_less
{
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a < b;
  }
};

//! Items made from their positions: a value that says where it came from.
std::vector<ItemT> position_items(std::size_t n, std::uint32_t first)
{
  std::vector<ItemT> items(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    items[i] = ItemT::of(std::uint32_t(first + 3 * i));
  }
  return items;
}
} // namespace

static_assert(sizeof(ItemT) * 32 > 48 * 1024, "a warp of one item each must not fit static shared memory");

//! One size's input of the compactions: items with keys below 8, and their split by key bit 0.
struct compaction_input
{
  std::size_t n;
  std::vector<ItemT> items;
  device_buffer<ItemT> d_in;
  std::vector<ItemT> selected;
  std::vector<ItemT> rejected;

  compaction_input(std::size_t size, std::uint64_t seed)
      : n(size)
      , items(small_key_items(size, seed))
      , d_in(items)
  {
    std::partition_copy(items.begin(), items.end(), std::back_inserter(selected), std::back_inserter(rejected),
                        strata_test::key_bit<0>{});
  }
};

TEST_CASE("The compactions take items too large for a tile in shared memory", "[device][select][huge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(2048);
  INFO("seed " << seed);
  const strata_test::key_bit<0> odd{};
  const strata_test::key_bit<1> second{};
  device_buffer<int> d_count = poisoned<int>(2);
  // Each section runs every size (Catch2 runs a section once per pass through its test case).
  const auto for_each_size = [&](auto check)
  {
    for (const std::size_t n : sizes())
    {
      CAPTURE(n);
      check(compaction_input(n, seed + n));
    }
  };
  SECTION("DeviceSelect::If")
  {
    for_each_size(
        [&](const compaction_input& in)
        {
          device_buffer<ItemT> d_out = poisoned<ItemT>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b) {
                return strata::DeviceSelect::If(t, b, in.d_in.data(), d_out.data(), d_count.data(), std::int64_t(in.n),
                                                odd);
              });
          REQUIRE(std::size_t(d_count.download()[0]) == in.selected.size());
          CHECK(wrong_places(d_out.download(), in.selected, in.selected.size(), in.n) == 0);
        });
  }
  SECTION("DevicePartition::If in two parts")
  {
    for_each_size(
        [&](const compaction_input& in)
        {
          std::vector<ItemT> expected = in.selected;
          expected.insert(expected.end(), in.rejected.rbegin(), in.rejected.rend()); // the rejected ones reversed
          device_buffer<ItemT> d_out = poisoned<ItemT>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b) {
                return strata::DevicePartition::If(t, b, in.d_in.data(), d_out.data(), d_count.data(),
                                                   std::int64_t(in.n), odd);
              });
          REQUIRE(std::size_t(d_count.download()[0]) == in.selected.size());
          CHECK(wrong_places(d_out.download(), expected, in.n, in.n) == 0);
        });
  }
  SECTION("DevicePartition::If in three parts")
  {
    for_each_size(
        [&](const compaction_input& in)
        {
          std::vector<ItemT> first;
          std::vector<ItemT> second_part;
          std::vector<ItemT> rest;
          for (const ItemT& item : in.items)
          {
            (odd(item) ? first : second(item) ? second_part : rest).push_back(item);
          }
          device_buffer<ItemT> d_first  = poisoned<ItemT>(in.n);
          device_buffer<ItemT> d_second = poisoned<ItemT>(in.n);
          device_buffer<ItemT> d_rest   = poisoned<ItemT>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b)
              {
                return strata::DevicePartition::If(t, b, in.d_in.data(), d_first.data(), d_second.data(), d_rest.data(),
                                                   d_count.data(), std::int64_t(in.n), odd, second);
              });
          const std::vector<int> counts = d_count.download();
          REQUIRE(std::size_t(counts[0]) == first.size());
          REQUIRE(std::size_t(counts[1]) == second_part.size());
          CHECK(wrong_places(d_first.download(), first, first.size(), in.n) == 0);
          CHECK(wrong_places(d_second.download(), second_part, second_part.size(), in.n) == 0);
          CHECK(wrong_places(d_rest.download(), rest, rest.size(), in.n) == 0);
        });
  }
  SECTION("DeviceSelect::Unique and UniqueByKey")
  {
    for_each_size(
        [&](const compaction_input& in)
        {
          std::vector<ItemT> unique = in.items;
          unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
          device_buffer<ItemT> d_out = poisoned<ItemT>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b) {
                return strata::DeviceSelect::Unique(t, b, in.d_in.data(), d_out.data(), d_count.data(),
                                                    std::int64_t(in.n));
              });
          REQUIRE(std::size_t(d_count.download()[0]) == unique.size());
          CHECK(wrong_places(d_out.download(), unique, unique.size(), in.n) == 0);

          // 4-byte keys with huge values: the first value of every run of equal keys.
          const std::vector<std::uint32_t> keys = small_keys(in.n, seed + 1);
          const std::vector<ItemT> values       = position_items(in.n, 5);
          std::vector<std::uint32_t> expected_keys;
          std::vector<ItemT> expected_values;
          for (std::size_t i = 0; i < in.n; ++i)
          {
            if (i == 0 || keys[i] != keys[i - 1])
            {
              expected_keys.push_back(keys[i]);
              expected_values.push_back(values[i]);
            }
          }
          const device_buffer<std::uint32_t> d_keys(keys);
          const device_buffer<ItemT> d_values(values);
          device_buffer<std::uint32_t> d_keys_out = poisoned<std::uint32_t>(in.n);
          device_buffer<ItemT> d_values_out       = poisoned<ItemT>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b)
              {
                return strata::DeviceSelect::UniqueByKey(t, b, d_keys.data(), d_values.data(), d_keys_out.data(),
                                                         d_values_out.data(), d_count.data(), std::int64_t(in.n));
              });
          REQUIRE(std::size_t(d_count.download()[0]) == expected_keys.size());
          CHECK(wrong_places(d_keys_out.download(), expected_keys, expected_keys.size(), in.n) == 0);
          CHECK(wrong_places(d_values_out.download(), expected_values, expected_values.size(), in.n) == 0);
        });
  }
  SECTION("DeviceRunLengthEncode::Encode")
  {
    for_each_size(
        [&](const compaction_input& in)
        {
          std::vector<ItemT> unique;
          std::vector<int> counts;
          for (std::size_t i = 0; i < in.n; ++i)
          {
            if (i == 0 || in.items[i] != in.items[i - 1])
            {
              unique.push_back(in.items[i]);
              counts.push_back(0);
            }
            ++counts.back();
          }
          device_buffer<ItemT> d_unique = poisoned<ItemT>(in.n);
          device_buffer<int> d_counts   = poisoned<int>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b)
              {
                return strata::DeviceRunLengthEncode::Encode(t, b, in.d_in.data(), d_unique.data(), d_counts.data(),
                                                             d_count.data(), std::int64_t(in.n));
              });
          REQUIRE(std::size_t(d_count.download()[0]) == unique.size());
          CHECK(wrong_places(d_unique.download(), unique, unique.size(), in.n) == 0);
          CHECK(wrong_places(d_counts.download(), counts, counts.size(), in.n) == 0);
        });
  }
  SECTION("DeviceReduce::ReduceByKey (huge values)")
  {
    for_each_size(
        [&](const compaction_input& in)
        {
          const std::vector<std::uint32_t> keys = small_keys(in.n, seed + 2);
          std::vector<std::uint32_t> unique;
          std::vector<ItemT> sums;
          for (std::size_t i = 0; i < in.n; ++i)
          {
            if (i == 0 || keys[i] != keys[i - 1])
            {
              unique.push_back(keys[i]);
              sums.push_back(in.items[i]);
            }
            else
            {
              sums.back() = huge_plus{}(sums.back(), in.items[i]);
            }
          }
          const device_buffer<std::uint32_t> d_keys(keys);
          device_buffer<std::uint32_t> d_unique = poisoned<std::uint32_t>(in.n);
          device_buffer<ItemT> d_sums           = poisoned<ItemT>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b)
              {
                return strata::DeviceReduce::ReduceByKey(t, b, d_keys.data(), d_unique.data(), in.d_in.data(),
                                                         d_sums.data(), d_count.data(), huge_plus{},
                                                         std::int64_t(in.n));
              });
          REQUIRE(std::size_t(d_count.download()[0]) == unique.size());
          CHECK(wrong_places(d_unique.download(), unique, unique.size(), in.n) == 0);
          CHECK(wrong_places(d_sums.download(), sums, sums.size(), in.n) == 0);
        });
  }
  SECTION("DeviceReduce::Reduce (one block, and past it two passes)")
  {
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1057), std::size_t(17011)})
    {
      CAPTURE(n);
      const std::vector<ItemT> items = small_key_items(n, seed + n);
      std::uint32_t sum              = 5;
      for (const ItemT& item : items)
      {
        sum += item.key();
      }
      const device_buffer<ItemT> d_in(items);
      device_buffer<ItemT> d_out = poisoned<ItemT>(1);
      run_two_phase(
          [&](void* t, std::size_t& b) {
            return strata::DeviceReduce::Reduce(t, b, d_in.data(), d_out.data(), std::int64_t(n), huge_plus{},
                                                ItemT::of(5));
          });
      CHECK(d_out.download()[0] == ItemT::of(sum));
    }
  }
  SECTION("DeviceRunLengthEncode::NonTrivialRuns")
  {
    for_each_size(
        [&](const compaction_input& in)
        {
          std::vector<int> offsets;
          std::vector<int> lengths;
          for (std::size_t i = 0; i < in.n;)
          {
            std::size_t end = i + 1;
            while (end < in.n && in.items[end] == in.items[i])
            {
              ++end;
            }
            if (end - i > 1)
            {
              offsets.push_back(int(i));
              lengths.push_back(int(end - i));
            }
            i = end;
          }
          device_buffer<int> d_offsets = poisoned<int>(in.n);
          device_buffer<int> d_lengths = poisoned<int>(in.n);
          run_two_phase(
              [&](void* t, std::size_t& b)
              {
                return strata::DeviceRunLengthEncode::NonTrivialRuns(
                    t, b, in.d_in.data(), d_offsets.data(), d_lengths.data(), d_count.data(), std::int64_t(in.n));
              });
          REQUIRE(std::size_t(d_count.download()[0]) == offsets.size());
          CHECK(wrong_places(d_offsets.download(), offsets, offsets.size(), in.n) == 0);
          CHECK(wrong_places(d_lengths.download(), lengths, lengths.size(), in.n) == 0);
        });
  }
}

TEST_CASE("The sorts and DeviceMerge take items too large for a tile in shared memory", "[device][merge_sort][huge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(2049);
  INFO("seed " << seed);
  SECTION("DeviceMergeSort::StableSortPairs (huge values) and StableSortKeys (huge keys)")
  {
    for (const std::size_t n : sizes())
    {
      CAPTURE(n);
      const std::vector<std::uint32_t> keys = small_keys(n, seed + n);
      const std::vector<ItemT> values       = position_items(n, 7);
      std::vector<std::size_t> order(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        order[i] = i;
      }
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
      std::vector<std::uint32_t> expected_keys(n);
      std::vector<ItemT> expected_values(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected_keys[i]   = keys[order[i]];
        expected_values[i] = values[order[i]];
      }
      device_buffer<std::uint32_t> d_keys(keys);
      device_buffer<ItemT> d_values(values);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceMergeSort::StableSortPairs(t, b, d_keys.data(), d_values.data(), std::int64_t(n),
                                                            u32_less{});
          });
      CHECK(wrong_places(d_keys.download(), expected_keys, n, n) == 0);
      CHECK(wrong_places(d_values.download(), expected_values, n, n) == 0);

      // Huge keys ordered by their 4-byte key: equal ones keep their order (their other bytes
      // differ where their places do).
      std::vector<ItemT> huge_keys(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        huge_keys[i]            = ItemT::of(keys[i]);
        huge_keys[i].words[100] = i; // a mark of the place
      }
      std::vector<ItemT> expected_huge(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected_huge[i] = huge_keys[order[i]];
      }
      device_buffer<ItemT> d_huge(huge_keys);
      run_two_phase(
          [&](void* t, std::size_t& b) {
            return strata::DeviceMergeSort::StableSortKeys(t, b, d_huge.data(), std::int64_t(n),
                                                           strata_test::key_less{});
          });
      CHECK(wrong_places(d_huge.download(), expected_huge, n, n) == 0);
    }
  }
  SECTION("DeviceRadixSort::SortPairs and SortPairsDescending (huge values, sorted as indices)")
  {
    for (const std::size_t n : sizes())
    {
      CAPTURE(n);
      const std::vector<std::uint32_t> keys = small_keys(n, seed + n);
      const std::vector<ItemT> values       = position_items(n, 9);
      for (const bool descending : {false, true})
      {
        CAPTURE(descending);
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i)
        {
          order[i] = i;
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b)
                         { return descending ? keys[a] > keys[b] : keys[a] < keys[b]; });
        std::vector<std::uint32_t> expected_keys(n);
        std::vector<ItemT> expected_values(n);
        for (std::size_t i = 0; i < n; ++i)
        {
          expected_keys[i]   = keys[order[i]];
          expected_values[i] = values[order[i]];
        }
        // The pointer form.
        const device_buffer<std::uint32_t> d_keys(keys);
        const device_buffer<ItemT> d_values(values);
        device_buffer<std::uint32_t> d_keys_out = poisoned<std::uint32_t>(n);
        device_buffer<ItemT> d_values_out       = poisoned<ItemT>(n);
        run_two_phase(
            [&](void* t, std::size_t& b)
            {
              return descending ? strata::DeviceRadixSort::SortPairsDescending(
                         t, b, d_keys.data(), d_keys_out.data(), d_values.data(), d_values_out.data(), std::int64_t(n))
                                : strata::DeviceRadixSort::SortPairs(t, b, d_keys.data(), d_keys_out.data(),
                                                                     d_values.data(), d_values_out.data(),
                                                                     std::int64_t(n));
            });
        CHECK(wrong_places(d_keys_out.download(), expected_keys, n, n) == 0);
        CHECK(wrong_places(d_values_out.download(), expected_values, n, n) == 0);
        // The DoubleBuffer form: the result is in the current buffers afterwards.
        device_buffer<std::uint32_t> d_keys_a(keys);
        device_buffer<ItemT> d_values_a(values);
        device_buffer<std::uint32_t> d_keys_b = poisoned<std::uint32_t>(n);
        device_buffer<ItemT> d_values_b       = poisoned<ItemT>(n);
        strata::DoubleBuffer<std::uint32_t> key_buffers(d_keys_a.data(), d_keys_b.data());
        strata::DoubleBuffer<ItemT> value_buffers(d_values_a.data(), d_values_b.data());
        run_two_phase(
            [&](void* t, std::size_t& b)
            {
              return descending ? strata::DeviceRadixSort::SortPairsDescending(t, b, key_buffers, value_buffers,
                                                                               std::int64_t(n))
                                : strata::DeviceRadixSort::SortPairs(t, b, key_buffers, value_buffers, std::int64_t(n));
            });
        const auto& got_keys   = key_buffers.Current() == d_keys_a.data() ? d_keys_a : d_keys_b;
        const auto& got_values = value_buffers.Current() == d_values_a.data() ? d_values_a : d_values_b;
        CHECK(wrong_places(got_keys.download(), expected_keys, n, n) == 0);
        CHECK(wrong_places(got_values.download(), expected_values, n, n) == 0);
      }
    }
  }
  SECTION("DeviceMerge::MergePairs (huge values)")
  {
    for (const std::size_t n : sizes())
    {
      CAPTURE(n);
      const std::vector<std::uint32_t> keys = small_keys(n, seed + n);
      const std::vector<ItemT> values       = position_items(n, 7);
      // Two sorted halves of the keys, merged: ties take the first input's first.
      const std::size_t n1 = n / 3;
      std::vector<std::uint32_t> keys1(keys.begin(), keys.begin() + std::ptrdiff_t(n1));
      std::vector<std::uint32_t> keys2(keys.begin() + std::ptrdiff_t(n1), keys.end());
      std::sort(keys1.begin(), keys1.end());
      std::sort(keys2.begin(), keys2.end());
      const std::vector<ItemT> values1(values.begin(), values.begin() + std::ptrdiff_t(n1));
      const std::vector<ItemT> values2(values.begin() + std::ptrdiff_t(n1), values.end());
      std::vector<std::uint32_t> expected_keys;
      std::vector<ItemT> expected_values;
      for (std::size_t i = 0, j = 0; i < n1 || j < keys2.size();)
      {
        const bool take_first = j == keys2.size() || (i < n1 && keys1[i] <= keys2[j]);
        expected_keys.push_back(take_first ? keys1[i] : keys2[j]);
        expected_values.push_back(take_first ? values1[i++] : values2[j++]);
      }
      const device_buffer<std::uint32_t> d_keys1(keys1);
      const device_buffer<std::uint32_t> d_keys2(keys2);
      const device_buffer<ItemT> d_values1(values1);
      const device_buffer<ItemT> d_values2(values2);
      device_buffer<std::uint32_t> d_keys_out = poisoned<std::uint32_t>(n);
      device_buffer<ItemT> d_values_out       = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceMerge::MergePairs(t, b, d_keys1.data(), d_values1.data(), std::int64_t(n1),
                                                   d_keys2.data(), d_values2.data(), std::int64_t(n - n1),
                                                   d_keys_out.data(), d_values_out.data(), u32_less{});
          });
      CHECK(wrong_places(d_keys_out.download(), expected_keys, n, n) == 0);
      CHECK(wrong_places(d_values_out.download(), expected_values, n, n) == 0);
    }
  }
}

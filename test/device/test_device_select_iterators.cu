// Tests of strata/device/device_select.cuh and device_partition.cuh, part 4: inputs, flags, outputs
// and counts that are not plain pointers to the item type. DeviceSelect::If and
// DevicePartition::If (two- and three-way) over a CountingInputIterator and a
// TransformInputIterator; the selected items or the three-way partition's unselected ones into a
// DiscardOutputIterator (only the count and the other outputs checked); DeviceSelect::Flagged with
// flags from a TransformInputIterator; DeviceSelect::UniqueByKey with keys and values from
// iterators; counts written through an int pointer, a uint64_t pointer and an output iterator that
// transforms what it stores. Sizes 0, 1, 8193 (one more than the largest tile), 100003 and
// 2^20 + 7.
#include <strata/device/device_partition.cuh>
#include <strata/device/device_select.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/output_iterators.cuh"
#include "common/test_common.cuh"
#include "device_select_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::select_percent;

//! The sizes of these tests (2^20 + 7 outside compute-sanitizer).
std::vector<std::size_t> iterator_sizes()
{
  std::vector<std::size_t> sizes{0, 1, 8193, 100003};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 20) + 7);
  }
  return sizes;
}

//! Flags from positions: every third item.
struct every_third
{
  __host__ __device__ bool operator()(int i) const
  {
    return i % 3 == 0;
  }
};

//! Keys from positions: runs of seven.
struct seventh
{
  __host__ __device__ int operator()(int i) const
  {
    return i / 7;
  }
};

using counting_t = strata::CountingInputIterator<std::int64_t>;
} // namespace

TEST_CASE("DeviceSelect::If and DevicePartition::If read a CountingInputIterator", "[device][select][partition]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(641);
  INFO("seed " << seed);
  const std::int64_t start = (std::int64_t(1) << 40) + std::int64_t(seed % 100000);
  const select_percent op{50, seed};
  for (std::size_t n : iterator_sizes())
  {
    std::vector<std::int64_t> in(n);
    std::iota(in.begin(), in.end(), start);
    device_buffer<std::int64_t> d_out(n + strata_test::select_slack);
    {
      INFO("DeviceSelect::If, num_items " << n << ", a uint64_t count");
      const std::vector<std::int64_t> expected = strata_test::reference_select(in, op);
      device_buffer<std::uint64_t> d_num(2);
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::If(d_temp, bytes, counting_t(start), d_out.data(), d_num.data(),
                                            std::int64_t(n), op);
          });
      strata_test::check_counts(d_num, {expected.size()});
      strata_test::check_selected(expected, d_out.download());
    }
    {
      INFO("DevicePartition::If, num_items " << n << ", an int count");
      const std::vector<std::int64_t> expected = strata_test::reference_partition(in, op);
      device_buffer<int> d_num(2);
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::If(d_temp, bytes, counting_t(start), d_out.data(), d_num.data(),
                                               std::int64_t(n), op);
          });
      strata_test::check_counts(d_num, {strata_test::reference_select(in, op).size()});
      strata_test::check_selected(expected, d_out.download());
    }
  }
}

TEST_CASE("DeviceSelect::If reads a TransformInputIterator and writes its count through an output iterator",
          "[device][select]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(643);
  INFO("seed " << seed);
  using square_it = strata::TransformInputIterator<std::int64_t, strata_test::square, const std::int32_t*>;
  using count_it  = strata_test::transform_output<std::int64_t, strata_test::three_x_plus_one>;
  const select_percent op{50, seed};
  for (std::size_t n : iterator_sizes())
  {
    INFO("num_items " << n);
    const std::vector<std::int32_t> x = strata_test::select_inputs<std::int32_t>(n, seed + n);
    std::vector<std::int64_t> squares(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      squares[i] = strata_test::square{}(x[i]);
    }
    const std::vector<std::int64_t> expected = strata_test::reference_select(squares, op);
    device_buffer<std::int32_t> d_x(x);
    device_buffer<std::int64_t> d_out(n + strata_test::select_slack);
    device_buffer<std::int64_t> d_num(2);
    d_out.poison();
    d_num.poison();
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSelect::If(d_temp, bytes, square_it(d_x.data(), strata_test::square{}), d_out.data(),
                                          count_it(d_num.data(), strata_test::three_x_plus_one{}), std::int64_t(n), op);
        });
    // The count iterator stores 3 n + 1 for a count of n.
    strata_test::check_counts(d_num, {3 * expected.size() + 1});
    strata_test::check_selected(expected, d_out.download());
  }
}

TEST_CASE("DeviceSelect::If and DevicePartition::If write into a DiscardOutputIterator", "[device][select][partition]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(645);
  INFO("seed " << seed);
  const select_percent first_op{30, seed + 1};
  const select_percent second_op{50, seed + 2};
  for (std::size_t n : iterator_sizes())
  {
    const std::vector<int> in = strata_test::select_inputs<int>(n, seed + n);
    device_buffer<int> d_in(in);
    {
      INFO("DeviceSelect::If, num_items " << n << ": the count alone");
      device_buffer<int> d_num(2);
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::If(d_temp, bytes, static_cast<const int*>(d_in.data()),
                                            strata::DiscardOutputIterator<>(), d_num.data(), std::int64_t(n), first_op);
          });
      strata_test::check_counts(d_num, {strata_test::reference_select(in, first_op).size()});
    }
    {
      INFO("DevicePartition::If three-way, num_items " << n << ": the unselected items discarded");
      std::vector<int> first;
      std::vector<int> second;
      for (int x : in)
      {
        if (first_op(x))
        {
          first.push_back(x);
        }
        else if (second_op(x))
        {
          second.push_back(x);
        }
      }
      device_buffer<int> d_first(n + strata_test::select_slack);
      device_buffer<int> d_second(n + strata_test::select_slack);
      device_buffer<int> d_num(3);
      d_first.poison();
      d_second.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::If(d_temp, bytes, static_cast<const int*>(d_in.data()), d_first.data(),
                                               d_second.data(), strata::DiscardOutputIterator<>(), d_num.data(),
                                               std::int64_t(n), first_op, second_op);
          });
      strata_test::check_counts(d_num, {first.size(), second.size()});
      strata_test::check_selected(first, d_first.download());
      strata_test::check_selected(second, d_second.download());
    }
  }
}

TEST_CASE("DeviceSelect::Flagged reads its flags from a TransformInputIterator", "[device][select]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(647);
  INFO("seed " << seed);
  using flags_it = strata::TransformInputIterator<bool, every_third, strata::CountingInputIterator<int>>;
  for (std::size_t n : iterator_sizes())
  {
    INFO("num_items " << n);
    const std::vector<std::uint64_t> in = strata_test::select_inputs<std::uint64_t>(n, seed + n);
    std::vector<std::uint64_t> expected;
    for (std::size_t i = 0; i < n; i += 3)
    {
      expected.push_back(in[i]);
    }
    device_buffer<std::uint64_t> d_in(in);
    device_buffer<std::uint64_t> d_out(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    d_out.poison();
    d_num.poison();
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSelect::Flagged(d_temp, bytes, static_cast<const std::uint64_t*>(d_in.data()),
                                               flags_it(strata::CountingInputIterator<int>(0), every_third{}),
                                               d_out.data(), d_num.data(), std::int64_t(n));
        });
    strata_test::check_counts(d_num, {expected.size()});
    strata_test::check_selected(expected, d_out.download());
  }
}

TEST_CASE("DeviceSelect::UniqueByKey reads its keys and values through iterators", "[device][select]")
{
  // Keys i / 7 (runs of seven), values 1000 + i: the first of each run is key j with value
  // 1000 + 7 j.
  STRATA_TEST_REQUIRE_GPU();
  using keys_it = strata::TransformInputIterator<int, seventh, strata::CountingInputIterator<int>>;
  for (std::size_t n : iterator_sizes())
  {
    INFO("num_items " << n);
    std::vector<int> expected_keys;
    std::vector<std::int64_t> expected_values;
    for (std::size_t i = 0; i < n; i += 7)
    {
      expected_keys.push_back(int(i / 7));
      expected_values.push_back(1000 + std::int64_t(i));
    }
    device_buffer<int> d_keys_out(n + strata_test::select_slack);
    device_buffer<std::int64_t> d_values_out(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    d_keys_out.poison();
    d_values_out.poison();
    d_num.poison();
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSelect::UniqueByKey(
              d_temp, bytes, keys_it(strata::CountingInputIterator<int>(0), seventh{}), counting_t(1000),
              d_keys_out.data(), d_values_out.data(), d_num.data(), std::int64_t(n));
        });
    strata_test::check_counts(d_num, {expected_keys.size()});
    strata_test::check_selected(expected_keys, d_keys_out.download());
    strata_test::check_selected(expected_values, d_values_out.download());
  }
}

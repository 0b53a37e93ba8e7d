// Tests of strata/device/device_partition.cuh: DevicePartition::Flagged and If (two-way: the
// selected items in input order first, then the rejected ones in reverse input order) and If
// (three-way: the items of the first part, of the second part and the rest, each in input order
// in an output of its own), against std::copy_if / std::remove_copy_if. Items of uint32, uint8,
// double, float (with NaN, which no predicate selects, signed zeros and infinities) and a 16-byte
// record; sizes from 0 through both sides of every tile size to 2^20 + 7 (2^24 + 13 for uint32);
// none, 1 %, half, 99 % and all of the items selected. Outputs past the items they must hold and
// the counts must keep their poison. Item counts are int64_t (If) and int (Flagged and the
// three-way If: 32-bit offsets). Also: misaligned inputs and outputs (d_in + 1, d_out + 3).
#include <strata/device/device_partition.cuh>

#include "common/test_common.cuh"
#include "device_select_checks.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::select_percent;

using partition_types = std::tuple<std::uint32_t, std::uint8_t, double, float, strata_test::item16>;

//! The three outputs of a three-way partition.
template <typename T>
struct three_way_reference
{
  std::vector<T> first;
  std::vector<T> second;
  std::vector<T> unselected;
};

template <typename T>
three_way_reference<T> reference_three_way(const std::vector<T>& in, select_percent first_op, select_percent second_op)
{
  three_way_reference<T> parts;
  std::copy_if(in.begin(), in.end(), std::back_inserter(parts.first), first_op);
  std::copy_if(in.begin(), in.end(), std::back_inserter(parts.second),
               [&](const T& x) { return !first_op(x) && second_op(x); });
  std::copy_if(in.begin(), in.end(), std::back_inserter(parts.unselected),
               [&](const T& x) { return !first_op(x) && !second_op(x); });
  return parts;
}

//! The (first, second) percentages of the three-way partition at the size of index
//! `size_index`: empty parts, lopsided ones, halves and everything in one part; under
//! compute-sanitizer half and half and one of the others in turn.
std::vector<std::pair<std::uint32_t, std::uint32_t>> three_way_percents(std::size_t size_index)
{
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> all{{0, 0},  {1, 99},  {50, 50},
                                                                 {99, 1}, {100, 0}, {0, 100}};
  if (!strata_test::under_sanitizer())
  {
    return all;
  }
  return {all[2], all[(size_index % 5) + (size_index % 5 >= 2 ? 1 : 0)]};
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DevicePartition::If puts the selected items first in order and the rest after them "
                        "in reverse order",
                        "[device][partition]", partition_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(621);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes(std::is_same_v<T, std::uint32_t>);
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n     = sizes[s];
    const std::vector<T> in = strata_test::select_inputs<T>(n, seed + n);
    device_buffer<T> d_in(in);
    device_buffer<T> d_out(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    for (std::uint32_t percent : strata_test::select_percents(s))
    {
      INFO("num_items " << n << ", " << percent << " % selected");
      const select_percent op{percent, seed};
      const std::vector<T> expected = strata_test::reference_partition(in, op);
      const std::size_t selected    = static_cast<std::size_t>(std::count_if(in.begin(), in.end(), op));
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::If(d_temp, bytes, static_cast<const T*>(d_in.data()), d_out.data(),
                                               d_num.data(), std::int64_t(n), op);
          });
      strata_test::check_counts(d_num, {selected});
      strata_test::check_selected(expected, d_out.download());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DevicePartition::Flagged puts the flagged items first in order and the rest after them "
                        "in reverse order",
                        "[device][partition]", partition_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(623);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n     = sizes[s];
    const std::vector<T> in = strata_test::select_inputs<T>(n, seed + n);
    device_buffer<T> d_in(in);
    device_buffer<std::uint8_t> d_flags(n);
    device_buffer<T> d_out(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    for (std::uint32_t percent : strata_test::select_percents(s))
    {
      INFO("num_items " << n << ", " << percent << " % flagged");
      const std::vector<std::uint8_t> flags = strata_test::random_flags(n, percent, seed + 7 * n + percent);
      d_flags.upload(flags);
      std::vector<T> expected;
      for (std::size_t i = 0; i < n; ++i)
      {
        if (flags[i] != 0)
        {
          expected.push_back(in[i]);
        }
      }
      const std::size_t selected = expected.size();
      for (std::size_t i = n; i-- > 0;)
      {
        if (flags[i] == 0)
        {
          expected.push_back(in[i]);
        }
      }
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::Flagged(d_temp, bytes, static_cast<const T*>(d_in.data()),
                                                    static_cast<const std::uint8_t*>(d_flags.data()), d_out.data(),
                                                    d_num.data(), static_cast<int>(n));
          });
      strata_test::check_counts(d_num, {selected});
      strata_test::check_selected(expected, d_out.download());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DevicePartition::If splits the items three ways, each part in input order",
                        "[device][partition]", partition_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(625);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n     = sizes[s];
    const std::vector<T> in = strata_test::select_inputs<T>(n, seed + n);
    device_buffer<T> d_in(in);
    device_buffer<T> d_first(n + strata_test::select_slack);
    device_buffer<T> d_second(n + strata_test::select_slack);
    device_buffer<T> d_unselected(n + strata_test::select_slack);
    device_buffer<int> d_num(3);
    for (const auto& [first_percent, second_percent] : three_way_percents(s))
    {
      INFO("num_items " << n << ", " << first_percent << " % in the first part, " << second_percent
                        << " % of the others in the second");
      const select_percent first_op{first_percent, seed + 1};
      const select_percent second_op{second_percent, seed + 2};
      const three_way_reference<T> expected = reference_three_way(in, first_op, second_op);
      d_first.poison();
      d_second.poison();
      d_unselected.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::If(d_temp, bytes, static_cast<const T*>(d_in.data()), d_first.data(),
                                               d_second.data(), d_unselected.data(), d_num.data(), static_cast<int>(n),
                                               first_op, second_op);
          });
      strata_test::check_counts(d_num, {expected.first.size(), expected.second.size()});
      {
        INFO("first part");
        strata_test::check_selected(expected.first, d_first.download());
      }
      {
        INFO("second part");
        strata_test::check_selected(expected.second, d_second.download());
      }
      {
        INFO("unselected");
        strata_test::check_selected(expected.unselected, d_unselected.download());
      }
    }
  }
}

TEMPLATE_TEST_CASE("DevicePartition reads and writes misaligned pointers", "[device][partition]", std::uint32_t, float)
{
  // Four-byte items one item past an aligned address in, three past it out.
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(627);
  INFO("seed " << seed);
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(100003)})
  {
    const std::vector<T> in = strata_test::select_inputs<T>(n + 1, seed + n); // in[0]: before d_in + 1
    const std::vector<T> items(in.begin() + 1, in.end());
    device_buffer<T> d_in(in);
    device_buffer<T> d_out(n + 3 + strata_test::select_slack);
    device_buffer<T> d_second(n + 3 + strata_test::select_slack);
    device_buffer<T> d_unselected(n + 3 + strata_test::select_slack);
    device_buffer<int> d_num(3);
    const select_percent first_op{50, seed + 3};
    const select_percent second_op{50, seed + 4};
    {
      INFO("two-way, num_items " << n);
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::If(d_temp, bytes, static_cast<const T*>(d_in.data() + 1), d_out.data() + 3,
                                               d_num.data(), std::int64_t(n), first_op);
          });
      strata_test::check_counts(d_num, {static_cast<std::size_t>(std::count_if(items.begin(), items.end(), first_op))});
      strata_test::check_selected(strata_test::reference_partition(items, first_op), d_out.download(), 3);
    }
    {
      INFO("three-way, num_items " << n);
      const three_way_reference<T> expected = reference_three_way(items, first_op, second_op);
      d_out.poison();
      d_second.poison();
      d_unselected.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::If(d_temp, bytes, static_cast<const T*>(d_in.data() + 1), d_out.data() + 3,
                                               d_second.data() + 3, d_unselected.data() + 3, d_num.data(),
                                               static_cast<int>(n), first_op, second_op);
          });
      strata_test::check_counts(d_num, {expected.first.size(), expected.second.size()});
      strata_test::check_selected(expected.first, d_out.download(), 3);
      strata_test::check_selected(expected.second, d_second.download(), 3);
      strata_test::check_selected(expected.unselected, d_unselected.download(), 3);
    }
  }
}

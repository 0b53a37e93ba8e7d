// Tests of strata/device/device_run_length_encode.cuh: DeviceRunLengthEncode::Encode and
// NonTrivialRuns, against a host walk that finds where each run of equal items starts. Items of
// every integer width, float (NaN, never equal to itself, is a run of its own; a run mixing +0 and
// -0 is one run whose first item, sign and all, Encode writes), double and a 16-byte record; run
// lengths written as int or uint64, offsets as int64. Runs of 1, of random lengths of mean 8 and
// of mean 2000 (crossing tiles), and one run; sizes from 0 through both sides of every tile size
// (1024 to 4096 items) to 2^20 + 7 (2^24 + 13 for some types); everything past the expected runs
// and the count must keep its poison. Also: Encode's unique items into a DiscardOutputIterator,
// items read through a TransformInputIterator, and misaligned items and outputs.
#include <strata/device/device_run_length_encode.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_runs_checks.cuh"
#include "device_select_checks.cuh"

#include <cstddef>
#include <cstdint>
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

//! Items with the type of Encode's lengths: every item type, int and uint64 lengths in turn.
using encode_types = std::tuple<std::pair<std::int8_t, int>, std::pair<std::uint8_t, std::uint64_t>,
                                std::pair<std::int16_t, int>, std::pair<std::uint16_t, std::uint64_t>,
                                std::pair<std::int32_t, int>, std::pair<std::uint32_t, std::uint64_t>,
                                std::pair<std::int64_t, int>, std::pair<std::uint64_t, std::uint64_t>,
                                std::pair<float, int>, std::pair<double, std::uint64_t>, std::pair<item16, int>>;

//! Items with the type of NonTrivialRuns' lengths: the other length type for each item type.
using non_trivial_types =
    std::tuple<std::pair<std::int8_t, std::uint64_t>, std::pair<std::uint8_t, int>,
               std::pair<std::int16_t, std::uint64_t>, std::pair<std::uint16_t, int>,
               std::pair<std::int32_t, std::uint64_t>, std::pair<std::uint32_t, int>,
               std::pair<std::int64_t, std::uint64_t>, std::pair<std::uint64_t, int>, std::pair<float, std::uint64_t>,
               std::pair<double, int>, std::pair<item16, std::uint64_t>>;

//! The item types that also run at 2^24 + 13 items.
template <typename T>
constexpr bool huge_v = std::is_same_v<T, std::int32_t> || std::is_same_v<T, float> || std::is_same_v<T, item16>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceRunLengthEncode::Encode writes the first item and the length of every run",
                        "[device][run_length_encode]", encode_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = typename TestType::first_type;
  using LengthT            = typename TestType::second_type;
  const std::uint64_t seed = strata_test::seed(1401);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes(huge_v<T>);
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n = sizes[s];
    device_buffer<T> d_in(n);
    device_buffer<T> d_unique(n + strata_test::select_slack);
    device_buffer<LengthT> d_counts(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    for (run_shape shape : strata_test::runs_shapes_at(s))
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<T> in              = strata_test::run_inputs<T>(n, shape, seed + n + std::uint64_t(shape));
      const std::vector<std::size_t> heads = strata_test::run_heads(in, equal_op{});
      d_in.upload(in);
      d_unique.poison();
      d_counts.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceRunLengthEncode::Encode(d_temp, bytes, static_cast<const T*>(d_in.data()),
                                                         d_unique.data(), d_counts.data(), d_num.data(),
                                                         std::int64_t(n));
          });
      strata_test::check_counts(d_num, {heads.size()});
      {
        INFO("unique items");
        strata_test::check_selected(strata_test::gather(in, heads), d_unique.download());
      }
      {
        INFO("run lengths");
        strata_test::check_selected(strata_test::run_lengths<LengthT>(heads, n), d_counts.download());
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceRunLengthEncode::NonTrivialRuns writes the offset and the length of every run of "
                        "more than one item",
                        "[device][run_length_encode]", non_trivial_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = typename TestType::first_type;
  using LengthT            = typename TestType::second_type;
  const std::uint64_t seed = strata_test::seed(1403);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes(huge_v<T>);
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n = sizes[s];
    device_buffer<T> d_in(n);
    device_buffer<std::int64_t> d_offsets(n + strata_test::select_slack);
    device_buffer<LengthT> d_lengths(n + strata_test::select_slack);
    device_buffer<std::int64_t> d_num(2);
    for (run_shape shape : strata_test::runs_shapes_at(s))
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<T> in = strata_test::run_inputs<T>(n, shape, seed + n + std::uint64_t(shape));
      const auto expected =
          strata_test::reference_non_trivial_runs<std::int64_t, LengthT>(strata_test::run_heads(in, equal_op{}), n);
      d_in.upload(in);
      d_offsets.poison();
      d_lengths.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp, bytes, static_cast<const T*>(d_in.data()),
                                                                 d_offsets.data(), d_lengths.data(), d_num.data(),
                                                                 std::int64_t(n));
          });
      strata_test::check_counts(d_num, {expected.offsets.size()});
      {
        INFO("offsets");
        strata_test::check_selected(expected.offsets, d_offsets.download());
      }
      {
        INFO("lengths");
        strata_test::check_selected(expected.lengths, d_lengths.download());
      }
    }
  }
}

TEST_CASE("DeviceRunLengthEncode::Encode writes its unique items into a DiscardOutputIterator",
          "[device][run_length_encode]")
{
  // Only the lengths (uint64) and the count are written.
  STRATA_TEST_REQUIRE_GPU();
  using T                  = std::int32_t;
  const std::uint64_t seed = strata_test::seed(1405);
  INFO("seed " << seed);
  for (std::size_t n : strata_test::runs_few_sizes())
  {
    for (run_shape shape : {run_shape::random, run_shape::long_random})
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<T> in              = strata_test::run_inputs<T>(n, shape, seed + n + std::uint64_t(shape));
      const std::vector<std::size_t> heads = strata_test::run_heads(in, equal_op{});
      device_buffer<T> d_in(in);
      device_buffer<std::uint64_t> d_counts(n + strata_test::select_slack);
      device_buffer<std::uint64_t> d_num(2);
      d_counts.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceRunLengthEncode::Encode(d_temp, bytes, static_cast<const T*>(d_in.data()),
                                                         strata::DiscardOutputIterator<>(), d_counts.data(),
                                                         d_num.data(), std::int64_t(n));
          });
      strata_test::check_counts(d_num, {heads.size()});
      strata_test::check_selected(strata_test::run_lengths<std::uint64_t>(heads, n), d_counts.download());
    }
  }
}

TEST_CASE("DeviceRunLengthEncode::Encode and NonTrivialRuns read their items through a TransformInputIterator",
          "[device][run_length_encode]")
{
  // Items i / length: runs of `length` items, the last one shorter.
  STRATA_TEST_REQUIRE_GPU();
  for (std::size_t n : strata_test::runs_few_sizes())
  {
    for (std::int64_t length : {std::int64_t(1), std::int64_t(2), std::int64_t(7), std::int64_t(3001)})
    {
      INFO("num_items " << n << ", runs of " << length);
      std::vector<std::int64_t> in(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        in[i] = std::int64_t(i) / length;
      }
      const std::vector<std::size_t> heads = strata_test::run_heads(in, equal_op{});
      const divided_iterator d_in(counting_iterator(0), strata_test::divide_by{length});
      device_buffer<std::int64_t> d_first(n + strata_test::select_slack);
      device_buffer<int> d_second(n + strata_test::select_slack);
      device_buffer<int> d_num(2);
      {
        INFO("Encode");
        d_first.poison();
        d_second.poison();
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceRunLengthEncode::Encode(d_temp, bytes, d_in, d_first.data(), d_second.data(),
                                                           d_num.data(), std::int64_t(n));
            });
        strata_test::check_counts(d_num, {heads.size()});
        strata_test::check_selected(strata_test::gather(in, heads), d_first.download());
        strata_test::check_selected(strata_test::run_lengths<int>(heads, n), d_second.download());
      }
      {
        INFO("NonTrivialRuns");
        const auto expected = strata_test::reference_non_trivial_runs<std::int64_t, int>(heads, n);
        d_first.poison();
        d_second.poison();
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp, bytes, d_in, d_first.data(), d_second.data(),
                                                                   d_num.data(), std::int64_t(n));
            });
        strata_test::check_counts(d_num, {expected.offsets.size()});
        strata_test::check_selected(expected.offsets, d_first.download());
        strata_test::check_selected(expected.lengths, d_second.download());
      }
    }
  }
}

TEST_CASE("DeviceRunLengthEncode::Encode and NonTrivialRuns read and write misaligned pointers",
          "[device][run_length_encode]")
{
  // uint32 items one past an aligned address (d_in + 1), outputs three past one.
  STRATA_TEST_REQUIRE_GPU();
  using T                  = std::uint32_t;
  const std::uint64_t seed = strata_test::seed(1407);
  INFO("seed " << seed);
  for (std::size_t n : strata_test::runs_few_sizes())
  {
    for (run_shape shape : {run_shape::random, run_shape::long_random})
    {
      INFO("num_items " << n << ", " << strata_test::run_shape_name(shape));
      const std::vector<T> in = strata_test::run_inputs<T>(n + 1, shape, seed + n + std::uint64_t(shape));
      const std::vector<T> items(in.begin() + 1, in.end()); // in[0] lies before d_in + 1
      const std::vector<std::size_t> heads = strata_test::run_heads(items, equal_op{});
      device_buffer<T> d_in(in);
      device_buffer<T> d_unique(n + 3 + strata_test::select_slack);
      device_buffer<int> d_counts(n + 3 + strata_test::select_slack);
      device_buffer<std::int64_t> d_offsets(n + 3 + strata_test::select_slack);
      device_buffer<int> d_num(2);
      {
        INFO("Encode");
        d_unique.poison();
        d_counts.poison();
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceRunLengthEncode::Encode(d_temp, bytes, static_cast<const T*>(d_in.data() + 1),
                                                           d_unique.data() + 3, d_counts.data() + 3, d_num.data(),
                                                           std::int64_t(n));
            });
        strata_test::check_counts(d_num, {heads.size()});
        strata_test::check_selected(strata_test::gather(items, heads), d_unique.download(), 3);
        strata_test::check_selected(strata_test::run_lengths<int>(heads, n), d_counts.download(), 3);
      }
      {
        INFO("NonTrivialRuns");
        const auto expected = strata_test::reference_non_trivial_runs<std::int64_t, int>(heads, n);
        d_offsets.poison();
        d_counts.poison();
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceRunLengthEncode::NonTrivialRuns(
                  d_temp, bytes, static_cast<const T*>(d_in.data() + 1), d_offsets.data() + 3, d_counts.data() + 3,
                  d_num.data(), std::int64_t(n));
            });
        strata_test::check_counts(d_num, {expected.offsets.size()});
        strata_test::check_selected(expected.offsets, d_offsets.download(), 3);
        strata_test::check_selected(expected.lengths, d_counts.download(), 3);
      }
    }
  }
}

// Tests of strata/device/device_adjacent_difference.cuh, part 1: what the four functions compute,
// against a host loop written from CUB's definition. SubtractLeftCopy and SubtractRightCopy with
// the default ::cuda::std::minus<> over every integer width (signed items in half their range, so
// that no difference overflows; unsigned ones wrap), float, double and a 16-byte record with its
// own operator-; and over int32 items with an operator of int64 result (a - 2 b) into int64
// outputs. SubtractLeft and SubtractRight in place over uint32, float and the record. Sizes from 0
// through both sides of warp rows and of every tile size (1024 to 8192 items) to 2^20 + 7 (2^24 + 13
// for uint32; under compute-sanitizer up to 100003), counts of type int. Every output buffer holds
// 7 poisoned items more than the call writes, which must keep the poison; a copy's input must not
// change. Also: misaligned inputs and outputs of 1- to 8-byte items (d_in + 1 with d_out + 3 or
// d_out + 1; uint32 and float in place at d_data + 1 and d_data + 3).
#include <strata/device/device_adjacent_difference.cuh>

#include "common/test_common.cuh"
#include "device_adjacent_difference_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::adjacent_slack;
using strata_test::both_sides;
using strata_test::device_buffer;
using strata_test::side;

//! The item types of the in-place forms: 4 bytes, float and the 16-byte record.
using in_place_types = std::tuple<std::uint32_t, float, strata_test::record16>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceAdjacentDifference::SubtractLeftCopy and SubtractRightCopy subtract each item's "
                        "neighbour into the output",
                        "[device][adjacent_difference]", strata_test::adjacent_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(1201);
  INFO("seed " << seed);
  for (std::size_t n : strata_test::adjacent_sizes(std::is_same_v<T, std::uint32_t>))
  {
    const std::vector<T> in = strata_test::adjacent_inputs<T>(n, seed + n);
    device_buffer<T> d_in(in);
    device_buffer<T> d_out(n + adjacent_slack);
    for (side s : both_sides)
    {
      INFO(strata_test::function_name(s, true) << ", num_items " << n);
      strata_test::check_copy(d_out, strata_test::reference_difference<T>(in, s, std::minus<>{}), 0,
                              [&](void* d_temp, std::size_t& bytes)
                              {
                                return strata_test::subtract_copy(s, d_temp, bytes, static_cast<const T*>(d_in.data()),
                                                                  d_out.data(), static_cast<int>(n));
                              });
      strata_test::check_items(in, d_in.download()); // the input is read only
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceAdjacentDifference::SubtractLeft and SubtractRight in place use the original "
                        "neighbours and write nothing past the items",
                        "[device][adjacent_difference]", in_place_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(1203);
  INFO("seed " << seed);
  for (std::size_t n : strata_test::adjacent_sizes(std::is_same_v<T, std::uint32_t>))
  {
    const std::vector<T> in = strata_test::adjacent_inputs<T>(n, seed + n);
    device_buffer<T> d_data(n + adjacent_slack);
    for (side s : both_sides)
    {
      INFO(strata_test::function_name(s, false) << ", num_items " << n);
      strata_test::check_in_place(
          d_data, in, strata_test::reference_difference<T>(in, s, std::minus<>{}), 0,
          [&](void* d_temp, std::size_t& bytes)
          { return strata_test::subtract_in_place(s, d_temp, bytes, d_data.data(), static_cast<int>(n)); });
    }
  }
}

TEST_CASE("DeviceAdjacentDifference::SubtractLeftCopy and SubtractRightCopy convert an operator's int64 results "
          "of int32 items into int64 outputs",
          "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1205);
  INFO("seed " << seed);
  for (std::size_t n : strata_test::adjacent_sizes())
  {
    const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(n, seed + n); // the whole range
    device_buffer<std::int32_t> d_in(in);
    device_buffer<std::int64_t> d_out(n + adjacent_slack);
    for (side s : both_sides)
    {
      INFO(strata_test::function_name(s, true) << ", num_items " << n);
      strata_test::check_copy(
          d_out, strata_test::reference_difference<std::int64_t>(in, s, strata_test::minus_twice{}), 0,
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata_test::subtract_copy(s, d_temp, bytes, static_cast<const std::int32_t*>(d_in.data()),
                                              d_out.data(), static_cast<int>(n), strata_test::minus_twice{});
          });
    }
  }
}

TEMPLATE_TEST_CASE("DeviceAdjacentDifference reads and writes misaligned pointers", "[device][adjacent_difference]",
                   std::uint8_t, std::uint16_t, std::uint32_t, float, std::uint64_t)
{
  // Items of 1 to 8 bytes one past an aligned address in and three (or one) past it out, in place
  // one and three past it: a 16-byte vector load or store that assumed alignment would fault or
  // shift items, and a path that peels the items before an aligned address must still pair every
  // item with its neighbour.
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(1207);
  INFO("seed " << seed);
  std::vector<std::size_t> sizes{1, 2, 4097, 8193, 100003};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 20) + 7);
  }
  for (std::size_t n : sizes)
  {
    const std::vector<T> stored = strata_test::adjacent_inputs<T>(n + 1, seed + n); // stored[0]: before d_in + 1
    const std::vector<T> in(stored.begin() + 1, stored.end());
    device_buffer<T> d_in(stored);
    device_buffer<T> d_out(n + 3 + adjacent_slack);
    for (side s : both_sides)
    {
      const std::vector<T> expected = strata_test::reference_difference<T>(in, s, std::minus<>{});
      for (std::size_t out_at : {std::size_t(3), std::size_t(1)})
      {
        INFO(strata_test::function_name(s, true) << " from d_in + 1 to d_out + " << out_at << ", num_items " << n);
        strata_test::check_copy(d_out, expected, out_at,
                                [&](void* d_temp, std::size_t& bytes)
                                {
                                  return strata_test::subtract_copy(s, d_temp, bytes,
                                                                    static_cast<const T*>(d_in.data() + 1),
                                                                    d_out.data() + out_at, static_cast<int>(n));
                                });
      }
      if constexpr (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>) // instantiated in place above
      {
        for (std::size_t at : {std::size_t(1), std::size_t(3)})
        {
          INFO(strata_test::function_name(s, false) << " at d_data + " << at << ", num_items " << n);
          strata_test::check_in_place(
              d_out, in, expected, at,
              [&](void* d_temp, std::size_t& bytes)
              { return strata_test::subtract_in_place(s, d_temp, bytes, d_out.data() + at, static_cast<int>(n)); });
        }
      }
    }
  }
}

// Tests of strata/device/device_select.cuh, part 1: DeviceSelect::If, Flagged and FlaggedIf,
// copying and in place, against std::copy_if. If runs over every integer width, float and double
// (with NaN, which its predicate never selects, signed zeros and infinities) and a 16-byte record;
// the other forms over uint32, int8, uint64, float and the record. Sizes from 0 through both sides
// of every tile size to 2^20 + 7 (2^24 + 13 for If of uint32 and int8), selecting none, 1 %,
// half, 99 % and all of the items; the output past the selected items and the count must keep
// their poison. Also: misaligned inputs, flags and outputs (d_in + 1, d_out + 3).
#include <strata/device/device_select.cuh>

#include "common/test_common.cuh"
#include "device_select_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::select_percent;

//! The types of the forms other than If: 4, 1, 8 bytes, float and the 16-byte record.
using few_types = std::tuple<std::uint32_t, std::int8_t, std::uint64_t, float, strata_test::item16>;

//! FlaggedIf's flags: random 32-bit words, selected by a hash of their bits.
using flag_word_t = std::int32_t;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceSelect::If copies the items a predicate selects, in input order", "[device][select]",
                        strata_test::select_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(601);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes =
      strata_test::select_sizes(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::int8_t>);
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
      const std::vector<T> expected = strata_test::reference_select(in, op);
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::If(d_temp, bytes, static_cast<const T*>(d_in.data()), d_out.data(),
                                            d_num.data(), std::int64_t(n), op);
          });
      strata_test::check_counts(d_num, {expected.size()});
      strata_test::check_selected(expected, d_out.download());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceSelect::If in place keeps the selected items in order at the front", "[device][select]",
                        few_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(603);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n     = sizes[s];
    const std::vector<T> in = strata_test::select_inputs<T>(n, seed + n);
    device_buffer<T> d_data(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    for (std::uint32_t percent : strata_test::select_percents(s))
    {
      INFO("num_items " << n << ", " << percent << " % selected");
      const select_percent op{percent, seed + 1};
      const std::vector<T> expected = strata_test::reference_select(in, op);
      strata_test::upload_prefix(d_data, in);
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceSelect::If(d_temp, bytes, d_data.data(), d_num.data(), std::int64_t(n), op); });
      strata_test::check_counts(d_num, {expected.size()});
      const std::vector<T> out = d_data.download();
      strata_test::check_items(expected, out);
      strata_test::check_untouched(out, n, out.size()); // d_data[n_sel, n) is unspecified
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceSelect::Flagged keeps the items whose flags are nonzero, copying and in place",
                        "[device][select]", few_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(605);
  INFO("seed " << seed);
  const auto nonzero                   = [](std::uint8_t flag) { return flag != 0; };
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n     = sizes[s];
    const std::vector<T> in = strata_test::select_inputs<T>(n, seed + n);
    device_buffer<T> d_in(in);
    device_buffer<T> d_out(n + strata_test::select_slack);
    device_buffer<std::uint8_t> d_flags(n);
    device_buffer<int> d_num(2);
    for (std::uint32_t percent : strata_test::select_percents(s))
    {
      INFO("num_items " << n << ", " << percent << " % flagged");
      const std::vector<std::uint8_t> flags = strata_test::random_flags(n, percent, seed + 7 * n + percent);
      d_flags.upload(flags);
      const std::vector<T> expected = strata_test::reference_select_flagged(in, flags, nonzero);
      {
        INFO("copying");
        d_out.poison();
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceSelect::Flagged(d_temp, bytes, static_cast<const T*>(d_in.data()),
                                                   static_cast<const std::uint8_t*>(d_flags.data()), d_out.data(),
                                                   d_num.data(), std::int64_t(n));
            });
        strata_test::check_counts(d_num, {expected.size()});
        strata_test::check_selected(expected, d_out.download());
      }
      {
        INFO("in place");
        strata_test::upload_prefix(d_out, in);
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceSelect::Flagged(d_temp, bytes, d_out.data(),
                                                   static_cast<const std::uint8_t*>(d_flags.data()), d_num.data(),
                                                   std::int64_t(n));
            });
        strata_test::check_counts(d_num, {expected.size()});
        const std::vector<T> out = d_out.download();
        strata_test::check_items(expected, out);
        strata_test::check_untouched(out, n, out.size());
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceSelect::FlaggedIf keeps the items whose flags the predicate selects, copying and "
                        "in place",
                        "[device][select]", few_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(607);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = strata_test::select_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n                  = sizes[s];
    const std::vector<T> in              = strata_test::select_inputs<T>(n, seed + n);
    const std::vector<flag_word_t> flags = strata_test::select_inputs<flag_word_t>(n, seed + 3 * n + 1);
    device_buffer<T> d_in(in);
    device_buffer<T> d_out(n + strata_test::select_slack);
    device_buffer<flag_word_t> d_flags(flags);
    device_buffer<int> d_num(2);
    for (std::uint32_t percent : strata_test::select_percents(s))
    {
      INFO("num_items " << n << ", " << percent << " % selected");
      const select_percent op{percent, seed + 2};
      const std::vector<T> expected = strata_test::reference_select_flagged(in, flags, op);
      {
        INFO("copying");
        d_out.poison();
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceSelect::FlaggedIf(d_temp, bytes, static_cast<const T*>(d_in.data()),
                                                     static_cast<const flag_word_t*>(d_flags.data()), d_out.data(),
                                                     d_num.data(), std::int64_t(n), op);
            });
        strata_test::check_counts(d_num, {expected.size()});
        strata_test::check_selected(expected, d_out.download());
      }
      {
        INFO("in place");
        strata_test::upload_prefix(d_out, in);
        d_num.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceSelect::FlaggedIf(d_temp, bytes, d_out.data(),
                                                     static_cast<const flag_word_t*>(d_flags.data()), d_num.data(),
                                                     std::int64_t(n), op);
            });
        strata_test::check_counts(d_num, {expected.size()});
        const std::vector<T> out = d_out.download();
        strata_test::check_items(expected, out);
        strata_test::check_untouched(out, n, out.size());
      }
    }
  }
}

TEMPLATE_TEST_CASE("DeviceSelect reads and writes misaligned pointers", "[device][select]", std::uint32_t, float)
{
  // Four-byte items one item past an aligned address in, three past it out: a vectorized load or
  // store that assumed alignment would fault or shift items.
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(609);
  INFO("seed " << seed);
  const auto nonzero = [](std::uint8_t flag) { return flag != 0; };
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(100003)})
  {
    const std::vector<T> in = strata_test::select_inputs<T>(n + 1, seed + n); // in[0]: before d_in + 1
    const std::vector<T> items(in.begin() + 1, in.end());
    const std::vector<std::uint8_t> flags = strata_test::random_flags(n + 1, 50, seed + n + 1);
    const std::vector<std::uint8_t> item_flags(flags.begin() + 1, flags.end());
    device_buffer<T> d_in(in);
    device_buffer<std::uint8_t> d_flags(flags);
    device_buffer<T> d_out(n + 3 + strata_test::select_slack);
    device_buffer<int> d_num(2);
    const select_percent op{50, seed + 3};
    {
      INFO("If, num_items " << n);
      const std::vector<T> expected = strata_test::reference_select(items, op);
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::If(d_temp, bytes, static_cast<const T*>(d_in.data() + 1), d_out.data() + 3,
                                            d_num.data(), std::int64_t(n), op);
          });
      strata_test::check_counts(d_num, {expected.size()});
      strata_test::check_selected(expected, d_out.download(), 3);
    }
    {
      INFO("Flagged, num_items " << n);
      const std::vector<T> expected = strata_test::reference_select_flagged(items, item_flags, nonzero);
      d_out.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::Flagged(d_temp, bytes, static_cast<const T*>(d_in.data() + 1),
                                                 static_cast<const std::uint8_t*>(d_flags.data() + 1), d_out.data() + 3,
                                                 d_num.data(), std::int64_t(n));
          });
      strata_test::check_counts(d_num, {expected.size()});
      strata_test::check_selected(expected, d_out.download(), 3);
    }
    {
      INFO("If in place, num_items " << n);
      const std::vector<T> expected = strata_test::reference_select(items, op);
      std::vector<T> shifted(3, strata_test::poison_value<T>());
      shifted.insert(shifted.end(), items.begin(), items.end());
      strata_test::upload_prefix(d_out, shifted);
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceSelect::If(d_temp, bytes, d_out.data() + 3, d_num.data(), std::int64_t(n), op); });
      strata_test::check_counts(d_num, {expected.size()});
      const std::vector<T> out = d_out.download();
      strata_test::check_items(expected, out, 3);
      strata_test::check_untouched(out, 0, 3);
      strata_test::check_untouched(out, n + 3, out.size());
    }
  }
}

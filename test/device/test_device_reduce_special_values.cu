// Tests of strata/device/device_reduce.cuh, part 5: Min, Max, ArgMin and ArgMax (both forms) of
// float, double, __half and __nv_bfloat16 inputs holding +-inf, -0.0 and NaN, as CUB 3.0.1
// computes them. Min and Max reduce with cuda::minimum / cuda::maximum (`a < b ? a : b`,
// `a < b ? b : a`) and then combine the initial value on the left, once:
// Min = minimum(max(), aggregate), Max = maximum(lowest(), aggregate), with max() and lowest() the
// finite extremes of T. ArgMin / ArgMax ignore their initial value for a non-empty input and
// keep the first index of equal (==) values. Hence, without NaN, every result is determined:
// - only +inf: Min is max() (the initial value wins), ArgMin is (0, +inf); only -inf: Max is
//   lowest();
// - +0.0 == -0.0: Min / Max of a zero extremum is a zero whose sign is determined only where every
//   zero of the input has one sign; ArgMin / ArgMax name the first zero and return its bits.
// With NaN the aggregate depends on the order of the reduction (`NaN < x` and `x < NaN` are both
// false), so only this is checked:
// - Max is never NaN (maximum(lowest(), NaN) is lowest()): all NaN gives lowest(); otherwise it is
//   lowest() or a non-NaN input not above the largest non-NaN input;
// - Min is NaN or an input not below the smallest non-NaN input (all NaN gives NaN);
// - ArgMin / ArgMax return an index in range and exactly the value stored there; a non-NaN value
//   is not below (ArgMin) or above (ArgMax) every non-NaN input.
#include "common/test_common.cuh"
#include "device_extremum_checks.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace
{
using strata_test::same_bits;

template <typename T>
double value(const T& x)
{
  return strata_test::to_double(x);
}

enum scenario : int
{
  finite_and_infinities, // random finite values, two -inf and two +inf
  finite_extremes,       // random finite values, lowest() and max() twice each
  only_plus_inf,
  only_minus_inf,
  positives_and_minus_zero, // Min is exactly -0.0
  negatives_and_plus_zero,  // Max is exactly +0.0
  zeros_of_both_signs,      // every item a zero of random sign
  only_nan,
  finite_and_nan, // NaN at every 61st position and the first
  scenario_count
};

template <typename T>
std::vector<T> make_input(scenario s, std::size_t n, std::uint64_t seed)
{
  const T inf  = strata_test::from_double<T>(std::numeric_limits<double>::infinity());
  const T ninf = strata_test::from_double<T>(-std::numeric_limits<double>::infinity());
  const T nan  = strata_test::from_double<T>(std::numeric_limits<double>::quiet_NaN());
  const T hi   = cuda::std::numeric_limits<T>::max();
  const T lo   = cuda::std::numeric_limits<T>::lowest();
  const T zero = strata_test::from_double<T>(0.0);
  const T neg0 = strata_test::from_double<T>(-0.0);
  std::vector<T> in;
  auto plant = [&](std::size_t at, T x) { in[at % n] = x; };
  switch (s)
  {
  case finite_and_infinities:
    in = strata_test::random_vector<T>(n, seed);
    plant(n / 3, ninf);
    plant(2 * n / 3, ninf);
    plant(n / 2, inf);
    plant(n - 1, inf);
    break;
  case finite_extremes:
    in = strata_test::random_vector<T>(n, seed);
    plant(n / 5, lo);
    plant(n / 4, hi);
    plant(3 * n / 5, lo);
    plant(3 * n / 4, hi);
    break;
  case only_plus_inf:
    in.assign(n, inf);
    break;
  case only_minus_inf:
    in.assign(n, ninf);
    break;
  case positives_and_minus_zero:
    in = strata_test::random_vector<T>(n, seed, 1.0, 100.0);
    plant(n / 7, neg0);
    plant(n / 2, neg0);
    break;
  case negatives_and_plus_zero:
    in = strata_test::random_vector<T>(n, seed, -100.0, -1.0);
    plant(n / 7, zero);
    plant(n / 2, zero);
    break;
  case zeros_of_both_signs:
  {
    const std::vector<std::uint8_t> signs = strata_test::random_vector<std::uint8_t>(n, seed);
    in.resize(n);
    std::transform(signs.begin(), signs.end(), in.begin(), [&](std::uint8_t b) { return b % 2 ? neg0 : zero; });
    break;
  }
  case only_nan:
    in.assign(n, nan);
    break;
  default:
    in = strata_test::random_vector<T>(n, seed);
    for (std::size_t i = 0; i < n; i += 61)
    {
      in[i] = nan;
    }
    break;
  }
  return in;
}

//! The results where no input is NaN: exact values, and the sign of a zero where it is determined.
template <typename T>
void check_without_nan(const std::vector<T>& in, const strata_test::extrema<T>& r)
{
  const T hi            = cuda::std::numeric_limits<T>::max();
  const T lo            = cuda::std::numeric_limits<T>::lowest();
  std::size_t first_min = 0;
  std::size_t first_max = 0;
  bool plus_zero        = false;
  bool minus_zero       = false;
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    first_min = value(in[i]) < value(in[first_min]) ? i : first_min;
    first_max = value(in[first_max]) < value(in[i]) ? i : first_max;
    if (value(in[i]) == 0.0)
    {
      (std::signbit(value(in[i])) ? minus_zero : plus_zero) = true;
    }
  }
  // The initial value on the left of one last minimum / maximum.
  const T expected_min            = value(hi) < value(in[first_min]) ? hi : in[first_min];
  const T expected_max            = value(lo) < value(in[first_max]) ? in[first_max] : lo;
  const bool zero_sign_determined = !(plus_zero && minus_zero);
  INFO("Min " << value(r.min) << ", expected " << value(expected_min));
  CHECK(value(r.min) == value(expected_min));
  CHECK((same_bits(r.min, expected_min) || (value(expected_min) == 0.0 && !zero_sign_determined)));
  INFO("Max " << value(r.max) << ", expected " << value(expected_max));
  CHECK(value(r.max) == value(expected_max));
  CHECK((same_bits(r.max, expected_max) || (value(expected_max) == 0.0 && !zero_sign_determined)));

  CHECK(r.arg_min.key == static_cast<int>(first_min));
  CHECK(same_bits(r.arg_min.value, in[first_min]));
  CHECK(r.split_min_index == static_cast<std::int64_t>(first_min));
  CHECK(same_bits(r.split_min, in[first_min]));
  CHECK(r.arg_max.key == static_cast<int>(first_max));
  CHECK(same_bits(r.arg_max.value, in[first_max]));
  CHECK(r.split_max_index == static_cast<std::int64_t>(first_max));
  CHECK(same_bits(r.split_max, in[first_max]));
}

//! What is determined where some inputs are NaN (see the top of this file).
template <typename T>
void check_with_nan(const std::vector<T>& in, const strata_test::extrema<T>& r)
{
  std::vector<double> finite;
  for (const T& x : in)
  {
    if (!std::isnan(value(x)))
    {
      finite.push_back(value(x));
    }
  }
  std::sort(finite.begin(), finite.end());
  const bool any_number = !finite.empty();
  auto is_input         = [&](double x) { return std::binary_search(finite.begin(), finite.end(), x); };
  const T lo            = cuda::std::numeric_limits<T>::lowest();

  INFO("Min " << value(r.min) << ", Max " << value(r.max));
  if (any_number)
  {
    CHECK((std::isnan(value(r.min)) || (is_input(value(r.min)) && value(r.min) >= finite.front())));
    CHECK((same_bits(r.max, lo) || (is_input(value(r.max)) && value(r.max) <= finite.back())));
  }
  else
  {
    CHECK(std::isnan(value(r.min)));
    CHECK(same_bits(r.max, lo));
  }

  auto check_arg = [&](std::int64_t index, const T& v, bool minimum)
  {
    INFO((minimum ? "ArgMin" : "ArgMax") << " index " << index << ", value " << value(v));
    REQUIRE(index >= 0);
    REQUIRE(index < static_cast<std::int64_t>(in.size()));
    const T& at = in[static_cast<std::size_t>(index)];
    CHECK((same_bits(v, at) || (std::isnan(value(v)) && std::isnan(value(at)))));
    if (!std::isnan(value(v)))
    {
      CHECK((minimum ? value(v) >= finite.front() : value(v) <= finite.back()));
    }
  };
  check_arg(r.arg_min.key, r.arg_min.value, true);
  check_arg(r.split_min_index, r.split_min, true);
  check_arg(r.arg_max.key, r.arg_max.value, false);
  check_arg(r.split_max_index, r.split_max, false);
}

using special_types = std::tuple<float, double, __half, __nv_bfloat16>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceReduce extrema with +-inf, -0.0 and NaN behave as in CUB", "[device][reduce]",
                        special_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T = TestType;
  for (std::size_t n : strata_test::reduce_sizes(strata_test::reduce_max_items))
  {
    // Under the sanitizers the sizes stop at 100003: they still reach one block of one and of
    // several tiles (up to every single-block limit) and the two-pass grid with partial tiles;
    // 2^20 and 2^24 + 13 only add blocks that take several tiles, which the Min / Max tests of
    // test_device_reduce_minmax(_exact) cover there at 2^24 + 13.
    if (n == 0 || (strata_test::under_sanitizer() && n > 100003))
    {
      continue;
    }
    for (int s = 0; s < scenario_count; ++s)
    {
      const std::uint64_t seed = strata_test::seed(401 + 16 * n + std::uint64_t(s));
      INFO("num_items " << n << ", scenario " << s << ", seed " << seed);
      const std::vector<T> in = make_input<T>(static_cast<scenario>(s), n, seed);
      const strata_test::device_buffer<T> d_in(in);
      const strata_test::extrema<T> r = strata_test::run_extrema(d_in.data(), n);
      if (s == only_nan || s == finite_and_nan)
      {
        check_with_nan(in, r);
      }
      else
      {
        check_without_nan(in, r);
      }
    }
  }
}

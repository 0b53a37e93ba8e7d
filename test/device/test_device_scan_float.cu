// Tests of strata/device/device_scan.cuh, part 6: floating-point scans checked tightly enough that
// a dropped or duplicated item fails. ExclusiveSum and InclusiveSum of float and double items of
// magnitude in [1, 1.25) and random sign, each output within an error bound derived from the input
// (below), which the test first proves smaller than half of any item; and sums and maxima of
// __half and __nv_bfloat16 over items of +-1 and +-2 whose every sum of consecutive items is exact
// (a bounded walk; every tile's sum non-zero, so a dropped or doubled tile prefix shows), compared
// exactly across 257 tiles.
#include <strata/device/device_scan.cuh>

#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <cuda/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::run_scan;
using strata_test::scan_sizes;

//! Items of magnitude in [1, 1.25) with random signs.
template <typename T>
std::vector<T> signed_items(std::size_t n, std::uint64_t seed)
{
  std::vector<T> in                     = strata_test::random_vector<T>(n, seed, 1.0, 1.25);
  const std::vector<std::uint8_t> signs = strata_test::random_vector<std::uint8_t>(n, seed + 1);
  for (std::size_t i = 0; i < n; ++i)
  {
    in[i] = signs[i] % 2 ? -in[i] : in[i];
  }
  return in;
}

//! Checks a float scan's outputs against long-double references within per-output bounds.
template <typename T>
void check_within(const std::vector<long double>& expected, const std::vector<double>& bound,
                  const std::vector<T>& actual, std::size_t n)
{
  std::size_t mismatches = 0;
  std::ostringstream report;
  for (std::size_t i = 0; i < n; ++i)
  {
    const long double error = std::fabs(static_cast<long double>(actual[i]) - expected[i]);
    if (!(error <= bound[i]))
    {
      if (mismatches < 8)
      {
        report << "  [" << i << "] expected " << double(expected[i]) << ", got " << double(actual[i]) << ", bound "
               << bound[i] << "\n";
      }
      ++mismatches;
    }
  }
  INFO(mismatches << " of " << n << " outputs out of bounds:\n" << report.str());
  CHECK(mismatches == 0);
}

//! n items of +-1 and +-2 (never 0) whose running sum, started at bound / 2, stays in [0, bound]:
//! every sum of consecutive items is at most `bound` in magnitude. The last item of every `tile`
//! items keeps that tile's sum from being 0, so that a tile prefix dropped or added twice moves
//! every later output (as any dropped or doubled item does).
std::vector<int> bounded_walk(std::size_t n, std::size_t tile, int bound, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::vector<int> items(n);
  int prefix   = bound / 2;
  int tile_sum = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    const int magnitude = int(engine() % 2) + 1;
    int step            = engine() % 2 != 0 ? magnitude : -magnitude;
    if (prefix + step < 0 || prefix + step > bound)
    {
      step = -step;
    }
    const bool tile_end = (i + 1) % tile == 0;
    if (tile_end && tile_sum + step == 0)
    {
      // A step toward the middle instead: of its two magnitudes at most one cancels the sum.
      const int toward = prefix < bound / 2 ? 1 : -1;
      step             = tile_sum + toward == 0 ? 2 * toward : toward;
    }
    items[i] = step;
    prefix += step;
    tile_sum = tile_end ? 0 : tile_sum + step;
  }
  return items;
}
} // namespace

TEMPLATE_TEST_CASE("DeviceScan sums of float and double within a bound derived from the input", "[device][scan]", float,
                   double)
{
  STRATA_TEST_REQUIRE_GPU();
  using T       = TestType;
  using PolicyT = typename strata::detail::scan::policy_hub<T, std::uint32_t, cuda::std::plus<>>::Policy900::ScanPolicy;
  const std::size_t tile = strata_test::scan_tile_items<T>();
  // float: 33 tiles and a remainder (past the look-back's 32-tile window; more items would let the
  // bound exceed half an item); double: 2^24 + 13.
  const std::size_t size   = std::is_same_v<T, float> ? 33 * tile + 1234 : strata_test::scan_max_items;
  const std::uint64_t seed = strata_test::seed(701);
  INFO("seed " << seed);
  const std::vector<T> in = signed_items<T>(size, seed);

  // Rounding error of an output, unit roundoff u: each addition errs by at most u * |its sum|.
  // The additions that reduce items within a tile form at most D levels (the thread's serial
  // ITEMS_PER_THREAD, the warp's 5, the block's warps, a few more), each level's sums disjoint:
  // at most u * D * (sum of |items|). The others (the look-back's tile prefixes over the tiles
  // before and a 32-tile window, the thread's serial rescan from its prefix) add sums of
  // consecutive items, each at most twice the largest |prefix| so far in magnitude. The
  // long-double reference errs by at most i * u_ref * (sum of |items|).
  const double u     = std::numeric_limits<T>::epsilon() / 2;
  const double u_ref = std::numeric_limits<long double>::epsilon() / 2;
  const double depth = PolicyT::ITEMS_PER_THREAD + 5 + PolicyT::BLOCK_THREADS / 32 + 4;
  std::vector<long double> exclusive(size);
  std::vector<long double> inclusive(size);
  std::vector<double> bound(size);
  long double prefix    = 0;
  double abs_sum        = 0;
  double largest_prefix = 0;
  double smallest_item  = std::numeric_limits<double>::infinity();
  double largest_bound  = 0;
  for (std::size_t i = 0; i < size; ++i)
  {
    exclusive[i] = prefix;
    prefix += in[i];
    inclusive[i] = prefix;
    abs_sum += std::fabs(double(in[i]));
    largest_prefix     = std::max(largest_prefix, std::fabs(double(prefix)));
    smallest_item      = std::min(smallest_item, std::fabs(double(in[i])));
    const double chain = double(i / tile + 32 + PolicyT::ITEMS_PER_THREAD + 4) * 2 * largest_prefix;
    bound[i]           = u * (depth * abs_sum + chain) + double(i + 1) * u_ref * abs_sum;
    largest_bound      = std::max(largest_bound, bound[i]);
  }
  INFO("largest bound " << largest_bound << ", smallest |item| " << smallest_item);
  // A dropped or duplicated item moves every later output by at least the smallest |item|.
  REQUIRE(2 * largest_bound < smallest_item);

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(size);
  std::vector<std::size_t> sizes = scan_sizes(tile, size);
  if (sizes.back() != size)
  {
    sizes.push_back(size);
  }
  for (std::size_t n : sizes)
  {
    INFO("num_items " << n);
    check_within(exclusive, bound,
                 run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                          { return strata::DeviceScan::ExclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), n); }),
                 n);
    check_within(inclusive, bound,
                 run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                          { return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), n); }),
                 n);
  }
}

TEMPLATE_TEST_CASE("DeviceScan sums and maxima of __half and __nv_bfloat16", "[device][scan]", __half, __nv_bfloat16)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::size_t size   = (std::size_t(1) << 20) + 1;
  const std::size_t tile   = strata_test::scan_tile_items<T>();
  const std::uint64_t seed = strata_test::seed(703);
  INFO("seed " << seed);
  // The largest integer up to which T holds every integer: 2^11 (__half), 2^8 (__nv_bfloat16).
  const int exact               = std::is_same_v<T, __half> ? 2048 : 256;
  const std::vector<int> values = bounded_walk(size, tile, exact, seed);
  std::vector<T> in(size);
  std::transform(values.begin(), values.end(), in.begin(), [](int x) { return strata_test::from_double<T>(x); });
  std::vector<T> exclusive(size);
  std::vector<T> inclusive(size);
  std::vector<T> maximum(size);
  int prefix         = 0;
  int lowest_prefix  = 0;
  int highest_prefix = 0;
  int largest        = values[0];
  for (std::size_t i = 0; i < size; ++i)
  {
    exclusive[i] = strata_test::from_double<T>(prefix);
    prefix += values[i];
    largest        = std::max(largest, values[i]);
    lowest_prefix  = std::min(lowest_prefix, prefix);
    highest_prefix = std::max(highest_prefix, prefix);
    inclusive[i]   = strata_test::from_double<T>(prefix);
    maximum[i]     = strata_test::from_double<T>(largest);
  }
  // Every sum of consecutive items is the difference of two prefixes: exact in T.
  REQUIRE(highest_prefix - lowest_prefix <= exact);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(size);
  for (std::size_t n : scan_sizes(tile, size))
  {
    INFO("num_items " << n);
    strata_test::check_scan(
        exclusive,
        run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                 { return strata::DeviceScan::ExclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), n); }),
        n);
    strata_test::check_scan(
        inclusive,
        run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                 { return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), n); }),
        n);
    strata_test::check_scan(maximum,
                            run_scan(d_out,
                                     [&](void* d_temp, std::size_t& bytes) {
                                       return strata::DeviceScan::InclusiveScan(d_temp, bytes, d_in.data(),
                                                                                d_out.data(), cuda::maximum<>{}, n);
                                     }),
                            n);
  }
}

// Tests of strata/device/device_histogram.cuh, part 1: HistogramEven and MultiHistogramEven (bins
// of equal width). Every sample type (uint8 to int64, float, double, __half) with representative
// level and counter types (int, unsigned, long long, unsigned long long and float counters) at bin
// counts on both sides of the policy's warp-aggregation and shared-memory limits and at 0, 1,
// 2^20 + 7 and 2^24 + 13 samples; integer samples on every bin edge (exact bins, also over the
// whole int32, uint32 and int64 ranges); floating-point samples on and one ulp beside the edges, at
// the top of the range, NaN and infinities; all samples in one bin (2^24 + 13 of them into 32-bit
// counters) or outside; 2-D inputs whose row padding holds samples that would count; RGBA pixels
// with three active channels (the fourth must not count), in both the std::array and the C-array
// forms; channels whose bins add up to just below and above the limits; and iterator inputs.
// Outputs are poisoned first and compared in full with the host reference of
// device_histogram_checks.cuh.
#include <strata/device/device_histogram.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include <cuda/std/array>

#include "common/test_common.cuh"
#include "device_histogram_checks.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::histogram_types;
using strata_test::low_byte;
using strata_test::quarter;

using even_types =
    std::tuple<histogram_types<std::uint8_t, int, int>, histogram_types<std::uint8_t, float, float>,
               histogram_types<std::uint16_t, int, unsigned>, histogram_types<std::int8_t, int, int>,
               histogram_types<std::int16_t, std::int16_t, unsigned long long>,
               histogram_types<std::int32_t, std::int32_t, int>, histogram_types<std::int32_t, float, long long>,
               histogram_types<std::uint32_t, std::uint32_t, unsigned>,
               histogram_types<std::int64_t, std::int64_t, unsigned long long>, histogram_types<float, float, int>,
               histogram_types<double, double, unsigned long long>, histogram_types<__half, __half, int>,
               histogram_types<__half, float, unsigned>>;

//! HistogramEven of every sample of `samples` into `bins` bins over [lower, upper), against the
//! host reference.
template <typename SampleT, typename LevelT, typename CounterT = int>
void check_even(const std::vector<SampleT>& samples, LevelT lower, LevelT upper, int bins)
{
  INFO(bins << " bins, " << samples.size() << " samples");
  const device_buffer<SampleT> d_samples(samples);
  device_buffer<CounterT> d_histogram(static_cast<std::size_t>(bins));
  d_histogram.poison();
  strata_test::run_histogram(
      [&](void* d_temp, std::size_t& bytes)
      {
        return strata::DeviceHistogram::HistogramEven(d_temp, bytes, static_cast<const SampleT*>(d_samples.data()),
                                                      d_histogram.data(), bins + 1, lower, upper,
                                                      static_cast<int>(samples.size()));
      });
  const strata_test::even_reference<SampleT, LevelT> reference(lower, upper, bins + 1);
  strata_test::check_histogram(strata_test::reference_prefix_histograms(samples, {samples.size()}, reference)[0],
                               d_histogram);
}

//! The integer samples on both sides of every edge of `bins` bins over [lower, upper) (edge k is
//! the least integer at or above lower + k (upper - lower) / bins), those of SampleT's range. Where
//! the edges are distinct integers (bins <= upper - lower), each is CHECKed to be where the
//! definition puts it: edge k in bin k, the integer below in bin k - 1.
template <typename SampleT, typename LevelT>
std::vector<SampleT> integer_edge_samples(LevelT lower, LevelT upper, int bins)
{
  const __int128 lo    = lower;
  const __int128 range = __int128(upper) - lo;
  const __int128 min   = std::numeric_limits<SampleT>::lowest();
  const __int128 max   = std::numeric_limits<SampleT>::max();
  const strata_test::even_reference<SampleT, LevelT> reference(lower, upper, bins + 1);
  std::vector<SampleT> samples;
  for (int k = 0; k <= bins; ++k)
  {
    const __int128 edge = lo + (k * range + bins - 1) / bins;
    for (const __int128 x : {edge - 1, edge})
    {
      if (x >= min && x <= max)
      {
        samples.push_back(static_cast<SampleT>(x));
        if (range >= bins)
        {
          const int bin = x == edge ? (k < bins ? k : -1) : (k > 0 ? k - 1 : -1);
          CHECK(reference(static_cast<SampleT>(x)) == bin);
        }
      }
    }
  }
  return samples;
}

const std::vector<int> edge_bin_counts = {1, 2, 3, 7, 32, 63, 64, 65, 255, 256, 257, 1000, 4096, 8192, 8193, 65536};

//! Where x lies among `bins` bins over [lower, upper) in exact arithmetic: floor((x - lower) *
//! bins / (upper - lower)), or -1 outside.
double exact_bin(double x, double lower, double upper, int bins)
{
  if (!(x >= lower && x < upper))
  {
    return -1;
  }
  return std::floor(static_cast<long double>(x - lower) * bins / static_cast<long double>(upper - lower));
}

} // namespace

TEMPLATE_LIST_TEST_CASE("HistogramEven counts every sample type like the host reference at every bin count and size",
                        "[device][histogram]", even_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using SampleT            = typename TestType::sample_t;
  using LevelT             = typename TestType::level_t;
  using CounterT           = typename TestType::counter_t;
  const std::uint64_t seed = strata_test::seed(1201);
  INFO("seed " << seed);
  const std::pair<LevelT, LevelT> span = strata_test::even_span<SampleT, LevelT>();
  const LevelT lower                   = span.first;
  const LevelT upper                   = span.second;
  INFO("levels [" << strata_test::to_double(lower) << ", " << strata_test::to_double(upper) << ")");
  strata_test::check_every_bin_count_and_size<SampleT, CounterT>(
      seed,
      [lower, upper](int bins)
      {
        const auto call = [=](void* d_temp, std::size_t& bytes, const SampleT* d_samples, CounterT* d_histogram, int n)
        {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, d_histogram, bins + 1, lower, upper,
                                                        n);
        };
        return std::make_pair(strata_test::even_reference<SampleT, LevelT>(lower, upper, bins + 1), call);
      });
}

TEST_CASE("HistogramEven puts integer samples on the bin edges into the exact bin", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  SECTION("every uint8 value, int levels [0, 256) and uint8 levels [3, 255)")
  {
    std::vector<std::uint8_t> all(256);
    for (int i = 0; i < 256; ++i)
    {
      all[std::size_t(i)] = std::uint8_t(i);
    }
    for (const int bins : edge_bin_counts)
    {
      check_even(all, 0, 256, bins);
      check_even(all, std::uint8_t(3), std::uint8_t(255), bins);
    }
  }
  SECTION("int16 samples around the edges of [-1000, 1337), 2337 wide: most edges fall between integers")
  {
    for (const int bins : edge_bin_counts)
    {
      check_even(integer_edge_samples<std::int16_t>(-1000, 1337, bins), -1000, 1337, bins);
    }
  }
  SECTION("int32 over the whole int32 range (int levels) and uint32 over [0, 2^32 - 1)")
  {
    constexpr std::int32_t int_min   = std::numeric_limits<std::int32_t>::lowest();
    constexpr std::int32_t int_max   = std::numeric_limits<std::int32_t>::max();
    constexpr std::uint32_t uint_max = std::numeric_limits<std::uint32_t>::max();
    for (const int bins : edge_bin_counts)
    {
      check_even(integer_edge_samples<std::int32_t>(int_min, int_max, bins), int_min, int_max, bins);
      check_even(integer_edge_samples<std::uint32_t>(0u, uint_max, bins), 0u, uint_max, bins);
    }
  }
  SECTION("int64 over [-2^62, 2^62 + 12345) and over the whole int64 range (products of 128 bits)")
  {
    constexpr std::int64_t min = std::numeric_limits<std::int64_t>::lowest();
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    const std::int64_t lower   = -(std::int64_t(1) << 62);
    const std::int64_t upper   = (std::int64_t(1) << 62) + 12345;
    for (const int bins : edge_bin_counts)
    {
      check_even<std::int64_t, std::int64_t, unsigned long long>(integer_edge_samples<std::int64_t>(lower, upper, bins),
                                                                 lower, upper, bins);
      check_even<std::int64_t, std::int64_t, unsigned long long>(integer_edge_samples<std::int64_t>(min, max, bins),
                                                                 min, max, bins);
    }
  }
}

TEMPLATE_TEST_CASE("HistogramEven of floating-point samples on and beside the edges, at the ends, NaN and infinities",
                   "[device][histogram]", float, double, __half)
{
  STRATA_TEST_REQUIRE_GPU();
  using T           = TestType;
  const double nan  = std::numeric_limits<double>::quiet_NaN();
  const double inf  = std::numeric_limits<double>::infinity();
  const auto as_t   = [](double x) { return strata_test::from_double<T>(x); };
  const auto beside = [](double x, double toward)
  {
    if constexpr (std::is_same_v<T, float>)
    {
      return double(std::nextafter(float(x), float(toward)));
    }
    else if constexpr (std::is_same_v<T, double>)
    {
      return std::nextafter(x, toward);
    }
    else
    {
      // A unit of the __half's 11-bit significand away (two units below a power of two).
      const int exponent = x == 0 ? -24 : std::ilogb(x) - 10;
      return x + (toward > x ? 1 : -1) * std::ldexp(1.0, std::max(exponent, -24));
    }
  };
  SECTION("bins 1/16 wide over [-8, 8): every edge and every midpoint land in the exact bin")
  {
    std::vector<T> samples;
    std::vector<std::uint64_t> expected(256, 0);
    for (int k = 0; k <= 256; ++k)
    {
      samples.push_back(as_t(-8.0 + k / 16.0));
      if (k < 256)
      {
        samples.push_back(as_t(-8.0 + (k + 0.5) / 16.0));
        expected[std::size_t(k)] += 2;
      }
    }
    for (const double x : {nan, inf, -inf, -8.5, 8.0, 100.0})
    {
      samples.push_back(as_t(x));
    }
    const device_buffer<T> d_samples(samples);
    device_buffer<int> d_histogram(256);
    d_histogram.poison();
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, static_cast<const T*>(d_samples.data()),
                                                        d_histogram.data(), 257, as_t(-8.0), as_t(8.0),
                                                        static_cast<int>(samples.size()));
        });
    strata_test::check_histogram(expected, d_histogram);
  }
  SECTION("7 bins over [0, 10): edges and their neighbours one unit apart, -0, the last value below 10")
  {
    std::vector<double> values = {-0.0, beside(0.0, -1.0), beside(10.0, -1.0), 10.0, nan, inf, -inf};
    for (int k = 0; k <= 7; ++k)
    {
      const double edge = strata_test::to_double(as_t(10.0 * k / 7.0));
      for (const double x : {beside(edge, -1.0), edge, beside(edge, 100.0)})
      {
        values.push_back(x);
      }
    }
    std::vector<T> samples;
    for (const double x : values)
    {
      samples.push_back(as_t(x));
    }
    const device_buffer<T> d_samples(samples);
    device_buffer<int> d_histogram(7);
    for (std::size_t i = 0; i < samples.size(); ++i)
    {
      // One sample at a time: its bin may be either neighbour of an edge it is within rounding
      // of, but the last value below 10 is in the last bin and -0 in the first.
      const double x = strata_test::to_double(samples[i]);
      INFO("sample " << x);
      d_histogram.poison();
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceHistogram::HistogramEven(d_temp, bytes, static_cast<const T*>(d_samples.data()) + i,
                                                          d_histogram.data(), 8, as_t(0.0), as_t(10.0), 1);
          });
      const std::vector<int> counts = d_histogram.download();
      int bin                       = -1;
      int total                     = 0;
      for (int b = 0; b < 7; ++b)
      {
        CHECK((counts[std::size_t(b)] == 0 || counts[std::size_t(b)] == 1));
        total += counts[std::size_t(b)];
        bin = counts[std::size_t(b)] == 1 ? b : bin;
      }
      const double exact = exact_bin(x, 0.0, 10.0, 7);
      CHECK(total == (exact >= 0 ? 1 : 0));
      if (exact >= 0)
      {
        CHECK(std::abs(bin - exact) <= 1);
      }
    }
    // All together: exactly the bins of the documented formula.
    check_even(samples, as_t(0.0), as_t(10.0), 7);
  }
}

TEST_CASE("HistogramEven with every sample in one bin or outside", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::size_t n = strata_test::histogram_sizes().back();
  INFO(n << " samples");
  device_buffer<std::uint8_t> d_bytes(n);
  device_buffer<float> d_floats(n);
  const auto run = [&](auto d_samples, auto* d_histogram, int bins, auto lower, auto upper)
  {
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, d_histogram, bins + 1, lower, upper,
                                                        static_cast<std::int64_t>(n));
        });
  };
  SECTION("uint8 samples all 200: one bin holds all of them (32-bit unsigned counters)")
  {
    STRATA_TEST_CUDA(cudaMemset(d_bytes.data(), 200, n));
    for (const int bins : strata_test::histogram_bin_counts<strata_test::histogram_policy_t<std::uint8_t, unsigned>>())
    {
      INFO(bins << " bins over [0, 256)");
      device_buffer<unsigned> d_histogram(static_cast<std::size_t>(bins));
      d_histogram.poison();
      run(static_cast<const std::uint8_t*>(d_bytes.data()), d_histogram.data(), bins, 0, 256);
      std::vector<std::uint64_t> expected(static_cast<std::size_t>(bins), 0);
      expected[std::size_t(200 * bins / 256)] = n;
      strata_test::check_histogram(expected, d_histogram);
    }
  }
  SECTION("uint8 samples all 255 over [0, 255) and all 200 over [201, 256): nothing counted")
  {
    for (const int bins : {1, 64, 256, 8193})
    {
      INFO(bins << " bins");
      device_buffer<int> d_histogram(static_cast<std::size_t>(bins));
      const std::vector<std::uint64_t> zeros(static_cast<std::size_t>(bins), 0);
      STRATA_TEST_CUDA(cudaMemset(d_bytes.data(), 255, n));
      d_histogram.poison();
      run(static_cast<const std::uint8_t*>(d_bytes.data()), d_histogram.data(), bins, 0, 255);
      strata_test::check_histogram(zeros, d_histogram);
      STRATA_TEST_CUDA(cudaMemset(d_bytes.data(), 200, n));
      d_histogram.poison();
      run(static_cast<const std::uint8_t*>(d_bytes.data()), d_histogram.data(), bins, 201, 256);
      strata_test::check_histogram(zeros, d_histogram);
    }
  }
  SECTION("float samples all 1.5 into one bin of [-8, 8), and all NaN into none")
  {
    d_floats.upload(std::vector<float>(n, 1.5f));
    for (const int bins : {1, 32, 64, 65, 4096, 8193})
    {
      INFO(bins << " bins");
      device_buffer<unsigned> d_histogram(static_cast<std::size_t>(bins));
      d_histogram.poison();
      run(static_cast<const float*>(d_floats.data()), d_histogram.data(), bins, -8.0f, 8.0f);
      std::vector<std::uint64_t> expected(static_cast<std::size_t>(bins), 0);
      expected[std::size_t(strata_test::even_reference<float, float>(-8.0f, 8.0f, bins + 1)(1.5f))] = n;
      strata_test::check_histogram(expected, d_histogram);
    }
    d_floats.upload(std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()));
    device_buffer<unsigned> d_histogram(64);
    d_histogram.poison();
    run(static_cast<const float*>(d_floats.data()), d_histogram.data(), 64, -8.0f, 8.0f);
    strata_test::check_histogram(std::vector<std::uint64_t>(64, 0), d_histogram);
  }
}

TEST_CASE("2-D HistogramEven reads each row's samples and none of its padding", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1203);
  INFO("seed " << seed);
  SECTION("float samples: 37 rows of 1003 samples, 1032 apart; the padding holds the lower level (bin 0)")
  {
    strata_test::check_rows<float, int>(
        strata_test::padded_rows<float>(1003, 37, 1032, -90.5f, seed), 1003, 37, 1032, {1, 64, 300, 8193},
        [](int bins)
        {
          const auto call = [bins](void* d_temp, std::size_t& bytes, const float* d_samples, int* d_histogram,
                                   std::int64_t row_samples, std::int64_t rows, std::size_t stride_bytes)
          {
            return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, d_histogram, bins + 1, -90.5f,
                                                          95.25f, int(row_samples), int(rows), stride_bytes);
          };
          return std::make_pair(strata_test::even_reference<float, float>(-90.5f, 95.25f, bins + 1), call);
        });
  }
  SECTION("uint16 samples: 4001 rows of 5 samples, 8 apart (more tiles than blocks: each block takes several)")
  {
    // The padding, 40000, lies inside [4095, 63488).
    strata_test::check_rows<std::uint16_t, unsigned>(
        strata_test::padded_rows<std::uint16_t>(5, 4001, 8, 40000, seed), 5, 4001, 8, {1, 64, 65, 4096, 65536},
        [](int bins)
        {
          const auto call = [bins](void* d_temp, std::size_t& bytes, const std::uint16_t* d_samples,
                                   unsigned* d_histogram, std::int64_t row_samples, std::int64_t rows,
                                   std::size_t stride_bytes)
          {
            return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, d_histogram, bins + 1, 4095, 63488,
                                                          row_samples, rows, stride_bytes);
          };
          return std::make_pair(strata_test::even_reference<std::uint16_t, int>(4095, 63488, bins + 1), call);
        });
  }
}

TEST_CASE("MultiHistogramEven<4, 3> of RGBA pixels counts R, G and B in 256 bins each and never A",
          "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1205);
  INFO("seed " << seed);
  // B's levels are [16, 240), R's and G's [0, 256).
  const cuda::std::array<int, 3> num_levels = {257, 257, 257};
  const cuda::std::array<int, 3> lower      = {0, 0, 16};
  const cuda::std::array<int, 3> upper      = {256, 256, 240};
  std::vector<strata_test::even_reference<std::uint8_t, int>> references;
  for (int c = 0; c < 3; ++c)
  {
    references.emplace_back(lower[c], upper[c], num_levels[c]);
  }
  strata_test::check_rgba(
      seed, references,
      [&](void* d_temp, std::size_t& bytes, const std::uint8_t* d_samples, cuda::std::array<int*, 3> histograms,
          bool c_arrays, std::size_t row_pixels, std::size_t rows, std::size_t stride) -> cudaError_t
      {
        using strata::DeviceHistogram;
        if (!c_arrays)
        {
          return rows == 0
                     ? DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, bytes, d_samples, histograms, num_levels,
                                                                 lower, upper, int(row_pixels))
                     : DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, bytes, d_samples, histograms, num_levels,
                                                                 lower, upper, int(row_pixels), int(rows), stride);
        }
        int* histograms_c[3]  = {histograms[0], histograms[1], histograms[2]};
        const int levels_c[3] = {num_levels[0], num_levels[1], num_levels[2]};
        const int lower_c[3]  = {lower[0], lower[1], lower[2]};
        const int upper_c[3]  = {upper[0], upper[1], upper[2]};
        return rows == 0
                   ? DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, bytes, d_samples, histograms_c, levels_c,
                                                               lower_c, upper_c, std::int64_t(row_pixels))
                   : DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, bytes, d_samples, histograms_c, levels_c,
                                                               lower_c, upper_c, int(row_pixels), int(rows), stride);
      });
}

namespace
{
//! MultiHistogramEven<CHANNELS, ACTIVE> of random uint16 pixels with `bins` bins per active channel
//! (channel c over [1000 c, 65536 - 999 c)), 1-D, against the reference.
template <int CHANNELS, int ACTIVE>
void check_multi_even(const cuda::std::array<int, ACTIVE>& bins, std::size_t pixels, std::uint64_t seed)
{
  strata_test::check_multi_channel<CHANNELS, ACTIVE>(
      bins, pixels, seed,
      [](const cuda::std::array<int, ACTIVE>& num_levels)
      {
        cuda::std::array<int, ACTIVE> lower{};
        cuda::std::array<int, ACTIVE> upper{};
        std::vector<strata_test::even_reference<std::uint16_t, int>> references;
        for (int c = 0; c < ACTIVE; ++c)
        {
          lower[c] = 1000 * c;
          upper[c] = 65536 - 999 * c;
          references.emplace_back(lower[c], upper[c], num_levels[c]);
        }
        const auto call = [lower, upper](void* d_temp, std::size_t& bytes, const std::uint16_t* d_samples,
                                         cuda::std::array<unsigned*, ACTIVE> histograms,
                                         cuda::std::array<int, ACTIVE> levels, int n)
        {
          return strata::DeviceHistogram::MultiHistogramEven<CHANNELS, ACTIVE>(d_temp, bytes, d_samples, histograms,
                                                                               levels, lower, upper, n);
        };
        return std::make_pair(references, call);
      });
}
} // namespace

TEST_CASE("MultiHistogramEven with the channels' bins adding up to both sides of the policy's limits",
          "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1207);
  INFO("seed " << seed);
  strata_test::for_each_channel_limit(
      seed, [](auto channels, auto active, const auto& bins, std::size_t n, std::uint64_t s)
      { check_multi_even<decltype(channels)::value, decltype(active)::value>(bins, n, s); });
}

TEST_CASE("HistogramEven and MultiHistogramEven read samples off 16-byte boundaries and rows of every alignment",
          "[device][histogram]")
{
  // Pointers whose pixels pack into 16-byte vectors take the head pixels before the first boundary
  // one at a time; rows that start on no whole pixel take every pixel one at a time.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1211);
  INFO("seed " << seed);
  const std::size_t n = 300007;
  SECTION("uint8 samples 1, 3, 8 and 15 bytes past a boundary: one bin, bins by shift, by multiply")
  {
    const std::vector<std::uint8_t> samples = strata_test::histogram_samples<std::uint8_t>(n + 16, seed);
    const device_buffer<std::uint8_t> d_samples(samples);
    for (const std::size_t offset : {std::size_t(1), std::size_t(3), std::size_t(8), std::size_t(15)})
    {
      for (const int bins : {1, 32, 100, 256})
      {
        INFO(offset << " bytes past, " << bins << " bins");
        device_buffer<int> d_histogram(static_cast<std::size_t>(bins));
        d_histogram.poison();
        strata_test::run_histogram(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples.data() + offset,
                                                            d_histogram.data(), bins + 1, 0, 256, int(n));
            });
        const std::vector<std::uint8_t> shifted(samples.begin() + std::ptrdiff_t(offset),
                                                samples.begin() + std::ptrdiff_t(offset + n));
        const strata_test::even_reference<std::uint8_t, int> reference(0, 256, bins + 1);
        strata_test::check_histogram(strata_test::reference_channel_histogram<1>(shifted, 0, n, 1, n, reference),
                                     d_histogram);
      }
    }
  }
  SECTION("uint32 samples 4, 8 and 12 bytes past a boundary: bins by multiply, by shift, one bin")
  {
    const std::vector<std::uint32_t> samples = strata_test::histogram_samples<std::uint32_t>(n + 4, seed);
    const device_buffer<std::uint32_t> d_samples(samples);
    struct levels_t
    {
      std::uint32_t lower;
      std::uint32_t upper;
      int bins;
    };
    for (const std::size_t offset : {std::size_t(1), std::size_t(2), std::size_t(3)})
    {
      for (const levels_t levels : {levels_t{0u, 0xFFFFFFFFu, 256}, levels_t{0u, 1u << 31, 64},
                                    levels_t{12345u, 3000012345u, 777}, levels_t{5u, 1000005u, 1}})
      {
        INFO(offset << " samples past, " << levels.bins << " bins over [" << levels.lower << ", " << levels.upper
                    << ")");
        device_buffer<unsigned> d_histogram(static_cast<std::size_t>(levels.bins));
        d_histogram.poison();
        strata_test::run_histogram(
            [&](void* d_temp, std::size_t& bytes)
            {
              return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples.data() + offset,
                                                            d_histogram.data(), levels.bins + 1, levels.lower,
                                                            levels.upper, int(n));
            });
        const std::vector<std::uint32_t> shifted(samples.begin() + std::ptrdiff_t(offset),
                                                 samples.begin() + std::ptrdiff_t(offset + n));
        const strata_test::even_reference<std::uint32_t, std::uint32_t> reference(levels.lower, levels.upper,
                                                                                  levels.bins + 1);
        strata_test::check_histogram(strata_test::reference_channel_histogram<1>(shifted, 0, n, 1, n, reference),
                                     d_histogram);
      }
    }
  }
  SECTION("RGBA rows of 1001 pixels from 4 bytes past a boundary, 4012 bytes apart (rows start at every "
          "alignment) and 4010 apart (on no whole pixel)")
  {
    const std::size_t row_pixels = 1001;
    const std::size_t rows       = 67;
    for (const std::size_t stride : {std::size_t(4012), std::size_t(4010)})
    {
      INFO("rows " << stride << " bytes apart");
      const std::vector<std::uint8_t> image = strata_test::histogram_samples<std::uint8_t>(rows * stride + 4, seed);
      const device_buffer<std::uint8_t> d_image(image);
      device_buffer<int> d_r(256);
      device_buffer<int> d_g(256);
      device_buffer<int> d_b(256);
      d_r.poison();
      d_g.poison();
      d_b.poison();
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceHistogram::MultiHistogramEven<4, 3>(
                d_temp, bytes, d_image.data() + 4, cuda::std::array<int*, 3>{d_r.data(), d_g.data(), d_b.data()},
                cuda::std::array<int, 3>{257, 257, 257}, cuda::std::array<int, 3>{0, 0, 0},
                cuda::std::array<int, 3>{256, 256, 256}, int(row_pixels), int(rows), stride);
          });
      const std::vector<std::uint8_t> shifted(image.begin() + 4, image.end());
      const strata_test::even_reference<std::uint8_t, int> reference(0, 256, 257);
      const device_buffer<int>* outputs[3] = {&d_r, &d_g, &d_b};
      for (int c = 0; c < 3; ++c)
      {
        INFO("channel " << c);
        strata_test::check_histogram(
            strata_test::reference_channel_histogram<4>(shifted, c, row_pixels, rows, stride, reference), *outputs[c]);
      }
    }
  }
}

TEST_CASE("HistogramEven of iterator inputs", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1209);
  INFO("seed " << seed);
  const std::size_t n       = (std::size_t(1) << 20) + 7;
  const std::vector<int> in = strata_test::random_vector<int>(n, seed, -500.0, 500.0);
  const device_buffer<int> d_in(in);
  SECTION("floats made by a TransformInputIterator (x / 4), 1-D")
  {
    const strata::TransformInputIterator<float, quarter, const int*> samples(d_in.data(), quarter{});
    std::vector<float> host(n);
    std::transform(in.begin(), in.end(), host.begin(), quarter{});
    for (const int bins : {7, 64, 300, 8193})
    {
      INFO(bins << " bins");
      device_buffer<int> d_histogram(static_cast<std::size_t>(bins));
      d_histogram.poison();
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceHistogram::HistogramEven(d_temp, bytes, samples, d_histogram.data(), bins + 1, -100.0f,
                                                          100.0f, static_cast<int>(n));
          });
      const strata_test::even_reference<float, float> reference(-100.0f, 100.0f, bins + 1);
      strata_test::check_histogram(strata_test::reference_prefix_histograms(host, {n}, reference)[0], d_histogram);
    }
  }
  SECTION("bytes made by a TransformInputIterator (the low byte), 2-D: the stride counts the iterator's 1-byte "
          "samples")
  {
    const strata::TransformInputIterator<std::uint8_t, low_byte, const int*> samples(d_in.data(), low_byte{});
    std::vector<std::uint8_t> host(n);
    std::transform(in.begin(), in.end(), host.begin(), low_byte{});
    const std::size_t row_samples = 1000;
    const std::size_t stride      = 1021;
    const std::size_t rows        = n / stride;
    device_buffer<int> d_histogram(256);
    d_histogram.poison();
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, samples, d_histogram.data(), 257, 0, 256,
                                                        static_cast<int>(row_samples), static_cast<int>(rows),
                                                        stride * sizeof(std::uint8_t));
        });
    const strata_test::even_reference<std::uint8_t, int> reference(0, 256, 257);
    strata_test::check_histogram(
        strata_test::reference_channel_histogram<1>(host, 0, row_samples, rows, stride, reference), d_histogram);
  }
  SECTION("int64 samples 0, 1, ... from a CountingInputIterator, a size_t count")
  {
    const strata::CountingInputIterator<std::int64_t> samples(0);
    for (const int bins : {3, 64, 1000, 65536})
    {
      INFO(bins << " bins");
      device_buffer<unsigned long long> d_histogram(static_cast<std::size_t>(bins));
      d_histogram.poison();
      const std::int64_t lower = 17;
      const std::int64_t upper = std::int64_t(n) - 5;
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceHistogram::HistogramEven(d_temp, bytes, samples, d_histogram.data(), bins + 1, lower,
                                                          upper, n);
          });
      const strata_test::even_reference<std::int64_t, std::int64_t> reference(lower, upper, bins + 1);
      std::vector<std::uint64_t> expected(static_cast<std::size_t>(bins), 0);
      for (std::int64_t x = 0; x < std::int64_t(n); ++x)
      {
        const int bin = reference(x);
        if (bin >= 0)
        {
          ++expected[std::size_t(bin)];
        }
      }
      strata_test::check_histogram(expected, d_histogram);
    }
  }
}

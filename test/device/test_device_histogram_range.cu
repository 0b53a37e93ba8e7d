// Tests of strata/device/device_histogram.cuh, part 2: HistogramRange and MultiHistogramRange (bin
// i between levels i and i + 1, found by binary search). Every sample type (uint8 to int64, float,
// double, __half) with representative level and counter types at bin counts on both sides of the
// policy's warp-aggregation and shared-memory limits and at 0, 1, 2^20 + 7 and 2^24 + 13 samples,
// with random non-decreasing levels (equal neighbours make empty bins); integer samples on, below
// and above every level (levels outside the sample type's range too, and at the ends of int64);
// floating-point samples on and one ulp beside every level, NaN, infinities and infinite levels;
// 2-D inputs whose row padding holds samples that would count; RGBA pixels with three active
// channels of different levels (the fourth must not count), in both the std::array and the
// C-array forms; channels whose bins add up to just below and above the limits; and iterator
// inputs. Outputs are poisoned first and compared in full with the host reference of
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
#include <memory>
#include <tuple>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::histogram_types;
using strata_test::low_byte;
using strata_test::quarter;

using range_types =
    std::tuple<histogram_types<std::uint8_t, int, int>, histogram_types<std::uint8_t, std::uint8_t, unsigned>,
               histogram_types<std::uint8_t, float, float>, histogram_types<std::uint16_t, int, unsigned>,
               histogram_types<std::int8_t, int, int>, histogram_types<std::int16_t, std::int16_t, unsigned long long>,
               histogram_types<std::int32_t, std::int32_t, int>, histogram_types<std::int32_t, double, long long>,
               histogram_types<std::uint32_t, std::uint32_t, unsigned>,
               histogram_types<std::int64_t, std::int64_t, unsigned long long>, histogram_types<float, float, int>,
               histogram_types<float, int, unsigned>, histogram_types<double, double, unsigned long long>,
               histogram_types<__half, __half, int>, histogram_types<__half, float, unsigned>>;

//! HistogramRange of every sample of `samples` into the bins between `levels`, against the host
//! reference.
template <typename SampleT, typename LevelT, typename CounterT = int>
void check_range(const std::vector<SampleT>& samples, const std::vector<LevelT>& levels)
{
  INFO(levels.size() << " levels, " << samples.size() << " samples");
  const int bins = static_cast<int>(levels.size()) - 1;
  const device_buffer<SampleT> d_samples(samples);
  const device_buffer<LevelT> d_levels(levels);
  device_buffer<CounterT> d_histogram(static_cast<std::size_t>(bins));
  d_histogram.poison();
  strata_test::run_histogram(
      [&](void* d_temp, std::size_t& bytes)
      {
        return strata::DeviceHistogram::HistogramRange(
            d_temp, bytes, static_cast<const SampleT*>(d_samples.data()), d_histogram.data(), bins + 1,
            static_cast<const LevelT*>(d_levels.data()), static_cast<int>(samples.size()));
      });
  const strata_test::range_reference<SampleT, LevelT> reference(levels);
  strata_test::check_histogram(strata_test::reference_prefix_histograms(samples, {samples.size()}, reference)[0],
                               d_histogram);
}

//! Every integer on, one below and one above every level (those of SampleT's range). Each is
//! CHECKed to be where the definition puts it: a sample equal to a level in the last bin that
//! level starts, none at or above the last level or below the first.
template <typename SampleT, typename LevelT>
std::vector<SampleT> samples_around_levels(const std::vector<LevelT>& levels)
{
  const strata_test::range_reference<SampleT, LevelT> reference(levels);
  const int bins = static_cast<int>(levels.size()) - 1;
  std::vector<SampleT> samples;
  for (const LevelT& level : levels)
  {
    for (const int d : {-1, 0, 1})
    {
      const __int128 x = __int128(level) + d;
      if (x >= __int128(std::numeric_limits<SampleT>::lowest()) && x <= __int128(std::numeric_limits<SampleT>::max()))
      {
        samples.push_back(static_cast<SampleT>(x));
        int bin = -1;
        for (int i = 0; i < bins; ++i)
        {
          bin = __int128(levels[std::size_t(i)]) <= x && x < __int128(levels.back()) ? i : bin;
        }
        CHECK(reference(static_cast<SampleT>(x)) == bin);
      }
    }
  }
  return samples;
}

} // namespace

TEMPLATE_LIST_TEST_CASE("HistogramRange counts every sample type like the host reference at every bin count and size",
                        "[device][histogram]", range_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using SampleT            = typename TestType::sample_t;
  using LevelT             = typename TestType::level_t;
  using CounterT           = typename TestType::counter_t;
  const std::uint64_t seed = strata_test::seed(1301);
  INFO("seed " << seed);
  strata_test::check_every_bin_count_and_size<SampleT, CounterT>(
      seed,
      [seed](int bins)
      {
        const std::vector<LevelT> levels =
            strata_test::random_levels<SampleT, LevelT>(bins + 1, seed + std::uint64_t(bins));
        // The call owns the device copy of the levels.
        auto call = [d_levels = std::make_shared<const device_buffer<LevelT>>(levels),
                     bins](void* d_temp, std::size_t& bytes, const SampleT* d_samples, CounterT* d_histogram, int n)
        {
          return strata::DeviceHistogram::HistogramRange(d_temp, bytes, d_samples, d_histogram, bins + 1,
                                                         static_cast<const LevelT*>(d_levels->data()), n);
        };
        return std::make_pair(strata_test::range_reference<SampleT, LevelT>(levels), call);
      });
}

TEST_CASE("HistogramRange puts integer samples on a level into the bin it starts", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  SECTION("every uint8 value, uint8 levels and int levels beyond the samples' range")
  {
    std::vector<std::uint8_t> all(256);
    for (int i = 0; i < 256; ++i)
    {
      all[std::size_t(i)] = std::uint8_t(i);
    }
    check_range(all, std::vector<std::uint8_t>{0, 1, 2, 3, 10, 100, 100, 200, 254, 255});
    check_range(all, std::vector<int>{-5, 0, 128, 256, 300});
    check_range(all, std::vector<int>{-300, -5});
    check_range(all, std::vector<int>{7, 8});
  }
  SECTION("int16 and int32 samples on, below and above levels (equal neighbours among them)")
  {
    const std::vector<std::int16_t> levels16 = {-1000, -999, -500, 0, 1, 2, 700, 700, 701, 1336};
    check_range(samples_around_levels<std::int16_t>(levels16), levels16);
    const std::vector<std::int32_t> levels32 = {std::numeric_limits<std::int32_t>::lowest(), -70000, 0, 0, 0, 1, 65536,
                                                std::numeric_limits<std::int32_t>::max()};
    check_range(samples_around_levels<std::int32_t>(levels32), levels32);
  }
  SECTION("int64 levels at the ends of the int64 range and around +-2^62")
  {
    const std::vector<std::int64_t> levels = {std::numeric_limits<std::int64_t>::lowest(), -(std::int64_t(1) << 62), -1,
                                              (std::int64_t(1) << 62) + 12345,
                                              std::numeric_limits<std::int64_t>::max()};
    check_range<std::int64_t, std::int64_t, unsigned long long>(samples_around_levels<std::int64_t>(levels), levels);
  }
}

TEMPLATE_TEST_CASE("HistogramRange of floating-point samples on and beside the levels, NaN and infinities",
                   "[device][histogram]", float, double, __half)
{
  STRATA_TEST_REQUIRE_GPU();
  using T          = TestType;
  const double inf = std::numeric_limits<double>::infinity();
  const auto as_t  = [](double x) { return strata_test::from_double<T>(x); };
  // The neighbours of a value of T: a unit of its significand away (for __half two units below a
  // power of two).
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
      const int exponent = x == 0 ? -24 : std::ilogb(x) - 10;
      return x + (toward > x ? 1 : -1) * std::ldexp(1.0, std::max(exponent, -24));
    }
  };
  const auto samples_around = [&](const std::vector<double>& levels)
  {
    std::vector<T> samples = {as_t(std::numeric_limits<double>::quiet_NaN()), as_t(inf), as_t(-inf), as_t(-0.0)};
    for (const double value : levels)
    {
      const double level = strata_test::to_double(as_t(value)); // the level as T holds it
      if (std::isfinite(level))
      {
        for (const double x : {beside(level, -inf), level, beside(level, inf)})
        {
          samples.push_back(as_t(x));
        }
      }
    }
    return samples;
  };
  const auto levels_of = [&](const std::vector<double>& values)
  {
    std::vector<T> levels;
    for (const double x : values)
    {
      levels.push_back(as_t(x));
    }
    return levels;
  };
  SECTION("finite levels with equal neighbours")
  {
    const std::vector<double> levels = {-8.0, -1.5, -1.5, 0.0, 0.1, 1.0 / 3.0, 7.75, 8.0};
    check_range(samples_around(levels), levels_of(levels));
  }
  SECTION("infinite first and last levels: -inf counts, +inf does not")
  {
    const std::vector<double> levels = {-inf, -2.0, 0.0, 2.5, inf};
    check_range(samples_around(levels), levels_of(levels));
  }
  SECTION("one bin, and float levels for T samples")
  {
    const std::vector<double> levels = {-0.0, 1.0};
    check_range(samples_around(levels), levels_of(levels));
    check_range(samples_around({-0.5, 0.25, 3.0}), std::vector<float>{-0.5f, 0.25f, 3.0f});
  }
}

TEST_CASE("2-D HistogramRange reads each row's samples and none of its padding", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1303);
  INFO("seed " << seed);
  SECTION("float samples: 37 rows of 1003 samples, 1032 apart; the padding holds the first level")
  {
    strata_test::check_rows<float, int>(
        strata_test::padded_rows<float>(1003, 37, 1032, -90.5f, seed), 1003, 37, 1032, {1, 64, 300, 8193},
        [seed](int bins)
        {
          const std::vector<float> levels =
              strata_test::random_levels<float, float>(bins + 1, seed + std::uint64_t(bins));
          // The call owns the device copy of the levels.
          const auto call = [bins, d_levels = std::make_shared<const device_buffer<float>>(levels)](
                                void* d_temp, std::size_t& bytes, const float* d_samples, int* d_histogram,
                                std::int64_t row_samples, std::int64_t rows, std::size_t stride_bytes)
          {
            return strata::DeviceHistogram::HistogramRange(d_temp, bytes, d_samples, d_histogram, bins + 1,
                                                           static_cast<const float*>(d_levels->data()),
                                                           int(row_samples), int(rows), stride_bytes);
          };
          return std::make_pair(strata_test::range_reference<float, float>(levels), call);
        });
  }
  SECTION("uint16 samples: 4001 rows of 5 samples, 8 apart (more tiles than blocks: each block takes several)")
  {
    // The padding, 40000, lies inside [4095, 63488].
    strata_test::check_rows<std::uint16_t, unsigned>(
        strata_test::padded_rows<std::uint16_t>(5, 4001, 8, 40000, seed), 5, 4001, 8, {1, 64, 65, 4096, 65536},
        [seed](int bins)
        {
          const std::vector<int> levels =
              strata_test::random_levels<std::uint16_t, int>(bins + 1, seed + std::uint64_t(bins));
          const auto call = [bins, d_levels = std::make_shared<const device_buffer<int>>(levels)](
                                void* d_temp, std::size_t& bytes, const std::uint16_t* d_samples, unsigned* d_histogram,
                                std::int64_t row_samples, std::int64_t rows, std::size_t stride_bytes)
          {
            return strata::DeviceHistogram::HistogramRange(d_temp, bytes, d_samples, d_histogram, bins + 1,
                                                           static_cast<const int*>(d_levels->data()), row_samples, rows,
                                                           stride_bytes);
          };
          return std::make_pair(strata_test::range_reference<std::uint16_t, int>(levels), call);
        });
  }
}

TEST_CASE("MultiHistogramRange<4, 3> of RGBA pixels counts R, G and B between their own levels and never A",
          "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1305);
  INFO("seed " << seed);
  // R's 257 levels are 0 to 256, G's random in [0, 256], B's 16 + 7 i / 8 (bins of 0 or 1 value).
  std::vector<std::vector<int>> levels(3, std::vector<int>(257));
  strata_test::generator<int> value(seed + 1);
  for (int i = 0; i <= 256; ++i)
  {
    levels[0][std::size_t(i)] = i;
    levels[1][std::size_t(i)] = value(0, 256);
    levels[2][std::size_t(i)] = 16 + 7 * i / 8;
  }
  std::sort(levels[1].begin(), levels[1].end());
  const device_buffer<int> d_levels_r(levels[0]);
  const device_buffer<int> d_levels_g(levels[1]);
  const device_buffer<int> d_levels_b(levels[2]);
  const cuda::std::array<const int*, 3> d_levels = {d_levels_r.data(), d_levels_g.data(), d_levels_b.data()};
  const cuda::std::array<int, 3> num_levels      = {257, 257, 257};
  std::vector<strata_test::range_reference<std::uint8_t, int>> references;
  for (int c = 0; c < 3; ++c)
  {
    references.emplace_back(levels[std::size_t(c)]);
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
                     ? DeviceHistogram::MultiHistogramRange<4, 3>(d_temp, bytes, d_samples, histograms, num_levels,
                                                                  d_levels, int(row_pixels))
                     : DeviceHistogram::MultiHistogramRange<4, 3>(d_temp, bytes, d_samples, histograms, num_levels,
                                                                  d_levels, int(row_pixels), int(rows), stride);
        }
        int* histograms_c[3]           = {histograms[0], histograms[1], histograms[2]};
        const int levels_c[3]          = {257, 257, 257};
        const int* const d_levels_c[3] = {d_levels[0], d_levels[1], d_levels[2]};
        return rows == 0 ? DeviceHistogram::MultiHistogramRange<4, 3>(d_temp, bytes, d_samples, histograms_c, levels_c,
                                                                      d_levels_c, std::int64_t(row_pixels))
                         : DeviceHistogram::MultiHistogramRange<4, 3>(d_temp, bytes, d_samples, histograms_c, levels_c,
                                                                      d_levels_c, int(row_pixels), int(rows), stride);
      });
}

namespace
{
//! MultiHistogramRange<CHANNELS, ACTIVE> of random uint16 pixels with `bins` bins per active
//! channel (random levels each), 1-D, against the reference.
template <int CHANNELS, int ACTIVE>
void check_multi_range(const cuda::std::array<int, ACTIVE>& bins, std::size_t pixels, std::uint64_t seed)
{
  strata_test::check_multi_channel<CHANNELS, ACTIVE>(
      bins, pixels, seed,
      [seed](const cuda::std::array<int, ACTIVE>& num_levels)
      {
        // The call owns the device copies of the levels.
        auto d_levels = std::make_shared<std::vector<device_buffer<int>>>();
        std::vector<strata_test::range_reference<std::uint16_t, int>> references;
        cuda::std::array<const int*, ACTIVE> levels{};
        for (int c = 0; c < ACTIVE; ++c)
        {
          const std::vector<int> channel_levels =
              strata_test::random_levels<std::uint16_t, int>(num_levels[c], seed + 1 + std::uint64_t(c));
          references.emplace_back(channel_levels);
          d_levels->emplace_back(channel_levels);
          levels[c] = d_levels->back().data();
        }
        const auto call = [d_levels, levels](void* d_temp, std::size_t& bytes, const std::uint16_t* d_samples,
                                             cuda::std::array<unsigned*, ACTIVE> histograms,
                                             cuda::std::array<int, ACTIVE> counts, int n)
        {
          return strata::DeviceHistogram::MultiHistogramRange<CHANNELS, ACTIVE>(d_temp, bytes, d_samples, histograms,
                                                                                counts, levels, n);
        };
        return std::make_pair(references, call);
      });
}
} // namespace

TEST_CASE("MultiHistogramRange with the channels' bins adding up to both sides of the policy's limits",
          "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1307);
  INFO("seed " << seed);
  strata_test::for_each_channel_limit(
      seed, [](auto channels, auto active, const auto& bins, std::size_t n, std::uint64_t s)
      { check_multi_range<decltype(channels)::value, decltype(active)::value>(bins, n, s); });
}

TEST_CASE("HistogramRange of iterator inputs", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1309);
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
      const std::vector<float> levels = strata_test::random_levels<float, float>(bins + 1, seed + std::uint64_t(bins));
      const device_buffer<float> d_levels(levels);
      device_buffer<int> d_histogram(static_cast<std::size_t>(bins));
      d_histogram.poison();
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceHistogram::HistogramRange(d_temp, bytes, samples, d_histogram.data(), bins + 1,
                                                           static_cast<const float*>(d_levels.data()),
                                                           static_cast<int>(n));
          });
      const strata_test::range_reference<float, float> reference(levels);
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
    const std::vector<int> levels = {0, 1, 16, 17, 100, 128, 200, 255, 256};
    const device_buffer<int> d_levels(levels);
    device_buffer<int> d_histogram(levels.size() - 1);
    d_histogram.poison();
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramRange(
              d_temp, bytes, samples, d_histogram.data(), static_cast<int>(levels.size()),
              static_cast<const int*>(d_levels.data()), static_cast<int>(row_samples), static_cast<int>(rows),
              stride * sizeof(std::uint8_t));
        });
    const strata_test::range_reference<std::uint8_t, int> reference(levels);
    strata_test::check_histogram(
        strata_test::reference_channel_histogram<1>(host, 0, row_samples, rows, stride, reference), d_histogram);
  }
  SECTION("int64 samples 0, 1, ... from a CountingInputIterator, a size_t count")
  {
    const strata::CountingInputIterator<std::int64_t> samples(0);
    for (const int bins : {3, 64, 1000, 65536})
    {
      INFO(bins << " bins");
      std::vector<std::int64_t> levels(static_cast<std::size_t>(bins) + 1);
      for (std::size_t i = 0; i < levels.size(); ++i)
      {
        levels[i] = 17 + std::int64_t(i * i % (n - 20)); // not monotonic: sorted below
      }
      std::sort(levels.begin(), levels.end());
      const device_buffer<std::int64_t> d_levels(levels);
      device_buffer<unsigned long long> d_histogram(static_cast<std::size_t>(bins));
      d_histogram.poison();
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceHistogram::HistogramRange(d_temp, bytes, samples, d_histogram.data(), bins + 1,
                                                           static_cast<const std::int64_t*>(d_levels.data()), n);
          });
      const strata_test::range_reference<std::int64_t, std::int64_t> reference(levels);
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

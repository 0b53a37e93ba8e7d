// Tests of strata/device/device_histogram.cuh, part 4: counts of more than 2^31 samples ([slow]),
// where offsets need 64 bits. HistogramEven of 2^31 + 2^20 + 3 uint16 samples made by an iterator
// from a counter (one bin of 32-bit unsigned counters, 256 bins, 65536 bins of 64-bit counters);
// and all four functions over 2^32 + 2^22 + 12 uint8 samples in device memory (the vector loads),
// 4 GiB: 1-D with an int64 sample count and with an int pixel count of four-channel pixels
// (sample positions past 2^32 from a count an int holds), 2-D with rows past 2^32, rows of
// misaligned pixels, and rows more than 2^31 and 2^32 bytes apart (int counts, a size_t stride
// that an int does not hold: DeviceHistogram once cut it to the count type). The samples
// encode which 2^31-sample band they lie in, so that a position cut to 31 or 32 bits counts in
// other bins. The same checks run at 2^21 + 2^11 + 12 samples in bands of 2^20 (not [slow]: their
// host references and the calls run under the sanitizers too).
#include <strata/device/device_histogram.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include <cuda/std/array>

#include "common/test_common.cuh"
#include "device_histogram_checks.cuh"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace
{
using strata_test::device_buffer;

//! The period of the banded samples: a prime (gcd with the channel counts 1 and 4 is 1, so every
//! period of a channel's samples holds each table entry once).
constexpr std::uint64_t band_period = 251;

//! Sample k of the banded inputs: 80 times its band (k >> band_shift: 0, 1 or 2) plus
//! table[k % band_period] (a table of values in [0, 80)).
__global__ void fill_banded(std::uint8_t* out, std::uint64_t n, const std::uint8_t* table, int band_shift)
{
  const std::uint64_t threads = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += threads)
  {
    out[k] = std::uint8_t(80 * (k >> band_shift) + table[k % band_period]);
  }
}

//! The banded samples on the host side.
struct banded_samples
{
  std::vector<std::uint8_t> table;
  int band_shift;

  //! How often each value occurs among the samples first, first + step, ... (count of them):
  //! whole periods of the table within a band, then the rest one at a time.
  std::array<std::uint64_t, 256> value_counts(std::uint64_t first, std::uint64_t count, std::uint64_t step) const
  {
    std::array<std::uint64_t, 256> counts{};
    std::uint64_t j = 0; // samples done
    while (j < count)
    {
      const std::uint64_t k     = first + j * step;
      const std::uint64_t band  = k >> band_shift;
      const std::uint64_t end   = (band + 1) << band_shift; // the band's end
      const std::uint64_t in    = std::min(count - j, (end - k + step - 1) / step);
      const std::uint64_t whole = in / band_period;
      for (const std::uint8_t value : table)
      {
        counts[80 * band + value] += whole;
      }
      for (std::uint64_t t = 0; t < in % band_period; ++t)
      {
        ++counts[80 * band + table[(k + t * step) % band_period]];
      }
      j += in;
    }
    return counts;
  }
};

//! The bins of `counts` (by value) under a host reference (even_reference or range_reference).
template <typename ReferenceT>
std::vector<std::uint64_t> bin_counts(const std::array<std::uint64_t, 256>& counts, const ReferenceT& reference)
{
  std::vector<std::uint64_t> bins(std::size_t(reference.bins()), 0);
  for (int value = 0; value < 256; ++value)
  {
    const int bin = reference(std::uint8_t(value));
    if (bin >= 0)
    {
      bins[std::size_t(bin)] += counts[std::size_t(value)];
    }
  }
  return bins;
}

//! `count` levels for Range: 0, 80, 160 and 240 (the bands' edges) and random ones between.
std::vector<int> banded_levels(std::size_t count, std::mt19937_64& engine)
{
  std::vector<int> levels{0, 80, 160, 240};
  std::uniform_int_distribution<int> level(1, 239);
  while (levels.size() < count)
  {
    const int l = level(engine);
    if (std::find(levels.begin(), levels.end(), l) == levels.end())
    {
      levels.push_back(l);
    }
  }
  std::sort(levels.begin(), levels.end());
  return levels;
}

//! Every function over 4 (2^(band_shift - 1) + 2^(band_shift - 11) + 3) banded uint8 samples in
//! device memory (bands 0, 1 and 2), into poisoned int counters, against the host references.
void check_banded(int band_shift, std::uint64_t seed)
{
  const int pixels     = (1 << (band_shift - 1)) + (1 << (band_shift - 11)) + 3;
  const std::int64_t n = 4 * std::int64_t(pixels);
  std::mt19937_64 engine(seed);
  const banded_samples samples{strata_test::random_vector<std::uint8_t>(band_period, seed, 0, 79), band_shift};
  const device_buffer<std::uint8_t> d_table(samples.table);
  device_buffer<std::uint8_t> d_samples(static_cast<std::size_t>(n));
  fill_banded<<<1024, 256>>>(d_samples.data(), std::uint64_t(n), d_table.data(), band_shift);
  strata_test::check_launch();
  const std::uint8_t* in  = d_samples.data();
  const auto value_counts = [&](std::uint64_t first, std::uint64_t count, std::uint64_t step)
  { return samples.value_counts(first, count, step); };
  // The value counts of channel c of `rows` rows of `row_pixels` pixels of `channels` samples,
  // `stride` samples apart.
  const auto rows_counts = [&](int c, std::int64_t row_pixels, std::int64_t rows, std::int64_t stride, int channels)
  {
    std::array<std::uint64_t, 256> counts{};
    for (std::int64_t row = 0; row < rows; ++row)
    {
      const auto row_counts =
          value_counts(std::uint64_t(row * stride + c), std::uint64_t(row_pixels), std::uint64_t(channels));
      std::transform(counts.begin(), counts.end(), row_counts.begin(), counts.begin(), std::plus<>{});
    }
    return counts;
  };
  const auto histogram = [](int bins)
  {
    device_buffer<int> d_histogram(static_cast<std::size_t>(bins));
    d_histogram.poison();
    return d_histogram;
  };

  const strata_test::even_reference<std::uint8_t, int> one_per_value(0, 240, 241);
  const std::vector<int> levels = banded_levels(40, engine);
  const strata_test::range_reference<std::uint8_t, int> range(levels);
  const device_buffer<int> d_levels(levels);
  {
    INFO("HistogramEven, " << n << " samples (an int64_t count), a bin per value below 240");
    device_buffer<int> d_histogram = histogram(240);
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        { return strata::DeviceHistogram::HistogramEven(d_temp, bytes, in, d_histogram.data(), 241, 0, 240, n); });
    strata_test::check_histogram(bin_counts(value_counts(0, std::uint64_t(n), 1), one_per_value), d_histogram);
  }
  {
    INFO("HistogramRange, " << n << " samples (an int64_t count), 40 levels");
    device_buffer<int> d_histogram = histogram(range.bins());
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramRange(d_temp, bytes, in, d_histogram.data(), int(levels.size()),
                                                         d_levels.data(), n);
        });
    strata_test::check_histogram(bin_counts(value_counts(0, std::uint64_t(n), 1), range), d_histogram);
  }
  // Three active channels of four: a bin per value, 8 bins over [0, 240), 16 over [40, 200); and
  // three sets of Range levels.
  const std::array<strata_test::even_reference<std::uint8_t, int>, 3> even_channels{
      one_per_value, strata_test::even_reference<std::uint8_t, int>(0, 240, 9),
      strata_test::even_reference<std::uint8_t, int>(40, 200, 17)};
  const ::cuda::std::array<int, 3> even_levels{241, 9, 17};
  const ::cuda::std::array<int, 3> lower{0, 0, 40};
  const ::cuda::std::array<int, 3> upper{240, 240, 200};
  std::vector<std::vector<int>> channel_levels;
  for (const std::size_t count : {std::size_t(7), std::size_t(30), std::size_t(121)})
  {
    channel_levels.push_back(banded_levels(count, engine));
  }
  const std::array<device_buffer<int>, 3> d_channel_levels{device_buffer<int>(channel_levels[0]),
                                                           device_buffer<int>(channel_levels[1]),
                                                           device_buffer<int>(channel_levels[2])};
  // Runs a MultiHistogram<4, 3> call(d_temp, bytes, histograms) and checks channel c against
  // bin_counts(counts(c), reference(c)).
  const auto check_channels = [&](auto call, auto counts, auto reference)
  {
    std::array<device_buffer<int>, 3> d_histograms{histogram(reference(0).bins()), histogram(reference(1).bins()),
                                                   histogram(reference(2).bins())};
    const ::cuda::std::array<int*, 3> histograms{d_histograms[0].data(), d_histograms[1].data(),
                                                 d_histograms[2].data()};
    strata_test::run_histogram([&](void* d_temp, std::size_t& bytes) { return call(d_temp, bytes, histograms); });
    for (int c = 0; c < 3; ++c)
    {
      INFO("channel " << c);
      strata_test::check_histogram(bin_counts(counts(c), reference(c)), d_histograms[std::size_t(c)]);
    }
  };
  const auto even_channel  = [&](int c) { return even_channels[std::size_t(c)]; };
  const auto range_channel = [&](int c)
  { return strata_test::range_reference<std::uint8_t, int>(channel_levels[std::size_t(c)]); };
  const ::cuda::std::array<const int*, 3> range_levels{d_channel_levels[0].data(), d_channel_levels[1].data(),
                                                       d_channel_levels[2].data()};
  const ::cuda::std::array<int, 3> range_counts{int(channel_levels[0].size()), int(channel_levels[1].size()),
                                                int(channel_levels[2].size())};
  const auto pixel_counts = [&](int c) { return value_counts(std::uint64_t(c), std::uint64_t(pixels), 4); };
  {
    INFO("MultiHistogramEven<4, 3>, " << pixels << " pixels (an int count)");
    check_channels(
        [&](void* d_temp, std::size_t& bytes, const ::cuda::std::array<int*, 3>& histograms)
        {
          return strata::DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, bytes, in, histograms, even_levels, lower,
                                                                   upper, pixels);
        },
        pixel_counts, even_channel);
  }
  {
    INFO("MultiHistogramRange<4, 3>, " << pixels << " pixels (an int count)");
    check_channels(
        [&](void* d_temp, std::size_t& bytes, const ::cuda::std::array<int*, 3>& histograms)
        {
          return strata::DeviceHistogram::MultiHistogramRange<4, 3>(d_temp, bytes, in, histograms, range_counts,
                                                                    range_levels, pixels);
        },
        pixel_counts, range_channel);
  }
  {
    // Rows start on 16-byte boundaries.
    const int row_samples    = (1 << (band_shift - 11)) + 13;
    const std::size_t stride = std::size_t(row_samples) - 13 + 64;
    const int rows           = int((std::size_t(n) - std::size_t(row_samples)) / stride + 1);
    INFO("HistogramRange, " << rows << " rows of " << row_samples << " samples, " << stride << " bytes apart");
    device_buffer<int> d_histogram = histogram(range.bins());
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramRange(d_temp, bytes, in, d_histogram.data(), int(levels.size()),
                                                         d_levels.data(), row_samples, rows, stride);
        });
    strata_test::check_histogram(bin_counts(rows_counts(0, row_samples, rows, std::int64_t(stride), 1), range),
                                 d_histogram);
  }
  {
    // Rows 4 bytes past a 16-byte boundary in turn: the vector loads start after a few pixels.
    const int row_pixels     = (1 << (band_shift - 13)) + 3;
    const std::size_t stride = 4 * std::size_t(row_pixels) + 24;
    const int rows           = int((std::size_t(n) - 4 * std::size_t(row_pixels)) / stride + 1);
    INFO("MultiHistogramEven<4, 3>, " << rows << " rows of " << row_pixels << " pixels, " << stride << " bytes apart");
    check_channels(
        [&](void* d_temp, std::size_t& bytes, const ::cuda::std::array<int*, 3>& histograms)
        {
          return strata::DeviceHistogram::MultiHistogramEven<4, 3>(d_temp, bytes, in, histograms, even_levels, lower,
                                                                   upper, row_pixels, rows, stride);
        },
        [&](int c) { return rows_counts(c, row_pixels, rows, std::int64_t(stride), 4); }, even_channel);
  }
  // Rows 2^band_shift + 2^(band_shift - 11) + 64 and 2^(band_shift + 1) + ... bytes apart: at 31
  // the stride holds more than an int, and past 2^32 it cut to 32 bits would fit a row.
  for (const int rows : {3, 2})
  {
    const int row_samples    = (1 << (band_shift - 11)) + 5;
    const std::size_t stride = (std::size_t(4 - rows) << band_shift) + (std::size_t(1) << (band_shift - 11)) + 64;
    INFO("HistogramEven, " << rows << " rows of " << row_samples << " samples, " << stride << " bytes apart");
    device_buffer<int> d_histogram = histogram(240);
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, in, d_histogram.data(), 241, 0, 240, row_samples,
                                                        rows, stride);
        });
    strata_test::check_histogram(bin_counts(rows_counts(0, row_samples, rows, std::int64_t(stride), 1), one_per_value),
                                 d_histogram);
  }
}
} // namespace

TEST_CASE("DeviceHistogram counts banded samples in device memory (2^21 + 2^11 + 12 samples, bands of 2^20)",
          "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1431);
  INFO("seed " << seed);
  check_banded(20, seed);
}

TEST_CASE("DeviceHistogram counts more than 2^32 banded samples in device memory", "[device][histogram][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^32 samples under compute-sanitizer would take hours; the same checks at 2^21 samples run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(1433);
  INFO("seed " << seed);
  std::size_t free_bytes  = 0;
  std::size_t total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = (std::size_t(1) << 32) + (std::size_t(1) << 22) + (std::size_t(256) << 20);
  if (free_bytes < needed)
  {
    SKIP("the samples need " << needed / (1 << 20) << " MiB of GPU memory; " << free_bytes / (1 << 20)
                             << " MiB are free");
  }
  check_banded(31, seed);
}

namespace
{
//! Sample i of the large case: i times an odd number modulo 2^16, so that every 2^16 consecutive
//! samples take each uint16 value once, scattered.
struct scatter16
{
  __host__ __device__ std::uint16_t operator()(std::int64_t i) const
  {
    return static_cast<std::uint16_t>(static_cast<std::uint64_t>(i) * 40503u);
  }
};
} // namespace

TEST_CASE("HistogramEven counts more than 2^31 samples generated by an iterator", "[device][histogram][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^31 samples under compute-sanitizer would take hours; the sizes below 2^25 run there");
    return;
  }
  const std::int64_t n = (std::int64_t(1) << 31) + (std::int64_t(1) << 20) + 3;
  const strata::TransformInputIterator<std::uint16_t, scatter16, strata::CountingInputIterator<std::int64_t>> samples(
      strata::CountingInputIterator<std::int64_t>(0), scatter16{});
  // How often each value occurs: once per full period of 2^16 samples, plus the values of the
  // partial period at the end.
  std::vector<std::uint64_t> occurrences(65536, std::uint64_t(n >> 16));
  for (std::int64_t i = n & ~std::int64_t(0xFFFF); i < n; ++i)
  {
    ++occurrences[scatter16{}(i)];
  }
  const auto expected_for = [&](int lower, int upper, int bins)
  {
    const strata_test::even_reference<std::uint16_t, int> reference(lower, upper, bins + 1);
    std::vector<std::uint64_t> expected(static_cast<std::size_t>(bins), 0);
    for (int v = 0; v < 65536; ++v)
    {
      const int bin = reference(std::uint16_t(v));
      if (bin >= 0)
      {
        expected[std::size_t(bin)] += occurrences[std::size_t(v)];
      }
    }
    return expected;
  };
  const auto run = [&](auto* d_histogram, int bins, int lower, int upper)
  {
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes) {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, samples, d_histogram, bins + 1, lower, upper, n);
        });
  };
  SECTION("one bin of 32-bit unsigned counters holds all of them (more than 2^31, less than 2^32)")
  {
    device_buffer<unsigned> d_histogram(1);
    d_histogram.poison();
    run(d_histogram.data(), 1, 0, 65536);
    strata_test::check_histogram({std::uint64_t(n)}, d_histogram);
  }
  SECTION("256 bins of int counters (shared memory)")
  {
    device_buffer<int> d_histogram(256);
    d_histogram.poison();
    run(d_histogram.data(), 256, 0, 65536);
    strata_test::check_histogram(expected_for(0, 65536, 256), d_histogram);
  }
  SECTION("65536 bins of unsigned long long counters (global atomics), and 1000 over [100, 60000)")
  {
    device_buffer<unsigned long long> d_histogram(65536);
    d_histogram.poison();
    run(d_histogram.data(), 65536, 0, 65536);
    strata_test::check_histogram(expected_for(0, 65536, 65536), d_histogram);
    device_buffer<unsigned long long> d_some(1000);
    d_some.poison();
    run(d_some.data(), 1000, 100, 60000);
    strata_test::check_histogram(expected_for(100, 60000, 1000), d_some);
  }
}

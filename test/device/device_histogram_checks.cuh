// test/device/device_histogram_checks.cuh: what the DeviceHistogram tests share: the bin counts
// (on both sides of the policy's warp-aggregation and shared-memory limits, so that a change of
// policy moves the tests with it) and sizes they run, the type combinations, an independent host
// reference with 64-bit counts, the two-phase call into poisoned outputs, and the bodies of the
// tests Even and Range run alike (every type at every bin count and size; channels at the limits).
//
// The reference takes a sample's bin from the definition, computed in the type DeviceHistogram
// documents for comparisons: integer samples with integer levels exactly (128-bit integers here,
// floor((sample - lower) * bins / (upper - lower))); otherwise float, or double where the sample
// or level type is 8 bytes wide (__half through float), with Even's multiply by bins / (upper -
// lower) kept below `bins`, and Range's bin the last level at or below the sample
// (std::upper_bound). NaN and samples outside [lower, upper) are not counted.
#pragma once

#include <strata/device/device_histogram.cuh>

#include <cuda/std/array>

#include "common/test_common.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata_test
{
//! A type combination of the typed histogram tests: samples, levels, counters.
template <typename SampleT, typename LevelT, typename CounterT>
struct histogram_types
{
  using sample_t  = SampleT;
  using level_t   = LevelT;
  using counter_t = CounterT;
};

//! The policy DeviceHistogram runs for these types (its LANE_BINS and SHARED_BINS).
template <typename SampleT, typename CounterT, int CHANNELS = 1, int ACTIVE_CHANNELS = 1>
using histogram_policy_t = typename strata::DispatchHistogram<CHANNELS, ACTIVE_CHANNELS, const SampleT*, CounterT, int,
                                                              int>::MaxPolicyT::AgentHistogramPolicyT;

//! The bin counts of one histogram: 1, 2, 32, 256, 4096 and 65536, and both sides of the limit up
//! to which each lane counts in its own column of shared counters (LANE_BINS) and of the
//! shared-memory limit (SHARED_BINS; more bins go to the output with global atomics).
template <typename PolicyT>
std::vector<int> histogram_bin_counts()
{
  std::vector<int> counts = {1,
                             2,
                             32,
                             PolicyT::LANE_BINS - 1,
                             PolicyT::LANE_BINS,
                             PolicyT::LANE_BINS + 1,
                             256,
                             4096,
                             PolicyT::SHARED_BINS,
                             PolicyT::SHARED_BINS + 1,
                             65536};
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  counts.erase(counts.begin(), std::find_if(counts.begin(), counts.end(), [](int c) { return c >= 1; }));
  return counts;
}

//! The sample counts of the typed tests: 0, 1, 2^20 + 7 and 2^24 + 13 (the last not under the
//! sanitizers: at 2^20 + 7 every block already takes a tile; the many short rows of the 2-D tests
//! give blocks several tiles there).
inline std::vector<std::size_t> histogram_sizes()
{
  std::vector<std::size_t> sizes = {0, 1, (std::size_t(1) << 20) + 7};
  if (!under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 24) + 13);
  }
  return sizes;
}

//! The type a sample and the levels are compared in (see the top of this file).
template <typename SampleT, typename LevelT>
using histogram_compute_t =
    std::conditional_t<std::is_integral_v<SampleT> && std::is_integral_v<LevelT>, __int128,
                       std::conditional_t<(sizeof(SampleT) == 8 || sizeof(LevelT) == 8), double, float>>;

template <typename C, typename T>
C to_compute(const T& x)
{
  if constexpr (std::is_same_v<T, __half>)
  {
    return static_cast<C>(__half2float(x));
  }
  else
  {
    return static_cast<C>(x);
  }
}

//! Even's bins on the host: operator() gives a sample's bin, or -1.
template <typename SampleT, typename LevelT>
class even_reference
{
public:
  using compute_t = histogram_compute_t<SampleT, LevelT>;

  even_reference(LevelT lower, LevelT upper, int num_levels)
      : lower_(to_compute<compute_t>(lower))
      , upper_(to_compute<compute_t>(upper))
      , bins_(num_levels - 1)
  {
    if constexpr (!std::is_same_v<compute_t, __int128>)
    {
      scale_ = compute_t(bins_) / (upper_ - lower_);
    }
  }

  int bins() const
  {
    return bins_;
  }

  int operator()(const SampleT& sample) const
  {
    const compute_t x = to_compute<compute_t>(sample);
    if (!(x >= lower_ && x < upper_))
    {
      return -1;
    }
    if constexpr (std::is_same_v<compute_t, __int128>)
    {
      return static_cast<int>((x - lower_) * bins_ / (upper_ - lower_));
    }
    else
    {
      return std::min(static_cast<int>((x - lower_) * scale_), bins_ - 1);
    }
  }

private:
  compute_t lower_;
  compute_t upper_;
  int bins_;
  compute_t scale_{};
};

//! Range's bins on the host: operator() gives a sample's bin, or -1.
template <typename SampleT, typename LevelT>
class range_reference
{
public:
  using compute_t = histogram_compute_t<SampleT, LevelT>;

  explicit range_reference(const std::vector<LevelT>& levels)
  {
    for (const LevelT& level : levels)
    {
      levels_.push_back(to_compute<compute_t>(level));
    }
  }

  int bins() const
  {
    return static_cast<int>(levels_.size()) - 1;
  }

  int operator()(const SampleT& sample) const
  {
    const compute_t x = to_compute<compute_t>(sample);
    if (!(x >= levels_.front() && x < levels_.back()))
    {
      return -1;
    }
    return static_cast<int>(std::upper_bound(levels_.begin(), levels_.end(), x) - levels_.begin()) - 1;
  }

private:
  std::vector<compute_t> levels_;
};

//! The histograms of samples[0, sizes[k]) for each k (sizes ascending), in one pass. Samples of
//! one or two bytes take their bins from a table of every bit pattern; wider ones ask the reference
//! for each sample, spread over up to 8 host threads (the typed tests' 2^24 samples at a dozen bin
//! counts would otherwise take a minute of Range's binary searches).
template <typename SampleT, typename ReferenceT>
std::vector<std::vector<std::uint64_t>> reference_prefix_histograms(const std::vector<SampleT>& samples,
                                                                    const std::vector<std::size_t>& sizes,
                                                                    const ReferenceT& reference)
{
  const std::size_t n = sizes.empty() ? 0 : sizes.back();
  std::vector<int> bins(n); // each sample's bin, or -1
  if constexpr (sizeof(SampleT) <= 2)
  {
    using PatternT = std::conditional_t<sizeof(SampleT) == 1, std::uint8_t, std::uint16_t>;
    std::vector<int> table(std::size_t(1) << (8 * sizeof(SampleT)));
    for (std::size_t bits = 0; bits < table.size(); ++bits)
    {
      const auto pattern = static_cast<PatternT>(bits);
      SampleT sample;
      std::memcpy(static_cast<void*>(&sample), &pattern, sizeof(SampleT));
      table[bits] = reference(sample);
    }
    for (std::size_t i = 0; i < n; ++i)
    {
      PatternT pattern;
      std::memcpy(&pattern, static_cast<const void*>(&samples[i]), sizeof(SampleT));
      bins[i] = table[pattern];
    }
  }
  else
  {
    const std::size_t threads =
        n < (std::size_t(1) << 20) ? 1 : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    std::vector<std::thread> workers;
    for (std::size_t t = 0; t < threads; ++t)
    {
      workers.emplace_back(
          [&, t]
          {
            for (std::size_t i = n * t / threads; i < n * (t + 1) / threads; ++i)
            {
              bins[i] = reference(samples[i]);
            }
          });
    }
    for (std::thread& worker : workers)
    {
      worker.join();
    }
  }
  std::vector<std::vector<std::uint64_t>> histograms;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(reference.bins()), 0);
  std::size_t i = 0;
  for (const std::size_t size : sizes)
  {
    for (; i < size; ++i)
    {
      if (bins[i] >= 0)
      {
        ++counts[static_cast<std::size_t>(bins[i])];
      }
    }
    histograms.push_back(counts);
  }
  return histograms;
}

//! The histogram of channel `channel` of num_rows rows of row_pixels pixels (CHANNELS samples
//! each), row_stride samples apart.
template <int CHANNELS, typename SampleT, typename ReferenceT>
std::vector<std::uint64_t> reference_channel_histogram(const std::vector<SampleT>& samples, int channel,
                                                       std::size_t row_pixels, std::size_t rows, std::size_t row_stride,
                                                       const ReferenceT& reference)
{
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(reference.bins()), 0);
  for (std::size_t row = 0; row < rows; ++row)
  {
    for (std::size_t pixel = 0; pixel < row_pixels; ++pixel)
    {
      const int bin = reference(samples[row * row_stride + pixel * CHANNELS + std::size_t(channel)]);
      if (bin >= 0)
      {
        ++counts[static_cast<std::size_t>(bin)];
      }
    }
  }
  return counts;
}

//! A counter as a 64-bit count: negative or fractional values (poison) become 2^64 - 1.
template <typename CounterT>
std::uint64_t as_count(const CounterT& counter)
{
  if constexpr (std::is_floating_point_v<CounterT>)
  {
    return counter >= 0 && std::floor(counter) == counter ? static_cast<std::uint64_t>(counter)
                                                          : std::numeric_limits<std::uint64_t>::max();
  }
  else if constexpr (std::is_signed_v<CounterT>)
  {
    return counter >= 0 ? static_cast<std::uint64_t>(counter) : std::numeric_limits<std::uint64_t>::max();
  }
  else
  {
    return static_cast<std::uint64_t>(counter);
  }
}

//! CHECKs the whole device histogram against the reference counts.
template <typename CounterT>
void check_histogram(const std::vector<std::uint64_t>& expected, const device_buffer<CounterT>& d_histogram)
{
  const std::vector<CounterT> counters = d_histogram.download();
  std::vector<std::uint64_t> actual(counters.size());
  std::transform(counters.begin(), counters.end(), actual.begin(), [](const CounterT& c) { return as_count(c); });
  check_equal(expected, actual);
}

//! The two-phase call `call(d_temp, bytes)` (a cudaError_t): a size query that must ask for
//! temporary storage, then the run, to completion.
template <typename CallT>
void run_histogram(CallT call)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes));
  CHECK(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison(); // a kernel relying on zeroed temporary storage fails
  STRATA_TEST_CUDA(call(d_temp.data(), bytes));
  check_launch();
}

//! The lowest and highest sample the typed tests draw: integers over their whole range, floating
//! point in [-100, 100].
template <typename SampleT>
std::pair<double, double> sample_span()
{
  if constexpr (std::is_integral_v<SampleT>)
  {
    return {double(std::numeric_limits<SampleT>::lowest()), double(std::numeric_limits<SampleT>::max())};
  }
  else
  {
    return {-100.0, 100.0};
  }
}

//! Even's [lower, upper) for the typed tests: most of the samples' span, with some samples below
//! and some above (integer levels of integer samples exact: min / 16 * 15 to max / 32 * 31).
template <typename SampleT, typename LevelT>
std::pair<LevelT, LevelT> even_span()
{
  if constexpr (std::is_integral_v<SampleT>)
  {
    using limits = std::numeric_limits<SampleT>;
    std::int64_t lower;
    std::int64_t upper;
    if constexpr (std::is_signed_v<SampleT>)
    {
      lower = std::int64_t(limits::lowest()) / 16 * 15;
      upper = std::int64_t(limits::max()) / 32 * 31;
    }
    else
    {
      lower = std::int64_t(limits::max() / 16);
      upper = std::int64_t(limits::max() - limits::max() / 32);
    }
    return {static_cast<LevelT>(lower), static_cast<LevelT>(upper)};
  }
  else
  {
    return {from_double<LevelT>(-90.5), from_double<LevelT>(95.25)};
  }
}

//! num_levels levels for Range, non-decreasing (equal neighbours: empty bins), first and last at
//! even_span's ends, the others random between them.
template <typename SampleT, typename LevelT>
std::vector<LevelT> random_levels(int num_levels, std::uint64_t seed)
{
  const auto [lower, upper] = even_span<SampleT, LevelT>();
  std::vector<LevelT> levels(static_cast<std::size_t>(num_levels));
  std::mt19937_64 engine(seed);
  for (LevelT& level : levels)
  {
    if constexpr (std::is_integral_v<LevelT>)
    {
      std::uniform_int_distribution<std::int64_t> value{std::int64_t(lower), std::int64_t(upper)};
      level = static_cast<LevelT>(value(engine));
    }
    else
    {
      std::uniform_real_distribution<double> value{to_double(lower), to_double(upper)};
      level = from_double<LevelT>(value(engine));
    }
  }
  levels.front() = lower;
  levels.back()  = upper;
  std::sort(levels.begin() + 1, levels.end() - 1,
            [](const LevelT& a, const LevelT& b) { return to_double(a) < to_double(b); });
  return levels;
}

//! n random samples over sample_span; floating point with a NaN, +inf and -inf about every
//! thousandth sample (none of them counted).
template <typename SampleT>
std::vector<SampleT> histogram_samples(std::size_t n, std::uint64_t seed)
{
  std::vector<SampleT> samples = random_vector<SampleT>(n, seed);
  if constexpr (is_floating_v<SampleT>)
  {
    for (std::size_t i = 0; i < n; ++i)
    {
      if (i % 1009 == 5)
      {
        samples[i] = from_double<SampleT>(std::numeric_limits<double>::quiet_NaN());
      }
      else if (i % 1013 == 7)
      {
        samples[i] = from_double<SampleT>(std::numeric_limits<double>::infinity());
      }
      else if (i % 1019 == 9)
      {
        samples[i] = from_double<SampleT>(-std::numeric_limits<double>::infinity());
      }
    }
  }
  return samples;
}

//! A multiply of x by 1/4, as the sample an iterator makes of an int.
struct quarter
{
  __host__ __device__ float operator()(int x) const
  {
    return static_cast<float>(x) * 0.25f;
  }
};

//! The low byte of an int.
struct low_byte
{
  __host__ __device__ std::uint8_t operator()(int x) const
  {
    return static_cast<std::uint8_t>(x & 0xFF);
  }
};

//! `total` bins split over `channels` channels as evenly as they go (the first ones get one more).
template <int CHANNELS>
cuda::std::array<int, CHANNELS> split_bins(int total)
{
  cuda::std::array<int, CHANNELS> bins{};
  for (int c = 0; c < CHANNELS; ++c)
  {
    bins[c] = total / CHANNELS + (c < total % CHANNELS ? 1 : 0);
  }
  return bins;
}

//! The typed tests of HistogramEven and HistogramRange: the samples of histogram_samples at every
//! size of histogram_sizes into every bin count of histogram_bin_counts, poisoned first, against
//! the host reference. bins_for(bins) gives the host reference of that many bins and the call,
//! call(d_temp, bytes, d_samples, d_histogram, num_samples), a cudaError_t.
template <typename SampleT, typename CounterT, typename BinsForT>
void check_every_bin_count_and_size(std::uint64_t seed, BinsForT bins_for)
{
  const std::vector<std::size_t> sizes = histogram_sizes();
  const std::vector<SampleT> samples   = histogram_samples<SampleT>(sizes.back(), seed);
  const device_buffer<SampleT> d_samples(samples);
  for (const int bins : histogram_bin_counts<histogram_policy_t<SampleT, CounterT>>())
  {
    INFO(bins << " bins");
    const auto made                                        = bins_for(bins); // (reference, call)
    const auto& reference                                  = made.first;
    const auto& call                                       = made.second;
    const std::vector<std::vector<std::uint64_t>> expected = reference_prefix_histograms(samples, sizes, reference);
    device_buffer<CounterT> d_histogram(static_cast<std::size_t>(bins));
    for (std::size_t k = 0; k < sizes.size(); ++k)
    {
      INFO(sizes[k] << " samples");
      d_histogram.poison();
      run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            return call(d_temp, bytes, static_cast<const SampleT*>(d_samples.data()), d_histogram.data(),
                        static_cast<int>(sizes[k]));
          });
      check_histogram(expected[k], d_histogram);
    }
  }
}

//! The channel-limit tests of MultiHistogramEven and MultiHistogramRange: CHANNELS-channel random
//! uint16 pixels, 1-D, with bins[c] bins in active channel c, poisoned first, against the host
//! reference. channels_for(num_levels) gives the host references of the active channels (a
//! std::vector) and the call, call(d_temp, bytes, d_samples, histograms, num_levels, num_pixels),
//! a cudaError_t.
template <int CHANNELS, int ACTIVE, typename ChannelsForT>
void check_multi_channel(const cuda::std::array<int, ACTIVE>& bins, std::size_t pixels, std::uint64_t seed,
                         ChannelsForT channels_for)
{
  int total = 0;
  for (int c = 0; c < ACTIVE; ++c)
  {
    total += bins[c];
  }
  INFO(CHANNELS << " channels, " << ACTIVE << " active, " << total << " bins in all");
  const std::vector<std::uint16_t> samples = random_vector<std::uint16_t>(std::size_t(CHANNELS) * pixels, seed);
  const device_buffer<std::uint16_t> d_samples(samples);
  std::vector<device_buffer<unsigned>> d_histograms;
  cuda::std::array<unsigned*, ACTIVE> histograms{};
  cuda::std::array<int, ACTIVE> num_levels{};
  for (int c = 0; c < ACTIVE; ++c)
  {
    d_histograms.emplace_back(static_cast<std::size_t>(bins[c]));
    d_histograms.back().poison();
    histograms[c] = d_histograms.back().data();
    num_levels[c] = bins[c] + 1;
  }
  const auto made        = channels_for(num_levels); // (references, call)
  const auto& references = made.first;
  const auto& call       = made.second;
  run_histogram(
      [&](void* d_temp, std::size_t& bytes)
      {
        return call(d_temp, bytes, static_cast<const std::uint16_t*>(d_samples.data()), histograms, num_levels,
                    static_cast<int>(pixels));
      });
  for (int c = 0; c < ACTIVE; ++c)
  {
    INFO("channel " << c);
    check_histogram(
        reference_channel_histogram<CHANNELS>(samples, c, pixels, 1, CHANNELS * pixels, references[std::size_t(c)]),
        d_histograms[std::size_t(c)]);
  }
}

//! histogram_samples of `rows` rows of `row_samples` samples, `stride` apart, whose padding holds
//! `padding` (a sample that would count, so that a read of the padding shows).
template <typename SampleT>
std::vector<SampleT> padded_rows(std::size_t row_samples, std::size_t rows, std::size_t stride, SampleT padding,
                                 std::uint64_t seed)
{
  std::vector<SampleT> samples = histogram_samples<SampleT>(rows * stride, seed);
  for (std::size_t i = 0; i < samples.size(); ++i)
  {
    if (i % stride >= row_samples)
    {
      samples[i] = padding;
    }
  }
  return samples;
}

//! The 2-D tests of HistogramEven and HistogramRange: the rows of padded_rows at each bin count,
//! poisoned first, against the reference. bins_for(bins) gives the host reference and the call,
//! call(d_temp, bytes, d_samples, d_histogram, row_samples, rows, row_stride_bytes), a cudaError_t.
template <typename SampleT, typename CounterT, typename BinsForT>
void check_rows(const std::vector<SampleT>& samples, std::size_t row_samples, std::size_t rows, std::size_t stride,
                std::initializer_list<int> bin_counts, BinsForT bins_for)
{
  const device_buffer<SampleT> d_samples(samples);
  for (const int bins : bin_counts)
  {
    INFO(bins << " bins");
    const auto made       = bins_for(bins); // (reference, call)
    const auto& reference = made.first;
    const auto& call      = made.second;
    device_buffer<CounterT> d_histogram(static_cast<std::size_t>(bins));
    d_histogram.poison();
    run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return call(d_temp, bytes, static_cast<const SampleT*>(d_samples.data()), d_histogram.data(),
                      static_cast<std::int64_t>(row_samples), static_cast<std::int64_t>(rows),
                      stride * sizeof(SampleT));
        });
    check_histogram(reference_channel_histogram<1>(samples, 0, row_samples, rows, stride, reference), d_histogram);
  }
}

//! The pixels of the MultiHistogram<4, 3> RGBA tests: R uniform, G in [0, 127], B in [128, 255],
//! A always 7 (a count of A would show in bin 7 of R and G).
inline std::vector<std::uint8_t> rgba_pixels(std::size_t pixels, std::uint64_t seed)
{
  std::vector<std::uint8_t> samples(4 * pixels);
  generator<int> value(seed);
  for (std::size_t p = 0; p < pixels; ++p)
  {
    samples[4 * p]     = std::uint8_t(value(0, 255));
    samples[4 * p + 1] = std::uint8_t(value(0, 127));
    samples[4 * p + 2] = std::uint8_t(value(128, 255));
    samples[4 * p + 3] = 7;
  }
  return samples;
}

//! The RGBA tests of MultiHistogramEven<4, 3> and MultiHistogramRange<4, 3>: 0, 1, 1000 and 2^20 + 7
//! pixels (1-D), and 1080 rows of 1920 pixels 7744 bytes apart whose padding, 100, would count in
//! every channel (2-D); each through the cuda::std::array form and the C-array form, into poisoned
//! histograms of 256 counters, against the references of R, G and B.
//! call(d_temp, bytes, d_samples, histograms, c_arrays, row_pixels, rows, row_stride_bytes) is a
//! cudaError_t, the 1-D call where rows == 0.
template <typename ReferenceT, typename CallT>
void check_rgba(std::uint64_t seed, const std::vector<ReferenceT>& references, CallT call)
{
  const std::size_t max_pixels           = (std::size_t(1) << 20) + 7;
  const std::vector<std::uint8_t> pixels = rgba_pixels(max_pixels, seed);
  device_buffer<int> d_r(256);
  device_buffer<int> d_g(256);
  device_buffer<int> d_b(256);
  const ::cuda::std::array<int*, 3> histograms = {d_r.data(), d_g.data(), d_b.data()};
  const auto run_and_check = [&](const std::vector<std::uint8_t>& samples, const std::uint8_t* d_samples,
                                 std::size_t row_pixels, std::size_t rows, std::size_t stride)
  {
    for (const bool c_arrays : {false, true})
    {
      INFO((c_arrays ? "C arrays" : "cuda::std::array"));
      d_r.poison();
      d_g.poison();
      d_b.poison();
      run_histogram([&](void* d_temp, std::size_t& bytes)
                    { return call(d_temp, bytes, d_samples, histograms, c_arrays, row_pixels, rows, stride); });
      const device_buffer<int>* outputs[3] = {&d_r, &d_g, &d_b};
      for (int c = 0; c < 3; ++c)
      {
        INFO("channel " << c);
        check_histogram(reference_channel_histogram<4>(samples, c, row_pixels, rows == 0 ? 1 : rows,
                                                       rows == 0 ? 4 * row_pixels : stride, references[std::size_t(c)]),
                        *outputs[c]);
      }
    }
  };

  SECTION("1-D, std::array and C-array forms")
  {
    const device_buffer<std::uint8_t> d_pixels(pixels);
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), max_pixels})
    {
      INFO(n << " pixels");
      run_and_check(pixels, d_pixels.data(), n, 0, 0);
    }
  }
  SECTION("2-D, 1080 rows of 1920 pixels 7744 bytes apart (padding 100: it would count in every channel)")
  {
    const std::size_t row_pixels = 1920;
    const std::size_t rows       = 1080;
    const std::size_t stride     = 4 * row_pixels + 64;
    std::vector<std::uint8_t> image(rows * stride, 100);
    for (std::size_t row = 0; row < rows; ++row)
    {
      // The rows take the pixels in turn, from the start again where they run out.
      const std::size_t from = 4 * row * row_pixels % (pixels.size() - 4 * row_pixels);
      std::copy(pixels.begin() + std::ptrdiff_t(from), pixels.begin() + std::ptrdiff_t(from + 4 * row_pixels),
                image.begin() + std::ptrdiff_t(row * stride));
    }
    const device_buffer<std::uint8_t> d_image(image);
    run_and_check(image, d_image.data(), row_pixels, rows, stride);
  }
}

//! The channel layouts of the channel-limit tests: bins adding up to just below and above the
//! policy's lane and shared limits over 2, 3 and 4 active channels (of 2 or 4), on 300007 pixels.
//! Calls check(channels, active, bins, pixels, seed), channels and active as integral_constants.
template <typename CheckT>
void for_each_channel_limit(std::uint64_t seed, CheckT check)
{
  using policy_t          = histogram_policy_t<std::uint16_t, unsigned, 4, 3>;
  constexpr std::size_t n = 300007;
  const int shared_bins   = policy_t::SHARED_BINS;
  const int lane_bins     = policy_t::LANE_BINS;
  using c2                = std::integral_constant<int, 2>;
  using c3                = std::integral_constant<int, 3>;
  using c4                = std::integral_constant<int, 4>;
  check(c2{}, c2{}, ::cuda::std::array<int, 2>{4096, 4096}, n, seed);
  check(c2{}, c2{}, ::cuda::std::array<int, 2>{4096, 4097}, n, seed + 1);
  check(c2{}, c2{}, split_bins<2>(shared_bins), n, seed + 2);
  check(c2{}, c2{}, split_bins<2>(shared_bins + 1), n, seed + 3);
  check(c4{}, c3{}, split_bins<3>(shared_bins), n, seed + 4);
  check(c4{}, c3{}, split_bins<3>(shared_bins + 1), n, seed + 5);
  check(c4{}, c4{}, split_bins<4>(lane_bins), n, seed + 6);
  check(c4{}, c4{}, split_bins<4>(lane_bins + 1), n, seed + 7);
  check(c4{}, c3{}, split_bins<3>(lane_bins), n, seed + 8);
}

} // namespace strata_test

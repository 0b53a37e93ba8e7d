// Tests of strata/device/device_histogram.cuh, part 3: how the calls behave rather than what they
// compute, for all twelve functions (HistogramEven and HistogramRange, MultiHistogramEven and
// MultiHistogramRange with std::arrays and with C arrays; 1-D and 2-D; float samples): the size
// query asks for temporary storage and touches nothing else (pointers that must never be
// dereferenced, inside a stream capture that must stay empty); fewer than two levels, a negative
// count, a 2-D row stride that is not a multiple of the sample size (in both phases), a null
// histogram, levels or samples pointer on the second call and too little temporary storage give
// cudaErrorInvalidValue and write nothing; what CUB accepts runs as CUB's does (an empty, reversed
// or NaN Even range counts nothing; rows closer than a row overlap); no
// samples (also without a samples pointer) clear the histograms; the second phase works inside a
// CUDA graph and on two streams at once; DispatchHistogram runs with CUB's template parameter
// list, with and without CUB's trailing is_byte_sample tag. (The cases of more than 2^31 samples
// are in test_device_histogram_large.cu.)
#include <strata/device/device_histogram.cuh>

#include <cuda/std/array>
#include <cuda/std/type_traits>

#include "common/streams.cuh"
#include "common/behaviour.cuh"
#include "common/test_common.cuh"
#include "device_histogram_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace
{
using strata_test::check_rejected;
using strata_test::device_buffer;
using strata_test::query_bytes;

//! What a call may use. Single-channel functions take channel 0 of the arrays and row_pixels
//! samples per row; the multi-channel ones are <4, 3> (pixels of four floats, three counted).
struct histogram_args
{
  const float* samples;
  cuda::std::array<int*, 3> histograms;
  cuda::std::array<const float*, 3> levels;
  cuda::std::array<int, 3> num_levels;
  cuda::std::array<float, 3> lower;
  cuda::std::array<float, 3> upper;
  std::int64_t row_pixels;
  std::int64_t rows;
  std::size_t row_stride_bytes;
};

using call_fn = std::function<cudaError_t(void*, std::size_t&, const histogram_args&, cudaStream_t)>;

//! One function of DeviceHistogram: its name, active channels, whether it takes levels (Range)
//! and rows (2-D), and the call.
struct histogram_call
{
  std::string name;
  int channels;
  bool range;
  bool two_d;
  call_fn run;
};

constexpr int bins_per_channel = 64;

//! The twelve functions.
std::vector<histogram_call> all_calls()
{
  using strata::DeviceHistogram;
  using a_t = const histogram_args&;
  std::vector<histogram_call> calls;
  calls.push_back({"HistogramEven", 1, false, false,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::HistogramEven(t, b, a.samples, a.histograms[0], a.num_levels[0],
                                                           a.lower[0], a.upper[0], a.row_pixels, s);
                   }});
  calls.push_back({"HistogramEven 2-D", 1, false, true,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::HistogramEven(t, b, a.samples, a.histograms[0], a.num_levels[0],
                                                           a.lower[0], a.upper[0], a.row_pixels, a.rows,
                                                           a.row_stride_bytes, s);
                   }});
  calls.push_back({"HistogramRange", 1, true, false,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::HistogramRange(t, b, a.samples, a.histograms[0], a.num_levels[0],
                                                            a.levels[0], a.row_pixels, s);
                   }});
  calls.push_back({"HistogramRange 2-D", 1, true, true,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::HistogramRange(t, b, a.samples, a.histograms[0], a.num_levels[0],
                                                            a.levels[0], a.row_pixels, a.rows, a.row_stride_bytes, s);
                   }});
  calls.push_back({"MultiHistogramEven<4, 3>", 3, false, false,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::MultiHistogramEven<4, 3>(t, b, a.samples, a.histograms, a.num_levels,
                                                                      a.lower, a.upper, a.row_pixels, s);
                   }});
  calls.push_back({"MultiHistogramEven<4, 3> 2-D", 3, false, true,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::MultiHistogramEven<4, 3>(t, b, a.samples, a.histograms, a.num_levels,
                                                                      a.lower, a.upper, a.row_pixels, a.rows,
                                                                      a.row_stride_bytes, s);
                   }});
  calls.push_back({"MultiHistogramEven<4, 3> with C arrays", 3, false, false,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     int* histograms[3] = {a.histograms[0], a.histograms[1], a.histograms[2]};
                     return DeviceHistogram::MultiHistogramEven<4, 3>(t, b, a.samples, histograms, a.num_levels.data(),
                                                                      a.lower.data(), a.upper.data(), a.row_pixels, s);
                   }});
  calls.push_back({"MultiHistogramEven<4, 3> 2-D with C arrays", 3, false, true,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     int* histograms[3] = {a.histograms[0], a.histograms[1], a.histograms[2]};
                     return DeviceHistogram::MultiHistogramEven<4, 3>(t, b, a.samples, histograms, a.num_levels.data(),
                                                                      a.lower.data(), a.upper.data(), a.row_pixels,
                                                                      a.rows, a.row_stride_bytes, s);
                   }});
  calls.push_back({"MultiHistogramRange<4, 3>", 3, true, false,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::MultiHistogramRange<4, 3>(t, b, a.samples, a.histograms, a.num_levels,
                                                                       a.levels, a.row_pixels, s);
                   }});
  calls.push_back({"MultiHistogramRange<4, 3> 2-D", 3, true, true,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     return DeviceHistogram::MultiHistogramRange<4, 3>(t, b, a.samples, a.histograms, a.num_levels,
                                                                       a.levels, a.row_pixels, a.rows,
                                                                       a.row_stride_bytes, s);
                   }});
  calls.push_back({"MultiHistogramRange<4, 3> with C arrays", 3, true, false,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     int* histograms[3]           = {a.histograms[0], a.histograms[1], a.histograms[2]};
                     const float* const levels[3] = {a.levels[0], a.levels[1], a.levels[2]};
                     return DeviceHistogram::MultiHistogramRange<4, 3>(t, b, a.samples, histograms, a.num_levels.data(),
                                                                       levels, a.row_pixels, s);
                   }});
  calls.push_back({"MultiHistogramRange<4, 3> 2-D with C arrays", 3, true, true,
                   [](void* t, std::size_t& b, a_t a, cudaStream_t s)
                   {
                     int* histograms[3]           = {a.histograms[0], a.histograms[1], a.histograms[2]};
                     const float* const levels[3] = {a.levels[0], a.levels[1], a.levels[2]};
                     return DeviceHistogram::MultiHistogramRange<4, 3>(t, b, a.samples, histograms, a.num_levels.data(),
                                                                       levels, a.row_pixels, a.rows, a.row_stride_bytes,
                                                                       s);
                   }});
  return calls;
}

//! Device buffers for every pointer of histogram_args: random samples for 50 rows of 1000 pixels
//! of four floats 16096 bytes apart (a 1-D call reads the first 1000 pixels or samples), levels
//! for 64 bins per channel, poisoned histograms.
class histogram_buffers
{
public:
  static constexpr std::int64_t row_pixels        = 1000;
  static constexpr std::int64_t rows              = 50;
  static constexpr std::size_t row_stride_samples = 4 * row_pixels + 24;

  explicit histogram_buffers(std::uint64_t seed)
      : samples_(strata_test::histogram_samples<float>(rows * row_stride_samples, seed))
      , levels_(levels_for(seed + 1))
      , histograms_(poisoned(3 * bins_per_channel))
  {
  }

  histogram_args args() const
  {
    histogram_args a{};
    a.samples = samples_.data();
    for (int c = 0; c < 3; ++c)
    {
      a.histograms[c] = histograms_.data() + c * bins_per_channel;
      a.levels[c]     = levels_.data() + c * (bins_per_channel + 1);
      a.num_levels[c] = bins_per_channel + 1;
      a.lower[c]      = -90.5f + float(c);
      a.upper[c]      = 95.25f - float(c);
    }
    a.row_pixels       = row_pixels;
    a.rows             = rows;
    a.row_stride_bytes = row_stride_samples * sizeof(float);
    return a;
  }

  //! The bytes every buffer holds (samples, levels, histograms).
  std::vector<std::vector<unsigned char>> state() const
  {
    return {bytes_of(samples_), bytes_of(levels_), bytes_of(histograms_)};
  }

  //! The histograms as counts (3 x 64; those a call does not write keep their poison).
  std::vector<int> histograms() const
  {
    return histograms_.download();
  }

  void poison()
  {
    histograms_.poison();
  }

private:
  static std::vector<float> levels_for(std::uint64_t seed)
  {
    std::vector<float> levels;
    for (int c = 0; c < 3; ++c)
    {
      const std::vector<float> channel =
          strata_test::random_levels<float, float>(bins_per_channel + 1, seed + std::uint64_t(c));
      levels.insert(levels.end(), channel.begin(), channel.end());
    }
    return levels;
  }

  static device_buffer<int> poisoned(std::size_t n)
  {
    device_buffer<int> buffer(n);
    buffer.poison();
    return buffer;
  }

  template <typename T>
  static std::vector<unsigned char> bytes_of(const device_buffer<T>& buffer)
  {
    const std::vector<T> values = buffer.download();
    std::vector<unsigned char> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
  }

  device_buffer<float> samples_;
  device_buffer<float> levels_;
  device_buffer<int> histograms_;
};

//! CHECKs that `args` are rejected in both phases: the size query and, with temporary storage,
//! the run.
void check_rejected_both_phases(const histogram_buffers& buffers, const histogram_call& call,
                                const histogram_args& args, void* d_temp, std::size_t bytes)
{
  std::size_t query = 0;
  check_rejected(buffers, [&] { return call.run(nullptr, query, args, nullptr); });
  std::size_t run_bytes = bytes;
  check_rejected(buffers, [&] { return call.run(d_temp, run_bytes, args, nullptr); });
}

} // namespace

TEST_CASE("DeviceHistogram size queries touch no device data and launch nothing", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  histogram_args bad{};
  bad.samples = reinterpret_cast<const float*>(std::uintptr_t(16));
  for (int c = 0; c < 3; ++c)
  {
    bad.histograms[c] = reinterpret_cast<int*>(std::uintptr_t(32 + 16 * c));
    bad.levels[c]     = reinterpret_cast<const float*>(std::uintptr_t(96 + 16 * c));
    bad.num_levels[c] = 257;
    bad.lower[c]      = 0.0f;
    bad.upper[c]      = 1.0f;
  }
  bad.rows                                = 3;
  const std::vector<histogram_call> calls = all_calls();
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (const histogram_call& call : calls)
        {
          for (const std::int64_t n : {std::int64_t(0), std::int64_t(10), std::int64_t(1) << 24})
          {
            INFO(call.name << ", " << n << " samples or pixels");
            histogram_args args   = bad;
            args.row_pixels       = n;
            args.row_stride_bytes = std::size_t(4 * n) * sizeof(float);
            std::size_t bytes     = 0;
            CHECK(call.run(nullptr, bytes, args, stream) == cudaSuccess);
            CHECK(bytes >= 1);
          }
          INFO(call.name << " with null pointers");
          histogram_args null_args   = bad;
          null_args.samples          = nullptr;
          null_args.histograms       = {nullptr, nullptr, nullptr};
          null_args.levels           = {nullptr, nullptr, nullptr};
          null_args.row_pixels       = 100;
          null_args.row_stride_bytes = 400 * sizeof(float);
          std::size_t bytes          = 0;
          CHECK(call.run(nullptr, bytes, null_args, stream) == cudaSuccess);
          CHECK(bytes >= 1);
        }
      });
}

TEST_CASE("DeviceHistogram rejects bad arguments with cudaErrorInvalidValue and writes nothing", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1401);
  INFO("seed " << seed);
  for (const histogram_call& call : all_calls())
  {
    INFO(call.name);
    histogram_buffers buffers(seed);
    const histogram_args args = buffers.args();
    const std::size_t bytes   = query_bytes(call, args);
    device_buffer<unsigned char> d_temp(bytes);
    for (int c = 0; c < call.channels; ++c)
    {
      INFO("channel " << c);
      for (const int num_levels : {1, 0, -1})
      {
        INFO(num_levels << " levels");
        histogram_args bad = args;
        bad.num_levels[c]  = num_levels;
        check_rejected_both_phases(buffers, call, bad, d_temp.data(), bytes);
      }
      {
        INFO("a null histogram on the second call");
        histogram_args bad    = args;
        bad.histograms[c]     = nullptr;
        std::size_t run_bytes = bytes;
        check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, bad, nullptr); });
      }
      if (call.range)
      {
        INFO("null levels on the second call");
        histogram_args bad    = args;
        bad.levels[c]         = nullptr;
        std::size_t run_bytes = bytes;
        check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, bad, nullptr); });
      }
    }
    {
      INFO("a negative sample or pixel count");
      histogram_args bad = args;
      bad.row_pixels     = -1;
      check_rejected_both_phases(buffers, call, bad, d_temp.data(), bytes);
    }
    if (call.two_d)
    {
      {
        INFO("a negative row count");
        histogram_args bad = args;
        bad.rows           = -1;
        check_rejected_both_phases(buffers, call, bad, d_temp.data(), bytes);
      }
      {
        INFO("a row stride that is not a multiple of the sample size");
        histogram_args bad   = args;
        bad.row_stride_bytes = args.row_stride_bytes + 2;
        check_rejected_both_phases(buffers, call, bad, d_temp.data(), bytes);
      }
    }
    {
      INFO("a null samples pointer on the second call");
      histogram_args bad    = args;
      bad.samples           = nullptr;
      std::size_t run_bytes = bytes;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, bad, nullptr); });
    }
    {
      INFO("too little temporary storage");
      std::size_t too_few = bytes - 1;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), too_few, args, nullptr); });
    }
  }
}

// What CUB accepts and strata once refused: Even ranges that hold no sample count nothing (the
// histogram cleared), and 2-D rows closer than a row overlap, their shared samples counted once a row.
TEST_CASE("DeviceHistogram counts nothing in an empty, reversed or NaN Even range and counts overlapping rows",
          "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1405);
  INFO("seed " << seed);
  constexpr int row_pixels = 1000;
  constexpr int rows       = 37;
  constexpr int stride     = 613; // samples: each row shares its last 387 with the next
  const std::vector<std::uint8_t> samples =
      strata_test::random_vector<std::uint8_t>(std::size_t(stride) * (rows - 1) + row_pixels, seed);
  device_buffer<std::uint8_t> d_samples(samples.size());
  d_samples.upload(samples);
  device_buffer<int> d_histogram(256);

  const auto run = [&](auto&& call)
  {
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(call(nullptr, bytes));
    device_buffer<unsigned char> d_temp(bytes);
    d_temp.poison();
    d_histogram.poison();
    STRATA_TEST_CUDA(call(d_temp.data(), bytes));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    return d_histogram.download();
  };

  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const std::pair<float, float>& range :
       std::vector<std::pair<float, float>>{{3.0f, 3.0f}, {3.0f, -3.0f}, {nan, 3.0f}, {-3.0f, nan}, {300.0f, 0.0f}})
  {
    const float lower = range.first;
    const float upper = range.second;
    INFO("Even range [" << lower << ", " << upper << ")");
    const std::vector<int> counts = run(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples.data(), d_histogram.data(), 65, lower,
                                                        upper, int(samples.size()));
        });
    CHECK(std::vector<int>(counts.begin(), counts.begin() + 64) == std::vector<int>(64, 0));
  }
  // Integer levels (the exact-bin path): an empty and a reversed range.
  for (const std::pair<int, int>& range : std::vector<std::pair<int, int>>{{100, 100}, {200, 10}})
  {
    const int lower = range.first;
    const int upper = range.second;
    INFO("Even range [" << lower << ", " << upper << ") of int levels");
    const std::vector<int> counts = run(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples.data(), d_histogram.data(), 33, lower,
                                                        upper, int(samples.size()));
        });
    CHECK(std::vector<int>(counts.begin(), counts.begin() + 32) == std::vector<int>(32, 0));
  }

  // Overlapping rows: one bin a byte value, each row counted whole.
  std::vector<int> expected(256, 0);
  for (int r = 0; r < rows; ++r)
  {
    for (int i = 0; i < row_pixels; ++i)
    {
      ++expected[samples[std::size_t(r) * stride + std::size_t(i)]];
    }
  }
  const std::vector<int> counts = run(
      [&](void* d_temp, std::size_t& bytes)
      {
        return strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples.data(), d_histogram.data(), 257, 0, 256,
                                                      row_pixels, rows, std::size_t(stride));
      });
  strata_test::check_equal(expected, counts);
}

TEST_CASE("DeviceHistogram with no samples clears the histograms and writes nothing else", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1403);
  INFO("seed " << seed);
  for (const histogram_call& call : all_calls())
  {
    INFO(call.name);
    histogram_buffers buffers(seed);
    const histogram_args args = buffers.args();
    std::vector<histogram_args> empties;
    histogram_args empty = args;
    empty.row_pixels     = 0;
    empties.push_back(empty);
    empty.samples = nullptr; // nothing is read: no samples pointer is needed
    empties.push_back(empty);
    if (call.two_d)
    {
      empty      = args;
      empty.rows = 0;
      empties.push_back(empty);
      empty.row_pixels       = 0;
      empty.rows             = 1;
      empty.row_stride_bytes = 0;
      empties.push_back(empty);
    }
    for (std::size_t e = 0; e < empties.size(); ++e)
    {
      INFO("empty input " << e << ": " << empties[e].row_pixels << " per row, " << empties[e].rows << " rows, "
                          << (empties[e].samples == nullptr ? "no samples pointer" : "a samples pointer"));
      buffers.poison();
      const std::vector<std::vector<unsigned char>> before = buffers.state();
      std::size_t bytes                                    = query_bytes(call, empties[e]);
      device_buffer<unsigned char> d_temp(bytes);
      STRATA_TEST_CUDA(call.run(d_temp.data(), bytes, empties[e], nullptr));
      strata_test::check_launch();
      const std::vector<std::vector<unsigned char>> after = buffers.state();
      CHECK(after[0] == before[0]);
      CHECK(after[1] == before[1]);
      std::vector<int> expected(3 * bins_per_channel, strata_test::poison_value<int>());
      std::fill(expected.begin(), expected.begin() + call.channels * bins_per_channel, 0);
      strata_test::check_equal(expected, buffers.histograms());
    }
  }
}

TEST_CASE("DeviceHistogram runs inside a CUDA graph and on two streams at once", "[device][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1405);
  INFO("seed " << seed);
  const std::size_t n             = 3000017;
  const std::vector<float> a      = strata_test::histogram_samples<float>(n, seed);
  const std::vector<float> b      = strata_test::histogram_samples<float>(4 * n, seed + 1);
  const std::vector<float> levels = strata_test::random_levels<float, float>(1001, seed + 2);
  device_buffer<float> d_a(a);
  device_buffer<float> d_b(b);
  device_buffer<float> d_levels(levels);
  device_buffer<unsigned> d_hist_a(300);
  device_buffer<int> d_hist_b(3 * 1000);
  const strata_test::even_reference<float, float> reference_a(-90.5f, 95.25f, 301);
  const strata_test::range_reference<float, float> reference_b(levels);
  const std::vector<std::uint64_t> expected_a = strata_test::reference_prefix_histograms(a, {n}, reference_a)[0];
  std::vector<std::uint64_t> expected_b;
  for (int c = 0; c < 3; ++c)
  {
    const std::vector<std::uint64_t> channel =
        strata_test::reference_channel_histogram<4>(b, c, n, 1, 4 * n, reference_b);
    expected_b.insert(expected_b.end(), channel.begin(), channel.end());
  }
  const auto even_a = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceHistogram::HistogramEven(d_temp, bytes, static_cast<const float*>(d_a.data()), d_hist_a.data(),
                                                  301, -90.5f, 95.25f, std::int64_t(n), stream);
  };
  const auto range_b = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    const float* level_ptr = d_levels.data();
    return strata::DeviceHistogram::MultiHistogramRange<4, 3>(
        d_temp, bytes, static_cast<const float*>(d_b.data()),
        cuda::std::array<int*, 3>{d_hist_b.data(), d_hist_b.data() + 1000, d_hist_b.data() + 2000},
        cuda::std::array<int, 3>{1001, 1001, 1001}, cuda::std::array<const float*, 3>{level_ptr, level_ptr, level_ptr},
        int(n), stream);
  };
  std::size_t bytes_a = 0;
  std::size_t bytes_b = 0;
  STRATA_TEST_CUDA(even_a(nullptr, bytes_a, nullptr));
  STRATA_TEST_CUDA(range_b(nullptr, bytes_b, nullptr));
  device_buffer<unsigned char> d_temp_a(bytes_a);
  device_buffer<unsigned char> d_temp_b(bytes_b);
  const auto check_a = [&] { strata_test::check_histogram(expected_a, d_hist_a); };
  const auto check_b = [&] { strata_test::check_histogram(expected_b, d_hist_b); };
  const strata_test::stream_pair streams;

  SECTION("HistogramEven in a graph")
  {
    strata_test::check_graph_replay(
        streams[0], [&](cudaStream_t stream) { return even_a(d_temp_a.data(), bytes_a, stream); },
        [&] { d_hist_a.poison(); }, check_a);
  }
  SECTION("MultiHistogramRange<4, 3> in a graph")
  {
    strata_test::check_graph_replay(
        streams[1], [&](cudaStream_t stream) { return range_b(d_temp_b.data(), bytes_b, stream); },
        [&] { d_hist_b.poison(); }, check_b);
  }
  SECTION("two streams")
  {
    d_hist_a.poison();
    d_hist_b.poison();
    strata_test::run_on_two_streams(
        streams, [&](cudaStream_t stream) { return even_a(d_temp_a.data(), bytes_a, stream); },
        [&](cudaStream_t stream) { return range_b(d_temp_b.data(), bytes_b, stream); });
    check_a();
    check_b();
  }
}

TEST_CASE("DispatchHistogram with CUB's template parameter list, with and without CUB's is_byte_sample tag",
          "[device][histogram][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1407);
  INFO("seed " << seed);
  const std::size_t n              = 100003;
  const std::vector<float> samples = strata_test::histogram_samples<float>(n, seed);
  const std::vector<float> levels  = strata_test::random_levels<float, float>(101, seed + 1);
  const device_buffer<float> d_samples(samples);
  const device_buffer<float> d_levels(levels);
  const float* samples_ptr = d_samples.data();
  const float* levels_ptr  = d_levels.data();
  const strata_test::even_reference<float, float> even(-90.5f, 95.25f, 101);
  const strata_test::range_reference<float, float> range(levels);
  const std::vector<std::uint64_t> expected_even  = strata_test::reference_prefix_histograms(samples, {n}, even)[0];
  const std::vector<std::uint64_t> expected_range = strata_test::reference_prefix_histograms(samples, {n}, range)[0];
  // RGBA bytes: 640 x 300 pixels, rows 2600 bytes apart (CUB's dispatch takes the stride in samples).
  const int row_pixels             = 640;
  const int rows                   = 300;
  const int row_stride             = 2600;
  std::vector<std::uint8_t> pixels = strata_test::random_vector<std::uint8_t>(std::size_t(rows * row_stride), seed + 2);
  const device_buffer<std::uint8_t> d_pixels(pixels);
  const std::uint8_t* pixels_ptr     = d_pixels.data();
  const std::vector<int> byte_levels = {0, 3, 64, 65, 128, 200, 255, 256};
  const device_buffer<int> d_byte_levels(byte_levels);
  const int* byte_levels_ptr = d_byte_levels.data();
  const auto expected_bytes  = [&](const auto& reference)
  {
    std::vector<std::uint64_t> expected;
    for (int c = 0; c < 3; ++c)
    {
      const std::vector<std::uint64_t> channel = strata_test::reference_channel_histogram<4>(
          pixels, c, std::size_t(row_pixels), std::size_t(rows), std::size_t(row_stride), reference);
      expected.insert(expected.end(), channel.begin(), channel.end());
    }
    return expected;
  };

  SECTION("DispatchEven<1, 1, const float*, int, float, int>")
  {
    using dispatch_t = strata::DispatchHistogram<1, 1, const float*, int, float, int>;
    device_buffer<int> d_histogram(100);
    for (const bool tag : {false, true})
    {
      INFO((tag ? "with" : "without") << " the tag");
      d_histogram.poison();
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            const cuda::std::array<int*, 1> histograms = {d_histogram.data()};
            if (tag)
            {
              return dispatch_t::DispatchEven(d_temp, bytes, samples_ptr, histograms, {101}, {-90.5f}, {95.25f}, int(n),
                                              1, int(n), cudaStream_t{}, cuda::std::false_type{});
            }
            return dispatch_t::DispatchEven(d_temp, bytes, samples_ptr, histograms, {101}, {-90.5f}, {95.25f}, int(n),
                                            1, int(n), cudaStream_t{});
          });
      strata_test::check_histogram(expected_even, d_histogram);
    }
  }
  SECTION("DispatchRange<1, 1, const float*, long long, float, std::int64_t>")
  {
    using dispatch_t = strata::DispatchHistogram<1, 1, const float*, long long, float, std::int64_t>;
    device_buffer<long long> d_histogram(100);
    for (const bool tag : {false, true})
    {
      INFO((tag ? "with" : "without") << " the tag");
      d_histogram.poison();
      strata_test::run_histogram(
          [&](void* d_temp, std::size_t& bytes)
          {
            const cuda::std::array<long long*, 1> histograms   = {d_histogram.data()};
            const cuda::std::array<const float*, 1> level_ptrs = {levels_ptr};
            if (tag)
            {
              return dispatch_t::DispatchRange(d_temp, bytes, samples_ptr, histograms, {101}, level_ptrs,
                                               std::int64_t(n), std::int64_t(1), std::int64_t(n), cudaStream_t{},
                                               cuda::std::false_type{});
            }
            return dispatch_t::DispatchRange(d_temp, bytes, samples_ptr, histograms, {101}, level_ptrs, std::int64_t(n),
                                             std::int64_t(1), std::int64_t(n), cudaStream_t{});
          });
      strata_test::check_histogram(expected_range, d_histogram);
    }
  }
  SECTION("DispatchEven and DispatchRange<4, 3, const std::uint8_t*, unsigned, int, int>, 2-D, tag true_type")
  {
    using dispatch_t = strata::DispatchHistogram<4, 3, const std::uint8_t*, unsigned, int, int>;
    device_buffer<unsigned> d_histogram(3 * 256);
    const cuda::std::array<unsigned*, 3> histograms = {d_histogram.data(), d_histogram.data() + 256,
                                                       d_histogram.data() + 512};
    d_histogram.poison();
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return dispatch_t::DispatchEven(d_temp, bytes, pixels_ptr, histograms, {257, 257, 257}, {0, 0, 0},
                                          {256, 256, 256}, row_pixels, rows, row_stride, cudaStream_t{},
                                          cuda::std::true_type{});
        });
    strata_test::check_histogram(expected_bytes(strata_test::even_reference<std::uint8_t, int>(0, 256, 257)),
                                 d_histogram);
    d_histogram.poison();
    const cuda::std::array<unsigned*, 3> range_histograms = {d_histogram.data(), d_histogram.data() + 7,
                                                             d_histogram.data() + 14};
    strata_test::run_histogram(
        [&](void* d_temp, std::size_t& bytes)
        {
          return dispatch_t::DispatchRange(d_temp, bytes, pixels_ptr, range_histograms, {8, 8, 8},
                                           {byte_levels_ptr, byte_levels_ptr, byte_levels_ptr}, row_pixels, rows,
                                           row_stride, cudaStream_t{}, cuda::std::true_type{});
        });
    std::vector<std::uint64_t> expected  = expected_bytes(strata_test::range_reference<std::uint8_t, int>(byte_levels));
    const std::vector<unsigned> counters = d_histogram.download();
    std::vector<std::uint64_t> actual(expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
    {
      actual[i] = counters[i];
    }
    strata_test::check_equal(expected, actual);
    for (std::size_t i = 21; i < counters.size(); ++i)
    {
      CHECK(counters[i] == strata_test::poison_value<unsigned>());
    }
  }
}

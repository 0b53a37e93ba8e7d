// DeviceHistogram, strata and CUB side by side on the same device buffers: HistogramEven of
// uniform random u32 samples (2^20 and 2^28 of them) into 1, 32, 256 and 4096 bins over [0,
// 2^32 - 1) (u32 levels: both libraries compute the exact bin in 64-bit integers), and
// MultiHistogramEven<4, 3> of RGBA u8 pixels (2^20 and 2^26, random bytes) into 256 bins per
// colour channel over [0, 256) (int levels), alpha not counted. int counters. Inputs rotate through
// copies filling 256 MiB (bench_common.cuh), so that no run finds them in L2. Bytes: every sample
// read once (the alpha bytes too: they are loaded with the pixel) and every counter written once.
// The temp_bytes counter is each library's temporary storage. strata's row first checks, once per
// configuration, that both libraries write the same histograms, counter for counter.
#include <strata/device/device_histogram.cuh>

#include <cub/device/device_histogram.cuh>

#include "bench_common.cuh"

#include <cuda/std/array>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using u8  = std::uint8_t;
using u32 = std::uint32_t;

//! The function a row measures.
enum class form
{
  even_u32, // HistogramEven of u32 samples
  rgba_u8   // MultiHistogramEven<4, 3> of RGBA u8 pixels
};

constexpr int rgba_bins = 256;

//! The histograms of one call (bench::scratch slot 0): `bins` counters per counted channel.
struct histograms
{
  int* d_counters;
  int bins;
  int channels;

  std::size_t size() const
  {
    return std::size_t(bins) * std::size_t(channels);
  }
};

//! One two-phase call of FORM by strata (STRATA) or CUB over n samples (even_u32) or pixels
//! (rgba_u8) at d_input; the signatures are the same.
template <form FORM, bool STRATA>
cudaError_t histogram(void* d_temp, std::size_t& temp_bytes, const u32* d_input, const histograms& out, std::int64_t n,
                      cudaStream_t stream)
{
  using HistogramT = std::conditional_t<STRATA, strata::DeviceHistogram, cub::DeviceHistogram>;
  if constexpr (FORM == form::even_u32)
  {
    return HistogramT::HistogramEven(d_temp, temp_bytes, d_input, out.d_counters, out.bins + 1, u32(0),
                                     u32(0xFFFFFFFFu), n, stream);
  }
  else
  {
    const cuda::std::array<int*, 3> counters = {out.d_counters, out.d_counters + rgba_bins,
                                                out.d_counters + 2 * rgba_bins};
    return HistogramT::template MultiHistogramEven<4, 3>(
        d_temp, temp_bytes, reinterpret_cast<const u8*>(d_input), counters,
        cuda::std::array<int, 3>{rgba_bins + 1, rgba_bins + 1, rgba_bins + 1}, cuda::std::array<int, 3>{0, 0, 0},
        cuda::std::array<int, 3>{256, 256, 256}, n, stream);
  }
}

//! One call of FORM by strata (STRATA) or CUB into poisoned counters; returns them.
template <form FORM, bool STRATA>
std::vector<int> histogram_once(const u32* d_input, const histograms& out, std::int64_t n)
{
  bench::poison(out.d_counters, out.size());
  std::size_t temp_bytes = 0;
  bench::check(histogram<FORM, STRATA>(nullptr, temp_bytes, d_input, out, n, cudaStream_t(0)), "size query");
  bench::check(histogram<FORM, STRATA>(bench::scratch(1, temp_bytes), temp_bytes, d_input, out, n, cudaStream_t(0)),
               "histogram");
  bench::check(cudaDeviceSynchronize(), "histogram");
  return bench::download(out.d_counters, out.size());
}

//! Times strata's (STRATA) or CUB's call of FORM over rotating inputs of state.range(0) samples
//! or pixels into `bins` bins per channel. strata's row first compares both libraries' histograms,
//! once per configuration.
template <form FORM, bool STRATA>
void histogram_row(benchmark::State& state, const std::string& configuration, int bins)
{
  const auto n                       = static_cast<std::size_t>(state.range(0));
  bench::rotating_buffer<u32>& input = bench::shared_rotating_buffer<u32>(n); // a pixel is one u32 too
  const histograms out{nullptr, bins, FORM == form::even_u32 ? 1 : 3};
  histograms call = out;
  call.d_counters = static_cast<int*>(bench::scratch(0, out.size() * sizeof(int)));
  if constexpr (STRATA)
  {
    const std::string sized = configuration + "/" + std::to_string(n);
    if (bench::first_run(sized))
    {
      const u32* d_input                = input.next();
      const std::vector<int> strata_out = histogram_once<FORM, true>(d_input, call, std::int64_t(n));
      const std::vector<int> cub_out    = histogram_once<FORM, false>(d_input, call, std::int64_t(n));
      if (!bench::record(state, sized, bench::compare_exact(strata_out, cub_out)))
      {
        return;
      }
    }
  }
  std::size_t temp_bytes = 0;
  bench::check(histogram<FORM, STRATA>(nullptr, temp_bytes, input.next(), call, std::int64_t(n), cudaStream_t(0)),
               "size query");
  void* d_temp = bench::scratch(1, temp_bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           bench::check(
                               histogram<FORM, STRATA>(d_temp, temp_bytes, input.next(), call, std::int64_t(n), stream),
                               "histogram");
                         });
  bench::set_throughput(state, n, n * sizeof(u32) + call.size() * sizeof(int));
  state.counters["temp_bytes"] = double(temp_bytes);
}

//! Registers '<algorithm>/<library>/<type>/<samples or pixels>' for strata (STRATA) or CUB.
template <form FORM, bool STRATA>
void register_row(const std::string& algorithm, const std::string& type, int bins,
                  const std::vector<std::int64_t>& sizes)
{
  const std::string configuration = algorithm + "/" + type;
  const std::string name          = bench::mode_name(algorithm + (STRATA ? "/strata/" : "/cub/") + type);
  auto* row = benchmark::RegisterBenchmark(name.c_str(), [configuration, bins](benchmark::State& state)
                                           { histogram_row<FORM, STRATA>(state, configuration, bins); });
  for (const std::int64_t n : sizes)
  {
    row->Arg(n);
  }
  row->UseManualTime()->Unit(benchmark::kMicrosecond);
}

template <form FORM>
void register_both(const std::string& algorithm, const std::string& type, int bins,
                   const std::vector<std::int64_t>& sizes)
{
  register_row<FORM, true>(algorithm, type, bins, sizes);
  register_row<FORM, false>(algorithm, type, bins, sizes);
}

[[maybe_unused]] const bool registered = []
{
  // The sizes of the summary in docs/performance.md.
  const std::vector<std::int64_t> samples = {std::int64_t(1) << 16, std::int64_t(1) << 20, std::int64_t(1) << 24,
                                             std::int64_t(1) << 28};
  for (const int bins : {1, 32, 256, 4096})
  {
    register_both<form::even_u32>("DeviceHistogram::HistogramEven(" + std::to_string(bins)
                                      + (bins == 1 ? " bin)" : " bins)"),
                                  "u32", bins, samples);
  }
  register_both<form::rgba_u8>("DeviceHistogram::MultiHistogramEven<4,3>(256 bins)", "rgba_u8", rgba_bins,
                               {std::int64_t(1) << 20, std::int64_t(1) << 26});
  return true;
}();
} // namespace

STRATA_BENCH_MAIN()

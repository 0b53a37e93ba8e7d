// benchmark/bench_common.cuh: device buffers filled with cuRAND, inputs rotated (or the L2 cache
// flushed) so that no run measures the cache, the cold-L2 mode, CUDA-event timing for Google
// Benchmark's manual time, the byte/item counters every benchmark reports, the comparison of
// strata's output with CUB's that every configuration makes once, outside the timed region, the
// cudaMemcpy baseline and the registration macros.
#pragma once

#include <benchmark/benchmark.h>
#include <cub/version.cuh>
#include <cuda_runtime_api.h>
#include <curand.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace bench
{
//! Names the GPU, CUDA and CUB in the JSON context of every benchmark program (key "gpu"), so
//! that scripts/bench-report can say what a run measured.
inline const bool gpu_in_context = []
{
  cudaDeviceProp prop{};
  int runtime = 0;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess && cudaRuntimeGetVersion(&runtime) == cudaSuccess)
  {
    benchmark::AddCustomContext("gpu", std::string(prop.name) + " (sm_" + std::to_string(prop.major * 10 + prop.minor)
                                           + "), CUDA " + std::to_string(runtime / 1000) + "."
                                           + std::to_string(runtime % 1000 / 10) + ", CUB "
                                           + std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION)
                                           + "." + std::to_string(CUB_SUBMINOR_VERSION));
  }
  return true;
}();

//! Aborts the benchmark program on a CUDA error: a failed run must not report a time.
inline void check(cudaError_t error, const char* what)
{
  if (error != cudaSuccess)
  {
    std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(error));
    std::exit(1);
  }
}

inline void check(curandStatus_t status, const char* what)
{
  if (status != CURAND_STATUS_SUCCESS)
  {
    std::fprintf(stderr, "cuRAND error %d in %s\n", static_cast<int>(status), what);
    std::exit(1);
  }
}

//! A device allocation of `size` T.
template <typename T>
class device_buffer
{
public:
  explicit device_buffer(std::size_t size)
      : size_(size)
  {
    check(cudaMalloc(&data_, size * sizeof(T)), "cudaMalloc");
  }
  device_buffer(const device_buffer&)            = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer()
  {
    cudaFree(data_);
  }
  T* data() const
  {
    return data_;
  }
  std::size_t size() const
  {
    return size_;
  }
  std::size_t bytes() const
  {
    return size_ * sizeof(T);
  }

private:
  T* data_ = nullptr;
  std::size_t size_;
};

//! Fills a buffer with random data generated on the device, never zeros: random bits for integers
//! (T a whole number of 32-bit words), standard normal values for float and double, so that sums
//! and comparisons of floating-point data meet no NaN or infinity (n even for those).
template <typename T>
void fill_random(device_buffer<T>& buffer, std::uint64_t seed)
{
  static_assert(sizeof(T) % 4 == 0, "fill_random fills 32-bit words");
  curandGenerator_t generator;
  check(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10), "curandCreateGenerator");
  check(curandSetPseudoRandomGeneratorSeed(generator, seed), "curandSetPseudoRandomGeneratorSeed");
  if constexpr (std::is_same_v<T, float>)
  {
    check(curandGenerateNormal(generator, buffer.data(), buffer.size(), 0.0f, 1.0f), "curandGenerateNormal");
  }
  else if constexpr (std::is_same_v<T, double>)
  {
    check(curandGenerateNormalDouble(generator, buffer.data(), buffer.size(), 0.0, 1.0), "curandGenerateNormalDouble");
  }
  else
  {
    check(curandGenerate(generator, reinterpret_cast<unsigned int*>(buffer.data()), buffer.bytes() / 4),
          "curandGenerate");
  }
  check(curandDestroyGenerator(generator), "curandDestroyGenerator");
  check(cudaDeviceSynchronize(), "fill_random");
}

//! Bytes of rotated data: several times the L2 cache (50 MB on the H100), so that a buffer handed
//! out by rotating_buffer has left the cache by the time its turn comes again.
inline constexpr std::size_t rotation_bytes = std::size_t(256) << 20;

//! `copies` random copies of an n-item buffer side by side (as many as fill rotation_bytes, at
//! least one); next() hands them out in turn. A benchmark that takes a new copy for every run
//! never finds its input in L2, whatever n is; inputs of rotation_bytes and more are one copy,
//! far larger than L2 already.
template <typename T>
class rotating_buffer
{
public:
  rotating_buffer(std::size_t n, std::uint64_t seed)
      : n_(n)
      , copies_(n * sizeof(T) >= rotation_bytes ? 1 : rotation_bytes / (n * sizeof(T)))
      , buffer_(n * copies_)
  {
    fill_random(buffer_, seed);
  }
  T* next()
  {
    T* at = buffer_.data() + (turn_ % copies_) * n_;
    ++turn_;
    return at;
  }
  std::size_t copies() const
  {
    return copies_;
  }

private:
  std::size_t n_;
  std::size_t copies_;
  device_buffer<T> buffer_;
  std::size_t turn_ = 0;
};

//! One rotating_buffer of n items of T per program, shared by every benchmark that asks for it
//! (strata's and CUB's runs of one case then read the same data).
template <typename T>
rotating_buffer<T>& shared_rotating_buffer(std::size_t n)
{
  static std::map<std::size_t, std::unique_ptr<rotating_buffer<T>>> buffers;
  auto& slot = buffers[n];
  if (!slot)
  {
    slot = std::make_unique<rotating_buffer<T>>(n, 2031 + n * sizeof(T));
  }
  return *slot;
}

//! Evicts the L2 cache on `stream` by writing a buffer of twice its size: for benchmarks whose
//! data cannot rotate. Call it before the timed region (time_iterations takes it as `before`).
inline void flush_l2(cudaStream_t stream)
{
  static const std::size_t bytes = []
  {
    int device   = 0;
    int l2_bytes = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute");
    return 2 * static_cast<std::size_t>(l2_bytes > 0 ? l2_bytes : 64 << 20);
  }();
  static device_buffer<unsigned char> scratch(bytes);
  check(cudaMemsetAsync(scratch.data(), 0, scratch.bytes(), stream), "flush_l2");
}

//! Whether this run flushes L2 before every timed call (environment STRATA_BENCH_COLD_L2 set and
//! not 0). Rotated inputs already come from memory; cold L2 also sends the temporary storage,
//! the output and the tile descriptors there, as in a user's call that follows other work.
inline bool cold_l2()
{
  static const bool on = []
  {
    const char* value = std::getenv("STRATA_BENCH_COLD_L2");
    return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
  }();
  return on;
}

//! A benchmark's name in this run's mode: cold-L2 runs add " (cold L2)" to the algorithm (the part
//! before the first '/'), so that the two modes are reported side by side.
inline std::string mode_name(const std::string& name)
{
  if (!cold_l2())
  {
    return name;
  }
  const std::size_t slash = name.find('/');
  return name.substr(0, slash) + " (cold L2)" + (slash == std::string::npos ? "" : name.substr(slash));
}

//! Does nothing before a timed run (the default of time_iterations).
struct no_setup
{
  void operator()(cudaStream_t) const {}
};

//! Runs `launch(stream)` once per benchmark iteration, timed with CUDA events as manual time;
//! `before(stream)` (e.g. flush_l2) runs before each timed region, outside it, and so does
//! flush_l2 in the cold-L2 mode.
template <typename LaunchT, typename BeforeT = no_setup>
void time_iterations(benchmark::State& state, LaunchT&& launch, BeforeT&& before = {})
{
  cudaStream_t stream;
  cudaEvent_t start;
  cudaEvent_t stop;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  launch(stream); // warm-up: module load and first-touch stay out of the numbers
  check(cudaStreamSynchronize(stream), "warm-up");
  for (auto _ : state)
  {
    if (cold_l2())
    {
      flush_l2(stream);
    }
    before(stream);
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    launch(stream);
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    state.SetIterationTime(ms / 1000.0);
  }
  check(cudaGetLastError(), "launch");
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
}

//! Reports items/s and bytes/s (bytes counted once per read and once per write) as Google
//! Benchmark's items_per_second and bytes_per_second counters.
inline void set_throughput(benchmark::State& state, std::size_t items, std::size_t bytes)
{
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(items));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
}

//! Copies n items from the device to a new host vector.
template <typename T>
std::vector<T> download(const T* d_items, std::size_t n)
{
  std::vector<T> host(n);
  check(cudaMemcpy(host.data(), d_items, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return host;
}

//! Fills n items with the byte 0xCD and waits: an output a library fails to write keeps it.
template <typename T>
void poison(T* d_items, std::size_t n)
{
  check(cudaMemset(d_items, 0xCD, n * sizeof(T)), "poison");
  check(cudaDeviceSynchronize(), "poison");
}

//! Device memory of slot `slot` (0-5: e.g. keys out, values out, temporary storage) of at least
//! `bytes`, grown as needed and kept for the program's life: outputs and temporary storage that
//! every row of a benchmark reuses.
inline void* scratch(int slot, std::size_t bytes)
{
  static std::size_t sizes[6] = {};
  static void* ptrs[6]        = {};
  if (bytes > sizes[slot])
  {
    cudaFree(ptrs[slot]);
    check(cudaMalloc(&ptrs[slot], bytes), "cudaMalloc scratch");
    sizes[slot] = bytes;
  }
  return ptrs[slot];
}

//! True the first time `configuration` is named in this process: a configuration compares
//! strata with CUB once, not in every repetition.
inline bool first_run(const std::string& configuration)
{
  static std::set<std::string> seen;
  return seen.insert(configuration).second;
}

//! Configurations whose strata output disagreed with CUB's (STRATA_BENCH_MAIN's exit status).
inline int& disagreements()
{
  static int count = 0;
  return count;
}

//! Records the comparison of one configuration; `mismatch` is empty when the outputs agree.
//! Otherwise the row reports an error (SkipWithError: "error_occurred" in the JSON), the message
//! goes to stderr and the program exits with status 1 at the end. Returns whether they agree.
inline bool record(benchmark::State& state, const std::string& configuration, const std::string& mismatch)
{
  if (mismatch.empty())
  {
    return true;
  }
  ++disagreements();
  const std::string message = "strata and CUB disagree on " + configuration + ": " + mismatch;
  std::fprintf(stderr, "%s\n", message.c_str());
  state.SkipWithError(message.c_str());
  return false;
}

//! Bitwise equality, NaN equal to itself.
template <typename T>
bool same_value(const T& a, const T& b)
{
  if constexpr (std::is_floating_point_v<T>)
  {
    if (std::isnan(a) && std::isnan(b))
    {
      return true;
    }
  }
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

//! Exact comparison of two outputs: "" or the number of mismatches and the first one.
template <typename T>
std::string compare_exact(const std::vector<T>& strata_out, const std::vector<T>& cub_out)
{
  std::size_t mismatches = 0;
  std::size_t first      = 0;
  for (std::size_t i = 0; i < strata_out.size(); ++i)
  {
    if (!same_value(strata_out[i], cub_out[i]) && mismatches++ == 0)
    {
      first = i;
    }
  }
  if (mismatches == 0 && strata_out.size() == cub_out.size())
  {
    return "";
  }
  std::ostringstream text;
  text << mismatches << " of " << strata_out.size() << " items differ; first at " << first;
  if constexpr (std::is_arithmetic_v<T>)
  {
    text << ": strata " << +strata_out[first] << ", CUB " << +cub_out[first];
  }
  return text.str();
}

//! How far two floating-point sums of the same `terms` terms may lie apart when the terms' absolute
//! values add up to `magnitude`: reassociation moves each by rounding errors that grow like the
//! square root of the number of terms in practice (linearly at worst, which caps the bound).
template <typename T>
double sum_tolerance(double magnitude, double terms)
{
  const double eps = static_cast<double>(std::numeric_limits<T>::epsilon());
  return eps * magnitude * std::min(terms, 4.0 * std::sqrt(terms));
}

//! Comparison of floating-point sums: item i may differ by sum_tolerance(magnitude[i], terms[i]).
template <typename T>
std::string compare_sums(const std::vector<T>& strata_out, const std::vector<T>& cub_out,
                         const std::vector<double>& magnitude, const std::vector<double>& terms)
{
  std::size_t mismatches = 0;
  std::size_t first      = 0;
  for (std::size_t i = 0; i < strata_out.size(); ++i)
  {
    const double difference = std::fabs(double(strata_out[i]) - double(cub_out[i]));
    if (!(difference <= sum_tolerance<T>(magnitude[i], terms[i])) && mismatches++ == 0)
    {
      first = i;
    }
  }
  if (mismatches == 0)
  {
    return "";
  }
  std::ostringstream text;
  text.precision(9);
  text << mismatches << " of " << strata_out.size() << " sums differ beyond rounding; first at " << first << ": strata "
       << strata_out[first] << ", CUB " << cub_out[first] << ", tolerance "
       << sum_tolerance<T>(magnitude[first], terms[first]);
  return text.str();
}
//! cudaMemcpy device to device of n items of T, as many bytes read as written: the ceiling every
//! row's "% of copy" is set against (rows 'cudaMemcpy/<type>/<items>').
template <typename T>
void memcpy_d2d(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = shared_rotating_buffer<T>(n);
  static std::map<std::size_t, std::unique_ptr<device_buffer<T>>> outputs;
  auto& out = outputs[n];
  if (!out)
  {
    out = std::make_unique<device_buffer<T>>(n);
  }
  time_iterations(
      state, [&](cudaStream_t stream)
      { check(cudaMemcpyAsync(out->data(), in.next(), n * sizeof(T), cudaMemcpyDeviceToDevice, stream), "memcpy"); });
  set_throughput(state, n, 2 * n * sizeof(T));
}
} // namespace bench

//! Registers FUNC as NAME (in this run's mode, bench::mode_name) over 2^16, 2^20, 2^24 and 2^28
//! items, with manual time in microseconds.
#define STRATA_BENCH_REGISTER(FUNC, NAME)                                                                              \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(::bench::mode_name(NAME))                                                                                 \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 28)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)

//! Rows '<GROUP>/strata/<T>' and '<GROUP>/cub/<T>' from FUNC_T<true> and FUNC_T<false>, which
//! scripts/bench-summary and scripts/bench-report pair into a strata/CUB ratio.
#define STRATA_BENCH_REGISTER_BOTH(FUNC, GROUP, T)                                                                     \
  STRATA_BENCH_REGISTER(FUNC##_##T<true>, GROUP "/strata/" #T);                                                        \
  STRATA_BENCH_REGISTER(FUNC##_##T<false>, GROUP "/cub/" #T)

//! main() of a benchmark program: Google Benchmark's, with exit status 1 when any configuration's
//! strata output disagreed with CUB's.
#define STRATA_BENCH_MAIN()                                                                                            \
  int main(int argc, char** argv)                                                                                      \
  {                                                                                                                    \
    ::benchmark::Initialize(&argc, argv);                                                                              \
    if (::benchmark::ReportUnrecognizedArguments(argc, argv))                                                          \
    {                                                                                                                  \
      return 1;                                                                                                        \
    }                                                                                                                  \
    ::benchmark::RunSpecifiedBenchmarks();                                                                             \
    ::benchmark::Shutdown();                                                                                           \
    return ::bench::disagreements() == 0 ? 0 : 1;                                                                      \
  }

// benchmark/bench_common.cuh: device buffers filled with cuRAND, inputs rotated (or the L2 cache
// flushed) so that no run measures the cache, CUDA-event timing for Google Benchmark's manual
// time, and the byte/item counters every benchmark reports.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <curand.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

namespace bench
{
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

//! Fills a buffer with random bits generated on the device (never zeros; T must be a whole number
//! of 32-bit words).
template <typename T>
void fill_random(device_buffer<T>& buffer, std::uint64_t seed)
{
  static_assert(sizeof(T) % 4 == 0, "fill_random fills 32-bit words");
  curandGenerator_t generator;
  check(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10), "curandCreateGenerator");
  check(curandSetPseudoRandomGeneratorSeed(generator, seed), "curandSetPseudoRandomGeneratorSeed");
  check(curandGenerate(generator, reinterpret_cast<unsigned int*>(buffer.data()), buffer.bytes() / 4),
        "curandGenerate");
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

//! Does nothing before a timed run (the default of time_iterations).
struct no_setup
{
  void operator()(cudaStream_t) const {}
};

//! Runs `launch(stream)` once per benchmark iteration, timed with CUDA events as manual time;
//! `before(stream)` (e.g. flush_l2) runs before each timed region, outside it.
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
} // namespace bench

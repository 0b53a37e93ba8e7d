// benchmark/bench_common.cuh: device buffers filled with cuRAND, CUDA-event timing for Google
// Benchmark's manual time, and the byte/item counters every benchmark reports.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <curand.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

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

//! Runs `launch(stream)` once per benchmark iteration, timed with CUDA events as manual time.
template <typename LaunchT>
void time_iterations(benchmark::State& state, LaunchT&& launch)
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

//! Reports items/s and bytes/s (bytes counted once per read and once per write).
inline void set_throughput(benchmark::State& state, std::size_t items, std::size_t bytes)
{
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(items));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
}
} // namespace bench

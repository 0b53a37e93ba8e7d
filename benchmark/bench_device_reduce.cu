// DeviceReduce (Sum, Min, Max, ArgMin, ArgMax, TransformReduce) and DeviceTransform, strata and
// CUB side by side on the same device buffers, at 2^16, 2^20, 2^24 and 2^28 items of u32, f32 and
// u64 (and f64 for Sum). Inputs smaller than 256 MiB rotate through enough copies that no run
// finds its input in the 50 MB L2. Bytes count every read and write once.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_transform.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

namespace
{
constexpr std::size_t rotation_bytes = std::size_t(256) << 20;

//! `copies` random copies of an n-item input, side by side; next() hands them out in turn.
template <typename T>
class rotating_input
{
public:
  explicit rotating_input(std::size_t n)
      : n_(n)
      , copies_(n * sizeof(T) >= rotation_bytes ? 1 : rotation_bytes / (n * sizeof(T)))
      , buffer_(n * copies_)
  {
    bench::fill_random(buffer_, 2029 + n);
  }
  const T* next()
  {
    const T* at = buffer_.data() + (turn_ % copies_) * n_;
    ++turn_;
    return at;
  }

private:
  std::size_t n_;
  std::size_t copies_;
  bench::device_buffer<T> buffer_;
  std::size_t turn_ = 0;
};

//! One input per (type, size), shared by strata's and CUB's runs.
template <typename T>
rotating_input<T>& input(std::size_t n)
{
  static std::map<std::size_t, std::unique_ptr<rotating_input<T>>> inputs;
  auto& slot = inputs[n];
  if (!slot)
  {
    slot = std::make_unique<rotating_input<T>>(n);
  }
  return *slot;
}

//! Output and temporary storage, grown as needed and kept.
inline void* scratch(std::size_t bytes)
{
  static std::size_t size = 0;
  static void* ptr        = nullptr;
  if (bytes > size)
  {
    cudaFree(ptr);
    bench::check(cudaMalloc(&ptr, bytes), "cudaMalloc scratch");
    size = bytes;
  }
  return ptr;
}

struct square
{
  template <typename T>
  __device__ std::uint64_t operator()(T x) const
  {
    return std::uint64_t(x) * std::uint64_t(x);
  }
};

struct times_three
{
  template <typename T>
  __device__ T operator()(T x) const
  {
    return x * T(3);
  }
};

//! Times `call(d_temp, bytes, d_in)` (a two-phase reduction with its output bound) over a
//! rotating input of n items of T; bytes = the input read.
template <typename T, typename CallT>
void time_reduction(benchmark::State& state, CallT call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = input<T>(n);
  std::size_t bytes   = 0;
  bench::check(call(nullptr, bytes, in.next()), "size query");
  void* d_temp = scratch(bytes + 256);
  bench::time_iterations(state, [&](cudaStream_t stream) {
    bench::check(call(d_temp, bytes, in.next(), stream), "reduction");
  });
  bench::set_throughput(state, n, n * sizeof(T));
}

// The output of every reduction: past the temporary storage's region, in its own allocation.
template <typename T>
T* reduce_out()
{
  static bench::device_buffer<T> out(64);
  return out.data();
}

#define STRATA_BENCH_REDUCE(LIB, NAME, T, OUT_T, EXPR)                                                                 \
  void NAME##_##LIB##_##T(benchmark::State& state)                                                                    \
  {                                                                                                                    \
    OUT_T* d_out = reduce_out<OUT_T>();                                                                                \
    time_reduction<T>(state, [&](void* d_temp, std::size_t& bytes, const T* d_in, cudaStream_t stream = 0) {           \
      const int n = static_cast<int>(state.range(0));                                                                  \
      return LIB::DeviceReduce::EXPR;                                                                                  \
    });                                                                                                                \
  }

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using f32 = float;
using f64 = double;

#define STRATA_BENCH_REDUCE_BOTH(NAME, T, OUT_T, EXPR)                                                                 \
  STRATA_BENCH_REDUCE(strata, NAME, T, OUT_T, EXPR)                                                                    \
  STRATA_BENCH_REDUCE(cub, NAME, T, OUT_T, EXPR)

STRATA_BENCH_REDUCE_BOTH(sum, u32, u32, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(sum, f32, f32, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(sum, u64, u64, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(sum, f64, f64, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(min, u32, u32, Min(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(min, f32, f32, Min(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(min, u64, u64, Min(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(max, u32, u32, Max(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(max, f32, f32, Max(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(max, u64, u64, Max(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE_BOTH(transform_reduce, u32, u64,
                         TransformReduce(d_temp, bytes, d_in, d_out, n, cuda::std::plus<>{}, square{}, u64(0), stream))

// ArgMin / ArgMax: CUB 3's form with separate value and index outputs, in both libraries.
#define STRATA_BENCH_ARG(LIB, NAME, T, FUNC)                                                                           \
  void NAME##_##LIB##_##T(benchmark::State& state)                                                                    \
  {                                                                                                                    \
    T* d_value             = reduce_out<T>();                                                                          \
    std::int64_t* d_index = reduce_out<std::int64_t>();                                                                \
    time_reduction<T>(state, [&](void* d_temp, std::size_t& bytes, const T* d_in, cudaStream_t stream = 0) {           \
      const std::int64_t n = state.range(0);                                                                           \
      return LIB::DeviceReduce::FUNC(d_temp, bytes, d_in, d_value, d_index, n, stream);                                \
    });                                                                                                                \
  }
#define STRATA_BENCH_ARG_BOTH(NAME, T, FUNC)                                                                           \
  STRATA_BENCH_ARG(strata, NAME, T, FUNC)                                                                              \
  STRATA_BENCH_ARG(cub, NAME, T, FUNC)

STRATA_BENCH_ARG_BOTH(argmin, u32, ArgMin)
STRATA_BENCH_ARG_BOTH(argmin, f32, ArgMin)
STRATA_BENCH_ARG_BOTH(argmin, u64, ArgMin)
STRATA_BENCH_ARG_BOTH(argmax, u32, ArgMax)
STRATA_BENCH_ARG_BOTH(argmax, f32, ArgMax)
STRATA_BENCH_ARG_BOTH(argmax, u64, ArgMax)

//! DeviceTransform: out[i] = 3 * in[i]; bytes = read + write.
template <typename T, bool STRATA>
void transform(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = input<T>(n);
  T* d_out            = static_cast<T*>(scratch(n * sizeof(T)));
  bench::time_iterations(state, [&](cudaStream_t stream) {
    if constexpr (STRATA)
    {
      bench::check(strata::DeviceTransform::Transform(in.next(), d_out, static_cast<std::int64_t>(n), times_three{},
                                                      stream),
                   "transform");
    }
    else
    {
      bench::check(cub::DeviceTransform::Transform(in.next(), d_out, static_cast<std::int64_t>(n), times_three{},
                                                   stream),
                   "transform");
    }
  });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

//! cudaMemcpy device to device of n items of T: the bandwidth ceiling of a transform.
template <typename T>
void memcpy_d2d(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = input<T>(n);
  T* d_out            = static_cast<T*>(scratch(n * sizeof(T)));
  bench::time_iterations(state, [&](cudaStream_t stream) {
    bench::check(cudaMemcpyAsync(d_out, in.next(), n * sizeof(T), cudaMemcpyDeviceToDevice, stream), "memcpy");
  });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}
} // namespace

#define STRATA_BENCH_REGISTER(FUNC, NAME)                                                                              \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(NAME)                                                                                                     \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 28)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)

#define STRATA_BENCH_REGISTER_BOTH(FUNC, GROUP, T)                                                                     \
  STRATA_BENCH_REGISTER(FUNC##_strata_##T, GROUP "/strata/" #T);                                                      \
  STRATA_BENCH_REGISTER(FUNC##_cub_##T, GROUP "/cub/" #T)

STRATA_BENCH_REGISTER_BOTH(sum, "DeviceReduce::Sum", u32);
STRATA_BENCH_REGISTER_BOTH(sum, "DeviceReduce::Sum", f32);
STRATA_BENCH_REGISTER_BOTH(sum, "DeviceReduce::Sum", u64);
STRATA_BENCH_REGISTER_BOTH(sum, "DeviceReduce::Sum", f64);
STRATA_BENCH_REGISTER_BOTH(min, "DeviceReduce::Min", u32);
STRATA_BENCH_REGISTER_BOTH(min, "DeviceReduce::Min", f32);
STRATA_BENCH_REGISTER_BOTH(min, "DeviceReduce::Min", u64);
STRATA_BENCH_REGISTER_BOTH(max, "DeviceReduce::Max", u32);
STRATA_BENCH_REGISTER_BOTH(max, "DeviceReduce::Max", f32);
STRATA_BENCH_REGISTER_BOTH(max, "DeviceReduce::Max", u64);
STRATA_BENCH_REGISTER_BOTH(argmin, "DeviceReduce::ArgMin", u32);
STRATA_BENCH_REGISTER_BOTH(argmin, "DeviceReduce::ArgMin", f32);
STRATA_BENCH_REGISTER_BOTH(argmin, "DeviceReduce::ArgMin", u64);
STRATA_BENCH_REGISTER_BOTH(argmax, "DeviceReduce::ArgMax", u32);
STRATA_BENCH_REGISTER_BOTH(argmax, "DeviceReduce::ArgMax", f32);
STRATA_BENCH_REGISTER_BOTH(argmax, "DeviceReduce::ArgMax", u64);
STRATA_BENCH_REGISTER_BOTH(transform_reduce, "DeviceReduce::TransformReduce", u32);
STRATA_BENCH_REGISTER((transform<u32, true>), "DeviceTransform::Transform/strata/u32");
STRATA_BENCH_REGISTER((transform<u32, false>), "DeviceTransform::Transform/cub/u32");
STRATA_BENCH_REGISTER((transform<f32, true>), "DeviceTransform::Transform/strata/f32");
STRATA_BENCH_REGISTER((transform<f32, false>), "DeviceTransform::Transform/cub/f32");
STRATA_BENCH_REGISTER((transform<u64, true>), "DeviceTransform::Transform/strata/u64");
STRATA_BENCH_REGISTER((transform<u64, false>), "DeviceTransform::Transform/cub/u64");
STRATA_BENCH_REGISTER(memcpy_d2d<u32>, "cudaMemcpy/u32");
BENCHMARK_MAIN();

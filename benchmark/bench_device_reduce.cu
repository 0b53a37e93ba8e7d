// DeviceReduce (Sum, Min, Max, ArgMin, ArgMax, ArgMinMax, TransformReduce) and DeviceTransform, strata and
// CUB side by side on the same device buffers, at 2^16, 2^20, 2^24 and 2^28 items of u32, f32 and
// u64 (and f64 for Sum). Inputs smaller than 256 MiB rotate through enough copies that no run
// finds its input in the 50 MB L2. Bytes count every read and write once.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_transform.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_transform.cuh>

#include "bench_common.cuh"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
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

// The outputs of every reduction: past the temporary storage's region, in their own allocations.
template <typename T>
T* reduce_out()
{
  static bench::device_buffer<T> out(64);
  return out.data();
}

//! Runs the two-phase reduction `call(d_temp, bytes, d_in, stream)` once on d_in and returns its
//! outputs (the value, and the index of ArgMin / ArgMax), poisoned before.
template <typename OutT, typename T, typename CallT>
std::pair<std::vector<OutT>, std::vector<std::int64_t>> reduce_once(const T* d_in, CallT call)
{
  OutT* d_out           = reduce_out<OutT>();
  std::int64_t* d_index = reduce_out<std::int64_t>();
  bench::poison(d_out, 1);
  bench::poison(d_index, 1);
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, d_in), "size query");
  bench::check(call(scratch(bytes + 256), bytes, d_in), "reduction");
  bench::check(cudaDeviceSynchronize(), "reduction");
  return {bench::download(d_out, 1), bench::download(d_index, 1)};
}

//! strata's and CUB's results on the same n items: exactly equal, or for a floating-point sum
//! within the rounding that reassociating n terms of the input's magnitude allows.
template <typename T, typename OutT, bool FLOAT_SUM, typename StrataCallT, typename CubCallT>
std::string compare_reduction(const T* d_in, std::size_t n, StrataCallT strata_call, CubCallT cub_call)
{
  const auto strata_out = reduce_once<OutT>(d_in, strata_call);
  const auto cub_out    = reduce_once<OutT>(d_in, cub_call);
  if constexpr (FLOAT_SUM)
  {
    double magnitude = 0;
    for (const T x : bench::download(d_in, n))
    {
      magnitude += std::fabs(double(x));
    }
    return bench::compare_sums(strata_out.first, cub_out.first, {magnitude}, {double(n)});
  }
  else
  {
    const std::string values = bench::compare_exact(strata_out.first, cub_out.first);
    return values.empty() ? bench::compare_exact(strata_out.second, cub_out.second) : values;
  }
}

//! Times the two-phase reduction of strata (STRATA) or CUB over a rotating input of n items of T;
//! bytes = the input read. strata's row first compares its result with CUB's, once per size.
template <typename T, typename OutT, bool FLOAT_SUM, bool STRATA, typename StrataCallT, typename CubCallT>
void time_reduction(benchmark::State& state, const std::string& name, StrataCallT strata_call, CubCallT cub_call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  if constexpr (STRATA)
  {
    const std::string configuration = name + "/" + std::to_string(n);
    if (bench::first_run(configuration)
        && !bench::record(state, configuration,
                          compare_reduction<T, OutT, FLOAT_SUM>(in.next(), n, strata_call, cub_call)))
    {
      return;
    }
  }
  auto call = [&](auto&&... args)
  {
    if constexpr (STRATA)
    {
      return strata_call(args...);
    }
    else
    {
      return cub_call(args...);
    }
  };
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, in.next()), "size query");
  void* d_temp = scratch(bytes + 256);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(call(d_temp, bytes, in.next(), stream), "reduction"); });
  bench::set_throughput(state, n, n * sizeof(T));
}

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using f32 = float;
using f64 = double;

// NAME_T<STRATA>: one reduction, EXPR, of strata or CUB, its output bound to d_out.
#define STRATA_BENCH_REDUCE(NAME, T, OUT_T, FLOAT_SUM, EXPR)                                                           \
  template <bool STRATA>                                                                                               \
  void NAME##_##T(benchmark::State& state)                                                                             \
  {                                                                                                                    \
    OUT_T* d_out     = reduce_out<OUT_T>();                                                                            \
    const int n      = static_cast<int>(state.range(0));                                                               \
    auto strata_call = [&](void* d_temp, std::size_t& bytes, const T* d_in, cudaStream_t stream = 0)                   \
    { return strata::DeviceReduce::EXPR; };                                                                            \
    auto cub_call = [&](void* d_temp, std::size_t& bytes, const T* d_in, cudaStream_t stream = 0)                      \
    { return cub::DeviceReduce::EXPR; };                                                                               \
    time_reduction<T, OUT_T, FLOAT_SUM, STRATA>(state, #NAME "/" #T, strata_call, cub_call);                           \
  }

STRATA_BENCH_REDUCE(sum, u32, u32, false, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(sum, f32, f32, true, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(sum, u64, u64, false, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(sum, f64, f64, true, Sum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(min, u32, u32, false, Min(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(min, f32, f32, false, Min(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(min, u64, u64, false, Min(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(max, u32, u32, false, Max(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(max, f32, f32, false, Max(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(max, u64, u64, false, Max(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_REDUCE(transform_reduce, u32, u64, false,
                    TransformReduce(d_temp, bytes, d_in, d_out, n, cuda::std::plus<>{}, square{}, u64(0), stream))

// ArgMin / ArgMax: CUB 3's form with separate value and index outputs, in both libraries.
#define STRATA_BENCH_ARG(NAME, T, FUNC)                                                                                \
  template <bool STRATA>                                                                                               \
  void NAME##_##T(benchmark::State& state)                                                                             \
  {                                                                                                                    \
    T* d_value            = reduce_out<T>();                                                                           \
    std::int64_t* d_index = reduce_out<std::int64_t>();                                                                \
    const std::int64_t n  = state.range(0);                                                                            \
    auto strata_call      = [&](void* d_temp, std::size_t& bytes, const T* d_in, cudaStream_t stream = 0)              \
    { return strata::DeviceReduce::FUNC(d_temp, bytes, d_in, d_value, d_index, n, stream); };                          \
    auto cub_call = [&](void* d_temp, std::size_t& bytes, const T* d_in, cudaStream_t stream = 0)                      \
    { return cub::DeviceReduce::FUNC(d_temp, bytes, d_in, d_value, d_index, n, stream); };                             \
    time_reduction<T, T, false, STRATA>(state, #NAME "/" #T, strata_call, cub_call);                                   \
  }

STRATA_BENCH_ARG(argmin, u32, ArgMin)
STRATA_BENCH_ARG(argmin, f32, ArgMin)
STRATA_BENCH_ARG(argmin, u64, ArgMin)
STRATA_BENCH_ARG(argmax, u32, ArgMax)
STRATA_BENCH_ARG(argmax, f32, ArgMax)
STRATA_BENCH_ARG(argmax, u64, ArgMax)

//! ArgMinMax (CUB's main branch): strata's one pass against CUB 3.0.1's ArgMin then ArgMax (what
//! a CUB user writes today: two passes); bytes = the input read once. strata's row first compares
//! both values and both indices with CUB's, once per size.
template <typename T, bool STRATA>
void argminmax(benchmark::State& state)
{
  const std::int64_t n  = state.range(0);
  auto& in              = bench::shared_rotating_buffer<T>(std::size_t(n));
  T* d_values           = reduce_out<T>();
  std::int64_t* d_index = reduce_out<std::int64_t>();
  auto run              = [&](auto strata, void* d_temp, std::size_t& bytes, const T* d_in, cudaStream_t stream)
  {
    if constexpr (decltype(strata)::value)
    {
      return strata::DeviceReduce::ArgMinMax(d_temp, bytes, d_in, d_values, d_index, d_values + 1, d_index + 1, n,
                                             stream);
    }
    else
    {
      // Both CUB calls share one temporary storage: the size query asks for the larger.
      std::size_t min_bytes = bytes;
      std::size_t max_bytes = bytes;
      cudaError_t error     = cub::DeviceReduce::ArgMin(d_temp, min_bytes, d_in, d_values, d_index, n, stream);
      if (error == cudaSuccess)
      {
        error = cub::DeviceReduce::ArgMax(d_temp, max_bytes, d_in, d_values + 1, d_index + 1, n, stream);
      }
      bytes = min_bytes > max_bytes ? min_bytes : max_bytes;
      return error;
    }
  };
  if constexpr (STRATA)
  {
    const std::string configuration = "argminmax/" + std::to_string(sizeof(T)) + "/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      std::vector<std::vector<T>> values;
      std::vector<std::vector<std::int64_t>> indices;
      const T* d_in = in.next();
      for (const bool strata : {true, false})
      {
        bench::poison(d_values, 2);
        bench::poison(d_index, 2);
        std::size_t bytes = 0;
        bench::check(strata ? run(std::true_type{}, nullptr, bytes, d_in, nullptr)
                            : run(std::false_type{}, nullptr, bytes, d_in, nullptr),
                     "size query");
        void* d_temp = scratch(bytes + 256);
        bench::check(strata ? run(std::true_type{}, d_temp, bytes, d_in, nullptr)
                            : run(std::false_type{}, d_temp, bytes, d_in, nullptr),
                     "argminmax");
        bench::check(cudaDeviceSynchronize(), "argminmax");
        values.push_back(bench::download(d_values, 2));
        indices.push_back(bench::download(d_index, 2));
      }
      const std::string mismatch = bench::compare_exact(values[0], values[1]);
      if (!bench::record(state, configuration,
                         mismatch.empty() ? bench::compare_exact(indices[0], indices[1]) : mismatch))
      {
        return;
      }
    }
  }
  std::size_t bytes = 0;
  bench::check(run(std::bool_constant<STRATA>{}, nullptr, bytes, in.next(), nullptr), "size query");
  void* d_temp = scratch(bytes + 256);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           std::size_t run_bytes = bytes;
                           bench::check(run(std::bool_constant<STRATA>{}, d_temp, run_bytes, in.next(), stream),
                                        "argminmax");
                         });
  bench::set_throughput(state, std::size_t(n), std::size_t(n) * sizeof(T));
}

//! DeviceTransform: out[i] = 3 * in[i]; bytes = read + write. strata's row first compares its
//! output with CUB's, once per size.
template <typename T, bool STRATA>
void transform(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  T* d_out            = static_cast<T*>(scratch(n * sizeof(T)));
  auto run            = [&](auto strata_or_cub, const T* d_in, cudaStream_t stream)
  {
    if constexpr (decltype(strata_or_cub)::value)
    {
      bench::check(strata::DeviceTransform::Transform(d_in, d_out, static_cast<std::int64_t>(n), times_three{}, stream),
                   "transform");
    }
    else
    {
      bench::check(cub::DeviceTransform::Transform(d_in, d_out, static_cast<std::int64_t>(n), times_three{}, stream),
                   "transform");
    }
  };
  if constexpr (STRATA)
  {
    const std::string configuration = std::string("transform/") + (std::is_floating_point_v<T> ? "f" : "u")
                                      + std::to_string(8 * sizeof(T)) + "/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      const T* d_in = in.next();
      bench::poison(d_out, n);
      run(std::true_type{}, d_in, 0);
      const std::vector<T> strata_out = bench::download(d_out, n);
      bench::poison(d_out, n);
      run(std::false_type{}, d_in, 0);
      if (!bench::record(state, configuration, bench::compare_exact(strata_out, bench::download(d_out, n))))
      {
        return;
      }
    }
  }
  bench::time_iterations(state, [&](cudaStream_t stream) { run(std::bool_constant<STRATA>{}, in.next(), stream); });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

} // namespace

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
STRATA_BENCH_REGISTER((argminmax<u32, true>), "DeviceReduce::ArgMinMax/strata/u32");
STRATA_BENCH_REGISTER((argminmax<u32, false>), "DeviceReduce::ArgMinMax/cub/u32");
STRATA_BENCH_REGISTER((argminmax<f32, true>), "DeviceReduce::ArgMinMax/strata/f32");
STRATA_BENCH_REGISTER((argminmax<f32, false>), "DeviceReduce::ArgMinMax/cub/f32");
STRATA_BENCH_REGISTER((transform<u32, true>), "DeviceTransform::Transform/strata/u32");
STRATA_BENCH_REGISTER((transform<u32, false>), "DeviceTransform::Transform/cub/u32");
STRATA_BENCH_REGISTER((transform<f32, true>), "DeviceTransform::Transform/strata/f32");
STRATA_BENCH_REGISTER((transform<f32, false>), "DeviceTransform::Transform/cub/f32");
STRATA_BENCH_REGISTER((transform<u64, true>), "DeviceTransform::Transform/strata/u64");
STRATA_BENCH_REGISTER((transform<u64, false>), "DeviceTransform::Transform/cub/u64");
STRATA_BENCH_REGISTER(bench::memcpy_d2d<u32>, "cudaMemcpy/u32");
STRATA_BENCH_MAIN()

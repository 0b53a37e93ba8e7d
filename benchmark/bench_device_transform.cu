// DeviceTransform's entry points of CUB 3.5 (Fill, Generate, TransformIf and Transform to two
// outputs), strata and a baseline on the same device buffers, inputs rotated so that no run reads
// them from L2: u32 and u64 at 2^16, 2^20, 2^24 and 2^28 items. Bytes: every item read and every
// item written (TransformIf writes the half its predicate keeps).
//
// The baseline is what a CUDA 13.0 user writes: DeviceFor::Bulk with an operator that does the
// same (CUB 3.0.1 has none of these calls). Built with STRATA_BENCH_CCCL_NEXT (CMake option
// STRATA_CCCL_NEXT_INCLUDE, headers from scripts/fetch-cccl), the baseline is CUB 3.5's
// DeviceTransform. Every configuration first compares strata's output with the baseline's.
#include <strata/device/device_transform.cuh>

#if defined(STRATA_BENCH_CCCL_NEXT)
#  include <cub/device/device_transform.cuh>

#  include <cuda/std/execution>
#  include <cuda/stream_ref>
#else
#  include <cub/device/device_for.cuh>
#endif

#include "bench_common.cuh"

#include <cuda/std/tuple>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using u32 = std::uint32_t;
using u64 = std::uint64_t;

//! Generate's generator: the same value for every item (a generator with state would make the
//! two outputs differ by the order of its calls).
template <typename T>
struct constant
{
  __host__ __device__ T operator()() const
  {
    return T(0x9E3779B97F4A7C15ull);
  }
};

//! TransformIf's predicate (about half of random items) and operator.
struct is_odd
{
  template <typename T>
  __host__ __device__ bool operator()(T x) const
  {
    return (x & T(1)) != T(0);
  }
};
struct times_three
{
  template <typename T>
  __host__ __device__ T operator()(T x) const
  {
    return T(3) * x;
  }
};

//! Transform's operator to two outputs: the sum and the difference.
struct sum_and_difference
{
  template <typename T>
  __host__ __device__ ::cuda::std::tuple<T, T> operator()(T a, T b) const
  {
    return {T(a + b), T(a - b)};
  }
};

#if !defined(STRATA_BENCH_CCCL_NEXT)
//! The baselines' DeviceFor::Bulk operators.
template <typename T>
struct fill_at
{
  T* out;
  T value;
  __device__ void operator()(std::int64_t i) const
  {
    out[i] = value;
  }
};
template <typename T>
struct transform_if_at
{
  const T* in;
  T* out;
  __device__ void operator()(std::int64_t i) const
  {
    const T x = in[i];
    if (is_odd{}(x))
    {
      out[i] = times_three{}(x);
    }
  }
};
template <typename T>
struct two_outputs_at
{
  const T* a;
  const T* b;
  T* sum;
  T* difference;
  __device__ void operator()(std::int64_t i) const
  {
    const T x     = a[i];
    const T y     = b[i];
    sum[i]        = T(x + y);
    difference[i] = T(x - y);
  }
};
#endif

enum class call
{
  fill,
  generate,
  transform_if,
  two_outputs
};

//! Runs CALL by strata (STRATA) or the baseline over n items: inputs a and b (b for two outputs
//! only), outputs out and out2 (out2 for two outputs only).
template <call CALL, bool STRATA, typename T>
void run(const T* a, const T* b, T* out, T* out2, std::size_t n, cudaStream_t stream)
{
  const std::int64_t items       = std::int64_t(n);
  [[maybe_unused]] const T value = constant<T>{}();
  cudaError_t error              = cudaSuccess;
  if constexpr (STRATA)
  {
    using strata::DeviceTransform;
    if constexpr (CALL == call::fill)
    {
      error = DeviceTransform::Fill(out, items, value, stream);
    }
    else if constexpr (CALL == call::generate)
    {
      error = DeviceTransform::Generate(out, items, constant<T>{}, stream);
    }
    else if constexpr (CALL == call::transform_if)
    {
      error = DeviceTransform::TransformIf(a, out, items, is_odd{}, times_three{}, stream);
    }
    else
    {
      error = DeviceTransform::Transform(::cuda::std::make_tuple(a, b), ::cuda::std::make_tuple(out, out2), items,
                                         sum_and_difference{}, stream);
    }
  }
  else
  {
#if defined(STRATA_BENCH_CCCL_NEXT)
    using cub::DeviceTransform;
    const auto env = ::cuda::std::execution::env{::cuda::stream_ref{stream}};
    if constexpr (CALL == call::fill)
    {
      error = DeviceTransform::Fill(out, items, value, env);
    }
    else if constexpr (CALL == call::generate)
    {
      error = DeviceTransform::Generate(out, items, constant<T>{}, env);
    }
    else if constexpr (CALL == call::transform_if)
    {
      error = DeviceTransform::TransformIf(::cuda::std::make_tuple(a), out, items, is_odd{}, times_three{}, env);
    }
    else
    {
      error = DeviceTransform::Transform(::cuda::std::make_tuple(a, b), ::cuda::std::make_tuple(out, out2), items,
                                         sum_and_difference{}, env);
    }
#else
    if constexpr (CALL == call::fill || CALL == call::generate)
    {
      error = cub::DeviceFor::Bulk(items, fill_at<T>{out, value}, stream);
    }
    else if constexpr (CALL == call::transform_if)
    {
      error = cub::DeviceFor::Bulk(items, transform_if_at<T>{a, out}, stream);
    }
    else
    {
      error = cub::DeviceFor::Bulk(items, two_outputs_at<T>{a, b, out, out2}, stream);
    }
#endif
  }
  bench::check(error, "transform");
}

constexpr const char* call_name(call c)
{
  return c == call::fill           ? "Fill"
         : c == call::generate     ? "Generate"
         : c == call::transform_if ? "TransformIf"
                                   : "Transform2to2";
}

//! Bytes CALL moves over n items: the reads and the writes.
template <call CALL, typename T>
std::size_t moved_bytes(std::size_t n)
{
  const std::size_t item = sizeof(T);
  return CALL == call::fill || CALL == call::generate ? n * item
         : CALL == call::transform_if                 ? n * item + n * item / 2
                                                      : 4 * n * item;
}

//! The second input of Transform to two outputs: other random items than the first's.
template <typename T>
bench::rotating_buffer<T>& second_input(std::size_t n)
{
  static std::map<std::size_t, std::unique_ptr<bench::rotating_buffer<T>>> buffers;
  auto& slot = buffers[n];
  if (!slot)
  {
    slot = std::make_unique<bench::rotating_buffer<T>>(n, 7919 + n);
  }
  return *slot;
}

//! Times CALL by strata (STRATA) or the baseline over state.range(0) items of T.
template <call CALL, bool STRATA, typename T>
void time_call(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& a             = bench::shared_rotating_buffer<T>(n);
  auto& b             = second_input<T>(n);
  T* out              = static_cast<T*>(bench::scratch(0, n * sizeof(T)));
  T* out2             = static_cast<T*>(bench::scratch(1, n * sizeof(T)));
  if constexpr (STRATA)
  {
    const std::string configuration =
        std::string(call_name(CALL)) + "/u" + std::to_string(8 * sizeof(T)) + "/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      const T* in_a = a.next();
      const T* in_b = b.next();
      std::vector<std::vector<T>> results;
      for (const bool strata : {true, false})
      {
        bench::poison(out, n);
        bench::poison(out2, n);
        strata ? run<CALL, true>(in_a, in_b, out, out2, n, nullptr)
               : run<CALL, false>(in_a, in_b, out, out2, n, nullptr);
        results.push_back(bench::download(out, n));
        if (CALL == call::two_outputs)
        {
          results.back().resize(2 * n);
          const std::vector<T> second = bench::download(out2, n);
          std::copy(second.begin(), second.end(), results.back().begin() + std::ptrdiff_t(n));
        }
      }
      if (!bench::record(state, configuration, bench::compare_exact(results[0], results[1])))
      {
        return;
      }
    }
  }
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           const T* in_a = a.next();
                           const T* in_b = CALL == call::two_outputs ? b.next() : in_a;
                           run<CALL, STRATA>(in_a, in_b, out, out2, n, stream);
                         });
  bench::set_throughput(state, n, moved_bytes<CALL, T>(n));
}
} // namespace

#define STRATA_BENCH_TRANSFORM(CALL, NAME, T)                                                                          \
  STRATA_BENCH_REGISTER((time_call<call::CALL, true, T>), "DeviceTransform::" NAME "/strata/" #T);                     \
  STRATA_BENCH_REGISTER((time_call<call::CALL, false, T>), "DeviceTransform::" NAME "/cub/" #T)

STRATA_BENCH_TRANSFORM(fill, "Fill", u32);
STRATA_BENCH_TRANSFORM(fill, "Fill", u64);
STRATA_BENCH_TRANSFORM(generate, "Generate", u32);
STRATA_BENCH_TRANSFORM(transform_if, "TransformIf", u32);
STRATA_BENCH_TRANSFORM(transform_if, "TransformIf", u64);
STRATA_BENCH_TRANSFORM(two_outputs, "Transform2to2", u32);
STRATA_BENCH_TRANSFORM(two_outputs, "Transform2to2", u64);
STRATA_BENCH_REGISTER(bench::memcpy_d2d<u32>, "cudaMemcpy/u32");
STRATA_BENCH_MAIN()

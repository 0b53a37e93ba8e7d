// DeviceTopK (MaxKeys of f32 and u32 keys, MaxPairs of f32 keys with u32 values), strata and a
// baseline on the same device buffers, at 2^16, 2^20, 2^24 and 2^28 items and k of 1, 1024 and
// 65536. f32 keys are standard normal, u32 keys random bits. Inputs rotate through copies filling
// 256 MiB, so that no run finds them in the 50 MB L2. Bytes count one read of the keys: the bound
// of a top-k.
//
// The baseline is what a CUDA 13.0 user has: CUB 3.0.1's descending DeviceRadixSort of every key
// (and value) and a copy of the first k, which is exactly strata's result (both stable). Built with
// STRATA_BENCH_CCCL_NEXT (CMake option STRATA_CCCL_NEXT_INCLUDE, headers from scripts/fetch-cccl),
// the baseline is CUB 3.5's DeviceTopK with the only requirements it compiles (nondeterministic,
// unsorted): then the outputs are compared as sets of keys.
#include <strata/device/device_topk.cuh>

#if defined(STRATA_BENCH_CCCL_NEXT)
#  include <cub/device/device_topk.cuh>

#  include <cuda/stream>
#else
#  include <cub/device/device_radix_sort.cuh>
#endif

#include "bench_common.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace
{
using u32 = std::uint32_t;
using f32 = float;

//! The baseline's top-k of n keys (and values unless PAIRS) into d_keys_out and d_values_out.
template <bool PAIRS, typename KeyT, typename ValueT>
cudaError_t baseline_topk(void* d_temp, std::size_t& bytes, const KeyT* d_keys, KeyT* d_keys_out,
                          const ValueT* d_values, ValueT* d_values_out, std::size_t n, std::size_t k,
                          cudaStream_t stream)
{
#if defined(STRATA_BENCH_CCCL_NEXT)
  auto env = ::cuda::std::execution::env{::cuda::stream_ref{stream},
                                         ::cuda::execution::require(::cuda::execution::determinism::not_guaranteed,
                                                                    ::cuda::execution::output_ordering::unsorted)};
  if constexpr (PAIRS)
  {
    return cub::DeviceTopK::MaxPairs(d_temp, bytes, d_keys, d_keys_out, d_values, d_values_out, n, k, env);
  }
  else
  {
    return cub::DeviceTopK::MaxKeys(d_temp, bytes, d_keys, d_keys_out, n, k, env);
  }
#else
  // Every key sorted, largest first, into scratch slots 3 (keys) and 4 (values), then the first k copied.
  KeyT* d_sorted          = static_cast<KeyT*>(bench::scratch(3, n * sizeof(KeyT)));
  ValueT* d_sorted_values = static_cast<ValueT*>(bench::scratch(4, PAIRS ? n * sizeof(ValueT) : 1));
  cudaError_t error       = cudaSuccess;
  if constexpr (PAIRS)
  {
    error = cub::DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_keys, d_sorted, d_values, d_sorted_values,
                                                      std::int64_t(n), 0, int(sizeof(KeyT) * 8), stream);
  }
  else
  {
    error = cub::DeviceRadixSort::SortKeysDescending(d_temp, bytes, d_keys, d_sorted, std::int64_t(n), 0,
                                                     int(sizeof(KeyT) * 8), stream);
  }
  if (error != cudaSuccess || d_temp == nullptr)
  {
    return error;
  }
  error = cudaMemcpyAsync(d_keys_out, d_sorted, k * sizeof(KeyT), cudaMemcpyDeviceToDevice, stream);
  if (error == cudaSuccess && PAIRS)
  {
    error = cudaMemcpyAsync(d_values_out, d_sorted_values, k * sizeof(ValueT), cudaMemcpyDeviceToDevice, stream);
  }
  return error;
#endif
}

template <bool PAIRS, typename KeyT, typename ValueT>
cudaError_t strata_topk(void* d_temp, std::size_t& bytes, const KeyT* d_keys, KeyT* d_keys_out, const ValueT* d_values,
                        ValueT* d_values_out, std::size_t n, std::size_t k, cudaStream_t stream)
{
  if constexpr (PAIRS)
  {
    return strata::DeviceTopK::MaxPairs(d_temp, bytes, d_keys, d_keys_out, d_values, d_values_out, n, k, stream);
  }
  else
  {
    return strata::DeviceTopK::MaxKeys(d_temp, bytes, d_keys, d_keys_out, n, k, stream);
  }
}

//! One two-phase top-k by strata (STRATA) or the baseline into poisoned outputs; returns the keys
//! and values written.
template <bool STRATA, bool PAIRS, typename KeyT, typename ValueT>
std::pair<std::vector<KeyT>, std::vector<ValueT>> topk_once(const KeyT* d_keys, const ValueT* d_values, std::size_t n,
                                                            std::size_t k)
{
  KeyT* d_keys_out     = static_cast<KeyT*>(bench::scratch(0, k * sizeof(KeyT)));
  ValueT* d_values_out = static_cast<ValueT*>(bench::scratch(1, k * sizeof(ValueT)));
  bench::poison(d_keys_out, k);
  bench::poison(d_values_out, k);
  auto call = [&](void* d_temp, std::size_t& bytes)
  {
    return STRATA
               ? strata_topk<PAIRS>(d_temp, bytes, d_keys, d_keys_out, d_values, d_values_out, n, k, cudaStream_t(0))
               : baseline_topk<PAIRS>(d_temp, bytes, d_keys, d_keys_out, d_values, d_values_out, n, k, cudaStream_t(0));
  };
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes), "size query");
  bench::check(call(bench::scratch(2, bytes), bytes), "top-k");
  bench::check(cudaDeviceSynchronize(), "top-k");
  return {bench::download(d_keys_out, k), bench::download(d_values_out, PAIRS ? k : 0)};
}

//! Times strata's (STRATA) or the baseline's top-k of the state.range(1) largest of
//! state.range(0) rotating keys. strata's row first compares both results, once per configuration:
//! exactly against the sort, as sets of keys against CUB 3.5's unsorted top-k.
template <bool STRATA, bool PAIRS, typename KeyT>
void time_topk(benchmark::State& state, const std::string& name)
{
  using ValueT        = u32;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::size_t k = std::min(static_cast<std::size_t>(state.range(1)), n);
  auto& keys          = bench::shared_rotating_buffer<KeyT>(n);
  auto& values        = bench::shared_rotating_buffer<ValueT>(PAIRS ? n : 2);
  if constexpr (STRATA)
  {
    const std::string configuration = name + "/" + std::to_string(n) + "/" + std::to_string(k);
    if (bench::first_run(configuration))
    {
      const KeyT* d_keys     = keys.next();
      const ValueT* d_values = values.next();
      auto strata_out        = topk_once<true, PAIRS>(d_keys, d_values, n, k);
      auto baseline_out      = topk_once<false, PAIRS>(d_keys, d_values, n, k);
#if defined(STRATA_BENCH_CCCL_NEXT)
      std::sort(strata_out.first.begin(), strata_out.first.end());
      std::sort(baseline_out.first.begin(), baseline_out.first.end());
      const std::string mismatch = bench::compare_exact(strata_out.first, baseline_out.first);
#else
      std::string mismatch = bench::compare_exact(strata_out.first, baseline_out.first);
      if (mismatch.empty() && PAIRS)
      {
        mismatch = bench::compare_exact(strata_out.second, baseline_out.second);
      }
#endif
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  KeyT* d_keys_out     = static_cast<KeyT*>(bench::scratch(0, k * sizeof(KeyT)));
  ValueT* d_values_out = static_cast<ValueT*>(bench::scratch(1, k * sizeof(ValueT)));
  auto call            = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return STRATA
               ? strata_topk<PAIRS>(d_temp, bytes, keys.next(), d_keys_out, values.next(), d_values_out, n, k, stream)
               : baseline_topk<PAIRS>(d_temp, bytes, keys.next(), d_keys_out, values.next(), d_values_out, n, k,
                                      stream);
  };
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, cudaStream_t(0)), "size query");
  void* d_temp = bench::scratch(2, bytes);
  bench::time_iterations(state, [&](cudaStream_t stream) { bench::check(call(d_temp, bytes, stream), "top-k"); });
  bench::set_throughput(state, n, n * sizeof(KeyT));
  state.counters["temp_bytes"] = double(bytes);
}

template <bool STRATA>
void max_keys_f32(benchmark::State& state)
{
  time_topk<STRATA, false, f32>(state, "MaxKeys/f32");
}
template <bool STRATA>
void max_keys_u32(benchmark::State& state)
{
  time_topk<STRATA, false, u32>(state, "MaxKeys/u32");
}
template <bool STRATA>
void max_pairs_f32_u32(benchmark::State& state)
{
  time_topk<STRATA, true, f32>(state, "MaxPairs/f32_u32");
}
} // namespace

// The second argument is k.
#define STRATA_BENCH_REGISTER_TOPK(FUNC, NAME)                                                                         \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(::bench::mode_name(NAME))                                                                                 \
      ->ArgsProduct({benchmark::CreateRange(1 << 16, 1 << 28, 16), {1, 1024, 65536}})                                  \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_BENCH_REGISTER_TOPK_BOTH(FUNC, GROUP, T)                                                                \
  STRATA_BENCH_REGISTER_TOPK(FUNC##_##T<true>, GROUP "/strata/" #T);                                                   \
  STRATA_BENCH_REGISTER_TOPK(FUNC##_##T<false>, GROUP "/cub/" #T)

STRATA_BENCH_REGISTER_TOPK_BOTH(max_keys, "DeviceTopK::MaxKeys", f32);
STRATA_BENCH_REGISTER_TOPK_BOTH(max_keys, "DeviceTopK::MaxKeys", u32);
STRATA_BENCH_REGISTER_TOPK_BOTH(max_pairs, "DeviceTopK::MaxPairs", f32_u32);
STRATA_BENCH_MAIN()

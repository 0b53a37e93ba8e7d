// DeviceBatchedTopK (MaxKeys of f32 keys, standard normal), strata and a baseline on the same
// device buffers: 2^24 and 2^28 keys cut into equal segments of 64 (k = 8), 256 (k = 16), 1024
// (k = 32) and 2^20 items (k = 64), and segments of power-law sizes with k from 1 to 64, both read
// per segment from device arrays (its baseline is always the sort and copy below: CUB 3.5's
// DeviceBatchedTopK takes no such segments). Bytes count one read of the keys: the bound of a top-k.
//
// The baseline is what a CUDA 13.0 user has: CUB 3.0.1's DeviceSegmentedSort of every segment,
// descending, and a strided copy of each segment's first k. Built with STRATA_BENCH_CCCL_NEXT
// (CMake option STRATA_CCCL_NEXT_INCLUDE, headers from scripts/fetch-cccl), it is CUB 3.5's
// DeviceBatchedTopK with the only requirements it compiles (nondeterministic, unsorted) and the
// segment size as a compile-time constant; it takes segments of at most one block's size, so the
// 2^20-item segments have no CUB row then. Outputs are compared exactly against the sort, as sets
// of keys per segment against CUB 3.5.
#include <strata/device/device_batched_topk.cuh>

#if defined(STRATA_BENCH_CCCL_NEXT)
#  include <cub/device/device_batched_topk.cuh>

#  include <cuda/argument>
#  include <cuda/stream>
#endif
#include <cub/device/device_segmented_sort.cuh>

#include "bench_common.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace
{
//! Whether the baseline takes segments of SEGMENT items (CUB 3.5: those one block holds).
template <int SEGMENT>
inline constexpr bool baseline_takes_v =
#if defined(STRATA_BENCH_CCCL_NEXT)
    SEGMENT <= 1024;
#else
    true;
#endif

//! Device arrays of segment pointers into `d_keys` and `d_out` and of segment offsets, per shape.
struct segment_arrays
{
  const float* const* d_in;
  float* const* d_out;
  const int* d_offsets;
};

segment_arrays arrays_for(const float* d_keys, float* d_out, std::size_t n, std::size_t segment, std::size_t k)
{
  const std::size_t segments = n / segment;
  std::vector<const float*> in(segments);
  std::vector<float*> out(segments);
  std::vector<int> offsets(segments + 1);
  for (std::size_t s = 0; s < segments; ++s)
  {
    in[s]      = d_keys + s * segment;
    out[s]     = d_out + s * k;
    offsets[s] = int(s * segment);
  }
  offsets[segments] = int(n);
  auto* d_in        = static_cast<const float**>(bench::scratch(3, segments * sizeof(float*)));
  auto* d_out_ptrs  = static_cast<float**>(bench::scratch(4, segments * sizeof(float*)));
  auto* d_offsets   = static_cast<int*>(bench::scratch(5, (segments + 1) * sizeof(int)));
  bench::check(cudaMemcpy(d_in, in.data(), segments * sizeof(float*), cudaMemcpyHostToDevice), "upload");
  bench::check(cudaMemcpy(d_out_ptrs, out.data(), segments * sizeof(float*), cudaMemcpyHostToDevice), "upload");
  bench::check(cudaMemcpy(d_offsets, offsets.data(), (segments + 1) * sizeof(int), cudaMemcpyHostToDevice), "upload");
  return {d_in, d_out_ptrs, d_offsets};
}

template <int SEGMENT>
cudaError_t baseline_topk(void* d_temp, std::size_t& bytes, const float* d_keys, float* d_out,
                          const segment_arrays& arrays, std::size_t n, int k, cudaStream_t stream)
{
  const std::size_t segments = n / SEGMENT;
#if defined(STRATA_BENCH_CCCL_NEXT)
  static_cast<void>(d_keys);
  static_cast<void>(d_out);
  auto env = ::cuda::std::execution::env{::cuda::stream_ref{stream},
                                         ::cuda::execution::require(::cuda::execution::determinism::not_guaranteed,
                                                                    ::cuda::execution::tie_break::unspecified,
                                                                    ::cuda::execution::output_ordering::unsorted)};
  return cub::DeviceBatchedTopK::MaxKeys(d_temp, bytes, arrays.d_in, arrays.d_out, ::cuda::args::constant<SEGMENT>{}, k,
                                         std::int64_t(segments), env);
#else
  // Every segment sorted, largest first, into scratch slot 1, then each segment's first k copied
  // as the rows of a 2D copy.
  float* d_sorted   = static_cast<float*>(bench::scratch(1, n * sizeof(float)));
  cudaError_t error = cub::DeviceSegmentedSort::SortKeysDescending(d_temp, bytes, d_keys, d_sorted, std::int64_t(n),
                                                                   std::int64_t(segments), arrays.d_offsets,
                                                                   arrays.d_offsets + 1, stream);
  if (error != cudaSuccess || d_temp == nullptr)
  {
    return error;
  }
  return cudaMemcpy2DAsync(d_out, std::size_t(k) * sizeof(float), d_sorted, SEGMENT * sizeof(float),
                           std::size_t(k) * sizeof(float), segments, cudaMemcpyDeviceToDevice, stream);
#endif
}

cudaError_t strata_topk(void* d_temp, std::size_t& bytes, const segment_arrays& arrays, std::size_t n,
                        std::size_t segment, int k, cudaStream_t stream)
{
  return strata::DeviceBatchedTopK::MaxKeys(d_temp, bytes, arrays.d_in, arrays.d_out, int(segment), k,
                                            std::int64_t(n / segment), stream);
}

//! Each segment's k winners as the strata (STRATA) or baseline call writes them, sorted on the
//! host where the baseline is CUB 3.5 (unsorted).
template <bool STRATA, int SEGMENT>
std::vector<float> topk_once(const float* d_keys, std::size_t n, int k)
{
  const std::size_t out_items = n / SEGMENT * std::size_t(k);
  float* d_out                = static_cast<float*>(bench::scratch(0, out_items * sizeof(float)));
  const segment_arrays arrays = arrays_for(d_keys, d_out, n, SEGMENT, std::size_t(k));
  bench::poison(d_out, out_items);
  auto call = [&](void* d_temp, std::size_t& bytes)
  {
    if constexpr (STRATA || !baseline_takes_v<SEGMENT>)
    {
      return strata_topk(d_temp, bytes, arrays, n, SEGMENT, k, cudaStream_t(0));
    }
    else
    {
      return baseline_topk<SEGMENT>(d_temp, bytes, d_keys, d_out, arrays, n, k, cudaStream_t(0));
    }
  };
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes), "size query");
  bench::check(call(bench::scratch(2, bytes), bytes), "batched top-k");
  bench::check(cudaDeviceSynchronize(), "batched top-k");
  std::vector<float> out = bench::download(d_out, out_items);
#if defined(STRATA_BENCH_CCCL_NEXT)
  for (std::size_t s = 0; s < n / SEGMENT; ++s)
  {
    std::sort(out.begin() + std::ptrdiff_t(s * std::size_t(k)), out.begin() + std::ptrdiff_t((s + 1) * std::size_t(k)));
  }
#endif
  return out;
}

#if defined(STRATA_BENCH_CCCL_NEXT)
//! Each segment's k largest keys (sorted as the comparison with CUB 3.5 sorts them), found on the
//! host for the segments CUB 3.5 does not take.
std::vector<float> host_topk(const float* d_keys, std::size_t n, std::size_t segment, std::size_t k)
{
  const std::vector<float> keys = bench::download(d_keys, n);
  std::vector<float> out(n / segment * k);
  for (std::size_t s = 0; s < n / segment; ++s)
  {
    std::vector<float> part(keys.begin() + std::ptrdiff_t(s * segment),
                            keys.begin() + std::ptrdiff_t((s + 1) * segment));
    std::partial_sort(part.begin(), part.begin() + std::ptrdiff_t(k), part.end(),
                      [](float a, float b) { return a > b; });
    std::copy(part.begin(), part.begin() + std::ptrdiff_t(k), out.begin() + std::ptrdiff_t(s * k));
    std::sort(out.begin() + std::ptrdiff_t(s * k), out.begin() + std::ptrdiff_t((s + 1) * k));
  }
  return out;
}
#endif

//! Times strata's (STRATA) or the baseline's batched top-k of state.range(0) keys in segments of
//! SEGMENT. strata's row first compares both results, once per configuration.
template <bool STRATA, int SEGMENT, int K>
void time_batched(benchmark::State& state, const std::string& name)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& keys          = bench::shared_rotating_buffer<float>(n);
  const float* d_keys = keys.next();
  if constexpr (STRATA)
  {
    const std::string configuration = name + "/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      std::vector<float> expected;
      if constexpr (baseline_takes_v<SEGMENT>)
      {
        expected = topk_once<false, SEGMENT>(d_keys, n, K);
      }
#if defined(STRATA_BENCH_CCCL_NEXT)
      else
      {
        expected = host_topk(d_keys, n, SEGMENT, K);
      }
#endif
      const std::string mismatch = bench::compare_exact(topk_once<true, SEGMENT>(d_keys, n, K), expected);
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  float* d_out                = static_cast<float*>(bench::scratch(0, n / SEGMENT * K * sizeof(float)));
  const segment_arrays arrays = arrays_for(d_keys, d_out, n, SEGMENT, K);
  auto call                   = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    if constexpr (STRATA || !baseline_takes_v<SEGMENT>)
    {
      return strata_topk(d_temp, bytes, arrays, n, SEGMENT, K, stream);
    }
    else
    {
      return baseline_topk<SEGMENT>(d_temp, bytes, d_keys, d_out, arrays, n, K, stream);
    }
  };
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, cudaStream_t(0)), "size query");
  void* d_temp = bench::scratch(2, bytes);
  bench::time_iterations(
      state, [&](cudaStream_t stream) { bench::check(call(d_temp, bytes, stream), "top-k"); },
      [&](cudaStream_t stream) { bench::flush_l2(stream); });
  bench::set_throughput(state, n, n * sizeof(float));
}

template <bool STRATA>
void segments_64(benchmark::State& state)
{
  time_batched<STRATA, 64, 8>(state, "DeviceBatchedTopK::MaxKeys, segments of 64, k 8/f32");
}
template <bool STRATA>
void segments_256(benchmark::State& state)
{
  time_batched<STRATA, 256, 16>(state, "DeviceBatchedTopK::MaxKeys, segments of 256, k 16/f32");
}
template <bool STRATA>
void segments_1024(benchmark::State& state)
{
  time_batched<STRATA, 1024, 32>(state, "DeviceBatchedTopK::MaxKeys, segments of 1024, k 32/f32");
}
template <bool STRATA>
void segments_1m(benchmark::State& state)
{
  time_batched<STRATA, (1 << 20), 64>(state, "DeviceBatchedTopK::MaxKeys, segments of 2^20, k 64/f32");
}

//! Segments of power-law sizes (a Pareto distribution of exponent 1.2 from 16 keys, at most 2^20,
//! the last one cut to fill n) with k from 1 to 64 (at most the size), both read per segment from
//! device arrays; built once per input, with the host's top-k of each segment, best first.
struct power_law_batch
{
  const float* d_keys        = nullptr;
  std::size_t num_segments   = 0;
  std::size_t out_items      = 0;
  const float* const* d_in   = nullptr;
  float* const* d_out        = nullptr;
  const int* d_sizes         = nullptr;
  const int* d_ks            = nullptr;
  const long long* d_offsets = nullptr; // where each segment starts, and n (for the baseline's sort)
  std::vector<float> expected;
};

const power_law_batch& power_law_for(const float* d_keys, std::size_t n)
{
  static power_law_batch b;
  static std::vector<void*> allocations;
  if (b.d_keys == d_keys && b.expected.size() > 0 && b.num_segments > 0)
  {
    return b;
  }
  for (void* p : allocations)
  {
    cudaFree(p);
  }
  allocations.clear();
  std::vector<int> sizes;
  std::vector<int> ks;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next_unit      = [&state]
  {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double(state >> 11) + 0.5) / double(1ull << 53);
  };
  for (std::size_t total = 0; total < n;)
  {
    const double size      = 16.0 * std::pow(next_unit(), -1.0 / 1.2);
    const std::size_t want = size > double(1 << 20) ? std::size_t(1) << 20 : std::size_t(size);
    const std::size_t take = std::min(want, n - total);
    sizes.push_back(int(take));
    ks.push_back(std::min(int(take), 1 + int(next_unit() * 64.0)));
    total += take;
  }
  b.num_segments                = sizes.size();
  const std::vector<float> keys = bench::download(d_keys, n);
  std::vector<const float*> in(b.num_segments);
  std::vector<float*> out(b.num_segments);
  std::vector<std::size_t> out_offsets(b.num_segments + 1, 0);
  for (std::size_t s = 0; s < b.num_segments; ++s)
  {
    out_offsets[s + 1] = out_offsets[s] + std::size_t(ks[s]);
  }
  b.out_items        = out_offsets.back();
  float* d_out_items = nullptr;
  bench::check(cudaMalloc(&d_out_items, b.out_items * sizeof(float)), "cudaMalloc");
  allocations.push_back(d_out_items);
  b.expected.assign(b.out_items, 0.0f);
  std::size_t offset = 0;
  for (std::size_t s = 0; s < b.num_segments; ++s)
  {
    in[s]  = d_keys + offset;
    out[s] = d_out_items + out_offsets[s];
    std::vector<float> part(keys.begin() + std::ptrdiff_t(offset), keys.begin() + std::ptrdiff_t(offset + sizes[s]));
    std::partial_sort(part.begin(), part.begin() + ks[s], part.end(), [](float a, float c) { return a > c; });
    std::copy(part.begin(), part.begin() + ks[s], b.expected.begin() + std::ptrdiff_t(out_offsets[s]));
    offset += std::size_t(sizes[s]);
  }
  auto upload = [&](const auto& host)
  {
    void* d                 = nullptr;
    const std::size_t bytes = host.size() * sizeof(host[0]);
    bench::check(cudaMalloc(&d, bytes), "cudaMalloc");
    bench::check(cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice), "upload");
    allocations.push_back(d);
    return d;
  };
  b.d_in  = static_cast<const float* const*>(upload(in));
  b.d_out = static_cast<float* const*>(upload(out));
  std::vector<long long> offsets(b.num_segments + 1, 0);
  for (std::size_t s = 0; s < b.num_segments; ++s)
  {
    offsets[s + 1] = offsets[s] + sizes[s];
  }
  b.d_sizes   = static_cast<const int*>(upload(sizes));
  b.d_ks      = static_cast<const int*>(upload(ks));
  b.d_offsets = static_cast<const long long*>(upload(offsets));
  b.d_keys    = d_keys;
  return b;
}

//! The baseline's last step for power-law segments: each segment's first k sorted keys to its
//! output, a block a segment.
__global__ void copy_firsts(const float* d_sorted, const long long* d_offsets, const int* d_ks, float* const* d_out,
                            std::size_t num_segments)
{
  for (std::size_t s = blockIdx.x; s < num_segments; s += gridDim.x)
  {
    for (int j = int(threadIdx.x); j < d_ks[s]; j += int(blockDim.x))
    {
      d_out[s][j] = d_sorted[d_offsets[s] + j];
    }
  }
}

//! Times strata's batched top-k (STRATA) or the baseline (every segment sorted descending by
//! DeviceSegmentedSort, then each segment's first k copied) of state.range(0) keys in power-law
//! segments; the first run compares the output with the host's.
template <bool STRATA>
void power_law(benchmark::State& state)
{
  const std::size_t n      = static_cast<std::size_t>(state.range(0));
  auto& keys               = bench::shared_rotating_buffer<float>(n);
  const power_law_batch& b = power_law_for(keys.next(), n);
  auto call                = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    if constexpr (STRATA)
    {
      return strata::DeviceBatchedTopK::MaxKeys(d_temp, bytes, b.d_in, b.d_out, b.d_sizes, b.d_ks,
                                                std::int64_t(b.num_segments), stream);
    }
    else
    {
      float* d_sorted   = static_cast<float*>(bench::scratch(1, n * sizeof(float)));
      cudaError_t error = cub::DeviceSegmentedSort::SortKeysDescending(d_temp, bytes, b.d_keys, d_sorted,
                                                                       std::int64_t(n), std::int64_t(b.num_segments),
                                                                       b.d_offsets, b.d_offsets + 1, stream);
      if (error != cudaSuccess || d_temp == nullptr)
      {
        return error;
      }
      const std::size_t blocks = std::min<std::size_t>(b.num_segments, 65536);
      copy_firsts<<<unsigned(blocks), 64, 0, stream>>>(d_sorted, b.d_offsets, b.d_ks, b.d_out, b.num_segments);
      return cudaGetLastError();
    }
  };
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, cudaStream_t(0)), "size query");
  void* d_temp                    = bench::scratch(2, bytes);
  const std::string configuration = std::string("DeviceBatchedTopK::MaxKeys, power-law segments/")
                                    + (STRATA ? "strata/" : "cub/") + std::to_string(n);
  if (bench::first_run(configuration))
  {
    float* d_first = nullptr;
    bench::check(cudaMemcpy(&d_first, b.d_out, sizeof(float*), cudaMemcpyDeviceToHost), "download");
    bench::poison(d_first, b.out_items);
    bench::check(call(d_temp, bytes, cudaStream_t(0)), "batched top-k");
    bench::check(cudaDeviceSynchronize(), "batched top-k");
    if (!bench::record(state, configuration, bench::compare_exact(bench::download(d_first, b.out_items), b.expected)))
    {
      return;
    }
  }
  bench::time_iterations(
      state, [&](cudaStream_t stream) { bench::check(call(d_temp, bytes, stream), "top-k"); },
      [&](cudaStream_t stream) { bench::flush_l2(stream); });
  bench::set_throughput(state, n, n * sizeof(float));
}
} // namespace

#define STRATA_BENCH_REGISTER_BATCHED(FUNC, NAME)                                                                      \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(::bench::mode_name(NAME))                                                                                 \
      ->Arg(1 << 24)                                                                                                   \
      ->Arg(1 << 28)                                                                                                   \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)

STRATA_BENCH_REGISTER_BATCHED(segments_64<true>, "DeviceBatchedTopK::MaxKeys, segments of 64, k 8/strata/f32");
STRATA_BENCH_REGISTER_BATCHED(segments_64<false>, "DeviceBatchedTopK::MaxKeys, segments of 64, k 8/cub/f32");
STRATA_BENCH_REGISTER_BATCHED(segments_256<true>, "DeviceBatchedTopK::MaxKeys, segments of 256, k 16/strata/f32");
STRATA_BENCH_REGISTER_BATCHED(segments_256<false>, "DeviceBatchedTopK::MaxKeys, segments of 256, k 16/cub/f32");
STRATA_BENCH_REGISTER_BATCHED(segments_1024<true>, "DeviceBatchedTopK::MaxKeys, segments of 1024, k 32/strata/f32");
STRATA_BENCH_REGISTER_BATCHED(segments_1024<false>, "DeviceBatchedTopK::MaxKeys, segments of 1024, k 32/cub/f32");
STRATA_BENCH_REGISTER_BATCHED(segments_1m<true>, "DeviceBatchedTopK::MaxKeys, segments of 2^20, k 64/strata/f32");
STRATA_BENCH_REGISTER_BATCHED(power_law<true>,
                              "DeviceBatchedTopK::MaxKeys, power-law segments, k 1-64 per segment/strata/f32");
STRATA_BENCH_REGISTER_BATCHED(power_law<false>,
                              "DeviceBatchedTopK::MaxKeys, power-law segments, k 1-64 per segment/cub/f32");
#if !defined(STRATA_BENCH_CCCL_NEXT)
STRATA_BENCH_REGISTER_BATCHED(segments_1m<false>, "DeviceBatchedTopK::MaxKeys, segments of 2^20, k 64/cub/f32");
#endif
STRATA_BENCH_MAIN()

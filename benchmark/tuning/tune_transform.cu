// Tuning sweep of DeviceTransform (not built by default: -DSTRATA_ENABLE_TUNING=ON):
// out[i] = 3 * in[i] of u32 and u64 by AgentTransform with candidate policies (threads, 16-byte
// vectors per thread, bulk copies) in a kernel like DeviceTransformKernel with 32-bit offsets,
// optionally with block b asking L2 for the input tile PREFETCH_KIB ahead of its own; next to
// strata::DeviceTransform, CUB and cudaMemcpy, at 2^24 and 2^28 items of rotating input.
// Names: "<type>/<threads>x<vectors>[/bulk]/p<prefetch KiB>".
// The first sweep (vector loads): 256 x 4 725 / 724 us for u32 at 2^28 (DeviceTransform with
// 64-bit offsets 727 / 728, CUB 718 / 721 / 721 / 722, cudaMemcpy 720 / 722); 256 x 8, 256 x 16,
// 128 x 8 729-735; 512 x 4 724 / 728; prefetching 1 MiB ahead 748 / 751, 2 MiB 765 / 768.
#include <strata/agent/agent_transform.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/util_ptx.cuh>

#include <cub/device/device_transform.cuh>

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>

namespace
{
struct times_three
{
  template <typename T>
  __device__ T operator()(T x) const
  {
    return x * T(3);
  }
};

template <typename T>
T* output()
{
  static bench::device_buffer<T> out(std::size_t(1) << 28);
  return out.data();
}

template <typename PolicyT, int PREFETCH_KIB, typename T>
__global__ __launch_bounds__(PolicyT::BLOCK_THREADS) void candidate_kernel(std::uint32_t num_items, T* out, const T* in)
{
  using AgentT                       = strata::AgentTransform<PolicyT, std::uint32_t, times_three, T*, const T*>;
  constexpr std::uint32_t TILE_BYTES = std::uint32_t(AgentT::TILE_ITEMS) * sizeof(T);
  constexpr std::uint32_t AHEAD      = PREFETCH_KIB * 1024u / TILE_BYTES;
  const std::uint32_t tile_offset    = blockIdx.x * std::uint32_t(AgentT::TILE_ITEMS);
  if constexpr (PREFETCH_KIB > 0)
  {
    if (threadIdx.x == 0 && blockIdx.x + AHEAD + 1 < gridDim.x)
    {
      strata::detail::PrefetchL2(in + tile_offset + AHEAD * std::uint32_t(AgentT::TILE_ITEMS), TILE_BYTES);
    }
  }
  const std::uint32_t remaining = num_items - tile_offset;
  const int tile_items          = remaining < std::uint32_t(AgentT::TILE_ITEMS) ? int(remaining) : AgentT::TILE_ITEMS;
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT(temp_storage, times_three{}, out, in).ConsumeTile(tile_offset, tile_items);
}

template <typename T, int THREADS, int VECTORS, bool BULK, int PREFETCH_KIB>
void candidate(benchmark::State& state)
{
  using PolicyT       = strata::detail::transform::TransformPolicy<THREADS, VECTORS, 8, BULK>;
  using AgentT        = strata::AgentTransform<PolicyT, std::uint32_t, times_three, T*, const T*>;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  const unsigned grid = unsigned((n + AgentT::TILE_ITEMS - 1) / AgentT::TILE_ITEMS);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           candidate_kernel<PolicyT, PREFETCH_KIB, T>
                               <<<grid, THREADS, 0, stream>>>(std::uint32_t(n), output<T>(), in.next());
                         });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

//! 0: strata::DeviceTransform, 1: CUB, 2: cudaMemcpy.
template <typename T, int WHICH>
void reference(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  bench::time_iterations(
      state,
      [&](cudaStream_t stream)
      {
        if constexpr (WHICH == 0)
        {
          bench::check(
              strata::DeviceTransform::Transform(in.next(), output<T>(), std::int64_t(n), times_three{}, stream),
              "strata");
        }
        else if constexpr (WHICH == 1)
        {
          bench::check(cub::DeviceTransform::Transform(in.next(), output<T>(), std::int64_t(n), times_three{}, stream),
                       "cub");
        }
        else
        {
          bench::check(cudaMemcpyAsync(output<T>(), in.next(), n * sizeof(T), cudaMemcpyDeviceToDevice, stream),
                       "memcpy");
        }
      });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}
} // namespace

// clang-format off
#define STRATA_TRANSFORM_SIZES {1 << 24, 1 << 28}
// clang-format on
#define STRATA_TUNE_TRANSFORM(T, THREADS, VECTORS, BULK, PREFETCH_KIB)                                                 \
  BENCHMARK(candidate<T, THREADS, VECTORS, BULK, PREFETCH_KIB>)                                                        \
      ->Name(#T "/" #THREADS "x" #VECTORS "/" #BULK "/p" #PREFETCH_KIB)                                                \
      ->ArgsProduct({STRATA_TRANSFORM_SIZES})                                                                          \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_REFERENCE(T, WHICH, NAME)                                                                          \
  BENCHMARK(reference<T, WHICH>)                                                                                       \
      ->Name(#T "/" NAME)                                                                                              \
      ->ArgsProduct({STRATA_TRANSFORM_SIZES})                                                                          \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_SWEEP(T)                                                                                           \
  STRATA_TUNE_REFERENCE(T, 1, "cub");                                                                                  \
  STRATA_TUNE_REFERENCE(T, 0, "strata");                                                                               \
  STRATA_TUNE_REFERENCE(T, 2, "memcpy");                                                                               \
  STRATA_TUNE_TRANSFORM(T, 256, 2, false, 0);                                                                          \
  STRATA_TUNE_TRANSFORM(T, 512, 2, false, 0);                                                                          \
  STRATA_TUNE_TRANSFORM(T, 256, 2, true, 0);                                                                           \
  STRATA_TUNE_TRANSFORM(T, 512, 2, true, 0);                                                                           \
  STRATA_TUNE_TRANSFORM(T, 256, 1, true, 0);                                                                           \
  STRATA_TUNE_TRANSFORM(T, 128, 2, true, 0);                                                                           \
  STRATA_TUNE_TRANSFORM(T, 512, 1, true, 0);                                                                           \
  STRATA_TUNE_TRANSFORM(T, 1024, 1, true, 0);                                                                          \
  STRATA_TUNE_TRANSFORM(T, 384, 2, true, 0);                                                                           \
  STRATA_TUNE_TRANSFORM(T, 128, 3, true, 0);                                                                           \
  STRATA_TUNE_REFERENCE(T, 1, "cub-again")

using u32 = std::uint32_t;
using u64 = std::uint64_t;

STRATA_TUNE_SWEEP(u32);
STRATA_TUNE_SWEEP(u64);
BENCHMARK_MAIN();

// Tuning sweep of DeviceFor (not built by default: -DSTRATA_ENABLE_TUNING=ON): ForEachCopyN of an
// operator that only compares each item (AgentForCopyVectors: threads, 16-byte vectors per
// thread) and Bulk writing out[i] = i (AgentFor: threads, indices per thread) with candidate
// policies in kernels like DeviceFor's, with 64- or 32-bit offsets; next to strata and CUB, at
// 2^24 and 2^28 items of u32 and u64 (rotating buffers).
// Names: "<type>/<copy|bulk>/<threads>x<vectors or items>/<offset bits>".
#include <strata/agent/agent_for.cuh>
#include <strata/device/device_for.cuh>

#include <cub/device/device_for.cuh>

#include "bench_common.cuh"
#include "bench_for_operators.cuh"

#include <cstddef>
#include <cstdint>

namespace
{
using bench::find_magic;
using bench::found_flag;
using bench::write_index;

template <typename PolicyT, typename OffsetT, typename T>
__global__ __launch_bounds__(PolicyT::BLOCK_THREADS) void copy_kernel(const T* first, OffsetT num_items,
                                                                      find_magic<T> op)
{
  using AgentT              = strata::AgentForCopyVectors<PolicyT, OffsetT, T, find_magic<T>>;
  const OffsetT tile_offset = OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS);
  const OffsetT remaining   = num_items - tile_offset;
  AgentT{first, op}.ConsumeTile(tile_offset,
                                remaining < OffsetT(AgentT::TILE_ITEMS) ? int(remaining) : AgentT::TILE_ITEMS);
}

template <typename PolicyT, typename OffsetT, typename T>
__global__ __launch_bounds__(PolicyT::BLOCK_THREADS) void bulk_kernel(OffsetT num_items, write_index<T> write)
{
  using OpT                 = strata::detail::for_each::ApplyToIndex<std::int64_t, write_index<T>>;
  using AgentT              = strata::AgentFor<PolicyT, OffsetT, OpT>;
  const OffsetT tile_offset = OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS);
  const OffsetT remaining   = num_items - tile_offset;
  AgentT{OpT{write}}.ConsumeTile(tile_offset,
                                 remaining < OffsetT(AgentT::TILE_ITEMS) ? int(remaining) : AgentT::TILE_ITEMS);
}

template <typename T, bool COPY, int THREADS, int PER_THREAD, typename OffsetT>
void candidate(benchmark::State& state)
{
  using PolicyT          = strata::detail::for_each::ForPolicy<THREADS, PER_THREAD, PER_THREAD>;
  const std::size_t n    = static_cast<std::size_t>(state.range(0));
  auto& data             = bench::shared_rotating_buffer<T>(n);
  const std::size_t tile = COPY ? std::size_t(THREADS) * PER_THREAD * strata::detail::tile::items_per_vector_v<T>
                                : std::size_t(THREADS) * PER_THREAD;
  const unsigned grid    = unsigned((n + tile - 1) / tile);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           if constexpr (COPY)
                           {
                             copy_kernel<PolicyT, OffsetT, T>
                                 <<<grid, THREADS, 0, stream>>>(data.next(), OffsetT(n), find_magic<T>{found_flag()});
                           }
                           else
                           {
                             bulk_kernel<PolicyT, OffsetT, T>
                                 <<<grid, THREADS, 0, stream>>>(OffsetT(n), write_index<T>{data.next()});
                           }
                         });
  bench::set_throughput(state, n, n * sizeof(T));
}

template <typename T, bool COPY, bool STRATA>
void reference(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& data          = bench::shared_rotating_buffer<T>(n);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           T* d                 = data.next();
                           const std::int64_t m = std::int64_t(n);
                           cudaError_t error    = cudaSuccess;
                           if constexpr (COPY)
                           {
                             error = STRATA ? strata::DeviceFor::ForEachCopyN(d, m, find_magic<T>{found_flag()}, stream)
                                            : cub::DeviceFor::ForEachCopyN(d, m, find_magic<T>{found_flag()}, stream);
                           }
                           else
                           {
                             error = STRATA ? strata::DeviceFor::Bulk(m, write_index<T>{d}, stream)
                                            : cub::DeviceFor::Bulk(m, write_index<T>{d}, stream);
                           }
                           bench::check(error, "DeviceFor");
                         });
  bench::set_throughput(state, n, n * sizeof(T));
}
} // namespace

// clang-format off
#define STRATA_FOR_SIZES {1 << 24, 1 << 28}
// clang-format on
#define STRATA_TUNE_FOR(T, KIND, COPY, THREADS, PER_THREAD, BITS)                                                      \
  BENCHMARK(candidate<T, COPY, THREADS, PER_THREAD, std::uint##BITS##_t>)                                              \
      ->Name(#T "/" KIND "/" #THREADS "x" #PER_THREAD "/" #BITS)                                                       \
      ->ArgsProduct({STRATA_FOR_SIZES})                                                                                \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_REFERENCE(T, KIND, COPY, STRATA, NAME)                                                             \
  BENCHMARK(reference<T, COPY, STRATA>)                                                                                \
      ->Name(#T "/" KIND "/" NAME)                                                                                     \
      ->ArgsProduct({STRATA_FOR_SIZES})                                                                                \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_SWEEP(T)                                                                                           \
  STRATA_TUNE_REFERENCE(T, "copy", true, false, "cub");                                                                \
  STRATA_TUNE_REFERENCE(T, "copy", true, true, "strata");                                                              \
  STRATA_TUNE_FOR(T, "copy", true, 256, 4, 64);                                                                        \
  STRATA_TUNE_FOR(T, "copy", true, 256, 4, 32);                                                                        \
  STRATA_TUNE_FOR(T, "copy", true, 256, 2, 64);                                                                        \
  STRATA_TUNE_FOR(T, "copy", true, 256, 1, 64);                                                                        \
  STRATA_TUNE_FOR(T, "copy", true, 512, 1, 64);                                                                        \
  STRATA_TUNE_FOR(T, "copy", true, 512, 2, 64);                                                                        \
  STRATA_TUNE_FOR(T, "copy", true, 128, 4, 64);                                                                        \
  STRATA_TUNE_REFERENCE(T, "copy", true, false, "cub-again");                                                          \
  STRATA_TUNE_REFERENCE(T, "bulk", false, false, "cub");                                                               \
  STRATA_TUNE_REFERENCE(T, "bulk", false, true, "strata");                                                             \
  STRATA_TUNE_FOR(T, "bulk", false, 256, 2, 64);                                                                       \
  STRATA_TUNE_FOR(T, "bulk", false, 256, 2, 32);                                                                       \
  STRATA_TUNE_FOR(T, "bulk", false, 256, 1, 64);                                                                       \
  STRATA_TUNE_FOR(T, "bulk", false, 256, 4, 64);                                                                       \
  STRATA_TUNE_FOR(T, "bulk", false, 512, 2, 64);                                                                       \
  STRATA_TUNE_FOR(T, "bulk", false, 128, 4, 64);                                                                       \
  STRATA_TUNE_FOR(T, "bulk", false, 256, 8, 64);                                                                       \
  STRATA_TUNE_REFERENCE(T, "bulk", false, false, "cub-again")

using u32 = std::uint32_t;
using u64 = std::uint64_t;

STRATA_TUNE_SWEEP(u32);
STRATA_TUNE_SWEEP(u64);
BENCHMARK_MAIN();

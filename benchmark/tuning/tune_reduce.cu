// Tuning sweep of DeviceReduce's first pass (not built by default: -DSTRATA_ENABLE_TUNING=ON):
// Sum of u32, f32 and u64 and Min of f32 through DispatchReduce, one policy hub per candidate
// (threads, items per thread for 4-byte values, blocks per SM the registers must allow, grid
// subscription, tile mapping), next to CUB, at 2^24 and 2^28 items of rotating input.
// Names: "<type>/<false: Sum, true: Min>/<threads>x<items>/<blocks per SM>x<subscription>/<rake|strip>".
// Earlier sweeps (docs/performance.md): blocks per SM 4 or 8, subscription 1, 2, 5, rake; then
// strip-mined 4 x 2 and 256 x 8 items at 8 blocks per SM (x 1, x 5), no better than 4 x 5.
// An L2 prefetch of the tile 1 or 2 ahead in each block's range was also tried (a policy field
// then): 6-38% slower at 2^28.
#include <strata/device/device_reduce.cuh>

#include <cub/device/device_reduce.cuh>

#include "bench_common.cuh"

#include <cuda/functional>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace
{
template <typename T, int THREADS, int ITEMS_4B, int BLOCKS, int WAVES, bool STRIP, int SINGLE_MAX = 16384,
          int SINGLE_ITEMS_4B = 8>
struct candidate_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using ReducePolicy =
        strata::AgentReducePolicy<THREADS, ITEMS_4B, T, 4, strata::BLOCK_REDUCE_WARP_REDUCTIONS, strata::LOAD_LDG>;
    using SingleTilePolicy =
        strata::AgentReducePolicy<1024, SINGLE_ITEMS_4B, T, 4, strata::BLOCK_REDUCE_WARP_REDUCTIONS, strata::LOAD_LDG>;
    static constexpr int SINGLE_BLOCK_MAX_ITEMS = SINGLE_MAX;
    static constexpr int BLOCKS_PER_SM          = BLOCKS;
    static constexpr int SUBSCRIPTION           = WAVES;
    static constexpr strata::GridMappingStrategy GRID_MAPPING =
        STRIP ? strata::GRID_MAPPING_STRIP_MINE : strata::GRID_MAPPING_RAKE;
  };
  using MaxPolicy = Policy;
};

template <typename T>
T* output()
{
  static bench::device_buffer<T> out(64);
  return out.data();
}

inline void* temp_storage(std::size_t& bytes)
{
  static bench::device_buffer<unsigned char> temp(std::size_t(1) << 20);
  bytes = temp.bytes();
  return temp.data();
}

//! Sum (MIN false) or Min (MIN true).
template <typename T, bool MIN>
struct reduction
{
  using OpT = std::conditional_t<MIN, cuda::minimum<>, cuda::std::plus<>>;
  static T init()
  {
    return MIN ? std::numeric_limits<T>::max() : T{};
  }
};

//! Times `reduce(temp, bytes, in, out, n, stream)` over the rotating input of range(0) items of T,
//! then checks one result of an integer type against CUB's (Sum or, with MIN, Min) of the same
//! input (the random bits of floating-point inputs include NaNs, whose results depend on the
//! order of the reduction).
template <typename T, bool MIN, typename ReduceT>
void time_reduction(benchmark::State& state, ReduceT reduce)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(reduce(temp, bytes, in.next(), output<T>(), int(n), stream), "reduce"); });
  bench::set_throughput(state, n, n * sizeof(T));

  const T* d_in = in.next();
  T results[2];
  bench::check(reduce(temp, bytes, d_in, output<T>(), int(n), cudaStream_t{}), "reduce");
  bench::check(cudaMemcpy(&results[0], output<T>(), sizeof(T), cudaMemcpyDeviceToHost), "result");
  bench::check(MIN ? cub::DeviceReduce::Min(temp, bytes, d_in, output<T>(), int(n))
                   : cub::DeviceReduce::Sum(temp, bytes, d_in, output<T>(), int(n)),
               "cub reduce");
  bench::check(cudaMemcpy(&results[1], output<T>(), sizeof(T), cudaMemcpyDeviceToHost), "result");
  if (std::is_integral_v<T> && results[0] != results[1])
  {
    state.SkipWithError("the result differs from CUB's");
  }
}

template <typename T, bool MIN, int THREADS, int ITEMS_4B, int BLOCKS, int SUBSCRIPTION, bool STRIP,
          int SINGLE_MAX = 16384, int SINGLE_ITEMS_4B = 8>
void candidate(benchmark::State& state)
{
  using R         = reduction<T, MIN>;
  using HubT      = candidate_hub<T, THREADS, ITEMS_4B, BLOCKS, SUBSCRIPTION, STRIP, SINGLE_MAX, SINGLE_ITEMS_4B>;
  using DispatchT = strata::DispatchReduce<const T*, T*, int, typename R::OpT, T, T, cuda::std::identity, HubT>;
  time_reduction<T, MIN>(state,
                         [](void* temp, std::size_t& bytes, const T* in, T* out, int n, cudaStream_t stream) {
                           return DispatchT::Dispatch(temp, bytes, in, out, n, typename R::OpT{}, R::init(), stream);
                         });
}

template <typename T, bool MIN>
void cub_reduce(benchmark::State& state)
{
  time_reduction<T, MIN>(state,
                         [](void* temp, std::size_t& bytes, const T* in, T* out, int n, cudaStream_t stream)
                         {
                           return MIN ? cub::DeviceReduce::Min(temp, bytes, in, out, n, stream)
                                      : cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream);
                         });
}
} // namespace

// clang-format off
#define STRATA_REDUCE_SIZES {1 << 24, 1 << 28}
// clang-format on
#define STRATA_TUNE_REDUCE(T, MIN, THREADS, ITEMS, BLOCKS, SUBSCRIPTION, MAPPING)                                      \
  BENCHMARK(candidate<T, MIN, THREADS, ITEMS, BLOCKS, SUBSCRIPTION, MAPPING == strip>)                                 \
      ->Name(#T "/" #MIN "/" #THREADS "x" #ITEMS "/" #BLOCKS "x" #SUBSCRIPTION "/" #MAPPING)                           \
      ->ArgsProduct({STRATA_REDUCE_SIZES})                                                                             \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_CUB(T, MIN, TAG)                                                                                   \
  BENCHMARK(cub_reduce<T, MIN>)                                                                                        \
      ->Name(#T "/" #MIN "/" TAG)                                                                                      \
      ->ArgsProduct({STRATA_REDUCE_SIZES})                                                                             \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
// The second name part: false for Sum, true for Min.
#define STRATA_TUNE_SWEEP(T, MIN)                                                                                      \
  STRATA_TUNE_CUB(T, MIN, "cub");                                                                                      \
  STRATA_TUNE_REDUCE(T, MIN, 256, 16, 4, 5, rake);                                                                     \
  STRATA_TUNE_REDUCE(T, MIN, 256, 16, 4, 1, rake);                                                                     \
  STRATA_TUNE_REDUCE(T, MIN, 256, 16, 4, 1, strip);                                                                    \
  STRATA_TUNE_REDUCE(T, MIN, 256, 16, 4, 5, strip);                                                                    \
  STRATA_TUNE_CUB(T, MIN, "cub-again")

// Small inputs: the largest input that one block reduces in one launch (SINGLE_BLOCK_MAX_ITEMS)
// and that block's items per thread (4-byte values), with the sm_90 first pass for the rest.
// Names: "<type>/small/<single-block max>x<items>".
#define STRATA_TUNE_SMALL(T, SINGLE_MAX, SINGLE_ITEMS)                                                                 \
  BENCHMARK(candidate<T, false, 256, 16, 4, sizeof(T) <= 4 ? 5 : 1, true, SINGLE_MAX, SINGLE_ITEMS>)                   \
      ->Name(#T "/small/" #SINGLE_MAX "x" #SINGLE_ITEMS)                                                               \
      ->ArgsProduct({STRATA_SMALL_SIZES})                                                                              \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_SMALL_CUB(T)                                                                                       \
  BENCHMARK(cub_reduce<T, false>)                                                                                      \
      ->Name(#T "/small/cub")                                                                                          \
      ->ArgsProduct({STRATA_SMALL_SIZES})                                                                              \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_SMALL_SIZES                                                                                             \
  {                                                                                                                    \
    1 << 14, 1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 20                                                               \
  }
#define STRATA_TUNE_SMALL_SWEEP(T)                                                                                     \
  STRATA_TUNE_SMALL_CUB(T);                                                                                            \
  STRATA_TUNE_SMALL(T, 16384, 8);                                                                                      \
  STRATA_TUNE_SMALL(T, 262144, 8);                                                                                     \
  STRATA_TUNE_SMALL(T, 262144, 16)

enum mapping
{
  rake,
  strip
};

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using f32 = float;

STRATA_TUNE_SWEEP(u32, false);
STRATA_TUNE_SWEEP(f32, false);
STRATA_TUNE_SWEEP(u64, false);
STRATA_TUNE_SWEEP(f32, true);
STRATA_TUNE_SMALL_SWEEP(u32);
STRATA_TUNE_SMALL_SWEEP(f32);
STRATA_TUNE_SMALL_SWEEP(u64);
BENCHMARK_MAIN();

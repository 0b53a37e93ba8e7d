// DeviceScan (ExclusiveSum, InclusiveSum, ExclusiveScan, InclusiveScan, InclusiveScanInit and the
// four scans by key), strata and CUB side by side on the same device buffers, at 2^16, 2^20, 2^24
// and 2^28 items of u32, f32 and u64. Inputs rotate through copies filling 256 MiB, so that no run
// finds its input in the 50 MB L2. Keys come in random runs of mean length 8 or 1000. Bytes count
// every read and write once.
#include <strata/device/device_scan.cuh>

#include <cub/device/device_scan.cuh>

#include "bench_common.cuh"

#include <cuda/functional>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace
{
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using f32 = float;

constexpr std::size_t max_items = std::size_t(1) << 28;

//! Output and temporary storage, grown as needed and kept.
void* scratch(int slot, std::size_t bytes)
{
  static std::size_t sizes[2] = {0, 0};
  static void* ptrs[2]        = {nullptr, nullptr};
  if (bytes > sizes[slot])
  {
    cudaFree(ptrs[slot]);
    bench::check(cudaMalloc(&ptrs[slot], bytes), "cudaMalloc scratch");
    sizes[slot] = bytes;
  }
  return ptrs[slot];
}

//! 2^28 keys in random runs (lengths uniform in [1, 2 * mean - 1]); a benchmark of n items reads
//! n of them from a rotating offset, so that small inputs do not sit in L2 either.
class run_keys
{
public:
  explicit run_keys(int mean)
      : keys_(max_items)
  {
    std::vector<u32> host(max_items);
    std::mt19937 engine(2039u + unsigned(mean));
    std::uniform_int_distribution<int> length(1, 2 * mean - 1);
    u32 key = 0;
    for (std::size_t i = 0; i < max_items;)
    {
      const std::size_t end = i + std::size_t(length(engine));
      for (; i < end && i < max_items; ++i)
      {
        host[i] = key;
      }
      ++key;
    }
    bench::check(cudaMemcpy(keys_.data(), host.data(), keys_.bytes(), cudaMemcpyHostToDevice), "keys upload");
  }
  const u32* next(std::size_t n)
  {
    const std::size_t slots = max_items / n;
    const u32* at           = keys_.data() + (turn_ % slots) * n;
    ++turn_;
    return at;
  }

private:
  bench::device_buffer<u32> keys_;
  std::size_t turn_ = 0;
};

run_keys& keys_with_mean(int mean)
{
  static run_keys mean8(8);
  static run_keys mean1000(1000);
  return mean == 8 ? mean8 : mean1000;
}

//! Times `call(d_temp, bytes, d_in, d_out, stream)` (a two-phase scan) over a rotating input of n
//! items of T; bytes = input read + output written.
template <typename T, typename CallT>
void time_scan(benchmark::State& state, CallT call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  T* d_out            = static_cast<T*>(scratch(0, n * sizeof(T)));
  std::size_t bytes   = 0;
  bench::check(call(nullptr, bytes, in.next(), d_out, cudaStream_t(0)), "size query");
  void* d_temp = scratch(1, bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(call(d_temp, bytes, in.next(), d_out, stream), "scan"); });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

//! As time_scan, for scans by key: keys (u32, runs of mean length state.range(1)) are read too.
template <typename T, typename CallT>
void time_scan_by_key(benchmark::State& state, CallT call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& keys          = keys_with_mean(int(state.range(1)));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  T* d_out            = static_cast<T*>(scratch(0, n * sizeof(T)));
  std::size_t bytes   = 0;
  bench::check(call(nullptr, bytes, keys.next(n), in.next(), d_out, cudaStream_t(0)), "size query");
  void* d_temp = scratch(1, bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(call(d_temp, bytes, keys.next(n), in.next(), d_out, stream), "scan by key"); });
  bench::set_throughput(state, n, n * (2 * sizeof(T) + sizeof(u32)));
}

#define STRATA_BENCH_SCAN(LIB, NAME, T, EXPR)                                                                          \
  void NAME##_##LIB##_##T(benchmark::State& state)                                                                     \
  {                                                                                                                    \
    using value_t = T;                                                                                                 \
    time_scan<T>(state,                                                                                                \
                 [&](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, cudaStream_t stream)                   \
                 {                                                                                                     \
                   const auto n = static_cast<std::int64_t>(state.range(0));                                           \
                   return LIB::DeviceScan::EXPR;                                                                       \
                 });                                                                                                   \
  }
#define STRATA_BENCH_SCAN_BOTH(NAME, T, EXPR)                                                                          \
  STRATA_BENCH_SCAN(strata, NAME, T, EXPR)                                                                             \
  STRATA_BENCH_SCAN(cub, NAME, T, EXPR)

#define STRATA_BENCH_SCAN_ALL(NAME, EXPR)                                                                              \
  STRATA_BENCH_SCAN_BOTH(NAME, u32, EXPR)                                                                              \
  STRATA_BENCH_SCAN_BOTH(NAME, f32, EXPR)                                                                              \
  STRATA_BENCH_SCAN_BOTH(NAME, u64, EXPR)

STRATA_BENCH_SCAN_ALL(exclusive_sum, ExclusiveSum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_SCAN_ALL(inclusive_sum, InclusiveSum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_SCAN_ALL(exclusive_scan,
                      ExclusiveScan(d_temp, bytes, d_in, d_out, cuda::maximum<>{}, value_t(1), n, stream))
STRATA_BENCH_SCAN_ALL(inclusive_scan, InclusiveScan(d_temp, bytes, d_in, d_out, cuda::maximum<>{}, n, stream))
STRATA_BENCH_SCAN_ALL(inclusive_scan_init,
                      InclusiveScanInit(d_temp, bytes, d_in, d_out, cuda::std::plus<>{}, value_t(1), n, stream))

#define STRATA_BENCH_BY_KEY(LIB, NAME, T, EXPR)                                                                        \
  void NAME##_##LIB##_##T(benchmark::State& state)                                                                     \
  {                                                                                                                    \
    using value_t = T;                                                                                                 \
    time_scan_by_key<T>(                                                                                               \
        state,                                                                                                         \
        [&](void* d_temp, std::size_t& bytes, const u32* d_keys, const T* d_in, T* d_out, cudaStream_t stream)         \
        {                                                                                                              \
          const auto n = static_cast<std::int64_t>(state.range(0));                                                    \
          return LIB::DeviceScan::EXPR;                                                                                \
        });                                                                                                            \
  }
#define STRATA_BENCH_BY_KEY_ALL(NAME, EXPR)                                                                            \
  STRATA_BENCH_BY_KEY(strata, NAME, u32, EXPR)                                                                         \
  STRATA_BENCH_BY_KEY(cub, NAME, u32, EXPR)                                                                            \
  STRATA_BENCH_BY_KEY(strata, NAME, f32, EXPR)                                                                         \
  STRATA_BENCH_BY_KEY(cub, NAME, f32, EXPR)                                                                            \
  STRATA_BENCH_BY_KEY(strata, NAME, u64, EXPR)                                                                         \
  STRATA_BENCH_BY_KEY(cub, NAME, u64, EXPR)

STRATA_BENCH_BY_KEY_ALL(exclusive_sum_by_key,
                        ExclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n, cuda::std::equal_to<>{}, stream))
STRATA_BENCH_BY_KEY_ALL(inclusive_sum_by_key,
                        InclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n, cuda::std::equal_to<>{}, stream))
STRATA_BENCH_BY_KEY_ALL(exclusive_scan_by_key, ExclusiveScanByKey(d_temp, bytes, d_keys, d_in, d_out, cuda::maximum<>{},
                                                                  value_t(1), n, cuda::std::equal_to<>{}, stream))
STRATA_BENCH_BY_KEY_ALL(inclusive_scan_by_key, InclusiveScanByKey(d_temp, bytes, d_keys, d_in, d_out, cuda::maximum<>{},
                                                                  n, cuda::std::equal_to<>{}, stream))
} // namespace

#define STRATA_BENCH_REGISTER(FUNC, NAME)                                                                              \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(NAME)                                                                                                     \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 28)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_BENCH_REGISTER_BOTH(FUNC, GROUP, T)                                                                     \
  STRATA_BENCH_REGISTER(FUNC##_strata_##T, GROUP "/strata/" #T);                                                       \
  STRATA_BENCH_REGISTER(FUNC##_cub_##T, GROUP "/cub/" #T)
#define STRATA_BENCH_REGISTER_ALL(FUNC, GROUP)                                                                         \
  STRATA_BENCH_REGISTER_BOTH(FUNC, GROUP, u32);                                                                        \
  STRATA_BENCH_REGISTER_BOTH(FUNC, GROUP, f32);                                                                        \
  STRATA_BENCH_REGISTER_BOTH(FUNC, GROUP, u64)

STRATA_BENCH_REGISTER_ALL(exclusive_sum, "DeviceScan::ExclusiveSum");
STRATA_BENCH_REGISTER_ALL(inclusive_sum, "DeviceScan::InclusiveSum");
STRATA_BENCH_REGISTER_ALL(exclusive_scan, "DeviceScan::ExclusiveScan(max)");
STRATA_BENCH_REGISTER_ALL(inclusive_scan, "DeviceScan::InclusiveScan(max)");
STRATA_BENCH_REGISTER_ALL(inclusive_scan_init, "DeviceScan::InclusiveScanInit");

// Scans by key: the second argument is the keys' mean run length.
#define STRATA_BENCH_REGISTER_BY_KEY(FUNC, NAME, MEAN)                                                                 \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(NAME)                                                                                                     \
      ->ArgsProduct({benchmark::CreateRange(1 << 16, 1 << 28, 16), {MEAN}})                                            \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_BENCH_REGISTER_BY_KEY_ALL(FUNC, GROUP)                                                                  \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_strata_u32, GROUP "/strata/u32", 8);                                             \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_cub_u32, GROUP "/cub/u32", 8);                                                   \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_strata_f32, GROUP "/strata/f32", 8);                                             \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_cub_f32, GROUP "/cub/f32", 8);                                                   \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_strata_u64, GROUP "/strata/u64", 8);                                             \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_cub_u64, GROUP "/cub/u64", 8);                                                   \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_strata_u32, GROUP "/strata/u32", 1000);                                          \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_cub_u32, GROUP "/cub/u32", 1000);                                                \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_strata_f32, GROUP "/strata/f32", 1000);                                          \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_cub_f32, GROUP "/cub/f32", 1000);                                                \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_strata_u64, GROUP "/strata/u64", 1000);                                          \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_cub_u64, GROUP "/cub/u64", 1000)

STRATA_BENCH_REGISTER_BY_KEY_ALL(exclusive_sum_by_key, "DeviceScan::ExclusiveSumByKey");
STRATA_BENCH_REGISTER_BY_KEY_ALL(inclusive_sum_by_key, "DeviceScan::InclusiveSumByKey");
STRATA_BENCH_REGISTER_BY_KEY_ALL(exclusive_scan_by_key, "DeviceScan::ExclusiveScanByKey(max)");
STRATA_BENCH_REGISTER_BY_KEY_ALL(inclusive_scan_by_key, "DeviceScan::InclusiveScanByKey(max)");
BENCHMARK_MAIN();

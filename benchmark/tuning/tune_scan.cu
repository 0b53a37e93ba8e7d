// Tuning sweep of DeviceScan's single pass (not built by default: -DSTRATA_ENABLE_TUNING=ON):
// ExclusiveSum and InclusiveSumByKey (keys in runs of 8) of u32 and u64 through DispatchScan and
// DispatchScanByKey with one policy hub per candidate (threads, items per thread for 4-byte
// values, look-back initial delay and spin in ns), next to CUB, at 2^24 and 2^28 items of
// rotating input. Names: "<type>[/by_key]/<threads>x<items>/<delay>-<spin>".
#include <strata/device/device_scan.cuh>

#include <cub/device/device_scan.cuh>

#include "bench_common.cuh"

#include <cuda/functional>

#include <cstdint>
#include <string>
#include <random>
#include <memory>
#include <map>
#include <vector>

namespace
{
template <typename T, int THREADS, int ITEMS_4B, unsigned DELAY, unsigned SPIN>
struct candidate_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using ScanPolicy = strata::AgentScanPolicy<THREADS, ITEMS_4B, T, strata::LOAD_DEFAULT,
                                               strata::detail::LookbackPolicy<DELAY, SPIN, SPIN>>;
  };
  using MaxPolicy = Policy;
};

template <typename T>
T* output()
{
  static bench::device_buffer<T> out(std::size_t(1) << 28);
  return out.data();
}

inline void* temp_storage(std::size_t& bytes)
{
  static bench::device_buffer<unsigned char> temp(std::size_t(64) << 20);
  bytes = temp.bytes();
  return temp.data();
}

//! 2^28 keys in random runs of mean length `mean` (lengths uniform in [1, 2 * mean - 1]), as
//! bench_device_scan.cu has them.
inline const std::uint32_t* run_keys(int mean)
{
  static std::map<int, std::unique_ptr<bench::device_buffer<std::uint32_t>>> keys;
  auto& slot = keys[mean];
  if (!slot)
  {
    slot = std::make_unique<bench::device_buffer<std::uint32_t>>(std::size_t(1) << 28);
    std::vector<std::uint32_t> host(slot->size());
    std::mt19937 engine(2039u + unsigned(mean));
    std::uniform_int_distribution<int> length(1, 2 * mean - 1);
    std::uint32_t key = 0;
    for (std::size_t i = 0; i < host.size();)
    {
      const std::size_t end = i + std::size_t(length(engine));
      for (; i < end && i < host.size(); ++i)
      {
        host[i] = key;
      }
      ++key;
    }
    bench::check(cudaMemcpy(slot->data(), host.data(), slot->bytes(), cudaMemcpyHostToDevice), "keys");
  }
  return slot->data();
}

template <typename T, int THREADS, int ITEMS_4B, unsigned DELAY, unsigned SPIN, typename OpT = cuda::std::plus<>>
void candidate(benchmark::State& state)
{
  using DispatchT     = strata::DispatchScan<const T*, T*, OpT, strata::detail::InputValue<T>, std::uint32_t, T, false,
                                         candidate_hub<T, THREADS, ITEMS_4B, DELAY, SPIN>>;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           bench::check(DispatchT::Dispatch(temp, bytes, in.next(), output<T>(), OpT{},
                                                            strata::detail::InputValue<T>(T{}), std::uint32_t(n),
                                                            stream),
                                        "scan");
                         });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

template <typename T, int THREADS, int ITEMS_4B, unsigned DELAY, unsigned SPIN>
void by_key_candidate(benchmark::State& state)
{
  using DispatchT =
      strata::DispatchScanByKey<const std::uint32_t*, const T*, T*, cuda::std::equal_to<>, cuda::std::plus<>,
                                strata::NullType, std::uint32_t, T, candidate_hub<T, THREADS, ITEMS_4B, DELAY, SPIN>>;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           bench::check(DispatchT::Dispatch(temp, bytes, run_keys(int(state.range(1))), in.next(),
                                                            output<T>(), cuda::std::equal_to<>{}, cuda::std::plus<>{},
                                                            strata::NullType{}, std::uint32_t(n), stream),
                                        "scan by key");
                         });
  bench::set_throughput(state, n, n * (2 * sizeof(T) + 4));
}

template <typename T>
void cub_exclusive_sum(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  bench::time_iterations(
      state,
      [&](cudaStream_t stream)
      {
        bench::check(cub::DeviceScan::ExclusiveSum(temp, bytes, in.next(), output<T>(), std::int64_t(n), stream),
                     "cub scan");
      });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

template <typename T>
void cub_inclusive_max(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           bench::check(cub::DeviceScan::InclusiveScan(temp, bytes, in.next(), output<T>(),
                                                                       cuda::maximum<>{}, std::int64_t(n), stream),
                                        "cub scan");
                         });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

template <typename T>
void cub_inclusive_sum_by_key(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           bench::check(cub::DeviceScan::InclusiveSumByKey(temp, bytes, run_keys(int(state.range(1))),
                                                                           in.next(), output<T>(), std::int64_t(n),
                                                                           cuda::std::equal_to<>{}, stream),
                                        "cub scan by key");
                         });
  bench::set_throughput(state, n, n * (2 * sizeof(T) + 4));
}
} // namespace

#define STRATA_TUNE_AS(FUNC, T, THREADS, ITEMS, DELAY, SPIN, TAG, ...)                                                 \
  BENCHMARK(FUNC<T, THREADS, ITEMS, DELAY, SPIN __VA_ARGS__>)                                                          \
      ->Name(#T TAG "/" #THREADS "x" #ITEMS "/" #DELAY "-" #SPIN)                                                      \
      ->ArgsProduct({{1 << 24, 1 << 28}, {8, 1000}})                                                                   \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE(T, THREADS, ITEMS, DELAY, SPIN) STRATA_TUNE_AS(candidate, T, THREADS, ITEMS, DELAY, SPIN, "")
#define STRATA_TUNE_MAX(T, THREADS, ITEMS, DELAY, SPIN)                                                                \
  STRATA_TUNE_AS(candidate, T, THREADS, ITEMS, DELAY, SPIN, "/max", , cuda::maximum<>)
#define STRATA_TUNE_BY_KEY(T, THREADS, ITEMS, DELAY, SPIN)                                                             \
  STRATA_TUNE_AS(by_key_candidate, T, THREADS, ITEMS, DELAY, SPIN, "/by_key")
#define STRATA_TUNE_CUB(FUNC, NAME)                                                                                    \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(NAME)                                                                                                     \
      ->ArgsProduct({{1 << 24, 1 << 28}, {8, 1000}})                                                                   \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// The second argument is the keys' mean run length (scans by key only).
STRATA_TUNE_CUB(cub_exclusive_sum<u64>, "u64/cub");
STRATA_TUNE_CUB(cub_inclusive_max<u64>, "u64/max/cub");
STRATA_TUNE_CUB(cub_inclusive_sum_by_key<u64>, "u64/by_key/cub");

STRATA_TUNE(u64, 256, 40, 1200, 600);
STRATA_TUNE_MAX(u64, 256, 40, 1200, 600);
STRATA_TUNE_MAX(u64, 256, 32, 1200, 600);
STRATA_TUNE_MAX(u64, 256, 24, 1200, 600);
STRATA_TUNE_MAX(u64, 384, 32, 1200, 600);
STRATA_TUNE_BY_KEY(u64, 256, 24, 1200, 600);
STRATA_TUNE_BY_KEY(u64, 256, 16, 1200, 600);
STRATA_TUNE_BY_KEY(u64, 128, 24, 1200, 600);
STRATA_TUNE_BY_KEY(u64, 384, 16, 1200, 600);
STRATA_TUNE_BY_KEY(u64, 256, 20, 1200, 600);
STRATA_TUNE_BY_KEY(u64, 256, 24, 2000, 800);
BENCHMARK_MAIN();

// Tuning sweep of DeviceScan's single pass (not built by default: -DSTRATA_ENABLE_TUNING=ON):
// ExclusiveSum, InclusiveSum, InclusiveScan(max) and InclusiveSumByKey (keys in random runs of
// mean length 8 and 1000) of u32 and u64 through DispatchScan and DispatchScanByKey with one
// policy hub per candidate (threads, items per thread for 4-byte values, blocks per SM the
// registers must allow, look-back initial delay and spin in ns), next to CUB, at 2^24 and 2^28
// items of rotating input; the small sweep also at 2^16-2^20 items, with the first tile that
// sleeps before its look-back (LookbackPolicy's DELAYED_FROM_TILE).
// Names: "<type>/<function>/<threads>x<items>/<blocks per SM>/<delay>-<spin>", small sweep
// "<type>/small/<function>/[<threads>x<items>/]<delay>-<spin>-from<first delayed tile>" and
// "<type>/small/<function>/cub".
#include <strata/device/device_scan.cuh>

#include <cub/device/device_scan.cuh>

#include "bench_common.cuh"

#include <cuda/functional>

#include <cstdint>
#include <string>
#include <type_traits>
#include <random>
#include <memory>
#include <map>
#include <vector>

namespace
{
//! L2 prefetch PREFETCH_KIB ahead (DeviceScan's policy: 3 MiB).
template <typename T, int THREADS, int ITEMS_4B, int BLOCKS, unsigned DELAY, unsigned SPIN, int PREFETCH_KIB = 3072,
          int DELAYED_FROM = 0>
struct candidate_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using ScanPolicy =
        strata::detail::scan::tuning_policy_t<THREADS, ITEMS_4B, T, strata::LOAD_DEFAULT,
                                              strata::detail::LookbackPolicy<DELAY, SPIN, SPIN, DELAYED_FROM>, BLOCKS,
                                              PREFETCH_KIB * 1024>;
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

//! Which scan a candidate runs: ExclusiveScan, InclusiveScan, or InclusiveScanInit.
enum class scan_kind
{
  exclusive,
  inclusive,
  inclusive_init
};

//! A scan (the initial value, where there is one, is T{} + 1) by OpT.
template <typename T, int THREADS, int ITEMS_4B, int BLOCKS, unsigned DELAY, unsigned SPIN, scan_kind KIND,
          typename OpT = cuda::std::plus<>, int DELAYED_FROM = 0>
void candidate(benchmark::State& state)
{
  constexpr bool HAS_INIT = KIND != scan_kind::inclusive;
  using HubT              = candidate_hub<T, THREADS, ITEMS_4B, BLOCKS, DELAY, SPIN, 3072, DELAYED_FROM>;
  using InitT             = std::conditional_t<HAS_INIT, strata::detail::InputValue<T>, strata::NullType>;
  using DispatchT =
      strata::DispatchScan<const T*, T*, OpT, InitT, std::uint32_t, T,
                           KIND == scan_kind::inclusive_init ? strata::ForceInclusive::Yes : strata::ForceInclusive::No,
                           HubT>;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes   = 0;
  void* temp          = temp_storage(bytes);
  const InitT init    = []
  {
    if constexpr (HAS_INIT)
    {
      return InitT(T(T{} + 1));
    }
    else
    {
      return InitT{};
    }
  }();
  bench::time_iterations(
      state,
      [&](cudaStream_t stream)
      {
        bench::check(DispatchT::Dispatch(temp, bytes, in.next(), output<T>(), OpT{}, init, std::uint32_t(n), stream),
                     "scan");
      });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

template <typename T, int THREADS, int ITEMS_4B, int BLOCKS, unsigned DELAY, unsigned SPIN, int PREFETCH_KIB>
void by_key_candidate(benchmark::State& state)
{
  using DispatchT     = strata::DispatchScanByKey<const std::uint32_t*, const T*, T*, cuda::std::equal_to<>,
                                              cuda::std::plus<>, strata::NullType, std::uint32_t, T,
                                              candidate_hub<T, THREADS, ITEMS_4B, BLOCKS, DELAY, SPIN, PREFETCH_KIB>>;
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

//! CUB's scans, with the candidates' inputs (keys only for the scans by key).
struct cub_exclusive_sum
{
  template <typename T>
  cudaError_t operator()(void* temp, std::size_t& bytes, const std::uint32_t*, const T* in, T* out, std::int64_t n,
                         cudaStream_t stream) const
  {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream);
  }
};
struct cub_inclusive_sum
{
  template <typename T>
  cudaError_t operator()(void* temp, std::size_t& bytes, const std::uint32_t*, const T* in, T* out, std::int64_t n,
                         cudaStream_t stream) const
  {
    return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream);
  }
};
struct cub_inclusive_max
{
  template <typename T>
  cudaError_t operator()(void* temp, std::size_t& bytes, const std::uint32_t*, const T* in, T* out, std::int64_t n,
                         cudaStream_t stream) const
  {
    return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, cuda::maximum<>{}, n, stream);
  }
};
struct cub_inclusive_sum_by_key
{
  template <typename T>
  cudaError_t operator()(void* temp, std::size_t& bytes, const std::uint32_t* keys, const T* in, T* out, std::int64_t n,
                         cudaStream_t stream) const
  {
    return cub::DeviceScan::InclusiveSumByKey(temp, bytes, keys, in, out, n, cuda::std::equal_to<>{}, stream);
  }
};

//! One of CUB's scans (CallT above) of the candidates' input; BY_KEY: with the keys in runs of
//! mean length range(1).
template <typename T, typename CallT, bool BY_KEY = false>
void cub_scan(benchmark::State& state)
{
  const std::size_t n       = static_cast<std::size_t>(state.range(0));
  auto& in                  = bench::shared_rotating_buffer<T>(n);
  std::size_t bytes         = 0;
  void* temp                = temp_storage(bytes);
  const std::uint32_t* keys = BY_KEY ? run_keys(int(state.range(1))) : nullptr;
  bench::time_iterations(
      state, [&](cudaStream_t stream)
      { bench::check(CallT{}(temp, bytes, keys, in.next(), output<T>(), std::int64_t(n), stream), "cub scan"); });
  bench::set_throughput(state, n, n * (2 * sizeof(T) + (BY_KEY ? sizeof(std::uint32_t) : 0)));
}
} // namespace

#define STRATA_SCAN_SIZES                                                                                              \
  {                                                                                                                    \
    1 << 24, 1 << 28                                                                                                   \
  }
#define STRATA_RUN_LENGTHS                                                                                             \
  {                                                                                                                    \
    8, 1000                                                                                                            \
  }
#define STRATA_CANDIDATE_NAME(T, FUNC, THREADS, ITEMS, BLOCKS, DELAY, SPIN)                                            \
#  T "/" FUNC "/" #  THREADS "x" #  ITEMS "/" #  BLOCKS "/" #  DELAY "-" #  SPIN
#define STRATA_TUNE(T, FUNC, THREADS, ITEMS, BLOCKS, DELAY, SPIN, ...)                                                 \
  BENCHMARK(candidate<T, THREADS, ITEMS, BLOCKS, DELAY, SPIN, __VA_ARGS__>)                                            \
      ->Name(STRATA_CANDIDATE_NAME(T, FUNC, THREADS, ITEMS, BLOCKS, DELAY, SPIN))                                      \
      ->ArgsProduct({STRATA_SCAN_SIZES})                                                                               \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_EXCLUSIVE_SUM(T, THREADS, ITEMS, BLOCKS, DELAY, SPIN)                                              \
  STRATA_TUNE(T, "exclusive_sum", THREADS, ITEMS, BLOCKS, DELAY, SPIN, scan_kind::exclusive)
#define STRATA_TUNE_INCLUSIVE_SUM(T, THREADS, ITEMS, BLOCKS, DELAY, SPIN)                                              \
  STRATA_TUNE(T, "inclusive_sum", THREADS, ITEMS, BLOCKS, DELAY, SPIN, scan_kind::inclusive)
#define STRATA_TUNE_INCLUSIVE_SUM_INIT(T, THREADS, ITEMS, BLOCKS, DELAY, SPIN)                                         \
  STRATA_TUNE(T, "inclusive_sum_init", THREADS, ITEMS, BLOCKS, DELAY, SPIN, scan_kind::inclusive_init)
#define STRATA_TUNE_INCLUSIVE_MAX(T, THREADS, ITEMS, BLOCKS, DELAY, SPIN)                                              \
  STRATA_TUNE(T, "inclusive_max", THREADS, ITEMS, BLOCKS, DELAY, SPIN, scan_kind::inclusive, cuda::maximum<>)
#define STRATA_TUNE_BY_KEY(T, THREADS, ITEMS, BLOCKS, DELAY, SPIN, PREFETCH_KIB)                                       \
  BENCHMARK(by_key_candidate<T, THREADS, ITEMS, BLOCKS, DELAY, SPIN, PREFETCH_KIB>)                                    \
      ->Name(STRATA_CANDIDATE_NAME(T, "inclusive_sum_by_key", THREADS, ITEMS, BLOCKS, DELAY, SPIN) "/p" #PREFETCH_KIB) \
      ->ArgsProduct({STRATA_SCAN_SIZES, STRATA_RUN_LENGTHS})                                                           \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
// The second argument of scans by key is the keys' mean run length.
#define STRATA_TUNE_CUB(FUNC, NAME, ...)                                                                               \
  BENCHMARK(FUNC)->Name(NAME)->ArgsProduct({__VA_ARGS__})->UseManualTime()->Unit(benchmark::kMicrosecond)

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// The sweeps before this one (docs/tuning.md): blocks per SM (1 leaves the registers to the
// compiler), tile shapes, look-back delays and the prefetch distance of the scans without keys;
// the L2 prefetch distance of the scans by key and the look-back delays of 8-byte values; larger
// tiles for 8-byte values by key (u64 runs of 1000 at 2^24; none faster than 128 x 24 at 8 blocks).
// This one, small inputs read cold (STRATA_BENCH_COLD_L2=1) and warm: at 2^16 the plain scans ran
// at 0.94-0.99x CUB cold while the scans by key of u64 (100 ns first wait) led. Candidates: the
// policy's 1.2 us first wait for every tile, the same from tile 32 on (the tiles whose first window
// reaches tile 0 read at once), 100-200 ns and (ExclusiveSum) 600 ns waits, all with DeviceScan's
// tiles and blocks per SM; and (ExclusiveSum) CUB's tiles on sm_90, 128 x 24 items, with the
// policy's waits (CUB waits about 1.2 us before the first read and 650 ns between reads).
// Result (docs/tuning.md): 100-200 ns fastest cold at 2^16-2^20 and even at 2^24; DeviceScan now
// gives those waits to its first 1024 tiles.
#define STRATA_SMALL_SIZES                                                                                             \
  {                                                                                                                    \
    1 << 16, 1 << 18, 1 << 20, 1 << 24                                                                                 \
  }
#define STRATA_TUNE_SMALL(T, FUNC, DELAY, SPIN, FROM, ...)                                                             \
  BENCHMARK(candidate<T, 256, sizeof(T) == 8 ? 32 : 20, sizeof(T) == 8 ? 4 : 5, DELAY, SPIN, __VA_ARGS__, FROM>)       \
      ->Name(#T "/small/" FUNC "/" #DELAY "-" #SPIN "-from" #FROM)                                                     \
      ->ArgsProduct({STRATA_SMALL_SIZES})                                                                              \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_SMALL_TILE(T, THREADS, ITEMS)                                                                      \
  BENCHMARK(candidate<T, THREADS, ITEMS, 1, 1200, 600, scan_kind::exclusive, cuda::std::plus<>, 0>)                    \
      ->Name(#T "/small/exclusive_sum/" #THREADS "x" #ITEMS "/1200-600-from0")                                         \
      ->ArgsProduct({STRATA_SMALL_SIZES})                                                                              \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_TUNE_SMALL_ALL(T)                                                                                       \
  STRATA_TUNE_CUB((cub_scan<T, cub_exclusive_sum>), #T "/small/exclusive_sum/cub", STRATA_SMALL_SIZES);                \
  STRATA_TUNE_SMALL(T, "exclusive_sum", 1200, 600, 0, scan_kind::exclusive, cuda::std::plus<>);                        \
  STRATA_TUNE_SMALL(T, "exclusive_sum", 1200, 600, 32, scan_kind::exclusive, cuda::std::plus<>);                       \
  STRATA_TUNE_SMALL(T, "exclusive_sum", 100, 200, 0, scan_kind::exclusive, cuda::std::plus<>);                         \
  STRATA_TUNE_SMALL(T, "exclusive_sum", 600, 600, 0, scan_kind::exclusive, cuda::std::plus<>);                         \
  STRATA_TUNE_SMALL_TILE(T, 128, 24);                                                                                  \
  STRATA_TUNE_CUB((cub_scan<T, cub_inclusive_max>), #T "/small/inclusive_max/cub", STRATA_SMALL_SIZES);                \
  STRATA_TUNE_SMALL(T, "inclusive_max", 1200, 600, 0, scan_kind::inclusive, cuda::maximum<>);                          \
  STRATA_TUNE_SMALL(T, "inclusive_max", 1200, 600, 32, scan_kind::inclusive, cuda::maximum<>);                         \
  STRATA_TUNE_SMALL(T, "inclusive_max", 100, 200, 0, scan_kind::inclusive, cuda::maximum<>)
STRATA_TUNE_SMALL_ALL(u32);
STRATA_TUNE_SMALL_ALL(u64);
BENCHMARK_MAIN();

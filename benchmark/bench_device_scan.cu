// DeviceScan (ExclusiveSum, InclusiveSum, ExclusiveScan, InclusiveScan, InclusiveScanInit and the
// four scans by key), strata and CUB side by side on the same device buffers, at 2^16, 2^20, 2^24
// and 2^28 items of u32, f32 and u64. Inputs rotate through copies filling 256 MiB, so that no run
// finds its input in the 50 MB L2. Keys come in random runs of mean length 8 or 1000. Bytes count
// every read and write once.
#include <strata/device/device_scan.cuh>

#include <cub/device/device_scan.cuh>

#include "bench_common.cuh"

#include <cuda/functional>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
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

//! Which floating-point sums a scan's output holds: none (compared exactly), or the sums of the
//! items before item i, up to and including it, or up to and including it after an initial 1.
enum class sums
{
  none,
  exclusive,
  inclusive,
  inclusive_init
};

//! strata's and CUB's scan outputs of the same input (keys: by-key scans, else null): exactly
//! equal, or for floating-point sums within the rounding that reassociating each sum's terms
//! allows (a sum restarts at each run of equal keys).
template <typename T>
std::string compare_scan(sums kind, const std::vector<T>& strata_out, const std::vector<T>& cub_out, const u32* d_keys,
                         const T* d_in)
{
  if (kind == sums::none || !std::is_floating_point_v<T>)
  {
    return bench::compare_exact(strata_out, cub_out);
  }
  const std::size_t n         = strata_out.size();
  const std::vector<T> items  = bench::download(d_in, n);
  const std::vector<u32> keys = d_keys != nullptr ? bench::download(d_keys, n) : std::vector<u32>();
  std::vector<double> magnitude(n);
  std::vector<double> terms(n);
  double sum   = kind == sums::inclusive_init ? 1.0 : 0.0;
  double count = kind == sums::inclusive_init ? 1.0 : 0.0;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (!keys.empty() && i > 0 && keys[i] != keys[i - 1])
    {
      sum   = 0;
      count = 0;
    }
    if (kind == sums::exclusive)
    {
      magnitude[i] = sum;
      terms[i]     = count;
    }
    sum += std::fabs(double(items[i]));
    count += 1;
    if (kind != sums::exclusive)
    {
      magnitude[i] = sum;
      terms[i]     = count;
    }
  }
  return bench::compare_sums(strata_out, cub_out, magnitude, terms);
}

//! Runs `invoke(d_temp, bytes, d_out, stream)` (one two-phase scan with its inputs bound) once into
//! a poisoned output of n items and returns the output.
template <typename T, typename InvokeT>
std::vector<T> scan_once(std::size_t n, InvokeT invoke)
{
  T* d_out = static_cast<T*>(scratch(0, n * sizeof(T)));
  bench::poison(d_out, n);
  std::size_t bytes = 0;
  bench::check(invoke(nullptr, bytes, d_out, cudaStream_t(0)), "size query");
  bench::check(invoke(scratch(1, bytes), bytes, d_out, cudaStream_t(0)), "scan");
  bench::check(cudaDeviceSynchronize(), "scan");
  return bench::download(d_out, n);
}

//! strata's call when STRATA, else CUB's.
template <bool STRATA, typename StrataCallT, typename CubCallT>
auto pick(StrataCallT strata_call, CubCallT cub_call)
{
  if constexpr (STRATA)
  {
    return strata_call;
  }
  else
  {
    return cub_call;
  }
}

//! Times the two-phase scan `call(d_temp, bytes, d_in, d_out, stream)` of strata (STRATA) or CUB
//! over a rotating input of n items of T; bytes = input read + output written. strata's row first
//! compares its output with CUB's, once per size.
template <typename T, sums KIND, bool STRATA, typename StrataCallT, typename CubCallT>
void time_scan(benchmark::State& state, const std::string& name, StrataCallT strata_call, CubCallT cub_call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  if constexpr (STRATA)
  {
    const std::string configuration = name + "/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      const T* d_in = in.next();
      auto with     = [&](auto call)
      {
        return [&, call](void* d_temp, std::size_t& bytes, T* d_out, cudaStream_t stream)
        { return call(d_temp, bytes, d_in, d_out, stream); };
      };
      const std::vector<T> strata_out = scan_once<T>(n, with(strata_call));
      const std::vector<T> cub_out    = scan_once<T>(n, with(cub_call));
      if (!bench::record(state, configuration, compare_scan(KIND, strata_out, cub_out, nullptr, d_in)))
      {
        return;
      }
    }
  }
  auto call         = pick<STRATA>(strata_call, cub_call);
  T* d_out          = static_cast<T*>(scratch(0, n * sizeof(T)));
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, in.next(), d_out, cudaStream_t(0)), "size query");
  void* d_temp = scratch(1, bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(call(d_temp, bytes, in.next(), d_out, stream), "scan"); });
  bench::set_throughput(state, n, 2 * n * sizeof(T));
}

//! As time_scan, for scans by key: keys (u32, runs of mean length state.range(1)) are read too.
template <typename T, sums KIND, bool STRATA, typename StrataCallT, typename CubCallT>
void time_scan_by_key(benchmark::State& state, const std::string& name, StrataCallT strata_call, CubCallT cub_call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& keys          = keys_with_mean(int(state.range(1)));
  auto& in            = bench::shared_rotating_buffer<T>(n);
  if constexpr (STRATA)
  {
    const std::string configuration = name + "/" + std::to_string(n) + "/" + std::to_string(state.range(1));
    if (bench::first_run(configuration))
    {
      const u32* d_keys = keys.next(n);
      const T* d_in     = in.next();
      auto with         = [&](auto call)
      {
        return [&, call](void* d_temp, std::size_t& bytes, T* d_out, cudaStream_t stream)
        { return call(d_temp, bytes, d_keys, d_in, d_out, stream); };
      };
      const std::vector<T> strata_out = scan_once<T>(n, with(strata_call));
      const std::vector<T> cub_out    = scan_once<T>(n, with(cub_call));
      if (!bench::record(state, configuration, compare_scan(KIND, strata_out, cub_out, d_keys, d_in)))
      {
        return;
      }
    }
  }
  auto call         = pick<STRATA>(strata_call, cub_call);
  T* d_out          = static_cast<T*>(scratch(0, n * sizeof(T)));
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, keys.next(n), in.next(), d_out, cudaStream_t(0)), "size query");
  void* d_temp = scratch(1, bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(call(d_temp, bytes, keys.next(n), in.next(), d_out, stream), "scan by key"); });
  bench::set_throughput(state, n, n * (2 * sizeof(T) + sizeof(u32)));
}

// NAME_T<STRATA>: one scan, EXPR, of strata or CUB.
#define STRATA_BENCH_SCAN(NAME, T, KIND, EXPR)                                                                         \
  template <bool STRATA>                                                                                               \
  void NAME##_##T(benchmark::State& state)                                                                             \
  {                                                                                                                    \
    using value_t    = T;                                                                                              \
    const auto n     = static_cast<std::int64_t>(state.range(0));                                                      \
    auto strata_call = [n](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, cudaStream_t stream)             \
    { return strata::DeviceScan::EXPR; };                                                                              \
    auto cub_call = [n](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, cudaStream_t stream)                \
    { return cub::DeviceScan::EXPR; };                                                                                 \
    time_scan<T, sums::KIND, STRATA>(state, #NAME "/" #T, strata_call, cub_call);                                      \
  }
#define STRATA_BENCH_SCAN_ALL(NAME, KIND, EXPR)                                                                        \
  STRATA_BENCH_SCAN(NAME, u32, KIND, EXPR)                                                                             \
  STRATA_BENCH_SCAN(NAME, f32, KIND, EXPR)                                                                             \
  STRATA_BENCH_SCAN(NAME, u64, KIND, EXPR)

STRATA_BENCH_SCAN_ALL(exclusive_sum, exclusive, ExclusiveSum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_SCAN_ALL(inclusive_sum, inclusive, InclusiveSum(d_temp, bytes, d_in, d_out, n, stream))
STRATA_BENCH_SCAN_ALL(exclusive_scan, none,
                      ExclusiveScan(d_temp, bytes, d_in, d_out, cuda::maximum<>{}, value_t(1), n, stream))
STRATA_BENCH_SCAN_ALL(inclusive_scan, none, InclusiveScan(d_temp, bytes, d_in, d_out, cuda::maximum<>{}, n, stream))
STRATA_BENCH_SCAN_ALL(inclusive_scan_init, inclusive_init,
                      InclusiveScanInit(d_temp, bytes, d_in, d_out, cuda::std::plus<>{}, value_t(1), n, stream))

#define STRATA_BENCH_BY_KEY(NAME, T, KIND, EXPR)                                                                       \
  template <bool STRATA>                                                                                               \
  void NAME##_##T(benchmark::State& state)                                                                             \
  {                                                                                                                    \
    using value_t    = T;                                                                                              \
    const auto n     = static_cast<std::int64_t>(state.range(0));                                                      \
    auto strata_call = [n](void* d_temp, std::size_t& bytes, const u32* d_keys, const T* d_in, T* d_out,               \
                           cudaStream_t stream) { return strata::DeviceScan::EXPR; };                                  \
    auto cub_call    = [n](void* d_temp, std::size_t& bytes, const u32* d_keys, const T* d_in, T* d_out,               \
                        cudaStream_t stream) { return cub::DeviceScan::EXPR; };                                     \
    time_scan_by_key<T, sums::KIND, STRATA>(state, #NAME "/" #T, strata_call, cub_call);                               \
  }
#define STRATA_BENCH_BY_KEY_ALL(NAME, KIND, EXPR)                                                                      \
  STRATA_BENCH_BY_KEY(NAME, u32, KIND, EXPR)                                                                           \
  STRATA_BENCH_BY_KEY(NAME, f32, KIND, EXPR)                                                                           \
  STRATA_BENCH_BY_KEY(NAME, u64, KIND, EXPR)

STRATA_BENCH_BY_KEY_ALL(exclusive_sum_by_key, exclusive,
                        ExclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n, cuda::std::equal_to<>{}, stream))
STRATA_BENCH_BY_KEY_ALL(inclusive_sum_by_key, inclusive,
                        InclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n, cuda::std::equal_to<>{}, stream))
STRATA_BENCH_BY_KEY_ALL(exclusive_scan_by_key, none,
                        ExclusiveScanByKey(d_temp, bytes, d_keys, d_in, d_out, cuda::maximum<>{}, value_t(1), n,
                                           cuda::std::equal_to<>{}, stream))
STRATA_BENCH_BY_KEY_ALL(inclusive_scan_by_key, none,
                        InclusiveScanByKey(d_temp, bytes, d_keys, d_in, d_out, cuda::maximum<>{}, n,
                                           cuda::std::equal_to<>{}, stream))
} // namespace

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
      ->Name(::bench::mode_name(NAME))                                                                                 \
      ->ArgsProduct({benchmark::CreateRange(1 << 16, 1 << 28, 16), {MEAN}})                                            \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_BENCH_REGISTER_BY_KEY_ALL(FUNC, GROUP)                                                                  \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u32<true>, GROUP "/strata/u32", 8);                                              \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u32<false>, GROUP "/cub/u32", 8);                                                \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_f32<true>, GROUP "/strata/f32", 8);                                              \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_f32<false>, GROUP "/cub/f32", 8);                                                \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u64<true>, GROUP "/strata/u64", 8);                                              \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u64<false>, GROUP "/cub/u64", 8);                                                \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u32<true>, GROUP "/strata/u32", 1000);                                           \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u32<false>, GROUP "/cub/u32", 1000);                                             \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_f32<true>, GROUP "/strata/f32", 1000);                                           \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_f32<false>, GROUP "/cub/f32", 1000);                                             \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u64<true>, GROUP "/strata/u64", 1000);                                           \
  STRATA_BENCH_REGISTER_BY_KEY(FUNC##_u64<false>, GROUP "/cub/u64", 1000)

STRATA_BENCH_REGISTER_BY_KEY_ALL(exclusive_sum_by_key, "DeviceScan::ExclusiveSumByKey");
STRATA_BENCH_REGISTER_BY_KEY_ALL(inclusive_sum_by_key, "DeviceScan::InclusiveSumByKey");
STRATA_BENCH_REGISTER_BY_KEY_ALL(exclusive_scan_by_key, "DeviceScan::ExclusiveScanByKey(max)");
STRATA_BENCH_REGISTER_BY_KEY_ALL(inclusive_scan_by_key, "DeviceScan::InclusiveScanByKey(max)");
STRATA_BENCH_MAIN()

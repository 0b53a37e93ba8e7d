// DeviceRadixSort (SortKeys of u32, u64 and f32; SortPairs of u32/u32 and u64/u64), strata and CUB
// side by side on the same device buffers, at 2^16, 2^20, 2^24 and 2^28 items, with keys of
// random bits, entropy-reduced keys (the AND of two random words) and keys all equal. Inputs
// rotate through copies filling 256 MiB, so that no run finds them in the 50 MB L2. Bytes count
// the keys and values read once and written once; the temp_bytes counter is each library's
// temporary storage.
#include <strata/device/device_radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include "bench_common.cuh"
#include "bench_sort_keys.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using f32 = float;

//! One two-phase sort of n keys (and values unless ValueT is void) by `call`, into poisoned outputs;
//! returns the keys and values it wrote.
template <typename KeyT, typename ValueT, typename CallT>
std::pair<std::vector<KeyT>, std::vector<ValueT>> sort_once(std::size_t n, const KeyT* d_keys, const ValueT* d_values,
                                                            CallT call)
{
  KeyT* d_keys_out     = static_cast<KeyT*>(bench::scratch(0, n * sizeof(KeyT)));
  ValueT* d_values_out = static_cast<ValueT*>(bench::scratch(1, n * sizeof(ValueT)));
  bench::poison(d_keys_out, n);
  bench::poison(d_values_out, n);
  std::size_t bytes = 0;
  bench::check(call(nullptr, bytes, d_keys, d_keys_out, d_values, d_values_out, cudaStream_t(0)), "size query");
  bench::check(call(bench::scratch(2, bytes), bytes, d_keys, d_keys_out, d_values, d_values_out, cudaStream_t(0)),
               "sort");
  bench::check(cudaDeviceSynchronize(), "sort");
  return {bench::download(d_keys_out, n), bench::download(d_values_out, n)};
}

//! Times strata's (STRATA) or CUB's sort of n rotating keys (and values of ValueT; u32 stands in,
//! unused, for keys-only sorts) of distribution state.range(1). strata's row first checks that
//! both libraries write the same keys and values, once per configuration.
template <typename KeyT, typename ValueT, bool PAIRS, bool STRATA, typename StrataCallT, typename CubCallT>
void time_sort(benchmark::State& state, const std::string& name, StrataCallT strata_call, CubCallT cub_call)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const int dist      = int(state.range(1));
  auto& keys          = bench::sort_key_buffer<KeyT>(n, dist);
  auto& values        = bench::shared_rotating_buffer<ValueT>(PAIRS ? n : 2);
  if constexpr (STRATA)
  {
    const std::string configuration = name + "/" + std::to_string(n) + "/" + std::to_string(dist);
    if (bench::first_run(configuration))
    {
      const KeyT* d_keys     = keys.next();
      const ValueT* d_values = values.next();
      const auto strata_out  = sort_once(n, d_keys, d_values, strata_call);
      const auto cub_out     = sort_once(n, d_keys, d_values, cub_call);
      std::string mismatch   = bench::compare_exact(strata_out.first, cub_out.first);
      if (mismatch.empty() && PAIRS)
      {
        mismatch = bench::compare_exact(strata_out.second, cub_out.second);
      }
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  auto call = [&]
  {
    if constexpr (STRATA)
    {
      return strata_call;
    }
    else
    {
      return cub_call;
    }
  }();
  KeyT* d_keys_out     = static_cast<KeyT*>(bench::scratch(0, n * sizeof(KeyT)));
  ValueT* d_values_out = static_cast<ValueT*>(bench::scratch(1, (PAIRS ? n : 2) * sizeof(ValueT)));
  std::size_t bytes    = 0;
  bench::check(call(nullptr, bytes, keys.next(), d_keys_out, values.next(), d_values_out, cudaStream_t(0)),
               "size query");
  void* d_temp = bench::scratch(2, bytes);
  bench::time_iterations(
      state, [&](cudaStream_t stream)
      { bench::check(call(d_temp, bytes, keys.next(), d_keys_out, values.next(), d_values_out, stream), "sort"); });
  bench::set_throughput(state, n, 2 * n * (sizeof(KeyT) + (PAIRS ? sizeof(ValueT) : 0)));
  state.counters["temp_bytes"] = double(bytes);
}

#define STRATA_BENCH_SORT_KEYS(T)                                                                                      \
  template <bool STRATA>                                                                                               \
  void sort_keys_##T(benchmark::State& state)                                                                          \
  {                                                                                                                    \
    const auto n = static_cast<std::int64_t>(state.range(0));                                                          \
    auto strata_call =                                                                                                 \
        [n](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, const u32*, u32*, cudaStream_t stream)          \
    { return strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n, 0, int(sizeof(T) * 8), stream); };       \
    auto cub_call =                                                                                                    \
        [n](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, const u32*, u32*, cudaStream_t stream)          \
    { return cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n, 0, int(sizeof(T) * 8), stream); };          \
    time_sort<T, u32, false, STRATA>(state, "SortKeys/" #T, strata_call, cub_call);                                    \
  }
#define STRATA_BENCH_SORT_PAIRS(K, V)                                                                                  \
  template <bool STRATA>                                                                                               \
  void sort_pairs_##K##_##V(benchmark::State& state)                                                                   \
  {                                                                                                                    \
    const auto n     = static_cast<std::int64_t>(state.range(0));                                                      \
    auto strata_call = [n](void* d_temp, std::size_t& bytes, const K* d_keys_in, K* d_keys_out, const V* d_values_in,  \
                           V* d_values_out, cudaStream_t stream)                                                       \
    {                                                                                                                  \
      return strata::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0, \
                                                int(sizeof(K) * 8), stream);                                           \
    };                                                                                                                 \
    auto cub_call = [n](void* d_temp, std::size_t& bytes, const K* d_keys_in, K* d_keys_out, const V* d_values_in,     \
                        V* d_values_out, cudaStream_t stream)                                                          \
    {                                                                                                                  \
      return cub::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0,    \
                                             int(sizeof(K) * 8), stream);                                              \
    };                                                                                                                 \
    time_sort<K, V, true, STRATA>(state, "SortPairs/" #K "_" #V, strata_call, cub_call);                               \
  }

STRATA_BENCH_SORT_KEYS(u32)
STRATA_BENCH_SORT_KEYS(u64)
STRATA_BENCH_SORT_KEYS(f32)
STRATA_BENCH_SORT_PAIRS(u32, u32)
STRATA_BENCH_SORT_PAIRS(u64, u64)
} // namespace

// The second argument is the key distribution: 0 random bits, 1 entropy-reduced, 2 all equal.
#define STRATA_BENCH_REGISTER_SORT(FUNC, NAME)                                                                         \
  BENCHMARK(FUNC)                                                                                                      \
      ->Name(::bench::mode_name(NAME))                                                                                 \
      ->ArgsProduct({benchmark::CreateRange(1 << 16, 1 << 28, 16), {bench::uniform, bench::reduced, bench::constant}}) \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_BENCH_REGISTER_SORT_BOTH(FUNC, GROUP, T)                                                                \
  STRATA_BENCH_REGISTER_SORT(FUNC##_##T<true>, GROUP "/strata/" #T);                                                   \
  STRATA_BENCH_REGISTER_SORT(FUNC##_##T<false>, GROUP "/cub/" #T)

STRATA_BENCH_REGISTER_SORT_BOTH(sort_keys, "DeviceRadixSort::SortKeys", u32);
STRATA_BENCH_REGISTER_SORT_BOTH(sort_keys, "DeviceRadixSort::SortKeys", u64);
STRATA_BENCH_REGISTER_SORT_BOTH(sort_keys, "DeviceRadixSort::SortKeys", f32);
STRATA_BENCH_REGISTER_SORT_BOTH(sort_pairs, "DeviceRadixSort::SortPairs", u32_u32);
STRATA_BENCH_REGISTER_SORT_BOTH(sort_pairs, "DeviceRadixSort::SortPairs", u64_u64);
STRATA_BENCH_MAIN()

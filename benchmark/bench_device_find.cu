// DeviceFind, strata and a baseline on the same device buffers, L2 flushed before every call.
// FindIf of u32 items (random, below 2^31) for an item 2^31 planted at 1% of the input, at its
// middle, at its end, or nowhere, at 2^16 to 2^28 items (bytes: the items up to the match, the
// bound of a search). LowerBound and UpperBound of random u32 values (2^16 to 2^24) in a sorted
// range of 2^26 random u32 (latency-bound binary searches), and LowerBoundSortedValues of the
// same values sorted (bytes: the values read and the positions written, plus the range for the
// sorted form).
//
// The baseline is what a CUDA 13.0 user writes: DeviceReduce::Min of "index where the predicate
// holds, else n" for FindIf, and DeviceFor::Bulk with thrust::lower_bound / upper_bound (sequential) for
// the bounds. Built with STRATA_BENCH_CCCL_NEXT (CMake option STRATA_CCCL_NEXT_INCLUDE, headers
// from scripts/fetch-cccl), the baseline is CUB 3.5's DeviceFind. Every configuration first
// compares strata's output with the baseline's.
#include <strata/device/device_find.cuh>
#include <strata/device/device_transform.cuh>

#if defined(STRATA_BENCH_CCCL_NEXT)
#  include <cub/device/device_find.cuh>

#  include <cuda/stream>
#else
#  include <cub/device/device_for.cuh>
#  include <cub/device/device_reduce.cuh>

#  include <thrust/binary_search.h>
#  include <thrust/execution_policy.h>
#  include <thrust/iterator/counting_iterator.h>
#  include <thrust/iterator/transform_iterator.h>
#endif

#include "bench_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace
{
using u32 = std::uint32_t;
using i64 = std::int64_t;

constexpr u32 planted = 0x80000000u; // no random item is this large

struct is_planted
{
  __host__ __device__ bool operator()(u32 item) const
  {
    return item == planted;
  }
};

//! Where FindIf's match is: at 1% of the items, half, the last, none.
enum class at
{
  first_percent,
  middle,
  end,
  absent
};

std::size_t match_index(at where, std::size_t n)
{
  return where == at::first_percent ? n / 100 : where == at::middle ? n / 2 : where == at::end ? n - 1 : n;
}

struct clear_top_bit
{
  __host__ __device__ u32 operator()(u32 item) const
  {
    return item & 0x7FFFFFFFu;
  }
};

//! n random items below 2^31 with `planted` at match_index(where, n) (kept per configuration).
const u32* find_input(std::size_t n, at where)
{
  static std::map<std::pair<std::size_t, int>, std::unique_ptr<bench::device_buffer<u32>>> inputs;
  auto& slot = inputs[{n, int(where)}];
  if (!slot)
  {
    slot = std::make_unique<bench::device_buffer<u32>>(n);
    bench::fill_random(*slot, 3001 + n);
    bench::check(strata::DeviceTransform::Transform(slot->data(), slot->data(), n, clear_top_bit{}), "mask");
    const std::size_t index = match_index(where, n);
    if (index < n)
    {
      bench::check(cudaMemcpy(slot->data() + index, &planted, sizeof(u32), cudaMemcpyHostToDevice), "plant");
    }
    bench::check(cudaDeviceSynchronize(), "find input");
  }
  return slot->data();
}

#if !defined(STRATA_BENCH_CCCL_NEXT)
//! Index i where the predicate holds, else n: the baseline's FindIf is the minimum of these.
struct index_if_planted
{
  const u32* in;
  i64 n;
  __host__ __device__ i64 operator()(i64 i) const
  {
    return in[i] == planted ? i : n;
  }
};

template <bool LOWER>
struct bulk_bound
{
  const u32* range;
  i64 range_n;
  const u32* values;
  i64* out;
  __device__ void operator()(i64 i) const
  {
    const u32* it = LOWER ? thrust::lower_bound(thrust::seq, range, range + range_n, values[i])
                          : thrust::upper_bound(thrust::seq, range, range + range_n, values[i]);
    out[i]        = it - range;
  }
};
#endif

template <bool STRATA>
cudaError_t find_if(void* d_temp, std::size_t& bytes, const u32* in, i64* out, std::size_t n, cudaStream_t stream)
{
  if constexpr (STRATA)
  {
    return strata::DeviceFind::FindIf(d_temp, bytes, in, out, is_planted{}, i64(n), stream);
  }
  else
  {
#if defined(STRATA_BENCH_CCCL_NEXT)
    return cub::DeviceFind::FindIf(d_temp, bytes, in, out, is_planted{}, i64(n),
                                   ::cuda::std::execution::env{::cuda::stream_ref{stream}});
#else
    auto indices = thrust::make_transform_iterator(thrust::counting_iterator<i64>(0), index_if_planted{in, i64(n)});
    return cub::DeviceReduce::Reduce(d_temp, bytes, indices, out, i64(n), cuda::minimum<>{}, i64(n), stream);
#endif
  }
}

//! Times FindIf by strata (STRATA) or the baseline over state.range(0) items, the match WHERE.
template <bool STRATA, at WHERE>
void time_find_if(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const u32* in       = find_input(n, WHERE);
  i64* out            = static_cast<i64*>(bench::scratch(0, sizeof(i64)));
  if constexpr (STRATA)
  {
    const std::string configuration = "FindIf/" + std::to_string(int(WHERE)) + "/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      std::vector<i64> results;
      for (const bool strata : {true, false})
      {
        bench::poison(out, 1);
        std::size_t bytes = 0;
        bench::check(strata ? find_if<true>(nullptr, bytes, in, out, n, nullptr)
                            : find_if<false>(nullptr, bytes, in, out, n, nullptr),
                     "size query");
        void* d_temp = bench::scratch(1, bytes);
        bench::check(strata ? find_if<true>(d_temp, bytes, in, out, n, nullptr)
                            : find_if<false>(d_temp, bytes, in, out, n, nullptr),
                     "find");
        results.push_back(bench::download(out, 1)[0]);
      }
      std::string mismatch = results[0] == results[1] ? ""
                                                      : "strata found " + std::to_string(results[0]) + ", the baseline "
                                                            + std::to_string(results[1]);
      if (mismatch.empty() && results[0] != i64(match_index(WHERE, n)))
      {
        mismatch = "both found " + std::to_string(results[0]);
      }
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  std::size_t bytes = 0;
  bench::check(find_if<STRATA>(nullptr, bytes, in, out, n, nullptr), "size query");
  void* d_temp = bench::scratch(1, bytes);
  bench::time_iterations(
      state, [&](cudaStream_t stream) { bench::check(find_if<STRATA>(d_temp, bytes, in, out, n, stream), "find"); },
      bench::flush_l2);
  bench::set_throughput(state, n, std::min(match_index(WHERE, n) + 1, n) * sizeof(u32));
}

//! What a bound row searches: the range (2^26 sorted random u32) and the values (random u32, sorted
//! for the sorted forms), kept per size.
constexpr std::size_t range_items = std::size_t(1) << 26;

const u32* sorted_range()
{
  static std::unique_ptr<bench::device_buffer<u32>> range;
  if (!range)
  {
    range = std::make_unique<bench::device_buffer<u32>>(range_items);
    bench::fill_random(*range, 4001);
    std::vector<u32> host = bench::download(range->data(), range_items);
    std::sort(host.begin(), host.end());
    bench::check(cudaMemcpy(range->data(), host.data(), range->bytes(), cudaMemcpyHostToDevice), "range");
  }
  return range->data();
}

const u32* bound_values(std::size_t n, bool sorted)
{
  static std::map<std::pair<std::size_t, bool>, std::unique_ptr<bench::device_buffer<u32>>> values;
  auto& slot = values[{n, sorted}];
  if (!slot)
  {
    slot = std::make_unique<bench::device_buffer<u32>>(n);
    bench::fill_random(*slot, 5001 + n);
    if (sorted)
    {
      std::vector<u32> host = bench::download(slot->data(), n);
      std::sort(host.begin(), host.end());
      bench::check(cudaMemcpy(slot->data(), host.data(), slot->bytes(), cudaMemcpyHostToDevice), "values");
    }
  }
  return slot->data();
}

enum class search
{
  lower,
  upper,
  lower_sorted
};

template <bool STRATA, search SEARCH>
cudaError_t bound(void* d_temp, std::size_t& bytes, const u32* values, i64* out, std::size_t n, cudaStream_t stream)
{
  const u32* range = sorted_range();
  const cuda::std::less<> less{};
  if constexpr (STRATA)
  {
    return SEARCH == search::lower   ? strata::DeviceFind::LowerBound(d_temp, bytes, range, i64(range_items), values,
                                                                      i64(n), out, less, stream)
           : SEARCH == search::upper ? strata::DeviceFind::UpperBound(d_temp, bytes, range, i64(range_items), values,
                                                                      i64(n), out, less, stream)
                                     : strata::DeviceFind::LowerBoundSortedValues(
                                         d_temp, bytes, range, i64(range_items), values, i64(n), out, less, stream);
  }
  else
  {
#if defined(STRATA_BENCH_CCCL_NEXT)
    return SEARCH == search::lower ? cub::DeviceFind::LowerBound(d_temp, bytes, range, i64(range_items), values, i64(n),
                                                                 out, less, ::cuda::stream_ref{stream})
           : SEARCH == search::upper ? cub::DeviceFind::UpperBound(d_temp, bytes, range, i64(range_items), values,
                                                                   i64(n), out, less, ::cuda::stream_ref{stream})
                                     : cub::DeviceFind::LowerBoundSortedValues(d_temp, bytes, range, i64(range_items),
                                                                               values, i64(n), out, less, stream);
#else
    if (d_temp == nullptr)
    {
      bytes = 1;
      return cudaSuccess;
    }
    return SEARCH == search::upper
               ? cub::DeviceFor::Bulk(i64(n), bulk_bound<false>{range, i64(range_items), values, out}, stream)
               : cub::DeviceFor::Bulk(i64(n), bulk_bound<true>{range, i64(range_items), values, out}, stream);
#endif
  }
}

//! Times a bound search by strata (STRATA) or the baseline of state.range(0) values.
template <bool STRATA, search SEARCH>
void time_bound(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const u32* values   = bound_values(n, SEARCH == search::lower_sorted);
  i64* out            = static_cast<i64*>(bench::scratch(0, n * sizeof(i64)));
  if constexpr (STRATA)
  {
    const std::string configuration = "Bound/" + std::to_string(int(SEARCH)) + "/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      std::vector<std::vector<i64>> results;
      for (const bool strata : {true, false})
      {
        bench::poison(out, n);
        std::size_t bytes = 0;
        bench::check(strata ? bound<true, SEARCH>(nullptr, bytes, values, out, n, nullptr)
                            : bound<false, SEARCH>(nullptr, bytes, values, out, n, nullptr),
                     "size query");
        void* d_temp = bench::scratch(1, bytes);
        bench::check(strata ? bound<true, SEARCH>(d_temp, bytes, values, out, n, nullptr)
                            : bound<false, SEARCH>(d_temp, bytes, values, out, n, nullptr),
                     "bound");
        results.push_back(bench::download(out, n));
      }
      if (!bench::record(state, configuration, bench::compare_exact(results[0], results[1])))
      {
        return;
      }
    }
  }
  std::size_t bytes = 0;
  bench::check(bound<STRATA, SEARCH>(nullptr, bytes, values, out, n, nullptr), "size query");
  void* d_temp = bench::scratch(1, bytes);
  bench::time_iterations(
      state,
      [&](cudaStream_t stream) { bench::check(bound<STRATA, SEARCH>(d_temp, bytes, values, out, n, stream), "bound"); },
      bench::flush_l2);
  bench::set_throughput(
      state, n, n * (sizeof(u32) + sizeof(i64)) + (SEARCH == search::lower_sorted ? range_items * sizeof(u32) : 0));
}
} // namespace

#define STRATA_BENCH_REGISTER_FIND(WHERE, NAME)                                                                        \
  BENCHMARK(time_find_if<true, at::WHERE>)                                                                             \
      ->Name(::bench::mode_name("DeviceFind::FindIf/strata/" NAME))                                                    \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 28)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond);                                                                                 \
  BENCHMARK(time_find_if<false, at::WHERE>)                                                                            \
      ->Name(::bench::mode_name("DeviceFind::FindIf/cub/" NAME))                                                       \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 28)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)
#define STRATA_BENCH_REGISTER_BOUND(SEARCH, NAME)                                                                      \
  BENCHMARK(time_bound<true, search::SEARCH>)                                                                          \
      ->Name(::bench::mode_name("DeviceFind::" NAME "/strata/u32"))                                                    \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 24)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond);                                                                                 \
  BENCHMARK(time_bound<false, search::SEARCH>)                                                                         \
      ->Name(::bench::mode_name("DeviceFind::" NAME "/cub/u32"))                                                       \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 24)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)

STRATA_BENCH_REGISTER_FIND(first_percent, "u32 match at 1%");
STRATA_BENCH_REGISTER_FIND(middle, "u32 match at the middle");
STRATA_BENCH_REGISTER_FIND(end, "u32 match at the end");
STRATA_BENCH_REGISTER_FIND(absent, "u32 no match");
STRATA_BENCH_REGISTER_BOUND(lower, "LowerBound");
STRATA_BENCH_REGISTER_BOUND(upper, "UpperBound");
STRATA_BENCH_REGISTER_BOUND(lower_sorted, "LowerBoundSortedValues");
STRATA_BENCH_MAIN()

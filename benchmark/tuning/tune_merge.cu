// Tuning sweep of DeviceMerge (not built by default: -DSTRATA_ENABLE_TUNING=ON): MergeKeys of u32,
// m/16 with m sorted random keys, through detail::merge::dispatch_t with one policy hub per merge
// tile (threads x items), next to CUB, with the L2 flushed before every call. Names:
// "MergeKeys/u32/<threads>x<items>" and "MergeKeys/u32/cub".
#include <strata/device/device_merge.cuh>

#include <cub/device/device_merge.cuh>

#include "bench_common.cuh"
#include "bench_sorted_inputs.cuh"

#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace
{
using u32 = std::uint32_t;

template <int THREADS, int ITEMS>
struct candidate_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using merge_policy = strata::AgentMergeSortPolicy<THREADS, ITEMS, strata::BLOCK_LOAD_WARP_TRANSPOSE,
                                                      strata::LOAD_DEFAULT, strata::BLOCK_STORE_WARP_TRANSPOSE>;
  };
  using MaxPolicy = Policy;
};

//! Two sorted inputs of m / 16 and m random keys and the output, made once per m.
struct inputs
{
  bench::device_buffer<u32> keys1;
  bench::device_buffer<u32> keys2;
  bench::device_buffer<u32> out;

  explicit inputs(std::size_t m)
      : keys1(m / 16)
      , keys2(m)
      , out(m + m / 16)
  {
    bench::fill_sorted_random(keys1, 3 + m);
    bench::fill_sorted_random(keys2, 5 + m);
  }

  static inputs& of(std::size_t m)
  {
    static std::map<std::size_t, std::unique_ptr<inputs>> made;
    auto& slot = made[m];
    if (!slot)
    {
      slot = std::make_unique<inputs>(m);
    }
    return *slot;
  }
};

//! Times `merge(temp, bytes, in, stream)`; checks one output against CUB's.
template <typename MergeT>
void time_merge(benchmark::State& state, MergeT merge)
{
  const auto m        = static_cast<std::size_t>(state.range(0));
  inputs& in          = inputs::of(m);
  const std::size_t n = m + m / 16;
  std::size_t bytes   = 0;
  bench::check(merge(nullptr, bytes, in, cudaStream_t(0)), "size query");
  void* temp = bench::scratch(0, bytes);
  bench::time_iterations(
      state, [&](cudaStream_t stream) { bench::check(merge(temp, bytes, in, stream), "merge"); },
      [](cudaStream_t stream) { bench::flush_l2(stream); });
  bench::set_throughput(state, n, 2 * n * sizeof(u32));
  bench::poison(in.out.data(), n);
  bench::check(merge(temp, bytes, in, cudaStream_t(0)), "merge");
  const std::vector<u32> mine = bench::download(in.out.data(), n);
  std::size_t cub_bytes       = 0;
  bench::check(cub::DeviceMerge::MergeKeys(nullptr, cub_bytes, in.keys1.data(), int64_t(m / 16), in.keys2.data(),
                                           int64_t(m), in.out.data(), cuda::std::less<>{}),
               "size query");
  bench::check(cub::DeviceMerge::MergeKeys(bench::scratch(1, cub_bytes), cub_bytes, in.keys1.data(), int64_t(m / 16),
                                           in.keys2.data(), int64_t(m), in.out.data(), cuda::std::less<>{}),
               "merge");
  if (!bench::compare_exact(mine, bench::download(in.out.data(), n)).empty())
  {
    state.SkipWithError("the merged keys differ from CUB's");
  }
}

template <int THREADS, int ITEMS>
void candidate(benchmark::State& state)
{
  using DispatchT = strata::detail::merge::dispatch_t<const u32*, strata::NullType*, const u32*, strata::NullType*,
                                                      u32*, strata::NullType*, std::int64_t, cuda::std::less<>,
                                                      candidate_hub<THREADS, ITEMS>>;
  time_merge(state,
             [](void* temp, std::size_t& bytes, inputs& in, cudaStream_t stream)
             {
               return DispatchT::dispatch(temp, bytes, in.keys1.data(), nullptr, std::int64_t(in.keys1.size()),
                                          in.keys2.data(), nullptr, std::int64_t(in.keys2.size()), in.out.data(),
                                          nullptr, cuda::std::less<>{}, stream);
             });
}

void cub_merge(benchmark::State& state)
{
  time_merge(state,
             [](void* temp, std::size_t& bytes, inputs& in, cudaStream_t stream)
             {
               return cub::DeviceMerge::MergeKeys(temp, bytes, in.keys1.data(), std::int64_t(in.keys1.size()),
                                                  in.keys2.data(), std::int64_t(in.keys2.size()), in.out.data(),
                                                  cuda::std::less<>{}, stream);
             });
}
} // namespace

#define STRATA_TUNE(T, I)                                                                                              \
  BENCHMARK(candidate<T, I>)->Name("MergeKeys/u32/" #T "x" #I)->Arg(1 << 24)->Arg(1 << 27)->UseManualTime()

BENCHMARK(cub_merge)->Name("MergeKeys/u32/cub")->Arg(1 << 24)->Arg(1 << 27)->UseManualTime();
STRATA_TUNE(256, 17);
STRATA_TUNE(256, 23);
STRATA_TUNE(512, 11);
STRATA_TUNE(512, 15);
STRATA_TUNE(512, 17);
STRATA_TUNE(384, 15);
STRATA_TUNE(128, 31);
STRATA_TUNE(256, 31);

BENCHMARK_MAIN();

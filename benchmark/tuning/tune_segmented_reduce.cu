// Tuning sweep of DeviceSegmentedReduce's fixed-size forms (not built by default:
// -DSTRATA_ENABLE_TUNING=ON): the Sum of random u32 items in consecutive segments of 1 to 4096 items,
// at 2^24 and 2^28 items of rotating input, through DispatchSegmentedReduce with one policy hub per
// candidate of SegmentedReduceFixedPolicy: threads, bytes of input a tile holds and the blocks per
// SM the kernels' registers must allow (segments of 33 to 4096 items: one a warp, which the shipped
// policy keeps for 256 to 4096). The reference row is a copy of as
// many bytes as are read. Each candidate's first run of a layout compares its sums with a host loop. Names:
// "<threads>x<tile bytes>/mb<blocks>/<items>/<segment size>" and "copy/<items>".
#include <strata/device/device_segmented_reduce.cuh>

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace
{
using u32 = std::uint32_t;

template <int THREADS, int TILE_BYTES, int BLOCKS>
struct candidate_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using SegmentedReducePolicy =
        strata::detail::segmented_reduce::AgentSegmentedReducePolicy<256, 8, 1024, 128, 64, 4, 4,
                                                                     strata::LOAD_CS>; // the shipped one
    using SegmentedReduceFixedPolicy =
        strata::detail::segmented_reduce::AgentSegmentedReduceFixedPolicy<THREADS, TILE_BYTES, 32, strata::LOAD_CS,
                                                                          BLOCKS, 33, 4096, 2048>;
  };
  using MaxPolicy = Policy;
};

template <int THREADS, int TILE_BYTES, int BLOCKS>
void time_candidate(benchmark::State& state)
{
  using OffsetsT = strata::detail::segmented_reduce::FixedSegmentOffsets;
  using DispatchT =
      strata::DispatchSegmentedReduce<const u32*, u32*, OffsetsT, OffsetsT, std::int64_t, cuda::std::plus<>, u32, u32,
                                      candidate_hub<THREADS, TILE_BYTES, BLOCKS>>;
  const std::size_t n         = static_cast<std::size_t>(state.range(0));
  const int size              = static_cast<int>(state.range(1));
  const std::int64_t segments = std::int64_t(n / std::size_t(size));
  auto& in                    = bench::shared_rotating_buffer<u32>(n);
  u32* out                    = static_cast<u32*>(bench::scratch(0, std::size_t(segments) * sizeof(u32)));
  const OffsetsT offsets(strata::CountingInputIterator<std::int64_t>(0),
                         strata::detail::segmented_reduce::FixedSegmentStart{size});
  auto run = [&](const u32* d_in, void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return DispatchT::Dispatch(d_temp, bytes, d_in, out, segments, offsets, offsets + 1, cuda::std::plus<>{}, u32(0),
                               stream);
  };
  std::size_t bytes = 0;
  bench::check(run(in.next(), nullptr, bytes, nullptr), "size query");
  void* d_temp                    = bench::scratch(1, bytes);
  const std::string configuration = std::to_string(THREADS) + "x" + std::to_string(TILE_BYTES) + "/"
                                    + std::to_string(BLOCKS) + "/" + std::to_string(n) + "/" + std::to_string(size);
  if (bench::first_run(configuration))
  {
    const u32* d_in = in.next();
    bench::poison(out, std::size_t(segments));
    std::size_t run_bytes = bytes;
    bench::check(run(d_in, d_temp, run_bytes, nullptr), "sum");
    const std::vector<u32> items = bench::download(d_in, n);
    const std::vector<u32> sums  = bench::download(out, std::size_t(segments));
    std::string mismatch;
    for (std::int64_t s = 0; s < segments && mismatch.empty(); ++s)
    {
      u32 sum = 0;
      for (int j = 0; j < size; ++j)
      {
        sum += items[std::size_t(s) * std::size_t(size) + std::size_t(j)];
      }
      if (sums[std::size_t(s)] != sum)
      {
        mismatch = "segment " + std::to_string(s) + ": " + std::to_string(sums[std::size_t(s)]) + ", the host "
                   + std::to_string(sum);
      }
    }
    if (!bench::record(state, configuration, mismatch))
    {
      return;
    }
  }
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           std::size_t run_bytes = bytes;
                           bench::check(run(in.next(), d_temp, run_bytes, stream), "sum");
                         });
  bench::set_throughput(state, n, n * sizeof(u32) + std::size_t(segments) * sizeof(u32));
}

void layouts(benchmark::internal::Benchmark* b)
{
  for (const long n : {1L << 24, 1L << 28})
  {
    for (const long size : {1L, 2L, 4L, 8L, 16L, 32L, 33L, 256L, 4096L})
    {
      b->Args({n, size});
    }
  }
}

template <int THREADS, int TILE_BYTES, int BLOCKS>
void add_candidate()
{
  benchmark::RegisterBenchmark(
      (std::to_string(THREADS) + "x" + std::to_string(TILE_BYTES) + "/mb" + std::to_string(BLOCKS)).c_str(),
      time_candidate<THREADS, TILE_BYTES, BLOCKS>)
      ->Apply(layouts)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

const bool registered = []
{
  add_candidate<256, 16384, 1>(); // the first shipped policy
  add_candidate<256, 16384, 3>();
  add_candidate<256, 16384, 4>();
  add_candidate<256, 8192, 6>();
  add_candidate<128, 8192, 8>();
  add_candidate<512, 16384, 2>();
  add_candidate<256, 32768, 2>();
  add_candidate<128, 4096, 12>();
  return true;
}();
} // namespace

BENCHMARK(bench::memcpy_d2d<u32>)
    ->Name("copy")
    ->Arg(1L << 24)
    ->Arg(1L << 28)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

STRATA_BENCH_MAIN()

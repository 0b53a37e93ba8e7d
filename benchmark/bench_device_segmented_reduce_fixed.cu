// DeviceSegmentedReduce::Sum over consecutive segments of one size (CUB 3.5's fixed-size form),
// strata and a baseline on the same device buffers, inputs rotated so that no run reads them from
// L2: 2^24 and 2^28 random u32 items in segments of 1, 2, 4, 8, 16, 32, 33, 256 and 4096 items.
// Bytes: the items read and the sums written.
//
// The baseline is what a CUDA 13.0 user writes: CUB 3.0.1's DeviceSegmentedReduce::Sum with
// offsets computed on the fly (segment s begins at s * size). Built with STRATA_BENCH_CCCL_NEXT
// (CMake option STRATA_CCCL_NEXT_INCLUDE, headers from scripts/fetch-cccl), the baseline is CUB
// 3.5's fixed-size Sum. Every configuration first compares strata's sums with the baseline's.
#include <strata/device/device_segmented_reduce.cuh>

#include <cub/device/device_segmented_reduce.cuh>

#if !defined(STRATA_BENCH_CCCL_NEXT)
#  include <thrust/iterator/counting_iterator.h>
#  include <thrust/iterator/transform_iterator.h>
#endif

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace
{
using u32 = std::uint32_t;

#if !defined(STRATA_BENCH_CCCL_NEXT)
//! Where segment s begins: the baseline's offsets.
struct segment_begin
{
  std::int64_t size;
  __host__ __device__ std::int64_t operator()(std::int64_t s) const
  {
    return s * size;
  }
};
#endif

template <bool STRATA>
cudaError_t segmented_sum(void* d_temp, std::size_t& bytes, const u32* in, u32* out, std::int64_t segments, int size,
                          cudaStream_t stream)
{
  if constexpr (STRATA)
  {
    return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, in, out, segments, size, stream);
  }
  else
  {
#if defined(STRATA_BENCH_CCCL_NEXT)
    return cub::DeviceSegmentedReduce::Sum(d_temp, bytes, in, out, segments, size, stream);
#else
    auto begins = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), segment_begin{size});
    return cub::DeviceSegmentedReduce::Sum(d_temp, bytes, in, out, segments, begins, begins + 1, stream);
#endif
  }
}

//! Times the fixed-size Sum by strata (STRATA) or the baseline: state.range(0) items in segments of
//! state.range(1) (the items past the last whole segment left out).
template <bool STRATA>
void time_fixed_sum(benchmark::State& state)
{
  const std::size_t n         = static_cast<std::size_t>(state.range(0));
  const int size              = static_cast<int>(state.range(1));
  const std::int64_t segments = std::int64_t(n / std::size_t(size));
  auto& in                    = bench::shared_rotating_buffer<u32>(n);
  u32* out                    = static_cast<u32*>(bench::scratch(0, std::size_t(segments) * sizeof(u32)));
  if constexpr (STRATA)
  {
    const std::string configuration = "FixedSum/" + std::to_string(n) + "/" + std::to_string(size);
    if (bench::first_run(configuration))
    {
      const u32* d_in = in.next();
      std::vector<std::vector<u32>> results;
      for (const bool strata : {true, false})
      {
        bench::poison(out, std::size_t(segments));
        std::size_t bytes = 0;
        bench::check(strata ? segmented_sum<true>(nullptr, bytes, d_in, out, segments, size, nullptr)
                            : segmented_sum<false>(nullptr, bytes, d_in, out, segments, size, nullptr),
                     "size query");
        void* d_temp = bench::scratch(1, bytes);
        bench::check(strata ? segmented_sum<true>(d_temp, bytes, d_in, out, segments, size, nullptr)
                            : segmented_sum<false>(d_temp, bytes, d_in, out, segments, size, nullptr),
                     "sum");
        results.push_back(bench::download(out, std::size_t(segments)));
      }
      if (!bench::record(state, configuration, bench::compare_exact(results[0], results[1])))
      {
        return;
      }
    }
  }
  std::size_t bytes = 0;
  bench::check(segmented_sum<STRATA>(nullptr, bytes, in.next(), out, segments, size, nullptr), "size query");
  void* d_temp = bench::scratch(1, bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           std::size_t run_bytes = bytes;
                           bench::check(
                               segmented_sum<STRATA>(d_temp, run_bytes, in.next(), out, segments, size, stream), "sum");
                         });
  bench::set_throughput(state, n, n * sizeof(u32) + std::size_t(segments) * sizeof(u32));
}

void fixed_layouts(benchmark::internal::Benchmark* b)
{
  for (const long n : {1L << 24, 1L << 28})
  {
    for (const long size : {1L, 2L, 4L, 8L, 16L, 32L, 33L, 256L, 4096L})
    {
      b->Args({n, size});
    }
  }
}
} // namespace

BENCHMARK(time_fixed_sum<true>)
    ->Name(::bench::mode_name("DeviceSegmentedReduce::FixedSum/strata/u32"))
    ->Apply(fixed_layouts)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(time_fixed_sum<false>)
    ->Name(::bench::mode_name("DeviceSegmentedReduce::FixedSum/cub/u32"))
    ->Apply(fixed_layouts)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(bench::memcpy_d2d<u32>)
    ->Name(::bench::mode_name("cudaMemcpy/u32"))
    ->Arg(1L << 24)
    ->Arg(1L << 28)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

STRATA_BENCH_MAIN()

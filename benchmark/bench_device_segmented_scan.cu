// DeviceSegmentedScan::InclusiveSegmentedSum, strata and a baseline on the same device buffers,
// L2 flushed before every call: 2^24 and 2^28 random u32 items in contiguous segments of 16, 256,
// 4096 and 2^20 items, given by one array of int32 offsets (offsets, offsets + 1). Bytes: the
// items read and written (the offsets not counted, as in the issue's bound).
//
// The baseline is what a CUDA 13.0 user writes: DeviceScan::InclusiveSumByKey with the segment
// number of each item (item / segment size, computed on the fly) as its key. Built with
// STRATA_BENCH_CCCL_NEXT (CMake option STRATA_CCCL_NEXT_INCLUDE, headers from scripts/fetch-cccl),
// the baseline is CUB 3.5's DeviceSegmentedScan. Every configuration first compares strata's
// output with the baseline's.
#include <strata/device/device_segmented_scan.cuh>

#if defined(STRATA_BENCH_CCCL_NEXT)
#  include <cub/device/device_segmented_scan.cuh>
#else
#  include <cub/device/device_scan.cuh>

#  include <thrust/iterator/counting_iterator.h>
#  include <thrust/iterator/transform_iterator.h>
#endif

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace
{
using u32 = std::uint32_t;

#if !defined(STRATA_BENCH_CCCL_NEXT)
//! The segment number of item i: the baseline's key.
struct segment_of
{
  int size;
  __host__ __device__ int operator()(int i) const
  {
    return i / size;
  }
};
#endif

//! n random items, kept per size.
const u32* scan_input(std::size_t n)
{
  static std::map<std::size_t, std::unique_ptr<bench::device_buffer<u32>>> inputs;
  auto& slot = inputs[n];
  if (!slot)
  {
    slot = std::make_unique<bench::device_buffer<u32>>(n);
    bench::fill_random(*slot, 6001 + n);
  }
  return slot->data();
}

//! The offsets of n / size segments of `size` items (int32), kept per layout.
const int* segment_offsets(std::size_t n, int size)
{
  static std::map<std::pair<std::size_t, int>, std::unique_ptr<bench::device_buffer<int>>> offsets;
  auto& slot = offsets[{n, size}];
  if (!slot)
  {
    const std::size_t segments = n / std::size_t(size);
    std::vector<int> host(segments + 1);
    for (std::size_t s = 0; s <= segments; ++s)
    {
      host[s] = int(s) * size;
    }
    slot = std::make_unique<bench::device_buffer<int>>(segments + 1);
    bench::check(cudaMemcpy(slot->data(), host.data(), slot->bytes(), cudaMemcpyHostToDevice), "offsets");
  }
  return slot->data();
}

template <bool STRATA>
cudaError_t segmented_sum(void* d_temp, std::size_t& bytes, const u32* in, u32* out, std::size_t n, int size,
                          cudaStream_t stream)
{
  const int* offsets              = segment_offsets(n, size);
  const std::int64_t num_segments = std::int64_t(n / std::size_t(size));
  if constexpr (STRATA)
  {
    return strata::DeviceSegmentedScan::InclusiveSegmentedSum(d_temp, bytes, in, out, offsets, offsets + 1,
                                                              num_segments, stream);
  }
  else
  {
#if defined(STRATA_BENCH_CCCL_NEXT)
    return cub::DeviceSegmentedScan::InclusiveSegmentedSum(d_temp, bytes, in, out, offsets, offsets + 1, num_segments,
                                                           stream);
#else
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), segment_of{size});
    return cub::DeviceScan::InclusiveSumByKey(d_temp, bytes, keys, in, out, int(n), cuda::std::equal_to<>{}, stream);
#endif
  }
}

//! Times InclusiveSegmentedSum by strata (STRATA) or the baseline: state.range(0) items in
//! segments of state.range(1).
template <bool STRATA>
void time_segmented_sum(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const int size      = static_cast<int>(state.range(1));
  const u32* in       = scan_input(n);
  u32* out            = static_cast<u32*>(bench::scratch(0, n * sizeof(u32)));
  if constexpr (STRATA)
  {
    const std::string configuration = "InclusiveSegmentedSum/" + std::to_string(n) + "/" + std::to_string(size);
    if (bench::first_run(configuration))
    {
      std::vector<std::vector<u32>> results;
      for (const bool strata : {true, false})
      {
        bench::poison(out, n);
        std::size_t bytes = 0;
        bench::check(strata ? segmented_sum<true>(nullptr, bytes, in, out, n, size, nullptr)
                            : segmented_sum<false>(nullptr, bytes, in, out, n, size, nullptr),
                     "size query");
        void* d_temp = bench::scratch(1, bytes);
        bench::check(strata ? segmented_sum<true>(d_temp, bytes, in, out, n, size, nullptr)
                            : segmented_sum<false>(d_temp, bytes, in, out, n, size, nullptr),
                     "scan");
        results.push_back(bench::download(out, n));
      }
      std::string mismatch;
      for (std::size_t i = 0; i < n && mismatch.empty(); ++i)
      {
        if (results[0][i] != results[1][i])
        {
          mismatch = "item " + std::to_string(i) + ": strata " + std::to_string(results[0][i]) + ", the baseline "
                     + std::to_string(results[1][i]);
        }
      }
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  std::size_t bytes = 0;
  bench::check(segmented_sum<STRATA>(nullptr, bytes, in, out, n, size, nullptr), "size query");
  void* d_temp = bench::scratch(1, bytes);
  bench::time_iterations(
      state,
      [&](cudaStream_t stream)
      { bench::check(segmented_sum<STRATA>(d_temp, bytes, in, out, n, size, stream), "scan"); },
      bench::flush_l2);
  bench::set_throughput(state, n, 2 * n * sizeof(u32));
}

void segment_layouts(benchmark::internal::Benchmark* b)
{
  for (const long n : {1L << 24, 1L << 28})
  {
    for (const long size : {16L, 256L, 4096L, 1L << 20})
    {
      b->Args({n, size});
    }
  }
}
} // namespace

BENCHMARK(time_segmented_sum<true>)
    ->Name(::bench::mode_name("DeviceSegmentedScan::InclusiveSegmentedSum/strata/u32"))
    ->Apply(segment_layouts)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(time_segmented_sum<false>)
    ->Name(::bench::mode_name("DeviceSegmentedScan::InclusiveSegmentedSum/cub/u32"))
    ->Apply(segment_layouts)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

STRATA_BENCH_MAIN()

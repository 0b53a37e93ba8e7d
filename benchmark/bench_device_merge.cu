// DeviceMerge (MergeKeys of u32, MergePairs of u32/u32), strata and CUB side by side on the same
// device buffers: a sorted input of m/16 items merged with one of m items, m = 2^16, 2^20, 2^24 and
// 2^28 (the row's items are m). Keys are random bits, sorted once at setup; the L2 is flushed
// before every timed call, so that the inputs come from memory. Bytes count the keys and values
// read once and written once; the temp_bytes counter is each library's temporary storage. Both
// merges are stable, so their outputs must agree exactly (checked once per configuration).
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
#include <type_traits>

namespace
{
using u32 = std::uint32_t;

//! The two sorted key inputs (m / 16 and m items) and their values, made once per m.
struct merge_inputs
{
  std::size_t n1;
  std::size_t n2;
  bench::device_buffer<u32> keys1;
  bench::device_buffer<u32> keys2;
  bench::device_buffer<u32> values1;
  bench::device_buffer<u32> values2;
  bench::device_buffer<u32> keys_out;
  bench::device_buffer<u32> values_out;

  explicit merge_inputs(std::size_t m)
      : n1(m / 16)
      , n2(m)
      , keys1(m / 16)
      , keys2(m)
      , values1(m / 16)
      , values2(m)
      , keys_out(m + m / 16)
      , values_out(m + m / 16)
  {
    bench::fill_random(values1, 11 + m);
    bench::fill_random(values2, 13 + m);
    bench::fill_sorted_random(keys1, 17 + m);
    bench::fill_sorted_random(keys2, 19 + m);
  }
};

merge_inputs& inputs(std::size_t m)
{
  static std::map<std::size_t, std::unique_ptr<merge_inputs>> made;
  auto& slot = made[m];
  if (!slot)
  {
    slot = std::make_unique<merge_inputs>(m);
  }
  return *slot;
}

//! One merge of `in` by LibraryT (strata::DeviceMerge or cub::DeviceMerge), keys only or pairs.
template <typename LibraryT, bool PAIRS>
cudaError_t run(void* d_temp, std::size_t& bytes, merge_inputs& in, cudaStream_t stream)
{
  const auto n1 = static_cast<std::int64_t>(in.n1);
  const auto n2 = static_cast<std::int64_t>(in.n2);
  if constexpr (PAIRS)
  {
    return LibraryT::MergePairs(d_temp, bytes, static_cast<const u32*>(in.keys1.data()),
                                static_cast<const u32*>(in.values1.data()), n1,
                                static_cast<const u32*>(in.keys2.data()), static_cast<const u32*>(in.values2.data()),
                                n2, in.keys_out.data(), in.values_out.data(), cuda::std::less<>{}, stream);
  }
  else
  {
    return LibraryT::MergeKeys(d_temp, bytes, static_cast<const u32*>(in.keys1.data()), n1,
                               static_cast<const u32*>(in.keys2.data()), n2, in.keys_out.data(), cuda::std::less<>{},
                               stream);
  }
}

//! The outputs of one merge by LibraryT, into poisoned buffers.
template <typename LibraryT, bool PAIRS>
std::pair<std::vector<u32>, std::vector<u32>> merge_once(merge_inputs& in)
{
  const std::size_t n = in.n1 + in.n2;
  bench::poison(in.keys_out.data(), n);
  bench::poison(in.values_out.data(), n);
  std::size_t bytes = 0;
  bench::check(run<LibraryT, PAIRS>(nullptr, bytes, in, 0), "size query");
  bench::check(run<LibraryT, PAIRS>(bench::scratch(0, bytes), bytes, in, 0), "merge");
  bench::check(cudaDeviceSynchronize(), "merge");
  return {bench::download(in.keys_out.data(), n), bench::download(in.values_out.data(), n)};
}

template <bool STRATA, bool PAIRS>
void merge(benchmark::State& state, const std::string& configuration)
{
  using LibraryT   = std::conditional_t<STRATA, strata::DeviceMerge, cub::DeviceMerge>;
  const auto m     = static_cast<std::size_t>(state.range(0));
  merge_inputs& in = inputs(m);
  if constexpr (STRATA)
  {
    const std::string sized = configuration + "/" + std::to_string(m);
    if (bench::first_run(sized))
    {
      const auto strata_out = merge_once<strata::DeviceMerge, PAIRS>(in);
      const auto cub_out    = merge_once<cub::DeviceMerge, PAIRS>(in);
      std::string mismatch  = bench::compare_exact(strata_out.first, cub_out.first);
      if (PAIRS && mismatch.empty())
      {
        mismatch = bench::compare_exact(strata_out.second, cub_out.second);
      }
      if (!bench::record(state, sized, mismatch))
      {
        return;
      }
    }
  }
  std::size_t bytes = 0;
  bench::check(run<LibraryT, PAIRS>(nullptr, bytes, in, 0), "size query");
  void* d_temp = bench::scratch(0, bytes);
  bench::time_iterations(
      state, [&](cudaStream_t stream) { bench::check(run<LibraryT, PAIRS>(d_temp, bytes, in, stream), "merge"); },
      [](cudaStream_t stream) { bench::flush_l2(stream); });
  const std::size_t n = in.n1 + in.n2;
  bench::set_throughput(state, n, 2 * n * sizeof(u32) * (PAIRS ? 2 : 1));
  state.counters["temp_bytes"] = double(bytes);
}

template <bool STRATA, bool PAIRS>
void register_row(const std::string& function, const std::string& type)
{
  const std::string configuration = function + "/" + type;
  const std::string name          = bench::mode_name(function + (STRATA ? "/strata/" : "/cub/") + type);
  auto* row                       = benchmark::RegisterBenchmark(name.c_str(), [configuration](benchmark::State& state)
                                                                 { merge<STRATA, PAIRS>(state, configuration); });
  for (int m : {1 << 16, 1 << 20, 1 << 24, 1 << 28}) // the sizes of the summary in docs/performance.md
  {
    row->Arg(m);
  }
  row->UseManualTime()->Unit(benchmark::kMicrosecond);
}

[[maybe_unused]] const bool registered = []
{
  register_row<true, false>("DeviceMerge::MergeKeys", "u32");
  register_row<false, false>("DeviceMerge::MergeKeys", "u32");
  register_row<true, true>("DeviceMerge::MergePairs", "u32_u32");
  register_row<false, true>("DeviceMerge::MergePairs", "u32_u32");
  return true;
}();
} // namespace

STRATA_BENCH_MAIN()

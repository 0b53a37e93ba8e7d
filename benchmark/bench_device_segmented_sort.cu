// DeviceSegmentedSort (SortKeys of u32, SortPairs of u32/u32) and DeviceSegmentedRadixSort (the
// same two), strata and CUB side by side on the same device buffers: 2^26 items of random bits
// (values too) cut into segments of four shapes, the last part of a row's name:
//   2^22x16    2^22 segments, lengths uniform in [0, 32]
//   2^16x1024  2^16 segments, lengths uniform in [0, 2048]
//   64x2^20    64 segments of 2^20
//   powerlaw   Pareto lengths of exponent 1 (P(length >= x) = 1/x), at most 2^22: 4.4 million
//              segments, 97% of them of at most 32 items (a fifth of the items), 69 of more than
//              2^16 (a third of the items), the longest 2^22
// and, for the summary in docs/performance.md, 2^16, 2^20, 2^24 and 2^28 items (the row's last
// part) in segments of lengths uniform in [0, 2048], one per 1024 items.
// Lengths come from fixed seeds; uniform ones are then moved one item at a time until they sum to
// 2^26, and the last power-law one is cut to fit. The offsets are one int array of
// num_segments + 1 (begin offsets, and the same array + 1 as end offsets).
// The reference a segmented sort should approach: DeviceRadixSort::SortKeys of the same 2^26 keys,
// row 'DeviceRadixSort::SortKeys/<library>/u32/67108864/0' (bench_device_radix_sort.cu's name for
// random keys, so that scripts/bench-report puts it in that table). The L2 is flushed before every
// timed call, so that the inputs come from memory. Bytes count the keys and values read once and
// written once and the offsets read once; the temp_bytes counter is each library's temporary
// storage. Keys must agree exactly, and so must the values of the stable radix sorts; CUB documents
// DeviceSegmentedSort::SortPairs as unstable, so there each run of equal keys in a segment must hold
// the same values (checked once per configuration). CUB's DeviceSegmentedRadixSort takes 0.4 to
// 0.7 s a call on 2^22x16 and powerlaw (H200): a minimum time per repetition (gpu-check's 0.03 s)
// then runs it once plus the warm-up, and the whole program takes about half a minute at that
// minimum time; Iterations() would add '/iterations:N' to the row names that bench-report reads.
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "bench_common.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using u32 = std::uint32_t;

constexpr std::int64_t total_items = std::int64_t(1) << 26;

//! The segment shapes; shape_labels names them in the rows (the sized ones by their item count).
enum shape_id : int
{
  SHORT_SEGMENTS,
  MEDIUM_SEGMENTS,
  LONG_SEGMENTS,
  POWER_LAW_SEGMENTS,
  SIZED_SEGMENTS
};
const char* const shape_labels[] = {"2^22x16", "2^16x1024", "64x2^20", "powerlaw"};

//! num_segments lengths uniform in [0, max_length], then moved by one item at a time (in a random
//! segment, within [0, max_length]) until they sum to `items`.
std::vector<std::int64_t> uniform_lengths(std::int64_t num_segments, std::int64_t max_length, std::int64_t items,
                                          std::mt19937_64& rng)
{
  std::uniform_int_distribution<std::int64_t> length(0, max_length);
  std::vector<std::int64_t> lengths(num_segments);
  std::int64_t excess = -items;
  for (auto& l : lengths)
  {
    l = length(rng);
    excess += l;
  }
  std::uniform_int_distribution<std::int64_t> pick(0, num_segments - 1);
  while (excess != 0)
  {
    std::int64_t& l = lengths[pick(rng)];
    if (excess > 0 && l > 0)
    {
      --l;
      --excess;
    }
    else if (excess < 0 && l < max_length)
    {
      ++l;
      ++excess;
    }
  }
  return lengths;
}

//! Pareto lengths of exponent 1 (floor(1/u) for u uniform in (0, 1]), at most 2^22 (without a cap
//! one draw in a few takes most of the items), drawn until they reach total_items, the last one cut
//! to fit.
std::vector<std::int64_t> power_law_lengths(std::mt19937_64& rng)
{
  constexpr double longest = double(1 << 22);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::int64_t> lengths;
  for (std::int64_t sum = 0; sum < total_items;)
  {
    const double u = 1.0 - uniform(rng);
    lengths.push_back(std::min(static_cast<std::int64_t>(std::min(1.0 / u, longest)), total_items - sum));
    sum += lengths.back();
  }
  return lengths;
}

//! One shape's segments: the offsets on the host (for the check of the values) and on the device.
struct segments
{
  std::vector<int> h_offsets;
  bench::device_buffer<int> offsets;

  explicit segments(const std::vector<std::int64_t>& lengths)
      : h_offsets(lengths.size() + 1, 0)
      , offsets(lengths.size() + 1)
  {
    for (std::size_t i = 0; i < lengths.size(); ++i)
    {
      h_offsets[i + 1] = static_cast<int>(h_offsets[i] + lengths[i]);
    }
    bench::check(cudaMemcpy(offsets.data(), h_offsets.data(), offsets.bytes(), cudaMemcpyHostToDevice), "offsets");
  }
  std::int64_t count() const
  {
    return static_cast<std::int64_t>(h_offsets.size()) - 1;
  }
  std::int64_t items() const
  {
    return h_offsets.back();
  }
};

//! The segments of `shape`; `items` is the item count of SIZED_SEGMENTS (the others have total_items).
segments& shape_segments(int shape, std::int64_t items)
{
  static std::map<std::pair<int, std::int64_t>, std::unique_ptr<segments>> made;
  auto& slot = made[{shape, items}];
  if (!slot)
  {
    std::mt19937_64 rng(7001 + shape);
    switch (shape)
    {
    case SHORT_SEGMENTS:
      slot = std::make_unique<segments>(uniform_lengths(std::int64_t(1) << 22, 32, total_items, rng));
      break;
    case MEDIUM_SEGMENTS:
      slot = std::make_unique<segments>(uniform_lengths(std::int64_t(1) << 16, 2048, total_items, rng));
      break;
    case SIZED_SEGMENTS:
      slot = std::make_unique<segments>(uniform_lengths(items / 1024, 2048, items, rng));
      break;
    case LONG_SEGMENTS:
      slot = std::make_unique<segments>(std::vector<std::int64_t>(64, std::int64_t(1) << 20));
      break;
    default:
      slot = std::make_unique<segments>(power_law_lengths(rng));
      break;
    }
  }
  return *slot;
}

//! The random keys and values the rows of `items` items sort (2^26 for the shapes).
struct sort_inputs
{
  bench::device_buffer<u32> keys;
  bench::device_buffer<u32> values;
  explicit sort_inputs(std::int64_t items)
      : keys(std::size_t(items))
      , values(std::size_t(items))
  {
    bench::fill_random(keys, 1201);
    bench::fill_random(values, 1301);
  }
};

sort_inputs& inputs(std::int64_t items)
{
  static std::map<std::int64_t, std::unique_ptr<sort_inputs>> made;
  auto& slot = made[items];
  if (!slot)
  {
    slot = std::make_unique<sort_inputs>(items);
  }
  return *slot;
}

//! The items a row sorts: its segments', or total_items for the plain radix sort.
std::int64_t items_of(const segments* segs)
{
  return segs ? segs->items() : total_items;
}

//! The rows' functions.
enum function_id : int
{
  SEGMENTED_SORT_KEYS,
  SEGMENTED_SORT_PAIRS,
  SEGMENTED_RADIX_SORT_KEYS,
  SEGMENTED_RADIX_SORT_PAIRS,
  RADIX_SORT_KEYS
};

constexpr bool sorts_pairs(int function)
{
  return function == SEGMENTED_SORT_PAIRS || function == SEGMENTED_RADIX_SORT_PAIRS;
}

//! One call of FUNCTION of strata (STRATA) or CUB on the inputs cut into `segs` (unused by the
//! plain radix sort); d_values_out is unused by keys-only sorts.
template <bool STRATA, int FUNCTION>
cudaError_t run(void* d_temp, std::size_t& bytes, const segments* segs, u32* d_keys_out, u32* d_values_out,
                cudaStream_t stream)
{
  using SegmentedSortT = std::conditional_t<STRATA, strata::DeviceSegmentedSort, cub::DeviceSegmentedSort>;
  using SegmentedRadixSortT =
      std::conditional_t<STRATA, strata::DeviceSegmentedRadixSort, cub::DeviceSegmentedRadixSort>;
  using RadixSortT         = std::conditional_t<STRATA, strata::DeviceRadixSort, cub::DeviceRadixSort>;
  const std::int64_t items = items_of(segs);
  const u32* d_keys        = inputs(items).keys.data();
  const u32* d_values      = inputs(items).values.data();
  if constexpr (FUNCTION == RADIX_SORT_KEYS)
  {
    return RadixSortT::SortKeys(d_temp, bytes, d_keys, d_keys_out, total_items, 0, 32, stream);
  }
  else
  {
    const int* d_offsets = segs->offsets.data();
    const auto n         = segs->count();
    if constexpr (FUNCTION == SEGMENTED_SORT_KEYS)
    {
      return SegmentedSortT::SortKeys(d_temp, bytes, d_keys, d_keys_out, items, n, d_offsets, d_offsets + 1, stream);
    }
    else if constexpr (FUNCTION == SEGMENTED_SORT_PAIRS)
    {
      return SegmentedSortT::SortPairs(d_temp, bytes, d_keys, d_keys_out, d_values, d_values_out, items, n, d_offsets,
                                       d_offsets + 1, stream);
    }
    else if constexpr (FUNCTION == SEGMENTED_RADIX_SORT_KEYS)
    {
      return SegmentedRadixSortT::SortKeys(d_temp, bytes, d_keys, d_keys_out, items, n, d_offsets, d_offsets + 1, 0, 32,
                                           stream);
    }
    else
    {
      return SegmentedRadixSortT::SortPairs(d_temp, bytes, d_keys, d_keys_out, d_values, d_values_out, items, n,
                                            d_offsets, d_offsets + 1, 0, 32, stream);
    }
  }
}

//! One two-phase call of FUNCTION into poisoned outputs; returns the keys and values it wrote.
template <bool STRATA, int FUNCTION>
std::pair<std::vector<u32>, std::vector<u32>> sort_once(const segments* segs)
{
  const std::int64_t items = items_of(segs);
  u32* d_keys_out          = static_cast<u32*>(bench::scratch(0, items * sizeof(u32)));
  u32* d_values_out        = static_cast<u32*>(bench::scratch(1, items * sizeof(u32)));
  bench::poison(d_keys_out, items);
  bench::poison(d_values_out, items);
  std::size_t bytes = 0;
  bench::check(run<STRATA, FUNCTION>(nullptr, bytes, segs, d_keys_out, d_values_out, 0), "size query");
  bench::check(run<STRATA, FUNCTION>(bench::scratch(2, bytes), bytes, segs, d_keys_out, d_values_out, 0), "sort");
  bench::check(cudaDeviceSynchronize(), "sort");
  return {bench::download(d_keys_out, items),
          sorts_pairs(FUNCTION) ? bench::download(d_values_out, items) : std::vector<u32>{}};
}

//! Comparison of the values two sorts of pairs wrote with the same `keys` into the segments of
//! `offsets`: an unstable sort may order the values of a run of equal keys in a segment any way,
//! but each run must hold the same values. "" or the number of runs that differ and the first.
std::string compare_runs(const std::vector<u32>& keys, const std::vector<int>& offsets, std::vector<u32> strata_values,
                         std::vector<u32> cub_values)
{
  std::size_t mismatches = 0;
  std::size_t first      = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
  {
    const std::size_t segment_end = offsets[s + 1];
    for (std::size_t begin = offsets[s], end = begin; begin < segment_end; begin = end)
    {
      end = begin + 1;
      while (end < segment_end && keys[end] == keys[begin])
      {
        ++end;
      }
      std::sort(strata_values.begin() + begin, strata_values.begin() + end);
      std::sort(cub_values.begin() + begin, cub_values.begin() + end);
      if (!std::equal(strata_values.begin() + begin, strata_values.begin() + end, cub_values.begin() + begin)
          && mismatches++ == 0)
      {
        first = begin;
      }
    }
  }
  if (mismatches == 0)
  {
    return "";
  }
  return std::to_string(mismatches) + " runs of equal keys hold different values; first at " + std::to_string(first);
}

//! Times strata's (STRATA) or CUB's FUNCTION on the segments of `shape`, with the L2 flushed
//! before each call. strata's row first checks, once per configuration, that both libraries write
//! the same keys and values.
template <bool STRATA, int FUNCTION>
void segmented_sort(benchmark::State& state, const std::string& configuration, int shape, std::int64_t items)
{
  constexpr bool PAIRS = sorts_pairs(FUNCTION);
  const segments* segs = FUNCTION == RADIX_SORT_KEYS ? nullptr : &shape_segments(shape, items);
  if constexpr (STRATA)
  {
    if (bench::first_run(configuration))
    {
      const auto strata_out = sort_once<true, FUNCTION>(segs);
      const auto cub_out    = sort_once<false, FUNCTION>(segs);
      std::string mismatch  = bench::compare_exact(strata_out.first, cub_out.first);
      if (PAIRS && mismatch.empty())
      {
        mismatch = FUNCTION == SEGMENTED_SORT_PAIRS
                       ? compare_runs(cub_out.first, segs->h_offsets, strata_out.second, cub_out.second)
                       : bench::compare_exact(strata_out.second, cub_out.second);
      }
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  const std::int64_t n = items_of(segs);
  u32* d_keys_out      = static_cast<u32*>(bench::scratch(0, n * sizeof(u32)));
  u32* d_values_out    = static_cast<u32*>(bench::scratch(1, n * sizeof(u32)));
  std::size_t bytes    = 0;
  bench::check(run<STRATA, FUNCTION>(nullptr, bytes, segs, d_keys_out, d_values_out, 0), "size query");
  void* d_temp = bench::scratch(2, bytes);
  bench::time_iterations(
      state,
      [&](cudaStream_t stream)
      { bench::check(run<STRATA, FUNCTION>(d_temp, bytes, segs, d_keys_out, d_values_out, stream), "sort"); },
      [](cudaStream_t stream) { bench::flush_l2(stream); });
  const std::size_t offset_bytes = segs ? segs->h_offsets.size() * sizeof(int) : 0;
  bench::set_throughput(state, n, 2 * n * sizeof(u32) * (PAIRS ? 2 : 1) + offset_bytes);
  state.counters["temp_bytes"] = double(bytes);
}

//! Registers the row '<function>/<library>/<type>/<last>' (library strata or cub, in this run's
//! mode, bench::mode_name), with manual time in microseconds.
template <bool STRATA, int FUNCTION>
void register_row(const std::string& function, const std::string& type, const std::string& last, int shape,
                  std::int64_t items = total_items)
{
  const std::string configuration = function + "/" + type + "/" + last;
  const std::string name          = bench::mode_name(function + (STRATA ? "/strata/" : "/cub/") + type + "/" + last);
  benchmark::RegisterBenchmark(name.c_str(), [configuration, shape, items](benchmark::State& state)
                               { segmented_sort<STRATA, FUNCTION>(state, configuration, shape, items); })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

//! strata's and CUB's rows of FUNCTION in every shape, which scripts/bench-summary and
//! scripts/bench-report pair.
template <int FUNCTION>
void register_shapes(const std::string& function, const std::string& type)
{
  for (int shape : {SHORT_SEGMENTS, MEDIUM_SEGMENTS, LONG_SEGMENTS, POWER_LAW_SEGMENTS})
  {
    register_row<true, FUNCTION>(function, type, shape_labels[shape], shape);
    register_row<false, FUNCTION>(function, type, shape_labels[shape], shape);
  }
  for (int log2_items : {16, 20, 24, 28})
  {
    const std::int64_t items = std::int64_t(1) << log2_items;
    register_row<true, FUNCTION>(function, type, std::to_string(items), SIZED_SEGMENTS, items);
    register_row<false, FUNCTION>(function, type, std::to_string(items), SIZED_SEGMENTS, items);
  }
}

[[maybe_unused]] const bool registered = []
{
  register_shapes<SEGMENTED_SORT_PAIRS>("DeviceSegmentedSort::SortPairs", "u32_u32");
  register_shapes<SEGMENTED_SORT_KEYS>("DeviceSegmentedSort::SortKeys", "u32");
  register_shapes<SEGMENTED_RADIX_SORT_KEYS>("DeviceSegmentedRadixSort::SortKeys", "u32");
  register_shapes<SEGMENTED_RADIX_SORT_PAIRS>("DeviceSegmentedRadixSort::SortPairs", "u32_u32");
  const std::string random_keys = std::to_string(total_items) + "/0";
  register_row<true, RADIX_SORT_KEYS>("DeviceRadixSort::SortKeys", "u32", random_keys, -1);
  register_row<false, RADIX_SORT_KEYS>("DeviceRadixSort::SortKeys", "u32", random_keys, -1);
  return true;
}();
} // namespace

STRATA_BENCH_MAIN()

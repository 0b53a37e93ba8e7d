// DeviceMergeSort (SortKeysCopy of u32 and u64, SortPairsCopy of u32/u32, StableSortKeysCopy of
// 16-byte records by a 16-bit key, SortKeys in place of u32), strata and CUB side by side on the
// same device buffers, at 2^16, 2^20, 2^24 and 2^28 items (SortKeysCopy of u32 also at 2^26).
// Built-in keys are random bits ordered by cuda::std::less<>. Inputs rotate
// through copies filling 256 MiB, so that no run finds them in the 50 MB L2. Bytes count the keys
// and values read once and written once; the temp_bytes counter is each library's temporary storage.
#include <strata/device/device_merge_sort.cuh>

#include <cub/device/device_merge_sort.cuh>

#include "bench_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using u32 = std::uint32_t;
using u64 = std::uint64_t;

//! A 16-byte record sorted by `key` alone (record_key_less). Its keys have 16 random bits
//! (record_buffer), so many records share a key and only a stable sort fixes their order: strata's
//! and CUB's stable sorts must then write the same whole records.
struct record
{
  u64 key;
  u32 a;
  u32 b;
};
static_assert(sizeof(record) == 16, "a record has no padding: the check compares its bytes");

struct record_key_less
{
  __host__ __device__ bool operator()(const record& lhs, const record& rhs) const
  {
    return lhs.key < rhs.key;
  }
};

//! Keeps the low 16 bits of every record's key.
__global__ void keep_16_key_bits(record* records, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    records[i].key &= 0xFFFF;
  }
}

//! Rotating records of random bits with 16-bit keys, shared by strata's and CUB's rows.
bench::rotating_buffer<record>& record_buffer(std::size_t n)
{
  static std::map<std::size_t, std::unique_ptr<bench::rotating_buffer<record>>> buffers;
  auto& slot = buffers[n];
  if (!slot)
  {
    slot = std::make_unique<bench::rotating_buffer<record>>(n, 6151 + n * sizeof(record));
    keep_16_key_bits<<<1024, 256>>>(slot->next(), n * slot->copies());
    bench::check(cudaDeviceSynchronize(), "keep_16_key_bits");
  }
  return *slot;
}

// The rows' sorts. Each names its key and value types (u32 stands in, unused, for the values of a
// keys-only sort), whether it sorts values (PAIRS) and whether it sorts the keys' output in place
// (IN_PLACE: the input is copied there, untimed, before each call), and calls the function of
// LibraryT, strata::DeviceMergeSort or cub::DeviceMergeSort (one API).

template <typename KeyT>
struct sort_keys_copy
{
  using key_type                 = KeyT;
  using value_type               = u32;
  static constexpr bool PAIRS    = false;
  static constexpr bool IN_PLACE = false;
  static bench::rotating_buffer<KeyT>& keys(std::size_t n)
  {
    return bench::shared_rotating_buffer<KeyT>(n);
  }
  template <typename LibraryT>
  static cudaError_t run(void* d_temp, std::size_t& bytes, const KeyT* d_keys_in, KeyT* d_keys_out, const u32*, u32*,
                         int n, cudaStream_t stream)
  {
    return LibraryT::SortKeysCopy(d_temp, bytes, d_keys_in, d_keys_out, n, cuda::std::less<>{}, stream);
  }
};

template <typename KeyT>
struct sort_keys_in_place
{
  using key_type                 = KeyT;
  using value_type               = u32;
  static constexpr bool PAIRS    = false;
  static constexpr bool IN_PLACE = true;
  static bench::rotating_buffer<KeyT>& keys(std::size_t n)
  {
    return bench::shared_rotating_buffer<KeyT>(n);
  }
  template <typename LibraryT>
  static cudaError_t run(void* d_temp, std::size_t& bytes, const KeyT*, KeyT* d_keys, const u32*, u32*, int n,
                         cudaStream_t stream)
  {
    return LibraryT::SortKeys(d_temp, bytes, d_keys, n, cuda::std::less<>{}, stream);
  }
};

template <typename KeyT, typename ValueT>
struct sort_pairs_copy
{
  using key_type                 = KeyT;
  using value_type               = ValueT;
  static constexpr bool PAIRS    = true;
  static constexpr bool IN_PLACE = false;
  static bench::rotating_buffer<KeyT>& keys(std::size_t n)
  {
    return bench::shared_rotating_buffer<KeyT>(n);
  }
  template <typename LibraryT>
  static cudaError_t run(void* d_temp, std::size_t& bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                         const ValueT* d_values_in, ValueT* d_values_out, int n, cudaStream_t stream)
  {
    return LibraryT::SortPairsCopy(d_temp, bytes, d_keys_in, d_values_in, d_keys_out, d_values_out, n,
                                   cuda::std::less<>{}, stream);
  }
};

struct stable_sort_records_copy
{
  using key_type                 = record;
  using value_type               = u32;
  static constexpr bool PAIRS    = false;
  static constexpr bool IN_PLACE = false;
  static bench::rotating_buffer<record>& keys(std::size_t n)
  {
    return record_buffer(n);
  }
  template <typename LibraryT>
  static cudaError_t run(void* d_temp, std::size_t& bytes, const record* d_keys_in, record* d_keys_out, const u32*,
                         u32*, int n, cudaStream_t stream)
  {
    return LibraryT::StableSortKeysCopy(d_temp, bytes, d_keys_in, d_keys_out, n, record_key_less{}, stream);
  }
};

//! One two-phase SortT of LibraryT on n keys (and values for pairs) into poisoned outputs (the
//! in-place sort's keys: a copy of the input); returns the keys and values it wrote.
template <typename SortT, typename LibraryT, typename KeyT = typename SortT::key_type,
          typename ValueT = typename SortT::value_type>
std::pair<std::vector<KeyT>, std::vector<ValueT>> sort_once(int n, const KeyT* d_keys, const ValueT* d_values)
{
  KeyT* d_keys_out     = static_cast<KeyT*>(bench::scratch(0, n * sizeof(KeyT)));
  ValueT* d_values_out = SortT::PAIRS ? static_cast<ValueT*>(bench::scratch(1, n * sizeof(ValueT))) : nullptr;
  if constexpr (SortT::IN_PLACE)
  {
    bench::check(cudaMemcpy(d_keys_out, d_keys, n * sizeof(KeyT), cudaMemcpyDeviceToDevice), "copy of the keys");
  }
  else
  {
    bench::poison(d_keys_out, n);
  }
  if constexpr (SortT::PAIRS)
  {
    bench::poison(d_values_out, n);
  }
  std::size_t bytes = 0;
  bench::check(SortT::template run<LibraryT>(nullptr, bytes, d_keys, d_keys_out, d_values, d_values_out, n, 0),
               "size query");
  bench::check(
      SortT::template run<LibraryT>(bench::scratch(2, bytes), bytes, d_keys, d_keys_out, d_values, d_values_out, n, 0),
      "sort");
  bench::check(cudaDeviceSynchronize(), "sort");
  return {bench::download(d_keys_out, n), SortT::PAIRS ? bench::download(d_values_out, n) : std::vector<ValueT>{}};
}

//! Comparison of the values two sorts of pairs wrote with the same `keys`: SortPairsCopy need not be
//! stable, so the values of a run of equal keys may come in any order, but each run must hold the
//! same values. "" or the number of runs that differ and the first.
template <typename KeyT, typename ValueT>
std::string compare_values(const std::vector<KeyT>& keys, std::vector<ValueT> strata_values,
                           std::vector<ValueT> cub_values)
{
  std::size_t mismatches = 0;
  std::size_t first      = 0;
  for (std::size_t begin = 0, end = 0; begin < keys.size(); begin = end)
  {
    end = begin + 1;
    while (end < keys.size() && keys[end] == keys[begin])
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
  if (mismatches == 0)
  {
    return "";
  }
  return std::to_string(mismatches) + " runs of equal keys hold different values; first at " + std::to_string(first);
}

//! Times strata's (STRATA) or CUB's SortT of n = state.range(0) rotating keys (and values). strata's
//! row first checks, once per configuration, that both libraries write the same keys and the same
//! values for each key.
template <typename SortT, bool STRATA>
void merge_sort(benchmark::State& state, const std::string& configuration)
{
  using KeyT       = typename SortT::key_type;
  using ValueT     = typename SortT::value_type;
  using LibraryT   = std::conditional_t<STRATA, strata::DeviceMergeSort, cub::DeviceMergeSort>;
  const int n      = static_cast<int>(state.range(0));
  auto& keys       = SortT::keys(n);
  auto* values     = SortT::PAIRS ? &bench::shared_rotating_buffer<ValueT>(n) : nullptr;
  auto next_values = [values]() -> const ValueT* { return values ? values->next() : nullptr; };
  if constexpr (STRATA)
  {
    const std::string sized = configuration + "/" + std::to_string(n);
    if (bench::first_run(sized))
    {
      const KeyT* d_keys     = keys.next();
      const ValueT* d_values = next_values();
      const auto strata_out  = sort_once<SortT, strata::DeviceMergeSort>(n, d_keys, d_values);
      const auto cub_out     = sort_once<SortT, cub::DeviceMergeSort>(n, d_keys, d_values);
      std::string mismatch   = bench::compare_exact(strata_out.first, cub_out.first);
      if constexpr (SortT::PAIRS)
      {
        if (mismatch.empty())
        {
          mismatch = compare_values(cub_out.first, strata_out.second, cub_out.second);
        }
      }
      if (!bench::record(state, sized, mismatch))
      {
        return;
      }
    }
  }
  KeyT* d_keys_out     = static_cast<KeyT*>(bench::scratch(0, n * sizeof(KeyT)));
  ValueT* d_values_out = SortT::PAIRS ? static_cast<ValueT*>(bench::scratch(1, n * sizeof(ValueT))) : nullptr;
  std::size_t bytes    = 0;
  bench::check(
      SortT::template run<LibraryT>(nullptr, bytes, keys.next(), d_keys_out, next_values(), d_values_out, n, 0),
      "size query");
  void* d_temp = bench::scratch(2, bytes);
  auto launch  = [&](cudaStream_t stream)
  {
    const KeyT* d_keys_in = SortT::IN_PLACE ? nullptr : keys.next();
    bench::check(
        SortT::template run<LibraryT>(d_temp, bytes, d_keys_in, d_keys_out, next_values(), d_values_out, n, stream),
        "sort");
  };
  if constexpr (SortT::IN_PLACE)
  {
    bench::time_iterations(
        state, launch,
        [&](cudaStream_t stream)
        {
          bench::check(cudaMemcpyAsync(d_keys_out, keys.next(), n * sizeof(KeyT), cudaMemcpyDeviceToDevice, stream),
                       "copy of the keys");
        });
  }
  else
  {
    bench::time_iterations(state, launch);
  }
  bench::set_throughput(state, n, 2 * std::size_t(n) * (sizeof(KeyT) + (SortT::PAIRS ? sizeof(ValueT) : 0)));
  state.counters["temp_bytes"] = double(bytes);
}

//! Registers the row '<function>/<library>/<type>/<items>' (library strata or cub, in this run's mode,
//! bench::mode_name) of SortT at the given numbers of items, with manual time in microseconds.
template <typename SortT, bool STRATA>
void register_row(const std::string& function, const std::string& type, std::initializer_list<int> sizes)
{
  const std::string configuration = function + "/" + type;
  const std::string name          = bench::mode_name(function + (STRATA ? "/strata/" : "/cub/") + type);
  auto* row                       = benchmark::RegisterBenchmark(name.c_str(), [configuration](benchmark::State& state)
                                                                 { merge_sort<SortT, STRATA>(state, configuration); });
  for (int n : sizes)
  {
    row->Arg(n);
  }
  row->UseManualTime()->Unit(benchmark::kMicrosecond);
}

//! strata's and CUB's rows of SortT, which scripts/bench-summary and scripts/bench-report pair.
template <typename SortT>
bool register_rows(const std::string& function, const std::string& type, std::initializer_list<int> sizes)
{
  register_row<SortT, true>(function, type, sizes);
  register_row<SortT, false>(function, type, sizes);
  return true;
}

// Every row at the sizes of the summary in docs/performance.md (2^16, 2^20, 2^24, 2^28 items).
[[maybe_unused]] const bool registered =
    register_rows<sort_keys_copy<u32>>("DeviceMergeSort::SortKeysCopy", "u32",
                                       {1 << 16, 1 << 20, 1 << 24, 1 << 26, 1 << 28})
    && register_rows<sort_keys_copy<u64>>("DeviceMergeSort::SortKeysCopy", "u64", {1 << 16, 1 << 20, 1 << 24, 1 << 28})
    && register_rows<sort_pairs_copy<u32, u32>>("DeviceMergeSort::SortPairsCopy", "u32_u32",
                                                {1 << 16, 1 << 20, 1 << 24, 1 << 28})
    && register_rows<stable_sort_records_copy>("DeviceMergeSort::StableSortKeysCopy", "record",
                                               {1 << 16, 1 << 20, 1 << 24, 1 << 28})
    && register_rows<sort_keys_in_place<u32>>("DeviceMergeSort::SortKeys", "u32", {1 << 16, 1 << 20, 1 << 24, 1 << 28});
} // namespace

STRATA_BENCH_MAIN()

// DeviceSelect (If with 1%, 50% and 99% selected, Flagged at 50%, Unique, UniqueByKey) and
// DevicePartition (If two-way at 50%, If three-way at 1/3 each), strata and CUB side by side on
// the same device buffers, at 2^16, 2^20, 2^24 and 2^28 items of u32. The predicates compare
// uniform random words with a threshold t (item < t selects the fraction t / 2^32); flags are u8
// 0 or 1 from random bits; Unique and UniqueByKey read keys in runs of random values and random
// lengths 1 to 15 (mean 8), u32 values beside them. Inputs rotate through copies filling 256 MiB
// (the keys: windows of one 2^28-item buffer, as the scans by key read theirs), so that no run
// finds them in the 50 MB L2. Bytes count the items (and flags or values) read once, the selected
// items (a partition: every item) written once and the counts; selected items are counted at their
// expected number (an input's own count moves a row's bytes by about 0.1% at 2^16, one standard
// deviation, and far less above). The temp_bytes counter is each library's temporary storage.
// strata's row first checks, once per configuration, that both libraries select as many items and
// write the same ones: every valid output item, the rejected part of a partition too.
#include <strata/device/device_partition.cuh>
#include <strata/device/device_select.cuh>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include "bench_common.cuh"
#include "bench_run_keys.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using u8  = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

//! The algorithm a row measures.
enum class op
{
  select_if,
  select_flagged,
  partition_if,
  partition_three_way,
  unique,
  unique_by_key
};

//! Selects the items below a threshold: of uniform random words, the fraction threshold / 2^32.
struct less_than
{
  u32 threshold;
  __host__ __device__ bool operator()(const u32& item) const
  {
    return item < threshold;
  }
};

//! The threshold below which `num` / `den` of uniform random words lie.
constexpr u32 threshold_of(u64 num, u64 den)
{
  return u32((num << 32) / den);
}

//! Keeps the lowest bit of every byte: random bytes become flags 0 and 1, half of each.
__global__ void keep_low_bit(u8* bytes, std::size_t size)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < size;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    bytes[i] &= 1;
  }
}

//! u8 flags (0 or 1, random) for n items in copies filling 256 MiB; next() hands them out in turn.
class rotating_flags
{
public:
  explicit rotating_flags(std::size_t n)
      : n_(n)
      , copies_(n >= bench::rotation_bytes ? 1 : bench::rotation_bytes / n)
      , words_(n * copies_ / 4)
  {
    bench::fill_random(words_, 4093 + n);
    keep_low_bit<<<1024, 256>>>(reinterpret_cast<u8*>(words_.data()), n * copies_);
    bench::check(cudaGetLastError(), "keep_low_bit");
    bench::check(cudaDeviceSynchronize(), "keep_low_bit");
  }
  const u8* next()
  {
    return reinterpret_cast<const u8*>(words_.data()) + (turn_++ % copies_) * n_;
  }

private:
  std::size_t n_;
  std::size_t copies_;
  bench::device_buffer<u32> words_; // n * copies_ bytes (n is a multiple of 4)
  std::size_t turn_ = 0;
};

rotating_flags& flags_for(std::size_t n)
{
  static std::map<std::size_t, std::unique_ptr<rotating_flags>> made;
  auto& slot = made[n];
  if (!slot)
  {
    slot = std::make_unique<rotating_flags>(n);
  }
  return *slot;
}

//! The device counts the calls write (two for the three-way partition).
int* d_counts()
{
  static bench::device_buffer<int> counts(2);
  return counts.data();
}

//! The buffers of one call: a turn's inputs and the outputs (null where KIND has none).
struct io
{
  std::int64_t n;
  u32 threshold;       // select_if and partition_if
  const u32* in;       // items, or keys for unique and unique_by_key
  const u8* flags;     // select_flagged
  const u32* values;   // unique_by_key
  u32* out;            // selected items, keys, the partition, or the three-way partition's first part
  u32* second_out;     // unique_by_key's values, or the three-way partition's second part
  u32* unselected_out; // the three-way partition's rejected items
  int* num_selected;
};

//! The rotating inputs of KIND for n items and the outputs (bench::scratch slots 0 to 2), resolved
//! once so that next() does no more than step each input to its next turn.
template <op KIND>
class rotation
{
public:
  rotation(std::size_t n, u32 threshold)
      : n_(n)
      , items_(KIND == op::unique || KIND == op::unique_by_key ? nullptr : &bench::shared_rotating_buffer<u32>(n))
      , keys_(KIND == op::unique || KIND == op::unique_by_key ? &bench::keys_in_runs<2053>() : nullptr)
      , flags_(KIND == op::select_flagged ? &flags_for(n) : nullptr)
      , values_(KIND == op::unique_by_key ? &bench::shared_rotating_buffer<u32>(n) : nullptr)
  {
    const std::size_t bytes = n * sizeof(u32);
    call_.n                 = std::int64_t(n);
    call_.threshold         = threshold;
    call_.out               = static_cast<u32*>(bench::scratch(0, bytes));
    if constexpr (KIND == op::partition_three_way || KIND == op::unique_by_key)
    {
      call_.second_out = static_cast<u32*>(bench::scratch(1, bytes));
    }
    if constexpr (KIND == op::partition_three_way)
    {
      call_.unselected_out = static_cast<u32*>(bench::scratch(2, bytes));
    }
    call_.num_selected = d_counts();
  }
  const io& next()
  {
    call_.in = keys_ != nullptr ? keys_->next(n_) : items_->next();
    if (flags_ != nullptr)
    {
      call_.flags = flags_->next();
    }
    if (values_ != nullptr)
    {
      call_.values = values_->next();
    }
    return call_;
  }

private:
  std::size_t n_;
  bench::rotating_buffer<u32>* items_;
  bench::run_keys* keys_;
  rotating_flags* flags_;
  bench::rotating_buffer<u32>* values_;
  io call_{};
};

//! One two-phase call of KIND by strata (STRATA) or CUB; the signatures are the same.
template <bool STRATA, op KIND>
cudaError_t invoke(void* d_temp, std::size_t& temp_bytes, const io& a, cudaStream_t stream)
{
  using SelectT    = std::conditional_t<STRATA, strata::DeviceSelect, cub::DeviceSelect>;
  using PartitionT = std::conditional_t<STRATA, strata::DevicePartition, cub::DevicePartition>;
  if constexpr (KIND == op::select_if)
  {
    return SelectT::If(d_temp, temp_bytes, a.in, a.out, a.num_selected, a.n, less_than{a.threshold}, stream);
  }
  else if constexpr (KIND == op::select_flagged)
  {
    return SelectT::Flagged(d_temp, temp_bytes, a.in, a.flags, a.out, a.num_selected, a.n, stream);
  }
  else if constexpr (KIND == op::partition_if)
  {
    return PartitionT::If(d_temp, temp_bytes, a.in, a.out, a.num_selected, a.n, less_than{a.threshold}, stream);
  }
  else if constexpr (KIND == op::partition_three_way)
  {
    return PartitionT::If(d_temp, temp_bytes, a.in, a.out, a.second_out, a.unselected_out, a.num_selected, a.n,
                          less_than{threshold_of(1, 3)}, less_than{threshold_of(2, 3)}, stream);
  }
  else if constexpr (KIND == op::unique)
  {
    return SelectT::Unique(d_temp, temp_bytes, a.in, a.out, a.num_selected, a.n, stream);
  }
  else
  {
    return SelectT::UniqueByKey(d_temp, temp_bytes, a.in, a.values, a.out, a.second_out, a.num_selected, a.n, stream);
  }
}

//! Bytes one call reads and writes, with its selected items at their expected number.
template <op KIND>
std::size_t bytes_moved(std::size_t n, u32 threshold)
{
  constexpr std::size_t word = sizeof(u32);
  if constexpr (KIND == op::select_if)
  {
    return n * word + std::size_t((u64(n) * threshold) >> 32) * word + sizeof(int);
  }
  else if constexpr (KIND == op::select_flagged)
  {
    return n * (word + sizeof(u8)) + n / 2 * word + sizeof(int);
  }
  else if constexpr (KIND == op::partition_if)
  {
    return 2 * n * word + sizeof(int);
  }
  else if constexpr (KIND == op::partition_three_way)
  {
    return 2 * n * word + 2 * sizeof(int);
  }
  else if constexpr (KIND == op::unique)
  {
    return n * word + n / 8 * word + sizeof(int);
  }
  else
  {
    return 2 * n * word + n / 8 * 2 * word + sizeof(int);
  }
}

//! What one call wrote: its counts and every valid output item.
struct result
{
  std::vector<int> counts;
  std::vector<u32> out;
  std::vector<u32> second_out;
  std::vector<u32> unselected_out;
};

//! The first `count` items of d_items, count clamped to [0, n] so that a wrong count reads no
//! further than the output.
std::vector<u32> download_prefix(const u32* d_items, long long count, std::size_t n)
{
  const auto size = std::size_t(std::clamp<long long>(count, 0, static_cast<long long>(n)));
  return size == 0 ? std::vector<u32>() : bench::download(d_items, size);
}

//! One call of KIND by strata (STRATA) or CUB into poisoned outputs; returns what it wrote.
template <bool STRATA, op KIND>
result select_once(const io& a)
{
  const auto n = std::size_t(a.n);
  for (u32* d_out : {a.out, a.second_out, a.unselected_out})
  {
    if (d_out != nullptr)
    {
      bench::poison(d_out, n);
    }
  }
  bench::poison(a.num_selected, 2);
  std::size_t temp_bytes = 0;
  bench::check(invoke<STRATA, KIND>(nullptr, temp_bytes, a, cudaStream_t(0)), "size query");
  bench::check(invoke<STRATA, KIND>(bench::scratch(3, temp_bytes), temp_bytes, a, cudaStream_t(0)), "select");
  bench::check(cudaDeviceSynchronize(), "select");
  result r;
  r.counts = bench::download(a.num_selected, KIND == op::partition_three_way ? 2 : 1);
  if constexpr (KIND == op::partition_if)
  {
    r.out = bench::download(a.out, n); // the selected items first, then the rejected ones reversed
  }
  else if constexpr (KIND == op::partition_three_way)
  {
    r.out            = download_prefix(a.out, r.counts[0], n);
    r.second_out     = download_prefix(a.second_out, r.counts[1], n);
    r.unselected_out = download_prefix(a.unselected_out, static_cast<long long>(n) - r.counts[0] - r.counts[1], n);
  }
  else
  {
    r.out = download_prefix(a.out, r.counts[0], n);
    if constexpr (KIND == op::unique_by_key)
    {
      r.second_out = download_prefix(a.second_out, r.counts[0], n);
    }
  }
  return r;
}

//! "" when strata and CUB selected as many items and wrote the same ones, else the first difference.
std::string compare(const result& strata_out, const result& cub_out)
{
  for (std::size_t i = 0; i < cub_out.counts.size(); ++i)
  {
    if (strata_out.counts[i] != cub_out.counts[i])
    {
      return "selected counts" + (cub_out.counts.size() > 1 ? " [" + std::to_string(i) + "]" : std::string())
             + " differ: strata " + std::to_string(strata_out.counts[i]) + ", CUB " + std::to_string(cub_out.counts[i]);
    }
  }
  const std::pair<const char*, std::vector<u32> result::*> outputs[] = {
      {"output", &result::out}, {"second output", &result::second_out}, {"rejected output", &result::unselected_out}};
  for (const auto& [what, member] : outputs)
  {
    const std::string mismatch = bench::compare_exact(strata_out.*member, cub_out.*member);
    if (!mismatch.empty())
    {
      return std::string(what) + ": " + mismatch;
    }
  }
  return "";
}

//! Times strata's (STRATA) or CUB's call of KIND over rotating inputs of state.range(0) items.
//! strata's row first compares both libraries' outputs, once per configuration.
template <bool STRATA, op KIND>
void select_row(benchmark::State& state, const std::string& configuration, u32 threshold)
{
  const auto n = static_cast<std::size_t>(state.range(0));
  rotation<KIND> inputs(n, threshold);
  if constexpr (STRATA)
  {
    const std::string sized = configuration + "/" + std::to_string(n);
    if (bench::first_run(sized))
    {
      const io& a             = inputs.next();
      const result strata_out = select_once<true, KIND>(a);
      const result cub_out    = select_once<false, KIND>(a);
      if (!bench::record(state, sized, compare(strata_out, cub_out)))
      {
        return;
      }
    }
  }
  std::size_t temp_bytes = 0;
  bench::check(invoke<STRATA, KIND>(nullptr, temp_bytes, inputs.next(), cudaStream_t(0)), "size query");
  void* d_temp = bench::scratch(3, temp_bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(invoke<STRATA, KIND>(d_temp, temp_bytes, inputs.next(), stream), "select"); });
  bench::set_throughput(state, n, bytes_moved<KIND>(n, threshold));
  state.counters["temp_bytes"] = double(temp_bytes);
}

//! Registers '<algorithm>/<library>/<type>/<items>' for strata (STRATA) or CUB, with
//! '/<mean run length>' after the items when mean_run is not 0 (scripts/bench-report then names
//! the keys' runs).
template <bool STRATA, op KIND>
void register_row(const std::string& algorithm, const std::string& type, u32 threshold, int mean_run)
{
  const std::string configuration = algorithm + "/" + type;
  const std::string name          = bench::mode_name(algorithm + (STRATA ? "/strata/" : "/cub/") + type);
  auto* row = benchmark::RegisterBenchmark(name.c_str(), [configuration, threshold](benchmark::State& state)
                                           { select_row<STRATA, KIND>(state, configuration, threshold); });
  for (int n : {1 << 16, 1 << 20, 1 << 24, 1 << 28})
  {
    if (mean_run != 0)
    {
      row->Args({n, mean_run});
    }
    else
    {
      row->Arg(n);
    }
  }
  row->UseManualTime()->Unit(benchmark::kMicrosecond);
}

template <op KIND>
void register_both(const std::string& algorithm, const std::string& type, u32 threshold = 0, int mean_run = 0)
{
  register_row<true, KIND>(algorithm, type, threshold, mean_run);
  register_row<false, KIND>(algorithm, type, threshold, mean_run);
}

[[maybe_unused]] const bool registered = []
{
  register_both<op::select_if>("DeviceSelect::If(1%)", "u32", threshold_of(1, 100));
  register_both<op::select_if>("DeviceSelect::If(50%)", "u32", threshold_of(1, 2));
  register_both<op::select_if>("DeviceSelect::If(99%)", "u32", threshold_of(99, 100));
  register_both<op::select_flagged>("DeviceSelect::Flagged(50%)", "u32_u8");
  register_both<op::partition_if>("DevicePartition::If(50%)", "u32", threshold_of(1, 2));
  register_both<op::partition_three_way>("DevicePartition::If(three-way)", "u32");
  register_both<op::unique>("DeviceSelect::Unique", "u32", 0, 8);
  register_both<op::unique_by_key>("DeviceSelect::UniqueByKey", "u32_u32", 0, 8);
  return true;
}();
} // namespace

STRATA_BENCH_MAIN()

// DeviceReduce::ReduceByKey (u32 keys, u32 values, sum) and DeviceRunLengthEncode (Encode with
// int counts, NonTrivialRuns with int offsets and lengths) over u32 keys, strata and CUB side by
// side on the same device buffers, at 2^16, 2^20, 2^24 and 2^28 items. The keys come in runs of
// random values and random lengths 1 to 15 (mean 8), each run's value other than the one before;
// the values are random words. Inputs rotate through copies filling 256 MiB (the keys: windows of
// one 2^28-item buffer, as bench_device_select reads its runs), so that no run finds them in the
// 50 MB L2. Bytes count the keys (and values) read once, the runs written once at their expected
// number (n / 8 runs; 14 in 15 of them longer than one item) and the count of runs. Both libraries
// count the runs into an int; CUB takes an int num_items (its Encode and NonTrivialRuns take
// nothing else), strata its 64-bit one, which still runs with 32-bit counts below 2^32 items. The
// temp_bytes counter is each library's temporary storage. strata's row first checks, once per
// configuration, that both libraries find as many runs and write the same ones: every unique key,
// aggregate, count, offset and length.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_run_length_encode.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>

#include <cuda/std/functional>

#include "bench_common.cuh"
#include "bench_run_keys.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using u32 = std::uint32_t;

//! The algorithm a row measures.
enum class op
{
  reduce_by_key,
  encode,
  non_trivial_runs
};

//! The device count of runs every call writes.
int* d_num_runs()
{
  static bench::device_buffer<int> count(1);
  return count.data();
}

//! The buffers of one call: a turn's inputs and the outputs (null where KIND has none).
struct io
{
  std::int64_t n;
  const u32* keys;
  const u32* values;   // ReduceByKey
  u32* unique_out;     // ReduceByKey and Encode: each run's key
  u32* aggregates_out; // ReduceByKey: each run's sum of values
  int* offsets_out;    // NonTrivialRuns: each run's offset
  int* lengths_out;    // Encode's counts, NonTrivialRuns' lengths
  int* num_runs;
};

//! The rotating inputs of KIND for n items and the outputs (bench::scratch slots 0 and 1),
//! resolved once so that next() does no more than step each input to its next turn.
template <op KIND>
class rotation
{
public:
  explicit rotation(std::size_t n)
      : n_(n)
      , values_(KIND == op::reduce_by_key ? &bench::shared_rotating_buffer<u32>(n) : nullptr)
  {
    const std::size_t bytes = n * sizeof(u32);
    call_.n                 = std::int64_t(n);
    if constexpr (KIND == op::non_trivial_runs)
    {
      call_.offsets_out = static_cast<int*>(bench::scratch(0, bytes));
    }
    else
    {
      call_.unique_out = static_cast<u32*>(bench::scratch(0, bytes));
    }
    if constexpr (KIND == op::reduce_by_key)
    {
      call_.aggregates_out = static_cast<u32*>(bench::scratch(1, bytes));
    }
    else
    {
      call_.lengths_out = static_cast<int*>(bench::scratch(1, bytes));
    }
    call_.num_runs = d_num_runs();
  }
  const io& next()
  {
    call_.keys = bench::keys_in_runs<2069>().next(n_);
    if (values_ != nullptr)
    {
      call_.values = values_->next();
    }
    return call_;
  }

private:
  std::size_t n_;
  bench::rotating_buffer<u32>* values_;
  io call_{};
};

//! One two-phase call of KIND by strata (STRATA) or CUB. The signatures are the same but for
//! num_items: CUB's run-length encoding takes an int, and so does its ReduceByKey here.
template <bool STRATA, op KIND>
cudaError_t invoke(void* d_temp, std::size_t& temp_bytes, const io& a, cudaStream_t stream)
{
  using ReduceT = std::conditional_t<STRATA, strata::DeviceReduce, cub::DeviceReduce>;
  using EncodeT = std::conditional_t<STRATA, strata::DeviceRunLengthEncode, cub::DeviceRunLengthEncode>;
  using ItemsT  = std::conditional_t<STRATA, std::int64_t, int>;
  const auto n  = ItemsT(a.n);
  if constexpr (KIND == op::reduce_by_key)
  {
    return ReduceT::ReduceByKey(d_temp, temp_bytes, a.keys, a.unique_out, a.values, a.aggregates_out, a.num_runs,
                                cuda::std::plus<>{}, n, stream);
  }
  else if constexpr (KIND == op::encode)
  {
    return EncodeT::Encode(d_temp, temp_bytes, a.keys, a.unique_out, a.lengths_out, a.num_runs, n, stream);
  }
  else
  {
    return EncodeT::NonTrivialRuns(d_temp, temp_bytes, a.keys, a.offsets_out, a.lengths_out, a.num_runs, n, stream);
  }
}

//! Bytes one call reads and writes, with its runs at their expected number: n / 8 runs, of which
//! NonTrivialRuns writes the 14 in 15 longer than one item.
template <op KIND>
std::size_t bytes_moved(std::size_t n)
{
  constexpr std::size_t word = sizeof(u32);
  if constexpr (KIND == op::reduce_by_key)
  {
    return 2 * n * word + n / 8 * 2 * word + sizeof(int);
  }
  else if constexpr (KIND == op::encode)
  {
    return n * word + n / 8 * 2 * word + sizeof(int);
  }
  else
  {
    return n * word + n * 14 / 120 * 2 * word + sizeof(int);
  }
}

//! What one call wrote: the count of runs and every valid output item.
struct result
{
  int num_runs = 0;
  std::vector<u32> unique_out;
  std::vector<u32> aggregates_out;
  std::vector<int> offsets_out;
  std::vector<int> lengths_out;
};

//! The first `count` items of d_items, count clamped to [0, n] so that a wrong count reads no
//! further than the output.
template <typename T>
std::vector<T> download_prefix(const T* d_items, int count, std::size_t n)
{
  const auto size = std::size_t(std::clamp<long long>(count, 0, static_cast<long long>(n)));
  return size == 0 ? std::vector<T>() : bench::download(d_items, size);
}

//! One call of KIND by strata (STRATA) or CUB into poisoned outputs; returns what it wrote.
template <bool STRATA, op KIND>
result encode_once(const io& a)
{
  const auto n      = std::size_t(a.n);
  const auto poison = [n](auto* d_out)
  {
    if (d_out != nullptr)
    {
      bench::poison(d_out, n);
    }
  };
  poison(a.unique_out);
  poison(a.aggregates_out);
  poison(a.offsets_out);
  poison(a.lengths_out);
  bench::poison(a.num_runs, 1);
  std::size_t temp_bytes = 0;
  bench::check(invoke<STRATA, KIND>(nullptr, temp_bytes, a, cudaStream_t(0)), "size query");
  bench::check(invoke<STRATA, KIND>(bench::scratch(3, temp_bytes), temp_bytes, a, cudaStream_t(0)), "encode");
  bench::check(cudaDeviceSynchronize(), "encode");
  result r;
  r.num_runs = bench::download(a.num_runs, 1)[0];
  if constexpr (KIND == op::non_trivial_runs)
  {
    r.offsets_out = download_prefix(a.offsets_out, r.num_runs, n);
  }
  else
  {
    r.unique_out = download_prefix(a.unique_out, r.num_runs, n);
  }
  if constexpr (KIND == op::reduce_by_key)
  {
    r.aggregates_out = download_prefix(a.aggregates_out, r.num_runs, n);
  }
  else
  {
    r.lengths_out = download_prefix(a.lengths_out, r.num_runs, n);
  }
  return r;
}

//! "" when strata and CUB found as many runs and wrote the same ones, else the first difference.
std::string compare(const result& strata_out, const result& cub_out)
{
  if (strata_out.num_runs != cub_out.num_runs)
  {
    return "run counts differ: strata " + std::to_string(strata_out.num_runs) + ", CUB "
           + std::to_string(cub_out.num_runs);
  }
  const std::pair<const char*, std::string> outputs[] = {
      {"unique keys", bench::compare_exact(strata_out.unique_out, cub_out.unique_out)},
      {"aggregates", bench::compare_exact(strata_out.aggregates_out, cub_out.aggregates_out)},
      {"offsets", bench::compare_exact(strata_out.offsets_out, cub_out.offsets_out)},
      {"lengths", bench::compare_exact(strata_out.lengths_out, cub_out.lengths_out)}};
  for (const auto& [what, mismatch] : outputs)
  {
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
void encode_row(benchmark::State& state, const std::string& configuration)
{
  const auto n = static_cast<std::size_t>(state.range(0));
  rotation<KIND> inputs(n);
  if constexpr (STRATA)
  {
    const std::string sized = configuration + "/" + std::to_string(n);
    if (bench::first_run(sized))
    {
      const io& a             = inputs.next();
      const result strata_out = encode_once<true, KIND>(a);
      const result cub_out    = encode_once<false, KIND>(a);
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
                         { bench::check(invoke<STRATA, KIND>(d_temp, temp_bytes, inputs.next(), stream), "encode"); });
  bench::set_throughput(state, n, bytes_moved<KIND>(n));
  state.counters["temp_bytes"] = double(temp_bytes);
}

//! Registers '<algorithm>/<library>/<type>/<items>/8' for strata (STRATA) or CUB (the last part,
//! the keys' mean run length, has scripts/bench-report name the runs).
template <bool STRATA, op KIND>
void register_row(const std::string& algorithm, const std::string& type)
{
  const std::string configuration = algorithm + "/" + type;
  const std::string name          = bench::mode_name(algorithm + (STRATA ? "/strata/" : "/cub/") + type);

  auto* row = benchmark::RegisterBenchmark(name.c_str(), [configuration](benchmark::State& state)
                                           { encode_row<STRATA, KIND>(state, configuration); });
  for (int n : {1 << 16, 1 << 20, 1 << 24, 1 << 28})
  {
    row->Args({n, 8});
  }
  row->UseManualTime()->Unit(benchmark::kMicrosecond);
}

template <op KIND>
void register_both(const std::string& algorithm, const std::string& type)
{
  register_row<true, KIND>(algorithm, type);
  register_row<false, KIND>(algorithm, type);
}

[[maybe_unused]] const bool registered = []
{
  register_both<op::reduce_by_key>("DeviceReduce::ReduceByKey", "u32_u32");
  register_both<op::encode>("DeviceRunLengthEncode::Encode", "u32");
  register_both<op::non_trivial_runs>("DeviceRunLengthEncode::NonTrivialRuns", "u32");
  return true;
}();
} // namespace

STRATA_BENCH_MAIN()

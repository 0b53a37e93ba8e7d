// DeviceSegmentedReduce::Sum (u32, f32) and ArgMax (u32), strata and CUB side by side on the same
// device buffers, at 2^16, 2^20, 2^24 and 2^28 items, in segments of four shapes: 16 and 1024 equal
// segments (the last one longer by the remainder); random lengths 1 to 127 (mean 64: 2^22 segments
// at 2^28 items), adjusted by single items so that they add up to the items exactly; and power-law
// lengths min(65536, floor(1 / u^2)) for u uniform in (0, 1] (mean about 512), the last one cut at
// the end of the items. ArgMax runs the 1024 equal segments and the random lengths. Offsets are int
// (CUB's ArgMax counts in int), one array of segments + 1 passed as begin and begin + 1. Inputs
// rotate through copies filling 256 MiB, so that no run finds them in the 50 MB L2 (the offsets
// stay the same). Bytes count the items and the offsets read once and the results written once;
// items are input items. The segments and temp_bytes counters are the segment count and each
// library's temporary storage. strata's row first checks, once per configuration, that both
// libraries write the same result for every segment: exactly for u32 sums and ArgMax (position and
// value), within reassociation's rounding for f32 sums (bench::compare_sums over each segment's
// items).
#include <strata/device/device_segmented_reduce.cuh>

#include <cub/device/device_segmented_reduce.cuh>

#include "bench_common.cuh"

#include <algorithm>
#include <cmath>
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
using u64 = std::uint64_t;
using f32 = float;

//! The segments a row reduces.
enum class shape
{
  equal_16,     //!< 16 equal segments
  equal_1024,   //!< 1024 equal segments
  random_1_127, //!< random lengths 1 to 127, n / 64 segments
  power_law     //!< power-law lengths, mean about 512
};

const char* shape_name(shape s)
{
  switch (s)
  {
  case shape::equal_16:
    return "16_equal";
  case shape::equal_1024:
    return "1024_equal";
  case shape::random_1_127:
    return "random_1_127";
  default:
    return "power_law";
  }
}

//! The lengths of shape `s` over n items, from a fixed seed.
std::vector<int> lengths_of(shape s, std::size_t n)
{
  std::mt19937_64 engine(2111 + n);
  std::vector<int> lengths;
  if (s == shape::equal_16 || s == shape::equal_1024)
  {
    const std::size_t count = s == shape::equal_16 ? 16 : 1024;
    lengths.assign(count, int(n / count));
    lengths.back() += int(n % count);
  }
  else if (s == shape::random_1_127)
  {
    std::uniform_int_distribution<int> length(1, 127);
    lengths.resize(n / 64);
    std::generate(lengths.begin(), lengths.end(), [&] { return length(engine); });
    long long total = 0;
    for (const int l : lengths)
    {
      total += l;
    }
    // Single items on and off random segments until the lengths add up to n (a random walk of
    // about 36.7 sqrt(n / 64) steps; no length leaves [1, 127]).
    std::uniform_int_distribution<std::size_t> pick(0, lengths.size() - 1);
    while (total != static_cast<long long>(n))
    {
      int& l = lengths[pick(engine)];
      if (total < static_cast<long long>(n) && l < 127)
      {
        ++l;
        ++total;
      }
      else if (total > static_cast<long long>(n) && l > 1)
      {
        --l;
        --total;
      }
    }
  }
  else
  {
    std::size_t total = 0;
    while (total < n)
    {
      const double u    = double((engine() >> 11) + 1) / double(u64(1) << 53); // (0, 1]
      const auto length = std::size_t(std::min(65536.0, std::floor(1.0 / (u * u))));
      lengths.push_back(int(std::min(length, n - total)));
      total += std::size_t(lengths.back());
    }
  }
  return lengths;
}

//! The segments of one shape and size on the device: offsets[0..segments], offsets[segments] = n.
class segments
{
public:
  segments(shape s, std::size_t n)
      : lengths_(lengths_of(s, n))
      , offsets_(lengths_.size() + 1)
  {
    std::vector<int> offsets(lengths_.size() + 1, 0);
    for (std::size_t i = 0; i < lengths_.size(); ++i)
    {
      offsets[i + 1] = offsets[i] + lengths_[i];
    }
    bench::check(cudaMemcpy(offsets_.data(), offsets.data(), offsets_.bytes(), cudaMemcpyHostToDevice),
                 "offsets upload");
  }
  std::size_t count() const
  {
    return lengths_.size();
  }
  const std::vector<int>& lengths() const
  {
    return lengths_;
  }
  const int* begin() const
  {
    return offsets_.data();
  }
  const int* end() const
  {
    return offsets_.data() + 1;
  }

private:
  std::vector<int> lengths_;
  bench::device_buffer<int> offsets_;
};

const segments& segments_of(shape s, std::size_t n)
{
  static std::map<std::pair<shape, std::size_t>, std::unique_ptr<segments>> made;
  auto& slot = made[{s, n}];
  if (!slot)
  {
    slot = std::make_unique<segments>(s, n);
  }
  return *slot;
}

//! The algorithm a row measures.
enum class op
{
  sum,
  arg_max
};

//! What one segment's result is, as the rows download it: the sum, or the ArgMax pair (strata's
//! and CUB's KeyValuePair<int, u32> have this layout).
struct key_value
{
  int key;
  u32 value;
};
template <op KIND, typename T>
using result_t = std::conditional_t<KIND == op::sum, T, key_value>;

//! One two-phase call of KIND by strata (STRATA) or CUB over `items`; the signatures are the same.
template <bool STRATA, op KIND, typename T>
cudaError_t invoke(void* d_temp, std::size_t& temp_bytes, const T* items, void* d_out, const segments& segs,
                   cudaStream_t stream)
{
  using ReduceT = std::conditional_t<STRATA, strata::DeviceSegmentedReduce, cub::DeviceSegmentedReduce>;
  const auto n  = std::int64_t(segs.count());
  if constexpr (KIND == op::sum)
  {
    return ReduceT::Sum(d_temp, temp_bytes, items, static_cast<T*>(d_out), n, segs.begin(), segs.end(), stream);
  }
  else
  {
    using PairT = std::conditional_t<STRATA, strata::KeyValuePair<int, T>, cub::KeyValuePair<int, T>>;
    static_assert(sizeof(PairT) == sizeof(key_value));
    return ReduceT::ArgMax(d_temp, temp_bytes, items, static_cast<PairT*>(d_out), n, segs.begin(), segs.end(), stream);
  }
}

//! Bytes one call reads and writes: the items and the offsets read once, the results written once.
template <op KIND, typename T>
std::size_t bytes_moved(std::size_t n, std::size_t count)
{
  return n * sizeof(T) + (count + 1) * sizeof(int) + count * sizeof(result_t<KIND, T>);
}

//! One call of KIND by strata (STRATA) or CUB over `items` into a poisoned output; returns what it
//! wrote for every segment.
template <bool STRATA, op KIND, typename T>
std::vector<result_t<KIND, T>> reduce_once(const T* items, const segments& segs)
{
  using ResultT = result_t<KIND, T>;
  auto* d_out   = static_cast<ResultT*>(bench::scratch(0, segs.count() * sizeof(ResultT)));
  bench::poison(d_out, segs.count());
  std::size_t temp_bytes = 0;
  bench::check(invoke<STRATA, KIND>(nullptr, temp_bytes, items, d_out, segs, cudaStream_t(0)), "size query");
  bench::check(invoke<STRATA, KIND>(bench::scratch(3, temp_bytes), temp_bytes, items, d_out, segs, cudaStream_t(0)),
               "segmented reduce");
  bench::check(cudaDeviceSynchronize(), "segmented reduce");
  return bench::download(d_out, segs.count());
}

//! "" when strata and CUB wrote the same result for every segment of `items` (f32 sums: within
//! reassociation's rounding of each segment's items), else the first difference.
template <op KIND, typename T>
std::string compare(const T* items, std::size_t n, const segments& segs)
{
  const auto strata_out = reduce_once<true, KIND>(items, segs);
  const auto cub_out    = reduce_once<false, KIND>(items, segs);
  if constexpr (KIND == op::sum && std::is_floating_point_v<T>)
  {
    const std::vector<T> host = bench::download(items, n);
    std::vector<double> magnitude;
    std::vector<double> terms;
    std::size_t at = 0;
    for (const int length : segs.lengths())
    {
      double sum = 0;
      for (int i = 0; i < length; ++i)
      {
        sum += std::fabs(double(host[at + std::size_t(i)]));
      }
      at += std::size_t(length);
      magnitude.push_back(sum);
      terms.push_back(double(length));
    }
    return bench::compare_sums(strata_out, cub_out, magnitude, terms);
  }
  else
  {
    return bench::compare_exact(strata_out, cub_out);
  }
}

//! Times strata's (STRATA) or CUB's call of KIND over rotating inputs of state.range(0) items in
//! segments of shape `s`. strata's row first compares both libraries' outputs, once per
//! configuration.
template <bool STRATA, op KIND, typename T>
void segmented_row(benchmark::State& state, shape s, const std::string& configuration)
{
  const auto n         = static_cast<std::size_t>(state.range(0));
  auto& inputs         = bench::shared_rotating_buffer<T>(n);
  const segments& segs = segments_of(s, n);
  void* d_out          = bench::scratch(0, segs.count() * sizeof(result_t<KIND, T>));
  if constexpr (STRATA)
  {
    const std::string sized = configuration + "/" + std::to_string(n);
    if (bench::first_run(sized) && !bench::record(state, sized, compare<KIND>(inputs.next(), n, segs)))
    {
      return;
    }
  }
  std::size_t temp_bytes = 0;
  bench::check(invoke<STRATA, KIND>(nullptr, temp_bytes, inputs.next(), d_out, segs, cudaStream_t(0)), "size query");
  void* d_temp = bench::scratch(3, temp_bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream) {
                           bench::check(invoke<STRATA, KIND>(d_temp, temp_bytes, inputs.next(), d_out, segs, stream),
                                        "segmented reduce");
                         });
  bench::set_throughput(state, n, bytes_moved<KIND, T>(n, segs.count()));
  state.counters["segments"]   = double(segs.count());
  state.counters["temp_bytes"] = double(temp_bytes);
}

//! Registers '<algorithm>/<library>/<type>_<shape>/<items>' for strata (STRATA) or CUB.
template <bool STRATA, op KIND, typename T>
void register_row(const std::string& algorithm, const std::string& type, shape s)
{
  const std::string configuration = algorithm + "/" + type + "_" + shape_name(s);
  const std::string name = bench::mode_name(algorithm + (STRATA ? "/strata/" : "/cub/") + type + "_" + shape_name(s));
  auto* row              = benchmark::RegisterBenchmark(name.c_str(), [s, configuration](benchmark::State& state)
                                                        { segmented_row<STRATA, KIND, T>(state, s, configuration); });
  for (const int n : {1 << 16, 1 << 20, 1 << 24, 1 << 28})
  {
    row->Arg(n);
  }
  row->UseManualTime()->Unit(benchmark::kMicrosecond);
}

template <op KIND, typename T>
void register_both(const std::string& algorithm, const std::string& type, shape s)
{
  register_row<true, KIND, T>(algorithm, type, s);
  register_row<false, KIND, T>(algorithm, type, s);
}

[[maybe_unused]] const bool registered = []
{
  for (const shape s : {shape::equal_16, shape::equal_1024, shape::random_1_127, shape::power_law})
  {
    register_both<op::sum, u32>("DeviceSegmentedReduce::Sum", "u32", s);
    register_both<op::sum, f32>("DeviceSegmentedReduce::Sum", "f32", s);
  }
  for (const shape s : {shape::equal_1024, shape::random_1_127})
  {
    register_both<op::arg_max, u32>("DeviceSegmentedReduce::ArgMax", "u32", s);
  }
  return true;
}();
} // namespace

STRATA_BENCH_MAIN()

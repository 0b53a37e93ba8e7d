// DeviceFor (ForEach, ForEachCopy, Bulk), strata and CUB side by side on the same device buffers,
// at 2^16, 2^20, 2^24 and 2^28 items of u32, f32 and u64. ForEach updates every item in place
// (bytes: read + write); ForEachCopy hands every item to an operator that only compares it
// (bytes: read); Bulk writes one item per index (bytes: write). Inputs smaller than 256 MiB
// rotate through copies so no run finds them in L2.
#include <strata/device/device_for.cuh>

#include <cub/device/device_for.cuh>

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

namespace
{
constexpr std::size_t rotation_bytes = std::size_t(256) << 20;

//! `copies` random copies of an n-item buffer side by side; next() hands them out in turn.
template <typename T>
class rotating_buffer
{
public:
  explicit rotating_buffer(std::size_t n)
      : n_(n)
      , copies_(n * sizeof(T) >= rotation_bytes ? 1 : rotation_bytes / (n * sizeof(T)))
      , buffer_(n * copies_)
  {
    bench::fill_random(buffer_, 2031 + n);
  }
  T* next()
  {
    T* at = buffer_.data() + (turn_ % copies_) * n_;
    ++turn_;
    return at;
  }

private:
  std::size_t n_;
  std::size_t copies_;
  bench::device_buffer<T> buffer_;
  std::size_t turn_ = 0;
};

template <typename T>
rotating_buffer<T>& buffer(std::size_t n)
{
  static std::map<std::size_t, std::unique_ptr<rotating_buffer<T>>> buffers;
  auto& slot = buffers[n];
  if (!slot)
  {
    slot = std::make_unique<rotating_buffer<T>>(n);
  }
  return *slot;
}

struct affine_in_place
{
  template <typename T>
  __device__ void operator()(T& x) const
  {
    x = x * T(3) + T(1);
  }
};

//! Reads every item; writes only if one equals a value random data practically never holds.
template <typename T>
struct find_magic
{
  int* found;
  __device__ void operator()(T x) const
  {
    if (x == T(12345))
    {
      *found = 1;
    }
  }
};

template <typename T>
struct write_index
{
  T* out;
  template <typename I>
  __device__ void operator()(I i) const
  {
    out[i] = T(i);
  }
};

int* found_flag()
{
  static bench::device_buffer<int> flag(1);
  return flag.data();
}

enum class kind
{
  for_each,
  for_each_copy,
  bulk
};

template <typename T, kind KIND, bool STRATA>
void run(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& data          = buffer<T>(n);
  bench::time_iterations(state, [&](cudaStream_t stream) {
    T* d         = data.next();
    const auto m = static_cast<std::int64_t>(n);
    cudaError_t error;
    if constexpr (KIND == kind::for_each)
    {
      error = STRATA ? strata::DeviceFor::ForEachN(d, m, affine_in_place{}, stream)
                     : cub::DeviceFor::ForEachN(d, m, affine_in_place{}, stream);
    }
    else if constexpr (KIND == kind::for_each_copy)
    {
      error = STRATA ? strata::DeviceFor::ForEachCopyN(d, m, find_magic<T>{found_flag()}, stream)
                     : cub::DeviceFor::ForEachCopyN(d, m, find_magic<T>{found_flag()}, stream);
    }
    else
    {
      error = STRATA ? strata::DeviceFor::Bulk(m, write_index<T>{d}, stream)
                     : cub::DeviceFor::Bulk(m, write_index<T>{d}, stream);
    }
    bench::check(error, "DeviceFor");
  });
  const std::size_t bytes = KIND == kind::for_each ? 2 * n * sizeof(T) : n * sizeof(T);
  bench::set_throughput(state, n, bytes);
}
} // namespace

#define STRATA_BENCH_FOR(KIND, NAME, T)                                                                                \
  BENCHMARK((run<T, kind::KIND, true>))                                                                                \
      ->Name("DeviceFor::" NAME "/strata/" #T)                                                                         \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 28)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond);                                                                                 \
  BENCHMARK((run<T, kind::KIND, false>))                                                                               \
      ->Name("DeviceFor::" NAME "/cub/" #T)                                                                            \
      ->RangeMultiplier(16)                                                                                            \
      ->Range(1 << 16, 1 << 28)                                                                                        \
      ->UseManualTime()                                                                                                \
      ->Unit(benchmark::kMicrosecond)

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using f32 = float;

STRATA_BENCH_FOR(for_each, "ForEachN", u32);
STRATA_BENCH_FOR(for_each, "ForEachN", f32);
STRATA_BENCH_FOR(for_each, "ForEachN", u64);
STRATA_BENCH_FOR(for_each_copy, "ForEachCopyN", u32);
STRATA_BENCH_FOR(for_each_copy, "ForEachCopyN", f32);
STRATA_BENCH_FOR(for_each_copy, "ForEachCopyN", u64);
STRATA_BENCH_FOR(bulk, "Bulk", u32);
STRATA_BENCH_FOR(bulk, "Bulk", u64);

BENCHMARK_MAIN();

// DeviceFor (ForEachN, ForEach, ForEachCopyN, ForEachCopy, Bulk), strata and CUB side by side on
// the same device buffers, at 2^16, 2^20, 2^24 and 2^28 items of u32, f32 and u64, with
// cudaMemcpy device to device as the bandwidth ceiling. Every run takes the next copy of a
// rotating buffer (bench_common.cuh), so none finds its data in L2; strata's rows first compare
// their results with CUB's on one copy of the data (ForEachCopy*: with an operator that counts
// the items it sees and sums a hash of them, which must match CUB's and count every item once).
// Bytes: ForEach* update every item in place (read + write); ForEachCopy* hand every item to an
// operator that only compares it (read); Bulk writes one item per index (write).
#include <strata/device/device_for.cuh>

#include <cub/device/device_for.cuh>

#include "bench_common.cuh"
#include "bench_for_operators.cuh"

#include <cuda/std/bit>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using bench::affine_in_place;
using bench::find_magic;
using bench::found_flag;
using bench::write_index;

//! The check of ForEachCopy*: counts the items it is handed and adds up a hash of their bits, in
//! 32 pairs of counters (one per lane of a warp, so that the atomics of a warp go to different
//! words).
template <typename T>
struct count_items
{
  unsigned long long* counts; // 32 item counts, then 32 sums of hashes

  __device__ void operator()(T x) const
  {
    using BitsT     = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    const auto bits = cuda::std::bit_cast<BitsT>(x);
    // Fibonacci hashing (the 64-bit golden ratio) and the high bits: an item dropped or handed
    // over twice changes the count, an item read from the wrong place the sum (almost surely).
    const unsigned long long hash =
        (static_cast<unsigned long long>(bits) * 0x9E3779B97F4A7C15ull) ^ (static_cast<unsigned long long>(bits) >> 29);
    const unsigned int lane = threadIdx.x % 32;
    atomicAdd(counts + lane, 1ull);
    atomicAdd(counts + 32 + lane, hash);
  }
};

//! The 64 counters of count_items.
inline unsigned long long* item_counts()
{
  static bench::device_buffer<unsigned long long> counts(64);
  return counts.data();
}

enum class kind
{
  for_each_n,
  for_each,
  for_each_copy_n,
  for_each_copy,
  bulk
};

//! One call of KIND over the n items at d, by strata (STRATA) or CUB. The item counts are
//! int64_t, as a user with large data passes them; ForEach and ForEachCopy take iterators.
//! ForEachCopy* hand the items to copy_op (the timed runs: find_magic).
template <kind KIND, bool STRATA, typename T, typename CopyOpT = find_magic<T>>
cudaError_t call(T* d, std::int64_t n, cudaStream_t stream, CopyOpT copy_op = CopyOpT{found_flag()})
{
  if constexpr (KIND == kind::for_each_n)
  {
    return STRATA ? strata::DeviceFor::ForEachN(d, n, affine_in_place{}, stream)
                  : cub::DeviceFor::ForEachN(d, n, affine_in_place{}, stream);
  }
  else if constexpr (KIND == kind::for_each)
  {
    return STRATA ? strata::DeviceFor::ForEach(d, d + n, affine_in_place{}, stream)
                  : cub::DeviceFor::ForEach(d, d + n, affine_in_place{}, stream);
  }
  else if constexpr (KIND == kind::for_each_copy_n)
  {
    return STRATA ? strata::DeviceFor::ForEachCopyN(d, n, copy_op, stream)
                  : cub::DeviceFor::ForEachCopyN(d, n, copy_op, stream);
  }
  else if constexpr (KIND == kind::for_each_copy)
  {
    return STRATA ? strata::DeviceFor::ForEachCopy(d, d + n, copy_op, stream)
                  : cub::DeviceFor::ForEachCopy(d, d + n, copy_op, stream);
  }
  else
  {
    return STRATA ? strata::DeviceFor::Bulk(n, write_index<T>{d}, stream)
                  : cub::DeviceFor::Bulk(n, write_index<T>{d}, stream);
  }
}

constexpr bool reads_only(kind k)
{
  return k == kind::for_each_copy_n || k == kind::for_each_copy;
}

//! One call of KIND by strata (STRATA) or CUB on a fresh copy of the n items at d_source (Bulk: on
//! poisoned items), and what it produced: the items, or for ForEachCopy* the item count and the
//! sum of the items' hashes (count_items).
template <kind KIND, bool STRATA, typename T>
auto for_once(const T* d_source, std::size_t n)
{
  static bench::device_buffer<T> work(std::size_t(1) << 28);
  if constexpr (KIND == kind::bulk)
  {
    bench::poison(work.data(), n);
  }
  else
  {
    bench::check(cudaMemcpy(work.data(), d_source, n * sizeof(T), cudaMemcpyDeviceToDevice), "copy");
  }
  if constexpr (reads_only(KIND))
  {
    bench::check(cudaMemset(item_counts(), 0, 64 * sizeof(unsigned long long)), "item counts");
    bench::check(
        call<KIND, STRATA>(work.data(), static_cast<std::int64_t>(n), cudaStream_t(0), count_items<T>{item_counts()}),
        "DeviceFor");
    bench::check(cudaDeviceSynchronize(), "DeviceFor");
    const std::vector<unsigned long long> counts = bench::download(item_counts(), 64);
    std::vector<unsigned long long> total(2, 0);
    for (int lane = 0; lane < 32; ++lane)
    {
      total[0] += counts[lane];
      total[1] += counts[32 + lane];
    }
    return total;
  }
  else
  {
    bench::check(call<KIND, STRATA>(work.data(), static_cast<std::int64_t>(n), cudaStream_t(0)), "DeviceFor");
    bench::check(cudaDeviceSynchronize(), "DeviceFor");
    return bench::download(work.data(), n);
  }
}

template <typename T, kind KIND, bool STRATA>
void run(benchmark::State& state)
{
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto& data          = bench::shared_rotating_buffer<T>(n);
  if constexpr (STRATA)
  {
    // strata's row first compares what it does with CUB's, once per configuration.
    const std::string configuration = "DeviceFor/" + std::to_string(int(KIND)) + "/"
                                      + (std::is_floating_point_v<T> ? "f" : "u") + std::to_string(8 * sizeof(T)) + "/"
                                      + std::to_string(n);
    if (bench::first_run(configuration))
    {
      const T* d_source    = data.next();
      const auto by_strata = for_once<KIND, true>(d_source, n);
      const auto by_cub    = for_once<KIND, false>(d_source, n);
      std::string mismatch = bench::compare_exact(by_strata, by_cub);
      if constexpr (reads_only(KIND))
      {
        // Both must have handed every item to the operator once.
        if (mismatch.empty() && by_strata[0] != n)
        {
          mismatch = "the operator saw " + std::to_string(by_strata[0]) + " items, not " + std::to_string(n);
        }
      }
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  bench::time_iterations(
      state, [&](cudaStream_t stream)
      { bench::check(call<KIND, STRATA>(data.next(), static_cast<std::int64_t>(n), stream), "DeviceFor"); });
  const bool read_write   = KIND == kind::for_each_n || KIND == kind::for_each;
  const std::size_t bytes = (read_write ? 2 : 1) * n * sizeof(T);
  bench::set_throughput(state, n, bytes);
}

} // namespace

// Rows '<algorithm>/strata/<type>/<items>' and '<algorithm>/cub/<type>/<items>', which
// scripts/bench-summary and scripts/bench-report pair into a strata/CUB ratio.
#define STRATA_BENCH_FOR(KIND, NAME, T)                                                                                \
  STRATA_BENCH_REGISTER((run<T, kind::KIND, true>), "DeviceFor::" NAME "/strata/" #T);                                 \
  STRATA_BENCH_REGISTER((run<T, kind::KIND, false>), "DeviceFor::" NAME "/cub/" #T)

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using f32 = float;

STRATA_BENCH_FOR(for_each_n, "ForEachN", u32);
STRATA_BENCH_FOR(for_each_n, "ForEachN", f32);
STRATA_BENCH_FOR(for_each_n, "ForEachN", u64);
STRATA_BENCH_FOR(for_each, "ForEach", u32);
STRATA_BENCH_FOR(for_each, "ForEach", f32);
STRATA_BENCH_FOR(for_each, "ForEach", u64);
STRATA_BENCH_FOR(for_each_copy_n, "ForEachCopyN", u32);
STRATA_BENCH_FOR(for_each_copy_n, "ForEachCopyN", f32);
STRATA_BENCH_FOR(for_each_copy_n, "ForEachCopyN", u64);
STRATA_BENCH_FOR(for_each_copy, "ForEachCopy", u32);
STRATA_BENCH_FOR(for_each_copy, "ForEachCopy", f32);
STRATA_BENCH_FOR(for_each_copy, "ForEachCopy", u64);
STRATA_BENCH_FOR(bulk, "Bulk", u32);
STRATA_BENCH_FOR(bulk, "Bulk", f32);
STRATA_BENCH_FOR(bulk, "Bulk", u64);
STRATA_BENCH_REGISTER(bench::memcpy_d2d<u32>, "cudaMemcpy/u32");

STRATA_BENCH_MAIN()

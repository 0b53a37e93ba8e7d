// Tests of strata/device/device_reduce.cuh, part 3: how the calls behave rather than what they
// compute: the size query touches no device data and launches nothing (it works on pointers that
// must never be dereferenced, inside a stream capture that must stay empty); bad arguments give
// cudaErrorInvalidValue and leave the input, the outputs and the temporary storage as they were;
// what one block reduces asks for one byte of temporary storage and runs with any size (as CUB's);
// the second phase works inside a CUDA graph capture and on two streams at once; more than 2^31
// items reduce correctly ([slow]: 2 GiB buffers).
#include <strata/device/device_reduce.cuh>

#include "common/behaviour.cuh"
#include "common/streams.cuh"
#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <tuple>
#include <vector>

namespace
{
//! What a refused DeviceReduce call must leave as it was: the input (random), the outputs (a
//! value and an ArgMin / ArgMax index) and the temporary storage (all poisoned).
struct reduce_buffers
{
  strata_test::device_buffer<std::int32_t> in;
  strata_test::device_buffer<std::int32_t> out{1};
  strata_test::device_buffer<std::int64_t> index{1};
  strata_test::device_buffer<unsigned char> temp;

  reduce_buffers(std::size_t n, std::size_t temp_bytes, std::uint64_t seed)
      : in(strata_test::random_vector<std::int32_t>(n, seed))
      , temp(temp_bytes)
  {
    out.poison();
    index.poison();
    temp.poison();
  }
  auto state() const
  {
    return std::make_tuple(in.download(), out.download(), index.download(), temp.download());
  }
};
} // namespace

TEST_CASE("DeviceReduce size queries touch no device data and launch nothing", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  // Pointers that fault if dereferenced.
  auto* bad_in  = reinterpret_cast<const std::int32_t*>(std::uintptr_t(16));
  auto* bad_out = reinterpret_cast<std::int32_t*>(std::uintptr_t(32));
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (std::int64_t n : {std::int64_t(0), std::int64_t(10), std::int64_t(1) << 24})
        {
          std::size_t bytes = 0;
          CHECK(strata::DeviceReduce::Sum(nullptr, bytes, bad_in, bad_out, n, stream) == cudaSuccess);
          CHECK(bytes >= 1);
          bytes = 0;
          CHECK(strata::DeviceReduce::Max(nullptr, bytes, bad_in, bad_out, n, stream) == cudaSuccess);
          CHECK(bytes >= 1);
        }
      });
}

TEST_CASE("DeviceReduce rejects bad arguments with cudaErrorInvalidValue and writes nothing", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(105);
  INFO("seed " << seed);
  // More items than one block reduces: the run needs temporary storage for its partials.
  const int n            = 100000;
  auto* const null_in    = static_cast<std::int32_t*>(nullptr);
  auto* const null_out   = static_cast<std::int32_t*>(nullptr);
  auto* const null_index = static_cast<std::int64_t*>(nullptr);
  std::size_t bytes      = 0;
  STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, bytes, null_in, null_out, n));
  std::size_t arg_bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceReduce::ArgMax(nullptr, arg_bytes, null_in, null_out, null_index, n));
  REQUIRE(bytes > 1);
  REQUIRE(arg_bytes > 1);
  const std::size_t enough = std::max(bytes, arg_bytes);
  const reduce_buffers buffers(std::size_t(n), enough, seed);
  std::int32_t* const in    = buffers.in.data();
  std::int32_t* const out   = buffers.out.data();
  std::int64_t* const index = buffers.index.data();
  void* const temp          = buffers.temp.data();
  using strata_test::check_rejected;
  {
    INFO("too little temporary storage");
    std::size_t too_few = bytes - 1;
    check_rejected(buffers, [&] { return strata::DeviceReduce::Sum(temp, too_few, in, out, n); });
    std::size_t too_few_arg = arg_bytes - 1;
    check_rejected(buffers, [&] { return strata::DeviceReduce::ArgMax(temp, too_few_arg, in, out, index, n); });
  }
  {
    INFO("a null output, with and without items");
    std::size_t run_bytes = enough;
    check_rejected(buffers, [&] { return strata::DeviceReduce::Sum(temp, run_bytes, in, null_out, n); });
    check_rejected(buffers, [&] { return strata::DeviceReduce::Sum(temp, run_bytes, in, null_out, 0); });
    check_rejected(buffers, [&] { return strata::DeviceReduce::ArgMax(temp, run_bytes, in, null_out, index, n); });
    check_rejected(buffers, [&] { return strata::DeviceReduce::ArgMax(temp, run_bytes, in, out, null_index, n); });
  }
  {
    INFO("a null input with items");
    std::size_t run_bytes = enough;
    check_rejected(buffers, [&] { return strata::DeviceReduce::Sum(temp, run_bytes, null_in, out, n); });
    check_rejected(buffers, [&] { return strata::DeviceReduce::Min(temp, run_bytes, null_in, out, std::int64_t(n)); });
    check_rejected(buffers, [&] { return strata::DeviceReduce::ArgMax(temp, run_bytes, null_in, out, index, n); });
  }
  {
    INFO("a negative item count, in both phases");
    std::size_t query = 0;
    check_rejected(buffers, [&] { return strata::DeviceReduce::Sum(nullptr, query, in, out, -5); });
    std::size_t run_bytes = enough;
    check_rejected(buffers, [&] { return strata::DeviceReduce::Min(temp, run_bytes, in, out, std::int64_t(-1)); });
    check_rejected(buffers, [&] { return strata::DeviceReduce::ArgMax(temp, run_bytes, in, out, index, -1); });
  }
}

TEST_CASE("DeviceReduce needs no temporary storage for what one block reduces: one byte, any size accepted, a null "
          "input without items",
          "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(107);
  INFO("seed " << seed);
  // The largest input one block reduces on sm_90 (Sum of int32: its accumulator is int).
  const int single_block = strata::detail::reduce::policy_hub<int, std::uint32_t, cuda::std::plus<>,
                                                              std::int32_t>::Policy900::SINGLE_BLOCK_MAX_ITEMS;
  const std::vector<std::int32_t> in =
      strata_test::random_vector<std::int32_t>(std::size_t(single_block) + 1, seed, -1000.0, 1000.0);
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int32_t> d_out(1);
  // A buffer of its own for the runs: nothing may be written to it.
  strata_test::device_buffer<unsigned char> d_temp(64);
  d_temp.poison();
  const std::vector<unsigned char> poisoned = d_temp.download();
  for (int n : {0, 1, 1000, single_block})
  {
    INFO("num_items " << n);
    std::size_t bytes = 12345; // the size query overwrites whatever it holds
    STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), n));
    CHECK(bytes == 1); // as CUB asks for a single tile
    for (std::size_t run_bytes : {std::size_t(1), std::size_t(0)})
    {
      INFO("temp_storage_bytes " << run_bytes);
      d_out.poison();
      STRATA_TEST_CUDA(strata::DeviceReduce::Sum(d_temp.data(), run_bytes, d_in.data(), d_out.data(), n));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      CHECK(d_out.download()[0] == std::accumulate(in.begin(), in.begin() + n, std::int32_t(0)));
    }
  }
  // No items: the input is never read, so it may be null (as in CUB); the output gets 0.
  d_out.poison();
  std::size_t no_bytes = 0;
  STRATA_TEST_CUDA(
      strata::DeviceReduce::Sum(d_temp.data(), no_bytes, static_cast<std::int32_t*>(nullptr), d_out.data(), 0));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_out.download()[0] == 0);
  CHECK(d_temp.download() == poisoned);
  // One item more takes two passes, and temporary storage for the partials.
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), single_block + 1));
  CHECK(bytes > 1);
}

TEST_CASE("DeviceReduce runs inside a CUDA graph and on two streams at once", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(103);
  INFO("seed " << seed);
  const std::size_t n               = 3000017;
  const std::vector<std::int64_t> a = strata_test::random_vector<std::int64_t>(n, seed, -1000.0, 1000.0);
  const std::vector<std::int64_t> b = strata_test::random_vector<std::int64_t>(n, seed + 1, -1000.0, 1000.0);
  const std::int64_t expected_a     = std::accumulate(a.begin(), a.end(), std::int64_t(0));
  const std::int64_t expected_b     = std::accumulate(b.begin(), b.end(), std::int64_t(0));
  strata_test::device_buffer<std::int64_t> d_a(a);
  strata_test::device_buffer<std::int64_t> d_b(b);
  strata_test::device_buffer<std::int64_t> d_out(2);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, bytes, d_a.data(), d_out.data(), n));
  strata_test::device_buffer<unsigned char> d_temp_a(bytes);
  d_temp_a.poison();
  strata_test::device_buffer<unsigned char> d_temp_b(bytes);
  d_temp_b.poison();
  const strata_test::stream_pair streams;

  SECTION("graph capture and replay")
  {
    strata_test::check_graph_replay(
        streams[0],
        [&](cudaStream_t stream)
        { return strata::DeviceReduce::Sum(d_temp_a.data(), bytes, d_a.data(), d_out.data(), n, stream); },
        [&] { d_out.poison(); }, [&] { CHECK(d_out.download()[0] == expected_a); });
  }
  SECTION("two streams")
  {
    d_out.poison();
    strata_test::run_on_two_streams(
        streams,
        [&](cudaStream_t stream)
        { return strata::DeviceReduce::Sum(d_temp_a.data(), bytes, d_a.data(), d_out.data(), n, stream); },
        [&](cudaStream_t stream)
        { return strata::DeviceReduce::Sum(d_temp_b.data(), bytes, d_b.data(), d_out.data() + 1, n, stream); });
    const std::vector<std::int64_t> out = d_out.download();
    CHECK(out[0] == expected_a);
    CHECK(out[1] == expected_b);
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::Sum and Max over more than 2^31 items", "[device][reduce][slow]", std::int8_t,
                   std::uint8_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                = TestType;
  const std::int64_t n   = (std::int64_t(1) << 31) + 1000;
  const std::int64_t top = n - 500; // the one largest item, past 2^31
  strata_test::device_buffer<T> d_in(static_cast<std::size_t>(n));
  STRATA_TEST_CUDA(cudaMemset(d_in.data(), 3, static_cast<std::size_t>(n)));
  const T peak = T(100);
  STRATA_TEST_CUDA(cudaMemcpy(d_in.data() + top, &peak, 1, cudaMemcpyHostToDevice));

  const std::int64_t sum = strata_test::run_reduce<std::int64_t>(
      [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out)
      { return strata::DeviceReduce::Sum(d_temp, bytes, d_in.data(), d_out, n); });
  CHECK(sum == 3 * (n - 1) + 100);
  const T max = strata_test::run_reduce<T>(
      [&](void* d_temp, std::size_t& bytes, T* d_out)
      { return strata::DeviceReduce::Max(d_temp, bytes, d_in.data(), d_out, static_cast<std::size_t>(n)); });
  CHECK(int(max) == 100);
  // The first maximum's index needs 64 bits.
  strata_test::device_buffer<T> d_value(1);
  strata_test::device_buffer<std::int64_t> d_index(1);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceReduce::ArgMax(nullptr, bytes, d_in.data(), d_value.data(), d_index.data(), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(strata::DeviceReduce::ArgMax(d_temp.data(), bytes, d_in.data(), d_value.data(), d_index.data(), n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_index.download()[0] == top);
}

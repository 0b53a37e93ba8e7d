// Tests of strata/device/device_reduce.cuh, part 3: how the calls behave rather than what they
// compute: the size query touches no device data and launches nothing (it works on pointers that
// must never be dereferenced, inside a stream capture that must stay empty); bad arguments give
// cudaErrorInvalidValue; the second phase works inside a CUDA graph capture and on two streams at
// once; more than 2^31 items reduce correctly ([slow]: 2 GiB buffers).
#include <strata/device/device_reduce.cuh>

#include "common/streams.cuh"
#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <cstdint>
#include <numeric>
#include <vector>

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

TEST_CASE("DeviceReduce rejects bad arguments with cudaErrorInvalidValue", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::vector<std::int32_t> in(100000, 3);
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int32_t> d_out(1);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), 100000));
  strata_test::device_buffer<unsigned char> d_temp(bytes);

  SECTION("too little temporary storage")
  {
    std::size_t too_few = bytes - 1;
    CHECK(strata::DeviceReduce::Sum(d_temp.data(), too_few, d_in.data(), d_out.data(), 100000)
          == cudaErrorInvalidValue);
  }
  SECTION("a null output")
  {
    CHECK(strata::DeviceReduce::Sum(d_temp.data(), bytes, d_in.data(), static_cast<std::int32_t*>(nullptr), 100000)
          == cudaErrorInvalidValue);
  }
  SECTION("a null input with items")
  {
    CHECK(
        strata::DeviceReduce::Sum(d_temp.data(), bytes, static_cast<const std::int32_t*>(nullptr), d_out.data(), 100000)
        == cudaErrorInvalidValue);
  }
  SECTION("a negative item count")
  {
    std::size_t query = 0;
    CHECK(strata::DeviceReduce::Sum(nullptr, query, d_in.data(), d_out.data(), -5) == cudaErrorInvalidValue);
    CHECK(strata::DeviceReduce::Min(d_temp.data(), bytes, d_in.data(), d_out.data(), std::int64_t(-1))
          == cudaErrorInvalidValue);
  }
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
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
  strata_test::device_buffer<unsigned char> d_temp_b(bytes);
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
  STRATA_TEST_CUDA(strata::DeviceReduce::ArgMax(d_temp.data(), bytes, d_in.data(), d_value.data(), d_index.data(), n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_index.download()[0] == top);
}

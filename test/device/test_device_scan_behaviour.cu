// Tests of strata/device/device_scan.cuh, part 4: how the calls behave rather than what they
// compute: no items write nothing; the size query touches no device data and launches nothing
// (pointers that must never be dereferenced, inside a stream capture that must stay empty); bad
// arguments give cudaErrorInvalidValue; the second phase works inside a CUDA graph capture and
// on two streams at once; more than 2^31 items scan correctly ([slow]: 2 GiB of input, 16 GiB of
// output).
#include <strata/device/device_scan.cuh>

#include "common/streams.cuh"
#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <cstdint>
#include <vector>

TEST_CASE("DeviceScan with no items writes nothing", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<std::int32_t> d_in(std::vector<std::int32_t>(16, 5));
  strata_test::device_buffer<std::int32_t> d_out(16);
  const std::vector<std::int32_t> poisoned = [&]
  {
    d_out.poison();
    return d_out.download();
  }();
  const auto exclusive =
      strata_test::run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                            { return strata::DeviceScan::ExclusiveSum(d_temp, bytes, d_in.data(), d_out.data(), 0); });
  CHECK(exclusive == poisoned);
  const auto by_key =
      strata_test::run_scan(d_out,
                            [&](void* d_temp, std::size_t& bytes)
                            {
                              return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, d_in.data(), d_in.data(),
                                                                            d_out.data(), cuda::std::plus<>{}, 1, 0);
                            });
  CHECK(by_key == poisoned);
}

TEST_CASE("DeviceScan size queries touch no device data and launch nothing", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  auto* bad_in  = reinterpret_cast<const std::int32_t*>(std::uintptr_t(16));
  auto* bad_out = reinterpret_cast<std::int32_t*>(std::uintptr_t(32));
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (std::int64_t n : {std::int64_t(0), std::int64_t(10), std::int64_t(1) << 24})
        {
          std::size_t bytes = 0;
          CHECK(strata::DeviceScan::ExclusiveSum(nullptr, bytes, bad_in, bad_out, n, stream) == cudaSuccess);
          CHECK(bytes >= 1);
          bytes = 0;
          CHECK(strata::DeviceScan::InclusiveScan(nullptr, bytes, bad_in, bad_out, cuda::std::plus<>{}, n, stream)
                == cudaSuccess);
          CHECK(bytes >= 1);
          bytes = 0;
          CHECK(strata::DeviceScan::ExclusiveScan(nullptr, bytes, bad_in, bad_out, cuda::std::plus<>{},
                                                  strata::FutureValue<std::int32_t>(bad_out), n, stream)
                == cudaSuccess);
          CHECK(bytes >= 1);
          bytes = 0;
          CHECK(strata::DeviceScan::InclusiveSumByKey(nullptr, bytes, bad_in, bad_in, bad_out, n,
                                                      cuda::std::equal_to<>{}, stream)
                == cudaSuccess);
          CHECK(bytes >= 1);
        }
      });
}

TEST_CASE("DeviceScan rejects bad arguments with cudaErrorInvalidValue", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::size_t n = 100000;
  strata_test::device_buffer<std::int32_t> d_in(std::vector<std::int32_t>(n, 3));
  strata_test::device_buffer<std::int32_t> d_out(n);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(nullptr, bytes, d_in.data(), d_out.data(), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  auto* null_in  = static_cast<const std::int32_t*>(nullptr);
  auto* null_out = static_cast<std::int32_t*>(nullptr);

  SECTION("too little temporary storage")
  {
    std::size_t too_few = bytes - 1;
    CHECK(strata::DeviceScan::ExclusiveSum(d_temp.data(), too_few, d_in.data(), d_out.data(), n)
          == cudaErrorInvalidValue);
    std::size_t by_key_bytes = 0;
    STRATA_TEST_CUDA(
        strata::DeviceScan::InclusiveSumByKey(nullptr, by_key_bytes, d_in.data(), d_in.data(), d_out.data(), n));
    by_key_bytes -= 1;
    CHECK(strata::DeviceScan::InclusiveSumByKey(d_temp.data(), by_key_bytes, d_in.data(), d_in.data(), d_out.data(), n)
          == cudaErrorInvalidValue);
  }
  SECTION("a null output or input with items")
  {
    CHECK(strata::DeviceScan::InclusiveSum(d_temp.data(), bytes, d_in.data(), null_out, n) == cudaErrorInvalidValue);
    CHECK(strata::DeviceScan::ExclusiveScan(d_temp.data(), bytes, null_in, d_out.data(), cuda::std::plus<>{}, 0, n)
          == cudaErrorInvalidValue);
    CHECK(strata::DeviceScan::ExclusiveSumByKey(d_temp.data(), bytes, null_in, d_in.data(), d_out.data(), n)
          == cudaErrorInvalidValue);
    CHECK(strata::DeviceScan::InclusiveScanByKey(d_temp.data(), bytes, d_in.data(), d_in.data(), null_out,
                                                 cuda::std::plus<>{}, n)
          == cudaErrorInvalidValue);
  }
  SECTION("a negative item count")
  {
    std::size_t query = 0;
    CHECK(strata::DeviceScan::ExclusiveSum(nullptr, query, d_in.data(), d_out.data(), -5) == cudaErrorInvalidValue);
    CHECK(strata::DeviceScan::InclusiveScan(d_temp.data(), bytes, d_in.data(), d_out.data(), cuda::std::plus<>{},
                                            std::int64_t(-1))
          == cudaErrorInvalidValue);
    CHECK(strata::DeviceScan::InclusiveSumByKey(nullptr, query, d_in.data(), d_in.data(), d_out.data(), -2)
          == cudaErrorInvalidValue);
  }
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("DeviceScan runs inside a CUDA graph and on two streams at once", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(251);
  INFO("seed " << seed);
  const std::size_t n               = 3000017;
  const std::vector<std::int64_t> a = strata_test::random_vector<std::int64_t>(n, seed, -1000.0, 1000.0);
  const std::vector<std::int64_t> b = strata_test::random_vector<std::int64_t>(n, seed + 1, -1000.0, 1000.0);
  const std::int64_t zero           = 0;
  const auto plus                   = [](std::int64_t x, std::int64_t y) { return x + y; };
  const auto expected_a             = strata_test::reference_scan<false, std::int64_t>(a, plus, &zero);
  const auto expected_b =
      strata_test::reference_scan<true, std::int64_t>(b, plus, static_cast<const std::int64_t*>(nullptr));
  strata_test::device_buffer<std::int64_t> d_a(a);
  strata_test::device_buffer<std::int64_t> d_b(b);
  strata_test::device_buffer<std::int64_t> d_out_a(n);
  strata_test::device_buffer<std::int64_t> d_out_b(n);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(nullptr, bytes, d_a.data(), d_out_a.data(), n));
  strata_test::device_buffer<unsigned char> d_temp_a(bytes);
  strata_test::device_buffer<unsigned char> d_temp_b(bytes);
  const strata_test::stream_pair streams;

  SECTION("graph capture and replay")
  {
    strata_test::check_graph_replay(
        streams[0],
        [&](cudaStream_t stream)
        { return strata::DeviceScan::ExclusiveSum(d_temp_a.data(), bytes, d_a.data(), d_out_a.data(), n, stream); },
        [&] { d_out_a.poison(); }, [&] { strata_test::check_equal(expected_a, d_out_a.download()); });
  }
  SECTION("two streams")
  {
    d_out_a.poison();
    d_out_b.poison();
    strata_test::run_on_two_streams(
        streams,
        [&](cudaStream_t stream)
        { return strata::DeviceScan::ExclusiveSum(d_temp_a.data(), bytes, d_a.data(), d_out_a.data(), n, stream); },
        [&](cudaStream_t stream)
        { return strata::DeviceScan::InclusiveSum(d_temp_b.data(), bytes, d_b.data(), d_out_b.data(), n, stream); });
    strata_test::check_equal(expected_a, d_out_a.download());
    strata_test::check_equal(expected_b, d_out_b.download());
  }
}

TEST_CASE("DeviceScan::ExclusiveSum of more than 2^31 uint8 items into 64 bits", "[device][scan][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t(1) << 31) + 1000;
  strata_test::device_buffer<std::uint8_t> d_in(static_cast<std::size_t>(n));
  strata_test::device_buffer<std::uint64_t> d_out(static_cast<std::size_t>(n));
  // Every item 200 but one 7 past 2^31: prefix i is 200 i, less 193 after that item.
  const std::int64_t odd = (std::int64_t(1) << 31) + 10;
  STRATA_TEST_CUDA(cudaMemset(d_in.data(), 200, static_cast<std::size_t>(n)));
  const std::uint8_t seven = 7;
  STRATA_TEST_CUDA(cudaMemcpy(d_in.data() + odd, &seven, 1, cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(nullptr, bytes, d_in.data(), d_out.data(), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(d_temp.data(), bytes, d_in.data(), d_out.data(), n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  // Check a sample of positions (the whole output is 16 GiB): around 2^31, the odd item and the end.
  for (std::int64_t i :
       {std::int64_t(0), std::int64_t(1), (std::int64_t(1) << 31) - 1, std::int64_t(1) << 31, odd, odd + 1, n - 1})
  {
    std::uint64_t out = 0;
    STRATA_TEST_CUDA(cudaMemcpy(&out, d_out.data() + i, sizeof(out), cudaMemcpyDeviceToHost));
    const std::uint64_t expected = 200 * std::uint64_t(i) - (i > odd ? 193 : 0);
    INFO("item " << i);
    CHECK(out == expected);
  }
}

// Tests of strata/device/device_scan.cuh, part 4: how the calls behave rather than what they
// compute: no items write nothing; the size query touches no device data and launches nothing
// (pointers that must never be dereferenced, inside a stream capture that must stay empty); bad
// arguments give cudaErrorInvalidValue and leave input, keys, output and temporary storage as they
// were; up to one tile asks for one byte of temporary storage and runs with any size; the second
// phase works inside a CUDA graph capture and on two streams at once; more than 2^31 items scan
// correctly ([slow]: 2 GiB of input, 16 GiB of output, checked at a sample in closed form).
#include <strata/device/device_scan.cuh>

#include "common/behaviour.cuh"
#include "common/streams.cuh"
#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

namespace
{
//! What a refused DeviceScan call must leave as it was: the input and the keys (random), the
//! output and the temporary storage (poisoned).
struct scan_buffers
{
  strata_test::device_buffer<std::int32_t> in;
  strata_test::device_buffer<std::int32_t> keys;
  strata_test::device_buffer<std::int32_t> out;
  strata_test::device_buffer<unsigned char> temp;

  scan_buffers(std::size_t n, std::size_t temp_bytes, std::uint64_t seed)
      : in(strata_test::random_vector<std::int32_t>(n, seed))
      , keys(strata_test::run_keys<std::int32_t>(n, seed + 1))
      , out(n)
      , temp(temp_bytes)
  {
    out.poison();
    temp.poison();
  }
  auto state() const
  {
    return std::make_tuple(in.download(), keys.download(), out.download(), temp.download());
  }
};
} // namespace

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

TEST_CASE("DeviceScan rejects bad arguments with cudaErrorInvalidValue and writes nothing", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(253);
  INFO("seed " << seed);
  // Many tiles: the runs need temporary storage for the tile descriptors.
  const std::size_t n  = 100000;
  auto* const null_in  = static_cast<std::int32_t*>(nullptr);
  auto* const null_out = static_cast<std::int32_t*>(nullptr);
  std::size_t bytes    = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(nullptr, bytes, null_in, null_out, n));
  std::size_t by_key_bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::InclusiveSumByKey(nullptr, by_key_bytes, null_in, null_in, null_out, n));
  REQUIRE(bytes > 1);
  REQUIRE(by_key_bytes > 1);
  const std::size_t enough = std::max(bytes, by_key_bytes);
  const scan_buffers buffers(n, enough, seed);
  std::int32_t* const in   = buffers.in.data();
  std::int32_t* const keys = buffers.keys.data();
  std::int32_t* const out  = buffers.out.data();
  void* const temp         = buffers.temp.data();
  const cuda::std::plus<> plus{};
  using strata::DeviceScan;
  using strata_test::check_rejected;
  {
    INFO("too little temporary storage");
    std::size_t too_few = bytes - 1;
    check_rejected(buffers, [&] { return DeviceScan::ExclusiveSum(temp, too_few, in, out, n); });
    std::size_t too_few_by_key = by_key_bytes - 1;
    check_rejected(buffers, [&] { return DeviceScan::InclusiveSumByKey(temp, too_few_by_key, keys, in, out, n); });
  }
  {
    INFO("a null output or input with items");
    std::size_t run_bytes = enough;
    check_rejected(buffers, [&] { return DeviceScan::InclusiveSum(temp, run_bytes, in, null_out, n); });
    check_rejected(buffers, [&] { return DeviceScan::ExclusiveScan(temp, run_bytes, null_in, out, plus, 0, n); });
    check_rejected(buffers, [&] { return DeviceScan::ExclusiveSumByKey(temp, run_bytes, null_in, in, out, n); });
    check_rejected(buffers, [&] { return DeviceScan::ExclusiveSumByKey(temp, run_bytes, keys, null_in, out, n); });
    check_rejected(buffers,
                   [&] { return DeviceScan::InclusiveScanByKey(temp, run_bytes, keys, in, null_out, plus, n); });
  }
  {
    INFO("a negative item count, in both phases");
    std::size_t query = 0;
    check_rejected(buffers, [&] { return DeviceScan::ExclusiveSum(nullptr, query, in, out, -5); });
    check_rejected(buffers, [&] { return DeviceScan::InclusiveSumByKey(nullptr, query, keys, in, out, -2); });
    std::size_t run_bytes = enough;
    check_rejected(buffers,
                   [&] { return DeviceScan::InclusiveScan(temp, run_bytes, in, out, plus, std::int64_t(-1)); });
    check_rejected(buffers, [&] { return DeviceScan::InclusiveSumByKey(temp, run_bytes, keys, in, out, -2); });
  }
}

TEST_CASE("DeviceScan needs no temporary storage for up to one tile: one byte, any size accepted, null pointers "
          "without items",
          "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(255);
  INFO("seed " << seed);
  const std::size_t tile               = strata_test::scan_tile_items<std::int32_t>();
  const std::size_t by_key_tile        = strata_test::scan_by_key_tile_items<std::int32_t, std::int32_t>();
  const std::size_t size               = std::max(tile, by_key_tile) + 1;
  const std::vector<std::int32_t> in   = strata_test::random_vector<std::int32_t>(size, seed, -1000.0, 1000.0);
  const std::vector<std::int32_t> keys = strata_test::run_keys<std::int32_t>(size, seed + 1);
  const std::int32_t zero              = 0;
  const auto plus                      = strata_test::host_plus<std::int32_t>{};
  const auto exclusive                 = strata_test::reference_scan<false, std::int32_t>(in, plus, &zero);
  const auto by_key                    = strata_test::reference_scan_by_key<std::int32_t>(keys, in, plus, &zero);
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int32_t> d_keys(keys);
  strata_test::device_buffer<std::int32_t> d_out(size);
  // A buffer of its own for the runs: nothing may be written to it.
  strata_test::device_buffer<unsigned char> d_temp(64);
  d_temp.poison();
  const std::vector<unsigned char> poisoned = d_temp.download();

  auto sum = [&](void* d_temp_storage, std::size_t& bytes, std::size_t n)
  { return strata::DeviceScan::ExclusiveSum(d_temp_storage, bytes, d_in.data(), d_out.data(), n); };
  auto sum_by_key = [&](void* d_temp_storage, std::size_t& bytes, std::size_t n)
  { return strata::DeviceScan::ExclusiveSumByKey(d_temp_storage, bytes, d_keys.data(), d_in.data(), d_out.data(), n); };
  for (std::size_t n : {std::size_t(0), std::size_t(1), tile, by_key_tile})
  {
    for (bool is_by_key : {false, true})
    {
      INFO((is_by_key ? "ExclusiveSumByKey" : "ExclusiveSum") << ", num_items " << n);
      if (n > (is_by_key ? by_key_tile : tile))
      {
        continue;
      }
      std::size_t bytes = 12345; // the size query overwrites whatever it holds
      STRATA_TEST_CUDA(is_by_key ? sum_by_key(nullptr, bytes, n) : sum(nullptr, bytes, n));
      CHECK(bytes == 1);
      for (std::size_t run_bytes : {std::size_t(1), std::size_t(0)})
      {
        INFO("temp_storage_bytes " << run_bytes);
        d_out.poison();
        STRATA_TEST_CUDA(is_by_key ? sum_by_key(d_temp.data(), run_bytes, n) : sum(d_temp.data(), run_bytes, n));
        STRATA_TEST_CUDA(cudaDeviceSynchronize());
        strata_test::check_scan(is_by_key ? by_key : exclusive, d_out.download(), n);
      }
    }
  }
  // No items: nothing is read or written, so the pointers may be null (as in CUB).
  auto* const null_items = static_cast<std::int32_t*>(nullptr);
  std::size_t no_bytes   = 0;
  CHECK(strata::DeviceScan::ExclusiveSum(d_temp.data(), no_bytes, null_items, null_items, std::size_t(0))
        == cudaSuccess);
  CHECK(
      strata::DeviceScan::ExclusiveSumByKey(d_temp.data(), no_bytes, null_items, null_items, null_items, std::size_t(0))
      == cudaSuccess);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_temp.download() == poisoned);
  // One tile and one more item take tile descriptors in temporary storage.
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(sum(nullptr, bytes, tile + 1));
  CHECK(bytes > 1);
  bytes = 0;
  STRATA_TEST_CUDA(sum_by_key(nullptr, bytes, by_key_tile + 1));
  CHECK(bytes > 1);
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
  d_temp_a.poison();
  strata_test::device_buffer<unsigned char> d_temp_b(bytes);
  d_temp_b.poison();
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
  const std::uint64_t n = (std::uint64_t(1) << 31) + 1000;
  // Items i % 251 + 1: prefix i is 31626 (the sum of 1 .. 251) per whole period and r (r + 1) / 2
  // for the r items after the last one.
  std::vector<std::uint8_t> period(std::size_t(251) << 16);
  for (std::size_t i = 0; i < period.size(); ++i)
  {
    period[i] = std::uint8_t(i % 251 + 1);
  }
  auto prefix = [](std::uint64_t i) { return i / 251 * 31626 + i % 251 * (i % 251 + 1) / 2; };
  strata_test::device_buffer<std::uint8_t> d_in(n);
  strata_test::upload_repeated(d_in.data(), n, period);
  strata_test::device_buffer<std::uint64_t> d_out(n + 16); // the last 16 must keep their poison
  d_out.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(nullptr, bytes, d_in.data(), d_out.data(), std::int64_t(n)));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(d_temp.data(), bytes, d_in.data(), d_out.data(), std::int64_t(n)));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  // A sample (the whole output is 16 GiB): every 4097th item, three tiles on both sides of 2^31,
  // the first and the last three tiles (the partial one among them).
  strata_test::check_sampled(d_out, n, 3 * strata_test::scan_tile_items<std::uint64_t>(), prefix);
}

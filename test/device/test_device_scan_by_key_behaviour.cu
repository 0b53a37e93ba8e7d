// Tests of strata/device/device_scan.cuh, part 7: how the four scans by key (ExclusiveSumByKey,
// InclusiveSumByKey, ExclusiveScanByKey, InclusiveScanByKey) behave beyond what they compute:
// each in place (values in and out through one pointer), each captured into a CUDA graph and
// replayed, and each running on one stream while another variant runs on a second stream; and
// ([slow]) sums by key over more than 2^31 items, keys and values from iterators, segments across
// 2^31, checked at a sample in closed form.
#include <strata/device/device_scan.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <cuda/functional>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
enum variant : int
{
  exclusive_sum,
  inclusive_sum,
  exclusive_scan, // maximum, from 7
  inclusive_scan, // maximum
  variant_count
};

const char* name(int v)
{
  return v == exclusive_sum    ? "ExclusiveSumByKey"
         : v == inclusive_sum  ? "InclusiveSumByKey"
         : v == exclusive_scan ? "ExclusiveScanByKey"
                               : "InclusiveScanByKey";
}

using KeyT   = std::int32_t;
using ValueT = std::uint32_t;

cudaError_t scan_by_key(int v, void* d_temp, std::size_t& bytes, const KeyT* keys, const ValueT* in, ValueT* out,
                        std::size_t n, cudaStream_t stream)
{
  const cuda::std::equal_to<> eq{};
  switch (v)
  {
  case exclusive_sum:
    return strata::DeviceScan::ExclusiveSumByKey(d_temp, bytes, keys, in, out, n, eq, stream);
  case inclusive_sum:
    return strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, keys, in, out, n, eq, stream);
  case exclusive_scan:
    return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, keys, in, out, cuda::maximum<>{}, ValueT(7), n, eq,
                                                  stream);
  default:
    return strata::DeviceScan::InclusiveScanByKey(d_temp, bytes, keys, in, out, cuda::maximum<>{}, n, eq, stream);
  }
}

using host_plus = strata_test::host_plus<ValueT>;
using host_max  = strata_test::host_max<ValueT>;

std::vector<ValueT> reference(int v, const std::vector<KeyT>& keys, const std::vector<ValueT>& values)
{
  const ValueT zero  = 0;
  const ValueT seven = 7;
  const auto* none   = static_cast<const ValueT*>(nullptr);
  switch (v)
  {
  case exclusive_sum:
    return strata_test::reference_scan_by_key<ValueT>(keys, values, host_plus{}, &zero);
  case inclusive_sum:
    return strata_test::reference_scan_by_key<ValueT>(keys, values, host_plus{}, none);
  case exclusive_scan:
    return strata_test::reference_scan_by_key<ValueT>(keys, values, host_max{}, &seven);
  default:
    return strata_test::reference_scan_by_key<ValueT>(keys, values, host_max{}, none);
  }
}

//! Bytes of temporary storage enough for every variant at n items.
std::size_t storage_bytes(const KeyT* keys, const ValueT* in, ValueT* out, std::size_t n)
{
  std::size_t most = 0;
  for (int v = 0; v < variant_count; ++v)
  {
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(scan_by_key(v, nullptr, bytes, keys, in, out, n, 0));
    most = std::max(most, bytes);
  }
  return most;
}

constexpr std::size_t items = 3000017;

//! The [slow] case's segments: 1000003 items each, one of them ending 1000 items past 2^31.
struct segment_of
{
  static constexpr std::int64_t length = 1000003;
  static constexpr std::int64_t shift  = length - ((std::int64_t(1) << 31) + 1000) % length;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const
  {
    return (i + shift) / length;
  }
};

//! The [slow] case's values: i % 251 + 1.
struct periodic_value
{
  __host__ __device__ std::uint32_t operator()(std::int64_t i) const
  {
    return std::uint32_t(i % 251 + 1);
  }
};

//! The sum of periodic_value over [0, m): 31626 (1 + ... + 251) per whole period, and r (r + 1) / 2
//! for the r items after the last one.
std::uint64_t periodic_prefix(std::uint64_t m)
{
  return m / 251 * 31626 + m % 251 * (m % 251 + 1) / 2;
}
} // namespace

TEST_CASE("DeviceScan scans by key in place", "[device][scan][by_key]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1001);
  INFO("seed " << seed);
  const std::vector<ValueT> values = strata_test::random_vector<ValueT>(items, seed);
  const std::vector<KeyT> keys     = strata_test::run_keys<KeyT>(items, seed + 1);
  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<ValueT> d_data(items);
  std::size_t bytes = storage_bytes(d_keys.data(), d_data.data(), d_data.data(), items);
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  for (int v = 0; v < variant_count; ++v)
  {
    INFO(name(v));
    d_data.upload(values);
    STRATA_TEST_CUDA(scan_by_key(v, d_temp.data(), bytes, d_keys.data(), d_data.data(), d_data.data(), items, 0));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    strata_test::check_equal(reference(v, keys, values), d_data.download());
  }
}

TEST_CASE("DeviceScan scans by key inside a CUDA graph and on two streams at once", "[device][scan][by_key]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1003);
  INFO("seed " << seed);
  const std::vector<ValueT> a    = strata_test::random_vector<ValueT>(items, seed);
  const std::vector<ValueT> b    = strata_test::random_vector<ValueT>(items, seed + 1);
  const std::vector<KeyT> keys_a = strata_test::run_keys<KeyT>(items, seed + 2);
  const std::vector<KeyT> keys_b = strata_test::run_keys<KeyT>(items, seed + 3, 1000);
  strata_test::device_buffer<ValueT> d_a(a);
  strata_test::device_buffer<ValueT> d_b(b);
  strata_test::device_buffer<KeyT> d_keys_a(keys_a);
  strata_test::device_buffer<KeyT> d_keys_b(keys_b);
  strata_test::device_buffer<ValueT> d_out_a(items);
  strata_test::device_buffer<ValueT> d_out_b(items);
  std::size_t bytes = storage_bytes(d_keys_a.data(), d_a.data(), d_out_a.data(), items);
  strata_test::device_buffer<unsigned char> d_temp_a(bytes);
  d_temp_a.poison();
  strata_test::device_buffer<unsigned char> d_temp_b(bytes);
  d_temp_b.poison();
  const strata_test::stream_pair streams;
  for (int v = 0; v < variant_count; ++v)
  {
    // The second stream runs the next variant, on other keys and values.
    const int w = (v + 1) % variant_count;
    INFO(name(v) << " (and " << name(w) << " on the second stream)");
    const std::vector<ValueT> expected_a = reference(v, keys_a, a);
    const std::vector<ValueT> expected_b = reference(w, keys_b, b);
    auto run_a                           = [&](cudaStream_t stream)
    { return scan_by_key(v, d_temp_a.data(), bytes, d_keys_a.data(), d_a.data(), d_out_a.data(), items, stream); };
    auto run_b = [&](cudaStream_t stream)
    { return scan_by_key(w, d_temp_b.data(), bytes, d_keys_b.data(), d_b.data(), d_out_b.data(), items, stream); };
    {
      INFO("graph capture and replay");
      strata_test::check_graph_replay(
          streams[0], run_a, [&] { d_out_a.poison(); },
          [&] { strata_test::check_equal(expected_a, d_out_a.download()); });
    }
    {
      INFO("two streams");
      d_out_a.poison();
      d_out_b.poison();
      strata_test::run_on_two_streams(streams, run_a, run_b);
      strata_test::check_equal(expected_a, d_out_a.download());
      strata_test::check_equal(expected_b, d_out_b.download());
    }
  }
}

TEST_CASE("DeviceScan sums by key over more than 2^31 items", "[device][scan][by_key][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t n = (std::uint64_t(1) << 31) + (std::uint64_t(1) << 20) + 3;
  using CountingT       = strata::CountingInputIterator<std::int64_t>;
  const strata::TransformInputIterator<std::int64_t, segment_of, CountingT> keys(CountingT(0), segment_of{});
  const strata::TransformInputIterator<std::uint32_t, periodic_value, CountingT> values(CountingT(0), periodic_value{});
  // The first item of i's segment.
  auto head = [](std::uint64_t i)
  {
    const auto shifted = std::int64_t(i) + segment_of::shift;
    return std::uint64_t(
        std::max<std::int64_t>(0, shifted / segment_of::length * segment_of::length - segment_of::shift));
  };
  strata_test::device_buffer<std::uint32_t> d_out(n + 16); // the last 16 must keep their poison
  const std::uint64_t window = 3 * strata_test::scan_by_key_tile_items<std::int64_t, std::uint32_t>();
  for (bool inclusive : {true, false})
  {
    INFO((inclusive ? "InclusiveSumByKey" : "ExclusiveSumByKey"));
    auto run = [&](void* d_temp, std::size_t& bytes)
    {
      return inclusive
                 ? strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, keys, values, d_out.data(), std::int64_t(n))
                 : strata::DeviceScan::ExclusiveSumByKey(d_temp, bytes, keys, values, d_out.data(), std::int64_t(n));
    };
    d_out.poison();
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(run(nullptr, bytes));
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    d_temp.poison();
    STRATA_TEST_CUDA(run(d_temp.data(), bytes));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    // Sampled (the output is 8 GiB): every 4097th item, three tiles on both sides of 2^31 (with a
    // segment's end), the first and the last three tiles; expected in closed form.
    strata_test::check_sampled(
        d_out, n, window,
        [&](std::uint64_t i)
        { return std::uint32_t(periodic_prefix(inclusive ? i + 1 : i) - periodic_prefix(head(i))); });
  }
}

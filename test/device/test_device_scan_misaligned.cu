// Tests of strata/device/device_scan.cuh, part 5: inputs and outputs that are not where the
// vectorized paths want them, and iterators. ExclusiveSum, InclusiveSum, ExclusiveScan and
// InclusiveScan, and the four scans by key, read from `d_in + 1` (and `d_keys + 1`) and write to
// `d_out + 1` for 1-, 2-, 4- and 8-byte items, with d_out[0] and everything past the last output
// left untouched; scans of a CountingInputIterator and of a TransformInputIterator over a
// misaligned pointer, into an output iterator that transforms what it stores and into a
// DiscardOutputIterator. Sizes around one tile, past the look-back's 32-tile window, up to 2^20.
#include <strata/device/device_scan.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/output_iterators.cuh"
#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <cuda/functional>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace
{
using strata_test::host_max;
using strata_test::host_plus;
using strata_test::run_scan;
using strata_test::scan_sizes;
using strata_test::square;
using strata_test::three_x_plus_one;

//! The largest input of these tests.
constexpr std::size_t max_items = (std::size_t(1) << 20) + 1;

//! Runs a two-phase scan `call(d_temp, bytes)` that writes n items to d_out + 1 and checks them
//! against expected[0, n), and that d_out[0] and everything after the last output kept the poison.
template <typename OutT, typename CallT>
void check_shifted(strata_test::device_buffer<OutT>& d_out, const std::vector<OutT>& expected, std::size_t n,
                   CallT&& call)
{
  const std::vector<OutT> out = run_scan(d_out, call);
  std::vector<OutT> want(n + 1);
  std::memset(static_cast<void*>(want.data()), strata_test::poison_byte, sizeof(OutT));
  std::copy(expected.begin(), expected.begin() + std::ptrdiff_t(n), want.begin() + 1);
  strata_test::check_scan(want, out, n + 1);
}

//! Keys from positions: runs of seven.
struct seventh
{
  __host__ __device__ int operator()(int i) const
  {
    return i / 7;
  }
};

using misaligned_types = std::tuple<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceScan from d_in + 1 into d_out + 1", "[device][scan]", misaligned_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  using AccumT             = decltype(T{} + T{}); // CUB's accumulator of T + T
  const std::uint64_t seed = strata_test::seed(601);
  INFO("seed " << seed);
  const std::vector<T> in = strata_test::random_vector<T>(max_items + 1, seed);
  const std::vector<T> shifted(in.begin() + 1, in.end());
  const AccumT zero{};
  const AccumT five(5);
  const auto* no_init  = static_cast<const AccumT*>(nullptr);
  const auto exclusive = strata_test::reference_scan<false, T, AccumT>(shifted, host_plus<AccumT>{}, &zero);
  const auto inclusive = strata_test::reference_scan<true, T, AccumT>(shifted, host_plus<AccumT>{}, no_init);
  const auto from_five = strata_test::reference_scan<false, T, AccumT>(shifted, host_plus<AccumT>{}, &five);
  const auto maximum = strata_test::reference_scan<true, T, T>(shifted, host_max<T>{}, static_cast<const T*>(nullptr));
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(max_items + 1);
  const T* first = d_in.data() + 1;
  T* out         = d_out.data() + 1;
  for (std::size_t n : scan_sizes(strata_test::scan_tile_items<AccumT>(), max_items))
  {
    INFO("num_items " << n);
    check_shifted(d_out, exclusive, n,
                  [&](void* d_temp, std::size_t& bytes)
                  { return strata::DeviceScan::ExclusiveSum(d_temp, bytes, first, out, n); });
    check_shifted(d_out, inclusive, n,
                  [&](void* d_temp, std::size_t& bytes)
                  { return strata::DeviceScan::InclusiveSum(d_temp, bytes, first, out, static_cast<int>(n)); });
    check_shifted(d_out, from_five, n,
                  [&](void* d_temp, std::size_t& bytes) {
                    return strata::DeviceScan::ExclusiveScan(d_temp, bytes, first, out, cuda::std::plus<>{}, T(5), n);
                  });
    check_shifted(d_out, maximum, n,
                  [&](void* d_temp, std::size_t& bytes)
                  { return strata::DeviceScan::InclusiveScan(d_temp, bytes, first, out, cuda::maximum<>{}, n); });
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceScan by key from d_keys + 1 and d_values + 1 into d_out + 1", "[device][scan][by_key]",
                        misaligned_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  using AccumT             = decltype(T{} + T{});
  const std::uint64_t seed = strata_test::seed(603);
  INFO("seed " << seed);
  const std::vector<T> values = strata_test::random_vector<T>(max_items + 1, seed);
  const std::vector<T> keys   = strata_test::run_keys<T>(max_items + 1, seed + 1);
  const std::vector<T> shifted_values(values.begin() + 1, values.end());
  const std::vector<T> shifted_keys(keys.begin() + 1, keys.end());
  const AccumT zero{};
  const AccumT three(3);
  const auto* no_init = static_cast<const AccumT*>(nullptr);
  const auto exclusive =
      strata_test::reference_scan_by_key<T>(shifted_keys, shifted_values, host_plus<AccumT>{}, &zero);
  const auto inclusive =
      strata_test::reference_scan_by_key<T>(shifted_keys, shifted_values, host_plus<AccumT>{}, no_init);
  const auto from_three =
      strata_test::reference_scan_by_key<T>(shifted_keys, shifted_values, host_plus<AccumT>{}, &three);
  const auto maximum = strata_test::reference_scan_by_key<T>(shifted_keys, shifted_values, host_max<T>{},
                                                             static_cast<const T*>(nullptr));
  strata_test::device_buffer<T> d_keys(keys);
  strata_test::device_buffer<T> d_values(values);
  strata_test::device_buffer<T> d_out(max_items + 1);
  const T* k = d_keys.data() + 1;
  const T* v = d_values.data() + 1;
  T* out     = d_out.data() + 1;
  for (std::size_t n : scan_sizes(strata_test::scan_by_key_tile_items<T, AccumT>(), max_items))
  {
    INFO("num_items " << n);
    check_shifted(d_out, exclusive, n,
                  [&](void* d_temp, std::size_t& bytes)
                  { return strata::DeviceScan::ExclusiveSumByKey(d_temp, bytes, k, v, out, n); });
    check_shifted(d_out, inclusive, n,
                  [&](void* d_temp, std::size_t& bytes)
                  { return strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, k, v, out, static_cast<int>(n)); });
    check_shifted(
        d_out, from_three, n,
        [&](void* d_temp, std::size_t& bytes)
        { return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, k, v, out, cuda::std::plus<>{}, T(3), n); });
    check_shifted(d_out, maximum, n,
                  [&](void* d_temp, std::size_t& bytes)
                  { return strata::DeviceScan::InclusiveScanByKey(d_temp, bytes, k, v, out, cuda::maximum<>{}, n); });
  }
}

TEST_CASE("DeviceScan of iterators into iterators", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(605);
  INFO("seed " << seed);
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(max_items + 1, seed);
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int64_t> d_out(max_items + 1);
  using strata_test::transform_output;
  using OutputT            = transform_output<std::int64_t, three_x_plus_one>;
  using SquaresT           = strata::TransformInputIterator<std::int64_t, square, const std::int32_t*>;
  using CountingT          = strata::CountingInputIterator<std::int64_t>;
  using KeysT              = strata::TransformInputIterator<int, seventh, strata::CountingInputIterator<int>>;
  const std::int64_t start = -987654321;
  std::vector<std::int64_t> counted(max_items);
  std::vector<std::int64_t> max_square(max_items);
  std::vector<std::int64_t> by_sevens(max_items);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < max_items; ++i)
  {
    counted[i] = three_x_plus_one{}(sum);
    sum += start + std::int64_t(i);
    max_square[i] = std::max(i == 0 ? std::int64_t(0) : max_square[i - 1], square{}(in[i + 1]));
  }
  // Inclusive sums of the item positions within runs of seven, stored as 3 x + 1.
  std::int64_t run_sum = 0;
  for (std::size_t i = 0; i < max_items; ++i)
  {
    run_sum      = (i % 7 == 0 ? 0 : run_sum) + std::int64_t(i);
    by_sevens[i] = three_x_plus_one{}(run_sum);
  }
  for (std::size_t n : scan_sizes(strata_test::scan_tile_items<std::int64_t>(), max_items))
  {
    INFO("num_items " << n);
    {
      INFO("ExclusiveScan of a CountingInputIterator into an output iterator");
      check_shifted(d_out, counted, n,
                    [&](void* d_temp, std::size_t& bytes)
                    {
                      return strata::DeviceScan::ExclusiveScan(d_temp, bytes, CountingT(start),
                                                               OutputT(d_out.data() + 1, {}), cuda::std::plus<>{},
                                                               std::int64_t(0), n);
                    });
    }
    {
      // The *Sum entry points take their accumulator from the input when the output's
      // value_type is void.
      INFO("ExclusiveSum of a CountingInputIterator into an output iterator");
      check_shifted(d_out, counted, n,
                    [&](void* d_temp, std::size_t& bytes) {
                      return strata::DeviceScan::ExclusiveSum(d_temp, bytes, CountingT(start),
                                                              OutputT(d_out.data() + 1, {}), n);
                    });
    }
    {
      INFO("InclusiveScan with maximum of a TransformInputIterator over d_in + 1");
      check_shifted(d_out, max_square, n,
                    [&](void* d_temp, std::size_t& bytes)
                    {
                      return strata::DeviceScan::InclusiveScan(d_temp, bytes, SquaresT(d_in.data() + 1, square{}),
                                                               d_out.data() + 1, cuda::maximum<>{}, n);
                    });
    }
    {
      INFO("InclusiveScanByKey of iterator keys and values into an output iterator");
      check_shifted(d_out, by_sevens, n,
                    [&](void* d_temp, std::size_t& bytes)
                    {
                      return strata::DeviceScan::InclusiveScanByKey(
                          d_temp, bytes, KeysT(strata::CountingInputIterator<int>(0), {}), CountingT(0),
                          OutputT(d_out.data() + 1, {}), cuda::std::plus<>{}, n);
                    });
    }
    {
      INFO("InclusiveSumByKey of iterator keys and values into an output iterator");
      check_shifted(d_out, by_sevens, n,
                    [&](void* d_temp, std::size_t& bytes)
                    {
                      return strata::DeviceScan::InclusiveSumByKey(d_temp, bytes,
                                                                   KeysT(strata::CountingInputIterator<int>(0), {}),
                                                                   CountingT(0), OutputT(d_out.data() + 1, {}), n);
                    });
    }
    {
      INFO("InclusiveScan, InclusiveScanByKey and ExclusiveSum into a DiscardOutputIterator");
      std::size_t bytes = 0;
      const strata::DiscardOutputIterator<> discard;
      STRATA_TEST_CUDA(
          strata::DeviceScan::InclusiveScan(nullptr, bytes, d_in.data() + 1, discard, cuda::std::plus<>{}, n));
      strata_test::device_buffer<unsigned char> d_temp(bytes);
      d_temp.poison();
      STRATA_TEST_CUDA(
          strata::DeviceScan::InclusiveScan(d_temp.data(), bytes, d_in.data() + 1, discard, cuda::std::plus<>{}, n));
      bytes = 0;
      const KeysT keys(strata::CountingInputIterator<int>(0), {});
      STRATA_TEST_CUDA(
          strata::DeviceScan::InclusiveScanByKey(nullptr, bytes, keys, d_in.data() + 1, discard, cuda::maximum<>{}, n));
      strata_test::device_buffer<unsigned char> d_temp_by_key(bytes);
      d_temp_by_key.poison();
      STRATA_TEST_CUDA(strata::DeviceScan::InclusiveScanByKey(d_temp_by_key.data(), bytes, keys, d_in.data() + 1,
                                                              discard, cuda::maximum<>{}, n));
      bytes = 0;
      STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(nullptr, bytes, d_in.data() + 1, discard, n));
      strata_test::device_buffer<unsigned char> d_temp_sum(bytes);
      d_temp_sum.poison();
      STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveSum(d_temp_sum.data(), bytes, d_in.data() + 1, discard, n));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
    }
  }
}

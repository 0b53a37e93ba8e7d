// Tests of strata/device/device_scan.cuh, part 2: ExclusiveScan, InclusiveScan and
// InclusiveScanInit with operators: maximum over every integer type, float and double (exact), a
// sum from an initial value, two non-commutative operators (an affine composition over a 12-byte
// struct, a 2x2 matrix product over a 16-byte one, whose tile descriptors take the one-word and
// the two-array paths), an initial value read from device memory (FutureValue), and the in-place
// overloads. Sizes from 0 to 2^24 + 13.
#include <strata/device/device_scan.cuh>

#include "common/test_common.cuh"
#include "device_scan_checks.cuh"

#include <cuda/functional>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace
{
using strata_test::check_scan;
using strata_test::custom_t;
using strata_test::host_max;
using strata_test::host_plus;
using strata_test::matrix2;
using strata_test::run_scan;
using strata_test::scan_sizes;

//! Runs `call(d_temp, bytes, d_in, d_out, n)` at every size against `expected`.
template <typename AccumT, typename T, typename OutT, typename CallT>
void check_all_sizes(const std::vector<T>& in, const std::vector<OutT>& expected, CallT call, double rel_tol = 0.0)
{
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<OutT> d_out(in.size());
  for (std::size_t n : scan_sizes(strata_test::scan_tile_items<AccumT>(), in.size()))
  {
    INFO("num_items " << n);
    check_scan(expected,
               run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                        { return call(d_temp, bytes, d_in.data(), d_out.data(), n); }),
               n, rel_tol);
  }
}

using max_types = decltype(std::tuple_cat(strata_test::integral_types{}, std::tuple<float, double>{}));
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceScan::ExclusiveScan, InclusiveScan and InclusiveScanInit with maximum", "[device][scan]",
                        max_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(211);
  INFO("seed " << seed);
  const std::vector<T> in = strata_test::random_vector<T>(strata_test::scan_max_items, seed);
  // An initial value above the lowest items, so that it shows in the first results.
  const T init = std::is_signed_v<T> ? T(-5) : T(std::numeric_limits<T>::max() / 1000);
  SECTION("ExclusiveScan")
  {
    const auto expected = strata_test::reference_scan<false, T, T>(in, host_max<T>{}, &init);
    check_all_sizes<T>(
        in, expected,
        [&](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, std::size_t n)
        { return strata::DeviceScan::ExclusiveScan(d_temp, bytes, d_in, d_out, cuda::maximum<>{}, init, n); });
  }
  SECTION("InclusiveScan")
  {
    const auto expected = strata_test::reference_scan<true, T, T>(in, host_max<T>{}, static_cast<const T*>(nullptr));
    check_all_sizes<T>(
        in, expected,
        [&](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, std::size_t n)
        { return strata::DeviceScan::InclusiveScan(d_temp, bytes, d_in, d_out, cuda::maximum<>{}, int(n)); });
  }
  SECTION("InclusiveScanInit")
  {
    const auto expected = strata_test::reference_scan<true, T, T>(in, host_max<T>{}, &init);
    check_all_sizes<T>(in, expected,
                       [&](void* d_temp, std::size_t& bytes, const T* d_in, T* d_out, std::size_t n)
                       {
                         return strata::DeviceScan::InclusiveScanInit(d_temp, bytes, d_in, d_out, cuda::maximum<>{},
                                                                      init, std::int64_t(n));
                       });
  }
}

TEST_CASE("DeviceScan::InclusiveScanInit and ExclusiveScan of a sum from an initial value", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(213);
  INFO("seed " << seed);
  const std::vector<std::int16_t> in = strata_test::random_vector<std::int16_t>(strata_test::scan_max_items, seed);
  const std::int64_t init            = -123456789;
  using AccumT                       = std::int64_t; // plus(int64 init, int16 item)
  const auto inclusive = strata_test::reference_scan<true, std::int64_t, AccumT>(in, host_plus<AccumT>{}, &init);
  const auto exclusive = strata_test::reference_scan<false, std::int64_t, AccumT>(in, host_plus<AccumT>{}, &init);
  check_all_sizes<AccumT>(
      in, inclusive,
      [&](void* d_temp, std::size_t& bytes, const std::int16_t* d_in, std::int64_t* d_out, std::size_t n)
      { return strata::DeviceScan::InclusiveScanInit(d_temp, bytes, d_in, d_out, cuda::std::plus<>{}, init, n); });
  check_all_sizes<AccumT>(
      in, exclusive,
      [&](void* d_temp, std::size_t& bytes, const std::int16_t* d_in, std::int64_t* d_out, std::size_t n)
      { return strata::DeviceScan::ExclusiveScan(d_temp, bytes, d_in, d_out, cuda::std::plus<>{}, init, n); });
}

TEST_CASE("DeviceScan with non-commutative operators keeps the order of the items", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(217);
  INFO("seed " << seed);
  SECTION("affine composition of a 12-byte struct")
  {
    std::vector<custom_t> in = strata_test::random_vector<custom_t>(strata_test::scan_max_items, seed);
    for (auto& x : in)
    {
      x.a |= 1; // odd multipliers keep every product informative
      x.c = 1;
    }
    const custom_t init{3, 7, 0};
    const auto op        = strata_test::affine_op{};
    const auto exclusive = strata_test::reference_scan<false, custom_t>(in, op, &init);
    const auto inclusive = strata_test::reference_scan<true, custom_t>(in, op, static_cast<const custom_t*>(nullptr));
    check_all_sizes<custom_t>(
        in, exclusive,
        [&](void* d_temp, std::size_t& bytes, const custom_t* d_in, custom_t* d_out, std::size_t n)
        { return strata::DeviceScan::ExclusiveScan(d_temp, bytes, d_in, d_out, op, init, n); });
    check_all_sizes<custom_t>(
        in, inclusive,
        [&](void* d_temp, std::size_t& bytes, const custom_t* d_in, custom_t* d_out, std::size_t n)
        { return strata::DeviceScan::InclusiveScan(d_temp, bytes, d_in, d_out, op, n); });
  }
  SECTION("2x2 matrix product")
  {
    const std::vector<std::uint32_t> words =
        strata_test::random_vector<std::uint32_t>(4 * ((std::size_t(1) << 22) + 7), seed, 0.0, 3.0);
    std::vector<matrix2> in(words.size() / 4);
    for (std::size_t i = 0; i < in.size(); ++i)
    {
      in[i] = matrix2{{words[4 * i] | 1, words[4 * i + 1], words[4 * i + 2], words[4 * i + 3] | 1}};
    }
    const auto op        = strata_test::matrix_product{};
    const auto inclusive = strata_test::reference_scan<true, matrix2>(in, op, static_cast<const matrix2*>(nullptr));
    check_all_sizes<matrix2>(in, inclusive,
                             [&](void* d_temp, std::size_t& bytes, const matrix2* d_in, matrix2* d_out, std::size_t n)
                             { return strata::DeviceScan::InclusiveScan(d_temp, bytes, d_in, d_out, op, n); });
  }
}

TEST_CASE("DeviceScan::ExclusiveScan reads a FutureValue when it runs", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(219);
  INFO("seed " << seed);
  const std::size_t n                = 2000003;
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(n, seed, -1000.0, 1000.0);
  const std::int32_t init            = 424242;
  const auto expected = strata_test::reference_scan<false, std::int32_t>(in, host_plus<std::int32_t>{}, &init);
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int32_t> d_out(n);
  strata_test::device_buffer<std::int32_t> d_init(1);
  d_init.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveScan(nullptr, bytes, d_in.data(), d_out.data(), cuda::std::plus<>{},
                                                     strata::FutureValue<std::int32_t>(d_init.data()), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  // The value is written on the stream after the call was made, before it runs.
  cudaStream_t stream;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  d_out.poison();
  STRATA_TEST_CUDA(cudaMemcpyAsync(d_init.data(), &init, sizeof(init), cudaMemcpyHostToDevice, stream));
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveScan(d_temp.data(), bytes, d_in.data(), d_out.data(),
                                                     cuda::std::plus<>{},
                                                     strata::FutureValue<std::int32_t>(d_init.data()), n, stream));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  strata_test::check_equal(expected, d_out.download());

  // In place, also from a future value.
  d_out.upload(in);
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveScan(d_temp.data(), bytes, d_out.data(), cuda::std::plus<>{},
                                                     strata::FutureValue<std::int32_t>(d_init.data()), n, stream));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  strata_test::check_equal(expected, d_out.download());
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceScan::ExclusiveScan and InclusiveScan in place", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(223);
  INFO("seed " << seed);
  const std::size_t n          = 1000003;
  const std::vector<double> in = strata_test::random_vector<double>(n, seed);
  const double init            = -1e9;
  const auto exclusive         = strata_test::reference_scan<false, double>(in, host_max<double>{}, &init);
  const auto inclusive =
      strata_test::reference_scan<true, double>(in, host_max<double>{}, static_cast<const double*>(nullptr));
  strata_test::device_buffer<double> d_data(n);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceScan::InclusiveScan(nullptr, bytes, d_data.data(), cuda::maximum<>{}, n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  d_data.upload(in);
  STRATA_TEST_CUDA(strata::DeviceScan::InclusiveScan(d_temp.data(), bytes, d_data.data(), cuda::maximum<>{}, n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  strata_test::check_equal(inclusive, d_data.download());

  std::size_t exclusive_bytes = 0;
  STRATA_TEST_CUDA(
      strata::DeviceScan::ExclusiveScan(nullptr, exclusive_bytes, d_data.data(), cuda::maximum<>{}, init, n));
  strata_test::device_buffer<unsigned char> d_exclusive_temp(exclusive_bytes);
  d_exclusive_temp.poison();
  d_data.upload(in);
  STRATA_TEST_CUDA(strata::DeviceScan::ExclusiveScan(d_exclusive_temp.data(), exclusive_bytes, d_data.data(),
                                                     cuda::maximum<>{}, init, n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  strata_test::check_equal(exclusive, d_data.download());
}

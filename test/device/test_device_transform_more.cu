// Tests of DeviceTransform's CUB 3.5 entry points against host references: Fill (bytes, int32,
// double and a 12-byte struct), Generate (a generator returning a constant of its own state),
// TransformIf of one and of two inputs (the items the predicate rejects keep what they held) and
// in place, Transform to two outputs (one of them in place over an input), sizes from 0 to
// 2^24 + 13 (and around a tile of 2048 items), the temporary-storage forms, TransformIf over an
// input iterator and a misaligned input into a misaligned output of a 12-byte struct, and bad
// arguments (refused, nothing written).
#include <strata/device/device_transform.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"

#include <cuda/std/tuple>

#include <cstdint>
#include <cstring>
#include <vector>

namespace
{
std::vector<std::size_t> more_sizes()
{
  std::vector<std::size_t> sizes = {0, 1, 2, 511, 512, 513, 2047, 2048, 2049, 4097, 100003, std::size_t(1) << 20};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 24) + 13);
  }
  return sizes;
}

struct triple
{
  std::int32_t a;
  float b;
  std::uint32_t c;
  __host__ __device__ bool operator==(const triple& other) const
  {
    return a == other.a && b == other.b && c == other.c;
  }
};

struct constant_generator
{
  std::int64_t value;
  __host__ __device__ std::int64_t operator()() const
  {
    return value;
  }
};

struct is_odd
{
  __host__ __device__ bool operator()(std::int32_t x) const
  {
    return (x & 1) != 0;
  }
};

struct negate
{
  __host__ __device__ std::int32_t operator()(std::int32_t x) const
  {
    return static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(x));
  }
};

struct sum_if_first_larger
{
  __host__ __device__ bool operator()(std::int32_t x, double y) const
  {
    return double(x) > y;
  }
};

struct sum_of
{
  __host__ __device__ double operator()(std::int32_t x, double y) const
  {
    return double(x) + y;
  }
};

struct sum_and_difference
{
  __host__ __device__ cuda::std::tuple<std::int64_t, std::int32_t> operator()(std::int32_t x, std::int32_t y) const
  {
    return {std::int64_t(x) + y,
            static_cast<std::int32_t>(static_cast<std::uint32_t>(x) - static_cast<std::uint32_t>(y))};
  }
};

//! TransformIf over a counting sequence and a double: every third index kept, as a triple.
struct every_third
{
  __host__ __device__ bool operator()(std::int32_t i, double) const
  {
    return i % 3 == 0;
  }
};
struct make_triple
{
  __host__ __device__ triple operator()(std::int32_t i, double y) const
  {
    return {i, float(y), std::uint32_t(i) * 2654435761u};
  }
};

template <typename T>
void check_fill(std::size_t n, T value)
{
  INFO("n " << n);
  strata_test::device_buffer<T> out(n + 1);
  out.poison();
  size_t bytes = 0;
  REQUIRE(strata::DeviceTransform::Fill(nullptr, bytes, out.data(), n, value) == cudaSuccess);
  strata_test::device_buffer<unsigned char> temp(bytes);
  REQUIRE(strata::DeviceTransform::Fill(temp.data(), bytes, out.data(), n, value) == cudaSuccess);
  strata_test::check_launch();
  const std::vector<T> got = out.download();
  std::size_t wrong        = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    wrong += !(got[i] == value);
  }
  CHECK(wrong == 0);
  const T poison = strata_test::poison_value<T>();
  CHECK(std::memcmp(&got[n], &poison, sizeof(T)) == 0);
}
} // namespace

TEST_CASE("DeviceTransform::Fill writes the value to every item and no further", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  for (const std::size_t n : more_sizes())
  {
    check_fill<std::uint8_t>(n, 0x5A);
    check_fill<std::int32_t>(n, -123457);
    check_fill<double>(n, 2.5e-7);
    check_fill<triple>(n, triple{-7, 0.375f, 0xDEADBEEFu});
  }
}

TEST_CASE("DeviceTransform::Generate writes the generator's value to every item", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  for (const std::size_t n : more_sizes())
  {
    INFO("n " << n);
    strata_test::device_buffer<std::int64_t> out(n + 1);
    out.poison();
    REQUIRE(strata::DeviceTransform::Generate(out.data(), n, constant_generator{std::int64_t(n) * 3 + 1})
            == cudaSuccess);
    strata_test::check_launch();
    const std::vector<std::int64_t> got = out.download();
    std::size_t wrong                   = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      wrong += got[i] != std::int64_t(n) * 3 + 1;
    }
    CHECK(wrong == 0);
    CHECK(got[n] == strata_test::poison_value<std::int64_t>());
  }
}

TEST_CASE("DeviceTransform::TransformIf writes only where the predicate holds", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(431);
  INFO("seed " << seed);
  for (const std::size_t n : more_sizes())
  {
    INFO("n " << n);
    const std::vector<std::int32_t> a      = strata_test::random_vector<std::int32_t>(n, seed + n);
    const std::vector<double> b            = strata_test::random_vector<double>(n, seed + n + 1, -1e9, 1e9);
    const std::vector<std::int32_t> before = strata_test::random_vector<std::int32_t>(n, seed + n + 2);
    strata_test::device_buffer<std::int32_t> d_a(a);
    strata_test::device_buffer<double> d_b(b);
    // One input, into a buffer holding other values: the rejected items keep them.
    strata_test::device_buffer<std::int32_t> out(before);
    size_t bytes = 0;
    REQUIRE(strata::DeviceTransform::TransformIf(nullptr, bytes, d_a.data(), out.data(), n, is_odd{}, negate{})
            == cudaSuccess);
    strata_test::device_buffer<unsigned char> temp(bytes);
    REQUIRE(strata::DeviceTransform::TransformIf(temp.data(), bytes, d_a.data(), out.data(), n, is_odd{}, negate{})
            == cudaSuccess);
    std::vector<std::int32_t> want = before;
    for (std::size_t i = 0; i < n; ++i)
    {
      if (is_odd{}(a[i]))
      {
        want[i] = negate{}(a[i]);
      }
    }
    CHECK(out.download() == want);
    // Two inputs into a poisoned buffer.
    strata_test::device_buffer<double> sums(n);
    sums.poison();
    REQUIRE(strata::DeviceTransform::TransformIf(cuda::std::make_tuple(d_a.data(), d_b.data()), sums.data(), n,
                                                 sum_if_first_larger{}, sum_of{})
            == cudaSuccess);
    const std::vector<double> got_sums = sums.download();
    std::size_t wrong                  = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      const double poison = strata_test::poison_value<double>();
      wrong += sum_if_first_larger{}(a[i], b[i]) ? got_sums[i] != sum_of{}(a[i], b[i])
                                                 : std::memcmp(&got_sums[i], &poison, sizeof(double)) != 0;
    }
    CHECK(wrong == 0);
    // In place.
    REQUIRE(strata::DeviceTransform::TransformIf(d_a.data(), d_a.data(), n, is_odd{}, negate{}) == cudaSuccess);
    std::vector<std::int32_t> in_place = a;
    for (std::int32_t& x : in_place)
    {
      x = is_odd{}(x) ? negate{}(x) : x;
    }
    CHECK(d_a.download() == in_place);
  }
}

TEST_CASE("DeviceTransform::TransformIf reads an iterator and a misaligned input into a misaligned output",
          "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(435);
  INFO("seed " << seed);
  for (const std::size_t n :
       {std::size_t(1), std::size_t(2047), std::size_t(2048), std::size_t(2049), std::size_t(100003)})
  {
    INFO("n " << n);
    const std::vector<double> b = strata_test::random_vector<double>(n + 1, seed + n, -1e3, 1e3);
    strata_test::device_buffer<double> d_b(b);
    strata_test::device_buffer<triple> out(n + 2);
    out.poison();
    const auto first = std::int32_t(seed % 1000);
    REQUIRE(strata::DeviceTransform::TransformIf(
                cuda::std::make_tuple(strata::CountingInputIterator<std::int32_t>(first), d_b.data() + 1),
                out.data() + 1, n, every_third{}, make_triple{})
            == cudaSuccess);
    strata_test::check_launch();
    const std::vector<triple> got = out.download();
    const triple poison           = strata_test::poison_value<triple>();
    std::size_t wrong             = 0;
    for (std::size_t i = 0; i < n + 2; ++i)
    {
      const bool inside = i >= 1 && i <= n;
      const auto index  = first + std::int32_t(i) - 1;
      if (inside && every_third{}(index, 0.0))
      {
        wrong += !(got[i] == make_triple{}(index, b[i]));
      }
      else
      {
        wrong += std::memcmp(&got[i], &poison, sizeof(triple)) != 0;
      }
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("DeviceTransform::Transform writes a tuple's elements to several outputs", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(433);
  INFO("seed " << seed);
  for (const std::size_t n : more_sizes())
  {
    INFO("n " << n);
    const std::vector<std::int32_t> x = strata_test::random_vector<std::int32_t>(n, seed + n);
    const std::vector<std::int32_t> y = strata_test::random_vector<std::int32_t>(n, seed + n + 1);
    strata_test::device_buffer<std::int32_t> d_x(x);
    strata_test::device_buffer<std::int32_t> d_y(y);
    strata_test::device_buffer<std::int64_t> sums(n + 1);
    sums.poison();
    size_t bytes = 0;
    // The differences go over y, in place.
    REQUIRE(strata::DeviceTransform::Transform(nullptr, bytes, cuda::std::make_tuple(d_x.data(), d_y.data()),
                                               cuda::std::make_tuple(sums.data(), d_y.data()), n, sum_and_difference{})
            == cudaSuccess);
    strata_test::device_buffer<unsigned char> temp(bytes);
    REQUIRE(strata::DeviceTransform::Transform(temp.data(), bytes, cuda::std::make_tuple(d_x.data(), d_y.data()),
                                               cuda::std::make_tuple(sums.data(), d_y.data()), n, sum_and_difference{})
            == cudaSuccess);
    std::vector<std::int64_t> want_sums(n + 1, strata_test::poison_value<std::int64_t>());
    std::vector<std::int32_t> want_differences(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      want_sums[i]        = cuda::std::get<0>(sum_and_difference{}(x[i], y[i]));
      want_differences[i] = cuda::std::get<1>(sum_and_difference{}(x[i], y[i]));
    }
    CHECK(sums.download() == want_sums);
    CHECK(d_y.download() == want_differences);
  }
}

TEST_CASE("DeviceTransform's CUB 3.5 entry points refuse bad arguments and write nothing", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<std::int32_t> in(std::vector<std::int32_t>{1, 2, 3, 4});
  strata_test::device_buffer<std::int32_t> out(4);
  strata_test::device_buffer<std::int64_t> out64(4);
  out.poison();
  out64.poison();
  CHECK(strata::DeviceTransform::Fill(out.data(), -1, 7) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Fill(static_cast<std::int32_t*>(nullptr), 4, 7) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Generate(out64.data(), -3, constant_generator{1}) == cudaErrorInvalidValue);
  CHECK(
      strata::DeviceTransform::TransformIf(static_cast<const std::int32_t*>(nullptr), out.data(), 4, is_odd{}, negate{})
      == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::TransformIf(in.data(), out.data(), -1, is_odd{}, negate{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Transform(cuda::std::make_tuple(in.data(), in.data()),
                                           cuda::std::make_tuple(out64.data(), static_cast<std::int32_t*>(nullptr)), 4,
                                           sum_and_difference{})
        == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (const std::int32_t v : out.download())
  {
    CHECK(v == strata_test::poison_value<std::int32_t>());
  }
  for (const std::int64_t v : out64.download())
  {
    CHECK(v == strata_test::poison_value<std::int64_t>());
  }
}

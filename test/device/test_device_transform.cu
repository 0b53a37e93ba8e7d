// Tests of strata/device/device_transform.cuh: one input and several (two of one item size, the
// bulk-copy path on sm_90; three of one size, the vector path; three of different item sizes,
// the item-wise path), aligned and misaligned pointers (each path's fallback), in place, a fancy
// input iterator, sizes from 0 to 2^24 + 13 with every item past the end left untouched, the
// temporary-storage forms, bad arguments (rejected, nothing written), and runs inside a CUDA
// graph and on two streams at once.
#include <strata/device/device_transform.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/behaviour.cuh"
#include "common/streams.cuh"
#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

namespace
{
//! The sizes every test runs; 2^24 + 13 not under the sanitizers (one block a tile: 2^20's code
//! paths again).
std::vector<std::size_t> transform_sizes()
{
  std::vector<std::size_t> sizes = {0, 1, 2, 1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 100003, 1 << 20};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back((1 << 24) + 13);
  }
  return sizes;
}

struct affine
{
  __host__ __device__ std::int32_t operator()(std::int32_t x) const
  {
    return static_cast<std::int32_t>(3u * static_cast<std::uint32_t>(x) + 7u);
  }
};

struct mix
{
  __host__ __device__ double operator()(float a, std::int8_t b, std::uint64_t c) const
  {
    return double(a) * b + double(c % 1000);
  }
};

struct weighted
{
  __host__ __device__ double operator()(double a, std::int64_t b) const
  {
    return a * 0.5 - double(b % 100000);
  }
};

struct blend
{
  __host__ __device__ float operator()(float a, std::int32_t b, std::uint32_t c) const
  {
    return a * 0.25f + float(b % 16) - float(c % 1024u); // an exact product: contraction changes nothing
  }
};

struct add_index
{
  __host__ __device__ std::int64_t operator()(std::int64_t a, std::int64_t index) const
  {
    return a * 2 + index;
  }
};

//! What a refused DeviceTransform call must leave as it was: the inputs (random), the outputs and
//! the temporary storage of the two-phase form (poisoned).
struct transform_buffers
{
  strata_test::device_buffer<std::int32_t> in;
  strata_test::device_buffer<std::int32_t> out;
  strata_test::device_buffer<double> a;
  strata_test::device_buffer<std::int64_t> b;
  strata_test::device_buffer<double> out_a;
  strata_test::device_buffer<unsigned char> temp{64};

  transform_buffers(std::size_t n, std::uint64_t seed)
      : in(strata_test::random_vector<std::int32_t>(n, seed))
      , out(n)
      , a(strata_test::random_vector<double>(n, seed + 1))
      , b(strata_test::random_vector<std::int64_t>(n, seed + 2))
      , out_a(n)
  {
    out.poison();
    out_a.poison();
    temp.poison();
  }
  auto state() const
  {
    return std::make_tuple(in.download(), out.download(), a.download(), b.download(), out_a.download(),
                           temp.download());
  }
};

//! Runs `launch(offset, n)` for every size and pointer offset and checks out[offset .. offset+n)
//! against `expected(i)`, and that the items around them kept their poison.
template <typename OutT, typename LaunchF, typename ExpectedF>
void check_transform(strata_test::device_buffer<OutT>& d_out, LaunchF launch, ExpectedF expected)
{
  for (std::size_t offset : {std::size_t(0), std::size_t(1)})
  {
    for (std::size_t n : transform_sizes())
    {
      if (n + offset + 1 > d_out.size())
      {
        continue;
      }
      INFO("num_items " << n << ", pointer offset " << offset << " items");
      d_out.poison();
      STRATA_TEST_CUDA(launch(offset, n));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      const std::vector<OutT> out = d_out.download();
      std::vector<OutT> want      = out; // poison everywhere else
      OutT poison;
      std::memset(static_cast<void*>(&poison), strata_test::poison_byte, sizeof(OutT));
      std::fill(want.begin(), want.end(), poison);
      for (std::size_t i = 0; i < n; ++i)
      {
        want[offset + i] = expected(offset + i);
      }
      strata_test::check_equal(want, out);
    }
  }
}
} // namespace

TEST_CASE("DeviceTransform::Transform of one input, aligned and misaligned", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(107);
  INFO("seed " << seed);
  const std::size_t size             = (std::size_t(1) << 24) + 16;
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(size, seed);
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int32_t> d_out(size);
  check_transform(
      d_out,
      [&](std::size_t offset, std::size_t n)
      { return strata::DeviceTransform::Transform(d_in.data() + offset, d_out.data() + offset, n, affine{}); },
      [&](std::size_t i) { return affine{}(in[i]); });
}

TEST_CASE("DeviceTransform::Transform of two inputs of one item size", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(127);
  INFO("seed " << seed);
  const std::size_t size = (std::size_t(1) << 20) + 16;
  const auto a           = strata_test::random_vector<double>(size, seed, -1e6, 1e6);
  const auto b           = strata_test::random_vector<std::int64_t>(size, seed + 1, -1e12, 1e12);
  strata_test::device_buffer<double> d_a(a);
  strata_test::device_buffer<std::int64_t> d_b(b);
  strata_test::device_buffer<double> d_out(size);
  check_transform(
      d_out,
      [&](std::size_t offset, std::size_t n)
      {
        return strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a.data() + offset, d_b.data() + offset),
                                                  d_out.data() + offset, static_cast<std::int64_t>(n), weighted{});
      },
      [&](std::size_t i) { return weighted{}(a[i], b[i]); });
}

TEST_CASE("DeviceTransform::Transform of three inputs of one item size", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(131);
  INFO("seed " << seed);
  const std::size_t size = (std::size_t(1) << 20) + 16;
  const auto a           = strata_test::random_vector<float>(size, seed, -4.0, 4.0);
  const auto b           = strata_test::random_vector<std::int32_t>(size, seed + 1);
  const auto c           = strata_test::random_vector<std::uint32_t>(size, seed + 2);
  strata_test::device_buffer<float> d_a(a);
  strata_test::device_buffer<std::int32_t> d_b(b);
  strata_test::device_buffer<std::uint32_t> d_c(c);
  strata_test::device_buffer<float> d_out(size);
  check_transform(
      d_out,
      [&](std::size_t offset, std::size_t n)
      {
        return strata::DeviceTransform::Transform(
            cuda::std::make_tuple(d_a.data() + offset, d_b.data() + offset, d_c.data() + offset), d_out.data() + offset,
            static_cast<int>(n), blend{});
      },
      [&](std::size_t i) { return blend{}(a[i], b[i], c[i]); });
}

TEST_CASE("DeviceTransform::Transform in place", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(137);
  INFO("seed " << seed);
  const std::size_t size             = (std::size_t(1) << 20) + 16;
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(size, seed);
  strata_test::device_buffer<std::int32_t> d_data(size);
  for (std::size_t offset : {std::size_t(0), std::size_t(1)})
  {
    for (std::size_t n : transform_sizes())
    {
      if (n + offset > size)
      {
        continue;
      }
      INFO("num_items " << n << ", pointer offset " << offset << " items");
      STRATA_TEST_CUDA(cudaMemcpy(d_data.data(), in.data(), size * sizeof(std::int32_t), cudaMemcpyHostToDevice));
      STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_data.data() + offset, d_data.data() + offset, n, affine{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<std::int32_t> want = in;
      for (std::size_t i = offset; i < offset + n; ++i)
      {
        want[i] = affine{}(in[i]);
      }
      strata_test::check_equal(want, d_data.download());
    }
  }
}

TEST_CASE("DeviceTransform::Transform of three inputs of different item sizes", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(109);
  INFO("seed " << seed);
  const std::size_t size = 200016;
  const auto a           = strata_test::random_vector<float>(size, seed, -4.0, 4.0);
  const auto b           = strata_test::random_vector<std::int8_t>(size, seed + 1);
  const auto c           = strata_test::random_vector<std::uint64_t>(size, seed + 2);
  strata_test::device_buffer<float> d_a(a);
  strata_test::device_buffer<std::int8_t> d_b(b);
  strata_test::device_buffer<std::uint64_t> d_c(c);
  strata_test::device_buffer<double> d_out(size);
  check_transform(
      d_out,
      [&](std::size_t offset, std::size_t n)
      {
        std::size_t bytes = 0;
        // The temporary-storage form: one byte, then the same transform.
        const cudaError_t query = strata::DeviceTransform::Transform(
            nullptr, bytes, cuda::std::make_tuple(d_a.data() + offset, d_b.data() + offset, d_c.data() + offset),
            d_out.data() + offset, static_cast<std::int64_t>(n), mix{});
        if (query != cudaSuccess || bytes != 1)
        {
          return cudaErrorUnknown;
        }
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        return strata::DeviceTransform::Transform(
            d_temp.data(), bytes, cuda::std::make_tuple(d_a.data() + offset, d_b.data() + offset, d_c.data() + offset),
            d_out.data() + offset, static_cast<std::int64_t>(n), mix{});
      },
      [&](std::size_t i) { return mix{}(a[i], b[i], c[i]); });
}

TEST_CASE("DeviceTransform::Transform of a pointer and a counting iterator", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(113);
  INFO("seed " << seed);
  const std::size_t size = 300016;
  const auto a           = strata_test::random_vector<std::int64_t>(size, seed, -1e9, 1e9);
  strata_test::device_buffer<std::int64_t> d_a(a);
  strata_test::device_buffer<std::int64_t> d_out(size);
  check_transform(
      d_out,
      [&](std::size_t offset, std::size_t n)
      {
        return strata::DeviceTransform::Transform(
            cuda::std::make_tuple(d_a.data() + offset,
                                  strata::CountingInputIterator<std::int64_t>(static_cast<std::int64_t>(offset))),
            d_out.data() + offset, static_cast<int>(n), add_index{});
      },
      [&](std::size_t i) { return add_index{}(a[i], static_cast<std::int64_t>(i)); });
}

TEST_CASE("DeviceTransform::Transform rejects bad arguments and writes nothing", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(139);
  INFO("seed " << seed);
  const transform_buffers buffers(100003, seed);
  std::int32_t* const in    = buffers.in.data();
  std::int32_t* const out   = buffers.out.data();
  double* const a           = buffers.a.data();
  std::int64_t* const b     = buffers.b.data();
  double* const out_a       = buffers.out_a.data();
  void* const temp          = buffers.temp.data();
  auto* const null_int32    = static_cast<std::int32_t*>(nullptr);
  const std::size_t n       = 100003;
  const std::int64_t n_long = 100003;
  using strata::DeviceTransform;
  using strata_test::check_rejected;
  {
    INFO("a negative item count");
    check_rejected(buffers, [&] { return DeviceTransform::Transform(in, out, -1, affine{}); });
    check_rejected(
        buffers,
        [&] { return DeviceTransform::Transform(cuda::std::make_tuple(a, b), out_a, std::int64_t(-5), weighted{}); });
  }
  {
    INFO("a null input or output with items");
    check_rejected(buffers, [&] { return DeviceTransform::Transform(null_int32, out, n, affine{}); });
    check_rejected(buffers, [&] { return DeviceTransform::Transform(in, null_int32, n, affine{}); });
    check_rejected(buffers,
                   [&]
                   {
                     return DeviceTransform::Transform(cuda::std::make_tuple(a, static_cast<std::int64_t*>(nullptr)),
                                                       out_a, n_long, weighted{});
                   });
  }
  {
    INFO("the temporary-storage form: its temporary storage untouched too");
    std::size_t bytes = buffers.temp.size();
    check_rejected(buffers,
                   [&] {
                     return DeviceTransform::Transform(temp, bytes, cuda::std::make_tuple(a, b), out_a,
                                                       std::int64_t(-1), weighted{});
                   });
  }
  // No items: nothing to do, even with null pointers.
  CHECK(DeviceTransform::Transform(null_int32, null_int32, 0, affine{}) == cudaSuccess);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("DeviceTransform::Transform runs inside a CUDA graph and on two streams at once", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(149);
  INFO("seed " << seed);
  const std::size_t n                = 3000017;
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(n, seed);
  const auto a                       = strata_test::random_vector<double>(n, seed + 1, -1e6, 1e6);
  const auto b                       = strata_test::random_vector<std::int64_t>(n, seed + 2, -1e12, 1e12);
  std::vector<std::int32_t> expected(n);
  std::vector<double> expected_a(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i]   = affine{}(in[i]);
    expected_a[i] = weighted{}(a[i], b[i]);
  }
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int32_t> d_out(n);
  strata_test::device_buffer<double> d_a(a);
  strata_test::device_buffer<std::int64_t> d_b(b);
  strata_test::device_buffer<double> d_out_a(n);
  // One item, two inputs of one size (on sm_90 the bulk-copy path): different kernels at once.
  auto run_one = [&](cudaStream_t stream)
  { return strata::DeviceTransform::Transform(d_in.data(), d_out.data(), n, affine{}, stream); };
  auto run_two = [&](cudaStream_t stream)
  {
    return strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a.data(), d_b.data()), d_out_a.data(),
                                              static_cast<std::int64_t>(n), weighted{}, stream);
  };
  const strata_test::stream_pair streams;

  SECTION("graph capture and replay")
  {
    strata_test::check_graph_replay(
        streams[0], run_one, [&] { d_out.poison(); }, [&] { strata_test::check_equal(expected, d_out.download()); });
    strata_test::check_graph_replay(
        streams[1], run_two, [&] { d_out_a.poison(); },
        [&] { strata_test::check_equal(expected_a, d_out_a.download()); });
  }
  SECTION("two streams")
  {
    d_out.poison();
    d_out_a.poison();
    strata_test::run_on_two_streams(streams, run_one, run_two);
    strata_test::check_equal(expected, d_out.download());
    strata_test::check_equal(expected_a, d_out_a.download());
  }
}

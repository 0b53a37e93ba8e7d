// Tests of strata/device/device_for.cuh: Bulk, ForEach, ForEachN, ForEachCopy and ForEachCopyN
// (with and without temporary storage), over several item types, aligned and misaligned pointers
// (ForEachCopy's vector path and its fallback), a fancy iterator, sizes from 0 to 2^24 + 13 with
// every item outside the range left untouched; bad arguments; a CUDA graph and two streams; more
// than 2^31 items ([slow]).
#include <strata/device/device_for.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <cstdint>
#include <cstring>
#include <vector>

namespace
{
const std::vector<std::size_t> for_sizes = {0,    1,    2,      511,    512,     513,    2047,
                                            2048, 2049, 100003, 1 << 20, (1 << 24) + 13};

//! x = 2x + 1 (wrapping for integers; exact before the one rounding for floating point, so a
//! fused multiply-add on the device gives the host's result).
struct affine_in_place
{
  template <typename T>
  __device__ void operator()(T& x) const
  {
    x = T(x * T(2) + T(1));
  }
};

template <typename T>
T affine_host(T x)
{
  return T(x * T(2) + T(1));
}

//! Writes 2v + 1 at out[v % size] for each value v (values are distinct indices in the tests).
template <typename T>
struct scatter_copy
{
  T* out;
  std::size_t size;
  __device__ void operator()(T v) const
  {
    out[static_cast<std::size_t>(v) % size] = T(2 * v + 1);
  }
};

struct bulk_write
{
  std::int64_t* out;
  template <typename I>
  __device__ void operator()(I i) const
  {
    out[i] = std::int64_t(i) * 5 - 3;
  }
};

struct increment_byte
{
  __device__ void operator()(std::uint8_t& x) const
  {
    ++x;
  }
};

using for_types  = std::tuple<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double>;
using copy_types = std::tuple<std::int32_t, std::uint64_t, std::uint16_t>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceFor::ForEach and ForEachN modify every item in place", "[device][for]", for_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(151);
  INFO("seed " << seed);
  const std::size_t size = (std::size_t(1) << 24) + 16;
  const std::vector<T> in = strata_test::random_vector<T>(size, seed, -100.0, 100.0);
  strata_test::device_buffer<T> d_data(size);
  for (std::size_t offset : {std::size_t(0), std::size_t(1)})
  {
    for (std::size_t n : for_sizes)
    {
      INFO("num_items " << n << ", offset " << offset);
      d_data.upload(in);
      if (n % 2 == 0)
      {
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(d_data.data() + offset, static_cast<std::int64_t>(n),
                                                     affine_in_place{}));
      }
      else
      {
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(strata::DeviceFor::ForEach(nullptr, bytes, d_data.data() + offset,
                                                    d_data.data() + offset + n, affine_in_place{}));
        CHECK(bytes == 1);
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        STRATA_TEST_CUDA(strata::DeviceFor::ForEach(d_temp.data(), bytes, d_data.data() + offset,
                                                    d_data.data() + offset + n, affine_in_place{}));
      }
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<T> expected = in;
      for (std::size_t i = offset; i < offset + n; ++i)
      {
        expected[i] = affine_host(in[i]);
      }
      strata_test::check_equal(expected, d_data.download());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceFor::ForEachCopy and ForEachCopyN hand every item to the operator", "[device][for]",
                        copy_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::size_t size   = std::is_same_v<T, std::uint16_t> ? 60000 : (std::size_t(1) << 24) + 16;
  // Values are the indices: each item's operator call writes a distinct output slot.
  std::vector<T> in(size);
  for (std::size_t i = 0; i < size; ++i)
  {
    in[i] = T(i);
  }
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(size);
  for (std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(3)})
  {
    for (std::size_t n : for_sizes)
    {
      if (offset + n > size)
      {
        continue;
      }
      INFO("num_items " << n << ", offset " << offset);
      d_out.poison();
      const scatter_copy<T> op{d_out.data(), size};
      if (n % 2 == 0)
      {
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(d_in.data() + offset, static_cast<int>(n), op));
      }
      else
      {
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopy(d_in.data() + offset, d_in.data() + offset + n, op));
      }
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      const std::vector<T> out = d_out.download();
      std::vector<T> expected(size);
      std::memset(static_cast<void*>(expected.data()), strata_test::poison_byte, size * sizeof(T));
      for (std::size_t i = offset; i < offset + n; ++i)
      {
        expected[i] = T(2 * in[i] + 1);
      }
      strata_test::check_equal(expected, out);
    }
  }
}

TEST_CASE("DeviceFor::ForEachCopyN over a counting iterator, and Bulk", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::size_t size = (std::size_t(1) << 20) + 7;
  strata_test::device_buffer<std::uint64_t> d_out(size);
  d_out.poison();
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(strata::CountingInputIterator<std::uint64_t>(0), size,
                                                   scatter_copy<std::uint64_t>{d_out.data(), size}));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  const std::vector<std::uint64_t> out = d_out.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < size; ++i)
  {
    wrong += out[i] != 2 * i + 1;
  }
  CHECK(wrong == 0);

  strata_test::device_buffer<std::int64_t> d_bulk(size + 1);
  for (std::size_t n : for_sizes)
  {
    if (n > size)
    {
      continue;
    }
    INFO("shape " << n);
    d_bulk.poison();
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(strata::DeviceFor::Bulk(nullptr, bytes, static_cast<int>(n), bulk_write{d_bulk.data()}));
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(strata::DeviceFor::Bulk(d_temp.data(), bytes, static_cast<int>(n), bulk_write{d_bulk.data()}));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const std::vector<std::int64_t> bulk = d_bulk.download();
    std::vector<std::int64_t> expected(size + 1);
    std::memset(static_cast<void*>(expected.data()), strata_test::poison_byte, expected.size() * sizeof(std::int64_t));
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = std::int64_t(i) * 5 - 3;
    }
    strata_test::check_equal(expected, bulk);
  }
}

TEST_CASE("DeviceFor rejects bad arguments and runs in graphs and on two streams", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<std::int32_t> d(1000);
  CHECK(strata::DeviceFor::ForEachN(d.data(), -1, affine_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachN(static_cast<std::int32_t*>(nullptr), 10, affine_in_place{})
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEach(d.data() + 5, d.data(), affine_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::Bulk(-3, bulk_write{nullptr}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachN(static_cast<std::int32_t*>(nullptr), 0, affine_in_place{}) == cudaSuccess);

  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(1000, strata_test::seed(157));
  strata_test::device_buffer<std::int32_t> d_other(1000);
  cudaStream_t streams[2];
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&streams[0], cudaStreamNonBlocking));
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&streams[1], cudaStreamNonBlocking));
  d.upload(in);
  d_other.upload(in);
  // A captured ForEachN replayed twice: two applications of the operator.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeThreadLocal));
  const cudaError_t captured = strata::DeviceFor::ForEachN(d.data(), 1000, affine_in_place{}, streams[0]);
  STRATA_TEST_CUDA(cudaStreamEndCapture(streams[0], &graph));
  STRATA_TEST_CUDA(captured);
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  STRATA_TEST_CUDA(cudaGraphLaunch(exec, streams[0]));
  STRATA_TEST_CUDA(cudaGraphLaunch(exec, streams[0]));
  // Meanwhile on the other stream, one application.
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(d_other.data(), 1000, affine_in_place{}, streams[1]));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<std::int32_t> twice(1000);
  std::vector<std::int32_t> once(1000);
  for (int i = 0; i < 1000; ++i)
  {
    once[i]  = affine_host(in[i]);
    twice[i] = affine_host(once[i]);
  }
  strata_test::check_equal(twice, d.download());
  strata_test::check_equal(once, d_other.download());
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(streams[0]));
  STRATA_TEST_CUDA(cudaStreamDestroy(streams[1]));
}

TEST_CASE("DeviceFor::ForEachN over more than 2^31 items", "[device][for][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t(1) << 31) + 1000;
  strata_test::device_buffer<std::uint8_t> d(static_cast<std::size_t>(n));
  STRATA_TEST_CUDA(cudaMemset(d.data(), 5, static_cast<std::size_t>(n)));
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(d.data(), n, increment_byte{}));
  // Every byte is now 6: their sum says none was missed or done twice.
  const std::int64_t sum = strata_test::run_reduce<std::int64_t>([&](void* d_temp, std::size_t& bytes,
                                                                     std::int64_t* d_out) {
    return strata::DeviceReduce::Sum(d_temp, bytes, d.data(), d_out, n);
  });
  CHECK(sum == 6 * n);
}

// Tests of strata/device/device_transform.cuh, part 2: one input of 1-, 2-, 4- and 8-byte items with
// input and output at different offsets from their allocation (both misaligned, only one, by
// different amounts), a TransformInputIterator input, results through an output iterator that
// transforms them and into a DiscardOutputIterator, every item outside the range left untouched;
// and more than 2^31 and 2^32 items in place ([slow]: the 32-bit and the 64-bit offset kernels,
// one 4 GiB buffer of bytes).
#include <strata/device/device_transform.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/output_iterators.cuh"
#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
const std::vector<std::size_t> transform_sizes = {0, 1, 2, 15, 16, 17, 1023, 4097, 100003, (std::size_t(1) << 20) + 3};

//! 5 x + 1 in T's unsigned arithmetic (wrapping).
struct five_x_plus_one
{
  template <typename T>
  __host__ __device__ T operator()(T x) const
  {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) * 5u + 1u));
  }
};

struct widen_and_negate
{
  __host__ __device__ std::int64_t operator()(std::int16_t x) const
  {
    return -std::int64_t(x) * 1000;
  }
};

using misaligned_types = std::tuple<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceTransform::Transform with input and output at different offsets", "[device][transform]",
                        misaligned_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(901);
  INFO("seed " << seed);
  const std::size_t size  = transform_sizes.back() + 8;
  const std::vector<T> in = strata_test::random_vector<T>(size, seed);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(size);
  const std::vector<std::pair<std::size_t, std::size_t>> offsets = {{1, 1}, {1, 0}, {0, 1}, {3, 5}, {7, 2}};
  for (const auto& [in_offset, out_offset] : offsets)
  {
    for (std::size_t n : transform_sizes)
    {
      INFO("num_items " << n << ", input at +" << in_offset << ", output at +" << out_offset);
      d_out.poison();
      STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_in.data() + in_offset, d_out.data() + out_offset,
                                                          static_cast<std::int64_t>(n), five_x_plus_one{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<T> want(size, strata_test::poison_value<T>());
      for (std::size_t i = 0; i < n; ++i)
      {
        want[out_offset + i] = five_x_plus_one{}(in[in_offset + i]);
      }
      strata_test::check_equal(want, d_out.download());
    }
  }
}

TEST_CASE("DeviceTransform::Transform of iterators into iterators", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(903);
  INFO("seed " << seed);
  const std::size_t size             = transform_sizes.back() + 2;
  const std::vector<std::int16_t> in = strata_test::random_vector<std::int16_t>(size, seed);
  strata_test::device_buffer<std::int16_t> d_in(in);
  strata_test::device_buffer<std::int64_t> d_out(size);
  using WideT   = strata::TransformInputIterator<std::int64_t, widen_and_negate, const std::int16_t*>;
  using OutputT = strata_test::transform_output<std::int64_t, five_x_plus_one>;
  for (std::size_t n : transform_sizes)
  {
    INFO("num_items " << n);
    {
      INFO("a TransformInputIterator over d_in + 1 into d_out + 1");
      d_out.poison();
      STRATA_TEST_CUDA(
          strata::DeviceTransform::Transform(WideT(d_in.data() + 1, {}), d_out.data() + 1, n, five_x_plus_one{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<std::int64_t> want(size, strata_test::poison_value<std::int64_t>());
      for (std::size_t i = 0; i < n; ++i)
      {
        want[1 + i] = five_x_plus_one{}(widen_and_negate{}(in[1 + i]));
      }
      strata_test::check_equal(want, d_out.download());
    }
    {
      INFO("d_in + 1 into an output iterator at d_out + 1");
      d_out.poison();
      STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_in.data() + 1, OutputT(d_out.data() + 1, {}),
                                                          static_cast<int>(n), widen_and_negate{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<std::int64_t> want(size, strata_test::poison_value<std::int64_t>());
      for (std::size_t i = 0; i < n; ++i)
      {
        want[1 + i] = five_x_plus_one{}(widen_and_negate{}(in[1 + i]));
      }
      strata_test::check_equal(want, d_out.download());
    }
    {
      INFO("into a DiscardOutputIterator");
      STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_in.data() + 1, strata::DiscardOutputIterator<>{}, n,
                                                          widen_and_negate{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
    }
  }
}

TEST_CASE("DeviceTransform::Transform in place past 2^31 and 2^32 items", "[device][transform][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::size_t tail = 64;
  const std::size_t big  = (std::size_t(1) << 32) + 1000;
  strata_test::device_buffer<std::uint8_t> d_data(big + tail);
  // Item i of the planted ones holds byte 7 + i; every other item 3. Bytes past n stay 3.
  const std::vector<std::size_t> planted = {0,
                                            (std::size_t(1) << 31) - 1,
                                            std::size_t(1) << 31,
                                            (std::size_t(1) << 31) + 999,
                                            (std::size_t(1) << 32) - 1,
                                            std::size_t(1) << 32,
                                            big - 1};
  for (std::size_t n : {(std::size_t(1) << 31) + 1000, big})
  {
    INFO("num_items " << n);
    STRATA_TEST_CUDA(cudaMemset(d_data.data(), 3, d_data.bytes()));
    for (std::size_t k = 0; k < planted.size(); ++k)
    {
      const auto byte = static_cast<std::uint8_t>(7 + k);
      STRATA_TEST_CUDA(cudaMemcpy(d_data.data() + planted[k], &byte, 1, cudaMemcpyHostToDevice));
    }
    STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_data.data(), d_data.data(), static_cast<std::int64_t>(n),
                                                        five_x_plus_one{}));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const std::vector<std::uint8_t> out = d_data.download();
    std::vector<std::uint8_t> want(out.size(), 3);
    for (std::size_t k = 0; k < planted.size(); ++k)
    {
      want[planted[k]] = static_cast<std::uint8_t>(7 + k);
    }
    for (std::size_t i = 0; i < n; ++i)
    {
      want[i] = five_x_plus_one{}(want[i]);
    }
    std::size_t wrong = 0;
    std::size_t first = out.size();
    for (std::size_t i = 0; i < out.size(); ++i)
    {
      if (out[i] != want[i])
      {
        first = std::min(first, i);
        ++wrong;
      }
    }
    INFO(wrong << " bytes differ, the first at " << first);
    CHECK(wrong == 0);
  }
}

// Tests of DeviceReduce::ArgMinMax and ArgMinLastMax (CUB's main branch, 3.6) against a host loop:
// int32, float, uint8 and double items of random values and of few distinct ones (long ties, where
// the first minimum and the first or last maximum must win), sizes from 0 (nothing written) through
// a tile's neighbours to 2^24 + 13, from a misaligned start and through an iterator, under less, a
// comparator of absolute values and greater; outputs of other types; the single-call forms; and bad
// arguments, refused with nothing written.
#include <strata/device/device_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"

#include <cuda/std/functional>

#include <cstdint>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;

//! Orders by absolute value.
struct abs_less
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return (a < 0 ? -a : a) < (b < 0 ? -b : b);
  }
};

//! The host's (min, min index, max, max index) under comp: the first minimum, and the first or
//! (LAST_MAX) the last maximum.
template <bool LAST_MAX, typename T, typename CompareOpT>
void host_minmax(const std::vector<T>& in, CompareOpT comp, T& min, std::int64_t& min_index, T& max,
                 std::int64_t& max_index)
{
  min_index = 0;
  max_index = 0;
  for (std::size_t i = 1; i < in.size(); ++i)
  {
    if (comp(in[i], in[std::size_t(min_index)]))
    {
      min_index = std::int64_t(i);
    }
    if (LAST_MAX ? !comp(in[i], in[std::size_t(max_index)]) : comp(in[std::size_t(max_index)], in[i]))
    {
      max_index = std::int64_t(i);
    }
  }
  min = in[std::size_t(min_index)];
  max = in[std::size_t(max_index)];
}

template <bool LAST_MAX, typename... Args>
cudaError_t arg_minmax(Args&&... args)
{
  if constexpr (LAST_MAX)
  {
    return strata::DeviceReduce::ArgMinLastMax(std::forward<Args>(args)...);
  }
  else
  {
    return strata::DeviceReduce::ArgMinMax(std::forward<Args>(args)...);
  }
}

//! ArgMinMax (or ArgMinLastMax) of `in` from `offset` on, under comp, against the host.
template <bool LAST_MAX, typename T, typename CompareOpT>
void check(const std::vector<T>& all, std::size_t offset, CompareOpT comp)
{
  const std::vector<T> in(all.begin() + std::ptrdiff_t(offset), all.end());
  INFO("items " << in.size() << ", offset " << offset << ", last max " << LAST_MAX);
  device_buffer<T> d_all(all);
  device_buffer<T> d_min(1);
  device_buffer<T> d_max(1);
  device_buffer<std::int64_t> d_indices(2);
  d_min.poison();
  d_max.poison();
  d_indices.poison();
  strata_test::run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      {
        return arg_minmax<LAST_MAX>(d_temp, bytes, d_all.data() + offset, d_min.data(), d_indices.data(), d_max.data(),
                                    d_indices.data() + 1, std::int64_t(in.size()), comp);
      });
  const std::vector<std::int64_t> indices = d_indices.download();
  if (in.empty())
  {
    CHECK(indices[0] == strata_test::poison_value<std::int64_t>());
    CHECK(indices[1] == strata_test::poison_value<std::int64_t>());
    return;
  }
  T min{};
  T max{};
  std::int64_t min_index = 0;
  std::int64_t max_index = 0;
  host_minmax<LAST_MAX>(in, comp, min, min_index, max, max_index);
  CHECK(indices[0] == min_index);
  CHECK(indices[1] == max_index);
  CHECK(d_min.download()[0] == min);
  CHECK(d_max.download()[0] == max);
}

template <typename T>
void check_type(std::uint64_t seed)
{
  std::vector<std::size_t> sizes = {0, 1, 2, 31, 4095, 4096, 4097, 100003, (std::size_t(1) << 20) + 7};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 24) + 13);
  }
  for (const std::size_t n : sizes)
  {
    // Random values, and few distinct ones (every extreme tied many times).
    const std::vector<T> random = strata_test::random_vector<T>(n + 1, seed + n, -100.0, 100.0);
    const std::vector<T> few    = strata_test::random_vector<T>(n + 1, seed + n + 1, 0.0, 4.0);
    check<false>(random, 1, cuda::std::less<>{}); // misaligned by one item
    check<true>(random, 1, cuda::std::less<>{});
    check<false>(few, 0, cuda::std::less<>{});
    check<true>(few, 0, cuda::std::less<>{});
  }
}
} // namespace

TEST_CASE("DeviceReduce::ArgMinMax and ArgMinLastMax match the host", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(491);
  INFO("seed " << seed);
  check_type<std::int32_t>(seed);
  check_type<float>(seed + 1);
  check_type<double>(seed + 2);
  check_type<std::uint8_t>(seed + 3);
}

TEST_CASE("DeviceReduce::ArgMinMax under other comparators", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(499);
  INFO("seed " << seed);
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(300001, seed, -1000.0, 1000.0);
  check<false>(in, 0, abs_less{});
  check<true>(in, 0, abs_less{});
  check<false>(in, 0, cuda::std::greater<>{});
  check<true>(in, 3, cuda::std::greater<>{});
}

namespace
{
//! Item i of the iterator input: a zigzag with its extremes repeated.
struct zigzag
{
  __host__ __device__ float operator()(std::int64_t i) const
  {
    return float((i * 7919) % 1000) - 500.0f;
  }
};
} // namespace

TEST_CASE("DeviceReduce::ArgMinMax reads iterators, writes other types, and has single-call forms", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::int64_t n = 1000003;
  const strata::TransformInputIterator<float, zigzag, strata::CountingInputIterator<std::int64_t>> in(
      strata::CountingInputIterator<std::int64_t>(0), zigzag{});
  std::vector<float> host(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
  {
    host[std::size_t(i)] = zigzag{}(i);
  }
  float min{};
  float max{};
  std::int64_t min_index = 0;
  std::int64_t max_index = 0;
  host_minmax<true>(host, cuda::std::less<>{}, min, min_index, max, max_index);
  device_buffer<double> d_min(1);
  device_buffer<double> d_max(1);
  device_buffer<std::int32_t> d_min_index(1);
  device_buffer<std::int64_t> d_max_index(1);
  REQUIRE(strata::DeviceReduce::ArgMinLastMax(in, d_min.data(), d_min_index.data(), d_max.data(), d_max_index.data(), n)
          == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
  CHECK(d_min.download()[0] == double(min));
  CHECK(d_max.download()[0] == double(max));
  CHECK(d_min_index.download()[0] == std::int32_t(min_index));
  CHECK(d_max_index.download()[0] == max_index);
  host_minmax<false>(host, cuda::std::greater<>{}, min, min_index, max, max_index);
  REQUIRE(strata::DeviceReduce::ArgMinMax(in, d_min.data(), d_min_index.data(), d_max.data(), d_max_index.data(), n,
                                          cuda::std::greater<>{}, nullptr)
          == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
  CHECK(d_min.download()[0] == double(min));
  CHECK(d_max.download()[0] == double(max));
  CHECK(d_min_index.download()[0] == std::int32_t(min_index));
  CHECK(d_max_index.download()[0] == max_index);
}

TEST_CASE("DeviceReduce::ArgMinMax refuses bad arguments and writes nothing", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  device_buffer<std::int32_t> in(std::vector<std::int32_t>{3, 1, 4, 1, 5});
  device_buffer<std::int32_t> values(2);
  device_buffer<std::int64_t> indices(2);
  values.poison();
  indices.poison();
  device_buffer<unsigned char> temp(4096);
  std::size_t bytes = temp.bytes();
  CHECK(strata::DeviceReduce::ArgMinMax(temp.data(), bytes, in.data(), values.data(), indices.data(), values.data() + 1,
                                        indices.data() + 1, -1)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceReduce::ArgMinMax(temp.data(), bytes, in.data(), static_cast<std::int32_t*>(nullptr),
                                        indices.data(), values.data() + 1, indices.data() + 1, 5)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceReduce::ArgMinLastMax(temp.data(), bytes, in.data(), values.data(), indices.data(),
                                            values.data() + 1, static_cast<std::int64_t*>(nullptr), 5)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceReduce::ArgMinMax(temp.data(), bytes, static_cast<const std::int32_t*>(nullptr), values.data(),
                                        indices.data(), values.data() + 1, indices.data() + 1, 5)
        == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (const std::int32_t v : values.download())
  {
    CHECK(v == strata_test::poison_value<std::int32_t>());
  }
  for (const std::int64_t v : indices.download())
  {
    CHECK(v == strata_test::poison_value<std::int64_t>());
  }
}

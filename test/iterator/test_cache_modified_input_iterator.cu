// Tests of strata/iterator/cache_modified_input_iterator.cuh: the members that work on the host
// (the pointer arithmetic), and reads on the device with every cache operator and several
// value types, at random offsets before and after the iterator's position.
#include <strata/iterator/cache_modified_input_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <cstdint>
#include <iterator>
#include <sstream>

TEMPLATE_TEST_CASE("CacheModifiedInputIterator: members on the host", "[iterator][cache_modified]", std::int32_t,
                   strata_test::custom_t)
{
  using T  = TestType;
  using It = strata::CacheModifiedInputIterator<strata::LOAD_LDG, T>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_same_v<typename It::value_type, T>);
  STATIC_REQUIRE(std::is_same_v<typename It::reference, T>);
  STATIC_REQUIRE(std::is_same_v<typename It::pointer, T*>);
  STATIC_REQUIRE(std::is_same_v<typename It::difference_type, std::ptrdiff_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(It::ptr), T*>);

  // The iterator only moves its pointer on the host, so host memory serves.
  T data[32] = {};
  It it(data + 8);
  CHECK(it.ptr == data + 8);
  CHECK(It(static_cast<const T*>(data)).ptr == data);
  CHECK(It{}.ptr == nullptr);

  It& pre = ++it;
  CHECK(&pre == &it);
  CHECK(it.ptr == data + 9);
  CHECK((it++).ptr == data + 9);
  CHECK(it.ptr == data + 10);
  CHECK(&(--it) == &it);
  CHECK(it.ptr == data + 9);
  CHECK((it--).ptr == data + 9);
  CHECK(it.ptr == data + 8);

  CHECK(&(it += 10) == &it);
  CHECK(it.ptr == data + 18);
  CHECK(&(it -= 4) == &it);
  CHECK(it.ptr == data + 14);
  CHECK((it + 3).ptr == data + 17);
  CHECK((3 + it).ptr == data + 17);
  CHECK((it - 3).ptr == data + 11);
  CHECK(It(data + 20) - It(data + 5) == 15);
  CHECK(It(data + 5) - It(data + 20) == -15);
  CHECK(it == It(data + 14));
  CHECK(it != It(data + 15));
  CHECK(it < it + 1);
  CHECK(it + 1 > it);
  CHECK(it <= it);
  CHECK(it >= it);
  CHECK_FALSE(it > it);
  CHECK(std::distance(It(data), It(data + 9)) == 9);
  CHECK(std::next(it, 4).ptr == data + 18);

  std::ostringstream expected;
  expected << "[" << static_cast<const void*>(data + 14) << "]";
  std::ostringstream os;
  os << it;
  CHECK(os.str() == expected.str());
}

namespace
{
// Reads `data` through an iterator at its middle: offsets reach the first and the last item.
template <strata::CacheLoadModifier MODIFIER, typename T>
void check_modifier(std::uint64_t seed)
{
  INFO("seed " << seed << ", modifier " << static_cast<int>(MODIFIER));
  for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(4099)})
  {
    const std::vector<T> data = strata_test::random_vector<T>(n, seed + n);
    strata_test::device_buffer<T> d_data(data);
    const auto middle  = static_cast<std::ptrdiff_t>(n / 2);
    const auto last    = static_cast<std::ptrdiff_t>(n) - 1 - middle;
    const auto offsets = n < 3 ? std::vector<std::ptrdiff_t>{0}
                               : iterator_test::random_offsets<std::ptrdiff_t>(2 * n, seed + 2 * n, -middle, last);
    std::vector<T> expected(offsets.size());
    for (std::size_t i = 0; i < offsets.size(); ++i)
    {
      expected[i] = data[static_cast<std::size_t>(middle + offsets[i])];
    }
    const T* d_middle = d_data.data() + middle;
    iterator_test::check_device_reads(strata::CacheModifiedInputIterator<MODIFIER, T>(d_middle), offsets, expected);
  }
}

template <strata::CacheLoadModifier MODIFIER>
__global__ void arrow_kernel(strata::CacheModifiedInputIterator<MODIFIER, strata_test::custom_t> it,
                             const std::ptrdiff_t* offsets, std::int32_t* out, int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    out[i] = (it + offsets[i])->b;
  }
}
} // namespace

TEST_CASE("CacheModifiedInputIterator: every load modifier on the device", "[iterator][cache_modified][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  check_modifier<strata::LOAD_DEFAULT, std::int64_t>(seed);
  check_modifier<strata::LOAD_CA, std::int64_t>(seed);
  check_modifier<strata::LOAD_CG, std::int64_t>(seed);
  check_modifier<strata::LOAD_CS, std::int64_t>(seed);
  check_modifier<strata::LOAD_CV, std::int64_t>(seed);
  check_modifier<strata::LOAD_LDG, std::int64_t>(seed);
  check_modifier<strata::LOAD_VOLATILE, std::int64_t>(seed);
}

TEMPLATE_TEST_CASE("CacheModifiedInputIterator: value types on the device", "[iterator][cache_modified][gpu]",
                   std::int8_t, std::int32_t, float, __half, strata_test::custom_t)
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  check_modifier<strata::LOAD_LDG, TestType>(seed);
  check_modifier<strata::LOAD_CS, TestType>(seed);
}

TEST_CASE("CacheModifiedInputIterator: -> reads a member on the device", "[iterator][cache_modified][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  const std::size_t n                           = 777;
  const std::vector<strata_test::custom_t> data = strata_test::random_vector<strata_test::custom_t>(n, seed);
  const auto offsets =
      iterator_test::random_offsets<std::ptrdiff_t>(n, seed + 1, 0, static_cast<std::ptrdiff_t>(n) - 1);
  std::vector<std::int32_t> expected(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = data[static_cast<std::size_t>(offsets[i])].b;
  }
  strata_test::device_buffer<strata_test::custom_t> d_data(data);
  strata_test::device_buffer<std::ptrdiff_t> d_offsets(offsets);
  strata_test::device_buffer<std::int32_t> d_out(n);
  d_out.poison();
  const int count = static_cast<int>(n);
  arrow_kernel<strata::LOAD_LDG><<<(count + 127) / 128, 128>>>(
      strata::CacheModifiedInputIterator<strata::LOAD_LDG, strata_test::custom_t>(d_data.data()), d_offsets.data(),
      d_out.data(), count);
  strata_test::check_launch();
  strata_test::check_equal(expected, d_out.download());
}

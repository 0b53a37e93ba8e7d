// Tests of strata/iterator/cache_modified_output_iterator.cuh: the members that work on the host
// (the pointer arithmetic), and writes on the device with every cache operator and several
// value types, at random offsets before and after the iterator's position.
#include <strata/iterator/cache_modified_output_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <random>
#include <sstream>

TEMPLATE_TEST_CASE("CacheModifiedOutputIterator: members on the host", "[iterator][cache_modified]", std::int32_t,
                   strata_test::custom_t)
{
  using T  = TestType;
  using It = strata::CacheModifiedOutputIterator<strata::STORE_CS, T>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_void_v<typename It::value_type>);
  STATIC_REQUIRE(std::is_void_v<typename It::pointer>);
  STATIC_REQUIRE(std::is_same_v<typename It::difference_type, std::ptrdiff_t>);
  STATIC_REQUIRE(std::is_same_v<strata::detail::non_void_value_t<It, T>, T>);
  STATIC_REQUIRE(::cuda::std::output_iterator<It, T>);
  STATIC_REQUIRE(std::is_same_v<decltype(*std::declval<It>()), typename It::reference>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<It>()[3]), typename It::reference>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<typename It::reference>);

  // The iterator only moves its pointer on the host, so host memory serves; positions are
  // observed through distances and comparisons.
  T data[32] = {};
  const It origin(data);
  It it(data + 8);
  CHECK(it - origin == 8);
  CHECK(It{} == It(static_cast<T*>(nullptr)));
  CHECK(It(static_cast<volatile T*>(data + 8)) == it);

  It& pre = ++it;
  CHECK(&pre == &it);
  CHECK(it - origin == 9);
  CHECK(it++ - origin == 9);
  CHECK(it - origin == 10);
  CHECK(&(--it) == &it);
  CHECK(it - origin == 9);
  CHECK(it-- - origin == 9);
  CHECK(it - origin == 8);

  CHECK(&(it += 10) == &it);
  CHECK(it - origin == 18);
  CHECK(&(it -= 4) == &it);
  CHECK(it - origin == 14);
  CHECK((it + 3) - origin == 17);
  CHECK((3 + it) - origin == 17);
  CHECK((it - 3) - origin == 11);
  CHECK(origin - it == -14);
  CHECK(it == It(data + 14));
  CHECK(it != It(data + 15));
  CHECK(it < it + 1);
  CHECK(it + 1 > it);
  CHECK(it <= it);
  CHECK(it >= it);
  CHECK_FALSE(it > it);
  CHECK(std::distance(origin, it) == 14);
  CHECK(std::next(it, 4) == It(data + 18));

  std::ostringstream expected;
  expected << "[" << static_cast<const void*>(data + 14) << "]";
  std::ostringstream os;
  os << it;
  CHECK(os.str() == expected.str());
}

namespace
{
// Writes values[i] at offsets[i] three ways, into three outputs: by indexing, through
// `it + offset` (or `offset + it`), and by stepping there with every operator. Also records
// the value each assignment returns.
template <strata::CacheStoreModifier MODIFIER, typename T>
__global__ void write_kernel(strata::CacheModifiedOutputIterator<MODIFIER, T> by_index,
                             strata::CacheModifiedOutputIterator<MODIFIER, T> by_sum,
                             strata::CacheModifiedOutputIterator<MODIFIER, T> by_walk, const T* values,
                             const std::ptrdiff_t* offsets, T* returned, int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n)
  {
    return;
  }
  const std::ptrdiff_t offset                         = offsets[i];
  returned[i]                                         = (by_index[offset] = values[i]);
  *((i % 2 == 0) ? by_sum + offset : offset + by_sum) = values[i];
  by_walk -= -offset;
  ++by_walk;
  by_walk++;
  by_walk += 3;
  --by_walk;
  by_walk--;
  by_walk -= 3;
  *by_walk = values[i];
}

// Every item of an output of n is written once, through iterators at the output's middle.
template <strata::CacheStoreModifier MODIFIER, typename T>
void check_modifier(std::uint64_t seed)
{
  using It = strata::CacheModifiedOutputIterator<MODIFIER, T>;
  INFO("seed " << seed << ", modifier " << static_cast<int>(MODIFIER));
  for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(4099)})
  {
    const std::vector<T> values = strata_test::random_vector<T>(n, seed + n);
    const auto middle           = static_cast<std::ptrdiff_t>(n / 2);
    // A random permutation of the offsets -middle .. n - 1 - middle.
    std::vector<std::ptrdiff_t> offsets(n);
    std::iota(offsets.begin(), offsets.end(), -middle);
    std::shuffle(offsets.begin(), offsets.end(), std::mt19937_64(seed + 2 * n));
    std::vector<T> expected(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[static_cast<std::size_t>(middle + offsets[i])] = values[i];
    }

    strata_test::device_buffer<T> d_values(values);
    strata_test::device_buffer<std::ptrdiff_t> d_offsets(offsets);
    strata_test::device_buffer<T> d_by_index(n);
    strata_test::device_buffer<T> d_by_sum(n);
    strata_test::device_buffer<T> d_by_walk(n);
    strata_test::device_buffer<T> d_returned(n);
    d_by_index.poison();
    d_by_sum.poison();
    d_by_walk.poison();
    d_returned.poison();
    const int count = static_cast<int>(n);
    write_kernel<MODIFIER, T><<<(count + 127) / 128, 128>>>(
        It(d_by_index.data() + middle), It(d_by_sum.data() + middle), It(d_by_walk.data() + middle), d_values.data(),
        d_offsets.data(), d_returned.data(), count);
    strata_test::check_launch();
    strata_test::check_equal(expected, d_by_index.download());
    strata_test::check_equal(expected, d_by_sum.download());
    strata_test::check_equal(expected, d_by_walk.download());
    strata_test::check_equal(values, d_returned.download());
  }
}
} // namespace

TEST_CASE("CacheModifiedOutputIterator: every store modifier on the device", "[iterator][cache_modified][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  check_modifier<strata::STORE_DEFAULT, std::int64_t>(seed);
  check_modifier<strata::STORE_WB, std::int64_t>(seed);
  check_modifier<strata::STORE_CG, std::int64_t>(seed);
  check_modifier<strata::STORE_CS, std::int64_t>(seed);
  check_modifier<strata::STORE_WT, std::int64_t>(seed);
  check_modifier<strata::STORE_VOLATILE, std::int64_t>(seed);
}

TEMPLATE_TEST_CASE("CacheModifiedOutputIterator: value types on the device", "[iterator][cache_modified][gpu]",
                   std::int8_t, std::int32_t, float, __half, strata_test::custom_t)
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  check_modifier<strata::STORE_CS, TestType>(seed);
  check_modifier<strata::STORE_WT, TestType>(seed);
}

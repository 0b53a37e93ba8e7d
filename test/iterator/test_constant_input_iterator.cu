// Tests of strata/iterator/constant_input_iterator.cuh: every member on the host and reads on the
// device at random offsets, for arithmetic, 16-bit floating-point and custom value types.
#include <strata/iterator/constant_input_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <sstream>

using constant_types = std::tuple<std::int32_t, std::int64_t, float, __half, strata_test::custom_t>;

TEMPLATE_LIST_TEST_CASE("ConstantInputIterator: members on the host", "[iterator][constant]", constant_types)
{
  using T  = TestType;
  using It = strata::ConstantInputIterator<T>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_same_v<typename It::value_type, T>);
  STATIC_REQUIRE(std::is_same_v<typename It::reference, T>);
  STATIC_REQUIRE(std::is_same_v<typename It::pointer, T*>);
  STATIC_REQUIRE(std::is_same_v<typename It::difference_type, std::ptrdiff_t>);

  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  const std::vector<T> values = strata_test::random_vector<T>(8, seed);
  const T value               = values[0];
  // A second value that differs from the first (the 16-bit type may repeat a value).
  const T other = *std::find_if(values.begin() + 1, values.end() - 1, [&](const T& x) { return !(x == value); });
  REQUIRE_FALSE(other == value);

  It it(value, 3);
  CHECK(*it == value);
  CHECK(it[0] == value);
  CHECK(it[1000] == value);
  CHECK(it[-5] == value);
  CHECK(It{} == It(T{}, 0));

  It& pre = ++it;
  CHECK(&pre == &it);
  CHECK(it == It(value, 4));
  const It post = it++;
  CHECK(post == It(value, 4));
  CHECK(it == It(value, 5));
  CHECK(&(--it) == &it);
  CHECK(it == It(value, 4));
  CHECK(it-- == It(value, 4));
  CHECK(it == It(value, 3));

  CHECK(&(it += 10) == &it);
  CHECK(it == It(value, 13));
  CHECK(&(it -= 4) == &it);
  CHECK(it == It(value, 9));
  CHECK(it + 3 == It(value, 12));
  CHECK(3 + it == It(value, 12));
  CHECK(it - 3 == It(value, 6));
  CHECK(*(it + 3) == value);

  CHECK((it + 7) - it == 7);
  CHECK(it - (it + 7) == -7);
  // Equal position and equal value, both.
  CHECK(it != It(value, 10));
  CHECK(it != It(other, 9));
  CHECK_FALSE(it == It(other, 9));
  CHECK(it < it + 1);
  CHECK(it + 1 > it);
  CHECK(it <= it);
  CHECK(it >= it);
  CHECK_FALSE(it > it);

  CHECK(*it.operator->() == value);
  const It const_it = it;
  CHECK(*const_it.operator->() == value);
  CHECK(std::distance(it, it + 20) == 20);
  CHECK(*std::next(it, 4) == value);
}

TEST_CASE("ConstantInputIterator: -> on a struct, 32-bit offsets, printing", "[iterator][constant]")
{
  const strata_test::custom_t value{1, -2, 3};
  strata::ConstantInputIterator<strata_test::custom_t, int> it(value, 7);
  STATIC_REQUIRE(std::is_same_v<decltype(it)::difference_type, int>);
  CHECK(it->b == -2);
  CHECK((it + 5)->c == 3);
  CHECK((it + 5) - it == 5);

  std::ostringstream os;
  os << strata::ConstantInputIterator<int>(5, 3) << strata::ConstantInputIterator<double>(2.5);
  // __half has no operator<<: the value prints as "?".
  os << strata::ConstantInputIterator<__half>(__float2half(1.0f), 2);
  CHECK(os.str() == "[5,3][2.5,0][?,2]");
}

TEMPLATE_LIST_TEST_CASE("ConstantInputIterator: reads on the device", "[iterator][constant][gpu]", constant_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T         = TestType;
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  const T value = strata_test::random_vector<T>(1, seed)[0];
  for (const std::size_t n : {std::size_t(3), std::size_t(1000), std::size_t(4099)})
  {
    const auto offsets =
        iterator_test::random_offsets<std::ptrdiff_t>(n, seed + n, -(std::ptrdiff_t(1) << 40), std::ptrdiff_t(1) << 40);
    iterator_test::check_device_reads(strata::ConstantInputIterator<T>(value, 17), offsets, std::vector<T>(n, value));
  }
}

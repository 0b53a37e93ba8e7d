// Tests of strata/iterator/counting_input_iterator.cuh: every member on the host, std interop,
// and reads on the device at random offsets, past 2^31 with 64-bit values and offsets.
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <cstdint>
#include <iterator>
#include <sstream>

TEMPLATE_TEST_CASE("CountingInputIterator: members on the host", "[iterator][counting]", std::int32_t, std::int64_t,
                   std::uint32_t, float, double)
{
  using T  = TestType;
  using It = strata::CountingInputIterator<T>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_same_v<typename It::value_type, T>);
  STATIC_REQUIRE(std::is_same_v<typename It::reference, T>);
  STATIC_REQUIRE(std::is_same_v<typename It::pointer, T*>);
  STATIC_REQUIRE(std::is_same_v<typename It::difference_type, std::ptrdiff_t>);

  It it(T(5));
  CHECK(*it == T(5));
  CHECK(it[0] == T(5));
  CHECK(it[3] == T(8));
  CHECK(it[-2] == T(3));
  CHECK(*It{} == T(0));

  It& pre = ++it;
  CHECK(&pre == &it);
  CHECK(*it == T(6));
  const It post = it++;
  CHECK(*post == T(6));
  CHECK(*it == T(7));
  It& pre_dec = --it;
  CHECK(&pre_dec == &it);
  CHECK(*it == T(6));
  const It post_dec = it--;
  CHECK(*post_dec == T(6));
  CHECK(*it == T(5));

  CHECK(&(it += 10) == &it);
  CHECK(*it == T(15));
  CHECK(&(it -= 4) == &it);
  CHECK(*it == T(11));
  CHECK(*(it + 3) == T(14));
  CHECK(*(3 + it) == T(14));
  CHECK(*(it - 3) == T(8));
  CHECK(*(it + (-3)) == T(8));

  CHECK(It(T(20)) - It(T(5)) == 15);
  CHECK(It(T(5)) - It(T(20)) == -15);
  CHECK(it + 4 == It(T(15)));
  CHECK(it != it + 1);
  CHECK_FALSE(it != It(T(11)));
  CHECK(it < it + 1);
  CHECK_FALSE(it + 1 < it);
  CHECK(it + 1 > it);
  CHECK(it <= it);
  CHECK(it >= it);
  CHECK_FALSE(it >= it + 1);

  CHECK(*it.operator->() == T(11));
  const It const_it = it;
  CHECK(*const_it.operator->() == T(11));

  CHECK(std::distance(It(T(3)), It(T(10))) == 7);
  CHECK(*std::next(it, 4) == T(15));
  CHECK(*std::prev(it, 4) == T(7));
  It advanced = it;
  std::advance(advanced, -6);
  CHECK(*advanced == T(5));

  std::ostringstream os;
  os << It(T(42));
  CHECK(os.str() == "[42]");
}

TEST_CASE("CountingInputIterator: 64-bit values and offsets on the host", "[iterator][counting]")
{
  using It                = strata::CountingInputIterator<std::int64_t, std::int64_t>;
  const std::int64_t base = std::int64_t(1) << 40;
  const std::int64_t far  = (std::int64_t(3) << 32) + 7;
  const It it(base);
  CHECK(it[far] == base + far);
  CHECK(it[-far] == base - far);
  CHECK((it + far) - it == far);
  CHECK(it - (it + far) == -far);
  CHECK(*(it - far) == base - far);

  // Unsigned values count across the wrap; distances read the wrapped difference as signed.
  using U = strata::CountingInputIterator<std::uint32_t, int>;
  const U top(0xFFFFFFFEu);
  CHECK(top[3] == 1u);
  CHECK((top + 3) - top == 3);
  CHECK(top - (top + 3) == -3);
  STATIC_REQUIRE(std::is_same_v<U::difference_type, int>);
}

TEMPLATE_TEST_CASE("CountingInputIterator: reads on the device", "[iterator][counting][gpu]", std::int32_t,
                   std::int64_t, float, double)
{
  STRATA_TEST_REQUIRE_GPU();
  using T         = TestType;
  using It        = strata::CountingInputIterator<T>;
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  // Integral bases and offsets small enough that float holds every sum exactly.
  const auto base = static_cast<std::int64_t>(strata_test::random_vector<std::int32_t>(1, seed, -1e6, 1e6)[0]);
  for (const std::size_t n : {std::size_t(3), std::size_t(1000), std::size_t(4099)})
  {
    const auto offsets = iterator_test::random_offsets<std::ptrdiff_t>(n, seed + n, -100000, 100000);
    std::vector<T> expected(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = static_cast<T>(base + offsets[i]);
    }
    iterator_test::check_device_reads(It(static_cast<T>(base)), offsets, expected);
  }
}

TEMPLATE_TEST_CASE("CountingInputIterator: 64-bit offsets beyond 2^31 on the device", "[iterator][counting][gpu]",
                   std::int64_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using T         = TestType;
  using It        = strata::CountingInputIterator<T, std::int64_t>;
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  // Unsigned: a base above 2^63, so that the sums cross the top of the signed range.
  const T base = std::is_signed_v<T> ? T(std::int64_t(5) << 40) + T(seed % 1000) : (T(1) << 63) + T(seed % 1000);
  const std::int64_t reach          = std::int64_t(1) << 45;
  std::vector<std::int64_t> offsets = iterator_test::random_offsets<std::int64_t>(2000, seed, -reach, reach);
  // Right around the 32-bit boundaries.
  const std::int64_t edges[] = {(std::int64_t(1) << 31) - 1, std::int64_t(1) << 31,    -(std::int64_t(1) << 31) - 1,
                                std::int64_t(1) << 32,       -(std::int64_t(1) << 32), (std::int64_t(1) << 32) + 1};
  for (std::size_t i = 0; i < std::size(edges); ++i)
  {
    offsets[1 + i] = edges[i];
  }
  std::vector<T> expected(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i)
  {
    expected[i] = static_cast<T>(base + static_cast<T>(offsets[i]));
  }
  iterator_test::check_device_reads(It(base), offsets, expected);
}

// Tests of strata/iterator/transform_input_iterator.cuh: every member on the host (over a pointer
// and over another iterator), and reads on the device at random offsets for several input and
// output types.
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <cstdint>
#include <iterator>
#include <sstream>

namespace
{
// Maps each input type to a different output type, so that the conversion is visible.
struct widen
{
  __host__ __device__ double operator()(std::int32_t x) const
  {
    return static_cast<double>(x) * 3.0 + 0.5;
  }
  __host__ __device__ float operator()(__half x) const
  {
    return __half2float(x) * 2.0f;
  }
  __host__ __device__ std::int64_t operator()(const strata_test::custom_t& x) const
  {
    return static_cast<std::int64_t>(x.a) + x.b + x.c;
  }
  __host__ __device__ float operator()(float x) const
  {
    return -x;
  }
};

template <typename T>
using widened_t = decltype(widen{}(std::declval<T>()));

struct pair_t
{
  int first;
  int second;
};

// A functor with state, returning a struct (for operator->).
struct split
{
  int scale;
  __host__ __device__ pair_t operator()(int x) const
  {
    return {x * scale, -x};
  }
};
} // namespace

TEST_CASE("TransformInputIterator: members on the host", "[iterator][transform]")
{
  using It = strata::TransformInputIterator<double, widen, const std::int32_t*>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_same_v<It::value_type, double>);
  STATIC_REQUIRE(std::is_same_v<It::reference, double>);
  STATIC_REQUIRE(std::is_same_v<It::pointer, double*>);
  STATIC_REQUIRE(std::is_same_v<It::difference_type, std::ptrdiff_t>);

  const std::int32_t data[8] = {8, 6, 7, 5, 3, 0, 9, -4};
  It it(data + 2, widen{});
  CHECK(*it == 21.5);
  CHECK(it[0] == 21.5);
  CHECK(it[4] == 27.5);
  CHECK(it[-2] == 24.5);

  It& pre = ++it;
  CHECK(&pre == &it);
  CHECK(*it == 15.5);
  CHECK(*it++ == 15.5);
  CHECK(*it == 9.5);
  CHECK(&(--it) == &it);
  CHECK(*it == 15.5);
  CHECK(*it-- == 15.5);
  CHECK(*it == 21.5);

  CHECK(&(it += 4) == &it);
  CHECK(*it == 27.5);
  CHECK(&(it -= 6) == &it);
  CHECK(*it == 24.5);
  CHECK(*(it + 7) == -11.5);
  CHECK(*(7 + it) == -11.5);
  CHECK(*((it + 7) - 3) == 9.5);

  const It begin(data, widen{});
  const It end(data + 8, widen{});
  CHECK(end - begin == 8);
  CHECK(begin - end == -8);
  CHECK(begin + 8 == end);
  CHECK(begin != end);
  CHECK(begin < end);
  CHECK(end > begin);
  CHECK(begin <= begin);
  CHECK(end >= end);
  CHECK_FALSE(end < begin);
  CHECK(std::distance(begin, end) == 8);
  CHECK(*std::next(begin, 6) == 27.5);

  // Printing shows nothing: neither the functor nor the input need be printable.
  std::ostringstream os;
  os << begin;
  CHECK(os.str().empty());
  CHECK(os.good());
}

TEST_CASE("TransformInputIterator: over another iterator, with state and ->", "[iterator][transform]")
{
  using Counting = strata::CountingInputIterator<int>;
  using It       = strata::TransformInputIterator<pair_t, split, Counting, int>;
  STATIC_REQUIRE(std::is_same_v<It::difference_type, int>);
  const It it(Counting(10), split{3});
  CHECK(it->first == 30);
  CHECK(it->second == -10);
  CHECK((it + 5)->first == 45);
  CHECK(it[-4].second == -6);
  CHECK((it + 5) - it == 5);
  CHECK(it + 5 == It(Counting(15), split{3}));
}

namespace
{
template <typename T>
void check_device(std::uint64_t seed)
{
  using It = strata::TransformInputIterator<widened_t<T>, widen, const T*>;
  INFO("seed " << seed);
  for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(4099)})
  {
    const std::vector<T> data = strata_test::random_vector<T>(n, seed + n);
    strata_test::device_buffer<T> d_data(data);
    const auto middle  = static_cast<std::ptrdiff_t>(n / 2);
    const auto last    = static_cast<std::ptrdiff_t>(n) - 1 - middle;
    const auto offsets = n < 3 ? std::vector<std::ptrdiff_t>{0}
                               : iterator_test::random_offsets<std::ptrdiff_t>(2 * n, seed + 2 * n, -middle, last);
    std::vector<widened_t<T>> expected(offsets.size());
    for (std::size_t i = 0; i < offsets.size(); ++i)
    {
      expected[i] = widen{}(data[static_cast<std::size_t>(middle + offsets[i])]);
    }
    const T* d_middle = d_data.data() + middle;
    iterator_test::check_device_reads(It(d_middle, widen{}), offsets, expected);
  }
}
} // namespace

TEMPLATE_TEST_CASE("TransformInputIterator: reads on the device", "[iterator][transform][gpu]", std::int32_t, float,
                   __half, strata_test::custom_t)
{
  STRATA_TEST_REQUIRE_GPU();
  check_device<TestType>(strata_test::seed());
}

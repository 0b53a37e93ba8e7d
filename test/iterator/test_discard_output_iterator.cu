// Tests of strata/iterator/discard_output_iterator.cuh: every member on the host, and writes
// through it on the device at random offsets (arithmetic and comparisons checked there).
#include <strata/iterator/discard_output_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <cstdint>
#include <iterator>
#include <sstream>

TEST_CASE("DiscardOutputIterator: members on the host", "[iterator][discard]")
{
  using It = strata::DiscardOutputIterator<>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_void_v<It::value_type>);
  STATIC_REQUIRE(std::is_void_v<It::pointer>);
  STATIC_REQUIRE(std::is_void_v<It::reference>);
  STATIC_REQUIRE(std::is_same_v<It::difference_type, std::ptrdiff_t>);
  STATIC_REQUIRE(std::is_same_v<strata::detail::non_void_value_t<It, float>, float>);
  STATIC_REQUIRE(::cuda::std::output_iterator<It, float>);
  STATIC_REQUIRE(::cuda::std::output_iterator<It, strata_test::custom_t>);
  STATIC_REQUIRE(std::is_same_v<strata::DiscardOutputIterator<int>::difference_type, int>);

  It it(3);
  STATIC_REQUIRE(std::is_same_v<decltype(*it), It&>);
  STATIC_REQUIRE(std::is_same_v<decltype(it[5]), It&>);
  CHECK(&*it == &it);
  CHECK(&it[5] == &it);
  // Writes of any type are dropped and leave the position alone.
  *it    = 5;
  it[7]  = 2.5;
  it[-1] = strata_test::custom_t{1, 2, 3};
  *it    = __float2half(1.0f);
  CHECK(it == It(3));
  CHECK(It{} == It(0));

  It& pre = ++it;
  CHECK(&pre == &it);
  CHECK(it == It(4));
  CHECK(it++ == It(4));
  CHECK(it == It(5));
  CHECK(&(--it) == &it);
  CHECK(it == It(4));
  CHECK(it-- == It(4));
  CHECK(it == It(3));

  CHECK(&(it += 10) == &it);
  CHECK(it == It(13));
  CHECK(&(it -= 4) == &it);
  CHECK(it == It(9));
  CHECK(it + 3 == It(12));
  CHECK(3 + it == It(12));
  CHECK(it - 3 == It(6));
  CHECK(It(20) - It(5) == 15);
  CHECK(It(5) - It(20) == -15);
  CHECK(it != it + 1);
  CHECK(it < it + 1);
  CHECK(it + 1 > it);
  CHECK(it <= it);
  CHECK(it >= it);
  CHECK_FALSE(it < it);
  CHECK(std::distance(It(2), It(9)) == 7);
  CHECK(std::next(it, 4) == It(13));

  std::ostringstream os;
  os << It(7) << strata::DiscardOutputIterator<int>(-2);
  CHECK(os.str() == "[7][-2]");
}

namespace
{
using It = strata::DiscardOutputIterator<std::int64_t>;

// Writes values[i] through `it` at offsets[i] in every way an algorithm might, and records
// where the stepping ended and which comparisons held (as read_kernel does for inputs).
template <typename T>
__global__ void write_kernel(It it, const T* values, const std::int64_t* offsets, std::int64_t* distances,
                             int* comparisons, int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n)
  {
    return;
  }
  const std::int64_t offset = offsets[i];
  it[offset]                = values[i];
  It moved                  = (i % 2 == 0) ? it + offset : offset + it;
  *moved                    = values[i];
  It walk                   = it;
  walk -= -offset;
  ++walk;
  walk++;
  walk += 3;
  --walk;
  walk--;
  walk -= 3;
  *walk          = values[i];
  distances[i]   = walk - it;
  const It next  = walk + 1;
  comparisons[i] = (walk == moved ? 0x1 : 0) | (walk != moved ? 0 : 0x2) | (next != walk ? 0x4 : 0)
                   | (walk < next ? 0x8 : 0) | (next > walk && !(walk > next) ? 0x10 : 0)
                   | (walk <= moved && walk >= moved && !(next <= walk) && !(walk >= next) ? 0x20 : 0);
}
} // namespace

TEMPLATE_TEST_CASE("DiscardOutputIterator: writes on the device", "[iterator][discard][gpu]", std::int32_t, double,
                   strata_test::custom_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using T         = TestType;
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  for (const std::size_t n : {std::size_t(3), std::size_t(1000), std::size_t(4099)})
  {
    const std::vector<T> values = strata_test::random_vector<T>(n, seed + n);
    const auto offsets =
        iterator_test::random_offsets<std::int64_t>(n, seed + 2 * n, -(std::int64_t(1) << 40), std::int64_t(1) << 40);
    strata_test::device_buffer<T> d_values(values);
    strata_test::device_buffer<std::int64_t> d_offsets(offsets);
    strata_test::device_buffer<std::int64_t> d_distances(n);
    strata_test::device_buffer<int> d_comparisons(n);
    d_distances.poison();
    d_comparisons.poison();
    const int count = static_cast<int>(n);
    write_kernel<<<(count + 127) / 128, 128>>>(It(11), d_values.data(), d_offsets.data(), d_distances.data(),
                                               d_comparisons.data(), count);
    strata_test::check_launch();
    strata_test::check_equal(offsets, d_distances.download());
    strata_test::check_equal(std::vector<int>(n, iterator_test::all_comparisons), d_comparisons.download());
    // The input is untouched: a discard iterator writes nowhere.
    strata_test::check_equal(values, d_values.download());
  }
}

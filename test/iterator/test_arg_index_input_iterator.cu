// Tests of strata/iterator/arg_index_input_iterator.cuh: every member on the host (keys, values,
// normalize, value conversion, wrapping another iterator), and reads and normalize on the
// device at random offsets for several value and offset types.
#include <strata/iterator/arg_index_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <cstdint>
#include <iterator>
#include <sstream>
#include <string>

namespace Catch
{
template <typename K, typename V>
struct StringMaker<strata::KeyValuePair<K, V>>
{
  static std::string convert(const strata::KeyValuePair<K, V>& pair)
  {
    return "{" + StringMaker<K>::convert(pair.key) + ": " + StringMaker<V>::convert(pair.value) + "}";
  }
};
} // namespace Catch

namespace
{
template <typename K, typename V>
strata::KeyValuePair<K, V> kv(K key, V value)
{
  return strata::KeyValuePair<K, V>(key, value);
}
} // namespace

TEST_CASE("ArgIndexInputIterator: members on the host", "[iterator][arg_index]")
{
  using It = strata::ArgIndexInputIterator<const double*>;
  using P  = strata::KeyValuePair<std::ptrdiff_t, double>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_same_v<It::value_type, P>);
  STATIC_REQUIRE(std::is_same_v<It::reference, P>);
  STATIC_REQUIRE(std::is_same_v<It::pointer, P*>);
  STATIC_REQUIRE(std::is_same_v<It::difference_type, std::ptrdiff_t>);

  const double data[8] = {8.0, 6.0, 7.0, 5.0, 3.0, 0.5, 9.0, -4.0};
  It it(data);
  CHECK(*it == P(0, 8.0));
  CHECK(it[0] == P(0, 8.0));
  CHECK(it[6] == P(6, 9.0));
  CHECK(it->key == 0);
  CHECK(it->value == 8.0);
  CHECK((it + 3)->value == 5.0);

  It& pre = ++it;
  CHECK(&pre == &it);
  CHECK(*it == P(1, 6.0));
  CHECK(*it++ == P(1, 6.0));
  CHECK(*it == P(2, 7.0));
  CHECK(&(--it) == &it);
  CHECK(*it == P(1, 6.0));
  CHECK(*it-- == P(1, 6.0));
  CHECK(*it == P(0, 8.0));

  CHECK(&(it += 5) == &it);
  CHECK(*it == P(5, 0.5));
  CHECK(&(it -= 2) == &it);
  CHECK(*it == P(3, 5.0));
  CHECK(it[-1] == P(2, 7.0));
  CHECK(*(it + 4) == P(7, -4.0));
  CHECK(*(4 + it) == P(7, -4.0));
  CHECK(*(it - 3) == P(0, 8.0));

  const It begin(data);
  const It end = begin + 8;
  CHECK(end - begin == 8);
  CHECK(begin - end == -8);
  CHECK(it == begin + 3);
  CHECK(it != begin + 4);
  CHECK(begin < end);
  CHECK(end > begin);
  CHECK(begin <= begin);
  CHECK(end >= end);
  CHECK_FALSE(end <= begin);
  CHECK(std::distance(begin, end) == 8);
  CHECK(*std::next(begin, 6) == P(6, 9.0));

  // The constructor's offset positions the iterator and is its key there.
  const It at_two(data, 2);
  CHECK(*at_two == P(2, 7.0));
  CHECK(at_two == begin + 2);

  std::ostringstream os;
  os << it;
  CHECK(os.str() == "[3]");
}

TEST_CASE("ArgIndexInputIterator: normalize restarts the keys at the current item", "[iterator][arg_index]")
{
  const int data[6] = {10, 11, 12, 13, 14, 15};
  strata::ArgIndexInputIterator<const int*, int> it(data + 1);
  it += 3;
  CHECK(*it == kv(3, 14));
  const auto before = it;
  it.normalize();
  CHECK(*it == kv(0, 14));
  CHECK(it[1] == kv(1, 15));
  CHECK(it[-4] == kv(-4, 10));
  // Equality compares the wrapped iterator and the key: the same item under other keys differs.
  CHECK(it != before);
  CHECK(it == strata::ArgIndexInputIterator<const int*, int>(data + 4));
}

TEST_CASE("ArgIndexInputIterator: OutputValueT and wrapped iterators", "[iterator][arg_index]")
{
  const int data[4] = {1, -2, 3, -4};
  using Converting  = strata::ArgIndexInputIterator<const int*, int, double>;
  STATIC_REQUIRE(std::is_same_v<Converting::value_type, strata::KeyValuePair<int, double>>);
  STATIC_REQUIRE(std::is_same_v<Converting::difference_type, int>);
  const Converting converting(data);
  CHECK(converting[3] == kv(3, -4.0));

  using Counting = strata::CountingInputIterator<std::int64_t>;
  using Wrapping = strata::ArgIndexInputIterator<Counting, std::int64_t>;
  STATIC_REQUIRE(std::is_same_v<Wrapping::value_type, strata::KeyValuePair<std::int64_t, std::int64_t>>);
  Wrapping wrapping(Counting(100));
  CHECK(wrapping[5] == kv<std::int64_t, std::int64_t>(5, 105));
  wrapping += std::int64_t(1) << 33;
  CHECK(*wrapping == kv<std::int64_t, std::int64_t>(std::int64_t(1) << 33, (std::int64_t(1) << 33) + 100));
  wrapping.normalize();
  CHECK(*wrapping == kv<std::int64_t, std::int64_t>(0, (std::int64_t(1) << 33) + 100));
}

namespace
{
template <typename It>
__global__ void normalize_kernel(It it, const typename It::difference_type* offsets, typename It::value_type* out,
                                 int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    It moved = it + offsets[i];
    moved.normalize();
    out[i] = *moved;
  }
}

// The iterator wraps the start of the data and is constructed at its middle: the offsets read
// run -middle .. n - 1 - middle from there, the keys 0 .. n - 1 (they count from the pointer).
template <typename T, typename OffsetT>
void check_device(std::uint64_t seed)
{
  using It = strata::ArgIndexInputIterator<const T*, OffsetT>;
  using P  = typename It::value_type;
  INFO("seed " << seed);
  for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(4099)})
  {
    const std::vector<T> data = strata_test::random_vector<T>(n, seed + n);
    strata_test::device_buffer<T> d_data(data);
    const auto middle = static_cast<OffsetT>(n / 2);
    const auto last   = static_cast<OffsetT>(static_cast<OffsetT>(n) - 1 - middle);
    const auto offsets =
        n < 3 ? std::vector<OffsetT>{0} : iterator_test::random_offsets<OffsetT>(2 * n, seed + 2 * n, -middle, last);
    std::vector<P> expected(offsets.size());
    std::vector<P> normalized(offsets.size());
    for (std::size_t i = 0; i < offsets.size(); ++i)
    {
      const auto key = static_cast<OffsetT>(middle + offsets[i]);
      expected[i]    = P(key, data[static_cast<std::size_t>(key)]);
      normalized[i]  = P(0, data[static_cast<std::size_t>(key)]);
    }
    const It it(d_data.data(), middle);
    iterator_test::check_device_reads(it, offsets, expected);

    strata_test::device_buffer<OffsetT> d_offsets(offsets);
    strata_test::device_buffer<P> d_out(offsets.size());
    d_out.poison();
    const int count = static_cast<int>(offsets.size());
    normalize_kernel<<<(count + 127) / 128, 128>>>(it, d_offsets.data(), d_out.data(), count);
    strata_test::check_launch();
    strata_test::check_equal(normalized, d_out.download());
  }
}
} // namespace

TEMPLATE_TEST_CASE("ArgIndexInputIterator: reads on the device", "[iterator][arg_index][gpu]", std::int32_t,
                   std::int64_t, float, __half, strata_test::custom_t)
{
  STRATA_TEST_REQUIRE_GPU();
  check_device<TestType, std::ptrdiff_t>(strata_test::seed());
}

TEST_CASE("ArgIndexInputIterator: 32-bit offsets on the device", "[iterator][arg_index][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_device<double, int>(strata_test::seed());
}

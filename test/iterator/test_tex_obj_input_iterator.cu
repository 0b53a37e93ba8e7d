// Tests of strata/iterator/tex_obj_input_iterator.cuh: the members of an unbound iterator on the
// host; on the device, binding, reading random items of 2-, 4-, 8-, 12- and 16-byte types (with
// and without a texture offset) and unbinding; and dereferencing on the host.
#include <strata/iterator/tex_obj_input_iterator.cuh>

#include "common/test_common.cuh"
#include "iterator_checks.cuh"

#include <cstdint>
#include <iterator>
#include <sstream>
#include <string>

namespace
{
//! A 16-byte, 16-byte-aligned item: read in one uint4 texture word.
struct alignas(16) item16_t
{
  std::int32_t x;
  std::int32_t y;
  std::int32_t z;
  std::int32_t w;

  friend __host__ __device__ bool operator==(const item16_t& a, const item16_t& b)
  {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
  }
};

template <typename T>
std::vector<T> random_items(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, item16_t>)
  {
    const std::vector<std::int32_t> words = strata_test::random_vector<std::int32_t>(4 * n, seed);
    std::vector<item16_t> items(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      items[i] = item16_t{words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3]};
    }
    return items;
  }
  else
  {
    return strata_test::random_vector<T>(n, seed);
  }
}
} // namespace

namespace Catch
{
template <>
struct StringMaker<item16_t>
{
  static std::string convert(const item16_t& q)
  {
    return "{" + std::to_string(q.x) + ", " + std::to_string(q.y) + ", " + std::to_string(q.z) + ", "
           + std::to_string(q.w) + "}";
  }
};
} // namespace Catch

TEST_CASE("TexObjInputIterator: members of an unbound iterator on the host", "[iterator][tex_obj]")
{
  using It = strata::TexObjInputIterator<double>;
  iterator_test::check_traits<It>();
  STATIC_REQUIRE(std::is_same_v<It::value_type, double>);
  STATIC_REQUIRE(std::is_same_v<It::reference, double>);
  STATIC_REQUIRE(std::is_same_v<It::pointer, double*>);
  STATIC_REQUIRE(std::is_same_v<It::difference_type, std::ptrdiff_t>);
  STATIC_REQUIRE(std::is_same_v<strata::TexObjInputIterator<int, int>::difference_type, int>);

  const It origin;
  It it = origin + 8;
  CHECK(it - origin == 8);
  CHECK(origin - it == -8);
  CHECK(It{} == origin);

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
  CHECK(it == origin + 14);
  CHECK(it != origin + 15);
  CHECK(it < it + 1);
  CHECK(it + 1 > it);
  CHECK(it <= it);
  CHECK(it >= it);
  CHECK_FALSE(it > it);
  CHECK(std::distance(origin, it) == 14);
  CHECK(std::next(it, 4) == origin + 18);

  std::ostringstream expected;
  expected << "[" << static_cast<const void*>(nullptr) << ",14,0]";
  std::ostringstream os;
  os << it;
  CHECK(os.str() == expected.str());
}

TEST_CASE("TexObjInputIterator: texture words by item size", "[iterator][tex_obj]")
{
  // 2-byte items in ushort words, 4 and 12 bytes in uint words, 8 in uint2, 16 (aligned) in uint4.
  STATIC_REQUIRE(sizeof(strata::UnitWord<__half>::TextureWord) == 2);
  STATIC_REQUIRE(sizeof(strata::UnitWord<float>::TextureWord) == 4);
  STATIC_REQUIRE(sizeof(strata::UnitWord<std::int64_t>::TextureWord) == 8);
  STATIC_REQUIRE(sizeof(strata::UnitWord<strata_test::custom_t>::TextureWord) == 4);
  STATIC_REQUIRE(sizeof(strata::UnitWord<item16_t>::TextureWord) == 16);
}

namespace
{
// Binds a texture over all of `data` with the iterator at item `texture_offset`, reads random
// items from the first to the last through it on the device, and unbinds.
template <typename T>
void check_binding(const std::vector<T>& data, std::ptrdiff_t texture_offset, std::uint64_t seed)
{
  INFO("items " << data.size() << ", texture offset " << texture_offset);
  strata_test::device_buffer<T> d_data(data);
  strata::TexObjInputIterator<T> it;
  // Bound through a pointer to const, as algorithms receive their input.
  const T* d_const = d_data.data();
  STRATA_TEST_CUDA(it.BindTexture(d_const, d_data.bytes(), static_cast<std::size_t>(texture_offset)));
  const auto first   = -texture_offset;
  const auto last    = static_cast<std::ptrdiff_t>(data.size()) - 1 - texture_offset;
  const auto offsets = data.size() < 3
                           ? std::vector<std::ptrdiff_t>{0}
                           : iterator_test::random_offsets<std::ptrdiff_t>(2 * data.size(), seed, first, last);
  std::vector<T> expected(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i)
  {
    expected[i] = data[static_cast<std::size_t>(texture_offset + offsets[i])];
  }
  iterator_test::check_device_reads(it, offsets, expected);
  STRATA_TEST_CUDA(it.UnbindTexture());
}
} // namespace

TEMPLATE_TEST_CASE("TexObjInputIterator: bind, read random items on the device, unbind", "[iterator][tex_obj][gpu]",
                   __half, float, std::int64_t, double, strata_test::custom_t, item16_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using T         = TestType;
  const auto seed = strata_test::seed();
  INFO("seed " << seed << ", item size " << sizeof(T));
  for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(4099)})
  {
    const std::vector<T> data = random_items<T>(n, seed + n);
    check_binding(data, 0, seed + 2 * n);
    check_binding(data, static_cast<std::ptrdiff_t>(n / 2), seed + 3 * n);
    check_binding(data, static_cast<std::ptrdiff_t>(n - 1), seed + 4 * n);
  }
}

TEST_CASE("TexObjInputIterator: dereference on the host reads host-accessible memory", "[iterator][tex_obj][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  const std::size_t n                           = 64;
  const std::vector<strata_test::custom_t> data = strata_test::random_vector<strata_test::custom_t>(n, seed);
  strata_test::custom_t* managed                = nullptr;
  STRATA_TEST_CUDA(cudaMallocManaged(&managed, n * sizeof(strata_test::custom_t)));
  std::copy(data.begin(), data.end(), managed);

  strata::TexObjInputIterator<strata_test::custom_t, int> it;
  const cudaError_t bound = it.BindTexture(managed, n * sizeof(strata_test::custom_t), 5);
  CHECK(bound == cudaSuccess);
  if (bound == cudaSuccess)
  {
    CHECK(*it == data[5]);
    CHECK(it[-5] == data[0]);
    CHECK(it[58] == data[63]);
    CHECK((it + 7)->b == data[12].b);
    CHECK(it.UnbindTexture() == cudaSuccess);
  }
  STRATA_TEST_CUDA(cudaFree(managed));
}

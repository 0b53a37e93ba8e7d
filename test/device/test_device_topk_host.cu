// Host tests of DeviceTopK's host-side pieces (no GPU needed): the rank bits of keys (their order
// and their way back, arithmetic keys and user keys through a decomposer, Max and Min), the digits
// the passes decide (every bit of the key and of the index once, most significant first) and the
// sample's rank of the filter pass (none for small inputs; what it keeps fits a buffer four times).
#include <strata/device/device_topk.cuh>

#include "common/test_common.cuh"

#include <cuda/std/tuple>

#include <cstdint>
#include <cstring>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
using strata::detail::identity_decomposer_t;
using strata::detail::topk::RankBits;
using strata::detail::topk::RankDigit;
using strata::detail::topk::select;

struct user_key
{
  std::int16_t major;
  double minor;
};
struct user_key_decomposer
{
  __host__ __device__ cuda::std::tuple<std::int16_t&, double&> operator()(user_key& key) const
  {
    return {key.major, key.minor};
  }
};

//! The host's own order of a double: as DeviceRadixSort orders it.
std::uint64_t order_of(double x)
{
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t(1) << 63);
}

//! The host's order of a user key: major, then minor.
std::pair<int, std::uint64_t> order_of(const user_key& key)
{
  return {key.major, order_of(key.minor)};
}

template <select SELECT>
void check_user_key_bits(std::uint64_t seed)
{
  using bits_t = RankBits<SELECT, user_key, user_key_decomposer>;
  STATIC_REQUIRE(bits_t::BITS == 80);
  STATIC_REQUIRE(sizeof(typename bits_t::type) == 16);
  std::mt19937_64 engine(seed);
  std::vector<user_key> keys(2000);
  for (user_key& key : keys)
  {
    // Few majors and minors of both signs, infinities and zeros of both signs among them.
    const double minors[] = {-1.5, -0.0, 0.0, 2.25, 1e300, -1e-300, 3.0, -3.0};
    key = user_key{std::int16_t(int(engine() % 7) - 3), minors[engine() % 8] * (engine() % 2 != 0 ? 1.0 : 7.0)};
  }
  std::size_t wrong_order = 0;
  std::size_t wrong_back  = 0;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i)
  {
    const auto a     = bits_t::In(keys[i], user_key_decomposer{});
    const auto b     = bits_t::In(keys[i + 1], user_key_decomposer{});
    const bool less  = order_of(keys[i]) < order_of(keys[i + 1]);
    const bool equal = order_of(keys[i]) == order_of(keys[i + 1]);
    // The better key has the larger bits: the larger for Max, the smaller for Min.
    const bool better = SELECT == select::max ? (!less && !equal) : less;
    wrong_order += equal ? a != b : better != (a > b);
    const user_key back = bits_t::Out(a, user_key_decomposer{});
    wrong_back += back.major != keys[i].major || std::memcmp(&back.minor, &keys[i].minor, sizeof(double)) != 0;
  }
  CHECK(wrong_order == 0);
  CHECK(wrong_back == 0);
}
} // namespace

TEST_CASE("DeviceTopK's rank bits of a user key order it member by member and turn back into it", "[device][topk]")
{
  const std::uint64_t seed = strata_test::seed(821);
  INFO("seed " << seed);
  check_user_key_bits<select::max>(seed);
  check_user_key_bits<select::min>(seed + 1);
}

TEST_CASE("DeviceTopK's rank bits of an arithmetic key are its radix order, inverted for Min", "[device][topk]")
{
  using max_bits     = RankBits<select::max, float, identity_decomposer_t>;
  using min_bits     = RankBits<select::min, float, identity_decomposer_t>;
  const float keys[] = {-1.0f, -0.0f, 0.0f, 1.0f, 2.0f};
  for (int i = 0; i + 1 < 5; ++i)
  {
    CHECK(max_bits::In(keys[i], {}) < max_bits::In(keys[i + 1], {}));
    CHECK(min_bits::In(keys[i], {}) > min_bits::In(keys[i + 1], {}));
    const float back = min_bits::Out(min_bits::In(keys[i], {}), {});
    CHECK(std::memcmp(&back, &keys[i], sizeof(float)) == 0);
  }
}

TEST_CASE("DeviceTopK's passes decide every bit of the key and of the index once, from the top", "[device][topk]")
{
  using dispatch_t = strata::detail::topk::DispatchTopK<select::max, const float*, float*, strata::NullType*,
                                                        strata::NullType*, std::uint64_t>;
  for (std::uint64_t n :
       {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3000), std::uint64_t(1) << 28, (std::uint64_t(1) << 33) + 5})
  {
    INFO("num_items " << n);
    RankDigit digits[dispatch_t::MAX_DIGITS];
    const int count = dispatch_t::RankDigits<11>(n, digits);
    int index_bits  = 0;
    while (index_bits < 64 && (std::uint64_t(1) << index_bits) < n)
    {
      ++index_bits;
    }
    // Walking the digits from the top of the key, then from the top of the index, meets every bit.
    int key_top   = 32;
    int index_top = index_bits;
    for (int d = 0; d < count; ++d)
    {
      CHECK(digits[d].bits >= 1);
      CHECK(digits[d].bits <= 11);
      int& top = digits[d].part == 0 ? key_top : index_top;
      CHECK(digits[d].shift + digits[d].bits == top);
      top = digits[d].shift;
      if (d > 0 && digits[d].part < digits[d - 1].part)
      {
        FAIL_CHECK("a key digit after an index digit");
      }
    }
    CHECK(key_top == 0);
    CHECK(index_top == 0);
  }
}

TEST_CASE("DeviceTopK samples large inputs with few winners, and keeps what fits a buffer", "[device][topk]")
{
  using dispatch_t         = strata::detail::topk::DispatchTopK<select::max, const float*, float*, strata::NullType*,
                                                        strata::NullType*, std::uint64_t>;
  constexpr double samples = strata::detail::topk::sample_chunks_v<std::uint32_t> * 32;
  CHECK(dispatch_t::SampleRank(1000, 10, dispatch_t::BufferCapacity(1000)) == 0);
  CHECK(dispatch_t::SampleRank(65535, 10, dispatch_t::BufferCapacity(65535)) == 0);
  for (std::uint64_t n :
       {std::uint64_t(1) << 16, std::uint64_t(1) << 20, std::uint64_t(1) << 24, std::uint64_t(1) << 28})
  {
    for (std::uint64_t k : {std::uint64_t(1), std::uint64_t(1024), std::uint64_t(65536), n / 2})
    {
      INFO("num_items " << n << ", k " << k);
      const std::uint64_t capacity = dispatch_t::BufferCapacity(n);
      const int rank               = dispatch_t::SampleRank(n, k, capacity);
      if (rank > 0)
      {
        // At least the sample's share of the winners, and what it keeps four times over fits.
        CHECK(double(rank) >= double(k) * samples / double(n));
        CHECK(4.0 * double(rank) * double(n) / samples <= double(capacity));
      }
      if (k == 1 && n >= (std::uint64_t(1) << 20))
      {
        CHECK(rank > 0); // the common case takes the filter pass
      }
      if (k == n / 2)
      {
        CHECK(rank == 0); // half the input: nothing to filter
      }
    }
  }
}

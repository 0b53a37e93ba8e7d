// Tests of strata/block/radix_rank_sort_operations.cuh, on the host (so they run in CI too): the
// twiddled bits of every key type order like the values (-0.0 just below +0.0 and merged with it
// for digits, NaNs outside the infinities), RadixSortTwiddle round trips and descending inversion,
// DefaultKey sorting last, and decomposers: their bit count, extreme keys, round trip and digits.
#include <strata/block/radix_rank_sort_operations.cuh>

#include "common/bits.cuh"
#include "common/test_common.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace
{
using strata_test::bits_of;
using strata_test::bits_t;
using strata_test::from_bits;

template <typename T>
bool sign_bit(T value)
{
  return (bits_of(value) >> (sizeof(T) * 8 - 1)) != 0;
}

template <typename T>
double numeric(T value)
{
  return strata_test::to_double(value);
}

struct two_members
{
  std::int16_t hi;
  double lo;
};

struct two_members_decomposer
{
  __host__ __device__ cuda::std::tuple<std::int16_t&, double&> operator()(two_members& key) const
  {
    return {key.hi, key.lo};
  }
};
} // namespace

TEMPLATE_LIST_TEST_CASE("Twiddled bits order keys like their values", "[radix][host]", strata_test::arithmetic_types)
{
  using T                  = TestType;
  using Twiddle            = strata::RadixSortTwiddle<false, T>;
  using TwiddleDescending  = strata::RadixSortTwiddle<true, T>;
  const std::uint64_t seed = strata_test::seed(61);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);

  std::vector<T> values;
  for (int i = 0; i < 2000; ++i)
  {
    values.push_back(from_bits<T>(static_cast<bits_t<T>>(engine())));
  }
  if constexpr (strata::Traits<T>::CATEGORY == strata::FLOATING_POINT)
  {
    for (double v : {0.0, -0.0, 1.0, -1.0, double(INFINITY), -double(INFINITY)})
    {
      values.push_back(strata_test::from_double<T>(v));
    }
  }
  else
  {
    values.push_back(std::numeric_limits<T>::min());
    values.push_back(std::numeric_limits<T>::max());
    values.push_back(T(0));
  }

  for (T x : values)
  {
    // Round trips, ascending and descending; descending inverts every bit.
    CHECK(Twiddle::Out(Twiddle::In(bits_of(x))) == bits_of(x));
    CHECK(TwiddleDescending::Out(TwiddleDescending::In(bits_of(x))) == bits_of(x));
    CHECK(TwiddleDescending::In(bits_of(x)) == bits_t<T>(~Twiddle::In(bits_of(x))));
  }

  std::size_t disorder = 0;
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    for (std::size_t j = i + 1; j < values.size() && j < i + 64; ++j)
    {
      const T x          = values[i];
      const T y          = values[j];
      const double a     = numeric(x);
      const double b     = numeric(y);
      const bits_t<T> tx = Twiddle::In(bits_of(x));
      const bits_t<T> ty = Twiddle::In(bits_of(y));
      if (std::isnan(a) || std::isnan(b))
      {
        // NaNs sort by sign outside the infinities: positive after +inf, negative before -inf.
        if (std::isnan(a) && !std::isnan(b))
        {
          disorder += sign_bit(x) ? !(tx < ty) : !(tx > ty); // (the host's __half2float drops a NaN's sign)
        }
        continue;
      }
      if (a < b)
      {
        disorder += !(tx < ty);
      }
      else if (a > b)
      {
        disorder += !(tx > ty);
      }
      else if (bits_of(x) != bits_of(y))
      {
        // Only -0.0 and +0.0 are equal with different bits: -0.0 twiddles just below +0.0, and
        // digits read both as +0.0.
        disorder += sign_bit(x) ? !(tx + 1 == ty) : !(ty + 1 == tx);
        disorder += strata::detail::MergeFloatZeros<T>(tx) != strata::detail::MergeFloatZeros<T>(ty);
      }
    }
  }
  CHECK(disorder == 0);

  // DefaultKey sorts last: its ordered bits are all ones, ascending and descending.
  CHECK(Twiddle::In(Twiddle::DefaultKey()) == bits_t<T>(~bits_t<T>(0)));
  CHECK(TwiddleDescending::In(TwiddleDescending::DefaultKey()) == bits_t<T>(~bits_t<T>(0)));
}

TEST_CASE("Decomposed keys: bit count, extreme keys, round trip and digits", "[radix][host]")
{
  using traits = strata::detail::radix::traits_t<two_members>;
  const two_members_decomposer decomposer{};
  CHECK(traits::default_end_bit(decomposer) == 80);

  // The key that sorts first / last, member by member.
  const two_members lowest  = traits::min_raw_binary_key(decomposer);
  const two_members highest = traits::max_raw_binary_key(decomposer);
  CHECK(lowest.hi == std::numeric_limits<std::int16_t>::min());
  CHECK(std::isnan(lowest.lo));
  CHECK(std::signbit(lowest.lo));
  CHECK(highest.hi == std::numeric_limits<std::int16_t>::max());
  CHECK(std::isnan(highest.lo));
  CHECK(!std::signbit(highest.lo));
  using Twiddle          = strata::RadixSortTwiddle<false, two_members>;
  const two_members last = Twiddle::DefaultKey(decomposer);
  CHECK(last.hi == std::numeric_limits<std::int16_t>::max());

  const std::uint64_t seed = strata_test::seed(67);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (int i = 0; i < 500; ++i)
  {
    two_members key{static_cast<std::int16_t>(engine()), 0.0};
    key.lo                    = i % 7 == 0 ? -0.0 : from_bits<double>(engine());
    const two_members ordered = Twiddle::In(key, decomposer);
    const two_members back    = Twiddle::Out(ordered, decomposer);
    CHECK(back.hi == key.hi);
    CHECK(bits_of(back.lo) == bits_of(key.lo));

    // The 80 ordered bits: lo's twiddled bits low (-0.0 read as +0.0), hi's above them.
    const std::uint64_t lo_bits =
        strata::detail::MergeFloatZeros<double>(strata::Traits<double>::TwiddleIn(bits_of(key.lo)));
    const std::uint16_t hi_bits = strata::Traits<std::int16_t>::TwiddleIn(bits_of(key.hi));
    const unsigned __int128 all = (static_cast<unsigned __int128>(hi_bits) << 64) | lo_bits;
    for (int begin : {0, 5, 60, 62, 64, 71, 72})
    {
      for (int width : {1, 4, 8})
      {
        if (begin + width > 80)
        {
          continue;
        }
        two_members copy = ordered;
        const auto extractor =
            traits::digit_extractor<strata::BFEDigitExtractor<std::uint32_t>>(begin, width, decomposer);
        const std::uint32_t expected = static_cast<std::uint32_t>((all >> begin) & ((1u << width) - 1u));
        INFO("bits [" << begin << ", " << begin + width << ")");
        CHECK(extractor.Digit(copy) == expected);
      }
    }
  }
}

TEST_CASE("traits_t's conversion and inversion policies under CUB's names", "[radix][host]")
{
  // CUB's custom-type radix documentation reaches the ordered bits through
  // traits_t<T>::bit_ordered_conversion_policy and bit_ordered_inversion_policy.
  using decomposed = strata::detail::radix::traits_t<two_members>;
  using conversion = decomposed::bit_ordered_conversion_policy;
  using inversion  = decomposed::bit_ordered_inversion_policy;
  const two_members_decomposer decomposer{};
  const std::uint64_t seed = strata_test::seed(68);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  using Twiddle           = strata::RadixSortTwiddle<false, two_members>;
  using TwiddleDescending = strata::RadixSortTwiddle<true, two_members>;
  for (int i = 0; i < 200; ++i)
  {
    const two_members key{static_cast<std::int16_t>(engine()), from_bits<double>(engine())};
    const two_members ordered  = conversion::to_bit_ordered(decomposer, key);
    const two_members twiddled = Twiddle::In(key, decomposer);
    CHECK(ordered.hi == twiddled.hi);
    CHECK(bits_of(ordered.lo) == bits_of(twiddled.lo));
    const two_members descending = inversion::inverse(decomposer, ordered);
    const two_members expected   = TwiddleDescending::In(key, decomposer);
    CHECK(descending.hi == expected.hi);
    CHECK(bits_of(descending.lo) == bits_of(expected.lo));
    const two_members back = conversion::from_bit_ordered(decomposer, inversion::inverse(decomposer, descending));
    CHECK(back.hi == key.hi);
    CHECK(bits_of(back.lo) == bits_of(key.lo));
  }
  // A fundamental key: the policies are its twiddles.
  using fundamental        = strata::detail::radix::traits_t<float>;
  const std::uint32_t bits = bits_of(-1.5f);
  CHECK(fundamental::bit_ordered_conversion_policy::to_bit_ordered(strata::detail::identity_decomposer_t{}, bits)
        == strata::Traits<float>::TwiddleIn(bits));
  CHECK(fundamental::bit_ordered_inversion_policy::inverse(strata::detail::identity_decomposer_t{}, bits)
        == std::uint32_t(~bits));
}

namespace
{
// The key of CUB's custom-type radix example: a 16-bit integer, two bytes of padding, a float.
struct padded_key
{
  std::uint16_t i;
  float f;
};

struct padded_key_decomposer
{
  __host__ __device__ cuda::std::tuple<std::uint16_t&, float&> operator()(padded_key& key) const
  {
    return {key.i, key.f};
  }
};

// The order radix sort gives padded_key: by i, then by f, with -0.0 before +0.0.
bool padded_key_less(const padded_key& a, const padded_key& b)
{
  if (a.i != b.i)
  {
    return a.i < b.i;
  }
  if (a.f == b.f)
  {
    return sign_bit(a.f) && !sign_bit(b.f);
  }
  return a.f < b.f;
}
} // namespace

TEST_CASE("CUB's custom-type radix example holds for a padded key", "[radix][host]")
{
  // What example_device_radix_sort_custom.cu shows through traits_t: the ordered bits of each
  // member compare like the keys, convert back, invert for descending order; the extreme keys;
  // the end bit counts the members' bits, not the padding.
  using traits     = strata::detail::radix::traits_t<padded_key>;
  using conversion = traits::bit_ordered_conversion_policy;
  using inversion  = traits::bit_ordered_inversion_policy;
  const padded_key_decomposer decomposer{};
  auto ordered_bits = [&](padded_key key)
  {
    const padded_key ordered = conversion::to_bit_ordered(decomposer, key);
    return std::make_pair(ordered.i, bits_of(ordered.f));
  };

  // The example's pair: in raw bits {42, -4.2f} looks larger than {42, 4.2f}; ordered it is not.
  const padded_key l{42, -4.2f};
  const padded_key g{42, 4.2f};
  CHECK(bits_of(l.f) > bits_of(g.f));
  CHECK(ordered_bits(l) < ordered_bits(g));

  const std::uint64_t seed = strata_test::seed(69);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  auto random_key = [&]
  {
    float f = 0.0f;
    do
    {
      f = from_bits<float>(static_cast<std::uint32_t>(engine()));
    } while (std::isnan(f));
    // Few distinct integers, so that many pairs are ordered by their floats.
    return padded_key{static_cast<std::uint16_t>(engine() % 4), engine() % 8 == 0 ? -f * 0.0f : f};
  };
  for (int n = 0; n < 2000; ++n)
  {
    const padded_key a = random_key();
    const padded_key b = random_key();
    INFO("a = {" << a.i << ", " << a.f << "}, b = {" << b.i << ", " << b.f << "}");
    CHECK((ordered_bits(a) < ordered_bits(b)) == padded_key_less(a, b));
    const padded_key back = conversion::from_bit_ordered(decomposer, conversion::to_bit_ordered(decomposer, a));
    CHECK(back.i == a.i);
    CHECK(bits_of(back.f) == bits_of(a.f));
    const padded_key inverted = inversion::inverse(decomposer, conversion::to_bit_ordered(decomposer, a));
    CHECK(inverted.i == std::uint16_t(~ordered_bits(a).first));
    CHECK(bits_of(inverted.f) == std::uint32_t(~ordered_bits(a).second));
  }

  // The extreme keys are those whose ordered bits are all zeros and all ones.
  CHECK(ordered_bits(traits::min_raw_binary_key(decomposer)) == std::make_pair(std::uint16_t(0), std::uint32_t(0)));
  CHECK(ordered_bits(traits::max_raw_binary_key(decomposer))
        == std::make_pair(std::uint16_t(0xFFFF), std::uint32_t(0xFFFFFFFF)));
  CHECK(traits::default_end_bit(decomposer) == 48);
  CHECK(sizeof(padded_key) * 8 == 64);
}

// Tests of strata/util_type.cuh: vocabulary types, Log2/PowerOfTwo, UnitWord, and the numeric
// traits' radix twiddling (order preservation and round trip) for every supported type.
#include <strata/util_type.cuh>

#include "common/test_common.cuh"

#include <cuda/std/bit>

#include <algorithm>
#include <cmath>
#include <limits>

namespace
{
template <typename T>
using bits_t = typename strata::Traits<T>::UnsignedBits;

template <typename T>
bits_t<T> to_bits(const T& x)
{
  return ::cuda::std::bit_cast<bits_t<T>>(x);
}

template <typename T>
T from_bits(bits_t<T> bits)
{
  return ::cuda::std::bit_cast<T>(bits);
}

// Host order of T (as double for the 16-bit floats; exact for every value they hold).
template <typename T>
bool less(const T& a, const T& b)
{
  if constexpr (strata_test::is_floating_v<T>)
  {
    return strata_test::to_double(a) < strata_test::to_double(b);
  }
  else
  {
    return a < b;
  }
}

template <typename T>
__global__ void twiddle_kernel(const T* in, bits_t<T>* twiddled, T* round_trip, int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    twiddled[i]   = strata::Traits<T>::TwiddleIn(::cuda::std::bit_cast<bits_t<T>>(in[i]));
    round_trip[i] = ::cuda::std::bit_cast<T>(strata::Traits<T>::TwiddleOut(twiddled[i]));
  }
}

template <typename T>
std::vector<T> values_with_specials(std::size_t n, std::uint64_t seed)
{
  std::vector<T> values = strata_test::random_vector<T>(n, seed);
  using limits          = std::numeric_limits<T>;
  if constexpr (std::is_integral_v<T>)
  {
    values.insert(values.end(), {limits::lowest(), limits::max(), T(0), T(1)});
    if constexpr (std::is_signed_v<T>)
    {
      values.push_back(T(-1));
    }
  }
  else
  {
    for (double x : {0.0, -0.0, 1.0, -1.0, 65504.0, -65504.0, 1e-3, -1e-3, HUGE_VAL, -HUGE_VAL})
    {
      values.push_back(strata_test::from_double<T>(x));
    }
  }
  return values;
}
} // namespace

using radix_types = decltype(std::tuple_cat(strata_test::arithmetic_types{}, std::tuple<bool, char>{}));

TEMPLATE_LIST_TEST_CASE("Traits: TwiddleIn preserves order and TwiddleOut undoes it (host)", "[util][traits]",
                        strata_test::arithmetic_types)
{
  using T         = TestType;
  using traits    = strata::Traits<T>;
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  const std::vector<T> values = values_with_specials<T>(2000, seed);
  for (std::size_t i = 0; i + 1 < values.size(); ++i)
  {
    const T& a = values[i];
    const T& b = values[i + 1];
    REQUIRE(traits::TwiddleOut(traits::TwiddleIn(to_bits(a))) == to_bits(a));
    if (less(a, b))
    {
      CHECK(traits::TwiddleIn(to_bits(a)) < traits::TwiddleIn(to_bits(b)));
    }
    else if (less(b, a))
    {
      CHECK(traits::TwiddleIn(to_bits(b)) < traits::TwiddleIn(to_bits(a)));
    }
  }
  // The lowest and largest keys sort below and above every twiddled value.
  for (const T& x : values)
  {
    CHECK(traits::TwiddleIn(traits::LOWEST_KEY) <= traits::TwiddleIn(to_bits(x)));
    CHECK(traits::TwiddleIn(to_bits(x)) <= traits::TwiddleIn(traits::MAX_KEY));
  }
}

TEMPLATE_LIST_TEST_CASE("Traits: categories, Max and Lowest", "[util][traits]", radix_types)
{
  using T      = TestType;
  using traits = strata::Traits<T>;
  STATIC_REQUIRE(traits::PRIMITIVE);
  STATIC_REQUIRE_FALSE(traits::NULL_TYPE);
  STATIC_REQUIRE(sizeof(typename traits::UnsignedBits) == sizeof(T));
  STATIC_REQUIRE(std::is_unsigned_v<typename traits::UnsignedBits>);
  STATIC_REQUIRE(std::is_same_v<strata::Traits<const volatile T>, strata::Traits<T>> == false);
  STATIC_REQUIRE(strata::Traits<const volatile T>::CATEGORY == traits::CATEGORY);
  if constexpr (std::is_integral_v<T>)
  {
    STATIC_REQUIRE(traits::CATEGORY == (std::is_signed_v<T> ? strata::SIGNED_INTEGER : strata::UNSIGNED_INTEGER));
    CHECK(traits::Max() == std::numeric_limits<T>::max());
    CHECK(traits::Lowest() == std::numeric_limits<T>::lowest());
  }
  else
  {
    STATIC_REQUIRE(traits::CATEGORY == strata::FLOATING_POINT);
    const double max = strata_test::to_double(traits::Max());
    CHECK(strata_test::to_double(traits::Lowest()) == -max);
    CHECK(std::isfinite(max));
    // The next larger bit pattern is infinity: Max() is the largest finite value.
    CHECK(std::isinf(strata_test::to_double(from_bits<T>(bits_t<T>(to_bits(traits::Max()) + 1)))));
  }
}

TEST_CASE("Traits: known constants", "[util][traits]")
{
  CHECK(strata::Traits<float>::Max() == std::numeric_limits<float>::max());
  CHECK(strata::Traits<double>::Lowest() == std::numeric_limits<double>::lowest());
  CHECK(strata_test::to_double(strata::Traits<__half>::Max()) == 65504.0);
  CHECK(strata_test::to_double(strata::Traits<__nv_bfloat16>::Max()) == 0x1.FEp127);
  CHECK(strata::Traits<int>::LOWEST_KEY == 0x80000000u);
  CHECK(strata::Traits<int>::MAX_KEY == 0x7FFFFFFFu);
  CHECK(strata::Traits<std::uint16_t>::MAX_KEY == 0xFFFFu);
  CHECK(strata::Traits<float>::TwiddleIn(0x80000000u) == 0x7FFFFFFFu); // -0.0 just below +0.0
  CHECK(strata::Traits<float>::TwiddleIn(0x00000000u) == 0x80000000u);
  STATIC_REQUIRE(strata::NumericTraits<strata::NullType>::NULL_TYPE);
  STATIC_REQUIRE(strata::NumericTraits<strata_test::custom_t>::CATEGORY == strata::NOT_A_NUMBER);
#if defined(STRATA_HAS_INT128)
  STATIC_REQUIRE(strata::Traits<__int128>::CATEGORY == strata::SIGNED_INTEGER);
  CHECK(strata::Traits<__int128>::TwiddleIn(static_cast<unsigned __int128>(__int128(-1)))
        < strata::Traits<__int128>::TwiddleIn(static_cast<unsigned __int128>(__int128(0))));
  CHECK(strata::Traits<unsigned __int128>::Max() == ~static_cast<unsigned __int128>(0));
#endif
}

TEMPLATE_LIST_TEST_CASE("Traits: twiddling on the device matches the host", "[util][traits][gpu]",
                        strata_test::arithmetic_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T         = TestType;
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  const std::vector<T> values = values_with_specials<T>(1000, seed);
  const int n                 = static_cast<int>(values.size());
  strata_test::device_buffer<T> d_in(values);
  strata_test::device_buffer<bits_t<T>> d_twiddled(values.size());
  strata_test::device_buffer<T> d_round_trip(values.size());
  d_twiddled.poison();
  d_round_trip.poison();
  twiddle_kernel<<<(n + 127) / 128, 128>>>(d_in.data(), d_twiddled.data(), d_round_trip.data(), n);
  strata_test::check_launch();
  std::vector<bits_t<T>> expected(values.size());
  std::vector<bits_t<T>> round_trip_bits(values.size());
  std::vector<bits_t<T>> value_bits(values.size());
  const std::vector<T> round_trip = d_round_trip.download();
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    expected[i]        = strata::Traits<T>::TwiddleIn(to_bits(values[i]));
    round_trip_bits[i] = to_bits(round_trip[i]);
    value_bits[i]      = to_bits(values[i]);
  }
  strata_test::check_equal(expected, d_twiddled.download());
  strata_test::check_equal(value_bits, round_trip_bits);
}

TEST_CASE("Log2 and PowerOfTwo", "[util][type]")
{
  STATIC_REQUIRE(strata::Log2<1>::VALUE == 0);
  STATIC_REQUIRE(strata::Log2<2>::VALUE == 1);
  STATIC_REQUIRE(strata::Log2<3>::VALUE == 2); // rounded up, as in CUB
  STATIC_REQUIRE(strata::Log2<8>::VALUE == 3);
  STATIC_REQUIRE(strata::Log2<31>::VALUE == 5);
  STATIC_REQUIRE(strata::Log2<32>::VALUE == 5);
  STATIC_REQUIRE(strata::Log2<33>::VALUE == 6);
  STATIC_REQUIRE(strata::Log2<32>::POW2);
  STATIC_REQUIRE_FALSE(strata::Log2<33>::POW2);
  STATIC_REQUIRE(strata::PowerOfTwo<64>::VALUE);
  STATIC_REQUIRE_FALSE(strata::PowerOfTwo<96>::VALUE);
  STATIC_REQUIRE(strata::PowerOfTwo<96>::ROUNDED_UP == 128);
  STATIC_REQUIRE(strata::PowerOfTwo<96>::ROUNDED_DOWN == 64);
}

TEST_CASE("AlignBytes and UnitWord", "[util][type]")
{
  STATIC_REQUIRE(strata::AlignBytes<double>::ALIGN_BYTES == alignof(double));
  STATIC_REQUIRE(strata::AlignBytes<const int4>::ALIGN_BYTES == 16);
  STATIC_REQUIRE(std::is_same_v<strata::AlignBytes<short>::Type, short>);
  using custom_words = strata::UnitWord<strata_test::custom_t>;
  STATIC_REQUIRE(sizeof(custom_words::ShuffleWord) == 4);
  STATIC_REQUIRE(sizeof(custom_words::VolatileWord) == 4);
  STATIC_REQUIRE(sizeof(custom_words::DeviceWord) == 4);
  STATIC_REQUIRE(sizeof(strata::UnitWord<double2>::DeviceWord) == 16);
  STATIC_REQUIRE(sizeof(strata::UnitWord<double2>::VolatileWord) == 8);
  STATIC_REQUIRE(sizeof(strata::UnitWord<double2>::ShuffleWord) == 4);
  STATIC_REQUIRE(sizeof(strata::UnitWord<char>::ShuffleWord) == 1);
  STATIC_REQUIRE(sizeof(strata::UnitWord<__half>::DeviceWord) == 2);
  STATIC_REQUIRE(sizeof(strata::UnitWord<int2>::TextureWord) == 8);
}

TEST_CASE("KeyValuePair, DoubleBuffer, NullType, Uninitialized", "[util][type]")
{
  strata::KeyValuePair<int, double> a(3, 2.5);
  strata::KeyValuePair<int, double> b(3, 2.5);
  CHECK(a == b);
  b.value = 1.0;
  CHECK(a != b);
  STATIC_REQUIRE(std::is_same_v<decltype(a)::Key, int>);
  STATIC_REQUIRE(std::is_same_v<decltype(a)::Value, double>);

  int x[4] = {};
  int y[4] = {};
  strata::DoubleBuffer<int> buffers(x, y);
  CHECK(buffers.Current() == x);
  CHECK(buffers.Alternate() == y);
  buffers.selector ^= 1;
  CHECK(buffers.Current() == y);
  CHECK(buffers.Alternate() == x);
  strata::DoubleBuffer<int> empty;
  CHECK(empty.Current() == nullptr);

  strata::NullType n;
  n = 42;
  CHECK(n == strata::NullType{});

  struct with_ctor
  {
    with_ctor() = delete;
    int v;
  };
  strata::Uninitialized<with_ctor> storage;
  storage.Alias().v = 7;
  CHECK(storage.Alias().v == 7);
  STATIC_REQUIRE(sizeof(strata::Uninitialized<double3>) == sizeof(double3));
  STATIC_REQUIRE(alignof(strata::Uninitialized<double2>) == alignof(double2));
}

namespace
{
__global__ void future_value_kernel(strata::FutureValue<int> future, strata::detail::InputValue<int> immediate,
                                    strata::detail::InputValue<int> deferred, int* out)
{
  out[0] = future;
  out[1] = *immediate;
  out[2] = *deferred;
}
} // namespace

TEST_CASE("FutureValue reads its value when the kernel runs", "[util][type][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int value = static_cast<int>(strata_test::seed() % 100000) + 1;
  strata_test::device_buffer<int> d_value(std::vector<int>{-5});
  strata_test::device_buffer<int> d_out(3);
  d_out.poison();
  strata::FutureValue<int> future(d_value.data());
  // The value is written after the future is made and before the kernel reads it.
  d_value.upload({value});
  future_value_kernel<<<1, 1>>>(future, strata::detail::InputValue<int>(value + 1),
                                strata::detail::InputValue<int>(strata::FutureValue<int>(d_value.data())),
                                d_out.data());
  strata_test::check_launch();
  strata_test::check_equal(std::vector<int>{value, value + 1, value}, d_out.download());
  STATIC_REQUIRE(std::is_same_v<decltype(strata::FutureValue(d_value.data())), strata::FutureValue<int, int*>>);
}

// test/common/types.cuh: the types tests run over (Catch2 TEMPLATE_LIST_TEST_CASE lists), the
// custom struct, and how Catch2 prints the CUDA types.
#pragma once

#include <catch2/catch_tostring.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

namespace strata_test
{
//! A 12-byte aggregate with a custom operator, standing for user types: it is moved word by word
//! in shuffles and is not a power of two in size. Addition wraps per member (no overflow UB).
struct custom_t
{
  std::int32_t a;
  std::int32_t b;
  std::int32_t c;

  friend __host__ __device__ constexpr bool operator==(const custom_t& x, const custom_t& y)
  {
    return x.a == y.a && x.b == y.b && x.c == y.c;
  }
  friend __host__ __device__ constexpr bool operator!=(const custom_t& x, const custom_t& y)
  {
    return !(x == y);
  }
  //! Lexicographic order over (a, b, c).
  friend __host__ __device__ constexpr bool operator<(const custom_t& x, const custom_t& y)
  {
    return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.c < y.c;
  }
  friend __host__ __device__ constexpr custom_t operator+(const custom_t& x, const custom_t& y)
  {
    return custom_t{wrap_add(x.a, y.a), wrap_add(x.b, y.b), wrap_add(x.c, y.c)};
  }

private:
  __host__ __device__ static constexpr std::int32_t wrap_add(std::int32_t x, std::int32_t y)
  {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) + static_cast<std::uint32_t>(y));
  }
};
static_assert(sizeof(custom_t) == 12, "custom_t must stay 12 bytes");

using signed_integral_types   = std::tuple<std::int8_t, std::int16_t, std::int32_t, std::int64_t>;
using unsigned_integral_types = std::tuple<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;
using integral_types          = decltype(std::tuple_cat(signed_integral_types{}, unsigned_integral_types{}));
using floating_types          = std::tuple<float, double, __half, __nv_bfloat16>;
using arithmetic_types        = decltype(std::tuple_cat(integral_types{}, floating_types{}));
//! Every type strata supports: integers, floating point (also 16-bit) and a custom struct.
using all_types = decltype(std::tuple_cat(arithmetic_types{}, std::tuple<custom_t>{}));

template <typename T>
inline constexpr bool is_extended_float_v = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template <typename T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_extended_float_v<T>;

//! T as a double, for references and messages (__half and __nv_bfloat16 included).
template <typename T>
double to_double(const T& x)
{
  if constexpr (std::is_same_v<T, __half>)
  {
    return static_cast<double>(__half2float(x));
  }
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
  {
    return static_cast<double>(__bfloat162float(x));
  }
  else
  {
    return static_cast<double>(x);
  }
}

//! A double rounded to T (__half and __nv_bfloat16 included).
template <typename T>
T from_double(double x)
{
  if constexpr (std::is_same_v<T, __half>)
  {
    return __double2half(x);
  }
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
  {
    return __double2bfloat16(x);
  }
  else
  {
    return static_cast<T>(x);
  }
}
} // namespace strata_test

namespace Catch
{
template <>
struct StringMaker<__half>
{
  static std::string convert(const __half& x)
  {
    return StringMaker<double>::convert(strata_test::to_double(x)) + "_h";
  }
};
template <>
struct StringMaker<__nv_bfloat16>
{
  static std::string convert(const __nv_bfloat16& x)
  {
    return StringMaker<double>::convert(strata_test::to_double(x)) + "_bf";
  }
};
template <>
struct StringMaker<strata_test::custom_t>
{
  static std::string convert(const strata_test::custom_t& x)
  {
    return "{" + std::to_string(x.a) + ", " + std::to_string(x.b) + ", " + std::to_string(x.c) + "}";
  }
};
} // namespace Catch

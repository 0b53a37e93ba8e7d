// test/common/bits.cuh: a value's object representation as the unsigned integer of its width, and
// back, for tests that compare keys bit for bit or make them from random bits.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace strata_test
{
//! The unsigned integer of T's width (1, 2, 4, 8 or 16 bytes).
template <typename T>
using bits_t = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t,
                                          std::conditional_t<sizeof(T) == 8, std::uint64_t, __uint128_t>>>>;

template <typename T>
bits_t<T> bits_of(const T& value)
{
  static_assert(sizeof(T) == sizeof(bits_t<T>), "a type of 1, 2, 4, 8 or 16 bytes");
  bits_t<T> bits;
  std::memcpy(&bits, static_cast<const void*>(&value), sizeof(T));
  return bits;
}

template <typename T>
T from_bits(bits_t<T> bits)
{
  static_assert(sizeof(T) == sizeof(bits_t<T>), "a type of 1, 2, 4, 8 or 16 bytes");
  T value;
  std::memcpy(static_cast<void*>(&value), &bits, sizeof(T));
  return value;
}
} // namespace strata_test

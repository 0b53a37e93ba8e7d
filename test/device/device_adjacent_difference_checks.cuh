// test/device/device_adjacent_difference_checks.cuh: what the DeviceAdjacentDifference tests
// share: a 16-byte record with its own operator-, the item types and sizes, seeded inputs whose
// differences cannot overflow, an operator whose result is of another type, the host reference
// written from CUB's definition, the four functions called by side (left, right) and form (copy,
// in place), and checks of a copy and of an in-place run. The two-phase call and the byte-wise
// checks (run_two_phase, check_items, check_untouched) are DeviceSelect's
// (device_select_checks.cuh).
#pragma once

#include <strata/device/device_adjacent_difference.cuh>

#include "common/test_common.cuh"
#include "device_select_checks.cuh"

#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! A 16-byte record whose operator- subtracts member by member, wrapping: what the default
//! ::cuda::std::minus<> calls for it. A difference taken from the wrong neighbour or in the wrong
//! order shows in every member.
struct record16
{
  std::int64_t a;
  std::uint32_t b;
  std::int32_t c;

  friend __host__ __device__ constexpr bool operator==(const record16& x, const record16& y)
  {
    return x.a == y.a && x.b == y.b && x.c == y.c;
  }
  friend __host__ __device__ constexpr bool operator!=(const record16& x, const record16& y)
  {
    return !(x == y);
  }
  friend __host__ __device__ constexpr record16 operator-(const record16& x, const record16& y)
  {
    return record16{static_cast<std::int64_t>(static_cast<std::uint64_t>(x.a) - static_cast<std::uint64_t>(y.a)),
                    x.b - y.b,
                    static_cast<std::int32_t>(static_cast<std::uint32_t>(x.c) - static_cast<std::uint32_t>(y.c))};
  }
};
static_assert(sizeof(record16) == 16, "record16 must stay 16 bytes, without padding");

//! The item types of the copying forms: every integer width, float, double and the record.
using adjacent_types = std::tuple<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t,
                                  std::int64_t, std::uint64_t, float, double, record16>;

//! Items past the outputs in every output buffer: they must keep the poison.
inline constexpr std::size_t adjacent_slack = 7;

//! The sizes: empty, tiny, both sides of a warp's rows of items (32 and 128 for 4-byte items, 512
//! a warp's whole share of a 4-byte tile), of every tile size the policies may pick (1024 to 8192
//! items) and of 6144 (one and a half 4-byte tiles, three 2048-item tiles), a large odd size and
//! 2^20 + 7; with `huge`, 2^24 + 13 as well. Under compute-sanitizer the sizes stop at 100003
//! (twelve or more tiles of every policy still run).
inline std::vector<std::size_t> adjacent_sizes(bool huge = false)
{
  std::vector<std::size_t> sizes{0,    1,    2,    3,    31,   33,   127,  129,  511,  513,  1023, 1024, 1025,
                                 2047, 2048, 2049, 4095, 4096, 4097, 6143, 6144, 6145, 8191, 8192, 8193, 100003};
  if (!under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 20) + 7);
    if (huge)
    {
      sizes.push_back((std::size_t(1) << 24) + 13);
    }
  }
  return sizes;
}

//! `n` random items of T from `seed`: signed integers in half of their range (so that the
//! difference of two fits), unsigned ones over their whole range (their differences wrap),
//! floating point uniform in [-100, 100], records with random members.
template <typename T>
std::vector<T> adjacent_inputs(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, record16>)
  {
    std::vector<T> items(n);
    std::mt19937_64 engine(seed);
    for (auto& item : items)
    {
      item = record16{static_cast<std::int64_t>(engine()), static_cast<std::uint32_t>(engine()),
                      static_cast<std::int32_t>(engine() >> 32)}; // a braced list runs left to right
    }
    return items;
  }
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
  {
    const std::int64_t half = std::int64_t(1) << (std::numeric_limits<T>::digits - 1);
    std::uniform_int_distribution<std::int64_t> dist(-half, half - 1);
    std::mt19937_64 engine(seed);
    std::vector<T> items(n);
    for (auto& item : items)
    {
      item = static_cast<T>(dist(engine));
    }
    return items;
  }
  else
  {
    return random_vector<T>(n, seed);
  }
}

//! a - 2 b in 64 bits: an operator whose result type (int64) differs from its operands' (int32 or
//! int64 items up to 2^61), and whose operands cannot be swapped unnoticed.
struct minus_twice
{
  template <typename T>
  __host__ __device__ std::int64_t operator()(const T& a, const T& b) const
  {
    return static_cast<std::int64_t>(a) - 2 * static_cast<std::int64_t>(b);
  }
};

//! Which neighbour a difference takes: SubtractLeft* the item before, SubtractRight* the one after.
enum class side
{
  left,
  right
};

inline constexpr side both_sides[] = {side::left, side::right};

//! The name of the function of side `s`, copying or in place.
inline std::string function_name(side s, bool copy)
{
  return std::string("DeviceAdjacentDifference::Subtract") + (s == side::left ? "Left" : "Right")
         + (copy ? "Copy" : "");
}

//! CUB's definition, each result converted to OutT: SubtractLeft* gives out[0] = in[0] and
//! out[i] = op(in[i], in[i - 1]); SubtractRight* gives out[i] = op(in[i], in[i + 1]) and
//! out[n - 1] = in[n - 1].
template <typename OutT, typename T, typename OpT>
std::vector<OutT> reference_difference(const std::vector<T>& in, side s, OpT op)
{
  const std::size_t n = in.size();
  std::vector<OutT> out(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    if (s == side::left)
    {
      out[i] = i == 0 ? static_cast<OutT>(in[i]) : static_cast<OutT>(op(in[i], in[i - 1]));
    }
    else
    {
      out[i] = i + 1 == n ? static_cast<OutT>(in[i]) : static_cast<OutT>(op(in[i], in[i + 1]));
    }
  }
  return out;
}

//! SubtractLeftCopy or SubtractRightCopy (by `s`) from d_in to d_out.
template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename OpT = ::cuda::std::minus<>>
cudaError_t subtract_copy(side s, void* d_temp, std::size_t& bytes, InputIteratorT d_in, OutputIteratorT d_out,
                          NumItemsT num_items, OpT op = {}, cudaStream_t stream = nullptr)
{
  return s == side::left
             ? strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, bytes, d_in, d_out, num_items, op, stream)
             : strata::DeviceAdjacentDifference::SubtractRightCopy(d_temp, bytes, d_in, d_out, num_items, op, stream);
}

//! SubtractLeft or SubtractRight (by `s`) in place in d_data.
template <typename IteratorT, typename NumItemsT, typename OpT = ::cuda::std::minus<>>
cudaError_t subtract_in_place(side s, void* d_temp, std::size_t& bytes, IteratorT d_data, NumItemsT num_items,
                              OpT op = {}, cudaStream_t stream = nullptr)
{
  return s == side::left
             ? strata::DeviceAdjacentDifference::SubtractLeft(d_temp, bytes, d_data, num_items, op, stream)
             : strata::DeviceAdjacentDifference::SubtractRight(d_temp, bytes, d_data, num_items, op, stream);
}

//! `at` poison items, then `items`: what a buffer holds before a call at offset `at`.
template <typename T>
std::vector<T> after_poison(const std::vector<T>& items, std::size_t at)
{
  std::vector<T> shifted(at, poison_value<T>());
  shifted.insert(shifted.end(), items.begin(), items.end());
  return shifted;
}

//! Runs `call(d_temp, bytes)`, a copying form writing `expected.size()` items to d_out + at, into
//! the poisoned d_out; CHECKs the items and that everything else in d_out kept the poison.
template <typename OutT, typename CallT>
void check_copy(device_buffer<OutT>& d_out, const std::vector<OutT>& expected, std::size_t at, CallT&& call)
{
  d_out.poison();
  run_two_phase(call);
  check_selected(expected, d_out.download(), at);
}

//! Writes `in` to d_data + at (poison elsewhere), runs `call(d_temp, bytes)`, an in-place form over
//! those items, and CHECKs them against `expected` and that everything else kept the poison.
template <typename T, typename CallT>
void check_in_place(device_buffer<T>& d_data, const std::vector<T>& in, const std::vector<T>& expected, std::size_t at,
                    CallT&& call)
{
  upload_prefix(d_data, after_poison(in, at));
  run_two_phase(call);
  check_selected(expected, d_data.download(), at);
}
} // namespace strata_test

namespace Catch
{
template <>
struct StringMaker<strata_test::record16>
{
  static std::string convert(const strata_test::record16& x)
  {
    return "{" + std::to_string(x.a) + ", " + std::to_string(x.b) + ", " + std::to_string(x.c) + "}";
  }
};
} // namespace Catch

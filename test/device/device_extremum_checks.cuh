// test/device/device_extremum_checks.cuh: what the exact Min / Max / ArgMin / ArgMax tests share:
// all six calls of DeviceReduce on one input (ArgMin and ArgMax in both the KeyValuePair and the
// split value/index form), and bitwise comparison.
#pragma once

#include <strata/device/device_reduce.cuh>

#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace strata_test
{
//! What DeviceReduce's extremum functions wrote for one input.
template <typename T>
struct extrema
{
  T min;
  T max;
  strata::KeyValuePair<int, T> arg_min;
  strata::KeyValuePair<int, T> arg_max;
  T split_min;
  std::int64_t split_min_index;
  T split_max;
  std::int64_t split_max_index;
};

//! ArgMin (minimum = true) or ArgMax in CUB 3's split form: the extremum and its 64-bit index.
template <typename T>
void run_split_arg(const T* d_in, std::size_t n, bool minimum, T& value, std::int64_t& index)
{
  device_buffer<T> d_value(1);
  device_buffer<std::int64_t> d_index(1);
  d_value.poison();
  d_index.poison();
  std::size_t bytes = 0;
  auto call         = [&](void* d_temp)
  {
    const auto count = static_cast<std::int64_t>(n);
    return minimum ? strata::DeviceReduce::ArgMin(d_temp, bytes, d_in, d_value.data(), d_index.data(), count)
                   : strata::DeviceReduce::ArgMax(d_temp, bytes, d_in, d_value.data(), d_index.data(), count);
  };
  STRATA_TEST_CUDA(call(nullptr));
  REQUIRE(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(call(d_temp.data()));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  value = d_value.download()[0];
  index = d_index.download()[0];
}

//! Min, Max, ArgMin and ArgMax (both forms) of d_in[0, n), each into its own poisoned output.
template <typename T>
extrema<T> run_extrema(const T* d_in, std::size_t n)
{
  using PairT = strata::KeyValuePair<int, T>;
  extrema<T> r;
  r.min =
      run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                    { return strata::DeviceReduce::Min(d_temp, bytes, d_in, d_out, static_cast<std::int64_t>(n)); });
  r.max =
      run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                    { return strata::DeviceReduce::Max(d_temp, bytes, d_in, d_out, static_cast<std::int64_t>(n)); });
  r.arg_min =
      run_reduce<PairT>([&](void* d_temp, std::size_t& bytes, PairT* d_out)
                        { return strata::DeviceReduce::ArgMin(d_temp, bytes, d_in, d_out, static_cast<int>(n)); });
  r.arg_max =
      run_reduce<PairT>([&](void* d_temp, std::size_t& bytes, PairT* d_out)
                        { return strata::DeviceReduce::ArgMax(d_temp, bytes, d_in, d_out, static_cast<int>(n)); });
  run_split_arg(d_in, n, true, r.split_min, r.split_min_index);
  run_split_arg(d_in, n, false, r.split_max, r.split_max_index);
  return r;
}

//! Whether a and b have the same object representation (tells -0.0 from +0.0).
template <typename T>
bool same_bits(const T& a, const T& b)
{
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
} // namespace strata_test

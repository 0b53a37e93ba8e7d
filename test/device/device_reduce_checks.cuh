// test/device/device_reduce_checks.cuh: what the DeviceReduce tests share: the sizes every
// function runs at, and one two-phase call with a poisoned output.
#pragma once

#include "common/test_common.cuh"

#include <cstddef>
#include <vector>

namespace strata_test
{
//! The largest input of the reduction tests.
inline constexpr std::size_t reduce_max_items = (std::size_t(1) << 24) + 13;

//! Sizes up to `available`: empty, tiny, around one tile of 256 x 16 items, around the
//! single-block tiles of 1024 x 8 and 1024 x 16 items and the single-block limits on sm_90 (16384
//! items for wide accumulators, 32768 for 8-byte values, 65536 for the others), an odd size, 2^20
//! and 2^24 + 13.
inline std::vector<std::size_t> reduce_sizes(std::size_t available)
{
  std::vector<std::size_t> sizes;
  for (std::size_t n :
       {std::size_t(0),     std::size_t(1),     std::size_t(2),     std::size_t(4095),   std::size_t(4096),
        std::size_t(4097),  std::size_t(8191),  std::size_t(8192),  std::size_t(8193),   std::size_t(16383),
        std::size_t(16384), std::size_t(16385), std::size_t(32767), std::size_t(32768),  std::size_t(32769),
        std::size_t(65535), std::size_t(65536), std::size_t(65537), std::size_t(100003), std::size_t(1) << 20,
        reduce_max_items})
  {
    if (n <= available)
    {
      sizes.push_back(n);
    }
  }
  return sizes;
}

//! Runs a two-phase device call `call(d_temp, bytes, d_out)` (size query, then the run with that
//! much storage, poisoned: a run that relies on zeroed storage fails) into one poisoned OutputT
//! and returns what it wrote.
template <typename OutputT, typename CallT>
OutputT run_reduce(CallT&& call)
{
  device_buffer<OutputT> d_out(1);
  d_out.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes, d_out.data()));
  REQUIRE(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(call(d_temp.data(), bytes, d_out.data()));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  return d_out.download()[0];
}
} // namespace strata_test

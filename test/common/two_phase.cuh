// test/common/two_phase.cuh: a device algorithm's two-phase call, as the tests run it.
#pragma once

#include "harness.cuh"

#include <catch2/catch_test_macros.hpp>

#include <cstddef>

namespace strata_test
{
//! The two-phase call of `call(d_temp, bytes)`: the size query (at least a byte), then the run in
//! temporary storage of exactly that size, poisoned so that a kernel relying on zeroed temporary
//! storage (tile descriptors) fails, and a wait for the device.
template <typename CallT>
void run_two_phase(CallT&& call)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes));
  CHECK(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes > 0 ? bytes : 1);
  d_temp.poison();
  STRATA_TEST_CUDA(call(d_temp.data(), bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}
} // namespace strata_test

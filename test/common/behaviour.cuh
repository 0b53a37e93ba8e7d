// test/common/behaviour.cuh: what the behaviour tests of the device algorithms share: a call that
// must be refused returns cudaErrorInvalidValue and leaves every buffer as it was, and a size query
// asks for at least one byte.
#pragma once

#include "harness.cuh"

#include <catch2/catch_test_macros.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

namespace strata_test
{
namespace detail
{
template <typename CallT, typename = void>
struct has_run_member : std::false_type
{
};
template <typename CallT>
struct has_run_member<CallT, std::void_t<decltype(&CallT::run)>> : std::true_type
{
};
} // namespace detail

//! CHECKs that `call()` returns cudaErrorInvalidValue and that no buffer changed
//! (`buffers.state()`: the contents of every buffer the call could write).
template <typename BuffersT, typename CallT>
void check_rejected(const BuffersT& buffers, CallT call)
{
  const auto before = buffers.state();
  CHECK(call() == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(buffers.state() == before);
}

//! The bytes of temporary storage a two-phase call asks for: `call.run` (or `call` itself) with no
//! temporary storage, then `args`, then the default stream. CHECKs that it is at least one byte.
template <typename CallT, typename... ArgsT>
std::size_t query_bytes(const CallT& call, const ArgsT&... args)
{
  std::size_t bytes = 0;
  if constexpr (detail::has_run_member<CallT>::value)
  {
    STRATA_TEST_CUDA(call.run(nullptr, bytes, args..., nullptr));
  }
  else
  {
    STRATA_TEST_CUDA(call(nullptr, bytes, args..., nullptr));
  }
  CHECK(bytes >= 1);
  return bytes;
}
} // namespace strata_test

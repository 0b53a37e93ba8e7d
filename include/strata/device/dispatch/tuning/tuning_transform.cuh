// strata/device/dispatch/tuning/tuning_transform.cuh: the tuning policies of DeviceTransform.
#pragma once

#include <strata/config.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace transform
{
//! A tile of BLOCK_THREADS threads, each moving VECTORS_PER_THREAD 16-byte vectors of every
//! array (or, where the arrays cannot be read as vectors, ITEMS_PER_THREAD items), all loads
//! issued before the first store: enough bytes in flight per SM to run at memory bandwidth.
template <int _BLOCK_THREADS, int _VECTORS_PER_THREAD, int _ITEMS_PER_THREAD>
struct TransformPolicy
{
  static constexpr int BLOCK_THREADS      = _BLOCK_THREADS;
  static constexpr int VECTORS_PER_THREAD = _VECTORS_PER_THREAD;
  static constexpr int ITEMS_PER_THREAD   = _ITEMS_PER_THREAD;
};

struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using TransformPolicy = transform::TransformPolicy<256, 2, 8>;
  };
  struct Policy800 : ChainedPolicy<800, Policy800, Policy750>
  {
    using TransformPolicy = transform::TransformPolicy<256, 4, 8>;
  };
  //! The policy the H100 runs; its results against CUB are in docs/performance.md.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    using TransformPolicy = transform::TransformPolicy<256, 4, 8>;
  };
  struct Policy1000 : ChainedPolicy<1000, Policy1000, Policy900>
  {
    using TransformPolicy = typename Policy900::TransformPolicy;
  };
  using MaxPolicy = Policy1000;
};
} // namespace transform
} // namespace detail
STRATA_NAMESPACE_END

// strata/device/dispatch/tuning/tuning_for.cuh: the tuning policies of DeviceFor.
#pragma once

#include <strata/config.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace for_each
{
//! BLOCK_THREADS threads, each applying the operator to ITEMS_PER_THREAD indices of its tile
//! (index i * BLOCK_THREADS + thread, so neighbouring threads touch neighbouring items), or, for
//! ForEachCopy over aligned contiguous input, to VECTORS_PER_THREAD 16-byte vectors of items.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, int _VECTORS_PER_THREAD>
struct ForPolicy
{
  static constexpr int BLOCK_THREADS      = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD   = _ITEMS_PER_THREAD;
  static constexpr int VECTORS_PER_THREAD = _VECTORS_PER_THREAD;
};

struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using ForPolicy = for_each::ForPolicy<256, 2, 2>;
  };
  struct Policy800 : ChainedPolicy<800, Policy800, Policy750>
  {
    using ForPolicy = for_each::ForPolicy<256, 2, 4>;
  };
  //! The policy the H100 runs, from the sweep of benchmark/tuning/tune_for.cu (figures in
  //! docs/performance.md): ForEachCopy reads one 16-byte vector per thread; Bulk and ForEach take
  //! 2 indices per thread.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    using ForPolicy = for_each::ForPolicy<256, 2, 1>;
  };
  struct Policy1000 : ChainedPolicy<1000, Policy1000, Policy900>
  {
    using ForPolicy = typename Policy900::ForPolicy;
  };
  using MaxPolicy = Policy1000;
};
} // namespace for_each
} // namespace detail
STRATA_NAMESPACE_END

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
  //! H100 (tune_for.cu, docs/tuning.md): one 16-byte vector per thread for ForEachCopy, 2 indices otherwise.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    using ForPolicy = for_each::ForPolicy<256, 2, 1>;
  };
  using Policy1000 = Policy900; // sm_90's tuning (an alias: a link would only add host code)
  using MaxPolicy  = Policy1000;
};
} // namespace for_each
} // namespace detail
STRATA_NAMESPACE_END

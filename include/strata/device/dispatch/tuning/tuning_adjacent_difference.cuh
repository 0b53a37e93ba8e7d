// strata/device/dispatch/tuning/tuning_adjacent_difference.cuh: the tuning policies of
// DeviceAdjacentDifference, one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_adjacent_difference.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace adjacent_difference
{
//! Items per thread for items of T: BYTES of them, at least one.
template <typename T, int BYTES>
inline constexpr int items_per_thread_v = sizeof(T) < BYTES ? int(BYTES / sizeof(T)) : 1;

//! Policies for adjacent differences of InputT. AdjacentDifferencePolicy (CUB's name) sizes the
//! tiles: 128 threads of one 16-byte vector (the Copy forms) or two (in place, where each tile's
//! edge items are saved first). Small tiles keep more blocks on an SM: the kernel is a copy.
template <typename InputT, bool MAY_ALIAS>
struct policy_hub
{
  //! H100/H200 (docs/performance.md): 128 x 4 (Copy) and 128 x 8 (in place) 4-byte items.
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using AdjacentDifferencePolicy =
        AgentAdjacentDifferencePolicy<128, items_per_thread_v<InputT, MAY_ALIAS ? 32 : 16>, BLOCK_LOAD_DIRECT,
                                      MAY_ALIAS ? LOAD_DEFAULT : LOAD_LDG, BLOCK_STORE_DIRECT>;
  };

  using Policy800  = Policy750;
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy1000;
};
} // namespace adjacent_difference
} // namespace detail
STRATA_NAMESPACE_END

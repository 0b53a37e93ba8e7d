// strata/device/dispatch/tuning/tuning_segmented_scan.cuh: the tuning policies of
// DeviceSegmentedScan, one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_segmented_scan.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_scan
{
//! Policies for a segmented scan of AccumT values: tiles of 256 threads, 8 items each for values of
//! up to 4 bytes and 4 for wider ones (each item also keeps where its result goes). Set by hand,
//! not measured yet.
template <typename AccumT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using SegmentedScanPolicyT = AgentSegmentedScanPolicy<256, sizeof(AccumT) <= 4 ? 8 : 4>;
  };
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy750;
};

//! The descriptors a segmented scan keeps (RoundTileState's ring): 2^16 tiles, 2^27 items at 2048
//! a tile, before the ring is reused round by round.
inline constexpr int default_ring_tiles = 1 << 16;
} // namespace segmented_scan
} // namespace detail
STRATA_NAMESPACE_END

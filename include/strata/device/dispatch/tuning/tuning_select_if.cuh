// strata/device/dispatch/tuning/tuning_select_if.cuh: the tuning policies of DeviceSelect's and
// DevicePartition's single-pass compaction, one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_select_if.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace select
{
//! Items per thread for items of T: 96 bytes of items (six 16-byte vectors of 4-byte items), at
//! least 4 and at most 32 (one selection bit each in a 32-bit mask), a multiple of the items of a
//! 16-byte vector where they are at most 8 bytes.
template <typename T>
inline constexpr int items_per_thread_v = sizeof(T) <= 2    ? 32
                                          : sizeof(T) <= 8  ? int(96 / sizeof(T))
                                          : sizeof(T) <= 12 ? 8
                                                            : 6;

//! Policies for compacting items of InputT. SelectIfPolicyT (CUB's name) and
//! ThreeWayPartitionPolicy size the tiles: 256 threads, items_per_thread_v items each.
template <typename InputT>
struct policy_hub
{
  template <typename LookbackPolicyT, int MIN_BLOCKS, int PREFETCH_BYTES>
  using policy_t = AgentSelectIfPolicy<256, items_per_thread_v<InputT>, BLOCK_LOAD_DIRECT, LOAD_DEFAULT,
                                       BLOCK_SCAN_WARP_SCANS, LookbackPolicyT, MIN_BLOCKS, PREFETCH_BYTES>;

  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using SelectIfPolicyT         = policy_t<DefaultLookbackPolicy, 1, 0>;
    using ThreeWayPartitionPolicy = SelectIfPolicyT;
  };

  //! H100/H200 (docs/performance.md): 3 blocks an SM, the look-back's first read after 600 ns
  //! (the first 1024 tiles: 100 ns), L2 prefetch 3 MiB ahead.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    using SelectIfPolicyT         = policy_t<LookbackPolicy<600, 300, 600, 1024, 100, 200>, 3, 3 << 20>;
    using ThreeWayPartitionPolicy = SelectIfPolicyT;
  };

  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};
} // namespace select
} // namespace detail
STRATA_NAMESPACE_END

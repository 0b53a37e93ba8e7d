// strata/device/dispatch/tuning/tuning_scan_by_key.cuh: the tuning policies of DeviceScan's scans
// by key, one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_scan.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/device/dispatch/tuning/tuning_scan.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan_by_key
{
//! Policies for scanning AccumT values by KeyT keys (AgentScanPolicy: threads, items per thread
//! nominal for 4 bytes, scaled by the larger of key and value).
template <typename KeyT, typename AccumT, typename ScanOpT>
struct policy_hub
{
  using ScaleT               = ::cuda::std::conditional_t<(sizeof(KeyT) > sizeof(AccumT)), KeyT, AccumT>;
  static constexpr bool WIDE = sizeof(ScaleT) >= 8;

  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using ScanPolicy = scan::tuning_policy_t<256, scan::nominal_items_v<ScaleT, 12>, ScaleT, LOAD_DEFAULT>;
  };

  //! H100 (tune_scan.cu, docs/tuning.md): 320 x 16 at 3 blocks per SM (4-byte), 128 x 12 at 8 (8-byte,
  //! look-back after 100 ns), L2 prefetch 2 MiB ahead.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    static constexpr int MIN_BLOCKS     = sizeof(KeyT) > 4 ? 1 : sizeof(AccumT) == 4 ? 3 : sizeof(AccumT) == 8 ? 8 : 1;
    static constexpr int PREFETCH_BYTES = sizeof(AccumT) == 4 || sizeof(AccumT) == 8 ? 2 << 20 : 0;
    using LookbackT =
        ::cuda::std::conditional_t<sizeof(AccumT) == 8, LookbackPolicy<100, 200, 200>, LookbackPolicy<1200, 600, 600>>;
    using ScanPolicy = scan::tuning_policy_t<WIDE ? 128 : 320, scan::nominal_items_v<ScaleT, WIDE ? 24 : 16>, ScaleT,
                                             LOAD_DEFAULT, LookbackT, MIN_BLOCKS, PREFETCH_BYTES>;
  };

  // Later generations keep sm_90's tuning; sm_80 keeps sm_75's (aliases, not links: a link of
  // its own would only add host code to every call).
  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};
} // namespace scan_by_key
} // namespace detail
STRATA_NAMESPACE_END

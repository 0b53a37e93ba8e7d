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

  struct Policy800 : ChainedPolicy<800, Policy800, Policy750>
  {
    using ScanPolicy = scan::tuning_policy_t<256, scan::nominal_items_v<ScaleT, 12>, ScaleT, LOAD_DEFAULT>;
  };

  //! The policy the H100 runs, from the sweeps of benchmark/tuning/tune_scan.cu (figures in
  //! docs/performance.md): 320 x 16 items for 4-byte values at 3 blocks per SM, 128 x 12 for
  //! 8-byte ones with registers bounded for 8 blocks (left free, the compiler takes 72 registers
  //! and an SM holds 7). Each block has L2 prefetch the keys and values 2 MiB ahead of its tile, and
  //! the look-back of 8-byte values starts after 100 ns (with the prefetch, a shorter first wait
  //! pays for them).
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    static constexpr int MIN_BLOCKS     = sizeof(KeyT) > 4 ? 1 : sizeof(AccumT) == 4 ? 3 : sizeof(AccumT) == 8 ? 8 : 1;
    static constexpr int PREFETCH_BYTES = sizeof(AccumT) == 4 || sizeof(AccumT) == 8 ? 2 << 20 : 0;
    using LookbackT =
        ::cuda::std::conditional_t<sizeof(AccumT) == 8, LookbackPolicy<100, 200, 200>, LookbackPolicy<1200, 600, 600>>;
    using ScanPolicy = scan::tuning_policy_t<WIDE ? 128 : 320, scan::nominal_items_v<ScaleT, WIDE ? 24 : 16>,
                                             ScaleT, LOAD_DEFAULT, LookbackT, MIN_BLOCKS, PREFETCH_BYTES>;
  };

  struct Policy1000 : ChainedPolicy<1000, Policy1000, Policy900>
  {
    using ScanPolicy = typename Policy900::ScanPolicy;
  };

  using MaxPolicy = Policy1000;
};
} // namespace scan_by_key
} // namespace detail
STRATA_NAMESPACE_END

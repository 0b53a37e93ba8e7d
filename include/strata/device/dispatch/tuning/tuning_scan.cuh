// strata/device/dispatch/tuning/tuning_scan.cuh: the tuning policies of DeviceScan's single-pass
// scan, one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_scan.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{
//! Items per thread for 4-byte values that make a tile of T hold NOMINAL_4B * 4 bytes per thread,
//! except for values under 4 bytes, which get a fixed 16 (two bytes) or 32 (one byte) items:
//! each takes a register of its own.
template <typename T, int NOMINAL_4B>
inline constexpr int nominal_items_v = sizeof(T) >= 4 ? NOMINAL_4B : 8;

//! Policies for scanning AccumT values. ScanPolicy sizes the tiles: threads, items per thread
//! (nominal for 4-byte accumulators, scaled by size), the loads' cache operator, and how the
//! look-back waits.
template <typename AccumT, typename OffsetT, typename ScanOpT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using ScanPolicy = AgentScanPolicy<256, nominal_items_v<AccumT, 16>, AccumT, LOAD_DEFAULT>;
  };

  struct Policy800 : ChainedPolicy<800, Policy800, Policy750>
  {
    using ScanPolicy = AgentScanPolicy<256, nominal_items_v<AccumT, 16>, AccumT, LOAD_DEFAULT>;
  };

  //! The policy the H100 runs, from benchmark/tuning/tune_scan.cu (scans of 2^28 items):
  //! 4-byte values 256 x 20 items (ExclusiveSum u32 775 us; 256 x 16 789, 256 x 24 777, 384 x 16
  //! 790, 128 x 24 793); 8-byte values 384 x 16 items (u64 sum 1488 us, maximum 1491; 256 x 20
  //! sums in 1481 us but needs 68 registers for maximum, one block per SM fewer: 1512). Its results
  //! against CUB are in docs/performance.md.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    static constexpr bool WIDE = sizeof(AccumT) == 8;
    using ScanPolicy = AgentScanPolicy<WIDE ? 384 : 256, nominal_items_v<AccumT, WIDE ? 32 : 20>, AccumT, LOAD_DEFAULT,
                                       LookbackPolicy<1200, 600, 600>>;
  };

  struct Policy1000 : ChainedPolicy<1000, Policy1000, Policy900>
  {
    using ScanPolicy = typename Policy900::ScanPolicy;
  };

  using MaxPolicy = Policy1000;
};
} // namespace scan
} // namespace detail
STRATA_NAMESPACE_END

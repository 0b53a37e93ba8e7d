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
//! The nominal items per thread of a scan tuning for T: NOMINAL_4B for values of 4 bytes or more
//! (detail::NominalScaling scales it by size), 32 bytes of values per thread for narrower ones
//! (16 two-byte, 32 one-byte items, which the scaling keeps).
template <typename T, int NOMINAL_4B>
inline constexpr int nominal_items_v = sizeof(T) >= 4 ? NOMINAL_4B : 32 / int(sizeof(T));

//! Policies for scanning AccumT values. ScanPolicy sizes the tiles: threads, items per thread
//! (nominal for 4-byte accumulators, scaled by size), the loads' cache operator, and how the
//! look-back waits.
template <typename AccumT, typename OffsetT, typename ScanOpT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using ScanPolicy = tuning_policy_t<256, nominal_items_v<AccumT, 16>, AccumT, LOAD_DEFAULT>;
  };

  //! H100 (tune_scan.cu, docs/tuning.md): 256 x 20 (4-byte) and 256 x 16 (8-byte) at 5 and 4 blocks
  //! per SM, look-back after 1.2 us (the first 1024 tiles: 100 ns), L2 prefetch 3 MiB ahead.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    static constexpr int MIN_BLOCKS     = sizeof(AccumT) == 4 ? 5 : sizeof(AccumT) == 8 ? 4 : 1;
    static constexpr int PREFETCH_BYTES = sizeof(AccumT) == 4 || sizeof(AccumT) == 8 ? 3 << 20 : 0;
    using ScanPolicy =
        tuning_policy_t<256, nominal_items_v<AccumT, sizeof(AccumT) == 8 ? 32 : 20>, AccumT, LOAD_DEFAULT,
                        LookbackPolicy<1200, 600, 600, 1024, 100, 200>, MIN_BLOCKS, PREFETCH_BYTES>;
  };

  // Later generations keep sm_90's tuning; sm_80 keeps sm_75's (aliases, not links: a link of
  // its own would only add host code to every call).
  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};
} // namespace scan
} // namespace detail
STRATA_NAMESPACE_END

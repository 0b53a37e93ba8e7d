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
    using ScanPolicy = tuning_policy_t<256, nominal_items_v<AccumT, 16>, AccumT, LOAD_DEFAULT>;
  };

  struct Policy800 : ChainedPolicy<800, Policy800, Policy750>
  {
    using ScanPolicy = tuning_policy_t<256, nominal_items_v<AccumT, 16>, AccumT, LOAD_DEFAULT>;
  };

  //! The policy the H100 runs, from the sweeps of benchmark/tuning/tune_scan.cu (figures in
  //! docs/performance.md): 256 x 20 items for 4-byte values and 256 x 16 for 8-byte ones, with
  //! registers bounded for 5 and 4 blocks per SM (left free, the compiler takes more and an SM
  //! holds a block less); other sizes leave the registers to the compiler. For 4- and 8-byte values
  //! each block has L2 prefetch the tile 3 MiB of input ahead of its own, so that tiles mostly
  //! load from L2 (further ahead, the prefetched lines are evicted before use).
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    static constexpr int MIN_BLOCKS     = sizeof(AccumT) == 4 ? 5 : sizeof(AccumT) == 8 ? 4 : 1;
    static constexpr int PREFETCH_BYTES = sizeof(AccumT) == 4 || sizeof(AccumT) == 8 ? 3 << 20 : 0;
    using ScanPolicy = tuning_policy_t<256, nominal_items_v<AccumT, sizeof(AccumT) == 8 ? 32 : 20>, AccumT,
                                       LOAD_DEFAULT, LookbackPolicy<1200, 600, 600>, MIN_BLOCKS, PREFETCH_BYTES>;
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

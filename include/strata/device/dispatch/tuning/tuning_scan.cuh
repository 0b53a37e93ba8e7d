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

  //! The policy the H100 runs, from benchmark/tuning/tune_scan.cu (scans of 2^28 items), with
  //! registers bounded for a number of blocks per SM (the compiler takes more when free, and loses
  //! a block per SM):
  //! - 4-byte values: 256 x 20 items at 5 blocks (ExclusiveSum u32 776-780 us, InclusiveSum 777-781;
  //!   unbounded 51-52 registers, 4 blocks: 795; 6 blocks spill: 884; 256 x 24 at 5: 838; 384 x 16
  //!   at 4: 777).
  //! - 8-byte values: 256 x 16 items at 4 blocks (u64 ExclusiveSum 1503 us, InclusiveSum
  //!   1507-1511, InclusiveScanInit 1508, maximum 1518-1524; 384 x 16 at 3 blocks: 1491 / 1513 /
  //!   1522 / -, InclusiveScanInit spilling 16 bytes; 384 x 14 at 3: 1504 / 1513 / 1506 / 1524;
  //!   384 x 16 unbounded, rows folded, nothing parked: 2060 / 1537).
  //! Other sizes leave the registers to the compiler.
  //! Each block has L2 prefetch the tile 3 MiB of input ahead of its own (bulk prefetch), so that
  //! tiles mostly load from L2: u32 ExclusiveSum 745-748 us instead of 778-780 (1 MiB ahead 754,
  //! 2 MiB 746-748, 4 MiB 747, 5 MiB 751, 13 MiB 1065: prefetched lines evicted before use); u64
  //! 1450-1458 instead of 1499-1503 (2 MiB 1453, 5 MiB 1473). 4- and 8-byte values only (measured).
  //! Its results against CUB are in docs/performance.md.
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

// strata/device/dispatch/tuning/tuning_segmented_reduce.cuh: the tuning policies of
// DeviceSegmentedReduce, one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_segmented_reduce.cuh>
#include <strata/agent/agent_segmented_reduce_fixed.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
//! Policies of DeviceSegmentedReduce (CUB's template parameters, which do not change them):
//! SegmentedReducePolicy: 256 threads, 4 blocks per SM (64 registers), 8 chunks a warp, a segment
//! costing 128 items more, parts of up to 64 items reduced by one lane, 4 streaming loads in flight
//! (16-byte vectors where the input is a pointer). docs/performance.md has the sweep.
//! SegmentedReduceFixedPolicy (the fixed-size forms): 128 threads, 8 blocks per SM (64 registers),
//! streaming loads; consecutive segments of up to 32 items in tiles of 8 KiB of input, segments of
//! 256 to 4096 items one a warp where there are at least 2048 of them (shorter ones, 33 to 255,
//! lost to the cost line one a warp). benchmark/tuning/tune_segmented_reduce.cu; docs/tuning.md has
//! the sweep.
template <typename AccumT, typename OffsetT, typename ReductionOpT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using SegmentedReducePolicy      = AgentSegmentedReducePolicy<256, 8, 1024, 128, 64, 4, 4, LOAD_CS>;
    using SegmentedReduceFixedPolicy = AgentSegmentedReduceFixedPolicy<128, 8192, 32, LOAD_CS, 8, 256, 4096, 2048>;
  };
  using Policy800  = Policy750;
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy750;
};
} // namespace segmented_reduce
} // namespace detail
STRATA_NAMESPACE_END

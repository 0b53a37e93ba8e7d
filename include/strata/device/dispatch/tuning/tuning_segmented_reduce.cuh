// strata/device/dispatch/tuning/tuning_segmented_reduce.cuh: the tuning policies of
// DeviceSegmentedReduce, one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_segmented_reduce.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
//! Policies of DeviceSegmentedReduce (CUB's template parameters, which do not change them):
//! SegmentedReducePolicy. Not yet measured: the batched copies' shape (256 threads, a segment
//! costing 128 items more), 8 chunks a warp, parts of up to 32 items reduced by one lane.
template <typename AccumT, typename OffsetT, typename ReductionOpT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using SegmentedReducePolicy = AgentSegmentedReducePolicy<256, 8, 1024, 128, 32, 4, 1>;
  };
  using Policy800  = Policy750;
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy750;
};
} // namespace segmented_reduce
} // namespace detail
STRATA_NAMESPACE_END

// strata/device/dispatch/tuning/tuning_batch_memcpy.cuh: the tuning policies of the batched copies
// (DeviceMemcpy::Batched, DeviceCopy::Batched), one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_batch_memcpy.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace batch_memcpy
{
//! Policies of the batched copies (CUB's template parameters, which do not change them):
//! BatchMemcpyPolicyT.
template <typename BufferOffsetT, typename BlockOffsetT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using BatchMemcpyPolicyT = AgentBatchMemcpyPolicy<256, 16384, 128, 32, 4, 1>;
  };

  //! H100/H200 (docs/performance.md): chunks of 16 KiB, a buffer costing 128 bytes more, parts of
  //! up to 32 bytes copied by one lane.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    using BatchMemcpyPolicyT = AgentBatchMemcpyPolicy<256, 16384, 128, 32, 4, 1>;
  };

  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};
} // namespace batch_memcpy
} // namespace detail
STRATA_NAMESPACE_END

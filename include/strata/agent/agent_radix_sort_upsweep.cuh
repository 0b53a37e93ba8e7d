// strata/agent/agent_radix_sort_upsweep.cuh: AgentRadixSortUpsweepPolicy, the tile policy CUB
// names for its upsweep (digit counting) passes. strata counts every pass's digits in one
// histogram pass (AgentRadixSortHistogram); the policy is accepted in a policy hub and ignored.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_arch.cuh>

STRATA_NAMESPACE_BEGIN

//! Threads and keys per thread tuned for 4-byte ComputeT and scaled by ScalingType, the loads'
//! cache operator, the digit width (CUB's parameter list).
template <int NOMINAL_BLOCK_THREADS_4B, int NOMINAL_ITEMS_PER_THREAD_4B, typename ComputeT,
          CacheLoadModifier _LOAD_MODIFIER, int _RADIX_BITS,
          typename ScalingType = RegBoundScaling<NOMINAL_BLOCK_THREADS_4B, NOMINAL_ITEMS_PER_THREAD_4B, ComputeT>>
struct AgentRadixSortUpsweepPolicy : ScalingType
{
  static constexpr int RADIX_BITS                  = _RADIX_BITS;
  static constexpr CacheLoadModifier LOAD_MODIFIER = _LOAD_MODIFIER;
};

STRATA_NAMESPACE_END

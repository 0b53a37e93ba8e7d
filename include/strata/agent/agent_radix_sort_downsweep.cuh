// strata/agent/agent_radix_sort_downsweep.cuh: AgentRadixSortDownsweepPolicy, the tile policy CUB
// names for its downsweep passes and for the one-block sort. strata has no downsweep pass (its
// sorts are onesweep); the policy sizes strata's one-block sort (SingleTilePolicy), and CUB's
// other uses of it are accepted in a policy hub and ignored.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_arch.cuh>

STRATA_NAMESPACE_BEGIN

//! Threads and keys per thread tuned for 4-byte ComputeT and scaled by ScalingType; how keys are
//! loaded; the ranker and its scan; the digit width (CUB's parameter list). strata's one-block
//! sort uses BLOCK_THREADS, ITEMS_PER_THREAD and RADIX_BITS.
template <int NOMINAL_BLOCK_THREADS_4B, int NOMINAL_ITEMS_PER_THREAD_4B, typename ComputeT,
          BlockLoadAlgorithm _LOAD_ALGORITHM, CacheLoadModifier _LOAD_MODIFIER, RadixRankAlgorithm _RANK_ALGORITHM,
          BlockScanAlgorithm _SCAN_ALGORITHM, int _RADIX_BITS,
          typename ScalingType = RegBoundScaling<NOMINAL_BLOCK_THREADS_4B, NOMINAL_ITEMS_PER_THREAD_4B, ComputeT>>
struct AgentRadixSortDownsweepPolicy : ScalingType
{
  static constexpr int RADIX_BITS                    = _RADIX_BITS;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM = _LOAD_ALGORITHM;
  static constexpr CacheLoadModifier LOAD_MODIFIER   = _LOAD_MODIFIER;
  static constexpr RadixRankAlgorithm RANK_ALGORITHM = _RANK_ALGORITHM;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = _SCAN_ALGORITHM;
};

STRATA_NAMESPACE_END

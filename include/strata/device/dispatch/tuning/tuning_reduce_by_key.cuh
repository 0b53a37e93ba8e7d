// strata/device/dispatch/tuning/tuning_reduce_by_key.cuh: the tuning policies of the single-pass
// reduction by key (DeviceReduce::ReduceByKey), one per SM generation, chained from the newest
// down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_reduce_by_key.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce_by_key
{
//! Items per thread for a run's key of KEY_BYTES and value of VALUE_BYTES: 128 bytes of both, as a
//! power of two from 1 to 16 (a tile of up to 256 threads then stages at most 32 KiB of outputs in
//! shared memory).
constexpr int ItemsPerThread(int key_bytes, int value_bytes)
{
  const int fit = 128 / (key_bytes + value_bytes);
  int items     = 16;
  while (items > 1 && items > fit)
  {
    items /= 2;
  }
  return items;
}

//! The policy of BLOCK_THREADS threads for runs of KeyT with values of ValueT, loading LOAD_ALGORITHM's
//! way (AgentReduceByKey: BLOCK_LOAD_DIRECT holds a thread's items consecutively, others stripe
//! 16-byte vectors over each warp).
template <int BLOCK_THREADS, BlockLoadAlgorithm LOAD_ALGORITHM, typename KeyT, typename ValueT,
          typename LookbackPolicyT, int MIN_BLOCKS, int PREFETCH_BYTES>
using policy_t =
    AgentReduceByKeyPolicy<BLOCK_THREADS, ItemsPerThread(int(sizeof(KeyT)), int(sizeof(ValueT))), LOAD_ALGORITHM,
                           LOAD_DEFAULT, BLOCK_SCAN_WARP_SCANS, LookbackPolicyT, MIN_BLOCKS, PREFETCH_BYTES>;

//! The look-back of the H100/H200 policies: the compactions' (tuning_select_if.cuh).
using lookback_900_t = LookbackPolicy<600, 300, 600, 1024, 100, 200>;

//! Policies for DeviceReduce::ReduceByKey (CUB's template parameters): ReduceByKeyPolicyT.
template <typename ReductionOpT, typename AccumT, typename KeyT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using ReduceByKeyPolicyT = policy_t<128, BLOCK_LOAD_WARP_TRANSPOSE, KeyT, AccumT, DefaultLookbackPolicy, 1, 0>;
  };
  //! H100/H200 (docs/performance.md): 128 threads, vectors striped over warps, 4 blocks an SM,
  //! L2 prefetch 3 MiB ahead.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    using ReduceByKeyPolicyT = policy_t<128, BLOCK_LOAD_WARP_TRANSPOSE, KeyT, AccumT, lookback_900_t, 4, 3 << 20>;
  };
  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};
} // namespace reduce_by_key
} // namespace detail
STRATA_NAMESPACE_END

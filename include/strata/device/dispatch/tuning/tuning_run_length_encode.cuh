// strata/device/dispatch/tuning/tuning_run_length_encode.cuh: the tuning policies of the
// single-pass run-length encoding (DeviceRunLengthEncode::Encode and NonTrivialRuns), one per SM
// generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_rle.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace rle
{
//! Items per thread for items of T: 64 bytes of items (four 16-byte vectors of 4-byte items), at
//! least 4 and at most 16 (a tile of 256 threads then stages 32 KiB of run starts and ends).
template <typename T>
inline constexpr int items_per_thread_v = sizeof(T) <= 4   ? 16
                                          : sizeof(T) <= 8 ? 8
                                                           : 4;

//! Policies for encoding runs of KeyT (CUB's template parameters: LengthT, KeyT). RleSweepPolicyT
//! sizes the tiles.
template <typename LengthT, typename KeyT>
struct policy_hub
{
  template <typename LookbackPolicyT, int MIN_BLOCKS, int PREFETCH_BYTES>
  using policy_t = AgentRlePolicy<256, items_per_thread_v<KeyT>, BLOCK_LOAD_DIRECT, LOAD_DEFAULT, true,
                                  BLOCK_SCAN_WARP_SCANS, LookbackPolicyT, MIN_BLOCKS, PREFETCH_BYTES>;

  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using RleSweepPolicyT = policy_t<DefaultLookbackPolicy, 1, 0>;
  };

  //! H100/H200 (docs/performance.md): the compactions' look-back, 3 blocks an SM, L2 prefetch
  //! 3 MiB ahead.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    using RleSweepPolicyT = policy_t<LookbackPolicy<600, 300, 600, 1024, 100, 200>, 3, 3 << 20>;
  };

  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};

namespace encode
{
//! Policies for DeviceRunLengthEncode::Encode.
template <typename LengthT, typename KeyT>
using policy_hub = rle::policy_hub<LengthT, KeyT>;
} // namespace encode

namespace non_trivial_runs
{
//! Policies for DeviceRunLengthEncode::NonTrivialRuns.
template <typename LengthT, typename KeyT>
using policy_hub = rle::policy_hub<LengthT, KeyT>;
} // namespace non_trivial_runs
} // namespace rle
} // namespace detail
STRATA_NAMESPACE_END

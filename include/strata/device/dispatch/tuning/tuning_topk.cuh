// strata/device/dispatch/tuning/tuning_topk.cuh: the tuning policies of DeviceTopK, one per SM
// generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_topk.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace topk
{
//! Keys per thread of a pass: 64 bytes of keys, from 1 to 16 keys.
template <typename KeyT>
inline constexpr int items_per_thread_v = sizeof(KeyT) >= 64
                                              ? 1
                                              : (64 / int(sizeof(KeyT)) > 16 ? 16 : 64 / int(sizeof(KeyT)));

//! Runs of 32 keys in the sample of the filter pass: 32 KiB of samples in shared memory.
template <typename UnsignedBitsT>
inline constexpr int sample_chunks_v = int(32768 / (32 * sizeof(UnsignedBitsT)));

//! Winners per thread of the one-block sort of at most THREADS * sort_items_v winners: 32 KiB of
//! candidates, from 1 to 16 per thread.
template <int THREADS, typename UnsignedBitsT, typename OffsetT>
inline constexpr int sort_items_v = int(32768 / (THREADS * sizeof(Candidate<UnsignedBitsT, OffsetT>)))<
                                        1 ? 1 : int(32768 / (THREADS * sizeof(Candidate<UnsignedBitsT, OffsetT>)))> 16
                                        ? 16
                                        : int(32768 / (THREADS * sizeof(Candidate<UnsignedBitsT, OffsetT>)));

//! Policies for top-k of KeyT keys. TopKPolicy sizes the passes' tiles and the digits (11 bits: a
//! 4-byte key in three passes, the counts of a digit in 8 KiB of shared memory; the last block of
//! each pass picks the digit); SAMPLE_THREADS is the block that samples the
//! keys; SORT_THREADS the block that sorts up to sort_items_v winners a thread; BLOCKS_PER_SM the
//! passes' blocks on each SM.
template <typename KeyT>
struct policy_hub
{
  //! Not yet measured: every generation takes the same values.
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using TopKPolicy                    = AgentTopKPolicy<256, items_per_thread_v<KeyT>, 11>;
    static constexpr int SAMPLE_THREADS = 256;
    static constexpr int SORT_THREADS   = 256;
    static constexpr int BLOCKS_PER_SM  = 4;
  };

  using Policy800  = Policy750;
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy1000;
};
} // namespace topk
} // namespace detail
STRATA_NAMESPACE_END

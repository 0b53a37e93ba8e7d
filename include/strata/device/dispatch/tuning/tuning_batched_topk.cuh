// strata/device/dispatch/tuning/tuning_batched_topk.cuh: the tuning policies of DeviceBatchedTopK,
// one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_batched_topk.cuh>
#include <strata/device/dispatch/tuning/tuning_topk.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace topk
{
//! Candidates DeviceBatchedTopK's block keeps in shared memory: 32 KiB of them, a multiple of
//! THREADS and at least THREADS.
template <int THREADS, typename CandidateT>
inline constexpr int batched_buffer_items_v = int(32768 / sizeof(CandidateT)) / THREADS < 1
                                                  ? THREADS
                                                  : int(32768 / sizeof(CandidateT)) / THREADS* THREADS;

//! Policies for batched top-k of KeyT keys with IndexT indices within a segment: one block of 256
//! threads per segment (one per digit of its 8-bit selection), 64 bytes of keys a thread a tile;
//! small segments one thread each.
template <typename KeyT, typename IndexT>
struct batched_policy_hub
{
  //! Not yet measured: every generation takes the same values.
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using CandidateT = Candidate<typename radix::traits_t<KeyT>::bit_ordered_type, IndexT>;
    using BatchedTopKPolicy =
        AgentBatchedTopKPolicy<256, items_per_thread_v<KeyT>, batched_buffer_items_v<256, CandidateT>>;
    //! Segments of at most THREAD_ITEMS keys and k of at most 32 take a thread each, in
    //! blocks of THREAD_BLOCK_THREADS.
    static constexpr int THREAD_ITEMS         = 2048;
    static constexpr int THREAD_BLOCK_THREADS = 128;
    //! Where sizes come one per segment, those small segments of more than WARP_MIN_ITEMS keys
    //! take a warp each instead.
    static constexpr int WARP_MIN_ITEMS = 256;
    //! Blocks an SM is given of the block kernel over the segments the thread kernel lists (it
    //! holds two to four at once, as the key type's shared memory allows).
    static constexpr int LIST_BLOCKS_PER_SM = 4;
    //! Uniform segments of at least SHARE_MIN_ITEMS keys are filtered by a block per PART_TILES
    //! tiles of each, where a block per segment cannot keep enough loads in flight.
    static constexpr int SHARE_MIN_ITEMS = 1 << 17;
    static constexpr int PART_TILES      = 16;
  };

  using Policy800  = Policy750;
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy1000;
};
} // namespace topk
} // namespace detail
STRATA_NAMESPACE_END

// strata/device/dispatch/tuning/tuning_radix_sort.cuh: the tuning policies of DeviceRadixSort,
// one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_radix_rank.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace radix
{
//! The onesweep pass: tiles of BLOCK_THREADS * ITEMS_PER_THREAD keys ranked by RADIX_BITS-bit
//! digits with RANK_ALGORITHM (a ranker that reports the tile's digit counts before it ranks).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int RADIX_BITS_,
          RadixRankAlgorithm RANK_ALGORITHM_ = RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
          BlockScanAlgorithm SCAN_ALGORITHM_ = BLOCK_SCAN_WARP_SCANS, int RANK_NUM_PARTS_ = 1>
struct OnesweepPolicy
{
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD              = ITEMS_PER_THREAD_;
  static constexpr int RADIX_BITS                    = RADIX_BITS_;
  static constexpr RadixRankAlgorithm RANK_ALGORITHM = RANK_ALGORITHM_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = SCAN_ALGORITHM_;
  static constexpr int RANK_NUM_PARTS                = RANK_NUM_PARTS_;
  static_assert(RANK_ALGORITHM == RADIX_RANK_MATCH_EARLY_COUNTS_ANY
                    || RANK_ALGORITHM == RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR,
                "the onesweep pass needs a ranker that reports digit counts early");
};

//! The histogram pass: each block counts the digits of every pass over tiles of
//! BLOCK_THREADS * ITEMS_PER_THREAD keys, in NUM_PARTS shared copies (fewer atomic collisions).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int NUM_PARTS_, int BLOCKS_PER_SM_>
struct HistogramPolicy
{
  static constexpr int BLOCK_THREADS    = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD = ITEMS_PER_THREAD_;
  static constexpr int NUM_PARTS        = NUM_PARTS_;
  static constexpr int BLOCKS_PER_SM    = BLOCKS_PER_SM_;
};

//! Histogram blocks per SM of a histogram policy: its BLOCKS_PER_SM, or 8 for a policy written for
//! CUB (whose histogram policies do not say).
template <typename HistogramPolicyT, typename = void>
inline constexpr int histogram_blocks_per_sm_v = 8;
template <typename HistogramPolicyT>
inline constexpr int
    histogram_blocks_per_sm_v<HistogramPolicyT, ::cuda::std::void_t<decltype(HistogramPolicyT::BLOCKS_PER_SM)>> =
        HistogramPolicyT::BLOCKS_PER_SM;

//! Inputs of at most BLOCK_THREADS * ITEMS_PER_THREAD keys: one block sorts them with
//! BlockRadixSort in RADIX_BITS-bit digits.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int RADIX_BITS_>
struct SingleTilePolicy
{
  static constexpr int BLOCK_THREADS    = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD = ITEMS_PER_THREAD_;
  static constexpr int RADIX_BITS       = RADIX_BITS_;
};

//! Bytes a key and its value move together through a tile's shared exchange: the larger of the two.
template <typename KeyT, typename ValueT>
inline constexpr int dominant_size_v = ::cuda::std::is_same_v<ValueT, NullType> || sizeof(ValueT) < sizeof(KeyT)
                                           ? int(sizeof(KeyT))
                                           : int(sizeof(ValueT));

//! Onesweep items per thread: 21 for keys and values of up to 4 bytes (CUB's sm_80 tile, a start
//! until measured), fewer for wider ones so that a tile's exchange stays within static shared
//! memory.
template <typename KeyT, typename ValueT>
inline constexpr int onesweep_items_v = dominant_size_v<KeyT, ValueT> <= 4   ? 21
                                        : dominant_size_v<KeyT, ValueT> <= 8 ? 11
                                                                             : 6;

template <typename KeyT, typename ValueT, typename OffsetT>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using OnesweepPolicy   = radix::OnesweepPolicy<384, onesweep_items_v<KeyT, ValueT>, 8>;
    using HistogramPolicy  = radix::HistogramPolicy<128, sizeof(KeyT) <= 4 ? 16 : 8, 1, 8>;
    using SingleTilePolicy = radix::SingleTilePolicy<256,
                                                     dominant_size_v<KeyT, ValueT> <= 4   ? 16
                                                     : dominant_size_v<KeyT, ValueT> <= 8 ? 8
                                                                                          : 4,
                                                     4>;
  };

  // Later generations keep sm_75's tuning until they are measured (aliases, not links).
  using Policy800  = Policy750;
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy750;
};
} // namespace radix
} // namespace detail
STRATA_NAMESPACE_END

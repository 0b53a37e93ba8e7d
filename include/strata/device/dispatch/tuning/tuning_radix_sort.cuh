// strata/device/dispatch/tuning/tuning_radix_sort.cuh: the tuning policies of DeviceRadixSort,
// one per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_radix_sort_downsweep.cuh>
#include <strata/agent/agent_radix_sort_histogram.cuh>
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/agent/agent_radix_sort_upsweep.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/detail/policy_member.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace radix
{
//! Histogram blocks per SM of a histogram policy: its BLOCKS_PER_SM, or 8 for a policy written for
//! CUB (whose histogram policies do not say).
STRATA_DETAIL_POLICY_MEMBER_OR(histogram_blocks_per_sm_v, int, BLOCKS_PER_SM, 8)

//! Onesweep blocks that must fit on an SM at once (the kernel's registers are bounded to let them):
//! a policy's MIN_BLOCKS_PER_SM, or 1 (the compiler's choice) for a policy written for CUB.
STRATA_DETAIL_POLICY_MEMBER_OR(onesweep_min_blocks_v, int, MIN_BLOCKS_PER_SM, 1)

//! The most tiles of TILE_ITEMS keys a portion (the keys of one onesweep launch) may hold: its
//! digit counts must fit a look-back word (below 2^28).
template <int TILE_ITEMS>
inline constexpr int max_portion_tiles_v = int(portion_items_v<TILE_ITEMS> / TILE_ITEMS);

//! Tiles of a portion of a onesweep policy: its PORTION_TILES (tests give small portions, so that
//! sorts of a few tiles take the path of sorts of over 2^28 keys), or the most a look-back word
//! allows for a policy written for CUB.
STRATA_DETAIL_POLICY_MEMBER_OR(portion_tiles_v, int, PORTION_TILES,
                               max_portion_tiles_v<PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD>)

//! The onesweep policy of sorts of fewer than `onesweep_small_below_v` keys: a hub's
//! OnesweepSmallPolicy (strata only; smaller tiles give a small input more blocks), else its
//! OnesweepPolicy. The two share RADIX_BITS: one histogram serves both.
template <typename ActivePolicyT, typename = void>
struct onesweep_small_policy
{
  using type                             = typename ActivePolicyT::OnesweepPolicy;
  static constexpr long long small_below = 0;
};
template <typename ActivePolicyT>
struct onesweep_small_policy<ActivePolicyT, ::cuda::std::void_t<typename ActivePolicyT::OnesweepSmallPolicy>>
{
  using type                             = typename ActivePolicyT::OnesweepSmallPolicy;
  static constexpr long long small_below = ActivePolicyT::ONESWEEP_SMALL_BELOW;
  static_assert(type::RADIX_BITS == ActivePolicyT::OnesweepPolicy::RADIX_BITS,
                "OnesweepSmallPolicy and OnesweepPolicy must sort by digits of the same width");
};
template <typename ActivePolicyT>
using onesweep_small_policy_t = typename onesweep_small_policy<ActivePolicyT>::type;
template <typename ActivePolicyT>
inline constexpr long long onesweep_small_below_v = onesweep_small_policy<ActivePolicyT>::small_below;

//! The onesweep tile for sorting KeyT keys with ValueT values (NullType: keys only): nominal keys
//! per thread for 4-byte items (scaled to the larger of key and value) and blocks that must fit
//! on an SM at once, by the sort's shape, from the sweeps on sm_90 (docs/tuning.md).
template <typename KeyT, typename ValueT>
struct onesweep_tile
{
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr int DOMINANT   = int(sizeof(KeyT) > sizeof(ValueT) || KEYS_ONLY ? sizeof(KeyT) : sizeof(ValueT));
  // Keys of up to 8 bytes: 384 x 30 (4-byte) or 384 x 15 (8-byte), two blocks an SM. Pairs of
  // up to 4 bytes: 384 x 21, two blocks. Pairs of 8 bytes: 384 x 15, two blocks. Else 384 x 19
  // (4-byte nominal), three blocks.
  static constexpr int NOMINAL_ITEMS = DOMINANT > 8 ? 19 : KEYS_ONLY ? 30 : DOMINANT <= 4 ? 21 : 30;
  static constexpr int MIN_BLOCKS    = DOMINANT > 8 ? 3 : 2;
  // 384 threads; values of more than 64 bytes fewer (one each, 32 KiB of them exchanged through
  // shared memory at a time), down to a warp.
  static constexpr int THREADS = DOMINANT <= 64 ? 384 : 32768 / DOMINANT >= 32 ? 32768 / DOMINANT : 32;
  // Keys of up to 4 bytes, fewer than 2^22 of them: 384 x 19, two blocks an SM (three spill u32
  // keys with 64-bit offsets); the larger tile leaves SMs idle there. (8-byte keys keep 384 x 15:
  // smaller tiles would need more look-back words than CUB's temporary storage holds.)
  static constexpr bool SMALL_TILE         = KEYS_ONLY && DOMINANT <= 4;
  static constexpr int SMALL_NOMINAL_ITEMS = SMALL_TILE ? 19 : NOMINAL_ITEMS;
  static constexpr int SMALL_MIN_BLOCKS    = SMALL_TILE ? 2 : MIN_BLOCKS;
  static constexpr long long SMALL_BELOW   = SMALL_TILE ? 1ll << 22 : 0;
};

//! Policies for sorting KeyT keys with ValueT values (NullType: keys only). Tiles scale with
//! the larger of the two (DominantT). OnesweepPolicy, HistogramPolicy and SingleTilePolicy are
//! the ones strata runs; the others complete a hub of CUB's shape.
template <typename KeyT, typename ValueT, typename OffsetT>
struct policy_hub
{
  using DominantT = ::cuda::std::conditional_t<(sizeof(ValueT) > sizeof(KeyT)), ValueT, KeyT>;
  using tile_t    = onesweep_tile<KeyT, ValueT>;

  //! The policies strata runs, with at most MAX_HISTOGRAM_BLOCKS histogram blocks an SM and at most
  //! MAX_SM_THREADS threads of onesweep blocks that must fit on an SM at once.
  template <int MAX_HISTOGRAM_BLOCKS, int MAX_SM_THREADS>
  struct tuning
  {
    using OnesweepTileT = AgentRadixSortOnesweepPolicy<tile_t::THREADS, tile_t::NOMINAL_ITEMS, DominantT, 1,
                                                       RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR, BLOCK_SCAN_WARP_SCANS,
                                                       RADIX_SORT_STORE_DIRECT, 8>;
    using SmallTileT    = AgentRadixSortOnesweepPolicy<tile_t::THREADS, tile_t::SMALL_NOMINAL_ITEMS, DominantT, 1,
                                                    RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR, BLOCK_SCAN_WARP_SCANS,
                                                    RADIX_SORT_STORE_DIRECT, 8>;
    //! The tile of onesweep_tile, ranked by shared-memory masks; portions as large as a look-back
    //! word allows.
    //! Onesweep blocks of `threads` that must fit on an SM: `blocks`, fewer where the SM's threads
    //! do not hold them.
    static constexpr int FitBlocks(int blocks, int threads)
    {
      return blocks * threads <= MAX_SM_THREADS ? blocks
                                                : (MAX_SM_THREADS / threads > 0 ? MAX_SM_THREADS / threads : 1);
    }
    struct OnesweepPolicy : OnesweepTileT
    {
      static constexpr int MIN_BLOCKS_PER_SM = FitBlocks(tile_t::MIN_BLOCKS, OnesweepTileT::BLOCK_THREADS);
      static constexpr int PORTION_TILES =
          max_portion_tiles_v<OnesweepTileT::BLOCK_THREADS * OnesweepTileT::ITEMS_PER_THREAD>;
    };
    struct SmallTilePolicy : SmallTileT
    {
      static constexpr int MIN_BLOCKS_PER_SM = FitBlocks(tile_t::SMALL_MIN_BLOCKS, SmallTileT::BLOCK_THREADS);
      static constexpr int PORTION_TILES =
          max_portion_tiles_v<SmallTileT::BLOCK_THREADS * SmallTileT::ITEMS_PER_THREAD>;
    };
    //! The tile of sorts of fewer than ONESWEEP_SMALL_BELOW keys (the same policy where the sort's
    //! shape has one tile, so that no second kernel is compiled).
    using OnesweepSmallPolicy = ::cuda::std::conditional_t<tile_t::SMALL_TILE, SmallTilePolicy, OnesweepPolicy>;
    static constexpr long long ONESWEEP_SMALL_BELOW = tile_t::SMALL_BELOW;
    //! The histogram pass: 128 threads of 16 keys, 12 blocks an SM for keys of up to 4 bytes, 8
    //! for wider keys (at 12, 40 registers spill their conversions: 64 bytes for u64, over 400
    //! for double and __int128). Sweep in docs/performance.md.
    struct HistogramPolicy : AgentRadixSortHistogramPolicy<128, 16, 1, KeyT, 8>
    {
      static constexpr int TUNED_BLOCKS  = sizeof(KeyT) <= 4 ? 12 : 8;
      static constexpr int BLOCKS_PER_SM = TUNED_BLOCKS < MAX_HISTOGRAM_BLOCKS ? TUNED_BLOCKS : MAX_HISTOGRAM_BLOCKS;
    };
    using ExclusiveSumPolicy = AgentRadixSortExclusiveSumPolicy<256, 8>;
    using SingleTilePolicy   = AgentRadixSortDownsweepPolicy<256, 16, DominantT, BLOCK_LOAD_DIRECT, LOAD_DEFAULT,
                                                           RADIX_RANK_MEMOIZE, BLOCK_SCAN_WARP_SCANS, 4>;
  };

  //! Turing runs at most 1024 threads an SM: sm_90's tuning with 8 histogram blocks of 128 and at
  //! most two onesweep blocks of 384 (keys or values of more than 8 bytes ask for three).
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>, tuning<8, 1024>
  {
  };
  //! sm_90's tuning (measured on the H100); sm_80 to sm_120 reuse it until they are measured.
  struct Policy800 : ChainedPolicy<800, Policy800, Policy750>, tuning<12, 1536>
  {
  };
  using Policy900  = Policy800;
  using Policy1000 = Policy800;
  using MaxPolicy  = Policy800;
};
} // namespace radix
} // namespace detail
STRATA_NAMESPACE_END

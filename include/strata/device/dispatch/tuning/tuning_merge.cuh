// strata/device/dispatch/tuning/tuning_merge.cuh: the tuning policy of DeviceMerge (one for every
// SM generation: the tile of DeviceMergeSort's merge passes, measured on sm_90).
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_merge_sort.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/device/dispatch/tuning/tuning_merge_sort.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge
{
//! Policies for merging KeyT keys with ValueT values (NullType: keys only). merge_policy (CUB's
//! member name) is the tile, fitted to shared memory for wide items (merge_sort::fitted_policy);
//! the tiles are DeviceMergeSort's merge passes', whose kernel this one shares its tile with.
template <typename KeyT, typename ValueT>
struct policy_hub
{
  //! Keys of at most 4 bytes without values merge at copy-like bandwidth: a longer, narrower tile
  //! (128 x 31) keeps more loads in flight per thread and measured best on sm_90.
  static constexpr bool NARROW_KEYS = ::cuda::std::is_same_v<ValueT, NullType> && sizeof(KeyT) <= 4;

  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using merge_policy = AgentMergeSortPolicy<NARROW_KEYS ? 128 : 256, NARROW_KEYS ? 31 : 17, BLOCK_LOAD_WARP_TRANSPOSE,
                                              LOAD_DEFAULT, BLOCK_STORE_WARP_TRANSPOSE>;
    //! Merges of at least this many tiles take their splits from a partition kernel first.
    static constexpr long long PARTITION_MIN_TILES = merge_sort::default_partition_min_tiles;
  };
  using Policy900  = Policy750;
  using max_policy = Policy900;
  using MaxPolicy  = max_policy;
};

//! A hub's tile for KeyT keys and ValueT values, fitted to shared memory.
template <typename ActivePolicyT, typename KeyT, typename ValueT>
using fitted_merge_policy_t = typename merge_sort::fitted_policy<typename ActivePolicyT::merge_policy,
                                                                 merge_sort::merge_tile_family<KeyT, ValueT>>::type;
} // namespace merge
} // namespace detail
STRATA_NAMESPACE_END

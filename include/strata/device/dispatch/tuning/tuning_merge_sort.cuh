// strata/device/dispatch/tuning/tuning_merge_sort.cuh: the tuning policies of DeviceMergeSort, one
// per SM generation, chained from the newest down, and how a policy is fitted to the shared
// memory that large keys and values need.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_merge_sort.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/detail/policy_member.cuh>
#include <strata/detail/shared_fit.cuh>
#include <strata/tile/tile_merge.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge_sort
{
//! The shared memory of a merge tile (DeviceMergeSort's merge passes, DeviceMerge) of KeyT keys
//! and ValueT values, for detail::shared_fit.
template <typename KeyT, typename ValueT>
struct merge_tile_family
{
  template <typename PolicyT>
  struct agent_t
  {
    using TempStorage = typename tile::TileMerge<PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD, KeyT, ValueT,
                                                 PolicyT::STORE_ALGORITHM>::TempStorage;
  };
};

//! The shared memory of DeviceMergeSort's first pass, for detail::shared_fit.
template <typename KeyT, typename ValueT>
struct block_sort_family
{
  template <typename PolicyT>
  using agent_t =
      AgentBlockSort<PolicyT, KeyT*, ValueT*, KeyT*, ValueT*, unsigned int, ::cuda::std::less<KeyT>, KeyT, ValueT>;
};

//! The larger of both passes' shared memory: DeviceMergeSort's merge tile also serves as the
//! first pass's tile where the first pass's own tile is not a whole number of merge tiles.
template <typename KeyT, typename ValueT>
struct merge_sort_family
{
  template <typename PolicyT>
  struct agent_t
  {
    static constexpr ::cuda::std::size_t MERGE_BYTES =
        sizeof(typename merge_tile_family<KeyT, ValueT>::template agent_t<PolicyT>::TempStorage);
    static constexpr ::cuda::std::size_t SORT_BYTES =
        sizeof(typename block_sort_family<KeyT, ValueT>::template agent_t<PolicyT>::TempStorage);
    struct TempStorage
    {
      unsigned char bytes[MERGE_BYTES > SORT_BYTES ? MERGE_BYTES : SORT_BYTES];
    };
  };
};

//! PolicyT where its agent's TempStorage fits the 48 KiB of static shared memory, else PolicyT with
//! fewer items per thread (odd ones: a thread's run of an odd number of 4-byte words starts on
//! another bank than its neighbour's) and then fewer threads (detail::shared_fit); where not even
//! a warp of one item each fits, that warp's tile, kept in global memory (BlockTempStorage).
template <typename PolicyT, typename FamilyT>
struct fitted_policy
{
  using type = typename shared_fit<FamilyT, PolicyT>::policy;
};

//! The first pass's tile policy of a hub's policy: strata's BlockSortPolicy where it has one (a
//! larger tile than the merges' leaves fewer merge passes), else the MergeSortPolicy (CUB's hubs).
template <typename ActivePolicyT, typename = void>
struct hub_block_sort_policy
{
  using type = typename ActivePolicyT::MergeSortPolicy;
};
template <typename ActivePolicyT>
struct hub_block_sort_policy<ActivePolicyT, ::cuda::std::void_t<typename ActivePolicyT::BlockSortPolicy>>
{
  using type = typename ActivePolicyT::BlockSortPolicy;
};

//! Merge passes (and DeviceMerge's merges) of at least this many tiles take their splits from a
//! partition kernel; smaller ones (a wave of blocks or so) have their blocks search for them, a
//! launch fewer. Measured on sm_90 (4.46 M items of 256 x 17 tiles).
inline constexpr long long default_partition_min_tiles = 1024;

//! A hub policy's PARTITION_MIN_TILES (strata only; tests set small ones, so that the partition
//! kernels run at small sizes), else default_partition_min_tiles.
STRATA_DETAIL_POLICY_MEMBER_OR(partition_min_tiles_v, long long, PARTITION_MIN_TILES, default_partition_min_tiles)

//! Blocks of a kernel that must fit on an SM at once (its registers are bounded to let them): a
//! tile policy's MIN_BLOCKS_PER_SM (strata only), else 1 (the compiler's choice).
STRATA_DETAIL_POLICY_MEMBER_OR(min_blocks_v, int, MIN_BLOCKS_PER_SM, 1)

//! The policies the agents run for KeyT keys and ValueT values (NullType: keys only): the hub's,
//! fitted to shared memory (a merge tile holds keys and values side by side, the first pass's
//! tile one of them at a time). The first pass's tile must be a whole number of merge tiles (its
//! runs are cut into them); where fitting breaks that, the first pass takes the merge tile.
template <typename ActivePolicyT, typename KeyT, typename ValueT>
struct agent_policies
{
  using merge_t =
      typename fitted_policy<typename ActivePolicyT::MergeSortPolicy, merge_sort_family<KeyT, ValueT>>::type;
  using sort_fit_t = typename fitted_policy<typename hub_block_sort_policy<ActivePolicyT>::type,
                                            block_sort_family<KeyT, ValueT>>::type;
  using block_sort_t =
      ::cuda::std::conditional_t<sort_fit_t::ITEMS_PER_TILE % merge_t::ITEMS_PER_TILE == 0, sort_fit_t, merge_t>;
  //! The register bounds of the hub's unfitted tiles (a fitted tile keeps the compiler's choice).
  static constexpr int MERGE_MIN_BLOCKS = ::cuda::std::is_same_v<merge_t, typename ActivePolicyT::MergeSortPolicy>
                                              ? min_blocks_v<typename ActivePolicyT::MergeSortPolicy>
                                              : 1;
  static constexpr int SORT_MIN_BLOCKS =
      ::cuda::std::is_same_v<block_sort_t, typename hub_block_sort_policy<ActivePolicyT>::type>
          ? min_blocks_v<typename hub_block_sort_policy<ActivePolicyT>::type>
          : 1;
};

//! Policies for sorting the keys of KeyIteratorT with the values of ValueIteratorT (NullType*: keys
//! only). MergeSortPolicy is CUB's member, the merge passes' tile; BlockSortPolicy is strata's,
//! the first pass's tile (a whole number of merge tiles), and so is PARTITION_MIN_TILES (the
//! passes that take their splits from a partition kernel). Items per thread are odd (fewer bank
//! conflicts) and fitted to shared memory for wide items (fitted_policy).
template <typename KeyIteratorT, typename ValueIteratorT = NullType*>
struct policy_hub
{
  using KeyT                      = it_value_t<KeyIteratorT>;
  using ValueT                    = it_value_t<ValueIteratorT>;
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;

  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using MergeSortPolicy =
        AgentMergeSortPolicy<256, 17, BLOCK_LOAD_WARP_TRANSPOSE, LOAD_DEFAULT, BLOCK_STORE_WARP_TRANSPOSE>;
    static constexpr long long PARTITION_MIN_TILES = default_partition_min_tiles;
  };

  //! H100-class (tune_merge_sort, docs/tuning.md): merge tiles of 256 x 17; keys of up to 4 bytes
  //! without values sort a first tile of 512 x 17 (one merge pass fewer), all else 256 x 17. Those
  //! small keys also bound the registers for 6 merge blocks and 3 first-pass blocks an SM.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    static constexpr bool SMALL_KEYS               = KEYS_ONLY && sizeof(KeyT) <= 4;
    static constexpr long long PARTITION_MIN_TILES = default_partition_min_tiles;
    struct MergeSortPolicy
        : AgentMergeSortPolicy<256, 17, BLOCK_LOAD_WARP_TRANSPOSE, LOAD_DEFAULT, BLOCK_STORE_WARP_TRANSPOSE>
    {
      static constexpr int MIN_BLOCKS_PER_SM = SMALL_KEYS ? 6 : 1;
    };
    struct BlockSortPolicy : AgentMergeSortPolicy<SMALL_KEYS ? 512 : 256, 17, BLOCK_LOAD_WARP_TRANSPOSE, LOAD_DEFAULT,
                                                  BLOCK_STORE_WARP_TRANSPOSE>
    {
      static constexpr int MIN_BLOCKS_PER_SM = SMALL_KEYS ? 3 : 1;
    };
  };

  // sm_80 keeps sm_75's tuning, later generations sm_90's.
  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};
} // namespace merge_sort
} // namespace detail
STRATA_NAMESPACE_END

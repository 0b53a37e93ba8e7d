// strata/agent/agent_merge.cuh: the agent of DeviceMerge, one thread block's tile of the stable merge
// of two sorted inputs.
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_merge.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge
{
//! Writes tile `tile` of the merge of keys1[0, num_items1) and keys2[0, num_items2) (with their
//! values; ValueT = NullType: keys only) into the outputs with a TileMerge, ties taking the first
//! input first: the splits come from `d_splits` (a partition kernel's) or from the block's search.
template <typename PolicyT, typename KeyIt1, typename ValueIt1, typename KeyIt2, typename ValueIt2, typename KeyOutIt,
          typename ValueOutIt, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
class agent_t
{
  static constexpr int TILE_ITEMS = PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD;
  using TileMergeT =
      tile::TileMerge<PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD, KeyT, ValueT, PolicyT::STORE_ALGORITHM>;

public:
  using TempStorage = typename TileMergeT::TempStorage;

  STRATA_DEVICE STRATA_FORCEINLINE agent_t(TempStorage& temp_storage, KeyIt1 keys1, ValueIt1 values1,
                                           OffsetT num_items1, KeyIt2 keys2, ValueIt2 values2, OffsetT num_items2,
                                           KeyOutIt keys_out, ValueOutIt values_out, CompareOpT compare_op)
      : tile_merge(temp_storage)
      , keys1(keys1)
      , values1(values1)
      , num_items1(num_items1)
      , keys2(keys2)
      , values2(values2)
      , num_items2(num_items2)
      , keys_out(keys_out)
      , values_out(values_out)
      , compare_op(compare_op)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Process(OffsetT tile, const OffsetT* d_splits)
  {
    const OffsetT tile_begin = tile * OffsetT(TILE_ITEMS);
    const OffsetT left       = num_items1 + num_items2 - tile_begin;
    if (left >= OffsetT(TILE_ITEMS))
    {
      ProcessTile<true>(tile, tile_begin, TILE_ITEMS, d_splits);
    }
    else
    {
      ProcessTile<false>(tile, tile_begin, int(left), d_splits);
    }
  }

private:
  TileMergeT tile_merge;
  KeyIt1 keys1;
  ValueIt1 values1;
  OffsetT num_items1;
  KeyIt2 keys2;
  ValueIt2 values2;
  OffsetT num_items2;
  KeyOutIt keys_out;
  ValueOutIt values_out;
  CompareOpT compare_op;

  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void ProcessTile(OffsetT tile, OffsetT tile_begin, int valid,
                                                    const OffsetT* d_splits)
  {
    OffsetT split_begin;
    OffsetT split_end;
    tile_merge.Splits(keys1, keys2, num_items1, num_items2, tile_begin, tile_begin + OffsetT(valid),
                      d_splits != nullptr ? d_splits + tile : nullptr, split_begin, split_end, compare_op);
    const int from1      = int(split_end - split_begin);
    const OffsetT begin2 = tile_begin - split_begin;
    if constexpr (::cuda::std::is_same_v<ValueT, NullType>)
    {
      tile_merge.template Merge<FULL>(keys1 + split_begin, values1, from1, keys2 + begin2, values2, valid - from1,
                                      keys_out + tile_begin, values_out, compare_op);
    }
    else
    {
      tile_merge.template Merge<FULL>(keys1 + split_begin, values1 + split_begin, from1, keys2 + begin2,
                                      values2 + begin2, valid - from1, keys_out + tile_begin, values_out + tile_begin,
                                      compare_op);
    }
  }
};
} // namespace merge
} // namespace detail
STRATA_NAMESPACE_END

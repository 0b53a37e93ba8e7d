// strata/agent/agent_merge_sort.cuh: AgentMergeSortPolicy, and the two agents of DeviceMergeSort:
// AgentBlockSort (sorts one tile into a sorted run) and AgentMerge (writes one tile of the merge
// of two sorted runs).
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_store.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_merge.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of DeviceMergeSort's agents (CUB's parameters and defaults): threads per block,
//! items per thread, and the tile's load and store algorithms. LOAD_MODIFIER is recorded; the
//! agents read through the caller's iterators as they are.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD = 1, BlockLoadAlgorithm _LOAD_ALGORITHM = BLOCK_LOAD_DIRECT,
          CacheLoadModifier _LOAD_MODIFIER = LOAD_LDG, BlockStoreAlgorithm _STORE_ALGORITHM = BLOCK_STORE_DIRECT>
struct AgentMergeSortPolicy
{
  static constexpr int BLOCK_THREADS                   = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD                = _ITEMS_PER_THREAD;
  static constexpr int ITEMS_PER_TILE                  = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM   = _LOAD_ALGORITHM;
  static constexpr CacheLoadModifier LOAD_MODIFIER     = _LOAD_MODIFIER;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = _STORE_ALGORITHM;
};

namespace detail
{
namespace merge_sort
{
//! Calls `store(it)` with the output iterator a kernel writes this pass: `buffer` (the temporary
//! storage's copy) when `to_buffer`, else `out` (the caller's). One call when both are the same
//! pointer type, so that the store is compiled once.
template <typename OutputIt, typename T, typename StoreT>
STRATA_DEVICE STRATA_FORCEINLINE void WithOutput(bool to_buffer, OutputIt out, T* buffer, StoreT store)
{
  if constexpr (::cuda::std::is_same_v<OutputIt, T*>)
  {
    store(to_buffer ? buffer : out);
  }
  else if (to_buffer)
  {
    store(buffer);
  }
  else
  {
    store(out);
  }
}
//! Where the output position `position` of a merge pass lies: the pass merges runs of `run_items`
//! items pairwise, and the pair holding the position starts at `group`, with `count1` items in
//! its first run and `count2` in its second (cut at the end of the input). 64-bit arithmetic: two
//! runs may pass a 32-bit offset's range.
template <typename OffsetT>
struct RunPair
{
  OffsetT group;
  OffsetT count1;
  OffsetT count2;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE RunPair(OffsetT position, OffsetT run_items, OffsetT num_items)
  {
    const ::cuda::std::uint64_t pair = 2 * ::cuda::std::uint64_t(run_items);
    group                            = OffsetT(::cuda::std::uint64_t(position) / pair * pair);
    const OffsetT in_group           = num_items - group;
    count1                           = in_group < run_items ? in_group : run_items;
    count2                           = in_group - count1 < run_items ? in_group - count1 : run_items;
  }
};

//! The merge-path split (items from the first run) at output position `position` of a merge pass
//! over runs of `run_items` items, searched by the calling warp in global memory.
template <typename KeyIt, typename OffsetT, typename CompareOpT>
STRATA_DEVICE STRATA_FORCEINLINE OffsetT WarpRunSplit(KeyIt keys, OffsetT num_items, OffsetT run_items,
                                                      OffsetT position, CompareOpT compare_op)
{
  const RunPair<OffsetT> pair(position, run_items, num_items);
  const KeyIt keys1 = keys + pair.group;
  return tile::WarpMergePath(keys1, keys1 + pair.count1, pair.count1, pair.count2, position - pair.group, compare_op);
}
} // namespace merge_sort
} // namespace detail

//! One thread block's tile of DeviceMergeSort's first pass: loads BLOCK_THREADS * ITEMS_PER_THREAD
//! keys (and values), sorts them stably with BlockMergeSort and writes the sorted run to the
//! caller's output or to the temporary buffer. The last tile may be partial: its missing keys
//! become copies of its largest key, which a stable sort puts after every real key.
template <typename PolicyT, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT,
          typename ValueIteratorT, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
class AgentBlockSort
{
  static constexpr bool KEYS_ONLY       = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  using BlockLoadKeysT                  = BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockLoadValuesT                = BlockLoad<ValueT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockStoreKeysT                 = BlockStore<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using BlockStoreValuesT               = BlockStore<ValueT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using BlockMergeSortT                 = BlockMergeSort<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, ValueT>;
  using BlockReduceT                    = BlockReduce<KeyT, BLOCK_THREADS>;

  union _TempStorage
  {
    typename BlockLoadKeysT::TempStorage load_keys;
    typename BlockLoadValuesT::TempStorage load_values;
    typename BlockMergeSortT::TempStorage sort;
    typename BlockStoreKeysT::TempStorage store_keys;
    typename BlockStoreValuesT::TempStorage store_values;
    struct
    {
      typename BlockReduceT::TempStorage reduce;
      KeyT largest;
    } last;
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentBlockSort(TempStorage& temp_storage, KeyInputIteratorT d_keys_in,
                                                  ValueInputIteratorT d_values_in, KeyIteratorT d_keys_out,
                                                  ValueIteratorT d_values_out, KeyT* keys_buffer, ValueT* values_buffer,
                                                  OffsetT num_items, CompareOpT compare_op)
      : storage(temp_storage.Alias())
      , d_keys_in(d_keys_in)
      , d_values_in(d_values_in)
      , d_keys_out(d_keys_out)
      , d_values_out(d_values_out)
      , keys_buffer(keys_buffer)
      , values_buffer(values_buffer)
      , num_items(num_items)
      , compare_op(compare_op)
  {
  }

  //! Sorts tile `tile` into the buffer (`to_buffer`) or the caller's output.
  STRATA_DEVICE STRATA_FORCEINLINE void Process(OffsetT tile, bool to_buffer)
  {
    const OffsetT offset = tile * OffsetT(TILE_ITEMS);
    const OffsetT left   = num_items - offset;
    if (left >= OffsetT(TILE_ITEMS))
    {
      ProcessTile<true>(offset, TILE_ITEMS, to_buffer);
    }
    else
    {
      ProcessTile<false>(offset, int(left), to_buffer);
    }
  }

private:
  _TempStorage& storage;
  KeyInputIteratorT d_keys_in;
  ValueInputIteratorT d_values_in;
  KeyIteratorT d_keys_out;
  ValueIteratorT d_values_out;
  KeyT* keys_buffer;
  ValueT* values_buffer;
  OffsetT num_items;
  CompareOpT compare_op;

  //! The largest of the first `valid` keys of the tile (blocked), in every thread.
  STRATA_DEVICE STRATA_FORCEINLINE KeyT LargestValidKey(const KeyT (&keys)[ITEMS_PER_THREAD], int valid)
  {
    const int first = int(threadIdx.x) * ITEMS_PER_THREAD;
    KeyT largest    = keys[0];
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      if (first + i < valid && compare_op(largest, keys[i]))
      {
        largest = keys[i];
      }
    }
    CompareOpT op = compare_op;
    // Threads with a first key below `valid` take part; at least thread 0 does. The lambda is
    // mutable so that a comparator whose call operator is not const works, as in CUB.
    const KeyT block_largest = BlockReduceT(storage.last.reduce)
                                   .Reduce(
                                       largest, [op](const KeyT& a, const KeyT& b) mutable { return op(a, b) ? b : a; },
                                       (valid + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD);
    if (threadIdx.x == 0)
    {
      storage.last.largest = block_largest;
    }
    __syncthreads();
    const KeyT result = storage.last.largest;
    __syncthreads(); // the union's next user may overwrite it
    return result;
  }

  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void ProcessTile(OffsetT offset, int valid, bool to_buffer)
  {
    KeyT keys[ITEMS_PER_THREAD];
    [[maybe_unused]] ValueT values[ITEMS_PER_THREAD];
    if constexpr (FULL)
    {
      BlockLoadKeysT(storage.load_keys).Load(d_keys_in + offset, keys);
    }
    else
    {
      BlockLoadKeysT(storage.load_keys).Load(d_keys_in + offset, keys, valid);
    }
    if constexpr (!KEYS_ONLY)
    {
      __syncthreads(); // the keys' exchange is done with the shared memory
      if constexpr (FULL)
      {
        BlockLoadValuesT(storage.load_values).Load(d_values_in + offset, values);
      }
      else
      {
        BlockLoadValuesT(storage.load_values).Load(d_values_in + offset, values, valid);
      }
    }
    __syncthreads();
    if constexpr (FULL)
    {
      if constexpr (KEYS_ONLY)
      {
        BlockMergeSortT(storage.sort).Sort(keys, compare_op);
      }
      else
      {
        BlockMergeSortT(storage.sort).Sort(keys, values, compare_op);
      }
    }
    else
    {
      const KeyT largest = LargestValidKey(keys, valid);
      if constexpr (KEYS_ONLY)
      {
        BlockMergeSortT(storage.sort).Sort(keys, compare_op, valid, largest);
      }
      else
      {
        BlockMergeSortT(storage.sort).Sort(keys, values, compare_op, valid, largest);
      }
    }
    __syncthreads();
    detail::merge_sort::WithOutput(
        to_buffer, d_keys_out, keys_buffer,
        [&](auto out)
        { detail::tile::StoreTile<BlockStoreKeysT, FULL>(storage.store_keys, out + offset, keys, valid); });
    if constexpr (!KEYS_ONLY)
    {
      __syncthreads();
      detail::merge_sort::WithOutput(
          to_buffer, d_values_out, values_buffer,
          [&](auto out)
          { detail::tile::StoreTile<BlockStoreValuesT, FULL>(storage.store_values, out + offset, values, valid); });
    }
  }
};

//! One thread block's tile of a merge pass of DeviceMergeSort: the input holds sorted runs of
//! `run_items` items, and the pass merges runs 2g and 2g + 1 into run g of the output. The block
//! writes the output's items [tile * TILE_ITEMS, + TILE_ITEMS) with a TileMerge: the splits come
//! from `d_splits` (a partition kernel's) or from the block's own search. A run without a partner
//! is copied.
template <typename PolicyT, typename KeyInIt, typename ValueInIt, typename KeyOutIt, typename ValueOutIt,
          typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
class AgentMerge
{
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr int TILE_ITEMS = PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD;
  using TileMergeT = detail::tile::TileMerge<PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD, KeyT, ValueT,
                                             PolicyT::STORE_ALGORITHM>;

public:
  using TempStorage = typename TileMergeT::TempStorage;

  STRATA_DEVICE STRATA_FORCEINLINE AgentMerge(TempStorage& temp_storage, KeyInIt d_keys_in, ValueInIt d_values_in,
                                              KeyOutIt d_keys_out, ValueOutIt d_values_out, OffsetT num_items,
                                              CompareOpT compare_op)
      : tile_merge(temp_storage)
      , d_keys_in(d_keys_in)
      , d_values_in(d_values_in)
      , d_keys_out(d_keys_out)
      , d_values_out(d_values_out)
      , num_items(num_items)
      , compare_op(compare_op)
  {
  }

  //! Writes tile `tile` of the merge of runs of `run_items` items; `d_splits` holds the split at
  //! the start of every tile (nullptr: search for them).
  STRATA_DEVICE STRATA_FORCEINLINE void Process(OffsetT tile, OffsetT run_items, const OffsetT* d_splits)
  {
    const OffsetT tile_begin = tile * OffsetT(TILE_ITEMS);
    const OffsetT left       = num_items - tile_begin;
    if (left >= OffsetT(TILE_ITEMS))
    {
      ProcessTile<true>(tile, tile_begin, TILE_ITEMS, run_items, d_splits);
    }
    else
    {
      ProcessTile<false>(tile, tile_begin, int(left), run_items, d_splits);
    }
  }

private:
  TileMergeT tile_merge;
  KeyInIt d_keys_in;
  ValueInIt d_values_in;
  KeyOutIt d_keys_out;
  ValueOutIt d_values_out;
  OffsetT num_items;
  CompareOpT compare_op;

  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void ProcessTile(OffsetT tile, OffsetT tile_begin, int valid, OffsetT run_items,
                                                    const OffsetT* d_splits)
  {
    const detail::merge_sort::RunPair<OffsetT> pair(tile_begin, run_items, num_items);
    const OffsetT diag_begin = tile_begin - pair.group;
    const KeyInIt keys1      = d_keys_in + pair.group;
    const KeyInIt keys2      = keys1 + pair.count1;
    OffsetT split_begin;
    OffsetT split_end;
    tile_merge.Splits(keys1, keys2, pair.count1, pair.count2, diag_begin, diag_begin + OffsetT(valid),
                      d_splits != nullptr ? d_splits + tile : nullptr, split_begin, split_end, compare_op);
    const int from1      = int(split_end - split_begin);
    const OffsetT begin2 = diag_begin - split_begin;
    if constexpr (KEYS_ONLY)
    {
      tile_merge.template Merge<FULL>(keys1 + split_begin, d_values_in, from1, keys2 + begin2, d_values_in,
                                      valid - from1, d_keys_out + tile_begin, d_values_out, compare_op);
    }
    else
    {
      const ValueInIt values1 = d_values_in + pair.group;
      tile_merge.template Merge<FULL>(keys1 + split_begin, values1 + split_begin, from1, keys2 + begin2,
                                      values1 + pair.count1 + begin2, valid - from1, d_keys_out + tile_begin,
                                      d_values_out + tile_begin, compare_op);
    }
  }
};

STRATA_NAMESPACE_END

// strata/tile/tile_merge.cuh: what every merging agent does with a tile of a merge's output: find
// where it starts and ends in both inputs (a warp-wide merge-path search in global memory), bring
// its two input ranges into shared memory, merge them there and store the tile (TileMerge).
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_store.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! The merge-path split of output position `diag` of the stable merge of sorted keys1[0, count1)
//! and keys2[0, count2), as MergePath computes it (how many of the first `diag` outputs come from
//! keys1; ties go to keys1), searched by all 32 lanes of a warp together: each round probes 32
//! evenly spaced candidates at once and keeps the span between the last that is too small and
//! the first that is not, so a span of 2^k takes k/5 rounds of loads instead of k. Every lane of
//! the warp calls it with the same arguments and gets the split.
template <typename KeyIt1, typename KeyIt2, typename OffsetT, typename CompareOp>
STRATA_DEVICE STRATA_FORCEINLINE OffsetT WarpMergePath(KeyIt1 keys1, KeyIt2 keys2, OffsetT count1, OffsetT count2,
                                                       OffsetT diag, CompareOp compare_op)
{
  using WideT    = ::cuda::std::uint64_t; // probe arithmetic that cannot wrap for 32-bit offsets
  OffsetT low    = diag > count2 ? diag - count2 : OffsetT(0);
  OffsetT high   = diag < count1 ? diag : count1;
  const WideT k1 = LaneId() + 1;
  while (low < high)
  {
    // The split is the first s in [low, high) with compare_op(keys2[diag - 1 - s], keys1[s])
    // (keys1[s] must follow keys2's last key before it), or high. Lane i probes the end of the
    // i-th of 32 equal parts of the span; the last parts may all probe its last position.
    const WideT span        = WideT(high - low);
    const WideT step        = (span + 31) / 32;
    const WideT end_i       = k1 * step < span ? k1 * step : span;
    const OffsetT probe     = low + OffsetT(end_i - 1);
    const bool after        = compare_op(keys2[diag - 1 - probe], keys1[probe]);
    const unsigned int hits = __ballot_sync(0xffffffffu, after);
    if (hits == 0)
    {
      low = high; // every position of the span is too small
    }
    else
    {
      const WideT first = WideT(__ffs(hits) - 1); // the first lane whose part holds the split
      const WideT begin = first * step < span ? first * step : span;
      const WideT end   = (first + 1) * step < span ? (first + 1) * step : span;
      high              = low + OffsetT(end - 1);
      low               = low + OffsetT(begin);
    }
  }
  return low;
}

//! Copies range1[0, count1) followed by range2[0, count2) into shared[0, count1 + count2) (at most
//! BLOCK_THREADS * ITEMS_PER_THREAD items; exactly that many when FULL), converted to T: each
//! thread issues all of its loads before its first store, in a striped order that keeps every
//! load coalesced.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool FULL, typename T, typename It1, typename It2>
STRATA_DEVICE STRATA_FORCEINLINE void LoadTwoRanges(T* shared, It1 range1, int count1, It2 range2, int count2, int tid)
{
  const int count = FULL ? BLOCK_THREADS * ITEMS_PER_THREAD : count1 + count2;
  T items[ITEMS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = k * BLOCK_THREADS + tid;
    if (FULL || i < count)
    {
      items[k] = i < count1 ? T(range1[i]) : T(range2[i - count1]);
    }
  }
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const int i = k * BLOCK_THREADS + tid;
    if (FULL || i < count)
    {
      shared[i] = items[k];
    }
  }
}

//! Writes the tile a thread block holds (ITEMS_PER_THREAD items per thread, blocked) to `out`:
//! `valid` items, all of a full tile when FULL.
template <typename BlockStoreT, bool FULL, typename OutputIt, typename T, int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE void StoreTile(typename BlockStoreT::TempStorage& storage, OutputIt out,
                                                const T (&items)[ITEMS_PER_THREAD], int valid)
{
  if constexpr (FULL)
  {
    BlockStoreT(storage).Store(out, items);
  }
  else
  {
    BlockStoreT(storage).Store(out, items, valid);
  }
}

//! One tile of a stable merge's output, BLOCK_THREADS * ITEMS_PER_THREAD items, written by a thread
//! block: Splits says where the tile starts and ends in the first input, Merge copies the tile's
//! two input ranges into shared memory, lets each thread merge ITEMS_PER_THREAD outputs there
//! (MergePath, SerialMerge), moves the values (ValueT; NullType: none) by their keys' positions and
//! stores the tile with STORE_ALGORITHM. Ties take the first input first.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename KeyT, typename ValueT, BlockStoreAlgorithm STORE_ALGORITHM>
class TileMerge
{
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  //! SerialMerge reads up to ITEMS_PER_THREAD positions past the inputs once they run out (it
  //! never uses those keys): slots for them keep the reads in the array.
  static constexpr int SLOTS = TILE_ITEMS + ITEMS_PER_THREAD;
  using BlockStoreKeysT      = BlockStore<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, STORE_ALGORITHM>;
  using BlockStoreValuesT    = BlockStore<ValueT, BLOCK_THREADS, ITEMS_PER_THREAD, STORE_ALGORITHM>;

  struct _TempStorage
  {
    union
    {
      KeyT keys[SLOTS];
      typename BlockStoreKeysT::TempStorage store_keys;
      typename BlockStoreValuesT::TempStorage store_values;
    };
    ::cuda::std::conditional_t<KEYS_ONLY, NullType, ValueT[KEYS_ONLY ? 1 : TILE_ITEMS]> values;
    ::cuda::std::uint64_t splits[2];
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE explicit TileMerge(TempStorage& temp_storage)
      : storage(temp_storage.Alias())
  {
  }

  //! The splits of output positions diag_begin and diag_end of the merge of keys1[0, count1) and
  //! keys2[0, count2) (how many items before each come from keys1): from `d_tile_splits` (the
  //! split at diag_begin, then the one at diag_end unless that ends the merge, where the split is
  //! count1), or searched by warps 0 and 1 without (a barrier for the block).
  template <typename KeyIt1, typename KeyIt2, typename OffsetT, typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Splits(KeyIt1 keys1, KeyIt2 keys2, OffsetT count1, OffsetT count2,
                                               OffsetT diag_begin, OffsetT diag_end, const OffsetT* d_tile_splits,
                                               OffsetT& split_begin, OffsetT& split_end, CompareOp compare_op)
  {
    if (d_tile_splits != nullptr)
    {
      split_begin = d_tile_splits[0];
      split_end   = diag_end == count1 + count2 ? count1 : d_tile_splits[1];
      return;
    }
    const int tid  = int(threadIdx.x);
    const int warp = tid / warp_threads;
    if (warp < 2)
    {
      const OffsetT split = WarpMergePath(keys1, keys2, count1, count2, warp == 0 ? diag_begin : diag_end, compare_op);
      if (tid % warp_threads == 0)
      {
        storage.splits[warp] = split;
      }
    }
    if constexpr (BLOCK_THREADS < 2 * warp_threads)
    {
      const OffsetT split = WarpMergePath(keys1, keys2, count1, count2, diag_end, compare_op);
      if (tid == 0)
      {
        storage.splits[1] = split;
      }
    }
    __syncthreads();
    split_begin = OffsetT(storage.splits[0]);
    split_end   = OffsetT(storage.splits[1]);
  }

  //! Merges keys1[0, from1) (with values1) and keys2[0, from2) into keys_out[0, from1 + from2)
  //! (and values_out); from1 + from2 is TILE_ITEMS when FULL, at most that otherwise.
  template <bool FULL, typename KeyIt1, typename ValueIt1, typename KeyIt2, typename ValueIt2, typename KeyOutIt,
            typename ValueOutIt, typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Merge(KeyIt1 keys1, [[maybe_unused]] ValueIt1 values1, int from1, KeyIt2 keys2,
                                              [[maybe_unused]] ValueIt2 values2, int from2, KeyOutIt keys_out,
                                              [[maybe_unused]] ValueOutIt values_out, CompareOp compare_op)
  {
    const int tid   = int(threadIdx.x);
    const int valid = from1 + from2;
    LoadTwoRanges<BLOCK_THREADS, ITEMS_PER_THREAD, FULL>(storage.keys, keys1, from1, keys2, from2, tid);
    if constexpr (!KEYS_ONLY)
    {
      LoadTwoRanges<BLOCK_THREADS, ITEMS_PER_THREAD, FULL>(storage.values, values1, from1, values2, from2, tid);
    }
    __syncthreads();

    // This thread's outputs start at tile position `diag`; past `valid` they are never stored.
    const int diag  = tid * ITEMS_PER_THREAD < valid ? tid * ITEMS_PER_THREAD : valid;
    const int split = MergePath(storage.keys, storage.keys + from1, from1, from2, diag, compare_op);
    KeyT keys[ITEMS_PER_THREAD];
    int indices[ITEMS_PER_THREAD];
    SerialMerge(storage.keys, split, from1 + diag - split, from1 - split, from2 - (diag - split), keys, indices,
                compare_op);
    [[maybe_unused]] ValueT values[ITEMS_PER_THREAD];
    if constexpr (!KEYS_ONLY)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (FULL || diag + i < valid)
        {
          values[i] = storage.values[indices[i]];
        }
      }
    }
    __syncthreads(); // the merge's reads of the keys are done before the store's exchange
    StoreTile<BlockStoreKeysT, FULL>(storage.store_keys, keys_out, keys, valid);
    if constexpr (!KEYS_ONLY)
    {
      __syncthreads();
      StoreTile<BlockStoreValuesT, FULL>(storage.store_values, values_out, values, valid);
    }
  }

private:
  _TempStorage& storage;
};
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

// strata/agent/agent_find.cuh: the agents of DeviceFind. AgentFindIf finds the first item a
// predicate accepts, its blocks taking tiles in order until the tiles left lie past a match;
// AgentBoundSearch finds lower or upper bounds of values in a sorted range, the first levels of
// every search through samples of the range in shared memory; AgentBoundSortedValues does the same
// for sorted values by merge path, in O(values + range) reads.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_merge.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace find
{
//! Which bound a search finds: the first position of the range not ordered before the value
//! (lower), or the first ordered after it (upper).
enum class bound
{
  lower,
  upper
};

//! Whether range item `item` lies before the BOUND of `value`: comp(item, value) for the lower
//! bound, !comp(value, item) for the upper. Over a range sorted by comp, true on a prefix.
template <bound BOUND, typename ItemT, typename ValueT, typename CompareOpT>
STRATA_DEVICE STRATA_FORCEINLINE bool BeforeBound(const ItemT& item, const ValueT& value, CompareOpT& comp)
{
  if constexpr (BOUND == bound::lower)
  {
    return comp(item, value);
  }
  else
  {
    return !comp(value, item);
  }
}

//! What the blocks of a FindIf call share, in temporary storage (zeroed by the call's first
//! kernel): num_items minus the index of the first match found so far (0: none; atomicMax keeps
//! the earliest), the next tile to take and the blocks that finished.
struct FindState
{
  unsigned long long best;
  unsigned long long next_tile;
  unsigned long long blocks_done;
};

//! One block of FindIf: takes tiles from FindState::next_tile (in order, one ahead) until it gets
//! one that starts at or past the first match found so far, and records every match's index; the block that
//! finishes last returns the index of the first match (num_items for none). Tiles before the first
//! match are all tested; those after it that blocks took before it was found are the only waste.
template <typename PolicyT, typename InputIteratorT, typename OffsetT, typename PredicateT>
struct AgentFindIf
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int VEC              = tile::VectorItems<ITEMS_PER_THREAD, 16, InputIteratorT>();
  // Each warp reads its own part of the tile, a vector a lane a row.
  using IoT                       = tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VEC, warp_threads>;
  static constexpr int TILE_ITEMS = IoT::TILE_ITEMS;
  using ItemT                     = it_value_t<InputIteratorT>;

  struct TempStorage
  {
    unsigned long long tile[2]; // thread 0's tile, to the block (two slots: one barrier a tile)
    bool stop[2];
  };

  TempStorage& storage;
  InputIteratorT d_in;
  PredicateT predicate;
  OffsetT num_items;
  FindState* state;

  //! Tests tiles until none is left before a match; returns, in thread 0 of the block that
  //! finished last, true with the first match's index in `first` (num_items for none).
  STRATA_DEVICE STRATA_FORCEINLINE bool ConsumeTiles(OffsetT& first)
  {
    const int tid = int(threadIdx.x);
    // Thread 0 takes each tile one tile ahead, so that the counter's round trip overlaps a tile's
    // loads; a taken tile is tested unless it lies past a match by then.
    unsigned long long next = tid == 0 ? atomicAdd(&state->next_tile, 1ull) : 0ull;
    for (int slot = 0;; slot ^= 1)
    {
      if (tid == 0)
      {
        const unsigned long long taken = next;
        const unsigned long long found = num_items - LoadBest();
        const bool stop                = taken * TILE_ITEMS >= found;
        storage.tile[slot]             = taken;
        storage.stop[slot]             = stop;
        if (!stop)
        {
          next = atomicAdd(&state->next_tile, 1ull);
        }
      }
      __syncthreads(); // this slot written; the other one's readers are past the previous barrier
      if (storage.stop[slot])
      {
        break;
      }
      const OffsetT offset = OffsetT(storage.tile[slot] * TILE_ITEMS);
      const int valid      = tile::ValidItems<TILE_ITEMS>(num_items, offset);
      const auto tile_in   = d_in + offset;
      ItemT items[ITEMS_PER_THREAD];
      if (valid == TILE_ITEMS)
      {
        IoT::template LoadFull<PolicyT::LOAD_MODIFIER>(tile_in, tid, IoT::VectorAligned(tile_in), items);
      }
      else
      {
        IoT::template LoadPartial<PolicyT::LOAD_MODIFIER>(tile_in, tid, valid, items);
      }
      // A thread's items lie in increasing order: its first match is its earliest.
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        const int index = IoT::ItemIndex(tid, k);
        if (index < valid && predicate(items[k]))
        {
          atomicMax(&state->best, static_cast<unsigned long long>(num_items - (offset + OffsetT(index))));
          __threadfence(); // before the block's count (ConsumeTiles' end), which thread 0 makes
          break;
        }
      }
    }
    if (tid != 0)
    {
      return false;
    }
    __threadfence(); // this block's matches before its count
    if (atomicAdd(&state->blocks_done, 1ull) != gridDim.x - 1)
    {
      return false;
    }
    __threadfence(); // every other block's matches, counted before this block's, are seen
    first = num_items - OffsetT(atomicAdd(&state->best, 0ull));
    return true;
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE OffsetT LoadBest() const
  {
    return OffsetT(LoadRelaxed(reinterpret_cast<const ::cuda::std::uint64_t*>(&state->best)));
  }
};

//! How many levels of a search the samples take for range items of type T: the policy's, fewer
//! where 2^levels - 1 items would not fit in 16 KiB of shared memory, none for items that cannot
//! be copied there.
template <int SAMPLE_LEVELS, typename T>
constexpr int SampleLevels()
{
  if constexpr (!::cuda::std::is_trivially_copyable_v<T>)
  {
    return 0;
  }
  else
  {
    int levels = SAMPLE_LEVELS;
    while (levels > 0 && ((1 << levels) - 1) * int(sizeof(T)) > 16384)
    {
      --levels;
    }
    return levels;
  }
}

//! The position in a range of num_items items of sample s of SAMPLES evenly spaced ones:
//! (s + 1) * num_items / (SAMPLES + 1), increasing in s where num_items > SAMPLES.
template <int SAMPLES, typename OffsetT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT SamplePosition(int s, OffsetT num_items)
{
  using WideT = ::cuda::std::uint64_t; // num_items < 2^64 / 2^16
  return OffsetT(WideT(s + 1) * WideT(num_items) / WideT(SAMPLES + 1));
}

//! One block of LowerBound or UpperBound (BOUND): the bounds of VALUES_PER_THREAD values a thread
//! (striped over the block's part of the values). Where the range is long enough (`sampled`), the
//! block first copies `d_samples` (the range's items at SamplePosition, gathered by the call's
//! first kernel) into shared memory and searches them, which leaves a span of about
//! num_items / 2^SAMPLE_LEVELS items to search in the range; the threads' searches there go level
//! by level together, so that their loads are in flight at once.
template <typename PolicyT, bound BOUND, typename RangeIteratorT, typename ValuesIteratorT, typename OutputIteratorT,
          typename OffsetT, typename ValuesOffsetT, typename CompareOpT>
struct AgentBoundSearch
{
  static constexpr int BLOCK_THREADS     = PolicyT::BLOCK_THREADS;
  static constexpr int VALUES_PER_THREAD = PolicyT::VALUES_PER_THREAD;
  static constexpr int TILE_VALUES       = BLOCK_THREADS * VALUES_PER_THREAD;
  using RangeT                           = it_value_t<RangeIteratorT>;
  using ValueT                           = it_value_t<ValuesIteratorT>;
  static constexpr int LEVELS            = SampleLevels<PolicyT::SAMPLE_LEVELS, RangeT>();
  static constexpr int SAMPLES           = (1 << LEVELS) - 1;

  struct TempStorage
  {
    Uninitialized<RangeT[SAMPLES > 0 ? SAMPLES : 1]> samples;
  };

  TempStorage& storage;
  RangeIteratorT d_range;
  OffsetT range_num_items;
  ValuesIteratorT d_values;
  ValuesOffsetT values_num_items;
  OutputIteratorT d_output;
  CompareOpT comp;

  //! The bounds of the values' tiles blockIdx.x, blockIdx.x + gridDim.x, ...; `d_samples` is null
  //! where the range is not sampled.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTiles(const RangeT* d_samples)
  {
    [[maybe_unused]] RangeT* samples = storage.samples.Alias();
    if constexpr (SAMPLES > 0)
    {
      if (d_samples != nullptr)
      {
        for (int s = int(threadIdx.x); s < SAMPLES; s += BLOCK_THREADS)
        {
          samples[s] = d_samples[s];
        }
        __syncthreads();
      }
    }
    const ValuesOffsetT num_tiles =
        values_num_items / ValuesOffsetT(TILE_VALUES) + (values_num_items % ValuesOffsetT(TILE_VALUES) != 0);
    for (ValuesOffsetT tile_index = blockIdx.x; tile_index < num_tiles; tile_index += gridDim.x)
    {
      SearchTile(tile_index, samples, d_samples != nullptr);
    }
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE void SearchTile(ValuesOffsetT tile_index, [[maybe_unused]] const RangeT* samples,
                                                   [[maybe_unused]] bool sampled)
  {
    const int tid            = int(threadIdx.x);
    const ValuesOffsetT base = tile_index * ValuesOffsetT(TILE_VALUES);
    ValueT values[VALUES_PER_THREAD];
    OffsetT low[VALUES_PER_THREAD];
    OffsetT high[VALUES_PER_THREAD];
#pragma unroll
    for (int k = 0; k < VALUES_PER_THREAD; ++k)
    {
      const ValuesOffsetT index = base + ValuesOffsetT(k * BLOCK_THREADS + tid);
      low[k]                    = OffsetT(0);
      high[k]                   = OffsetT(0); // nothing to search for a value past the end
      if (index < values_num_items)
      {
        values[k] = d_values[index];
        high[k]   = range_num_items;
        if constexpr (SAMPLES > 0)
        {
          if (sampled)
          {
            // The first sample not before the bound: the bound lies after the sample before it
            // and at or before this one (or the range's end).
            int first = 0;
            int last  = SAMPLES;
            while (first < last)
            {
              const int middle = (first + last) / 2;
              if (BeforeBound<BOUND>(samples[middle], values[k], comp))
              {
                first = middle + 1;
              }
              else
              {
                last = middle;
              }
            }
            low[k]  = first > 0 ? SamplePosition<SAMPLES>(first - 1, range_num_items) + OffsetT(1) : OffsetT(0);
            high[k] = first < SAMPLES ? SamplePosition<SAMPLES>(first, range_num_items) : range_num_items;
          }
        }
      }
    }
    // The rest in the range, every thread's searches a level at a time.
    for (;;)
    {
      bool any = false;
#pragma unroll
      for (int k = 0; k < VALUES_PER_THREAD; ++k)
      {
        if (low[k] < high[k])
        {
          any                  = true;
          const OffsetT middle = low[k] + (high[k] - low[k]) / 2;
          if (BeforeBound<BOUND>(RangeT(d_range[middle]), values[k], comp))
          {
            low[k] = middle + OffsetT(1);
          }
          else
          {
            high[k] = middle;
          }
        }
      }
      if (!any)
      {
        break;
      }
    }
#pragma unroll
    for (int k = 0; k < VALUES_PER_THREAD; ++k)
    {
      const ValuesOffsetT index = base + ValuesOffsetT(k * BLOCK_THREADS + tid);
      if (index < values_num_items)
      {
        d_output[index] = static_cast<it_difference_t<RangeIteratorT>>(low[k]);
      }
    }
  }
};

//! One block of LowerBoundSortedValues or UpperBoundSortedValues (BOUND): the positions
//! [tile * TILE_ITEMS, +TILE_ITEMS) of the stable merge of the values and the range (lower: the
//! values first, each before the range items not ordered before it; upper: the range first, each
//! item before the values not ordered before it). Warps 0 and 1 find where the tile starts and ends
//! in the merge's first input (merge path); the block copies the tile's values and range items
//! into shared memory, each thread merges ITEMS_PER_THREAD positions there, and a value's bound is
//! the tile's first range position plus the range items merged before it. The bounds go out
//! through shared memory, so that every read and write of global memory is coalesced. Items that
//! cannot be copied into shared memory (or too large for it) take a binary search among the
//! tile's range items in global memory instead.
template <typename PolicyT, bound BOUND, typename RangeIteratorT, typename ValuesIteratorT, typename OutputIteratorT,
          typename OffsetT, typename CompareOpT>
struct AgentBoundSortedValues
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  using RangeT                          = it_value_t<RangeIteratorT>;
  using ValueT                          = it_value_t<ValuesIteratorT>;
  //! Whether the tile's items merge in shared memory (at most 48 KiB of it).
  static constexpr bool IN_SHARED =
      ::cuda::std::is_trivially_copyable_v<
          RangeT> && ::cuda::std::is_trivially_copyable_v<ValueT> && TILE_ITEMS * (sizeof(RangeT) + sizeof(ValueT)) <= 49152
      && TILE_ITEMS * sizeof(OffsetT) <= 49152;

  struct Inputs
  {
    ValueT values[TILE_ITEMS];
    RangeT range[TILE_ITEMS];
  };
  struct _TempStorage
  {
    OffsetT splits[2]; // of the tile's first and end positions: items from the merge's first input
    union
    {
      Inputs inputs;
      OffsetT bounds[TILE_ITEMS]; // by the value's place among the tile's values
    };
  };
  struct TempStorage : Uninitialized<::cuda::std::conditional_t<IN_SHARED, _TempStorage, ::cuda::std::uint64_t[2]>>
  {
  };

  TempStorage& storage;
  RangeIteratorT d_range;
  OffsetT range_num_items;
  ValuesIteratorT d_values;
  OffsetT values_num_items;
  OutputIteratorT d_output;
  CompareOpT comp;

  //! Where position `diag` of the merge lies in its first input (every lane of a warp calls). Ties
  //! go to the first input, and comp(second's item, first's item) puts the second's first: lower:
  //! the values first, comp(range item, value); upper: the range first, comp(value, item).
  STRATA_DEVICE STRATA_FORCEINLINE static OffsetT Split(RangeIteratorT d_range, OffsetT range_num_items,
                                                        ValuesIteratorT d_values, OffsetT values_num_items,
                                                        OffsetT diag, CompareOpT comp)
  {
    return BOUND == bound::lower
               ? tile::WarpMergePath(d_values, d_range, values_num_items, range_num_items, diag, comp)
               : tile::WarpMergePath(d_range, d_values, range_num_items, values_num_items, diag, comp);
  }

  //! Tile `tile_index` of the merge; `d_splits` (or null: the block finds them) holds where every
  //! tile starts in the merge's first input, the end's last.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_index, const OffsetT* d_splits)
  {
    const int tid       = int(threadIdx.x);
    const OffsetT total = range_num_items + values_num_items;
    const OffsetT begin = tile_index * OffsetT(TILE_ITEMS);
    const OffsetT end   = total - begin > OffsetT(TILE_ITEMS) ? begin + OffsetT(TILE_ITEMS) : total;
    OffsetT first_begin = 0;
    OffsetT first_end   = 0;
    if (d_splits != nullptr)
    {
      first_begin = d_splits[tile_index];
      first_end   = d_splits[tile_index + 1];
    }
    else
    {
      OffsetT* splits = reinterpret_cast<OffsetT*>(&storage.Alias());
      const int warp  = tid / warp_threads;
      if (warp < 2 || BLOCK_THREADS < 2 * warp_threads)
      {
        // Warp 0 finds the tile's start, warp 1 its end (warp 0 both in a block of one warp).
        for (int which = BLOCK_THREADS < 2 * warp_threads ? 0 : warp; which < 2;
             which += BLOCK_THREADS < 2 * warp_threads ? 1 : 2)
        {
          const OffsetT split =
              Split(d_range, range_num_items, d_values, values_num_items, which == 0 ? begin : end, comp);
          if (tid % warp_threads == 0)
          {
            splits[which] = split;
          }
        }
      }
      __syncthreads();
      first_begin = splits[0];
      first_end   = splits[1];
    }
    // The tile's values and range items: [values_begin, values_end) and [range_begin, range_end).
    const OffsetT values_begin = BOUND == bound::lower ? first_begin : begin - first_begin;
    const OffsetT values_end   = BOUND == bound::lower ? first_end : end - first_end;
    const OffsetT range_begin  = BOUND == bound::lower ? begin - first_begin : first_begin;
    const OffsetT range_end    = BOUND == bound::lower ? end - first_end : first_end;
    if constexpr (IN_SHARED)
    {
      MergeInShared(values_begin, int(values_end - values_begin), range_begin, int(range_end - range_begin));
    }
    else
    {
      SearchInGlobal(values_begin, values_end, range_begin, range_end);
    }
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE void MergeInShared(OffsetT values_begin, int num_values, OffsetT range_begin,
                                                      int num_range)
  {
    const int tid  = int(threadIdx.x);
    Inputs& inputs = storage.Alias().inputs;
    // Every thread issues its loads of both inputs before its stores to shared memory.
    ValueT values[ITEMS_PER_THREAD];
    RangeT items[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int i = k * BLOCK_THREADS + tid;
      if (i < num_values)
      {
        values[k] = d_values[values_begin + OffsetT(i)];
      }
      if (i < num_range)
      {
        items[k] = d_range[range_begin + OffsetT(i)];
      }
    }
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int i = k * BLOCK_THREADS + tid;
      if (i < num_values)
      {
        inputs.values[i] = values[k];
      }
      if (i < num_range)
      {
        inputs.range[i] = items[k];
      }
    }
    __syncthreads();
    // This thread's ITEMS_PER_THREAD positions of the tile's merge, from `diag`: the first input's
    // items taken so far (i1) and the second's (i2). A value's bound counts the range items
    // merged before it.
    const int valid = num_values + num_range;
    const int diag  = tid * ITEMS_PER_THREAD < valid ? tid * ITEMS_PER_THREAD : valid;
    int i1          = 0;
    if constexpr (BOUND == bound::lower)
    {
      i1 = MergePath(inputs.values, inputs.range, num_values, num_range, diag, comp);
    }
    else
    {
      i1 = MergePath(inputs.range, inputs.values, num_range, num_values, diag, comp);
    }
    int i2 = diag - i1;
    int places[ITEMS_PER_THREAD]; // a merged value's place among the tile's values (-1: none)
    int counts[ITEMS_PER_THREAD]; // the range items merged before it
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      places[k] = -1;
      counts[k] = 0;
      if (diag + k < valid)
      {
        if constexpr (BOUND == bound::lower)
        {
          // First input: the values; a range item goes first only when comp(item, value).
          const bool value_next = i1 < num_values && (i2 >= num_range || !comp(inputs.range[i2], inputs.values[i1]));
          if (value_next)
          {
            places[k] = i1++;
            counts[k] = i2;
          }
          else
          {
            ++i2;
          }
        }
        else
        {
          // First input: the range; a value goes first only when comp(value, item).
          const bool item_next = i1 < num_range && (i2 >= num_values || !comp(inputs.values[i2], inputs.range[i1]));
          if (item_next)
          {
            ++i1;
          }
          else
          {
            places[k] = i2++;
            counts[k] = i1;
          }
        }
      }
    }
    __syncthreads(); // the merge's reads of the inputs are done before the bounds replace them
    OffsetT* bounds = storage.Alias().bounds;
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      if (places[k] >= 0)
      {
        bounds[places[k]] = range_begin + OffsetT(counts[k]);
      }
    }
    __syncthreads();
    for (int i = tid; i < num_values; i += BLOCK_THREADS)
    {
      d_output[values_begin + OffsetT(i)] = static_cast<it_difference_t<RangeIteratorT>>(bounds[i]);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void SearchInGlobal(OffsetT values_begin, OffsetT values_end, OffsetT range_begin,
                                                       OffsetT range_end)
  {
    for (OffsetT index = values_begin + OffsetT(threadIdx.x); index < values_end; index += OffsetT(BLOCK_THREADS))
    {
      const ValueT value = d_values[index];
      OffsetT low        = range_begin;
      OffsetT high       = range_end;
      while (low < high)
      {
        const OffsetT middle = low + (high - low) / 2;
        if (BeforeBound<BOUND>(RangeT(d_range[middle]), value, comp))
        {
          low = middle + OffsetT(1);
        }
        else
        {
          high = middle;
        }
      }
      d_output[index] = static_cast<it_difference_t<RangeIteratorT>>(low);
    }
  }
};
} // namespace find
} // namespace detail
STRATA_NAMESPACE_END

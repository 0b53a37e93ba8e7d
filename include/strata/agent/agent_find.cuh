// strata/agent/agent_find.cuh: the agents of DeviceFind. AgentFindIf finds the first item a
// predicate accepts, its blocks taking tiles in order until the tiles left lie past a match;
// AgentBoundSearch finds lower or upper bounds of values in a sorted range, the first levels of
// every search through samples of the range in shared memory; AgentBoundSortedValues does the same
// for sorted values by merge path, in O(values + range) reads.
#pragma once

#include <strata/config.cuh>
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
//! item before the values not ordered before it). Its merge-path splits (warp 0) give the
//! values and the range items of the tile; a value's bound is the tile's first range position plus
//! a binary search among the tile's range items, which the block's loads keep in cache.
template <typename PolicyT, bound BOUND, typename RangeIteratorT, typename ValuesIteratorT, typename OutputIteratorT,
          typename OffsetT, typename CompareOpT>
struct AgentBoundSortedValues
{
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int TILE_ITEMS    = PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD;
  using RangeT                       = it_value_t<RangeIteratorT>;
  using ValueT                       = it_value_t<ValuesIteratorT>;

  struct TempStorage
  {
    OffsetT splits[2]; // of the tile's first and end positions: items from the merge's first input
  };

  TempStorage& storage;
  RangeIteratorT d_range;
  OffsetT range_num_items;
  ValuesIteratorT d_values;
  OffsetT values_num_items;
  OutputIteratorT d_output;
  CompareOpT comp;

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_index)
  {
    const int tid       = int(threadIdx.x);
    const OffsetT total = range_num_items + values_num_items;
    const OffsetT begin = tile_index * OffsetT(TILE_ITEMS);
    const OffsetT end   = total - begin > OffsetT(TILE_ITEMS) ? begin + OffsetT(TILE_ITEMS) : total;
    if (tid < warp_threads)
    {
      // Ties go to the first input, and comp(second's item, first's item) puts the second's first:
      // lower: the values first, comp(range item, value); upper: the range first, comp(value, item).
      OffsetT split_begin;
      OffsetT split_end;
      if constexpr (BOUND == bound::lower)
      {
        split_begin = tile::WarpMergePath(d_values, d_range, values_num_items, range_num_items, begin, comp);
        split_end   = tile::WarpMergePath(d_values, d_range, values_num_items, range_num_items, end, comp);
      }
      else
      {
        split_begin = tile::WarpMergePath(d_range, d_values, range_num_items, values_num_items, begin, comp);
        split_end   = tile::WarpMergePath(d_range, d_values, range_num_items, values_num_items, end, comp);
      }
      if (tid == 0)
      {
        storage.splits[0] = split_begin;
        storage.splits[1] = split_end;
      }
    }
    __syncthreads();
    // The tile's values and range items: [values_begin, values_end) and [range_begin, range_end).
    const OffsetT first_begin  = storage.splits[0];
    const OffsetT first_end    = storage.splits[1];
    const OffsetT values_begin = BOUND == bound::lower ? first_begin : begin - first_begin;
    const OffsetT values_end   = BOUND == bound::lower ? first_end : end - first_end;
    const OffsetT range_begin  = BOUND == bound::lower ? begin - first_begin : first_begin;
    const OffsetT range_end    = BOUND == bound::lower ? end - first_end : first_end;
    for (OffsetT index = values_begin + OffsetT(tid); index < values_end; index += OffsetT(BLOCK_THREADS))
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

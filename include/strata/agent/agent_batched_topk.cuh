// strata/agent/agent_batched_topk.cuh: the selection of DeviceBatchedTopK, one thread block per
// segment. Items are ranked as DeviceTopK ranks them (their key's bits, then the earlier index), so
// the k best of a segment form one set. A segment of at most one item a thread is placed by
// counting, each item the better ones. Otherwise a block keeps its segment's candidates in shared
// memory where they fit (the whole segment, or the items at or above a threshold sampled from it), and
// reads the segment from global memory otherwise. It finds the rank of the k-th best one digit at
// a time, gathers the winners, sorts them and writes them best first; more winners than one
// block sorts at once are written a window of ranks at a time. Large segments may be filtered by
// several blocks first (Append over parts of the segment into global memory), the block then
// selecting from what they kept (ProcessCandidates). Small segments with small k take a thread
// or a warp each instead (AgentBatchedTopKThread).
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_topk.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/thread/thread_sort.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/functional>
#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The blocks of DeviceBatchedTopK: BLOCK_THREADS threads that read ITEMS_PER_THREAD keys each from
//! global memory, and keep and sort up to BUFFER_ITEMS candidates in shared memory.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, int _BUFFER_ITEMS>
struct AgentBatchedTopKPolicy
{
  static constexpr int BLOCK_THREADS    = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = _ITEMS_PER_THREAD;
  static constexpr int BUFFER_ITEMS     = _BUFFER_ITEMS;
};

namespace detail
{
namespace topk
{
//! A segment parameter given once for every segment (a plain integer).
template <typename T>
struct UniformParameter
{
  T value;
  template <typename SegmentT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(SegmentT) const
  {
    return value;
  }
};

//! A segment parameter read per segment from device-accessible memory (an iterator).
template <typename IteratorT>
struct PerSegmentParameter
{
  IteratorT values;
  template <typename SegmentT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE it_value_t<IteratorT> operator()(SegmentT segment) const
  {
    return values[segment];
  }
};

//! The rank prefix of the r-th best item's rank: every item at or above it is among the r best.
template <typename UnsignedBitsT, typename IndexT>
STRATA_DEVICE STRATA_FORCEINLINE bool AtOrAbove(const RankPrefix<UnsignedBitsT, IndexT>& prefix, UnsignedBitsT key,
                                                IndexT inverted_index)
{
  const UnsignedBitsT k = key & prefix.key_mask;
  return k > prefix.key || (k == prefix.key && (inverted_index & prefix.index_mask) >= prefix.index);
}
} // namespace topk
} // namespace detail

//! One segment of DeviceBatchedTopK in one thread block: the k best of `num_items` keys of
//! `d_keys_in`, best first (the earlier item first among equal keys), to `d_keys_out` and, for
//! pairs, their values from `d_values_in` to `d_values_out`.
template <typename PolicyT, detail::topk::select SELECT, typename KeyInputIteratorT, typename KeyOutputIteratorT,
          typename ValueInputIteratorT, typename ValueOutputIteratorT, typename IndexT>
struct AgentBatchedTopK
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int BUFFER_ITEMS     = PolicyT::BUFFER_ITEMS;
  static constexpr int SORT_ITEMS       = BUFFER_ITEMS / BLOCK_THREADS;
  static constexpr int RADIX_BITS       = 8;
  static constexpr int RADIX_DIGITS     = 1 << RADIX_BITS;
  static_assert(BLOCK_THREADS == RADIX_DIGITS, "one thread per digit of the selection");
  static_assert(BUFFER_ITEMS % BLOCK_THREADS == 0, "the buffer spreads evenly over the threads");
  static_assert(::cuda::std::is_unsigned_v<IndexT>, "indices within a segment are unsigned");

  using KeyT                      = detail::it_value_t<KeyInputIteratorT>;
  using RankBitsT                 = detail::topk::RankBits<SELECT, KeyT, detail::identity_decomposer_t>;
  using bit_ordered_type          = typename RankBitsT::type;
  using CandidateT                = detail::topk::Candidate<bit_ordered_type, IndexT>;
  using PrefixT                   = detail::topk::RankPrefix<bit_ordered_type, IndexT>;
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueOutputIteratorT, NullType*>;
  static constexpr int VEC =
      detail::tile::VectorItems<ITEMS_PER_THREAD, detail::tile::max_vector_bytes, KeyInputIteratorT>();
  using InputIoT     = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VEC>;
  using ScanT        = BlockScan<int, BLOCK_THREADS>;
  using CountScanT   = BlockScan<IndexT, BLOCK_THREADS>;
  using SortT        = BlockMergeSort<CandidateT, BLOCK_THREADS, SORT_ITEMS>;
  using BlockAppendT = detail::topk::BlockAppend<BLOCK_THREADS, IndexT>;

  struct TempStorage
  {
    union
    {
      CandidateT buffer[BUFFER_ITEMS];
      typename SortT::TempStorage sort;
    };
    union
    {
      typename ScanT::TempStorage scan;
      typename CountScanT::TempStorage count_scan;
      typename BlockAppendT::TempStorage append;
    };
    IndexT bins[RADIX_DIGITS];
    PrefixT prefix;
    IndexT wanted;
    IndexT count; // candidates in the buffer (or counted past it)
    int finished;
  };

  TempStorage& storage;
  KeyInputIteratorT d_keys_in;
  IndexT num_items;

  STRATA_DEVICE STRATA_FORCEINLINE AgentBatchedTopK(TempStorage& storage, KeyInputIteratorT d_keys_in, IndexT num_items)
      : storage(storage)
      , d_keys_in(d_keys_in)
      , num_items(num_items)
  {
  }

  //! Calls `consume(items, valid)` for every tile of the segment's items [begin, end) (begin a
  //! multiple of TILE_ITEMS), read from global memory.
  template <typename ConsumeT>
  STRATA_DEVICE STRATA_FORCEINLINE void ForEachInputTile(ConsumeT consume, IndexT begin, IndexT end)
  {
    const int tid      = int(threadIdx.x);
    const bool vectors = InputIoT::VectorAligned(d_keys_in);
    for (IndexT tile = begin; tile < end; tile += TILE_ITEMS)
    {
      const int valid_items = detail::tile::ValidItems<TILE_ITEMS>(end, tile);
      KeyT keys[ITEMS_PER_THREAD];
      if (valid_items == TILE_ITEMS)
      {
        InputIoT::LoadFull(d_keys_in + tile, tid, vectors, keys);
      }
      else
      {
        InputIoT::LoadPartial(d_keys_in + tile, tid, valid_items, keys);
      }
      CandidateT items[ITEMS_PER_THREAD];
      bool valid[ITEMS_PER_THREAD];
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int index         = InputIoT::ItemIndex(tid, i);
        valid[i]                = index < valid_items;
        items[i].key            = RankBitsT::In(keys[i], detail::identity_decomposer_t{});
        items[i].inverted_index = IndexT(~(tile + IndexT(index)));
      }
      consume(items, valid);
    }
  }

  //! ForEachInputTile over the whole segment.
  template <typename ConsumeT>
  STRATA_DEVICE STRATA_FORCEINLINE void ForEachInputTile(ConsumeT consume)
  {
    ForEachInputTile(consume, IndexT(0), num_items);
  }

  //! Calls `visit(candidate)` for every candidate: the first `in_buffer` of the buffer, or (not
  //! `from_buffer`) every item of the segment.
  template <typename VisitT>
  STRATA_DEVICE STRATA_FORCEINLINE void ForEachCandidate(bool from_buffer, IndexT in_buffer, VisitT visit)
  {
    if (from_buffer)
    {
      for (int i = int(threadIdx.x); i < int(in_buffer); i += BLOCK_THREADS)
      {
        visit(storage.buffer[i]);
      }
    }
    else
    {
      ForEachInputTile(
          [&](const CandidateT(&items)[ITEMS_PER_THREAD], const bool(&valid)[ITEMS_PER_THREAD])
          {
#pragma unroll
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            {
              if (valid[i])
              {
                visit(items[i]);
              }
            }
          });
    }
  }

  //! The rank prefix of the `rank`-th best candidate (1 <= rank <= candidates), one digit of the
  //! rank per round from the top: the key's bits, then the inverted index's low `index_bits`.
  //! Every candidate AtOrAbove it is among the `rank` best, and no other.
  STRATA_DEVICE STRATA_FORCEINLINE PrefixT SelectRank(bool from_buffer, IndexT in_buffer, IndexT rank, int index_bits)
  {
    const int tid = int(threadIdx.x);
    if (tid == 0)
    {
      storage.prefix   = PrefixT{};
      storage.wanted   = rank;
      storage.finished = 0;
    }
    const int rounds = (RankBitsT::BITS + RADIX_BITS - 1) / RADIX_BITS + (index_bits + RADIX_BITS - 1) / RADIX_BITS;
    for (int round = 0; round < rounds; ++round)
    {
      const int key_rounds = (RankBitsT::BITS + RADIX_BITS - 1) / RADIX_BITS;
      detail::topk::RankDigit digit;
      if (round < key_rounds)
      {
        const int top = RankBitsT::BITS - round * RADIX_BITS;
        digit         = {0, top < RADIX_BITS ? 0 : top - RADIX_BITS, top < RADIX_BITS ? top : RADIX_BITS};
      }
      else
      {
        const int top = index_bits - (round - key_rounds) * RADIX_BITS;
        digit         = {1, top < RADIX_BITS ? 0 : top - RADIX_BITS, top < RADIX_BITS ? top : RADIX_BITS};
      }
      storage.bins[tid] = 0;
      __syncthreads();
      if (storage.finished)
      {
        break;
      }
      const PrefixT prefix = storage.prefix;
      ForEachCandidate(from_buffer, in_buffer,
                       [&](const CandidateT& c)
                       {
                         if (prefix.Matches(c.key, c.inverted_index))
                         {
                           detail::topk::AtomicAddOffset(&storage.bins[digit.Of(c.key, c.inverted_index)], IndexT(1));
                         }
                       });
      __syncthreads();
      // Thread t holds the digit RADIX_DIGITS - 1 - t: the candidates above it are the exclusive sum.
      const int d         = RADIX_DIGITS - 1 - tid;
      const IndexT count  = storage.bins[d];
      const IndexT wanted = storage.wanted;
      IndexT above        = 0;
      CountScanT(storage.count_scan).ExclusiveSum(count, above);
      __syncthreads();
      if (above < wanted && wanted <= above + count)
      {
        PrefixT next = prefix;
        if (digit.part == 0)
        {
          next.key |= bit_ordered_type(bit_ordered_type(d) << digit.shift);
          next.key_mask |= bit_ordered_type(bit_ordered_type((1u << digit.bits) - 1u) << digit.shift);
        }
        else
        {
          next.index |= IndexT(IndexT(d) << digit.shift);
          next.index_mask |= IndexT(IndexT((1u << digit.bits) - 1u) << digit.shift);
        }
        storage.prefix   = next;
        storage.wanted   = wanted - above;
        storage.finished = count == wanted - above;
      }
      __syncthreads();
    }
    const PrefixT result = storage.prefix;
    __syncthreads();
    return result;
  }

  //! Places the first `count` (at most BLOCK_THREADS) candidates of the buffer, one a thread, by
  //! counting the better ones (ranks are distinct): those of the `limit` best go to positions
  //! `first`, `first + 1`, ... of the outputs, best first.
  template <typename KeyOutT, typename ValueInT, typename ValueOutT>
  STRATA_DEVICE STRATA_FORCEINLINE void CountWrite(int count, IndexT limit, IndexT first, KeyOutT d_keys_out,
                                                   ValueInT d_values_in, ValueOutT d_values_out)
  {
    const int tid = int(threadIdx.x);
    if (tid < count)
    {
      const CandidateT mine = storage.buffer[tid];
      IndexT rank           = 0;
      for (int j = 0; j < count; ++j)
      {
        rank += detail::topk::Better{}(storage.buffer[j], mine) ? 1 : 0;
      }
      if (rank < limit)
      {
        d_keys_out[first + rank] = RankBitsT::Out(mine.key, detail::identity_decomposer_t{});
        if constexpr (!KEYS_ONLY)
        {
          d_values_out[first + rank] = d_values_in[IndexT(~mine.inverted_index)];
        }
      }
    }
    __syncthreads(); // the buffer is free again
  }

  //! Sorts the first `count` (at most BUFFER_ITEMS) candidates of the buffer, best first, and
  //! writes them to positions `first`, `first + 1`, ... of the outputs: up to a winner a thread by
  //! counting, more by a merge sort of the whole buffer.
  template <typename KeyOutT, typename ValueInT, typename ValueOutT>
  STRATA_DEVICE STRATA_FORCEINLINE void SortWrite(int count, IndexT first, KeyOutT d_keys_out, ValueInT d_values_in,
                                                  ValueOutT d_values_out)
  {
    const int tid = int(threadIdx.x);
    if (count <= BLOCK_THREADS)
    {
      CountWrite(count, IndexT(count), first, d_keys_out, d_values_in, d_values_out);
      return;
    }
    // Loaded striped; the slots past `count` hold zeros, below every candidate (no inverted index is 0).
    CandidateT items[SORT_ITEMS];
#pragma unroll
    for (int i = 0; i < SORT_ITEMS; ++i)
    {
      const int index = i * BLOCK_THREADS + tid;
      items[i]        = index < count ? storage.buffer[index] : CandidateT{};
    }
    __syncthreads(); // the sort's storage is the buffer's
    SortT(storage.sort).Sort(items, detail::topk::Better{});
#pragma unroll
    for (int i = 0; i < SORT_ITEMS; ++i)
    {
      const int index = tid * SORT_ITEMS + i;
      if (index < count)
      {
        d_keys_out[first + IndexT(index)] = RankBitsT::Out(items[i].key, detail::identity_decomposer_t{});
        if constexpr (!KEYS_ONLY)
        {
          d_values_out[first + IndexT(index)] = d_values_in[IndexT(~items[i].inverted_index)];
        }
      }
    }
    __syncthreads(); // the buffer is free again
  }

  //! The threshold of the filter: the key bits of the `rank`-th best of SAMPLES items spread evenly
  //! over the segment (held in the buffer while it is chosen).
  STRATA_DEVICE STRATA_FORCEINLINE bit_ordered_type SampleThreshold(IndexT rank)
  {
    LoadSample();
    return SampleRankBits(rank);
  }

  //! Two thresholds of one sample: the `rank`-th best's key bits and the `tight_rank`-th best's
  //! (SampleThreshold of each, the sample read once).
  STRATA_DEVICE STRATA_FORCEINLINE void SampleThresholds(IndexT rank, IndexT tight_rank, bit_ordered_type& threshold,
                                                         bit_ordered_type& tight_threshold)
  {
    LoadSample();
    threshold       = SampleRankBits(rank);
    tight_threshold = SampleRankBits(tight_rank);
  }

  //! SAMPLES items spread evenly over the segment, into the buffer.
  STRATA_DEVICE STRATA_FORCEINLINE void LoadSample()
  {
    constexpr int SAMPLES          = BUFFER_ITEMS;
    constexpr int SAMPLES_A_THREAD = SAMPLES / BLOCK_THREADS;
    const int tid                  = int(threadIdx.x);
    KeyT keys[SAMPLES_A_THREAD];
#pragma unroll
    for (int j = 0; j < SAMPLES_A_THREAD; ++j)
    {
      const int s = j * BLOCK_THREADS + tid;
      keys[j]     = d_keys_in[IndexT(::cuda::std::uint64_t(num_items) * ::cuda::std::uint64_t(s)
                                     / ::cuda::std::uint64_t(SAMPLES))];
    }
#pragma unroll
    for (int j = 0; j < SAMPLES_A_THREAD; ++j)
    {
      const int s       = j * BLOCK_THREADS + tid;
      storage.buffer[s] = CandidateT{RankBitsT::In(keys[j], detail::identity_decomposer_t{}), IndexT(~IndexT(s))};
    }
    __syncthreads();
  }

  //! The key bits of the `rank`-th best item of the sample in the buffer (LoadSample): the key bits
  //! alone decide, and a prefix that ends within them is the smallest key it admits.
  STRATA_DEVICE STRATA_FORCEINLINE bit_ordered_type SampleRankBits(IndexT rank)
  {
    return SelectRank(true, IndexT(BUFFER_ITEMS), rank, 0).key;
  }

  //! Appends the items [begin, end) of the segment for which `keep(candidate)` holds to `buffer`
  //! (shared or global memory), counting them in `*counter` (those past `capacity` counted, not kept).
  template <typename KeepT>
  STRATA_DEVICE STRATA_FORCEINLINE void Append(KeepT keep, IndexT begin, IndexT end, IndexT* counter,
                                               CandidateT* buffer, IndexT capacity)
  {
    ForEachInputTile(
        [&](const CandidateT(&items)[ITEMS_PER_THREAD], const bool(&valid)[ITEMS_PER_THREAD])
        {
          bool flags[ITEMS_PER_THREAD];
#pragma unroll
          for (int i = 0; i < ITEMS_PER_THREAD; ++i)
          {
            flags[i] = valid[i] && keep(items[i]);
          }
          BlockAppendT::Append(storage.append, flags, items, counter, buffer, capacity);
        },
        begin, end);
  }

  //! Append to two buffers in one read of [begin, end): the items for which `keep` holds to
  //! `buffer` (counted in `*counter`), those for which `keep_tight` holds to `tight_buffer` (counted
  //! in `*tight_counter`), each keeping at most `capacity`.
  template <typename KeepT, typename KeepTightT>
  STRATA_DEVICE STRATA_FORCEINLINE void AppendTwo(KeepT keep, KeepTightT keep_tight, IndexT begin, IndexT end,
                                                  IndexT* counter, CandidateT* buffer, IndexT* tight_counter,
                                                  CandidateT* tight_buffer, IndexT capacity)
  {
    ForEachInputTile(
        [&](const CandidateT(&items)[ITEMS_PER_THREAD], const bool(&valid)[ITEMS_PER_THREAD])
        {
          bool flags[ITEMS_PER_THREAD];
          bool tight_flags[ITEMS_PER_THREAD];
#pragma unroll
          for (int i = 0; i < ITEMS_PER_THREAD; ++i)
          {
            flags[i]       = valid[i] && keep(items[i]);
            tight_flags[i] = valid[i] && keep_tight(items[i]);
          }
          // Each Append starts with a barrier, after which the other's shared memory is free.
          BlockAppendT::Append(storage.append, flags, items, counter, buffer, capacity);
          BlockAppendT::Append(storage.append, tight_flags, items, tight_counter, tight_buffer, capacity);
        },
        begin, end);
  }

  //! Appends the segment's items for which `keep(candidate)` holds to the buffer, in one read of
  //! the segment; returns how many there are (those past the buffer's end counted, not kept).
  template <typename KeepT>
  STRATA_DEVICE STRATA_FORCEINLINE IndexT Gather(KeepT keep)
  {
    if (threadIdx.x == 0)
    {
      storage.count = 0;
    }
    __syncthreads();
    Append(keep, IndexT(0), num_items, &storage.count, storage.buffer, IndexT(BUFFER_ITEMS));
    __syncthreads();
    const IndexT kept = storage.count;
    __syncthreads();
    return kept;
  }

  //! The rank in a sample of BUFFER_ITEMS items of a segment of `num_items` (more than
  //! BUFFER_ITEMS) whose key bits are the filter's threshold (ThresholdRank); 0 where the items it
  //! keeps might not fit the buffer. The host asks it too, to pick the kernels.
  STRATA_HOST_DEVICE STRATA_FORCEINLINE static IndexT SampleRank(IndexT k, IndexT num_items)
  {
    float kept       = 0.0f;
    const float rank = detail::topk::ThresholdRank(float(k), float(BUFFER_ITEMS), float(num_items), kept);
    return rank <= float(BUFFER_ITEMS / 2) && 2.0f * kept <= float(BUFFER_ITEMS) ? IndexT(rank) : IndexT(0);
  }

  //! The rank of a second, higher threshold for segments that several blocks filter (SampleRank
  //! must be positive): half the margin above the expected rank of the k-th best, so that where the
  //! first threshold kept more than BUFFER_ITEMS (the sample's best were rarer than the segment's),
  //! the second most likely keeps fewer, and still at least k.
  STRATA_HOST_DEVICE STRATA_FORCEINLINE static IndexT TightSampleRank(IndexT k, IndexT num_items)
  {
    const float share  = float(k) * float(BUFFER_ITEMS) / float(num_items);
    const float rank   = ::ceil(share + 2.0f * ::sqrt(share) + 2.0f);
    const IndexT loose = SampleRank(k, num_items);
    return IndexT(rank) < loose ? IndexT(rank) : loose;
  }

  //! The k best of the `in_buffer` candidates in the buffer (k <= in_buffer <= BUFFER_ITEMS),
  //! best first: the k-th best rank, the winners gathered to the buffer's front, sorted and written.
  template <typename KeyOutT, typename ValueInT, typename ValueOutT>
  STRATA_DEVICE STRATA_FORCEINLINE void WriteBest(IndexT k, IndexT in_buffer, KeyOutT d_keys_out, ValueInT d_values_in,
                                                  ValueOutT d_values_out)
  {
    const int tid        = int(threadIdx.x);
    const int index_bits = num_items > 1 ? int(::cuda::std::bit_width(static_cast<IndexT>(num_items - 1))) : 0;
    const PrefixT prefix = SelectRank(true, in_buffer, k, index_bits);
    CandidateT held[SORT_ITEMS];
    bool win[SORT_ITEMS];
    int wins = 0;
#pragma unroll
    for (int i = 0; i < SORT_ITEMS; ++i)
    {
      const int index = i * BLOCK_THREADS + tid;
      win[i]          = false;
      if (index < int(in_buffer))
      {
        held[i] = storage.buffer[index];
        win[i]  = detail::topk::AtOrAbove(prefix, held[i].key, held[i].inverted_index);
      }
      wins += win[i] ? 1 : 0;
    }
    int offset = 0;
    ScanT(storage.scan).ExclusiveSum(wins, offset);
    __syncthreads(); // every candidate is read before the winners move to the front
#pragma unroll
    for (int i = 0; i < SORT_ITEMS; ++i)
    {
      if (win[i])
      {
        storage.buffer[offset++] = held[i];
      }
    }
    __syncthreads();
    SortWrite(int(k), IndexT(0), d_keys_out, d_values_in, d_values_out);
  }

  //! The segment's k best (1 <= k <= num_items), best first, from the candidates that blocks over
  //! its parts appended: `count` of them at `d_candidates` (every item at or above the sampled
  //! threshold; those past BUFFER_ITEMS counted, not kept), or, where those are too many,
  //! `tight_count` at `d_tight_candidates` (at or above the higher threshold); from the segment
  //! itself where neither holds between k and BUFFER_ITEMS.
  template <typename KeyOutT, typename ValueInT, typename ValueOutT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ProcessCandidates(IndexT k, const CandidateT* d_candidates, IndexT count, const CandidateT* d_tight_candidates,
                    IndexT tight_count, KeyOutT d_keys_out, ValueInT d_values_in, ValueOutT d_values_out)
  {
    const bool loose_fits = count >= k && count <= IndexT(BUFFER_ITEMS);
    const bool tight_fits = tight_count >= k && tight_count <= IndexT(BUFFER_ITEMS);
    if (!loose_fits && !tight_fits)
    {
      Process(k, d_keys_out, d_values_in, d_values_out);
      return;
    }
    const CandidateT* from = loose_fits ? d_candidates : d_tight_candidates;
    const IndexT kept      = loose_fits ? count : tight_count;
    for (int i = int(threadIdx.x); i < int(kept); i += BLOCK_THREADS)
    {
      storage.buffer[i] = from[i];
    }
    __syncthreads();
    WriteBest(k, kept, d_keys_out, d_values_in, d_values_out);
  }

  //! The segment's k best (1 <= k <= num_items), best first.
  template <typename KeyOutT, typename ValueInT, typename ValueOutT>
  STRATA_DEVICE STRATA_FORCEINLINE void Process(IndexT k, KeyOutT d_keys_out, ValueInT d_values_in,
                                                ValueOutT d_values_out)
  {
    const int tid        = int(threadIdx.x);
    const int index_bits = num_items > 1 ? int(::cuda::std::bit_width(static_cast<IndexT>(num_items - 1))) : 0;
    // Where the candidates are: the whole segment in the buffer, the items at or above a sampled
    // threshold in the buffer, or the segment in global memory.
    bool from_buffer = false;
    IndexT in_buffer = 0;
    if (num_items <= IndexT(BLOCK_THREADS))
    {
      // A segment of at most one item a thread: each item's place is the number of better ones.
      if (tid < int(num_items))
      {
        storage.buffer[tid] =
            CandidateT{RankBitsT::In(d_keys_in[tid], detail::identity_decomposer_t{}), IndexT(~IndexT(tid))};
      }
      __syncthreads();
      CountWrite(int(num_items), k, IndexT(0), d_keys_out, d_values_in, d_values_out);
      return;
    }
    if (num_items <= IndexT(BUFFER_ITEMS))
    {
      ForEachInputTile(
          [&](const CandidateT(&items)[ITEMS_PER_THREAD], const bool(&valid)[ITEMS_PER_THREAD])
          {
#pragma unroll
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            {
              if (valid[i])
              {
                storage.buffer[IndexT(~items[i].inverted_index)] = items[i];
              }
            }
          });
      __syncthreads();
      from_buffer = true;
      in_buffer   = num_items;
    }
    else if (const IndexT rank = SampleRank(k, num_items); rank > 0)
    {
      const bit_ordered_type threshold = SampleThreshold(rank);
      const IndexT kept                = Gather([&](const CandidateT& c) { return c.key >= threshold; });
      from_buffer                      = kept >= k && kept <= IndexT(BUFFER_ITEMS);
      in_buffer                        = from_buffer ? kept : IndexT(0);
    }

    if (from_buffer)
    {
      // One window: the k best of at most BUFFER_ITEMS candidates.
      WriteBest(k, in_buffer, d_keys_out, d_values_in, d_values_out);
      return;
    }

    // Windows of BUFFER_ITEMS ranks, each gathered from the segment in one more read.
    PrefixT upper{}; // the rank prefix of the last window's last winner (none before the first)
    for (IndexT first = 0; first < k; first += IndexT(BUFFER_ITEMS))
    {
      const IndexT last    = k - first > IndexT(BUFFER_ITEMS) ? first + IndexT(BUFFER_ITEMS) : k;
      const PrefixT lower  = SelectRank(false, 0, last, index_bits);
      const bool has_upper = first > 0;
      Gather(
          [&](const CandidateT& c)
          {
            return detail::topk::AtOrAbove(lower, c.key, c.inverted_index)
                   && !(has_upper && detail::topk::AtOrAbove(upper, c.key, c.inverted_index));
          });
      SortWrite(int(last - first), first, d_keys_out, d_values_in, d_values_out);
      upper = lower;
    }
  }
};

//! Small segments of DeviceBatchedTopK, one thread each: a warp takes 32 segments, reads them a
//! chunk of 32 keys at a time with loads that run along each segment (one line a load, where a
//! thread reading its own segment would touch 32 lines a load), turns the chunk over in shared
//! memory, and each thread keeps its segment's best K (K at least its k) sorted in registers. Each
//! group of G keys of the chunk is sorted by a sorting network and merged into the K by another,
//! so that every lane runs the same instructions whatever its keys. For segments of at most a few
//! thousand keys and k of at most 32, where a block per segment would wait on its barriers; where
//! their sizes differ much, the larger take the whole warp each instead (ProcessSegment).
template <int WARPS, detail::topk::select SELECT, typename SegmentIteratorT, typename IndexT>
struct AgentBatchedTopKThread
{
  static constexpr int CHUNK = 32; // keys of each segment a warp reads at once
  using KeyInputIteratorT    = detail::it_value_t<SegmentIteratorT>;
  using KeyT                 = detail::it_value_t<KeyInputIteratorT>;
  using RankBitsT            = detail::topk::RankBits<SELECT, KeyT, detail::identity_decomposer_t>;
  using RankT                = typename RankBitsT::type;
  using CandidateT           = detail::topk::Candidate<RankT, IndexT>;
  static constexpr int LOADS = sizeof(KeyT) <= 4 ? 16 : 8; // loads a lane has in flight at once

  //! What the networks order, the better first. Keys alone: their rank bits (equal bits are equal
  //! keys, so a tie needs no index). Pairs: the rank bits over the inverted index, in 64 bits for
  //! keys of at most 32 bits (a segment here has fewer than 2^32 items), else a Candidate. The
  //! zero item ranks with or below every key, and for pairs below every item.
  template <bool PAIRS>
  struct Item
  {
    static constexpr bool PACKED = PAIRS && sizeof(RankT) <= 4;
    using type =
        ::cuda::std::conditional_t<PAIRS, ::cuda::std::conditional_t<PACKED, ::cuda::std::uint64_t, CandidateT>,
                                   ::cuda::std::conditional_t<(sizeof(RankT) < 4), ::cuda::std::uint32_t, RankT>>;

    STRATA_DEVICE STRATA_FORCEINLINE static type Make(RankT rank, int index)
    {
      if constexpr (!PAIRS)
      {
        return type(rank);
      }
      else if constexpr (PACKED)
      {
        return (type(rank) << 32) | ::cuda::std::uint32_t(~::cuda::std::uint32_t(index));
      }
      else
      {
        return CandidateT{rank, IndexT(~IndexT(index))};
      }
    }
    STRATA_DEVICE STRATA_FORCEINLINE static RankT Rank(const type& item)
    {
      if constexpr (!PAIRS)
      {
        return RankT(item);
      }
      else if constexpr (PACKED)
      {
        return RankT(item >> 32);
      }
      else
      {
        return item.key;
      }
    }
    STRATA_DEVICE STRATA_FORCEINLINE static IndexT Index(const type& item)
    {
      if constexpr (PACKED)
      {
        return IndexT(~::cuda::std::uint32_t(item));
      }
      else
      {
        return IndexT(~item.inverted_index);
      }
    }
    //! Puts the better of `a` and `b` into `a`, the other into `b`.
    STRATA_DEVICE STRATA_FORCEINLINE static void Order(type& a, type& b)
    {
      if constexpr (::cuda::std::is_integral_v<type>)
      {
        const type better = a > b ? a : b;
        b                 = a > b ? b : a;
        a                 = better;
      }
      else
      {
        const bool swap = detail::topk::Better{}(b, a);
        const type t    = swap ? b : a;
        b               = swap ? a : b;
        a               = t;
      }
    }
    //! The better of `a` and `b`.
    STRATA_DEVICE STRATA_FORCEINLINE static type Max(const type& a, const type& b)
    {
      if constexpr (::cuda::std::is_integral_v<type>)
      {
        return a > b ? a : b;
      }
      else
      {
        return detail::topk::Better{}(b, a) ? b : a;
      }
    }
  };

  struct WarpStorage
  {
    Uninitialized<KeyInputIteratorT> segments[32]; // the warp's segments' iterators
    int sizes[32];                                 // their sizes (0 for a segment the warp does not take)
    typename WarpReduce<int>::TempStorage reduce;  // the warp's largest size and k
    Uninitialized<KeyT> keys[32][CHUNK + 1];       // a chunk, one row a segment (padded: no bank conflicts)
  };
  struct _TempStorage
  {
    WarpStorage warps[WARPS];
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  WarpStorage& storage;
  const int lane;

  STRATA_DEVICE STRATA_FORCEINLINE AgentBatchedTopKThread(TempStorage& temp_storage)
      : storage(temp_storage.Alias().warps[threadIdx.x / 32])
      , lane(int(threadIdx.x % 32))
  {
  }

  //! Sorts the bitonic run `c[FIRST, FIRST + COUNT)` the better first (the half-cleaners of a
  //! bitonic merge).
  template <typename ItemT, int FIRST, int COUNT, typename ItemArrayT>
  STRATA_DEVICE STRATA_FORCEINLINE static void Clean(ItemArrayT& c)
  {
    detail::BitonicMergeNetwork<FIRST, COUNT>([&](int i, int j) { ItemT::Order(c[i], c[j]); });
  }

  //! Sorts `c` the better first (a bitonic sorting network).
  template <typename ItemT, int N>
  STRATA_DEVICE STRATA_FORCEINLINE static void Sort(typename ItemT::type (&c)[N])
  {
    detail::BitonicSortNetwork<N>(
        [&](int i, int j, bool better_first)
        {
          if (better_first)
          {
            ItemT::Order(c[i], c[j]);
          }
          else
          {
            ItemT::Order(c[j], c[i]);
          }
        });
  }

  //! The K best of the sorted `best` and the sorted `c` (G = K or K / 2), sorted, into `best`.
  //! The K - G first of `best` stay among them; the G best of `best`'s last G and `c` are the
  //! better of each pair taken from opposite ends (a bitonic run), sorted by a half-cleaner;
  //! where G < K the two sorted runs then merge.
  template <typename ItemT, int K, int G>
  STRATA_DEVICE STRATA_FORCEINLINE static void Merge(typename ItemT::type (&best)[K], typename ItemT::type (&c)[G])
  {
    static_assert(G == K || 2 * G == K, "a group is K or K / 2 items");
#pragma unroll
    for (int i = 0; i < G; ++i)
    {
      best[K - G + i] = ItemT::Max(best[K - G + i], c[G - 1 - i]);
    }
    Clean<ItemT, K - G, G>(best);
    if constexpr (G < K)
    {
      // Two sorted halves: the better of each pair from opposite ends makes both halves bitonic,
      // every item of the first better than every item of the second.
#pragma unroll
      for (int i = 0; i < K / 2; ++i)
      {
        ItemT::Order(best[i], best[K - 1 - i]);
      }
      Clean<ItemT, 0, K / 2>(best);
      Clean<ItemT, K / 2, K / 2>(best);
    }
  }

  //! The item of lane `lane ^ mask`, moved as 32-bit words.
  template <typename ItemType>
  STRATA_DEVICE STRATA_FORCEINLINE static ItemType ShuffleXor(const ItemType& item, int mask)
  {
    static_assert(sizeof(ItemType) % 4 == 0, "an item is whole 32-bit words");
    struct Words
    {
      ::cuda::std::uint32_t w[sizeof(ItemType) / 4];
    };
    Words words = ::cuda::std::bit_cast<Words>(item);
#pragma unroll
    for (int i = 0; i < int(sizeof(ItemType) / 4); ++i)
    {
      words.w[i] = __shfl_xor_sync(0xffffffffu, words.w[i], mask);
    }
    return ::cuda::std::bit_cast<ItemType>(words);
  }

  //! The largest of the warp's values, in every lane.
  STRATA_DEVICE STRATA_FORCEINLINE int WarpMax(int value)
  {
    return __shfl_sync(0xffffffffu, WarpReduce<int>(storage.reduce).Reduce(value, ::cuda::maximum<>{}), 0);
  }

  //! Each lane's segment `first + lane` where `mine`: its k best (1 <= k <= MAX_K <= 32) of its
  //! `num_items` keys (at most a few thousand), best first, to its `d_keys_out` and, for pairs, its
  //! values, with K = 8, 16 or 32 as the warp's largest k needs. Every lane of the warp calls it
  //! with the same `first`.
  template <int MAX_K, typename KeyOutputIteratorItT, typename ValueInputIteratorItT, typename ValueOutputIteratorItT>
  STRATA_DEVICE STRATA_FORCEINLINE void Process(SegmentIteratorT d_keys_in, KeyOutputIteratorItT d_keys_out,
                                                ValueInputIteratorItT d_values_in, ValueOutputIteratorItT d_values_out,
                                                ::cuda::std::int64_t first, bool mine, IndexT num_items, IndexT k)
  {
    static_assert(MAX_K == 8 || MAX_K == 16 || MAX_K == 32, "K is 8, 16 or 32");
    const int most = WarpMax(mine ? int(k) : 0);
    if (most == 0)
    {
      return;
    }
    if constexpr (MAX_K >= 32)
    {
      if (most > 16)
      {
        ProcessK<32>(d_keys_in, d_keys_out, d_values_in, d_values_out, first, mine, num_items, k);
        return;
      }
    }
    if constexpr (MAX_K >= 16)
    {
      if (most > 8)
      {
        ProcessK<16>(d_keys_in, d_keys_out, d_values_in, d_values_out, first, mine, num_items, k);
        return;
      }
    }
    ProcessK<8>(d_keys_in, d_keys_out, d_values_in, d_values_out, first, mine, num_items, k);
  }

  //! One segment (`segment`, of `num_items` keys, at most a few thousand, and 1 <= k <= 32) with the
  //! whole warp: each lane keeps the best K of the keys at its positions (lane, lane + 32, ...),
  //! read G at a time, then five rounds of shuffles merge the lanes' K (each round two lanes' sets,
  //! so that every lane ends with the warp's K), and lane j writes the j-th best. For segments whose
  //! sizes differ too much for a thread each. Every lane calls it with the same arguments.
  template <typename KeyOutputIteratorItT, typename ValueInputIteratorItT, typename ValueOutputIteratorItT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ProcessSegment(SegmentIteratorT d_keys_in, KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in,
                 ValueOutputIteratorItT d_values_out, ::cuda::std::int64_t segment, IndexT num_items, IndexT k)
  {
    if (k > IndexT(16))
    {
      ProcessSegmentK<32>(d_keys_in, d_keys_out, d_values_in, d_values_out, segment, num_items, k);
    }
    else if (k > IndexT(8))
    {
      ProcessSegmentK<16>(d_keys_in, d_keys_out, d_values_in, d_values_out, segment, num_items, k);
    }
    else
    {
      ProcessSegmentK<8>(d_keys_in, d_keys_out, d_values_in, d_values_out, segment, num_items, k);
    }
  }

  //! ProcessSegment with room for K winners (k at most K).
  template <int K, typename KeyOutputIteratorItT, typename ValueInputIteratorItT, typename ValueOutputIteratorItT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ProcessSegmentK(SegmentIteratorT d_keys_in, KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in,
                  ValueOutputIteratorItT d_values_out, ::cuda::std::int64_t segment, IndexT num_items, IndexT k)
  {
    constexpr bool PAIRS = !::cuda::std::is_same_v<ValueOutputIteratorItT, NullType**>;
    using ItemT          = Item<PAIRS>;
    using ItemType       = typename ItemT::type;
    constexpr int G      = K < 16 ? K : 16;
    const KeyInputIteratorT keys(d_keys_in[segment]);
    const int size = int(num_items);
    ItemType best[K];
#pragma unroll
    for (int j = 0; j < K; ++j)
    {
      best[j] = ItemType{};
    }
    for (int base = 0; base < size; base += 32 * G)
    {
      KeyT loaded[G];
#pragma unroll
      for (int i = 0; i < G; ++i)
      {
        if (base + i * 32 + lane < size)
        {
          loaded[i] = keys[IndexT(base + i * 32 + lane)];
        }
      }
      ItemType c[G];
#pragma unroll
      for (int i = 0; i < G; ++i)
      {
        const int at = base + i * 32 + lane;
        c[i] = at < size ? ItemT::Make(RankBitsT::In(loaded[i], detail::identity_decomposer_t{}), at) : ItemType{};
      }
      Sort<ItemT>(c);
      Merge<ItemT>(best, c);
    }
    // Merge<ItemT>(best, partner's best), without a copy of the partner's K: the better of each
    // pair from opposite ends, taken a pair of places at a time, then the half-cleaners.
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2)
    {
#pragma unroll
      for (int i = 0; i < K / 2; ++i)
      {
        const ItemType low  = ShuffleXor(best[K - 1 - i], mask);
        const ItemType high = ShuffleXor(best[i], mask);
        best[i]             = ItemT::Max(best[i], low);
        best[K - 1 - i]     = ItemT::Max(best[K - 1 - i], high);
      }
      Clean<ItemT, 0, K>(best);
    }
    ItemType mine = best[0];
#pragma unroll
    for (int j = 1; j < K; ++j)
    {
      mine = j == lane ? best[j] : mine;
    }
    if (IndexT(lane) < k)
    {
      auto keys_out  = d_keys_out[segment];
      keys_out[lane] = RankBitsT::Out(ItemT::Rank(mine), detail::identity_decomposer_t{});
      if constexpr (PAIRS)
      {
        auto values_in   = d_values_in[segment];
        auto values_out  = d_values_out[segment];
        values_out[lane] = values_in[ItemT::Index(mine)];
      }
    }
  }

  //! Process with room for K winners a thread (every lane's k at most K).
  template <int K, typename KeyOutputIteratorItT, typename ValueInputIteratorItT, typename ValueOutputIteratorItT>
  STRATA_DEVICE STRATA_FORCEINLINE void ProcessK(SegmentIteratorT d_keys_in, KeyOutputIteratorItT d_keys_out,
                                                 ValueInputIteratorItT d_values_in, ValueOutputIteratorItT d_values_out,
                                                 ::cuda::std::int64_t first, bool mine, IndexT num_items, IndexT k)
  {
    constexpr bool PAIRS = !::cuda::std::is_same_v<ValueOutputIteratorItT, NullType**>;
    using ItemT          = Item<PAIRS>;
    using ItemType       = typename ItemT::type;
    constexpr int G      = K < 16 ? K : 16; // keys a network sorts at once (half of K = 32: fewer registers)
    const ::cuda::std::int64_t segment = first + lane;
    const int size                     = mine ? int(num_items) : 0;
    storage.sizes[lane]                = size;
    if (mine)
    {
      detail::UninitializedCopy(&storage.segments[lane].Alias(), KeyInputIteratorT(d_keys_in[segment]));
    }
    const int most = WarpMax(size); // the largest of the warp's segments
    ItemType best[K];
#pragma unroll
    for (int j = 0; j < K; ++j)
    {
      best[j] = ItemType{};
    }
    __syncwarp();
    for (int chunk = 0; chunk < most; chunk += CHUNK)
    {
      // LOADS loads in flight before their keys are stored.
#pragma unroll
      for (int group = 0; group < 32; group += LOADS)
      {
        KeyT keys[LOADS];
#pragma unroll
        for (int s = 0; s < LOADS; ++s)
        {
          if (chunk + lane < storage.sizes[group + s])
          {
            keys[s] = storage.segments[group + s].Alias()[IndexT(chunk + lane)];
          }
        }
#pragma unroll
        for (int s = 0; s < LOADS; ++s)
        {
          if (chunk + lane < storage.sizes[group + s])
          {
            detail::UninitializedCopy(&storage.keys[group + s][lane].Alias(), keys[s]);
          }
        }
      }
      __syncwarp();
      // Past its segment's end a lane's places hold zero items, which never displace a key.
#pragma unroll
      for (int g = 0; g < CHUNK; g += G)
      {
        if (chunk + g < most)
        {
          ItemType c[G];
#pragma unroll
          for (int i = 0; i < G; ++i)
          {
            const int at = chunk + g + i;
            c[i] =
                at < size
                    ? ItemT::Make(RankBitsT::In(storage.keys[lane][g + i].Alias(), detail::identity_decomposer_t{}), at)
                    : ItemType{};
          }
          Sort<ItemT>(c);
          Merge<ItemT>(best, c);
        }
      }
      __syncwarp();
    }
    if (mine)
    {
      auto keys_out = d_keys_out[segment];
#pragma unroll
      for (int j = 0; j < K; ++j)
      {
        if (IndexT(j) < k)
        {
          keys_out[j] = RankBitsT::Out(ItemT::Rank(best[j]), detail::identity_decomposer_t{});
        }
      }
      if constexpr (PAIRS)
      {
        auto values_in  = d_values_in[segment];
        auto values_out = d_values_out[segment];
#pragma unroll
        for (int j = 0; j < K; ++j)
        {
          if (IndexT(j) < k)
          {
            values_out[j] = values_in[ItemT::Index(best[j])];
          }
        }
      }
    }
  }
};

STRATA_NAMESPACE_END

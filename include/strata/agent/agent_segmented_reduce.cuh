// strata/agent/agent_segmented_reduce.cuh: AgentSegmentedReducePolicy and AgentSegmentedReduce, one
// warp's share of a segmented reduction (DeviceSegmentedReduce), and the step that joins the parts
// of segments cut by chunk borders.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_cost_line.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
//! The tuning of AgentSegmentedReduce: threads per block; how many chunks each warp of the
//! device-filling grid gets on average (the chunk size follows from the input: its cost over the
//! warps times ROUNDS, at least MIN_CHUNK_ITEMS); what a segment costs on top of its items (the
//! reading of its offsets), so that chunks of many tiny segments hold fewer of them; the largest
//! part of a segment one lane reduces alone (larger ones take the whole warp; at least 32, so that
//! every lane of a warp gets an item); the loads each lane has in flight; blocks per SM; the cache
//! operator of the loads of a warp's parts where the input is a pointer.
template <int _BLOCK_THREADS, int _ROUNDS, int _MIN_CHUNK_ITEMS, int _SEGMENT_COST_ITEMS, int _LANE_ITEMS,
          int _WARP_LOADS = 4, int _MIN_BLOCKS_PER_SM = 1, CacheLoadModifier _LOAD_MODIFIER = LOAD_DEFAULT>
struct AgentSegmentedReducePolicy
{
  static constexpr CacheLoadModifier LOAD_MODIFIER = _LOAD_MODIFIER;
  static constexpr int BLOCK_THREADS               = _BLOCK_THREADS;
  static constexpr int ROUNDS                      = _ROUNDS;
  static constexpr int MIN_CHUNK_ITEMS             = _MIN_CHUNK_ITEMS;
  static constexpr int SEGMENT_COST_ITEMS          = _SEGMENT_COST_ITEMS;
  static constexpr int LANE_ITEMS                  = _LANE_ITEMS;
  static constexpr int WARP_LOADS                  = _WARP_LOADS;
  static constexpr int MIN_BLOCKS_PER_SM           = _MIN_BLOCKS_PER_SM;
  static_assert(LANE_ITEMS >= warp_threads, "a warp reduces only parts that give each lane an item");
  static_assert(SEGMENT_COST_ITEMS >= 1, "every segment, empty ones included, needs a place on the cost line");
};

//! A segment's cost: its items (none where its end is not past its begin) and SEGMENT_COST_ITEMS;
//! 0 past the last segment, so that an exclusive scan of num_segments + 1 costs ends with the total.
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT, int SEGMENT_COST_ITEMS>
struct SegmentCost
{
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  ::cuda::std::int64_t num_segments;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint64_t operator()(::cuda::std::int64_t segment) const
  {
    if (segment >= num_segments)
    {
      return 0;
    }
    using OffsetT       = ::cuda::std::common_type_t<it_value_t<BeginOffsetIteratorT>, it_value_t<EndOffsetIteratorT>>;
    const OffsetT begin = OffsetT(d_begin_offsets[segment]);
    const OffsetT end   = OffsetT(d_end_offsets[segment]);
    return (end > begin ? ::cuda::std::uint64_t(end - begin) : 0) + SEGMENT_COST_ITEMS;
  }
};

//! The items of a chunk: the total cost over max_chunks chunks, a multiple of 32, at least
//! MIN_CHUNK_ITEMS (so that a launch never has more than max_chunks chunks).
template <int MIN_CHUNK_ITEMS>
STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint64_t ChunkItems(::cuda::std::uint64_t total,
                                                                       ::cuda::std::uint64_t max_chunks)
{
  const ::cuda::std::uint64_t even = ((total + max_chunks - 1) / max_chunks + 31) / 32 * 32;
  return even > ::cuda::std::uint64_t(MIN_CHUNK_ITEMS) ? even : ::cuda::std::uint64_t(MIN_CHUNK_ITEMS);
}

//! What the chunks leave for the join: chunk c's reduction of the segment that begins in it and
//! goes on past it (`tail[c]`, the segment in `tail_segment[c]`, -1 for none), and of the segment
//! that began before it (`head[c]`, where the chunk holds items of it).
template <typename AccumT>
struct ChunkParts
{
  AccumT* head;
  AccumT* tail;
  ::cuda::std::int64_t* tail_segment;
};

//! A segmented reduction split into chunks of equal cost (DispatchSegmentedReduce): segment s takes
//! the units [offsets[s], offsets[s] + length_s) of a cost line (then SEGMENT_COST_ITEMS more), and
//! warp w reduces chunks w, w + num_warps, ... of it. A warp finds a chunk's first segment
//! (tile::WarpFindSpan), then reads the offsets of 32 segments at a time, one per lane: parts of at
//! most LANE_ITEMS items are reduced by their lane, larger ones by the whole warp. A segment that
//! lies inside the chunk it begins in is written out; one cut by chunk borders leaves its parts in
//! ChunkParts, and Join adds them up.
//!
//! ItemOpT turns (index in the segment, item) into AccumT (ArgMin/ArgMax pair the index); with
//! COMBINE_INIT the initial value comes first in every segment's reduction (Reduce, Sum, Min,
//! Max), otherwise it is only what an empty segment gets (ArgMin, ArgMax).
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename ReductionOpT, typename InitT, typename AccumT, typename ItemOpT,
          bool COMBINE_INIT>
class AgentSegmentedReduce
{
  using CostT   = ::cuda::std::uint64_t;
  using OffsetT = ::cuda::std::common_type_t<it_value_t<BeginOffsetIteratorT>, it_value_t<EndOffsetIteratorT>>;
  static_assert(::cuda::std::is_integral_v<OffsetT>, "segment offsets must be integers");
  static constexpr unsigned int ALL_LANES = 0xFFFFFFFFu;
  static constexpr CostT LANE_ITEMS       = CostT(PolicyT::LANE_ITEMS);
  static constexpr int UNROLL             = PolicyT::WARP_LOADS;
  using InputT                            = it_value_t<InputIteratorT>;
  using WarpReduceT                       = WarpReduce<AccumT>;
  // Items of a 16-byte vector where the input is a pointer to items that pack into them, else 1.
  static constexpr int VEC = tile::PointerVectorItems<InputIteratorT>();

public:
  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedReduce(InputIteratorT d_in, OutputIteratorT d_out,
                                                        BeginOffsetIteratorT d_begin_offsets,
                                                        EndOffsetIteratorT d_end_offsets,
                                                        ::cuda::std::int64_t num_segments, const CostT* d_offsets,
                                                        ChunkParts<AccumT> parts, ReductionOpT reduction_op, InitT init,
                                                        ItemOpT item_op)
      : d_in(d_in)
      , d_out(d_out)
      , d_begin_offsets(d_begin_offsets)
      , d_end_offsets(d_end_offsets)
      , num_segments(num_segments)
      , d_offsets(d_offsets)
      , parts(parts)
      , reduction_op(reduction_op)
      , init(init)
      , item_op(item_op)
      , lane(int(threadIdx.x) % warp_threads)
  {
  }

  //! Reduces chunks warp, warp + num_warps, ... of at most max_chunks (all 32 lanes call).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeChunks(CostT warp, CostT num_warps, CostT max_chunks)
  {
    const CostT total = d_offsets[num_segments];
    const CostT chunk = ChunkItems<PolicyT::MIN_CHUNK_ITEMS>(total, max_chunks);
    for (CostT c = warp; c * chunk < total; c += num_warps)
    {
      ConsumeChunk(c, c * chunk, c * chunk + chunk);
    }
  }

  //! Reduces the parts of the segments cut by chunk borders, one segment per warp and chunk it
  //! begins in, taking chunks warp, warp + num_warps, ... (all 32 lanes call).
  STRATA_DEVICE STRATA_FORCEINLINE void Join(CostT warp, CostT num_warps, CostT max_chunks)
  {
    const CostT total = d_offsets[num_segments];
    const CostT chunk = ChunkItems<PolicyT::MIN_CHUNK_ITEMS>(total, max_chunks);
    for (CostT c = warp; c * chunk < total; c += num_warps)
    {
      const ::cuda::std::int64_t segment = parts.tail_segment[c];
      if (segment < 0)
      {
        continue;
      }
      // The chunks after c up to the one holding the segment's last item all hold a head part.
      const CostT length = CostT(OffsetT(d_end_offsets[segment]) - OffsetT(d_begin_offsets[segment]));
      const CostT last   = (d_offsets[segment] + length - 1) / chunk;
      const CostT count  = last - c;
      AccumT sum{};
      if (count > 0)
      {
        // Lane l folds the head parts l, l + 32, ...: the lanes below the count hold one at least.
        for (CostT k = CostT(lane); k < count; k += warp_threads)
        {
          const AccumT head = parts.head[c + 1 + k];
          sum               = k == CostT(lane) ? head : AccumT(reduction_op(sum, head));
        }
        typename WarpReduceT::TempStorage no_storage; // empty: a whole warp reduces by shuffles
        sum =
            WarpReduceT(no_storage).Reduce(sum, reduction_op, count < CostT(warp_threads) ? int(count) : warp_threads);
      }
      if (lane == 0)
      {
        const AccumT joined = count > 0 ? AccumT(reduction_op(parts.tail[c], sum)) : parts.tail[c];
        d_out[segment]      = COMBINE_INIT ? AccumT(reduction_op(AccumT(init), joined)) : joined;
      }
    }
  }

private:
  InputIteratorT d_in;
  OutputIteratorT d_out;
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  ::cuda::std::int64_t num_segments;
  const CostT* d_offsets;
  ChunkParts<AccumT> parts;
  ReductionOpT reduction_op;
  InitT init;
  ItemOpT item_op;
  int lane;

  //! Item `index` of the segment that begins at `begin`.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT Item(OffsetT begin, CostT index) const
  {
    return item_op(index, d_in[begin + OffsetT(index)]);
  }

  //! The reduction of items [first, first + count) (count > LANE_ITEMS) of the segment that begins
  //! at `begin`, by the whole warp, in every lane: as 16-byte vectors where the input is a pointer
  //! and the part gives every lane UNROLL of them, else one item per lane and load.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT WarpReducePart(OffsetT begin, CostT first, CostT count)
  {
    if constexpr (VEC > 1)
    {
      const auto* items = d_in + begin + OffsetT(first);
      // Items before the first 16-byte boundary (the pointer is aligned to its items).
      const CostT head = CostT(tile::AlignmentHeadBytes<tile::max_vector_bytes>(items)) / sizeof(InputT);
      if (count >= head + CostT(VEC) * warp_threads * CostT(UNROLL))
      {
        return WarpReduceVectors(first, head, count, items);
      }
    }
    constexpr CostT ROUND = CostT(UNROLL) * warp_threads;
    AccumT sum            = Item(begin, first + CostT(lane)); // count > 32: every lane has an item
    CostT i               = CostT(lane) + warp_threads;
    for (; i + ROUND - warp_threads < count; i += ROUND)
    {
      AccumT items[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
      {
        items[u] = Item(begin, first + i + CostT(u) * warp_threads);
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
      {
        sum = reduction_op(sum, items[u]);
      }
    }
    for (; i < count; i += warp_threads)
    {
      sum = reduction_op(sum, Item(begin, first + i));
    }
    return ReduceInWarp(sum);
  }

  //! WarpReducePart over vectors: `head` items up to the 16-byte boundary (one per lane), then
  //! vectors (lane l takes vectors l, l + 32, ...; every lane at least UNROLL), then the items after
  //! the last whole vector. `items` points at item `first` of the segment.
  template <typename PointerT>
  STRATA_DEVICE STRATA_FORCEINLINE AccumT WarpReduceVectors(CostT first, CostT head, CostT count, PointerT items)
  {
    using VectorT         = tile::VectorOf<InputT, VEC>;
    const CostT vectors   = (count - head) / CostT(VEC);
    const VectorT* body   = reinterpret_cast<const VectorT*>(items + head);
    const CostT body_item = first + head; // segment index of the body's first item
    AccumT sum{};
    {
      const VectorT v = ThreadLoad<PolicyT::LOAD_MODIFIER>(body + lane);
      sum             = item_op(body_item + CostT(lane) * VEC, v.items[0]);
#pragma unroll
      for (int e = 1; e < VEC; ++e)
      {
        sum = reduction_op(sum, item_op(body_item + CostT(lane) * VEC + CostT(e), v.items[e]));
      }
    }
    constexpr CostT ROUND = CostT(UNROLL) * warp_threads;
    CostT j               = CostT(lane) + warp_threads;
    for (; j + ROUND - warp_threads < vectors; j += ROUND)
    {
      VectorT v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
      {
        v[u] = ThreadLoad<PolicyT::LOAD_MODIFIER>(body + j + CostT(u) * warp_threads);
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
      {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
        {
          sum = reduction_op(sum, item_op(body_item + (j + CostT(u) * warp_threads) * VEC + CostT(e), v[u].items[e]));
        }
      }
    }
    for (; j < vectors; j += warp_threads)
    {
      const VectorT v = ThreadLoad<PolicyT::LOAD_MODIFIER>(body + j);
#pragma unroll
      for (int e = 0; e < VEC; ++e)
      {
        sum = reduction_op(sum, item_op(body_item + j * VEC + CostT(e), v.items[e]));
      }
    }
    // The head's items and those after the last vector: fewer than VEC each, one per lane.
    if (CostT(lane) < head)
    {
      sum = reduction_op(sum, item_op(first + CostT(lane), items[lane]));
    }
    const CostT tail = head + vectors * CostT(VEC);
    if (tail + CostT(lane) < count)
    {
      sum = reduction_op(sum, item_op(first + tail + CostT(lane), items[tail + CostT(lane)]));
    }
    return ReduceInWarp(sum);
  }

  //! The reduction of every lane's `value`, in every lane.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT ReduceInWarp(AccumT value)
  {
    typename WarpReduceT::TempStorage no_storage; // empty: a whole warp reduces by shuffles
    return ShuffleIndex<warp_threads>(WarpReduceT(no_storage).Reduce(value, reduction_op), 0, ALL_LANES);
  }

  //! The reduction of items [first, first + count) (0 < count <= LANE_ITEMS) of the segment that
  //! begins at `begin`, by one lane, UNROLL loads in flight before they are combined.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT LaneReducePart(OffsetT begin, CostT first, CostT count)
  {
    AccumT sum = Item(begin, first);
    CostT i    = 1;
    for (; i + CostT(UNROLL) <= count; i += CostT(UNROLL))
    {
      AccumT items[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
      {
        items[u] = Item(begin, first + i + CostT(u));
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
      {
        sum = reduction_op(sum, items[u]);
      }
    }
    for (; i < count; ++i)
    {
      sum = reduction_op(sum, Item(begin, first + i));
    }
    return sum;
  }

  //! A lane's segment: where its items begin, and how many there are.
  struct Segment
  {
    OffsetT begin;
    CostT items;
  };

  //! Reduces the parts of segments in the cost units [first, last) of chunk c: writes out the
  //! segments the chunk holds whole, and leaves the parts of cut ones in `parts`.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeChunk(CostT c, CostT first, CostT last)
  {
    ::cuda::std::int64_t tail_segment = -1;
    AccumT sum{};
    bool has = false; // whether this lane's sum holds its part of the current group
    tile::WarpConsumeChunk(
        d_offsets, num_segments, first, last, LANE_ITEMS, lane,
        [&](::cuda::std::int64_t segment, bool)
        {
          const OffsetT begin = OffsetT(d_begin_offsets[segment]);
          const OffsetT end   = OffsetT(d_end_offsets[segment]);
          return Segment{begin, end > begin ? CostT(end - begin) : CostT(0)};
        },
        [&](const tile::CostLinePart& part, const Segment& mine)
        {
          sum = LaneReducePart(mine.begin, part.begin, part.count);
          has = true;
        },
        [&](int owner, ::cuda::std::int64_t, CostT begin, CostT count, const Segment& mine)
        {
          const AccumT reduced = WarpReducePart(ShuffleIndex<warp_threads>(mine.begin, owner, ALL_LANES), begin, count);
          if (lane == owner)
          {
            sum = reduced;
            has = true;
          }
        },
        [&](const tile::CostLinePart& part)
        {
          if (part.whole)
          {
            if constexpr (COMBINE_INIT)
            {
              d_out[part.span] = has ? AccumT(reduction_op(AccumT(init), sum)) : AccumT(init);
            }
            else
            {
              d_out[part.span] = has ? sum : AccumT(init);
            }
          }
          else if (part.owner)
          {
            // Temporary storage holds no AccumT yet: construct one there (accumulators need not be
            // trivially copyable). The segment goes on past the chunk: its part here is not empty.
            detail::UninitializedCopy(parts.tail + c, sum);
          }
          else if (has)
          {
            detail::UninitializedCopy(parts.head + c, sum); // the segment began before the chunk
          }
          has                    = false;
          const unsigned int cut = __ballot_sync(ALL_LANES, part.owner && !part.whole); // at most one segment
          if (cut != 0)
          {
            tail_segment = ShuffleIndex<warp_threads>(part.span, __ffs(cut) - 1, ALL_LANES);
          }
        });
    if (lane == 0)
    {
      parts.tail_segment[c] = tail_segment;
    }
  }
};
} // namespace segmented_reduce
} // namespace detail
STRATA_NAMESPACE_END

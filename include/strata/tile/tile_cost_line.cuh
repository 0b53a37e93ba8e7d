// strata/tile/tile_cost_line.cuh: how a warp works through one chunk of a cost line, the
// load-balanced split of many spans of any sizes (segments, buffers) into chunks of equal cost.
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_search.cuh>
#include <strata/util_ptx.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! One lane's span of a group of 32 consecutive spans, and its part of a chunk of the cost line:
//! items [begin, begin + count) of the span.
struct CostLinePart
{
  ::cuda::std::int64_t span;
  ::cuda::std::uint64_t begin;
  ::cuda::std::uint64_t count;
  bool active; //!< the span exists and starts before the chunk's end
  bool owner;  //!< it starts in the chunk
  bool whole;  //!< it starts and ends in the chunk
};

//! Works through the parts of the spans in the units [first, last) of a cost line on which span s
//! starts at d_offsets[s] (non-decreasing; d_offsets[num_spans] is the line's end), 32 spans at a
//! time, one a lane, from the one that holds unit `first` (WarpFindSpan):
//! - `read(span, active)`: what the lane needs of span `span` (span 0 where the lane's span is not
//!   active: it exists, and what the lane reads of it is not used), `items` among it;
//! - `by_lane(part, spanned)`: a part of 1 to lane_items items, by its own lane, with what `read`
//!   gave that lane;
//! - `by_warp(owner, span, begin, count, spanned)`: each larger part, one after another, by all
//!   32 lanes (lane `owner`'s part shuffled to every lane, `spanned` each lane's own);
//! - `done(part)`: every lane, once its group's parts are done.
//! Every lane calls; the callbacks run in every lane but by_lane.
template <typename ReadT, typename ByLaneT, typename ByWarpT, typename DoneT>
STRATA_DEVICE STRATA_FORCEINLINE void
WarpConsumeChunk(const ::cuda::std::uint64_t* d_offsets, ::cuda::std::int64_t num_spans, ::cuda::std::uint64_t first,
                 ::cuda::std::uint64_t last, ::cuda::std::uint64_t lane_items, int lane, ReadT read, ByLaneT by_lane,
                 ByWarpT by_warp, DoneT done)
{
  constexpr unsigned int ALL_LANES = 0xFFFFFFFFu;
  for (::cuda::std::int64_t group = WarpFindSpan(d_offsets, num_spans, first, lane);; group += warp_threads)
  {
    CostLinePart part;
    part.span                          = group + lane;
    const ::cuda::std::uint64_t offset = part.span < num_spans ? d_offsets[part.span] : last;
    part.active                        = offset < last;
    const auto spanned                 = read(part.active ? part.span : 0, part.active);
    const ::cuda::std::uint64_t items  = part.active ? ::cuda::std::uint64_t(spanned.items) : 0;
    const ::cuda::std::uint64_t end    = part.active ? (last - offset < items ? last - offset : items) : 0;
    part.begin                         = first > offset ? first - offset : 0;
    part.count                         = end > part.begin ? end - part.begin : 0;
    part.owner                         = part.active && offset >= first;
    part.whole                         = part.owner && end == items;
    if (part.count > 0 && part.count <= lane_items)
    {
      by_lane(part, spanned);
    }
    for (unsigned int large = __ballot_sync(ALL_LANES, part.count > lane_items); large != 0; large &= large - 1)
    {
      const int owner = __ffs(large) - 1;
      by_warp(owner, group + owner, ShuffleIndex<warp_threads>(part.begin, owner, ALL_LANES),
              ShuffleIndex<warp_threads>(part.count, owner, ALL_LANES), spanned);
    }
    done(part);
    // Spans after lane 31's start later than it: past the chunk unless it started inside.
    if (!__shfl_sync(ALL_LANES, part.active, warp_threads - 1))
    {
      return;
    }
  }
}
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

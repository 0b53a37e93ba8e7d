// strata/tile/tile_search.cuh: WarpFindSpan, how a warp finds which of many consecutive spans of a
// line (given by their sorted start offsets) holds a point, in a few rounds of 32 loads each.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! The last span s in [0, num_spans) with d_starts[s] <= point, where d_starts is non-decreasing,
//! d_starts[0] <= point < d_starts[num_spans]. Each round the 32 lanes read 32 evenly spaced starts
//! of the spans left and keep the part between the last one at most `point` and the next: a
//! million spans take five rounds. Every lane calls and gets the result.
template <typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::int64_t
WarpFindSpan(const OffsetT* d_starts, ::cuda::std::int64_t num_spans, OffsetT point, int lane)
{
  ::cuda::std::int64_t low  = 0; // d_starts[low] <= point < d_starts[high]
  ::cuda::std::int64_t high = num_spans;
  while (high - low > 1)
  {
    const ::cuda::std::int64_t step  = (high - low + warp_threads - 1) / warp_threads;
    const ::cuda::std::int64_t probe = low + ::cuda::std::int64_t(lane) * step;
    const unsigned int at_most       = __ballot_sync(0xFFFFFFFFu, probe < high && d_starts[probe] <= point);
    low += ::cuda::std::int64_t(31 - __clz(at_most)) * step; // lane 0's probe always is
    high = low + step < high ? low + step : high;
  }
  return low;
}
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

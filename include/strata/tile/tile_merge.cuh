// strata/tile/tile_merge.cuh: what every merging agent does around its merge: find where its tile
// of a merge's output starts in both inputs (a warp-wide merge-path search in global memory), and
// bring the tile's two input ranges into shared memory.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>

#include <cuda/std/cstdint>

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
    const WideT span    = WideT(high - low);
    const WideT step    = (span + 31) / 32;
    const WideT end_i   = k1 * step < span ? k1 * step : span;
    const OffsetT probe = low + OffsetT(end_i - 1);
    const bool after    = compare_op(keys2[diag - 1 - probe], keys1[probe]);
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
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

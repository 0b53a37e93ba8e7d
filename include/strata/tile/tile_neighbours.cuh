// strata/tile/tile_neighbours.cuh: WarpRowNeighbours, each item's predecessor or successor in
// input order for a tile held in ScanTileRows' layout (vectors striped over each warp), found by
// shuffles within the warp.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! A warp's part of a tile as ROWS rows of 32 vectors of VEC items (lane l holds vector l of each
//! row: ScanTileRows, TileIo with a warp per group). An item's predecessor is the item before it
//! in its vector, else the last item of the lane before (of the row before, for lane 0); the
//! successor likewise. The neighbours outside the warp's part are the caller's (`warp_before`,
//! `warp_after`); all 32 lanes must call.
template <int ITEMS_PER_THREAD, int VEC>
struct WarpRowNeighbours
{
  static constexpr int ROWS               = ITEMS_PER_THREAD / VEC;
  static constexpr unsigned int ALL_LANES = 0xFFFFFFFFu;

  //! `visit(k, predecessor of item k)` for each of this lane's items; the warp's first item's
  //! predecessor is `warp_before` (as given by lane 0).
  template <typename T, typename VisitT>
  STRATA_DEVICE STRATA_FORCEINLINE static void Predecessors(const T (&items)[ITEMS_PER_THREAD], const T& warp_before,
                                                            int lane, VisitT visit)
  {
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
    {
      const T lane_before = ShuffleUp<warp_threads>(items[r * VEC + VEC - 1], 1, 0, ALL_LANES);
      T before            = lane_before;
      if (r > 0)
      {
        const T row_before = ShuffleIndex<warp_threads>(items[(r - 1) * VEC + VEC - 1], warp_threads - 1, ALL_LANES);
        before             = lane == 0 ? row_before : lane_before;
      }
      else if (lane == 0)
      {
        before = warp_before;
      }
      visit(r * VEC, before);
#pragma unroll
      for (int j = 1; j < VEC; ++j)
      {
        visit(r * VEC + j, items[r * VEC + j - 1]);
      }
    }
  }

  //! `visit(k, successor of item k)` for each of this lane's items; the warp's last item's
  //! successor is `warp_after` (as given by lane 31).
  template <typename T, typename VisitT>
  STRATA_DEVICE STRATA_FORCEINLINE static void Successors(const T (&items)[ITEMS_PER_THREAD], const T& warp_after,
                                                          int lane, VisitT visit)
  {
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
    {
#pragma unroll
      for (int j = 0; j < VEC - 1; ++j)
      {
        visit(r * VEC + j, items[r * VEC + j + 1]);
      }
      const T lane_after = ShuffleDown<warp_threads>(items[r * VEC], 1, warp_threads - 1, ALL_LANES);
      T after            = lane_after;
      if (r + 1 < ROWS)
      {
        const T row_after = ShuffleIndex<warp_threads>(items[(r + 1) * VEC], 0, ALL_LANES);
        after             = lane == warp_threads - 1 ? row_after : lane_after;
      }
      else if (lane == warp_threads - 1)
      {
        after = warp_after;
      }
      visit(r * VEC + VEC - 1, after);
    }
  }
};
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

// strata/warp/specializations/warp_scan_shfl.cuh: WarpScan's algorithm for logical warps whose
// size is a power of two: a Kogge-Stone scan over register shuffles, no shared memory.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Prefix scans of one value per lane over a logical warp of LOGICAL_WARP_THREADS lanes (a power
//! of two), exchanging values with `shfl.sync`. Logical warps tile the hardware warp, so every
//! aligned group of LOGICAL_WARP_THREADS lanes scans on its own.
//!
//! The interface WarpScan builds on (WarpScanSmem has the same): InclusiveScan, and Share, which
//! makes one value per lane readable by the other lanes of the logical warp.
template <typename T, int LOGICAL_WARP_THREADS>
struct WarpScanShfl
{
  static_assert(PowerOfTwo<LOGICAL_WARP_THREADS>::VALUE && LOGICAL_WARP_THREADS <= warp_threads,
                "WarpScanShfl needs a power-of-two logical warp of at most 32 lanes");

  //! Shuffles need no shared memory.
  struct TempStorage
  {
  };

  //! One value per lane, read from other lanes by shuffling it on demand.
  struct Shared
  {
    T value;
    unsigned int member_mask;

    //! The value of lane `src_lane` of the logical warp. Every lane of the logical warp must call it.
    STRATA_DEVICE STRATA_FORCEINLINE T FromLane(unsigned int src_lane) const
    {
      return ShuffleIndex<LOGICAL_WARP_THREADS>(value, static_cast<int>(src_lane), member_mask);
    }
    //! The value of the lane below; lane 0 gets its own. Every lane of the logical warp must call it.
    STRATA_DEVICE STRATA_FORCEINLINE T FromLaneBelow() const
    {
      return ShuffleUp<LOGICAL_WARP_THREADS>(value, 1, 0, member_mask);
    }
  };

  unsigned int lane_id;     //!< the calling lane's rank in its logical warp
  unsigned int member_mask; //!< the lanes of the calling logical warp in the hardware warp

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpScanShfl(TempStorage&)
      : lane_id(LogicalLaneId<LOGICAL_WARP_THREADS>())
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>())
  {
  }

  //! Lane i gets input_0 op input_1 op ... op input_i. In step k every lane combines the partial
  //! result of the lane 2^k below (on the left, keeping the order) with its own, so after log2(L)
  //! steps each lane holds the reduction of all lanes up to itself.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T InclusiveScan(T input, ScanOpT& scan_op) const
  {
    T partial = input;
#pragma unroll
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2)
    {
      const T lower = ShuffleUp<LOGICAL_WARP_THREADS>(partial, offset, 0, member_mask);
      if (static_cast<int>(lane_id) >= offset)
      {
        partial = static_cast<T>(scan_op(lower, partial));
      }
    }
    return partial;
  }

  //! Makes `value` of every lane readable by the others (free here: reads shuffle).
  STRATA_DEVICE STRATA_FORCEINLINE Shared Share(T value) const
  {
    return Shared{value, member_mask};
  }
};
} // namespace detail

STRATA_NAMESPACE_END

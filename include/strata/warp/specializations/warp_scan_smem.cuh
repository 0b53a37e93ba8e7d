// strata/warp/specializations/warp_scan_smem.cuh: WarpScan's algorithm for logical warps whose
// size is not a power of two: a Kogge-Stone scan whose lanes exchange values in shared memory.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Prefix scans of one value per lane over a logical warp of LOGICAL_WARP_THREADS lanes through
//! shared memory, with `__syncwarp` over the logical warp's lanes. Every group of
//! LOGICAL_WARP_THREADS consecutive lanes from lane 0 of a hardware warp is a logical warp of its
//! own, with its own TempStorage (see WarpMask).
//!
//! Same interface as WarpScanShfl: InclusiveScan, and Share.
template <typename T, int LOGICAL_WARP_THREADS>
struct WarpScanSmem
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= warp_threads,
                "a logical warp has 1 to 32 threads");

  //! Two buffers, used in turn by consecutive exchanges, so that one barrier per exchange is
  //! enough: a lane overwrites a buffer only after the barrier of the exchange in between, and no
  //! lane arrives there before it has read what it needed from that buffer.
  struct TempStorage
  {
    T buffers[2][LOGICAL_WARP_THREADS];
  };

  //! The values every lane of the logical warp published in one exchange.
  struct Shared
  {
    const T* values;
    unsigned int lane_id;

    //! The value of lane `src_lane` of the logical warp.
    STRATA_DEVICE STRATA_FORCEINLINE T FromLane(unsigned int src_lane) const
    {
      return values[src_lane];
    }
    //! The value of the lane below; lane 0 gets its own.
    STRATA_DEVICE STRATA_FORCEINLINE T FromLaneBelow() const
    {
      return values[lane_id == 0 ? 0 : lane_id - 1];
    }
  };

  TempStorage& temp_storage;
  unsigned int lane_id;     //!< the calling lane's rank in its logical warp
  unsigned int member_mask; //!< the lanes of the calling logical warp in the hardware warp
  unsigned int next_buffer; //!< the buffer of the next exchange; a compile-time constant once inlined

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpScanSmem(TempStorage& temp_storage)
      : temp_storage(temp_storage)
      , lane_id(LogicalLaneId<LOGICAL_WARP_THREADS>())
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>())
      , next_buffer(0)
  {
  }

  //! Lane i gets input_0 op input_1 op ... op input_i: in step k every lane combines the partial
  //! result of the lane 2^k below (on the left, keeping the order) with its own.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T InclusiveScan(T input, ScanOpT& scan_op)
  {
    T partial = input;
#pragma unroll
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2)
    {
      const Shared shared = Share(partial);
      if (static_cast<int>(lane_id) >= offset)
      {
        partial = static_cast<T>(scan_op(shared.FromLane(lane_id - static_cast<unsigned int>(offset)), partial));
      }
    }
    return partial;
  }

  //! Publishes `value` of every lane to the others. Every lane of the logical warp must call it.
  STRATA_DEVICE STRATA_FORCEINLINE Shared Share(T value)
  {
    T* buffer       = temp_storage.buffers[next_buffer];
    next_buffer     = 1 - next_buffer;
    buffer[lane_id] = value;
    __syncwarp(member_mask);
    return Shared{buffer, lane_id};
  }
};
} // namespace detail

STRATA_NAMESPACE_END

// strata/warp/specializations/warp_reduce_smem.cuh: WarpReduce's algorithm for logical warps
// whose size is not a power of two: the tree of WarpReduceShfl with lanes exchanging partial
// results in shared memory.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The reduction tree of WarpReduceShfl (lane i combines with lane i + 2^k in step k, up to its
//! `last_lane`), exchanging through shared memory with `__syncwarp` over the logical warp. Every
//! group of LOGICAL_WARP_THREADS consecutive lanes from lane 0 of a hardware warp is a logical
//! warp of its own, with its own TempStorage (see WarpMask).
template <typename T, int LOGICAL_WARP_THREADS>
struct WarpReduceSmem
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= warp_threads,
                "a logical warp has 1 to 32 threads");

  //! Consecutive steps use the two buffers in turn, so that one barrier per step is enough: a
  //! lane overwrites a buffer two steps after it was read, and the barrier of the step between
  //! is reached by every lane only after its read.
  struct TempStorage
  {
    T buffers[2][LOGICAL_WARP_THREADS];
  };

  TempStorage& temp_storage;
  int lane_id;              //!< the calling lane's rank in its logical warp
  unsigned int member_mask; //!< the lanes of the calling logical warp in the hardware warp

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpReduceSmem(TempStorage& temp_storage)
      : temp_storage(temp_storage)
      , lane_id(static_cast<int>(LogicalLaneId<LOGICAL_WARP_THREADS>()))
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>())
  {
  }

  //! Lane i gets input_i op ... op input_last_lane (its own input if last_lane < i).
  template <typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, int last_lane, ReductionOpT& reduction_op)
  {
    T partial = input;
    int step  = 0;
#pragma unroll
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2, ++step)
    {
      T* buffer       = temp_storage.buffers[step % 2];
      buffer[lane_id] = partial;
      __syncwarp(member_mask);
      if (lane_id + offset <= last_lane)
      {
        partial = static_cast<T>(reduction_op(partial, buffer[lane_id + offset]));
      }
    }
    return partial;
  }
};
} // namespace detail

STRATA_NAMESPACE_END

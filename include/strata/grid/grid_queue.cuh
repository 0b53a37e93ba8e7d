// strata/grid/grid_queue.cuh: GridQueue, a pair of counters in device memory through which the
// blocks of a grid (or of several kernels) hand out work: a fill count and a drain count.
#pragma once

#include <strata/config.cuh>

#include <nv/target>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

//! Two OffsetT counters in device storage of AllocationSize() bytes: Fill(n) and Drain(n)
//! atomically advance the fill or drain count by n and return its previous value, so blocks that
//! drain a queue of fill_size items take disjoint pieces of it. The host (or a kernel, e.g.
//! FillAndResetDrainKernel) sets the counters before use.
//!
//! \code
//! strata::GridQueue<int> queue(d_storage);               // d_storage: AllocationSize() bytes
//! queue.FillAndResetDrain(num_tiles, stream);            // on the host, before the kernel
//! // in the kernel, per block:
//! __shared__ int tile; if (threadIdx.x == 0) tile = queue.Drain(1); __syncthreads();
//! \endcode
template <typename OffsetT>
class GridQueue
{
  static constexpr int FILL  = 0;
  static constexpr int DRAIN = 1;

  OffsetT* d_counters;

public:
  //! Bytes of device storage a queue needs.
  STRATA_HOST_DEVICE static constexpr size_t AllocationSize()
  {
    return sizeof(OffsetT) * 2;
  }

  STRATA_HOST_DEVICE GridQueue()
      : d_counters(nullptr)
  {
  }

  //! A queue in `d_storage` (AllocationSize() bytes of device memory).
  STRATA_HOST_DEVICE GridQueue(void* d_storage)
      : d_counters(static_cast<OffsetT*>(d_storage))
  {
  }

  //! Sets the fill count to fill_size and the drain count to 0 (on the host: an asynchronous copy
  //! on `stream`; on the device: plain stores, for one thread).
  STRATA_HOST_DEVICE cudaError_t FillAndResetDrain(OffsetT fill_size, cudaStream_t stream = 0)
  {
    NV_IF_TARGET(NV_IS_DEVICE,
                 (static_cast<void>(stream); d_counters[FILL] = fill_size; d_counters[DRAIN] = 0; return cudaSuccess;),
                 (const OffsetT counters[2] = {fill_size, OffsetT(0)};
                  return cudaMemcpyAsync(d_counters, counters, sizeof(counters), cudaMemcpyHostToDevice, stream);));
  }

  //! Sets the drain count to 0.
  STRATA_HOST_DEVICE cudaError_t ResetDrain(cudaStream_t stream = 0)
  {
    NV_IF_TARGET(NV_IS_DEVICE, (static_cast<void>(stream); d_counters[DRAIN] = 0; return cudaSuccess;),
                 (return cudaMemsetAsync(d_counters + DRAIN, 0, sizeof(OffsetT), stream);));
  }

  //! Sets the fill count to 0.
  STRATA_HOST_DEVICE cudaError_t ResetFill(cudaStream_t stream = 0)
  {
    NV_IF_TARGET(NV_IS_DEVICE, (static_cast<void>(stream); d_counters[FILL] = 0; return cudaSuccess;),
                 (return cudaMemsetAsync(d_counters + FILL, 0, sizeof(OffsetT), stream);));
  }

  //! Reads the fill count (on the host: a copy on `stream`, complete when this returns).
  STRATA_HOST_DEVICE cudaError_t FillSize(OffsetT& fill_size, cudaStream_t stream = 0)
  {
    NV_IF_TARGET(NV_IS_DEVICE, (static_cast<void>(stream); fill_size = d_counters[FILL]; return cudaSuccess;),
                 (cudaError_t error =
                      cudaMemcpyAsync(&fill_size, d_counters + FILL, sizeof(OffsetT), cudaMemcpyDeviceToHost, stream);
                  return error != cudaSuccess ? error : cudaStreamSynchronize(stream);));
  }

  //! Takes num_items from the drain count; returns where this piece starts.
  STRATA_DEVICE OffsetT Drain(OffsetT num_items)
  {
    return atomicAdd(d_counters + DRAIN, num_items);
  }

  //! Adds num_items to the fill count; returns where this piece starts.
  STRATA_DEVICE OffsetT Fill(OffsetT num_items)
  {
    return atomicAdd(d_counters + FILL, num_items);
  }
};

STRATA_KERNELS_BEGIN

//! Sets `grid_queue`'s fill count to num_items and its drain count to 0, from the device (one
//! thread), e.g. as the first node of a graph.
template <typename OffsetT>
STRATA_KERNEL_ATTRIBUTES void FillAndResetDrainKernel(GridQueue<OffsetT> grid_queue, OffsetT num_items)
{
  grid_queue.FillAndResetDrain(num_items);
}

STRATA_KERNELS_END

STRATA_NAMESPACE_END

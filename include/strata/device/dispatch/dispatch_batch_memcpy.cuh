// strata/device/dispatch/dispatch_batch_memcpy.cuh: the kernel of the batched copies, and the
// dispatch class (CUB's detail::DispatchBatchMemcpy) that scans the buffers' costs, sizes and carves
// the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_batch_memcpy.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_cost_line.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_batch_memcpy.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

//! What a batched copy's buffers are (CUB's): byte buffers behind pointers (DeviceMemcpy), or
//! ranges of items behind iterators (DeviceCopy).
enum class CopyAlg
{
  Memcpy,
  Copy
};

STRATA_KERNELS_BEGIN

//! The copy of a batch: each warp copies its chunks of the buffers' cost line.
template <typename MaxPolicyT, typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT,
          bool IS_MEMCPY>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::BatchMemcpyPolicyT::BLOCK_THREADS,
                  MaxPolicyT::ActivePolicy::BatchMemcpyPolicyT::
                      MIN_BLOCKS_PER_SM) void DeviceBatchMemcpyKernel(InputBufferIt input_buffers,
                                                                      OutputBufferIt output_buffers,
                                                                      BufferSizeIteratorT buffer_sizes,
                                                                      ::cuda::std::int64_t num_buffers,
                                                                      const ::cuda::std::uint64_t* d_offsets)
{
  using PolicyT                         = typename MaxPolicyT::ActivePolicy::BatchMemcpyPolicyT;
  constexpr ::cuda::std::uint64_t WARPS = PolicyT::BLOCK_THREADS / detail::warp_threads;
  detail::batch_memcpy::AgentBatchMemcpy<PolicyT, InputBufferIt, OutputBufferIt, BufferSizeIteratorT, IS_MEMCPY>(
      input_buffers, output_buffers, buffer_sizes, num_buffers, d_offsets)
      .ConsumeChunks(::cuda::std::uint64_t(blockIdx.x) * WARPS + threadIdx.x / detail::warp_threads,
                     ::cuda::std::uint64_t(gridDim.x) * WARPS);
}

STRATA_KERNELS_END

namespace detail
{
//! Dispatches a batched copy (CUB's name and template parameters; BlockOffsetT is not used): buffer
//! b of num_buffers, of buffer_sizes[b] bytes (Memcpy) or items (Copy), goes from input_buffers[b]
//! to output_buffers[b]. Two launches: an exclusive scan of the buffers' costs (their sizes plus a
//! fixed cost each) into the temporary storage, then the copy, each warp taking chunks of equal
//! cost. A negative count, or a null pointer among the iterators on the run call, is rejected with
//! cudaErrorInvalidValue before anything is written; buffers of negative size copy nothing.
template <typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT, typename BlockOffsetT,
          CopyAlg MemcpyOpt  = CopyAlg::Memcpy,
          typename PolicyHub = batch_memcpy::policy_hub<::cuda::std::uint64_t, BlockOffsetT>>
struct DispatchBatchMemcpy
{
  using MaxPolicyT = typename PolicyHub::MaxPolicy;
  using CostT      = ::cuda::std::uint64_t;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputBufferIt input_buffers;
  OutputBufferIt output_buffers;
  BufferSizeIteratorT buffer_sizes;
  ::cuda::std::int64_t num_buffers;
  cudaStream_t stream;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT = typename ActivePolicyT::BatchMemcpyPolicyT;
    using LineT   = cost_line::Line<batch_memcpy::BufferCost<BufferSizeIteratorT, PolicyT::BUFFER_COST_UNITS>>;

    const LineT line{{buffer_sizes, num_buffers}, num_buffers};
    size_t scan_bytes = 0;
    cudaError_t error = line.Scan(nullptr, scan_bytes, nullptr, stream);
    if (error != cudaSuccess)
    {
      return error;
    }
    CostT* d_offsets              = nullptr;
    unsigned char* d_scan_storage = nullptr;
    error = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_offsets, line.Offsets()),
                                  Slot(d_scan_storage, scan_bytes));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_buffers == 0)
    {
      return error;
    }
    error = line.Scan(d_scan_storage, scan_bytes, d_offsets, stream);
    if (error != cudaSuccess)
    {
      return error;
    }

    // As many blocks as fit on the device at once: the warps take every num_warps-th chunk.
    constexpr bool IS_MEMCPY = MemcpyOpt == CopyAlg::Memcpy;
    auto kernel = DeviceBatchMemcpyKernel<MaxPolicyT, InputBufferIt, OutputBufferIt, BufferSizeIteratorT, IS_MEMCPY>;
    int blocks  = 0;
    error       = cost_line::DeviceFillingGrid(blocks, kernel, PolicyT::BLOCK_THREADS);
    if (error != cudaSuccess)
    {
      return error;
    }
    return LaunchKernel(false, kernel, blocks, PolicyT::BLOCK_THREADS, stream, input_buffers, output_buffers,
                        buffer_sizes, num_buffers, static_cast<const CostT*>(d_offsets));
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the copy.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputBufferIt input_buffers, OutputBufferIt output_buffers,
                                                      BufferSizeIteratorT buffer_sizes,
                                                      ::cuda::std::int64_t num_buffers, cudaStream_t stream)
  {
    if (num_buffers < 0)
    {
      return STRATA_INVALID_ARGUMENT("num_buffers or num_ranges is negative");
    }
    if (d_temp_storage != nullptr && num_buffers > 0
        && (IsNullPointer(input_buffers) || IsNullPointer(output_buffers) || IsNullPointer(buffer_sizes)))
    {
      return STRATA_INVALID_ARGUMENT("an input, output or size iterator is a null pointer");
    }
    return InvokeForCurrentDevice<MaxPolicyT>(
        [&](int)
        {
          return DispatchBatchMemcpy{d_temp_storage, temp_storage_bytes, input_buffers, output_buffers,
                                     buffer_sizes,   num_buffers,        stream};
        });
  }
};
} // namespace detail

STRATA_NAMESPACE_END

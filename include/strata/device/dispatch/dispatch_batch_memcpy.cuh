// strata/device/dispatch/dispatch_batch_memcpy.cuh: the kernel of the batched copies, and the
// dispatch class (CUB's detail::DispatchBatchMemcpy) that scans the buffers' costs, sizes and carves
// the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_batch_memcpy.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/device/dispatch/tuning/tuning_batch_memcpy.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
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
    using CostOpT = batch_memcpy::BufferCost<BufferSizeIteratorT, PolicyT::BUFFER_COST_UNITS>;
    using CostIteratorT =
        TransformInputIterator<CostT, CostOpT, CountingInputIterator<::cuda::std::int64_t, ::cuda::std::int64_t>,
                               ::cuda::std::int64_t>;
    using ScanT = DispatchScan<CostIteratorT, CostT*, ::cuda::std::plus<>, InputValue<CostT>, CostT, CostT>;

    const CostIteratorT costs(CountingInputIterator<::cuda::std::int64_t, ::cuda::std::int64_t>(0),
                              CostOpT{buffer_sizes, num_buffers});
    const CostT num_offsets = CostT(num_buffers) + 1;
    size_t scan_bytes       = 0;
    cudaError_t error = ScanT::Dispatch(nullptr, scan_bytes, costs, static_cast<CostT*>(nullptr), ::cuda::std::plus<>{},
                                        InputValue<CostT>(0), num_offsets, stream);
    if (error != cudaSuccess)
    {
      return error;
    }
    CostT* d_offsets              = nullptr;
    unsigned char* d_scan_storage = nullptr;
    error = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_offsets, size_t(num_offsets)),
                                  Slot(d_scan_storage, scan_bytes));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_buffers == 0)
    {
      return error;
    }
    error = ScanT::Dispatch(d_scan_storage, scan_bytes, costs, d_offsets, ::cuda::std::plus<>{}, InputValue<CostT>(0),
                            num_offsets, stream);
    if (error != cudaSuccess)
    {
      return error;
    }

    // As many blocks as fit on the device at once: the warps take every num_warps-th chunk.
    constexpr bool IS_MEMCPY = MemcpyOpt == CopyAlg::Memcpy;
    auto kernel   = DeviceBatchMemcpyKernel<MaxPolicyT, InputBufferIt, OutputBufferIt, BufferSizeIteratorT, IS_MEMCPY>;
    int device    = 0;
    int sm_count  = 0;
    int occupancy = 0;
    error         = cudaGetDevice(&device);
    if (error == cudaSuccess)
    {
      error = cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
    }
    if (error == cudaSuccess)
    {
      error = MaxSmOccupancy(occupancy, kernel, PolicyT::BLOCK_THREADS);
    }
    if (error != cudaSuccess)
    {
      return error;
    }
    const int blocks = sm_count * (occupancy > 0 ? occupancy : 1);
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

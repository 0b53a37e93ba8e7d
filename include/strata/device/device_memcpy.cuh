// strata/device/device_memcpy.cuh: DeviceMemcpy, batched copies of byte buffers, with CUB's
// two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Device-wide batched memcpy.
struct DeviceMemcpy
{
  //! Copies buffer_sizes[b] bytes from input_buffer_it[b] to output_buffer_it[b] for every buffer
  //! b in [0, num_buffers): the iterators yield pointers (any alignment; a buffer moves in 16-byte
  //! words where its source and destination share their address modulo 16), the sizes any integer
  //! type (a negative size copies nothing). Buffers must not overlap one another's destinations.
  //! Two-phase: with `d_temp_storage == nullptr` the call writes the bytes it needs to
  //! `temp_storage_bytes` and does nothing else. A negative count or a null iterator on the second
  //! call returns cudaErrorInvalidValue before anything is copied.
  //!
  //! \code
  //! // d_srcs {a, b, c}, d_dsts {x, y, z}, d_sizes {3, 0, 70000}
  //! strata::DeviceMemcpy::Batched(nullptr, bytes, d_srcs, d_dsts, d_sizes, 3);
  //! cudaMalloc(&d_temp, bytes);
  //! strata::DeviceMemcpy::Batched(d_temp, bytes, d_srcs, d_dsts, d_sizes, 3);
  //! \endcode
  template <typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Batched(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     InputBufferIt input_buffer_it, OutputBufferIt output_buffer_it,
                                                     BufferSizeIteratorT buffer_sizes, ::cuda::std::int64_t num_buffers,
                                                     cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMemcpy::Batched");
    static_assert(::cuda::std::is_pointer_v<detail::it_value_t<InputBufferIt>>,
                  "DeviceMemcpy::Batched copies buffers behind pointers; DeviceCopy::Batched copies ranges of "
                  "iterators");
    static_assert(::cuda::std::is_pointer_v<detail::it_value_t<OutputBufferIt>>,
                  "DeviceMemcpy::Batched copies buffers behind pointers; DeviceCopy::Batched copies ranges of "
                  "iterators");
    return detail::DispatchBatchMemcpy<InputBufferIt, OutputBufferIt, BufferSizeIteratorT, ::cuda::std::uint32_t,
                                       CopyAlg::Memcpy>::Dispatch(d_temp_storage, temp_storage_bytes, input_buffer_it,
                                                                  output_buffer_it, buffer_sizes, num_buffers, stream);
  }
};

STRATA_NAMESPACE_END

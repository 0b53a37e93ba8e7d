// strata/device/device_copy.cuh: DeviceCopy, batched copies of ranges of items, with CUB's
// two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

//! Device-wide batched copy of ranges.
struct DeviceCopy
{
  //! Copies sizes[r] items of range r for every r in [0, num_ranges): output_it[r][i] =
  //! input_it[r][i]. input_it yields input iterators (pointers, ConstantInputIterator, ...),
  //! output_it output iterators, sizes any integer type (a negative size copies nothing). Ranges
  //! must not overlap one another's outputs. Two-phase, and errors, as DeviceMemcpy::Batched.
  //!
  //! \code
  //! // Run-length decoding: d_values {1, 7, 3}, d_lengths {2, 0, 3}, d_offsets {0, 2, 2}
  //! auto inputs  = strata::TransformInputIterator<strata::ConstantInputIterator<int>, to_constant, int*>(d_values,
  //! {}); auto outputs = strata::TransformInputIterator<int*, at_offset, int*>(d_offsets, {d_out});
  //! strata::DeviceCopy::Batched(d_temp, bytes, inputs, outputs, d_lengths, 3);
  //! // d_out {1, 1, 3, 3, 3}
  //! \endcode
  template <typename InputIt, typename OutputIt, typename SizeIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Batched(void* d_temp_storage, size_t& temp_storage_bytes, InputIt input_it,
                                                     OutputIt output_it, SizeIteratorT sizes,
                                                     ::cuda::std::int64_t num_ranges, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceCopy::Batched");
    return detail::DispatchBatchMemcpy<InputIt, OutputIt, SizeIteratorT, ::cuda::std::uint32_t,
                                       CopyAlg::Copy>::Dispatch(d_temp_storage, temp_storage_bytes, input_it, output_it,
                                                                sizes, num_ranges, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/device_adjacent_difference.cuh: DeviceAdjacentDifference, the differences of
// neighbouring items (copying or in place), with CUB's two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_adjacent_difference.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN

//! Device-wide adjacent differences:
//! - SubtractLeft(Copy): out[0] = in[0], out[i] = difference_op(in[i], in[i - 1]);
//! - SubtractRight(Copy): out[i] = difference_op(in[i], in[i + 1]), out[n - 1] = in[n - 1].
//! The results are converted to the output's value type. The Copy forms write d_output, which
//! must not overlap d_input; the others overwrite d_input (every difference still takes the
//! original neighbours). difference_op is called exactly once per adjacent pair: num_items - 1
//! times (none for fewer than two items), so an operator may count or accumulate.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else (a byte for the Copy forms, an item a tile
//! for the in-place ones). Errors (a negative count, a null pointer on the second call, too little
//! temporary storage) are returned as cudaErrorInvalidValue before anything is written.
//!
//! \code
//! // d_in {1, 3, 3, 8, 2}
//! size_t bytes = 0;
//! strata::DeviceAdjacentDifference::SubtractLeftCopy(nullptr, bytes, d_in, d_out, 5);
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, bytes, d_in, d_out, 5);
//! // d_out {1, 2, 0, 5, -6}
//! \endcode
struct DeviceAdjacentDifference
{
private:
  template <MayAlias ALIAS, ReadOption READ, typename NumItemsT, typename InputIteratorT, typename OutputIteratorT,
            typename DifferenceOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  AdjacentDifference(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_input, OutputIteratorT d_output,
                     NumItemsT num_items, DifferenceOpT difference_op, cudaStream_t stream)
  {
    return DispatchAdjacentDifference<InputIteratorT, OutputIteratorT, DifferenceOpT, NumItemsT, ALIAS, READ>::Dispatch(
        d_temp_storage, temp_storage_bytes, d_input, d_output, num_items, difference_op, stream);
  }

public:
  //! out[0] = in[0], out[i] = difference_op(in[i], in[i - 1]) into d_output.
  template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT = ::cuda::std::minus<>,
            typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SubtractLeftCopy(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_input, OutputIteratorT d_output,
                   NumItemsT num_items, DifferenceOpT difference_op = {}, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceAdjacentDifference::SubtractLeftCopy");
    return AdjacentDifference<MayAlias::No, ReadOption::Left>(d_temp_storage, temp_storage_bytes, d_input, d_output,
                                                              num_items, difference_op, stream);
  }

  //! SubtractLeftCopy in place.
  template <typename RandomAccessIteratorT, typename DifferenceOpT = ::cuda::std::minus<>,
            typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t SubtractLeft(void* d_temp_storage, size_t& temp_storage_bytes,
                                                          RandomAccessIteratorT d_input, NumItemsT num_items,
                                                          DifferenceOpT difference_op = {}, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceAdjacentDifference::SubtractLeft");
    return AdjacentDifference<MayAlias::Yes, ReadOption::Left>(d_temp_storage, temp_storage_bytes, d_input, d_input,
                                                               num_items, difference_op, stream);
  }

  //! out[i] = difference_op(in[i], in[i + 1]), out[n - 1] = in[n - 1] into d_output.
  template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT = ::cuda::std::minus<>,
            typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SubtractRightCopy(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_input, OutputIteratorT d_output,
                    NumItemsT num_items, DifferenceOpT difference_op = {}, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceAdjacentDifference::SubtractRightCopy");
    return AdjacentDifference<MayAlias::No, ReadOption::Right>(d_temp_storage, temp_storage_bytes, d_input, d_output,
                                                               num_items, difference_op, stream);
  }

  //! SubtractRightCopy in place.
  template <typename RandomAccessIteratorT, typename DifferenceOpT = ::cuda::std::minus<>,
            typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t SubtractRight(void* d_temp_storage, size_t& temp_storage_bytes,
                                                           RandomAccessIteratorT d_input, NumItemsT num_items,
                                                           DifferenceOpT difference_op = {}, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceAdjacentDifference::SubtractRight");
    return AdjacentDifference<MayAlias::Yes, ReadOption::Right>(d_temp_storage, temp_storage_bytes, d_input, d_input,
                                                                num_items, difference_op, stream);
  }
};

STRATA_NAMESPACE_END

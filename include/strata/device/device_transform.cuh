// strata/device/device_transform.cuh: DeviceTransform, element-wise transforms of one or several
// input sequences into an output sequence.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>
#include <strata/device/dispatch/dispatch_transform.cuh>
#include <strata/util_debug.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace transform
{
//! cudaErrorInvalidValue for a negative item count, or a null pointer among the inputs and the
//! output when there are items; cudaSuccess otherwise.
template <typename NumItemsT, typename OutputIteratorT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t CheckArguments(const ::cuda::std::tuple<InputIteratorTs...>& inputs,
                                                   const OutputIteratorT& output, NumItemsT num_items)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  const bool null_input = ::cuda::std::apply([](const auto&... in) { return (IsNullPointer(in) || ...); }, inputs);
  if (num_items > NumItemsT(0) && (null_input || IsNullPointer(output)))
  {
    return STRATA_INVALID_ARGUMENT("an input or the output is a null pointer");
  }
  return cudaSuccess;
}

template <typename NumItemsT, typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t Run(::cuda::std::tuple<InputIteratorTs...> inputs, OutputIteratorT output,
                                        NumItemsT num_items, TransformOpT transform_op, cudaStream_t stream)
{
  const cudaError_t error = CheckArguments(inputs, output, num_items);
  if (error != cudaSuccess || num_items == NumItemsT(0))
  {
    return error;
  }
  using OffsetT = offset_t<NumItemsT>;
  if constexpr (sizeof(OffsetT) > 4)
  {
    // 32-bit offsets while they reach: cheaper index arithmetic.
    if (static_cast<::cuda::std::uint64_t>(num_items) <= 0xFFFFFFFFull)
    {
      return DispatchTransform<::cuda::std::uint32_t, TransformOpT, OutputIteratorT, InputIteratorTs...>::Dispatch(
          inputs, output, static_cast<::cuda::std::uint32_t>(num_items), transform_op, stream);
    }
  }
  return DispatchTransform<OffsetT, TransformOpT, OutputIteratorT, InputIteratorTs...>::Dispatch(
      inputs, output, static_cast<OffsetT>(num_items), transform_op, stream);
}

//! out[i] = op(ins[i]...), each input passed as the reference its iterator yields (the item in
//! its sequence, never a copy). Called by DispatchFor as op(tile_offset, local).
template <typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
struct ApplyToReferences
{
  ::cuda::std::tuple<InputIteratorTs...> ins;
  OutputIteratorT out;
  TransformOpT op;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local)
  {
    (out + tile_offset)[local] =
        ::cuda::std::apply([&](const auto&... in) { return op((in + tile_offset)[local]...); }, ins);
  }
};

template <typename NumItemsT, typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t RunStable(::cuda::std::tuple<InputIteratorTs...> inputs, OutputIteratorT output,
                                              NumItemsT num_items, TransformOpT transform_op, cudaStream_t stream)
{
  const cudaError_t error = CheckArguments(inputs, output, num_items);
  if (error != cudaSuccess || num_items == NumItemsT(0))
  {
    return error;
  }
  using OffsetT = offset_t<NumItemsT>;
  using OpT     = ApplyToReferences<OutputIteratorT, TransformOpT, InputIteratorTs...>;
  return DispatchFor<OffsetT, OpT>::Dispatch(static_cast<OffsetT>(num_items), OpT{inputs, output, transform_op},
                                             stream);
}
} // namespace transform
} // namespace detail

//! Element-wise transforms: output[i] = transform_op(inputs[i]...) for every i < num_items, on
//! `stream`, in one launch (none for no items). Contiguous inputs and outputs of one item size
//! move as 16-byte vectors; on sm_90 and later, one or two such inputs arrive in shared memory by
//! bulk copy (the output may be one of the inputs: every tile is read before it is written). The
//! forms with temporary storage exist for symmetry with the other device calls (they need none:
//! the size query reports one byte). Returns cudaErrorInvalidValue for a negative item count or a
//! null pointer (with items).
//!
//! \code
//! // d_c[i] = d_a[i] + d_b[i]
//! strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a, d_b), d_c, n, cuda::std::plus<>{});
//! \endcode
struct DeviceTransform
{
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                                       RandomAccessIteratorOut output, NumItemsT num_items,
                                                       TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::Transform");
    return detail::transform::Run(inputs, output, num_items, transform_op, stream);
  }

  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes,
                                                       ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                                       RandomAccessIteratorOut output, NumItemsT num_items,
                                                       TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Transform(inputs, output, num_items, transform_op, stream);
  }

  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                                                       NumItemsT num_items, TransformOp transform_op,
                                                       cudaStream_t stream = nullptr)
  {
    return Transform(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes,
                                                       RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                                                       NumItemsT num_items, TransformOp transform_op,
                                                       cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Transform(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  //! Transform where transform_op receives the input items themselves, as the references the
  //! input iterators yield (never copies, so their addresses are those of the items in their
  //! sequences): output[i] = transform_op(inputs[i]...) for every i < num_items, item by item.
  //! The output may be one of the inputs, and must not overlap them otherwise. Errors as Transform.
  //!
  //! \code
  //! // d_c[i] = d_a[i] + d_a[i + 1], the neighbour reached through the argument's address
  //! struct next_sum
  //! {
  //!   __device__ int operator()(const int& a) const { return a + (&a)[1]; }
  //! };
  //! strata::DeviceTransform::TransformStableArgumentAddresses(d_a, d_c, n - 1, next_sum{});
  //! \endcode
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformStableArgumentAddresses(::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                   RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op,
                                   cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::TransformStableArgumentAddresses");
    return detail::transform::RunStable(inputs, output, num_items, transform_op, stream);
  }

  //! TransformStableArgumentAddresses with CUB's temporary-storage arguments (it needs none).
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t TransformStableArgumentAddresses(
      void* d_temp_storage, size_t& temp_storage_bytes, ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
      RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return TransformStableArgumentAddresses(inputs, output, num_items, transform_op, stream);
  }

  //! TransformStableArgumentAddresses of one input sequence.
  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformStableArgumentAddresses(RandomAccessIteratorIn input, RandomAccessIteratorOut output, NumItemsT num_items,
                                   TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    return TransformStableArgumentAddresses(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  //! TransformStableArgumentAddresses of one input sequence, with CUB's temporary-storage arguments.
  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformStableArgumentAddresses(void* d_temp_storage, size_t& temp_storage_bytes, RandomAccessIteratorIn input,
                                   RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op,
                                   cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return TransformStableArgumentAddresses(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/device_transform.cuh: DeviceTransform, element-wise transforms of one or several
// input sequences into an output sequence.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_transform.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace transform
{
template <typename NumItemsT, typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t Run(::cuda::std::tuple<InputIteratorTs...> inputs, OutputIteratorT output,
                                        NumItemsT num_items, TransformOpT transform_op, cudaStream_t stream)
{
  if (!IsValidCount(num_items))
  {
    return cudaErrorInvalidValue;
  }
  if (num_items == 0)
  {
    return cudaSuccess;
  }
  const bool null_input = ::cuda::std::apply([](const auto&... in) { return (IsNullPointer(in) || ...); }, inputs);
  if (null_input || IsNullPointer(output))
  {
    return cudaErrorInvalidValue;
  }
  using OffsetT = offset_t<NumItemsT>;
  if constexpr (sizeof(OffsetT) > 4)
  {
    // 32-bit offsets while they reach: cheaper index arithmetic (0.4% at 2^28 u32 items).
    if (static_cast<::cuda::std::uint64_t>(num_items) <= 0xFFFFFFFFull)
    {
      return DispatchTransform<::cuda::std::uint32_t, TransformOpT, OutputIteratorT, InputIteratorTs...>::Dispatch(
          inputs, output, static_cast<::cuda::std::uint32_t>(num_items), transform_op, stream);
    }
  }
  return DispatchTransform<OffsetT, TransformOpT, OutputIteratorT, InputIteratorTs...>::Dispatch(
      inputs, output, static_cast<OffsetT>(num_items), transform_op, stream);
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
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Transform(void* d_temp_storage, size_t& temp_storage_bytes, ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
            RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op, cudaStream_t stream = nullptr)
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
};

STRATA_NAMESPACE_END

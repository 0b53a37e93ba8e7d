// strata/device/device_partition.cuh: DevicePartition, device-wide partitions (two-way by flags
// or predicate, three-way by two predicates), with CUB's two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_select_if.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace select
{
//! The signed offset type of a partition of NumItemsT items: 32 bits for signed counts of up to 4
//! bytes, 64 otherwise (every count of an unsigned 32-bit type fits).
template <typename NumItemsT>
using partition_offset_t = ::cuda::std::conditional_t<(sizeof(NumItemsT) <= 4 && ::cuda::std::is_signed_v<NumItemsT>),
                                                      ::cuda::std::int32_t, ::cuda::std::int64_t>;
} // namespace select
} // namespace detail

//! Device-wide partitions, stable where CUB's are:
//! - two-way (Flagged, If): the selected items go to the front of d_out in input order, the
//!   rejected ones to the back in reverse input order; `*d_num_selected_out` receives the number
//!   selected;
//! - three-way (If with two predicates): the items `select_first_part_op` accepts go to
//!   d_first_part_out, the others that `select_second_part_op` accepts to d_second_part_out, the
//!   rest to d_unselected_out, each in input order; d_num_selected_out[0] and [1] receive the sizes
//!   of the first and second parts.
//! Counts are written in device memory (the call does not wait for the GPU). Outputs must not
//! overlap the input.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. Counts of 8-byte types allow more than 2^31
//! items. Errors (a negative count, a null pointer on the second call, too little temporary
//! storage) are returned as cudaErrorInvalidValue before anything is written. An empty input
//! writes counts of 0.
//!
//! \code
//! // d_in {0, 2, 3, 9, 5, 2, 81, 8}; is_small(x) = x < 7
//! size_t bytes = 0;
//! strata::DevicePartition::If(nullptr, bytes, d_in, d_out, d_num_selected, 8, is_small);
//! cudaMalloc(&d_temp, bytes);
//! strata::DevicePartition::If(d_temp, bytes, d_in, d_out, d_num_selected, 8, is_small);
//! // d_out {0, 2, 3, 5, 2, 8, 81, 9}, *d_num_selected 5
//! \endcode
struct DevicePartition
{
  //! Two-way partition of d_in by d_flags (converted to bool): flagged items first.
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Flagged(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, FlagIterator d_flags,
          OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DevicePartition::Flagged");
    using OffsetT = detail::select::partition_offset_t<NumItemsT>;
    return DispatchSelectIf<InputIteratorT, FlagIterator, OutputIteratorT, NumSelectedIteratorT, NullType, NullType,
                            OffsetT, SelectImpl::Partition>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_flags,
                                                                      d_out, d_num_selected_out, NullType{}, NullType{},
                                                                      OffsetT(num_items), stream);
  }

  //! Two-way partition of d_in by `select_op(item)`: selected items first.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOp,
            typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                                                NumItemsT num_items, SelectOp select_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DevicePartition::If");
    using OffsetT = detail::select::partition_offset_t<NumItemsT>;
    return DispatchSelectIf<InputIteratorT, NullType*, OutputIteratorT, NumSelectedIteratorT, SelectOp, NullType,
                            OffsetT, SelectImpl::Partition>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, nullptr,
                                                                      d_out, d_num_selected_out, select_op, NullType{},
                                                                      OffsetT(num_items), stream);
  }

  //! Three-way partition of d_in by two predicates.
  template <typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
            typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOp,
            typename SelectSecondPartOp, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, FirstOutputIteratorT d_first_part_out,
     SecondOutputIteratorT d_second_part_out, UnselectedOutputIteratorT d_unselected_out,
     NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectFirstPartOp select_first_part_op,
     SelectSecondPartOp select_second_part_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DevicePartition::If");
    using OffsetT = detail::select::partition_offset_t<NumItemsT>;
    return DispatchThreeWayPartitionIf<InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT,
                                       UnselectedOutputIteratorT, NumSelectedIteratorT, SelectFirstPartOp,
                                       SelectSecondPartOp, OffsetT>::Dispatch(d_temp_storage, temp_storage_bytes, d_in,
                                                                              d_first_part_out, d_second_part_out,
                                                                              d_unselected_out, d_num_selected_out,
                                                                              select_first_part_op,
                                                                              select_second_part_op, OffsetT(num_items),
                                                                              stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/device_find.cuh: DeviceFind (CUB 3.5): the first item a predicate accepts, and the
// lower and upper bounds of values in a sorted range, with the two-phase temporary-storage
// convention and single-call forms.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/detail/single_call.cuh>
#include <strata/device/dispatch/dispatch_find.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace find
{
template <typename InputIteratorT, typename OutputIteratorT, typename PredicateT, typename NumItemsT>
STRATA_RUNTIME_FUNCTION cudaError_t FindIf(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                           OutputIteratorT d_out, PredicateT predicate, NumItemsT num_items,
                                           cudaStream_t stream)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  if (d_temp_storage != nullptr && (IsNullPointer(d_out) || (num_items > NumItemsT(0) && IsNullPointer(d_in))))
  {
    return STRATA_INVALID_ARGUMENT("d_out, or d_in with items to search, is a null pointer");
  }
  using OffsetT = offset_t<NumItemsT>;
  return DispatchFindIf<InputIteratorT, OutputIteratorT, PredicateT, OffsetT>::Dispatch(
      d_temp_storage, temp_storage_bytes, d_in, d_out, predicate, static_cast<OffsetT>(num_items), stream);
}

//! The arguments every bound search checks: counts that are not negative, and (where it has values
//! to search for) the range it reads, the values and the output. Returns what is wrong, or nullptr.
template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
          typename OutputIteratorT>
STRATA_RUNTIME_FUNCTION const char* BoundProblem(void* d_temp_storage, const RangeIteratorT& d_range,
                                                 RangeNumItemsT range_num_items, const ValuesIteratorT& d_values,
                                                 ValuesNumItemsT values_num_items, const OutputIteratorT& d_output)
{
  if (!IsValidCount(range_num_items) || !IsValidCount(values_num_items))
  {
    return "range_num_items or values_num_items is negative";
  }
  if (d_temp_storage != nullptr && values_num_items > ValuesNumItemsT(0)
      && (IsNullPointer(d_values) || IsNullPointer(d_output)
          || (range_num_items > RangeNumItemsT(0) && IsNullPointer(d_range))))
  {
    return "d_values, d_output or (with a non-empty range) d_range is a null pointer";
  }
  return nullptr;
}

template <bound BOUND, typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT,
          typename ValuesNumItemsT, typename OutputIteratorT, typename CompareOpT>
STRATA_RUNTIME_FUNCTION cudaError_t Bound(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range,
                                          RangeNumItemsT range_num_items, ValuesIteratorT d_values,
                                          ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
                                          cudaStream_t stream)
{
  if (const char* problem =
          BoundProblem(d_temp_storage, d_range, range_num_items, d_values, values_num_items, d_output))
  {
    return STRATA_INVALID_ARGUMENT(problem);
  }
  using OffsetT       = offset_t<RangeNumItemsT>;
  using ValuesOffsetT = offset_t<ValuesNumItemsT>;
  return DispatchFindBound<BOUND, RangeIteratorT, ValuesIteratorT, OutputIteratorT, OffsetT, ValuesOffsetT,
                           CompareOpT>::Dispatch(d_temp_storage, temp_storage_bytes, d_range,
                                                 static_cast<OffsetT>(range_num_items), d_values,
                                                 static_cast<ValuesOffsetT>(values_num_items), d_output, comp, stream);
}

template <bound BOUND, typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT,
          typename ValuesNumItemsT, typename OutputIteratorT, typename CompareOpT>
STRATA_RUNTIME_FUNCTION cudaError_t BoundSortedValues(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      RangeIteratorT d_range, RangeNumItemsT range_num_items,
                                                      ValuesIteratorT d_values, ValuesNumItemsT values_num_items,
                                                      OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream)
{
  if (const char* problem =
          BoundProblem(d_temp_storage, d_range, range_num_items, d_values, values_num_items, d_output))
  {
    return STRATA_INVALID_ARGUMENT(problem);
  }
  using OffsetT = ::cuda::std::common_type_t<offset_t<RangeNumItemsT>, offset_t<ValuesNumItemsT>>;
  return DispatchFindBoundSortedValues<BOUND, RangeIteratorT, ValuesIteratorT, OutputIteratorT, OffsetT,
                                       CompareOpT>::Dispatch(d_temp_storage, temp_storage_bytes, d_range,
                                                             static_cast<OffsetT>(range_num_items), d_values,
                                                             static_cast<OffsetT>(values_num_items), d_output, comp,
                                                             stream);
}
} // namespace find
} // namespace detail

//! Searches (CUB 3.5's DeviceFind), each on `stream` with CUB's two-phase temporary storage (the
//! first call, with `d_temp_storage == nullptr`, writes the bytes needed) or, in the forms without
//! it, storage allocated and freed on `stream` (cudaMallocAsync).
//!
//! - FindIf: the index of the first item of `d_in[0, num_items)` that `predicate` accepts, written
//!   to `*d_out` (`num_items` where none does). The blocks stop taking tiles once every tile left
//!   lies past a match, so a match near the start ends the call early.
//! - LowerBound / UpperBound: for each of `d_values[0, values_num_items)`, the position in the
//!   range `d_range[0, range_num_items)`, sorted by `comp`, of its first item not ordered before the
//!   value (lower) or ordered after it (upper), written to `d_output` as the range iterator's
//!   difference type. The first levels of every search go through samples of the range held in
//!   shared memory.
//! - LowerBoundSortedValues / UpperBoundSortedValues: the same for values that are sorted by `comp`
//!   too, by merging them with the range (O(range + values) reads instead of O(values x log range)).
//!
//! Bad input (a negative count, a null pointer that would be read or written, too little temporary
//! storage) returns cudaErrorInvalidValue before anything is written.
//!
//! \code
//! // d_keys: int[n] on the device; the first negative key's index (n if none)
//! size_t bytes = 0;
//! strata::DeviceFind::FindIf(nullptr, bytes, d_keys, d_index, is_negative{}, n);
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceFind::FindIf(d_temp, bytes, d_keys, d_index, is_negative{}, n);
//! \endcode
struct DeviceFind
{
  //! The index of the first item `scan_op` accepts (num_items for none), in `*d_out`.
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t FindIf(void* d_temp_storage, size_t& temp_storage_bytes,
                                                    InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                                    NumItemsT num_items, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceFind::FindIf");
    return detail::find::FindIf(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, num_items, stream);
  }

  //! FindIf with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t FindIf(InputIteratorT d_in, OutputIteratorT d_out,
                                                                  ScanOpT scan_op, NumItemsT num_items,
                                                                  cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFind::FindIf");
    return detail::WithTemporaryStorage(
        stream, [&](void* d_temp_storage, size_t& temp_storage_bytes)
        { return detail::find::FindIf(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, num_items, stream); });
  }

  //! The first position of the range not ordered before each value.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  LowerBound(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range, RangeNumItemsT range_num_items,
             ValuesIteratorT d_values, ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
             cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceFind::LowerBound");
    return detail::find::Bound<detail::find::bound::lower>(d_temp_storage, temp_storage_bytes, d_range, range_num_items,
                                                           d_values, values_num_items, d_output, comp, stream);
  }

  //! LowerBound with its temporary storage allocated and freed on `stream`.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  LowerBound(RangeIteratorT d_range, RangeNumItemsT range_num_items, ValuesIteratorT d_values,
             ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFind::LowerBound");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::find::Bound<detail::find::bound::lower>(
                                              d_temp_storage, temp_storage_bytes, d_range, range_num_items, d_values,
                                              values_num_items, d_output, comp, stream);
                                        });
  }

  //! The first position of the range ordered after each value.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  UpperBound(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range, RangeNumItemsT range_num_items,
             ValuesIteratorT d_values, ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
             cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceFind::UpperBound");
    return detail::find::Bound<detail::find::bound::upper>(d_temp_storage, temp_storage_bytes, d_range, range_num_items,
                                                           d_values, values_num_items, d_output, comp, stream);
  }

  //! UpperBound with its temporary storage allocated and freed on `stream`.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  UpperBound(RangeIteratorT d_range, RangeNumItemsT range_num_items, ValuesIteratorT d_values,
             ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFind::UpperBound");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::find::Bound<detail::find::bound::upper>(
                                              d_temp_storage, temp_storage_bytes, d_range, range_num_items, d_values,
                                              values_num_items, d_output, comp, stream);
                                        });
  }

  //! LowerBound of values sorted by `comp`, by merge.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  LowerBoundSortedValues(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range,
                         RangeNumItemsT range_num_items, ValuesIteratorT d_values, ValuesNumItemsT values_num_items,
                         OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceFind::LowerBoundSortedValues");
    return detail::find::BoundSortedValues<detail::find::bound::lower>(d_temp_storage, temp_storage_bytes, d_range,
                                                                       range_num_items, d_values, values_num_items,
                                                                       d_output, comp, stream);
  }

  //! LowerBoundSortedValues with its temporary storage allocated and freed on `stream`.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  LowerBoundSortedValues(RangeIteratorT d_range, RangeNumItemsT range_num_items, ValuesIteratorT d_values,
                         ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
                         cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFind::LowerBoundSortedValues");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::find::BoundSortedValues<detail::find::bound::lower>(
                                              d_temp_storage, temp_storage_bytes, d_range, range_num_items, d_values,
                                              values_num_items, d_output, comp, stream);
                                        });
  }

  //! UpperBound of values sorted by `comp`, by merge.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  UpperBoundSortedValues(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range,
                         RangeNumItemsT range_num_items, ValuesIteratorT d_values, ValuesNumItemsT values_num_items,
                         OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceFind::UpperBoundSortedValues");
    return detail::find::BoundSortedValues<detail::find::bound::upper>(d_temp_storage, temp_storage_bytes, d_range,
                                                                       range_num_items, d_values, values_num_items,
                                                                       d_output, comp, stream);
  }

  //! UpperBoundSortedValues with its temporary storage allocated and freed on `stream`.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  UpperBoundSortedValues(RangeIteratorT d_range, RangeNumItemsT range_num_items, ValuesIteratorT d_values,
                         ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
                         cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceFind::UpperBoundSortedValues");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::find::BoundSortedValues<detail::find::bound::upper>(
                                              d_temp_storage, temp_storage_bytes, d_range, range_num_items, d_values,
                                              values_num_items, d_output, comp, stream);
                                        });
  }
};

STRATA_NAMESPACE_END

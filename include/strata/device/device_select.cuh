// strata/device/device_select.cuh: DeviceSelect, device-wide stream compaction (by predicate, by
// flags, unique items, unique keys with their values), with CUB's two-phase temporary-storage
// convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_select_if.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Device-wide stream compaction: the selected items of an input, in input order, go to the front
//! of an output, and their number to `*d_num_selected_out` (written in device memory: the call
//! does not wait for the GPU). Items past the selected ones in the output are not written. The
//! forms taking `d_data` compact in place: afterwards d_data[0, *d_num_selected_out) holds the
//! selected items (what follows them is unspecified). Elsewhere the output must not overlap the
//! input.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. Counts are 64-bit: more than 2^31 items
//! work. Errors (a negative count, a null pointer on the second call, too little temporary
//! storage) are returned as cudaErrorInvalidValue before anything is written. An empty input
//! writes a count of 0.
//!
//! \code
//! // d_in {0, 2, 3, 9, 5, 2, 81, 8}; is_small(x) = x < 7
//! size_t bytes = 0;
//! strata::DeviceSelect::If(nullptr, bytes, d_in, d_out, d_num_selected, 8, is_small);
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceSelect::If(d_temp, bytes, d_in, d_out, d_num_selected, 8, is_small);
//! // d_out {0, 2, 3, 5, 2}, *d_num_selected 5
//! \endcode
struct DeviceSelect
{
  //! Selects d_in[i] where d_flags[i] (converted to bool) is true.
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     InputIteratorT d_in, FlagIterator d_flags, OutputIteratorT d_out,
                                                     NumSelectedIteratorT d_num_selected_out,
                                                     ::cuda::std::int64_t num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::Flagged");
    return DispatchSelectIf<InputIteratorT, FlagIterator, OutputIteratorT, NumSelectedIteratorT, NullType, NullType,
                            ::cuda::std::int64_t, SelectImpl::Select>::Dispatch(d_temp_storage, temp_storage_bytes,
                                                                                d_in, d_flags, d_out,
                                                                                d_num_selected_out, NullType{},
                                                                                NullType{}, num_items, stream);
  }

  //! Flagged in place: d_data[i] is kept where d_flags[i] is true.
  template <typename IteratorT, typename FlagIterator, typename NumSelectedIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data,
                                                     FlagIterator d_flags, NumSelectedIteratorT d_num_selected_out,
                                                     ::cuda::std::int64_t num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::Flagged");
    return DispatchSelectIf<IteratorT, FlagIterator, IteratorT, NumSelectedIteratorT, NullType, NullType,
                            ::cuda::std::int64_t, SelectImpl::SelectPotentiallyInPlace>::Dispatch(d_temp_storage,
                                                                                                  temp_storage_bytes,
                                                                                                  d_data, d_flags,
                                                                                                  d_data,
                                                                                                  d_num_selected_out,
                                                                                                  NullType{},
                                                                                                  NullType{}, num_items,
                                                                                                  stream);
  }

  //! Selects the items for which `select_op(item)` is true.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                                                ::cuda::std::int64_t num_items, SelectOp select_op,
                                                cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::If");
    return DispatchSelectIf<InputIteratorT, NullType*, OutputIteratorT, NumSelectedIteratorT, SelectOp, NullType,
                            ::cuda::std::int64_t, SelectImpl::Select>::Dispatch(d_temp_storage, temp_storage_bytes,
                                                                                d_in, nullptr, d_out,
                                                                                d_num_selected_out, select_op,
                                                                                NullType{}, num_items, stream);
  }

  //! If in place: d_data[i] is kept where `select_op(d_data[i])` is true.
  template <typename IteratorT, typename NumSelectedIteratorT, typename SelectOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data,
                                                NumSelectedIteratorT d_num_selected_out, ::cuda::std::int64_t num_items,
                                                SelectOp select_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::If");
    return DispatchSelectIf<IteratorT, NullType*, IteratorT, NumSelectedIteratorT, SelectOp, NullType,
                            ::cuda::std::int64_t, SelectImpl::SelectPotentiallyInPlace>::Dispatch(d_temp_storage,
                                                                                                  temp_storage_bytes,
                                                                                                  d_data, nullptr,
                                                                                                  d_data,
                                                                                                  d_num_selected_out,
                                                                                                  select_op, NullType{},
                                                                                                  num_items, stream);
  }

  //! Selects d_in[i] where `select_op(d_flags[i])` is true.
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename SelectOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  FlaggedIf(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, FlagIterator d_flags,
            OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, ::cuda::std::int64_t num_items,
            SelectOp select_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::FlaggedIf");
    return DispatchSelectIf<InputIteratorT, FlagIterator, OutputIteratorT, NumSelectedIteratorT, SelectOp, NullType,
                            ::cuda::std::int64_t, SelectImpl::Select>::Dispatch(d_temp_storage, temp_storage_bytes,
                                                                                d_in, d_flags, d_out,
                                                                                d_num_selected_out, select_op,
                                                                                NullType{}, num_items, stream);
  }

  //! FlaggedIf in place: d_data[i] is kept where `select_op(d_flags[i])` is true.
  template <typename IteratorT, typename FlagIterator, typename NumSelectedIteratorT, typename SelectOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  FlaggedIf(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, FlagIterator d_flags,
            NumSelectedIteratorT d_num_selected_out, ::cuda::std::int64_t num_items, SelectOp select_op,
            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::FlaggedIf");
    return DispatchSelectIf<IteratorT, FlagIterator, IteratorT, NumSelectedIteratorT, SelectOp, NullType,
                            ::cuda::std::int64_t, SelectImpl::SelectPotentiallyInPlace>::Dispatch(d_temp_storage,
                                                                                                  temp_storage_bytes,
                                                                                                  d_data, d_flags,
                                                                                                  d_data,
                                                                                                  d_num_selected_out,
                                                                                                  select_op, NullType{},
                                                                                                  num_items, stream);
  }

  //! Selects the first item of every run of consecutive equal items (operator==).
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Unique(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
         NumSelectedIteratorT d_num_selected_out, ::cuda::std::int64_t num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::Unique");
    return DispatchSelectIf<InputIteratorT, NullType*, OutputIteratorT, NumSelectedIteratorT, NullType,
                            ::cuda::std::equal_to<>, ::cuda::std::int64_t,
                            SelectImpl::Select>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, nullptr, d_out,
                                                          d_num_selected_out, NullType{}, ::cuda::std::equal_to<>{},
                                                          num_items, stream);
  }

  //! Selects the first key of every run of consecutive keys equal under `equality_op`, and its
  //! value: d_keys_out and d_values_out receive *d_num_selected_out items each. (An EqualityOpT
  //! that converts to cudaStream_t, such as nullptr, is the stream of the overload below.)
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT, typename EqualityOpT,
            ::cuda::std::enable_if_t<!::cuda::std::is_convertible_v<EqualityOpT, cudaStream_t>, int> = 0>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  UniqueByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,
              ValueInputIteratorT d_values_in, KeyOutputIteratorT d_keys_out, ValueOutputIteratorT d_values_out,
              NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, EqualityOpT equality_op,
              cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSelect::UniqueByKey");
    static_assert(::cuda::std::is_integral_v<NumItemsT>, "num_items is an integer");
    return DispatchUniqueByKey<KeyInputIteratorT, ValueInputIteratorT, KeyOutputIteratorT, ValueOutputIteratorT,
                               NumSelectedIteratorT, EqualityOpT,
                               ::cuda::std::int64_t>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                               d_values_in, d_keys_out, d_values_out,
                                                               d_num_selected_out, equality_op,
                                                               ::cuda::std::int64_t(num_items), stream);
  }

  //! UniqueByKey with operator== on the keys.
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  UniqueByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,
              ValueInputIteratorT d_values_in, KeyOutputIteratorT d_keys_out, ValueOutputIteratorT d_values_out,
              NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    return UniqueByKey(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_keys_out, d_values_out,
                       d_num_selected_out, num_items, ::cuda::std::equal_to<>{}, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/device_merge_sort.cuh: DeviceMergeSort, device-wide stable merge sorts of keys and
// key-value pairs by any strict weak order, through any random-access iterators, with CUB's
// two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_merge_sort.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace merge_sort
{
//! Every DeviceMergeSort call ends here: checks the count, converts it to the offset type, and
//! dispatches (ValueInputIteratorT = ValueIteratorT = NullType* for keys only).
template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
          typename NumItemsT, typename CompareOpT>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes,
                                        KeyInputIteratorT d_input_keys, ValueInputIteratorT d_input_items,
                                        KeyIteratorT d_output_keys, ValueIteratorT d_output_items, NumItemsT num_items,
                                        CompareOpT compare_op, cudaStream_t stream)
{
  static_assert(::cuda::std::is_integral_v<NumItemsT>, "num_items is an integer");
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  using OffsetT = offset_t<NumItemsT>;
  return DispatchMergeSort<KeyInputIteratorT, ValueInputIteratorT, KeyIteratorT, ValueIteratorT, OffsetT,
                           CompareOpT>::Dispatch(d_temp_storage, temp_storage_bytes, d_input_keys, d_input_items,
                                                 d_output_keys, d_output_items, static_cast<OffsetT>(num_items),
                                                 compare_op, stream);
}
} // namespace merge_sort
} // namespace detail

//! Device-wide merge sorts: keys (and values, moved with their keys) in the order of `compare_op`,
//! a strict weak order (`compare_op(a, b)`: a goes before b) callable on the keys in device code.
//! Keys and values are any types, read and written through random-access iterators; where a tile
//! of wide items does not fit in shared memory, it is kept in the temporary storage instead.
//!
//! Every sort here is stable: equal keys keep their input order (CUB promises that only of the
//! StableSort functions; strata's SortPairs and SortKeys are the same sorts). The forms without
//! "Copy" sort `d_keys` (and `d_items`) in place; the Copy forms read the input iterators and
//! write the outputs, leaving the input as it was.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. Sorts of more than one tile need a buffer
//! of num_items keys (and values); a sort of at most one tile (a few thousand items) needs none.
//! Errors (a negative count, a null pointer, too little temporary storage, more tiles than a grid
//! holds) are returned as cudaErrorInvalidValue before anything is written. An empty sort does
//! nothing and, as CUB's, takes any temporary storage and pointers (null ones, zero bytes).
//!
//! \code
//! // keys {8, 6, 7, 5, 3, 0, 9} with values {0, 1, 2, 3, 4, 5, 6}
//! size_t bytes = 0;
//! strata::DeviceMergeSort::SortPairs(nullptr, bytes, d_keys, d_values, 7, cuda::std::less<>{});
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceMergeSort::SortPairs(d_temp, bytes, d_keys, d_values, 7, cuda::std::less<>{});
//! // d_keys {0, 3, 5, 6, 7, 8, 9}, d_values {5, 4, 3, 1, 2, 0, 6}
//! \endcode
struct DeviceMergeSort
{
  //! Sorts the pairs of `d_keys` and `d_items` in place.
  template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                                                       KeyIteratorT d_keys, ValueIteratorT d_items, OffsetT num_items,
                                                       CompareOpT compare_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMergeSort::SortPairs");
    return detail::merge_sort::Run(d_temp_storage, temp_storage_bytes, d_keys, d_items, d_keys, d_items, num_items,
                                   compare_op, stream);
  }

  //! Sorts the pairs of `d_input_keys` and `d_input_items` into `d_output_keys` and `d_output_items`.
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
            typename OffsetT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairsCopy(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys, ValueIteratorT d_output_items,
                OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMergeSort::SortPairsCopy");
    return detail::merge_sort::Run(d_temp_storage, temp_storage_bytes, d_input_keys, d_input_items, d_output_keys,
                                   d_output_items, num_items, compare_op, stream);
  }

  //! Sorts `d_keys` in place.
  template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      KeyIteratorT d_keys, OffsetT num_items, CompareOpT compare_op,
                                                      cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMergeSort::SortKeys");
    return detail::merge_sort::Run(d_temp_storage, temp_storage_bytes, d_keys, static_cast<NullType*>(nullptr), d_keys,
                                   static_cast<NullType*>(nullptr), num_items, compare_op, stream);
  }

  //! Sorts `d_input_keys` into `d_output_keys`.
  template <typename KeyInputIteratorT, typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
               KeyIteratorT d_output_keys, OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMergeSort::SortKeysCopy");
    return detail::merge_sort::Run(d_temp_storage, temp_storage_bytes, d_input_keys, static_cast<NullType*>(nullptr),
                                   d_output_keys, static_cast<NullType*>(nullptr), num_items, compare_op, stream);
  }

  //! SortPairs, named for its stability (every sort here is stable).
  template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorT d_keys, ValueIteratorT d_items,
                  OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMergeSort::StableSortPairs");
    return detail::merge_sort::Run(d_temp_storage, temp_storage_bytes, d_keys, d_items, d_keys, d_items, num_items,
                                   compare_op, stream);
  }

  //! SortKeys, named for its stability.
  template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                                            KeyIteratorT d_keys, OffsetT num_items,
                                                            CompareOpT compare_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMergeSort::StableSortKeys");
    return detail::merge_sort::Run(d_temp_storage, temp_storage_bytes, d_keys, static_cast<NullType*>(nullptr), d_keys,
                                   static_cast<NullType*>(nullptr), num_items, compare_op, stream);
  }

  //! SortKeysCopy, named for its stability.
  template <typename KeyInputIteratorT, typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                     KeyIteratorT d_output_keys, OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMergeSort::StableSortKeysCopy");
    return detail::merge_sort::Run(d_temp_storage, temp_storage_bytes, d_input_keys, static_cast<NullType*>(nullptr),
                                   d_output_keys, static_cast<NullType*>(nullptr), num_items, compare_op, stream);
  }
};

STRATA_NAMESPACE_END

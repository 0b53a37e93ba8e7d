// strata/device/device_radix_sort.cuh: DeviceRadixSort, device-wide stable radix sorts of keys
// and key-value pairs, ascending and descending, by all bits or a bit range, with CUB's two-phase
// temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/dispatch_radix_sort.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace radix
{
//! Every DeviceRadixSort call ends here: checks the count, converts it to the offset type, and
//! dispatches (values wider than max_sorted_value_bytes: DispatchGathered). The pointer forms pass is_overwrite_okay =
//! false (the result goes to the output, the input stays), the DoubleBuffer forms true.
template <SortOrder Order, typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes, bool is_overwrite_okay,
                                        DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, NumItemsT num_items,
                                        DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t stream)
{
  static_assert(::cuda::std::is_integral_v<NumItemsT>, "num_items is an integer");
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  using OffsetT = offset_t<NumItemsT>;
  if constexpr (!::cuda::std::is_same_v<ValueT, NullType> && sizeof(ValueT) > max_sorted_value_bytes)
  {
    return DispatchGathered<Order>(d_temp_storage, temp_storage_bytes, d_keys, d_values,
                                   static_cast<OffsetT>(num_items), begin_bit, end_bit, is_overwrite_okay, stream,
                                   decomposer);
  }
  else
  {
    return DispatchRadixSort<Order, KeyT, ValueT, OffsetT, DecomposerT>::Dispatch(
        d_temp_storage, temp_storage_bytes, d_keys, d_values, static_cast<OffsetT>(num_items), begin_bit, end_bit,
        is_overwrite_okay, stream, decomposer);
  }
}

//! The pointer forms of SortPairs with values read through an iterator.
template <SortOrder Order, typename KeyT, typename ValuesInputIteratorT, typename ValueT, typename NumItemsT>
STRATA_RUNTIME_FUNCTION cudaError_t RunFromIterator(void* d_temp_storage, size_t& temp_storage_bytes,
                                                    const KeyT* d_keys_in, KeyT* d_keys_out,
                                                    ValuesInputIteratorT d_values_in, ValueT* d_values_out,
                                                    NumItemsT num_items, int begin_bit, int end_bit,
                                                    cudaStream_t stream)
{
  static_assert(::cuda::std::is_integral_v<NumItemsT>, "num_items is an integer");
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  using OffsetT = offset_t<NumItemsT>;
  DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
  return DispatchRadixSort<Order, KeyT, ValueT, OffsetT, identity_decomposer_t, policy_hub<KeyT, ValueT, OffsetT>,
                           ValuesInputIteratorT>::DispatchFromIterator(d_temp_storage, temp_storage_bytes, d_keys,
                                                                       d_values_in, d_values_out,
                                                                       static_cast<OffsetT>(num_items), begin_bit,
                                                                       end_bit, stream);
}

//! Whether DecomposerT is a decomposer rather than a bit index (CUB's overload rule).
template <typename DecomposerT>
inline constexpr bool is_decomposer_v = !::cuda::std::is_convertible_v<DecomposerT, int>;
} // namespace radix
} // namespace detail

//! Device-wide radix sorts: keys (and values, moved with their keys) sorted by the bits
//! [begin_bit, end_bit) of each key, stably (equal keys keep their input order). Keys are
//! integers, bool, floating-point types (__half, __nv_bfloat16, float, double: -0.0 and +0.0 are
//! equal, negative NaNs sort first and positive ones last) or, through a decomposer, structs of
//! such members; values are any trivially copyable type (those over 256 bytes are sorted as 4-byte
//! indices and gathered after: 8 more bytes of temporary storage per item, at most 2^32 - 2 items).
//!
//! The pointer forms read `d_keys_in` and write `d_keys_out`; their temporary storage holds a
//! buffer of the keys and values for the passes between. The DoubleBuffer forms use both of the
//! caller's buffers and need less temporary storage; afterwards `d_keys.Current()` holds the
//! result (the selector tells which buffer), and the other buffer's contents are undefined.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. Errors (a bit range outside the key, a
//! negative count, a null buffer, too little temporary storage) are returned as
//! cudaErrorInvalidValue before anything is written. A DoubleBuffer form with no bits to sort by
//! (begin_bit == end_bit) reads and writes nothing, so its buffers may be null (as in CUB).
//!
//! \code
//! // keys {8, 6, 7, 5, 3, 0, 9} with values {0, 1, 2, 3, 4, 5, 6}
//! size_t bytes = 0;
//! strata::DeviceRadixSort::SortPairs(nullptr, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, 7);
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, 7);
//! // d_keys_out {0, 3, 5, 6, 7, 8, 9}, d_values_out {5, 4, 3, 1, 2, 0, 6}
//! \endcode
struct DeviceRadixSort
{
  //! \name SortPairs
  //! \{

  template <typename KeyT, typename ValueT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
            const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, int begin_bit = 0,
            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairs");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> d_values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                    num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                    stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
            const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer, int begin_bit,
            int end_bit, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairs");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> d_values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                    num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
            const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairs");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> d_values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                    num_items, decomposer, 0,
                                                    detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes,
                                                       DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                                       NumItemsT num_items, int begin_bit = 0,
                                                       int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairs");
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                    num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                    stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
            DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,
            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairs");
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                    num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
            DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairs");
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                    num_items, decomposer, 0,
                                                    detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  //! \}

  //! \name Beyond CUB: values read through an iterator
  //! The pointer forms of SortPairs and SortPairsDescending also take the values as any
  //! random-access input iterator (its items convert to ValueT): an argsort needs no array of
  //! positions. The values are read once, in the first pass.
  //!
  //! \code
  //! strata::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out,
  //!                                    strata::CountingInputIterator<int>(0), d_order, n);
  //! \endcode
  //! \{

  template <typename KeyT, typename ValuesInputIteratorT, typename ValueT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<!::cuda::std::is_pointer_v<ValuesInputIteratorT>, cudaError_t>
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
            ValuesInputIteratorT d_values_in, ValueT* d_values_out, NumItemsT num_items, int begin_bit = 0,
            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairs");
    return detail::radix::RunFromIterator<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                d_keys_out, d_values_in, d_values_out, num_items,
                                                                begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename ValuesInputIteratorT, typename ValueT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<!::cuda::std::is_pointer_v<ValuesInputIteratorT>, cudaError_t>
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      ValuesInputIteratorT d_values_in, ValueT* d_values_out, NumItemsT num_items, int begin_bit = 0,
                      int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairsDescending");
    return detail::radix::RunFromIterator<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                 d_keys_out, d_values_in, d_values_out, num_items,
                                                                 begin_bit, end_bit, stream);
  }

  //! \}

  //! \name SortPairsDescending
  //! \{

  template <typename KeyT, typename ValueT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, int begin_bit = 0,
                      int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairsDescending");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> d_values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                     num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                     stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
                      int begin_bit, int end_bit, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairsDescending");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> d_values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                     num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, DecomposerT decomposer,
                      cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairsDescending");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> d_values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::radix::Run<SortOrder::Descending>(
        d_temp_storage, temp_storage_bytes, false, d_keys, d_values, num_items, decomposer, 0,
        detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                      DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,
                      int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairsDescending");
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                     num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                     stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                      DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer, int begin_bit,
                      int end_bit, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairsDescending");
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                     num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                      DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,
                      cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortPairsDescending");
    return detail::radix::Run<SortOrder::Descending>(
        d_temp_storage, temp_storage_bytes, true, d_keys, d_values, num_items, decomposer, 0,
        detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  //! \}

  //! \name SortKeys
  //! \{

  template <typename KeyT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
           NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                    num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                    stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
           NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                    num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
           NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                    num_items, decomposer, 0,
                                                    detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  template <typename KeyT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
           int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                    num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                    stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
           DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                    num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
           DecomposerT decomposer, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                    num_items, decomposer, 0,
                                                    detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  //! \}

  //! \name SortKeysDescending
  //! \{

  template <typename KeyT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                     NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                     num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                     stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                     NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, d_keys, d_values,
                                                     num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                     NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<KeyT> d_keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Descending>(
        d_temp_storage, temp_storage_bytes, false, d_keys, d_values, num_items, decomposer, 0,
        detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  template <typename KeyT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
                     int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                     num_items, detail::identity_decomposer_t{}, begin_bit, end_bit,
                                                     stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
                     DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                     num_items, decomposer, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<detail::radix::is_decomposer_v<DecomposerT>, cudaError_t>
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
                     DecomposerT decomposer, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> d_values;
    return detail::radix::Run<SortOrder::Descending>(
        d_temp_storage, temp_storage_bytes, true, d_keys, d_values, num_items, decomposer, 0,
        detail::radix::traits_t<KeyT>::default_end_bit(decomposer), stream);
  }

  //! \}
};

STRATA_NAMESPACE_END

// strata/device/device_segmented_sort.cuh: DeviceSegmentedSort, sorts of many independent
// segments of one array at once (keys, or keys with values; ascending or descending), with CUB's
// two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_segmented_sort.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

//! Sorts of segments: segment i is the items [d_begin_offsets[i], d_end_offsets[i]) of the keys
//! (and values), sorted within itself by the whole key. Keys are integers, bool or floating-point
//! types (-0.0 and +0.0 are equal; negative NaNs sort first, positive ones last); values are any
//! trivially copyable type. Every function here sorts stably, so the StableSort forms and the Sort
//! forms behave alike (CUB documents the Sort forms as unstable; stable satisfies that too).
//!
//! The offsets are any random-access iterators of integers; a segment whose end is not past its
//! begin is empty; segments must not overlap; items outside every segment are left as they are in
//! the output. Counts are 64-bit. The pointer forms read the inputs and write the outputs; the
//! DoubleBuffer forms use both of the caller's buffers, and afterwards `d_keys.Current()` (and
//! `d_values.Current()`) hold the result. The sorts share DeviceSegmentedRadixSort's machinery
//! (values of more than 32 bytes are sorted as indices and gathered; see there).
//!
//! Errors: cudaErrorInvalidValue for negative counts or null pointers where items are to be read
//! or written.
struct DeviceSegmentedSort
{
  //! Sorts each segment's keys, ascending, from the input arrays into the output arrays.
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
           ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
           EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortKeys");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys, ascending; the result lands in d_keys.Current().
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, ::cuda::std::int64_t num_items,
           ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
           cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortKeys");
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys, descending, from the input arrays into the output arrays.
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                     ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                     BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortKeysDescending");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              0, int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys, descending; the result lands in d_keys.Current().
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                     ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                     BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              0, int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys, ascending (stably, as every function here), from the input arrays into the output
  //! arrays.
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                 ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortKeys");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys, ascending (stably, as every function here); the result lands in d_keys.Current().
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                 ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortKeys");
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys, descending (stably, as every function here), from the input arrays into the output
  //! arrays.
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                           ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                           cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortKeysDescending");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              0, int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys, descending (stably, as every function here); the result lands in d_keys.Current().
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                           ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                           cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortKeysDescending");
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              0, int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, ascending, from the input arrays into the output arrays.
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
            const ValueT* d_values_in, ValueT* d_values_out, ::cuda::std::int64_t num_items,
            ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortPairs");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, ascending; the result lands in d_keys.Current() and d_values.Current().
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
            DoubleBuffer<ValueT>& d_values, ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
            BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortPairs");
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, descending, from the input arrays into the output arrays.
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      const ValueT* d_values_in, ValueT* d_values_out, ::cuda::std::int64_t num_items,
                      ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                      EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortPairsDescending");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              0, int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, descending; the result lands in d_keys.Current() and d_values.Current().
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                      DoubleBuffer<ValueT>& d_values, ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                      BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::SortPairsDescending");
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys,
                                                              d_values, num_items, num_segments, d_begin_offsets,
                                                              d_end_offsets, 0, int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, ascending (stably, as every function here), from the input arrays into the
  //! output arrays.
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                  const ValueT* d_values_in, ValueT* d_values_out, ::cuda::std::int64_t num_items,
                  ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                  EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortPairs");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, ascending (stably, as every function here); the result lands in
  //! d_keys.Current() and d_values.Current().
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                  DoubleBuffer<ValueT>& d_values, ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                  BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortPairs");
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets, 0,
                                                             int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, descending (stably, as every function here), from the input arrays into the
  //! output arrays.
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                            const ValueT* d_values_in, ValueT* d_values_out, ::cuda::std::int64_t num_items,
                            ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                            EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortPairsDescending");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              0, int(sizeof(KeyT) * 8), stream);
  }

  //! Sorts each segment's keys and values, descending (stably, as every function here); the result lands in
  //! d_keys.Current() and d_values.Current().
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  StableSortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                            DoubleBuffer<ValueT>& d_values, ::cuda::std::int64_t num_items,
                            ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                            EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedSort::StableSortPairsDescending");
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys,
                                                              d_values, num_items, num_segments, d_begin_offsets,
                                                              d_end_offsets, 0, int(sizeof(KeyT) * 8), stream);
  }
};

STRATA_NAMESPACE_END

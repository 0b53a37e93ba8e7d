// strata/device/device_segmented_radix_sort.cuh: DeviceSegmentedRadixSort, stable radix sorts of
// many independent segments of one array at once (keys, or keys with values; ascending or
// descending; all bits or a bit range), with CUB's two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_segmented_sort.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

//! Radix sorts of segments: segment i is the items [d_begin_offsets[i], d_end_offsets[i]) of the
//! keys (and values), sorted within itself by the key bits [begin_bit, end_bit), stably. Keys are
//! integers, bool or floating-point types (-0.0 and +0.0 are equal); values are any trivially
//! copyable type. The offsets are any random-access iterators of integers (a transform of a
//! counting iterator gives fixed-size segments without an offsets array); a segment whose end is
//! not past its begin is empty. Segments must not overlap; items outside every segment are left as
//! they are in the output. Counts are 64-bit: more than 2^31 items or segments are sorted (CUB's
//! segmented sorts take int counts, which convert).
//!
//! The pointer forms read the inputs and write the outputs; their temporary storage holds a
//! buffer of the keys and values for the passes between. The DoubleBuffer forms use both of the
//! caller's buffers: afterwards `d_keys.Current()` (and `d_values.Current()`) hold the result.
//!
//! Segments are binned by length and each bin is sorted by the tool that fits it: a few lanes of a
//! warp, a warp, a block in shared memory, or (beyond a block's tile) onesweep passes whose
//! look-back stays inside the segment, so that many short segments never pay for device-wide
//! passes and a few long ones run as fast as a plain radix sort. Values of more than 32 bytes are
//! sorted as 4-byte indices beside the keys and gathered after (8 more bytes of temporary storage
//! per item; at most 2^32 - 2 items).
//!
//! Errors: cudaErrorInvalidValue for negative counts, a bit range outside the key, or null
//! pointers where items are to be read or written. A DoubleBuffer form with no bits to sort by
//! (begin_bit == end_bit) reads and writes nothing, so its buffers may be null (as in CUB).
struct DeviceSegmentedRadixSort
{
  //! Sorts each segment's keys and values, ascending by the bits [begin_bit, end_bit); from the input arrays into the
  //! output arrays.
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
            const ValueT* d_values_in, ValueT* d_values_out, ::cuda::std::int64_t num_items,
            ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
            int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortPairs");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                             begin_bit, end_bit, stream);
  }

  //! Sorts each segment's keys and values, ascending by the bits [begin_bit, end_bit); the result lands in
  //! d_keys.Current() and d_values.Current().
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
            DoubleBuffer<ValueT>& d_values, ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
            BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortPairs");
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, d_values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                             begin_bit, end_bit, stream);
  }

  //! Sorts each segment's keys and values, descending by the bits [begin_bit, end_bit); from the input arrays into the
  //! output arrays.
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      const ValueT* d_values_in, ValueT* d_values_out, ::cuda::std::int64_t num_items,
                      ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                      EndOffsetIteratorT d_end_offsets, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                      cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortPairsDescending");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              begin_bit, end_bit, stream);
  }

  //! Sorts each segment's keys and values, descending by the bits [begin_bit, end_bit); the result lands in
  //! d_keys.Current() and d_values.Current().
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                      DoubleBuffer<ValueT>& d_values, ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                      BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                      int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortPairsDescending");
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys,
                                                              d_values, num_items, num_segments, d_begin_offsets,
                                                              d_end_offsets, begin_bit, end_bit, stream);
  }

  //! Sorts each segment's keys, ascending by the bits [begin_bit, end_bit); from the input arrays into the output
  //! arrays.
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
           ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
           EndOffsetIteratorT d_end_offsets, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortKeys");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                             begin_bit, end_bit, stream);
  }

  //! Sorts each segment's keys, ascending by the bits [begin_bit, end_bit); the result lands in d_keys.Current().
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, ::cuda::std::int64_t num_items,
           ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
           int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Ascending>(d_temp_storage, temp_storage_bytes, true, d_keys, values,
                                                             num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                             begin_bit, end_bit, stream);
  }

  //! Sorts each segment's keys, descending by the bits [begin_bit, end_bit); from the input arrays into the output
  //! arrays.
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                     ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                     BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                     int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortKeysDescending");
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, false, keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              begin_bit, end_bit, stream);
  }

  //! Sorts each segment's keys, descending by the bits [begin_bit, end_bit); the result lands in d_keys.Current().
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                     ::cuda::std::int64_t num_items, ::cuda::std::int64_t num_segments,
                     BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                     int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceSegmentedRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return detail::segmented_sort::Run<SortOrder::Descending>(d_temp_storage, temp_storage_bytes, true, d_keys, values,
                                                              num_items, num_segments, d_begin_offsets, d_end_offsets,
                                                              begin_bit, end_bit, stream);
  }
};

STRATA_NAMESPACE_END

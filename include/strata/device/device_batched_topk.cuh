// strata/device/device_batched_topk.cuh: DeviceBatchedTopK, the k largest or smallest keys of each
// of many segments (with their values, for pairs), in order, with CUB 3.5's parameter lists, its
// two-phase temporary-storage convention and its single-call forms.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/detail/single_call.cuh>
#include <strata/device/dispatch/dispatch_batched_topk.cuh>
#include <strata/util_type.cuh>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace topk
{
template <select SELECT, typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename ValueInputIteratorItT,
          typename ValueOutputIteratorItT, typename SegmentSizeParameterT, typename KParameterT,
          typename NumSegmentsParameterT>
STRATA_RUNTIME_FUNCTION cudaError_t BatchedTopK(void* d_temp_storage, size_t& temp_storage_bytes,
                                                KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out,
                                                ValueInputIteratorItT d_values_in, ValueOutputIteratorItT d_values_out,
                                                SegmentSizeParameterT segment_sizes, KParameterT k,
                                                NumSegmentsParameterT num_segments, cudaStream_t stream)
{
  return DispatchBatchedTopK<SELECT, KeyInputIteratorItT, KeyOutputIteratorItT, ValueInputIteratorItT,
                             ValueOutputIteratorItT, SegmentSizeParameterT,
                             KParameterT>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                    d_values_in, d_values_out, segment_sizes, k, num_segments, stream);
}
} // namespace topk
} // namespace detail

//! For each of `num_segments` segments, the k largest (Max*) or smallest (Min*) of its keys, in
//! order: the best first and, among equal keys, the earlier item first, the same on every run and
//! every GPU (DeviceTopK's contract, segment by segment). `d_keys_in[i]` is an iterator to segment
//! i's keys and `d_keys_out[i]` one to where its k best go (likewise the values of pairs). Keys are
//! ordered as DeviceRadixSort orders them.
//!
//! `segment_sizes` and `k` are each a plain integer, the same for every segment, or an iterator over
//! device-accessible integers, one per segment; `num_segments` is an integer. Segments may hold
//! from 0 to more than 2^31 items (a 64-bit size type); each is selected by one thread block. CUB
//! 3.5 spells these parameters with `cuda::args` annotations, which the toolkit's libcu++ (CUDA
//! 13.0) does not have; the environment is likewise a stream. No temporary storage is used beyond
//! the one byte the size query reports.
//!
//! Bad input the host can see (a negative count, k < 0, a uniform k above a uniform segment size,
//! a null buffer) returns cudaErrorInvalidValue before anything is written. Values read from device
//! memory cannot be checked before the kernel runs: there a negative size or k counts as 0, and a
//! k above its segment's size selects the whole segment (its first `size` outputs are written).
//!
//! \code
//! // d_keys_in[i]: segment i (float*), d_sizes[i]: its size; the 50 largest of each, largest first
//! size_t bytes = 0;
//! strata::DeviceBatchedTopK::MaxKeys(nullptr, bytes, d_keys_in, d_keys_out, d_sizes, 50, num_segments);
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceBatchedTopK::MaxKeys(d_temp, bytes, d_keys_in, d_keys_out, d_sizes, 50, num_segments);
//! \endcode
struct DeviceBatchedTopK
{
  //! The k largest keys of each segment, each with its value.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename ValueInputIteratorItT,
            typename ValueOutputIteratorItT, typename SegmentSizeParameterT, typename KParameterT,
            typename NumSegmentsParameterT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MaxPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorItT d_keys_in,
           KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in, ValueOutputIteratorItT d_values_out,
           SegmentSizeParameterT segment_sizes, KParameterT k, NumSegmentsParameterT num_segments,
           cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceBatchedTopK::MaxPairs");
    return detail::topk::BatchedTopK<detail::topk::select::max>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                d_keys_out, d_values_in, d_values_out, segment_sizes, k,
                                                                num_segments, stream);
  }

  //! MaxPairs with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename ValueInputIteratorItT,
            typename ValueOutputIteratorItT, typename SegmentSizeParameterT, typename KParameterT,
            typename NumSegmentsParameterT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  MaxPairs(KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in,
           ValueOutputIteratorItT d_values_out, SegmentSizeParameterT segment_sizes, KParameterT k,
           NumSegmentsParameterT num_segments, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceBatchedTopK::MaxPairs");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::BatchedTopK<detail::topk::select::max>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                              d_values_out, segment_sizes, k, num_segments, stream);
                                        });
  }

  //! The k largest keys of each segment.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename SegmentSizeParameterT,
            typename KParameterT, typename NumSegmentsParameterT>
  STRATA_RUNTIME_FUNCTION static cudaError_t MaxKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out,
                                                     SegmentSizeParameterT segment_sizes, KParameterT k,
                                                     NumSegmentsParameterT num_segments, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceBatchedTopK::MaxKeys");
    return detail::topk::BatchedTopK<detail::topk::select::max>(
        d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<NullType**>(nullptr),
        static_cast<NullType**>(nullptr), segment_sizes, k, num_segments, stream);
  }

  //! MaxKeys with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename SegmentSizeParameterT,
            typename KParameterT, typename NumSegmentsParameterT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  MaxKeys(KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out, SegmentSizeParameterT segment_sizes,
          KParameterT k, NumSegmentsParameterT num_segments, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceBatchedTopK::MaxKeys");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::BatchedTopK<detail::topk::select::max>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                              static_cast<NullType**>(nullptr), static_cast<NullType**>(nullptr),
                                              segment_sizes, k, num_segments, stream);
                                        });
  }

  //! The k smallest keys of each segment, each with its value.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename ValueInputIteratorItT,
            typename ValueOutputIteratorItT, typename SegmentSizeParameterT, typename KParameterT,
            typename NumSegmentsParameterT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MinPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorItT d_keys_in,
           KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in, ValueOutputIteratorItT d_values_out,
           SegmentSizeParameterT segment_sizes, KParameterT k, NumSegmentsParameterT num_segments,
           cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceBatchedTopK::MinPairs");
    return detail::topk::BatchedTopK<detail::topk::select::min>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                d_keys_out, d_values_in, d_values_out, segment_sizes, k,
                                                                num_segments, stream);
  }

  //! MinPairs with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename ValueInputIteratorItT,
            typename ValueOutputIteratorItT, typename SegmentSizeParameterT, typename KParameterT,
            typename NumSegmentsParameterT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  MinPairs(KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out, ValueInputIteratorItT d_values_in,
           ValueOutputIteratorItT d_values_out, SegmentSizeParameterT segment_sizes, KParameterT k,
           NumSegmentsParameterT num_segments, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceBatchedTopK::MinPairs");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::BatchedTopK<detail::topk::select::min>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                              d_values_out, segment_sizes, k, num_segments, stream);
                                        });
  }

  //! The k smallest keys of each segment.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename SegmentSizeParameterT,
            typename KParameterT, typename NumSegmentsParameterT>
  STRATA_RUNTIME_FUNCTION static cudaError_t MinKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out,
                                                     SegmentSizeParameterT segment_sizes, KParameterT k,
                                                     NumSegmentsParameterT num_segments, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceBatchedTopK::MinKeys");
    return detail::topk::BatchedTopK<detail::topk::select::min>(
        d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<NullType**>(nullptr),
        static_cast<NullType**>(nullptr), segment_sizes, k, num_segments, stream);
  }

  //! MinKeys with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorItT, typename KeyOutputIteratorItT, typename SegmentSizeParameterT,
            typename KParameterT, typename NumSegmentsParameterT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  MinKeys(KeyInputIteratorItT d_keys_in, KeyOutputIteratorItT d_keys_out, SegmentSizeParameterT segment_sizes,
          KParameterT k, NumSegmentsParameterT num_segments, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceBatchedTopK::MinKeys");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::BatchedTopK<detail::topk::select::min>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                              static_cast<NullType**>(nullptr), static_cast<NullType**>(nullptr),
                                              segment_sizes, k, num_segments, stream);
                                        });
  }
};

STRATA_NAMESPACE_END

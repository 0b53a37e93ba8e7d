// strata/device/device_merge.cuh: DeviceMerge, the device-wide stable merge of two sorted inputs
// (keys, or key-value pairs) by any strict weak order, with CUB's two-phase temporary-storage
// convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_merge.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN

//! Device-wide merges: two inputs, each sorted by `compare_op` (a strict weak order callable on the
//! keys in device code), become one sorted output; equal keys keep the first input's before the
//! second's, each in its input order. Keys and values are read and written through random-access
//! iterators; the output must not overlap the inputs.
//!
//! Both functions are two-phase calls: with `d_temp_storage == nullptr` they write the bytes they
//! need to `temp_storage_bytes` and do nothing else (a merge of a few million items or more needs
//! a word per tile of the output, smaller ones a byte). Errors (a negative count, a null pointer,
//! too little temporary storage) are returned as cudaErrorInvalidValue before anything is written.
//!
//! \code
//! // keys1 {1, 3, 5}, keys2 {2, 3, 4, 9}
//! size_t bytes = 0;
//! strata::DeviceMerge::MergeKeys(nullptr, bytes, d_keys1, 3, d_keys2, 4, d_out);
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceMerge::MergeKeys(d_temp, bytes, d_keys1, 3, d_keys2, 4, d_out);
//! // d_out {1, 2, 3, 3, 4, 5, 9}: the first 3 is keys1's
//! \endcode
struct DeviceMerge
{
  //! Merges keys_in1[0, num_keys1) and keys_in2[0, num_keys2) into keys_out.
  template <typename KeyIteratorIn1, typename KeyIteratorIn2, typename KeyIteratorOut,
            typename CompareOp = ::cuda::std::less<>>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MergeKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorIn1 keys_in1, ::cuda::std::int64_t num_keys1,
            KeyIteratorIn2 keys_in2, ::cuda::std::int64_t num_keys2, KeyIteratorOut keys_out, CompareOp compare_op = {},
            cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMerge::MergeKeys");
    return detail::merge::dispatch_t<KeyIteratorIn1, NullType*, KeyIteratorIn2, NullType*, KeyIteratorOut, NullType*,
                                     ::cuda::std::int64_t, CompareOp>::dispatch(d_temp_storage, temp_storage_bytes,
                                                                                keys_in1, nullptr, num_keys1, keys_in2,
                                                                                nullptr, num_keys2, keys_out, nullptr,
                                                                                compare_op, stream);
  }

  //! Merges the pairs of (keys_in1, values_in1)[0, num_pairs1) and (keys_in2, values_in2)[0,
  //! num_pairs2) into keys_out and values_out.
  template <typename KeyIteratorIn1, typename ValueIteratorIn1, typename KeyIteratorIn2, typename ValueIteratorIn2,
            typename KeyIteratorOut, typename ValueIteratorOut, typename CompareOp = ::cuda::std::less<>>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MergePairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorIn1 keys_in1, ValueIteratorIn1 values_in1,
             ::cuda::std::int64_t num_pairs1, KeyIteratorIn2 keys_in2, ValueIteratorIn2 values_in2,
             ::cuda::std::int64_t num_pairs2, KeyIteratorOut keys_out, ValueIteratorOut values_out,
             CompareOp compare_op = {}, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceMerge::MergePairs");
    return detail::merge::dispatch_t<KeyIteratorIn1, ValueIteratorIn1, KeyIteratorIn2, ValueIteratorIn2, KeyIteratorOut,
                                     ValueIteratorOut, ::cuda::std::int64_t, CompareOp>::dispatch(d_temp_storage,
                                                                                                  temp_storage_bytes,
                                                                                                  keys_in1, values_in1,
                                                                                                  num_pairs1, keys_in2,
                                                                                                  values_in2,
                                                                                                  num_pairs2, keys_out,
                                                                                                  values_out,
                                                                                                  compare_op, stream);
  }
};

STRATA_NAMESPACE_END

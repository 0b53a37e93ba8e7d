// strata/device/device_run_length_encode.cuh: DeviceRunLengthEncode, the runs of consecutive equal
// items of a sequence (Encode, NonTrivialRuns), with CUB's two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_rle.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN

//! Device-wide run-length encoding: a run is a maximal sequence of consecutive items equal under
//! operator==. The number of runs written goes to `*d_num_runs_out`, in device memory (the call
//! does not wait for the GPU).
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. `num_items` is 64-bit (CUB's is int): more
//! than 2^31 items work. Errors (a negative count, a null pointer on the second call, too little
//! temporary storage) are returned as cudaErrorInvalidValue before anything is written. An empty
//! input writes 0 runs.
//!
//! \code
//! // d_in {0, 2, 2, 9, 5, 5, 5, 8}
//! strata::DeviceRunLengthEncode::Encode(d_temp, bytes, d_in, d_unique_out, d_counts_out,
//!                                       d_num_runs_out, 8);
//! // d_unique_out {0, 2, 9, 5, 8}, d_counts_out {1, 2, 1, 3, 1}, *d_num_runs_out 5
//! strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp, bytes, d_in, d_offsets_out,
//!                                               d_lengths_out, d_num_runs_out, 8);
//! // d_offsets_out {1, 4}, d_lengths_out {2, 3}, *d_num_runs_out 2
//! \endcode
struct DeviceRunLengthEncode
{
  //! For the r-th run: its item to d_unique_out[r], its length to d_counts_out[r].
  template <typename InputIteratorT, typename UniqueOutputIteratorT, typename LengthsOutputIteratorT,
            typename NumRunsOutputIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Encode(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, UniqueOutputIteratorT d_unique_out,
         LengthsOutputIteratorT d_counts_out, NumRunsOutputIteratorT d_num_runs_out, ::cuda::std::int64_t num_items,
         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceRunLengthEncode::Encode");
    // A run's length is its end minus its start: no reduction of ones (CUB's way) is needed.
    using LengthT    = detail::non_void_value_t<LengthsOutputIteratorT, ::cuda::std::int64_t>;
    using PolicyHubT = detail::rle::encode::policy_hub<LengthT, detail::it_value_t<InputIteratorT>>;
    return detail::rle::Dispatch<typename PolicyHubT::MaxPolicy, false>(d_temp_storage, temp_storage_bytes, d_in,
                                                                        d_unique_out, d_counts_out, d_num_runs_out,
                                                                        ::cuda::std::equal_to<>{}, num_items, stream);
  }

  //! For the r-th run of more than one item: its offset in d_in to d_offsets_out[r], its length to
  //! d_lengths_out[r].
  template <typename InputIteratorT, typename OffsetsOutputIteratorT, typename LengthsOutputIteratorT,
            typename NumRunsOutputIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  NonTrivialRuns(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                 OffsetsOutputIteratorT d_offsets_out, LengthsOutputIteratorT d_lengths_out,
                 NumRunsOutputIteratorT d_num_runs_out, ::cuda::std::int64_t num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceRunLengthEncode::NonTrivialRuns");
    return DeviceRleDispatch<InputIteratorT, OffsetsOutputIteratorT, LengthsOutputIteratorT, NumRunsOutputIteratorT,
                             ::cuda::std::equal_to<>, ::cuda::std::int64_t>::Dispatch(d_temp_storage,
                                                                                      temp_storage_bytes, d_in,
                                                                                      d_offsets_out, d_lengths_out,
                                                                                      d_num_runs_out,
                                                                                      ::cuda::std::equal_to<>{},
                                                                                      num_items, stream);
  }
};

STRATA_NAMESPACE_END

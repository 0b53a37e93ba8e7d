// strata/device/device_segmented_scan.cuh: DeviceSegmentedScan (CUB 3.5), a scan of every segment
// of an input, inclusive or exclusive, each restarting at its segment's first item, with CUB's
// two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/detail/single_call.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/dispatch/dispatch_segmented_scan.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace segmented_scan
{
//! Checks the offsets' value types and dispatches (MODE, accumulating in AccumT).
template <mode MODE, typename AccumT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename ScanOpT, typename InitValueT>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                        OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                                        EndOffsetIteratorT d_end_offsets, OutBeginOffsetIteratorT d_out_begin_offsets,
                                        ::cuda::std::int64_t num_segments, ScanOpT scan_op, InitValueT init_value,
                                        cudaStream_t stream)
{
  static_assert(
      ::cuda::std::is_integral_v<it_value_t<
              BeginOffsetIteratorT>> && ::cuda::std::is_integral_v<it_value_t<EndOffsetIteratorT>> && ::cuda::std::is_integral_v<it_value_t<OutBeginOffsetIteratorT>>,
      "the offsets must be of an integral type");
  return DispatchSegmentedScan<MODE, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT,
                               OutBeginOffsetIteratorT, ScanOpT, InitValueT, AccumT>::Dispatch(d_temp_storage,
                                                                                               temp_storage_bytes, d_in,
                                                                                               d_out, d_begin_offsets,
                                                                                               d_end_offsets,
                                                                                               d_out_begin_offsets,
                                                                                               num_segments, scan_op,
                                                                                               init_value, stream);
}
} // namespace segmented_scan
} // namespace detail

//! Device-wide segmented scans (CUB 3.5): segment s is d_in[d_in_begin_offsets[s],
//! d_in_end_offsets[s]) (empty where the end is not past the begin), and its results go to d_out
//! from d_out_begin_offsets[s] (d_in_begin_offsets[s] in the forms without output offsets). The
//! segments may lie anywhere in the input, in any order, with gaps; d_in and d_out may be the same
//! (in place), and must not overlap otherwise. However long or short the segments, the work is
//! one line of all their items, cut into equal tiles: a long segment spans many tiles, many short
//! ones share one.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. A negative `num_segments`, a null pointer
//! on the second call, or too little temporary storage returns cudaErrorInvalidValue before
//! anything is written. The scan operator must be associative. Where CUB takes an environment,
//! strata takes a `cudaStream_t`; each also has a single-call form that allocates its temporary
//! storage on the stream.
//!
//! \code
//! // d_in {8, 6, 7, 5, 3, -2, 9}, d_offsets {0, 2, 5, 7}
//! strata::DeviceSegmentedScan::ExclusiveSegmentedSum(d_temp, bytes, d_in, d_out, d_offsets, d_offsets + 1, 3);
//! // d_out {0, 8, 0, 7, 12, 0, -2}
//! \endcode
struct DeviceSegmentedScan
{
  //! d_out[i] = the sum of its segment's items up to and including item i. Segment s is written from
  //! d_out_begin_offsets[s].
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                        BeginOffsetIteratorOutputT d_out_begin_offsets, ::cuda::std::int64_t num_segments,
                        cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedScan::InclusiveSegmentedSum");
    using AccumT = detail::scan::sum_accumulator_t<detail::it_value_t<InputIteratorT>, OutputIteratorT>;
    return detail::segmented_scan::Run<detail::segmented_scan::mode::inclusive, AccumT>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets,
        num_segments, ::cuda::std::plus<>{}, NullType{}, stream);
  }

  //! InclusiveSegmentedSum, each segment written where it lies in the input.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                        ::cuda::std::int64_t num_segments, cudaStream_t stream = nullptr)
  {
    return InclusiveSegmentedSum(d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets,
                                 d_in_begin_offsets, num_segments, stream);
  }

  //! InclusiveSegmentedSum with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                        EndOffsetIteratorInputT d_in_end_offsets, BeginOffsetIteratorOutputT d_out_begin_offsets,
                        ::cuda::std::int64_t num_segments, cudaStream_t stream = nullptr)
  {
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return InclusiveSegmentedSum(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                       d_in_begin_offsets, d_in_end_offsets,
                                                                       d_out_begin_offsets, num_segments, stream);
                                        });
  }

  //! InclusiveSegmentedSum, each segment written where it lies in the input, with its temporary storage
  //! allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                        EndOffsetIteratorInputT d_in_end_offsets, ::cuda::std::int64_t num_segments,
                        cudaStream_t stream = nullptr)
  {
    return InclusiveSegmentedSum(d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_in_begin_offsets, num_segments,
                                 stream);
  }

  //! d_out[i] = the sum of its segment's items before item i (0 for a segment's first). Segment s is written from
  //! d_out_begin_offsets[s].
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                        BeginOffsetIteratorOutputT d_out_begin_offsets, ::cuda::std::int64_t num_segments,
                        cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedScan::ExclusiveSegmentedSum");
    using AccumT = detail::scan::sum_accumulator_t<detail::it_value_t<InputIteratorT>, OutputIteratorT>;
    return detail::segmented_scan::Run<detail::segmented_scan::mode::exclusive, AccumT>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets,
        num_segments, ::cuda::std::plus<>{}, AccumT{}, stream);
  }

  //! ExclusiveSegmentedSum, each segment written where it lies in the input.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                        ::cuda::std::int64_t num_segments, cudaStream_t stream = nullptr)
  {
    return ExclusiveSegmentedSum(d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets,
                                 d_in_begin_offsets, num_segments, stream);
  }

  //! ExclusiveSegmentedSum with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                        EndOffsetIteratorInputT d_in_end_offsets, BeginOffsetIteratorOutputT d_out_begin_offsets,
                        ::cuda::std::int64_t num_segments, cudaStream_t stream = nullptr)
  {
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return ExclusiveSegmentedSum(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                       d_in_begin_offsets, d_in_end_offsets,
                                                                       d_out_begin_offsets, num_segments, stream);
                                        });
  }

  //! ExclusiveSegmentedSum, each segment written where it lies in the input, with its temporary storage
  //! allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                        EndOffsetIteratorInputT d_in_end_offsets, ::cuda::std::int64_t num_segments,
                        cudaStream_t stream = nullptr)
  {
    return ExclusiveSegmentedSum(d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_in_begin_offsets, num_segments,
                                 stream);
  }

  //! d_out[i] = scan_op over its segment's items up to and including item i, in order. Segment s is written from
  //! d_out_begin_offsets[s].
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT, typename ScanOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                         BeginOffsetIteratorOutputT d_out_begin_offsets, ::cuda::std::int64_t num_segments,
                         ScanOpT scan_op, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedScan::InclusiveSegmentedScan");
    using AccumT =
        detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, detail::it_value_t<InputIteratorT>>;
    return detail::segmented_scan::Run<detail::segmented_scan::mode::inclusive, AccumT>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets,
        num_segments, scan_op, NullType{}, stream);
  }

  //! InclusiveSegmentedScan, each segment written where it lies in the input.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename ScanOpT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                         ::cuda::std::int64_t num_segments, ScanOpT scan_op, cudaStream_t stream = nullptr)
  {
    return InclusiveSegmentedScan(d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets,
                                  d_in_begin_offsets, num_segments, scan_op, stream);
  }

  //! InclusiveSegmentedScan with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT, typename ScanOpT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                         EndOffsetIteratorInputT d_in_end_offsets, BeginOffsetIteratorOutputT d_out_begin_offsets,
                         ::cuda::std::int64_t num_segments, ScanOpT scan_op, cudaStream_t stream = nullptr)
  {
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return InclusiveSegmentedScan(
                                              d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets,
                                              d_in_end_offsets, d_out_begin_offsets, num_segments, scan_op, stream);
                                        });
  }

  //! InclusiveSegmentedScan, each segment written where it lies in the input, with its temporary storage
  //! allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename ScanOpT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                         EndOffsetIteratorInputT d_in_end_offsets, ::cuda::std::int64_t num_segments, ScanOpT scan_op,
                         cudaStream_t stream = nullptr)
  {
    return InclusiveSegmentedScan(d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_in_begin_offsets, num_segments,
                                  scan_op, stream);
  }

  //! d_out[i] = init_value, then scan_op with each of its segment's items before item i, in order. Segment s is written
  //! from d_out_begin_offsets[s].
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT, typename ScanOpT,
            typename InitValueT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                         BeginOffsetIteratorOutputT d_out_begin_offsets, ::cuda::std::int64_t num_segments,
                         ScanOpT scan_op, InitValueT init_value, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedScan::ExclusiveSegmentedScan");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    return detail::segmented_scan::Run<detail::segmented_scan::mode::exclusive, AccumT>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets,
        num_segments, scan_op, init_value, stream);
  }

  //! ExclusiveSegmentedScan, each segment written where it lies in the input.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename ScanOpT, typename InitValueT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         BeginOffsetIteratorInputT d_in_begin_offsets, EndOffsetIteratorInputT d_in_end_offsets,
                         ::cuda::std::int64_t num_segments, ScanOpT scan_op, InitValueT init_value,
                         cudaStream_t stream = nullptr)
  {
    return ExclusiveSegmentedScan(d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets,
                                  d_in_begin_offsets, num_segments, scan_op, init_value, stream);
  }

  //! ExclusiveSegmentedScan with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT, typename ScanOpT,
            typename InitValueT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                         EndOffsetIteratorInputT d_in_end_offsets, BeginOffsetIteratorOutputT d_out_begin_offsets,
                         ::cuda::std::int64_t num_segments, ScanOpT scan_op, InitValueT init_value,
                         cudaStream_t stream = nullptr)
  {
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return ExclusiveSegmentedScan(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                        d_in_begin_offsets, d_in_end_offsets,
                                                                        d_out_begin_offsets, num_segments, scan_op,
                                                                        init_value, stream);
                                        });
  }

  //! ExclusiveSegmentedScan, each segment written where it lies in the input, with its temporary storage
  //! allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename ScanOpT, typename InitValueT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                         EndOffsetIteratorInputT d_in_end_offsets, ::cuda::std::int64_t num_segments, ScanOpT scan_op,
                         InitValueT init_value, cudaStream_t stream = nullptr)
  {
    return ExclusiveSegmentedScan(d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_in_begin_offsets, num_segments,
                                  scan_op, init_value, stream);
  }

  //! d_out[i] = init_value, then scan_op with each of its segment's items up to and including item i. Segment s is
  //! written from d_out_begin_offsets[s].
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT, typename ScanOpT,
            typename InitValueT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScanInit(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                             OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                             EndOffsetIteratorInputT d_in_end_offsets, BeginOffsetIteratorOutputT d_out_begin_offsets,
                             ::cuda::std::int64_t num_segments, ScanOpT scan_op, InitValueT init_value,
                             cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedScan::InclusiveSegmentedScanInit");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    return detail::segmented_scan::Run<detail::segmented_scan::mode::inclusive_init, AccumT>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets,
        num_segments, scan_op, init_value, stream);
  }

  //! InclusiveSegmentedScanInit, each segment written where it lies in the input.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename ScanOpT, typename InitValueT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScanInit(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                             OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                             EndOffsetIteratorInputT d_in_end_offsets, ::cuda::std::int64_t num_segments,
                             ScanOpT scan_op, InitValueT init_value, cudaStream_t stream = nullptr)
  {
    return InclusiveSegmentedScanInit(d_temp_storage, temp_storage_bytes, d_in, d_out, d_in_begin_offsets,
                                      d_in_end_offsets, d_in_begin_offsets, num_segments, scan_op, init_value, stream);
  }

  //! InclusiveSegmentedScanInit with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename BeginOffsetIteratorOutputT, typename ScanOpT,
            typename InitValueT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScanInit(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                             EndOffsetIteratorInputT d_in_end_offsets, BeginOffsetIteratorOutputT d_out_begin_offsets,
                             ::cuda::std::int64_t num_segments, ScanOpT scan_op, InitValueT init_value,
                             cudaStream_t stream = nullptr)
  {
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return InclusiveSegmentedScanInit(d_temp_storage, temp_storage_bytes, d_in,
                                                                            d_out, d_in_begin_offsets, d_in_end_offsets,
                                                                            d_out_begin_offsets, num_segments, scan_op,
                                                                            init_value, stream);
                                        });
  }

  //! InclusiveSegmentedScanInit, each segment written where it lies in the input, with its temporary storage
  //! allocated and freed on `stream`.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorInputT,
            typename EndOffsetIteratorInputT, typename ScanOpT, typename InitValueT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSegmentedScanInit(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorInputT d_in_begin_offsets,
                             EndOffsetIteratorInputT d_in_end_offsets, ::cuda::std::int64_t num_segments,
                             ScanOpT scan_op, InitValueT init_value, cudaStream_t stream = nullptr)
  {
    return InclusiveSegmentedScanInit(d_in, d_out, d_in_begin_offsets, d_in_end_offsets, d_in_begin_offsets,
                                      num_segments, scan_op, init_value, stream);
  }
};

STRATA_NAMESPACE_END

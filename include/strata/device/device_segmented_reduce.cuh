// strata/device/device_segmented_reduce.cuh: DeviceSegmentedReduce, one reduction per segment of
// an input (Reduce, Sum, Min, Max, ArgMin, ArgMax), with CUB's two-phase temporary-storage
// convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_segmented_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/functional>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace segmented_reduce
{
//! call(begin offsets, end offsets) of segments of segment_size items each; a negative size is
//! refused.
template <typename CallT>
STRATA_RUNTIME_FUNCTION cudaError_t WithFixedSegments(int segment_size, CallT call)
{
  if (segment_size < 0)
  {
    return STRATA_INVALID_ARGUMENT("segment_size is negative");
  }
  const FixedSegmentOffsets offsets(CountingInputIterator<::cuda::std::int64_t>(0), FixedSegmentStart{segment_size});
  return call(offsets, offsets + 1);
}
} // namespace segmented_reduce
} // namespace detail

//! Device-wide segmented reductions: segment s is d_in[d_begin_offsets[s], d_end_offsets[s]) (empty
//! where the end is not past the begin), and its result goes to d_out[s]. The segments may lie
//! anywhere in the input, overlap or leave gaps; a contiguous sequence can pass `offsets` and
//! `offsets + 1`. Segments of any lengths, from millions of empty ones to a few holding everything,
//! are split into pieces of equal work across the device.
//!
//! The forms with `segment_size` in place of the offsets (CUB 3.5) take num_segments consecutive
//! segments of segment_size items each; a negative segment_size is refused like a negative count, and
//! with segment_size 0 (nothing read) d_in may be null.
//!
//! Every function is a two-phase call: with `d_temp_storage == nullptr` it writes the bytes it
//! needs to `temp_storage_bytes` and does nothing else. A negative `num_segments`, a null pointer on
//! the second call, or too little temporary storage returns cudaErrorInvalidValue before anything
//! is written. The reduction operator must be associative and commutative (the items of a segment
//! are combined in no fixed order).
//!
//! \code
//! // d_in {8, 6, 7, 5, 3, 0, 9}, d_offsets {0, 3, 3, 7}
//! strata::DeviceSegmentedReduce::Sum(d_temp, bytes, d_in, d_out, 3, d_offsets, d_offsets + 1);
//! // d_out {21, 0, 17}
//! \endcode
struct DeviceSegmentedReduce
{
  //! d_out[s] = reduction_op(initial_value, every item of segment s); initial_value when empty. As
  //! in CUB, the reduction starts from initial_value converted to the output's value type.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename ReductionOpT, typename T>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
         ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
         ReductionOpT reduction_op, T initial_value, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedReduce::Reduce");
    using DispatchT = DispatchSegmentedReduce<InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT,
                                              OffsetOf<BeginOffsetIteratorT, EndOffsetIteratorT>, ReductionOpT>;
    return DispatchT::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                               d_end_offsets, reduction_op, initial_value, stream);
  }

  //! d_out[s] = the sum of segment s (0 when empty), in the output's value type.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                 cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedReduce::Sum");
    using OutputT = detail::non_void_value_t<OutputIteratorT, detail::it_value_t<InputIteratorT>>;
    return DispatchSegmentedReduce<InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT,
                                   OffsetOf<BeginOffsetIteratorT, EndOffsetIteratorT>, ::cuda::std::plus<>,
                                   OutputT>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                                      d_begin_offsets, d_end_offsets, ::cuda::std::plus<>{}, OutputT(),
                                                      stream);
  }

  //! d_out[s] = the smallest item of segment s (the type's largest value when empty).
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Min(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                 cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedReduce::Min");
    using InputT = detail::it_value_t<InputIteratorT>;
    return DispatchSegmentedReduce<InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT,
                                   OffsetOf<BeginOffsetIteratorT, EndOffsetIteratorT>,
                                   ::cuda::minimum<>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                num_segments, d_begin_offsets, d_end_offsets,
                                                                ::cuda::minimum<>{},
                                                                ::cuda::std::numeric_limits<InputT>::max(), stream);
  }

  //! d_out[s] = the largest item of segment s (the type's lowest value when empty).
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Max(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                 cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedReduce::Max");
    using InputT = detail::it_value_t<InputIteratorT>;
    return DispatchSegmentedReduce<InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT,
                                   OffsetOf<BeginOffsetIteratorT, EndOffsetIteratorT>,
                                   ::cuda::maximum<>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                num_segments, d_begin_offsets, d_end_offsets,
                                                                ::cuda::maximum<>{},
                                                                ::cuda::std::numeric_limits<InputT>::lowest(), stream);
  }

  //! d_out[s] = {index in segment s of its smallest item (the first of equal ones), that item};
  //! {1, the type's largest value} when empty (as CUB documents). The index is the output pair's
  //! key type (int by default): segments longer than it can count are not supported.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMin(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
         ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedReduce::ArgMin");
    return Arg<::strata::ArgMin, true>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                                       d_end_offsets, stream);
  }

  //! d_out[s] = {index in segment s of its largest item (the first of equal ones), that item};
  //! {1, the type's lowest value} when empty (as CUB documents).
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
         ::cuda::std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceSegmentedReduce::ArgMax");
    return Arg<::strata::ArgMax, false>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                                        d_end_offsets, stream);
  }

  //! Reduce of num_segments consecutive segments of segment_size items each (CUB 3.5).
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename T>
  STRATA_RUNTIME_FUNCTION static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes,
                                                    InputIteratorT d_in, OutputIteratorT d_out,
                                                    ::cuda::std::int64_t num_segments, int segment_size,
                                                    ReductionOpT reduction_op, T initial_value, cudaStream_t stream = 0)
  {
    return detail::segmented_reduce::WithFixedSegments(segment_size,
                                                       [&](auto begin, auto end)
                                                       {
                                                         return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                       num_segments, begin, end, reduction_op,
                                                                       initial_value, stream);
                                                       });
  }

  //! Sum of num_segments consecutive segments of segment_size items each (CUB 3.5).
  template <typename InputIteratorT, typename OutputIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                                 int segment_size, cudaStream_t stream = 0)
  {
    return detail::segmented_reduce::WithFixedSegments(
        segment_size, [&](auto begin, auto end)
        { return Sum(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, begin, end, stream); });
  }

  //! Min of num_segments consecutive segments of segment_size items each (CUB 3.5).
  template <typename InputIteratorT, typename OutputIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Min(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                                 int segment_size, cudaStream_t stream = 0)
  {
    return detail::segmented_reduce::WithFixedSegments(
        segment_size, [&](auto begin, auto end)
        { return Min(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, begin, end, stream); });
  }

  //! Max of num_segments consecutive segments of segment_size items each (CUB 3.5).
  template <typename InputIteratorT, typename OutputIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Max(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                                 int segment_size, cudaStream_t stream = 0)
  {
    return detail::segmented_reduce::WithFixedSegments(
        segment_size, [&](auto begin, auto end)
        { return Max(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, begin, end, stream); });
  }

  //! ArgMin of num_segments consecutive segments of segment_size items each (CUB 3.5).
  template <typename InputIteratorT, typename OutputIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMin(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
         ::cuda::std::int64_t num_segments, int segment_size, cudaStream_t stream = 0)
  {
    return detail::segmented_reduce::WithFixedSegments(
        segment_size, [&](auto begin, auto end)
        { return ArgMin(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, begin, end, stream); });
  }

  //! ArgMax of num_segments consecutive segments of segment_size items each (CUB 3.5).
  template <typename InputIteratorT, typename OutputIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
         ::cuda::std::int64_t num_segments, int segment_size, cudaStream_t stream = 0)
  {
    return detail::segmented_reduce::WithFixedSegments(
        segment_size, [&](auto begin, auto end)
        { return ArgMax(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, begin, end, stream); });
  }

private:
  //! The offset type of CUB's dispatch: the common type of the begin and end offsets (an integer).
  template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  using OffsetOf =
      ::cuda::std::common_type_t<detail::it_value_t<BeginOffsetIteratorT>, detail::it_value_t<EndOffsetIteratorT>>;

  template <typename ArgOpT, bool MINIMUM, typename InputIteratorT, typename OutputIteratorT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Arg(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, ::cuda::std::int64_t num_segments,
                                                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                                 cudaStream_t stream)
  {
    using InputT     = detail::it_value_t<InputIteratorT>;
    using PairT      = detail::non_void_value_t<OutputIteratorT, KeyValuePair<int, InputT>>;
    using ValueT     = decltype(PairT{}.value);
    using PolicyHubT = detail::segmented_reduce::policy_hub<PairT, int, ArgOpT>;
    const PairT empty(1, MINIMUM ? ValueT(::cuda::std::numeric_limits<InputT>::max())
                                 : ValueT(::cuda::std::numeric_limits<InputT>::lowest()));
    return detail::segmented_reduce::Dispatch<typename PolicyHubT::MaxPolicy, PairT, false>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets, ArgOpT{}, empty,
        detail::segmented_reduce::IndexItem<PairT>{}, stream);
  }
};

STRATA_NAMESPACE_END

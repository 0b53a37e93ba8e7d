// strata/device/device_reduce.cuh: DeviceReduce, device-wide reductions (Reduce, Sum, Min, Max,
// ArgMin, ArgMax, TransformReduce, ReduceByKey) with CUB's two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_reduce.cuh>
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace reduce
{
//! The value type of an output iterator, or `FallbackT` where it has none (e.g. a pointer-like
//! iterator with a void value_type).
template <typename IteratorT, typename FallbackT>
using non_void_value_t =
    ::cuda::std::conditional_t<::cuda::std::is_void_v<typename ::cuda::std::iterator_traits<IteratorT>::value_type>,
                               FallbackT, typename ::cuda::std::iterator_traits<IteratorT>::value_type>;

//! The largest and lowest finite values of T: the initial values of Min and Max (as in CUB).
template <typename T>
STRATA_HOST_DEVICE T Highest()
{
  return ::cuda::std::numeric_limits<T>::max();
}
template <typename T>
STRATA_HOST_DEVICE T Lowest()
{
  return ::cuda::std::numeric_limits<T>::lowest();
}

//! Writes a (index, value) pair into two outputs: CUB 3's ArgMin / ArgMax form.
template <typename ValueOutputIteratorT, typename IndexOutputIteratorT>
struct SplitPairOutput
{
  ValueOutputIteratorT d_value;
  IndexOutputIteratorT d_index;

  struct Reference
  {
    ValueOutputIteratorT d_value;
    IndexOutputIteratorT d_index;
    template <typename KeyT, typename ValueT>
    STRATA_HOST_DEVICE Reference& operator=(const KeyValuePair<KeyT, ValueT>& pair)
    {
      using IndexT = typename ::cuda::std::iterator_traits<IndexOutputIteratorT>::value_type;
      *d_value     = pair.value;
      *d_index     = static_cast<IndexT>(pair.key);
      return *this;
    }
  };

  using value_type        = void;
  using difference_type   = ::cuda::std::ptrdiff_t;
  using pointer           = void;
  using reference         = Reference;
  using iterator_category = ::cuda::std::random_access_iterator_tag;

  STRATA_HOST_DEVICE Reference operator*() const
  {
    return Reference{d_value, d_index};
  }
};

template <typename ReductionOpT, typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename InitT,
          typename TransformOpT = ::cuda::std::identity>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                        OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op,
                                        InitT init, cudaStream_t stream, TransformOpT transform_op = {})
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  using OffsetT = offset_t<NumItemsT>;
  using InputT =
      ::cuda::std::invoke_result_t<TransformOpT, typename ::cuda::std::iterator_traits<InputIteratorT>::value_type>;
  using AccumT = accumulator_t<ReductionOpT, InputT, InitT>;
  return DispatchReduce<InputIteratorT, OutputIteratorT, OffsetT, ReductionOpT, InitT, AccumT, TransformOpT>::Dispatch(
      d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<OffsetT>(num_items), reduction_op, init, stream,
      transform_op);
}

//! ArgMin / ArgMax: every item paired with its index (of type IndexT) as it is loaded, reduced with the
//! first-of-equals pair operator; an empty input gives (1, init_value) as in CUB.
template <typename PairOpT, typename IndexT, typename InputIteratorT, typename OutputIteratorT, typename NumItemsT,
          typename ValueT>
STRATA_RUNTIME_FUNCTION cudaError_t RunArg(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                           OutputIteratorT d_out, NumItemsT num_items, ValueT init_value,
                                           cudaStream_t stream)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  if (d_temp_storage != nullptr && num_items > 0 && detail::IsNullPointer(d_in))
  {
    return STRATA_INVALID_ARGUMENT("d_in is null");
  }
  using OffsetT = offset_t<NumItemsT>;
  using PairT   = KeyValuePair<IndexT, ValueT>;
  using InitT   = empty_problem_init_t<PairT>;
  using MakeT   = PairWithIndex<IndexT, ValueT>;
  return DispatchReduce<InputIteratorT, OutputIteratorT, OffsetT, PairOpT, InitT, PairT, MakeT>::Dispatch(
      d_temp_storage, temp_storage_bytes, d_in, d_out, static_cast<OffsetT>(num_items), PairOpT{},
      InitT{PairT(IndexT(1), init_value)}, stream, MakeT{});
}
} // namespace reduce
} // namespace detail

//! Device-wide reductions. Every function follows CUB's two-phase convention: called with
//! `d_temp_storage == nullptr` it only writes the bytes of temporary storage it needs to
//! `temp_storage_bytes` (touching no device data, launching nothing); called again with that
//! much storage it runs on `stream`. Functions return cudaErrorInvalidValue for a negative item
//! count, a null input (with items) or output, or too little temporary storage. An input that one
//! block reduces needs none: the size query asks for one byte, and the run accepts any size (as
//! CUB's). Item counts may be int, int64_t or size_t: more than 2^31 items work with a 64-bit
//! count. The operators must be associative; results of floating-point sums may differ from a
//! sequential sum by rounding, and may differ from run to run of different sizes, not between
//! runs of the same call.
//!
//! \code
//! // 7 ints: {8, 6, 7, 5, 3, 0, 9}
//! size_t temp_storage_bytes = 0;
//! strata::DeviceReduce::Sum(nullptr, temp_storage_bytes, d_in, d_out, 7);
//! cudaMalloc(&d_temp_storage, temp_storage_bytes);
//! strata::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_out, 7); // *d_out = 38
//! \endcode
struct DeviceReduce
{
  //! *d_out = reduction_op(init, reduction of every item); init for no items.
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename T, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes,
                                                    InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                                    ReductionOpT reduction_op, T init, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::Reduce");
    return detail::reduce::Run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init, stream);
  }

  //! *d_out = the sum of the items (0 for none), accumulated in the type of `item + output`.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::Sum");
    using InputT = typename ::cuda::std::iterator_traits<InputIteratorT>::value_type;
    using InitT  = detail::reduce::non_void_value_t<OutputIteratorT, InputT>;
    return detail::reduce::Run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::std::plus<>{},
                               InitT{}, stream);
  }

  //! *d_out = the smallest item (the largest value of the type for none).
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Min(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::Min");
    using InputT = typename ::cuda::std::iterator_traits<InputIteratorT>::value_type;
    return detail::reduce::Run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::minimum<>{},
                               detail::reduce::Highest<InputT>(), stream);
  }

  //! *d_out = the largest item (the lowest value of the type for none).
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Max(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                 OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::Max");
    using InputT = typename ::cuda::std::iterator_traits<InputIteratorT>::value_type;
    return detail::reduce::Run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::maximum<>{},
                               detail::reduce::Lowest<InputT>(), stream);
  }

  //! *d_min_out = the smallest item and *d_index_out its index (the first of equal ones); for no
  //! items, the largest value of the type and index 1.
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMin(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, ExtremumOutIteratorT d_min_out,
         IndexOutIteratorT d_index_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ArgMin");
    return SplitArg<::strata::ArgMin>(d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_index_out, num_items, true,
                                      stream);
  }

  //! *d_out = {index, value} of the smallest item (the first of equal ones); {1, the largest value
  //! of the type} for no items. The index type is the output pair's key type.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT = int>
  STRATA_RUNTIME_FUNCTION static cudaError_t ArgMin(void* d_temp_storage, size_t& temp_storage_bytes,
                                                    InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                                    cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ArgMin");
    return PairArg<::strata::ArgMin>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, true, stream);
  }

  //! *d_max_out = the largest item and *d_index_out its index (the first of equal ones).
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, ExtremumOutIteratorT d_max_out,
         IndexOutIteratorT d_index_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ArgMax");
    return SplitArg<::strata::ArgMax>(d_temp_storage, temp_storage_bytes, d_in, d_max_out, d_index_out, num_items,
                                      false, stream);
  }

  //! *d_out = {index, value} of the largest item (the first of equal ones); {1, the lowest value
  //! of the type} for no items.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT = int>
  STRATA_RUNTIME_FUNCTION static cudaError_t ArgMax(void* d_temp_storage, size_t& temp_storage_bytes,
                                                    InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                                    cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ArgMax");
    return PairArg<::strata::ArgMax>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, false, stream);
  }

  //! *d_out = reduction_op(init, reduction of transform_op(item) over every item); init for none.
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename TransformOpT, typename T,
            typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t TransformReduce(void* d_temp_storage, size_t& temp_storage_bytes,
                                                             InputIteratorT d_in, OutputIteratorT d_out,
                                                             NumItemsT num_items, ReductionOpT reduction_op,
                                                             TransformOpT transform_op, T init, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::TransformReduce");
    return detail::reduce::Run(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init, stream,
                               transform_op);
  }

  //! Reduces each run of consecutive equal keys (operator==): the run's first key goes to
  //! d_unique_out[r] and the reduction of its values with reduction_op, in input order, to
  //! d_aggregates_out[r], for the r-th run; *d_num_runs_out receives the number of runs (written
  //! in device memory). `num_items` may be any integer type: with a 64-bit one more than 2^31 items
  //! work. Errors (a negative count, a null pointer on the second
  //! call) are returned as cudaErrorInvalidValue before anything is written; an empty input
  //! writes 0 runs.
  //!
  //! \code
  //! // d_keys_in {0, 2, 2, 9, 5, 5, 5, 8}, d_values_in {0, 7, 1, 6, 2, 5, 3, 4}
  //! strata::DeviceReduce::ReduceByKey(d_temp, bytes, d_keys_in, d_unique_out, d_values_in,
  //!                                   d_aggregates_out, d_num_runs_out, cuda::minimum<>{}, 8);
  //! // d_unique_out {0, 2, 9, 5, 8}, d_aggregates_out {0, 1, 6, 2, 4}, *d_num_runs_out 5
  //! \endcode
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
            typename NumItemsT, ::cuda::std::enable_if_t<::cuda::std::is_integral_v<NumItemsT>, int> = 0>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
              UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
              AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
              ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ReduceByKey");
    return DispatchReduceByKey<KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                               AggregatesOutputIteratorT, NumRunsOutputIteratorT, ::cuda::std::equal_to<>, ReductionOpT,
                               NumItemsT>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out,
                                                    d_values_in, d_aggregates_out, d_num_runs_out,
                                                    ::cuda::std::equal_to<>{}, reduction_op, num_items, stream);
  }

  //! ReduceByKey with runs of keys equal under `equality_op` (strata's: CUB reaches this form
  //! through DispatchReduceByKey only). The equality operator comes before the reduction one; a
  //! reduction "operator" of arithmetic type is taken for CUB's form with a count and a stream.
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename EqualityOpT,
            typename ReductionOpT, typename NumItemsT,
            ::cuda::std::enable_if_t<
                ::cuda::std::is_integral_v<NumItemsT> && !::cuda::std::is_arithmetic_v<ReductionOpT>, int> = 0>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
              UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
              AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
              EqualityOpT equality_op, ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ReduceByKey");
    return DispatchReduceByKey<KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                               AggregatesOutputIteratorT, NumRunsOutputIteratorT, EqualityOpT, ReductionOpT,
                               NumItemsT>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out,
                                                    d_values_in, d_aggregates_out, d_num_runs_out, equality_op,
                                                    reduction_op, num_items, stream);
  }

private:
  template <typename PairOpT, typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t PairArg(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                                     bool minimum, cudaStream_t stream)
  {
    using InputT      = typename ::cuda::std::iterator_traits<InputIteratorT>::value_type;
    using PairT       = detail::reduce::non_void_value_t<OutputIteratorT, KeyValuePair<int, InputT>>;
    using IndexT      = decltype(PairT{}.key);
    using ValueT      = decltype(PairT{}.value);
    const ValueT init = minimum ? ValueT(detail::reduce::Highest<InputT>()) : ValueT(detail::reduce::Lowest<InputT>());
    return detail::reduce::RunArg<PairOpT, IndexT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, init,
                                                   stream);
  }

  template <typename PairOpT, typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT,
            typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  SplitArg(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, ExtremumOutIteratorT d_extremum_out,
           IndexOutIteratorT d_index_out, NumItemsT num_items, bool minimum, cudaStream_t stream)
  {
    if (d_temp_storage != nullptr && (detail::IsNullPointer(d_extremum_out) || detail::IsNullPointer(d_index_out)))
    {
      return STRATA_INVALID_ARGUMENT("d_extremum_out or d_index_out is null");
    }
    using InputT      = typename ::cuda::std::iterator_traits<InputIteratorT>::value_type;
    using ValueT      = detail::reduce::non_void_value_t<ExtremumOutIteratorT, InputT>;
    using IndexT      = detail::reduce::non_void_value_t<IndexOutIteratorT, int>;
    using OutT        = detail::reduce::SplitPairOutput<ExtremumOutIteratorT, IndexOutIteratorT>;
    const ValueT init = minimum ? ValueT(detail::reduce::Highest<InputT>()) : ValueT(detail::reduce::Lowest<InputT>());
    return detail::reduce::RunArg<PairOpT, IndexT>(d_temp_storage, temp_storage_bytes, d_in,
                                                   OutT{d_extremum_out, d_index_out}, num_items, init, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/device_reduce.cuh: DeviceReduce, device-wide reductions (Reduce, Sum, Min, Max,
// ArgMin, ArgMax, TransformReduce, ReduceByKey) with CUB's two-phase temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/detail/single_call.cuh>
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

//! What ArgMinMax and ArgMinLastMax carry: the smallest and largest items so far, with their
//! indices.
template <typename ValueT>
struct MinMaxItem
{
  ValueT min;
  ::cuda::std::int64_t min_index;
  ValueT max;
  ::cuda::std::int64_t max_index;
};

//! Each item as it is loaded: both the smallest and the largest so far, at its own index.
template <typename ValueT>
struct MinMaxWithIndex
{
  template <typename InputT, typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE MinMaxItem<ValueT> operator()(const InputT& item, OffsetT index) const
  {
    const ValueT value = static_cast<ValueT>(item);
    return MinMaxItem<ValueT>{value, ::cuda::std::int64_t(index), value, ::cuda::std::int64_t(index)};
  }
};

//! Combines two MinMaxItems: the smaller minimum (by compare_op; the lower index among equal
//! ones) and the larger maximum (the lower index among equal ones, or the higher with
//! LAST_MAX). A total order on (value, index), so the combination is commutative and the result
//! does not depend on how the items are grouped.
template <typename CompareOpT, bool LAST_MAX>
struct MinMaxOp
{
  CompareOpT compare_op;

  template <typename ValueT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE MinMaxItem<ValueT> operator()(const MinMaxItem<ValueT>& a,
                                                                      const MinMaxItem<ValueT>& b) const
  {
    MinMaxItem<ValueT> result = a;
    if (compare_op(b.min, a.min) || (!compare_op(a.min, b.min) && b.min_index < a.min_index))
    {
      result.min       = b.min;
      result.min_index = b.min_index;
    }
    const bool b_later = LAST_MAX ? b.max_index > a.max_index : b.max_index < a.max_index;
    if (compare_op(a.max, b.max) || (!compare_op(b.max, a.max) && b_later))
    {
      result.max       = b.max;
      result.max_index = b.max_index;
    }
    return result;
  }
};

//! Writes a MinMaxItem into four outputs (the values converted to their outputs' types).
template <typename MinOutT, typename MinIndexOutT, typename MaxOutT, typename MaxIndexOutT>
struct SplitMinMaxOutput
{
  MinOutT d_min;
  MinIndexOutT d_min_index;
  MaxOutT d_max;
  MaxIndexOutT d_max_index;

  struct Reference
  {
    SplitMinMaxOutput out;
    template <typename ValueT>
    STRATA_HOST_DEVICE Reference& operator=(const MinMaxItem<ValueT>& item)
    {
      *out.d_min       = item.min;
      *out.d_min_index = item.min_index;
      *out.d_max       = item.max;
      *out.d_max_index = item.max_index;
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
    return Reference{*this};
  }
};

//! ArgMinMax (LAST_MAX false) or ArgMinLastMax (true): one pass over the items, each paired with
//! its index as it is loaded; an empty input writes nothing (as CUB's).
template <bool LAST_MAX, typename InputIteratorT, typename MinOutT, typename MinIndexOutT, typename MaxOutT,
          typename MaxIndexOutT, typename CompareOpT>
STRATA_RUNTIME_FUNCTION cudaError_t RunMinMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                              MinOutT d_min_out, MinIndexOutT d_min_index_out, MaxOutT d_max_out,
                                              MaxIndexOutT d_max_index_out, ::cuda::std::int64_t num_items,
                                              CompareOpT compare_op, cudaStream_t stream)
{
  if (num_items < 0)
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  if (d_temp_storage != nullptr && num_items > 0
      && (IsNullPointer(d_in) || IsNullPointer(d_min_out) || IsNullPointer(d_min_index_out) || IsNullPointer(d_max_out)
          || IsNullPointer(d_max_index_out)))
  {
    return STRATA_INVALID_ARGUMENT("d_in or an output is null");
  }
  using ValueT    = it_value_t<InputIteratorT>;
  using ItemT     = MinMaxItem<ValueT>;
  using OpT       = MinMaxOp<CompareOpT, LAST_MAX>;
  using InitT     = empty_problem_init_t<ItemT>;
  using OutT      = SplitMinMaxOutput<MinOutT, MinIndexOutT, MaxOutT, MaxIndexOutT>;
  using OffsetT   = offset_t<::cuda::std::int64_t>;
  using DispatchT = DispatchReduce<InputIteratorT, OutT, OffsetT, OpT, InitT, ItemT, MinMaxWithIndex<ValueT>>;
  if (d_temp_storage != nullptr && num_items == 0)
  {
    return cudaSuccess;
  }
  return DispatchT::Dispatch(d_temp_storage, temp_storage_bytes, d_in,
                             OutT{d_min_out, d_min_index_out, d_max_out, d_max_index_out}, OffsetT(num_items),
                             OpT{compare_op}, InitT{ItemT{}}, stream, MinMaxWithIndex<ValueT>{});
}

//! Whether CompareOpT compares two items of InputIteratorT (an ArgMinMax overload's operator, not
//! its stream).
template <typename CompareOpT, typename InputIteratorT>
inline constexpr bool is_item_comparison_v =
    ::cuda::std::is_invocable_r_v<bool, CompareOpT&, it_value_t<InputIteratorT>, it_value_t<InputIteratorT>>;

template <typename ValueT>
inline constexpr bool is_indexed_transform_v<MinMaxWithIndex<ValueT>> = true;
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

  //! CUB's main branch (3.6): *d_min_out = the smallest item and *d_min_index_out its index (the
  //! first of equal ones), *d_max_out = the largest and *d_max_index_out its index (the first of equal ones),
  //! in one pass; indices are int64. Nothing is written for no items.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT, typename CompareOpT,
            ::cuda::std::enable_if_t<detail::reduce::is_item_comparison_v<CompareOpT, InputIteratorT>, int> = 0>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, MinExtremumOutIteratorT d_min_out,
            MinIndexOutIteratorT d_min_index_out, MaxExtremumOutIteratorT d_max_out,
            MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items, CompareOpT compare_op,
            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ArgMinMax");
    return detail::reduce::RunMinMax<false>(d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_min_index_out,
                                            d_max_out, d_max_index_out, num_items, compare_op, stream);
  }

  //! ArgMinMax under cuda::std::less.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, MinExtremumOutIteratorT d_min_out,
            MinIndexOutIteratorT d_min_index_out, MaxExtremumOutIteratorT d_max_out,
            MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items, cudaStream_t stream = 0)
  {
    return ArgMinMax(d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_min_index_out, d_max_out, d_max_index_out,
                     num_items, ::cuda::std::less<>{}, stream);
  }

  //! ArgMinMax with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT, typename CompareOpT,
            ::cuda::std::enable_if_t<detail::reduce::is_item_comparison_v<CompareOpT, InputIteratorT>, int> = 0>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinMax(InputIteratorT d_in, MinExtremumOutIteratorT d_min_out, MinIndexOutIteratorT d_min_index_out,
            MaxExtremumOutIteratorT d_max_out, MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items,
            CompareOpT compare_op, cudaStream_t stream = 0)
  {
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return ArgMinMax(d_temp_storage, temp_storage_bytes, d_in, d_min_out,
                                                           d_min_index_out, d_max_out, d_max_index_out, num_items,
                                                           compare_op, stream);
                                        });
  }

  //! ArgMinMax under cuda::std::less, with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinMax(InputIteratorT d_in, MinExtremumOutIteratorT d_min_out, MinIndexOutIteratorT d_min_index_out,
            MaxExtremumOutIteratorT d_max_out, MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items,
            cudaStream_t stream = 0)
  {
    return ArgMinMax(d_in, d_min_out, d_min_index_out, d_max_out, d_max_index_out, num_items, ::cuda::std::less<>{},
                     stream);
  }

  //! CUB's main branch (3.6): *d_min_out = the smallest item and *d_min_index_out its index (the
  //! first of equal ones), *d_max_out = the largest and *d_max_index_out its index (the last of equal ones),
  //! in one pass; indices are int64. Nothing is written for no items.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT, typename CompareOpT,
            ::cuda::std::enable_if_t<detail::reduce::is_item_comparison_v<CompareOpT, InputIteratorT>, int> = 0>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinLastMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                MinExtremumOutIteratorT d_min_out, MinIndexOutIteratorT d_min_index_out,
                MaxExtremumOutIteratorT d_max_out, MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items,
                CompareOpT compare_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceReduce::ArgMinLastMax");
    return detail::reduce::RunMinMax<true>(d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_min_index_out,
                                           d_max_out, d_max_index_out, num_items, compare_op, stream);
  }

  //! ArgMinLastMax under cuda::std::less.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinLastMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                MinExtremumOutIteratorT d_min_out, MinIndexOutIteratorT d_min_index_out,
                MaxExtremumOutIteratorT d_max_out, MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items,
                cudaStream_t stream = 0)
  {
    return ArgMinLastMax(d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_min_index_out, d_max_out,
                         d_max_index_out, num_items, ::cuda::std::less<>{}, stream);
  }

  //! ArgMinLastMax with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT, typename CompareOpT,
            ::cuda::std::enable_if_t<detail::reduce::is_item_comparison_v<CompareOpT, InputIteratorT>, int> = 0>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinLastMax(InputIteratorT d_in, MinExtremumOutIteratorT d_min_out, MinIndexOutIteratorT d_min_index_out,
                MaxExtremumOutIteratorT d_max_out, MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items,
                CompareOpT compare_op, cudaStream_t stream = 0)
  {
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return ArgMinLastMax(d_temp_storage, temp_storage_bytes, d_in, d_min_out,
                                                               d_min_index_out, d_max_out, d_max_index_out, num_items,
                                                               compare_op, stream);
                                        });
  }

  //! ArgMinLastMax under cuda::std::less, with its temporary storage allocated and freed on `stream`.
  template <typename InputIteratorT, typename MinExtremumOutIteratorT, typename MinIndexOutIteratorT,
            typename MaxExtremumOutIteratorT, typename MaxIndexOutIteratorT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  ArgMinLastMax(InputIteratorT d_in, MinExtremumOutIteratorT d_min_out, MinIndexOutIteratorT d_min_index_out,
                MaxExtremumOutIteratorT d_max_out, MaxIndexOutIteratorT d_max_index_out, ::cuda::std::int64_t num_items,
                cudaStream_t stream = 0)
  {
    return ArgMinLastMax(d_in, d_min_out, d_min_index_out, d_max_out, d_max_index_out, num_items, ::cuda::std::less<>{},
                         stream);
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

// strata/device/device_transform.cuh: DeviceTransform, element-wise transforms of one or several
// input sequences into an output sequence.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>
#include <strata/device/dispatch/dispatch_transform.cuh>
#include <strata/util_debug.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace transform
{
//! cudaErrorInvalidValue for a negative item count, or a null pointer among the inputs and the
//! output when there are items; cudaSuccess otherwise.
template <typename NumItemsT, typename OutputIteratorT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t CheckArguments(const ::cuda::std::tuple<InputIteratorTs...>& inputs,
                                                   const OutputIteratorT& output, NumItemsT num_items)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  const bool null_input = ::cuda::std::apply([](const auto&... in) { return (IsNullPointer(in) || ...); }, inputs);
  if (num_items > NumItemsT(0) && (null_input || IsNullPointer(output)))
  {
    return STRATA_INVALID_ARGUMENT("an input or the output is a null pointer");
  }
  return cudaSuccess;
}

//! Launches AgentTransform's tiles over num_items items (checked, more than none).
template <typename NumItemsT, typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t DispatchTiles(::cuda::std::tuple<InputIteratorTs...> inputs, OutputIteratorT output,
                                                  NumItemsT num_items, TransformOpT transform_op, cudaStream_t stream)
{
  using OffsetT = offset_t<NumItemsT>;
  if constexpr (sizeof(OffsetT) > 4)
  {
    // 32-bit offsets while they reach: cheaper index arithmetic.
    if (static_cast<::cuda::std::uint64_t>(num_items) <= 0xFFFFFFFFull)
    {
      return DispatchTransform<::cuda::std::uint32_t, TransformOpT, OutputIteratorT, InputIteratorTs...>::Dispatch(
          inputs, output, static_cast<::cuda::std::uint32_t>(num_items), transform_op, stream);
    }
  }
  return DispatchTransform<OffsetT, TransformOpT, OutputIteratorT, InputIteratorTs...>::Dispatch(
      inputs, output, static_cast<OffsetT>(num_items), transform_op, stream);
}

//! Checks the arguments (CheckArguments), then DispatchTiles.
template <typename NumItemsT, typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t Run(::cuda::std::tuple<InputIteratorTs...> inputs, OutputIteratorT output,
                                        NumItemsT num_items, TransformOpT transform_op, cudaStream_t stream)
{
  const cudaError_t error = CheckArguments(inputs, output, num_items);
  if (error != cudaSuccess || num_items == NumItemsT(0))
  {
    return error;
  }
  return DispatchTiles(inputs, output, num_items, transform_op, stream);
}

//! out[i] = op(ins[i]...), each input passed as the reference its iterator yields (the item in
//! its sequence, never a copy). Called by DispatchFor as op(tile_offset, local).
template <typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
struct ApplyToReferences
{
  ::cuda::std::tuple<InputIteratorTs...> ins;
  OutputIteratorT out;
  TransformOpT op;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local)
  {
    (out + tile_offset)[local] =
        ::cuda::std::apply([&](const auto&... in) { return op((in + tile_offset)[local]...); }, ins);
  }
};

template <typename NumItemsT, typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t RunStable(::cuda::std::tuple<InputIteratorTs...> inputs, OutputIteratorT output,
                                              NumItemsT num_items, TransformOpT transform_op, cudaStream_t stream)
{
  const cudaError_t error = CheckArguments(inputs, output, num_items);
  if (error != cudaSuccess || num_items == NumItemsT(0))
  {
    return error;
  }
  using OffsetT = offset_t<NumItemsT>;
  using OpT     = ApplyToReferences<OutputIteratorT, TransformOpT, InputIteratorTs...>;
  return DispatchFor<OffsetT, OpT>::Dispatch(static_cast<OffsetT>(num_items), OpT{inputs, output, transform_op},
                                             stream);
}
//! Fill's operator: the value, for every item (ApplyToReferences with no inputs; Generate passes
//! its generator there the same way, each thread calling its own copy).
template <typename T>
struct ReturnValue
{
  T value;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE const T& operator()() const
  {
    return value;
  }
};

//! TransformIf's result for one item: the value, present only where the predicate held.
template <typename T>
struct Predicated
{
  Uninitialized<T> value;
  bool keep;
};

//! TransformIf's operator on AgentTransform's tiles: op(items...) where predicate(items...).
template <typename ResultT, typename PredicateT, typename TransformOpT>
struct PredicatedOp
{
  PredicateT predicate;
  TransformOpT op;
  template <typename... ItemTs>
  STRATA_DEVICE STRATA_FORCEINLINE Predicated<ResultT> operator()(ItemTs&... items)
  {
    Predicated<ResultT> result;
    result.keep = bool(predicate(items...));
    if (result.keep)
    {
      UninitializedCopy(&result.value.Alias(), ResultT(op(items...)));
    }
    return result;
  }
};

//! TransformIf's output on AgentTransform's tiles: item i assigned a Predicated writes out[i] only
//! where it holds a value (a random-access output of no vectors, so the tiles move item by item
//! with every load of a round issued before its first store).
template <typename OutputIteratorT, typename ResultT>
struct PredicatedOutput
{
  using iterator_category = ::cuda::std::random_access_iterator_tag;
  using value_type        = Predicated<ResultT>;
  using difference_type   = ::cuda::std::ptrdiff_t;
  using pointer           = void;
  struct reference
  {
    OutputIteratorT at;
    STRATA_DEVICE STRATA_FORCEINLINE void operator=(const Predicated<ResultT>& result) const
    {
      if (result.keep)
      {
        *at = result.value.Alias();
      }
    }
  };
  OutputIteratorT out;
  template <typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE PredicatedOutput operator+(OffsetT n) const
  {
    return {out + n};
  }
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE reference operator[](OffsetT n) const
  {
    return {out + n};
  }
};

//! The many-output Transform's output on AgentTransform's tiles: item i assigned the tuple the
//! operator returns writes its element k to outs<k>[i].
template <typename ResultT, typename... OutputIteratorTs>
struct TupleOutput
{
  using iterator_category = ::cuda::std::random_access_iterator_tag;
  using value_type        = ResultT;
  using difference_type   = ::cuda::std::ptrdiff_t;
  using pointer           = void;
  struct reference
  {
    ::cuda::std::tuple<OutputIteratorTs...> at;
    STRATA_DEVICE STRATA_FORCEINLINE void operator=(const ResultT& results) const
    {
      Assign(results, ::cuda::std::index_sequence_for<OutputIteratorTs...>{});
    }
    template <::cuda::std::size_t... Ks>
    STRATA_DEVICE STRATA_FORCEINLINE void Assign(const ResultT& results, ::cuda::std::index_sequence<Ks...>) const
    {
      ((*::cuda::std::get<Ks>(at) = ::cuda::std::get<Ks>(results)), ...);
    }
  };
  ::cuda::std::tuple<OutputIteratorTs...> outs;
  template <typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE TupleOutput operator+(OffsetT n) const
  {
    return {::cuda::std::apply([n](const auto&... out) { return ::cuda::std::make_tuple((out + n)...); }, outs)};
  }
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE reference operator[](OffsetT n) const
  {
    return {::cuda::std::apply([n](const auto&... out) { return ::cuda::std::make_tuple((out + n)...); }, outs)};
  }
};

//! What TransformOpT returns for the items of InputIteratorTs, as AgentTransform passes them.
template <typename TransformOpT, typename... InputIteratorTs>
using result_of_items_t =
    ::cuda::std::decay_t<::cuda::std::invoke_result_t<TransformOpT&, it_value_t<InputIteratorTs>&...>>;

//! Checks the inputs with every output of `outputs` (CheckArguments), then DispatchTiles with
//! `output`, which stands for them all.
template <typename NumItemsT, typename OutputIteratorT, typename TransformOpT, typename... InputIteratorTs,
          typename... OutputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t RunInto(const ::cuda::std::tuple<InputIteratorTs...>& inputs,
                                            const ::cuda::std::tuple<OutputIteratorTs...>& outputs,
                                            OutputIteratorT output, NumItemsT num_items, TransformOpT transform_op,
                                            cudaStream_t stream)
{
  cudaError_t error = cudaSuccess;
  ::cuda::std::apply([&](const auto&... out)
                     { ((error = error == cudaSuccess ? CheckArguments(inputs, out, num_items) : error), ...); },
                     outputs);
  if (error != cudaSuccess || num_items == NumItemsT(0))
  {
    return error;
  }
  return DispatchTiles(inputs, output, num_items, transform_op, stream);
}

//! Runs `op` (ApplyToReferences: Fill and Generate) over num_items indices after the checks of
//! CheckArguments (`outputs` a tuple of every output).
template <typename NumItemsT, typename OpT, typename... InputIteratorTs, typename... OutputIteratorTs>
STRATA_RUNTIME_FUNCTION cudaError_t RunItems(const ::cuda::std::tuple<InputIteratorTs...>& inputs,
                                             const ::cuda::std::tuple<OutputIteratorTs...>& outputs,
                                             NumItemsT num_items, OpT op, cudaStream_t stream)
{
  cudaError_t error = cudaSuccess;
  ::cuda::std::apply([&](const auto&... out)
                     { ((error = error == cudaSuccess ? CheckArguments(inputs, out, num_items) : error), ...); },
                     outputs);
  if (error != cudaSuccess || num_items == NumItemsT(0))
  {
    return error;
  }
  using OffsetT = offset_t<NumItemsT>;
  return DispatchFor<OffsetT, OpT>::Dispatch(static_cast<OffsetT>(num_items), op, stream);
}
} // namespace transform
} // namespace detail

//! Element-wise transforms: output[i] = transform_op(inputs[i]...) for every i < num_items, on
//! `stream`, in one launch (none for no items); and CUB 3.5's Fill and Generate (item by item, no
//! reads), TransformIf and Transform to several outputs (tiles whose items move one at a time, every
//! load of a round before its first store). Contiguous inputs and outputs of one item size move as
//! 16-byte vectors; on sm_90 and later, one or two such inputs arrive in shared memory by bulk copy
//! (the output may be one of the inputs: every tile is read before it is written). The
//! forms with temporary storage exist for symmetry with the other device calls (they need none:
//! the size query reports one byte). Returns cudaErrorInvalidValue for a negative item count or a
//! null pointer (with items).
//!
//! \code
//! // d_c[i] = d_a[i] + d_b[i]
//! strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a, d_b), d_c, n, cuda::std::plus<>{});
//! \endcode
struct DeviceTransform
{
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                                       RandomAccessIteratorOut output, NumItemsT num_items,
                                                       TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::Transform");
    return detail::transform::Run(inputs, output, num_items, transform_op, stream);
  }

  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes,
                                                       ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                                       RandomAccessIteratorOut output, NumItemsT num_items,
                                                       TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Transform(inputs, output, num_items, transform_op, stream);
  }

  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                                                       NumItemsT num_items, TransformOp transform_op,
                                                       cudaStream_t stream = nullptr)
  {
    return Transform(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes,
                                                       RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                                                       NumItemsT num_items, TransformOp transform_op,
                                                       cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Transform(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  //! Transform where transform_op receives the input items themselves, as the references the
  //! input iterators yield (never copies, so their addresses are those of the items in their
  //! sequences): output[i] = transform_op(inputs[i]...) for every i < num_items, item by item.
  //! The output may be one of the inputs, and must not overlap them otherwise. Errors as Transform.
  //!
  //! \code
  //! // d_c[i] = d_a[i] + d_a[i + 1], the neighbour reached through the argument's address
  //! struct next_sum
  //! {
  //!   __device__ int operator()(const int& a) const { return a + (&a)[1]; }
  //! };
  //! strata::DeviceTransform::TransformStableArgumentAddresses(d_a, d_c, n - 1, next_sum{});
  //! \endcode
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformStableArgumentAddresses(::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                   RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op,
                                   cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::TransformStableArgumentAddresses");
    return detail::transform::RunStable(inputs, output, num_items, transform_op, stream);
  }

  //! TransformStableArgumentAddresses with CUB's temporary-storage arguments (it needs none).
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t TransformStableArgumentAddresses(
      void* d_temp_storage, size_t& temp_storage_bytes, ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
      RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return TransformStableArgumentAddresses(inputs, output, num_items, transform_op, stream);
  }

  //! TransformStableArgumentAddresses of one input sequence.
  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformStableArgumentAddresses(RandomAccessIteratorIn input, RandomAccessIteratorOut output, NumItemsT num_items,
                                   TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    return TransformStableArgumentAddresses(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  //! TransformStableArgumentAddresses of one input sequence, with CUB's temporary-storage arguments.
  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformStableArgumentAddresses(void* d_temp_storage, size_t& temp_storage_bytes, RandomAccessIteratorIn input,
                                   RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op,
                                   cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return TransformStableArgumentAddresses(::cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  //! Several outputs (CUB 3.5): transform_op returns a cuda::std::tuple, whose element k is written
  //! to outputs<k>[i], for every i < num_items. An output may be one of the inputs, and must not
  //! overlap them otherwise. Errors as Transform.
  template <typename... RandomAccessIteratorsIn, typename... RandomAccessIteratorsOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t Transform(::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                                       ::cuda::std::tuple<RandomAccessIteratorsOut...> outputs,
                                                       NumItemsT num_items, TransformOp transform_op,
                                                       cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::Transform");
    using ResultT = detail::transform::result_of_items_t<TransformOp, RandomAccessIteratorsIn...>;
    using OutT    = detail::transform::TupleOutput<ResultT, RandomAccessIteratorsOut...>;
    return detail::transform::RunInto(inputs, outputs, OutT{outputs}, num_items, transform_op, stream);
  }

  //! Transform to several outputs, with CUB's temporary-storage arguments (it needs none).
  template <typename... RandomAccessIteratorsIn, typename... RandomAccessIteratorsOut, typename NumItemsT,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Transform(void* d_temp_storage, size_t& temp_storage_bytes, ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
            ::cuda::std::tuple<RandomAccessIteratorsOut...> outputs, NumItemsT num_items, TransformOp transform_op,
            cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Transform(inputs, outputs, num_items, transform_op, stream);
  }

  //! output[i] = generator() for every i < num_items (CUB 3.5). Errors as Transform.
  template <typename RandomAccessIteratorOut, typename NumItemsT, typename Generator>
  STRATA_RUNTIME_FUNCTION static cudaError_t Generate(RandomAccessIteratorOut output, NumItemsT num_items,
                                                      Generator generator, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::Generate");
    static_assert(::cuda::std::is_invocable_v<Generator>, "the generator must be callable with no arguments");
    using OpT = detail::transform::ApplyToReferences<RandomAccessIteratorOut, Generator>;
    return detail::transform::RunItems(::cuda::std::tuple<>{}, ::cuda::std::make_tuple(output), num_items,
                                       OpT{{}, output, generator}, stream);
  }

  //! Generate with CUB's temporary-storage arguments (it needs none).
  template <typename RandomAccessIteratorOut, typename NumItemsT, typename Generator>
  STRATA_RUNTIME_FUNCTION static cudaError_t Generate(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      RandomAccessIteratorOut output, NumItemsT num_items,
                                                      Generator generator, cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Generate(output, num_items, generator, stream);
  }

  //! output[i] = value for every i < num_items (CUB 3.5). Errors as Transform.
  template <typename RandomAccessIteratorOut, typename NumItemsT, typename Value>
  STRATA_RUNTIME_FUNCTION static cudaError_t Fill(RandomAccessIteratorOut output, NumItemsT num_items, Value value,
                                                  cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::Fill");
    using OpT = detail::transform::ApplyToReferences<RandomAccessIteratorOut, detail::transform::ReturnValue<Value>>;
    return detail::transform::RunItems(::cuda::std::tuple<>{}, ::cuda::std::make_tuple(output), num_items,
                                       OpT{{}, output, {value}}, stream);
  }

  //! Fill with CUB's temporary-storage arguments (it needs none).
  template <typename RandomAccessIteratorOut, typename NumItemsT, typename Value>
  STRATA_RUNTIME_FUNCTION static cudaError_t Fill(void* d_temp_storage, size_t& temp_storage_bytes,
                                                  RandomAccessIteratorOut output, NumItemsT num_items, Value value,
                                                  cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return Fill(output, num_items, value, stream);
  }

  //! output[i] = transform_op(inputs[i]...) where predicate(inputs[i]...) holds, for every
  //! i < num_items; output[i] is not written where it does not (CUB 3.5). Errors as Transform.
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename Predicate, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformIf(::cuda::std::tuple<RandomAccessIteratorsIn...> inputs, RandomAccessIteratorOut output,
              NumItemsT num_items, Predicate predicate, TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTransform::TransformIf");
    using ResultT = detail::transform::result_of_items_t<TransformOp, RandomAccessIteratorsIn...>;
    using OpT     = detail::transform::PredicatedOp<ResultT, Predicate, TransformOp>;
    using OutT    = detail::transform::PredicatedOutput<RandomAccessIteratorOut, ResultT>;
    return detail::transform::RunInto(inputs, ::cuda::std::make_tuple(output), OutT{output}, num_items,
                                      OpT{predicate, transform_op}, stream);
  }

  //! TransformIf with CUB's temporary-storage arguments (it needs none).
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename Predicate, typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  TransformIf(void* d_temp_storage, size_t& temp_storage_bytes, ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
              RandomAccessIteratorOut output, NumItemsT num_items, Predicate predicate, TransformOp transform_op,
              cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return TransformIf(inputs, output, num_items, predicate, transform_op, stream);
  }

  //! TransformIf of one input sequence.
  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename Predicate,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t TransformIf(RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                                                         NumItemsT num_items, Predicate predicate,
                                                         TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    return TransformIf(::cuda::std::make_tuple(input), output, num_items, predicate, transform_op, stream);
  }

  //! TransformIf of one input sequence, with CUB's temporary-storage arguments.
  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename Predicate,
            typename TransformOp>
  STRATA_RUNTIME_FUNCTION static cudaError_t TransformIf(void* d_temp_storage, size_t& temp_storage_bytes,
                                                         RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                                                         NumItemsT num_items, Predicate predicate,
                                                         TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return TransformIf(::cuda::std::make_tuple(input), output, num_items, predicate, transform_op, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/dispatch/dispatch_reduce.cuh: the kernels of DeviceReduce and DispatchReduce,
// which picks the policy for the device, sizes and carves the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_reduce.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/tuning/tuning_reduce.cuh>
#include <strata/grid/grid_even_share.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce
{
//! The accumulator of a reduction as CUB defines it: what the operator returns for the initial
//! value and an input item, decayed.
template <typename ReductionOpT, typename InputT, typename InitT>
using accumulator_t = ::cuda::std::decay_t<::cuda::std::invoke_result_t<ReductionOpT, InitT, InputT>>;

//! An initial value used only for an empty input (the arg reductions: a non-empty input's result
//! is its own extremum, never combined with the initial pair).
template <typename T>
struct empty_problem_init_t
{
  T init;
  STRATA_HOST_DEVICE operator T() const
  {
    return init;
  }
};

template <typename T>
inline constexpr bool is_empty_problem_init_v = false;
template <typename T>
inline constexpr bool is_empty_problem_init_v<empty_problem_init_t<T>> = true;

} // namespace reduce
} // namespace detail

STRATA_KERNELS_BEGIN

//! First pass: each block reduces its even share of whole tiles (GridEvenShare, rake mapping)
//! into d_partials[blockIdx.x].
template <typename MaxPolicyT, typename InputIteratorT, typename OffsetT, typename ReductionOpT, typename AccumT,
          typename TransformOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ReducePolicy::BLOCK_THREADS) void
DeviceReduceKernel(InputIteratorT d_in, AccumT* d_partials, GridEvenShare<OffsetT> even_share,
                   ReductionOpT reduction_op, TransformOpT transform_op)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::ReducePolicy;
  using AgentT  = AgentReduce<PolicyT, InputIteratorT, OffsetT, ReductionOpT, AccumT, TransformOpT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  even_share.template BlockInit<PolicyT::BLOCK_THREADS * PolicyT::ITEMS_PER_THREAD, GRID_MAPPING_RAKE>();
  const AccumT block_aggregate = AgentT(temp_storage, d_in, reduction_op, transform_op)
                                     .ConsumeRange(even_share.block_offset, even_share.block_end);
  if (threadIdx.x == 0)
  {
    d_partials[blockIdx.x] = block_aggregate;
  }
}

//! One block reduces all num_items items (the input of a small call, or the first pass's
//! partials) and writes reduction_op(init, aggregate) to *d_out; init alone for no items.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetT,
          typename ReductionOpT, typename InitT, typename AccumT, typename TransformOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SingleTilePolicy::BLOCK_THREADS) void
DeviceReduceSingleTileKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items,
                             ReductionOpT reduction_op, InitT init, TransformOpT transform_op)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::SingleTilePolicy;
  using AgentT  = AgentReduce<PolicyT, InputIteratorT, OffsetT, ReductionOpT, AccumT, TransformOpT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  if (num_items == 0)
  {
    if (threadIdx.x == 0)
    {
      *d_out = AccumT(init);
    }
    return;
  }
  const AccumT block_aggregate = AgentT(temp_storage, d_in, reduction_op, transform_op).ConsumeRange(0, num_items);
  if (threadIdx.x == 0)
  {
    if constexpr (detail::reduce::is_empty_problem_init_v<InitT>)
    {
      *d_out = block_aggregate;
    }
    else
    {
      *d_out = reduction_op(AccumT(init), block_aggregate);
    }
  }
}

STRATA_KERNELS_END

//! Dispatches a reduction of num_items items of d_in, each first passed through transform_op,
//! with reduction_op and init, into *d_out. Inputs up to the policy's SINGLE_BLOCK_MAX_ITEMS
//! take one launch of one block; larger ones two launches (partials per block, then their
//! reduction).
template <typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename ReductionOpT, typename InitT,
          typename AccumT, typename TransformOpT = ::cuda::std::identity,
          typename PolicyHubT = detail::reduce::policy_hub<AccumT, OffsetT, ReductionOpT>>
struct DispatchReduce
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetT num_items;
  ReductionOpT reduction_op;
  InitT init;
  cudaStream_t stream;
  TransformOpT transform_op;

  using MaxPolicyT = typename PolicyHubT::MaxPolicy;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using SingleTilePolicyT = typename ActivePolicyT::SingleTilePolicy;
    using ReducePolicyT     = typename ActivePolicyT::ReducePolicy;

    if (num_items <= OffsetT(ActivePolicyT::SINGLE_BLOCK_MAX_ITEMS))
    {
      char* d_unused = nullptr; // one byte: the buffer pointer of the second call is never null
      cudaError_t error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_unused, 1));
      if (error != cudaSuccess || d_temp_storage == nullptr)
      {
        return error;
      }
      DeviceReduceSingleTileKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, OffsetT, ReductionOpT, InitT, AccumT,
                                   TransformOpT>
          <<<1, SingleTilePolicyT::BLOCK_THREADS, 0, stream>>>(d_in, d_out, num_items, reduction_op, init,
                                                                transform_op);
      error = cudaPeekAtLastError();
      return error != cudaSuccess ? error : detail::DebugSyncStream(stream);
    }

    // An even share of whole tiles per block, over BLOCKS_PER_SM blocks per SM at most.
    int device        = 0;
    int sm_count      = 0;
    cudaError_t error = cudaGetDevice(&device);
    if (error == cudaSuccess)
    {
      error = cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
    }
    if (error != cudaSuccess)
    {
      return error;
    }
    GridEvenShare<OffsetT> even_share;
    even_share.DispatchInit(num_items, sm_count * ActivePolicyT::BLOCKS_PER_SM,
                            ReducePolicyT::BLOCK_THREADS * ReducePolicyT::ITEMS_PER_THREAD);
    const int blocks = even_share.grid_size;

    AccumT* d_partials = nullptr;
    error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_partials, blocks));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }
    DeviceReduceKernel<MaxPolicyT, InputIteratorT, OffsetT, ReductionOpT, AccumT, TransformOpT>
        <<<blocks, ReducePolicyT::BLOCK_THREADS, 0, stream>>>(d_in, d_partials, even_share, reduction_op,
                                                              transform_op);
    error = cudaPeekAtLastError();
    if (error == cudaSuccess)
    {
      error = detail::DebugSyncStream(stream);
    }
    if (error != cudaSuccess)
    {
      return error;
    }
    DeviceReduceSingleTileKernel<MaxPolicyT, AccumT*, OutputIteratorT, int, ReductionOpT, InitT, AccumT,
                                 ::cuda::std::identity>
        <<<1, SingleTilePolicyT::BLOCK_THREADS, 0, stream>>>(d_partials, d_out, blocks, reduction_op, init,
                                                              ::cuda::std::identity{});
    error = cudaPeekAtLastError();
    return error != cudaSuccess ? error : detail::DebugSyncStream(stream);
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the
  //! reduction.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items,
                                                      ReductionOpT reduction_op, InitT init, cudaStream_t stream,
                                                      TransformOpT transform_op = {})
  {
    if (d_temp_storage != nullptr
        && (detail::IsNullPointer(d_out) || (num_items > 0 && detail::IsNullPointer(d_in))))
    {
      return cudaErrorInvalidValue;
    }
    int ptx_version   = 0;
    cudaError_t error = PtxVersion(ptx_version);
    if (error != cudaSuccess)
    {
      return error;
    }
    DispatchReduce dispatch{d_temp_storage, temp_storage_bytes, d_in,   d_out,       num_items,
                            reduction_op,   init,               stream, transform_op};
    return MaxPolicyT::Invoke(ptx_version, dispatch);
  }
};

STRATA_NAMESPACE_END

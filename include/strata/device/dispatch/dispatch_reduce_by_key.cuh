// strata/device/dispatch/dispatch_reduce_by_key.cuh: the kernel of the single-pass reduction by
// key, and the dispatch class (CUB's DispatchReduceByKey) that picks the policy, sizes and carves
// the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_reduce_by_key.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/shared_fit.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/dispatch_single_pass.cuh>
#include <strata/device/dispatch/tuning/tuning_reduce_by_key.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace reduce_by_key
{
//! The agent of the reduction kernel, for detail::fitted_agent_t.
template <typename... IteratorsOpsAndTypesT>
struct agent_family
{
  template <typename PolicyT>
  using agent_t = AgentReduceByKey<PolicyT, IteratorsOpsAndTypesT...>;
};
} // namespace reduce_by_key
} // namespace detail

STRATA_KERNELS_BEGIN

//! The single pass of DeviceReduce::ReduceByKey: each block reduces the tile it takes from the
//! counter.
template <typename MaxPolicyT, typename KeysInputIteratorT, typename UniqueOutputIteratorT,
          typename ValuesInputIteratorT, typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT,
          typename EqualityOpT, typename ReductionOpT, typename CountT, typename AccumT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::fitted_agent_t<
        detail::reduce_by_key::agent_family<KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                                            AggregatesOutputIteratorT, NumRunsOutputIteratorT, EqualityOpT,
                                            ReductionOpT, CountT, AccumT>,
        typename MaxPolicyT::ActivePolicy::ReduceByKeyPolicyT>::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::ReduceByKeyPolicyT::
        MIN_BLOCKS_PER_SM) void DeviceReduceByKeyKernel(KeysInputIteratorT d_keys_in,
                                                        UniqueOutputIteratorT d_unique_out,
                                                        ValuesInputIteratorT d_values_in,
                                                        AggregatesOutputIteratorT d_aggregates_out,
                                                        NumRunsOutputIteratorT d_num_runs_out,
                                                        ScanTileState<KeyValuePair<CountT, AccumT>> tile_state,
                                                        unsigned int* d_tile_counter, EqualityOpT equality_op,
                                                        ReductionOpT reduction_op, CountT num_items, int num_tiles,
                                                        void* d_block_storage)
{
  using AgentT = detail::fitted_agent_t<
      detail::reduce_by_key::agent_family<KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                                          AggregatesOutputIteratorT, NumRunsOutputIteratorT, EqualityOpT, ReductionOpT,
                                          CountT, AccumT>,
      typename MaxPolicyT::ActivePolicy::ReduceByKeyPolicyT>;
  auto& temp_storage = detail::BlockTempStorage<typename AgentT::TempStorage>(d_block_storage);
  detail::WaitForPrimaryGrid(); // the descriptors and the tile counter, from the init kernel
  AgentT(temp_storage, d_keys_in, d_unique_out, d_values_in, d_aggregates_out, d_num_runs_out, equality_op,
         reduction_op, num_items)
      .ConsumeRange(num_tiles, tile_state, d_tile_counter);
}

STRATA_KERNELS_END

namespace detail
{
namespace reduce_by_key
{
//! The host side of one reduction by key whose runs are counted in CountT.
template <typename MaxPolicyT, typename KeysInputIteratorT, typename UniqueOutputIteratorT,
          typename ValuesInputIteratorT, typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT,
          typename EqualityOpT, typename ReductionOpT, typename CountT, typename AccumT>
struct dispatch_t
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeysInputIteratorT d_keys_in;
  UniqueOutputIteratorT d_unique_out;
  ValuesInputIteratorT d_values_in;
  AggregatesOutputIteratorT d_aggregates_out;
  NumRunsOutputIteratorT d_num_runs_out;
  EqualityOpT equality_op;
  ReductionOpT reduction_op;
  CountT num_items;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using FamilyT =
        agent_family<KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT, AggregatesOutputIteratorT,
                     NumRunsOutputIteratorT, EqualityOpT, ReductionOpT, CountT, AccumT>;
    using AgentT     = fitted_agent_t<FamilyT, typename ActivePolicyT::ReduceByKeyPolicyT>;
    using TileStateT = typename AgentT::TileStateT;
    return single_pass::InvokeCompaction<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, AgentT::TILE_ITEMS, ptx_version, stream, d_num_runs_out, 1,
        block_storage_bytes_v<FamilyT, typename ActivePolicyT::ReduceByKeyPolicyT>,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic,
               void* d_block_storage)
        {
          return single_pass::LaunchPass<AgentT>(
              programmatic,
              DeviceReduceByKeyKernel<MaxPolicyT, KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                                      AggregatesOutputIteratorT, NumRunsOutputIteratorT, EqualityOpT, ReductionOpT,
                                      CountT, AccumT>,
              num_tiles, stream, d_keys_in, d_unique_out, d_values_in, d_aggregates_out, d_num_runs_out, tile_state,
              d_tile_counter, equality_op, reduction_op, num_items, num_tiles, d_block_storage);
        });
  }
};

//! Validates the arguments, then runs (or sizes) the reduction with runs counted in 32 bits where
//! num_items allows it (a tile's (count, value) pair and its status then fit one word for the
//! look-back), else in 64.
template <typename MaxPolicyT, typename AccumT, typename KeysInputIteratorT, typename UniqueOutputIteratorT,
          typename ValuesInputIteratorT, typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT,
          typename EqualityOpT, typename ReductionOpT, typename OffsetT>
STRATA_RUNTIME_FUNCTION cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                             KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                                             ValuesInputIteratorT d_values_in,
                                             AggregatesOutputIteratorT d_aggregates_out,
                                             NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op,
                                             ReductionOpT reduction_op, OffsetT num_items, cudaStream_t stream)
{
  if (const char* problem = single_pass::ArgumentProblem(d_temp_storage, d_num_runs_out, num_items, d_keys_in,
                                                         d_unique_out, d_values_in, d_aggregates_out))
  {
    return STRATA_INVALID_ARGUMENT(problem);
  }
  auto run = [&](auto count)
  {
    using CountT = decltype(count);
    using DispatchT =
        dispatch_t<MaxPolicyT, KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                   AggregatesOutputIteratorT, NumRunsOutputIteratorT, EqualityOpT, ReductionOpT, CountT, AccumT>;
    return InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchT{d_temp_storage, temp_storage_bytes, d_keys_in,      d_unique_out,
                           d_values_in,    d_aggregates_out,   d_num_runs_out, equality_op,
                           reduction_op,   CountT(num_items),  stream,         ptx_version};
        });
  };
  return single_pass::WithCountType(num_items, run);
}
} // namespace reduce_by_key
} // namespace detail

//! Dispatches a reduction by key (CUB's DispatchReduceByKey): for each run of consecutive keys
//! equal under equality_op, its first key goes to d_unique_out and the reduction of its values
//! with reduction_op (in AccumT, in input order) to d_aggregates_out; *d_num_runs_out receives
//! the number of runs. Negative counts and null pointers on the run call are rejected with
//! cudaErrorInvalidValue before anything is written.
template <
    typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
    typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename EqualityOpT, typename ReductionOpT,
    typename OffsetT,
    typename AccumT    = ::cuda::std::__accumulator_t<ReductionOpT, detail::it_value_t<ValuesInputIteratorT>,
                                                   detail::it_value_t<ValuesInputIteratorT>>,
    typename PolicyHub = detail::reduce_by_key::policy_hub<
        ReductionOpT, AccumT, detail::non_void_value_t<UniqueOutputIteratorT, detail::it_value_t<KeysInputIteratorT>>>,
    typename KernelSource = detail::DefaultKernelSource, typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DispatchReduceByKey
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  using MaxPolicyT = typename PolicyHub::MaxPolicy;

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) it.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                                                      ValuesInputIteratorT d_values_in,
                                                      AggregatesOutputIteratorT d_aggregates_out,
                                                      NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op,
                                                      ReductionOpT reduction_op, OffsetT num_items, cudaStream_t stream)
  {
    return detail::reduce_by_key::Dispatch<MaxPolicyT, AccumT>(
        d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out, d_values_in, d_aggregates_out, d_num_runs_out,
        equality_op, reduction_op, num_items, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/dispatch/dispatch_reduce.cuh: the kernels of DeviceReduce and DispatchReduce,
// which picks the policy for the device, sizes and carves the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_reduce.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/policy_member.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_reduce.cuh>
#include <strata/grid/grid_mapping.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

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

//! The policy of the second pass: SingleTilePolicyT's block, with items per thread scaled by the
//! accumulator that the partials are. There are at most a few thousand partials, fewer than one
//! tile, so the count only bounds the registers: the input's count of wide partials (an index and
//! an 8-byte value, say) would need more than 1024 threads can have.
template <typename SingleTilePolicyT, typename AccumT>
using partials_policy_t =
    AgentReducePolicy<SingleTilePolicyT::BLOCK_THREADS, 4, AccumT, SingleTilePolicyT::VECTOR_LOAD_LENGTH,
                      SingleTilePolicyT::BLOCK_ALGORITHM, SingleTilePolicyT::LOAD_MODIFIER>;

// What strata's reduction reads of a hub's policy besides CUB's ReducePolicy and SingleTilePolicy
// (see policy_hub), with the values that a policy without them (a CUB-shaped one) gets: CUB's
// single-block limit (one tile of SingleTilePolicy), registers left to the compiler, five blocks
// per SM, each with an even share of contiguous tiles.
STRATA_DETAIL_POLICY_MEMBER_OR(single_block_max_items_v, int, SINGLE_BLOCK_MAX_ITEMS,
                               PolicyT::SingleTilePolicy::BLOCK_THREADS* PolicyT::SingleTilePolicy::ITEMS_PER_THREAD)
STRATA_DETAIL_POLICY_MEMBER_OR(blocks_per_sm_v, int, BLOCKS_PER_SM, 1)
STRATA_DETAIL_POLICY_MEMBER_OR(subscription_v, int, SUBSCRIPTION, 5)
STRATA_DETAIL_POLICY_MEMBER_OR(grid_mapping_v, GridMappingStrategy, GRID_MAPPING, GRID_MAPPING_RAKE)
} // namespace reduce
} // namespace detail

STRATA_KERNELS_BEGIN

//! First pass: block b reduces its tiles into d_partials[b]: under GRID_MAPPING_RAKE items
//! [b * items_per_block, (b + 1) * items_per_block) (clipped to num_items, never empty), under
//! GRID_MAPPING_STRIP_MINE tiles b, b + gridDim.x, ... (the grid has at most one block per tile).
//! The grid is sized for BLOCKS_PER_SM resident blocks per SM (times SUBSCRIPTION); the launch
//! bounds hold the compiler to that (a kernel that fits one block fewer runs its last blocks as a
//! second, nearly empty wave: 0.93x CUB for ArgMin of float at 78 registers). Every block lets
//! the second pass launch at once: that one waits for this grid's partials before reading them.
template <typename MaxPolicyT, typename InputIteratorT, typename OffsetT, typename ReductionOpT, typename AccumT,
          typename TransformOpT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::ReducePolicy::BLOCK_THREADS,
                  detail::reduce::blocks_per_sm_v<
                      typename MaxPolicyT::ActivePolicy>) void DeviceReduceKernel(InputIteratorT d_in,
                                                                                  AccumT* d_partials, OffsetT num_items,
                                                                                  OffsetT items_per_block,
                                                                                  ReductionOpT reduction_op,
                                                                                  TransformOpT transform_op)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::ReducePolicy;
  using AgentT  = AgentReduce<PolicyT, InputIteratorT, OffsetT, ReductionOpT, AccumT, TransformOpT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::TriggerDependentLaunch();
  AccumT block_aggregate{};
  if constexpr (detail::reduce::grid_mapping_v<typename MaxPolicyT::ActivePolicy> == GRID_MAPPING_STRIP_MINE)
  {
    block_aggregate = AgentT(temp_storage, d_in, reduction_op, transform_op)
                          .ConsumeTiles(OffsetT(blockIdx.x) * OffsetT(AgentT::TILE_ITEMS),
                                        OffsetT(gridDim.x) * OffsetT(AgentT::TILE_ITEMS), num_items);
  }
  else
  {
    const OffsetT begin = OffsetT(blockIdx.x) * items_per_block;
    const OffsetT end   = num_items - begin < items_per_block ? num_items : begin + items_per_block;
    block_aggregate     = AgentT(temp_storage, d_in, reduction_op, transform_op).ConsumeRange(begin, end);
  }
  if (threadIdx.x == 0)
  {
    detail::UninitializedCopy(d_partials + blockIdx.x, block_aggregate);
  }
}

//! One block reduces all num_items items (the input of a small call, or with PARTIALS the first
//! pass's partials) and writes reduction_op(init, aggregate) to *d_out; init alone for no items.
//! As the second pass it is a programmatic dependent launch, and waits for the first pass's
//! partials.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetT,
          typename ReductionOpT, typename InitT, typename AccumT, typename TransformOpT, bool PARTIALS = false>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::SingleTilePolicy::BLOCK_THREADS) void DeviceReduceSingleTileKernel(
    InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items, ReductionOpT reduction_op, InitT init,
    TransformOpT transform_op)
{
  using SingleTilePolicyT = typename MaxPolicyT::ActivePolicy::SingleTilePolicy;
  using PolicyT = ::cuda::std::conditional_t<PARTIALS, detail::reduce::partials_policy_t<SingleTilePolicyT, AccumT>,
                                             SingleTilePolicyT>;
  using AgentT  = AgentReduce<PolicyT, InputIteratorT, OffsetT, ReductionOpT, AccumT, TransformOpT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::WaitForPrimaryGrid(); // the partials of DeviceReduceKernel (a no-op after an ordinary launch)
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
//! reduction, which on sm_90 and later is a programmatic dependent launch: its block starts while
//! the first pass's last blocks run, so no launch gap separates the two).
//!
//! The template parameters are CUB's. PolicyHubT may be a hub of CUB's shape: policies with a
//! ReducePolicy and a SingleTilePolicy (AgentReducePolicy); strata's further knobs (see
//! detail::reduce::single_block_max_items_v and the traits after it) then take their defaults.
//! KernelSource and KernelLauncherFactory exist for CUB's spelling; only their defaults are accepted.
template <
    typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename ReductionOpT,
    typename InitT        = detail::non_void_value_t<OutputIteratorT, detail::it_value_t<InputIteratorT>>,
    typename AccumT       = detail::reduce::accumulator_t<ReductionOpT, detail::it_value_t<InputIteratorT>, InitT>,
    typename TransformOpT = ::cuda::std::identity,
    typename PolicyHubT = detail::reduce::policy_hub<AccumT, OffsetT, ReductionOpT, detail::it_value_t<InputIteratorT>>,
    typename KernelSource = detail::DefaultKernelSource, typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DispatchReduce
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetT num_items;
  ReductionOpT reduction_op;
  InitT init;
  cudaStream_t stream;
  int ptx_version; // the device's (PtxVersion): programmatic launches need code for sm_90 or later
  TransformOpT transform_op;
  KernelSource kernel_source;
  KernelLauncherFactory launcher_factory;

  using MaxPolicyT = typename PolicyHubT::MaxPolicy;

  STRATA_RUNTIME_FUNCTION DispatchReduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                         OutputIteratorT d_out, OffsetT num_items, ReductionOpT reduction_op,
                                         InitT init, cudaStream_t stream, int ptx_version,
                                         TransformOpT transform_op = {}, KernelSource kernel_source = {},
                                         KernelLauncherFactory launcher_factory = {})
      : d_temp_storage(d_temp_storage)
      , temp_storage_bytes(temp_storage_bytes)
      , d_in(d_in)
      , d_out(d_out)
      , num_items(num_items)
      , reduction_op(reduction_op)
      , init(init)
      , stream(stream)
      , ptx_version(ptx_version)
      , transform_op(transform_op)
      , kernel_source(kernel_source)
      , launcher_factory(launcher_factory)
  {
  }

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using SingleTilePolicyT = typename ActivePolicyT::SingleTilePolicy;
    using ReducePolicyT     = typename ActivePolicyT::ReducePolicy;

    if (num_items <= OffsetT(detail::reduce::single_block_max_items_v<ActivePolicyT>))
    {
      // No temporary storage: the size query asks for one byte (the buffer pointer of the second
      // call is then never null), and the second call, as CUB's, accepts whatever size it gets.
      if (d_temp_storage == nullptr)
      {
        temp_storage_bytes = 1;
        return cudaSuccess;
      }
      return detail::LaunchKernel(false,
                                  DeviceReduceSingleTileKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, OffsetT,
                                                               ReductionOpT, InitT, AccumT, TransformOpT>,
                                  1, SingleTilePolicyT::BLOCK_THREADS, stream, d_in, d_out, num_items, reduction_op,
                                  init, transform_op);
    }

    // At most BLOCKS_PER_SM blocks per SM times SUBSCRIPTION: strip-mined, one block per tile up
    // to that; otherwise an even share of whole tiles per block.
    int sm_count      = 0;
    cudaError_t error = detail::SmCount(sm_count);
    if (error != cudaSuccess)
    {
      return error;
    }
    constexpr OffsetT TILE_ITEMS = OffsetT(ReducePolicyT::BLOCK_THREADS) * OffsetT(ReducePolicyT::ITEMS_PER_THREAD);
    const OffsetT max_blocks     = OffsetT(sm_count) * OffsetT(detail::reduce::blocks_per_sm_v<ActivePolicyT>)
                               * OffsetT(detail::reduce::subscription_v<ActivePolicyT>);
    const OffsetT tiles           = num_items / TILE_ITEMS + (num_items % TILE_ITEMS != 0);
    const OffsetT tiles_per_block = tiles / max_blocks + (tiles % max_blocks != 0);
    const OffsetT items_per_block = tiles_per_block * TILE_ITEMS;
    const int blocks              = detail::reduce::grid_mapping_v<ActivePolicyT> == GRID_MAPPING_STRIP_MINE
                                        ? int(tiles < max_blocks ? tiles : max_blocks)
                                        : int(num_items / items_per_block + (num_items % items_per_block != 0));

    AccumT* d_partials = nullptr;
    error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_partials, blocks));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }
    error = detail::LaunchKernel(
        false, DeviceReduceKernel<MaxPolicyT, InputIteratorT, OffsetT, ReductionOpT, AccumT, TransformOpT>, blocks,
        ReducePolicyT::BLOCK_THREADS, stream, d_in, d_partials, num_items, items_per_block, reduction_op, transform_op);
    if (error != cudaSuccess)
    {
      return error;
    }
    return detail::LaunchKernel(ptx_version >= 900,
                                DeviceReduceSingleTileKernel<MaxPolicyT, AccumT*, OutputIteratorT, int, ReductionOpT,
                                                             InitT, AccumT, ::cuda::std::identity, true>,
                                1, SingleTilePolicyT::BLOCK_THREADS, stream, d_partials, d_out, blocks, reduction_op,
                                init, ::cuda::std::identity{});
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the
  //! reduction.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items,
                                                      ReductionOpT reduction_op, InitT init, cudaStream_t stream,
                                                      TransformOpT transform_op = {}, KernelSource kernel_source = {},
                                                      KernelLauncherFactory launcher_factory = {})
  {
    if (d_temp_storage != nullptr && (detail::IsNullPointer(d_out) || (num_items > 0 && detail::IsNullPointer(d_in))))
    {
      return STRATA_INVALID_ARGUMENT("d_in or d_out is null");
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchReduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init, stream,
                                ptx_version, transform_op, kernel_source, launcher_factory);
        });
  }
};

//! DispatchReduce with CUB's parameter order for a transformed reduction: the transform before
//! the initial value, and the accumulator that of the transformed items.
template <
    typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename ReductionOpT, typename TransformOpT,
    typename InitT,
    typename AccumT = detail::reduce::accumulator_t<
        ReductionOpT, ::cuda::std::invoke_result_t<TransformOpT, detail::it_value_t<InputIteratorT>>, InitT>,
    typename PolicyHubT = detail::reduce::policy_hub<AccumT, OffsetT, ReductionOpT, detail::it_value_t<InputIteratorT>>,
    typename KernelSource = detail::DefaultKernelSource, typename KernelLauncherFactory = detail::TripleChevronFactory>
using DispatchTransformReduce = DispatchReduce<InputIteratorT, OutputIteratorT, OffsetT, ReductionOpT, InitT, AccumT,
                                               TransformOpT, PolicyHubT, KernelSource, KernelLauncherFactory>;

STRATA_NAMESPACE_END

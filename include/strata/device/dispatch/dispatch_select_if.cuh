// strata/device/dispatch/dispatch_select_if.cuh: the kernels of DeviceSelect and DevicePartition,
// and the dispatch classes (CUB's DispatchSelectIf, DispatchUniqueByKey and
// DispatchThreeWayPartitionIf) that pick the policy, size and carve the temporary storage, and
// launch.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_select_if.cuh>
#include <strata/agent/agent_three_way_partition.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/shared_fit.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/dispatch_single_pass.cuh>
#include <strata/device/dispatch/tuning/tuning_select_if.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace select
{
//! The agents of the compaction kernels, for detail::fitted_agent_t: a hub's tile, cut down where
//! the items are too large for it to fit shared memory.
template <typename InputIteratorT, typename FlagsInputIteratorT, typename SelectedOutputIteratorT,
          typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, typename OffsetT, bool KEEP_REJECTS,
          typename ValuesInputIteratorT = NullType*, typename ValuesOutputIteratorT = NullType*>
struct sweep_agent_family
{
  template <typename PolicyT>
  using agent_t =
      AgentSelectIf<PolicyT, InputIteratorT, FlagsInputIteratorT, SelectedOutputIteratorT, NumSelectedIteratorT,
                    SelectOpT, EqualityOpT, OffsetT, KEEP_REJECTS, ValuesInputIteratorT, ValuesOutputIteratorT>;
};
} // namespace select

namespace three_way_partition
{
template <typename... IteratorsOpsAndOffsetT>
struct agent_family
{
  template <typename PolicyT>
  using agent_t = AgentThreeWayPartition<PolicyT, IteratorsOpsAndOffsetT...>;
};
} // namespace three_way_partition
} // namespace detail

STRATA_KERNELS_BEGIN

//! The single pass of DeviceSelect and two-way DevicePartition: each block compacts the tile it
//! takes from the counter.
template <typename MaxPolicyT, typename InputIteratorT, typename FlagsInputIteratorT, typename SelectedOutputIteratorT,
          typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, typename OffsetT, bool KEEP_REJECTS,
          typename ValuesInputIteratorT, typename ValuesOutputIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::fitted_agent_t<
        detail::select::sweep_agent_family<InputIteratorT, FlagsInputIteratorT, SelectedOutputIteratorT,
                                           NumSelectedIteratorT, SelectOpT, EqualityOpT, OffsetT, KEEP_REJECTS,
                                           ValuesInputIteratorT, ValuesOutputIteratorT>,
        typename MaxPolicyT::ActivePolicy::SelectIfPolicyT>::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::SelectIfPolicyT::
        MIN_BLOCKS_PER_SM) void DeviceSelectSweepKernel(InputIteratorT d_in, FlagsInputIteratorT d_flags,
                                                        SelectedOutputIteratorT d_out,
                                                        NumSelectedIteratorT d_num_selected_out,
                                                        ScanTileState<OffsetT> tile_state, unsigned int* d_tile_counter,
                                                        SelectOpT select_op, EqualityOpT equality_op, OffsetT num_items,
                                                        int num_tiles, ValuesInputIteratorT d_values_in,
                                                        ValuesOutputIteratorT d_values_out, void* d_block_storage)
{
  using AgentT = detail::fitted_agent_t<
      detail::select::sweep_agent_family<InputIteratorT, FlagsInputIteratorT, SelectedOutputIteratorT,
                                         NumSelectedIteratorT, SelectOpT, EqualityOpT, OffsetT, KEEP_REJECTS,
                                         ValuesInputIteratorT, ValuesOutputIteratorT>,
      typename MaxPolicyT::ActivePolicy::SelectIfPolicyT>;
  auto& temp_storage = detail::BlockTempStorage<typename AgentT::TempStorage>(d_block_storage);
  detail::WaitForPrimaryGrid(); // the descriptors and the tile counter, from the init kernel
  AgentT(temp_storage, d_in, d_flags, d_out, d_num_selected_out, select_op, equality_op, num_items, d_values_in,
         d_values_out)
      .ConsumeRange(num_tiles, tile_state, d_tile_counter);
}

//! The single pass of the three-way DevicePartition.
template <typename MaxPolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOp,
          typename SelectSecondPartOp, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::fitted_agent_t<detail::three_way_partition::agent_family<
                               InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT, UnselectedOutputIteratorT,
                               NumSelectedIteratorT, SelectFirstPartOp, SelectSecondPartOp, OffsetT>,
                           typename MaxPolicyT::ActivePolicy::ThreeWayPartitionPolicy>::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::ThreeWayPartitionPolicy::
        MIN_BLOCKS_PER_SM) void DeviceThreeWayPartitionKernel(InputIteratorT d_in,
                                                              FirstOutputIteratorT d_first_part_out,
                                                              SecondOutputIteratorT d_second_part_out,
                                                              UnselectedOutputIteratorT d_unselected_out,
                                                              NumSelectedIteratorT d_num_selected_out,
                                                              ScanTileState<
                                                                  detail::three_way_partition::part_counts<OffsetT>>
                                                                  tile_state,
                                                              unsigned int* d_tile_counter,
                                                              SelectFirstPartOp select_first_part_op,
                                                              SelectSecondPartOp select_second_part_op,
                                                              OffsetT num_items, int num_tiles, void* d_block_storage)
{
  using AgentT =
      detail::fitted_agent_t<detail::three_way_partition::agent_family<
                                 InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT, UnselectedOutputIteratorT,
                                 NumSelectedIteratorT, SelectFirstPartOp, SelectSecondPartOp, OffsetT>,
                             typename MaxPolicyT::ActivePolicy::ThreeWayPartitionPolicy>;
  auto& temp_storage = detail::BlockTempStorage<typename AgentT::TempStorage>(d_block_storage);
  detail::WaitForPrimaryGrid();
  AgentT(temp_storage, d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
         select_first_part_op, select_second_part_op, num_items)
      .ConsumeRange(num_tiles, tile_state, d_tile_counter);
}

STRATA_KERNELS_END

namespace detail
{
namespace select
{
//! The policy hub's input type for an input iterator whose value type may be void.
template <typename InputIteratorT>
using input_t = non_void_value_t<InputIteratorT, char>;

} // namespace select
} // namespace detail

//! Dispatches a stream compaction or two-way partition of num_items items (CUB's DispatchSelectIf):
//! d_flags (or NullType* for none), select_op (or NullType) and equality_op (or NullType) say
//! which items are kept, as AgentSelectIf describes; SelectionOpt says what becomes of the others.
//! *d_num_selected_out receives the number kept. Negative counts and null pointers on the run
//! call are rejected with cudaErrorInvalidValue before anything is written.
template <
    typename InputIteratorT, typename FlagsInputIteratorT, typename SelectedOutputIteratorT,
    typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, typename OffsetT, SelectImpl SelectionOpt,
    typename PolicyHub    = detail::select::policy_hub<detail::select::input_t<InputIteratorT>>,
    typename KernelSource = detail::DefaultKernelSource, typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DispatchSelectIf
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  using MaxPolicyT      = typename PolicyHub::MaxPolicy;
  using UnsignedOffsetT = detail::offset_t<OffsetT>;
  using TileStateT      = ScanTileState<UnsignedOffsetT>;

  static constexpr bool KEEP_REJECTS = SelectionOpt == SelectImpl::Partition;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  FlagsInputIteratorT d_flags;
  SelectedOutputIteratorT d_selected_out;
  NumSelectedIteratorT d_num_selected_out;
  SelectOpT select_op;
  EqualityOpT equality_op;
  UnsignedOffsetT num_items;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using FamilyT =
        detail::select::sweep_agent_family<InputIteratorT, FlagsInputIteratorT, SelectedOutputIteratorT,
                                           NumSelectedIteratorT, SelectOpT, EqualityOpT, UnsignedOffsetT, KEEP_REJECTS>;
    using AgentT = detail::fitted_agent_t<FamilyT, typename ActivePolicyT::SelectIfPolicyT>;
    return detail::single_pass::InvokeCompaction<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, AgentT::TILE_ITEMS, ptx_version, stream, d_num_selected_out, 1,
        detail::block_storage_bytes_v<FamilyT, typename ActivePolicyT::SelectIfPolicyT>,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic,
               void* d_block_storage)
        {
          return detail::single_pass::LaunchPass<AgentT>(
              programmatic,
              DeviceSelectSweepKernel<MaxPolicyT, InputIteratorT, FlagsInputIteratorT, SelectedOutputIteratorT,
                                      NumSelectedIteratorT, SelectOpT, EqualityOpT, UnsignedOffsetT, KEEP_REJECTS,
                                      NullType*, NullType*>,
              num_tiles, stream, d_in, d_flags, d_selected_out, d_num_selected_out, tile_state, d_tile_counter,
              select_op, equality_op, num_items, num_tiles, static_cast<NullType*>(nullptr),
              static_cast<NullType*>(nullptr), d_block_storage);
        });
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the
  //! compaction.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputIteratorT d_in, FlagsInputIteratorT d_flags,
                                                      SelectedOutputIteratorT d_selected_out,
                                                      NumSelectedIteratorT d_num_selected_out, SelectOpT select_op,
                                                      EqualityOpT equality_op, OffsetT num_items, cudaStream_t stream)
  {
    const char* problem =
        detail::single_pass::ArgumentProblem(d_temp_storage, d_num_selected_out, num_items, d_in, d_selected_out);
    if constexpr (!detail::select::is_null_iterator_v<FlagsInputIteratorT>)
    {
      if (problem == nullptr && d_temp_storage != nullptr && num_items != 0 && detail::IsNullPointer(d_flags))
      {
        problem = "d_flags is null";
      }
    }
    if (problem != nullptr)
    {
      return STRATA_INVALID_ARGUMENT(problem);
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchSelectIf{d_temp_storage, temp_storage_bytes, d_in,
                                  d_flags,        d_selected_out,     d_num_selected_out,
                                  select_op,      equality_op,        UnsignedOffsetT(num_items),
                                  stream,         ptx_version};
        });
  }
};

//! Dispatches DeviceSelect::UniqueByKey (CUB's DispatchUniqueByKey): the first key of every run of
//! keys equal under equality_op, with its value.
template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
          typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename EqualityOpT, typename OffsetT,
          typename PolicyHub             = detail::select::policy_hub<detail::select::input_t<KeyInputIteratorT>>,
          typename KernelSource          = detail::DefaultKernelSource,
          typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DispatchUniqueByKey
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  using MaxPolicyT      = typename PolicyHub::MaxPolicy;
  using UnsignedOffsetT = detail::offset_t<OffsetT>;
  using TileStateT      = ScanTileState<UnsignedOffsetT>;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyInputIteratorT d_keys_in;
  ValueInputIteratorT d_values_in;
  KeyOutputIteratorT d_keys_out;
  ValueOutputIteratorT d_values_out;
  NumSelectedIteratorT d_num_selected_out;
  EqualityOpT equality_op;
  UnsignedOffsetT num_items;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using FamilyT = detail::select::sweep_agent_family<KeyInputIteratorT, NullType*, KeyOutputIteratorT,
                                                       NumSelectedIteratorT, NullType, EqualityOpT, UnsignedOffsetT,
                                                       false, ValueInputIteratorT, ValueOutputIteratorT>;
    using AgentT  = detail::fitted_agent_t<FamilyT, typename ActivePolicyT::SelectIfPolicyT>;
    return detail::single_pass::InvokeCompaction<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, AgentT::TILE_ITEMS, ptx_version, stream, d_num_selected_out, 1,
        detail::block_storage_bytes_v<FamilyT, typename ActivePolicyT::SelectIfPolicyT>,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic,
               void* d_block_storage)
        {
          return detail::single_pass::LaunchPass<AgentT>(
              programmatic,
              DeviceSelectSweepKernel<MaxPolicyT, KeyInputIteratorT, NullType*, KeyOutputIteratorT,
                                      NumSelectedIteratorT, NullType, EqualityOpT, UnsignedOffsetT, false,
                                      ValueInputIteratorT, ValueOutputIteratorT>,
              num_tiles, stream, d_keys_in, static_cast<NullType*>(nullptr), d_keys_out, d_num_selected_out, tile_state,
              d_tile_counter, NullType{}, equality_op, num_items, num_tiles, d_values_in, d_values_out,
              d_block_storage);
        });
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) it.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      KeyInputIteratorT d_keys_in, ValueInputIteratorT d_values_in,
                                                      KeyOutputIteratorT d_keys_out, ValueOutputIteratorT d_values_out,
                                                      NumSelectedIteratorT d_num_selected_out, EqualityOpT equality_op,
                                                      OffsetT num_items, cudaStream_t stream)
  {
    if (const char* problem = detail::single_pass::ArgumentProblem(d_temp_storage, d_num_selected_out, num_items,
                                                                   d_keys_in, d_values_in, d_keys_out, d_values_out))
    {
      return STRATA_INVALID_ARGUMENT(problem);
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchUniqueByKey{d_temp_storage,
                                     temp_storage_bytes,
                                     d_keys_in,
                                     d_values_in,
                                     d_keys_out,
                                     d_values_out,
                                     d_num_selected_out,
                                     equality_op,
                                     UnsignedOffsetT(num_items),
                                     stream,
                                     ptx_version};
        });
  }
};

namespace detail
{
namespace three_way_partition
{
//! The host side of a three-way partition whose parts are counted in UnsignedOffsetT.
template <typename MaxPolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOp,
          typename SelectSecondPartOp, typename UnsignedOffsetT>
struct dispatch_t
{
  using TileStateT = ScanTileState<part_counts<UnsignedOffsetT>>;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  FirstOutputIteratorT d_first_part_out;
  SecondOutputIteratorT d_second_part_out;
  UnselectedOutputIteratorT d_unselected_out;
  NumSelectedIteratorT d_num_selected_out;
  SelectFirstPartOp select_first_part_op;
  SelectSecondPartOp select_second_part_op;
  UnsignedOffsetT num_items;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using FamilyT = agent_family<InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT, UnselectedOutputIteratorT,
                                 NumSelectedIteratorT, SelectFirstPartOp, SelectSecondPartOp, UnsignedOffsetT>;
    using AgentT  = fitted_agent_t<FamilyT, typename ActivePolicyT::ThreeWayPartitionPolicy>;
    return single_pass::InvokeCompaction<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, AgentT::TILE_ITEMS, ptx_version, stream, d_num_selected_out, 2,
        block_storage_bytes_v<FamilyT, typename ActivePolicyT::ThreeWayPartitionPolicy>,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic,
               void* d_block_storage)
        {
          return single_pass::LaunchPass<AgentT>(
              programmatic,
              DeviceThreeWayPartitionKernel<MaxPolicyT, InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT,
                                            UnselectedOutputIteratorT, NumSelectedIteratorT, SelectFirstPartOp,
                                            SelectSecondPartOp, UnsignedOffsetT>,
              num_tiles, stream, d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
              tile_state, d_tile_counter, select_first_part_op, select_second_part_op, num_items, num_tiles,
              d_block_storage);
        });
  }
};
} // namespace three_way_partition
} // namespace detail

//! Dispatches DevicePartition's three-way partition (CUB's DispatchThreeWayPartitionIf);
//! d_num_selected_out[0] and [1] receive the sizes of the first and second parts. Inputs of fewer
//! than 2^32 items count their parts in 32 bits, whatever OffsetT (the look-back then reads both
//! counts and the status as one 16-byte word).
template <typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOp,
          typename SelectSecondPartOp, typename OffsetT,
          typename PolicyHub             = detail::select::policy_hub<detail::select::input_t<InputIteratorT>>,
          typename KernelSource          = detail::DefaultKernelSource,
          typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DispatchThreeWayPartitionIf
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  using MaxPolicyT = typename PolicyHub::MaxPolicy;

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) it.
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, FirstOutputIteratorT d_first_part_out,
           SecondOutputIteratorT d_second_part_out, UnselectedOutputIteratorT d_unselected_out,
           NumSelectedIteratorT d_num_selected_out, SelectFirstPartOp select_first_part_op,
           SelectSecondPartOp select_second_part_op, OffsetT num_items, cudaStream_t stream)
  {
    if (const char* problem = detail::single_pass::ArgumentProblem(
            d_temp_storage, d_num_selected_out, num_items, d_in, d_first_part_out, d_second_part_out, d_unselected_out))
    {
      return STRATA_INVALID_ARGUMENT(problem);
    }
    auto run = [&](auto offset)
    {
      using UnsignedOffsetT = decltype(offset);
      using DispatchT       = detail::three_way_partition::dispatch_t<
          MaxPolicyT, InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT, UnselectedOutputIteratorT,
          NumSelectedIteratorT, SelectFirstPartOp, SelectSecondPartOp, UnsignedOffsetT>;
      return detail::InvokeForCurrentDevice<MaxPolicyT>(
          [&](int ptx_version)
          {
            return DispatchT{d_temp_storage,
                             temp_storage_bytes,
                             d_in,
                             d_first_part_out,
                             d_second_part_out,
                             d_unselected_out,
                             d_num_selected_out,
                             select_first_part_op,
                             select_second_part_op,
                             UnsignedOffsetT(num_items),
                             stream,
                             ptx_version};
          });
    };
    return detail::single_pass::WithCountType(num_items, run);
  }
};

STRATA_NAMESPACE_END

// strata/device/dispatch/dispatch_rle.cuh: the kernel of the single-pass run-length encoding, and
// the dispatch class (CUB's DeviceRleDispatch, for NonTrivialRuns) that picks the policy, sizes
// and carves the temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_rle.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/shared_fit.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/dispatch_single_pass.cuh>
#include <strata/device/dispatch/tuning/tuning_run_length_encode.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/limits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace rle
{
//! The agent of the encoding kernel, for detail::fitted_agent_t.
template <typename InputIteratorT, typename FirstOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename EqualityOpT, typename CountT, bool NON_TRIVIAL_RUNS>
struct agent_family
{
  template <typename PolicyT>
  using agent_t = AgentRle<PolicyT, InputIteratorT, FirstOutputIteratorT, LengthsOutputIteratorT,
                           NumRunsOutputIteratorT, EqualityOpT, CountT, NON_TRIVIAL_RUNS>;
};
} // namespace rle
} // namespace detail

STRATA_KERNELS_BEGIN

//! The single pass of DeviceRunLengthEncode: each block encodes the tile it takes from the counter.
template <typename MaxPolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename EqualityOpT, typename CountT, bool NON_TRIVIAL_RUNS>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    detail::fitted_agent_t<detail::rle::agent_family<InputIteratorT, FirstOutputIteratorT, LengthsOutputIteratorT,
                                                     NumRunsOutputIteratorT, EqualityOpT, CountT, NON_TRIVIAL_RUNS>,
                           typename MaxPolicyT::ActivePolicy::RleSweepPolicyT>::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::RleSweepPolicyT::
        MIN_BLOCKS_PER_SM) void DeviceRleSweepKernel(InputIteratorT d_in, FirstOutputIteratorT d_first_out,
                                                     LengthsOutputIteratorT d_lengths_out,
                                                     NumRunsOutputIteratorT d_num_runs_out,
                                                     ScanTileState<KeyValuePair<CountT, CountT>> tile_state,
                                                     unsigned int* d_tile_counter, EqualityOpT equality_op,
                                                     CountT num_items, int num_tiles, void* d_block_storage)
{
  using AgentT =
      detail::fitted_agent_t<detail::rle::agent_family<InputIteratorT, FirstOutputIteratorT, LengthsOutputIteratorT,
                                                       NumRunsOutputIteratorT, EqualityOpT, CountT, NON_TRIVIAL_RUNS>,
                             typename MaxPolicyT::ActivePolicy::RleSweepPolicyT>;
  auto& temp_storage = detail::BlockTempStorage<typename AgentT::TempStorage>(d_block_storage);
  detail::WaitForPrimaryGrid(); // the descriptors and the tile counter, from the init kernel
  AgentT(temp_storage, d_in, d_first_out, d_lengths_out, d_num_runs_out, equality_op, num_items)
      .ConsumeRange(num_tiles, tile_state, d_tile_counter);
}

STRATA_KERNELS_END

namespace detail
{
namespace rle
{
//! The host side of one run-length encoding whose runs are counted in CountT.
template <typename MaxPolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename EqualityOpT, typename CountT, bool NON_TRIVIAL_RUNS>
struct dispatch_t
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  FirstOutputIteratorT d_first_out;
  LengthsOutputIteratorT d_lengths_out;
  NumRunsOutputIteratorT d_num_runs_out;
  EqualityOpT equality_op;
  CountT num_items;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using FamilyT = agent_family<InputIteratorT, FirstOutputIteratorT, LengthsOutputIteratorT, NumRunsOutputIteratorT,
                                 EqualityOpT, CountT, NON_TRIVIAL_RUNS>;
    using AgentT  = fitted_agent_t<FamilyT, typename ActivePolicyT::RleSweepPolicyT>;
    using TileStateT = typename AgentT::TileStateT;
    return single_pass::InvokeCompaction<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, AgentT::TILE_ITEMS, ptx_version, stream, d_num_runs_out, 1,
        block_storage_bytes_v<FamilyT, typename ActivePolicyT::RleSweepPolicyT>,
        [this](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic,
               void* d_block_storage)
        {
          return single_pass::LaunchPass<AgentT>(
              programmatic,
              DeviceRleSweepKernel<MaxPolicyT, InputIteratorT, FirstOutputIteratorT, LengthsOutputIteratorT,
                                   NumRunsOutputIteratorT, EqualityOpT, CountT, NON_TRIVIAL_RUNS>,
              num_tiles, stream, d_in, d_first_out, d_lengths_out, d_num_runs_out, tile_state, d_tile_counter,
              equality_op, num_items, num_tiles, d_block_storage);
        });
  }
};

//! Validates the arguments, then runs (or sizes) the encoding with runs counted in 32 bits where
//! num_items allows it (a tile's two counts and its status then fit one word for the look-back),
//! else in 64.
template <typename MaxPolicyT, bool NON_TRIVIAL_RUNS, typename InputIteratorT, typename FirstOutputIteratorT,
          typename LengthsOutputIteratorT, typename NumRunsOutputIteratorT, typename EqualityOpT, typename OffsetT>
STRATA_RUNTIME_FUNCTION cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                             FirstOutputIteratorT d_first_out, LengthsOutputIteratorT d_lengths_out,
                                             NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op,
                                             OffsetT num_items, cudaStream_t stream)
{
  if (const char* problem =
          single_pass::ArgumentProblem(d_temp_storage, d_num_runs_out, num_items, d_in, d_first_out, d_lengths_out))
  {
    return STRATA_INVALID_ARGUMENT(problem);
  }
  auto run = [&](auto count)
  {
    using CountT    = decltype(count);
    using DispatchT = dispatch_t<MaxPolicyT, InputIteratorT, FirstOutputIteratorT, LengthsOutputIteratorT,
                                 NumRunsOutputIteratorT, EqualityOpT, CountT, NON_TRIVIAL_RUNS>;
    return InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchT{d_temp_storage, temp_storage_bytes, d_in,   d_first_out, d_lengths_out, d_num_runs_out,
                           equality_op,    CountT(num_items),  stream, ptx_version};
        });
  };
  return single_pass::WithCountType(num_items, run);
}
} // namespace rle
} // namespace detail

//! Dispatches DeviceRunLengthEncode::NonTrivialRuns (CUB's DeviceRleDispatch): for each run of
//! more than one item equal under equality_op, its offset goes to d_offsets_out and its length to
//! d_lengths_out; *d_num_runs_out receives the number of such runs. Negative counts and null
//! pointers on the run call are rejected with cudaErrorInvalidValue before anything is written.
template <typename InputIteratorT, typename OffsetsOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename EqualityOpT, typename OffsetT,
          typename PolicyHub = detail::rle::non_trivial_runs::policy_hub<
              detail::non_void_value_t<LengthsOutputIteratorT, OffsetT>, detail::it_value_t<InputIteratorT>>,
          typename KernelSource          = detail::DefaultKernelSource,
          typename KernelLauncherFactory = detail::TripleChevronFactory>
struct DeviceRleDispatch
{
  static_assert(detail::RequireDefaultLaunch<KernelSource, KernelLauncherFactory>::value);
  using MaxPolicyT = typename PolicyHub::MaxPolicy;

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) it.
  STRATA_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes,
                                                      InputIteratorT d_in, OffsetsOutputIteratorT d_offsets_out,
                                                      LengthsOutputIteratorT d_lengths_out,
                                                      NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op,
                                                      OffsetT num_items, cudaStream_t stream)
  {
    return detail::rle::Dispatch<MaxPolicyT, true>(d_temp_storage, temp_storage_bytes, d_in, d_offsets_out,
                                                   d_lengths_out, d_num_runs_out, equality_op, num_items, stream);
  }
};

STRATA_NAMESPACE_END

// strata/device/dispatch/tuning/tuning_reduce.cuh: the tuning policies of DeviceReduce, one per
// SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_reduce.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/grid/grid_mapping.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce
{
//! Policies for reducing AccumT values. ReducePolicy reduces the input to one partial per block;
//! SingleTilePolicy reduces small inputs in one block (and gives its block size to the pass over
//! the partials, detail::reduce::partials_policy_t). SINGLE_BLOCK_MAX_ITEMS
//! is the largest input reduced by one block in one launch: below it a second launch costs more
//! than one block's slower pass over the data. The first pass's registers are bounded so that
//! BLOCKS_PER_SM blocks fit on an SM, and its grid has SUBSCRIPTION times as many blocks as fit at
//! once. GRID_MAPPING_RAKE gives each block an even share of contiguous tiles,
//! GRID_MAPPING_STRIP_MINE has block b take tiles b, b + grid, ... (the grid sweeps the input
//! together); with several waves, SMs that stream faster take more blocks, so no SM's slower
//! stream holds up the end.
//! The type whose size scales the items per thread, so that a tile reads about the same bytes:
//! the value of an (index, value) pair, which is what the input holds; the input items where a
//! transform widens them into a larger accumulator (u32 squared into u64: 16 items per thread,
//! not 8); otherwise the accumulator (narrow inputs such as int8 summed in int keep 16 items).
template <typename AccumT, typename InputT>
struct scaling
{
  using type = ::cuda::std::conditional_t<(sizeof(InputT) >= 4 && sizeof(InputT) < sizeof(AccumT)), InputT, AccumT>;
};
template <typename KeyT, typename ValueT, typename InputT>
struct scaling<KeyValuePair<KeyT, ValueT>, InputT>
{
  using type = ValueT;
};

template <typename AccumT, typename OffsetT, typename ReductionOpT, typename InputT = AccumT>
struct policy_hub
{
  using ScaleT = typename scaling<AccumT, InputT>::type;

  //! sm_75 and sm_80 (not measured here): CUB-like raking grids.
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using ReducePolicy     = AgentReducePolicy<256, 16, ScaleT, 4, BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG>;
    using SingleTilePolicy = AgentReducePolicy<256, 16, ScaleT, 4, BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG>;
    static constexpr int SINGLE_BLOCK_MAX_ITEMS       = 4096;
    static constexpr int BLOCKS_PER_SM                = 4;
    static constexpr int SUBSCRIPTION                 = 1;
    static constexpr GridMappingStrategy GRID_MAPPING = GRID_MAPPING_RAKE;
  };

  //! H100 (tune_reduce.cu, docs/tuning.md): strip-mined grids of 5 waves (4-byte values) or 1; one
  //! block of 1024 x 16 up to 256 KiB of input (2^14 items for arg pairs). Accumulators of more
  //! than 1 KiB take a block of 256 threads, whose 8 warps' partials fit shared memory.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    using ReducePolicy = AgentReducePolicy<256, 16, ScaleT, 4, BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG>;
    using SingleTilePolicy =
        AgentReducePolicy<sizeof(AccumT) <= 1024 ? 1024 : 256, 16, ScaleT, 4, BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG>;
    static constexpr int SINGLE_BLOCK_MAX_ITEMS =
        sizeof(AccumT) <= 8 ? (sizeof(ScaleT) <= 4 ? 65536 : 262144 / int(sizeof(ScaleT))) : 16384;
    static constexpr int BLOCKS_PER_SM                = 4;
    static constexpr int SUBSCRIPTION                 = sizeof(ScaleT) <= 4 ? 5 : 1;
    static constexpr GridMappingStrategy GRID_MAPPING = GRID_MAPPING_STRIP_MINE;
  };

  // A generation that keeps the tuning before it is that link, not a copy (a link of its own
  // would only add host code to every call).
  using Policy800  = Policy750;
  using Policy1000 = Policy900;
  using MaxPolicy  = Policy1000;
};
} // namespace reduce
} // namespace detail
STRATA_NAMESPACE_END

// strata/device/dispatch/dispatch_single_pass.cuh: the host step that every single-pass algorithm
// (the scans, scans by key, compactions, partitions, run-length encoding, reduction by key) shares:
// the argument checks of the compactions, the temporary storage of a tile counter and the tile
// descriptors, the initialization kernel and the launch of the single pass, and the choice of a
// 32- or 64-bit count type.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/limits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! Before a single-pass launch: every tile descriptor unpublished, the tile counter at zero.
template <typename TileStateT>
STRATA_KERNEL_ATTRIBUTES void DeviceScanInitKernel(TileStateT tile_state, int num_tiles, unsigned int* d_tile_counter)
{
  detail::TriggerDependentLaunch(); // the single pass may launch now; it waits for this grid's writes
  tile_state.InitializeStatus(num_tiles);
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    *d_tile_counter = 0;
  }
}

//! An empty input: the counts are 0.
template <typename NumSelectedIteratorT, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES void DeviceSelectEmptyKernel(NumSelectedIteratorT d_num_selected_out, int num_counts)
{
  for (int i = 0; i < num_counts; ++i)
  {
    d_num_selected_out[i] = OffsetT(0);
  }
}

STRATA_KERNELS_END

namespace detail
{
namespace single_pass
{
//! The host side of every single-pass algorithm: sizes and carves the temporary storage (a tile
//! counter and the descriptors of TileStateT), and launches. No tiles launch nothing; one tile
//! launches `launch(TileStateT{}, nullptr, 1, false)` alone (neither needs temporary storage: one
//! byte is reported, any size accepted); more launch DeviceScanInitKernel,
//! then `launch(tile_state, d_tile_counter, num_tiles, programmatic)`: with `programmatic`, the
//! single pass is a programmatic dependent launch (detail::LaunchKernel; its kernel calls
//! detail::WaitForPrimaryGrid first), so that its blocks start while the initialization ends. That
//! needs the kernels' code for sm_90 or later: `ptx_version` is the device's (PtxVersion).
template <typename TileStateT, typename OffsetT, typename LaunchT>
STRATA_RUNTIME_FUNCTION cudaError_t Invoke(void* d_temp_storage, size_t& temp_storage_bytes, OffsetT num_items,
                                           OffsetT tile_items, int ptx_version, cudaStream_t stream, LaunchT launch)
{
  constexpr int INIT_BLOCK_THREADS = 256;
  const OffsetT tiles              = num_items / tile_items + (num_items % tile_items != 0);
  if (tiles > OffsetT(::cuda::std::numeric_limits<int>::max()))
  {
    // Tile indices are int: 2^31 tiles of at least 1024 items.
    return STRATA_INVALID_ARGUMENT("num_items is too large: more than 2^31 - 1 tiles");
  }
  const int num_tiles = int(tiles);

  if (num_tiles <= 1)
  {
    // No temporary storage: the size query asks for one byte (the buffer pointer of the second
    // call is then never null), and the second call accepts whatever size it gets.
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = 1;
      return cudaSuccess;
    }
    return num_tiles == 0 ? cudaSuccess : launch(TileStateT{}, static_cast<unsigned int*>(nullptr), 1, false);
  }

  size_t tile_state_bytes = 0;
  cudaError_t error       = TileStateT::AllocationSize(num_tiles, tile_state_bytes);
  if (error != cudaSuccess)
  {
    return error;
  }
  unsigned int* d_tile_counter      = nullptr;
  unsigned char* d_tile_state_bytes = nullptr;
  error                             = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_tile_counter, 1),
                                                            Slot(d_tile_state_bytes, tile_state_bytes));
  if (error != cudaSuccess || d_temp_storage == nullptr)
  {
    return error;
  }
  TileStateT tile_state;
  error = tile_state.Init(num_tiles, d_tile_state_bytes, tile_state_bytes);
  if (error != cudaSuccess)
  {
    return error;
  }
  const int init_blocks = (num_tiles + INIT_BLOCK_THREADS - 1) / INIT_BLOCK_THREADS;
  error = LaunchKernel(false, DeviceScanInitKernel<TileStateT>, init_blocks, INIT_BLOCK_THREADS, stream, tile_state,
                       num_tiles, d_tile_counter);
  if (error != cudaSuccess)
  {
    return error;
  }
  return launch(tile_state, d_tile_counter, num_tiles, ptx_version >= 900);
}
//! Launches AgentT's single pass over num_tiles tiles (LaunchKernel): a block a tile, or for an
//! agent whose blocks take tiles until they run out (AgentT::PERSISTENT), AgentT::BLOCKS_PER_SM an
//! SM where the kernel's occupancy allows that many (fewer where not), and never more than the
//! tiles.
template <typename AgentT, typename... ParamTs, typename... ArgTs>
STRATA_RUNTIME_FUNCTION cudaError_t LaunchPass(bool programmatic, void (*kernel)(ParamTs...), int num_tiles,
                                               cudaStream_t stream, ArgTs... args)
{
  int blocks = num_tiles;
  if constexpr (AgentT::PERSISTENT)
  {
    int sm_count      = 0;
    cudaError_t error = SmCount(sm_count);
    if (error != cudaSuccess)
    {
      return error;
    }
    if (num_tiles > sm_count) // up to a tile an SM: a block a tile
    {
      int occupancy = 0;
      error         = STRATA_DETAIL_REPORT(MaxSmOccupancy(occupancy, kernel, AgentT::BLOCK_THREADS));
      if (error != cudaSuccess)
      {
        return error;
      }
      const int per_sm         = occupancy < AgentT::BLOCKS_PER_SM ? occupancy : AgentT::BLOCKS_PER_SM;
      const long long resident = static_cast<long long>(sm_count) * (per_sm > 0 ? per_sm : 1);
      blocks                   = resident < num_tiles ? static_cast<int>(resident) : num_tiles;
    }
  }
  return LaunchKernel(programmatic, kernel, blocks, AgentT::BLOCK_THREADS, stream, args...);
}

//! The arguments every compaction checks on the run call: a count to write to, and (for a
//! non-empty input) the iterators it reads and writes. Returns what is wrong, or nullptr.
template <typename NumSelectedIteratorT, typename OffsetT, typename... IteratorTs>
STRATA_RUNTIME_FUNCTION const char* ArgumentProblem(void* d_temp_storage, NumSelectedIteratorT d_num_selected_out,
                                                    OffsetT num_items, const IteratorTs&... iterators)
{
  if (!IsValidCount(num_items))
  {
    return "num_items is negative";
  }
  if (d_temp_storage == nullptr)
  {
    return nullptr;
  }
  if (IsNullPointer(d_num_selected_out))
  {
    return "d_num_selected_out or d_num_runs_out is null";
  }
  if (num_items != 0 && (IsNullPointer(iterators) || ...))
  {
    return "an input or output iterator is a null pointer";
  }
  return nullptr;
}

//! Sizes or runs a single-pass compaction with the agent AgentT and the launch `launch`
//! (`launch(tile_state, d_tile_counter, num_tiles, programmatic, d_block_storage)`), after which
//! an empty input writes `num_counts` zero counts. An agent whose TempStorage does not fit shared
//! memory (block_storage_bytes > 0, detail::block_storage_bytes_v) gets a slice of that many bytes
//! per tile (a block per tile) in the temporary storage, ahead of the single pass's own.
template <typename TileStateT, typename UnsignedOffsetT, typename NumSelectedIteratorT, typename LaunchT>
STRATA_RUNTIME_FUNCTION cudaError_t InvokeCompaction(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     UnsignedOffsetT num_items, int tile_items, int ptx_version,
                                                     cudaStream_t stream, NumSelectedIteratorT d_num_selected_out,
                                                     int num_counts, size_t block_storage_bytes, LaunchT launch)
{
  cudaError_t error = cudaSuccess;
  if (block_storage_bytes == 0)
  {
    error = Invoke<TileStateT>(
        d_temp_storage, temp_storage_bytes, num_items, UnsignedOffsetT(tile_items), ptx_version, stream,
        [&](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic)
        { return launch(tile_state, d_tile_counter, num_tiles, programmatic, static_cast<void*>(nullptr)); });
  }
  else
  {
    size_t pass_bytes = 0;
    error = Invoke<TileStateT>(nullptr, pass_bytes, num_items, UnsignedOffsetT(tile_items), ptx_version, stream,
                               [](auto...) { return cudaSuccess; });
    if (error != cudaSuccess)
    {
      return error;
    }
    const UnsignedOffsetT tiles =
        num_items / UnsignedOffsetT(tile_items) + (num_items % UnsignedOffsetT(tile_items) != 0);
    unsigned char* d_block_storage = nullptr;
    unsigned char* d_pass_storage  = nullptr;
    error                          = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes,
                                                           Slot(d_block_storage, static_cast<size_t>(tiles) * block_storage_bytes),
                                                           Slot(d_pass_storage, pass_bytes));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }
    error = Invoke<TileStateT>(
        d_pass_storage, pass_bytes, num_items, UnsignedOffsetT(tile_items), ptx_version, stream,
        [&](TileStateT tile_state, unsigned int* d_tile_counter, int num_tiles, bool programmatic)
        { return launch(tile_state, d_tile_counter, num_tiles, programmatic, static_cast<void*>(d_block_storage)); });
  }
  if (error != cudaSuccess || d_temp_storage == nullptr || num_items != 0)
  {
    return error;
  }
  return LaunchKernel(false, DeviceSelectEmptyKernel<NumSelectedIteratorT, UnsignedOffsetT>, 1, 1, stream,
                      d_num_selected_out, num_counts);
}
//! Calls `run(CountT{})` with the count type of a single pass over `num_items` items: 32-bit where
//! they fit (a tile's counts and its status then fit one descriptor word), else OffsetT's 64-bit
//! offset type.
template <typename OffsetT, typename RunT>
STRATA_RUNTIME_FUNCTION cudaError_t WithCountType(OffsetT num_items, RunT run)
{
  using WideCountT = offset_t<OffsetT>;
  if constexpr (sizeof(WideCountT) > 4)
  {
    if (static_cast<WideCountT>(num_items) > WideCountT(::cuda::std::numeric_limits<::cuda::std::uint32_t>::max()))
    {
      return run(WideCountT{});
    }
  }
  return run(::cuda::std::uint32_t{});
}
} // namespace single_pass
} // namespace detail

STRATA_NAMESPACE_END

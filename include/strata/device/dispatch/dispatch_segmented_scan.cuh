// strata/device/dispatch/dispatch_segmented_scan.cuh: the kernels of DeviceSegmentedScan and
// DispatchSegmentedScan, which scans the segments' lengths into the line, sizes and carves the
// temporary storage, and launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_segmented_scan.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_cost_line.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_scan.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! Once the line's length is known: clears the ring slots the call's tiles use, the carries, the
//! round counters and the tile counter (thread i, slot i).
template <int TILE_ITEMS, typename TileStateT>
STRATA_KERNEL_ATTRIBUTES void DeviceSegmentedScanClearKernel(TileStateT tile_state, const ::cuda::std::uint64_t* d_line,
                                                             ::cuda::std::int64_t num_segments,
                                                             unsigned int* d_tile_counter)
{
  detail::TriggerDependentLaunch(); // the scan may launch now; it waits for this grid's writes
  const ::cuda::std::uint64_t tiles = (d_line[num_segments] + TILE_ITEMS - 1) / TILE_ITEMS;
  const int used = tiles < ::cuda::std::uint64_t(tile_state.capacity) ? int(tiles) : tile_state.capacity;
  const int i    = int(blockIdx.x * blockDim.x + threadIdx.x);
  tile_state.Clear(i, used);
  if (i == 0)
  {
    *d_tile_counter = 0;
  }
}

//! The single pass (AgentSegmentedScan): as many blocks as the device holds take tiles of the line
//! until it runs out.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename OutBeginOffsetIteratorT, typename ScanOpT, typename InitValueT, typename AccumT,
          detail::segmented_scan::mode MODE>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedScanPolicyT::BLOCK_THREADS) void DeviceSegmentedScanKernel(
    InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
    OutBeginOffsetIteratorT d_out_begin_offsets, const ::cuda::std::uint64_t* d_line, ::cuda::std::int64_t num_segments,
    detail::segmented_scan::RoundTileState<AccumT> tile_state, unsigned int* d_tile_counter, ScanOpT scan_op,
    InitValueT init_value)
{
  using AgentT =
      AgentSegmentedScan<typename MaxPolicyT::ActivePolicy::SegmentedScanPolicyT, InputIteratorT, OutputIteratorT,
                         BeginOffsetIteratorT, OutBeginOffsetIteratorT, ScanOpT, InitValueT, AccumT, MODE>;
  __shared__ typename AgentT::TempStorage temp_storage;
  detail::WaitForPrimaryGrid(); // the cleared descriptors and tile counter
  AgentT(temp_storage, d_in, d_out, d_begin_offsets, d_out_begin_offsets, d_line, num_segments, scan_op, init_value)
      .ConsumeLine(tile_state, d_tile_counter);
}

STRATA_KERNELS_END

namespace detail
{
namespace segmented_scan
{
//! The length of segment s, for the line's scan: end - begin, or 0 where the end is not past the
//! begin.
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
struct SegmentLength
{
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint64_t operator()(::cuda::std::int64_t s) const
  {
    const auto begin = static_cast<::cuda::std::int64_t>(d_begin_offsets[s]);
    const auto end   = static_cast<::cuda::std::int64_t>(d_end_offsets[s]);
    return end > begin ? ::cuda::std::uint64_t(end - begin) : 0;
  }
};
} // namespace segmented_scan
} // namespace detail

//! Dispatches a segmented scan (MODE) of num_segments segments: the scan of their lengths writes
//! the line into temporary storage (detail::cost_line::Line), a small kernel clears the tiles'
//! descriptors once the line's length is known, and the single pass (a programmatic dependent
//! launch where the device allows it) takes the line's tiles with as many blocks as the device
//! holds. RING_TILES is how many tiles' descriptors the temporary storage holds (tests make it
//! small to run many rounds).
template <detail::segmented_scan::mode MODE, typename InputIteratorT, typename OutputIteratorT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT,
          typename ScanOpT, typename InitValueT, typename AccumT,
          typename PolicyHub = detail::segmented_scan::policy_hub<AccumT>,
          int RING_TILES     = detail::segmented_scan::default_ring_tiles>
struct DispatchSegmentedScan
{
  using MaxPolicyT = typename PolicyHub::MaxPolicy;
  using TileStateT = detail::segmented_scan::RoundTileState<AccumT>;
  using WordT      = typename TileStateT::WordType;
  using LengthT    = detail::segmented_scan::SegmentLength<BeginOffsetIteratorT, EndOffsetIteratorT>;
  using LineT      = detail::cost_line::Line<LengthT>;
  static_assert(RING_TILES >= 1, "the ring holds at least one tile");

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  OutBeginOffsetIteratorT d_out_begin_offsets;
  ::cuda::std::int64_t num_segments;
  ScanOpT scan_op;
  InitValueT init_value;
  cudaStream_t stream;
  int ptx_version;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT = typename ActivePolicyT::SegmentedScanPolicyT;
    using AgentT  = AgentSegmentedScan<PolicyT, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                      OutBeginOffsetIteratorT, ScanOpT, InitValueT, AccumT, MODE>;
    const LineT line{LengthT{d_begin_offsets, d_end_offsets}, num_segments};
    size_t scan_bytes = 0;
    cudaError_t error = line.Scan(nullptr, scan_bytes, nullptr, stream);
    if (error != cudaSuccess)
    {
      return error;
    }
    ::cuda::std::uint64_t* d_line = nullptr;
    unsigned char* d_scan_storage = nullptr;
    WordT* d_ring                 = nullptr;
    WordT* d_carries              = nullptr;
    unsigned int* d_finished      = nullptr;
    unsigned int* d_tile_counter  = nullptr;
    error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_line, line.Offsets()),
                                          detail::Slot(d_scan_storage, scan_bytes),
                                          detail::Slot(d_ring, TileStateT::RingWords(RING_TILES), 128),
                                          detail::Slot(d_carries, TileStateT::CarryWords(), 128),
                                          detail::Slot(d_finished, 2), detail::Slot(d_tile_counter, 1));
    if (error != cudaSuccess || d_temp_storage == nullptr || num_segments == 0)
    {
      return error;
    }
    error = line.Scan(d_scan_storage, scan_bytes, d_line, stream);
    if (error != cudaSuccess)
    {
      return error;
    }
    TileStateT tile_state;
    tile_state.d_ring           = d_ring;
    tile_state.d_carries        = d_carries;
    tile_state.d_finished       = d_finished;
    tile_state.capacity         = RING_TILES;
    constexpr int CLEAR_THREADS = 256;
    error = detail::LaunchKernel(false, DeviceSegmentedScanClearKernel<AgentT::TILE_ITEMS, TileStateT>,
                                 (RING_TILES + CLEAR_THREADS - 1) / CLEAR_THREADS, CLEAR_THREADS, stream, tile_state,
                                 static_cast<const ::cuda::std::uint64_t*>(d_line), num_segments, d_tile_counter);
    if (error != cudaSuccess)
    {
      return error;
    }
    auto kernel = DeviceSegmentedScanKernel<MaxPolicyT, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                            OutBeginOffsetIteratorT, ScanOpT, InitValueT, AccumT, MODE>;
    int blocks  = 0;
    error       = detail::cost_line::DeviceFillingGrid(blocks, kernel, PolicyT::BLOCK_THREADS);
    if (error != cudaSuccess)
    {
      return error;
    }
    return detail::LaunchKernel(ptx_version >= 900, kernel, blocks, PolicyT::BLOCK_THREADS, stream, d_in, d_out,
                                d_begin_offsets, d_out_begin_offsets, static_cast<const ::cuda::std::uint64_t*>(d_line),
                                num_segments, tile_state, d_tile_counter, scan_op, init_value);
  }

  //! Validates the arguments, picks the policy for the current device and runs (or sizes) the scan.
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
           OutBeginOffsetIteratorT d_out_begin_offsets, ::cuda::std::int64_t num_segments, ScanOpT scan_op,
           InitValueT init_value, cudaStream_t stream)
  {
    if (num_segments < 0)
    {
      return STRATA_INVALID_ARGUMENT("num_segments is negative");
    }
    if (d_temp_storage != nullptr && num_segments > 0
        && (detail::IsNullPointer(d_in) || detail::IsNullPointer(d_out) || detail::IsNullPointer(d_begin_offsets)
            || detail::IsNullPointer(d_end_offsets) || detail::IsNullPointer(d_out_begin_offsets)))
    {
      return STRATA_INVALID_ARGUMENT("d_in, d_out or an offsets iterator is null");
    }
    return detail::InvokeForCurrentDevice<MaxPolicyT>(
        [&](int ptx_version)
        {
          return DispatchSegmentedScan{d_temp_storage, temp_storage_bytes,  d_in,         d_out,   d_begin_offsets,
                                       d_end_offsets,  d_out_begin_offsets, num_segments, scan_op, init_value,
                                       stream,         ptx_version};
        });
  }
};

STRATA_NAMESPACE_END

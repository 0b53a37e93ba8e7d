// strata/device/dispatch/dispatch_cost_line.cuh: the host step of the load-balanced algorithms
// (DeviceSegmentedReduce, the batched copies): the scan of their spans' costs into a cost line,
// and the grid that fills the device, whose warps take its chunks (tile::WarpConsumeChunk).
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace cost_line
{
using CostT = ::cuda::std::uint64_t;

//! cost_op(s) for the spans s < num_spans, 0 past them: the scan reads one cost past the last span,
//! which must not reach a user's arrays.
template <typename CostOpT>
struct SpanCost
{
  CostOpT cost_op;
  ::cuda::std::int64_t num_spans;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE CostT operator()(::cuda::std::int64_t s) const
  {
    return s < num_spans ? CostT(cost_op(s)) : CostT(0);
  }
};

//! The cost line of num_spans spans whose costs CostOpT gives (cost_op(s) for span s < num_spans):
//! Scan writes where each span starts on it, an exclusive scan of num_spans + 1 costs whose last is
//! the line's end (two-phase: a null d_storage sizes it).
template <typename CostOpT>
struct Line
{
  using CountT        = CountingInputIterator<::cuda::std::int64_t, ::cuda::std::int64_t>;
  using CostIteratorT = TransformInputIterator<CostT, SpanCost<CostOpT>, CountT, ::cuda::std::int64_t>;
  using ScanT         = DispatchScan<CostIteratorT, CostT*, ::cuda::std::plus<>, InputValue<CostT>, CostT, CostT>;

  CostOpT cost_op;
  ::cuda::std::int64_t num_spans;

  //! The offsets Scan writes: one per span and the end.
  STRATA_RUNTIME_FUNCTION size_t Offsets() const
  {
    return size_t(num_spans) + 1;
  }

  STRATA_RUNTIME_FUNCTION cudaError_t Scan(void* d_storage, size_t& storage_bytes, CostT* d_offsets,
                                           cudaStream_t stream) const
  {
    return ScanT::Dispatch(d_storage, storage_bytes, CostIteratorT(CountT(0), SpanCost<CostOpT>{cost_op, num_spans}),
                           d_offsets, ::cuda::std::plus<>{}, InputValue<CostT>(0), CostT(Offsets()), stream);
  }
};

//! The blocks of `kernel`, of block_threads threads each, that the current device holds at once:
//! its SMs times the blocks one SM holds (at least one).
template <typename KernelT>
STRATA_RUNTIME_FUNCTION cudaError_t DeviceFillingGrid(int& blocks, KernelT kernel, int block_threads)
{
  int sm_count      = 0;
  int occupancy     = 0;
  cudaError_t error = detail::SmCount(sm_count);
  if (error == cudaSuccess)
  {
    error = MaxSmOccupancy(occupancy, kernel, block_threads);
  }
  blocks = sm_count * (occupancy > 0 ? occupancy : 1);
  return error;
}
} // namespace cost_line
} // namespace detail
STRATA_NAMESPACE_END

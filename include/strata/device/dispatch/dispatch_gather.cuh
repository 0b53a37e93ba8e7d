// strata/device/dispatch/dispatch_gather.cuh: how the sorts move wide values as 32-bit indices (the
// segmented sorts over 32 bytes, DeviceRadixSort over 256): the indices 0, 1, ..., the sort of the
// keys with them, and the gather of the values by the sorted indices (SortByIndices).
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace gather
{
//! Index `i` of a 32-bit index array for every i (DispatchFor's operator).
struct FillIndices
{
  ::cuda::std::uint32_t* d_indices;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local) const
  {
    d_indices[tile_offset + OffsetT(local)] = ::cuda::std::uint32_t(tile_offset + OffsetT(local));
  }
};

//! d_out[i] = d_in[d_indices[i]] where the index is not `unsorted` (DispatchFor's operator).
template <typename ValueT>
struct GatherValues
{
  static constexpr ::cuda::std::uint32_t unsorted = 0xFFFFFFFFu;
  const ::cuda::std::uint32_t* d_indices;
  const ValueT* d_in;
  ValueT* d_out;
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT tile_offset, int local) const
  {
    const OffsetT i                    = tile_offset + OffsetT(local);
    const ::cuda::std::uint32_t source = d_indices[i];
    if (source != unsorted)
    {
      d_out[i] = d_in[source];
    }
  }
};

//! A sort of wide values by their 32-bit indices: d_first gets 0, 1, ..., count - 1 and d_second
//! `unsorted`; `sort(indices)` sorts the keys with the DoubleBuffer of both (d_first current);
//! then d_values.Current() is gathered into d_values.Alternate() by the sorted indices, and that
//! becomes the current buffer. A place the sort left `unsorted` (no segment covers it) is not
//! written.
template <typename ValueT, typename SortT>
STRATA_RUNTIME_FUNCTION cudaError_t SortByIndices(::cuda::std::uint32_t* d_first, ::cuda::std::uint32_t* d_second,
                                                  ::cuda::std::uint32_t count, DoubleBuffer<ValueT>& d_values,
                                                  cudaStream_t stream, SortT sort)
{
  using IndexT      = ::cuda::std::uint32_t;
  cudaError_t error = DispatchFor<IndexT, FillIndices>::Dispatch(count, FillIndices{d_first}, stream);
  if (error == cudaSuccess)
  {
    error = cudaMemsetAsync(d_second, 0xFF, size_t(count) * sizeof(IndexT), stream);
  }
  DoubleBuffer<IndexT> indices(d_first, d_second);
  if (error == cudaSuccess)
  {
    error = sort(indices);
  }
  if (error == cudaSuccess)
  {
    error = DispatchFor<IndexT, GatherValues<ValueT>>::Dispatch(
      count, GatherValues<ValueT>{indices.Current(), d_values.Current(), d_values.Alternate()}, stream);
  }
  if (error == cudaSuccess)
  {
    d_values.selector ^= 1;
  }
  return error;
}
} // namespace gather
} // namespace detail
STRATA_NAMESPACE_END

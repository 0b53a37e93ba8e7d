// strata/device/dispatch/dispatch_gather.cuh: how the sorts move wide values as 32-bit indices (the
// segmented sorts over 32 bytes, DeviceRadixSort over 256): the indices 0, 1, ..., the sort of the
// keys with them, and the gather of the values by the sorted indices (SortByIndices).
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>
#include <strata/util_temporary_storage.cuh>
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

//! A sort of wide values by their 32-bit indices. `sort(d_temp, bytes, indices)` is the sort of the
//! keys with a DoubleBuffer of indices (the call's two-phase convention: sized with a null
//! d_temp). The temporary storage holds its own and two index arrays; where `work` (there are
//! items to move), the first array gets 0, 1, ..., num_items - 1 and the second `unsorted`, the
//! keys are sorted with them (the first current), and d_values.Current() is gathered into
//! d_values.Alternate() by the sorted indices, which becomes the current buffer. A place the sort
//! left `unsorted` (no segment covers it) is not written.
template <typename ValueT, typename SortT>
STRATA_RUNTIME_FUNCTION cudaError_t SortByIndices(void* d_temp_storage, size_t& temp_storage_bytes,
                                                  ::cuda::std::uint32_t num_items, bool work,
                                                  DoubleBuffer<ValueT>& d_values, cudaStream_t stream, SortT sort)
{
  using IndexT = ::cuda::std::uint32_t;
  DoubleBuffer<IndexT> no_indices;
  size_t sort_bytes = 0;
  cudaError_t error = sort(nullptr, sort_bytes, no_indices);
  if (error != cudaSuccess)
  {
    return error;
  }
  char* d_sort_storage = nullptr;
  IndexT* d_first      = nullptr;
  IndexT* d_second     = nullptr;
  error                = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_sort_storage, sort_bytes),
                                               Slot(d_first, num_items), Slot(d_second, num_items));
  if (error != cudaSuccess || d_temp_storage == nullptr || !work)
  {
    return error;
  }
  error = DispatchFor<IndexT, FillIndices>::Dispatch(num_items, FillIndices{d_first}, stream);
  if (error == cudaSuccess)
  {
    error = cudaMemsetAsync(d_second, 0xFF, size_t(num_items) * sizeof(IndexT), stream);
  }
  DoubleBuffer<IndexT> indices(d_first, d_second);
  if (error == cudaSuccess)
  {
    error = sort(d_sort_storage, sort_bytes, indices);
  }
  if (error == cudaSuccess)
  {
    error = DispatchFor<IndexT, GatherValues<ValueT>>::Dispatch(
        num_items, GatherValues<ValueT>{indices.Current(), d_values.Current(), d_values.Alternate()}, stream);
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

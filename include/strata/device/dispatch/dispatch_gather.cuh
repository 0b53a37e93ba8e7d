// strata/device/dispatch/dispatch_gather.cuh: the two DispatchFor operators of the sorts that move
// wide values as 32-bit indices (the segmented sorts over 32 bytes, DeviceRadixSort over 256): the
// indices 0, 1, ... and the gather of the values by the sorted indices.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>

#include <cuda/std/cstdint>

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
} // namespace gather
} // namespace detail
STRATA_NAMESPACE_END

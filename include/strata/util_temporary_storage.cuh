// strata/util_temporary_storage.cuh: the one layout helper that sizes and carves the temporary
// storage of a device call.
//
// A device call describes its temporary storage once, as a list of typed slots, and passes the
// same list to both phases of CUB's two-phase convention:
//
//   int* d_counts = nullptr;
//   TileState* d_tiles = nullptr;
//   cudaError_t error = detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes,
//                                                     detail::Slot(d_counts, num_counts),
//                                                     detail::Slot(d_tiles, num_tiles));
//   if (error != cudaSuccess || d_temp_storage == nullptr) { return error; }
//   // d_counts and d_tiles now point into d_temp_storage
//
// so the size that is reported and the offsets that are used can never disagree.
#pragma once

#if defined(__CUDACC_RTC__)
#  error                                                                                                               \
      "strata/util_temporary_storage.cuh is host code (the device layer): NVRTC compiles the thread, warp, block and iterator layers only; compile device-wide algorithms with nvcc"
#endif

#include <strata/config.cuh>
#include <strata/util_debug.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/limits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! Alignment of every slot unless a slot asks for more: one L2 sector group, so each slot
//! starts where a coalesced access pattern expects it to.
inline constexpr ::cuda::std::size_t temporary_slot_alignment = 256;

//! `count` items of T in a device call's temporary storage; `*ptr` receives their address.
template <typename T>
struct TemporarySlot
{
  T** ptr;
  ::cuda::std::size_t count;
  ::cuda::std::size_t alignment;
};

//! Describes a slot of `count` items of T at `alignment` (a power of two; at least alignof(T)).
template <typename T>
STRATA_HOST_DEVICE TemporarySlot<T> Slot(T*& ptr, ::cuda::std::size_t count,
                                         ::cuda::std::size_t alignment = temporary_slot_alignment)
{
  return TemporarySlot<T>{&ptr, count, alignment < alignof(T) ? alignof(T) : alignment};
}

namespace temporary_storage
{
STRATA_HOST_DEVICE constexpr bool IsPowerOfTwo(::cuda::std::size_t x)
{
  return x != 0 && (x & (x - 1)) == 0;
}

STRATA_HOST_DEVICE constexpr ::cuda::std::size_t AlignUp(::cuda::std::size_t x, ::cuda::std::size_t alignment)
{
  return (x + alignment - 1) & ~(alignment - 1);
}

//! Places the slot after `end` (the bytes used so far, from an aligned base); false if the
//! slot is malformed or its size overflows.
template <typename T>
STRATA_HOST_DEVICE bool Place(const TemporarySlot<T>& slot, ::cuda::std::size_t& end, ::cuda::std::size_t& offset)
{
  constexpr ::cuda::std::size_t max_size = ::cuda::std::numeric_limits<::cuda::std::size_t>::max();
  if (!IsPowerOfTwo(slot.alignment) || slot.count > (max_size - slot.alignment - end) / sizeof(T))
  {
    return false;
  }
  offset = AlignUp(end, slot.alignment);
  end    = offset + slot.count * sizeof(T);
  return true;
}
} // namespace temporary_storage

//! The two phases of a device call's temporary storage.
//! - `d_temp_storage == nullptr`: writes the bytes the slots need (at least 1) to
//!   `temp_storage_bytes`, sets every slot pointer to nullptr and returns cudaSuccess.
//! - otherwise: returns cudaErrorInvalidValue if `temp_storage_bytes` is too small, else points
//!   every slot into `d_temp_storage` (which need not be aligned: room for aligning it is part
//!   of the size) and returns cudaSuccess. An empty slot points there too, never to null: a caller
//!   that tells a kernel "none" by a null pointer sets it itself.
//! A malformed slot (alignment not a power of two, size overflowing size_t) gives
//! cudaErrorInvalidValue in both phases.
template <typename... Ts>
STRATA_HOST_DEVICE cudaError_t CarveTemporaryStorage(void* d_temp_storage, ::cuda::std::size_t& temp_storage_bytes,
                                                     TemporarySlot<Ts>... slots)
{
  static_assert(sizeof...(Ts) > 0, "describe at least one slot");
  constexpr int slot_count = static_cast<int>(sizeof...(Ts));
  ::cuda::std::size_t offsets[slot_count]{};
  ::cuda::std::size_t end       = 0;
  ::cuda::std::size_t max_align = 1;
  bool well_formed              = true;
  int i                         = 0;
  ((well_formed = well_formed && temporary_storage::Place(slots, end, offsets[i++]),
    max_align   = slots.alignment > max_align ? slots.alignment : max_align),
   ...);
  if (!well_formed || end > ::cuda::std::numeric_limits<::cuda::std::size_t>::max() - max_align)
  {
    return STRATA_INVALID_ARGUMENT("temporary storage size overflows size_t, or a slot is malformed");
  }
  // Offsets count from the first max_align boundary at or after d_temp_storage; a device call
  // always reports at least one byte, so that its buffer pointer is never null.
  const ::cuda::std::size_t required = end + max_align - 1 > 0 ? end + max_align - 1 : 1;

  if (d_temp_storage == nullptr)
  {
    temp_storage_bytes = required;
    ((*slots.ptr = nullptr), ...);
    return cudaSuccess;
  }
  if (temp_storage_bytes < required)
  {
    return STRATA_INVALID_ARGUMENT("d_temp_storage is too small: temp_storage_bytes is less than the call needs");
  }
  const auto address = reinterpret_cast<::cuda::std::uintptr_t>(d_temp_storage);
  const auto base    = static_cast<::cuda::std::uintptr_t>(temporary_storage::AlignUp(address, max_align));
  i                  = 0;
  ((*slots.ptr = reinterpret_cast<Ts*>(base + offsets[i++])), ...);
  return cudaSuccess;
}
} // namespace detail
STRATA_NAMESPACE_END

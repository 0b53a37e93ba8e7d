// strata/warp/specializations/warp_exchange_smem.cuh: WarpExchange's WARP_EXCHANGE_SMEM
// algorithm: the logical warp writes its tile to shared memory in one arrangement and reads it
// back in the other, with one __syncwarp in between.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Rearranges a tile of ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items of InputT across a logical
//! warp through a shared-memory copy of the tile. Every group of LOGICAL_WARP_THREADS consecutive
//! lanes from lane 0 of a hardware warp is a logical warp of its own (see WarpMask).
template <typename InputT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
class WarpExchangeSmem
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= warp_threads,
                "a logical warp has 1 to 32 threads");
  static_assert(ITEMS_PER_THREAD >= 1, "WarpExchange needs ITEMS_PER_THREAD >= 1");

  static constexpr int TILE_ITEMS = ITEMS_PER_THREAD * LOGICAL_WARP_THREADS;

  // In the blocked arrangement neighbouring lanes are ITEMS_PER_THREAD items apart. For items of
  // 4, 8 or 16 bytes a power-of-two stride sends up to that many lanes of one access to the same
  // bank; one padding item after every bank row (128 bytes) spreads them over (nearly) all banks
  // and keeps striped accesses conflict-free. Odd strides need no padding, and other even ones
  // gain little or lose from it. Narrower items share words, where lanes do not conflict as
  // badly; 12-byte items are odd strides of words already.
  static constexpr bool PADDED_ITEM =
      sizeof(InputT) % 4 == 0 && sizeof(InputT) <= 16 && ::cuda::std::has_single_bit(sizeof(InputT));
  static constexpr bool INSERT_PADDING = PADDED_ITEM && ITEMS_PER_THREAD > 1 && PowerOfTwo<ITEMS_PER_THREAD>::VALUE;
  static constexpr int ROW_ITEMS       = PADDED_ITEM ? static_cast<int>(smem_banks * 4 / sizeof(InputT)) : 1;
  static constexpr int LOG_ROW_ITEMS   = Log2<ROW_ITEMS>::VALUE;
  static constexpr int STORAGE_ITEMS   = INSERT_PADDING ? TILE_ITEMS + (TILE_ITEMS - 1) / ROW_ITEMS : TILE_ITEMS;

  //! The shared-memory slot of tile position `pos`.
  STRATA_DEVICE STRATA_FORCEINLINE static int Slot(int pos)
  {
    return INSERT_PADDING ? pos + (pos >> LOG_ROW_ITEMS) : pos;
  }

  struct InternalTempStorage
  {
    InputT items[STORAGE_ITEMS];
  };

public:
  struct TempStorage : Uninitialized<InternalTempStorage>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpExchangeSmem(TempStorage& temp_storage)
      : shared_items(temp_storage.Alias().items)
      , lane_id(LogicalLaneId<LOGICAL_WARP_THREADS>())
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>())
  {
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      shared_items[Slot(BlockedPos(i))] = input_items[i];
    }
    __syncwarp(member_mask);
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output_items[i] = shared_items[Slot(StripedPos(i))];
    }
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      shared_items[Slot(StripedPos(i))] = input_items[i];
    }
    __syncwarp(member_mask);
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output_items[i] = shared_items[Slot(BlockedPos(i))];
    }
  }

  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      shared_items[Slot(static_cast<int>(ranks[i]))] = input_items[i];
    }
    __syncwarp(member_mask);
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output_items[i] = shared_items[Slot(StripedPos(i))];
    }
  }

private:
  //! Tile positions of the calling lane's item i in the two arrangements.
  STRATA_DEVICE STRATA_FORCEINLINE int BlockedPos(int i) const
  {
    return static_cast<int>(lane_id) * ITEMS_PER_THREAD + i;
  }
  STRATA_DEVICE STRATA_FORCEINLINE int StripedPos(int i) const
  {
    return i * LOGICAL_WARP_THREADS + static_cast<int>(lane_id);
  }

  InputT* shared_items;
  unsigned int lane_id;     //!< the calling lane's rank in its logical warp
  unsigned int member_mask; //!< the lanes of the calling logical warp in the hardware warp
};
} // namespace detail

STRATA_NAMESPACE_END

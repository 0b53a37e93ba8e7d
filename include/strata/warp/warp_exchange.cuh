// strata/warp/warp_exchange.cuh: WarpExchange, rearranging a tile of items across the lanes of
// a logical warp (blocked <-> striped, and scattering by rank into striped order).
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/specializations/warp_exchange_shfl.cuh>
#include <strata/warp/specializations/warp_exchange_smem.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The algorithms of WarpExchange.
enum WarpExchangeAlgorithm
{
  //! Through a shared-memory copy of the tile: any tile shape, ScatterToStriped too.
  WARP_EXCHANGE_SMEM,
  //! With register shuffles, no shared memory: only square tiles (ITEMS_PER_THREAD ==
  //! LOGICAL_WARP_THREADS, a power of two), and no ScatterToStriped.
  WARP_EXCHANGE_SHUFFLE,
};

//! Rearranges a tile of ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items held by a logical warp,
//! ITEMS_PER_THREAD per lane, between the blocked arrangement (lane l holds tile positions
//! l * ITEMS_PER_THREAD + i) and the striped one (lane l holds positions i * LOGICAL_WARP_THREADS + l).
//!
//! - Every group of LOGICAL_WARP_THREADS consecutive lanes from lane 0 of a hardware warp is a
//!   logical warp of its own, with its own TempStorage. Sizes that do not divide 32 (which CUB
//!   documents for powers of two alone) take WARP_EXCHANGE_SMEM; the lanes past the last whole
//!   group must not call.
//!
//! Every lane of the logical warp must call the same member. Output arrays may alias the inputs.
//! A member leaves the TempStorage in use: before the logical warp uses it again (another member,
//! or as another collective's storage), its lanes must `__syncwarp()`.
//!
//! \code
//! // Two 16-lane logical warps per hardware warp, 4 items per lane, 128 threads per block.
//! using WarpExchangeT = strata::WarpExchange<int, 4, 16>;
//! __shared__ WarpExchangeT::TempStorage temp_storage[128 / 16];
//! int items[4];
//! for (int i = 0; i < 4; ++i)
//!   items[i] = 4 * (threadIdx.x % 16) + i;            // blocked: lane l holds {4l, ..., 4l + 3}
//! WarpExchangeT(temp_storage[threadIdx.x / 16]).BlockedToStriped(items, items);
//! // striped: lane l now holds {l, l + 16, l + 32, l + 48}
//! \endcode
//!
//! \tparam InputT                  the item type (moved by copy; shuffled word by word)
//! \tparam ITEMS_PER_THREAD        items per lane
//! \tparam LOGICAL_WARP_THREADS    lanes of the logical warp (1 to 32)
//! \tparam WARP_EXCHANGE_ALGORITHM WARP_EXCHANGE_SMEM or WARP_EXCHANGE_SHUFFLE
template <typename InputT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = detail::warp_threads,
          WarpExchangeAlgorithm WARP_EXCHANGE_ALGORITHM = WARP_EXCHANGE_SMEM>
class WarpExchange
{
  using InternalWarpExchange =
      ::cuda::std::conditional_t<WARP_EXCHANGE_ALGORITHM == WARP_EXCHANGE_SMEM,
                                 detail::WarpExchangeSmem<InputT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>,
                                 detail::WarpExchangeShfl<InputT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>>;

public:
  //! The shared memory one logical warp needs (NullType for WARP_EXCHANGE_SHUFFLE); may share a
  //! union with other storage.
  using TempStorage = typename InternalWarpExchange::TempStorage;

  WarpExchange() = delete;

  //! An exchange over the calling lane's logical warp that uses `temp_storage` (one per logical warp).
  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpExchange(TempStorage& temp_storage)
      : internal(temp_storage)
  {
  }

  //! Blocked to striped: lane l's output_items[i] is the item that lane (p / ITEMS_PER_THREAD)
  //! held as input_items[p % ITEMS_PER_THREAD], where p = i * LOGICAL_WARP_THREADS + l.
  //! `output_items` may alias `input_items`.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    internal.BlockedToStriped(input_items, output_items);
  }

  //! Striped to blocked: lane l's output_items[i] is the item that lane (p % LOGICAL_WARP_THREADS)
  //! held as input_items[p / LOGICAL_WARP_THREADS], where p = l * ITEMS_PER_THREAD + i.
  //! `output_items` may alias `input_items`.
  //!
  //! \code
  //! int items[4];
  //! strata::LoadDirectStriped<16>(lane, d_in, items); // coalesced read
  //! WarpExchangeT(temp_storage[warp]).StripedToBlocked(items, items); // now lane l holds 4l .. 4l + 3
  //! \endcode
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    internal.StripedToBlocked(input_items, output_items);
  }

  //! Scatters each item to the tile position its rank names and returns the tile in striped
  //! order, in place: lane l's items[i] becomes the item ranked i * LOGICAL_WARP_THREADS + l.
  //! Ranks must lie in [0, ITEMS_PER_THREAD * LOGICAL_WARP_THREADS) and differ from each other;
  //! positions no rank names come back undefined. WARP_EXCHANGE_SMEM only.
  //!
  //! \code
  //! int ranks[4];
  //! for (int i = 0; i < 4; ++i)
  //!   ranks[i] = 63 - (4 * lane + i);                    // reverse a 64-item tile of 16 lanes
  //! WarpExchangeT(temp_storage[warp]).ScatterToStriped(items, ranks);
  //! \endcode
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(InputT (&items)[ITEMS_PER_THREAD],
                                                         OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    ScatterToStriped(items, items, ranks);
  }

  //! Scatters each item of `input_items` to the tile position its rank names and returns the tile
  //! in striped order in `output_items` (which may alias `input_items`): lane l's
  //! output_items[i] is the item ranked i * LOGICAL_WARP_THREADS + l. Same rank contract as the
  //! in-place form. WARP_EXCHANGE_SMEM only.
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    // sizeof(OffsetT) == 0 never holds; it only defers the check to this member's instantiation.
    static_assert(WARP_EXCHANGE_ALGORITHM == WARP_EXCHANGE_SMEM || sizeof(OffsetT) == 0,
                  "WARP_EXCHANGE_SHUFFLE has no ScatterToStriped (as in CUB): scattering by rank needs "
                  "shared memory; use WARP_EXCHANGE_SMEM");
    if constexpr (WARP_EXCHANGE_ALGORITHM == WARP_EXCHANGE_SMEM)
    {
      internal.ScatterToStriped(input_items, output_items, ranks);
    }
  }

private:
  InternalWarpExchange internal;
};

STRATA_NAMESPACE_END

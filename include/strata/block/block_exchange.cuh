// strata/block/block_exchange.cuh: BlockExchange, rearranging a tile of items held by a thread
// block between the blocked, striped and warp-striped arrangements, and scattering items by rank.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

//! Rearranges a tile of BLOCK_THREADS * ITEMS_PER_THREAD items (BLOCK_THREADS =
//! BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, threads ranked row-major: x fastest) held
//! ITEMS_PER_THREAD per thread, through shared memory. The arrangements, for the thread of rank
//! t and its item i:
//!   - blocked: tile position t * ITEMS_PER_THREAD + i;
//!   - striped: tile position i * BLOCK_THREADS + t;
//!   - warp-striped: each warp of 32 consecutive ranks owns 32 * ITEMS_PER_THREAD consecutive
//!     positions, striped over its lanes: (t / 32) * 32 * ITEMS_PER_THREAD + i * 32 + t % 32.
//!     When BLOCK_THREADS is not a multiple of 32 the last warp has fewer threads, W, and its
//!     items are striped over those: i * W + t % 32 from its first position on (CUB leaves
//!     this case undefined).
//!
//! Every thread of the block must call the same member. Warp-striped exchanges without time
//! slicing synchronize each warp only (__syncwarp); every other member synchronizes the whole
//! block. A member leaves the TempStorage in use: `__syncthreads()` before it is used again.
//! Output arrays may alias the inputs; outputs may be of another type (assigned from InputT).
//!
//! The shared buffer holds the whole tile, or with WARP_TIME_SLICING one warp's share of it,
//! which the block then exchanges one warp's worth at a time, with two barriers per warp. As in
//! CUB, when ITEMS_PER_THREAD is a power of two above 4, one padding item follows every 32 items
//! so that the threads of a warp, ITEMS_PER_THREAD items apart in the blocked arrangement, hit
//! different shared-memory banks.
//!
//! \code
//! // 128 threads with 4 ints each: a coalesced striped load, then blocked items.
//! using BlockExchangeT = strata::BlockExchange<int, 128, 4>;
//! __shared__ BlockExchangeT::TempStorage temp_storage;
//! int items[4];
//! strata::LoadDirectStriped<128>(threadIdx.x, d_in, items); // thread t: t, t + 128, t + 256, t + 384
//! BlockExchangeT(temp_storage).StripedToBlocked(items);       // thread t: 4t, 4t + 1, 4t + 2, 4t + 3
//! \endcode
//!
//! \tparam InputT            the item type
//! \tparam BLOCK_DIM_X       threads of the block along x
//! \tparam ITEMS_PER_THREAD  items per thread
//! \tparam WARP_TIME_SLICING whether to exchange one warp's worth of items at a time, in a
//!                           buffer of that size, rather than the whole tile at once
//! \tparam BLOCK_DIM_Y       threads along y
//! \tparam BLOCK_DIM_Z       threads along z
template <typename InputT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockExchange
{
  static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1, "block dimensions are positive");
  static_assert(ITEMS_PER_THREAD >= 1, "BlockExchange needs ITEMS_PER_THREAD >= 1");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE_ITEMS    = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int WARPS         = (BLOCK_THREADS + detail::warp_threads - 1) / detail::warp_threads;
  //! Threads of every warp but the last, and of the last one.
  static constexpr int WARP_THREADS      = BLOCK_THREADS < detail::warp_threads ? BLOCK_THREADS : detail::warp_threads;
  static constexpr int LAST_WARP_THREADS = BLOCK_THREADS - (WARPS - 1) * detail::warp_threads;
  static constexpr int WARP_ITEMS        = WARP_THREADS * ITEMS_PER_THREAD;

  //! With time slicing, slice s is the tile positions of warp s's blocked items.
  static constexpr int TIME_SLICES = WARP_TIME_SLICING ? WARPS : 1;
  static constexpr int SLICE_ITEMS = WARP_TIME_SLICING ? WARP_ITEMS : TILE_ITEMS;

  static constexpr bool INSERT_PADDING = ITEMS_PER_THREAD > 4 && PowerOfTwo<ITEMS_PER_THREAD>::VALUE;
  static constexpr int BUFFER_ITEMS    = SLICE_ITEMS + (INSERT_PADDING ? SLICE_ITEMS >> detail::log2_smem_banks : 0);

  struct alignas(16) _TempStorage
  {
    InputT buff[BUFFER_ITEMS];
  };

  //! How a thread's items map to tile positions, on either side of an exchange.
  enum class Order
  {
    BLOCKED,
    STRIPED,
    RANKED, //!< given by the caller's ranks (write side only)
  };

public:
  //! The shared memory of one exchange; may share a union with other storage.
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! An exchange that uses a private `__shared__` TempStorage, one per thread block.
  STRATA_DEVICE STRATA_FORCEINLINE BlockExchange()
      : BlockExchange(detail::PrivateTempStorage<TempStorage>())
  {
  }

  //! An exchange that uses `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockExchange(TempStorage& temp_storage)
      : buff(temp_storage.Alias().buff)
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
      , lane(linear_tid % detail::warp_threads)
      , warp_id(WARPS == 1 ? 0 : linear_tid / detail::warp_threads)
  {
  }

  //! \name Blocked and striped arrangements
  //! \{

  //! Striped to blocked: thread t's output_items[i] is the item at tile position
  //! t * ITEMS_PER_THREAD + i, which thread p % BLOCK_THREADS held as input_items[p / BLOCK_THREADS].
  //!
  //! \code
  //! int items[4];
  //! strata::LoadDirectStriped<128>(threadIdx.x, d_in, items);
  //! BlockExchangeT(temp_storage).StripedToBlocked(items, items); // thread t: d_in[4t .. 4t + 3]
  //! \endcode
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    Exchange<Order::STRIPED, Order::BLOCKED, false>(input_items, output_items, [this](int i) { return StripedPos(i); });
  }

  //! StripedToBlocked in place.
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(InputT (&items)[ITEMS_PER_THREAD])
  {
    StripedToBlocked(items, items);
  }

  //! Blocked to striped: thread t's output_items[i] is the item at tile position
  //! i * BLOCK_THREADS + t, which thread p / ITEMS_PER_THREAD held as
  //! input_items[p % ITEMS_PER_THREAD].
  //!
  //! \code
  //! int items[4];                                                 // thread t: 4t .. 4t + 3
  //! BlockExchangeT(temp_storage).BlockedToStriped(items, items);  // thread t: t, t + 128, ...
  //! strata::StoreDirectStriped<128>(threadIdx.x, d_out, items);   // coalesced
  //! \endcode
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    Exchange<Order::BLOCKED, Order::STRIPED, false>(input_items, output_items, [this](int i) { return BlockedPos(i); });
  }

  //! BlockedToStriped in place.
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(InputT (&items)[ITEMS_PER_THREAD])
  {
    BlockedToStriped(items, items);
  }

  //! \}
  //! \name Warp-striped arrangement
  //! Each warp exchanges its own items; without time slicing only `__syncwarp()` is needed.
  //! \{

  //! Warp-striped to blocked: thread t's output_items[i] is the item at tile position
  //! t * ITEMS_PER_THREAD + i, which a thread of its own warp held in the warp-striped arrangement.
  //!
  //! \code
  //! int items[4];
  //! strata::LoadDirectWarpStriped(threadIdx.x, d_in, items);          // warp w reads d_in[128w ..]
  //! BlockExchangeT(temp_storage).WarpStripedToBlocked(items, items);  // thread t: d_in[4t .. 4t + 3]
  //! \endcode
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void WarpStripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                             OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    WarpExchange<true>(input_items, output_items);
  }

  //! WarpStripedToBlocked in place.
  STRATA_DEVICE STRATA_FORCEINLINE void WarpStripedToBlocked(InputT (&items)[ITEMS_PER_THREAD])
  {
    WarpStripedToBlocked(items, items);
  }

  //! Blocked to warp-striped: thread t's output_items[i] is the item at its warp-striped tile
  //! position (see the class comment), which a thread of its own warp held in the blocked
  //! arrangement.
  //!
  //! \code
  //! BlockExchangeT(temp_storage).BlockedToWarpStriped(items, items);
  //! strata::StoreDirectWarpStriped(threadIdx.x, d_out, items); // each warp writes its own 128 ints
  //! \endcode
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToWarpStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                             OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    WarpExchange<false>(input_items, output_items);
  }

  //! BlockedToWarpStriped in place.
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToWarpStriped(InputT (&items)[ITEMS_PER_THREAD])
  {
    BlockedToWarpStriped(items, items);
  }

  //! \}
  //! \name Scattering by rank
  //! Each item goes to the tile position of its rank (any integer type, below
  //! BLOCK_THREADS * ITEMS_PER_THREAD); two items must not share a rank. Tile positions no item
  //! is ranked to come back undefined.
  //! \{

  //! Scatters to blocked: thread t's output_items[i] is the input item ranked
  //! t * ITEMS_PER_THREAD + i.
  //!
  //! \code
  //! int ranks[4];
  //! for (int i = 0; i < 4; ++i)
  //!   ranks[i] = 511 - (4 * threadIdx.x + i); // reverse the blocked tile of 128 threads
  //! BlockExchangeT(temp_storage).ScatterToBlocked(items, items, ranks);
  //! \endcode
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    Exchange<Order::RANKED, Order::BLOCKED, false>(input_items, output_items,
                                                   [&ranks](int i) { return static_cast<int>(ranks[i]); });
  }

  //! ScatterToBlocked in place.
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToBlocked(InputT (&items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    ScatterToBlocked(items, items, ranks);
  }

  //! Scatters to striped: thread t's output_items[i] is the input item ranked i * BLOCK_THREADS + t.
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    Exchange<Order::RANKED, Order::STRIPED, false>(input_items, output_items,
                                                   [&ranks](int i) { return static_cast<int>(ranks[i]); });
  }

  //! ScatterToStriped in place.
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(InputT (&items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    ScatterToStriped(items, items, ranks);
  }

  //! ScatterToStriped of the items whose rank is not negative (e.g. -1); the others take part in
  //! nothing.
  //!
  //! \code
  //! // Compact the selected items of a tile to its front: ranks from an exclusive scan of the
  //! // selection flags, -1 for items not selected.
  //! BlockExchangeT(temp_storage).ScatterToStripedGuarded(items, items, ranks);
  //! // thread t's items[i] is selected item number i * 128 + t, where that many were selected
  //! \endcode
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedGuarded(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                                OutputT (&output_items)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    Exchange<Order::RANKED, Order::STRIPED, true>(input_items, output_items,
                                                  [&ranks](int i) { return static_cast<int>(ranks[i]); });
  }

  //! ScatterToStripedGuarded in place.
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedGuarded(InputT (&items)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    ScatterToStripedGuarded(items, items, ranks);
  }

  //! ScatterToStriped of the items whose `is_valid` flag is true (any type that converts to
  //! bool); the others take part in nothing.
  template <typename OutputT, typename OffsetT, typename ValidFlag>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ScatterToStripedFlagged(const InputT (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD],
                          const OffsetT (&ranks)[ITEMS_PER_THREAD], const ValidFlag (&is_valid)[ITEMS_PER_THREAD])
  {
    Exchange<Order::RANKED, Order::STRIPED, true>(input_items, output_items,
                                                  [&ranks, &is_valid](int i)
                                                  { return is_valid[i] ? static_cast<int>(ranks[i]) : -1; });
  }

  //! ScatterToStripedFlagged in place.
  template <typename OffsetT, typename ValidFlag>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedFlagged(InputT (&items)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD],
                                                                const ValidFlag (&is_valid)[ITEMS_PER_THREAD])
  {
    ScatterToStripedFlagged(items, items, ranks, is_valid);
  }

  //! \}

private:
  //! The buffer slot of tile (or slice) position `pos`.
  STRATA_DEVICE STRATA_FORCEINLINE static int Slot(int pos)
  {
    return INSERT_PADDING ? pos + (pos >> detail::log2_smem_banks) : pos;
  }

  STRATA_DEVICE STRATA_FORCEINLINE int BlockedPos(int i) const
  {
    return linear_tid * ITEMS_PER_THREAD + i;
  }
  STRATA_DEVICE STRATA_FORCEINLINE int StripedPos(int i) const
  {
    return i * BLOCK_THREADS + linear_tid;
  }

  //! Where tile position `pos` of the calling thread's item i, arranged as ORDER (striped or
  //! ranked), lies in the buffer during time slice `slice`, or -1 when it belongs to another
  //! slice. `i` and `slice` come from unrolled loops, so the tests on them fold away.
  template <Order ORDER>
  STRATA_DEVICE STRATA_FORCEINLINE static int SlicePos(int i, int slice, int pos)
  {
    // Strip i covers positions [i * BLOCK_THREADS, (i + 1) * BLOCK_THREADS).
    if (ORDER == Order::STRIPED
        && (i * BLOCK_THREADS >= (slice + 1) * SLICE_ITEMS || (i + 1) * BLOCK_THREADS <= slice * SLICE_ITEMS))
    {
      return -1;
    }
    const int local = pos - slice * SLICE_ITEMS;
    return (local >= 0 && local < SLICE_ITEMS) ? local : -1;
  }

  //! The block-wide exchange: the calling thread's item i goes to tile position write_pos(i)
  //! (nowhere when GUARDED and that is negative) and output item i comes from its position in
  //! arrangement DST.
  template <Order SRC, Order DST, bool GUARDED, typename OutputT, typename WritePosF>
  STRATA_DEVICE STRATA_FORCEINLINE void Exchange(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                 OutputT (&output_items)[ITEMS_PER_THREAD], WritePosF write_pos)
  {
    const auto read_pos = [this](int i) { return DST == Order::BLOCKED ? BlockedPos(i) : StripedPos(i); };
    if constexpr (!WARP_TIME_SLICING)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int pos = write_pos(i);
        if (!GUARDED || pos >= 0)
        {
          buff[Slot(pos)] = input_items[i];
        }
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        output_items[i] = buff[Slot(read_pos(i))];
      }
    }
    else
    {
      // Outputs are complete only after the last slice, and may alias the inputs: stage them.
      // (Negative ranks of a guarded scatter fall outside every slice.)
      InputT staged[ITEMS_PER_THREAD];
#pragma unroll
      for (int slice = 0; slice < TIME_SLICES; ++slice)
      {
        if (slice > 0)
        {
          __syncthreads(); // the previous slice has been read out of the buffer
        }
        // A warp's blocked items are exactly one slice: one test for all of them.
        if constexpr (SRC == Order::BLOCKED)
        {
          if (warp_id == slice)
          {
#pragma unroll
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            {
              buff[Slot(lane * ITEMS_PER_THREAD + i)] = input_items[i];
            }
          }
        }
        else
        {
#pragma unroll
          for (int i = 0; i < ITEMS_PER_THREAD; ++i)
          {
            const int local = SlicePos<SRC>(i, slice, write_pos(i));
            if (local >= 0)
            {
              buff[Slot(local)] = input_items[i];
            }
          }
        }
        __syncthreads();
        if constexpr (DST == Order::BLOCKED)
        {
          if (warp_id == slice)
          {
#pragma unroll
            for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            {
              staged[i] = buff[Slot(lane * ITEMS_PER_THREAD + i)];
            }
          }
        }
        else
        {
#pragma unroll
          for (int i = 0; i < ITEMS_PER_THREAD; ++i)
          {
            const int local = SlicePos<DST>(i, slice, read_pos(i));
            if (local >= 0)
            {
              staged[i] = buff[Slot(local)];
            }
          }
        }
      }
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        output_items[i] = staged[i];
      }
    }
  }

  //! Warp-striped <-> blocked: each warp exchanges its own items, in its own part of the buffer,
  //! or with time slicing one warp after another in the whole buffer.
  template <bool TO_BLOCKED, typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void WarpExchange(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                     OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    if constexpr (!WARP_TIME_SLICING)
    {
      WarpTranspose<TO_BLOCKED>(input_items, output_items, warp_id * WARP_ITEMS);
    }
    else
    {
#pragma unroll
      for (int slice = 0; slice < TIME_SLICES; ++slice)
      {
        if (slice > 0)
        {
          __syncthreads(); // the previous warp is done with the buffer
        }
        if (warp_id == slice)
        {
          WarpTranspose<TO_BLOCKED>(input_items, output_items, 0);
        }
      }
    }
  }

  //! The calling warp's transpose through buffer positions base .. base + its items - 1.
  template <bool TO_BLOCKED, typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void WarpTranspose(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                      OutputT (&output_items)[ITEMS_PER_THREAD], int base)
  {
    // A constant unless the block ends in a partial warp.
    const int threads = (LAST_WARP_THREADS == WARP_THREADS || warp_id < WARPS - 1) ? WARP_THREADS : LAST_WARP_THREADS;
    const unsigned int member_mask = 0xFFFFFFFFu >> (detail::warp_threads - threads);
    const int blocked_pos          = base + lane * ITEMS_PER_THREAD;
    const int striped_pos          = base + lane;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      buff[Slot(TO_BLOCKED ? striped_pos + i * threads : blocked_pos + i)] = input_items[i];
    }
    __syncwarp(member_mask);
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output_items[i] = buff[Slot(TO_BLOCKED ? blocked_pos + i : striped_pos + i * threads)];
    }
  }

  InputT* buff;
  int linear_tid;
  int lane;    //!< linear_tid % 32: hardware warps are consecutive ranks
  int warp_id; //!< linear_tid / 32
};

STRATA_NAMESPACE_END

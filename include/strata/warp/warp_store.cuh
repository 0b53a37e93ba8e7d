// strata/warp/warp_store.cuh: WarpStore, a logical warp's store of a blocked or striped
// arrangement of items across its lanes into a tile in memory.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_direct.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_exchange.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! How WarpStore writes a tile. Each lane of a logical warp of L lanes holds ITEMS_PER_THREAD
//! items, blocked (lane l holds tile positions l * ITEMS_PER_THREAD + i) for every algorithm but
//! WARP_STORE_STRIPED.
enum WarpStoreAlgorithm
{
  //! Blocked items, each lane writing its own consecutive positions: uncoalesced unless items are few.
  WARP_STORE_DIRECT,
  //! Striped items (lane l holds positions i * L + l), written directly: coalesced.
  WARP_STORE_STRIPED,
  //! Blocked items, each lane writing them in vector words (16-byte stores for 4 ints) when the
  //! output is a pointer to T aligned to the word and the store is not guarded; otherwise as
  //! WARP_STORE_DIRECT.
  WARP_STORE_VECTORIZE,
  //! Blocked items, transposed to striped through shared memory by WarpExchange and written
  //! striped (coalesced).
  WARP_STORE_TRANSPOSE
};

//! Stores a tile of ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items held by the lanes of a logical
//! warp, with one of the WarpStoreAlgorithm arrangements and access patterns.
//!
//! - Every group of LOGICAL_WARP_THREADS consecutive lanes from lane 0 of a hardware warp is a
//!   logical warp of its own, storing its own tile (sizes that do not divide 32 too, which CUB
//!   documents for powers of two alone; the lanes past the last whole group must not call).
//!
//! Only WARP_STORE_TRANSPOSE uses its TempStorage (one per logical warp) and needs every lane of
//! the logical warp to call; before the storage is used again, the lanes must `__syncwarp()`.
//! The default constructor uses a private `__shared__` TempStorage, which is one per thread block
//! (as in CUB): with WARP_STORE_TRANSPOSE it serves one logical warp of the block at a time.
//!
//! \code
//! // Four 32-lane warps per block, each storing 4 blocked items per lane as 128 ints.
//! using WarpStoreT = strata::WarpStore<int, 4, strata::WARP_STORE_TRANSPOSE>;
//! __shared__ WarpStoreT::TempStorage temp_storage[4];
//! const int warp = threadIdx.x / 32;
//! int items[4]; // lane l: tile positions 4l .. 4l + 3
//! WarpStoreT(temp_storage[warp]).Store(d_out + warp * 128, items);
//! \endcode
//!
//! \tparam T                    the item type
//! \tparam ITEMS_PER_THREAD     items per lane
//! \tparam ALGORITHM            a WarpStoreAlgorithm
//! \tparam LOGICAL_WARP_THREADS lanes of the logical warp (1 to 32)
template <typename T, int ITEMS_PER_THREAD, WarpStoreAlgorithm ALGORITHM = WARP_STORE_DIRECT,
          int LOGICAL_WARP_THREADS = detail::warp_threads>
class WarpStore
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= detail::warp_threads,
                "a logical warp has 1 to 32 threads");
  static_assert(ITEMS_PER_THREAD >= 1, "WarpStore needs ITEMS_PER_THREAD >= 1");

  using WarpExchangeT = WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>;
  using InternalTempStorage =
      ::cuda::std::conditional_t<ALGORITHM == WARP_STORE_TRANSPOSE, typename WarpExchangeT::TempStorage, NullType>;

public:
  //! The shared memory one logical warp needs (nothing but for WARP_STORE_TRANSPOSE).
  struct TempStorage : Uninitialized<InternalTempStorage>
  {
  };

  //! A store that uses a private `__shared__` TempStorage, one per thread block.
  STRATA_DEVICE STRATA_FORCEINLINE WarpStore()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(static_cast<int>(detail::LogicalLaneId<LOGICAL_WARP_THREADS>()))
  {
  }

  //! A store that uses `temp_storage` (one per logical warp).
  STRATA_DEVICE STRATA_FORCEINLINE WarpStore(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(static_cast<int>(detail::LogicalLaneId<LOGICAL_WARP_THREADS>()))
  {
  }

  //! Stores the logical warp's tile starting at `block_itr` (the tile's first item, not the
  //! lane's). `items` are left as they are, also by WARP_STORE_TRANSPOSE.
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (ALGORITHM == WARP_STORE_DIRECT)
    {
      StoreDirectBlocked(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_STORE_STRIPED)
    {
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_STORE_VECTORIZE)
    {
      detail::StoreDirectBlockedVectorizedWhereAllowed(linear_tid, block_itr, items);
    }
    else
    {
      T striped[ITEMS_PER_THREAD];
      WarpExchangeT(temp_storage).BlockedToStriped(items, striped);
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, striped);
    }
  }

  //! Stores the first `valid_items` items of the tile; nothing at tile positions from
  //! `valid_items` on is written.
  //!
  //! \code
  //! WarpStoreT(temp_storage[warp]).Store(d_out + warp * 128, items, num_items - warp * 128);
  //! \endcode
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD],
                                              int valid_items)
  {
    if constexpr (ALGORITHM == WARP_STORE_DIRECT || ALGORITHM == WARP_STORE_VECTORIZE)
    {
      StoreDirectBlocked(linear_tid, block_itr, items, valid_items);
    }
    else if constexpr (ALGORITHM == WARP_STORE_STRIPED)
    {
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items);
    }
    else
    {
      T striped[ITEMS_PER_THREAD];
      WarpExchangeT(temp_storage).BlockedToStriped(items, striped);
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, striped, valid_items);
    }
  }

private:
  InternalTempStorage& temp_storage;
  int linear_tid;
};

STRATA_NAMESPACE_END

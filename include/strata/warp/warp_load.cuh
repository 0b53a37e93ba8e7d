// strata/warp/warp_load.cuh: WarpLoad, a logical warp's load of a tile from memory into a blocked
// or striped arrangement of items across its lanes.
#pragma once

#include <strata/config.cuh>
#include <strata/iterator/cache_modified_input_iterator.cuh>
#include <strata/thread/thread_direct.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_exchange.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! How WarpLoad reads a tile. Each lane of a logical warp of L lanes ends up with
//! ITEMS_PER_THREAD items, blocked (lane l holds tile positions l * ITEMS_PER_THREAD + i) for
//! every algorithm but WARP_LOAD_STRIPED.
enum WarpLoadAlgorithm
{
  //! Blocked, each lane reading its own consecutive items: uncoalesced unless items are few.
  WARP_LOAD_DIRECT,
  //! Striped (lane l holds positions i * L + l), read directly: coalesced.
  WARP_LOAD_STRIPED,
  //! Blocked, each lane reading its items in vector words (16-byte loads for 4 ints) when the
  //! input is a pointer or a CacheModifiedInputIterator aligned to the word and the load is not
  //! guarded; otherwise as WARP_LOAD_DIRECT.
  WARP_LOAD_VECTORIZE,
  //! Blocked, read striped (coalesced) and transposed through shared memory by WarpExchange.
  WARP_LOAD_TRANSPOSE
};

//! Loads a tile of ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items into the lanes of a logical
//! warp, with one of the WarpLoadAlgorithm arrangements and access patterns.
//!
//! - Every group of LOGICAL_WARP_THREADS consecutive lanes from lane 0 of a hardware warp is a
//!   logical warp of its own, loading its own tile (sizes that do not divide 32 too, which CUB
//!   documents for powers of two alone; the lanes past the last whole group must not call).
//!
//! Only WARP_LOAD_TRANSPOSE uses its TempStorage (one per logical warp) and needs every lane of
//! the logical warp to call; before the storage is used again, the lanes must `__syncwarp()`.
//! The default constructor uses a private `__shared__` TempStorage, which is one per thread block
//! (as in CUB): with WARP_LOAD_TRANSPOSE it serves one logical warp of the block at a time.
//!
//! \code
//! // Four 32-lane warps per block, each loading 128 ints into 4 blocked items per lane.
//! using WarpLoadT = strata::WarpLoad<int, 4, strata::WARP_LOAD_TRANSPOSE>;
//! __shared__ WarpLoadT::TempStorage temp_storage[4];
//! const int warp = threadIdx.x / 32;
//! int items[4];
//! WarpLoadT(temp_storage[warp]).Load(d_in + warp * 128, items); // lane l: d_in[4l .. 4l + 3]
//! \endcode
//!
//! \tparam InputT               the item type
//! \tparam ITEMS_PER_THREAD     items per lane
//! \tparam ALGORITHM            a WarpLoadAlgorithm
//! \tparam LOGICAL_WARP_THREADS lanes of the logical warp (1 to 32)
template <typename InputT, int ITEMS_PER_THREAD, WarpLoadAlgorithm ALGORITHM = WARP_LOAD_DIRECT,
          int LOGICAL_WARP_THREADS = detail::warp_threads>
class WarpLoad
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= detail::warp_threads,
                "a logical warp has 1 to 32 threads");
  static_assert(ITEMS_PER_THREAD >= 1, "WarpLoad needs ITEMS_PER_THREAD >= 1");

  using WarpExchangeT = WarpExchange<InputT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>;
  using InternalTempStorage =
      ::cuda::std::conditional_t<ALGORITHM == WARP_LOAD_TRANSPOSE, typename WarpExchangeT::TempStorage, NullType>;

public:
  //! The shared memory one logical warp needs (nothing but for WARP_LOAD_TRANSPOSE).
  struct TempStorage : Uninitialized<InternalTempStorage>
  {
  };

  //! A load that uses a private `__shared__` TempStorage, one per thread block.
  STRATA_DEVICE STRATA_FORCEINLINE WarpLoad()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(static_cast<int>(detail::LogicalLaneId<LOGICAL_WARP_THREADS>()))
  {
  }

  //! A load that uses `temp_storage` (one per logical warp).
  STRATA_DEVICE STRATA_FORCEINLINE WarpLoad(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(static_cast<int>(detail::LogicalLaneId<LOGICAL_WARP_THREADS>()))
  {
  }

  //! Loads the logical warp's tile starting at `block_itr` (the tile's first item, not the lane's).
  template <typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (ALGORITHM == WARP_LOAD_DIRECT)
    {
      LoadDirectBlocked(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_STRIPED)
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_VECTORIZE)
    {
      detail::LoadDirectBlockedVectorizedWhereAllowed(linear_tid, block_itr, items);
    }
    else
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items);
      WarpExchangeT(temp_storage).StripedToBlocked(items, items);
    }
  }

  //! Loads the first `valid_items` items of the tile; the calling lane's items at tile positions
  //! from `valid_items` on are left as they are (for WARP_LOAD_TRANSPOSE they are undefined).
  //!
  //! \code
  //! int items[4];
  //! WarpLoadT(temp_storage[warp]).Load(d_in + warp * 128, items, num_items - warp * 128);
  //! \endcode
  template <typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD],
                                             int valid_items)
  {
    if constexpr (ALGORITHM == WARP_LOAD_DIRECT || ALGORITHM == WARP_LOAD_VECTORIZE)
    {
      LoadDirectBlocked(linear_tid, block_itr, items, valid_items);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_STRIPED)
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items);
    }
    else
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items);
      WarpExchangeT(temp_storage).StripedToBlocked(items, items);
    }
  }

  //! Loads the first `valid_items` items of the tile; the items at tile positions from
  //! `valid_items` on get `oob_default`.
  template <typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD],
                                             int valid_items, DefaultT oob_default)
  {
    if constexpr (ALGORITHM == WARP_LOAD_DIRECT || ALGORITHM == WARP_LOAD_VECTORIZE)
    {
      LoadDirectBlocked(linear_tid, block_itr, items, valid_items, oob_default);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_STRIPED)
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items, oob_default);
    }
    else
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items, oob_default);
      WarpExchangeT(temp_storage).StripedToBlocked(items, items);
    }
  }

private:
  InternalTempStorage& temp_storage;
  int linear_tid;
};

STRATA_NAMESPACE_END

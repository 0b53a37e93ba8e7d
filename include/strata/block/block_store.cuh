// strata/block/block_store.cuh: BlockStore, a thread block's store of a blocked (or striped)
// arrangement of items across its threads into a tile in memory; also declares, as CUB's header
// does, the direct per-thread stores StoreDirectBlocked, StoreDirectBlockedVectorized,
// StoreDirectStriped and StoreDirectWarpStriped (from strata/thread/thread_direct.cuh).
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/block/block_exchange.cuh>
#include <strata/thread/thread_direct.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Stores a tile of BLOCK_THREADS * ITEMS_PER_THREAD items (BLOCK_THREADS =
//! BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, threads ranked row-major: x fastest) held by the
//! threads of a block, ITEMS_PER_THREAD each, with one of the BlockStoreAlgorithm access patterns.
//!
//! Every thread of the block must call the same member. The transposing algorithms use the
//! TempStorage (the others need none); `__syncthreads()` before it is used again. The caller's
//! items are left as they are (CUB's transposing stores rearrange them). Items are written
//! through any output iterator that accepts T.
//!
//! \code
//! // 128 threads with 4 blocked ints each, transposed and written striped.
//! using BlockStoreT = strata::BlockStore<int, 128, 4, strata::BLOCK_STORE_TRANSPOSE>;
//! __shared__ BlockStoreT::TempStorage temp_storage;
//! int items[4]; // thread t: tile positions 4t .. 4t + 3
//! BlockStoreT(temp_storage).Store(d_out + blockIdx.x * 512, items);
//! \endcode
//!
//! \tparam T                the item type
//! \tparam BLOCK_DIM_X      threads of the block along x
//! \tparam ITEMS_PER_THREAD items per thread
//! \tparam ALGORITHM        a BlockStoreAlgorithm
//! \tparam BLOCK_DIM_Y      threads along y
//! \tparam BLOCK_DIM_Z      threads along z
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool WARP_TRANSPOSE =
      ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;
  static constexpr bool TRANSPOSE = WARP_TRANSPOSE || ALGORITHM == BLOCK_STORE_TRANSPOSE;

  static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1, "block dimensions are positive");
  static_assert(ITEMS_PER_THREAD >= 1, "BlockStore needs ITEMS_PER_THREAD >= 1");
  static_assert(!WARP_TRANSPOSE || BLOCK_THREADS % detail::warp_threads == 0,
                "BLOCK_STORE_WARP_TRANSPOSE(_TIMESLICED) needs a multiple of 32 threads (whole warps); "
                "use BLOCK_STORE_TRANSPOSE for other block sizes");

  using BlockExchangeT = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD,
                                       ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using _TempStorage   = ::cuda::std::conditional_t<TRANSPOSE, typename BlockExchangeT::TempStorage, NullType>;

public:
  //! The shared memory of one store (nothing but for the transposing algorithms); may share a
  //! union with other storage.
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! A store that uses a private `__shared__` TempStorage, one per thread block.
  STRATA_DEVICE STRATA_FORCEINLINE BlockStore()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! A store that uses `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockStore(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Stores the tile that starts at `block_itr`.
  //!
  //! \code
  //! int items[4] = {4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3}; // t = threadIdx.x of 128
  //! BlockStoreT(temp_storage).Store(d_out, items);           // d_out = 0, 1, 2, ..., 511
  //! \endcode
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (ALGORITHM == BLOCK_STORE_DIRECT)
    {
      StoreDirectBlocked(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED)
    {
      StoreDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == BLOCK_STORE_VECTORIZE)
    {
      detail::StoreDirectBlockedVectorizedWhereAllowed(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE)
    {
      T striped[ITEMS_PER_THREAD];
      BlockExchangeT(temp_storage).BlockedToStriped(items, striped);
      StoreDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, striped);
    }
    else
    {
      T warp_striped[ITEMS_PER_THREAD];
      BlockExchangeT(temp_storage).BlockedToWarpStriped(items, warp_striped);
      StoreDirectWarpStriped(linear_tid, block_itr, warp_striped);
    }
  }

  //! Stores the first `valid_items` items of the tile; nothing at tile positions from
  //! `valid_items` on is written.
  //!
  //! \code
  //! BlockStoreT(temp_storage).Store(d_out + tile_offset, items, num_items - tile_offset);
  //! \endcode
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD],
                                              int valid_items)
  {
    if constexpr (ALGORITHM == BLOCK_STORE_DIRECT || ALGORITHM == BLOCK_STORE_VECTORIZE)
    {
      StoreDirectBlocked(linear_tid, block_itr, items, valid_items);
    }
    else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED)
    {
      StoreDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, items, valid_items);
    }
    else if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE)
    {
      T striped[ITEMS_PER_THREAD];
      BlockExchangeT(temp_storage).BlockedToStriped(items, striped);
      StoreDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, striped, valid_items);
    }
    else
    {
      T warp_striped[ITEMS_PER_THREAD];
      BlockExchangeT(temp_storage).BlockedToWarpStriped(items, warp_striped);
      StoreDirectWarpStriped(linear_tid, block_itr, warp_striped, valid_items);
    }
  }

private:
  _TempStorage& temp_storage;
  int linear_tid;
};

//! The BlockStore a tuning policy asks for: Policy::BLOCK_THREADS threads (1-D),
//! Policy::ITEMS_PER_THREAD items of T each (by default the value type of It), with
//! Policy::STORE_ALGORITHM.
template <class Policy, class It, class T = detail::it_value_t<It>>
struct BlockStoreType
{
  using type = BlockStore<T, Policy::BLOCK_THREADS, Policy::ITEMS_PER_THREAD, Policy::STORE_ALGORITHM>;
};

STRATA_NAMESPACE_END

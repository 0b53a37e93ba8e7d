// strata/block/block_load.cuh: BlockLoad, a thread block's load of a tile from memory into a
// blocked (or striped) arrangement of items across its threads; also declares, as CUB's header
// does, the direct per-thread loads LoadDirectBlocked, LoadDirectBlockedVectorized,
// LoadDirectStriped and LoadDirectWarpStriped (from strata/thread/thread_direct.cuh).
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/block/block_exchange.cuh>
#include <strata/iterator/cache_modified_input_iterator.cuh>
#include <strata/thread/thread_direct.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Loads a tile of BLOCK_THREADS * ITEMS_PER_THREAD items (BLOCK_THREADS =
//! BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, threads ranked row-major: x fastest) into the
//! threads of a block, ITEMS_PER_THREAD each, with one of the BlockLoadAlgorithm access patterns.
//!
//! Every thread of the block must call the same member. The transposing algorithms use the
//! TempStorage (the others need none); `__syncthreads()` before it is used again. Items are read
//! from any random-access iterator whose values convert to T.
//!
//! \code
//! // 128 threads with 4 ints each, read warp-striped and transposed.
//! using BlockLoadT = strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE>;
//! __shared__ BlockLoadT::TempStorage temp_storage;
//! int items[4];
//! BlockLoadT(temp_storage).Load(d_in + blockIdx.x * 512, items); // thread t: 4t .. 4t + 3 of the tile
//! \endcode
//!
//! \tparam T                the item type
//! \tparam BLOCK_DIM_X      threads of the block along x
//! \tparam ITEMS_PER_THREAD items per thread
//! \tparam ALGORITHM        a BlockLoadAlgorithm
//! \tparam BLOCK_DIM_Y      threads along y
//! \tparam BLOCK_DIM_Z      threads along z
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool WARP_TRANSPOSE =
      ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE || ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
  static constexpr bool TRANSPOSE = WARP_TRANSPOSE || ALGORITHM == BLOCK_LOAD_TRANSPOSE;

  static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1, "block dimensions are positive");
  static_assert(ITEMS_PER_THREAD >= 1, "BlockLoad needs ITEMS_PER_THREAD >= 1");
  static_assert(!WARP_TRANSPOSE || BLOCK_THREADS % detail::warp_threads == 0,
                "BLOCK_LOAD_WARP_TRANSPOSE(_TIMESLICED) needs a multiple of 32 threads (whole warps); "
                "use BLOCK_LOAD_TRANSPOSE for other block sizes");

  using BlockExchangeT = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD,
                                       ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using _TempStorage   = ::cuda::std::conditional_t<TRANSPOSE, typename BlockExchangeT::TempStorage, NullType>;

public:
  //! The shared memory of one load (nothing but for the transposing algorithms); may share a
  //! union with other storage.
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! A load that uses a private `__shared__` TempStorage, one per thread block.
  STRATA_DEVICE STRATA_FORCEINLINE BlockLoad()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! A load that uses `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockLoad(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Loads the tile that starts at `block_src_it`.
  //!
  //! \code
  //! int items[4];
  //! BlockLoadT(temp_storage).Load(d_in + blockIdx.x * 512, items);
  //! // with d_in = 0, 1, 2, ...: block 0's thread t holds {4t, 4t + 1, 4t + 2, 4t + 3}
  //! \endcode
  template <typename RandomAccessIterator>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD])
  {
    if constexpr (ALGORITHM == BLOCK_LOAD_DIRECT)
    {
      LoadDirectBlocked(linear_tid, block_src_it, dst_items);
    }
    else if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED)
    {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items);
    }
    else if constexpr (ALGORITHM == BLOCK_LOAD_VECTORIZE)
    {
      detail::LoadDirectBlockedVectorizedWhereAllowed(linear_tid, block_src_it, dst_items);
    }
    else if constexpr (ALGORITHM == BLOCK_LOAD_TRANSPOSE)
    {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items);
      BlockExchangeT(temp_storage).StripedToBlocked(dst_items);
    }
    else
    {
      LoadDirectWarpStriped(linear_tid, block_src_it, dst_items);
      BlockExchangeT(temp_storage).WarpStripedToBlocked(dst_items);
    }
  }

  //! Loads the first `block_items_end` items of the tile. The calling thread's items at tile
  //! positions from `block_items_end` on keep their values with BLOCK_LOAD_DIRECT, _STRIPED and
  //! _VECTORIZE, and are undefined with the transposing algorithms.
  //!
  //! \code
  //! int items[4];
  //! BlockLoadT(temp_storage).Load(d_in + tile_offset, items, num_items - tile_offset);
  //! \endcode
  template <typename RandomAccessIterator>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                                             int block_items_end)
  {
    if constexpr (ALGORITHM == BLOCK_LOAD_DIRECT || ALGORITHM == BLOCK_LOAD_VECTORIZE)
    {
      LoadDirectBlocked(linear_tid, block_src_it, dst_items, block_items_end);
    }
    else if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED)
    {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items, block_items_end);
    }
    else if constexpr (ALGORITHM == BLOCK_LOAD_TRANSPOSE)
    {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items, block_items_end);
      BlockExchangeT(temp_storage).StripedToBlocked(dst_items);
    }
    else
    {
      LoadDirectWarpStriped(linear_tid, block_src_it, dst_items, block_items_end);
      BlockExchangeT(temp_storage).WarpStripedToBlocked(dst_items);
    }
  }

  //! Loads the first `block_items_end` items of the tile; the items at tile positions from
  //! `block_items_end` on get `oob_default` (converted to T).
  //!
  //! \code
  //! // d_in = 0, 1, 2, ..., block_items_end = 5, 128 threads, 4 items each:
  //! BlockLoadT(temp_storage).Load(d_in, items, 5, -1);
  //! // thread 0: {0, 1, 2, 3}, thread 1: {4, -1, -1, -1}, every other thread: {-1, -1, -1, -1}
  //! \endcode
  template <typename RandomAccessIterator, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                                             int block_items_end, DefaultT oob_default)
  {
    if constexpr (ALGORITHM == BLOCK_LOAD_DIRECT || ALGORITHM == BLOCK_LOAD_VECTORIZE)
    {
      LoadDirectBlocked(linear_tid, block_src_it, dst_items, block_items_end, oob_default);
    }
    else if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED)
    {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items, block_items_end, oob_default);
    }
    else if constexpr (ALGORITHM == BLOCK_LOAD_TRANSPOSE)
    {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items, block_items_end, oob_default);
      BlockExchangeT(temp_storage).StripedToBlocked(dst_items);
    }
    else
    {
      LoadDirectWarpStriped(linear_tid, block_src_it, dst_items, block_items_end, oob_default);
      BlockExchangeT(temp_storage).WarpStripedToBlocked(dst_items);
    }
  }

private:
  _TempStorage& temp_storage;
  int linear_tid;
};

//! The BlockLoad a tuning policy asks for: Policy::BLOCK_THREADS threads (1-D),
//! Policy::ITEMS_PER_THREAD items of T each (by default the value type of It), with
//! Policy::LOAD_ALGORITHM.
template <class Policy, class It, class T = detail::it_value_t<It>>
struct BlockLoadType
{
  using type = BlockLoad<T, Policy::BLOCK_THREADS, Policy::ITEMS_PER_THREAD, Policy::LOAD_ALGORITHM>;
};

STRATA_NAMESPACE_END

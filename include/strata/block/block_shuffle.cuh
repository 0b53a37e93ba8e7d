// strata/block/block_shuffle.cuh: BlockShuffle, which moves items between the threads of a block
// (a fixed offset, a rotation, or a blocked arrangement shifted by one item).
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

//! Moves items between the threads of a block through shared memory: every thread publishes one
//! item, the block synchronizes once, and every thread reads the item of another thread. Threads
//! are ranked row-major (x fastest, then y, then z).
//!
//! Every member synchronizes the block once and must be called by all of its threads. Call
//! `__syncthreads()` before the same TempStorage is used again (by this or another collective).
//!
//! \code
//! using BlockShuffleT = strata::BlockShuffle<int, 128>;
//! __shared__ BlockShuffleT::TempStorage temp_storage;
//! int items[4];  // a blocked arrangement: thread t holds items 4t .. 4t + 3 of the tile
//! int prev[4];
//! BlockShuffleT(temp_storage).Up(items, prev);  // prev[i] is item 4t + i - 1 (thread 0: prev[0] untouched)
//! \endcode
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockShuffle
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");

  // One published item per thread, at the thread's rank.
  struct _TempStorage
  {
    T items[BLOCK_THREADS];
  };

public:
  //! The shared memory the collective needs (may sit in a union with other TempStorage).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage, one per specialization and kernel.
  STRATA_DEVICE STRATA_FORCEINLINE BlockShuffle()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockShuffle(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Thread i receives the `input` of thread i + `distance` (`distance` may be negative). Threads
  //! for which i + distance lies outside [0, BLOCK_THREADS) leave `output` unchanged. `output`
  //! may be the variable passed as `input`.
  //!
  //! \code
  //! int from_next = own;
  //! BlockShuffleT(temp_storage).Offset(own, from_next, 1);  // the last thread keeps `own`
  //! \endcode
  STRATA_DEVICE STRATA_FORCEINLINE void Offset(T input, T& output, int distance = 1)
  {
    temp_storage.items[linear_tid] = input;
    __syncthreads();
    const int source = linear_tid + distance;
    if (source >= 0 && source < BLOCK_THREADS)
    {
      output = temp_storage.items[source];
    }
  }

  //! Thread i receives the `input` of thread (i + `distance`) mod BLOCK_THREADS, for
  //! 0 <= distance < BLOCK_THREADS. Every thread's `output` is written; it may be the variable
  //! passed as `input`.
  //!
  //! \code
  //! BlockShuffleT(temp_storage).Rotate(own, rotated, 3);  // the last thread gets thread 2's item
  //! \endcode
  STRATA_DEVICE STRATA_FORCEINLINE void Rotate(T input, T& output, unsigned int distance = 1)
  {
    temp_storage.items[linear_tid] = input;
    __syncthreads();
    // distance < BLOCK_THREADS, so one wrap-around suffices (no division).
    unsigned int source = static_cast<unsigned int>(linear_tid) + distance;
    if (source >= static_cast<unsigned int>(BLOCK_THREADS))
    {
      source -= static_cast<unsigned int>(BLOCK_THREADS);
    }
    output = temp_storage.items[source];
  }

  //! Shifts the block's blocked arrangement up by one item: `prev[i]` becomes the item before
  //! `input[i]` in the tile. Thread 0's `prev[0]` is left unchanged. `prev` may be `input`.
  //!
  //! \code
  //! BlockShuffleT(temp_storage).Up(items, items);  // in place
  //! \endcode
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Up(T (&input)[ITEMS_PER_THREAD], T (&prev)[ITEMS_PER_THREAD])
  {
    temp_storage.items[linear_tid] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    // Descending, so that an aliased `prev` overwrites each item after it was read.
#pragma unroll
    for (int i = ITEMS_PER_THREAD - 1; i > 0; --i)
    {
      prev[i] = input[i - 1];
    }
    if (linear_tid > 0)
    {
      prev[0] = temp_storage.items[linear_tid - 1];
    }
  }

  //! As Up(input, prev), and every thread also receives `block_suffix`, the tile's last item
  //! (`input[ITEMS_PER_THREAD - 1]` of thread BLOCK_THREADS - 1).
  //!
  //! \code
  //! int last_of_tile;
  //! BlockShuffleT(temp_storage).Up(items, prev, last_of_tile);
  //! \endcode
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Up(T (&input)[ITEMS_PER_THREAD], T (&prev)[ITEMS_PER_THREAD], T& block_suffix)
  {
    Up(input, prev);
    block_suffix = temp_storage.items[BLOCK_THREADS - 1];
  }

  //! Shifts the block's blocked arrangement down by one item: `next[i]` becomes the item after
  //! `input[i]` in the tile. Thread BLOCK_THREADS - 1 leaves `next[ITEMS_PER_THREAD - 1]`
  //! unchanged. `next` may be `input`.
  //!
  //! \code
  //! BlockShuffleT(temp_storage).Down(items, next);
  //! \endcode
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Down(T (&input)[ITEMS_PER_THREAD], T (&next)[ITEMS_PER_THREAD])
  {
    temp_storage.items[linear_tid] = input[0];
    __syncthreads();
    // Ascending, so that an aliased `next` overwrites each item after it was read.
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i)
    {
      next[i] = input[i + 1];
    }
    if (linear_tid < BLOCK_THREADS - 1)
    {
      next[ITEMS_PER_THREAD - 1] = temp_storage.items[linear_tid + 1];
    }
  }

  //! As Down(input, next), and every thread also receives `block_prefix`, the tile's first item
  //! (`input[0]` of thread 0).
  //!
  //! \code
  //! int first_of_tile;
  //! BlockShuffleT(temp_storage).Down(items, next, first_of_tile);
  //! \endcode
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Down(T (&input)[ITEMS_PER_THREAD], T (&next)[ITEMS_PER_THREAD], T& block_prefix)
  {
    Down(input, next);
    block_prefix = temp_storage.items[0];
  }

private:
  _TempStorage& temp_storage;
  int linear_tid;
};

STRATA_NAMESPACE_END

// strata/block/block_reduce.cuh: BlockReduce, the reduction (a sum, or any associative operator)
// of the items of a thread block, one or several per thread, whole tiles or partial ones.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/block/specializations/block_reduce_raking.cuh>
#include <strata/block/specializations/block_reduce_raking_commutative_only.cuh>
#include <strata/block/specializations/block_reduce_warp_reductions.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Cooperative reductions over the threads of a block of BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z
//! (1 to 1024) threads, ranked row-major (x fastest, then y, then z). Each thread contributes one
//! item or an array of ITEMS_PER_THREAD items; arrays form a blocked arrangement (thread t holds
//! items t * ITEMS_PER_THREAD .. (t + 1) * ITEMS_PER_THREAD - 1 of the tile).
//!
//! - The result is valid in thread 0 only; the other threads get unspecified values.
//! - The operator must be associative; BLOCK_REDUCE_RAKING and BLOCK_REDUCE_WARP_REDUCTIONS
//!   combine the items in tile order (non-commutative operators work), BLOCK_REDUCE_RAKING_
//!   COMMUTATIVE_ONLY needs a commutative one. How the items are grouped is up to the algorithm,
//!   so floating-point sums may round differently from a sequential loop.
//! - The steps within a warp are WarpReduce's: shuffles, or on sm_80+ one redux.sync for
//!   integer sums, minima, maxima and bitwise reductions of up to 32 bits.
//! - Every member synchronizes the block (except for blocks of at most 32 threads, which reduce
//!   within their warp) and must be called by all of its threads. Call `__syncthreads()` before
//!   the same TempStorage is used again, by this or another collective.
//!
//! \code
//! using BlockReduceT = strata::BlockReduce<int, 128>;
//! __shared__ BlockReduceT::TempStorage temp_storage;
//! int thread_data[4] = {1, 2, 3, 4};
//! int aggregate = BlockReduceT(temp_storage).Sum(thread_data); // 1280 in thread 0
//! \endcode
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockReduce
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1 && BLOCK_THREADS <= 1024,
                "a block has 1 to 1024 threads");

  // The specializations depend on the number of threads only, so that blocks of the same size
  // and different shapes share them.
  using InternalBlockReduce =
      ::cuda::std::conditional_t<ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS,
                                 detail::BlockReduceWarpReductions<T, BLOCK_THREADS>,
                                 ::cuda::std::conditional_t<ALGORITHM == BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
                                                            detail::BlockReduceRakingCommutativeOnly<T, BLOCK_THREADS>,
                                                            detail::BlockReduceRaking<T, BLOCK_THREADS>>>;
  using _TempStorage = typename InternalBlockReduce::TempStorage;

public:
  //! The shared memory the collective needs (may sit in a union with other TempStorage).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! @name Constructors
  //! @{

  //! Uses a private `__shared__` TempStorage, one per specialization and kernel.
  STRATA_DEVICE STRATA_FORCEINLINE BlockReduce()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockReduce(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
  }

  //! @}
  //! @name Reductions with an operator
  //! `reduction_op` is a binary functor callable as `T op(const T&, const T&)`, associative and,
  //! for BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, commutative. Its results are converted to T (a
  //! thread's own array is reduced by ThreadReduce, in the operator's result type, first).
  //! @{

  //! The reduction of every thread's `input`, valid in thread 0.
  //!
  //! \code
  //! int largest = BlockReduceT(temp_storage).Reduce(thread_data, cuda::maximum<>{});
  //! \endcode
  template <typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOpT reduction_op)
  {
    return Internal().template Reduce<true>(input, BLOCK_THREADS, reduction_op);
  }

  //! The reduction of the blocked arrangement of every thread's `inputs`, valid in thread 0.
  //!
  //! \code
  //! int items[4];
  //! int largest = BlockReduceT(temp_storage).Reduce(items, cuda::maximum<>{});
  //! \endcode
  template <int ITEMS_PER_THREAD, typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(const T (&inputs)[ITEMS_PER_THREAD], ReductionOpT reduction_op)
  {
    return Reduce(static_cast<T>(ThreadReduce(inputs, reduction_op)), reduction_op);
  }

  //! The reduction of the `input`s of the first `num_valid` threads (by rank), valid in thread 0.
  //! `num_valid` (at least 1; BLOCK_THREADS or more is a full tile) must be the same in every
  //! thread; every thread calls, and the inputs of the other threads are ignored (they may be
  //! uninitialized).
  //!
  //! \code
  //! int item;
  //! if (threadIdx.x < num_valid) item = d_in[threadIdx.x];
  //! int largest = BlockReduceT(temp_storage).Reduce(item, cuda::maximum<>{}, num_valid);
  //! \endcode
  template <typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOpT reduction_op, int num_valid)
  {
    if (num_valid >= BLOCK_THREADS)
    {
      return Internal().template Reduce<true>(input, BLOCK_THREADS, reduction_op);
    }
    return Internal().template Reduce<false>(input, num_valid, reduction_op);
  }

  //! @}
  //! @name Sums
  //! Reductions with `cuda::std::plus<>` (T's operator+).
  //! @{

  //! The sum of every thread's `input`, valid in thread 0.
  //!
  //! \code
  //! int total = BlockReduceT(temp_storage).Sum(item);
  //! \endcode
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input)
  {
    return Reduce(input, ::cuda::std::plus<>{});
  }

  //! The sum of the blocked arrangement of every thread's `inputs`, valid in thread 0.
  //!
  //! \code
  //! int thread_data[4] = {1, 2, 3, 4};
  //! int total = BlockReduceT(temp_storage).Sum(thread_data); // 128 threads: 1280
  //! \endcode
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(const T (&inputs)[ITEMS_PER_THREAD])
  {
    return Reduce(inputs, ::cuda::std::plus<>{});
  }

  //! The sum of the `input`s of the first `num_valid` threads (by rank), valid in thread 0, with
  //! the contract of Reduce(input, reduction_op, num_valid).
  //!
  //! \code
  //! int item;
  //! if (threadIdx.x < num_valid) item = d_in[threadIdx.x];
  //! int total = BlockReduceT(temp_storage).Sum(item, num_valid);
  //! \endcode
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input, int num_valid)
  {
    return Reduce(input, ::cuda::std::plus<>{}, num_valid);
  }

  //! @}

private:
  STRATA_DEVICE STRATA_FORCEINLINE InternalBlockReduce Internal()
  {
    return InternalBlockReduce(temp_storage, linear_tid);
  }

  _TempStorage& temp_storage;
  int linear_tid;
};

STRATA_NAMESPACE_END

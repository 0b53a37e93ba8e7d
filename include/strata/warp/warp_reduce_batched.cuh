// strata/warp/warp_reduce_batched.cuh: WarpReduceBatched (CUB 3.4), the reductions of Batches
// batches across a logical warp at once, each lane holding one item of every batch, by recursive
// halving: at each step a lane keeps half of its partial results and trades the other half with
// the lane across, so that B batches over L lanes take about B shuffles a lane instead of
// B log2(L).
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN

//! Reductions of Batches batches of T across each logical warp of LogicalWarpThreads lanes (a
//! power of two up to 32): lane l passes `inputs`, Batches items, item b of batch b. Results are
//! given out striped (ReduceToStriped: outputs[t] of lane l is batch l + t * LogicalWarpThreads)
//! or blocked (ReduceToBlocked: batch l * MAX_OUT_PER_THREAD + t), MAX_OUT_PER_THREAD =
//! ceil(Batches / LogicalWarpThreads) of them a lane; outputs with no batch hold no result. Reduce
//! and Sum return lane l's batch l where every batch has a lane. Each batch is combined in lane
//! order (the operator must be associative; it need not be commutative). With SyncPhysicalWarp
//! the shuffles name the whole hardware warp, whose every logical warp must then call.
//!
//! \code
//! // each of 32 lanes holds {x, y, z}; lanes 0, 1 and 2 get the sums of x, of y and of z
//! using Batched = strata::WarpReduceBatched<float, 3>;
//! __shared__ Batched::TempStorage storage;
//! float sum = Batched(storage).Sum(items);
//! \endcode
template <typename T, int Batches, int LogicalWarpThreads = detail::warp_threads, bool SyncPhysicalWarp = false>
class WarpReduceBatched
{
  static_assert(LogicalWarpThreads > 0 && LogicalWarpThreads <= detail::warp_threads
                    && (LogicalWarpThreads & (LogicalWarpThreads - 1)) == 0,
                "LogicalWarpThreads must be a power of two from 1 to 32");
  static_assert(Batches >= 0, "Batches must not be negative");

public:
  //! Results a lane gives out.
  static constexpr int MAX_OUT_PER_THREAD = (Batches + LogicalWarpThreads - 1) / LogicalWarpThreads;

  //! Shuffles need no shared memory; the type exists for CUB's interface.
  struct TempStorage : Uninitialized<NullType>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpReduceBatched(TempStorage&) {}

  //! Lane l's result: the reduction of batch l (for Batches up to LogicalWarpThreads).
  template <typename InputT, typename ReductionOp>
  [[nodiscard]] STRATA_DEVICE STRATA_FORCEINLINE T Reduce(const InputT& inputs, ReductionOp reduction_op)
  {
    static_assert(MAX_OUT_PER_THREAD == 1,
                  "for more batches than lanes, or none, use ReduceToStriped or ReduceToBlocked");
    T output[1];
    Run<false>(inputs, output, reduction_op);
    return output[0];
  }

  template <typename InputT, typename OutputT, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ReduceToStriped(const InputT& inputs, OutputT& outputs,
                                                        ReductionOp reduction_op)
  {
    Run<false>(inputs, outputs, reduction_op);
  }

  template <typename InputT, typename OutputT, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ReduceToBlocked(const InputT& inputs, OutputT& outputs,
                                                        ReductionOp reduction_op)
  {
    Run<true>(inputs, outputs, reduction_op);
  }

  template <typename InputT>
  [[nodiscard]] STRATA_DEVICE STRATA_FORCEINLINE T Sum(const InputT& inputs)
  {
    return Reduce(inputs, ::cuda::std::plus<>{});
  }

  template <typename InputT, typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void SumToStriped(const InputT& inputs, OutputT& outputs)
  {
    Run<false>(inputs, outputs, ::cuda::std::plus<>{});
  }

  template <typename InputT, typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void SumToBlocked(const InputT& inputs, OutputT& outputs)
  {
    Run<true>(inputs, outputs, ::cuda::std::plus<>{});
  }

private:
  static constexpr int L     = LogicalWarpThreads;
  static constexpr int M     = MAX_OUT_PER_THREAD;
  static constexpr int SLOTS = M * L;

  //! The batch slot s starts with: s itself (striped), or the batch whose blocked output lands where
  //! slot s's striped one would.
  template <bool BLOCKED>
  STRATA_DEVICE STRATA_FORCEINLINE static constexpr int BatchOfSlot(int s)
  {
    return BLOCKED ? (s % L) * M + s / L : s;
  }

  template <bool BLOCKED, typename InputT, typename OutputT, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Run(const InputT& inputs, OutputT& outputs, ReductionOp reduction_op)
  {
    if constexpr (Batches > 0)
    {
      const unsigned int member_mask = SyncPhysicalWarp ? 0xFFFFFFFFu : detail::LogicalWarpMask<L>();
      const int lane                 = int(LaneId()) % L;
      // Slots past the last batch take batch 0's item: they only ever meet each other.
      T partial[SLOTS];
#pragma unroll
      for (int s = 0; s < SLOTS; ++s)
      {
        const int batch = BatchOfSlot<BLOCKED>(s);
        partial[s]      = inputs[batch < Batches ? batch : 0];
      }
      // Step `half`: slots s (bits below 2 half clear) pair with s + half. The lower lane of each
      // pair keeps slot s's batch and the upper one slot s + half's, in slot s; each combines its
      // own and the received partial in lane order. Slot s of lane l then stands for the batch of
      // slot s + (l & (2 half - 1)), over that block of 2 half lanes.
#pragma unroll
      for (int half = 1; half < L; half *= 2)
      {
        const bool upper = (lane & half) != 0;
#pragma unroll
        for (int s = 0; s < SLOTS; s += 2 * half)
        {
          const T send     = upper ? partial[s] : partial[s + half];
          const T received = ShuffleXor(send, half, member_mask);
          partial[s] = upper ? T(reduction_op(received, partial[s + half])) : T(reduction_op(partial[s], received));
        }
      }
#pragma unroll
      for (int t = 0; t < M; ++t)
      {
        outputs[t] = partial[t * L];
      }
    }
  }

  //! `value` of the lane `mask` across (its lane id xor mask) in the logical warp.
  STRATA_DEVICE STRATA_FORCEINLINE static T ShuffleXor(const T& value, int mask, unsigned int member_mask)
  {
    detail::ShuffleWords<T> words(value);
    const unsigned int c = detail::shfl_segment_mask<L> | (detail::warp_threads - 1);
#pragma unroll
    for (int i = 0; i < detail::ShuffleWords<T>::COUNT; ++i)
    {
      words.words[i] = detail::ShflSyncBfly(words.words[i], static_cast<unsigned int>(mask), c, member_mask);
    }
    return words.Value();
  }
};

STRATA_NAMESPACE_END

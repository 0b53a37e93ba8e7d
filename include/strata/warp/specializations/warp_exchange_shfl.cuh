// strata/warp/specializations/warp_exchange_shfl.cuh: WarpExchange's WARP_EXCHANGE_SHUFFLE
// algorithm: a square tile (as many items per lane as lanes) transposed in registers with
// butterfly shuffles, without shared memory.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/copy_bytes.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Blocked <-> striped rearrangement of a LOGICAL_WARP_THREADS x LOGICAL_WARP_THREADS tile. With
//! as many items per lane as lanes, lane l's item i is tile position l * N + i when blocked and
//! i * N + l when striped: both directions are the transpose of the lanes-by-items matrix.
//!
//! The transpose is recursive on blocks: with the matrix split in quadrants [[A, B], [C, D]], the
//! lanes of the upper half swap B with the lower half's C, then every quadrant is transposed the
//! same way, all at once. The swap at block size b is a shuffle with lane ^ b, so the whole
//! transpose is log2(N) rounds of N / 2 butterfly shuffles per 32-bit word of InputT.
template <typename InputT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
class WarpExchangeShfl
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= warp_threads,
                "a logical warp has 1 to 32 threads");
  static_assert(PowerOfTwo<LOGICAL_WARP_THREADS>::VALUE,
                "WARP_EXCHANGE_SHUFFLE needs a power-of-two LOGICAL_WARP_THREADS; use WARP_EXCHANGE_SMEM");
  static_assert(ITEMS_PER_THREAD == LOGICAL_WARP_THREADS,
                "WARP_EXCHANGE_SHUFFLE needs ITEMS_PER_THREAD == LOGICAL_WARP_THREADS (a square tile); "
                "use WARP_EXCHANGE_SMEM for other shapes");

  static constexpr int ROUNDS = Log2<ITEMS_PER_THREAD>::VALUE;
  static constexpr int WORDS  = ShuffleWords<InputT>::COUNT;

  //! Transposes the lanes-by-items matrix held in `words` (one row per lane, each item as its
  //! 32-bit words). Items travel as words so that every choice below is a select of registers:
  //! choosing between whole items would take their addresses and push them to local memory.
  STRATA_DEVICE STRATA_FORCEINLINE void Transpose(::cuda::std::uint32_t (&words)[ITEMS_PER_THREAD][WORDS]) const
  {
    constexpr unsigned int c = shfl_segment_mask<LOGICAL_WARP_THREADS> | (warp_threads - 1);
#pragma unroll
    for (int round = 0; round < ROUNDS; ++round)
    {
      const int b      = ITEMS_PER_THREAD >> (round + 1); // block size of this round
      const bool upper = (lane_id & static_cast<unsigned int>(b)) != 0;
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if ((i & b) == 0)
        {
          // Lane l (bit b clear) holds B's element (l, i + b); lane l ^ b holds C's element
          // (l ^ b, i). They trade them, each into the place of what it sent.
#pragma unroll
          for (int w = 0; w < WORDS; ++w)
          {
            const ::cuda::std::uint32_t sent = upper ? words[i][w] : words[i + b][w];
            const ::cuda::std::uint32_t received =
                detail::ShflSyncBfly(sent, static_cast<unsigned int>(b), c, member_mask);
            words[i][w]     = upper ? received : words[i][w];
            words[i + b][w] = upper ? words[i + b][w] : received;
          }
        }
      }
    }
  }

public:
  //! No shared memory: shuffles move everything.
  using TempStorage = NullType;

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpExchangeShfl(TempStorage&)
      : lane_id(LogicalLaneId<LOGICAL_WARP_THREADS>())
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>())
  {
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    ::cuda::std::uint32_t words[ITEMS_PER_THREAD][WORDS];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const ShuffleWords<InputT> item(input_items[i]);
#pragma unroll
      for (int w = 0; w < WORDS; ++w)
      {
        words[i][w] = item.words[w];
      }
    }
    Transpose(words);
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      InputT item;
      ::strata::detail::CopyBytes(static_cast<void*>(&item), words[i], sizeof(InputT));
      output_items[i] = item;
    }
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    BlockedToStriped(input_items, output_items);
  }

private:
  unsigned int lane_id;     //!< the calling lane's rank in its logical warp
  unsigned int member_mask; //!< the lanes of the calling logical warp in the hardware warp
};
} // namespace detail

STRATA_NAMESPACE_END

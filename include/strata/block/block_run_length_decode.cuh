// strata/block/block_run_length_decode.cuh: BlockRunLengthDecode, which expands a block's runs
// (a value repeated a number of times each) window by window into a blocked arrangement.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/limits>

STRATA_NAMESPACE_BEGIN

//! Run-length decodes BLOCK_THREADS * RUNS_PER_THREAD runs held in a blocked arrangement (thread
//! t holds runs t * RUNS_PER_THREAD .. (t + 1) * RUNS_PER_THREAD - 1): run r stands for
//! `run_values[r]` repeated `run_lengths[r]` times. Since the decoded size is only known at run
//! time, RunLengthDecode() returns one window of BLOCK_THREADS * DECODED_ITEMS_PER_THREAD decoded
//! items at a time, starting at any decoded offset; thread t gets the window's items
//! t * DECODED_ITEMS_PER_THREAD .. (t + 1) * DECODED_ITEMS_PER_THREAD - 1.
//!
//! - Construct with the runs' lengths (the constructor computes their offsets with a block-wide
//!   scan and returns the total decoded size to every thread) or with their offsets (the decoded
//!   offset of each run's first item: non-decreasing, run 0 at offset 0).
//! - Runs may be empty (length 0), also between non-empty runs (CUB allows them only at the end,
//!   e.g. to pad a partial tile of runs).
//! - Items at decoded offsets at or beyond the total decoded size are not valid: a window that
//!   reaches past the end yields unspecified values there.
//! - DecodedOffsetT must hold the total decoded size (and every `from_decoded_offset` +
//!   window size used).
//!
//! The constructors synchronize the block and must be called by all of its threads; the runs stay
//! in the TempStorage, which must not be reused while RunLengthDecode() may still be called.
//! RunLengthDecode() only reads it: no barrier is needed between windows.
//!
//! \code
//! // 128 threads, 2 runs each, windows of 128 x 4 decoded items
//! using BlockRunLengthDecodeT = strata::BlockRunLengthDecode<uint64_t, 128, 2, 4>;
//! __shared__ BlockRunLengthDecodeT::TempStorage temp_storage;
//! uint64_t run_values[2];
//! uint32_t run_lengths[2];
//! ...
//! uint32_t total_decoded_size = 0;
//! BlockRunLengthDecodeT block_rld(temp_storage, run_values, run_lengths, total_decoded_size);
//! for (uint32_t window = 0; window < total_decoded_size; window += 128 * 4)
//! {
//!   uint64_t decoded_items[4];
//!   uint32_t relative_offsets[4];
//!   block_rld.RunLengthDecode(decoded_items, relative_offsets, window);
//!   // valid: the items of the first total_decoded_size - window positions of the window
//! }
//! // run_values  { [0, 1], [2, 3], [4, 5], [6, 7], ..., [254, 255] }
//! // run_lengths { [1, 2], [3, 4], [5, 1], [2, 3], ..., [5, 1] }
//! // first window:
//! // decoded_items    { [0, 1, 1, 2], [2, 2, 3, 3], [3, 3, 4, 4], [4, 4, 4, 5], ..., [169, 169, 170, 171] }
//! // relative_offsets { [0, 0, 1, 0], [1, 2, 0, 1], [2, 3, 0, 1], [2, 3, 4, 0], ..., [3, 4, 0, 0] }
//! \endcode
template <typename ItemT, int BLOCK_DIM_X, int RUNS_PER_THREAD, int DECODED_ITEMS_PER_THREAD,
          typename DecodedOffsetT = ::cuda::std::uint32_t, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRunLengthDecode
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int BLOCK_RUNS    = BLOCK_THREADS * RUNS_PER_THREAD;
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");
  static_assert(RUNS_PER_THREAD >= 1 && DECODED_ITEMS_PER_THREAD >= 1,
                "every thread holds at least one run and one decoded item");
  static_assert(::cuda::std::numeric_limits<DecodedOffsetT>::is_integer, "DecodedOffsetT must be an integer type");

  using RunOffsetScanT = BlockScan<DecodedOffsetT, BLOCK_DIM_X, BLOCK_SCAN_WARP_SCANS, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  // The runs in run order; run_offsets[r] is the decoded offset of run r's first item.
  struct Runs
  {
    DecodedOffsetT run_offsets[BLOCK_RUNS];
    ItemT run_values[BLOCK_RUNS];
  };

  // The scan of the run lengths is done before the runs are stored.
  union _TempStorage
  {
    typename RunOffsetScanT::TempStorage offset_scan;
    Uninitialized<Runs> runs;
  };

public:
  //! The shared memory the collective needs (may sit in a union with other TempStorage).
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! \name Constructors
  //! With `run_lengths` (any integer type): computes the runs' offsets and writes the total
  //! decoded size (the sum of all lengths) to `total_decoded_size` in every thread. With
  //! `run_offsets`: takes the decoded offset of each run's first item. Either uses the caller's
  //! `temp_storage` or, without it, a private `__shared__` one (one per specialization and
  //! kernel).
  //!
  //! \code
  //! uint32_t run_offsets[2];  // an exclusive prefix sum of the run lengths, e.g. from BlockScan
  //! BlockRunLengthDecodeT block_rld(temp_storage, run_values, run_offsets);
  //! \endcode
  //! @{
  template <typename RunLengthT, typename TotalDecodedSizeT>
  STRATA_DEVICE STRATA_FORCEINLINE BlockRunLengthDecode(TempStorage& temp_storage, ItemT (&run_values)[RUNS_PER_THREAD],
                                                        RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                                                        TotalDecodedSizeT& total_decoded_size)
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
    InitWithRunLengths(run_values, run_lengths, total_decoded_size);
  }

  template <typename UserRunOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE BlockRunLengthDecode(TempStorage& temp_storage, ItemT (&run_values)[RUNS_PER_THREAD],
                                                        UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
      : temp_storage(temp_storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
    InitWithRunOffsets(run_values, run_offsets);
  }

  template <typename RunLengthT, typename TotalDecodedSizeT>
  STRATA_DEVICE STRATA_FORCEINLINE BlockRunLengthDecode(ItemT (&run_values)[RUNS_PER_THREAD],
                                                        RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                                                        TotalDecodedSizeT& total_decoded_size)
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
    InitWithRunLengths(run_values, run_lengths, total_decoded_size);
  }

  template <typename UserRunOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE BlockRunLengthDecode(ItemT (&run_values)[RUNS_PER_THREAD],
                                                        UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {
    InitWithRunOffsets(run_values, run_offsets);
  }
  //! @}

  //! \name Decoding
  //! Decodes the window of BLOCK_THREADS * DECODED_ITEMS_PER_THREAD items that starts at decoded
  //! offset `from_decoded_offset` (at most the total decoded size) into `decoded_items`, in a
  //! blocked arrangement; `item_offsets` receives each item's rank within its run. Decoded runs
  //! {3, 1, 4} of lengths {2, 1, 3} are the items {3, 3, 1, 4, 4, 4} with the item offsets
  //! {0, 1, 0, 0, 1, 2}.
  //!
  //! \code
  //! uint64_t decoded_items[4];
  //! block_rld.RunLengthDecode(decoded_items, 512);  // the second window of 512 items
  //! \endcode
  //! @{
  template <typename RelativeOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void RunLengthDecode(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                                                        RelativeOffsetT (&item_offsets)[DECODED_ITEMS_PER_THREAD],
                                                        DecodedOffsetT from_decoded_offset = 0)
  {
    const Runs& runs              = temp_storage.runs.Alias();
    DecodedOffsetT decoded_offset = static_cast<DecodedOffsetT>(
        from_decoded_offset
        + static_cast<DecodedOffsetT>(linear_tid) * static_cast<DecodedOffsetT>(DECODED_ITEMS_PER_THREAD));

    int run                   = FindRun(decoded_offset);
    DecodedOffsetT run_begin  = runs.run_offsets[run];
    DecodedOffsetT next_begin = NextRunBegin(run);
    ItemT value               = runs.run_values[run];
#pragma unroll
    for (int i = 0; i < DECODED_ITEMS_PER_THREAD; ++i)
    {
      if (run + 1 < BLOCK_RUNS && decoded_offset >= next_begin)
      {
        // Mostly the next run; a search is needed only when empty runs lie in between.
        ++run;
        if (NextRunBegin(run) <= decoded_offset)
        {
          run = FindRun(decoded_offset);
        }
        run_begin  = runs.run_offsets[run];
        next_begin = NextRunBegin(run);
        value      = runs.run_values[run];
      }
      decoded_items[i] = value;
      item_offsets[i]  = static_cast<RelativeOffsetT>(decoded_offset - run_begin);
      ++decoded_offset;
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void RunLengthDecode(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                                                        DecodedOffsetT from_decoded_offset = 0)
  {
    DecodedOffsetT item_offsets[DECODED_ITEMS_PER_THREAD];
    RunLengthDecode(decoded_items, item_offsets, from_decoded_offset);
  }
  //! @}

private:
  _TempStorage& temp_storage;
  int linear_tid;

  template <typename RunLengthT, typename TotalDecodedSizeT>
  STRATA_DEVICE STRATA_FORCEINLINE void InitWithRunLengths(ItemT (&run_values)[RUNS_PER_THREAD],
                                                           RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                                                           TotalDecodedSizeT& total_decoded_size)
  {
    DecodedOffsetT lengths[RUNS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < RUNS_PER_THREAD; ++i)
    {
      lengths[i] = static_cast<DecodedOffsetT>(run_lengths[i]);
    }
    DecodedOffsetT run_offsets[RUNS_PER_THREAD];
    DecodedOffsetT decoded_size;
    RunOffsetScanT(temp_storage.offset_scan).ExclusiveSum(lengths, run_offsets, decoded_size);
    total_decoded_size = static_cast<TotalDecodedSizeT>(decoded_size);
    // The runs are about to overwrite the scan's storage.
    __syncthreads();
    InitWithRunOffsets(run_values, run_offsets);
  }

  template <typename UserRunOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void InitWithRunOffsets(ItemT (&run_values)[RUNS_PER_THREAD],
                                                           UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
  {
    Runs& runs = temp_storage.runs.Alias();
#pragma unroll
    for (int i = 0; i < RUNS_PER_THREAD; ++i)
    {
      runs.run_offsets[linear_tid * RUNS_PER_THREAD + i] = static_cast<DecodedOffsetT>(run_offsets[i]);
      runs.run_values[linear_tid * RUNS_PER_THREAD + i]  = run_values[i];
    }
    __syncthreads();
  }

  //! The last run that begins at or before `decoded_offset` (run 0 if none does), by a binary
  //! search over the run offsets with a fixed number of steps: each step adds the largest power
  //! of two of runs that still all begin at or before it.
  STRATA_DEVICE STRATA_FORCEINLINE int FindRun(DecodedOffsetT decoded_offset) const
  {
    const Runs& runs         = temp_storage.runs.Alias();
    constexpr int FIRST_STEP = static_cast<int>(::cuda::std::bit_floor(static_cast<unsigned int>(BLOCK_RUNS)));
    int runs_at_or_before    = 0;
#pragma unroll
    for (int step = FIRST_STEP; step > 0; step /= 2)
    {
      if (runs_at_or_before + step <= BLOCK_RUNS && runs.run_offsets[runs_at_or_before + step - 1] <= decoded_offset)
      {
        runs_at_or_before += step;
      }
    }
    return runs_at_or_before > 0 ? runs_at_or_before - 1 : 0;
  }

  //! The decoded offset where the run after `run` begins; the largest DecodedOffsetT after the
  //! last run.
  STRATA_DEVICE STRATA_FORCEINLINE DecodedOffsetT NextRunBegin(int run) const
  {
    return run + 1 < BLOCK_RUNS ? temp_storage.runs.Alias().run_offsets[run + 1]
                                : ::cuda::std::numeric_limits<DecodedOffsetT>::max();
  }
};

STRATA_NAMESPACE_END

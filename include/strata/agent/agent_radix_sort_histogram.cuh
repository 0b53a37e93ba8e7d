// strata/agent/agent_radix_sort_histogram.cuh: AgentRadixSortHistogram, one block's part of the
// up-front pass of a onesweep radix sort: the digit counts of every pass at once.
#pragma once

#include <strata/config.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

//! The histogram pass of a onesweep sort (CUB's parameter list): BLOCK_THREADS threads of
//! ITEMS_PER_THREAD keys, counting in NUM_PARTS shared copies (NOMINAL_4B_NUM_PARTS for keys of up
//! to 4 bytes, fewer for wider ComputeT), digits of RADIX_BITS bits.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, int NOMINAL_4B_NUM_PARTS, typename ComputeT, int _RADIX_BITS>
struct AgentRadixSortHistogramPolicy
{
  static constexpr int BLOCK_THREADS    = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = _ITEMS_PER_THREAD;
  static constexpr int NUM_PARTS  = NOMINAL_4B_NUM_PARTS * 4 / (int(sizeof(ComputeT)) > 4 ? int(sizeof(ComputeT)) : 4)
                                           > 1
                                        ? NOMINAL_4B_NUM_PARTS * 4
                                             / (int(sizeof(ComputeT)) > 4 ? int(sizeof(ComputeT)) : 4)
                                        : 1;
  static constexpr int RADIX_BITS = _RADIX_BITS;
};

//! The kernel that turns digit counts into digit starts (CUB's parameter list). strata runs it
//! with one thread per digit of the onesweep policy; the policy is accepted for CUB's hubs.
template <int _BLOCK_THREADS, int _RADIX_BITS>
struct AgentRadixSortExclusiveSumPolicy
{
  static constexpr int BLOCK_THREADS = _BLOCK_THREADS;
  static constexpr int RADIX_BITS    = _RADIX_BITS;
};

//! Counts the RADIX_BITS-bit digits of the keys of one portion for every pass of a sort of bits
//! [begin_bit, end_bit): the block walks its share of the portion's tiles, counts in shared
//! memory (NUM_PARTS copies per digit, and one atomic per run of equal digits among a thread's
//! keys: fewer colliding atomics for repeated keys), and adds its counts to
//! `d_bins[(pass * num_portions + portion) * RADIX_DIGITS + digit]`. The block is `block` of the
//! `blocks` that share the portion's tiles. Digits are the keys' own (ascending) digits; the scan
//! of the counts orders them for descending sorts.
template <typename PolicyT, int RADIX_BITS, typename KeyT, typename OffsetT, typename DecomposerT>
struct AgentRadixSortHistogram
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int NUM_PARTS        = PolicyT::NUM_PARTS;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int RADIX_DIGITS     = 1 << RADIX_BITS;
  //! Passes of the widest sort of KeyT (a decomposed key has at most sizeof(KeyT) * 8 bits).
  static constexpr int MAX_PASSES = (int(sizeof(KeyT)) * 8 + RADIX_BITS - 1) / RADIX_BITS;

  using traits             = detail::radix::traits_t<KeyT>;
  using bit_ordered_type   = typename traits::bit_ordered_type;
  using digit_extractor_t  = typename traits::template digit_extractor_t<ShiftDigitExtractor<KeyT>, DecomposerT>;
  static constexpr int VEC = detail::tile::VectorItems<ITEMS_PER_THREAD, detail::tile::max_vector_bytes, const KeyT*>();
  using TileIoT            = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VEC>;

  struct TempStorage
  {
    ::cuda::std::uint32_t bins[MAX_PASSES][RADIX_DIGITS][NUM_PARTS];
  };

  TempStorage& storage;
  const KeyT* d_keys; // the portion's first key
  OffsetT* d_bins;
  OffsetT num_items; // of the portion
  int portion;
  int num_portions;
  int block;  // of the portion's blocks
  int blocks; // per portion
  int begin_bit;
  int end_bit;
  int num_passes;
  DecomposerT decomposer;

  STRATA_DEVICE STRATA_FORCEINLINE AgentRadixSortHistogram(TempStorage& storage, const KeyT* d_keys, OffsetT* d_bins,
                                                           OffsetT num_items, int portion, int num_portions, int block,
                                                           int blocks, int begin_bit, int end_bit,
                                                           DecomposerT decomposer)
      : storage(storage)
      , d_keys(d_keys)
      , d_bins(d_bins)
      , num_items(num_items)
      , portion(portion)
      , num_portions(num_portions)
      , block(block)
      , blocks(blocks)
      , begin_bit(begin_bit)
      , end_bit(end_bit)
      , num_passes((end_bit - begin_bit + RADIX_BITS - 1) / RADIX_BITS)
      , decomposer(decomposer)
  {
  }

  //! Counts the digits of `items` (the first `valid` of them) for every pass.
  STRATA_DEVICE STRATA_FORCEINLINE void CountKeys(KeyT (&items)[ITEMS_PER_THREAD], int valid_in_thread_order, bool full)
  {
    const int part = int(threadIdx.x) % NUM_PARTS;
    bit_ordered_type keys[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      keys[k] = traits::to_bit_ordered(decomposer, ::cuda::std::bit_cast<bit_ordered_type>(items[k]));
    }
    for (int pass = 0; pass < num_passes; ++pass)
    {
      const int bit        = begin_bit + pass * RADIX_BITS;
      const int pass_bits  = end_bit - bit < RADIX_BITS ? end_bit - bit : RADIX_BITS;
      const auto extractor = traits::template digit_extractor<ShiftDigitExtractor<KeyT>>(bit, pass_bits, decomposer);
      // A run of equal digits among the thread's keys is counted with one atomic.
      ::cuda::std::uint32_t run_digit = 0;
      ::cuda::std::uint32_t run       = 0;
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        if (full || TileIoT::ItemIndex(int(threadIdx.x), k) < valid_in_thread_order)
        {
          const ::cuda::std::uint32_t digit = extractor.Digit(keys[k]);
          if (digit != run_digit)
          {
            if (run != 0)
            {
              atomicAdd(&storage.bins[pass][run_digit][part], run);
            }
            run_digit = digit;
            run       = 0;
          }
          ++run;
        }
      }
      if (run != 0)
      {
        atomicAdd(&storage.bins[pass][run_digit][part], run);
      }
    }
  }

  //! Adds a block's count to a digit's global count (OffsetT of 4 or 8 bytes, signed or not).
  STRATA_DEVICE STRATA_FORCEINLINE static void AddCount(OffsetT* bin, ::cuda::std::uint32_t count)
  {
    static_assert(sizeof(OffsetT) == 4 || sizeof(OffsetT) == 8, "offsets of 4 or 8 bytes");
    if constexpr (sizeof(OffsetT) == 8)
    {
      atomicAdd(reinterpret_cast<unsigned long long*>(bin), static_cast<unsigned long long>(count));
    }
    else
    {
      atomicAdd(reinterpret_cast<unsigned int*>(bin), count);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Process()
  {
    const int tid = int(threadIdx.x);
    for (int i = tid; i < MAX_PASSES * RADIX_DIGITS * NUM_PARTS; i += BLOCK_THREADS)
    {
      (&storage.bins[0][0][0])[i] = 0;
    }
    __syncthreads();

    const bool vectors = TileIoT::VectorAligned(d_keys);
    for (OffsetT tile_offset = OffsetT(block) * TILE_ITEMS; tile_offset < num_items;
         tile_offset += OffsetT(blocks) * TILE_ITEMS)
    {
      KeyT items[ITEMS_PER_THREAD];
      const int valid = detail::tile::ValidItems<TILE_ITEMS>(num_items, tile_offset);
      if (valid == TILE_ITEMS)
      {
        TileIoT::LoadFull(d_keys + tile_offset, tid, vectors, items);
        CountKeys(items, TILE_ITEMS, true);
      }
      else
      {
        TileIoT::LoadPartial(d_keys + tile_offset, tid, valid, items);
        CountKeys(items, valid, false);
      }
    }
    __syncthreads();

    for (int i = tid; i < num_passes * RADIX_DIGITS; i += BLOCK_THREADS)
    {
      const int pass              = i / RADIX_DIGITS;
      const int digit             = i % RADIX_DIGITS;
      ::cuda::std::uint32_t count = 0;
#pragma unroll
      for (int p = 0; p < NUM_PARTS; ++p)
      {
        count += storage.bins[pass][digit][p];
      }
      if (count != 0)
      {
        AddCount(&d_bins[(::cuda::std::size_t(pass) * num_portions + portion) * RADIX_DIGITS + digit], count);
      }
    }
  }
};

STRATA_NAMESPACE_END

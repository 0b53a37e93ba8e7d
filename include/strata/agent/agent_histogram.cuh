// strata/agent/agent_histogram.cuh: AgentHistogramPolicy and AgentHistogram, one thread block's
// share of a histogram (DeviceHistogram): bins computed from levels, counted in shared memory and
// merged into the output once per block.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/histogram_bins.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_fp16.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace histogram
{
//! The tuning of AgentHistogram: threads per block; pixels each thread reads per round where
//! samples come one at a time (iterators, pixels that do not pack into 16-byte vectors); 16-byte
//! vectors each thread reads per round where they pack; the bins (all active channels together) up
//! to which every lane of a warp counts in its own column of shared counters (no two lanes of a
//! warp ever add to the same word or bank); the bins up to which the block counts in one set of
//! shared counters (more go straight to the output with global atomics); blocks per SM; the cache
//! operator of the vector loads.
template <int _BLOCK_THREADS, int _PIXELS_PER_THREAD, int _VECTOR_LOADS, int _LANE_BINS, int _SHARED_BINS,
          int _MIN_BLOCKS_PER_SM = 1, CacheLoadModifier _LOAD_MODIFIER = LOAD_DEFAULT>
struct AgentHistogramPolicy
{
  static constexpr CacheLoadModifier LOAD_MODIFIER = _LOAD_MODIFIER;
  static constexpr int BLOCK_THREADS               = _BLOCK_THREADS;
  static constexpr int PIXELS_PER_THREAD           = _PIXELS_PER_THREAD;
  static constexpr int VECTOR_LOADS                = _VECTOR_LOADS;
  static constexpr int LANE_BINS                   = _LANE_BINS;
  static constexpr int SHARED_BINS                 = _SHARED_BINS;
  static constexpr int MIN_BLOCKS_PER_SM           = _MIN_BLOCKS_PER_SM;
  static_assert(LANE_BINS <= SHARED_BINS, "lane columns are shared counters too");
};

//! Where a block counts: in registers (every channel has one bin), in a column of shared counters
//! per lane, in one set of shared counters, or in the output. Lane columns and one set of shared
//! counters are one kernel (CountMode::shared), told the columns per counter at run time.
enum class CountMode : int
{
  registers,
  lanes,
  shared,
  global
};

//! Whether samples of SampleT are counted by value, 256 counters a channel, and take their bins
//! only when a block adds its counts to the output: one-byte samples (that copy as their byte),
//! whose every value has a counter whatever the bins, so that counting needs no bin arithmetic.
template <typename SampleT>
inline constexpr bool count_byte_values_v = sizeof(SampleT) == 1 && ::cuda::std::is_trivially_copyable_v<SampleT>;

//! The sample of a byte value (count_byte_values_v).
template <typename SampleT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE SampleT SampleOfByte(unsigned value)
{
  return ::cuda::std::bit_cast<SampleT>(static_cast<unsigned char>(value));
}

//! The counters a block keeps per counter column: a bin's (`total_bins` over all channels), or
//! with byte samples a value's of every channel.
template <typename SampleT, int NUM_ACTIVE_CHANNELS>
STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::int64_t CountSlots(::cuda::std::int64_t total_bins)
{
  return count_byte_values_v<SampleT> ? ::cuda::std::int64_t(256) * NUM_ACTIVE_CHANNELS : total_bins;
}

//! The mode of `slots` counters (CountSlots) over NUM_ACTIVE_CHANNELS channels with PolicyT, where
//! a block may take max_shared_bytes of dynamic shared memory. Byte samples always fit shared
//! memory in one set of counters (1 KiB a channel).
template <typename PolicyT, typename SampleT, int NUM_ACTIVE_CHANNELS>
STRATA_HOST_DEVICE STRATA_FORCEINLINE CountMode PickCountMode(::cuda::std::int64_t slots, int max_shared_bytes)
{
  if (!count_byte_values_v<SampleT> && slots == NUM_ACTIVE_CHANNELS)
  {
    return CountMode::registers;
  }
  if (slots <= PolicyT::LANE_BINS && slots * warp_threads * 4 <= max_shared_bytes)
  {
    return CountMode::lanes;
  }
  return count_byte_values_v<SampleT> || (slots <= PolicyT::SHARED_BINS && slots * 4 <= max_shared_bytes)
             ? CountMode::shared
             : CountMode::global;
}

//! The dynamic shared memory a block of `mode` takes.
template <int NUM_ACTIVE_CHANNELS>
STRATA_HOST_DEVICE STRATA_FORCEINLINE int CountSharedBytes(CountMode mode, ::cuda::std::int64_t slots)
{
  switch (mode)
  {
  case CountMode::registers:
    return NUM_ACTIVE_CHANNELS * 4;
  case CountMode::lanes:
    return int(slots) * warp_threads * 4;
  case CountMode::shared:
    return int(slots) * 4;
  default:
    return 0;
  }
}

//! Adds `count` to a counter of the output (32- or 64-bit integers, float or double).
template <typename CounterT>
STRATA_DEVICE STRATA_FORCEINLINE void AddToCounter(CounterT* counter, unsigned int count)
{
  if constexpr (::cuda::std::is_integral_v<CounterT> && sizeof(CounterT) == 8)
  {
    atomicAdd(reinterpret_cast<unsigned long long*>(counter), static_cast<unsigned long long>(count));
  }
  else if constexpr (::cuda::std::is_integral_v<CounterT> && sizeof(CounterT) == 4)
  {
    atomicAdd(reinterpret_cast<unsigned int*>(counter), count);
  }
  else
  {
    atomicAdd(counter, CounterT(count));
  }
}

//! What a block needs per active channel: its bins and output.
template <typename CounterT, typename BinsT, int NUM_ACTIVE_CHANNELS>
struct Channels
{
  ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> histograms;
  ::cuda::std::array<BinsT, NUM_ACTIVE_CHANNELS> bins;
  ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_bins;
  ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> first_bin; // in the block's shared counters (when they fit)
  ::cuda::std::int64_t total_bins;
  int columns; // shared counters per slot: 32 (lane columns, CountMode::lanes) or 1
};

//! A block's share of a histogram of num_rows rows of num_row_pixels pixels (NUM_CHANNELS samples
//! each, the first NUM_ACTIVE_CHANNELS counted; rows row_stride_samples apart), counted in MODE
//! (CountMode; lane columns as CountMode::shared with 32 columns) with `counters` in dynamic shared
//! memory (CountSharedBytes). One-byte samples count their values (count_byte_values_v).
//!
//! Where `vectors` (the host found the samples a pointer whose pixels pack into 16-byte vectors,
//! every row starting on a whole pixel), each row is a head of pixels up to the first 16-byte
//! boundary, counted by the block that takes the row's first tile, then tiles of BLOCK_THREADS *
//! VECTOR_LOADS vectors (tile::TileIo); otherwise tiles of BLOCK_THREADS * PIXELS_PER_THREAD
//! pixels read one sample at a time. Block b takes tiles b, b + blocks, ...; a thread reads all of
//! a tile's samples before it counts them.
template <typename PolicyT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT,
          typename BinsT, typename OffsetT>
class AgentHistogram
{
  using SampleT                      = it_value_t<SampleIteratorT>;
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int PIXELS        = PolicyT::PIXELS_PER_THREAD;
  using ChannelsT                    = Channels<CounterT, BinsT, NUM_ACTIVE_CHANNELS>;
  static_assert(BLOCK_THREADS % warp_threads == 0, "lane columns need whole warps");

  static constexpr bool BYTE_VALUES = count_byte_values_v<SampleT>;
  // Vector tiles whose every bin is a shift take their own loop (AllShifts); byte values need none.
  static constexpr bool SHIFT_LOOP = BinsT::SHIFT_BINS && !BYTE_VALUES;

  // The vector path: VEC samples (whole pixels) per vector, SAMPLES per thread and round.
  static constexpr bool PACKS =
      tile::PacksIntoVectors<SampleIteratorT>() && tile::items_per_vector_v<SampleT> % NUM_CHANNELS == 0;
  static constexpr int VEC     = PACKS ? tile::items_per_vector_v<SampleT> : 1;
  static constexpr int SAMPLES = VEC * PolicyT::VECTOR_LOADS;
  using VectorIoT              = tile::TileIo<BLOCK_THREADS, SAMPLES, VEC>;

public:
  STRATA_DEVICE STRATA_FORCEINLINE AgentHistogram(unsigned int* counters, SampleIteratorT d_samples,
                                                  const ChannelsT& channels, OffsetT num_row_pixels, OffsetT num_rows,
                                                  OffsetT row_stride_samples)
      : counters(counters)
      , d_samples(d_samples)
      , channels(channels)
      , num_row_pixels(num_row_pixels)
      , num_rows(num_rows)
      , row_stride_samples(row_stride_samples)
      , lane(int(threadIdx.x) % warp_threads)
      , column(channels.columns > 1 ? lane : 0)
  {
  }

  //! Counts the block's tiles in MODE and adds its counts to the output.
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTiles(bool vectors)
  {
    static_assert(MODE != CountMode::lanes, "lane columns count as CountMode::shared with 32 columns");
    const int words = MODE == CountMode::registers ? NUM_ACTIVE_CHANNELS
                      : MODE == CountMode::shared  ? Slots() * channels.columns
                                                   : 0;
    for (int i = int(threadIdx.x); i < words; i += BLOCK_THREADS)
    {
      counters[i] = 0;
    }
    __syncthreads();
    unsigned int registers[NUM_ACTIVE_CHANNELS] = {};
    if constexpr (PACKS)
    {
      bool shifts = false;
      if constexpr (SHIFT_LOOP)
      {
        shifts = vectors && AllShifts();
        if (shifts)
        {
          ConsumeVectorTiles<MODE, true>(registers);
        }
      }
      if (!shifts && vectors)
      {
        ConsumeVectorTiles<MODE, false>(registers);
      }
      else if (!vectors)
      {
        ConsumePixelTiles<MODE>(registers);
      }
    }
    else
    {
      ConsumePixelTiles<MODE>(registers);
    }
    Merge<MODE>(registers);
  }

private:
  unsigned int* counters;
  SampleIteratorT d_samples;
  const ChannelsT& channels;
  OffsetT num_row_pixels;
  OffsetT num_rows;
  OffsetT row_stride_samples;
  int lane;
  int column; // the lane's column of shared counters (0 in one set)

  //! The block's shared counters per column (CountSlots).
  STRATA_DEVICE STRATA_FORCEINLINE int Slots() const
  {
    return int(CountSlots<SampleT, NUM_ACTIVE_CHANNELS>(channels.total_bins));
  }

  //! Channel c's first slot of shared counters.
  STRATA_DEVICE STRATA_FORCEINLINE int FirstSlot(int c) const
  {
    return BYTE_VALUES ? c * 256 : channels.first_bin[c];
  }

  //! A byte sample's value, its slot in its channel (count_byte_values_v).
  STRATA_DEVICE STRATA_FORCEINLINE static unsigned ByteValue(const SampleT& sample)
  {
    return ::cuda::std::bit_cast<unsigned char>(sample);
  }

  //! A sample's slot in channel c: its value for byte samples, else its bin (-1 for none).
  STRATA_DEVICE STRATA_FORCEINLINE int Slot(int c, const SampleT& sample) const
  {
    if constexpr (BYTE_VALUES)
    {
      return int(ByteValue(sample));
    }
    else
    {
      return channels.bins[c].Bin(sample);
    }
  }

  //! Whether every channel's bin is a shift (BinsT::ShiftBin).
  STRATA_DEVICE STRATA_FORCEINLINE bool AllShifts() const
  {
    if constexpr (BinsT::SHIFT_BINS)
    {
      bool all = true;
#pragma unroll
      for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
      {
        all = all && channels.bins[c].shift >= 0;
      }
      return all;
    }
    else
    {
      return false;
    }
  }

  //! Counts a sample of channel c in `slot` (Slot) where `inside`: slot s of channel c is shared
  //! counter (FirstSlot(c) + s) * columns + column.
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void Add(int c, unsigned slot, bool inside,
                                            unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    if constexpr (MODE == CountMode::registers)
    {
      registers[c] += inside ? 1u : 0u;
    }
    else if (inside)
    {
      if constexpr (MODE == CountMode::shared)
      {
        atomicAdd(counters + (FirstSlot(c) + int(slot)) * channels.columns + column, 1u);
      }
      else
      {
        AddToCounter(channels.histograms[c] + slot, 1u);
      }
    }
  }

  //! Counts a sample of channel c in `slot` (none for -1).
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void Count(int c, int slot, unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    Add<MODE>(c, unsigned(slot), slot >= 0, registers);
  }

  //! Counts a sample of channel c: its value for byte samples, else BinsT::ShiftBin where SHIFTS
  //! (AllShifts), else BinsT::Bin.
  template <CountMode MODE, bool SHIFTS>
  STRATA_DEVICE STRATA_FORCEINLINE void CountSample(int c, const SampleT& sample,
                                                    unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    if constexpr (BYTE_VALUES)
    {
      Add<MODE>(c, ByteValue(sample), true, registers);
    }
    else if constexpr (SHIFTS && BinsT::SHIFT_BINS)
    {
      bool inside        = false;
      const unsigned bin = channels.bins[c].ShiftBin(sample, inside);
      Add<MODE>(c, bin, inside, registers);
    }
    else
    {
      Count<MODE>(c, channels.bins[c].Bin(sample), registers);
    }
  }

  //! Counts a pixel's active channels from its samples at `pixel` (an iterator).
  template <CountMode MODE, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void CountPixel(IteratorT pixel, unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
#pragma unroll
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
    {
      Count<MODE>(c, Slot(c, pixel[c]), registers);
    }
  }

  //! Tiles of BLOCK_THREADS * PIXELS_PER_THREAD pixels, consecutive threads on consecutive pixels.
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumePixelTiles(unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    constexpr OffsetT TILE_PIXELS = OffsetT(BLOCK_THREADS) * OffsetT(PIXELS);
    const OffsetT tiles_per_row   = (num_row_pixels + TILE_PIXELS - 1) / TILE_PIXELS;
    const OffsetT tiles           = tiles_per_row * num_rows;
    for (OffsetT tile = blockIdx.x; tile < tiles; tile += gridDim.x)
    {
      const OffsetT row   = num_rows == 1 ? OffsetT(0) : tile / tiles_per_row;
      const OffsetT first = (tile - row * tiles_per_row) * TILE_PIXELS; // the tile's first pixel in its row
      int bins[PIXELS][NUM_ACTIVE_CHANNELS];
#pragma unroll
      for (int p = 0; p < PIXELS; ++p)
      {
        const OffsetT pixel = first + OffsetT(p * BLOCK_THREADS) + OffsetT(threadIdx.x);
#pragma unroll
        for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
        {
          bins[p][c] =
              pixel < num_row_pixels ? Slot(c, d_samples[row * row_stride_samples + pixel * NUM_CHANNELS + c]) : -1;
        }
      }
#pragma unroll
      for (int p = 0; p < PIXELS; ++p)
      {
#pragma unroll
        for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
        {
          Count<MODE>(c, bins[p][c], registers);
        }
      }
    }
  }

  //! Each row: its head pixels (before the first 16-byte boundary), then tiles of vectors.
  template <CountMode MODE, bool SHIFTS>
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeVectorTiles(unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    constexpr int PIXEL_BYTES    = int(sizeof(SampleT)) * NUM_CHANNELS;
    constexpr OffsetT TILE_ITEMS = OffsetT(VectorIoT::TILE_ITEMS);
    const OffsetT tiles_per_row  = (num_row_pixels * NUM_CHANNELS + TILE_ITEMS - 1) / TILE_ITEMS;
    const OffsetT tiles          = tiles_per_row * num_rows;
    for (OffsetT tile = blockIdx.x; tile < tiles; tile += gridDim.x)
    {
      const OffsetT row       = num_rows == 1 ? OffsetT(0) : tile / tiles_per_row;
      const OffsetT row_tile  = tile - row * tiles_per_row;
      const SampleT* row_data = d_samples + row * row_stride_samples;
      OffsetT head            = OffsetT(tile::AlignmentHeadBytes<tile::max_vector_bytes>(row_data) / PIXEL_BYTES);
      head                    = head < num_row_pixels ? head : num_row_pixels;
      if (row_tile == 0 && OffsetT(threadIdx.x) < head)
      {
        CountPixel<MODE>(row_data + OffsetT(threadIdx.x) * NUM_CHANNELS, registers);
      }
      const OffsetT body_items = (num_row_pixels - head) * NUM_CHANNELS;
      const OffsetT first      = row_tile * TILE_ITEMS;
      if (first >= body_items)
      {
        continue; // a row whose head left less than tiles_per_row tiles
      }
      const SampleT* tile_data = row_data + head * NUM_CHANNELS + first;
      SampleT samples[SAMPLES];
      const int valid = tile::ValidItems<VectorIoT::TILE_ITEMS>(body_items, first);
      if (valid == VectorIoT::TILE_ITEMS)
      {
        VectorIoT::template LoadFull<PolicyT::LOAD_MODIFIER>(tile_data, int(threadIdx.x), true, samples);
#pragma unroll
        for (int k = 0; k < SAMPLES; ++k)
        {
          if (k % NUM_CHANNELS < NUM_ACTIVE_CHANNELS)
          {
            CountSample<MODE, SHIFTS>(k % NUM_CHANNELS, samples[k], registers);
          }
        }
      }
      else
      {
        VectorIoT::LoadPartial(tile_data, int(threadIdx.x), valid, samples);
#pragma unroll
        for (int k = 0; k < SAMPLES; ++k)
        {
          if (k % NUM_CHANNELS < NUM_ACTIVE_CHANNELS && VectorIoT::ItemIndex(int(threadIdx.x), k) < valid)
          {
            CountSample<MODE, SHIFTS>(k % NUM_CHANNELS, samples[k], registers);
          }
        }
      }
    }
  }

  //! Adds the block's counts to the output: one atomic per non-zero bin (per channel for registers,
  //! through shared memory).
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void Merge(unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    if constexpr (MODE == CountMode::registers)
    {
#pragma unroll
      for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
      {
        // The warp floor's sum: redux.sync from sm_80, shuffles before (no shared memory either way).
        typename WarpReduce<unsigned int>::TempStorage no_storage;
        const unsigned int warp_count = WarpReduce<unsigned int>(no_storage).Sum(registers[c]);
        if (lane == 0 && warp_count != 0)
        {
          atomicAdd(counters + c, warp_count);
        }
      }
      __syncthreads();
      if (threadIdx.x < NUM_ACTIVE_CHANNELS && counters[threadIdx.x] != 0)
      {
        AddToCounter(channels.histograms[threadIdx.x], counters[threadIdx.x]);
      }
    }
    else if constexpr (MODE == CountMode::shared)
    {
      __syncthreads(); // every count of the block
      const int columns = channels.columns;
      const int slots   = Slots();
      for (int s = int(threadIdx.x); s < slots; s += BLOCK_THREADS)
      {
        // Slot s's columns, starting at column s % columns: consecutive threads read distinct banks.
        unsigned int count = 0;
#pragma unroll 8
        for (int k = 0; k < columns; ++k)
        {
          count += counters[s * columns + ((k + s) & (columns - 1))];
        }
        if (count == 0)
        {
          continue;
        }
        if constexpr (BYTE_VALUES)
        {
          // The value's bin, taken once per block.
          const int c   = s / 256;
          const int bin = channels.bins[c].Bin(SampleOfByte<SampleT>(unsigned(s % 256)));
          if (bin >= 0)
          {
            AddToCounter(channels.histograms[c] + bin, count);
          }
        }
        else
        {
          int c = 0;
#pragma unroll
          for (int k = 1; k < NUM_ACTIVE_CHANNELS; ++k)
          {
            c = s >= channels.first_bin[k] ? k : c;
          }
          AddToCounter(channels.histograms[c] + (s - channels.first_bin[c]), count);
        }
      }
    }
  }
};
} // namespace histogram
} // namespace detail
STRATA_NAMESPACE_END

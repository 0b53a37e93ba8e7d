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
//! per lane, in one set of shared counters, or in the output.
enum class CountMode : int
{
  registers,
  lanes,
  shared,
  global
};

//! The mode of `total_bins` bins over NUM_ACTIVE_CHANNELS channels with PolicyT, where a block
//! may take max_shared_bytes of dynamic shared memory.
template <typename PolicyT, int NUM_ACTIVE_CHANNELS>
STRATA_HOST_DEVICE STRATA_FORCEINLINE CountMode PickCountMode(::cuda::std::int64_t total_bins, int max_shared_bytes)
{
  if (total_bins == NUM_ACTIVE_CHANNELS)
  {
    return CountMode::registers;
  }
  if (total_bins <= PolicyT::LANE_BINS && total_bins * warp_threads * 4 <= max_shared_bytes)
  {
    return CountMode::lanes;
  }
  return total_bins <= PolicyT::SHARED_BINS && total_bins * 4 <= max_shared_bytes ? CountMode::shared
                                                                                  : CountMode::global;
}

//! The dynamic shared memory a block of `mode` takes.
template <int NUM_ACTIVE_CHANNELS>
STRATA_HOST_DEVICE STRATA_FORCEINLINE int CountSharedBytes(CountMode mode, ::cuda::std::int64_t total_bins)
{
  switch (mode)
  {
  case CountMode::registers:
    return NUM_ACTIVE_CHANNELS * 4;
  case CountMode::lanes:
    return int(total_bins) * warp_threads * 4;
  case CountMode::shared:
    return int(total_bins) * 4;
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
};

//! A block's share of a histogram of num_rows rows of num_row_pixels pixels (NUM_CHANNELS samples
//! each, the first NUM_ACTIVE_CHANNELS counted; rows row_stride_samples apart), counted in MODE
//! (CountMode) with `counters` in dynamic shared memory (CountSharedBytes).
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
  {
  }

  //! Counts the block's tiles in MODE and adds its counts to the output.
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTiles(bool vectors)
  {
    const int words = CountSharedBytes<NUM_ACTIVE_CHANNELS>(MODE, channels.total_bins) / 4;
    for (int i = int(threadIdx.x); i < words; i += BLOCK_THREADS)
    {
      counters[i] = 0;
    }
    __syncthreads();
    unsigned int registers[NUM_ACTIVE_CHANNELS] = {};
    if constexpr (PACKS)
    {
      if (vectors && AllShifts())
      {
        ConsumeVectorTiles<MODE, true>(registers);
      }
      else if (vectors)
      {
        ConsumeVectorTiles<MODE, false>(registers);
      }
      else
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

  //! Counts a sample of channel c in `bin` where `inside`: lane columns are bins * 32 + lane.
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void Add(int c, unsigned bin, bool inside,
                                            unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    if constexpr (MODE == CountMode::registers)
    {
      registers[c] += inside ? 1u : 0u;
    }
    else if (inside)
    {
      if constexpr (MODE == CountMode::lanes)
      {
        atomicAdd(counters + channels.first_bin[c] * warp_threads + lane + bin * warp_threads, 1u);
      }
      else if constexpr (MODE == CountMode::shared)
      {
        atomicAdd(counters + channels.first_bin[c] + bin, 1u);
      }
      else
      {
        AddToCounter(channels.histograms[c] + bin, 1u);
      }
    }
  }

  //! Counts a sample of channel c in `bin` (none for -1).
  template <CountMode MODE>
  STRATA_DEVICE STRATA_FORCEINLINE void Count(int c, int bin, unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    Add<MODE>(c, unsigned(bin), bin >= 0, registers);
  }

  //! Counts a sample of channel c: BinsT::ShiftBin where SHIFTS (AllShifts), else BinsT::Bin.
  template <CountMode MODE, bool SHIFTS>
  STRATA_DEVICE STRATA_FORCEINLINE void CountSample(int c, const SampleT& sample,
                                                    unsigned int (&registers)[NUM_ACTIVE_CHANNELS])
  {
    if constexpr (SHIFTS && BinsT::SHIFT_BINS)
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
      Count<MODE>(c, channels.bins[c].Bin(pixel[c]), registers);
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
          bins[p][c] = pixel < num_row_pixels
                           ? channels.bins[c].Bin(d_samples[row * row_stride_samples + pixel * NUM_CHANNELS + c])
                           : -1;
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
      const int misalignment  = int(reinterpret_cast<::cuda::std::uintptr_t>(row_data) % tile::max_vector_bytes);
      OffsetT head            = OffsetT((tile::max_vector_bytes - misalignment) % tile::max_vector_bytes / PIXEL_BYTES);
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
    else if constexpr (MODE == CountMode::lanes || MODE == CountMode::shared)
    {
      __syncthreads(); // every count of the block
      for (int b = int(threadIdx.x); b < int(channels.total_bins); b += BLOCK_THREADS)
      {
        unsigned int count = 0;
        if constexpr (MODE == CountMode::lanes)
        {
          // Bin b's column, starting at word b % 32: consecutive threads read distinct banks.
#pragma unroll 8
          for (int k = 0; k < warp_threads; ++k)
          {
            count += counters[b * warp_threads + ((k + b) & (warp_threads - 1))];
          }
        }
        else
        {
          count = counters[b];
        }
        if (count != 0)
        {
          int c = 0;
#pragma unroll
          for (int k = 1; k < NUM_ACTIVE_CHANNELS; ++k)
          {
            c = b >= channels.first_bin[k] ? k : c;
          }
          AddToCounter(channels.histograms[c] + (b - channels.first_bin[c]), count);
        }
      }
    }
  }
};
} // namespace histogram
} // namespace detail
STRATA_NAMESPACE_END

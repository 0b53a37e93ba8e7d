// strata/agent/agent_histogram.cuh: AgentHistogramPolicy and AgentHistogram, one thread block's
// share of a histogram (DeviceHistogram): bins computed from levels, counted in shared memory and
// merged into the output once per block.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

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
//! The tuning of AgentHistogram: threads per block, pixels each thread reads per round (loads in
//! flight), the bins (all active channels together) counted in shared memory before the block
//! merges them into the output (more go straight to the output with global atomics), the bins at
//! most which a warp first adds up equal bins among its lanes (contention), and blocks per SM.
template <int _BLOCK_THREADS, int _PIXELS_PER_THREAD, int _SHARED_BINS, int _AGGREGATE_BINS,
          int _MIN_BLOCKS_PER_SM = 1>
struct AgentHistogramPolicy
{
  static constexpr int BLOCK_THREADS     = _BLOCK_THREADS;
  static constexpr int PIXELS_PER_THREAD = _PIXELS_PER_THREAD;
  static constexpr int SHARED_BINS       = _SHARED_BINS;
  static constexpr int AGGREGATE_BINS    = _AGGREGATE_BINS;
  static constexpr int MIN_BLOCKS_PER_SM = _MIN_BLOCKS_PER_SM;
};

//! The type samples and levels are compared in: 64-bit integers for integers (unsigned where both
//! are; differences taken unsigned, products in 128 bits where 8-byte values could overflow 64),
//! double where either is 8 bytes wide, float otherwise (__half included).
template <typename SampleT, typename LevelT>
using compute_t = ::cuda::std::conditional_t<
    ::cuda::std::is_integral_v<SampleT> && ::cuda::std::is_integral_v<LevelT>,
    ::cuda::std::conditional_t<::cuda::std::is_unsigned_v<SampleT> && ::cuda::std::is_unsigned_v<LevelT>,
                               ::cuda::std::uint64_t, ::cuda::std::int64_t>,
    ::cuda::std::conditional_t<(sizeof(SampleT) == 8 || sizeof(LevelT) == 8), double, float>>;

template <typename T, typename FromT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T Convert(const FromT& value)
{
  if constexpr (::cuda::std::is_same_v<FromT, __half>)
  {
    return T(__half2float(value));
  }
  else
  {
    return T(value);
  }
}

//! Bins of equal width: `bins` bins over [lower, upper). Bin(sample) is the sample's bin, or -1
//! for a sample outside (NaN included). Integer samples take the exact bin, floor((sample - lower)
//! * bins / (upper - lower)), floating-point ones a multiply by bins / (upper - lower), kept below
//! `bins`.
template <typename SampleT, typename LevelT>
struct EvenBins
{
  using ComputeT = compute_t<SampleT, LevelT>;
  ComputeT lower;
  ComputeT upper;
  int bins;
  ComputeT scale; // floating point: bins / (upper - lower)
  // Integers: where every bin is 2^shift wide, the bin is a shift (else shift is -1); where
  // (upper - lower) * bins < 2^32, a 32-bit division.
  int shift;
  bool narrow;

  EvenBins() = default;
  STRATA_HOST_DEVICE EvenBins(LevelT lower_level, LevelT upper_level, int num_levels)
      : lower(Convert<ComputeT>(lower_level))
      , upper(Convert<ComputeT>(upper_level))
      , bins(num_levels - 1)
      , scale(upper > lower ? Scale(bins, lower, upper) : ComputeT(0))
      , shift(-1)
      , narrow(false)
  {
    if constexpr (::cuda::std::is_integral_v<ComputeT>)
    {
      if (upper > lower && bins > 0)
      {
        const ::cuda::std::uint64_t range = Range();
        const ::cuda::std::uint64_t width = range / ::cuda::std::uint64_t(bins);
        if (width * ::cuda::std::uint64_t(bins) == range && (width & (width - 1)) == 0)
        {
          shift = 0;
          while ((::cuda::std::uint64_t(1) << shift) < width)
          {
            ++shift;
          }
        }
        narrow = range < (::cuda::std::uint64_t(1) << 32) && range * ::cuda::std::uint64_t(bins) < (::cuda::std::uint64_t(1) << 32);
      }
    }
  }

  //! upper - lower as an unsigned 64-bit integer (integers only).
  STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint64_t Range() const
  {
    return static_cast<::cuda::std::uint64_t>(upper) - static_cast<::cuda::std::uint64_t>(lower);
  }

  //! bins / (upper - lower), or 0 where upper - lower overflows the type.
  STRATA_HOST_DEVICE static ComputeT Scale(int bins, ComputeT lower, ComputeT upper)
  {
    if constexpr (::cuda::std::is_integral_v<ComputeT>)
    {
      return ComputeT(0); // integers take the exact bin instead
    }
    else
    {
      const ComputeT range = upper - lower;
      return range < ::cuda::std::numeric_limits<ComputeT>::infinity() ? ComputeT(bins) / range : ComputeT(0);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE int Bin(const SampleT& sample) const
  {
    const ComputeT x = Convert<ComputeT>(sample);
    if (!(x >= lower && x < upper))
    {
      return -1;
    }
    if constexpr (::cuda::std::is_integral_v<ComputeT>)
    {
      // Unsigned differences: exact for any lower <= x < upper (a signed one could overflow).
      const auto offset = static_cast<::cuda::std::uint64_t>(x) - static_cast<::cuda::std::uint64_t>(lower);
      const auto range  = Range();
      if (shift >= 0)
      {
        return int(offset >> shift);
      }
      if (narrow)
      {
        return int(unsigned(offset) * unsigned(bins) / unsigned(range));
      }
      if constexpr (sizeof(SampleT) >= 8 || sizeof(LevelT) >= 8)
      {
        return int((static_cast<unsigned __int128>(offset) * unsigned(bins)) / range);
      }
      else
      {
        return int(offset * ::cuda::std::uint64_t(bins) / range); // offset < 2^32, bins < 2^31
      }
    }
    else
    {
      if (scale > ComputeT(0))
      {
        const ComputeT position = (x - lower) * scale;
        return position < ComputeT(bins) ? int(position) : bins - 1;
      }
      // A range too wide for the type (scale 0, e.g. [-FLT_MAX, FLT_MAX)) takes double instead.
      const double position = (double(x) - double(lower)) / (double(upper) - double(lower)) * bins;
      return position < double(bins) ? int(position) : bins - 1;
    }
  }
};

//! Bins between given levels: bin i holds [levels[i], levels[i + 1]) for i < num_levels - 1; a
//! binary search, -1 outside [levels[0], levels[num_levels - 1]).
template <typename SampleT, typename LevelT>
struct RangeBins
{
  using ComputeT = compute_t<SampleT, LevelT>;
  const LevelT* levels;
  int num_levels;

  STRATA_DEVICE STRATA_FORCEINLINE int Bin(const SampleT& sample) const
  {
    const ComputeT x = Convert<ComputeT>(sample);
    if (num_levels < 2 || !(x >= Convert<ComputeT>(levels[0]) && x < Convert<ComputeT>(levels[num_levels - 1])))
    {
      return -1;
    }
    int low  = 0; // levels[low] <= x < levels[high]
    int high = num_levels - 1;
    while (high - low > 1)
    {
      const int middle = low + (high - low) / 2;
      if (Convert<ComputeT>(levels[middle]) <= x)
      {
        low = middle;
      }
      else
      {
        high = middle;
      }
    }
    return low;
  }
};

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
//! each, the first NUM_ACTIVE_CHANNELS counted; rows row_stride_samples apart): the rows are cut
//! into tiles of BLOCK_THREADS * PIXELS_PER_THREAD pixels, block b takes tiles b, b + blocks, ...;
//! each thread reads PIXELS_PER_THREAD pixels of a tile (consecutive threads, consecutive pixels)
//! before it counts them. With at most SHARED_BINS bins in all, counts go to 32-bit counters in
//! shared memory, added to the output at the end; with at most AGGREGATE_BINS, a warp first adds up
//! its lanes' equal bins (__match_any_sync), so that one bin's count takes one atomic per warp.
template <typename PolicyT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT,
          typename BinsT, typename OffsetT>
class AgentHistogram
{
  using SampleT                        = it_value_t<SampleIteratorT>;
  static constexpr int BLOCK_THREADS   = PolicyT::BLOCK_THREADS;
  static constexpr int PIXELS          = PolicyT::PIXELS_PER_THREAD;
  static constexpr OffsetT TILE_PIXELS = OffsetT(BLOCK_THREADS) * OffsetT(PIXELS);
  using ChannelsT                      = Channels<CounterT, BinsT, NUM_ACTIVE_CHANNELS>;
  static_assert(BLOCK_THREADS % warp_threads == 0, "warps aggregate their lanes' bins: whole warps only");

public:
  struct TempStorage
  {
    unsigned int counters[PolicyT::SHARED_BINS];
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentHistogram(TempStorage& storage, SampleIteratorT d_samples,
                                                  const ChannelsT& channels, OffsetT num_row_pixels, OffsetT num_rows,
                                                  OffsetT row_stride_samples)
      : storage(storage)
      , d_samples(d_samples)
      , channels(channels)
      , num_row_pixels(num_row_pixels)
      , num_rows(num_rows)
      , row_stride_samples(row_stride_samples)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTiles()
  {
    const bool shared    = channels.total_bins <= PolicyT::SHARED_BINS;
    const bool aggregate = channels.total_bins <= PolicyT::AGGREGATE_BINS;
    if (shared)
    {
      for (int b = int(threadIdx.x); b < int(channels.total_bins); b += BLOCK_THREADS)
      {
        storage.counters[b] = 0;
      }
      __syncthreads();
    }
    const OffsetT tiles_per_row = (num_row_pixels + TILE_PIXELS - 1) / TILE_PIXELS;
    const OffsetT tiles         = tiles_per_row * num_rows;
    for (OffsetT tile = blockIdx.x; tile < tiles; tile += gridDim.x)
    {
      const OffsetT row   = tile / tiles_per_row;
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
          Count(c, bins[p][c], shared, aggregate);
        }
      }
    }
    if (shared)
    {
      __syncthreads(); // every count of the block
      for (int b = int(threadIdx.x); b < int(channels.total_bins); b += BLOCK_THREADS)
      {
        const unsigned int count = storage.counters[b];
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

private:
  TempStorage& storage;
  SampleIteratorT d_samples;
  const ChannelsT& channels;
  OffsetT num_row_pixels;
  OffsetT num_rows;
  OffsetT row_stride_samples;

  //! Counts one sample of channel c in bin `bin` (none for -1). All lanes of the warp call.
  STRATA_DEVICE STRATA_FORCEINLINE void Count(int c, int bin, bool shared, bool aggregate)
  {
    unsigned int count = bin >= 0 ? 1u : 0u;
    if (aggregate)
    {
      // The lanes with this bin: the lowest of them adds their number.
      const unsigned int same = __match_any_sync(0xFFFFFFFFu, bin);
      const int lane          = int(threadIdx.x) % warp_threads;
      count                   = bin >= 0 && (__ffs(same) - 1) == lane ? unsigned(__popc(same)) : 0u;
    }
    if (count == 0)
    {
      return;
    }
    if (shared)
    {
      atomicAdd(&storage.counters[channels.first_bin[c] + bin], count);
    }
    else
    {
      AddToCounter(channels.histograms[c] + bin, count);
    }
  }
};
} // namespace histogram
} // namespace detail
STRATA_NAMESPACE_END

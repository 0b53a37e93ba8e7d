// strata/device/dispatch/dispatch_histogram.cuh: the kernel of DeviceHistogram, its tuning, and
// the dispatch class (CUB's DispatchHistogram) that checks the levels, clears the output and
// launches.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_histogram.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_histogram.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/array>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! DeviceHistogram's one pass: each block counts its tiles' samples in MODE (its counters in
//! dynamic shared memory) and merges its counts into the output. One kernel per mode (lane columns
//! and one set of shared counters are one, CountMode::shared), so that each gets the registers its
//! own loop needs.
template <typename MaxPolicyT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT,
          typename BinsT, typename OffsetT, detail::histogram::CountMode MODE>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
    MaxPolicyT::ActivePolicy::AgentHistogramPolicyT::BLOCK_THREADS,
    MaxPolicyT::ActivePolicy::AgentHistogramPolicyT::
        MIN_BLOCKS_PER_SM) void DeviceHistogramSweepKernel(SampleIteratorT d_samples,
                                                           detail::histogram::Channels<CounterT, BinsT,
                                                                                       NUM_ACTIVE_CHANNELS>
                                                               channels,
                                                           OffsetT num_row_pixels, OffsetT num_rows,
                                                           OffsetT row_stride_samples, bool vectors)
{
  using AgentT =
      detail::histogram::AgentHistogram<typename MaxPolicyT::ActivePolicy::AgentHistogramPolicyT, NUM_CHANNELS,
                                        NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT, BinsT, OffsetT>;
  extern __shared__ unsigned int strata_histogram_counters[];
  AgentT(strata_histogram_counters, d_samples, channels, num_row_pixels, num_rows, row_stride_samples)
      .template ConsumeTiles<MODE>(vectors);
}

STRATA_KERNELS_END

namespace detail
{
namespace histogram
{
//! Clears the histograms, then counts (or, without temporary storage, sizes the call: one byte).
template <typename MaxPolicyT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT,
          typename BinsT, typename OffsetT>
struct dispatch_t
{
  using SampleT = it_value_t<SampleIteratorT>;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  SampleIteratorT d_samples;
  Channels<CounterT, BinsT, NUM_ACTIVE_CHANNELS> channels;
  OffsetT num_row_pixels;
  OffsetT num_rows;
  OffsetT row_stride_samples;
  cudaStream_t stream;

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PolicyT           = typename ActivePolicyT::AgentHistogramPolicyT;
    unsigned char* d_unused = nullptr; // the second call's pointer is never null
    cudaError_t error       = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_unused, 1));
    if (error != cudaSuccess || d_temp_storage == nullptr)
    {
      return error;
    }
    for (int c = 0; c < NUM_ACTIVE_CHANNELS && error == cudaSuccess; ++c)
    {
      if (channels.num_bins[c] > 0)
      {
        error = cudaMemsetAsync(channels.histograms[c], 0, sizeof(CounterT) * size_t(channels.num_bins[c]), stream);
      }
    }
    if (error != cudaSuccess || num_row_pixels == 0 || num_rows == 0)
    {
      return error;
    }
    // Picks the kernel of the mode, then launches it. Byte samples count their values in shared
    // memory whatever the bins: only that kernel is compiled for them.
    int max_shared = 0;
    error          = MaxDynamicShared(max_shared);
    if (error != cudaSuccess)
    {
      return error;
    }
    const ::cuda::std::int64_t slots = CountSlots<SampleT, NUM_ACTIVE_CHANNELS>(channels.total_bins);
    const CountMode mode             = PickCountMode<PolicyT, SampleT, NUM_ACTIVE_CHANNELS>(slots, max_shared);
    channels.columns                 = mode == CountMode::lanes ? warp_threads : 1;
    const int shared_bytes           = CountSharedBytes<NUM_ACTIVE_CHANNELS>(mode, slots);
    if constexpr (count_byte_values_v<SampleT>)
    {
      return Launch<PolicyT, CountMode::shared>(shared_bytes);
    }
    else
    {
      switch (mode)
      {
      case CountMode::registers:
        return Launch<PolicyT, CountMode::registers>(shared_bytes);
      case CountMode::lanes:
      case CountMode::shared:
        return Launch<PolicyT, CountMode::shared>(shared_bytes);
      default:
        return Launch<PolicyT, CountMode::global>(shared_bytes);
      }
    }
  }

  //! The dynamic shared memory a block may take: up to the device's opt-in limit from the host, 48
  //! KiB from the device (only the host can raise a kernel's limit).
  STRATA_RUNTIME_FUNCTION static cudaError_t MaxDynamicShared(int& max_shared)
  {
    int device        = 0;
    int optin_shared  = 0;
    cudaError_t error = cudaGetDevice(&device);
    if (error == cudaSuccess)
    {
      error = cudaDeviceGetAttribute(&optin_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    }
    max_shared = 48 * 1024;
    NV_IF_TARGET(NV_IS_HOST, (max_shared = optin_shared > max_shared ? optin_shared : max_shared;));
    return error;
  }

  //! Launches the kernel of MODE, whose blocks take `shared_bytes` of dynamic shared memory.
  template <typename PolicyT, CountMode MODE>
  STRATA_RUNTIME_FUNCTION cudaError_t Launch(int shared_bytes)
  {
    auto kernel  = DeviceHistogramSweepKernel<MaxPolicyT, NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT,
                                             BinsT, OffsetT, MODE>;
    int sm_count = 0;
    cudaError_t error = detail::SmCount(sm_count);
    if (error == cudaSuccess && shared_bytes > 48 * 1024)
    {
      NV_IF_TARGET(NV_IS_HOST,
                   (error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);));
    }
    int occupancy = 0;
    if (error == cudaSuccess)
    {
      error = MaxSmOccupancy(occupancy, kernel, PolicyT::BLOCK_THREADS, shared_bytes);
    }
    if (error != cudaSuccess)
    {
      return error;
    }
    // 16-byte vectors where the samples are a pointer whose rows all start on a whole pixel.
    bool vectors = false;
    if constexpr (::cuda::std::is_pointer_v<SampleIteratorT>)
    {
      constexpr size_t pixel_bytes = sizeof(it_value_t<SampleIteratorT>) * NUM_CHANNELS;
      vectors =
          reinterpret_cast<::cuda::std::uintptr_t>(d_samples) % pixel_bytes == 0
          && (num_rows <= 1 || size_t(row_stride_samples) * sizeof(it_value_t<SampleIteratorT>) % pixel_bytes == 0);
    }
    // As many blocks as fit at once, no more than there are tiles, and enough that no block counts
    // 2^32 samples (its 32-bit counters could wrap).
    const OffsetT tile_pixels = OffsetT(PolicyT::BLOCK_THREADS) * OffsetT(PolicyT::PIXELS_PER_THREAD);
    const OffsetT tiles       = (num_row_pixels + tile_pixels - 1) / tile_pixels * num_rows;
    const OffsetT fit         = OffsetT(sm_count) * OffsetT(occupancy > 0 ? occupancy : 1);
    const OffsetT samples     = num_row_pixels * num_rows * NUM_CHANNELS;
    const OffsetT enough      = samples / (OffsetT(1) << 31) + 1;
    OffsetT blocks            = tiles < fit ? tiles : fit;
    blocks                    = blocks > enough ? blocks : enough;
    return LaunchKernel(false, shared_bytes, kernel, int(blocks), PolicyT::BLOCK_THREADS, stream, d_samples, channels,
                        num_row_pixels, num_rows, row_stride_samples, vectors);
  }
};

//! Checks the arguments and runs (or sizes) a histogram with one BinsT per active channel.
template <typename MaxPolicyT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT,
          typename BinsT, typename OffsetT>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                        const ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS>& d_histograms,
                                        const ::cuda::std::array<int, NUM_ACTIVE_CHANNELS>& num_levels,
                                        const ::cuda::std::array<BinsT, NUM_ACTIVE_CHANNELS>& bins,
                                        OffsetT num_row_pixels, OffsetT num_rows, OffsetT row_stride_samples,
                                        cudaStream_t stream)
{
  static_assert(NUM_ACTIVE_CHANNELS >= 1 && NUM_ACTIVE_CHANNELS <= NUM_CHANNELS,
                "between 1 and NUM_CHANNELS channels are counted");
  using WideT = ::cuda::std::int64_t;
  // A stride shorter than a row is CUB's too: rows overlap, and samples they share count once a row.
  if (WideT(num_row_pixels) < 0)
  {
    return STRATA_INVALID_ARGUMENT("a sample or pixel count is negative");
  }
  if (WideT(num_rows) < 0)
  {
    return STRATA_INVALID_ARGUMENT("num_rows is negative");
  }
  Channels<CounterT, BinsT, NUM_ACTIVE_CHANNELS> channels{};
  channels.total_bins = 0;
  for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
  {
    // A channel needs at least two levels (one bin) and, on the second call, an output.
    if (num_levels[c] < 2)
    {
      return STRATA_INVALID_ARGUMENT("num_levels is less than 2");
    }
    if (d_temp_storage != nullptr && d_histograms[c] == nullptr)
    {
      return STRATA_INVALID_ARGUMENT("d_histogram is null");
    }
    channels.histograms[c] = d_histograms[c];
    channels.bins[c]       = bins[c];
    channels.num_bins[c]   = num_levels[c] - 1;
    channels.first_bin[c]  = int(channels.total_bins < (WideT(1) << 30) ? channels.total_bins : 0);
    channels.total_bins += num_levels[c] - 1;
  }
  if (d_temp_storage != nullptr && WideT(num_row_pixels) > 0 && WideT(num_rows) > 0 && IsNullPointer(d_samples))
  {
    return STRATA_INVALID_ARGUMENT("d_samples is null");
  }
  using WideOffsetT = ::cuda::std::conditional_t<(sizeof(OffsetT) < 8), ::cuda::std::int64_t, OffsetT>;
  using DispatchT =
      dispatch_t<MaxPolicyT, NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT, BinsT, WideOffsetT>;
  return InvokeForCurrentDevice<MaxPolicyT>(
      [&](int)
      {
        return DispatchT{d_temp_storage,
                         temp_storage_bytes,
                         d_samples,
                         channels,
                         WideOffsetT(num_row_pixels),
                         WideOffsetT(num_rows),
                         WideOffsetT(row_stride_samples),
                         stream};
      });
}
} // namespace histogram
} // namespace detail

//! Dispatches DeviceHistogram (CUB's name and template parameters): DispatchEven for bins of equal
//! width between lower_level and upper_level, DispatchRange for bins between given levels. Rows are
//! row_stride_samples samples apart; a pixel is NUM_CHANNELS samples, of which the first
//! NUM_ACTIVE_CHANNELS are counted. The output is cleared first. An empty, reversed or NaN Even
//! range counts nothing, as CUB's does. Bad arguments (fewer than two levels, a negative count, a
//! null pointer on the second call) return cudaErrorInvalidValue before anything is written.
template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
          typename OffsetT, typename PolicyHub = void>
struct DispatchHistogram
{
  using SampleT    = detail::it_value_t<SampleIteratorT>;
  using MaxPolicyT = typename ::cuda::std::conditional_t<
      ::cuda::std::is_void_v<PolicyHub>,
      detail::histogram::policy_hub<SampleT, CounterT, NUM_CHANNELS, NUM_ACTIVE_CHANNELS, true>, PolicyHub>::MaxPolicy;

  STRATA_RUNTIME_FUNCTION static cudaError_t
  DispatchEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
               ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_output_histograms,
               ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_output_levels,
               ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
               ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_row_pixels, OffsetT num_rows,
               OffsetT row_stride_samples, cudaStream_t stream)
  {
    using BinsT = detail::histogram::EvenBins<SampleT, LevelT>;
    ::cuda::std::array<BinsT, NUM_ACTIVE_CHANNELS> bins{};
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
    {
      // An empty, reversed or NaN range holds no sample (CUB's counts nothing there either): the
      // bins of [lower, lower) give every sample none.
      const bool empty = !(detail::histogram::Convert<typename BinsT::ComputeT>(lower_level[c])
                           < detail::histogram::Convert<typename BinsT::ComputeT>(upper_level[c]));
      bins[c]          = BinsT(lower_level[c], empty ? lower_level[c] : upper_level[c], num_output_levels[c]);
    }
    return detail::histogram::Run<MaxPolicyT, NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_output_histograms, num_output_levels, bins, num_row_pixels,
        num_rows, row_stride_samples, stream);
  }

  //! DispatchEven with CUB's trailing tag (whether samples are bytes): strata needs no tag.
  template <typename IsByteSampleT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  DispatchEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
               ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_output_histograms,
               ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_output_levels,
               ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
               ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_row_pixels, OffsetT num_rows,
               OffsetT row_stride_samples, cudaStream_t stream, IsByteSampleT)
  {
    return DispatchEven(d_temp_storage, temp_storage_bytes, d_samples, d_output_histograms, num_output_levels,
                        lower_level, upper_level, num_row_pixels, num_rows, row_stride_samples, stream);
  }

  STRATA_RUNTIME_FUNCTION static cudaError_t
  DispatchRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_output_histograms,
                ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_output_levels,
                ::cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_row_pixels,
                OffsetT num_rows, OffsetT row_stride_samples, cudaStream_t stream)
  {
    using BinsT = detail::histogram::RangeBins<SampleT, LevelT>;
    ::cuda::std::array<BinsT, NUM_ACTIVE_CHANNELS> bins{};
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
    {
      if (d_temp_storage != nullptr && d_levels[c] == nullptr)
      {
        return STRATA_INVALID_ARGUMENT("d_levels is null");
      }
      bins[c] = BinsT{d_levels[c], num_output_levels[c]};
    }
    return detail::histogram::Run<MaxPolicyT, NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_output_histograms, num_output_levels, bins, num_row_pixels,
        num_rows, row_stride_samples, stream);
  }

  //! DispatchRange with CUB's trailing tag.
  template <typename IsByteSampleT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  DispatchRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_output_histograms,
                ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_output_levels,
                ::cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_row_pixels,
                OffsetT num_rows, OffsetT row_stride_samples, cudaStream_t stream, IsByteSampleT)
  {
    return DispatchRange(d_temp_storage, temp_storage_bytes, d_samples, d_output_histograms, num_output_levels,
                         d_levels, num_row_pixels, num_rows, row_stride_samples, stream);
  }
};

STRATA_NAMESPACE_END

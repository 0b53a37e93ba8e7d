// strata/detail/histogram_bins.cuh: the bin arithmetic of DeviceHistogram, on the host and the
// device: EvenBins (bins of equal width, exact for integers) and RangeBins (bins between given
// levels), with the type samples and levels are compared in.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_fp16.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace histogram
{
//! The type samples and levels are compared in: 64-bit integers for integers (unsigned where both
//! are; differences taken unsigned, products in 128 bits where 8-byte values could overflow 64),
//! double where either is 8 bytes wide, float otherwise (__half included).
template <typename SampleT, typename LevelT>
using compute_t = ::cuda::std::conditional_t<
    ::cuda::std::is_integral_v<SampleT>&& ::cuda::std::is_integral_v<LevelT>,
    ::cuda::std::conditional_t<::cuda::std::is_unsigned_v<SampleT>&& ::cuda::std::is_unsigned_v<LevelT>,
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

//! Whether integers of T and U both lie in one 32-bit domain (int32 or uint32), so that x - lower
//! taken modulo 2^32 is in [0, upper - lower) exactly where lower <= x < upper.
template <typename T, typename U>
inline constexpr bool same_32_bit_domain_v =
    ::cuda::std::is_integral_v<T>&& ::cuda::std::is_integral_v<
        U> && ((sizeof(T) < 4 || (sizeof(T) == 4 && ::cuda::std::is_signed_v<T>)) && (sizeof(U) < 4 || (sizeof(U) == 4 && ::cuda::std::is_signed_v<U>)) || (::cuda::std::is_unsigned_v<T> && sizeof(T) <= 4 && ::cuda::std::is_unsigned_v<U> && sizeof(U) <= 4));

//! Bins of equal width: `bins` bins over [lower, upper). Bin(sample) is the sample's bin, or -1
//! for a sample outside (NaN included). Integer samples take the exact bin, floor((sample - lower)
//! * bins / (upper - lower)): a shift where every bin is a power of two wide; for 32-bit values
//! otherwise the high half of a multiply by ceil(2^32 * bins / (upper - lower)), which is the
//! quotient or one more, corrected by one 64-bit comparison (a double-precision estimate, corrected
//! likewise, where bins outnumber the values); 64/128-bit division for 64-bit values.
//! Floating-point samples take a multiply by bins / (upper - lower), kept below `bins`.
template <typename SampleT, typename LevelT>
struct EvenBins
{
  using ComputeT               = compute_t<SampleT, LevelT>;
  static constexpr bool NARROW = same_32_bit_domain_v<SampleT, LevelT>;
  //! Whether ShiftBin exists (32-bit integers), for levels where every bin is 2^shift wide.
  static constexpr bool SHIFT_BINS = NARROW;
  ComputeT lower;
  ComputeT upper;
  int bins;
  ComputeT scale; // floating point: bins / (upper - lower)
  // Integers: where every bin is 2^shift wide, the bin is a shift (else shift is -1).
  int shift;
  double estimate;     // 32-bit integers: bins / (upper - lower)
  unsigned multiplier; // 32-bit integers with fewer bins than values: ceil(2^32 * bins / (upper - lower))

  EvenBins() = default;
  STRATA_HOST_DEVICE EvenBins(LevelT lower_level, LevelT upper_level, int num_levels)
      : lower(Convert<ComputeT>(lower_level))
      , upper(Convert<ComputeT>(upper_level))
      , bins(num_levels - 1)
      , scale(upper > lower ? Scale(bins, lower, upper) : ComputeT(0))
      , shift(-1)
      , estimate(0)
      , multiplier(0)
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
        estimate = double(bins) / double(range);
        if (range < (::cuda::std::uint64_t(1) << 32) && ::cuda::std::uint64_t(bins) < range)
        {
          multiplier = unsigned(((::cuda::std::uint64_t(bins) << 32) + range - 1) / range); // < 2^32
        }
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

  //! Bin(sample) where shift >= 0 (32-bit integers): a subtraction, a comparison and a shift;
  //! `inside` says whether the sample has a bin.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned ShiftBin(const SampleT& sample, bool& inside) const
  {
    const unsigned offset = unsigned(sample) - unsigned(lower);
    inside                = offset < unsigned(Range());
    return offset >> shift;
  }

  STRATA_DEVICE STRATA_FORCEINLINE int Bin(const SampleT& sample) const
  {
    if constexpr (NARROW)
    {
      // One unsigned comparison checks both ends; upper - lower < 2^32 here.
      const unsigned offset = unsigned(sample) - unsigned(lower);
      const unsigned range  = unsigned(Range());
      if (offset >= range)
      {
        return -1;
      }
      if (shift >= 0)
      {
        return int(offset >> shift);
      }
      if (multiplier != 0)
      {
        // offset * multiplier / 2^32 exceeds offset * bins / range by less than offset / 2^32 < 1.
        const unsigned bin = __umulhi(offset, multiplier);
        return int(bin) - int(::cuda::std::uint64_t(bin) * range > ::cuda::std::uint64_t(offset) * unsigned(bins));
      }
      // The estimate is within one of offset * bins / range (53-bit precision, quotient < 2^31).
      unsigned bin                       = __double2uint_rz(double(offset) * estimate);
      const ::cuda::std::uint64_t target = ::cuda::std::uint64_t(offset) * unsigned(bins);
      const ::cuda::std::uint64_t below  = ::cuda::std::uint64_t(bin) * range;
      if (below > target)
      {
        --bin;
      }
      else if (target - below >= range)
      {
        ++bin;
      }
      return int(bin);
    }
    else
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
  }
};

//! Bins between given levels: bin i holds [levels[i], levels[i + 1]) for i < num_levels - 1; a
//! binary search, -1 outside [levels[0], levels[num_levels - 1]).
template <typename SampleT, typename LevelT>
struct RangeBins
{
  using ComputeT                   = compute_t<SampleT, LevelT>;
  static constexpr bool SHIFT_BINS = false;
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
} // namespace histogram
} // namespace detail
STRATA_NAMESPACE_END

// strata/warp/warp_scan.cuh: WarpScan, prefix scans (sums, any associative operator) and a
// broadcast over the lanes of a logical warp, one item per lane.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>
#include <strata/warp/specializations/warp_scan_shfl.cuh>
#include <strata/warp/specializations/warp_scan_smem.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Whether ScanOpT is libcu++'s addition (transparent, or of T).
template <typename T, typename ScanOpT>
inline constexpr bool is_plus_v =
    ::cuda::std::is_same_v<ScanOpT, ::cuda::std::plus<>> || ::cuda::std::is_same_v<ScanOpT, ::cuda::std::plus<T>>;

//! Whether a scan of T with ScanOpT is an integer sum, whose exclusive output can be computed
//! without an exchange as the inclusive output minus the input (exact in wrapping arithmetic).
template <typename T, typename ScanOpT>
inline constexpr bool
    is_integer_sum_v = (is_plus_v<T, ScanOpT> && ::cuda::std::is_integral_v<T> && !::cuda::std::is_same_v<T, bool>);

//! a - b for integers, wrapping instead of overflowing (signed overflow would be undefined).
template <typename T>
STRATA_DEVICE STRATA_FORCEINLINE T WrappingDifference(T a, T b)
{
  using unsigned_t = ::cuda::std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<unsigned_t>(static_cast<unsigned_t>(a) - static_cast<unsigned_t>(b)));
}
} // namespace detail

//! Cooperative prefix scans over a logical warp of LOGICAL_WARP_THREADS (1 to 32) lanes, each
//! lane holding one item; works with any associative operator, commutative or not (the order of
//! the lanes is kept).
//!
//! Every group of LOGICAL_WARP_THREADS consecutive lanes from lane 0 of a hardware warp is a
//! logical warp of its own and scans independently: with shuffles (no shared memory) for
//! power-of-two sizes, through shared memory for other sizes, whose lanes past the last whole
//! group (lanes 28 .. 31 for 7-lane warps) must not call.
//!
//! Every lane of a logical warp must call the same member with the same uniform arguments
//! (`initial_value`, `src_lane`). Each logical warp needs its own TempStorage; to reuse it for
//! another call, the lanes must `__syncwarp()` in between.
//!
//! \code
//! using WarpScanT = strata::WarpScan<int>; // four 32-lane warps in a block of 128 threads
//! __shared__ WarpScanT::TempStorage temp_storage[4];
//! int item = d_in[threadIdx.x];
//! int prefix, total;
//! WarpScanT(temp_storage[threadIdx.x / 32]).ExclusiveSum(item, prefix, total);
//! // items {1, 1, 1, ...} give prefix {0, 1, 2, ..., 31} and total 32 in every warp
//! \endcode
template <typename T, int LOGICAL_WARP_THREADS = detail::warp_threads>
class WarpScan
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= detail::warp_threads,
                "a logical warp has 1 to 32 threads");

  using InternalWarpScan =
      ::cuda::std::conditional_t<PowerOfTwo<LOGICAL_WARP_THREADS>::VALUE, detail::WarpScanShfl<T, LOGICAL_WARP_THREADS>,
                                 detail::WarpScanSmem<T, LOGICAL_WARP_THREADS>>;
  using InternalTempStorage = typename InternalWarpScan::TempStorage;

  static constexpr unsigned int LAST_LANE = LOGICAL_WARP_THREADS - 1;

public:
  //! The shared memory a logical warp needs (empty for power-of-two sizes); may share a union.
  struct TempStorage : Uninitialized<InternalTempStorage>
  {
  };

  //! A scan over the calling lane's logical warp that uses `temp_storage` (one per logical warp).
  STRATA_DEVICE STRATA_FORCEINLINE WarpScan(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
  {
  }

  //! Inclusive prefix sum: lane i gets input_0 + ... + input_i. `inclusive_output` may alias
  //! `input`.
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& inclusive_output)
  {
    InclusiveScan(input, inclusive_output, ::cuda::std::plus<>{});
  }

  //! Inclusive prefix sum; every lane also gets the sum of all inputs in `warp_aggregate`.
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate)
  {
    InclusiveScan(input, inclusive_output, ::cuda::std::plus<>{}, warp_aggregate);
  }

  //! Exclusive prefix sum: lane 0 gets zero (`T{}`), lane i gets input_0 + ... + input_{i-1}.
  //! `exclusive_output` may alias `input`.
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& exclusive_output)
  {
    ExclusiveScan(input, exclusive_output, T{}, ::cuda::std::plus<>{});
  }

  //! Exclusive prefix sum (lane 0 gets zero); every lane also gets the sum of all inputs in
  //! `warp_aggregate`.
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate)
  {
    ExclusiveScan(input, exclusive_output, T{}, ::cuda::std::plus<>{}, warp_aggregate);
  }

  //! Inclusive prefix scan with the associative `scan_op`: lane i gets
  //! input_0 op input_1 op ... op input_i. `inclusive_output` may alias `input`.
  //!
  //! \code
  //! WarpScanT(temp_storage[warp]).InclusiveScan(item, item, cuda::maximum<>{}); // running maximum
  //! \endcode
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, ScanOpT scan_op)
  {
    inclusive_output = InternalWarpScan(temp_storage).InclusiveScan(input, scan_op);
  }

  //! Inclusive prefix scan seeded with `initial_value` (the same in every lane): lane i gets
  //! initial_value op input_0 op ... op input_i.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOpT scan_op)
  {
    const T inclusive = InternalWarpScan(temp_storage).InclusiveScan(input, scan_op);
    inclusive_output  = static_cast<T>(scan_op(initial_value, inclusive));
  }

  //! Inclusive prefix scan; every lane also gets input_0 op ... op input_{L-1} in `warp_aggregate`.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, ScanOpT scan_op, T& warp_aggregate)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    warp_aggregate    = internal.Share(inclusive).FromLane(LAST_LANE);
    inclusive_output  = inclusive;
  }

  //! Inclusive prefix scan seeded with `initial_value`; every lane also gets the aggregate of the
  //! inputs (without `initial_value`) in `warp_aggregate`.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOpT scan_op,
                                                      T& warp_aggregate)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    warp_aggregate    = internal.Share(inclusive).FromLane(LAST_LANE);
    inclusive_output  = static_cast<T>(scan_op(initial_value, inclusive));
  }

  //! Exclusive prefix scan without an initial value: lane i > 0 gets input_0 op ... op
  //! input_{i-1}; lane 0's output is undefined. `exclusive_output` may alias `input`.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, ScanOpT scan_op)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    exclusive_output  = UnseededExclusive<ScanOpT>(internal, input, inclusive);
  }

  //! Exclusive prefix scan seeded with `initial_value` (the same in every lane): lane 0 gets
  //! initial_value, lane i gets initial_value op input_0 op ... op input_{i-1}.
  //!
  //! \code
  //! WarpScanT(temp_storage[warp]).ExclusiveScan(item, item, INT_MIN, cuda::maximum<>{});
  //! \endcode
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOpT scan_op)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    if constexpr (detail::is_integer_sum_v<T, ScanOpT>)
    {
      exclusive_output = detail::WrappingDifference(static_cast<T>(scan_op(initial_value, inclusive)), input);
    }
    else
    {
      exclusive_output = Seeded(internal.lane_id, internal.Share(inclusive).FromLaneBelow(), initial_value, scan_op);
    }
  }

  //! Exclusive prefix scan without an initial value (lane 0's output is undefined); every lane
  //! also gets the aggregate of all inputs in `warp_aggregate`.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, ScanOpT scan_op, T& warp_aggregate)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    const auto shared = internal.Share(inclusive);
    warp_aggregate    = shared.FromLane(LAST_LANE);
    if constexpr (detail::is_integer_sum_v<T, ScanOpT>)
    {
      exclusive_output = detail::WrappingDifference(inclusive, input);
    }
    else
    {
      exclusive_output = shared.FromLaneBelow();
    }
  }

  //! Exclusive prefix scan seeded with `initial_value` (lane 0 gets it); every lane also gets the
  //! aggregate of the inputs (without `initial_value`) in `warp_aggregate`.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOpT scan_op,
                                                      T& warp_aggregate)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    const auto shared = internal.Share(inclusive);
    warp_aggregate    = shared.FromLane(LAST_LANE);
    if constexpr (detail::is_integer_sum_v<T, ScanOpT>)
    {
      exclusive_output = detail::WrappingDifference(static_cast<T>(scan_op(initial_value, inclusive)), input);
    }
    else
    {
      exclusive_output = Seeded(internal.lane_id, shared.FromLaneBelow(), initial_value, scan_op);
    }
  }

  //! Inclusive and exclusive prefix scans at once, without an initial value: as InclusiveScan and
  //! ExclusiveScan (lane 0's `exclusive_output` is undefined).
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void Scan(T input, T& inclusive_output, T& exclusive_output, ScanOpT scan_op)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    exclusive_output  = UnseededExclusive<ScanOpT>(internal, input, inclusive);
    inclusive_output  = inclusive;
  }

  //! Inclusive and exclusive prefix scans at once, both seeded with `initial_value` (the same in
  //! every lane): lane i gets initial_value op input_0 op ... op input_i in `inclusive_output`
  //! and initial_value op input_0 op ... op input_{i-1} in `exclusive_output` (lane 0:
  //! initial_value).
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void Scan(T input, T& inclusive_output, T& exclusive_output, T initial_value,
                                             ScanOpT scan_op)
  {
    InternalWarpScan internal(temp_storage);
    const T inclusive = internal.InclusiveScan(input, scan_op);
    const T seeded    = static_cast<T>(scan_op(initial_value, inclusive));
    if constexpr (detail::is_integer_sum_v<T, ScanOpT>)
    {
      exclusive_output = detail::WrappingDifference(seeded, input);
    }
    else
    {
      exclusive_output = Seeded(internal.lane_id, internal.Share(inclusive).FromLaneBelow(), initial_value, scan_op);
    }
    inclusive_output = seeded;
  }

  //! Every lane gets `input` of lane `src_lane` (the same in every lane) of its logical warp.
  STRATA_DEVICE STRATA_FORCEINLINE T Broadcast(T input, unsigned int src_lane)
  {
    return InternalWarpScan(temp_storage).Share(input).FromLane(src_lane);
  }

private:
  //! The exclusive output without a seed, from the inclusive one: the inclusive output of the lane
  //! below (lane 0's is undefined by contract; here it gets its own inclusive output, or zero for
  //! integer sums).
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static T UnseededExclusive(InternalWarpScan& internal, T input, T inclusive)
  {
    if constexpr (detail::is_integer_sum_v<T, ScanOpT>)
    {
      return detail::WrappingDifference(inclusive, input);
    }
    else
    {
      static_cast<void>(input);
      return internal.Share(inclusive).FromLaneBelow();
    }
  }

  //! The seeded exclusive output of lane `lane_id` from the unseeded inclusive output of the lane
  //! below: initial_value op below, or initial_value itself in lane 0.
  template <typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static T Seeded(unsigned int lane_id, T below, T initial_value, ScanOpT& scan_op)
  {
    return lane_id == 0 ? initial_value : static_cast<T>(scan_op(initial_value, below));
  }

  InternalTempStorage& temp_storage;
};

STRATA_NAMESPACE_END

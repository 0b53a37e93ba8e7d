// strata/device/dispatch/tuning/tuning_segmented_sort.cuh: the tuning policy of the segmented
// sorts (DeviceSegmentedRadixSort, DeviceSegmentedSort): the sorter of each bin of segment
// lengths, and the onesweep tiles of the longest segments (DeviceRadixSort's).
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/tuning/tuning_radix_sort.cuh>
#include <strata/util_device.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace segmented_sort
{
//! A sorter of one bin: THREADS threads (a logical warp's lanes, or a block) of ITEMS keys; the
//! bin holds the segments of at most THREADS * ITEMS keys that a smaller sorter does not take.
template <int THREADS, int ITEMS>
struct sorter_policy
{
  static constexpr int THREADS_PER_SEGMENT = THREADS;
  static constexpr int ITEMS_PER_THREAD    = ITEMS;
  static constexpr int MAX_ITEMS           = THREADS * ITEMS;
};

//! The widest values the sorters stage beside the keys; wider ones are sorted as 32-bit indices
//! and gathered after (dispatch_segmented_sort.cuh, RunGathered).
inline constexpr int max_sorted_value_bytes = 32;

//! Policies for sorting KeyT keys with ValueT values (NullType: keys only). Bins by length: up to
//! 32 keys, a thread; up to 256 (128 for items wider than 8 bytes), a warp; then a block
//! of 256 threads in shared memory, then a larger block; longer segments take onesweep passes
//! with DeviceRadixSort's tiles. Shared memory bounds the blocks' tiles for wide items.
template <typename KeyT, typename ValueT>
struct policy_hub
{
  static constexpr int DOMINANT = int(sizeof(KeyT)) > int(::cuda::std::is_same_v<ValueT, NullType> ? 0 : sizeof(ValueT))
                                      ? int(sizeof(KeyT))
                                      : int(sizeof(ValueT));
  static_assert(DOMINANT <= max_sorted_value_bytes,
                "the sorters stage keys and values of at most max_sorted_value_bytes; the segmented sorts sort "
                "indices of wider values and gather them");
  static constexpr int LARGE_THREADS   = DOMINANT <= 4 ? 512 : 256;
  static constexpr int LARGE_ITEMS_RAW = 32768 / (LARGE_THREADS * DOMINANT);
  static constexpr int LARGE_ITEMS     = LARGE_ITEMS_RAW > 16 ? 16 : (LARGE_ITEMS_RAW < 2 ? 2 : LARGE_ITEMS_RAW);
  static constexpr int MEDIUM_ITEMS    = LARGE_ITEMS / 2 > 8 ? 8 : LARGE_ITEMS / 2;

  struct Policy900 : ChainedPolicy<900, Policy900, Policy900>
  {
    using TinyPolicy      = sorter_policy<1, 32>;
    using SmallPolicy     = sorter_policy<32, DOMINANT <= 8 ? 8 : 4>;
    using MediumPolicy    = sorter_policy<256, MEDIUM_ITEMS>;
    using LargePolicy     = sorter_policy<LARGE_THREADS, LARGE_ITEMS>;
    using radix_hub       = radix::policy_hub<KeyT, ValueT, ::cuda::std::uint64_t>;
    using OnesweepPolicy  = typename radix_hub::Policy900::OnesweepPolicy;
    using HistogramPolicy = typename radix_hub::Policy900::HistogramPolicy;
    static_assert(TinyPolicy::MAX_ITEMS < SmallPolicy::MAX_ITEMS && SmallPolicy::MAX_ITEMS < MediumPolicy::MAX_ITEMS
                      && MediumPolicy::MAX_ITEMS < LargePolicy::MAX_ITEMS,
                  "the bins grow");
  };
  using MaxPolicy = Policy900;
};
} // namespace segmented_sort
} // namespace detail

STRATA_NAMESPACE_END

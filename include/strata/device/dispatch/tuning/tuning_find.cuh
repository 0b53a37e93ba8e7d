// strata/device/dispatch/tuning/tuning_find.cuh: the tuning policies of DeviceFind.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace find
{
//! FindIf: BLOCK_THREADS threads, each testing ITEMS_PER_THREAD items of a tile (as 16-byte vectors
//! where the input allows), loaded with LOAD_MODIFIER; BLOCKS_PER_SM resident blocks an SM take
//! the tiles in order.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, CacheLoadModifier _LOAD_MODIFIER, int _BLOCKS_PER_SM>
struct FindIfPolicy
{
  static constexpr int BLOCK_THREADS               = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD            = _ITEMS_PER_THREAD;
  static constexpr CacheLoadModifier LOAD_MODIFIER = _LOAD_MODIFIER;
  static constexpr int BLOCKS_PER_SM               = _BLOCKS_PER_SM;
};

//! LowerBound and UpperBound: BLOCK_THREADS threads, each searching for VALUES_PER_THREAD values;
//! the first SAMPLE_LEVELS levels of every search go through 2^SAMPLE_LEVELS - 1 evenly spaced items
//! of the range that each block holds in shared memory (0: every level reads the range).
template <int _BLOCK_THREADS, int _VALUES_PER_THREAD, int _SAMPLE_LEVELS>
struct BoundSearchPolicy
{
  static constexpr int BLOCK_THREADS     = _BLOCK_THREADS;
  static constexpr int VALUES_PER_THREAD = _VALUES_PER_THREAD;
  static constexpr int SAMPLE_LEVELS     = _SAMPLE_LEVELS;
};

//! LowerBoundSortedValues and UpperBoundSortedValues: a block takes TILE_ITEMS = BLOCK_THREADS x
//! ITEMS_PER_THREAD positions of the merge of the values and the range.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD>
struct BoundSortedValuesPolicy
{
  static constexpr int BLOCK_THREADS    = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = _ITEMS_PER_THREAD;
};

//! Set by hand. On sm_90 a bound search takes one value a thread: a search is a chain of
//! dependent loads, and 2^16 values at four a thread kept only 64 blocks (of 132 SMs) busy.
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using FindIfPolicyT            = FindIfPolicy<256, 16, LOAD_DEFAULT, 4>;
    using BoundSearchPolicyT       = BoundSearchPolicy<256, 4, 10>;
    using BoundSortedValuesPolicyT = BoundSortedValuesPolicy<256, 8>;
  };
  struct Policy900 : ChainedPolicy<900, Policy900, Policy750>
  {
    using FindIfPolicyT            = FindIfPolicy<256, 16, LOAD_DEFAULT, 4>;
    using BoundSearchPolicyT       = BoundSearchPolicy<256, 1, 11>;
    using BoundSortedValuesPolicyT = BoundSortedValuesPolicy<256, 8>;
  };
  using Policy1000 = Policy900; // sm_90's tuning
  using MaxPolicy  = Policy1000;
};
} // namespace find
} // namespace detail
STRATA_NAMESPACE_END

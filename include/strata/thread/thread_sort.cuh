// strata/thread/thread_sort.cuh: one thread's sorting networks over a small register array:
// StableOddEvenSort (stable, keys and values), and the comparators of bitonic sorting and merging
// networks (BitonicSortNetwork, BitonicMergeNetwork) for callers that order their own items, and
// the ascending bitonic sorts of items (and values) by operator< built on them.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN

namespace detail
{
// Index-sequence expansions instead of loops: the network is fully unrolled, so every register
// index is a compile-time constant on the device and host compilers see no `#pragma unroll`.
// Parameters used only inside an expansion are [[maybe_unused]]: a round may have no pairs.

//! Swaps keys J and J + 1 (and their items) if the right key is ordered before the left one.
//! Swapping only on a strict `compare_op(right, left)` never reorders equal keys: the sort is
//! stable.
STRATA_EXEC_CHECK_DISABLE
template <int J, typename KeyT, typename ValueT, int N, typename CompareOpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void CompareSwap(KeyT (&keys)[N], ValueT (&items)[N], CompareOpT& compare_op)
{
  if (compare_op(keys[J + 1], keys[J]))
  {
    ::cuda::std::swap(keys[J], keys[J + 1]);
    if constexpr (!::cuda::std::is_same_v<ValueT, NullType>)
    {
      ::cuda::std::swap(items[J], items[J + 1]);
    }
  }
}

//! One round of odd-even transposition: the pairs (j, j + 1) with j = PARITY + 2 * K.
STRATA_EXEC_CHECK_DISABLE
template <int PARITY, typename KeyT, typename ValueT, int N, typename CompareOpT, int... K>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void
OddEvenRound([[maybe_unused]] KeyT (&keys)[N], [[maybe_unused]] ValueT (&items)[N],
             [[maybe_unused]] CompareOpT& compare_op, ::cuda::std::integer_sequence<int, K...>)
{
  (CompareSwap<PARITY + 2 * K>(keys, items, compare_op), ...);
}

//! N rounds of alternating parity, even first: enough to sort any N items.
STRATA_EXEC_CHECK_DISABLE
template <typename KeyT, typename ValueT, int N, typename CompareOpT, int... R>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void OddEvenRounds(KeyT (&keys)[N], ValueT (&items)[N], CompareOpT& compare_op,
                                                         ::cuda::std::integer_sequence<int, R...>)
{
  (OddEvenRound<R % 2>(keys, items, compare_op, ::cuda::std::make_integer_sequence<int, (N - R % 2) / 2>{}), ...);
}
} // namespace detail

//! Sorts `keys` by `compare_op` (a strict weak order: `compare_op(a, b)` is true when a goes
//! before b), moving `items[i]` along with `keys[i]`. Stable: equal keys keep their order. With
//! ValueT = NullType only the keys are sorted. An odd-even transposition network of
//! ITEMS_PER_THREAD * (ITEMS_PER_THREAD - 1) / 2 compare-and-swaps, for small register arrays.
//!
//! \code
//! int keys[4] = {3, 1, 3, 0};
//! char values[4] = {'a', 'b', 'c', 'd'};
//! strata::StableOddEvenSort(keys, values, cuda::std::less<>{}); // {0, 1, 3, 3}, {'d', 'b', 'a', 'c'}
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <typename KeyT, typename ValueT, typename CompareOpT, int ITEMS_PER_THREAD>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void StableOddEvenSort(KeyT (&keys)[ITEMS_PER_THREAD],
                                                             ValueT (&items)[ITEMS_PER_THREAD], CompareOpT compare_op)
{
  detail::OddEvenRounds(keys, items, compare_op, ::cuda::std::make_integer_sequence<int, ITEMS_PER_THREAD>{});
}

namespace detail
{
//! Calls `compare_exchange(i, j, ascending)` for every comparator of a bitonic sorting network over
//! N items (N a power of two), stage by stage; always i < j. The caller orders items i and j: where
//! `ascending`, the one that goes first to i, otherwise to j. Whatever the caller compares (keys,
//! keys with values beside them, packed ranks), the N items end sorted. Not stable.
template <int N, typename CompareExchangeT>
STRATA_DEVICE STRATA_FORCEINLINE void BitonicSortNetwork(CompareExchangeT&& compare_exchange)
{
  static_assert(N >= 1 && (N & (N - 1)) == 0, "a bitonic network sorts a power of two of items");
#pragma unroll
  for (int size = 2; size <= N; size *= 2)
  {
#pragma unroll
    for (int stride = size / 2; stride > 0; stride /= 2)
    {
#pragma unroll
      for (int i = 0; i < N; ++i)
      {
        if ((i & stride) == 0)
        {
          // Runs of `size` alternate in direction, so that each pair of them is bitonic.
          compare_exchange(i, i + stride, (i & size) == 0);
        }
      }
    }
  }
}

//! Calls `compare_exchange(i, j)` (i < j; the item that goes first to i) for every comparator of
//! the half-cleaners that sort the bitonic run of COUNT items from FIRST (COUNT a power of two).
template <int FIRST, int COUNT, typename CompareExchangeT>
STRATA_DEVICE STRATA_FORCEINLINE void BitonicMergeNetwork(CompareExchangeT&& compare_exchange)
{
  static_assert(COUNT >= 1 && (COUNT & (COUNT - 1)) == 0, "a bitonic merge sorts a power of two of items");
#pragma unroll
  for (int stride = COUNT / 2; stride > 0; stride /= 2)
  {
#pragma unroll
    for (int i = 0; i < COUNT; ++i)
    {
      if ((i & stride) == 0)
      {
        compare_exchange(FIRST + i, FIRST + i + stride);
      }
    }
  }
}

//! Sorts N items in registers, ascending, with a bitonic network (N a power of two). Not stable:
//! callers make every item distinct (an index in the low bits) where order among equals matters.
template <int N, typename T>
STRATA_DEVICE STRATA_FORCEINLINE void ThreadBitonicSort(T (&items)[N])
{
  BitonicSortNetwork<N>(
      [&](int i, int l, bool up)
      {
        const T a = items[i];
        const T b = items[l];
        items[i]  = (a < b) == up ? a : b;
        items[l]  = (a < b) == up ? b : a;
      });
}

//! ThreadBitonicSort of keys with values moving with them (not stable).
template <int N, typename K, typename V>
STRATA_DEVICE STRATA_FORCEINLINE void ThreadBitonicSortPairs(K (&keys)[N], V (&values)[N])
{
  BitonicSortNetwork<N>(
      [&](int i, int l, bool up)
      {
        if ((keys[l] < keys[i]) == up)
        {
          const K key   = keys[i];
          keys[i]       = keys[l];
          keys[l]       = key;
          const V value = values[i];
          values[i]     = values[l];
          values[l]     = value;
        }
      });
}
} // namespace detail

STRATA_NAMESPACE_END

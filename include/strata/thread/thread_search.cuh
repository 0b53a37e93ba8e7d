// strata/thread/thread_search.cuh: one thread's binary searches: LowerBound / UpperBound over a
// sorted sequence, and MergePathSearch, the split of a merge of two sorted sequences.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

//! The offset of the first of the `num_items` items at `input` (sorted by `<`) that is not less
//! than `val`; `num_items` if there is none. Needs only `input[i] < val`. Offsets may be signed
//! or unsigned (num_items >= 0).
//!
//! \code
//! int sorted[5] = {1, 3, 3, 5, 7};
//! int i = strata::LowerBound(sorted, 5, 3); // 1
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <typename InputIteratorT, typename OffsetT, typename T>
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT LowerBound(InputIteratorT input, OffsetT num_items, T val)
{
  // Invariant: the answer lies in [first, first + num_items].
  OffsetT first = 0;
  while (num_items > 0)
  {
    const OffsetT half = num_items >> 1;
    if (input[first + half] < val)
    {
      first += half + 1;
      num_items -= half + 1;
    }
    else
    {
      num_items = half;
    }
  }
  return first;
}

//! The offset of the first of the `num_items` items at `input` (sorted by `<`) that is greater
//! than `val`; `num_items` if there is none. Needs only `val < input[i]`.
//!
//! \code
//! int sorted[5] = {1, 3, 3, 5, 7};
//! int i = strata::UpperBound(sorted, 5, 3); // 3
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <typename InputIteratorT, typename OffsetT, typename T>
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT UpperBound(InputIteratorT input, OffsetT num_items, T val)
{
  OffsetT first = 0;
  while (num_items > 0)
  {
    const OffsetT half = num_items >> 1;
    if (val < input[first + half])
    {
      num_items = half;
    }
    else
    {
      first += half + 1;
      num_items -= half + 1;
    }
  }
  return first;
}

//! Where the merge path of sorted sequences `a` (a_len items) and `b` (b_len items) crosses
//! `diagonal` (0 <= diagonal <= a_len + b_len): sets `path_coordinate.x` and `.y` (x + y ==
//! diagonal) so that a[0, x) and b[0, y) are exactly the first `diagonal` items of the stable
//! merge of a and b, in which an item of `a` comes before an equal item of `b`. Merge-based
//! algorithms give each thread the items between two diagonals. Needs only `b[j] < a[i]`;
//! OffsetT may be signed or unsigned.
//!
//! \code
//! int2 split;
//! strata::MergePathSearch(diagonal, d_a, d_b, a_len, b_len, split); // split.x + split.y == diagonal
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <typename AIteratorT, typename BIteratorT, typename OffsetT, typename CoordinateT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void MergePathSearch(OffsetT diagonal, AIteratorT a, BIteratorT b, OffsetT a_len,
                                                           OffsetT b_len, CoordinateT& path_coordinate)
{
  // x, the number of items taken from a, lies in [lo, hi]: at most `diagonal` and a_len, and
  // at least what b_len leaves over (written without a subtraction that unsigned offsets
  // would wrap).
  OffsetT lo = diagonal > b_len ? OffsetT(diagonal - b_len) : OffsetT(0);
  OffsetT hi = diagonal < a_len ? diagonal : a_len;
  while (lo < hi)
  {
    const OffsetT pivot = lo + ((hi - lo) >> 1);
    // a[pivot] is among the first `diagonal` items iff it does not come after b[diagonal -
    // pivot - 1], i.e. (a first on ties) iff that b item is not less than it.
    if (b[diagonal - pivot - 1] < a[pivot])
    {
      hi = pivot;
    }
    else
    {
      lo = pivot + 1;
    }
  }
  path_coordinate.x = lo;
  path_coordinate.y = diagonal - lo;
}

STRATA_NAMESPACE_END

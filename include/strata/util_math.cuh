// strata/util_math.cuh: the items-per-thread scaling rules of tuning policies (a nominal count
// tuned for 4- or 8-byte items, scaled to the item size at hand) and an overflow-safe midpoint.
// A host compiler may read it.
#pragma once

#include <strata/util_macro.cuh>
#include <strata/util_namespace.cuh>

STRATA_NAMESPACE_BEGIN

//! Items per thread for items of `combined_bytes` bytes (e.g. a key and a value together), from a
//! count tuned for 8 such bytes: bytes per thread stay about constant, never more items than
//! nominal and at least one.
constexpr STRATA_HOST_DEVICE int Nominal4BItemsToItemsCombined(int nominal_4b_items_per_thread, int combined_bytes)
{
  const int scaled       = nominal_4b_items_per_thread * 8 / combined_bytes;
  const int at_least_one = scaled > 1 ? scaled : 1;
  return nominal_4b_items_per_thread < at_least_one ? nominal_4b_items_per_thread : at_least_one;
}

//! Items per thread for items of type T, from a count tuned for 4-byte items: bytes per thread
//! stay about constant, never more items than nominal and at least one.
template <typename T>
constexpr STRATA_HOST_DEVICE int Nominal4BItemsToItems(int nominal_4b_items_per_thread)
{
  const int scaled       = nominal_4b_items_per_thread * 4 / static_cast<int>(sizeof(T));
  const int at_least_one = scaled > 1 ? scaled : 1;
  return nominal_4b_items_per_thread < at_least_one ? nominal_4b_items_per_thread : at_least_one;
}

//! Items per thread for items of type ItemT, from a count tuned for 8-byte items: items of at
//! most 8 bytes keep the nominal count; wider ones get proportionally fewer (rounded up, at
//! least one).
template <typename ItemT>
constexpr STRATA_HOST_DEVICE int Nominal8BItemsToItems(int nominal_8b_items_per_thread)
{
  if (sizeof(ItemT) <= 8u)
  {
    return nominal_8b_items_per_thread;
  }
  const int item_bytes   = static_cast<int>(sizeof(ItemT));
  const int scaled       = (nominal_8b_items_per_thread * 8 + item_bytes - 1) / item_bytes;
  const int at_least_one = scaled > 1 ? scaled : 1;
  return nominal_8b_items_per_thread < at_least_one ? nominal_8b_items_per_thread : at_least_one;
}

//! The midpoint of begin and end, rounded toward begin, computed as begin + (end - begin) / 2 so
//! that it does not overflow where begin + end would.
template <typename T>
constexpr STRATA_HOST_DEVICE T MidPoint(T begin, T end)
{
  return begin + (end - begin) / 2;
}

STRATA_NAMESPACE_END

// strata/device/dispatch/dispatch_common.cuh: options that several dispatch classes take (CUB's
// names and values).
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

//! Whether the input and output of an algorithm may be the same memory.
enum class MayAlias
{
  Yes,
  No
};

//! What DispatchSelectIf does with the rejected items, and whether input and output may be the
//! same memory (CUB's names and order).
enum class SelectImpl
{
  Select,                   //!< drop them; input and output are disjoint
  SelectPotentiallyInPlace, //!< drop them; the output may be the input
  Partition                 //!< keep them at the back of the output, in reverse order
};

//! The order of a sort.
enum class SortOrder
{
  Ascending,
  Descending
};

STRATA_NAMESPACE_END

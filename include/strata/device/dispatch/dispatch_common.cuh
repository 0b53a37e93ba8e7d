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

//! The order of a sort.
enum class SortOrder
{
  Ascending,
  Descending
};

STRATA_NAMESPACE_END

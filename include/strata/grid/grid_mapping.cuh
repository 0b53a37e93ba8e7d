// strata/grid/grid_mapping.cuh: GridMappingStrategy, how the tiles of an input map to the blocks
// of a grid.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

//! How tiles map to blocks (see GridEvenShare).
enum GridMappingStrategy
{
  //! Every block takes one contiguous range of whole tiles, the ranges as equal as possible.
  GRID_MAPPING_RAKE,
  //! Block b takes tiles b, b + grid_size, b + 2 * grid_size, ...
  GRID_MAPPING_STRIP_MINE,
  //! Blocks take tiles one at a time from a shared counter (GridQueue) as they finish.
  GRID_MAPPING_DYNAMIC,
};

STRATA_NAMESPACE_END

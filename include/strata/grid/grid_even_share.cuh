// strata/grid/grid_even_share.cuh: GridEvenShare, an even division of an input's tiles among the
// blocks of a grid.
#pragma once

#include <strata/config.cuh>
#include <strata/grid/grid_mapping.cuh>
#include <strata/util_type.cuh>

STRATA_NAMESPACE_BEGIN

//! Divides num_items items, in tiles of tile_items, among at most max_grid_size blocks. With
//! GRID_MAPPING_RAKE every block gets a contiguous range of whole tiles: the first `big_shares`
//! blocks one tile more than the others (the last range may end in a partial tile). With
//! GRID_MAPPING_STRIP_MINE block b visits tiles b, b + grid_size, ... up to num_items.
//!
//! The host calls DispatchInit (which sets grid_size), passes the object to the kernel, and each
//! block calls BlockInit, which sets block_offset, block_end and block_stride: the block visits
//! offsets block_offset, block_offset + block_stride, ... below block_end.
//!
//! \code
//! strata::GridEvenShare<int> even_share;
//! even_share.DispatchInit(num_items, max_blocks, TILE_ITEMS);
//! kernel<<<even_share.grid_size, THREADS>>>(..., even_share);
//! // in the kernel:
//! even_share.BlockInit<TILE_ITEMS, strata::GRID_MAPPING_RAKE>();
//! for (int offset = even_share.block_offset; offset < even_share.block_end; offset += even_share.block_stride) ...
//! \endcode
template <typename OffsetT>
struct GridEvenShare
{
private:
  int total_tiles            = 0;
  int big_shares             = 0; // blocks with one tile more
  OffsetT big_share_items    = 0;
  OffsetT normal_share_items = 0;
  OffsetT normal_base_offset = 0; // where the ranges of the normal blocks start

public:
  OffsetT num_items    = 0;
  int grid_size        = 0;
  OffsetT block_offset = 0;
  OffsetT block_end    = 0;
  OffsetT block_stride = 0;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE GridEvenShare() {}

  //! Sizes the grid: min(tiles, max_grid_size) blocks (at least one: an empty input gets one
  //! block with an empty range).
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void DispatchInit(OffsetT num_items_, int max_grid_size, int tile_items)
  {
    num_items    = num_items_;
    block_offset = num_items_; // an empty range until BlockInit
    block_end    = num_items_;
    total_tiles  = static_cast<int>(num_items_ / OffsetT(tile_items) + (num_items_ % OffsetT(tile_items) != 0));
    grid_size    = total_tiles < max_grid_size ? total_tiles : max_grid_size;
    grid_size    = grid_size > 0 ? grid_size : 1;
    const int tiles_per_block = total_tiles / grid_size;
    big_shares                = total_tiles - tiles_per_block * grid_size;
    normal_share_items        = OffsetT(tiles_per_block) * OffsetT(tile_items);
    big_share_items           = normal_share_items + OffsetT(tile_items);
    normal_base_offset        = OffsetT(big_shares) * OffsetT(tile_items);
  }

  //! Block block_id's range under GRID_MAPPING_RAKE (callable on the host too, e.g. to check a
  //! mapping): `even_share.BlockInit<TILE_ITEMS>(b, strata::detail::constant_v<strata::GRID_MAPPING_RAKE>)`.
  template <int TILE_ITEMS>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void BlockInit(int block_id, detail::constant_t<GRID_MAPPING_RAKE>)
  {
    block_stride = TILE_ITEMS;
    if (block_id < big_shares)
    {
      block_offset = OffsetT(block_id) * big_share_items;
      block_end    = block_offset + big_share_items;
    }
    else if (block_id < total_tiles)
    {
      block_offset          = normal_base_offset + OffsetT(block_id) * normal_share_items;
      const OffsetT the_end = block_offset + normal_share_items;
      block_end             = the_end < num_items ? the_end : num_items;
    }
    else
    {
      block_offset = num_items; // a block beyond the tiles gets an empty range
      block_end    = num_items;
    }
  }

  //! Block block_id's tiles under GRID_MAPPING_STRIP_MINE (callable on the host too).
  template <int TILE_ITEMS>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void BlockInit(int block_id, detail::constant_t<GRID_MAPPING_STRIP_MINE>)
  {
    block_stride = OffsetT(grid_size) * OffsetT(TILE_ITEMS);
    block_offset = OffsetT(block_id) * OffsetT(TILE_ITEMS);
    block_end    = num_items;
  }

  //! This block's range (blockIdx.x) under STRATEGY (GRID_MAPPING_RAKE or GRID_MAPPING_STRIP_MINE).
  template <int TILE_ITEMS, GridMappingStrategy STRATEGY>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockInit()
  {
    static_assert(STRATEGY == GRID_MAPPING_RAKE || STRATEGY == GRID_MAPPING_STRIP_MINE,
                  "GridEvenShare maps tiles by GRID_MAPPING_RAKE or GRID_MAPPING_STRIP_MINE");
    BlockInit<TILE_ITEMS>(int(blockIdx.x), detail::constant_v<STRATEGY>);
  }

  //! An explicit range [block_offset, block_end), visited tile by tile.
  template <int TILE_ITEMS, typename OffsetT1 = OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockInit(OffsetT1 block_offset_, OffsetT1 block_end_)
  {
    block_offset = OffsetT(block_offset_);
    block_end    = OffsetT(block_end_);
    block_stride = TILE_ITEMS;
  }
};

STRATA_NAMESPACE_END

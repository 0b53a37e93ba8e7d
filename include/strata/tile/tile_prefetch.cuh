// strata/tile/tile_prefetch.cuh: asking L2 for a later tile of the input while the block works on
// its own, so that the later tile's loads hit L2.
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! The prefetch distance in tiles for PREFETCH_BYTES bytes of input ahead, where a tile reads
//! TILE_INPUT_BYTES: 0 for no prefetch, otherwise at least one.
constexpr int PrefetchTiles(int prefetch_bytes, int tile_input_bytes)
{
  return prefetch_bytes <= 0 ? 0 : prefetch_bytes < tile_input_bytes ? 1 : prefetch_bytes / tile_input_bytes;
}

//! Asks L2 to fetch the TILE_ITEMS items at `tile_offset` of `d_in` (sm_90: one bulk prefetch by
//! the calling thread; whole 16-byte-aligned tiles behind pointers only, nothing otherwise).
template <int TILE_ITEMS, typename IteratorT, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE void PrefetchTile([[maybe_unused]] IteratorT d_in,
                                                   [[maybe_unused]] OffsetT tile_offset)
{
  if constexpr (::cuda::std::is_pointer_v<IteratorT>)
  {
    using T                      = it_value_t<IteratorT>;
    constexpr unsigned int BYTES = unsigned(TILE_ITEMS) * unsigned(sizeof(T));
    if constexpr (BYTES % max_vector_bytes == 0)
    {
      const T* tile = d_in + tile_offset;
      if (IsAligned<max_vector_bytes>(tile))
      {
        PrefetchL2(tile, BYTES);
      }
    }
  }
}

//! Thread 0 of the block working on tile `tile` of `num_tiles` asks L2 for tile
//! `tile + PREFETCH_TILES` of each of `inputs` (none when that is the last tile, which may be
//! partial, or past it).
template <int PREFETCH_TILES, int TILE_ITEMS, typename OffsetT, typename... IteratorTs>
STRATA_DEVICE STRATA_FORCEINLINE void PrefetchAhead([[maybe_unused]] int tile, [[maybe_unused]] int num_tiles,
                                                    [[maybe_unused]] IteratorTs... inputs)
{
  if constexpr (PREFETCH_TILES > 0)
  {
    if (threadIdx.x == 0 && tile + PREFETCH_TILES < num_tiles - 1)
    {
      const OffsetT ahead = OffsetT(tile + PREFETCH_TILES) * OffsetT(TILE_ITEMS);
      (PrefetchTile<TILE_ITEMS>(inputs, ahead), ...);
    }
  }
}
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

// strata/agent/agent_adjacent_difference.cuh: AgentAdjacentDifferencePolicy and
// AgentAdjacentDifference, one thread block's tile of DeviceAdjacentDifference.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_neighbours.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentAdjacentDifference (CUB's parameters): threads per block, items per thread,
//! and the load, cache and store algorithms (the agent reads the cache operator; its tile layout
//! is TileIo's vectors striped over each warp).
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD = 1, BlockLoadAlgorithm _LOAD_ALGORITHM = BLOCK_LOAD_DIRECT,
          CacheLoadModifier _LOAD_MODIFIER = LOAD_LDG, BlockStoreAlgorithm _STORE_ALGORITHM = BLOCK_STORE_DIRECT>
struct AgentAdjacentDifferencePolicy
{
  static constexpr int BLOCK_THREADS                   = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD                = _ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM   = _LOAD_ALGORITHM;
  static constexpr CacheLoadModifier LOAD_MODIFIER     = _LOAD_MODIFIER;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = _STORE_ALGORITHM;
};

//! One thread block's tile of an adjacent difference: out[i] = difference_op(in[i], in[i - 1])
//! (READ_LEFT; out[0] = in[0]) or difference_op(in[i], in[i + 1]) (out[n - 1] = in[n - 1]). The
//! tile arrives as 16-byte vectors striped over each warp where the pointers allow; neighbours
//! come by shuffles within a warp, through shared memory across the block's warps, and across
//! tiles from `d_tile_edges` (MAY_ALIAS: the tiles' edge items, saved before the output may
//! overwrite them) or from the input. Each thread stores exactly the items it loaded, so that
//! the output may be the input.
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT, typename OffsetT,
          bool MAY_ALIAS, bool READ_LEFT>
class AgentAdjacentDifference
{
  using InputT  = detail::it_value_t<InputIteratorT>;
  using ResultT = ::cuda::std::invoke_result_t<DifferenceOpT&, const InputT&, const InputT&>;
  //! What the outputs are held as: the output's value type, else the operator's result.
  using OutputT = ::cuda::std::conditional_t<::cuda::std::is_void_v<detail::it_value_t<OutputIteratorT>>,
                                             ::cuda::std::decay_t<ResultT>, detail::it_value_t<OutputIteratorT>>;

  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int VEC   = detail::tile::VectorItems<ITEMS_PER_THREAD, 16, InputIteratorT, OutputIteratorT>();
  static constexpr int WARPS = PolicyT::BLOCK_THREADS / detail::warp_threads;
  using TileIoT    = detail::tile::TileIo<PolicyT::BLOCK_THREADS, ITEMS_PER_THREAD, VEC, detail::warp_threads>;
  using NeighbourT = detail::tile::WarpRowNeighbours<ITEMS_PER_THREAD, VEC>;

public:
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int TILE_ITEMS    = TileIoT::TILE_ITEMS;

  struct _TempStorage
  {
    InputT warp_edges[WARPS]; // each warp's first (right) or last (left) item
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentAdjacentDifference(TempStorage& temp_storage, InputIteratorT d_in,
                                                           OutputIteratorT d_out, const InputT* d_tile_edges,
                                                           DifferenceOpT difference_op, OffsetT num_items)
      : temp_storage(temp_storage.Alias())
      , d_in(d_in)
      , d_out(d_out)
      , d_tile_edges(d_tile_edges)
      , difference_op(difference_op)
      , num_items(num_items)
  {
  }

  //! The tile `tile` of `num_tiles`.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(int tile, int num_tiles)
  {
    const OffsetT tile_offset = OffsetT(tile) * OffsetT(TILE_ITEMS);
    const int valid           = detail::tile::ValidItems<TILE_ITEMS>(num_items, tile_offset);
    const int tid             = int(threadIdx.x);
    const int warp            = tid / detail::warp_threads;
    const int lane            = tid % detail::warp_threads;

    InputT items[ITEMS_PER_THREAD];
    const auto tile_in = d_in + tile_offset;
    if (valid == TILE_ITEMS)
    {
      TileIoT::template LoadFull<PolicyT::LOAD_MODIFIER>(tile_in, tid, TileIoT::VectorAligned(d_in), items);
    }
    else
    {
      const InputT filler = InputT(TileIoT::template LoadItem<PolicyT::LOAD_MODIFIER>(tile_in, 0));
      TileIoT::template LoadPartial<PolicyT::LOAD_MODIFIER>(tile_in, tid, valid, items, filler);
    }

    // The neighbour of the warp's first (left) or last (right) item: in place, from the warp next to
    // it through shared memory or from the saved tile edges; otherwise read from the input, with no
    // barrier.
    InputT warp_neighbour = items[0];
    const int warp_first  = warp * RowsItems();
    if constexpr (MAY_ALIAS)
    {
      if (lane == (READ_LEFT ? detail::warp_threads - 1 : 0))
      {
        temp_storage.warp_edges[warp] = items[READ_LEFT ? ITEMS_PER_THREAD - 1 : 0];
      }
      __syncthreads();
      if constexpr (READ_LEFT)
      {
        if (warp > 0)
        {
          warp_neighbour = temp_storage.warp_edges[warp - 1];
        }
        else if (tile > 0 && lane == 0)
        {
          warp_neighbour = d_tile_edges[tile - 1];
        }
      }
      else
      {
        if (warp + 1 < WARPS)
        {
          warp_neighbour = temp_storage.warp_edges[warp + 1];
        }
        else if (tile + 1 < num_tiles && lane == detail::warp_threads - 1)
        {
          warp_neighbour = d_tile_edges[tile + 1];
        }
      }
    }
    else if constexpr (READ_LEFT)
    {
      if (lane == 0 && (tile > 0 || warp > 0) && warp_first < valid)
      {
        warp_neighbour = d_in[tile_offset + OffsetT(warp_first) - 1];
      }
    }
    else
    {
      const int warp_end = warp_first + RowsItems();
      if (lane == detail::warp_threads - 1 && warp_end < valid + (tile + 1 < num_tiles ? 1 : 0))
      {
        warp_neighbour = d_in[tile_offset + OffsetT(warp_end)];
      }
    }

    OutputT results[ITEMS_PER_THREAD];
    const auto difference = [&](int k, const InputT& neighbour)
    {
      const int index = TileIoT::ItemIndex(tid, k);
      // The input's first (left) or last (right) item has no neighbour, and a partial tile's filler
      // past `valid` (only in the last tile) is no item: neither reaches the operator, which sees
      // each adjacent pair exactly once (users count or accumulate in it).
      const bool copied =
          READ_LEFT ? (index >= valid || (tile == 0 && index == 0)) : (tile == num_tiles - 1 && index >= valid - 1);
      results[k] = copied ? OutputT(items[k]) : OutputT(difference_op(items[k], neighbour));
    };
    if constexpr (READ_LEFT)
    {
      NeighbourT::Predecessors(items, warp_neighbour, lane, difference);
    }
    else
    {
      NeighbourT::Successors(items, warp_neighbour, lane, difference);
    }

    const auto tile_out = d_out + tile_offset;
    if (valid == TILE_ITEMS)
    {
      TileIoT::StoreFull(tile_out, tid, TileIoT::VectorAligned(d_out), results);
    }
    else
    {
      TileIoT::StorePartial(tile_out, tid, valid, results);
    }
  }

private:
  //! The items of one warp's part of the tile.
  STRATA_DEVICE STRATA_FORCEINLINE static constexpr int RowsItems()
  {
    return detail::warp_threads * ITEMS_PER_THREAD;
  }

  _TempStorage& temp_storage;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  const InputT* d_tile_edges;
  DifferenceOpT difference_op;
  OffsetT num_items;
};

STRATA_NAMESPACE_END

// strata/agent/agent_three_way_partition.cuh: AgentThreeWayPartitionPolicy and
// AgentThreeWayPartition, one thread block's tile of DevicePartition's three-way partition.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_select_if.cuh>
#include <strata/agent/agent_single_pass.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/tile/tile_compact.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentThreeWayPartition: AgentSelectIfPolicy's parameters.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, BlockLoadAlgorithm LOAD_ALGORITHM, CacheLoadModifier LOAD_MODIFIER,
          BlockScanAlgorithm SCAN_ALGORITHM, typename LookbackPolicyT = detail::DefaultLookbackPolicy,
          int MIN_BLOCKS_PER_SM = 1, int PREFETCH_BYTES = 0>
using AgentThreeWayPartitionPolicy =
    AgentSelectIfPolicy<BLOCK_THREADS, ITEMS_PER_THREAD, LOAD_ALGORITHM, LOAD_MODIFIER, SCAN_ALGORITHM, LookbackPolicyT,
                        MIN_BLOCKS_PER_SM, PREFETCH_BYTES>;

namespace detail
{
namespace three_way_partition
{
//! How many items of the input before a tile go to the first and to the second part.
template <typename OffsetT>
struct part_counts
{
  OffsetT first;
  OffsetT second;
};

//! part_counts added part by part.
struct part_counts_sum
{
  template <typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE part_counts<OffsetT> operator()(const part_counts<OffsetT>& a,
                                                                        const part_counts<OffsetT>& b) const
  {
    return {OffsetT(a.first + b.first), OffsetT(a.second + b.second)};
  }
};
} // namespace three_way_partition
} // namespace detail

//! One thread block's tile of a three-way partition: items with `select_first_part_op` go to
//! d_first_part_out, the others with `select_second_part_op` to d_second_part_out, the rest to
//! d_unselected_out, each in input order. The tile-local scan counts both parts in one int (the
//! first in the low 16 bits, the second in the high ones: a tile has fewer than 2^15 items); the
//! look-back sums both parts' counts of the tiles before.
template <typename PolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOp,
          typename SelectSecondPartOp, typename OffsetT>
class AgentThreeWayPartition
{
  using InputT                          = detail::it_value_t<InputIteratorT>;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  using RowsT =
      detail::tile::ScanTileRows<PolicyT, int, detail::tile::VectorItems<ITEMS_PER_THREAD, 16, InputIteratorT>(),
                                 detail::tile::RowPrefixes::FOLD, detail::tile::LookbackItems::IN_REGISTERS>;
  static_assert(RowsT::TILE_ITEMS < (1 << 15), "a tile's part counts share one int");

  static constexpr int FIRST_ONE  = 1;
  static constexpr int SECOND_ONE = 1 << 16;

public:
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int TILE_ITEMS    = RowsT::TILE_ITEMS;

  using CountsT    = detail::three_way_partition::part_counts<OffsetT>;
  using CountsSumT = detail::three_way_partition::part_counts_sum;
  using TileStateT = ScanTileState<CountsT>;
  using PrefixOpT  = TilePrefixCallbackOp<CountsT, CountsSumT, TileStateT, typename PolicyT::LookbackPolicyT>;

private:
  static constexpr int PREFETCH_TILES =
      detail::tile::PrefetchTiles(PolicyT::PREFETCH_BYTES, TILE_ITEMS* int(sizeof(InputT)));
  using CompactT = detail::tile::TileCompact<BLOCK_THREADS, TILE_ITEMS, InputT>;
  // Pipelined (the policy's PIPELINE), a block's next tile of items arrives in shared memory meanwhile.
  using SkeletonT =
      detail::single_pass::Skeleton<RowsT, CountsT, TileStateT, PrefixOpT, OffsetT, typename CompactT::TempStorage,
                                    PolicyT::PIPELINE, detail::single_pass::StagedInputs<InputT>>;
  using TileT = typename SkeletonT::TileT;

public:
  using TempStorage = typename SkeletonT::TempStorage;
  //! Whether a block takes tiles until they run out (the launch may have fewer blocks than tiles),
  //! and then how many blocks an SM the launch has (the policy's, where the occupancy allows).
  static constexpr bool PERSISTENT   = SkeletonT::PERSISTENT;
  static constexpr int BLOCKS_PER_SM = PolicyT::MIN_BLOCKS_PER_SM;

  STRATA_DEVICE STRATA_FORCEINLINE AgentThreeWayPartition(TempStorage& temp_storage, InputIteratorT d_in,
                                                          FirstOutputIteratorT d_first_part_out,
                                                          SecondOutputIteratorT d_second_part_out,
                                                          UnselectedOutputIteratorT d_unselected_out,
                                                          NumSelectedIteratorT d_num_selected_out,
                                                          SelectFirstPartOp select_first_part_op,
                                                          SelectSecondPartOp select_second_part_op, OffsetT num_items)
      : temp_storage(temp_storage)
      , d_in(d_in)
      , d_first_part_out(d_first_part_out)
      , d_second_part_out(d_second_part_out)
      , d_unselected_out(d_unselected_out)
      , d_num_selected_out(d_num_selected_out)
      , select_first_part_op(select_first_part_op)
      , select_second_part_op(select_second_part_op)
      , num_items(num_items)
  {
  }

  //! Partitions the tiles it takes from `*d_tile_counter` (one, or with a pipelined policy one after
  //! another; with a single tile, tile 0, and neither the counter nor the tile state are used). The
  //! block of the last tile writes both parts' sizes.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(int num_tiles, TileStateT& tile_state,
                                                     unsigned int* d_tile_counter)
  {
    SkeletonT::ConsumeRange(
        temp_storage, num_items, num_tiles, tile_state, d_tile_counter, [this](TileT& tile) { ConsumeTile(tile); },
        d_in);
  }

private:
  TempStorage& temp_storage;
  InputIteratorT d_in;
  FirstOutputIteratorT d_first_part_out;
  SecondOutputIteratorT d_second_part_out;
  UnselectedOutputIteratorT d_unselected_out;
  NumSelectedIteratorT d_num_selected_out;
  SelectFirstPartOp select_first_part_op;
  SelectSecondPartOp select_second_part_op;
  OffsetT num_items;

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(TileT& tile)
  {
    RowsT& rows               = tile.rows;
    const OffsetT tile_offset = tile.offset;
    const int valid           = tile.valid;

    tile.template PrefetchAhead<PREFETCH_TILES>(d_in);
    InputT items[ITEMS_PER_THREAD];
    tile.template LoadStaged<SkeletonT::template STAGE_OFFSET<0>>(d_in, items);

    // Each item counts as FIRST_ONE, SECOND_ONE or 0 (unselected, or past the tile's end).
    int parts[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index = rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC);
      parts[k]        = 0;
      if (index < valid)
      {
        parts[k] = select_first_part_op(items[k]) ? FIRST_ONE : select_second_part_op(items[k]) ? SECOND_ONE : 0;
      }
    }
    int ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      ranks[k] = parts[k];
    }
    ::cuda::std::plus<> sum;
    typename RowsT::Prefixes prefixes;
    const int tile_counts = rows.template ScanTile<false>(ranks, prefixes, sum);
    const int tile_first  = tile_counts & (SECOND_ONE - 1);
    const int tile_second = tile_counts >> 16;

    rows.template Finish<false>(ranks, prefixes, 0, true, sum);

    // Slots: the first part, then the second, then the unselected items, each in input order.
    CompactT compact(temp_storage.Alias().body);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index  = rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC);
      const int first  = ranks[k] & (SECOND_ONE - 1);
      const int second = ranks[k] >> 16;
      if (parts[k] == FIRST_ONE)
      {
        compact.Place(first, items[k]);
      }
      else if (parts[k] == SECOND_ONE)
      {
        compact.Place(tile_first + second, items[k]);
      }
      else if (index < valid)
      {
        compact.Place(tile_first + tile_second + index - first - second, items[k]);
      }
    }
    // The parts' items of the tiles before (the other warps have placed their items meanwhile),
    // together at most the items before the tile: descriptors of another call (a misuse of
    // temporary storage) then give a wrong answer, never a write out of bounds.
    CountsSumT counts_sum;
    CountsT before = tile.Prefix(ranks, counts_sum, CountsT{OffsetT(tile_first), OffsetT(tile_second)});
    before.first   = before.first < tile_offset ? before.first : tile_offset;
    before.second  = before.second < tile_offset - before.first ? before.second : OffsetT(tile_offset - before.first);
    const OffsetT unselected_before = tile_offset - before.first - before.second;
    compact.ForEach(valid,
                    [&](int k, const InputT& item)
                    {
                      if (k < tile_first)
                      {
                        d_first_part_out[before.first + OffsetT(k)] = item;
                      }
                      else if (k < tile_first + tile_second)
                      {
                        d_second_part_out[before.second + OffsetT(k - tile_first)] = item;
                      }
                      else
                      {
                        d_unselected_out[unselected_before + OffsetT(k - tile_first - tile_second)] = item;
                      }
                    });

    if (tile.IsLast() && threadIdx.x == 0)
    {
      d_num_selected_out[0] = before.first + OffsetT(tile_first);
      d_num_selected_out[1] = before.second + OffsetT(tile_second);
    }
  }
};

STRATA_NAMESPACE_END

// strata/agent/agent_scan_by_key.cuh: AgentScanByKeyPolicy and AgentScanByKey, one thread
// block's tiles of a single-pass scan by key: a scan of the values that restarts wherever the key
// changes.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_single_pass.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_runs.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentScanByKey: CUB's template parameters, then strata's (detail::single_pass::
//! PassPolicy says what each means); the store algorithm is recorded, not read (the agent's tile
//! I/O is ScanTileRows).
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD = 1, BlockLoadAlgorithm _LOAD_ALGORITHM = BLOCK_LOAD_DIRECT,
          CacheLoadModifier _LOAD_MODIFIER = LOAD_DEFAULT, BlockScanAlgorithm _SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          BlockStoreAlgorithm _STORE_ALGORITHM = BLOCK_STORE_DIRECT,
          typename _LookbackPolicyT = detail::DefaultLookbackPolicy, int _MIN_BLOCKS_PER_SM = 1,
          int _PREFETCH_BYTES = 0>
struct AgentScanByKeyPolicy
    : detail::single_pass::PassPolicy<_BLOCK_THREADS, _ITEMS_PER_THREAD, _LOAD_ALGORITHM, _LOAD_MODIFIER,
                                      _SCAN_ALGORITHM, _LookbackPolicyT, _MIN_BLOCKS_PER_SM, _PREFETCH_BYTES,
                                      detail::single_pass::Pipeline::NONE>
{
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = _STORE_ALGORITHM;
};

//! One thread block's part of a device-wide scan by key. Items are (head, value) pairs, where
//! head says "a segment starts here" (the first item, and every item whose key differs from the
//! one before it under EqualityOpT), scanned in registers with ScanBySegmentOp.
//!
//! The tiles' descriptors carry values only (ScanTileState<AccumT>, one word for 4- and 8-byte
//! values): a tile whose items contain a segment head publishes INCLUSIVE at once, because
//! nothing before it can change its running value, and a look-back therefore never crosses a
//! segment head. A tile whose first item is a head needs no look-back at all.
//!
//! InitValueT: NullType (inclusive) or the initial value of every segment (exclusive).
template <typename AgentScanPolicyT, typename KeysInputIteratorT, typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT, typename EqualityOpT, typename ScanOpT, typename InitValueT, typename OffsetT,
          typename AccumT>
class AgentScanByKey
{
  static constexpr bool IS_INCLUSIVE = ::cuda::std::is_same_v<InitValueT, NullType>;

  using KeyT    = detail::it_value_t<KeysInputIteratorT>;
  using PairT   = KeyValuePair<unsigned int, AccumT>; // (a head is among the items, running value)
  using PairOpT = detail::ScanBySegmentOp<ScanOpT>;
  using RowsT =
      detail::tile::ScanTileRows<AgentScanPolicyT, PairT,
                                 detail::tile::VectorItems<AgentScanPolicyT::ITEMS_PER_THREAD, 16, KeysInputIteratorT,
                                                           ValuesInputIteratorT, ValuesOutputIteratorT>(),
                                 detail::tile::RowPrefixes::KEEP, detail::tile::LookbackItems::IN_REGISTERS>;
  static constexpr int ITEMS_PER_THREAD = RowsT::ITEMS_PER_THREAD;
  static constexpr int VEC              = RowsT::VEC;
  static constexpr int ROWS             = RowsT::ROWS;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread's segment heads are the bits of one word");
  //! The L2 prefetch distance in tiles (a tile reads keys and values).
  static constexpr int PREFETCH_TILES = detail::tile::PrefetchTiles(
      AgentScanPolicyT::PREFETCH_BYTES,
      RowsT::TILE_ITEMS* int(sizeof(KeyT) + sizeof(detail::it_value_t<ValuesInputIteratorT>)));

public:
  using TileStateT = ScanTileState<AccumT>;
  using PrefixOpT  = TilePrefixCallbackOp<AccumT, ScanOpT, TileStateT, typename AgentScanPolicyT::LookbackPolicyT>;

  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;

private:
  struct BodyStorage
  {
    unsigned int starts_segment; // whether the tile's first item is a segment head, from thread 0
  };
  using SkeletonT = detail::single_pass::Skeleton<RowsT, AccumT, TileStateT, PrefixOpT, OffsetT, BodyStorage>;
  using TileT     = typename SkeletonT::TileT;

public:
  using TempStorage = typename SkeletonT::TempStorage;

  STRATA_DEVICE STRATA_FORCEINLINE AgentScanByKey(TempStorage& temp_storage, KeysInputIteratorT d_keys_in,
                                                  ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                                                  EqualityOpT equality_op, ScanOpT scan_op, InitValueT init_value,
                                                  OffsetT num_items)
      : temp_storage(temp_storage)
      , d_keys_in(d_keys_in)
      , d_values_in(d_values_in)
      , d_values_out(d_values_out)
      , equality_op(equality_op)
      , scan_op(scan_op)
      , init_value(init_value)
      , num_items(num_items)
  {
  }

  //! Scans the tile it takes from `*d_tile_counter` (the launch has one block per tile; with a
  //! single tile, tile 0, and neither the counter nor the tile state are used).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(int num_tiles, TileStateT& tile_state,
                                                     unsigned int* d_tile_counter)
  {
    SkeletonT::ConsumeRange(temp_storage, num_items, num_tiles, tile_state, d_tile_counter,
                            [this](TileT& tile) { ConsumeTile(tile); });
  }

private:
  TempStorage& temp_storage;
  KeysInputIteratorT d_keys_in;
  ValuesInputIteratorT d_values_in;
  ValuesOutputIteratorT d_values_out;
  EqualityOpT equality_op;
  ScanOpT scan_op;
  InitValueT init_value;
  OffsetT num_items;

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(TileT& tile)
  {
    RowsT& rows               = tile.rows;
    const OffsetT tile_offset = tile.offset;
    BodyStorage& storage      = temp_storage.Alias().body;

    // L2 fetches the keys and values of a tile some way ahead, so that its loads hit L2 when a
    // block takes it.
    tile.template PrefetchAhead<PREFETCH_TILES>(d_keys_in, d_values_in);
    unsigned int heads = 0;
    {
      KeyT keys[ITEMS_PER_THREAD];
      tile.Load(d_keys_in, keys);
      heads = detail::tile::RunHeads(rows, keys,
                                     detail::tile::KeyBeforeWarp(rows, keys, d_keys_in, tile_offset, tile.valid),
                                     tile_offset, equality_op);
    }
    if (threadIdx.x == 0)
    {
      storage.starts_segment = heads & 1u;
    }
    PairT items[ITEMS_PER_THREAD];
    {
      AccumT values[ITEMS_PER_THREAD];
      tile.Load(d_values_in, values);
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        items[k] = PairT((heads >> k) & 1u, values[k]);
      }
    }
    PairOpT pair_op(scan_op);
    typename RowsT::Prefixes prefixes;
    const PairT aggregate = rows.template ScanTile<IS_INCLUSIVE>(items, prefixes, pair_op);

    // A tile that starts a segment (tile 0 always does) needs nothing from before it: bit 0 of
    // thread 0's heads (RunHeads compared the tile's first key with the one before it), shared
    // before the scan, whose barriers make it visible here.
    const bool tile_starts_segment = tile.IsFirst() || storage.starts_segment != 0;
    // A tile with a segment head publishes its value as inclusive at once; one that starts a
    // segment needs no prefix.
    detail::tile::TilePrefixOptions<AccumT> options;
    options.aggregate_is_inclusive = aggregate.key != 0;
    options.needs_prefix           = !tile_starts_segment;
    const AccumT tile_prefix       = tile.Prefix(items, scan_op, aggregate.value, options);

    rows.template Finish<IS_INCLUSIVE>(items, prefixes, PairT(0u, tile_prefix), !tile_starts_segment, pair_op);
    AccumT results[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      if constexpr (IS_INCLUSIVE)
      {
        results[k] = items[k].value;
      }
      else
      {
        const AccumT init = AccumT(init_value);
        results[k]        = (heads >> k) & 1u ? init : AccumT(scan_op(init, items[k].value));
      }
    }
    tile.Store(d_values_out, results);
  }
};

STRATA_NAMESPACE_END

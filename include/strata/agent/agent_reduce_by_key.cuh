// strata/agent/agent_reduce_by_key.cuh: AgentReduceByKeyPolicy and AgentReduceByKey, one thread
// block's tile of a single-pass reduction by key (DeviceReduce::ReduceByKey).
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_single_pass.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/tile/tile_compact.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_runs.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentReduceByKey: CUB's template parameters, then strata's (detail::single_pass::
//! PassPolicy says what each means).
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, BlockLoadAlgorithm _LOAD_ALGORITHM,
          CacheLoadModifier _LOAD_MODIFIER, BlockScanAlgorithm _SCAN_ALGORITHM,
          typename _LookbackPolicyT = detail::DefaultLookbackPolicy, int _MIN_BLOCKS_PER_SM = 1,
          int _PREFETCH_BYTES = 0, detail::single_pass::Pipeline _PIPELINE = detail::single_pass::Pipeline::NONE>
struct AgentReduceByKeyPolicy
    : detail::single_pass::PassPolicy<_BLOCK_THREADS, _ITEMS_PER_THREAD, _LOAD_ALGORITHM, _LOAD_MODIFIER,
                                      _SCAN_ALGORITHM, _LookbackPolicyT, _MIN_BLOCKS_PER_SM, _PREFETCH_BYTES, _PIPELINE>
{
};

namespace detail
{
namespace reduce_by_key
{
//! Whether iterators of these types can load ITEMS consecutive items as one vector of up to 16
//! bytes a load: pointers to items that pack into 16-byte vectors, and other iterators (read an
//! item at a time), for a power of two ITEMS.
template <int ITEMS, typename... IteratorTs>
constexpr bool BlockedVectors()
{
  return (ITEMS & (ITEMS - 1)) == 0
         && ((!::cuda::std::is_pointer_v<IteratorTs> || tile::PacksIntoVectors<IteratorTs>()) && ...);
}

//! The items of a thread's vector in ScanTileRows: all its items (one row: the blocked
//! arrangement, a warp scan per tile) with BLOCK_LOAD_DIRECT where the iterators allow, else
//! 16-byte vectors striped over each warp (a warp scan per row, each load coalesced).
template <typename PolicyT, typename... IteratorTs>
constexpr int TileVectorItems()
{
  if constexpr (PolicyT::LOAD_ALGORITHM == BLOCK_LOAD_DIRECT
                && BlockedVectors<PolicyT::ITEMS_PER_THREAD, IteratorTs...>())
  {
    return PolicyT::ITEMS_PER_THREAD;
  }
  else
  {
    return tile::VectorItems<PolicyT::ITEMS_PER_THREAD, tile::max_vector_bytes, IteratorTs...>();
  }
}
} // namespace reduce_by_key
} // namespace detail

//! One thread block's tile of a reduction by key over num_items items: the block takes a tile from
//! a global counter, finds where runs of equal keys start and end (TileRuns), scans (count, value)
//! pairs in registers (ScanTileRows), where the count says how many runs started so far and the
//! value is the running reduction of the current run, gets the pair of the tiles before by
//! decoupled look-back, and writes each run's key at its start and its aggregate at its end, both
//! through shared memory (TileCompact) so that the stores coalesce.
//!
//! CountT counts runs and indexes items (it holds num_items); AccumT is the reduction's type.
template <typename PolicyT, typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
          typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename EqualityOpT,
          typename ReductionOpT, typename CountT, typename AccumT>
class AgentReduceByKey
{
  using KeyT = detail::it_value_t<KeysInputIteratorT>;
  // The value iterator shapes the tile's vectors only where it is a pointer: other iterators
  // (a constant one counting run lengths) are read an item at a time in the same layout.
  using VectorValuesT = ::cuda::std::conditional_t<::cuda::std::is_pointer_v<ValuesInputIteratorT>,
                                                   ValuesInputIteratorT, KeysInputIteratorT>;
  // Runs as (runs started, running value) pairs.
  using PairT   = KeyValuePair<CountT, AccumT>;
  using PairOpT = ReduceBySegmentOp<ReductionOpT>;

  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread keeps its run edges in 32-bit masks");

  using RowsT =
      detail::tile::ScanTileRows<PolicyT, PairT,
                                 detail::reduce_by_key::TileVectorItems<PolicyT, KeysInputIteratorT, VectorValuesT>(),
                                 detail::tile::RowPrefixes::KEEP, detail::tile::LookbackItems::IN_REGISTERS>;
  using RunsT = detail::tile::TileRuns<RowsT>;

public:
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int TILE_ITEMS    = RowsT::TILE_ITEMS;

  using TileStateT = ScanTileState<PairT>;
  using PrefixOpT  = TilePrefixCallbackOp<PairT, PairOpT, TileStateT, typename PolicyT::LookbackPolicyT>;

private:
  static constexpr int PREFETCH_TILES = detail::tile::PrefetchTiles(
      PolicyT::PREFETCH_BYTES, TILE_ITEMS* int(sizeof(KeyT) + sizeof(detail::it_value_t<VectorValuesT>)));

  // Each run's key goes out from its start, its aggregate from its end.
  using HeadCompactT = detail::tile::TileCompact<BLOCK_THREADS, TILE_ITEMS, KeyT>;
  using TailCompactT = detail::tile::TileCompact<BLOCK_THREADS, TILE_ITEMS, AccumT>;

  struct BodyStorage
  {
    typename RunsT::TempStorage runs;
    typename HeadCompactT::TempStorage heads;
    typename TailCompactT::TempStorage tails;
  };
  // Pipelined, a block's next tile of keys (and of values behind a pointer) arrives in shared
  // memory meanwhile.
  static constexpr bool STAGE_VALUES = ::cuda::std::is_pointer_v<ValuesInputIteratorT>;
  using ValueT                       = detail::it_value_t<ValuesInputIteratorT>;
  using StagedT   = ::cuda::std::conditional_t<STAGE_VALUES, detail::single_pass::StagedInputs<KeyT, ValueT>,
                                             detail::single_pass::StagedInputs<KeyT>>;
  using SkeletonT = detail::single_pass::Skeleton<RowsT, PairT, TileStateT, PrefixOpT, CountT, BodyStorage,
                                                  PolicyT::PIPELINE, StagedT>;
  using TileT     = typename SkeletonT::TileT;

public:
  using TempStorage = typename SkeletonT::TempStorage;
  //! Whether a block takes tiles until they run out (the launch may have fewer blocks than tiles),
  //! and then how many blocks an SM the launch has (the policy's, where the occupancy allows).
  static constexpr bool PERSISTENT   = SkeletonT::PERSISTENT;
  static constexpr int BLOCKS_PER_SM = PolicyT::MIN_BLOCKS_PER_SM;

  STRATA_DEVICE STRATA_FORCEINLINE AgentReduceByKey(TempStorage& temp_storage, KeysInputIteratorT d_keys_in,
                                                    UniqueOutputIteratorT d_unique_out,
                                                    ValuesInputIteratorT d_values_in,
                                                    AggregatesOutputIteratorT d_aggregates_out,
                                                    NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op,
                                                    ReductionOpT reduction_op, CountT num_items)
      : temp_storage(temp_storage)
      , d_keys_in(d_keys_in)
      , d_unique_out(d_unique_out)
      , d_values_in(d_values_in)
      , d_aggregates_out(d_aggregates_out)
      , d_num_runs_out(d_num_runs_out)
      , equality_op(equality_op)
      , reduction_op(reduction_op)
      , num_items(num_items)
  {
  }

  //! Reduces the tiles it takes from `*d_tile_counter` (one, or with a pipelined policy one after
  //! another; with a single tile, tile 0, and neither the counter nor the tile state are used). The
  //! block of the last tile writes the number of runs.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(int num_tiles, TileStateT& tile_state,
                                                     unsigned int* d_tile_counter)
  {
    auto body = [this](TileT& tile) { ConsumeTile(tile); };
    if constexpr (STAGE_VALUES)
    {
      SkeletonT::ConsumeRange(temp_storage, num_items, num_tiles, tile_state, d_tile_counter, body, d_keys_in,
                              d_values_in);
    }
    else
    {
      SkeletonT::ConsumeRange(temp_storage, num_items, num_tiles, tile_state, d_tile_counter, body, d_keys_in);
    }
  }

private:
  TempStorage& temp_storage;
  KeysInputIteratorT d_keys_in;
  UniqueOutputIteratorT d_unique_out;
  ValuesInputIteratorT d_values_in;
  AggregatesOutputIteratorT d_aggregates_out;
  NumRunsOutputIteratorT d_num_runs_out;
  EqualityOpT equality_op;
  ReductionOpT reduction_op;
  CountT num_items;

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(TileT& tile)
  {
    RowsT& rows              = tile.rows;
    const CountT tile_offset = tile.offset;
    BodyStorage& storage     = temp_storage.Alias().body;

    tile.template PrefetchAhead<PREFETCH_TILES>(d_keys_in, d_values_in);
    KeyT keys[ITEMS_PER_THREAD];
    tile.template LoadStaged<SkeletonT::template STAGE_OFFSET<0>>(d_keys_in, keys);
    const RunsT runs(storage.runs, rows, keys, d_keys_in, tile_offset, tile.valid, num_items, equality_op);

    PairT items[ITEMS_PER_THREAD];
    {
      ValueT values[ITEMS_PER_THREAD];
      if constexpr (STAGE_VALUES)
      {
        tile.template LoadStaged<SkeletonT::template STAGE_OFFSET<1>>(d_values_in, values);
      }
      else
      {
        tile.Load(d_values_in, values);
      }
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        items[k] = PairT(CountT((runs.heads >> k) & 1u), AccumT(values[k]));
      }
    }

    PairOpT pair_op(reduction_op);
    typename RowsT::Prefixes prefixes;
    const PairT aggregate   = rows.template ScanTile<true>(items, prefixes, pair_op);
    const PairT tile_prefix = tile.Prefix(items, pair_op, aggregate);
    rows.template Finish<true>(items, prefixes, tile_prefix, !tile.IsFirst(), pair_op);

    // The tile's counted runs that start in it are numbered from the count of the tiles before;
    // the ones that end in it from one less where the tile's first run began before it (the
    // scan's barriers have shared the tile's edges). That count is at least 1 after tile 0 (whose
    // first item starts a run) and at most the items before the tile: descriptors of another call
    // (a misuse of temporary storage) then give a wrong answer, never a write out of bounds.
    const CountT counted        = tile_prefix.key < tile_offset ? tile_prefix.key : tile_offset;
    const CountT first_head_run = tile.IsFirst() ? CountT(0) : counted < CountT(1) ? CountT(1) : counted;
    const CountT first_tail_run = first_head_run - CountT(storage.runs.starts_run ? 0 : 1);
    const CountT prefix_runs    = tile.IsFirst() ? CountT(0) : tile_prefix.key; // the count Finish added
    const int heads_in_tile     = int(aggregate.key);
    const int tails_in_tile     = RunsT::TailsInTile(storage.runs, heads_in_tile);

    HeadCompactT head_compact(storage.heads);
    TailCompactT tail_compact(storage.tails);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      // Item k's run among the tile's, from the count the look-back gave, clamped or not: the
      // shared-memory slots stay within the tile whatever the descriptors held.
      const int run = int(items[k].key - prefix_runs) - 1;
      if ((runs.heads >> k) & 1u)
      {
        head_compact.Place(run, keys[k]);
      }
      if ((runs.tails >> k) & 1u)
      {
        tail_compact.Place(run + int(first_head_run - first_tail_run), items[k].value);
      }
    }
    head_compact.ForEach(heads_in_tile,
                         [&](int k, const KeyT& key) { d_unique_out[first_head_run + CountT(k)] = key; });
    tail_compact.ForEach(tails_in_tile, [&](int k, const AccumT& aggregate)
                         { d_aggregates_out[first_tail_run + CountT(k)] = aggregate; });

    if (tile.IsLast() && threadIdx.x == 0)
    {
      *d_num_runs_out = first_head_run + CountT(heads_in_tile);
    }
  }
};

STRATA_NAMESPACE_END

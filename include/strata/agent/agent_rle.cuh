// strata/agent/agent_rle.cuh: AgentRlePolicy and AgentRle, one thread block's tile of a
// single-pass run-length encoding (DeviceRunLengthEncode::Encode and NonTrivialRuns).
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_single_pass.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/tile/tile_compact.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_runs.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentRle: CUB's template parameters, then strata's (detail::single_pass::PassPolicy
//! says what each means); STORE_WARP_TIME_SLICING is recorded, not read (the agent's stores go
//! through shared memory).
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, BlockLoadAlgorithm _LOAD_ALGORITHM,
          CacheLoadModifier _LOAD_MODIFIER, bool _STORE_WARP_TIME_SLICING, BlockScanAlgorithm _SCAN_ALGORITHM,
          typename _LookbackPolicyT = detail::DefaultLookbackPolicy, int _MIN_BLOCKS_PER_SM = 1,
          int _PREFETCH_BYTES = 0, detail::single_pass::Pipeline _PIPELINE = detail::single_pass::Pipeline::NONE>
struct AgentRlePolicy
    : detail::single_pass::PassPolicy<_BLOCK_THREADS, _ITEMS_PER_THREAD, _LOAD_ALGORITHM, _LOAD_MODIFIER,
                                      _SCAN_ALGORITHM, _LookbackPolicyT, _MIN_BLOCKS_PER_SM, _PREFETCH_BYTES, _PIPELINE>
{
  static constexpr bool STORE_WARP_TIME_SLICING = _STORE_WARP_TIME_SLICING;
};

namespace detail
{
namespace rle
{
//! Combines (runs started, last run start) pairs: counts add, the later start wins (starts grow
//! along the input, so that is the larger one).
struct CountAndLastStart
{
  template <typename PairT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE PairT operator()(const PairT& first, const PairT& second) const
  {
    return PairT(first.key + second.key, first.value < second.value ? second.value : first.value);
  }
};
} // namespace rle
} // namespace detail

//! One thread block's tile of a run-length encoding of num_items items: the block takes a tile
//! from a global counter, finds where runs of equal items start and end (TileRuns), ranks the run
//! starts with a count scan (ScanTileRows), and places each start and each end, as its index in
//! the tile, in shared memory (TileCompact). The look-back then gives the runs started before the
//! tile and the last of their starts, and each run's length is its end minus its start, plus one.
//! No scan of lengths is needed: a run's start and end are both known by the time they are stored.
//!
//! NON_TRIVIAL_RUNS: only runs longer than one item count; d_first_out receives their offsets.
//! Otherwise (Encode) every run counts and d_first_out receives its first item. d_lengths_out
//! receives the lengths, *d_num_runs_out the number of runs. CountT counts runs and indexes items.
template <typename PolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename EqualityOpT, typename CountT, bool NON_TRIVIAL_RUNS>
class AgentRle
{
  using ItemT = detail::it_value_t<InputIteratorT>;

  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread keeps its run edges in 32-bit masks");

  using RowsT =
      detail::tile::ScanTileRows<PolicyT, int, detail::tile::VectorItems<ITEMS_PER_THREAD, 16, InputIteratorT>(),
                                 detail::tile::RowPrefixes::FOLD, detail::tile::LookbackItems::IN_REGISTERS>;
  using RunsT = detail::tile::TileRuns<RowsT>;

public:
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int TILE_ITEMS    = RowsT::TILE_ITEMS;

  //! A tile's runs started, and the last of their starts.
  using PairT      = KeyValuePair<CountT, CountT>;
  using PairOpT    = detail::rle::CountAndLastStart;
  using TileStateT = ScanTileState<PairT>;
  using PrefixOpT  = TilePrefixCallbackOp<PairT, PairOpT, TileStateT, typename PolicyT::LookbackPolicyT>;

private:
  static constexpr int PREFETCH_TILES =
      detail::tile::PrefetchTiles(PolicyT::PREFETCH_BYTES, TILE_ITEMS* int(sizeof(ItemT)));

  // The tile indices of the counted runs' starts and ends, in order. Encode needs no ends (a run
  // ends before the next one starts) but the runs' first items.
  using EdgesT   = detail::tile::TileCompact<BLOCK_THREADS, TILE_ITEMS, int>;
  using SecondT  = ::cuda::std::conditional_t<NON_TRIVIAL_RUNS, int, ItemT>;
  using SecondsT = detail::tile::TileCompact<BLOCK_THREADS, TILE_ITEMS, SecondT>;

  struct BodyStorage
  {
    typename RunsT::TempStorage runs;
    typename EdgesT::TempStorage starts;
    typename SecondsT::TempStorage seconds; // the ends (NonTrivialRuns) or the first items (Encode)
  };
  // Pipelined (the policy's PIPELINE), a block's next tile of items arrives in shared memory meanwhile.
  using SkeletonT = detail::single_pass::Skeleton<RowsT, PairT, TileStateT, PrefixOpT, CountT, BodyStorage,
                                                  PolicyT::PIPELINE, detail::single_pass::StagedInputs<ItemT>>;
  using TileT     = typename SkeletonT::TileT;

public:
  using TempStorage = typename SkeletonT::TempStorage;
  //! Whether a block takes tiles until they run out (the launch may have fewer blocks than tiles),
  //! and then how many blocks an SM the launch has (the policy's, where the occupancy allows).
  static constexpr bool PERSISTENT   = SkeletonT::PERSISTENT;
  static constexpr int BLOCKS_PER_SM = PolicyT::MIN_BLOCKS_PER_SM;

  STRATA_DEVICE STRATA_FORCEINLINE AgentRle(TempStorage& temp_storage, InputIteratorT d_in,
                                            FirstOutputIteratorT d_first_out, LengthsOutputIteratorT d_lengths_out,
                                            NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op,
                                            CountT num_items)
      : temp_storage(temp_storage)
      , d_in(d_in)
      , d_first_out(d_first_out)
      , d_lengths_out(d_lengths_out)
      , d_num_runs_out(d_num_runs_out)
      , equality_op(equality_op)
      , num_items(num_items)
  {
  }

  //! Encodes the tiles it takes from `*d_tile_counter` (one, or with a pipelined policy one after
  //! another; with a single tile, tile 0, and neither the counter nor the tile state are used). The
  //! block of the last tile writes the number of runs.
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
  FirstOutputIteratorT d_first_out;
  LengthsOutputIteratorT d_lengths_out;
  NumRunsOutputIteratorT d_num_runs_out;
  EqualityOpT equality_op;
  CountT num_items;

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(TileT& tile)
  {
    RowsT& rows              = tile.rows;
    const CountT tile_offset = tile.offset;
    const int valid          = tile.valid;
    BodyStorage& storage     = temp_storage.Alias().body;

    tile.template PrefetchAhead<PREFETCH_TILES>(d_in);
    ItemT items[ITEMS_PER_THREAD];
    tile.template LoadStaged<SkeletonT::template STAGE_OFFSET<0>>(d_in, items);
    unsigned int starts                = 0; // bit k: this lane's item k starts a counted run
    [[maybe_unused]] unsigned int ends = 0; // bit k: it ends one (NonTrivialRuns)
    {
      const RunsT runs(storage.runs, rows, items, d_in, tile_offset, valid, num_items, equality_op);
      starts = NON_TRIVIAL_RUNS ? runs.heads & ~runs.tails : runs.heads;
      ends   = NON_TRIVIAL_RUNS ? runs.tails & ~runs.heads : runs.tails;
    }

    // Ranks of the starts among the tile's: an exclusive scan of 0/1 counts.
    int ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      ranks[k] = int((starts >> k) & 1u);
    }
    ::cuda::std::plus<> sum;
    typename RowsT::Prefixes prefixes;
    const int tile_starts = rows.template ScanTile<false>(ranks, prefixes, sum);
    rows.template Finish<false>(ranks, prefixes, 0, true, sum);

    // The tile's first counted end belongs to a run that began before it where its first item
    // starts no run (the scan's barriers have shared the tile's edges); its ends then rank one
    // behind its starts.
    const int carried   = storage.runs.starts_run ? 0 : 1;
    const int tile_ends = RunsT::TailsInTile(storage.runs, tile_starts);
    EdgesT start_slots(storage.starts);
    SecondsT seconds(storage.seconds);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index   = rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC);
      const int started = int((starts >> k) & 1u);
      if (started)
      {
        start_slots.Place(ranks[k], index);
        if constexpr (!NON_TRIVIAL_RUNS)
        {
          seconds.Place(ranks[k], items[k]);
        }
      }
      if constexpr (NON_TRIVIAL_RUNS)
      {
        if ((ends >> k) & 1u)
        {
          seconds.Place(ranks[k] - 1 + carried, index);
        }
      }
    }
    __syncthreads(); // the slots, for every thread

    // The tile's aggregate: its runs started, and the last start among them.
    const PairT aggregate(CountT(tile_starts),
                          tile_starts > 0 ? tile_offset + CountT(start_slots.slots[tile_starts - 1]) : CountT(0));
    const PairT tile_prefix = tile.Prefix(ranks, pair_op, aggregate);

    // Runs before the tile: at least the run it carries on, at most the items before it, so that
    // descriptors of another call (a misuse of temporary storage) give a wrong answer, never a
    // write out of bounds.
    const CountT counted   = tile_prefix.key < tile_offset ? tile_prefix.key : tile_offset;
    const CountT first_run = counted < CountT(carried) ? CountT(carried) : counted;
    for (int k = int(threadIdx.x); k < tile_starts; k += BLOCK_THREADS)
    {
      if constexpr (NON_TRIVIAL_RUNS)
      {
        d_first_out[first_run + CountT(k)] = tile_offset + CountT(start_slots.slots[k]);
      }
      else
      {
        d_first_out[first_run + CountT(k)] = seconds.slots[k];
      }
    }
    for (int k = int(threadIdx.x); k < tile_ends; k += BLOCK_THREADS)
    {
      // The run's start: in the tile, or (the carried run) the last start before it. Its end: a
      // placed end, or (Encode) the item before the next run's start, or the tile's last item.
      const int run   = k - carried; // among the runs that start in the tile
      const int start = run >= 0 ? start_slots.slots[run] : 0;
      int end         = valid - 1;
      if constexpr (NON_TRIVIAL_RUNS)
      {
        end = seconds.slots[k];
      }
      else if (run + 1 < tile_starts)
      {
        end = start_slots.slots[run + 1] - 1;
      }
      const CountT first = run >= 0 ? tile_offset + CountT(start) : CountT(tile_prefix.value);
      d_lengths_out[first_run - CountT(carried) + CountT(k)] = tile_offset + CountT(end) - first + 1;
    }

    if (tile.IsLast() && threadIdx.x == 0)
    {
      *d_num_runs_out = first_run + CountT(tile_starts);
    }
  }

  PairOpT pair_op{};
};

STRATA_NAMESPACE_END

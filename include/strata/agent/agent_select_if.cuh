// strata/agent/agent_select_if.cuh: AgentSelectIfPolicy and AgentSelectIf, one thread block's
// tile of a single-pass stream compaction (DeviceSelect) or two-way partition (DevicePartition).
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_single_pass.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/tile/tile_compact.cuh>
#include <strata/tile/tile_runs.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentSelectIf: CUB's template parameters, then strata's (detail::single_pass::
//! PassPolicy says what each means).
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, BlockLoadAlgorithm _LOAD_ALGORITHM,
          CacheLoadModifier _LOAD_MODIFIER, BlockScanAlgorithm _SCAN_ALGORITHM,
          typename _LookbackPolicyT = detail::DefaultLookbackPolicy, int _MIN_BLOCKS_PER_SM = 1,
          int _PREFETCH_BYTES = 0, detail::single_pass::Pipeline _PIPELINE = detail::single_pass::Pipeline::NONE>
struct AgentSelectIfPolicy
    : detail::single_pass::PassPolicy<_BLOCK_THREADS, _ITEMS_PER_THREAD, _LOAD_ALGORITHM, _LOAD_MODIFIER,
                                      _SCAN_ALGORITHM, _LookbackPolicyT, _MIN_BLOCKS_PER_SM, _PREFETCH_BYTES, _PIPELINE>
{
};

namespace detail
{
namespace select
{
//! Whether an iterator parameter stands for "none" (CUB passes NullType* for unused iterators).
template <typename IteratorT>
inline constexpr bool is_null_iterator_v = ::cuda::std::is_same_v<IteratorT, NullType*>;
} // namespace select
} // namespace detail

//! One thread block's tile of a stream compaction of num_items items: in the single-pass skeleton
//! (detail::single_pass::Skeleton) the block takes a tile, decides which items it keeps, ranks
//! them with a tile-local scan (ScanTileRows), finds how many earlier tiles keep by decoupled
//! look-back, and writes the kept items through shared memory (TileCompact), so that its stores
//! coalesce.
//!
//! What keeps an item, from the types:
//! - FlagsInputIteratorT given (not NullType*): its flag, through `select_op` unless SelectOpT is
//!   NullType (then the flag converted to bool);
//! - else SelectOpT given: `select_op(item)`;
//! - else (unique): the item is the first, or `!equality_op(previous item, item)`.
//! KEEP_REJECTS (partition): rejected items go to the back of d_out in reverse order. With values
//! (UniqueByKey), the value of each kept item goes to d_values_out in the same order.
template <typename PolicyT, typename InputIteratorT, typename FlagsInputIteratorT, typename SelectedOutputIteratorT,
          typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, typename OffsetT, bool KEEP_REJECTS,
          typename ValuesInputIteratorT = NullType*, typename ValuesOutputIteratorT = NullType*>
class AgentSelectIf
{
  using InputT = detail::it_value_t<InputIteratorT>;

  static constexpr bool USE_FLAGS  = !detail::select::is_null_iterator_v<FlagsInputIteratorT>;
  static constexpr bool USE_OP     = !::cuda::std::is_same_v<SelectOpT, NullType>;
  static constexpr bool UNIQUE     = !USE_FLAGS && !USE_OP;
  static constexpr bool HAS_VALUES = !detail::select::is_null_iterator_v<ValuesInputIteratorT>;
  using FlagsT = ::cuda::std::conditional_t<USE_FLAGS, detail::non_void_value_t<FlagsInputIteratorT, char>, char>;
  using FlagsLoadIteratorT = ::cuda::std::conditional_t<USE_FLAGS, FlagsInputIteratorT, InputIteratorT>;

  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread keeps its items' selections in one 32-bit mask");

  // Items (and flags) as 16-byte vectors striped over each warp where the pointers allow: the
  // scan's layout, so that the ranks need no transpose.
  using RowsT =
      detail::tile::ScanTileRows<PolicyT, int,
                                 detail::tile::VectorItems<ITEMS_PER_THREAD, 16, InputIteratorT, FlagsLoadIteratorT>(),
                                 detail::tile::RowPrefixes::FOLD, detail::tile::LookbackItems::IN_REGISTERS>;

public:
  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  static constexpr int TILE_ITEMS    = RowsT::TILE_ITEMS;

  using TileStateT = ScanTileState<OffsetT>;
  using SumT       = ::cuda::std::plus<>;
  using PrefixOpT  = TilePrefixCallbackOp<OffsetT, SumT, TileStateT, typename PolicyT::LookbackPolicyT>;

private:
  static constexpr int PREFETCH_TILES =
      detail::tile::PrefetchTiles(PolicyT::PREFETCH_BYTES, TILE_ITEMS* int(sizeof(InputT)));

  using CompactT      = detail::tile::TileCompact<BLOCK_THREADS, TILE_ITEMS, InputT>;
  using IndexCompactT = detail::tile::TileCompact<BLOCK_THREADS, HAS_VALUES ? TILE_ITEMS : 1, int>;

  union BodyStorage
  {
    typename CompactT::TempStorage compact;
    typename IndexCompactT::TempStorage indices; // then the kept items' places in the tile (values only)
  };
  // Pipelined, the items (and flags) of a block's next tile arrive in shared memory meanwhile.
  using StagedT   = ::cuda::std::conditional_t<USE_FLAGS, detail::single_pass::StagedInputs<InputT, FlagsT>,
                                             detail::single_pass::StagedInputs<InputT>>;
  using SkeletonT = detail::single_pass::Skeleton<RowsT, OffsetT, TileStateT, PrefixOpT, OffsetT, BodyStorage,
                                                  PolicyT::PIPELINE, StagedT>;
  using TileT     = typename SkeletonT::TileT;

public:
  using TempStorage = typename SkeletonT::TempStorage;
  //! Whether a block takes tiles until they run out (the launch may have fewer blocks than tiles),
  //! and then how many blocks an SM the launch has (the policy's, where the occupancy allows).
  static constexpr bool PERSISTENT   = SkeletonT::PERSISTENT;
  static constexpr int BLOCKS_PER_SM = PolicyT::MIN_BLOCKS_PER_SM;

  STRATA_DEVICE STRATA_FORCEINLINE AgentSelectIf(TempStorage& temp_storage, InputIteratorT d_in,
                                                 FlagsInputIteratorT d_flags, SelectedOutputIteratorT d_out,
                                                 NumSelectedIteratorT d_num_selected_out, SelectOpT select_op,
                                                 EqualityOpT equality_op, OffsetT num_items,
                                                 ValuesInputIteratorT d_values_in   = {},
                                                 ValuesOutputIteratorT d_values_out = {})
      : temp_storage(temp_storage)
      , d_in(d_in)
      , d_flags(d_flags)
      , d_out(d_out)
      , d_num_selected_out(d_num_selected_out)
      , select_op(select_op)
      , equality_op(equality_op)
      , num_items(num_items)
      , d_values_in(d_values_in)
      , d_values_out(d_values_out)
  {
  }

  //! Compacts the tiles it takes from `*d_tile_counter` (one, or with a pipelined policy one after
  //! another; with a single tile, tile 0, and neither the counter nor the tile state are used). The
  //! block of the last tile writes the number of kept items.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(int num_tiles, TileStateT& tile_state,
                                                     unsigned int* d_tile_counter)
  {
    auto body = [this](TileT& tile) { ConsumeTile(tile); };
    if constexpr (USE_FLAGS)
    {
      SkeletonT::ConsumeRange(temp_storage, num_items, num_tiles, tile_state, d_tile_counter, body, d_in, d_flags);
    }
    else
    {
      SkeletonT::ConsumeRange(temp_storage, num_items, num_tiles, tile_state, d_tile_counter, body, d_in);
    }
  }

private:
  TempStorage& temp_storage;
  InputIteratorT d_in;
  FlagsInputIteratorT d_flags;
  SelectedOutputIteratorT d_out;
  NumSelectedIteratorT d_num_selected_out;
  SelectOpT select_op;
  EqualityOpT equality_op;
  OffsetT num_items;
  ValuesInputIteratorT d_values_in;
  ValuesOutputIteratorT d_values_out;

  //! Bit k of the result: whether this thread's item k is kept (items past `valid` never are).
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int Select(const TileT& tile, const InputT (&items)[ITEMS_PER_THREAD])
  {
    const RowsT& rows         = tile.rows;
    const OffsetT tile_offset = tile.offset;
    const int valid           = tile.valid;
    bool keep[ITEMS_PER_THREAD];
    if constexpr (USE_FLAGS)
    {
      FlagsT flags[ITEMS_PER_THREAD];
      tile.template LoadStaged<SkeletonT::template STAGE_OFFSET<1>>(d_flags, flags);
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        if constexpr (USE_OP)
        {
          keep[k] = bool(select_op(flags[k]));
        }
        else
        {
          keep[k] = bool(flags[k]);
        }
      }
    }
    else if constexpr (USE_OP)
    {
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        keep[k] = bool(select_op(items[k]));
      }
    }
    else
    {
      // Unique: an item is kept where it differs from the item before it (the first always is).
      const unsigned int heads = detail::tile::RunHeads(
          rows, items, detail::tile::KeyBeforeWarp(rows, items, d_in, tile_offset, valid), tile_offset, equality_op);
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        keep[k] = (heads >> k) & 1u;
      }
    }
    unsigned int bits = 0;
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index = rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC);
      bits |= (keep[k] && index < valid) ? (1u << k) : 0u;
    }
    return bits;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(TileT& tile)
  {
    RowsT& rows               = tile.rows;
    const OffsetT tile_offset = tile.offset;
    const int valid           = tile.valid;

    if constexpr (USE_FLAGS)
    {
      tile.template PrefetchAhead<PREFETCH_TILES>(d_in, d_flags);
    }
    else
    {
      tile.template PrefetchAhead<PREFETCH_TILES>(d_in);
    }
    InputT items[ITEMS_PER_THREAD];
    tile.template LoadStaged<SkeletonT::template STAGE_OFFSET<0>>(d_in, items);
    const unsigned int kept = Select(tile, items);

    // Ranks among the tile's kept items: an exclusive scan of 0/1 counts.
    int ranks[ITEMS_PER_THREAD];
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      ranks[k] = int((kept >> k) & 1u);
    }
    SumT sum;
    typename RowsT::Prefixes prefixes;
    const int tile_kept = rows.template ScanTile<false>(ranks, prefixes, sum);

    rows.template Finish<false>(ranks, prefixes, 0, true, sum);

    // Kept items to their ranks; with KEEP_REJECTS the rejected ones after them, in input order.
    CompactT compact(temp_storage.Alias().body.compact);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int index = rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC);
      if ((kept >> k) & 1u)
      {
        compact.Place(ranks[k], items[k]);
      }
      else if (KEEP_REJECTS && index < valid)
      {
        compact.Place(tile_kept + index - ranks[k], items[k]);
      }
    }

    // Kept items of the tiles before (the other warps have placed their items meanwhile), at most
    // the items before the tile: descriptors of another call (a misuse of temporary storage) then
    // give a wrong answer, never a write out of bounds.
    const OffsetT counted     = tile.Prefix(ranks, sum, OffsetT(tile_kept));
    const OffsetT kept_before = counted < tile_offset ? counted : tile_offset;

    // Kept items go to d_out[kept_before + rank]; the tile's r-th rejected item is the
    // (tile_offset - kept_before + r)-th rejected item of the input, which goes that far from the
    // end of d_out.
    const OffsetT rejected_before = tile_offset - kept_before;
    compact.ForEach(KEEP_REJECTS ? valid : tile_kept,
                    [&](int k, const InputT& item)
                    {
                      if (!KEEP_REJECTS || k < tile_kept)
                      {
                        d_out[kept_before + OffsetT(k)] = item;
                      }
                      else
                      {
                        d_out[num_items - 1 - (rejected_before + OffsetT(k - tile_kept))] = item;
                      }
                    });

    if constexpr (HAS_VALUES)
    {
      // The kept items' places in the tile, in the same shared memory: their values are read from
      // there in output order.
      __syncthreads(); // every read of the items before
      IndexCompactT indices(temp_storage.Alias().body.indices);
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        if ((kept >> k) & 1u)
        {
          indices.Place(ranks[k], rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC));
        }
      }
      indices.ForEach(tile_kept, [&](int k, int index)
                      { d_values_out[kept_before + OffsetT(k)] = d_values_in[tile_offset + OffsetT(index)]; });
    }

    if (tile.IsLast() && threadIdx.x == 0)
    {
      *d_num_selected_out = kept_before + OffsetT(tile_kept);
    }
  }
};

STRATA_NAMESPACE_END

// strata/agent/agent_scan.cuh: AgentScanPolicy and AgentScan, one thread block's tiles of a
// single-pass prefix scan (decoupled look-back), as the DeviceScan kernel uses them.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The tuning of AgentScan, with CUB's parameters first: a tuning for 4-byte accumulators (threads
//! per block, items per thread) that ScalingType turns into BLOCK_THREADS and ITEMS_PER_THREAD for
//! ComputeT, the cache operator of the loads, and the load, store and scan algorithms, which
//! strata's agent records but does not read (its tile I/O and tile scan are ScanTileRows). Then
//! strata's own knobs: how the look-back waits (detail::LookbackPolicy, in the place of CUB's
//! delay constructor), the blocks per SM the kernel's registers must allow (its
//! __launch_bounds__; 1 leaves the compiler free), and how far ahead of its own tile, in bytes of
//! input, each block has L2 prefetch a later tile (sm_90 and later; 0: none).
template <
    int NOMINAL_BLOCK_THREADS_4B, int NOMINAL_ITEMS_PER_THREAD_4B, typename ComputeT,
    BlockLoadAlgorithm _LOAD_ALGORITHM, CacheLoadModifier _LOAD_MODIFIER, BlockStoreAlgorithm _STORE_ALGORITHM,
    BlockScanAlgorithm _SCAN_ALGORITHM,
    typename ScalingType      = detail::NominalScaling<NOMINAL_BLOCK_THREADS_4B, NOMINAL_ITEMS_PER_THREAD_4B, ComputeT>,
    typename _LookbackPolicyT = detail::DefaultLookbackPolicy, int _MIN_BLOCKS_PER_SM = 1, int _PREFETCH_BYTES = 0>
struct AgentScanPolicy : ScalingType
{
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM   = _LOAD_ALGORITHM;
  static constexpr CacheLoadModifier LOAD_MODIFIER     = _LOAD_MODIFIER;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = _STORE_ALGORITHM;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM   = _SCAN_ALGORITHM;
  using LookbackPolicyT                                = _LookbackPolicyT;
  static constexpr int MIN_BLOCKS_PER_SM               = _MIN_BLOCKS_PER_SM;
  static constexpr int PREFETCH_BYTES                  = _PREFETCH_BYTES;
};

namespace detail
{
namespace scan
{
//! AgentScanPolicy as strata's tunings write it: CUB's usual warp-transposing load and store and
//! warp-scans algorithm in the places the agent does not read, the default scaling.
template <int NOMINAL_BLOCK_THREADS_4B, int NOMINAL_ITEMS_PER_THREAD_4B, typename ComputeT,
          CacheLoadModifier LOAD_MODIFIER, typename LookbackPolicyT = DefaultLookbackPolicy, int MIN_BLOCKS_PER_SM = 1,
          int PREFETCH_BYTES = 0>
using tuning_policy_t =
    AgentScanPolicy<NOMINAL_BLOCK_THREADS_4B, NOMINAL_ITEMS_PER_THREAD_4B, ComputeT, BLOCK_LOAD_WARP_TRANSPOSE,
                    LOAD_MODIFIER, BLOCK_STORE_WARP_TRANSPOSE, BLOCK_SCAN_WARP_SCANS,
                    NominalScaling<NOMINAL_BLOCK_THREADS_4B, NOMINAL_ITEMS_PER_THREAD_4B, ComputeT>, LookbackPolicyT,
                    MIN_BLOCKS_PER_SM, PREFETCH_BYTES>;
} // namespace scan
} // namespace detail

//! One thread block's part of a device-wide scan of num_items items: it takes tiles of
//! BLOCK_THREADS * ITEMS_PER_THREAD items from a global counter (in launch order, so that every
//! tile it waits for belongs to a block that is running), scans each in registers (ScanTileRows),
//! finds the tile's prefix by decoupled look-back and stores the result.
//!
//! - InitValueT: NullType (an inclusive scan without initial value) or a value convertible to
//!   AccumT through `*init` (detail::InputValue, for immediate and future values).
//! - FORCE_INCLUSIVE: an inclusive scan that starts from the initial value.
//! The initial value enters the scan once, through tile 0's inclusive prefix.
template <typename AgentScanPolicyT, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT,
          typename InitValueT, typename OffsetT, typename AccumT, bool FORCE_INCLUSIVE = false>
class AgentScan
{
  static constexpr bool HAS_INIT     = !::cuda::std::is_same_v<InitValueT, NullType>;
  static constexpr bool IS_INCLUSIVE = FORCE_INCLUSIVE || !HAS_INIT;

  // Rows folded: a tile waiting for its look-back holds its items and one prefix per thread, and
  // warp 0 parks its items in shared memory while it looks back, so that 8-byte scans of 256 x 16
  // items fit 4 blocks per SM without spills (docs/tuning.md).
  using RowsT = detail::tile::ScanTileRows<
      AgentScanPolicyT, AccumT,
      detail::tile::VectorItems<AgentScanPolicyT::ITEMS_PER_THREAD, 16, InputIteratorT, OutputIteratorT>(),
      detail::tile::RowPrefixes::FOLD, detail::tile::LookbackItems::PARKED>;

public:
  using TileStateT = ScanTileState<AccumT>;
  using PrefixOpT  = TilePrefixCallbackOp<AccumT, ScanOpT, TileStateT, typename AgentScanPolicyT::LookbackPolicyT>;

  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;

private:
  //! The L2 prefetch distance in tiles.
  static constexpr int PREFETCH_TILES = detail::tile::PrefetchTiles(
      AgentScanPolicyT::PREFETCH_BYTES, TILE_ITEMS* int(sizeof(detail::it_value_t<InputIteratorT>)));

  struct _TempStorage
  {
    typename RowsT::TempStorage rows;
    AccumT tile_prefix; // from warp 0's look-back to the block
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentScan(TempStorage& temp_storage, InputIteratorT d_in, OutputIteratorT d_out,
                                             ScanOpT scan_op, InitValueT init_value, OffsetT num_items)
      : temp_storage(temp_storage.Alias())
      , d_in(d_in)
      , d_out(d_out)
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
    RowsT rows(temp_storage.rows);
    ConsumeTile(rows, rows.NextTile(num_tiles, d_tile_counter), num_tiles, tile_state);
  }

private:
  _TempStorage& temp_storage;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ScanOpT scan_op;
  InitValueT init_value;
  OffsetT num_items;

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(RowsT& rows, int tile, int num_tiles, TileStateT& tile_state)
  {
    const OffsetT tile_offset = OffsetT(tile) * OffsetT(TILE_ITEMS);
    const int valid           = detail::tile::ValidItems<TILE_ITEMS>(num_items, tile_offset);

    // L2 fetches a tile some way ahead, so that its loads hit L2 when a block takes it.
    detail::tile::PrefetchAhead<PREFETCH_TILES, TILE_ITEMS, OffsetT>(tile, num_tiles, d_in);
    AccumT items[RowsT::ITEMS_PER_THREAD];
    rows.Load(d_in, tile_offset, valid, items);
    // Each thread's items become their scan within the warp's part of the tile.
    typename RowsT::Prefixes prefixes;
    const AccumT block_aggregate = rows.template ScanTile<IS_INCLUSIVE>(items, prefixes, scan_op);

    // The tile's prefix: the initial value for tile 0, the look-back's result after it. Warp 0
    // publishes and looks back while the other warps wait at the barrier.
    detail::tile::TilePrefixOptions<AccumT> options;
    if constexpr (HAS_INIT)
    {
      if (tile == 0)
      {
        options.initial     = AccumT(*init_value);
        options.has_initial = true;
      }
    }
    const AccumT tile_prefix = rows.template TilePrefix<PrefixOpT>(items, temp_storage.tile_prefix, tile_state, scan_op,
                                                                   tile, num_tiles, block_aggregate, options);

    const bool has_tile_prefix = HAS_INIT || tile > 0;
    rows.template Finish<IS_INCLUSIVE>(items, prefixes, tile_prefix, has_tile_prefix, scan_op);
    rows.Store(d_out, tile_offset, valid, items);
  }
};

STRATA_NAMESPACE_END

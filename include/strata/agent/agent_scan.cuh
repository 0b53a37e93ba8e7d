// strata/agent/agent_scan.cuh: AgentScanPolicy and AgentScan, one thread block's tiles of a
// single-pass prefix scan (decoupled look-back), as the DeviceScan kernel uses them.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_single_pass.cuh>
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

//! One thread block's part of a device-wide scan of num_items items: in the single-pass skeleton
//! (detail::single_pass::Skeleton) it takes a tile of BLOCK_THREADS * ITEMS_PER_THREAD items,
//! scans it in registers (ScanTileRows), finds the tile's prefix by decoupled look-back and stores
//! the result.
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

private:
  using SkeletonT = detail::single_pass::Skeleton<RowsT, AccumT, TileStateT, PrefixOpT, OffsetT>;
  using TileT     = typename SkeletonT::TileT;

public:
  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;
  using TempStorage               = typename SkeletonT::TempStorage;

private:
  //! The L2 prefetch distance in tiles.
  static constexpr int PREFETCH_TILES = detail::tile::PrefetchTiles(
      AgentScanPolicyT::PREFETCH_BYTES, TILE_ITEMS* int(sizeof(detail::it_value_t<InputIteratorT>)));

public:
  STRATA_DEVICE STRATA_FORCEINLINE AgentScan(TempStorage& temp_storage, InputIteratorT d_in, OutputIteratorT d_out,
                                             ScanOpT scan_op, InitValueT init_value, OffsetT num_items)
      : temp_storage(temp_storage)
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
    SkeletonT::ConsumeRange(temp_storage, num_items, num_tiles, tile_state, d_tile_counter,
                            [this](TileT& tile) { ConsumeTile(tile); });
  }

private:
  TempStorage& temp_storage;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ScanOpT scan_op;
  InitValueT init_value;
  OffsetT num_items;

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(TileT& tile)
  {
    // L2 fetches a tile some way ahead, so that its loads hit L2 when a block takes it.
    tile.template PrefetchAhead<PREFETCH_TILES>(d_in);
    AccumT items[RowsT::ITEMS_PER_THREAD];
    tile.Load(d_in, items);
    // Each thread's items become their scan within the warp's part of the tile.
    typename RowsT::Prefixes prefixes;
    const AccumT block_aggregate = tile.rows.template ScanTile<IS_INCLUSIVE>(items, prefixes, scan_op);

    // The tile's prefix: the initial value for tile 0, the look-back's result after it. Warp 0
    // publishes and looks back while the other warps wait at the barrier.
    detail::tile::TilePrefixOptions<AccumT> options;
    if constexpr (HAS_INIT)
    {
      if (tile.IsFirst())
      {
        options.initial     = AccumT(*init_value);
        options.has_initial = true;
      }
    }
    const AccumT tile_prefix = tile.Prefix(items, scan_op, block_aggregate, options);

    const bool has_tile_prefix = HAS_INIT || !tile.IsFirst();
    tile.rows.template Finish<IS_INCLUSIVE>(items, prefixes, tile_prefix, has_tile_prefix, scan_op);
    tile.Store(d_out, items);
  }
};

STRATA_NAMESPACE_END

// strata/agent/agent_radix_sort_single_tile.cuh: AgentRadixSortSingleTile, DeviceRadixSort of
// inputs that fit one tile: one block loads the keys (blocked), sorts them with BlockRadixSort and
// stores them (striped), values alike.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Sorts the `valid` keys (at most a tile of PolicyT) by bits [begin_bit, end_bit), values with
//! them (none where ValueT is NullType); DecomposerT takes user key types apart.
template <typename PolicyT, bool IS_DESCENDING, typename KeyT, typename ValueT, typename DecomposerT>
struct AgentRadixSortSingleTile
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr bool KEYS_ONLY       = ::cuda::std::is_same_v<ValueT, NullType>;
  static constexpr bool IDENTITY        = ::cuda::std::is_same_v<DecomposerT, detail::identity_decomposer_t>;
  using SortT       = BlockRadixSort<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, ValueT, PolicyT::RADIX_BITS>;
  using BlockedT    = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, 1, 1>;
  using StripedT    = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD>;
  using TempStorage = typename SortT::TempStorage;

  TempStorage& temp_storage;

  STRATA_DEVICE STRATA_FORCEINLINE explicit AgentRadixSortSingleTile(TempStorage& temp_storage)
      : temp_storage(temp_storage)
  {
  }

  template <typename ValuesInputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Process(const KeyT* d_keys_in, KeyT* d_keys_out,
                                                ValuesInputIteratorT d_values_in, ValueT* d_values_out, int valid,
                                                int begin_bit, int end_bit, DecomposerT decomposer)
  {
    const int tid = int(threadIdx.x);
    // Missing items sort last: the key whose bits are all ones (all zeros, descending) once ordered.
    const KeyT filler = ::cuda::std::bit_cast<KeyT>(RadixSortTwiddle<IS_DESCENDING, KeyT>::DefaultKey(decomposer));
    KeyT keys[ITEMS_PER_THREAD];
    BlockedT::LoadPartial(d_keys_in, tid, valid, keys, filler);
    ValueT values[ITEMS_PER_THREAD];
    if constexpr (!KEYS_ONLY)
    {
      BlockedT::LoadPartial(d_values_in, tid, valid, values);
    }

    SortT sort(temp_storage);
    if constexpr (KEYS_ONLY && IDENTITY)
    {
      IS_DESCENDING ? sort.SortDescendingBlockedToStriped(keys, begin_bit, end_bit)
                    : sort.SortBlockedToStriped(keys, begin_bit, end_bit);
    }
    else if constexpr (KEYS_ONLY)
    {
      IS_DESCENDING ? sort.SortDescendingBlockedToStriped(keys, decomposer, begin_bit, end_bit)
                    : sort.SortBlockedToStriped(keys, decomposer, begin_bit, end_bit);
    }
    else if constexpr (IDENTITY)
    {
      IS_DESCENDING ? sort.SortDescendingBlockedToStriped(keys, values, begin_bit, end_bit)
                    : sort.SortBlockedToStriped(keys, values, begin_bit, end_bit);
    }
    else
    {
      IS_DESCENDING ? sort.SortDescendingBlockedToStriped(keys, values, decomposer, begin_bit, end_bit)
                    : sort.SortBlockedToStriped(keys, values, decomposer, begin_bit, end_bit);
    }

    StripedT::StorePartial(d_keys_out, tid, valid, keys);
    if constexpr (!KEYS_ONLY)
    {
      StripedT::StorePartial(d_values_out, tid, valid, values);
    }
  }
};

STRATA_NAMESPACE_END

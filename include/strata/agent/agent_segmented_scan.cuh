// strata/agent/agent_segmented_scan.cuh: AgentSegmentedScan, one thread block's tiles of a
// segmented scan laid out as one line: the segments' items one after another, in segment order, a
// scan that restarts at every segment's first item. The line's length is known on the device only
// (the scan of the segments' lengths writes it), so the tiles' descriptors are a ring reused round
// after round (RoundTileState).
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_single_pass.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/tile/tile_search.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_scan
{
//! What a segmented scan writes: each item's inclusive result, the initial value combined with
//! everything before the item in its segment (exclusive), or the initial value combined with
//! everything up to it (inclusive with an initial value).
enum class mode
{
  inclusive,
  exclusive,
  inclusive_init
};

//! The descriptors of a single pass whose tile count only the device knows: a ring of `capacity`
//! slots, tile t in slot t % capacity during round t / capacity. A descriptor's status word holds
//! its round beside its kind, and a slot whose round is not the tile's reads as unpublished, so
//! the ring needs no reset between rounds. Tiles of a round publish only once every tile of the
//! round before has finished (WaitForRound, after the tiles count themselves with Finished), so
//! no slot is reused while a look-back may read it. Nothing reads a round's last tile in the ring:
//! its inclusive value goes to a carry slot, and tiles of the next round see every earlier tile as
//! that carry (`reader_round`, which the agent sets per tile, says which round reads).
//!
//! Host side: the dispatch carves Slots() out of the temporary storage; device side: a first
//! kernel clears the slots the call's tiles use and the counters (Clear), as one launch per call.
template <typename T>
class RoundTileState
{
  static constexpr int WORD_BYTES = detail::scan_tile::word_bytes_v<T>;
  static_assert(WORD_BYTES > 0,
                "DeviceSegmentedScan's accumulator must be trivially copyable and fit one 16-byte word with a "
                "32-bit status (at most 12 bytes, aligned to at most 8)");
  using DescriptorT                                = detail::scan_tile::Descriptor<T, WORD_BYTES>;
  using WordT                                      = detail::scan_tile::word_t<WORD_BYTES>;
  static constexpr int WORD_STRIDE                 = detail::scan_tile::descriptor_spacing_bytes / int(sizeof(WordT));
  static constexpr ::cuda::std::uint32_t PARTIAL   = 1;
  static constexpr ::cuda::std::uint32_t INCLUSIVE = 2;

public:
  using WordType   = WordT;
  using StatusWord = ::cuda::std::uint32_t; // as ScanTileState's (TilePrefixCallbackOp names it)

  WordT* d_ring            = nullptr; // capacity descriptors, WORD_STRIDE words apart
  WordT* d_carries         = nullptr; // two descriptors (by round parity), WORD_STRIDE apart
  unsigned int* d_finished = nullptr; // tiles finished, by round parity (counted up)
  int capacity             = 1;
  int reader_round         = 0; // the round of the tile whose look-back reads

  //! The words the ring, the carries and the counters take (for the dispatch's slots).
  STRATA_HOST_DEVICE static size_t RingWords(int capacity_)
  {
    return size_t(capacity_) * WORD_STRIDE;
  }
  STRATA_HOST_DEVICE static constexpr size_t CarryWords()
  {
    return 2 * WORD_STRIDE;
  }

  //! Thread i of the clearing kernel: ring slot i (below `used`), and with i = 0 the carries and
  //! the counters.
  STRATA_DEVICE STRATA_FORCEINLINE void Clear(int i, int used) const
  {
    if (i < used)
    {
      detail::StoreRelaxed(d_ring + size_t(i) * WORD_STRIDE, WordT{});
    }
    if (i == 0)
    {
      detail::StoreRelaxed(d_carries, WordT{});
      detail::StoreRelaxed(d_carries + WORD_STRIDE, WordT{});
      d_finished[0] = 0;
      d_finished[1] = 0;
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE int RoundOf(int tile) const
  {
    return tile / capacity;
  }

  template <MemoryOrder ORDER = MemoryOrder::relaxed>
  STRATA_DEVICE STRATA_FORCEINLINE void SetPartial(int tile, T aggregate)
  {
    if (!IsRoundEnd(tile))
    {
      Store(d_ring + size_t(tile % capacity) * WORD_STRIDE, RoundOf(tile), PARTIAL, aggregate);
    }
  }

  template <MemoryOrder ORDER = MemoryOrder::relaxed>
  STRATA_DEVICE STRATA_FORCEINLINE void SetInclusive(int tile, T inclusive_prefix)
  {
    if (IsRoundEnd(tile))
    {
      const int next = RoundOf(tile) + 1;
      Store(d_carries + (next & 1) * WORD_STRIDE, next, INCLUSIVE, inclusive_prefix);
    }
    else
    {
      Store(d_ring + size_t(tile % capacity) * WORD_STRIDE, RoundOf(tile), INCLUSIVE, inclusive_prefix);
    }
  }

  //! Reads descriptor `tile` once, as a tile of round `reader_round` sees it.
  STRATA_DEVICE STRATA_FORCEINLINE void Load(int tile, ScanTileStatus& status, T& value) const
  {
    const int first = reader_round * capacity; // the reader's round's first tile
    if (tile < first - 1)
    {
      // Behind the carry, which ends every walk that reaches it: never combined.
      status = SCAN_TILE_INCLUSIVE;
      value  = T{};
      return;
    }
    const bool carry                     = tile == first - 1;
    const DescriptorT descriptor         = ::cuda::std::bit_cast<DescriptorT>(detail::LoadRelaxed(
                carry ? d_carries + (reader_round & 1) * WORD_STRIDE : d_ring + size_t(tile % capacity) * WORD_STRIDE));
    const ::cuda::std::uint32_t expected = ::cuda::std::uint32_t(carry ? reader_round : RoundOf(tile));
    const ::cuda::std::uint32_t kind     = descriptor.status & 3u;
    status                               = (descriptor.status >> 2) != expected || kind == 0 ? SCAN_TILE_INVALID
                                           : kind == INCLUSIVE                               ? SCAN_TILE_INCLUSIVE
                                                                                             : SCAN_TILE_PARTIAL;
    value                                = descriptor.value;
  }

  //! Thread 0 of a block about to work on tile `tile`: where the tile is not in the first round,
  //! waits until every tile of the round before has finished (a finished round stays finished, so
  //! `known` keeps the last round this block saw finished and skips the wait).
  STRATA_DEVICE STRATA_FORCEINLINE void WaitForRound(int tile, int& known) const
  {
    const int previous = RoundOf(tile) - 1;
    if (previous < 0 || previous <= known)
    {
      return;
    }
    // Rounds of one parity finish in order, each adding `capacity` to its counter.
    // At most 2^31 tiles in all: a parity's count stays below 2^32.
    const unsigned int target = unsigned(previous / 2 + 1) * unsigned(capacity);
    // Bounded as a look-back's waits: a round that never finishes (a fault) ends the wait, not the
    // kernel.
    detail::scan_tile::WaitBound<detail::scan_tile::wait_limit_ms> bound;
    while (detail::LoadAcquire(d_finished + (previous & 1)) < target && !bound.Reached())
    {
      __nanosleep(64);
    }
    known = previous;
  }

  //! Thread 0 of a block once tile `tile` has published its inclusive value and read nothing more
  //! of the ring.
  STRATA_DEVICE STRATA_FORCEINLINE void Finished(int tile) const
  {
    __threadfence(); // the tile's reads and writes of the ring come before its count
    atomicAdd(d_finished + (RoundOf(tile) & 1), 1u);
  }

private:
  //! Whether `tile` is the last of its round (its inclusive value is the next round's carry).
  STRATA_DEVICE STRATA_FORCEINLINE bool IsRoundEnd(int tile) const
  {
    return tile % capacity == capacity - 1;
  }

  STRATA_DEVICE STRATA_FORCEINLINE static void Store(WordT* word, int round, ::cuda::std::uint32_t kind, const T& value)
  {
    DescriptorT descriptor{};
    descriptor.value  = value;
    descriptor.status = (::cuda::std::uint32_t(round) << 2) | kind;
    detail::StoreRelaxed(word, ::cuda::std::bit_cast<WordT>(descriptor));
  }
};
} // namespace segmented_scan
} // namespace detail

//! The tuning of AgentSegmentedScan: detail::single_pass::PassPolicy's parameters (CUB's, then
//! strata's); blocks take tiles until the line runs out (Pipeline::PERSISTENT), since the launch
//! cannot know how many there are.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, CacheLoadModifier _LOAD_MODIFIER = LOAD_DEFAULT,
          typename _LookbackPolicyT = detail::DefaultLookbackPolicy, int _MIN_BLOCKS_PER_SM = 1>
struct AgentSegmentedScanPolicy
    : detail::single_pass::PassPolicy<_BLOCK_THREADS, _ITEMS_PER_THREAD, BLOCK_LOAD_DIRECT, _LOAD_MODIFIER,
                                      BLOCK_SCAN_WARP_SCANS, _LookbackPolicyT, _MIN_BLOCKS_PER_SM, 0,
                                      detail::single_pass::Pipeline::PERSISTENT>
{
};

//! One thread block's part of a segmented scan. Segment s holds d_in[begin_s, end_s) (empty where
//! end_s <= begin_s) and writes d_out[out_begin_s, + its length); `d_line` (the exclusive scan of
//! the lengths, num_segments + 1 entries) places segment s at [d_line[s], d_line[s + 1]) of the
//! line. A tile of the line finds its first and last segments by warp searches of d_line, each
//! thread the segment of each of its vectors by a bisection between them; the items are read and
//! written at their segments' offsets, and scanned as (segment head, value) pairs with
//! ScanBySegmentOp, as AgentScanByKey does (a tile holding a head publishes its value as inclusive
//! at once; one that starts a segment needs no look-back).
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename OutBeginOffsetIteratorT, typename ScanOpT, typename InitValueT, typename AccumT,
          detail::segmented_scan::mode MODE>
class AgentSegmentedScan
{
  using LineT                        = ::cuda::std::uint64_t;
  using PairT                        = KeyValuePair<unsigned int, AccumT>; // (a head is among the items, running value)
  using PairOpT                      = detail::ScanBySegmentOp<ScanOpT>;
  static constexpr bool IS_INCLUSIVE = MODE != detail::segmented_scan::mode::exclusive;
  using RowsT                        = detail::tile::ScanTileRows<PolicyT, PairT, 1, detail::tile::RowPrefixes::KEEP,
                                           detail::tile::LookbackItems::IN_REGISTERS>;
  static constexpr int ITEMS_PER_THREAD = RowsT::ITEMS_PER_THREAD;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread's segment heads are the bits of one word");

public:
  using TileStateT = detail::segmented_scan::RoundTileState<AccumT>;
  using PrefixOpT  = TilePrefixCallbackOp<AccumT, ScanOpT, TileStateT, typename PolicyT::LookbackPolicyT>;
  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;

private:
  struct BodyStorage
  {
    ::cuda::std::int64_t first_segment; // the segments holding the tile's first and last items
    ::cuda::std::int64_t last_segment;
    int finished_round; // the last round thread 0 saw finished (RoundTileState::WaitForRound)
  };
  using SkeletonT = detail::single_pass::Skeleton<RowsT, AccumT, TileStateT, PrefixOpT, LineT, BodyStorage,
                                                  detail::single_pass::Pipeline::PERSISTENT>;
  using TileT     = typename SkeletonT::TileT;

public:
  using TempStorage = typename SkeletonT::TempStorage;

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedScan(TempStorage& temp_storage, InputIteratorT d_in,
                                                      OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                                                      OutBeginOffsetIteratorT d_out_begin_offsets, const LineT* d_line,
                                                      ::cuda::std::int64_t num_segments, ScanOpT scan_op,
                                                      InitValueT init_value)
      : temp_storage(temp_storage)
      , d_in(d_in)
      , d_out(d_out)
      , d_begin_offsets(d_begin_offsets)
      , d_out_begin_offsets(d_out_begin_offsets)
      , d_line(d_line)
      , num_segments(num_segments)
      , scan_op(scan_op)
      , init_value(init_value)
  {
  }

  //! Takes tiles from `*d_tile_counter` until the line (d_line[num_segments] items) runs out.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeLine(TileStateT tile_state, unsigned int* d_tile_counter)
  {
    const LineT line_items = d_line[num_segments];
    const LineT tiles      = (line_items + LineT(TILE_ITEMS) - 1) / LineT(TILE_ITEMS);
    const int num_tiles    = tiles < LineT(0x7FFFFFFF) ? int(tiles) : 0x7FFFFFFF;
    if (threadIdx.x == 0)
    {
      temp_storage.Alias().body.finished_round = -1;
    }
    // The skeleton's first barrier (before the first tile) orders that write before its reads.
    SkeletonT::ConsumeRange(temp_storage, line_items, num_tiles, tile_state, d_tile_counter,
                            [&](TileT& tile) { ConsumeTile(tile, num_tiles); });
  }

private:
  TempStorage& temp_storage;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  BeginOffsetIteratorT d_begin_offsets;
  OutBeginOffsetIteratorT d_out_begin_offsets;
  const LineT* d_line;
  ::cuda::std::int64_t num_segments;
  ScanOpT scan_op;
  InitValueT init_value;

  //! The last segment in [low, high] that starts at or before `point` on the line.
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::int64_t SegmentOf(LineT point, ::cuda::std::int64_t low,
                                                                  ::cuda::std::int64_t high) const
  {
    while (low < high)
    {
      const ::cuda::std::int64_t middle = low + (high - low + 1) / 2;
      if (d_line[middle] <= point)
      {
        low = middle;
      }
      else
      {
        high = middle - 1;
      }
    }
    return low;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(TileT& tile, int num_tiles)
  {
    RowsT& rows                  = tile.rows;
    BodyStorage& storage         = temp_storage.Alias().body;
    const LineT first            = tile.offset;
    const LineT last             = tile.offset + LineT(tile.valid) - 1;
    const int warp               = int(threadIdx.x) / detail::warp_threads;
    const int lane               = int(threadIdx.x) % detail::warp_threads;
    tile.tile_state.reader_round = tile.tile_state.RoundOf(tile.index);
    if (warp == 0)
    {
      const ::cuda::std::int64_t s = detail::tile::WarpFindSpan(d_line, num_segments, first, lane);
      if (lane == 0)
      {
        storage.first_segment = s;
        // Before this tile publishes anything: the round before has finished with the ring.
        if (num_tiles > tile.tile_state.capacity)
        {
          int known = storage.finished_round;
          tile.tile_state.WaitForRound(tile.index, known);
          storage.finished_round = known;
        }
      }
    }
    else if (warp == 1 || PolicyT::BLOCK_THREADS <= detail::warp_threads)
    {
      const ::cuda::std::int64_t s = detail::tile::WarpFindSpan(d_line, num_segments, last, lane);
      if (lane == 0)
      {
        storage.last_segment = s;
      }
    }
    if constexpr (PolicyT::BLOCK_THREADS <= detail::warp_threads)
    {
      const ::cuda::std::int64_t s = detail::tile::WarpFindSpan(d_line, num_segments, last, lane);
      if (lane == 0)
      {
        storage.last_segment = s;
      }
    }
    __syncthreads();
    const ::cuda::std::int64_t first_segment = storage.first_segment;
    const ::cuda::std::int64_t last_segment  = storage.last_segment;

    // Each item's value, whether it starts its segment, and where its result goes.
    PairT items[ITEMS_PER_THREAD];
    ::cuda::std::int64_t out_delta[ITEMS_PER_THREAD]; // output index minus line position
    unsigned int heads = 0;
    {
      ::cuda::std::int64_t segment  = first_segment;
      LineT start                   = d_line[segment];
      LineT end                     = d_line[segment + 1];
      ::cuda::std::int64_t in_delta = ::cuda::std::int64_t(d_begin_offsets[segment]) - ::cuda::std::int64_t(start);
      ::cuda::std::int64_t to_out   = ::cuda::std::int64_t(d_out_begin_offsets[segment]) - ::cuda::std::int64_t(start);
      AccumT filler{}; // padding past the line's end: any valid value of the thread
      bool have_filler = false;
#pragma unroll
      for (int r = 0; r < RowsT::ROWS; ++r)
      {
#pragma unroll
        for (int j = 0; j < RowsT::VEC; ++j)
        {
          const int k       = r * RowsT::VEC + j;
          const LineT point = first + LineT(rows.ItemIndex(r, j));
          out_delta[k]      = 0;
          if (point <= last)
          {
            if (point < start || point >= end)
            {
              segment  = SegmentOf(point, point < start ? first_segment : segment, last_segment);
              start    = d_line[segment];
              end      = d_line[segment + 1];
              in_delta = ::cuda::std::int64_t(d_begin_offsets[segment]) - ::cuda::std::int64_t(start);
              to_out   = ::cuda::std::int64_t(d_out_begin_offsets[segment]) - ::cuda::std::int64_t(start);
            }
            items[k].value = AccumT(d_in[::cuda::std::int64_t(point) + in_delta]);
            items[k].key   = point == start ? 1u : 0u;
            heads |= (point == start ? 1u : 0u) << k;
            out_delta[k] = to_out;
            if (!have_filler)
            {
              filler      = items[k].value;
              have_filler = true;
            }
          }
        }
      }
#pragma unroll
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        if (first + LineT(rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC)) > last)
        {
          items[k] = PairT(1u, filler); // after every valid item: changes no valid result
        }
      }
    }
    // Whether the tile's first item starts its segment: it is a head exactly when it sits at its
    // segment's start on the line.
    const bool tile_starts_segment = tile.IsFirst() || d_line[first_segment] == first;

    PairOpT pair_op(scan_op);
    typename RowsT::Prefixes prefixes;
    const PairT aggregate = rows.template ScanTile<IS_INCLUSIVE>(items, prefixes, pair_op);
    detail::tile::TilePrefixOptions<AccumT> options;
    options.aggregate_is_inclusive = aggregate.key != 0;
    options.needs_prefix           = !tile_starts_segment;
    const AccumT tile_prefix       = tile.Prefix(items, scan_op, aggregate.value, options);
    if (threadIdx.x == 0 && num_tiles > tile.tile_state.capacity)
    {
      tile.tile_state.Finished(tile.index);
    }
    rows.template Finish<IS_INCLUSIVE>(items, prefixes, PairT(0u, tile_prefix), !tile_starts_segment, pair_op);

#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const LineT point = first + LineT(rows.ItemIndex(k / RowsT::VEC, k % RowsT::VEC));
      if (point <= last)
      {
        AccumT result;
        if constexpr (MODE == detail::segmented_scan::mode::inclusive)
        {
          result = items[k].value;
        }
        else if constexpr (MODE == detail::segmented_scan::mode::exclusive)
        {
          const AccumT init = AccumT(init_value);
          result            = (heads >> k) & 1u ? init : AccumT(scan_op(init, items[k].value));
        }
        else
        {
          result = AccumT(scan_op(AccumT(init_value), items[k].value));
        }
        d_out[::cuda::std::int64_t(point) + out_delta[k]] = result;
      }
    }
  }
};

STRATA_NAMESPACE_END

// strata/block/block_algorithms.cuh: the enums that name the block collectives' algorithms
// (BlockLoadAlgorithm, BlockStoreAlgorithm, BlockScanAlgorithm, BlockReduceAlgorithm,
// BlockHistogramAlgorithm, RadixRankAlgorithm, WarpMatchAlgorithm), for tuning policies that name
// an algorithm without instantiating its collective. Each collective's own header includes this.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

//! How BlockLoad reads a tile of BLOCK_THREADS * ITEMS_PER_THREAD items. Every algorithm but
//! BLOCK_LOAD_STRIPED leaves the items blocked: thread t holds tile positions
//! t * ITEMS_PER_THREAD + i.
enum BlockLoadAlgorithm
{
  //! Each thread reads its own consecutive items: uncoalesced unless items are few; no shared memory.
  BLOCK_LOAD_DIRECT,
  //! Items striped (thread t holds positions i * BLOCK_THREADS + t), read directly: coalesced, no
  //! shared memory.
  BLOCK_LOAD_STRIPED,
  //! As BLOCK_LOAD_DIRECT, but in vector words (one 16-byte load for 4 ints) when the input is a
  //! pointer or a CacheModifiedInputIterator to T aligned to the word and the load is not
  //! guarded; otherwise item by item (see LoadDirectBlockedVectorized).
  BLOCK_LOAD_VECTORIZE,
  //! Read striped (coalesced), then transposed to blocked through shared memory by BlockExchange.
  BLOCK_LOAD_TRANSPOSE,
  //! Read warp-striped (coalesced within each warp), then transposed by each warp in its own
  //! part of the shared memory (only __syncwarp). Needs a multiple of 32 threads.
  BLOCK_LOAD_WARP_TRANSPOSE,
  //! As BLOCK_LOAD_WARP_TRANSPOSE, with one warp's worth of shared memory that the warps use in
  //! turn (a barrier per warp). Needs a multiple of 32 threads.
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

//! How BlockStore writes a tile of BLOCK_THREADS * ITEMS_PER_THREAD items. Every algorithm but
//! BLOCK_STORE_STRIPED takes the items blocked: thread t holds tile positions
//! t * ITEMS_PER_THREAD + i.
enum BlockStoreAlgorithm
{
  //! Each thread writes its own consecutive items: uncoalesced unless items are few; no shared memory.
  BLOCK_STORE_DIRECT,
  //! Items striped (thread t holds positions i * BLOCK_THREADS + t), written directly: coalesced,
  //! no shared memory.
  BLOCK_STORE_STRIPED,
  //! As BLOCK_STORE_DIRECT, but in vector words (one 16-byte store for 4 ints) when the output is
  //! a pointer to T aligned to the word and the store is not guarded; otherwise item by item (see
  //! StoreDirectBlockedVectorized).
  BLOCK_STORE_VECTORIZE,
  //! Transposed to striped through shared memory by BlockExchange, then written striped (coalesced).
  BLOCK_STORE_TRANSPOSE,
  //! Transposed to warp-striped by each warp in its own part of the shared memory (only
  //! __syncwarp), then written warp-striped (coalesced within each warp). Needs a multiple of 32
  //! threads.
  BLOCK_STORE_WARP_TRANSPOSE,
  //! As BLOCK_STORE_WARP_TRANSPOSE, with one warp's worth of shared memory that the warps use in
  //! turn (a barrier per warp). Needs a multiple of 32 threads.
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

//! The algorithms BlockScan can use.
enum BlockScanAlgorithm
{
  //! Raking reduce-then-scan: one warp reduces segments of a shared-memory grid holding one value
  //! per thread, scans the segment reductions, then scans its segments again. Few instructions
  //! in total, so high throughput when the GPU is busy; two barriers.
  BLOCK_SCAN_RAKING,
  //! As BLOCK_SCAN_RAKING, but the raking threads keep their segment in registers between the two
  //! passes: fewer shared-memory reads, more registers.
  BLOCK_SCAN_RAKING_MEMOIZE,
  //! Tiled warp scans: every warp scans its own values, then every thread adds the aggregates of
  //! the warps before its own. Fewer dependent steps (lower latency) but more instructions. Needs
  //! a block of whole warps; BlockScan uses BLOCK_SCAN_RAKING for any other block size.
  BLOCK_SCAN_WARP_SCANS,
};

//! The algorithms BlockReduce can use (values as in CUB).
enum BlockReduceAlgorithm
{
  //! Warp 0 rakes the other warps' partials onto its own, then reduces within the warp. The
  //! fewest operations and one barrier; the operator must be commutative. Blocks whose size is
  //! not a multiple of 32, or of one warp, use BLOCK_REDUCE_RAKING.
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  //! Every thread stores its partial in a padded raking grid, one warp rakes it in order and
  //! reduces within the warp. One barrier; keeps the order of the items, so any associative
  //! operator works.
  BLOCK_REDUCE_RAKING,
  //! Every warp reduces its own partials, then warp 0 reduces the warps' aggregates. One barrier,
  //! the shortest latency, and the order of the items is kept, so any associative operator
  //! works. The default.
  BLOCK_REDUCE_WARP_REDUCTIONS,
};

//! How BlockHistogram counts.
enum BlockHistogramAlgorithm
{
  //! Sort the tile's bins with a block-wide radix sort, then count each bin as the length of its
  //! run in the sorted tile. Takes the same time whatever the distribution of the samples; every
  //! bin is updated by one thread without atomics.
  BLOCK_HISTO_SORT,
  //! Add every sample to its bin with an atomic increment. Fast for samples spread over many
  //! bins, slower when many samples of a warp hit the same bin.
  BLOCK_HISTO_ATOMIC,
};

//! The ranking algorithms, as tuning policies name them.
enum RadixRankAlgorithm
{
  RADIX_RANK_BASIC,                       //!< BlockRadixRank, outer scan from shared memory
  RADIX_RANK_MEMOIZE,                     //!< BlockRadixRank, outer scan kept in registers
  RADIX_RANK_MATCH,                       //!< BlockRadixRankMatch
  RADIX_RANK_MATCH_EARLY_COUNTS_ANY,      //!< BlockRadixRankMatchEarlyCounts with WARP_MATCH_ANY
  RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR //!< BlockRadixRankMatchEarlyCounts with WARP_MATCH_ATOMIC_OR
};

//! How BlockRadixRankMatchEarlyCounts finds the lanes of a warp that share a digit.
enum WarpMatchAlgorithm
{
  WARP_MATCH_ANY,      //!< lanes of equal digits found by MatchAny (one ballot per digit bit)
  WARP_MATCH_ATOMIC_OR //!< every lane ORs its bit into a shared-memory mask of its digit
};

STRATA_NAMESPACE_END

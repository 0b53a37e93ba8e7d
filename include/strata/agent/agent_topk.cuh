// strata/agent/agent_topk.cuh: the radix selection of DeviceTopK. Items are ordered by their key's
// bits (as DeviceRadixSort orders them; inverted to take the smallest) and then by their index,
// the earlier first, so every item has a distinct rank and the k best form one set whatever the
// order the blocks run in. Each pass decides one digit of the k-th best item's rank from the top:
// AgentTopK counts the digit among the items that match the digits decided so far and emits those
// a decided digit puts above the k-th; AgentTopKSelectDigit picks the next digit from the counts.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The passes of DeviceTopK: BLOCK_THREADS threads of ITEMS_PER_THREAD keys, digits of RADIX_BITS
//! bits (the counts of a digit fit the shared memory of one block).
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD, int _RADIX_BITS>
struct AgentTopKPolicy
{
  static constexpr int BLOCK_THREADS    = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = _ITEMS_PER_THREAD;
  static constexpr int RADIX_BITS       = _RADIX_BITS;
};

namespace detail
{
namespace topk
{
//! Which end of the order DeviceTopK takes.
enum class select
{
  min,
  max
};

//! The bits that order keys for the selection, the better key the larger: a key's bits as
//! DeviceRadixSort orders them (inverted for the Min forms), or, for a user's key type, the bits of
//! the members its decomposer returns, each so ordered and packed with the first member the most
//! significant. `Out` turns the bits back into the key.
template <select SELECT, typename KeyT, typename DecomposerT>
struct RankBits
{
  using MembersT = decltype(::cuda::std::declval<DecomposerT&>()(::cuda::std::declval<KeyT&>()));
  template <::cuda::std::size_t... Is>
  static constexpr int MemberBits(::cuda::std::index_sequence<Is...>)
  {
    return (0 + ... + int(sizeof(::cuda::std::remove_reference_t<::cuda::std::tuple_element_t<Is, MembersT>>) * 8));
  }
  static constexpr int BITS = MemberBits(::cuda::std::make_index_sequence<::cuda::std::tuple_size<MembersT>::value>{});
  static_assert(BITS <= 128, "the members a decomposer returns have at most 128 bits together");
  using type                 = ::cuda::std::conditional_t<BITS <= 32, ::cuda::std::uint32_t,
                                          ::cuda::std::conditional_t<BITS <= 64, ::cuda::std::uint64_t, __uint128_t>>;
  static constexpr type MASK = BITS == int(sizeof(type) * 8) ? type(~type(0)) : type((type(1) << BITS) - 1);

  STRATA_HOST_DEVICE STRATA_FORCEINLINE static type In(KeyT key, DecomposerT decomposer)
  {
    type bits  = 0;
    int offset = 0;
    radix::ForEachMember(decomposer, key,
                         [&](auto& member)
                         {
                           using MemberT = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(member)>>;
                           using UnsignedBits = typename Traits<MemberT>::UnsignedBits;
                           bits |= type(Traits<MemberT>::TwiddleIn(::cuda::std::bit_cast<UnsignedBits>(member)))
                                   << offset;
                           offset += int(sizeof(MemberT) * 8);
                         });
    return SELECT == select::min ? type(~bits & MASK) : bits;
  }

  STRATA_HOST_DEVICE STRATA_FORCEINLINE static KeyT Out(type bits, DecomposerT decomposer)
  {
    bits       = SELECT == select::min ? type(~bits & MASK) : bits;
    KeyT key   = {};
    int offset = 0;
    radix::ForEachMember(decomposer, key,
                         [&](auto& member)
                         {
                           using MemberT = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(member)>>;
                           using UnsignedBits = typename Traits<MemberT>::UnsignedBits;
                           member             = ::cuda::std::bit_cast<MemberT>(
                               UnsignedBits(Traits<MemberT>::TwiddleOut(UnsignedBits(bits >> offset))));
                           offset += int(sizeof(MemberT) * 8);
                         });
    return key;
  }
};

//! Arithmetic keys (and __half, bf16, fp8): their own bits, as DeviceRadixSort orders them.
template <select SELECT, typename KeyT>
struct RankBits<SELECT, KeyT, identity_decomposer_t>
{
  using type                = typename radix::traits_t<KeyT>::bit_ordered_type;
  using TwiddleT            = RadixSortTwiddle<SELECT == select::min, KeyT>;
  static constexpr int BITS = int(sizeof(type) * 8);

  STRATA_HOST_DEVICE STRATA_FORCEINLINE static type In(const KeyT& key, identity_decomposer_t)
  {
    return TwiddleT::In(::cuda::std::bit_cast<type>(key));
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE static KeyT Out(type bits, identity_decomposer_t)
  {
    return ::cuda::std::bit_cast<KeyT>(TwiddleT::Out(bits));
  }
};

//! Whether DecomposerT decomposes KeyT (a user's key type) for the decomposer forms.
template <typename KeyT, typename DecomposerT, typename = void>
inline constexpr bool is_key_decomposer_v = false;
template <typename KeyT, typename DecomposerT>
inline constexpr bool is_key_decomposer_v<
    KeyT, DecomposerT,
    ::cuda::std::void_t<decltype(::cuda::std::declval<DecomposerT&>()(::cuda::std::declval<KeyT&>()))>> =
    !is_radix_fundamental_v<KeyT>;

//! An item as the selection sees it: its key's bits ordered so that the better key is the larger,
//! and its index inverted (`~index`), so that the earlier item is the larger too.
template <typename UnsignedBitsT, typename OffsetT>
struct Candidate
{
  UnsignedBitsT key;
  OffsetT inverted_index;
};

//! Orders candidates for DeviceRadixSort: the key's bits, then the inverted index.
struct CandidateDecomposer
{
  template <typename UnsignedBitsT, typename OffsetT>
  STRATA_HOST_DEVICE ::cuda::std::tuple<UnsignedBitsT&, OffsetT&>
  operator()(Candidate<UnsignedBitsT, OffsetT>& candidate) const
  {
    return {candidate.key, candidate.inverted_index};
  }
};

//! Orders candidates the better first: the larger key bits, then the larger inverted index (the
//! earlier item).
struct Better
{
  template <typename UnsignedBitsT, typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator()(const Candidate<UnsignedBitsT, OffsetT>& a,
                                                        const Candidate<UnsignedBitsT, OffsetT>& b) const
  {
    return a.key > b.key || (a.key == b.key && a.inverted_index > b.inverted_index);
  }
};

//! The rank in a sample of `samples` of `num_items` items whose key is a filter's threshold: the
//! sample's share of the k winners plus four standard deviations and four, so that at least k
//! items are at or above it unless the sample is very unlucky. Also returns how many items that
//! keeps, as expected (`kept`).
template <typename FloatT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE FloatT ThresholdRank(FloatT k, FloatT samples, FloatT num_items, FloatT& kept)
{
  const FloatT share = k * samples / num_items;
  // The CUDA math library's ::ceil and ::sqrt take float and double on host and device alike,
  // without <cuda/std/cmath>, which would add about 5% to every umbrella include's compile time.
  const FloatT rank = ::ceil(share + FloatT(4) * ::sqrt(share) + FloatT(4));
  kept              = rank * num_items / samples;
  return rank;
}

//! The digits of the k-th best rank decided so far: the bits under each mask are known.
template <typename UnsignedBitsT, typename OffsetT>
struct RankPrefix
{
  UnsignedBitsT key;
  UnsignedBitsT key_mask;
  OffsetT index;
  OffsetT index_mask;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool Matches(UnsignedBitsT k, OffsetT inverted_index) const
  {
    return (k & key_mask) == key && (inverted_index & index_mask) == index;
  }
};

//! One digit of the rank: `bits` bits at `shift` of the key (part 0) or of the inverted index.
struct RankDigit
{
  int part;
  int shift;
  int bits;

  template <typename UnsignedBitsT, typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t Of(UnsignedBitsT key, OffsetT inverted_index) const
  {
    const ::cuda::std::uint32_t mask = (1u << bits) - 1u;
    return part == 0 ? ::cuda::std::uint32_t(key >> shift) & mask
                     : ::cuda::std::uint32_t(inverted_index >> shift) & mask;
  }
};

//! Where the candidates of a pass are read: the input, or one of two buffers in temporary storage.
enum : int
{
  SOURCE_INPUT   = 0,
  SOURCE_BUFFER0 = 1,
  SOURCE_BUFFER1 = 2
};

//! The selection's state between its kernels, in temporary storage; all zeros at the start.
template <typename UnsignedBitsT, typename OffsetT>
struct State
{
  RankPrefix<UnsignedBitsT, OffsetT> prefix; //!< digits decided, the last selected one included
  RankPrefix<UnsignedBitsT, OffsetT> before; //!< digits decided before the last selected one
  OffsetT taken;                             //!< items of a rank above `prefix`'s (emitted or to emit)
  OffsetT emitted;                           //!< winners written so far
  OffsetT buffered[2];                       //!< candidates written to each buffer
  int source;                                //!< where the next pass reads (SOURCE_*)
  int fill;                                  //!< whether the next pass writes its candidates to a buffer
  int done;                                  //!< every item that matches `prefix` is a winner
  int finished;                              //!< every winner is written
  UnsignedBitsT threshold;                   //!< the sampled rank below which no item is a candidate
  unsigned int blocks_done;                  //!< blocks of the filter pass that have ended
};

//! Adds `count` to a 4- or 8-byte counter in global memory; returns the old value.
template <typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE OffsetT AtomicAddOffset(OffsetT* counter, OffsetT count)
{
  static_assert(sizeof(OffsetT) == 4 || sizeof(OffsetT) == 8, "offsets of 4 or 8 bytes");
  if constexpr (sizeof(OffsetT) == 8)
  {
    return OffsetT(atomicAdd(reinterpret_cast<unsigned long long*>(counter), static_cast<unsigned long long>(count)));
  }
  else
  {
    return OffsetT(atomicAdd(reinterpret_cast<unsigned int*>(counter), static_cast<unsigned int>(count)));
  }
}

//! A copy of `*p` read from L2, bypassing L1 (4-byte words): what other blocks of the running grid
//! wrote before they ended, whatever this block read of it earlier.
template <typename T>
STRATA_DEVICE STRATA_FORCEINLINE T LoadFromL2(const T* p)
{
  static_assert(sizeof(T) % 4 == 0 && alignof(T) >= 4, "whole 4-byte words");
  union
  {
    T value;
    unsigned int words[sizeof(T) / 4];
  } copy;
  const unsigned int* source = reinterpret_cast<const unsigned int*>(p);
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 4); ++i)
  {
    copy.words[i] = __ldcg(source + i);
  }
  return copy.value;
}

//! Appends a tile's items for which `flags` hold to `d_out` at positions taken from `*counter`,
//! one atomic per tile with any such item; positions from `capacity` on are counted, not written.
//! Every thread of the block calls it (it synchronizes the block).
template <int BLOCK_THREADS, typename OffsetT>
struct BlockAppend
{
  using ScanT = BlockScan<int, BLOCK_THREADS>;
  struct TempStorage
  {
    typename ScanT::TempStorage scan;
    OffsetT base;
  };

  template <int ITEMS, typename ItemT>
  STRATA_DEVICE STRATA_FORCEINLINE static void Append(TempStorage& storage, const bool (&flags)[ITEMS],
                                                      const ItemT (&items)[ITEMS], OffsetT* counter, ItemT* d_out,
                                                      OffsetT capacity)
  {
    int count = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
    {
      count += flags[i] ? 1 : 0;
    }
    if (!__syncthreads_or(count))
    {
      return;
    }
    int offset = 0;
    int total  = 0;
    ScanT(storage.scan).ExclusiveSum(count, offset, total);
    if (threadIdx.x == 0)
    {
      storage.base = AtomicAddOffset(counter, OffsetT(total));
    }
    __syncthreads();
    OffsetT position = storage.base + OffsetT(offset);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
    {
      if (flags[i])
      {
        if (position < capacity)
        {
          d_out[position] = items[i];
        }
        ++position;
      }
    }
  }
};
} // namespace topk
} // namespace detail

//! One pass of DeviceTopK over the candidates (the input's keys, or a buffer of candidates an
//! earlier pass wrote): for the digit the previous pass decided, it emits the candidates whose
//! digit is above the chosen one (or all that match the decided digits, once they are exactly the
//! winners left); for the digit `digit`, it counts the candidates that match every decided digit
//! into `d_bins` and, where the state says they fit, writes them to the other buffer. The filter
//! pass (Filter) comes first where a sample gave a threshold: it keeps the input's items at or
//! above it in buffer 0, and the passes then read those alone.
template <typename PolicyT, detail::topk::select SELECT, typename KeyInputIteratorT, typename KeyT, typename OffsetT,
          typename DecomposerT = detail::identity_decomposer_t>
struct AgentTopK
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int RADIX_DIGITS     = 1 << PolicyT::RADIX_BITS;

  using RankBitsT        = detail::topk::RankBits<SELECT, KeyT, DecomposerT>;
  using bit_ordered_type = typename RankBitsT::type;
  using CandidateT       = detail::topk::Candidate<bit_ordered_type, OffsetT>;
  using StateT           = detail::topk::State<bit_ordered_type, OffsetT>;
  static constexpr int VEC =
      detail::tile::VectorItems<ITEMS_PER_THREAD, detail::tile::max_vector_bytes, KeyInputIteratorT>();
  using InputIoT  = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD, VEC>;
  using BufferIoT = detail::tile::TileIo<BLOCK_THREADS, ITEMS_PER_THREAD>;

  using BlockAppendT = detail::topk::BlockAppend<BLOCK_THREADS, OffsetT>;

  struct TempStorage
  {
    ::cuda::std::uint32_t bins[RADIX_DIGITS];
    typename BlockAppendT::TempStorage append;
    bool last_block;
  };

  TempStorage& storage;
  KeyInputIteratorT d_keys_in;
  OffsetT num_items;
  OffsetT k;
  OffsetT capacity; // of each buffer
  StateT state;     // as the kernel found it: no block changes it but through its counters
  OffsetT* d_bins;
  CandidateT* d_buffers[2];
  CandidateT* d_winners;
  StateT* d_state;
  DecomposerT decomposer;

  STRATA_DEVICE STRATA_FORCEINLINE AgentTopK(TempStorage& storage, KeyInputIteratorT d_keys_in, OffsetT num_items,
                                             OffsetT k, OffsetT capacity, const StateT& state, StateT* d_state,
                                             OffsetT* d_bins, CandidateT* d_buffer0, CandidateT* d_buffer1,
                                             CandidateT* d_winners, DecomposerT decomposer)
      : storage(storage)
      , d_keys_in(d_keys_in)
      , num_items(num_items)
      , k(k)
      , capacity(capacity)
      , state(state)
      , d_bins(d_bins)
      , d_buffers{d_buffer0, d_buffer1}
      , d_winners(d_winners)
      , d_state(d_state)
      , decomposer(decomposer)
  {
  }

  //! Emits (`emit`), counts and buffers (`count`) the candidates of one thread's items (`valid`:
  //! whether each is one). The flags are the same in the whole block: one copy of the code serves
  //! every pass, where a copy per combination tripled the kernel's compile time.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeItems(const CandidateT (&items)[ITEMS_PER_THREAD],
                                                     const bool (&valid)[ITEMS_PER_THREAD], bool emit, bool count,
                                                     detail::topk::RankDigit previous, detail::topk::RankDigit digit)
  {
    const ::cuda::std::uint32_t chosen = previous.Of(state.prefix.key, state.prefix.index);
    const int fill_buffer              = state.source == detail::topk::SOURCE_BUFFER0 ? 1 : 0;
    ::cuda::std::uint32_t run_digit    = 0;
    ::cuda::std::uint32_t run          = 0;
    bool emit_flags[ITEMS_PER_THREAD];
    bool fill_flags[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const CandidateT& c = items[i];
      const bool matches  = valid[i] && state.prefix.Matches(c.key, c.inverted_index);
      emit_flags[i]       = emit
                      && ((valid[i] && state.before.Matches(c.key, c.inverted_index)
                           && previous.Of(c.key, c.inverted_index) > chosen)
                          || (state.done && matches));
      fill_flags[i] = count && state.fill && matches;
      if (count)
      {
        if (matches)
        {
          // A run of equal digits among the thread's candidates is counted with one atomic.
          const ::cuda::std::uint32_t d = digit.Of(c.key, c.inverted_index);
          if (d != run_digit && run != 0)
          {
            atomicAdd(&storage.bins[run_digit], run);
            run = 0;
          }
          run_digit = d;
          ++run;
        }
      }
    }
    if (count && run != 0)
    {
      atomicAdd(&storage.bins[run_digit], run);
    }
    if (emit)
    {
      BlockAppendT::Append(storage.append, emit_flags, items, &d_state->emitted, d_winners, k);
    }
    if (count)
    {
      if (state.fill)
      {
        BlockAppendT::Append(storage.append, fill_flags, items, &d_state->buffered[fill_buffer], d_buffers[fill_buffer],
                             capacity);
      }
    }
  }

  //! Calls `consume(items, valid)` for this block's share of the candidates (`source`: the input,
  //! or buffer 0 or 1): tiles `blockIdx.x`, `blockIdx.x + gridDim.x`, ...
  template <typename ConsumeT>
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTiles(int source, ConsumeT consume)
  {
    const int tid = int(threadIdx.x);
    if (source == detail::topk::SOURCE_INPUT)
    {
      const bool vectors = InputIoT::VectorAligned(d_keys_in);
      for (OffsetT tile = OffsetT(blockIdx.x) * TILE_ITEMS; tile < num_items; tile += OffsetT(gridDim.x) * TILE_ITEMS)
      {
        const int valid_items = detail::tile::ValidItems<TILE_ITEMS>(num_items, tile);
        KeyT keys[ITEMS_PER_THREAD];
        if (valid_items == TILE_ITEMS)
        {
          InputIoT::LoadFull(d_keys_in + tile, tid, vectors, keys);
        }
        else
        {
          InputIoT::LoadPartial(d_keys_in + tile, tid, valid_items, keys);
        }
        CandidateT items[ITEMS_PER_THREAD];
        bool valid[ITEMS_PER_THREAD];
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          const int index         = InputIoT::ItemIndex(tid, i);
          valid[i]                = index < valid_items;
          items[i].key            = RankBitsT::In(keys[i], decomposer);
          items[i].inverted_index = OffsetT(~(tile + OffsetT(index)));
        }
        consume(items, valid);
      }
    }
    else
    {
      const int buffer           = source == detail::topk::SOURCE_BUFFER0 ? 0 : 1;
      const OffsetT count        = state.buffered[buffer];
      const CandidateT* d_source = d_buffers[buffer];
      for (OffsetT tile = OffsetT(blockIdx.x) * TILE_ITEMS; tile < count; tile += OffsetT(gridDim.x) * TILE_ITEMS)
      {
        const int valid_items = detail::tile::ValidItems<TILE_ITEMS>(count, tile);
        CandidateT items[ITEMS_PER_THREAD];
        BufferIoT::LoadPartial(d_source + tile, tid, valid_items, items, CandidateT{});
        bool valid[ITEMS_PER_THREAD];
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          valid[i] = BufferIoT::ItemIndex(tid, i) < valid_items;
        }
        consume(items, valid);
      }
    }
  }

  //! The pass: `emit` for the digit `previous` (every pass but the first), `count` for `digit`
  //! (every pass but the last).
  STRATA_DEVICE STRATA_FORCEINLINE void Process(bool emit, detail::topk::RankDigit previous, bool count,
                                                detail::topk::RankDigit digit)
  {
    if (state.finished)
    {
      return;
    }
    count = count && !state.done;
    if (count)
    {
      for (int i = int(threadIdx.x); i < RADIX_DIGITS; i += BLOCK_THREADS)
      {
        storage.bins[i] = 0;
      }
      __syncthreads();
    }
    if (emit || count)
    {
      ConsumeTiles(state.source, [&](const CandidateT(&items)[ITEMS_PER_THREAD], const bool(&valid)[ITEMS_PER_THREAD])
                   { ConsumeItems(items, valid, emit, count, previous, digit); });
    }
    if (count)
    {
      __syncthreads();
      for (int i = int(threadIdx.x); i < RADIX_DIGITS; i += BLOCK_THREADS)
      {
        if (storage.bins[i] != 0)
        {
          detail::topk::AtomicAddOffset(d_bins + i, OffsetT(storage.bins[i]));
        }
      }
    }
  }

  //! Whether this block is the last of the grid to end (every block calls it once, at its end):
  //! the writes and atomics of every other block are then visible to it.
  STRATA_DEVICE STRATA_FORCEINLINE bool LastBlock()
  {
    __threadfence(); // this thread's appends and counts are done before its block counts as ended
    __syncthreads();
    if (threadIdx.x == 0)
    {
      storage.last_block = atomicAdd(&d_state->blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (storage.last_block)
    {
      __threadfence();
    }
    return storage.last_block;
  }

  //! The filter pass: appends the input's items whose rank's key bits are at least the sampled
  //! threshold to buffer 0 (counting those past its capacity). The last block to end decides where
  //! the passes read: buffer 0 where it holds at least k items and all that it counted, else the
  //! input (the sample misled, or ties at the threshold are too many).
  STRATA_DEVICE STRATA_FORCEINLINE void Filter()
  {
    const bit_ordered_type threshold = state.threshold;
    ConsumeTiles(detail::topk::SOURCE_INPUT,
                 [&](const CandidateT(&items)[ITEMS_PER_THREAD], const bool(&valid)[ITEMS_PER_THREAD])
                 {
                   bool keep[ITEMS_PER_THREAD];
#pragma unroll
                   for (int i = 0; i < ITEMS_PER_THREAD; ++i)
                   {
                     keep[i] = valid[i] && items[i].key >= threshold;
                   }
                   BlockAppendT::Append(storage.append, keep, items, &d_state->buffered[0], d_buffers[0], capacity);
                 });
    if (LastBlock() && threadIdx.x == 0)
    {
      const OffsetT kept   = detail::topk::AtomicAddOffset(&d_state->buffered[0], OffsetT(0));
      const bool use_kept  = kept >= k && kept <= capacity;
      d_state->source      = use_kept ? detail::topk::SOURCE_BUFFER0 : detail::topk::SOURCE_INPUT;
      d_state->buffered[0] = use_kept ? kept : OffsetT(0);
      d_state->blocks_done = 0; // for the passes' own last blocks
    }
  }
};

//! The sample of DeviceTopK's filter pass (one block): SAMPLE_CHUNKS runs of 32 consecutive keys
//! spread evenly over the input, and the `rank`-th best of them (by their rank's key bits), found
//! by a radix selection in shared memory. Items at or above it are the candidates: where the
//! sample holds `rank` items of the best k * SAMPLE / n expected, at least k of the input are.
template <int BLOCK_THREADS, int SAMPLE_CHUNKS, detail::topk::select SELECT, typename KeyInputIteratorT, typename KeyT,
          typename OffsetT, typename DecomposerT = detail::identity_decomposer_t>
struct AgentTopKSample
{
  static constexpr int SAMPLES      = SAMPLE_CHUNKS * 32;
  static constexpr int RADIX_BITS   = 8;
  static constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
  static_assert(BLOCK_THREADS == RADIX_DIGITS, "one thread per digit of the selection");
  using RankBitsT        = detail::topk::RankBits<SELECT, KeyT, DecomposerT>;
  using bit_ordered_type = typename RankBitsT::type;
  using StateT           = detail::topk::State<bit_ordered_type, OffsetT>;
  using BlockScanT       = BlockScan<int, BLOCK_THREADS>;

  struct TempStorage
  {
    bit_ordered_type samples[SAMPLES];
    int bins[RADIX_DIGITS];
    typename BlockScanT::TempStorage scan;
    bit_ordered_type prefix;
    int wanted;
  };

  TempStorage& storage;

  STRATA_DEVICE STRATA_FORCEINLINE explicit AgentTopKSample(TempStorage& storage)
      : storage(storage)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Process(KeyInputIteratorT d_keys_in, OffsetT num_items, int rank,
                                                StateT* d_state, DecomposerT decomposer)
  {
    const int tid  = int(threadIdx.x);
    const int lane = tid % 32;
    // Each warp loads its runs at once (one memory latency), then stores them.
    constexpr int WARPS         = BLOCK_THREADS / 32;
    constexpr int RUNS_PER_WARP = SAMPLE_CHUNKS / WARPS;
    static_assert(SAMPLE_CHUNKS % WARPS == 0, "the runs spread evenly over the warps");
    KeyT keys[RUNS_PER_WARP];
#pragma unroll
    for (int j = 0; j < RUNS_PER_WARP; ++j)
    {
      const int chunk     = tid / 32 + j * WARPS;
      const OffsetT first = OffsetT(::cuda::std::uint64_t(num_items - 32) * ::cuda::std::uint64_t(chunk)
                                    / ::cuda::std::uint64_t(SAMPLE_CHUNKS - 1));
      keys[j]             = d_keys_in[first + OffsetT(lane)];
    }
#pragma unroll
    for (int j = 0; j < RUNS_PER_WARP; ++j)
    {
      storage.samples[(tid / 32 + j * WARPS) * 32 + lane] = RankBitsT::In(keys[j], decomposer);
    }
    if (tid == 0)
    {
      storage.prefix = 0;
      storage.wanted = rank;
    }
    bit_ordered_type mask = 0;
    for (int shift = RankBitsT::BITS - RADIX_BITS; shift >= 0; shift -= RADIX_BITS)
    {
      storage.bins[tid] = 0;
      __syncthreads();
      const bit_ordered_type prefix = storage.prefix;
      for (int i = tid; i < SAMPLES; i += BLOCK_THREADS)
      {
        const bit_ordered_type u = storage.samples[i];
        if ((u & mask) == prefix)
        {
          atomicAdd(&storage.bins[int(u >> shift) & (RADIX_DIGITS - 1)], 1);
        }
      }
      __syncthreads();
      // Thread t holds the digit RADIX_DIGITS - 1 - t: the counts above it are the exclusive sum.
      const int digit = RADIX_DIGITS - 1 - tid;
      const int count = storage.bins[digit];
      int above       = 0;
      BlockScanT(storage.scan).ExclusiveSum(count, above);
      const int wanted = storage.wanted;
      __syncthreads();
      if (above < wanted && wanted <= above + count)
      {
        storage.prefix = bit_ordered_type(prefix | (bit_ordered_type(digit) << shift));
        storage.wanted = wanted - above;
      }
      mask = bit_ordered_type(mask | (bit_ordered_type(RADIX_DIGITS - 1) << shift));
      __syncthreads();
    }
    if (tid == 0)
    {
      d_state->threshold = storage.prefix;
    }
  }
};

//! Picks the digit of the k-th best rank from a pass's counts (one block): the digit d where the
//! candidates of higher digits are fewer than the winners still to find and those of d and higher
//! are not. Updates the state for the next pass and clears the counts.
template <int BLOCK_THREADS, int RADIX_BITS, typename UnsignedBitsT, typename OffsetT>
struct AgentTopKSelectDigit
{
  static constexpr int RADIX_DIGITS      = 1 << RADIX_BITS;
  static constexpr int DIGITS_PER_THREAD = RADIX_DIGITS / BLOCK_THREADS;
  static_assert(RADIX_DIGITS % BLOCK_THREADS == 0, "the digits spread evenly over the threads");
  using BlockScanT = BlockScan<OffsetT, BLOCK_THREADS>;
  using StateT     = detail::topk::State<UnsignedBitsT, OffsetT>;

  struct TempStorage
  {
    typename BlockScanT::TempStorage scan;
    ::cuda::std::uint32_t chosen;
    OffsetT above;
  };

  TempStorage& storage;

  STRATA_DEVICE STRATA_FORCEINLINE explicit AgentTopKSelectDigit(TempStorage& storage)
      : storage(storage)
  {
  }

  //! Runs in the last block of a pass, after every other block has ended: the state and the counts
  //! are read from L2 (this block's L1 may hold the state as the pass found it).
  STRATA_DEVICE STRATA_FORCEINLINE void Process(StateT* d_state, OffsetT* d_bins, OffsetT k, OffsetT buffer_capacity,
                                                detail::topk::RankDigit digit)
  {
    const int tid = int(threadIdx.x);
    StateT state  = detail::topk::LoadFromL2(d_state);
    if (state.finished)
    {
      return;
    }
    if (state.done)
    {
      // The pass just ended wrote every winner left.
      if (tid == 0)
      {
        d_state->finished = 1;
      }
      return;
    }
    // Thread t holds the digits RADIX_DIGITS - 1 - t * DIGITS_PER_THREAD downwards.
    OffsetT counts[DIGITS_PER_THREAD];
    OffsetT total = 0;
#pragma unroll
    for (int i = 0; i < DIGITS_PER_THREAD; ++i)
    {
      counts[i] = detail::topk::LoadFromL2(d_bins + (RADIX_DIGITS - 1 - (tid * DIGITS_PER_THREAD + i)));
      total += counts[i];
    }
    OffsetT above = 0;
    BlockScanT(storage.scan).ExclusiveSum(total, above);
    const OffsetT wanted = k - state.taken;
#pragma unroll
    for (int i = 0; i < DIGITS_PER_THREAD; ++i)
    {
      if (above < wanted && wanted <= above + counts[i])
      {
        storage.chosen = ::cuda::std::uint32_t(RADIX_DIGITS - 1 - (tid * DIGITS_PER_THREAD + i));
        storage.above  = above;
      }
      above += counts[i];
    }
    __syncthreads();
    const ::cuda::std::uint32_t chosen = storage.chosen;
    if (tid == 0)
    {
      const OffsetT matching = detail::topk::LoadFromL2(d_bins + chosen);
      state.before           = state.prefix;
      if (digit.part == 0)
      {
        state.prefix.key |= UnsignedBitsT(UnsignedBitsT(chosen) << digit.shift);
        state.prefix.key_mask |= UnsignedBitsT(UnsignedBitsT((1u << digit.bits) - 1u) << digit.shift);
      }
      else
      {
        state.prefix.index |= OffsetT(OffsetT(chosen) << digit.shift);
        state.prefix.index_mask |= OffsetT(OffsetT((1u << digit.bits) - 1u) << digit.shift);
      }
      state.taken += storage.above;
      state.done = matching == k - state.taken;
      // The pass just ended filled a buffer if the state asked it to: the next reads that one.
      if (state.fill)
      {
        state.source =
            state.source == detail::topk::SOURCE_BUFFER0 ? detail::topk::SOURCE_BUFFER1 : detail::topk::SOURCE_BUFFER0;
      }
      state.fill = !state.done && matching <= buffer_capacity;
      if (state.fill)
      {
        state.buffered[state.source == detail::topk::SOURCE_BUFFER0 ? 1 : 0] = 0;
      }
      *d_state = state;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < DIGITS_PER_THREAD; ++i)
    {
      d_bins[tid * DIGITS_PER_THREAD + i] = 0;
    }
  }
};

//! Sorts at most BLOCK_THREADS * ITEMS_PER_THREAD winners in one block, best first (the earlier
//! item first among equal keys), and writes their keys and, for pairs, their values.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, detail::topk::select SELECT, typename KeyT, typename OffsetT,
          typename KeyOutputIteratorT, typename ValueInputIteratorT, typename ValueOutputIteratorT,
          typename DecomposerT = detail::identity_decomposer_t>
struct AgentTopKSortWrite
{
  using RankBitsT                 = detail::topk::RankBits<SELECT, KeyT, DecomposerT>;
  using CandidateT                = detail::topk::Candidate<typename RankBitsT::type, OffsetT>;
  using SortT                     = BlockMergeSort<CandidateT, BLOCK_THREADS, ITEMS_PER_THREAD>;
  using TempStorage               = typename SortT::TempStorage;
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueOutputIteratorT, NullType*>;

  STRATA_DEVICE STRATA_FORCEINLINE static void Process(TempStorage& storage, const CandidateT* d_winners, int k,
                                                       KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,
                                                       ValueOutputIteratorT d_values_out, DecomposerT decomposer)
  {
    const int tid = int(threadIdx.x);
    // Loaded striped; the slots past k hold zeros, below every winner (no item's inverted index is 0).
    CandidateT items[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int index = i * BLOCK_THREADS + tid;
      items[i]        = index < k ? d_winners[index] : CandidateT{};
    }
    SortT(storage).Sort(items, detail::topk::Better{});
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int index = tid * ITEMS_PER_THREAD + i;
      if (index < k)
      {
        d_keys_out[index] = RankBitsT::Out(items[i].key, decomposer);
        if constexpr (!KEYS_ONLY)
        {
          d_values_out[index] = d_values_in[OffsetT(~items[i].inverted_index)];
        }
      }
    }
  }
};

//! Writes the sorted winners: item i's key (its bits turned back) to `d_keys_out[i]` and, for
//! pairs, the value of its input index to `d_values_out[i]`.
template <detail::topk::select SELECT, typename KeyT, typename OffsetT, typename KeyOutputIteratorT,
          typename ValueInputIteratorT, typename ValueOutputIteratorT,
          typename DecomposerT = detail::identity_decomposer_t>
struct AgentTopKWrite
{
  using RankBitsT                 = detail::topk::RankBits<SELECT, KeyT, DecomposerT>;
  using CandidateT                = detail::topk::Candidate<typename RankBitsT::type, OffsetT>;
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueOutputIteratorT, NullType*>;

  STRATA_DEVICE STRATA_FORCEINLINE static void Process(const CandidateT* d_winners, OffsetT k,
                                                       KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,
                                                       ValueOutputIteratorT d_values_out, DecomposerT decomposer)
  {
    for (OffsetT i = OffsetT(blockIdx.x) * blockDim.x + threadIdx.x; i < k; i += OffsetT(gridDim.x) * blockDim.x)
    {
      const CandidateT winner = d_winners[i];
      d_keys_out[i]           = RankBitsT::Out(winner.key, decomposer);
      if constexpr (!KEYS_ONLY)
      {
        d_values_out[i] = d_values_in[OffsetT(~winner.inverted_index)];
      }
    }
  }
};

STRATA_NAMESPACE_END

// strata/agent/single_pass_scan_operators.cuh: the tile-status machinery of every single-pass
// algorithm (decoupled look-back): ScanTileState, the per-tile descriptors in device memory, and
// TilePrefixCallbackOp, the warp-wide look-back that turns them into a tile's exclusive prefix.
//
// How a single pass works: tiles are numbered in the order blocks take them from a global counter.
// A tile reduces its items, publishes that aggregate (PARTIAL), then one warp reads the
// descriptors of the 32 tiles before it at once: it combines the aggregates from the nearest
// INCLUSIVE predecessor (a running prefix) onwards, or, finding none, all 32 and moves its window
// down. The tile then publishes its own inclusive prefix (INCLUSIVE), which ends the walk of the
// tiles behind it.
//
// Memory orders: a descriptor whose value and status fit one 8- or 16-byte word is written and
// read whole with relaxed, device-scope accesses; a reader that sees the status also sees the
// value in the same word, so no fence is needed. Wider values keep value and status apart: the
// value is stored before the status with release semantics and read after an acquire.
//
// Faults: descriptors that are not this launch's (temporary storage overwritten or shared by two
// concurrent calls, left by an earlier call, corrupted) must not hang a look-back. A walk ends at
// tile 0 whatever its status says, and every wait for an unpublished descriptor is bounded
// (WaitBound: a generous time during which the waiting thread ran). A descriptor still
// unpublished at the bound reads as SCAN_TILE_INCLUSIVE with a value-initialized value: the walk
// ends there as at tile 0, with nothing from that tile or before it. The answer is then wrong,
// but the call returns and the CUDA context stays usable.
#pragma once

#include <strata/config.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

//! The state of one tile's descriptor, as in CUB.
enum ScanTileStatus
{
  SCAN_TILE_OOB,          //!< out of bounds (no such tile)
  SCAN_TILE_INVALID = 99, //!< not yet published
  SCAN_TILE_PARTIAL,      //!< the tile's aggregate is published
  SCAN_TILE_INCLUSIVE     //!< the tile's inclusive prefix is published
};

//! The memory order of descriptor accesses, as CUB names it. strata's descriptors are consistent
//! under either: one word holds value and status, or the status is released after its value and
//! acquired before it; ScanTileState accepts the order and needs no other.
enum class MemoryOrder
{
  relaxed,        //!< relaxed loads and stores of the status
  acquire_release //!< acquiring loads and releasing stores of the status
};

namespace detail
{
namespace scan_tile
{
//! A value and its status in one word of WORD_BYTES.
template <typename T, int WORD_BYTES>
struct alignas(WORD_BYTES) Descriptor
{
  T value;
  ::cuda::std::uint32_t status;
};

//! The bytes of a descriptor holding T: 8 or 16, or 0 when value and status do not fit one word
//! (or T cannot be copied as bits).
template <typename T>
constexpr int WordBytes()
{
  // if constexpr: a Descriptor of a T aligned to more than its word is never instantiated.
  if constexpr (!::cuda::std::is_trivially_copyable_v<T> || alignof(T) > 8)
  {
    return 0;
  }
  else if constexpr (sizeof(Descriptor<T, 8>) == 8)
  {
    return 8;
  }
  else
  {
    return sizeof(Descriptor<T, 16>) == 16 ? 16 : 0;
  }
}
template <typename T>
inline constexpr int word_bytes_v = WordBytes<T>();

template <int WORD_BYTES>
using word_t = ::cuda::std::conditional_t<WORD_BYTES == 8, ::cuda::std::uint64_t, detail::Word128>;

//! The bytes between two descriptors: one 32-byte sector each. Packed densely, the descriptors
//! that every look-back polls share a few L2 lines, and the L2 slices holding them become the
//! bottleneck (docs/tuning.md).
inline constexpr int descriptor_spacing_bytes = 32;

//! The default bound of a wait for a descriptor (WaitBound), in ticks of 2^20 ns (1.05 ms) during
//! which the waiting thread ran and saw the descriptor unpublished: about 10.5 s. A legitimate
//! wait is for a running block to publish its tile's aggregate, microseconds normally and
//! milliseconds under compute-sanitizer's racecheck; the bound only ends waits for descriptors
//! that nothing will publish.
inline constexpr unsigned int wait_limit_ms = 10000;

//! The low 32 bits of %globaltimer (nanoseconds).
STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t GlobalTimerLow()
{
  ::cuda::std::uint32_t value;
  asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(value));
  return value;
}

//! The bound of one wait for descriptors, in one register: Reached() is called after every read
//! that found a descriptor unpublished and says whether to give up. It looks at %globaltimer only
//! every 32nd call (the first 31 reads of any wait cost one add) and counts the ticks of 2^20 ns
//! it sees begin; a pause of the whole GPU (a debugger stop, another context's time slice) is one
//! tick however long it lasts, and nothing counts while the thread does not run. After LIMIT_MS
//! ticks it answers true, and from then on at every call. With WARP, all 32 lanes of a warp call
//! it together and share lane 0's clock, so that they agree.
template <unsigned int LIMIT_MS, bool WARP = false>
class WaitBound
{
  // State: bits 27-31 count the calls since the clock was last read (their carry falls off the
  // word); bits 8-26 hold 1 + the ticks seen (0: the clock not read yet); bits 0-7 the tick last
  // seen, mod 256 (a jump of a multiple of 256 ticks counts none: never too early). All ones:
  // the bound is reached (1 + ticks never gets there).
  static constexpr ::cuda::std::uint32_t CALL    = 1u << 27;
  static constexpr ::cuda::std::uint32_t REACHED = ~0u;
  static_assert(LIMIT_MS < (1u << 19) - 2, "a wait bound of at most about 2^19 ms");
  ::cuda::std::uint32_t state = 0;

  STRATA_DEVICE STRATA_FORCEINLINE void ReadClock()
  {
    ::cuda::std::uint32_t tick = (GlobalTimerLow() >> 20) & 0xFFu;
    if constexpr (WARP)
    {
      tick = __shfl_sync(0xFFFFFFFFu, tick, 0);
    }
    ::cuda::std::uint32_t seen = state >> 8; // the call bits are 0 here
    seen                       = seen == 0 ? 1u : seen + ((state & 0xFFu) != tick);
    state                      = seen > LIMIT_MS ? REACHED : (seen << 8) | tick;
  }

public:
  STRATA_DEVICE STRATA_FORCEINLINE bool Reached()
  {
    state += CALL;
    if (state < CALL)
    {
      ReadClock(); // every 32nd call, and every call once reached (REACHED + CALL wraps)
    }
    return state == REACHED;
  }
};

//! The wait between two reads of an unpublished descriptor in ScanTileState::WaitForValid: a
//! sleep from 32 ns, doubling up to 1 us.
struct BackoffDelay
{
  unsigned int delay_ns = 32;
  STRATA_DEVICE STRATA_FORCEINLINE void operator()()
  {
    __nanosleep(delay_ns);
    delay_ns = delay_ns < 1024 ? delay_ns * 2 : delay_ns;
  }
};
} // namespace scan_tile
} // namespace detail

//! The descriptors of the tiles of one single-pass launch, in device memory: one status and one
//! value per tile. With SINGLE_WORD (the default wherever T allows it) each descriptor is one
//! 8- or 16-byte word; otherwise each tile has a status and two value slots (aggregate, inclusive),
//! into which a T that is not trivially copyable is copy-constructed.
//!
//! Host side: size it with AllocationSize, bind it to (part of) the temporary storage with Init.
//! Device side: every descriptor must be set to SCAN_TILE_INVALID (InitializeStatus, one thread
//! per tile) before the launch that uses it; then each tile publishes with SetPartial /
//! SetInclusive, and others read it with WaitForValid or through TilePrefixCallbackOp.
template <typename T, bool SINGLE_WORD = (detail::scan_tile::word_bytes_v<T> > 0)>
class ScanTileState
{
  static constexpr int WORD_BYTES = SINGLE_WORD ? detail::scan_tile::word_bytes_v<T> : 0;
  static_assert(!SINGLE_WORD || WORD_BYTES > 0, "this T and its status do not fit one 16-byte word");
  using DescriptorT = detail::scan_tile::Descriptor<T, (WORD_BYTES > 0 ? WORD_BYTES : 16)>;
  using WordT       = detail::scan_tile::word_t<WORD_BYTES>;
  //! Descriptor i is word (or status) i * STRIDE: one per 32-byte sector.
  static constexpr int WORD_STRIDE   = detail::scan_tile::descriptor_spacing_bytes / int(sizeof(WordT));
  static constexpr int STATUS_STRIDE = detail::scan_tile::descriptor_spacing_bytes / int(sizeof(::cuda::std::uint32_t));

public:
  using StatusValueT = T;
  //! The type a descriptor's status is stored as (it holds a ScanTileStatus).
  using StatusWord = ::cuda::std::uint32_t;
  //! The word a SINGLE_WORD descriptor is read and written as, in one access.
  using TxnWord = WordT;

  STRATA_HOST_DEVICE ScanTileState() {}

  //! The temporary storage `num_tiles` descriptors need.
  STRATA_HOST_DEVICE static cudaError_t AllocationSize(int num_tiles, size_t& temp_storage_bytes)
  {
    ScanTileState state;
    return state.Carve(num_tiles, nullptr, temp_storage_bytes);
  }

  //! Binds the descriptors of `num_tiles` tiles to `d_temp_storage` (at least AllocationSize
  //! bytes; cudaErrorInvalidValue otherwise).
  STRATA_HOST_DEVICE cudaError_t Init(int num_tiles, void* d_temp_storage, size_t temp_storage_bytes)
  {
    if (d_temp_storage == nullptr)
    {
      return STRATA_INVALID_ARGUMENT("d_temp_storage is null");
    }
    return Carve(num_tiles, d_temp_storage, temp_storage_bytes);
  }

  //! Marks descriptor `blockIdx.x * blockDim.x + threadIdx.x` (if below num_tiles) not yet
  //! published.
  STRATA_DEVICE STRATA_FORCEINLINE void InitializeStatus(int num_tiles)
  {
    const int tile = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (tile < num_tiles)
    {
      if constexpr (SINGLE_WORD)
      {
        DescriptorT descriptor{};
        descriptor.status = SCAN_TILE_INVALID;
        detail::StoreRelaxed(d_words + tile * WORD_STRIDE, ::cuda::std::bit_cast<WordT>(descriptor));
      }
      else
      {
        detail::StoreRelaxed(StatusWordAt(tile), ::cuda::std::uint32_t(SCAN_TILE_INVALID));
      }
    }
  }

  //! Publishes the aggregate of tile `tile`. (ORDER: see MemoryOrder.)
  template <MemoryOrder ORDER = MemoryOrder::relaxed>
  STRATA_DEVICE STRATA_FORCEINLINE void SetPartial(int tile, T aggregate)
  {
    Set(tile, SCAN_TILE_PARTIAL, aggregate);
  }

  //! Publishes the inclusive prefix of tile `tile`. (ORDER: see MemoryOrder.)
  template <MemoryOrder ORDER = MemoryOrder::relaxed>
  STRATA_DEVICE STRATA_FORCEINLINE void SetInclusive(int tile, T inclusive_prefix)
  {
    Set(tile, SCAN_TILE_INCLUSIVE, inclusive_prefix);
  }

  //! Reads descriptor `tile` once: its status, and its value when published.
  STRATA_DEVICE STRATA_FORCEINLINE void Load(int tile, ScanTileStatus& status, T& value) const
  {
    if constexpr (SINGLE_WORD)
    {
      const DescriptorT descriptor =
          ::cuda::std::bit_cast<DescriptorT>(detail::LoadRelaxed(d_words + tile * WORD_STRIDE));
      status = ScanTileStatus(descriptor.status);
      value  = descriptor.value;
    }
    else
    {
      status = ScanTileStatus(detail::LoadAcquire(StatusWordAt(tile)));
      if (status != SCAN_TILE_INVALID)
      {
        value = ValueAt(tile, status); // ordered after the acquire of its status
      }
    }
  }

  //! Waits (one thread) until descriptor `tile` is published; returns its status and value. A
  //! descriptor still unpublished at the bound (detail::scan_tile::WaitBound, WAIT_LIMIT_MS)
  //! comes back as SCAN_TILE_INCLUSIVE with a value-initialized value, so that a look-back built
  //! on it ends there.
  template <unsigned int WAIT_LIMIT_MS = detail::scan_tile::wait_limit_ms>
  STRATA_DEVICE STRATA_FORCEINLINE void WaitForValid(int tile, ScanTileStatus& status, T& value) const
  {
    StatusWord word;
    WaitForValid<detail::scan_tile::BackoffDelay, MemoryOrder::relaxed, WAIT_LIMIT_MS>(tile, word, value);
    status = ScanTileStatus(word);
  }

  //! WaitForValid with CUB's signature: each calling thread waits for its own `tile`, calling
  //! `delay()` between reads (any number of threads may call it, not only whole warps), and gets
  //! its status as a StatusWord; bounded as the overload above. (ORDER: see MemoryOrder.)
  template <typename DelayT = detail::scan_tile::BackoffDelay, MemoryOrder ORDER = MemoryOrder::relaxed,
            unsigned int WAIT_LIMIT_MS = detail::scan_tile::wait_limit_ms>
  STRATA_DEVICE STRATA_FORCEINLINE void WaitForValid(int tile, StatusWord& status, T& value, DelayT delay = {}) const
  {
    ScanTileStatus tile_status = SCAN_TILE_INVALID;
    detail::scan_tile::WaitBound<WAIT_LIMIT_MS> bound;
    for (Load(tile, tile_status, value); tile_status == SCAN_TILE_INVALID; Load(tile, tile_status, value))
    {
      if (bound.Reached())
      {
        tile_status = SCAN_TILE_INCLUSIVE;
        value       = T{};
        break;
      }
      delay();
    }
    status = StatusWord(tile_status);
  }

  //! The value of descriptor `tile`, which the caller has seen published (WaitForValid or Load):
  //! undefined otherwise.
  STRATA_DEVICE STRATA_FORCEINLINE T LoadValid(int tile) const
  {
    if constexpr (SINGLE_WORD)
    {
      return ::cuda::std::bit_cast<DescriptorT>(detail::LoadRelaxed(d_words + tile * WORD_STRIDE)).value;
    }
    else
    {
      return ValueAt(tile, ScanTileStatus(detail::LoadAcquire(StatusWordAt(tile))));
    }
  }

private:
  WordT* d_words                    = nullptr; // SINGLE_WORD
  T* d_partials                     = nullptr; // otherwise: aggregates,
  T* d_inclusives                   = nullptr; // inclusive prefixes (a slot each, never overwritten)
  ::cuda::std::uint32_t* d_statuses = nullptr;

  //! The value published with `status` (two slots, so that a reader who saw PARTIAL never reads
  //! the inclusive prefix that replaces it).
  STRATA_DEVICE STRATA_FORCEINLINE T ValueAt(int tile, ScanTileStatus status) const
  {
    return status == SCAN_TILE_INCLUSIVE ? d_inclusives[tile] : d_partials[tile];
  }

  STRATA_HOST_DEVICE cudaError_t Carve(int num_tiles, void* d_temp_storage, size_t& temp_storage_bytes)
  {
    if (num_tiles < 0)
    {
      return STRATA_INVALID_ARGUMENT("num_tiles is negative");
    }
    if constexpr (SINGLE_WORD)
    {
      return detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes,
                                           detail::Slot(d_words, size_t(num_tiles) * WORD_STRIDE));
    }
    else
    {
      return detail::CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, detail::Slot(d_partials, num_tiles),
                                           detail::Slot(d_inclusives, num_tiles),
                                           detail::Slot(d_statuses, size_t(num_tiles) * STATUS_STRIDE));
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t* StatusWordAt(int tile) const
  {
    return d_statuses + tile * STATUS_STRIDE;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Set(int tile, ScanTileStatus status, const T& value)
  {
    if constexpr (SINGLE_WORD)
    {
      DescriptorT descriptor{};
      descriptor.value  = value;
      descriptor.status = status;
      detail::StoreRelaxed(d_words + tile * WORD_STRIDE, ::cuda::std::bit_cast<WordT>(descriptor));
    }
    else
    {
      detail::UninitializedCopy((status == SCAN_TILE_INCLUSIVE ? d_inclusives : d_partials) + tile, value);
      detail::StoreRelease(StatusWordAt(tile), ::cuda::std::uint32_t(status)); // the value first
    }
  }
};

//! The descriptors of a reduction by key's tiles (CUB's name): a count of runs (KeyT) and a
//! running value (ValueT) per tile, in one word where both and the status fit.
template <typename ValueT, typename KeyT,
          bool SINGLE_WORD = (detail::scan_tile::word_bytes_v<KeyValuePair<KeyT, ValueT>> > 0)>
using ReduceByKeyScanTileState = ScanTileState<KeyValuePair<KeyT, ValueT>, SINGLE_WORD>;

namespace detail
{
//! How a look-back waits. INITIAL_DELAY_NS is slept once before the first read of the
//! predecessors: time for the nearest ones to publish, and fewer reads of unpublished
//! descriptors, which compete with the data for L2. A window with unpublished descriptors is read
//! again after SPIN_INITIAL_NS, doubling up to SPIN_MAX_NS (0: no sleep). Tiles below
//! DELAYED_FROM_TILE, the first to start, wait EARLY_DELAY_NS before the first read and
//! EARLY_SPIN_NS between reads instead: a small grid starts all its tiles at once and its first
//! predecessors publish soon, while a large one keeps few tiles in this range. WAIT_LIMIT_MS bounds
//! a look-back's waits (scan_tile::WaitBound; tests of faults shorten it).
template <unsigned int _INITIAL_DELAY_NS, unsigned int _SPIN_INITIAL_NS, unsigned int _SPIN_MAX_NS,
          int _DELAYED_FROM_TILE = 0, unsigned int _EARLY_DELAY_NS = 0, unsigned int _EARLY_SPIN_NS = _SPIN_INITIAL_NS,
          unsigned int _WAIT_LIMIT_MS = scan_tile::wait_limit_ms>
struct LookbackPolicy
{
  static constexpr unsigned int INITIAL_DELAY_NS = _INITIAL_DELAY_NS;
  static constexpr unsigned int SPIN_INITIAL_NS  = _SPIN_INITIAL_NS;
  static constexpr unsigned int SPIN_MAX_NS      = _SPIN_MAX_NS;
  static constexpr int DELAYED_FROM_TILE         = _DELAYED_FROM_TILE;
  static constexpr unsigned int EARLY_DELAY_NS   = _EARLY_DELAY_NS;
  static constexpr unsigned int EARLY_SPIN_NS    = _EARLY_SPIN_NS;
  static constexpr unsigned int WAIT_LIMIT_MS    = _WAIT_LIMIT_MS;
};
using DefaultLookbackPolicy = LookbackPolicy<1200, 600, 600>;
} // namespace detail

//! The look-back of one tile, done by one whole warp. Called as a BlockScan prefix callback (by
//! the 32 lanes of the block's first warp, with the block aggregate), it publishes the tile's
//! aggregate, finds its exclusive prefix (returned in every lane), publishes its inclusive prefix
//! and keeps all three in `temp_storage` (written by lane 0) and the two prefixes in the calling
//! lanes' `exclusive_prefix` and `inclusive_prefix`. Tile 0 has no predecessors: call the
//! operator on later tiles only, and publish tile 0 with SetInclusive (a look-back ends at tile 0
//! whatever its status says). Its data members are public, as in CUB.
//!
//! ScanOpT must be associative; it need not be commutative: a window of predecessors is combined
//! in tile order, and windows further back are combined on the left.
template <typename T, typename ScanOpT, typename ScanTileStateT,
          typename LookbackPolicyT = detail::DefaultLookbackPolicy>
class TilePrefixCallbackOp
{
public:
  struct _TempStorage
  {
    T block_aggregate;
    T exclusive_prefix;
    T inclusive_prefix;
  };
  //! Raw storage (as in CUB), so that a T with constructors can live in `__shared__` memory.
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  using StatusWord = typename ScanTileStateT::StatusWord;

  _TempStorage& temp_storage;
  ScanTileStateT& tile_status;
  ScanOpT scan_op;
  int tile_idx;
  T exclusive_prefix; //!< set by operator() in the calling lanes
  T inclusive_prefix; //!< set by operator() in the calling lanes

  STRATA_DEVICE STRATA_FORCEINLINE TilePrefixCallbackOp(ScanTileStateT& tile_status, TempStorage& temp_storage,
                                                        ScanOpT scan_op, int tile_idx)
      : temp_storage(temp_storage.Alias())
      , tile_status(tile_status)
      , scan_op(scan_op)
      , tile_idx(tile_idx)
  {
  }

  //! For tile `blockIdx.x` (a kernel that launches one block per tile).
  STRATA_DEVICE STRATA_FORCEINLINE TilePrefixCallbackOp(ScanTileStateT& tile_status, TempStorage& temp_storage,
                                                        ScanOpT scan_op)
      : TilePrefixCallbackOp(tile_status, temp_storage, scan_op, int(blockIdx.x))
  {
  }

  //! Called by all 32 lanes of one warp with the tile's aggregate; returns its exclusive prefix.
  STRATA_DEVICE STRATA_FORCEINLINE T operator()(T block_aggregate)
  {
    const unsigned int lane = LaneId();
    if (lane == 0)
    {
      tile_status.SetPartial(tile_idx, block_aggregate);
      detail::UninitializedCopy(&temp_storage.block_aggregate, block_aggregate);
    }
    exclusive_prefix = Lookback(tile_status, scan_op, tile_idx);
    inclusive_prefix = scan_op(exclusive_prefix, block_aggregate);
    if (lane == 0)
    {
      tile_status.SetInclusive(tile_idx, inclusive_prefix);
      detail::UninitializedCopy(&temp_storage.exclusive_prefix, exclusive_prefix);
      detail::UninitializedCopy(&temp_storage.inclusive_prefix, inclusive_prefix);
    }
    return exclusive_prefix;
  }

  //! The exclusive prefix of tile `tile_idx` (> 0): every lane of the calling warp gets it. The
  //! walk ends at the nearest INCLUSIVE predecessor or at tile 0; a predecessor still unpublished
  //! at LookbackPolicyT::WAIT_LIMIT_MS reads as INCLUSIVE with a value-initialized T (see the
  //! file's top).
  STRATA_DEVICE STRATA_FORCEINLINE static T Lookback(const ScanTileStateT& tile_state, ScanOpT& scan_op, int tile_idx)
  {
    const int lane           = int(LaneId());
    const bool early         = tile_idx < LookbackPolicyT::DELAYED_FROM_TILE;
    const unsigned int delay = early ? LookbackPolicyT::EARLY_DELAY_NS : LookbackPolicyT::INITIAL_DELAY_NS;
    if (delay > 0)
    {
      __nanosleep(delay);
    }
    unsigned int spin           = early ? LookbackPolicyT::EARLY_SPIN_NS : LookbackPolicyT::SPIN_INITIAL_NS;
    const unsigned int spin_max = early ? LookbackPolicyT::EARLY_SPIN_NS : LookbackPolicyT::SPIN_MAX_NS;
    detail::scan_tile::WaitBound<LookbackPolicyT::WAIT_LIMIT_MS, true> bound;
    T prefix{};
    bool have_prefix = false;
    // Lane l reads tile window_end - 32 + l, lane 31 the nearest. Tiles below 0 are not read.
    for (int window_end = tile_idx;; window_end -= detail::warp_threads)
    {
      const int tile        = window_end - detail::warp_threads + lane;
      ScanTileStatus status = SCAN_TILE_OOB;
      T value{};
      if (tile >= 0)
      {
        tile_state.Load(tile, status, value);
      }
      while (__any_sync(0xFFFFFFFFu, status == SCAN_TILE_INVALID))
      {
        if (bound.Reached())
        {
          if (status == SCAN_TILE_INVALID)
          {
            status = SCAN_TILE_INCLUSIVE; // nothing will publish it: the walk ends here
            value  = T{};
          }
          break;
        }
        if (spin > 0)
        {
          __nanosleep(spin);
          spin = spin * 2 < spin_max ? spin * 2 : spin_max;
        }
        if (status == SCAN_TILE_INVALID)
        {
          tile_state.Load(tile, status, value);
        }
      }
      // The window from the nearest tile that ends the walk on (or all of it), combined in tile
      // order; windows further back are combined on the left. Tile 0 ends it whatever its status:
      // nothing before it counts, and a walk past it would never end.
      const unsigned int last_lanes = __ballot_sync(0xFFFFFFFFu, status == SCAN_TILE_INCLUSIVE || tile <= 0);
      const int from                = last_lanes != 0 ? (detail::warp_threads - 1) - __clz(int(last_lanes)) : 0;
      const T window                = SuffixReduce(value, from, scan_op);
      prefix                        = have_prefix ? T(scan_op(window, prefix)) : window;
      have_prefix                   = true;
      if (last_lanes != 0)
      {
        return prefix;
      }
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE T GetExclusivePrefix() const
  {
    return temp_storage.exclusive_prefix;
  }
  STRATA_DEVICE STRATA_FORCEINLINE T GetInclusivePrefix() const
  {
    return temp_storage.inclusive_prefix;
  }
  STRATA_DEVICE STRATA_FORCEINLINE T GetBlockAggregate() const
  {
    return temp_storage.block_aggregate;
  }
  STRATA_DEVICE STRATA_FORCEINLINE int GetTileIdx() const
  {
    return tile_idx;
  }

private:
  //! values[from] op values[from + 1] op ... op values[31], in every lane: after the step with
  //! offset d, lane i holds lanes [i, i + 2d) combined in order (clipped at lane 31).
  STRATA_DEVICE STRATA_FORCEINLINE static T SuffixReduce(T value, int from, ScanOpT& scan_op)
  {
    const int lane = int(LaneId());
#pragma unroll
    for (int offset = 1; offset < detail::warp_threads; offset *= 2)
    {
      const T higher = ShuffleDown<detail::warp_threads>(value, offset, detail::warp_threads - 1, 0xFFFFFFFFu);
      if (lane + offset < detail::warp_threads)
      {
        value = scan_op(value, higher);
      }
    }
    return ShuffleIndex<detail::warp_threads>(value, from, 0xFFFFFFFFu);
  }
};

STRATA_NAMESPACE_END

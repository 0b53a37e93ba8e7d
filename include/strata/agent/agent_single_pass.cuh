// strata/agent/agent_single_pass.cuh: the skeleton every single-pass agent (the scans, scans by
// key, compactions, partitions, run-length encoding, reduction by key) runs its tile body in: the
// tile a block takes, its place in the input, the shared storage and the step that finds the
// tile's prefix by decoupled look-back; pipelined, a block takes tile after tile while the next
// one's input arrives in shared memory by bulk copy.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_algorithms.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/tile/tile_io.cuh>
#include <strata/tile/tile_prefetch.cuh>
#include <strata/tile/tile_scan_rows.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <nv/target>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace single_pass
{
//! How a single-pass skeleton takes its tiles: one a block (NONE); tile after tile until they run
//! out (PERSISTENT); and so, with the next tile's inputs staged in shared memory by bulk copy while
//! the block works on the current one (STAGED).
enum class Pipeline
{
  NONE,
  PERSISTENT,
  STAGED
};

//! What the policies of the single-pass agents have in common, CUB's members first: threads per
//! block, items per thread, the load, cache and scan algorithms (the agents read the cache
//! operator; their tile layout and scan are ScanTileRows). Then strata's: how the look-back waits,
//! the blocks per SM the kernel's registers must allow (and a persistent launch has), how far
//! ahead, in bytes of input, a block has L2 prefetch a tile, and how the skeleton takes its tiles.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, BlockLoadAlgorithm LOAD_ALGORITHM_,
          CacheLoadModifier LOAD_MODIFIER_, BlockScanAlgorithm SCAN_ALGORITHM_, typename LookbackPolicyT_,
          int MIN_BLOCKS_PER_SM_, int PREFETCH_BYTES_, Pipeline PIPELINE_>
struct PassPolicy
{
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD              = ITEMS_PER_THREAD_;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER   = LOAD_MODIFIER_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = SCAN_ALGORITHM_;
  using LookbackPolicyT                              = LookbackPolicyT_;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
  static constexpr int PREFETCH_BYTES                = PREFETCH_BYTES_;
  static constexpr Pipeline PIPELINE                 = PIPELINE_;
};

//! The inputs a pipelined skeleton stages, by value type, in the order the body's
//! Tile::LoadStaged<K> names them.
template <typename... InputTs>
struct StagedInputs
{
  static constexpr int COUNT = int(sizeof...(InputTs));
};

//! The shared state of a pipelined skeleton: two buffers, each holding one tile of every staged
//! input (input K at Offset(K), 128-byte aligned), the mbarrier each buffer's bulk copies complete
//! on, the tile each holds and whether its copies were issued (a partial or misaligned tile is read
//! from global memory instead); and what thread 0 needs to take the next tile (TakeNext) once the
//! current one has its prefix.
template <int TILE_ITEMS, typename OffsetT, typename StagedT>
struct StageStorage;

template <int TILE_ITEMS, typename OffsetT, typename... InputTs>
struct StageStorage<TILE_ITEMS, OffsetT, StagedInputs<InputTs...>>
{
  static constexpr int INPUTS = int(sizeof...(InputTs));
  STRATA_HOST_DEVICE static constexpr int Region(int bytes)
  {
    return (bytes + 127) / 128 * 128;
  }
  //! The bytes of input k's tile.
  STRATA_HOST_DEVICE static constexpr int InputBytes(int k)
  {
    constexpr int bytes[INPUTS > 0 ? INPUTS : 1] = {TILE_ITEMS * int(sizeof(InputTs))...};
    return bytes[k];
  }
  STRATA_HOST_DEVICE static constexpr int Offset(int k)
  {
    int offset = 0;
    for (int i = 0; i < k; ++i)
    {
      offset += Region(InputBytes(i));
    }
    return offset;
  }
  STRATA_HOST_DEVICE static constexpr int BufferBytes()
  {
    return INPUTS > 0 ? Offset(INPUTS) : 16;
  }
  //! Every input's tile is whole 16-byte words, as cp.async.bulk moves them.
  static constexpr bool WHOLE_WORDS = ((TILE_ITEMS * int(sizeof(InputTs)) % 16 == 0) && ...);

  alignas(128) unsigned char buffers[2][BufferBytes()];
  ::cuda::std::uint64_t barriers[2];
  int tiles[2];
  int staged[2];
  // Thread 0's: where the staged inputs start (null for an iterator, which is not staged), the
  // tile counter, the input's extent, the buffer of the current tile and whether the next is taken.
  const void* sources[INPUTS > 0 ? INPUTS : 1];
  unsigned int* d_tile_counter;
  OffsetT num_items;
  int num_tiles;
  int current;
  // Volatile: otherwise the compiler loads it in every lane of warp 0 ahead of the thread-0 test,
  // a read racecheck reports against thread 0's write.
  volatile int taken;

  //! Thread 0, before the first tile: records the inputs and takes the first tile into buffer 0.
  template <typename... StagedIteratorTs>
  STRATA_DEVICE STRATA_FORCEINLINE void Begin(OffsetT num_items_, int num_tiles_, unsigned int* d_tile_counter_,
                                              StagedIteratorTs... staged_inputs)
  {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (detail::MbarrierInit(&barriers[0], 1u); detail::MbarrierInit(&barriers[1], 1u);
                                     detail::FenceProxyAsyncShared();));
    if constexpr (INPUTS > 0)
    {
      const void* pointers[INPUTS] = {Source(staged_inputs)...};
      for (int k = 0; k < INPUTS; ++k)
      {
        sources[k] = pointers[k];
      }
    }
    num_items      = num_items_;
    num_tiles      = num_tiles_;
    d_tile_counter = d_tile_counter_;
    current        = 1;
    tiles[1]       = -1; // no tile yet
    taken          = 0;
    TakeNext();
  }

  //! Thread 0, once a tile: takes the block's next tile from the counter into the other buffer and
  //! issues its bulk copies there; again on the same tile it does nothing. Taken only when the
  //! current tile has its prefix, since the tiles after the taken one wait for its aggregate.
  STRATA_DEVICE STRATA_FORCEINLINE void TakeNext()
  {
    if (taken)
    {
      return;
    }
    taken       = 1;
    const int b = current ^ 1;
    // A single tile (no counter) is tile 0, then none.
    const int next = num_tiles == 1 ? (tiles[current] < 0 ? 0 : 1) : int(atomicAdd(d_tile_counter, 1u));
    tiles[b]       = next;
    staged[b]      = next < num_tiles && Stage(b, next);
  }

private:
  template <typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE static const void* Source(IteratorT it)
  {
    if constexpr (::cuda::std::is_pointer_v<IteratorT>)
    {
      return static_cast<const void*>(it);
    }
    else
    {
      return nullptr;
    }
  }

  //! Issues the bulk copies of tile `index` of every staged input into buffer b (sm_90 and later;
  //! a whole tile whose every input is a 16-byte aligned pointer). Returns whether it did.
  STRATA_DEVICE STRATA_FORCEINLINE bool Stage([[maybe_unused]] int b, [[maybe_unused]] int index)
  {
    if constexpr (INPUTS > 0 && WHOLE_WORDS)
    {
      const OffsetT offset = OffsetT(index) * OffsetT(TILE_ITEMS);
      // A TempStorage too large for shared memory lives in global memory, where no bulk copy goes.
      if (tile::ValidItems<TILE_ITEMS>(num_items, offset) != TILE_ITEMS || !__isShared(this))
      {
        return false;
      }
      for (int k = 0; k < INPUTS; ++k)
      {
        if (sources[k] == nullptr || !tile::IsAligned<16>(sources[k]))
        {
          return false;
        }
      }
      NV_IF_TARGET(NV_PROVIDES_SM_90,
                   (IssueCopies(b, offset, ::cuda::std::make_index_sequence<INPUTS>{}); return true;));
    }
    return false;
  }

  template <::cuda::std::size_t... Ks>
  STRATA_DEVICE STRATA_FORCEINLINE void IssueCopies(int b, OffsetT offset, ::cuda::std::index_sequence<Ks...>)
  {
    using UnsignedT = ::cuda::std::make_unsigned_t<OffsetT>;
    // The buffer's last reads (generic proxy) come before the copies' writes (async proxy).
    detail::FenceProxyAsyncShared();
    detail::MbarrierArriveExpectTx(&barriers[b], ::cuda::std::uint32_t((InputBytes(int(Ks)) + ...)));
    (detail::CpAsyncBulkGlobalToShared<int(sizeof(InputTs))>(buffers[b] + Offset(int(Ks)), sources[Ks],
                                                             UnsignedT(offset),
                                                             ::cuda::std::uint32_t(InputBytes(int(Ks))), &barriers[b]),
     ...);
  }
};

//! The tile a block works on: where it lies in the input, its rows (tile::ScanTileRows), and the
//! step that finds the combination of every tile before it (Prefix). A pipelined skeleton's tile
//! also points to its StageStorage (AheadT), which takes the block's next tile once this one has
//! its prefix.
template <typename RowsT, typename PrefixT, typename TileStateT, typename PrefixOpT, typename OffsetT,
          typename AheadT = NullType>
struct Tile
{
  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;

  RowsT& rows;
  int index; // the tile's number, in the order blocks took them
  int num_tiles;
  OffsetT offset; // of the tile's first item in the input
  int valid;      // items in the tile (TILE_ITEMS but in the last)
  PrefixT& shared_prefix;
  TileStateT& tile_state;
  //! The shared buffer holding the tile's staged inputs (pipelined skeletons), or null where they
  //! are read from global memory.
  const unsigned char* stage = nullptr;
  AheadT* ahead              = nullptr;

  STRATA_DEVICE STRATA_FORCEINLINE bool IsFirst() const
  {
    return index == 0;
  }

  STRATA_DEVICE STRATA_FORCEINLINE bool IsLast() const
  {
    return index == num_tiles - 1;
  }

  //! Loads this lane's items of the tile from `d_in` (ScanTileRows::Load).
  template <typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(IteratorT d_in, ItemT (&items)[RowsT::ITEMS_PER_THREAD]) const
  {
    rows.Load(d_in, offset, valid, items);
  }

  //! Loads this lane's items of staged input K, whose source is `d_in`: from the shared buffer
  //! where the tile was staged (its bytes at OFFSET in it), else as Load.
  template <int OFFSET, typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void LoadStaged(IteratorT d_in, ItemT (&items)[RowsT::ITEMS_PER_THREAD]) const
  {
    if constexpr (::cuda::std::is_pointer_v<IteratorT>)
    {
      if (stage != nullptr)
      {
        rows.LoadShared(reinterpret_cast<const it_value_t<IteratorT>*>(stage + OFFSET), items);
        return;
      }
    }
    rows.Load(d_in, offset, valid, items);
  }

  //! Stores this lane's items of the tile to `d_out` (ScanTileRows::Store).
  template <typename ItemT, typename IteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(IteratorT d_out, ItemT (&items)[RowsT::ITEMS_PER_THREAD]) const
  {
    rows.Store(d_out, offset, valid, items);
  }

  //! Has L2 fetch the tile PREFETCH_TILES ahead of this one from every input (tile::PrefetchAhead).
  template <int PREFETCH_TILES, typename... IteratorTs>
  STRATA_DEVICE STRATA_FORCEINLINE void PrefetchAhead(IteratorTs... inputs) const
  {
    tile::PrefetchAhead<PREFETCH_TILES, TILE_ITEMS, OffsetT>(index, num_tiles, inputs...);
  }

  //! The combination of every tile before this one, the tile's `aggregate` published
  //! (ScanTileRows::TilePrefix, whose options say what comes before the first tile and what this
  //! one needs); `items` are the scanned items warp 0 keeps during its look-back.
  template <typename AccumT, typename ScanOpT>
  STRATA_DEVICE STRATA_FORCEINLINE PrefixT Prefix(AccumT (&items)[RowsT::ITEMS_PER_THREAD], ScanOpT& scan_op,
                                                  const PrefixT& aggregate,
                                                  const tile::TilePrefixOptions<PrefixT>& options = {})
  {
    const PrefixT prefix = rows.template TilePrefix<PrefixOpT>(items, shared_prefix, tile_state, scan_op, index,
                                                               num_tiles, aggregate, options);
    if constexpr (!::cuda::std::is_same_v<AheadT, NullType>)
    {
      if (threadIdx.x == 0)
      {
        ahead->TakeNext();
      }
    }
    return prefix;
  }
};

//! The block storage of a single-pass agent: its rows', the prefix warp 0 shares with the block,
//! and the body's own (BodyStorageT; NullType for none).
template <typename RowsT, typename PrefixT, typename BodyStorageT>
struct SkeletonStorage
{
  typename RowsT::TempStorage rows;
  PrefixT tile_prefix; // from warp 0's look-back to the block
  BodyStorageT body;
};

//! Without body storage.
template <typename RowsT, typename PrefixT>
struct SkeletonStorage<RowsT, PrefixT, NullType>
{
  typename RowsT::TempStorage rows;
  PrefixT tile_prefix;
};

//! The skeleton of a single-pass agent over num_items items.
//!
//! Plain (Pipeline::NONE): a block takes one tile from the tile counter (in launch order, so that
//! every tile it waits for belongs to a block that is running; with a single tile, tile 0, and
//! neither the counter nor the tile state are used) and runs `body(tile)` on it (Tile). The launch
//! has one block per tile.
//!
//! Pipelined (PERSISTENT or STAGED): a block takes tiles from the counter until they run out. As
//! soon as a tile has its prefix, thread 0 takes the next one and, where STAGED, on sm_90 and
//! later, issues bulk copies of its staged inputs (StagedT; the iterators passed to ConsumeRange,
//! in that order) into the other shared buffer, where Tile::LoadStaged reads them while the block
//! stores the current tile. (Taken earlier, the next tile would sit unpublished while later tiles'
//! look-backs wait for it.) Only whole, 16-byte aligned tiles of pointers are staged; the others
//! are read from global memory. The launch needs no more blocks than the device holds at once (any
//! number works: a block waits only for tiles taken before its own, and the first unfinished tile
//! is always in a running block's hands).
template <typename RowsT, typename PrefixT, typename TileStateT, typename PrefixOpT, typename OffsetT,
          typename BodyStorageT = NullType, Pipeline PIPELINE = Pipeline::NONE, typename StagedT = StagedInputs<>>
struct Skeleton
{
  static constexpr int TILE_ITEMS = RowsT::TILE_ITEMS;
  //! Whether blocks take tiles until they run out (the launch may have fewer blocks than tiles).
  static constexpr bool PERSISTENT = PIPELINE != Pipeline::NONE;
  using StageT                     = StageStorage<TILE_ITEMS, OffsetT,
                              ::cuda::std::conditional_t<PIPELINE == Pipeline::STAGED, StagedT, StagedInputs<>>>;
  using TileT =
      Tile<RowsT, PrefixT, TileStateT, PrefixOpT, OffsetT, ::cuda::std::conditional_t<PERSISTENT, StageT, NullType>>;

  struct PipelinedStorage : SkeletonStorage<RowsT, PrefixT, BodyStorageT>
  {
    StageT stage;
  };
  using StorageT =
      ::cuda::std::conditional_t<PERSISTENT, PipelinedStorage, SkeletonStorage<RowsT, PrefixT, BodyStorageT>>;

  struct TempStorage : Uninitialized<StorageT>
  {
  };

  //! Where staged input K lies in a shared buffer.
  template <int K>
  static constexpr int STAGE_OFFSET = StageT::Offset(K);

  template <typename BodyT, typename... StagedIteratorTs>
  STRATA_DEVICE STRATA_FORCEINLINE static void ConsumeRange(TempStorage& temp_storage, OffsetT num_items, int num_tiles,
                                                            TileStateT& tile_state, unsigned int* d_tile_counter,
                                                            BodyT&& body, StagedIteratorTs... staged)
  {
    StorageT& storage = temp_storage.Alias();
    RowsT rows(storage.rows);
    if constexpr (!PERSISTENT)
    {
      const int index      = rows.NextTile(num_tiles, d_tile_counter);
      const OffsetT offset = OffsetT(index) * OffsetT(TILE_ITEMS);
      TileT tile{
          rows,      index, num_tiles, offset, tile::ValidItems<TILE_ITEMS>(num_items, offset), storage.tile_prefix,
          tile_state};
      body(tile);
    }
    else
    {
      static_assert(sizeof...(StagedIteratorTs) == StagedT::COUNT, "one iterator for every staged input");
      StageT& stage = storage.stage;
      if (threadIdx.x == 0)
      {
        stage.Begin(num_items, num_tiles, d_tile_counter, staged...);
      }
      __syncthreads();         // the first tile and the barriers
      unsigned int phases = 0; // bit b: the parity of the next phase of buffer b's barrier
      for (int b = 0;; b ^= 1)
      {
        const int index = stage.tiles[b];
        if (index >= num_tiles)
        {
          break;
        }
        const bool is_staged = stage.staged[b] != 0;
        if (threadIdx.x == 0)
        {
          stage.current = b;
          stage.taken   = 0;
        }
        if (is_staged)
        {
          NV_IF_TARGET(NV_PROVIDES_SM_90,
                       (while (!detail::MbarrierTryWaitParity(&stage.barriers[b], (phases >> b) & 1u)){}));
          phases ^= 1u << b;
        }
        const OffsetT offset = OffsetT(index) * OffsetT(TILE_ITEMS);
        TileT tile{rows,
                   index,
                   num_tiles,
                   offset,
                   tile::ValidItems<TILE_ITEMS>(num_items, offset),
                   storage.tile_prefix,
                   tile_state,
                   is_staged ? stage.buffers[b] : nullptr,
                   &stage};
        body(tile); // takes the next tile once this one has its prefix (Tile::Prefix)
        if (threadIdx.x == 0)
        {
          stage.TakeNext(); // where the body did not
        }
        __syncthreads(); // buffer b, the body's storage and the next tile's slot before they are reused
      }
    }
  }
};
} // namespace single_pass
} // namespace detail
STRATA_NAMESPACE_END

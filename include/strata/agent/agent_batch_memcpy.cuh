// strata/agent/agent_batch_memcpy.cuh: AgentBatchMemcpyPolicy and AgentBatchMemcpy, one warp's
// share of a batched copy (DeviceMemcpy::Batched, DeviceCopy::Batched).
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_copy.cuh>
#include <strata/tile/tile_cost_line.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace batch_memcpy
{
//! The tuning of AgentBatchMemcpy (in detail::batch_memcpy, as CUB's; its parameters are strata's): threads per block;
//! the work of one warp's chunk, in units (a byte of DeviceMemcpy, an item of DeviceCopy); what a buffer costs on top
//! of its units (the reading of its pointers and size), so that chunks of many tiny buffers hold fewer of them; the
//! largest piece of a buffer, in bytes, one lane copies alone (larger ones take the whole warp);
//! the loads each lane of a copying warp has in flight; and the blocks per SM the kernel's
//! registers must allow.
template <int _BLOCK_THREADS, int _CHUNK_UNITS, int _BUFFER_COST_UNITS, int _LANE_BYTES, int _WARP_LOADS = 4,
          int _MIN_BLOCKS_PER_SM = 1>
struct AgentBatchMemcpyPolicy
{
  static constexpr int BLOCK_THREADS     = _BLOCK_THREADS;
  static constexpr int CHUNK_UNITS       = _CHUNK_UNITS;
  static constexpr int BUFFER_COST_UNITS = _BUFFER_COST_UNITS;
  static constexpr int LANE_BYTES        = _LANE_BYTES;
  static constexpr int WARP_LOADS        = _WARP_LOADS;
  static constexpr int MIN_BLOCKS_PER_SM = _MIN_BLOCKS_PER_SM;
};

//! A buffer's cost for the work split: its units (a negative size counts as none) and
//! BUFFER_COST_UNITS; 0 past the last buffer, so that an exclusive scan of num_buffers + 1 costs
//! ends with the total.
template <typename BufferSizeIteratorT, int BUFFER_COST_UNITS>
struct BufferCost
{
  BufferSizeIteratorT sizes;
  ::cuda::std::int64_t num_buffers;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint64_t operator()(::cuda::std::int64_t buffer) const
  {
    if (buffer >= num_buffers)
    {
      return 0;
    }
    const auto size = sizes[buffer];
    return (size > 0 ? ::cuda::std::uint64_t(size) : 0) + BUFFER_COST_UNITS;
  }
};
//! A batched copy split into chunks of equal cost: buffer b takes units [offsets[b], offsets[b] +
//! size_b) of the cost line (followed by BUFFER_COST_UNITS that copy nothing), and each warp copies
//! the parts of buffers that fall into its chunks (chunk c: [c, c + 1) * CHUNK_UNITS), taking every
//! num_warps-th chunk. A warp finds its chunk's first buffer by a 32-way search of the offsets,
//! then reads the descriptors of 32 buffers at a time: parts of at most LANE_BYTES are copied by
//! their lanes, larger ones by the whole warp (tile::WarpCopyBytes / WarpCopyItems).
//!
//! IS_MEMCPY: the buffers are pointers and sizes count bytes (DeviceMemcpy); otherwise they are
//! iterators and sizes count items (DeviceCopy).
template <typename PolicyT, typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT,
          bool IS_MEMCPY>
class AgentBatchMemcpy
{
  using CostT   = ::cuda::std::uint64_t;
  using InputT  = it_value_t<InputBufferIt>;
  using OutputT = it_value_t<OutputBufferIt>;

  // What one unit is: a byte, or an item of the ranges.
  using UnitT = ::cuda::std::conditional_t<IS_MEMCPY, unsigned char, it_value_t<InputT>>;

  static constexpr unsigned int ALL_LANES = 0xFFFFFFFFu;
  static constexpr CostT CHUNK_UNITS      = CostT(PolicyT::CHUNK_UNITS);
  static constexpr int LANE_UNITS         = PolicyT::LANE_BYTES / int(sizeof(UnitT)) > 0
                                                ? PolicyT::LANE_BYTES / int(sizeof(UnitT))
                                                : 1;
  static constexpr int UNROLL             = PolicyT::WARP_LOADS;

public:
  STRATA_DEVICE STRATA_FORCEINLINE AgentBatchMemcpy(InputBufferIt input_buffers, OutputBufferIt output_buffers,
                                                    BufferSizeIteratorT buffer_sizes, ::cuda::std::int64_t num_buffers,
                                                    const CostT* d_offsets)
      : input_buffers(input_buffers)
      , output_buffers(output_buffers)
      , buffer_sizes(buffer_sizes)
      , num_buffers(num_buffers)
      , d_offsets(d_offsets)
      , lane(int(threadIdx.x) % warp_threads)
  {
  }

  //! Copies chunks warp, warp + num_warps, ... (all 32 lanes call).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeChunks(CostT warp, CostT num_warps)
  {
    const CostT total = d_offsets[num_buffers];
    for (CostT chunk = warp; chunk * CHUNK_UNITS < total; chunk += num_warps)
    {
      ConsumeChunk(chunk * CHUNK_UNITS, chunk * CHUNK_UNITS + CHUNK_UNITS);
    }
  }

private:
  InputBufferIt input_buffers;
  OutputBufferIt output_buffers;
  BufferSizeIteratorT buffer_sizes;
  ::cuda::std::int64_t num_buffers;
  const CostT* d_offsets;
  int lane;

  //! This lane's part [begin, begin + len) of a buffer (len <= LANE_UNITS): copied alone.
  STRATA_DEVICE STRATA_FORCEINLINE static void CopyByLane(const InputT& src, const OutputT& dst, CostT begin, CostT len)
  {
    if constexpr (IS_MEMCPY)
    {
      const unsigned char* from = static_cast<const unsigned char*>(static_cast<const void*>(src)) + begin;
      unsigned char* to         = static_cast<unsigned char*>(static_cast<void*>(dst)) + begin;
      for (CostT i = 0; i < len; ++i)
      {
        to[i] = from[i];
      }
    }
    else
    {
      using InOffsetT  = typename ::cuda::std::iterator_traits<InputT>::difference_type;
      using OutOffsetT = typename ::cuda::std::iterator_traits<OutputT>::difference_type;
      for (CostT i = 0; i < len; ++i)
      {
        dst[OutOffsetT(begin + i)] = src[InOffsetT(begin + i)];
      }
    }
  }

  //! A part of a buffer copied by the whole warp.
  STRATA_DEVICE STRATA_FORCEINLINE void CopyByWarp(const InputT& src, const OutputT& dst, CostT begin, CostT len) const
  {
    if constexpr (IS_MEMCPY)
    {
      tile::WarpCopyBytes<UNROLL>(static_cast<const unsigned char*>(static_cast<const void*>(src)) + begin,
                                  static_cast<unsigned char*>(static_cast<void*>(dst)) + begin, len, lane);
    }
    else
    {
      using InOffsetT  = typename ::cuda::std::iterator_traits<InputT>::difference_type;
      using OutOffsetT = typename ::cuda::std::iterator_traits<OutputT>::difference_type;
      tile::WarpCopyItems<UNROLL>(src + InOffsetT(begin), dst + OutOffsetT(begin), len, lane);
    }
  }

  //! Lane `owner`'s iterator `mine`, that of buffer `buffer` of `buffers`, in every lane: shuffled
  //! where its bytes may be copied, else read again (CUB takes ranges behind any iterator).
  template <typename IteratorT, typename BuffersT>
  STRATA_DEVICE STRATA_FORCEINLINE static IteratorT FromLane(const IteratorT& mine, BuffersT buffers,
                                                             ::cuda::std::int64_t buffer, int owner)
  {
    if constexpr (::cuda::std::is_trivially_copyable_v<IteratorT>)
    {
      return ShuffleIndex<warp_threads>(mine, owner, ALL_LANES);
    }
    else
    {
      return buffers[buffer];
    }
  }

  //! A lane's buffer: its iterators and units.
  struct Buffer
  {
    InputT src;
    OutputT dst;
    CostT items;
  };

  //! Copies the parts of buffers in the cost units [first, last).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeChunk(CostT first, CostT last)
  {
    tile::WarpConsumeChunk(
        d_offsets, num_buffers, first, last, CostT(LANE_UNITS), lane,
        [&](::cuda::std::int64_t buffer, bool active)
        {
          Buffer mine{input_buffers[buffer], output_buffers[buffer], 0};
          if (active)
          {
            const auto size = buffer_sizes[buffer];
            mine.items      = size > 0 ? CostT(size) : CostT(0);
          }
          return mine;
        },
        [](const tile::CostLinePart& part, const Buffer& mine)
        { CopyByLane(mine.src, mine.dst, part.begin, part.count); },
        [&](int owner, ::cuda::std::int64_t buffer, CostT begin, CostT count, const Buffer& mine)
        {
          CopyByWarp(FromLane(mine.src, input_buffers, buffer, owner),
                     FromLane(mine.dst, output_buffers, buffer, owner), begin, count);
        },
        [](const tile::CostLinePart&) {});
  }
};
} // namespace batch_memcpy
} // namespace detail
STRATA_NAMESPACE_END

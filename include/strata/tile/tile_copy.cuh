// strata/tile/tile_copy.cuh: how a warp copies one range of items or bytes: lanes stride through
// it with several loads in flight before their stores, and bytes move as 16- or 4-byte words where
// source and destination share their alignment.
#pragma once

#include <strata/config.cuh>
#include <strata/tile/tile_vector.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace tile
{
//! dst[i] = src[i] for i in [0, len), by the 32 lanes of a warp (lane `lane` takes i = lane,
//! lane + 32, ...), UNROLL loads of each lane in flight before its stores. Every lane calls.
template <int UNROLL, typename InputIteratorT, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void WarpCopyItems(InputIteratorT src, OutputIteratorT dst, ::cuda::std::uint64_t len,
                                                    int lane)
{
  using T                               = it_value_t<InputIteratorT>;
  using InOffsetT                       = typename ::cuda::std::iterator_traits<InputIteratorT>::difference_type;
  using OutOffsetT                      = typename ::cuda::std::iterator_traits<OutputIteratorT>::difference_type;
  constexpr ::cuda::std::uint64_t ROUND = ::cuda::std::uint64_t(UNROLL) * 32;
  ::cuda::std::uint64_t i               = ::cuda::std::uint64_t(lane);
  for (; i + ROUND - 32 < len; i += ROUND)
  {
    T items[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
    {
      items[u] = src[InOffsetT(i + ::cuda::std::uint64_t(u) * 32)];
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
    {
      dst[OutOffsetT(i + ::cuda::std::uint64_t(u) * 32)] = items[u];
    }
  }
  for (; i < len; i += 32)
  {
    dst[OutOffsetT(i)] = src[InOffsetT(i)];
  }
}

//! Copies `len` bytes (at least 16) from `src` to `dst`, whose addresses differ modulo 4, by the
//! 32 lanes of a warp: each aligned 4-byte word of `dst` is cut (a funnel shift) from the two
//! aligned words of `src` that hold its bytes, reading only words inside the source; the few
//! bytes at either end go one at a time.
template <int UNROLL>
STRATA_DEVICE STRATA_FORCEINLINE void WarpCopyShiftedBytes(const unsigned char* src, unsigned char* dst,
                                                           ::cuda::std::uint64_t len, int lane)
{
  using WordT                           = unsigned int;
  const ::cuda::std::uint64_t align     = ::cuda::std::uint64_t(AlignmentHeadBytes<4>(dst)); // before dst's first word
  const ::cuda::std::uintptr_t first    = reinterpret_cast<::cuda::std::uintptr_t>(src) + align;
  const unsigned int skew               = unsigned(first & 3); // not 0: the addresses differ modulo 4
  const WordT* words                    = reinterpret_cast<const WordT*>(first - skew);
  WordT* out                            = reinterpret_cast<WordT*>(dst + align);
  const ::cuda::std::uint64_t begin     = align < skew ? 1 : 0;         // words[0] starts before src
  const ::cuda::std::uint64_t end       = (len - align + skew) / 4 - 1; // words[end] still inside src
  const unsigned int shift              = 8 * skew;
  constexpr ::cuda::std::uint64_t ROUND = ::cuda::std::uint64_t(UNROLL) * 32;
  ::cuda::std::uint64_t w               = begin + ::cuda::std::uint64_t(lane);
  for (; w + ROUND - 32 < end; w += ROUND)
  {
    WordT low[UNROLL];
    WordT high[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
    {
      low[u]  = words[w + ::cuda::std::uint64_t(u) * 32];
      high[u] = words[w + ::cuda::std::uint64_t(u) * 32 + 1];
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
    {
      out[w + ::cuda::std::uint64_t(u) * 32] = __funnelshift_r(low[u], high[u], shift);
    }
  }
  for (; w < end; w += 32)
  {
    out[w] = __funnelshift_r(words[w], words[w + 1], shift);
  }
  const ::cuda::std::uint64_t head = align + 4 * begin; // at most 7 bytes
  const ::cuda::std::uint64_t tail = align + 4 * end;   // at most 6 bytes after it
  if (::cuda::std::uint64_t(lane) < head)
  {
    dst[lane] = src[lane];
  }
  if (::cuda::std::uint64_t(lane) < len - tail)
  {
    dst[tail + lane] = src[tail + lane];
  }
}

//! Copies `len` bytes from `src` to `dst` (which do not overlap) by the 32 lanes of a warp: as
//! 16-byte words between a head and a tail of single bytes where both share their address modulo
//! 16, else as 4-byte words where they share it modulo 4, else as 4-byte words cut from pairs of
//! source words (WarpCopyShiftedBytes), byte by byte below 16 bytes. Every lane calls.
template <int UNROLL, typename WordT = uint4>
STRATA_DEVICE STRATA_FORCEINLINE void WarpCopyBytes(const unsigned char* src, unsigned char* dst,
                                                    ::cuda::std::uint64_t len, int lane)
{
  constexpr ::cuda::std::uintptr_t WORD = sizeof(WordT);
  const ::cuda::std::uintptr_t s        = reinterpret_cast<::cuda::std::uintptr_t>(src);
  const ::cuda::std::uintptr_t d        = reinterpret_cast<::cuda::std::uintptr_t>(dst);
  if (((s ^ d) & (WORD - 1)) == 0 && len >= 2 * WORD)
  {
    const ::cuda::std::uint64_t head  = ::cuda::std::uint64_t(AlignmentHeadBytes<int(WORD)>(dst));
    const ::cuda::std::uint64_t words = (len - head) / WORD;
    const ::cuda::std::uint64_t done  = head + words * WORD;
    if (::cuda::std::uint64_t(lane) < head)
    {
      dst[lane] = src[lane];
    }
    WarpCopyItems<UNROLL>(reinterpret_cast<const WordT*>(src + head), reinterpret_cast<WordT*>(dst + head), words,
                          lane);
    if (::cuda::std::uint64_t(lane) < len - done)
    {
      dst[done + lane] = src[done + lane];
    }
  }
  else if constexpr (sizeof(WordT) > 4)
  {
    WarpCopyBytes<UNROLL, unsigned int>(src, dst, len, lane);
  }
  else if (((s ^ d) & 3) != 0 && len >= 16)
  {
    WarpCopyShiftedBytes<UNROLL>(src, dst, len, lane);
  }
  else
  {
    WarpCopyItems<UNROLL>(src, dst, len, lane);
  }
}
} // namespace tile
} // namespace detail
STRATA_NAMESPACE_END

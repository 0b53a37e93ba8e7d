// strata/thread/thread_direct.cuh: LoadDirect* / StoreDirect*, one thread's share of a tile moved
// between memory and its registers in blocked, striped or warp-striped order, given its rank.
//
// A tile of `threads * ITEMS_PER_THREAD` consecutive items is split among threads of ranks
// 0 .. threads - 1 (`linear_tid`) in one of three arrangements:
//   - blocked: rank t holds items t * ITEMS_PER_THREAD .. (t + 1) * ITEMS_PER_THREAD - 1;
//   - striped (over BLOCK_THREADS ranks): rank t holds items t, t + BLOCK_THREADS, t + 2 * BLOCK_THREADS, ...;
//   - warp-striped: every 32 consecutive ranks (a hardware warp) own 32 * ITEMS_PER_THREAD
//     consecutive items, striped over their 32 lanes.
// Each function is sequential code of the calling thread: no barrier, no shared state, so the
// block and warp collectives build on them. The guarded forms touch only tile positions below
// `block_items_end` / `valid_items`; a load's other items keep their values, or take
// `oob_default` where one is given.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/copy_bytes.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <vector_types.h>

STRATA_NAMESPACE_BEGIN

//! Loads rank `linear_tid`'s items of a blocked tile at `block_src_it`:
//! dst_items[i] = block_src_it[linear_tid * ITEMS_PER_THREAD + i].
//!
//! \code
//! int items[4];
//! strata::LoadDirectBlocked(threadIdx.x, d_in + blockIdx.x * 512, items); // 128 threads
//! \endcode
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD])
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    dst_items[i] = block_src_it[linear_tid * ITEMS_PER_THREAD + i];
  }
}

//! Loads the items of a blocked tile that lie below tile position `block_items_end`; the
//! calling thread's items at or beyond it are left as they are.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end)
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = linear_tid * ITEMS_PER_THREAD + i;
    if (pos < block_items_end)
    {
      dst_items[i] = block_src_it[pos];
    }
  }
}

//! Loads the items of a blocked tile that lie below tile position `block_items_end`; the
//! calling thread's items at or beyond it get `oob_default`.
//!
//! \code
//! float items[4];
//! strata::LoadDirectBlocked(threadIdx.x, d_in, items, num_items, 0.0f); // zero-padded tail
//! \endcode
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                                        DefaultT oob_default)
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = linear_tid * ITEMS_PER_THREAD + i;
    if (pos < block_items_end)
    {
      dst_items[i] = block_src_it[pos];
    }
    else
    {
      dst_items[i] = oob_default;
    }
  }
}

namespace detail
{
//! How one thread's ITEMS_PER_THREAD consecutive items of T travel as vector words: the widest
//! of 16, 8, 4, 2 and 1 bytes that divides their total size. Every thread's share is then a whole
//! number of words, so all shares of a tile are word-aligned exactly when the tile is.
template <typename T, int ITEMS_PER_THREAD>
struct BlockedVector
{
  static constexpr int BYTES      = ITEMS_PER_THREAD * static_cast<int>(sizeof(T));
  static constexpr int WORD_BYTES = BYTES % 16 == 0  ? 16
                                    : BYTES % 8 == 0 ? 8
                                    : BYTES % 4 == 0 ? 4
                                    : BYTES % 2 == 0 ? 2
                                                     : 1;
  static constexpr int WORDS      = BYTES / WORD_BYTES;

  using Word = ::cuda::std::conditional_t<
      WORD_BYTES == 16, uint4,
      ::cuda::std::conditional_t<
          WORD_BYTES == 8, uint2,
          ::cuda::std::conditional_t<WORD_BYTES == 4, unsigned int,
                                     ::cuda::std::conditional_t<WORD_BYTES == 2, unsigned short, unsigned char>>>>;
  static_assert(sizeof(Word) == WORD_BYTES && alignof(Word) == WORD_BYTES);

  //! Words pay off only when wider than what a T access may already assume (its alignment); they
  //! copy bytes, so T must be trivially copyable.
  static constexpr bool ENABLED = WORD_BYTES > static_cast<int>(alignof(T)) && ::cuda::std::is_trivially_copyable_v<T>;

  //! Whether a tile at `ptr` can be moved in words (cudaMalloc'd memory always can).
  STRATA_DEVICE STRATA_FORCEINLINE static bool Aligned(const void* ptr)
  {
    return reinterpret_cast<::cuda::std::uintptr_t>(ptr) % WORD_BYTES == 0;
  }
};

//! LoadDirectBlockedVectorized with the cache operator MODIFIER: every word (or, in the fallback,
//! every item) is read with ThreadLoad<MODIFIER>.
template <CacheLoadModifier MODIFIER, typename T, int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE void InternalLoadDirectBlockedVectorized(int linear_tid, const T* block_src_ptr,
                                                                          T (&dst_items)[ITEMS_PER_THREAD])
{
  using Vector = BlockedVector<T, ITEMS_PER_THREAD>;
  if constexpr (Vector::ENABLED)
  {
    if (Vector::Aligned(block_src_ptr))
    {
      using Word      = typename Vector::Word;
      const Word* src = reinterpret_cast<const Word*>(block_src_ptr) + linear_tid * Vector::WORDS;
      Word words[Vector::WORDS];
#pragma unroll
      for (int i = 0; i < Vector::WORDS; ++i)
      {
        words[i] = ThreadLoad<MODIFIER>(src + i);
      }
      ::strata::detail::CopyBytes(static_cast<void*>(dst_items), words, sizeof(words));
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    dst_items[i] = ThreadLoad<MODIFIER>(block_src_ptr + linear_tid * ITEMS_PER_THREAD + i);
  }
}
} // namespace detail

//! LoadDirectBlocked from a pointer, in vector words: the calling thread's
//! ITEMS_PER_THREAD * sizeof(T) bytes are read as the widest words (16, 8, 4 or 2 bytes) that
//! divide them, e.g. one 16-byte load for 4 ints, two for 4 doubles. The words need
//! `block_src_ptr` aligned to their width (cudaMalloc'd memory is); when it is not, or when no
//! word is wider than T's alignment (e.g. 3 ints), the items are loaded one by one.
//! T must be trivially copyable to be loaded in words.
//!
//! \code
//! int items[4];
//! strata::LoadDirectBlockedVectorized(threadIdx.x, d_in, items); // one LDG.E.128 per thread
//! \endcode
template <typename T, int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlockedVectorized(int linear_tid, const T* block_src_ptr,
                                                                  T (&dst_items)[ITEMS_PER_THREAD])
{
  detail::InternalLoadDirectBlockedVectorized<LOAD_DEFAULT>(linear_tid, block_src_ptr, dst_items);
}

//! Loads rank `linear_tid`'s items of a tile striped over BLOCK_THREADS ranks:
//! dst_items[i] = block_src_it[linear_tid + i * BLOCK_THREADS].
//!
//! \code
//! int items[4];
//! strata::LoadDirectStriped<128>(threadIdx.x, d_in, items); // coalesced: neighbours read neighbours
//! \endcode
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD])
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    dst_items[i] = block_src_it[linear_tid + i * BLOCK_THREADS];
  }
}

//! Loads the items of a striped tile that lie below tile position `block_items_end`; the
//! calling thread's items at or beyond it are left as they are.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end)
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = linear_tid + i * BLOCK_THREADS;
    if (pos < block_items_end)
    {
      dst_items[i] = block_src_it[pos];
    }
  }
}

//! Loads the items of a striped tile that lie below tile position `block_items_end`; the
//! calling thread's items at or beyond it get `oob_default`.
template <int BLOCK_THREADS, typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                                        DefaultT oob_default)
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = linear_tid + i * BLOCK_THREADS;
    if (pos < block_items_end)
    {
      dst_items[i] = block_src_it[pos];
    }
    else
    {
      dst_items[i] = oob_default;
    }
  }
}

namespace detail
{
//! Where rank `linear_tid`'s first item lies in a warp-striped tile: its hardware warp's segment
//! of 32 * ITEMS_PER_THREAD items, plus its lane.
template <int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE int WarpStripedOffset(int linear_tid)
{
  const int lane = linear_tid & (warp_threads - 1);
  const int warp = linear_tid >> log2_warp_threads;
  return warp * warp_threads * ITEMS_PER_THREAD + lane;
}
} // namespace detail

//! Loads rank `linear_tid`'s items of a warp-striped tile: with lane = linear_tid % 32 and
//! warp = linear_tid / 32, dst_items[i] = block_src_it[warp * 32 * ITEMS_PER_THREAD + lane + 32 * i].
//! The ranks of the tile must make whole hardware warps.
//!
//! \code
//! int items[4];
//! strata::LoadDirectWarpStriped(threadIdx.x, d_in, items); // each warp reads its own 128 ints
//! \endcode
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                            T (&dst_items)[ITEMS_PER_THREAD])
{
  const int offset = detail::WarpStripedOffset<ITEMS_PER_THREAD>(linear_tid);
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    dst_items[i] = block_src_it[offset + i * detail::warp_threads];
  }
}

//! Loads the items of a warp-striped tile that lie below tile position `block_items_end`; the
//! calling thread's items at or beyond it are left as they are.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                            T (&dst_items)[ITEMS_PER_THREAD], int block_items_end)
{
  const int offset = detail::WarpStripedOffset<ITEMS_PER_THREAD>(linear_tid);
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = offset + i * detail::warp_threads;
    if (pos < block_items_end)
    {
      dst_items[i] = block_src_it[pos];
    }
  }
}

//! Loads the items of a warp-striped tile that lie below tile position `block_items_end`; the
//! calling thread's items at or beyond it get `oob_default`.
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                            T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                                            DefaultT oob_default)
{
  const int offset = detail::WarpStripedOffset<ITEMS_PER_THREAD>(linear_tid);
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = offset + i * detail::warp_threads;
    if (pos < block_items_end)
    {
      dst_items[i] = block_src_it[pos];
    }
    else
    {
      dst_items[i] = oob_default;
    }
  }
}

//! Stores rank `linear_tid`'s items into a blocked tile at `block_itr`:
//! block_itr[linear_tid * ITEMS_PER_THREAD + i] = items[i].
//!
//! \code
//! strata::StoreDirectBlocked(threadIdx.x, d_out + blockIdx.x * 512, items); // 128 threads, 4 items
//! \endcode
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD])
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    block_itr[linear_tid * ITEMS_PER_THREAD + i] = items[i];
  }
}

//! Stores the calling thread's items of a blocked tile that fall below tile position
//! `valid_items`; nothing at or beyond it is written.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD], int valid_items)
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = linear_tid * ITEMS_PER_THREAD + i;
    if (pos < valid_items)
    {
      block_itr[pos] = items[i];
    }
  }
}

//! StoreDirectBlocked to a pointer, in vector words: the calling thread's
//! ITEMS_PER_THREAD * sizeof(T) bytes are written as the widest words (16, 8, 4 or 2 bytes) that
//! divide them. The words need `block_ptr` aligned to their width (cudaMalloc'd memory is); when
//! it is not, or when no word is wider than T's alignment, the items are stored one by one.
//!
//! \code
//! strata::StoreDirectBlockedVectorized(threadIdx.x, d_out, items); // int[4]: one STG.E.128
//! \endcode
template <typename T, int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectBlockedVectorized(int linear_tid, T* block_ptr,
                                                                   const T (&items)[ITEMS_PER_THREAD])
{
  using Vector = detail::BlockedVector<T, ITEMS_PER_THREAD>;
  if constexpr (Vector::ENABLED)
  {
    if (Vector::Aligned(block_ptr))
    {
      using Word = typename Vector::Word;
      Word words[Vector::WORDS];
      ::strata::detail::CopyBytes(words, static_cast<const void*>(items), sizeof(words));
      Word* dst = reinterpret_cast<Word*>(block_ptr) + linear_tid * Vector::WORDS;
#pragma unroll
      for (int i = 0; i < Vector::WORDS; ++i)
      {
        dst[i] = words[i];
      }
      return;
    }
  }
  StoreDirectBlocked(linear_tid, block_ptr, items);
}

//! Stores rank `linear_tid`'s items into a tile striped over BLOCK_THREADS ranks:
//! block_itr[linear_tid + i * BLOCK_THREADS] = items[i].
//!
//! \code
//! strata::StoreDirectStriped<128>(threadIdx.x, d_out, items);
//! \endcode
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD])
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    block_itr[linear_tid + i * BLOCK_THREADS] = items[i];
  }
}

//! Stores the calling thread's items of a striped tile that fall below tile position
//! `valid_items`; nothing at or beyond it is written.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD], int valid_items)
{
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = linear_tid + i * BLOCK_THREADS;
    if (pos < valid_items)
    {
      block_itr[pos] = items[i];
    }
  }
}

//! Stores rank `linear_tid`'s items into a warp-striped tile (see LoadDirectWarpStriped). The
//! ranks of the tile must make whole hardware warps.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr,
                                                             const T (&items)[ITEMS_PER_THREAD])
{
  const int offset = detail::WarpStripedOffset<ITEMS_PER_THREAD>(linear_tid);
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    block_itr[offset + i * detail::warp_threads] = items[i];
  }
}

//! Stores the calling thread's items of a warp-striped tile that fall below tile position
//! `valid_items`; nothing at or beyond it is written.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr,
                                                             const T (&items)[ITEMS_PER_THREAD], int valid_items)
{
  const int offset = detail::WarpStripedOffset<ITEMS_PER_THREAD>(linear_tid);
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int pos = offset + i * detail::warp_threads;
    if (pos < valid_items)
    {
      block_itr[pos] = items[i];
    }
  }
}

template <CacheLoadModifier MODIFIER, typename ValueT, typename OffsetT>
class CacheModifiedInputIterator; // iterator/cache_modified_input_iterator.cuh

namespace detail
{
//! Whether It is a CacheModifiedInputIterator over T (`VALUE`), and its cache operator.
template <typename It, typename T>
struct IsCacheModifiedInput
{
  static constexpr bool VALUE = false;
};
template <CacheLoadModifier LOAD_MODIFIER, typename T, typename OffsetT>
struct IsCacheModifiedInput<CacheModifiedInputIterator<LOAD_MODIFIER, T, OffsetT>, T>
{
  static constexpr bool VALUE                 = true;
  static constexpr CacheLoadModifier MODIFIER = LOAD_MODIFIER;
};

//! The *_LOAD_VECTORIZE algorithms of BlockLoad and WarpLoad: vector loads from a pointer to T or
//! a CacheModifiedInputIterator over T (with its cache operator), item by item otherwise.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlockedVectorizedWhereAllowed(int linear_tid,
                                                                              RandomAccessIterator block_src_it,
                                                                              T (&dst_items)[ITEMS_PER_THREAD])
{
  using CacheModified = IsCacheModifiedInput<RandomAccessIterator, T>;
  using PointeeT      = ::cuda::std::remove_const_t<::cuda::std::remove_pointer_t<RandomAccessIterator>>;
  if constexpr (::cuda::std::is_pointer_v<RandomAccessIterator> && ::cuda::std::is_same_v<PointeeT, T>)
  {
    InternalLoadDirectBlockedVectorized<LOAD_DEFAULT>(linear_tid, block_src_it, dst_items);
  }
  else if constexpr (CacheModified::VALUE)
  {
    InternalLoadDirectBlockedVectorized<CacheModified::MODIFIER>(linear_tid, block_src_it.ptr, dst_items);
  }
  else
  {
    LoadDirectBlocked(linear_tid, block_src_it, dst_items);
  }
}

//! The *_STORE_VECTORIZE algorithms of BlockStore and WarpStore: vector stores through a T*,
//! item by item otherwise.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectBlockedVectorizedWhereAllowed(int linear_tid, OutputIteratorT block_it,
                                                                               const T (&items)[ITEMS_PER_THREAD])
{
  if constexpr (::cuda::std::is_same_v<OutputIteratorT, T*>)
  {
    StoreDirectBlockedVectorized(linear_tid, block_it, items);
  }
  else
  {
    StoreDirectBlocked(linear_tid, block_it, items);
  }
}
} // namespace detail

STRATA_NAMESPACE_END

// strata/thread/thread_store.cuh: ThreadStore, one thread's store with a PTX cache operator.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/copy_bytes.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! How ThreadStore writes global memory (the PTX cache operators).
enum CacheStoreModifier
{
  STORE_DEFAULT,  //!< an ordinary store (the compiler chooses)
  STORE_WB,       //!< st.global.wb: cache write-back at all levels
  STORE_CG,       //!< st.global.cg: cache in L2, not L1
  STORE_CS,       //!< st.global.cs: cache streaming, likely accessed once
  STORE_WT,       //!< st.global.wt: write through to system memory
  STORE_VOLATILE, //!< a volatile store (any state space)
};

namespace detail
{
//! One word store with a cache operator; Word is one of UnitWord's DeviceWord types.
template <CacheStoreModifier MODIFIER>
struct StoreWord;

// "memory" keeps the compiler from moving other memory accesses across the store.
#define STRATA_DETAIL_DEFINE_STORE_WORD(MODIFIER, OP)                                                                  \
  template <>                                                                                                          \
  struct StoreWord<MODIFIER>                                                                                           \
  {                                                                                                                    \
    STRATA_DEVICE STRATA_FORCEINLINE static void Store(ulonglong2* ptr, ulonglong2 word)                               \
    {                                                                                                                  \
      asm volatile("st.global." OP ".v2.u64 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(ptr)), "l"(word.x),        \
                   "l"(word.y)                                                                                         \
                   : "memory");                                                                                        \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static void Store(unsigned long long* ptr, unsigned long long word)               \
    {                                                                                                                  \
      asm volatile("st.global." OP ".u64 [%0], %1;" ::"l"(__cvta_generic_to_global(ptr)), "l"(word) : "memory");       \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static void Store(unsigned int* ptr, unsigned int word)                           \
    {                                                                                                                  \
      asm volatile("st.global." OP ".u32 [%0], %1;" ::"l"(__cvta_generic_to_global(ptr)), "r"(word) : "memory");       \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static void Store(unsigned short* ptr, unsigned short word)                       \
    {                                                                                                                  \
      asm volatile("st.global." OP ".u16 [%0], %1;" ::"l"(__cvta_generic_to_global(ptr)), "h"(word) : "memory");       \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static void Store(unsigned char* ptr, unsigned char word)                         \
    {                                                                                                                  \
      asm volatile("st.global." OP ".u8 [%0], %1;" ::"l"(__cvta_generic_to_global(ptr)),                               \
                   "h"(static_cast<unsigned short>(word))                                                              \
                   : "memory");                                                                                        \
    }                                                                                                                  \
  }

STRATA_DETAIL_DEFINE_STORE_WORD(STORE_WB, "wb");
STRATA_DETAIL_DEFINE_STORE_WORD(STORE_CG, "cg");
STRATA_DETAIL_DEFINE_STORE_WORD(STORE_CS, "cs");
STRATA_DETAIL_DEFINE_STORE_WORD(STORE_WT, "wt");
#undef STRATA_DETAIL_DEFINE_STORE_WORD

//! Stores a T to `ptr` word by word, in the widest words its size and alignment allow.
template <CacheStoreModifier MODIFIER, typename T>
STRATA_DEVICE STRATA_FORCEINLINE void StoreByWords(T* ptr, const T& value)
{
  static_assert(::cuda::std::is_trivially_copyable_v<T>,
                "ThreadStore with a cache modifier needs a trivially copyable type; use STORE_DEFAULT");
  using Word          = typename UnitWord<T>::DeviceWord;
  constexpr int WORDS = static_cast<int>(sizeof(T) / sizeof(Word));
  Word words[WORDS];
  ::strata::detail::CopyBytes(words, &value, sizeof(T));
  Word* dst = reinterpret_cast<Word*>(ptr);
#pragma unroll
  for (int i = 0; i < WORDS; ++i)
  {
    if constexpr (MODIFIER == STORE_VOLATILE)
    {
      using VolatileWord  = typename UnitWord<T>::VolatileWord;
      constexpr int PARTS = static_cast<int>(sizeof(Word) / sizeof(VolatileWord));
      VolatileWord parts[PARTS];
      ::strata::detail::CopyBytes(parts, &words[i], sizeof(Word));
#pragma unroll
      for (int p = 0; p < PARTS; ++p)
      {
        reinterpret_cast<volatile VolatileWord*>(dst + i)[p] = parts[p];
      }
    }
    else
    {
      StoreWord<MODIFIER>::Store(dst + i, words[i]);
    }
  }
}
} // namespace detail

//! Stores `val` to `*itr` with the cache operator MODIFIER. A pointer gets the PTX store of that
//! operator: STORE_WB, STORE_CG, STORE_CS and STORE_WT are `st.global.*` and need a pointer to
//! global memory; STORE_VOLATILE is a volatile store and STORE_DEFAULT an ordinary one, both valid
//! in any state space. Other output iterators are simply assigned through.
//!
//! \code
//! strata::ThreadStore<strata::STORE_CS>(d_out + threadIdx.x, x); // st.global.cs.u32
//! \endcode
template <CacheStoreModifier MODIFIER = STORE_DEFAULT, typename OutputIteratorT, typename T>
STRATA_DEVICE STRATA_FORCEINLINE void ThreadStore(OutputIteratorT itr, T val)
{
  if constexpr (MODIFIER == STORE_DEFAULT || !::cuda::std::is_pointer_v<OutputIteratorT>)
  {
    *itr = val;
  }
  else
  {
    using ValueT = ::cuda::std::remove_cv_t<::cuda::std::remove_pointer_t<OutputIteratorT>>;
    detail::StoreByWords<MODIFIER>(const_cast<ValueT*>(itr), static_cast<ValueT>(val));
  }
}

STRATA_NAMESPACE_END

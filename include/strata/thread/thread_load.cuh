// strata/thread/thread_load.cuh: ThreadLoad, one thread's load with a PTX cache operator, and
// the unrolled loads and copies of a few consecutive items (UnrolledThreadLoad, UnrolledCopy).
#pragma once

#include <strata/config.cuh>
#include <strata/detail/copy_bytes.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! How ThreadLoad reads global memory (the PTX cache operators).
enum CacheLoadModifier
{
  LOAD_DEFAULT,  //!< an ordinary load (the compiler chooses)
  LOAD_CA,       //!< ld.global.ca: cache at all levels
  LOAD_CG,       //!< ld.global.cg: cache in L2, not L1
  LOAD_CS,       //!< ld.global.cs: cache streaming, likely accessed once
  LOAD_CV,       //!< ld.global.cv: don't cache, fetch again
  LOAD_LDG,      //!< ld.global.nc: through the read-only data cache
  LOAD_VOLATILE, //!< a volatile load (any state space)
};

namespace detail
{
//! One word load with a cache operator; Word is one of UnitWord's DeviceWord types.
template <CacheLoadModifier MODIFIER>
struct LoadWord;

// Each specialization spells out the PTX of one cache operator for the five word widths.
// "memory" keeps the compiler from moving other memory accesses across the load, which it
// cannot see through the asm.
#define STRATA_DETAIL_DEFINE_LOAD_WORD(MODIFIER, OP)                                                                   \
  template <>                                                                                                          \
  struct LoadWord<MODIFIER>                                                                                            \
  {                                                                                                                    \
    STRATA_DEVICE STRATA_FORCEINLINE static ulonglong2 Load(const ulonglong2* ptr)                                     \
    {                                                                                                                  \
      ulonglong2 word;                                                                                                 \
      asm volatile("ld.global." OP ".v2.u64 {%0, %1}, [%2];"                                                           \
                   : "=l"(word.x), "=l"(word.y)                                                                        \
                   : "l"(__cvta_generic_to_global(ptr))                                                                \
                   : "memory");                                                                                        \
      return word;                                                                                                     \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static unsigned long long Load(const unsigned long long* ptr)                     \
    {                                                                                                                  \
      unsigned long long word;                                                                                         \
      asm volatile("ld.global." OP ".u64 %0, [%1];" : "=l"(word) : "l"(__cvta_generic_to_global(ptr)) : "memory");     \
      return word;                                                                                                     \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static unsigned int Load(const unsigned int* ptr)                                 \
    {                                                                                                                  \
      unsigned int word;                                                                                               \
      asm volatile("ld.global." OP ".u32 %0, [%1];" : "=r"(word) : "l"(__cvta_generic_to_global(ptr)) : "memory");     \
      return word;                                                                                                     \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static unsigned short Load(const unsigned short* ptr)                             \
    {                                                                                                                  \
      unsigned short word;                                                                                             \
      asm volatile("ld.global." OP ".u16 %0, [%1];" : "=h"(word) : "l"(__cvta_generic_to_global(ptr)) : "memory");     \
      return word;                                                                                                     \
    }                                                                                                                  \
    STRATA_DEVICE STRATA_FORCEINLINE static unsigned char Load(const unsigned char* ptr)                               \
    {                                                                                                                  \
      unsigned short word;                                                                                             \
      asm volatile("ld.global." OP ".u8 %0, [%1];" : "=h"(word) : "l"(__cvta_generic_to_global(ptr)) : "memory");      \
      return static_cast<unsigned char>(word);                                                                         \
    }                                                                                                                  \
  }

STRATA_DETAIL_DEFINE_LOAD_WORD(LOAD_CA, "ca");
STRATA_DETAIL_DEFINE_LOAD_WORD(LOAD_CG, "cg");
STRATA_DETAIL_DEFINE_LOAD_WORD(LOAD_CS, "cs");
STRATA_DETAIL_DEFINE_LOAD_WORD(LOAD_CV, "cv");
STRATA_DETAIL_DEFINE_LOAD_WORD(LOAD_LDG, "nc");
#undef STRATA_DETAIL_DEFINE_LOAD_WORD

//! Loads a T from `ptr` word by word, in the widest words its size and alignment allow. A T that
//! is not trivially copyable is read as its bytes into a default-constructed T, as in CUB.
template <CacheLoadModifier MODIFIER, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T LoadByWords(const T* ptr)
{
  using Word          = typename UnitWord<T>::DeviceWord;
  constexpr int WORDS = static_cast<int>(sizeof(T) / sizeof(Word));
  Word words[WORDS];
  const Word* src = reinterpret_cast<const Word*>(ptr);
#pragma unroll
  for (int i = 0; i < WORDS; ++i)
  {
    if constexpr (MODIFIER == LOAD_VOLATILE)
    {
      // Word by word through volatile words: volatile reads of a whole class type are not
      // possible in general, and this works in every state space.
      using VolatileWord = typename UnitWord<T>::VolatileWord;
      static_assert(sizeof(VolatileWord) <= sizeof(Word));
      constexpr int PARTS = static_cast<int>(sizeof(Word) / sizeof(VolatileWord));
      VolatileWord parts[PARTS];
#pragma unroll
      for (int p = 0; p < PARTS; ++p)
      {
        parts[p] = reinterpret_cast<const volatile VolatileWord*>(src + i)[p];
      }
      ::strata::detail::CopyBytes(&words[i], parts, sizeof(Word));
    }
    else
    {
      words[i] = LoadWord<MODIFIER>::Load(src + i);
    }
  }
  T value;
  ::strata::detail::CopyBytes(static_cast<void*>(&value), words, sizeof(T));
  return value;
}
} // namespace detail

//! Loads `*itr` with the cache operator MODIFIER. A pointer gets the PTX load of that operator:
//! LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV and LOAD_LDG are `ld.global.*` and need a pointer to global
//! memory; LOAD_VOLATILE is a volatile load and LOAD_DEFAULT an ordinary one, both valid in any
//! state space (shared memory too). Iterators that are not pointers are simply dereferenced.
//!
//! \code
//! int x = strata::ThreadLoad<strata::LOAD_CG>(d_in + threadIdx.x); // ld.global.cg.u32
//! \endcode
template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE detail::it_value_t<RandomAccessIterator> ThreadLoad(RandomAccessIterator itr)
{
  using T = detail::it_value_t<RandomAccessIterator>;
  if constexpr (MODIFIER == LOAD_DEFAULT || !::cuda::std::is_pointer_v<RandomAccessIterator>)
  {
    return *itr;
  }
  else
  {
    return detail::LoadByWords<MODIFIER>(static_cast<const T*>(itr));
  }
}

//! dst[i] = ThreadLoad<MODIFIER>(src + i) for i in [0, Count), unrolled.
template <int Count, CacheLoadModifier MODIFIER, typename T>
STRATA_DEVICE STRATA_FORCEINLINE void UnrolledThreadLoad(const T* src, T* dst)
{
#pragma unroll
  for (int i = 0; i < Count; ++i)
  {
    dst[i] = ThreadLoad<MODIFIER>(src + i);
  }
}

//! dst[i] = src[i] for i in [0, Count), unrolled; src is any random-access iterator.
template <int Count, typename RandomAccessIterator, typename T>
STRATA_DEVICE STRATA_FORCEINLINE void UnrolledCopy(RandomAccessIterator src, T* dst)
{
#pragma unroll
  for (int i = 0; i < Count; ++i)
  {
    dst[i] = src[i];
  }
}

STRATA_NAMESPACE_END

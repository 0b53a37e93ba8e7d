// strata/util_type.cuh: vocabulary types (NullType, Uninitialized, KeyValuePair, DoubleBuffer,
// FutureValue), compile-time arithmetic (Log2, PowerOfTwo), alignment words, and the numeric
// traits with the radix "twiddling" that maps keys to order-preserving unsigned bits.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

STRATA_NAMESPACE_BEGIN

namespace detail
{
template <typename It>
using it_value_t = typename ::cuda::std::iterator_traits<It>::value_type;
template <typename It>
using it_reference_t = typename ::cuda::std::iterator_traits<It>::reference;
template <typename It>
using it_difference_t = typename ::cuda::std::iterator_traits<It>::difference_type;
template <typename It>
using it_pointer_t = typename ::cuda::std::iterator_traits<It>::pointer;

//! The value type of iterator It, or FallbackT when It is an output iterator whose value type
//! is void (e.g. a discard iterator or `void*`).
template <typename It, typename FallbackT>
using non_void_value_t = ::cuda::std::conditional_t<::cuda::std::is_void_v<it_value_t<It>>, FallbackT, it_value_t<It>>;

//! A compile-time value as a type (CUB's tag type, e.g. of GridEvenShare::BlockInit's strategy).
template <auto VALUE>
using constant_t = ::cuda::std::integral_constant<decltype(VALUE), VALUE>;
template <auto VALUE>
inline constexpr constant_t<VALUE> constant_v{};
} // namespace detail

//! Stands for "no type" in template arguments (e.g. keys-only sorts have NullType values).
struct NullType
{
  using value_type = NullType;

  NullType() = default;
  //! Accepts (and ignores) any value, so NullType can sit where an output value is written.
  template <typename T>
  STRATA_HOST_DEVICE constexpr explicit NullType(const T&)
  {
  }
  template <typename T>
  STRATA_HOST_DEVICE constexpr NullType& operator=(const T&)
  {
    return *this;
  }
  friend STRATA_HOST_DEVICE constexpr bool operator==(const NullType&, const NullType&)
  {
    return true;
  }
  friend STRATA_HOST_DEVICE constexpr bool operator!=(const NullType&, const NullType&)
  {
    return false;
  }
};

//! `VALUE` = log2(N) rounded up (CUB's definition: Log2<8> is 3, Log2<3> is 2), N > 0; `POW2`
//! tells whether N is a power of two. CURRENT_VAL and COUNT are the state of CUB's recursive
//! definition (VALUE counts COUNT plus the bits of CURRENT_VAL): leave them at their defaults.
template <int N, int CURRENT_VAL = N, int COUNT = 0>
struct Log2
{
  static_assert(N > 0, "Log2 is defined for positive N only");
  static_assert(CURRENT_VAL >= 0 && COUNT >= 0 && COUNT + CURRENT_VAL > 0,
                "Log2's CURRENT_VAL and COUNT (CUB's recursion state) are not negative");

private:
  static constexpr int BITS = COUNT + ::cuda::std::bit_width(static_cast<unsigned int>(CURRENT_VAL));

public:
  static constexpr int VALUE = (1 << (BITS - 1)) < N ? BITS : BITS - 1;
  static constexpr bool POW2 = ::cuda::std::has_single_bit(static_cast<unsigned int>(N));
};

//! Whether N is a power of two (`VALUE`), and the powers of two around it.
template <int N>
struct PowerOfTwo
{
  static_assert(N > 0, "PowerOfTwo is defined for positive N only");
  static constexpr bool VALUE       = ::cuda::std::has_single_bit(static_cast<unsigned int>(N));
  static constexpr int ROUNDED_UP   = static_cast<int>(::cuda::std::bit_ceil(static_cast<unsigned int>(N)));
  static constexpr int ROUNDED_DOWN = static_cast<int>(::cuda::std::bit_floor(static_cast<unsigned int>(N)));
};

//! The alignment of T (`ALIGN_BYTES`) and T itself (`Type`).
template <typename T>
struct AlignBytes
{
  static constexpr unsigned ALIGN_BYTES = alignof(T);
  using Type                            = T;
};
template <typename T>
struct AlignBytes<const T> : AlignBytes<T>
{
};
template <typename T>
struct AlignBytes<volatile T> : AlignBytes<T>
{
};
template <typename T>
struct AlignBytes<const volatile T> : AlignBytes<T>
{
};

//! The widest words into which a T can be cut, by size and alignment: for shuffles (at most
//! 4 bytes), volatile accesses (at most 8), plain device accesses (at most 16) and texture
//! fetches (at most 16).
template <typename T>
struct UnitWord
{
  static constexpr auto ALIGN_BYTES = AlignBytes<T>::ALIGN_BYTES;

  //! Whether a T is a whole number of Units, aligned at least as a Unit.
  template <typename Unit>
  struct IsMultiple
  {
    static constexpr auto UNIT_ALIGN_BYTES = AlignBytes<Unit>::ALIGN_BYTES;
    static constexpr bool IS_MULTIPLE      = sizeof(T) % sizeof(Unit) == 0 && ALIGN_BYTES % UNIT_ALIGN_BYTES == 0;
  };

private:
  template <typename Unit>
  static constexpr bool fits = IsMultiple<Unit>::IS_MULTIPLE;
  using Bytes                = unsigned char;

public:
  using ShuffleWord =
      ::cuda::std::conditional_t<fits<unsigned int>, unsigned int,
                                 ::cuda::std::conditional_t<fits<unsigned short>, unsigned short, Bytes>>;
  using VolatileWord = ::cuda::std::conditional_t<fits<unsigned long long>, unsigned long long, ShuffleWord>;
  using DeviceWord   = ::cuda::std::conditional_t<fits<ulonglong2>, ulonglong2, VolatileWord>;
  using TextureWord =
      ::cuda::std::conditional_t<fits<uint4>, uint4, ::cuda::std::conditional_t<fits<uint2>, uint2, ShuffleWord>>;
};
template <typename T>
struct UnitWord<const T> : UnitWord<T>
{
};
template <typename T>
struct UnitWord<volatile T> : UnitWord<T>
{
};
template <typename T>
struct UnitWord<const volatile T> : UnitWord<T>
{
};

//! The most elements a CUDA vector type (int4, float4, ...) has.
inline constexpr int MAX_VEC_ELEMENTS = 4;

namespace detail
{
//! CUDA's vector types of 1 to 4 elements of one element type.
template <typename V1, typename V2, typename V3, typename V4>
struct cuda_vector_types
{
  template <int ELEMENTS>
  using type = ::cuda::std::conditional_t<
      ELEMENTS == 1, V1,
      ::cuda::std::conditional_t<ELEMENTS == 2, V2, ::cuda::std::conditional_t<ELEMENTS == 3, V3, V4>>>;
};

//! The vector types of element type T (none: the vector is a plain struct of x, y, z, w).
template <typename T>
struct cuda_vectors_of
{
  static constexpr bool BUILT_IN = false;
};

template <typename V1, typename V2, typename V3, typename V4>
struct built_in_vectors : cuda_vector_types<V1, V2, V3, V4>
{
  static constexpr bool BUILT_IN = true;
};

// The 4-element vectors of 8-byte elements (long4, double4, ...) are deprecated in CUDA 13 in
// favour of explicitly aligned ones; CubVector names them as CUB does, without the warning.
#if defined(__NVCC__)
#  pragma nv_diagnostic push
#  pragma nv_diag_suppress 1444, 20199
#endif
#if defined(__GNUC__)
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
// clang-format off
template <> struct cuda_vectors_of<char>               : built_in_vectors<char1, char2, char3, char4> {};
template <> struct cuda_vectors_of<signed char>        : built_in_vectors<char1, char2, char3, char4> {};
template <> struct cuda_vectors_of<short>              : built_in_vectors<short1, short2, short3, short4> {};
template <> struct cuda_vectors_of<int>                : built_in_vectors<int1, int2, int3, int4> {};
template <> struct cuda_vectors_of<long>               : built_in_vectors<long1, long2, long3, long4> {};
template <> struct cuda_vectors_of<long long>          : built_in_vectors<longlong1, longlong2, longlong3, longlong4> {};
template <> struct cuda_vectors_of<unsigned char>      : built_in_vectors<uchar1, uchar2, uchar3, uchar4> {};
template <> struct cuda_vectors_of<unsigned short>     : built_in_vectors<ushort1, ushort2, ushort3, ushort4> {};
template <> struct cuda_vectors_of<unsigned int>       : built_in_vectors<uint1, uint2, uint3, uint4> {};
template <> struct cuda_vectors_of<unsigned long>      : built_in_vectors<ulong1, ulong2, ulong3, ulong4> {};
template <> struct cuda_vectors_of<unsigned long long> : built_in_vectors<ulonglong1, ulonglong2, ulonglong3, ulonglong4> {};
template <> struct cuda_vectors_of<float>              : built_in_vectors<float1, float2, float3, float4> {};
template <> struct cuda_vectors_of<double>             : built_in_vectors<double1, double2, double3, double4> {};
template <> struct cuda_vectors_of<bool>               : built_in_vectors<uchar1, uchar2, uchar3, uchar4> {};
// clang-format on
#if defined(__GNUC__)
#  pragma GCC diagnostic pop
#endif
#if defined(__NVCC__)
#  pragma nv_diagnostic pop
#endif

//! The members of a vector of ELEMENTS elements of T that CUDA has no vector type for.
template <typename T, int ELEMENTS>
struct plain_vector;
template <typename T>
struct plain_vector<T, 1>
{
  T x;
};
template <typename T>
struct plain_vector<T, 2>
{
  T x, y;
};
template <typename T>
struct plain_vector<T, 3>
{
  T x, y, z;
};
template <typename T>
struct plain_vector<T, 4>
{
  T x, y, z, w;
};

template <typename T, int ELEMENTS, bool BUILT_IN = cuda_vectors_of<T>::BUILT_IN>
struct cub_vector_base
{
  using type = plain_vector<T, ELEMENTS>;
};
template <typename T, int ELEMENTS>
struct cub_vector_base<T, ELEMENTS, true>
{
  using type = typename cuda_vectors_of<T>::template type<ELEMENTS>;
};
} // namespace detail

//! A vector of `vec_elements` (1 to MAX_VEC_ELEMENTS) elements of T, with members x, y, z, w as
//! far as it has elements. For the element types of CUDA's vector types it derives from that
//! type (CubVector<int, 2> from int2) and `Type` names it; otherwise `Type` is CubVector itself.
//! `BaseType` is T. + and - work element by element.
template <typename T, int vec_elements>
struct CubVector : detail::cub_vector_base<T, vec_elements>::type
{
  static_assert(vec_elements >= 1 && vec_elements <= MAX_VEC_ELEMENTS, "CubVector has 1 to 4 elements");

  using BaseType = T;
  using Type     = ::cuda::std::conditional_t<detail::cuda_vectors_of<T>::BUILT_IN,
                                          typename detail::cub_vector_base<T, vec_elements>::type, CubVector>;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE CubVector operator+(const CubVector& other) const
  {
    return Apply(other, [](const auto& a, const auto& b) { return a + b; });
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE CubVector operator-(const CubVector& other) const
  {
    return Apply(other, [](const auto& a, const auto& b) { return a - b; });
  }

private:
  template <typename OpT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE CubVector Apply(const CubVector& other, OpT op) const
  {
    CubVector result;
    result.x = op(this->x, other.x);
    if constexpr (vec_elements > 1)
    {
      result.y = op(this->y, other.y);
    }
    if constexpr (vec_elements > 2)
    {
      result.z = op(this->z, other.z);
    }
    if constexpr (vec_elements > 3)
    {
      result.w = op(this->w, other.w);
    }
    return result;
  }
};

//! Storage for a T that runs no constructor, so that types with constructors can live in
//! `__shared__` memory and in unions; Alias() views the bytes as the T.
template <typename T>
struct Uninitialized
{
  alignas(T) unsigned char storage[sizeof(T)];

  STRATA_HOST_DEVICE T& Alias()
  {
    return *reinterpret_cast<T*>(storage);
  }
  STRATA_HOST_DEVICE const T& Alias() const
  {
    return *reinterpret_cast<const T*>(storage);
  }
};

namespace detail
{
//! Puts a copy of `value` at `slot`, where no T was constructed (an Uninitialized, temporary
//! device storage): a plain assignment where T is trivially copyable, else a copy construction in
//! place, since T's assignment may read the object it overwrites (CUB does the same). `value` is
//! taken by value: that keeps the code of trivially copyable types the assignment's, which a
//! reference does not always do (BlockReduce's warp aggregates).
template <typename T>
STRATA_DEVICE STRATA_FORCEINLINE void UninitializedCopy(T* slot, T value)
{
  if constexpr (::cuda::std::is_trivially_copyable_v<T>)
  {
    *slot = value;
  }
  else
  {
    ::new (static_cast<void*>(slot)) T(value); // placement new: nvcc declares it for device code
  }
}

//! The `__shared__` TempStorage a collective's default constructor uses: one per TempStorageT,
//! which every collective declares inside itself, so one per specialization and kernel, as in
//! CUB (default-constructed instances of one specialization share it).
template <typename TempStorageT>
STRATA_DEVICE STRATA_FORCEINLINE TempStorageT& PrivateTempStorage()
{
  __shared__ TempStorageT private_storage;
  return private_storage;
}
} // namespace detail

//! A key and a value (e.g. an index and the element there, as ArgMin produces).
template <typename K, typename V>
struct KeyValuePair
{
  using Key   = K;
  using Value = V;

  Key key;
  Value value;

  KeyValuePair() = default;
  STRATA_HOST_DEVICE constexpr KeyValuePair(const Key& k, const Value& v)
      : key(k)
      , value(v)
  {
  }

  STRATA_HOST_DEVICE constexpr bool operator==(const KeyValuePair& other) const
  {
    return key == other.key && value == other.value;
  }
  STRATA_HOST_DEVICE constexpr bool operator!=(const KeyValuePair& other) const
  {
    return !(*this == other);
  }
};

//! A pair of buffers of which one is "current" (input) and the other "alternate" (output);
//! multi-pass algorithms flip `selector` so the caller finds its result in Current().
template <typename T>
struct DoubleBuffer
{
  T* d_buffers[2]{nullptr, nullptr};
  int selector = 0;

  DoubleBuffer() = default;
  STRATA_HOST_DEVICE DoubleBuffer(T* d_current, T* d_alternate)
      : d_buffers{d_current, d_alternate}
  {
  }

  STRATA_HOST_DEVICE T* Current() const
  {
    return d_buffers[selector];
  }
  STRATA_HOST_DEVICE T* Alternate() const
  {
    return d_buffers[selector ^ 1];
  }
};

//! A value that will be read from device memory (through `iter`) only when a kernel runs:
//! lets a stream-ordered producer supply, e.g., the initial value of a scan.
template <typename T, typename IterT = T*>
struct FutureValue
{
  using value_type    = T;
  using iterator_type = IterT;

  STRATA_HOST_DEVICE explicit FutureValue(IterT iter)
      : iter_(iter)
  {
  }
  //! Reads the value; call it in device code.
  STRATA_HOST_DEVICE operator T() const noexcept
  {
    return *iter_;
  }
  //! The iterator the value will be read through.
  STRATA_HOST_DEVICE IterT iterator() const
  {
    return iter_;
  }

private:
  IterT iter_;
};

template <typename IterT>
FutureValue(IterT) -> FutureValue<detail::it_value_t<IterT>, IterT>;

namespace detail
{
//! An algorithm's argument that is either an immediate T or a FutureValue<T> read in the kernel.
template <typename T, typename IterT = T*>
class InputValue
{
public:
  STRATA_HOST_DEVICE InputValue(T immediate)
      : is_future_(false)
      , immediate_(immediate)
      , iter_()
  {
  }
  template <typename U>
  STRATA_HOST_DEVICE InputValue(FutureValue<U, IterT> future)
      : is_future_(true)
      , immediate_()
      , iter_(future.iterator())
  {
  }
  //! The value: the immediate one, or the one read through the future's iterator now.
  STRATA_HOST_DEVICE T operator*() const
  {
    return is_future_ ? static_cast<T>(*iter_) : immediate_;
  }

private:
  bool is_future_;
  T immediate_;
  IterT iter_;
};

} // namespace detail

//! The kind of number a type is, for radix sorting and numeric limits.
enum Category
{
  NOT_A_NUMBER,
  SIGNED_INTEGER,
  UNSIGNED_INTEGER,
  FLOATING_POINT
};

//! Traits shared by every type of one category. `UnsignedBits` is the unsigned integer as wide
//! as T; TwiddleIn maps T's bits to unsigned bits whose unsigned order is T's order, and
//! TwiddleOut undoes it. LOWEST_KEY and MAX_KEY are the bits of the keys that sort first and last.
template <Category CATEGORY_, bool PRIMITIVE_, typename UnsignedBitsT, typename T>
struct BaseTraits
{
  static constexpr Category CATEGORY = CATEGORY_;
  static constexpr bool PRIMITIVE    = PRIMITIVE_;
  static constexpr bool NULL_TYPE    = false;
  using UnsignedBits                 = UnsignedBitsT;
};

template <typename UnsignedBitsT, typename T>
struct BaseTraits<UNSIGNED_INTEGER, true, UnsignedBitsT, T>
{
  static constexpr Category CATEGORY = UNSIGNED_INTEGER;
  static constexpr bool PRIMITIVE    = true;
  static constexpr bool NULL_TYPE    = false;
  using UnsignedBits                 = UnsignedBitsT;

  static constexpr UnsignedBits LOWEST_KEY = UnsignedBits(0);
  static constexpr UnsignedBits MAX_KEY    = UnsignedBits(~UnsignedBits(0));

  STRATA_HOST_DEVICE static constexpr UnsignedBits TwiddleIn(UnsignedBits key)
  {
    return key;
  }
  STRATA_HOST_DEVICE static constexpr UnsignedBits TwiddleOut(UnsignedBits key)
  {
    return key;
  }
  STRATA_HOST_DEVICE static constexpr T Max()
  {
    return ::cuda::std::numeric_limits<T>::max();
  }
  STRATA_HOST_DEVICE static constexpr T Lowest()
  {
    return ::cuda::std::numeric_limits<T>::lowest();
  }
};

template <typename UnsignedBitsT, typename T>
struct BaseTraits<SIGNED_INTEGER, true, UnsignedBitsT, T>
{
  static constexpr Category CATEGORY = SIGNED_INTEGER;
  static constexpr bool PRIMITIVE    = true;
  static constexpr bool NULL_TYPE    = false;
  using UnsignedBits                 = UnsignedBitsT;

  //! The sign bit: flipping it puts negative numbers (two's complement) below positive ones.
  static constexpr UnsignedBits HIGH_BIT   = UnsignedBits(UnsignedBits(1) << (sizeof(UnsignedBits) * 8 - 1));
  static constexpr UnsignedBits LOWEST_KEY = HIGH_BIT;
  static constexpr UnsignedBits MAX_KEY    = UnsignedBits(UnsignedBits(~UnsignedBits(0)) ^ HIGH_BIT);

  STRATA_HOST_DEVICE static constexpr UnsignedBits TwiddleIn(UnsignedBits key)
  {
    return UnsignedBits(key ^ HIGH_BIT);
  }
  STRATA_HOST_DEVICE static constexpr UnsignedBits TwiddleOut(UnsignedBits key)
  {
    return UnsignedBits(key ^ HIGH_BIT);
  }
  STRATA_HOST_DEVICE static constexpr T Max()
  {
    return ::cuda::std::numeric_limits<T>::max();
  }
  STRATA_HOST_DEVICE static constexpr T Lowest()
  {
    return ::cuda::std::numeric_limits<T>::lowest();
  }
};

template <typename UnsignedBitsT, typename T>
struct BaseTraits<FLOATING_POINT, true, UnsignedBitsT, T>
{
  static constexpr Category CATEGORY = FLOATING_POINT;
  static constexpr bool PRIMITIVE    = true;
  static constexpr bool NULL_TYPE    = false;
  using UnsignedBits                 = UnsignedBitsT;

  static constexpr int BITS              = sizeof(UnsignedBits) * 8;
  static constexpr UnsignedBits HIGH_BIT = UnsignedBits(UnsignedBits(1) << (BITS - 1));
  //! The bits that sort first and last after twiddling (negative and positive all-ones NaNs).
  static constexpr UnsignedBits LOWEST_KEY = UnsignedBits(~UnsignedBits(0));
  static constexpr UnsignedBits MAX_KEY    = UnsignedBits(UnsignedBits(~UnsignedBits(0)) >> 1);

  //! Sign-magnitude to unsigned order: positive numbers get the sign bit set, negative numbers
  //! have every bit flipped (larger magnitude sorts lower). -0.0 sorts just below +0.0.
  STRATA_HOST_DEVICE static constexpr UnsignedBits TwiddleIn(UnsignedBits key)
  {
    const UnsignedBits mask = (key & HIGH_BIT) ? UnsignedBits(~UnsignedBits(0)) : HIGH_BIT;
    return UnsignedBits(key ^ mask);
  }
  STRATA_HOST_DEVICE static constexpr UnsignedBits TwiddleOut(UnsignedBits key)
  {
    const UnsignedBits mask = (key & HIGH_BIT) ? HIGH_BIT : UnsignedBits(~UnsignedBits(0));
    return UnsignedBits(key ^ mask);
  }
  //! The largest finite value.
  STRATA_HOST_DEVICE static constexpr T Max()
  {
    // All exponent bits set but the lowest, all mantissa bits set: the largest finite value in
    // every IEEE-like layout (float, double, __half, __nv_bfloat16).
    return ::cuda::std::bit_cast<T>(finite_max_bits());
  }
  //! The most negative finite value.
  STRATA_HOST_DEVICE static constexpr T Lowest()
  {
    return ::cuda::std::bit_cast<T>(UnsignedBits(finite_max_bits() | HIGH_BIT));
  }

private:
  STRATA_HOST_DEVICE static constexpr UnsignedBits finite_max_bits()
  {
    if constexpr (::cuda::std::is_same_v<T, __nv_fp8_e4m3>)
    {
      return UnsignedBits(0x7E); // e4m3 has no infinity: only S.1111.111 is NaN, 448 is S.1111.110
    }
    constexpr int exponent_bits = ::cuda::std::is_same_v<T, __half> || ::cuda::std::is_same_v<T, __nv_fp8_e5m2> ? 5
                                  : sizeof(T) == 8                                                              ? 11
                                                                                                                : 8;
    constexpr int mantissa_bits = BITS - 1 - exponent_bits;
    // exponent field 2^e - 2 (one below infinity/NaN), mantissa all ones
    const UnsignedBits exponent = UnsignedBits((UnsignedBits(1) << exponent_bits) - 2) << mantissa_bits;
    const UnsignedBits mantissa = UnsignedBits((UnsignedBits(1) << mantissa_bits) - 1);
    return UnsignedBits(exponent | mantissa);
  }
};

//! Numeric traits of T (see BaseTraits); types strata does not know are NOT_A_NUMBER.
template <typename T>
struct NumericTraits : BaseTraits<NOT_A_NUMBER, false, T, T>
{
};

template <>
struct NumericTraits<NullType> : BaseTraits<NOT_A_NUMBER, false, NullType, NullType>
{
  static constexpr bool NULL_TYPE = true;
};

// clang-format off
template <> struct NumericTraits<char>               : BaseTraits<(::cuda::std::numeric_limits<char>::is_signed ? SIGNED_INTEGER : UNSIGNED_INTEGER), true, unsigned char, char> {};
template <> struct NumericTraits<signed char>        : BaseTraits<SIGNED_INTEGER, true, unsigned char, signed char> {};
template <> struct NumericTraits<short>              : BaseTraits<SIGNED_INTEGER, true, unsigned short, short> {};
template <> struct NumericTraits<int>                : BaseTraits<SIGNED_INTEGER, true, unsigned int, int> {};
template <> struct NumericTraits<long>               : BaseTraits<SIGNED_INTEGER, true, unsigned long, long> {};
template <> struct NumericTraits<long long>          : BaseTraits<SIGNED_INTEGER, true, unsigned long long, long long> {};
template <> struct NumericTraits<unsigned char>      : BaseTraits<UNSIGNED_INTEGER, true, unsigned char, unsigned char> {};
template <> struct NumericTraits<unsigned short>     : BaseTraits<UNSIGNED_INTEGER, true, unsigned short, unsigned short> {};
template <> struct NumericTraits<unsigned int>       : BaseTraits<UNSIGNED_INTEGER, true, unsigned int, unsigned int> {};
template <> struct NumericTraits<unsigned long>      : BaseTraits<UNSIGNED_INTEGER, true, unsigned long, unsigned long> {};
template <> struct NumericTraits<unsigned long long> : BaseTraits<UNSIGNED_INTEGER, true, unsigned long long, unsigned long long> {};
template <> struct NumericTraits<bool>               : BaseTraits<UNSIGNED_INTEGER, true, unsigned char, bool> {};
#if defined(STRATA_HAS_INT128)
template <> struct NumericTraits<__int128>           : BaseTraits<SIGNED_INTEGER, true, unsigned __int128, __int128> {};
template <> struct NumericTraits<unsigned __int128>  : BaseTraits<UNSIGNED_INTEGER, true, unsigned __int128, unsigned __int128> {};
#endif
template <> struct NumericTraits<float>              : BaseTraits<FLOATING_POINT, true, unsigned int, float> {};
template <> struct NumericTraits<double>             : BaseTraits<FLOATING_POINT, true, unsigned long long, double> {};
template <> struct NumericTraits<__half>             : BaseTraits<FLOATING_POINT, true, unsigned short, __half> {};
template <> struct NumericTraits<__nv_bfloat16>      : BaseTraits<FLOATING_POINT, true, unsigned short, __nv_bfloat16> {};
template <> struct NumericTraits<__nv_fp8_e4m3>      : BaseTraits<FLOATING_POINT, true, unsigned char, __nv_fp8_e4m3> {};
template <> struct NumericTraits<__nv_fp8_e5m2>      : BaseTraits<FLOATING_POINT, true, unsigned char, __nv_fp8_e5m2> {};
// clang-format on

//! NumericTraits of T with const and volatile removed.
template <typename T>
struct Traits : NumericTraits<::cuda::std::remove_cv_t<T>>
{
};

STRATA_NAMESPACE_END

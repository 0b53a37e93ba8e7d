// strata/block/radix_rank_sort_operations.cuh: what radix ranking and sorting share: digit
// extractors (BaseDigitExtractor, BFEDigitExtractor, ShiftDigitExtractor), the key twiddling of RadixSortTwiddle, and
// the decomposers that let a sort treat the arithmetic members of a user's struct as one key.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/type_traits>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <nv/target>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Whether T is a key strata can twiddle itself (an integer, a floating-point type of any width).
template <typename T>
inline constexpr bool is_radix_fundamental_v = Traits<T>::PRIMITIVE;

//! Twiddled bits of -0.0 become those of +0.0, so the two zeros share every digit and keep their
//! input order (a stable sort treats them as equal, as CUB does). Other types pass unchanged.
template <typename KeyT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE typename Traits<KeyT>::UnsignedBits
MergeFloatZeros(typename Traits<KeyT>::UnsignedBits twiddled)
{
  using UnsignedBits = typename Traits<KeyT>::UnsignedBits;
  if constexpr (Traits<KeyT>::CATEGORY == FLOATING_POINT)
  {
    constexpr UnsignedBits sign          = UnsignedBits(UnsignedBits(1) << (sizeof(UnsignedBits) * 8 - 1));
    constexpr UnsignedBits minus_zero_in = Traits<KeyT>::TwiddleIn(sign);
    constexpr UnsignedBits plus_zero_in  = Traits<KeyT>::TwiddleIn(UnsignedBits(0));
    return twiddled == minus_zero_in ? plus_zero_in : twiddled;
  }
  else
  {
    return twiddled;
  }
}

//! The mask of the low `num_bits` bits (num_bits in 0..32).
STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t LowBitsMask(::cuda::std::uint32_t num_bits)
{
  return num_bits >= 32 ? 0xFFFFFFFFu : ((1u << num_bits) - 1u);
}
} // namespace detail

//! What the digit extractors share: the key's traits and bits, and ProcessFloatMinusZero, which
//! reads twiddled -0.0 as +0.0 for floating-point keys (IsFP) and passes other keys unchanged, so
//! that the two zeros share every digit.
template <typename KeyT, bool IsFP = ::cuda::is_floating_point_v<KeyT>>
struct BaseDigitExtractor
{
  using TraitsT      = Traits<KeyT>;
  using UnsignedBits = typename TraitsT::UnsignedBits;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE static UnsignedBits ProcessFloatMinusZero(UnsignedBits key)
  {
    return key;
  }
};

template <typename KeyT>
struct BaseDigitExtractor<KeyT, true>
{
  using TraitsT      = Traits<KeyT>;
  using UnsignedBits = typename TraitsT::UnsignedBits;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE static UnsignedBits ProcessFloatMinusZero(UnsignedBits key)
  {
    return detail::MergeFloatZeros<KeyT>(key);
  }
};

//! Extracts a digit of `num_bits` bits at `bit_start` from twiddled key bits with a bit-field
//! extract (BFE); twiddled -0.0 is read as +0.0.
template <typename KeyT>
struct BFEDigitExtractor : BaseDigitExtractor<KeyT>
{
  using typename BaseDigitExtractor<KeyT>::UnsignedBits;

  ::cuda::std::uint32_t bit_start;
  ::cuda::std::uint32_t num_bits;

  STRATA_DEVICE STRATA_FORCEINLINE explicit BFEDigitExtractor(::cuda::std::uint32_t bit_start = 0,
                                                              ::cuda::std::uint32_t num_bits  = 0)
      : bit_start(bit_start)
      , num_bits(num_bits)
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t Digit(UnsignedBits key) const
  {
    const UnsignedBits bits = this->ProcessFloatMinusZero(key);
    // sm_70 and later have no BFE instruction (PTX bfe is emulated); a shift and a mask are fewer
    // instructions there.
    NV_IF_TARGET(NV_PROVIDES_SM_70, (return ::cuda::std::uint32_t(bits >> bit_start) & detail::LowBitsMask(num_bits);),
                 (
                     if constexpr (sizeof(UnsignedBits) <= 4) {
                       ::cuda::std::uint32_t digit;
                       asm("bfe.u32 %0, %1, %2, %3;"
                           : "=r"(digit)
                           : "r"(::cuda::std::uint32_t(bits)), "r"(bit_start), "r"(num_bits));
                       return digit;
                     } else { return ::cuda::std::uint32_t(bits >> bit_start) & detail::LowBitsMask(num_bits); }));
  }
};

//! Extracts a digit of `num_bits` bits at `bit_start` from twiddled key bits with a shift and a
//! mask; twiddled -0.0 is read as +0.0.
template <typename KeyT>
struct ShiftDigitExtractor : BaseDigitExtractor<KeyT>
{
  using typename BaseDigitExtractor<KeyT>::UnsignedBits;

  ::cuda::std::uint32_t bit_start;
  ::cuda::std::uint32_t mask;

  STRATA_DEVICE STRATA_FORCEINLINE explicit ShiftDigitExtractor(::cuda::std::uint32_t bit_start = 0,
                                                                ::cuda::std::uint32_t num_bits  = 0)
      : bit_start(bit_start)
      , mask(detail::LowBitsMask(num_bits))
  {
  }

  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t Digit(UnsignedBits key) const
  {
    return ::cuda::std::uint32_t(this->ProcessFloatMinusZero(key) >> bit_start) & mask;
  }
};

namespace detail
{
//! The decomposer of fundamental keys: the key is its own only member.
struct identity_decomposer_t
{
  template <typename T>
  STRATA_HOST_DEVICE T& operator()(T& key) const
  {
    return key;
  }
};

namespace radix
{
//! Calls f on every member of a decomposer's tuple of references, least significant first (the
//! last tuple element is the least significant member of the key).
template <typename F, typename TupleT, ::cuda::std::size_t... Is>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void ForEachMemberLsbFirst(F&& f, const TupleT& members,
                                                                 ::cuda::std::index_sequence<Is...>)
{
  constexpr ::cuda::std::size_t n = sizeof...(Is);
  (f(::cuda::std::get<n - 1 - Is>(members)), ...);
}

template <typename DecomposerT, typename KeyT, typename F>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void ForEachMember(DecomposerT decomposer, KeyT& key, F&& f)
{
  auto members                    = decomposer(key);
  constexpr ::cuda::std::size_t n = ::cuda::std::tuple_size<decltype(members)>::value;
  static_assert(n > 0, "a decomposer must expose at least one member");
  ForEachMemberLsbFirst(f, members, ::cuda::std::make_index_sequence<n>{});
}

//! Replaces an arithmetic member by a function of its unsigned bits.
template <typename FieldT, typename F>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void MapFieldBits(FieldT& field, F f)
{
  using FieldValueT  = ::cuda::std::remove_cv_t<FieldT>;
  using UnsignedBits = typename Traits<FieldValueT>::UnsignedBits;
  static_assert(is_radix_fundamental_v<FieldValueT>,
                "a decomposer must return a cuda::std::tuple of references to arithmetic members");
  field = ::cuda::std::bit_cast<FieldValueT>(UnsignedBits(f(::cuda::std::bit_cast<UnsignedBits>(field))));
}

//! How a key type is turned into bits whose unsigned order is the key's order, and back; its
//! extreme keys; its default bit count; its digit extractor. Fundamental keys use their unsigned
//! bits; other keys stay themselves and go member by member through a decomposer.
template <typename KeyT, bool FUNDAMENTAL = is_radix_fundamental_v<KeyT>>
struct traits_t
{
  using bit_ordered_type = typename Traits<KeyT>::UnsignedBits;
  //! CUB's names of the conversion and inversion (to_bit_ordered / from_bit_ordered, inverse).
  using bit_ordered_conversion_policy = traits_t;
  using bit_ordered_inversion_policy  = traits_t;

  template <typename FundamentalExtractorT, typename DecomposerT>
  using digit_extractor_t = FundamentalExtractorT;

  STRATA_HOST_DEVICE static bit_ordered_type to_bit_ordered(identity_decomposer_t, bit_ordered_type key)
  {
    return Traits<KeyT>::TwiddleIn(key);
  }
  STRATA_HOST_DEVICE static bit_ordered_type from_bit_ordered(identity_decomposer_t, bit_ordered_type key)
  {
    return Traits<KeyT>::TwiddleOut(key);
  }
  STRATA_HOST_DEVICE static bit_ordered_type inverse(identity_decomposer_t, bit_ordered_type key)
  {
    return bit_ordered_type(~key);
  }
  STRATA_HOST_DEVICE static bit_ordered_type min_raw_binary_key(identity_decomposer_t)
  {
    return Traits<KeyT>::LOWEST_KEY;
  }
  STRATA_HOST_DEVICE static bit_ordered_type max_raw_binary_key(identity_decomposer_t)
  {
    return Traits<KeyT>::MAX_KEY;
  }
  STRATA_HOST_DEVICE static constexpr int default_end_bit(identity_decomposer_t)
  {
    return int(sizeof(KeyT) * 8);
  }
  template <typename FundamentalExtractorT>
  STRATA_DEVICE static FundamentalExtractorT digit_extractor(int begin_bit, int num_bits, identity_decomposer_t)
  {
    return FundamentalExtractorT(::cuda::std::uint32_t(begin_bit), ::cuda::std::uint32_t(num_bits));
  }
};

//! Digits of a decomposed key: the members' twiddled bits concatenated, the last member lowest.
template <typename DecomposerT>
struct custom_digit_extractor_t
{
  DecomposerT decomposer;
  ::cuda::std::uint32_t bit_start;
  ::cuda::std::uint32_t num_bits;

  STRATA_HOST_DEVICE custom_digit_extractor_t(DecomposerT decomposer, ::cuda::std::uint32_t bit_start,
                                              ::cuda::std::uint32_t num_bits)
      : decomposer(decomposer)
      , bit_start(bit_start)
      , num_bits(num_bits)
  {
  }

  template <typename KeyT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t Digit(KeyT& key) const
  {
    ::cuda::std::uint32_t digit  = 0;
    ::cuda::std::uint32_t filled = 0;         // digit bits written so far
    ::cuda::std::uint32_t skip   = bit_start; // key bits still below the digit
    ::cuda::std::uint32_t wanted = num_bits;
    ForEachMember(decomposer, key,
                  [&](auto& field)
                  {
                    using FieldT       = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(field)>>;
                    using UnsignedBits = typename Traits<FieldT>::UnsignedBits;
                    constexpr ::cuda::std::uint32_t field_bits = sizeof(FieldT) * 8;
                    if (skip >= field_bits)
                    {
                      skip -= field_bits;
                      return;
                    }
                    const ::cuda::std::uint32_t take = (field_bits - skip < wanted) ? field_bits - skip : wanted;
                    if (take > 0)
                    {
                      const UnsignedBits bits = MergeFloatZeros<FieldT>(::cuda::std::bit_cast<UnsignedBits>(field));
                      digit |= (::cuda::std::uint32_t(bits >> skip) & LowBitsMask(take)) << filled;
                      filled += take;
                      wanted -= take;
                    }
                    skip = 0;
                  });
    return digit;
  }
};

template <typename KeyT>
struct traits_t<KeyT, false>
{
  using bit_ordered_type              = KeyT;
  using bit_ordered_conversion_policy = traits_t;
  using bit_ordered_inversion_policy  = traits_t;

  template <typename FundamentalExtractorT, typename DecomposerT>
  using digit_extractor_t = custom_digit_extractor_t<DecomposerT>;

  template <typename DecomposerT>
  STRATA_HOST_DEVICE static KeyT to_bit_ordered(DecomposerT decomposer, KeyT key)
  {
    ForEachMember(decomposer, key,
                  [](auto& field)
                  {
                    using FieldT = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(field)>>;
                    MapFieldBits(field, [](auto bits) { return Traits<FieldT>::TwiddleIn(bits); });
                  });
    return key;
  }
  template <typename DecomposerT>
  STRATA_HOST_DEVICE static KeyT from_bit_ordered(DecomposerT decomposer, KeyT key)
  {
    ForEachMember(decomposer, key,
                  [](auto& field)
                  {
                    using FieldT = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(field)>>;
                    MapFieldBits(field, [](auto bits) { return Traits<FieldT>::TwiddleOut(bits); });
                  });
    return key;
  }
  template <typename DecomposerT>
  STRATA_HOST_DEVICE static KeyT inverse(DecomposerT decomposer, KeyT key)
  {
    ForEachMember(decomposer, key,
                  [](auto& field) { MapFieldBits(field, [](auto bits) { return decltype(bits)(~bits); }); });
    return key;
  }
  template <typename DecomposerT>
  STRATA_HOST_DEVICE static KeyT min_raw_binary_key(DecomposerT decomposer)
  {
    KeyT key{};
    ForEachMember(decomposer, key,
                  [](auto& field)
                  {
                    using FieldT = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(field)>>;
                    MapFieldBits(field, [](auto) { return Traits<FieldT>::LOWEST_KEY; });
                  });
    return key;
  }
  template <typename DecomposerT>
  STRATA_HOST_DEVICE static KeyT max_raw_binary_key(DecomposerT decomposer)
  {
    KeyT key{};
    ForEachMember(decomposer, key,
                  [](auto& field)
                  {
                    using FieldT = ::cuda::std::remove_cv_t<::cuda::std::remove_reference_t<decltype(field)>>;
                    MapFieldBits(field, [](auto) { return Traits<FieldT>::MAX_KEY; });
                  });
    return key;
  }
  //! The bits of all members together.
  template <typename DecomposerT>
  STRATA_HOST_DEVICE static int default_end_bit(DecomposerT decomposer)
  {
    KeyT key{};
    int bits = 0;
    ForEachMember(decomposer, key, [&bits](auto& field) { bits += int(sizeof(field) * 8); });
    return bits;
  }
  template <typename FundamentalExtractorT, typename DecomposerT>
  STRATA_HOST_DEVICE static custom_digit_extractor_t<DecomposerT> digit_extractor(int begin_bit, int num_bits,
                                                                                  DecomposerT decomposer)
  {
    return custom_digit_extractor_t<DecomposerT>(decomposer, ::cuda::std::uint32_t(begin_bit),
                                                 ::cuda::std::uint32_t(num_bits));
  }
};
} // namespace radix
} // namespace detail

//! Maps keys to bits whose unsigned order is the sort order (In) and back (Out): ascending sorts
//! twiddle, descending ones also invert every bit. DefaultKey is the key that sorts last, the
//! filler for items past the end of a partial tile. Custom key types pass a decomposer.
//!
//! \code
//! using Twiddle = strata::RadixSortTwiddle<false, float>;
//! unsigned int bits = Twiddle::In(cuda::std::bit_cast<unsigned int>(-1.5f)); // below In(+0.0f)
//! \endcode
template <bool IS_DESCENDING, typename KeyT>
struct RadixSortTwiddle
{
private:
  using traits           = detail::radix::traits_t<KeyT>;
  using bit_ordered_type = typename traits::bit_ordered_type;

public:
  template <typename DecomposerT = detail::identity_decomposer_t>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE static bit_ordered_type In(bit_ordered_type key, DecomposerT decomposer = {})
  {
    key = traits::to_bit_ordered(decomposer, key);
    if constexpr (IS_DESCENDING)
    {
      key = traits::inverse(decomposer, key);
    }
    return key;
  }

  template <typename DecomposerT = detail::identity_decomposer_t>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE static bit_ordered_type Out(bit_ordered_type key, DecomposerT decomposer = {})
  {
    if constexpr (IS_DESCENDING)
    {
      key = traits::inverse(decomposer, key);
    }
    return traits::from_bit_ordered(decomposer, key);
  }

  template <typename DecomposerT = detail::identity_decomposer_t>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE static bit_ordered_type DefaultKey(DecomposerT decomposer = {})
  {
    return IS_DESCENDING ? traits::min_raw_binary_key(decomposer) : traits::max_raw_binary_key(decomposer);
  }
};

STRATA_NAMESPACE_END

// strata/warp/specializations/warp_reduce_shfl.cuh: WarpReduce's algorithms without shared
// memory: a shuffle tree for power-of-two logical warps, and the sm_80+ hardware reduction
// (redux.sync) for integers of up to 32 bits under sums, minimum, maximum and bitwise operators.
#pragma once

#include <strata/config.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! Reductions of a tree whose lanes read their partners at increasing distances: in step k, lane
//! i combines its partial result with that of lane i + 2^k (on the right, so the order of the
//! lanes is kept) if that lane is at most `last_lane`. By induction lane i then holds
//! input_i op ... op input_min(i + 2^k - 1, last_lane), so after log2(L) steps every lane holds
//! the reduction from itself to its `last_lane`.
//!
//! `last_lane` may differ from lane to lane, as long as lanes i .. last_lane of lane i all have
//! the same one (as the lanes of one segment do): that is what segmented reductions need.
template <typename T, int LOGICAL_WARP_THREADS>
struct WarpReduceShfl
{
  static_assert(PowerOfTwo<LOGICAL_WARP_THREADS>::VALUE && LOGICAL_WARP_THREADS <= warp_threads,
                "WarpReduceShfl needs a power-of-two logical warp of at most 32 lanes");

  using TempStorage = NullType;

  int lane_id;              //!< the calling lane's rank in its logical warp
  unsigned int member_mask; //!< the lanes of the calling logical warp in the hardware warp

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpReduceShfl(TempStorage&)
      : lane_id(static_cast<int>(LogicalLaneId<LOGICAL_WARP_THREADS>()))
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>())
  {
  }

  //! Lane i gets input_i op ... op input_last_lane (its own input if last_lane < i).
  template <typename ReductionOpT>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, int last_lane, ReductionOpT& reduction_op)
  {
    T partial = input;
#pragma unroll
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2)
    {
      // The shuffle's own clamp is the end of the logical warp (a constant); the test below
      // drops partners beyond last_lane.
      const T peer = ShuffleDown<LOGICAL_WARP_THREADS>(partial, offset, LOGICAL_WARP_THREADS - 1, member_mask);
      if (lane_id + offset <= last_lane)
      {
        partial = static_cast<T>(reduction_op(partial, peer));
      }
    }
    return partial;
  }
};

//! The redux.sync operations a reduction can map to.
enum class WarpRedux
{
  NONE,
  ADD,
  MIN,
  MAX,
  AND,
  OR,
  XOR
};

//! Whether OpT is the operator template OpTemplateT, transparent (`OpTemplateT<>`) or of T.
template <typename T, typename OpT, template <typename> class OpTemplateT>
inline constexpr bool is_operator_v =
    ::cuda::std::is_same_v<OpT, OpTemplateT<void>> || ::cuda::std::is_same_v<OpT, OpTemplateT<T>>;

template <typename T, typename OpT>
constexpr WarpRedux WarpReduxOf()
{
  // redux.sync works on 32-bit words; narrower integers widen exactly (see ReduxReduce).
  if constexpr (!::cuda::std::is_integral_v<T> || ::cuda::std::is_same_v<T, bool> || sizeof(T) > 4)
  {
    return WarpRedux::NONE;
  }
  else if constexpr (is_operator_v<T, OpT, ::cuda::std::plus>)
  {
    return WarpRedux::ADD;
  }
  else if constexpr (is_operator_v<T, OpT, ::cuda::minimum>)
  {
    return WarpRedux::MIN;
  }
  else if constexpr (is_operator_v<T, OpT, ::cuda::maximum>)
  {
    return WarpRedux::MAX;
  }
  else if constexpr (is_operator_v<T, OpT, ::cuda::std::bit_and>)
  {
    return WarpRedux::AND;
  }
  else if constexpr (is_operator_v<T, OpT, ::cuda::std::bit_or>)
  {
    return WarpRedux::OR;
  }
  else if constexpr (is_operator_v<T, OpT, ::cuda::std::bit_xor>)
  {
    return WarpRedux::XOR;
  }
  else
  {
    return WarpRedux::NONE;
  }
}

//! The redux.sync operation that reduces T under OpT exactly, or NONE: integers of at most 32
//! bits (not bool) under plus, cuda::minimum, cuda::maximum, bit_and, bit_or or bit_xor,
//! transparent or of T itself (one of another type would convert the operands first, which
//! redux.sync does not).
template <typename T, typename OpT>
inline constexpr WarpRedux warp_redux_v = WarpReduxOf<T, OpT>();

//! The reduction under OP of the values of the lanes in `member_mask` with one redux.sync
//! (sm_80 and later; every lane in `member_mask` must call it with the same mask, and every lane
//! gets the result). Lanes whose `contributes` is false bring OP's identity instead of `value`.
//!
//! Values widen to 32 bits, sign-extended when T is signed (which keeps minimum and maximum
//! exact), and the result narrows back: exact for minimum, maximum and the bitwise operators,
//! and for sums what T's own wrapping arithmetic gives (the low bits of a sum depend only on
//! the low bits of its terms).
template <WarpRedux OP, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ReduxReduce(T value, bool contributes, unsigned int member_mask)
{
  static_assert(OP != WarpRedux::NONE, "ReduxReduce needs an operation that redux.sync has");
  // Both word types depend on T, so the __reduce_*_sync names (declared for sm_80+ only) are
  // looked up where this is instantiated, under NV_PROVIDES_SM_80, not where it is defined.
  using word_t      = ::cuda::std::conditional_t<::cuda::std::is_signed_v<T>, int, unsigned int>;
  using bits_t      = ::cuda::std::make_unsigned_t<word_t>;
  const word_t word = static_cast<word_t>(value);
  if constexpr (OP == WarpRedux::MIN)
  {
    const word_t operand = contributes ? word : ::cuda::std::numeric_limits<word_t>::max();
    return static_cast<T>(__reduce_min_sync(member_mask, operand));
  }
  else if constexpr (OP == WarpRedux::MAX)
  {
    const word_t operand = contributes ? word : ::cuda::std::numeric_limits<word_t>::lowest();
    return static_cast<T>(__reduce_max_sync(member_mask, operand));
  }
  else
  {
    constexpr bits_t identity = (OP == WarpRedux::AND) ? ~bits_t{0} : bits_t{0};
    const bits_t operand      = contributes ? static_cast<bits_t>(word) : identity;
    if constexpr (OP == WarpRedux::ADD)
    {
      return static_cast<T>(__reduce_add_sync(member_mask, operand));
    }
    else if constexpr (OP == WarpRedux::AND)
    {
      return static_cast<T>(__reduce_and_sync(member_mask, operand));
    }
    else if constexpr (OP == WarpRedux::OR)
    {
      return static_cast<T>(__reduce_or_sync(member_mask, operand));
    }
    else
    {
      return static_cast<T>(__reduce_xor_sync(member_mask, operand));
    }
  }
}
} // namespace detail

STRATA_NAMESPACE_END

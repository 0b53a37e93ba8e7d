// strata/thread/thread_operators.cuh: the binary operators strata's algorithms combine values
// with (ArgMin/ArgMax, segmented and keyed reductions, argument swizzling, casts, inequality).
//
// The wrappers' call operators are not const, as in CUB, so that a wrapped functor whose own
// call operator is not const still works.
#pragma once

#include <strata/config.cuh>
#include <strata/util_type.cuh>

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The type a reduction or scan accumulates in: what `op(init, input)` returns, decayed.
//! `plus<>` over int8_t accumulates in int, as in CUB.
template <typename OpT, typename InputT, typename InitT = InputT>
using accumulator_t = ::cuda::std::decay_t<::cuda::std::invoke_result_t<OpT, InitT, InputT>>;

//! Whether OpT is one of the libcu++ operators whose result over integers depends neither on
//! grouping nor on operand order (wrapping arithmetic): plus, multiplies, minimum, maximum and
//! the bitwise ones, transparent or typed. Algorithms may regroup such reductions (a tree instead
//! of a chain) without changing the result.
template <typename OpT>
inline constexpr bool is_reassociable_for_integers_v = false;
template <typename T>
inline constexpr bool is_reassociable_for_integers_v<::cuda::std::plus<T>> = true;
template <typename T>
inline constexpr bool is_reassociable_for_integers_v<::cuda::std::multiplies<T>> = true;
template <typename T>
inline constexpr bool is_reassociable_for_integers_v<::cuda::minimum<T>> = true;
template <typename T>
inline constexpr bool is_reassociable_for_integers_v<::cuda::maximum<T>> = true;
template <typename T>
inline constexpr bool is_reassociable_for_integers_v<::cuda::std::bit_and<T>> = true;
template <typename T>
inline constexpr bool is_reassociable_for_integers_v<::cuda::std::bit_or<T>> = true;
template <typename T>
inline constexpr bool is_reassociable_for_integers_v<::cuda::std::bit_xor<T>> = true;

//! Scan-by-key's combining operator over (value, head flag) pairs, where `key` is a flag saying
//! "a segment starts here": the flags are OR-ed, and a flagged right operand restarts the value.
template <typename ScanOpT>
struct ScanBySegmentOp
{
  ScanOpT op{};

  ScanBySegmentOp() = default;
  STRATA_HOST_DEVICE ScanBySegmentOp(ScanOpT op)
      : op(op)
  {
  }

  STRATA_EXEC_CHECK_DISABLE
  template <typename KeyValuePairT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePairT operator()(const KeyValuePairT& first,
                                                                 const KeyValuePairT& second)
  {
    KeyValuePairT result;
    result.key   = first.key | second.key;
    result.value = second.key ? second.value : op(first.value, second.value);
    return result;
  }
};
} // namespace detail

//! Negates an equality operator: `InequalityWrapper<EqualityOpT>(eq)(a, b) == !eq(a, b)`.
//! Used to find segment heads ("this key differs from the previous one").
template <typename EqualityOpT>
struct InequalityWrapper
{
  EqualityOpT op;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE InequalityWrapper(EqualityOpT op)
      : op(op)
  {
  }

  STRATA_EXEC_CHECK_DISABLE
  template <typename T, typename U>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator()(T&& t, U&& u)
  {
    return !op(::cuda::std::forward<T>(t), ::cuda::std::forward<U>(u));
  }
};

//! Keeps the pair with the larger `value`; on equal values, the one with the smaller `key`
//! (the first occurrence when keys are offsets), so an arg-max reduction is deterministic
//! whatever the order its partial results are combined in.
//!
//! \code
//! strata::KeyValuePair<int, float> best = strata::ArgMax{}(a, b);
//! \endcode
struct ArgMax
{
  STRATA_EXEC_CHECK_DISABLE
  template <typename T, typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                                                            const KeyValuePair<OffsetT, T>& b) const
  {
    const bool take_b = (a.value < b.value) || (a.value == b.value && b.key < a.key);
    return take_b ? b : a;
  }
};

//! Keeps the pair with the smaller `value`; on equal values, the one with the smaller `key`.
struct ArgMin
{
  STRATA_EXEC_CHECK_DISABLE
  template <typename T, typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                                                            const KeyValuePair<OffsetT, T>& b) const
  {
    const bool take_b = (b.value < a.value) || (a.value == b.value && b.key < a.key);
    return take_b ? b : a;
  }
};

//! Converts its argument to B (an explicit conversion, as `static_cast<B>(a)`).
template <typename B>
struct CastOp
{
  STRATA_EXEC_CHECK_DISABLE
  template <typename A>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE B operator()(A&& a) const
  {
    return static_cast<B>(::cuda::std::forward<A>(a));
  }
};

//! Calls the wrapped operator with its arguments swapped: `SwizzleScanOp<OpT>(op)(a, b) ==
//! op(b, a)`. Lets an algorithm that accumulates right to left (e.g. a reversed warp reduction)
//! keep a non-commutative operator's left-to-right meaning.
template <typename ScanOpT>
class SwizzleScanOp
{
public:
  STRATA_HOST_DEVICE STRATA_FORCEINLINE SwizzleScanOp(ScanOpT scan_op)
      : scan_op(scan_op)
  {
  }

  STRATA_EXEC_CHECK_DISABLE
  template <typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(const T& a, const T& b)
  {
    return scan_op(b, a);
  }

private:
  ScanOpT scan_op;
};

//! Combines (count, value) pairs of a segmented reduction, where `key` counts segment heads:
//! the result has `key = first.key + second.key`, and `value = second.value` when the right
//! operand contains a head (its segment restarts the reduction) or `op(first.value,
//! second.value)` when it does not. Associative when `op` is, never commutative; over
//! head flags (0/1) a scan with it yields, per item, the segment index and the running
//! reduction within the segment.
template <typename ReductionOpT>
struct ReduceBySegmentOp
{
  ReductionOpT op{};

  ReduceBySegmentOp() = default;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE ReduceBySegmentOp(ReductionOpT op)
      : op(op)
  {
  }

  STRATA_EXEC_CHECK_DISABLE
  template <typename KeyValuePairT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePairT operator()(const KeyValuePairT& first,
                                                                 const KeyValuePairT& second)
  {
    KeyValuePairT result;
    result.key   = first.key + second.key;
    result.value = second.key ? second.value : op(first.value, second.value);
    return result;
  }
};

//! Combines (key, value) pairs of a reduction by key: the result has the right operand's key,
//! and its value is `op(first.value, second.value)` when both keys are equal (`==`), else
//! `second.value` (a new key restarts the reduction).
template <typename ReductionOpT>
struct ReduceByKeyOp
{
  ReductionOpT op{};

  ReduceByKeyOp() = default;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE ReduceByKeyOp(ReductionOpT op)
      : op(op)
  {
  }

  STRATA_EXEC_CHECK_DISABLE
  template <typename KeyValuePairT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePairT operator()(const KeyValuePairT& first,
                                                                 const KeyValuePairT& second)
  {
    KeyValuePairT result = second;
    if (first.key == second.key)
    {
      result.value = op(first.value, second.value);
    }
    return result;
  }
};

STRATA_NAMESPACE_END

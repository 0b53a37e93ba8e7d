// strata/thread/thread_reduce.cuh: ThreadReduce, one thread's reduction of a statically sized
// array (or of LENGTH items behind a pointer).
//
// Evaluation order: a chain in sequence order, prefix first (`op(op(prefix, x0), x1)...`), which
// is what a non-commutative or non-associative operator needs and what keeps floating-point
// results reproducible. Integer reductions with the libcu++ operators whose result does not
// depend on grouping (plus, multiplies, minimum, maximum, bit_and/or/xor) run as a balanced tree
// instead: the same result (with wrapping arithmetic), in log2(N) dependent steps rather than N.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>

#include <cuda/std/array>
#include <cuda/std/cstddef>
#include <cuda/std/span>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The compile-time length of an array-like input (T[N], cuda::std::array<T, N>, or
//! cuda::std::span<T, N> of static extent); -1 for anything else.
template <typename InputT>
inline constexpr int static_size_v = -1;
template <typename T, ::cuda::std::size_t N>
inline constexpr int static_size_v<T[N]> = static_cast<int>(N);
template <typename T, ::cuda::std::size_t N>
inline constexpr int static_size_v<::cuda::std::array<T, N>> = static_cast<int>(N);
template <typename T, ::cuda::std::size_t N>
inline constexpr int static_size_v<::cuda::std::span<T, N>> = N == ::cuda::std::dynamic_extent ? -1
                                                                                               : static_cast<int>(N);

//! Whether ThreadReduce evaluates OpT over AccumT as a tree: only where that cannot change the
//! result. Floating point stays a chain, since regrouping changes rounding (plus) and which of
//! two equal-comparing values survives (minimum/maximum on -0.0/+0.0 or NaN).
template <typename OpT, typename AccumT>
inline constexpr bool reduce_as_tree_v = (is_reassociable_for_integers_v<OpT> && ::cuda::std::is_integral_v<AccumT>);

// The helpers below expand over index sequences rather than loops: every register-array index
// is then a compile-time constant on the device, and host compilers see no `#pragma unroll`.
// Parameters used only inside an expansion are [[maybe_unused]]: the sequence may be empty.

//! acc, then `acc = op(acc, input[OFFSET + I])` for each I in order.
STRATA_EXEC_CHECK_DISABLE
template <int OFFSET, typename AccumT, typename InputT, typename OpT, int... I>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ReduceChain(AccumT acc, [[maybe_unused]] const InputT& input,
                                                         [[maybe_unused]] OpT& op,
                                                         ::cuda::std::integer_sequence<int, I...>)
{
  ((acc = op(acc, input[OFFSET + I])), ...);
  return acc;
}

//! A balanced tree over items[BEGIN, BEGIN + COUNT) that only combines neighbouring ranges,
//! left one first: equal to the chain for any associative operator.
STRATA_EXEC_CHECK_DISABLE
template <int BEGIN, int COUNT, typename AccumT, int N, typename OpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ReduceTree(const AccumT (&items)[N], OpT& op)
{
  if constexpr (COUNT == 1)
  {
    return items[BEGIN];
  }
  else
  {
    constexpr int LEFT = COUNT / 2;
    return op(ReduceTree<BEGIN, LEFT>(items, op), ReduceTree<BEGIN + LEFT, COUNT - LEFT>(items, op));
  }
}

//! items[OFFSET + I] = AccumT(input[I]) for every I.
STRATA_EXEC_CHECK_DISABLE
template <int OFFSET, typename AccumT, int N, typename InputT, int... I>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void ConvertItems(AccumT (&items)[N], const InputT& input,
                                                        ::cuda::std::integer_sequence<int, I...>)
{
  ((items[OFFSET + I] = static_cast<AccumT>(input[I])), ...);
}

//! The reduction of input[0, LENGTH), LENGTH >= 1.
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename AccumT, typename InputT, typename OpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ReduceItems(const InputT& input, OpT& op)
{
  if constexpr (reduce_as_tree_v<OpT, AccumT>)
  {
    AccumT items[LENGTH];
    ConvertItems<0>(items, input, ::cuda::std::make_integer_sequence<int, LENGTH>{});
    return ReduceTree<0, LENGTH>(items, op);
  }
  else
  {
    return ReduceChain<1>(static_cast<AccumT>(input[0]), input, op,
                          ::cuda::std::make_integer_sequence<int, LENGTH - 1>{});
  }
}

//! The reduction of prefix, input[0, LENGTH), LENGTH >= 0.
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename AccumT, typename InputT, typename OpT, typename PrefixT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ReduceItems(const InputT& input, OpT& op, const PrefixT& prefix)
{
  if constexpr (LENGTH == 0)
  {
    return static_cast<AccumT>(prefix);
  }
  else if constexpr (reduce_as_tree_v<OpT, AccumT>)
  {
    AccumT items[LENGTH + 1];
    items[0] = static_cast<AccumT>(prefix);
    ConvertItems<1>(items, input, ::cuda::std::make_integer_sequence<int, LENGTH>{});
    return ReduceTree<0, LENGTH + 1>(items, op);
  }
  else
  {
    return ReduceChain<1>(static_cast<AccumT>(op(prefix, input[0])), input, op,
                          ::cuda::std::make_integer_sequence<int, LENGTH - 1>{});
  }
}

//! The item type of an array-like input: what its operator[] yields, without cv or reference.
template <typename InputT>
using range_value_t = ::cuda::std::remove_cvref_t<decltype(::cuda::std::declval<const InputT&>()[0])>;
} // namespace detail

//! Reduces a statically sized array-like `input` (T[N], cuda::std::array<T, N>, or
//! cuda::std::span<T, N>; N >= 1) with `reduction_op`, as `op(...op(op(x0, x1), x2)..., xN-1)`.
//! The result type is what the operator returns (`plus<>` over int8_t gives int, as in CUB).
//! Callable on host and device; the result is the calling thread's own.
//!
//! \code
//! int items[4] = {1, 2, 3, 4};
//! int sum = strata::ThreadReduce(items, cuda::std::plus<>{}); // 10
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <typename InputT, typename ReductionOpT, typename ValueT = detail::range_value_t<InputT>,
          typename AccumT = detail::accumulator_t<ReductionOpT, ValueT>>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ThreadReduce(const InputT& input, ReductionOpT reduction_op)
{
  constexpr int LENGTH = detail::static_size_v<::cuda::std::remove_cv_t<InputT>>;
  static_assert(LENGTH != -1, "ThreadReduce needs a compile-time length: pass T[N], cuda::std::array<T, N> or "
                              "cuda::std::span<T, N>, or call ThreadReduce<LENGTH>(pointer, op)");
  static_assert(LENGTH != 0, "ThreadReduce over no items needs a prefix: ThreadReduce(input, op, prefix)");
  return detail::ReduceItems<LENGTH, AccumT>(input, reduction_op);
}

//! Reduces `prefix` followed by the items of a statically sized array-like `input` (N >= 0):
//! `op(...op(op(prefix, x0), x1)..., xN-1)`, or `prefix` itself when N == 0. The result type is
//! what `reduction_op(prefix, x0)` returns.
//!
//! \code
//! float items[3] = {1.f, 2.f, 3.f};
//! float total = strata::ThreadReduce(items, cuda::std::plus<>{}, 10.f); // 16
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <typename InputT, typename ReductionOpT, typename PrefixT, typename ValueT = detail::range_value_t<InputT>,
          typename AccumT = detail::accumulator_t<ReductionOpT, ValueT, PrefixT>>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ThreadReduce(const InputT& input, ReductionOpT reduction_op,
                                                          PrefixT prefix)
{
  constexpr int LENGTH = detail::static_size_v<::cuda::std::remove_cv_t<InputT>>;
  static_assert(LENGTH != -1, "ThreadReduce needs a compile-time length: pass T[N], cuda::std::array<T, N> or "
                              "cuda::std::span<T, N>, or call ThreadReduce<LENGTH>(pointer, op, prefix)");
  return detail::ReduceItems<LENGTH, AccumT>(input, reduction_op, prefix);
}

//! Reduces the LENGTH >= 1 items at `input` (any memory the thread can read, e.g. a raking
//! segment in shared memory), as ThreadReduce over an array.
//!
//! \code
//! int partial = strata::ThreadReduce<8>(smem + 8 * threadIdx.x, cuda::std::plus<>{});
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ReductionOpT, typename AccumT = detail::accumulator_t<ReductionOpT, T>>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ThreadReduce(const T* input, ReductionOpT reduction_op)
{
  static_assert(LENGTH >= 1, "ThreadReduce<LENGTH>(pointer, op) needs LENGTH >= 1; pass a prefix for LENGTH 0");
  return detail::ReduceItems<LENGTH, AccumT>(input, reduction_op);
}

//! Reduces `prefix` followed by the LENGTH >= 0 items at `input`; `prefix` itself when LENGTH == 0.
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ReductionOpT, typename PrefixT,
          typename AccumT = detail::accumulator_t<ReductionOpT, T, PrefixT>>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT ThreadReduce(const T* input, ReductionOpT reduction_op, PrefixT prefix)
{
  static_assert(LENGTH >= 0, "ThreadReduce<LENGTH>(pointer, op, prefix) needs LENGTH >= 0");
  return detail::ReduceItems<LENGTH, AccumT>(input, reduction_op, prefix);
}

//! CUB declares the pointer forms in `cub::internal`; code written against them compiles
//! against strata as `strata::internal::ThreadReduce<LENGTH>(...)`.
namespace internal
{
using ::strata::ThreadReduce;
} // namespace internal

STRATA_NAMESPACE_END

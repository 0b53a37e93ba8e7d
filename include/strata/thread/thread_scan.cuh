// strata/thread/thread_scan.cuh: ThreadScanInclusive / ThreadScanExclusive, one thread's
// sequential prefix scan of a statically sized array (or of LENGTH items behind a pointer).
//
// A scan is evaluated strictly left to right (prefix first), so any associative operator works,
// commutative or not, and floating-point results are reproducible. Every function reads input[i]
// before it writes output[i], so `input` and `output` may be the same array (in-place scan).
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>

#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN

namespace detail
{
// Index-sequence expansions instead of loops: register-array indices stay compile-time constants
// on the device, and host compilers see no `#pragma unroll`. Parameters used only inside an
// expansion are [[maybe_unused]]: the sequence is empty for LENGTH 1.

//! For each I in order: inclusive = op(inclusive, input[OFFSET + I]), written to output[OFFSET + I].
STRATA_EXEC_CHECK_DISABLE
template <int OFFSET, typename T, typename OpT, int... I>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ScanInclusiveChain(T inclusive, [[maybe_unused]] const T* input,
                                                           [[maybe_unused]] T* output, [[maybe_unused]] OpT& op,
                                                           ::cuda::std::integer_sequence<int, I...>)
{
  ((inclusive = op(inclusive, input[OFFSET + I]), output[OFFSET + I] = inclusive), ...);
  return inclusive;
}

//! For each I in order: output[OFFSET + I] = exclusive, then exclusive = op(exclusive,
//! input[OFFSET + I]) (read before the write). Returns the last inclusive value.
STRATA_EXEC_CHECK_DISABLE
template <int OFFSET, typename T, typename OpT, int... I>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ScanExclusiveChain(T inclusive, [[maybe_unused]] T exclusive,
                                                           [[maybe_unused]] const T* input, [[maybe_unused]] T* output,
                                                           [[maybe_unused]] OpT& op,
                                                           ::cuda::std::integer_sequence<int, I...>)
{
  ((inclusive = op(exclusive, input[OFFSET + I]), output[OFFSET + I] = exclusive, exclusive = inclusive), ...);
  return inclusive;
}
} // namespace detail

//! Inclusive scan of the LENGTH >= 1 items at `input` into `output` (which may equal `input`):
//! output[i] = x0 op x1 op ... op xi. Returns the aggregate (output[LENGTH - 1]).
//!
//! \code
//! strata::ThreadScanInclusive<4>(smem_segment, smem_segment, cuda::std::plus<>{}); // in place
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ScanOpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T* input, T* output, ScanOpT scan_op)
{
  static_assert(LENGTH >= 1, "ThreadScanInclusive needs LENGTH >= 1");
  const T first = input[0];
  output[0]     = first;
  return detail::ScanInclusiveChain<1>(first, input, output, scan_op,
                                       ::cuda::std::make_integer_sequence<int, LENGTH - 1>{});
}

//! Inclusive scan of an array into an array of the same length (they may be the same array).
//!
//! \code
//! int items[4] = {1, 2, 3, 4};
//! int total = strata::ThreadScanInclusive(items, items, cuda::std::plus<>{}); // {1, 3, 6, 10}, 10
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ScanOpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T (&input)[LENGTH], T (&output)[LENGTH],
                                                            ScanOpT scan_op)
{
  return ThreadScanInclusive<LENGTH>(static_cast<const T*>(input), static_cast<T*>(output), scan_op);
}

//! Inclusive scan seeded with `prefix`: output[i] = prefix op x0 op ... op xi. With
//! `apply_prefix == false` the prefix is ignored (as for the first thread of a block scan) and
//! the result is the unseeded inclusive scan. Returns the aggregate (output[LENGTH - 1]).
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ScanOpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T* input, T* output, ScanOpT scan_op,
                                                            ::cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  static_assert(LENGTH >= 1, "ThreadScanInclusive needs LENGTH >= 1");
  const T first = apply_prefix ? static_cast<T>(scan_op(prefix, input[0])) : input[0];
  output[0]     = first;
  return detail::ScanInclusiveChain<1>(first, input, output, scan_op,
                                       ::cuda::std::make_integer_sequence<int, LENGTH - 1>{});
}

//! Inclusive scan of an array seeded with `prefix` (see the pointer form).
//!
//! \code
//! int items[3] = {1, 2, 3};
//! strata::ThreadScanInclusive(items, items, cuda::std::plus<>{}, 10); // {11, 13, 16}, returns 16
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ScanOpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T (&input)[LENGTH], T (&output)[LENGTH],
                                                            ScanOpT scan_op, ::cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  return ThreadScanInclusive<LENGTH>(static_cast<const T*>(input), static_cast<T*>(output), scan_op, prefix,
                                     apply_prefix);
}

//! Exclusive scan seeded with `prefix`: output[0] = prefix and output[i] = prefix op x0 op ... op
//! xi-1. Returns the aggregate including the prefix (prefix op x0 op ... op xLENGTH-1). With
//! `apply_prefix == false` the prefix is left out of every value (output[i] = x0 op ... op xi-1
//! for i >= 1; the return value is the reduction of the items alone) while output[0] still
//! receives `prefix`, a placeholder: this is the first thread of a block scan, whose exclusive
//! value is undefined.
//!
//! \code
//! int items[4] = {1, 2, 3, 4};
//! int total = strata::ThreadScanExclusive(items, items, cuda::std::plus<>{}, 0); // {0, 1, 3, 6}, 10
//! \endcode
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ScanOpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanExclusive(const T* input, T* output, ScanOpT scan_op,
                                                            ::cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  static_assert(LENGTH >= 1, "ThreadScanExclusive needs LENGTH >= 1");
  const T first = apply_prefix ? static_cast<T>(scan_op(prefix, input[0])) : input[0];
  output[0]     = prefix;
  return detail::ScanExclusiveChain<1>(first, first, input, output, scan_op,
                                       ::cuda::std::make_integer_sequence<int, LENGTH - 1>{});
}

//! Exclusive scan of an array seeded with `prefix` (see the pointer form).
STRATA_EXEC_CHECK_DISABLE
template <int LENGTH, typename T, typename ScanOpT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanExclusive(const T (&input)[LENGTH], T (&output)[LENGTH],
                                                            ScanOpT scan_op, ::cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  return ThreadScanExclusive<LENGTH>(static_cast<const T*>(input), static_cast<T*>(output), scan_op, prefix,
                                     apply_prefix);
}

//! CUB declares the thread scans in `cub::internal`; code written against them compiles against
//! strata as `strata::internal::ThreadScanExclusive(...)`.
namespace internal
{
using ::strata::ThreadScanExclusive;
using ::strata::ThreadScanInclusive;
} // namespace internal

STRATA_NAMESPACE_END

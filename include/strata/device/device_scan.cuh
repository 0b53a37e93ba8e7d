// strata/device/device_scan.cuh: DeviceScan, device-wide prefix scans (sums, scans with any
// associative operator, exclusive and inclusive, and scans by key) with CUB's two-phase
// temporary-storage convention.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/device/dispatch/dispatch_scan_by_key.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace scan
{
//! The accumulator of a sum of InputT items written through OutputIteratorT: CUB's (the type of
//! item + item), widened to the output's integer type where CUB's is a narrower signed integer,
//! whose overflow would be undefined (a sum of 2^31 uint8 items into 64 bits is then exact;
//! every result CUB defines is unchanged).
template <typename InputT, typename OutputIteratorT>
struct sum_accumulator
{
  using cub_type = accumulator_t<::cuda::std::plus<>, InputT, InputT>;
  using output_t = it_value_t<OutputIteratorT>;
  // An output of void value type (discard and transform outputs) keeps CUB's type.
  static constexpr bool WIDEN = []
  {
    if constexpr (::cuda::std::is_integral_v<
                      cub_type> && ::cuda::std::is_signed_v<cub_type> && ::cuda::std::is_integral_v<output_t>)
    {
      return sizeof(output_t) > sizeof(cub_type);
    }
    else
    {
      return false;
    }
  }();
  using type = ::cuda::std::conditional_t<WIDEN, output_t, cub_type>;
};
template <typename InputT, typename OutputIteratorT>
using sum_accumulator_t = typename sum_accumulator<InputT, OutputIteratorT>::type;

template <typename AccumT, bool FORCE_INCLUSIVE = false, typename InputIteratorT, typename OutputIteratorT,
          typename ScanOpT, typename InitValueT, typename NumItemsT>
STRATA_RUNTIME_FUNCTION cudaError_t Run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                        OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value,
                                        NumItemsT num_items, cudaStream_t stream)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  using OffsetT                      = offset_t<NumItemsT>;
  constexpr ForceInclusive INCLUSIVE = FORCE_INCLUSIVE ? ForceInclusive::Yes : ForceInclusive::No;
  return DispatchScan<InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, OffsetT, AccumT, INCLUSIVE>::Dispatch(
      d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, init_value, static_cast<OffsetT>(num_items), stream);
}

template <typename AccumT, typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
          typename EqualityOpT, typename ScanOpT, typename InitValueT, typename NumItemsT>
STRATA_RUNTIME_FUNCTION cudaError_t RunByKey(void* d_temp_storage, size_t& temp_storage_bytes,
                                             KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                             ValuesOutputIteratorT d_values_out, EqualityOpT equality_op,
                                             ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,
                                             cudaStream_t stream)
{
  if (!IsValidCount(num_items))
  {
    return STRATA_INVALID_ARGUMENT("num_items is negative");
  }
  using OffsetT = offset_t<NumItemsT>;
  return DispatchScanByKey<KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT, EqualityOpT, ScanOpT,
                           InitValueT, OffsetT, AccumT>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                  d_values_in, d_values_out, equality_op, scan_op,
                                                                  init_value, static_cast<OffsetT>(num_items), stream);
}
} // namespace scan
} // namespace detail

//! Device-wide prefix scans. Every function follows CUB's two-phase convention: called with
//! `d_temp_storage == nullptr` it only writes the bytes of temporary storage it needs to
//! `temp_storage_bytes` (touching no device data, launching nothing); called again with that much
//! storage it runs on `stream`. Functions return cudaErrorInvalidValue for a negative item count,
//! a null input or output (with items), or too little temporary storage; no items write nothing.
//! Up to one tile of items needs no temporary storage: the size query asks for one byte, and the
//! run accepts any size.
//! Item counts may be int, int64_t or size_t: more than 2^31 items work with a 64-bit count.
//!
//! One pass over the data (decoupled look-back): every item is read once and written once. The
//! operators must be associative, not commutative: items are combined in order. Input and output
//! may be the same sequence (the in-place overloads). Floating-point results may differ from a
//! sequential scan by rounding, and from run to run.
//!
//! \code
//! // 7 ints: {8, 6, 7, 5, 3, 0, 9}
//! size_t temp_storage_bytes = 0;
//! strata::DeviceScan::ExclusiveSum(nullptr, temp_storage_bytes, d_in, d_out, 7);
//! cudaMalloc(&d_temp_storage, temp_storage_bytes);
//! strata::DeviceScan::ExclusiveSum(d_temp_storage, temp_storage_bytes, d_in, d_out, 7);
//! // d_out: {0, 8, 14, 21, 26, 29, 29}
//! \endcode
struct DeviceScan
{
  //! \name Sums
  //! \{

  //! d_out[i] = d_in[0] + ... + d_in[i - 1] (0 for i = 0), accumulated in the type of item + item
  //! (a signed integer narrower than an integer output accumulates in the output's type).
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                                          InputIteratorT d_in, OutputIteratorT d_out,
                                                          NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::ExclusiveSum");
    using AccumT = detail::scan::sum_accumulator_t<detail::it_value_t<InputIteratorT>, OutputIteratorT>;
    return detail::scan::Run<AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{},
                                     detail::InputValue<AccumT>(AccumT{}), num_items, stream);
  }

  //! ExclusiveSum in place.
  template <typename IteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                                          IteratorT d_data, NumItemsT num_items,
                                                          cudaStream_t stream = 0)
  {
    return ExclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }

  //! d_out[i] = d_in[0] + ... + d_in[i].
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                                          InputIteratorT d_in, OutputIteratorT d_out,
                                                          NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::InclusiveSum");
    using AccumT = detail::scan::sum_accumulator_t<detail::it_value_t<InputIteratorT>, OutputIteratorT>;
    return detail::scan::Run<AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{}, NullType{},
                                     num_items, stream);
  }

  //! InclusiveSum in place.
  template <typename IteratorT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes,
                                                          IteratorT d_data, NumItemsT num_items,
                                                          cudaStream_t stream = 0)
  {
    return InclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }

  //! \}
  //! \name Scans with an operator
  //! \{

  //! d_out[0] = init_value, d_out[i] = scan_op(d_out[i - 1], d_in[i - 1]): init_value, then every
  //! item combined in order. Accumulates in the type of scan_op(init_value, item).
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
            typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                ScanOpT scan_op, InitValueT init_value, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::ExclusiveScan");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    return detail::scan::Run<AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op,
                                     detail::InputValue<InitValueT>(init_value), num_items, stream);
  }

  //! ExclusiveScan in place.
  template <typename IteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                                           IteratorT d_data, ScanOpT scan_op, InitValueT init_value,
                                                           NumItemsT num_items, cudaStream_t stream = 0)
  {
    return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, init_value, num_items, stream);
  }

  //! ExclusiveScan whose initial value is read from device memory when the scan runs (after the
  //! work before it on `stream`).
  //!
  //! \code
  //! strata::FutureValue<int> init(d_init); // *d_init is written by an earlier kernel
  //! strata::DeviceScan::ExclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, cuda::maximum<>{}, init, n);
  //! \endcode
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
            typename InitValueIterT = InitValueT*, typename NumItemsT = int>
  STRATA_RUNTIME_FUNCTION static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                                           InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                                           FutureValue<InitValueT, InitValueIterT> init_value,
                                                           NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::ExclusiveScan");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    return detail::scan::Run<AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op,
                                     detail::InputValue<InitValueT, InitValueIterT>(init_value), num_items, stream);
  }

  //! ExclusiveScan in place, with a FutureValue.
  template <typename IteratorT, typename ScanOpT, typename InitValueT, typename InitValueIterT = InitValueT*,
            typename NumItemsT = int>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, ScanOpT scan_op,
                FutureValue<InitValueT, InitValueIterT> init_value, NumItemsT num_items, cudaStream_t stream = 0)
  {
    return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, init_value, num_items, stream);
  }

  //! d_out[0] = d_in[0], d_out[i] = scan_op(d_out[i - 1], d_in[i]). Accumulates in the type of
  //! scan_op(item, item).
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                                           InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                                           NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::InclusiveScan");
    using InputT = detail::it_value_t<InputIteratorT>;
    using AccumT = detail::accumulator_t<ScanOpT, InputT, InputT>;
    return detail::scan::Run<AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, NullType{}, num_items,
                                     stream);
  }

  //! InclusiveScan in place.
  template <typename IteratorT, typename ScanOpT, typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes,
                                                           IteratorT d_data, ScanOpT scan_op, NumItemsT num_items,
                                                           cudaStream_t stream = 0)
  {
    return InclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, num_items, stream);
  }

  //! d_out[i] = scan_op(... scan_op(scan_op(init_value, d_in[0]), d_in[1]) ..., d_in[i]): an
  //! inclusive scan that starts from init_value. Accumulates in the type of
  //! scan_op(init_value, item).
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
            typename NumItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveScanInit(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                    ScanOpT scan_op, InitValueT init_value, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::InclusiveScanInit");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    return detail::scan::Run<AccumT, true>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op,
                                           detail::InputValue<InitValueT>(init_value), num_items, stream);
  }

  //! \}
  //! \name Scans by key
  //! A segment is a run of consecutive items whose keys are equal under `equality_op`; each
  //! segment is scanned on its own. Keys are only read.
  //! \{

  //! d_values_out[i] = the sum of the values of i's segment before i (0 at a segment's start).
  //!
  //! \code
  //! // keys {0, 0, 1, 1, 1, 0}, values {1, 2, 3, 4, 5, 6}: d_values_out = {0, 1, 0, 3, 7, 0}
  //! strata::DeviceScan::ExclusiveSumByKey(d_temp_storage, temp_storage_bytes, d_keys, d_values, d_out, 6);
  //! \endcode
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename EqualityOpT = ::cuda::std::equal_to<>, typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                    ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, NumItemsT num_items,
                    EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::ExclusiveSumByKey");
    using AccumT = detail::scan::sum_accumulator_t<detail::it_value_t<ValuesInputIteratorT>, ValuesOutputIteratorT>;
    return detail::scan::RunByKey<AccumT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                          equality_op, ::cuda::std::plus<>{}, AccumT{}, num_items, stream);
  }

  //! d_values_out[i] = scan_op(init_value, the values of i's segment before i, in order);
  //! init_value at a segment's start.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename InitValueT, typename EqualityOpT = ::cuda::std::equal_to<>,
            typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  ExclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                     ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, ScanOpT scan_op,
                     InitValueT init_value, NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(),
                     cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::ExclusiveScanByKey");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<ValuesInputIteratorT>, InitValueT>;
    return detail::scan::RunByKey<AccumT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                          equality_op, scan_op, init_value, num_items, stream);
  }

  //! d_values_out[i] = the sum of the values of i's segment up to i.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename EqualityOpT = ::cuda::std::equal_to<>, typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                    ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, NumItemsT num_items,
                    EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::InclusiveSumByKey");
    using AccumT = detail::scan::sum_accumulator_t<detail::it_value_t<ValuesInputIteratorT>, ValuesOutputIteratorT>;
    return detail::scan::RunByKey<AccumT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                          equality_op, ::cuda::std::plus<>{}, NullType{}, num_items, stream);
  }

  //! d_values_out[i] = the values of i's segment up to i, combined in order with scan_op.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename EqualityOpT = ::cuda::std::equal_to<>,
            typename NumItemsT = ::cuda::std::uint32_t>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  InclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                     ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, ScanOpT scan_op,
                     NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceScan::InclusiveScanByKey");
    using InputT = detail::it_value_t<ValuesInputIteratorT>;
    using AccumT = detail::accumulator_t<ScanOpT, InputT, InputT>;
    return detail::scan::RunByKey<AccumT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                          equality_op, scan_op, NullType{}, num_items, stream);
  }

  //! \}
};

STRATA_NAMESPACE_END

// strata/device/device_topk.cuh: DeviceTopK, the k largest or smallest keys of an input (with
// their values, for pairs), in order, with CUB 3.5's two-phase temporary-storage convention and
// its single-call forms.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/detail/nvtx.cuh>
#include <strata/detail/single_call.cuh>
#include <strata/device/dispatch/dispatch_topk.cuh>
#include <strata/util_type.cuh>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace topk
{
template <select SELECT, typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
          typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT,
          typename DecomposerT = identity_decomposer_t>
STRATA_RUNTIME_FUNCTION cudaError_t TopK(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,
                                         KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,
                                         ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,
                                         cudaStream_t stream, DecomposerT decomposer = {})
{
  using OffsetT = offset_t<NumItemsT>;
  return DispatchTopK<SELECT, KeyInputIteratorT, KeyOutputIteratorT, ValueInputIteratorT, ValueOutputIteratorT, OffsetT,
                      DecomposerT>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                             d_values_out, num_items, k, stream, decomposer);
}
} // namespace topk
} // namespace detail

//! The k largest (Max*) or smallest (Min*) of `num_items` keys, in order: the best first and,
//! among equal keys, the earlier item first, so the result is the same on every run and every
//! GPU (CUB 3.5's default contract, which CUB itself compiles only without these guarantees).
//! Keys are ordered as DeviceRadixSort orders them: -0.0 before +0.0, NaNs with the sign bit
//! clear above +infinity and those with it set below -infinity. Pairs move each key's value
//! with it. `0 <= k <= num_items`; k = 0 or no items write nothing.
//!
//! The environment is a stream: the toolkit's libcu++ (CUDA 13.0) has no execution environments.
//! The forms without temporary storage allocate it stream-ordered (cudaMallocAsync).
//!
//! Keys of a user's type take a decomposer (CUB's): a functor that returns a cuda::std::tuple of
//! references to the key's arithmetic members, the most significant first, of at most 128 bits
//! together; keys are ordered by those members as DeviceRadixSort orders each.
//!
//! Bad input (a negative count, k < 0 or k > num_items, a null buffer, too little temporary
//! storage) returns cudaErrorInvalidValue before anything is written.
//!
//! \code
//! // d_keys: float[num_items] on the device; the 10 largest, largest first
//! size_t bytes = 0;
//! strata::DeviceTopK::MaxKeys(nullptr, bytes, d_keys, d_top, num_items, 10);
//! cudaMalloc(&d_temp, bytes);
//! strata::DeviceTopK::MaxKeys(d_temp, bytes, d_keys, d_top, num_items, 10);
//! \endcode
struct DeviceTopK
{
  //! The k largest keys, each with its value.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MaxPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
           ValueInputIteratorT d_values_in, ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,
           cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MaxPairs");
    return detail::topk::TopK<detail::topk::select::max>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         d_values_in, d_values_out, num_items, k, stream);
  }

  //! MaxPairs with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  MaxPairs(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,
           ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MaxPairs");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::max>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                              d_values_out, num_items, k, stream);
                                        });
  }

  //! The k largest keys.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t MaxKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
                                                     NumItemsT num_items, NumOutItemsT k, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MaxKeys");
    return detail::topk::TopK<detail::topk::select::max>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         static_cast<NullType*>(nullptr),
                                                         static_cast<NullType*>(nullptr), num_items, k, stream);
  }

  //! MaxKeys with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t MaxKeys(KeyInputIteratorT d_keys_in,
                                                                   KeyOutputIteratorT d_keys_out, NumItemsT num_items,
                                                                   NumOutItemsT k, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MaxKeys");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::max>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                              static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr),
                                              num_items, k, stream);
                                        });
  }

  //! The k smallest keys, each with its value.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  MinPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
           ValueInputIteratorT d_values_in, ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,
           cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MinPairs");
    return detail::topk::TopK<detail::topk::select::min>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         d_values_in, d_values_out, num_items, k, stream);
  }

  //! MinPairs with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t
  MinPairs(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,
           ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MinPairs");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::min>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                              d_values_out, num_items, k, stream);
                                        });
  }

  //! The k smallest keys.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t MinKeys(void* d_temp_storage, size_t& temp_storage_bytes,
                                                     KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
                                                     NumItemsT num_items, NumOutItemsT k, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MinKeys");
    return detail::topk::TopK<detail::topk::select::min>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         static_cast<NullType*>(nullptr),
                                                         static_cast<NullType*>(nullptr), num_items, k, stream);
  }

  //! MinKeys with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static cudaError_t MinKeys(KeyInputIteratorT d_keys_in,
                                                                   KeyOutputIteratorT d_keys_out, NumItemsT num_items,
                                                                   NumOutItemsT k, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MinKeys");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::min>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                              static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr),
                                              num_items, k, stream);
                                        });
  }

  //! The k largest keys of a user's type (ordered through `decomposer`), each with its value.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MaxPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
           ValueInputIteratorT d_values_in, ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,
           DecomposerT decomposer, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MaxPairs");
    return detail::topk::TopK<detail::topk::select::max>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         d_values_in, d_values_out, num_items, k, stream, decomposer);
  }

  //! MaxPairs of a user's key type with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT, typename DecomposerT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MaxPairs(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,
           ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k, DecomposerT decomposer,
           cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MaxPairs");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::max>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                              d_values_out, num_items, k, stream, decomposer);
                                        });
  }

  //! The k largest keys of a user's type (ordered through `decomposer`).
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT,
            typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MaxKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
          NumItemsT num_items, NumOutItemsT k, DecomposerT decomposer, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MaxKeys");
    return detail::topk::TopK<detail::topk::select::max>(
        d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<NullType*>(nullptr),
        static_cast<NullType*>(nullptr), num_items, k, stream, decomposer);
  }

  //! MaxKeys of a user's key type with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT,
            typename DecomposerT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MaxKeys(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, NumItemsT num_items, NumOutItemsT k,
          DecomposerT decomposer, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MaxKeys");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::max>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                              static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr),
                                              num_items, k, stream, decomposer);
                                        });
  }

  //! The k smallest keys of a user's type (ordered through `decomposer`), each with its value.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT, typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MinPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
           ValueInputIteratorT d_values_in, ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,
           DecomposerT decomposer, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MinPairs");
    return detail::topk::TopK<detail::topk::select::min>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         d_values_in, d_values_out, num_items, k, stream, decomposer);
  }

  //! MinPairs of a user's key type with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT, typename DecomposerT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MinPairs(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,
           ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k, DecomposerT decomposer,
           cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MinPairs");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::min>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                              d_values_out, num_items, k, stream, decomposer);
                                        });
  }

  //! The k smallest keys of a user's type (ordered through `decomposer`).
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT,
            typename DecomposerT>
  STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MinKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
          NumItemsT num_items, NumOutItemsT k, DecomposerT decomposer, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE_IF(d_temp_storage, "strata::DeviceTopK::MinKeys");
    return detail::topk::TopK<detail::topk::select::min>(
        d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<NullType*>(nullptr),
        static_cast<NullType*>(nullptr), num_items, k, stream, decomposer);
  }

  //! MinKeys of a user's key type with its temporary storage allocated and freed on `stream`.
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT,
            typename DecomposerT>
  [[nodiscard]] STRATA_RUNTIME_FUNCTION static ::cuda::std::enable_if_t<
      detail::topk::is_key_decomposer_v<detail::it_value_t<KeyInputIteratorT>, DecomposerT>, cudaError_t>
  MinKeys(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, NumItemsT num_items, NumOutItemsT k,
          DecomposerT decomposer, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE_SCOPE("strata::DeviceTopK::MinKeys");
    return detail::WithTemporaryStorage(stream,
                                        [&](void* d_temp_storage, size_t& temp_storage_bytes)
                                        {
                                          return detail::topk::TopK<detail::topk::select::min>(
                                              d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                              static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr),
                                              num_items, k, stream, decomposer);
                                        });
  }
};

STRATA_NAMESPACE_END

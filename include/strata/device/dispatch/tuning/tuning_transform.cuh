// strata/device/dispatch/tuning/tuning_transform.cuh: the tuning policies of DeviceTransform.
#pragma once

#include <strata/config.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace transform
{
//! A tile of BLOCK_THREADS threads, each moving VECTORS_PER_THREAD 16-byte vectors of every
//! array (or, where the arrays cannot be read as vectors, ITEMS_PER_THREAD items), all loads
//! issued before the first store: enough bytes in flight per SM to run at memory bandwidth.
//! BULK_COPY (sm_90 and later): full tiles of one or two inputs arrive in shared memory by bulk
//! copy instead (AgentTransform).
template <int _BLOCK_THREADS, int _VECTORS_PER_THREAD, int _ITEMS_PER_THREAD, bool _BULK_COPY = false>
struct TransformPolicy
{
  static constexpr int BLOCK_THREADS      = _BLOCK_THREADS;
  static constexpr int VECTORS_PER_THREAD = _VECTORS_PER_THREAD;
  static constexpr int ITEMS_PER_THREAD   = _ITEMS_PER_THREAD;
  static constexpr bool BULK_COPY         = _BULK_COPY;
};

//! Policies for transforms of INPUTS input sequences.
template <int INPUTS>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using TransformPolicy = transform::TransformPolicy<256, 2, 8>;
  };
  struct Policy800 : ChainedPolicy<800, Policy800, Policy750>
  {
    using TransformPolicy = transform::TransformPolicy<256, 4, 8>;
  };
  //! H100 (tune_transform.cu, docs/tuning.md): bulk copies of 4 KiB tiles for one or two inputs, else
  //! 4 vectors per thread.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    using TransformPolicy =
        ::cuda::std::conditional_t<(INPUTS >= 1 && INPUTS <= 2), transform::TransformPolicy<256, 1, 8, true>,
                                   transform::TransformPolicy<256, 4, 8>>;
  };
  using Policy1000 = Policy900; // sm_90's tuning (an alias: a link would only add host code)
  using MaxPolicy  = Policy1000;
};
} // namespace transform
} // namespace detail
STRATA_NAMESPACE_END

// strata/detail/shared_fit.cuh: a tile policy cut down until its agent's TempStorage fits the
// static shared memory a kernel may declare, so that items of any size compile; where not even a
// warp of one item each fits, the TempStorage lives in global memory (BlockTempStorage).
#pragma once

#include <strata/config.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! The static shared memory one kernel may declare, on every architecture strata builds for.
inline constexpr ::cuda::std::size_t max_static_shared_bytes = 48 * 1024;

//! PolicyT with THREADS threads of ITEMS items each; every other member (load, scan and look-back
//! policies, blocks per SM, prefetch) as PolicyT has it.
template <typename PolicyT, int THREADS, int ITEMS>
struct resized_policy : PolicyT
{
  static constexpr int BLOCK_THREADS    = THREADS;
  static constexpr int ITEMS_PER_THREAD = ITEMS;
  static constexpr int ITEMS_PER_TILE   = THREADS * ITEMS;
};

//! PolicyT itself where the size is its own (the common case keeps its types), else the resized one.
template <typename PolicyT, int THREADS, int ITEMS>
using resized_policy_t =
    ::cuda::std::conditional_t<THREADS == PolicyT::BLOCK_THREADS && ITEMS == PolicyT::ITEMS_PER_THREAD, PolicyT,
                               resized_policy<PolicyT, THREADS, ITEMS>>;

//! The next smaller items per thread a fit tries: odd counts stay odd (a thread's run of an odd
//! number of 4-byte words starts on another bank than its neighbour's), even ones step to odd.
constexpr int FitNextItems(int items)
{
  return items <= 2 ? 1 : items % 2 == 1 ? items - 2 : items - 1;
}

template <typename AgentFamilyT, typename PolicyT, int THREADS, int ITEMS>
inline constexpr bool agent_fits_shared_v =
    sizeof(typename AgentFamilyT::template agent_t<resized_policy_t<PolicyT, THREADS, ITEMS>>::TempStorage)
    <= max_static_shared_bytes;

//! Threads per block: PolicyT's, halved (to a warp) while not even one item each fits.
template <typename AgentFamilyT, typename PolicyT, int THREADS,
          bool FITS = agent_fits_shared_v<AgentFamilyT, PolicyT, THREADS, 1>, bool LAST = (THREADS <= 32)>
struct shared_fit_threads
{
  static constexpr int value = THREADS;
};
template <typename AgentFamilyT, typename PolicyT, int THREADS>
struct shared_fit_threads<AgentFamilyT, PolicyT, THREADS, false, false>
    : shared_fit_threads<AgentFamilyT, PolicyT, THREADS / 2>
{
};

//! Items per thread at THREADS threads: PolicyT's, cut (FitNextItems) until the tile fits.
template <typename AgentFamilyT, typename PolicyT, int THREADS, int ITEMS,
          bool FITS = agent_fits_shared_v<AgentFamilyT, PolicyT, THREADS, ITEMS>, bool LAST = (ITEMS <= 1)>
struct shared_fit_items
{
  static constexpr int value      = ITEMS;
  static constexpr bool IN_SHARED = FITS;
};
template <typename AgentFamilyT, typename PolicyT, int THREADS, int ITEMS>
struct shared_fit_items<AgentFamilyT, PolicyT, THREADS, ITEMS, false, false>
    : shared_fit_items<AgentFamilyT, PolicyT, THREADS, FitNextItems(ITEMS)>
{
};

//! The largest tile, from PolicyT's down, whose agent keeps its TempStorage within
//! max_static_shared_bytes. AgentFamilyT names the agent for a policy:
//! `template <typename P> using agent_t = AgentX<P, ...>;`. Threads are halved while not even one
//! item each fits, then items per thread are cut; `policy` and `agent` are the fitted ones,
//! PolicyT itself wherever it fits. IN_SHARED is false where not even a warp of one item each fits.
template <typename AgentFamilyT, typename PolicyT,
          bool AS_IS = agent_fits_shared_v<AgentFamilyT, PolicyT, PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD>>
struct shared_fit
{
  static constexpr int THREADS    = shared_fit_threads<AgentFamilyT, PolicyT, PolicyT::BLOCK_THREADS>::value;
  using items_fit                 = shared_fit_items<AgentFamilyT, PolicyT, THREADS, PolicyT::ITEMS_PER_THREAD>;
  static constexpr int ITEMS      = items_fit::value;
  static constexpr bool IN_SHARED = items_fit::IN_SHARED;
  using policy                    = resized_policy_t<PolicyT, THREADS, ITEMS>;
  using agent                     = typename AgentFamilyT::template agent_t<policy>;
};

//! A policy that fits as it is: no smaller tile is looked at (nor its agent instantiated).
template <typename AgentFamilyT, typename PolicyT>
struct shared_fit<AgentFamilyT, PolicyT, true>
{
  static constexpr int THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS      = PolicyT::ITEMS_PER_THREAD;
  static constexpr bool IN_SHARED = true;
  using policy                    = PolicyT;
  using agent                     = typename AgentFamilyT::template agent_t<PolicyT>;
};

//! The agent of AgentFamilyT for PolicyT fitted to shared memory (a warp of one item each where
//! not even that fits: its TempStorage then lives in global memory, BlockTempStorage).
template <typename AgentFamilyT, typename PolicyT>
using fitted_agent_t = typename shared_fit<AgentFamilyT, PolicyT>::agent;

//! The bytes of global memory a block needs for a TempStorageT that does not fit the static shared
//! memory (0 where it fits).
template <typename TempStorageT>
inline constexpr ::cuda::std::size_t global_storage_bytes_v = sizeof(TempStorageT) <= max_static_shared_bytes
                                                                  ? 0
                                                                  : sizeof(TempStorageT);

//! The same for the agent fitted_agent_t picks: not 0 only where not even a warp of one item fits.
template <typename AgentFamilyT, typename PolicyT>
inline constexpr ::cuda::std::size_t block_storage_bytes_v =
    global_storage_bytes_v<typename fitted_agent_t<AgentFamilyT, PolicyT>::TempStorage>;

//! A block's TempStorageT: in shared memory where it fits, else block blockIdx.x's slice of
//! `d_block_storage` in global memory (a slice per block of the grid, global_storage_bytes_v each,
//! as CUB's virtual shared memory), so that items too large for a tile in shared memory still
//! compile and run.
template <typename TempStorageT>
STRATA_DEVICE STRATA_FORCEINLINE TempStorageT& BlockTempStorage([[maybe_unused]] void* d_block_storage)
{
  if constexpr (global_storage_bytes_v<TempStorageT> == 0)
  {
    __shared__ TempStorageT storage;
    return storage;
  }
  else
  {
    return static_cast<TempStorageT*>(d_block_storage)[blockIdx.x];
  }
}
} // namespace detail
STRATA_NAMESPACE_END

// strata/util_arch.cuh: architecture constants and the register/memory-bound scaling of tuning policies.
#pragma once

#include <strata/util_macro.cuh>
#include <strata/util_math.cuh>
#include <strata/util_namespace.cuh>

//! The architecture of the current compilation pass (e.g. 900), 0 in host code.
#if defined(__CUDA_ARCH__)
#  define STRATA_PTX_ARCH __CUDA_ARCH__
#else
#  define STRATA_PTX_ARCH 0
#endif

//! Largest number of devices whose attributes strata caches.
#ifndef STRATA_MAX_DEVICES
#  define STRATA_MAX_DEVICES 128
#endif
static_assert(STRATA_MAX_DEVICES > 0, "STRATA_MAX_DEVICES must be positive");

// The architecture constants under CUB's macro names: every architecture strata supports has the
// same values, so the function-like forms ignore their argument (CUB passes an architecture).

//! log2 of the threads of a hardware warp, and the threads of a hardware warp.
#define STRATA_LOG_WARP_THREADS(unused) (5)
#define STRATA_WARP_THREADS(unused) (1 << STRATA_LOG_WARP_THREADS(0))
#define STRATA_PTX_WARP_THREADS STRATA_WARP_THREADS(0)
#define STRATA_PTX_LOG_WARP_THREADS STRATA_LOG_WARP_THREADS(0)

//! log2 of the shared-memory banks (4 bytes wide), and the banks.
#define STRATA_LOG_SMEM_BANKS(unused) (5)
#define STRATA_SMEM_BANKS(unused) (1 << STRATA_LOG_SMEM_BANKS(0))
#define STRATA_PTX_LOG_SMEM_BANKS STRATA_LOG_SMEM_BANKS(0)
#define STRATA_PTX_SMEM_BANKS STRATA_SMEM_BANKS(0)

//! Blocks per SM that a grid of "enough" blocks oversubscribes by.
#define STRATA_SUBSCRIPTION_FACTOR(unused) (5)
#define STRATA_PTX_SUBSCRIPTION_FACTOR STRATA_SUBSCRIPTION_FACTOR(0)

//! Bank-conflict degree above which a shared layout prefers padding.
#define STRATA_PREFER_CONFLICT_OVER_PADDING(unused) (1)
#define STRATA_PTX_PREFER_CONFLICT_OVER_PADDING STRATA_PREFER_CONFLICT_OVER_PADDING(0)

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! Threads of a hardware warp on every architecture strata supports.
inline constexpr int warp_threads      = STRATA_PTX_WARP_THREADS;
inline constexpr int log2_warp_threads = STRATA_PTX_LOG_WARP_THREADS;
//! Shared-memory banks (4 bytes wide) on every architecture strata supports.
inline constexpr int smem_banks      = STRATA_PTX_SMEM_BANKS;
inline constexpr int log2_smem_banks = STRATA_PTX_LOG_SMEM_BANKS;
//! Largest CUDA block.
inline constexpr int max_block_threads = 1024;
} // namespace detail

namespace detail
{
//! Largest block (a multiple of a warp, at most NOMINAL) whose tile of ITEMS_PER_THREAD items of
//! type T per thread still fits in the 48 KiB of static shared memory a block may declare.
constexpr int ConstexprMin(int a, int b)
{
  return a < b ? a : b;
}
constexpr int ConstexprMax(int a, int b)
{
  return a < b ? b : a;
}

template <int NOMINAL, int ITEMS_PER_THREAD, typename T>
inline constexpr int tile_fitting_block_threads = ConstexprMax(
    warp_threads,
    ConstexprMin(NOMINAL, static_cast<int>(48 * 1024 / (ITEMS_PER_THREAD * sizeof(T))) / warp_threads * warp_threads));
} // namespace detail

namespace detail
{
//! The one rule by which strata's policies scale a tuning for 4-byte items to items of type T:
//! the nominal block, and items per thread that keep a thread's bytes about constant for T of 4
//! bytes or more (at least one item) and stay nominal for narrower T, each of whose items takes a
//! register of its own (Nominal4BItemsToItems).
template <int NOMINAL_4B_BLOCK_THREADS, int NOMINAL_4B_ITEMS_PER_THREAD, typename T>
struct NominalScaling
{
  static constexpr int ITEMS_PER_THREAD = Nominal4BItemsToItems<T>(NOMINAL_4B_ITEMS_PER_THREAD);
  static constexpr int BLOCK_THREADS    = NOMINAL_4B_BLOCK_THREADS;
};
} // namespace detail

//! Scales a policy tuned for 4-byte items to items of type T when the algorithm is register
//! bound: items per thread shrink with sizeof(T) so that registers per thread stay about constant.
template <int NOMINAL_4B_BLOCK_THREADS, int NOMINAL_4B_ITEMS_PER_THREAD, typename T>
struct RegBoundScaling
{
  static constexpr int ITEMS_PER_THREAD = Nominal4BItemsToItems<T>(NOMINAL_4B_ITEMS_PER_THREAD);
  static constexpr int BLOCK_THREADS =
      detail::tile_fitting_block_threads<NOMINAL_4B_BLOCK_THREADS, ITEMS_PER_THREAD, T>;
};

//! Scales a policy tuned for 4-byte items to items of type T when the algorithm is memory
//! bound: bytes per thread stay about constant, so items per thread shrink for T wider than
//! 4 bytes (and never grow for narrower T).
template <int NOMINAL_4B_BLOCK_THREADS, int NOMINAL_4B_ITEMS_PER_THREAD, typename T>
struct MemBoundScaling
{
  static constexpr int ITEMS_PER_THREAD = Nominal4BItemsToItems<T>(NOMINAL_4B_ITEMS_PER_THREAD);
  static constexpr int BLOCK_THREADS =
      detail::tile_fitting_block_threads<NOMINAL_4B_BLOCK_THREADS, ITEMS_PER_THREAD, T>;
};
STRATA_NAMESPACE_END

// Kernels that use every cache modifier of ThreadLoad / ThreadStore once per word width; compiled
// to PTX only (not linked), so that check_cache_modifiers_ptx.cmake can read which instructions
// the modifiers emit without running anything.
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_store.cuh>

#include <cstdint>

namespace
{
//! 16 bytes, 16-byte aligned: moved as one .v2.u64 word.
struct alignas(16) wide16
{
  std::uint64_t lo;
  std::uint64_t hi;
};
} // namespace

//! Loads in[k * 32 + i] with load modifier k and stores it to out[k * 32 + i] with store
//! modifier k (the stores cycle through the five of them).
template <typename T>
__global__ void cache_modifiers(const T* in, T* out)
{
  const int i = static_cast<int>(threadIdx.x);
  const T ca  = strata::ThreadLoad<strata::LOAD_CA>(in + 0 * 32 + i);
  const T cg  = strata::ThreadLoad<strata::LOAD_CG>(in + 1 * 32 + i);
  const T cs  = strata::ThreadLoad<strata::LOAD_CS>(in + 2 * 32 + i);
  const T cv  = strata::ThreadLoad<strata::LOAD_CV>(in + 3 * 32 + i);
  const T nc  = strata::ThreadLoad<strata::LOAD_LDG>(in + 4 * 32 + i);
  const T vol = strata::ThreadLoad<strata::LOAD_VOLATILE>(in + 5 * 32 + i);
  strata::ThreadStore<strata::STORE_WB>(out + 0 * 32 + i, ca);
  strata::ThreadStore<strata::STORE_CG>(out + 1 * 32 + i, cg);
  strata::ThreadStore<strata::STORE_CS>(out + 2 * 32 + i, cs);
  strata::ThreadStore<strata::STORE_WT>(out + 3 * 32 + i, cv);
  strata::ThreadStore<strata::STORE_VOLATILE>(out + 4 * 32 + i, nc);
  strata::ThreadStore<strata::STORE_WB>(out + 5 * 32 + i, vol);
}

template __global__ void cache_modifiers<std::uint8_t>(const std::uint8_t*, std::uint8_t*);
template __global__ void cache_modifiers<std::uint16_t>(const std::uint16_t*, std::uint16_t*);
template __global__ void cache_modifiers<std::uint32_t>(const std::uint32_t*, std::uint32_t*);
template __global__ void cache_modifiers<std::uint64_t>(const std::uint64_t*, std::uint64_t*);
template __global__ void cache_modifiers<wide16>(const wide16*, wide16*);

//! Volatile accesses to shared memory: each thread writes its slot and reads its neighbour's.
__global__ void shared_volatile(const std::uint32_t* in, std::uint32_t* out)
{
  __shared__ std::uint32_t tile[64];
  const int i = static_cast<int>(threadIdx.x);
  strata::ThreadStore<strata::STORE_VOLATILE>(tile + i, in[i]);
  __syncthreads();
  out[i] = strata::ThreadLoad<strata::LOAD_VOLATILE>(tile + (i ^ 1));
}

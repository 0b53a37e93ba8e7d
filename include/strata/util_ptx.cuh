// strata/util_ptx.cuh: thread and lane ids, warp masks, shuffles of any trivially copyable
// type, MatchAny, and the L2 bulk prefetch.
#pragma once

#include <strata/config.cuh>
#include <strata/detail/copy_bytes.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <nv/target>

STRATA_NAMESPACE_BEGIN

namespace detail
{
// The PTX instructions strata issues itself, written here rather than through <cuda/ptx>, whose
// header set costs every translation unit a noticeable part of its compile time.

//! A special register (%laneid and the like): `asm` without volatile, so that repeated reads fold.
#define STRATA_DETAIL_SREG_U32(NAME, REGISTER)                                                                         \
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t NAME()                                                        \
  {                                                                                                                    \
    ::cuda::std::uint32_t value;                                                                                       \
    asm("mov.u32 %0, %%" REGISTER ";" : "=r"(value));                                                                  \
    return value;                                                                                                      \
  }
STRATA_DETAIL_SREG_U32(SregLaneId, "laneid")
STRATA_DETAIL_SREG_U32(SregLaneMaskLt, "lanemask_lt")
STRATA_DETAIL_SREG_U32(SregLaneMaskLe, "lanemask_le")
STRATA_DETAIL_SREG_U32(SregLaneMaskGt, "lanemask_gt")
STRATA_DETAIL_SREG_U32(SregLaneMaskGe, "lanemask_ge")
#undef STRATA_DETAIL_SREG_U32

//! %warpid: volatile, since a warp may move between slots.
STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t SregWarpId()
{
  ::cuda::std::uint32_t value;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(value));
  return value;
}

//! shfl.sync of one 32-bit word in MODE ("up", "down", "idx" or "bfly"): `b` is the lane offset,
//! index or xor mask, `c` the clamp and segment mask.
#define STRATA_DETAIL_SHFL_SYNC(NAME, MODE)                                                                            \
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t NAME(                                                         \
      ::cuda::std::uint32_t word, ::cuda::std::uint32_t b, ::cuda::std::uint32_t c, ::cuda::std::uint32_t member_mask) \
  {                                                                                                                    \
    ::cuda::std::uint32_t result;                                                                                      \
    asm volatile("shfl.sync." MODE ".b32 %0, %1, %2, %3, %4;"                                                          \
                 : "=r"(result)                                                                                        \
                 : "r"(word), "r"(b), "r"(c), "r"(member_mask));                                                       \
    return result;                                                                                                     \
  }
STRATA_DETAIL_SHFL_SYNC(ShflSyncUp, "up")
STRATA_DETAIL_SHFL_SYNC(ShflSyncDown, "down")
STRATA_DETAIL_SHFL_SYNC(ShflSyncIdx, "idx")
STRATA_DETAIL_SHFL_SYNC(ShflSyncBfly, "bfly")
#undef STRATA_DETAIL_SHFL_SYNC

//! The shared-memory address of a generic pointer into shared memory.
STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t SharedAddress(const void* ptr)
{
  return static_cast<::cuda::std::uint32_t>(__cvta_generic_to_shared(ptr));
}

// Bulk copies into shared memory, completed on an mbarrier (sm_90 and later; callers guard them
// with NV_IF_TARGET(NV_PROVIDES_SM_90, ...)).

//! mbarrier.init: the barrier expects `count` arrivals per phase.
STRATA_DEVICE STRATA_FORCEINLINE void MbarrierInit(::cuda::std::uint64_t* barrier, ::cuda::std::uint32_t count)
{
  asm("mbarrier.init.shared.b64 [%0], %1;" : : "r"(SharedAddress(barrier)), "r"(count) : "memory");
}

//! fence.proxy.async.shared::cta: makes the generic proxy's shared-memory writes (the barrier's
//! initialization) visible to the async proxy (the bulk copies).
STRATA_DEVICE STRATA_FORCEINLINE void FenceProxyAsyncShared()
{
  asm volatile("fence.proxy.async.shared::cta;" : : : "memory");
}

//! mbarrier.arrive.expect_tx (release, CTA scope): one arrival, and `bytes` more to come from
//! bulk copies before the phase completes.
STRATA_DEVICE STRATA_FORCEINLINE void MbarrierArriveExpectTx(::cuda::std::uint64_t* barrier,
                                                             ::cuda::std::uint32_t bytes)
{
  [[maybe_unused]] ::cuda::std::uint64_t state; // the phase's token, which the waits here do not need
  asm("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;"
      : "=l"(state)
      : "r"(SharedAddress(barrier)), "r"(bytes)
      : "memory");
}

//! cp.async.bulk from global to shared memory: `bytes` (a multiple of 16, both addresses 16-byte
//! aligned) from item `index` of the items of ITEM_BYTES bytes at `global`, completing on
//! `barrier`. The address is computed in the asm with a wide multiply-add: ptxas of CUDA 13.0
//! miscompiles the same sum written as a zero-extended shift plus add for the bulk copy's
//! uniform registers (it drops the pointer's upper 32 bits).
template <int ITEM_BYTES, typename IndexT>
STRATA_DEVICE STRATA_FORCEINLINE void CpAsyncBulkGlobalToShared(void* shared, const void* global, IndexT index,
                                                                ::cuda::std::uint32_t bytes,
                                                                ::cuda::std::uint64_t* barrier)
{
  static_assert(::cuda::std::is_unsigned_v<IndexT> && (sizeof(IndexT) == 4 || sizeof(IndexT) == 8),
                "the item index is a 32- or 64-bit unsigned offset");
  if constexpr (sizeof(IndexT) == 4)
  {
    asm("{\n\t.reg .u64 g;\n\t"
        "cvta.to.global.u64 g, %1;\n\t"
        "mad.wide.u32 g, %2, %3, g;\n\t"
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [g], %4, [%5];\n\t}"
        :
        : "r"(SharedAddress(shared)), "l"(global), "r"(index), "n"(ITEM_BYTES), "r"(bytes), "r"(SharedAddress(barrier))
        : "memory");
  }
  else
  {
    asm("{\n\t.reg .u64 g;\n\t"
        "cvta.to.global.u64 g, %1;\n\t"
        "mad.lo.u64 g, %2, %3, g;\n\t"
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [g], %4, [%5];\n\t}"
        :
        : "r"(SharedAddress(shared)), "l"(global), "l"(index), "n"(ITEM_BYTES), "r"(bytes), "r"(SharedAddress(barrier))
        : "memory");
  }
}

//! mbarrier.try_wait.parity: whether the phase of parity `parity` has completed (after a
//! bounded wait).
STRATA_DEVICE STRATA_FORCEINLINE bool MbarrierTryWaitParity(::cuda::std::uint64_t* barrier,
                                                            ::cuda::std::uint32_t parity)
{
  ::cuda::std::uint32_t done;
  asm("{\n\t.reg .pred p;\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
      "selp.b32 %0, 1, 0, p;\n\t}"
      : "=r"(done)
      : "r"(SharedAddress(barrier)), "r"(parity)
      : "memory");
  return done != 0;
}
//! A 16-byte word read and written with one access.
struct alignas(16) Word128
{
  ::cuda::std::uint64_t lo;
  ::cuda::std::uint64_t hi;
};

// Device-scope loads and stores with a memory order, as PTX (the instructions
// cuda::atomic_ref<T, thread_scope_device> issues for these orders, without its headers): the
// look-back descriptors of the single-pass algorithms and of the radix sort's onesweep pass.
STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint64_t LoadRelaxed(const ::cuda::std::uint64_t* word)
{
  ::cuda::std::uint64_t value;
  asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(value) : "l"(word) : "memory");
  return value;
}

STRATA_DEVICE STRATA_FORCEINLINE void StoreRelaxed(::cuda::std::uint64_t* word, ::cuda::std::uint64_t value)
{
  asm volatile("st.relaxed.gpu.b64 [%0], %1;" : : "l"(word), "l"(value) : "memory");
}

STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t LoadRelaxed(const ::cuda::std::uint32_t* word)
{
  ::cuda::std::uint32_t value;
  asm volatile("ld.relaxed.gpu.b32 %0, [%1];" : "=r"(value) : "l"(word) : "memory");
  return value;
}

STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::uint32_t LoadAcquire(const ::cuda::std::uint32_t* word)
{
  ::cuda::std::uint32_t value;
  asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(value) : "l"(word) : "memory");
  return value;
}

STRATA_DEVICE STRATA_FORCEINLINE void StoreRelaxed(::cuda::std::uint32_t* word, ::cuda::std::uint32_t value)
{
  asm volatile("st.relaxed.gpu.b32 [%0], %1;" : : "l"(word), "r"(value) : "memory");
}

STRATA_DEVICE STRATA_FORCEINLINE void StoreRelease(::cuda::std::uint32_t* word, ::cuda::std::uint32_t value)
{
  asm volatile("st.release.gpu.b32 [%0], %1;" : : "l"(word), "r"(value) : "memory");
}

// 16-byte words: libcu++ of CUDA 13.0 emits PTX for atomic_ref<16 bytes>::load that ptxas rejects,
// so the two accesses are written here (ld/st .b128 need sm_70 and PTX 8.3).
STRATA_DEVICE STRATA_FORCEINLINE Word128 LoadRelaxed(const Word128* word)
{
  Word128 value;
  asm volatile("{\n\t.reg .b128 w;\n\tld.relaxed.gpu.global.b128 w, [%2];\n\tmov.b128 {%0, %1}, w;\n\t}"
               : "=l"(value.lo), "=l"(value.hi)
               : "l"(word)
               : "memory");
  return value;
}

STRATA_DEVICE STRATA_FORCEINLINE void StoreRelaxed(Word128* word, Word128 value)
{
  asm volatile("{\n\t.reg .b128 w;\n\tmov.b128 w, {%0, %1};\n\tst.relaxed.gpu.global.b128 [%2], w;\n\t}"
               :
               : "l"(value.lo), "l"(value.hi), "l"(word)
               : "memory");
}
} // namespace detail

//! The calling thread's rank in its block when threads are numbered x fastest, then y, then z.
STRATA_DEVICE STRATA_FORCEINLINE int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z)
{
  // The tests for 1 let the compiler drop the multiply-adds of unused dimensions when the block
  // shape is a compile-time constant.
  return ((block_dim_z == 1) ? 0 : static_cast<int>(threadIdx.z) * block_dim_x * block_dim_y)
         + ((block_dim_y == 1) ? 0 : static_cast<int>(threadIdx.y) * block_dim_x) + static_cast<int>(threadIdx.x);
}

//! The calling thread's lane in its hardware warp.
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneId()
{
  return detail::SregLaneId();
}

//! The hardware warp slot of the calling thread (%warpid): unique among the resident warps of
//! the SM, but not a zero-based rank within the block (use RowMajorTid() / 32 for that).
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpId()
{
  return detail::SregWarpId();
}

//! Bit masks of the lanes below, at or below, above, and at or above the calling lane.
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskLt()
{
  return detail::SregLaneMaskLt();
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskLe()
{
  return detail::SregLaneMaskLe();
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskGt()
{
  return detail::SregLaneMaskGt();
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskGe()
{
  return detail::SregLaneMaskGe();
}

//! The member mask of logical warp `warp_id` (of LOGICAL_WARP_THREADS lanes) in its hardware
//! warp. Logical warps split every hardware warp into groups of consecutive lanes from lane 0, so
//! logical warp w is lanes w * L .. w * L + L - 1 (for sizes that do not divide 32, the lanes past
//! the last whole group form no logical warp). Power-of-two sizes also accept a logical warp's
//! rank in its block, as they tile every hardware warp alike. CUB documents warp_id as the
//! logical warp within the hardware warp but leaves non-power-of-two masks at lane 0; strata
//! follows the documentation.
template <int LOGICAL_WARP_THREADS>
STRATA_HOST_DEVICE constexpr unsigned int WarpMask(unsigned int warp_id)
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= detail::warp_threads,
                "a logical warp has 1 to 32 threads");
  constexpr unsigned int lanes = 0xFFFFFFFFu >> (detail::warp_threads - LOGICAL_WARP_THREADS);
  if constexpr (LOGICAL_WARP_THREADS == detail::warp_threads)
  {
    static_cast<void>(warp_id);
    return lanes;
  }
  else
  {
    constexpr bool tiles_warp = ::cuda::std::has_single_bit(static_cast<unsigned int>(LOGICAL_WARP_THREADS));
    const unsigned int first =
        tiles_warp ? (warp_id * LOGICAL_WARP_THREADS) % detail::warp_threads : warp_id * LOGICAL_WARP_THREADS;
    return first < detail::warp_threads ? lanes << first : 0u;
  }
}

namespace detail
{
//! The calling lane's rank in its logical warp of LOGICAL_WARP_THREADS lanes (see WarpMask for
//! where logical warps sit).
template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LogicalLaneId()
{
  return LOGICAL_WARP_THREADS == warp_threads ? LaneId() : LaneId() % LOGICAL_WARP_THREADS;
}

//! The member mask of the calling lane's logical warp of LOGICAL_WARP_THREADS lanes.
template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LogicalWarpMask()
{
  return WarpMask<LOGICAL_WARP_THREADS>(LaneId() / LOGICAL_WARP_THREADS);
}
} // namespace detail

namespace detail
{
//! A T seen as whole 32-bit words, which is what shfl moves. A T that is not trivially copyable
//! moves as its bytes too, as in CUB: the receiving lane's T is default-constructed and its bytes
//! overwritten, without a call of T's copy constructor or assignment (no constructor can run
//! across lanes).
template <typename T>
struct ShuffleWords
{
  static constexpr int COUNT = static_cast<int>((sizeof(T) + 3) / 4);
  ::cuda::std::uint32_t words[COUNT];

  STRATA_DEVICE STRATA_FORCEINLINE explicit ShuffleWords(const T& value)
  {
    if constexpr (sizeof(T) % 4 != 0)
    {
      words[COUNT - 1] = 0; // the padding bytes of the last word travel too
    }
    ::strata::detail::CopyBytes(words, &value, sizeof(T));
  }
  STRATA_DEVICE STRATA_FORCEINLINE T Value() const
  {
    T value;
    ::strata::detail::CopyBytes(static_cast<void*>(&value), words, sizeof(T));
    return value;
  }
};

//! The c operand of shfl: the segment mask (which lanes form a logical warp) in bits 8..12 and
//! the clamp lane in bits 0..4.
template <int LOGICAL_WARP_THREADS>
inline constexpr unsigned int shfl_segment_mask = static_cast<unsigned int>(warp_threads - LOGICAL_WARP_THREADS) << 8;
} // namespace detail

//! Each lane gets `input` of the lane `src_offset` below it in its logical warp; lanes whose
//! source would fall below lane `first_thread` of the logical warp keep their own input.
//! All lanes in `member_mask` must call it.
template <int LOGICAL_WARP_THREADS, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleUp(T input, int src_offset, int first_thread, unsigned int member_mask)
{
  detail::ShuffleWords<T> words(input);
  const unsigned int c = detail::shfl_segment_mask<LOGICAL_WARP_THREADS> | static_cast<unsigned int>(first_thread);
#pragma unroll
  for (int i = 0; i < detail::ShuffleWords<T>::COUNT; ++i)
  {
    words.words[i] = detail::ShflSyncUp(words.words[i], static_cast<unsigned int>(src_offset), c, member_mask);
  }
  return words.Value();
}

//! Each lane gets `input` of the lane `src_offset` above it in its logical warp; lanes whose
//! source would lie beyond lane `last_thread` of the logical warp keep their own input.
//! All lanes in `member_mask` must call it.
template <int LOGICAL_WARP_THREADS, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleDown(T input, int src_offset, int last_thread, unsigned int member_mask)
{
  detail::ShuffleWords<T> words(input);
  const unsigned int c = detail::shfl_segment_mask<LOGICAL_WARP_THREADS> | static_cast<unsigned int>(last_thread);
#pragma unroll
  for (int i = 0; i < detail::ShuffleWords<T>::COUNT; ++i)
  {
    words.words[i] = detail::ShflSyncDown(words.words[i], static_cast<unsigned int>(src_offset), c, member_mask);
  }
  return words.Value();
}

//! Each lane gets `input` of lane `src_lane` of its logical warp. All lanes in `member_mask`
//! must call it.
template <int LOGICAL_WARP_THREADS, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleIndex(T input, int src_lane, unsigned int member_mask)
{
  detail::ShuffleWords<T> words(input);
  const unsigned int c = detail::shfl_segment_mask<LOGICAL_WARP_THREADS> | (detail::warp_threads - 1);
#pragma unroll
  for (int i = 0; i < detail::ShuffleWords<T>::COUNT; ++i)
  {
    words.words[i] = detail::ShflSyncIdx(words.words[i], static_cast<unsigned int>(src_lane), c, member_mask);
  }
  return words.Value();
}

namespace detail
{
//! The lanes of `members` whose label agrees with the calling lane's in the low LABEL_BITS bits.
//! Up to 16 bits, one ballot per bit: on current GPUs that is faster than match.any.
template <int LABEL_BITS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int MatchLanes(unsigned int label, unsigned int members)
{
  if constexpr (LABEL_BITS <= 16)
  {
    unsigned int peers = members;
#pragma unroll
    for (int bit = 0; bit < LABEL_BITS; ++bit)
    {
      const bool set          = (label >> bit) & 1u;
      const unsigned int ones = __ballot_sync(members, set);
      peers &= set ? ones : ~ones;
    }
    return peers;
  }
  else
  {
    constexpr unsigned int label_mask = 0xFFFFFFFFu >> (32 - LABEL_BITS);
    return __match_any_sync(members, label & label_mask);
  }
}
} // namespace detail

//! The mask of the lanes of the warp whose `label` agrees with the calling lane's in the low
//! LABEL_BITS bits. The lowest WARP_ACTIVE_THREADS lanes of the warp (all of them by default; fewer
//! in the partial last warp of a block) call it together, and only they appear in the mask.
template <int LABEL_BITS, int WARP_ACTIVE_THREADS = detail::warp_threads>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int MatchAny(unsigned int label)
{
  static_assert(LABEL_BITS >= 1 && LABEL_BITS <= 32, "MatchAny compares 1 to 32 label bits");
  static_assert(WARP_ACTIVE_THREADS >= 1 && WARP_ACTIVE_THREADS <= detail::warp_threads,
                "a warp has 1 to 32 active threads");
  constexpr unsigned int members = 0xFFFFFFFFu >> (detail::warp_threads - WARP_ACTIVE_THREADS);
  return detail::MatchLanes<LABEL_BITS>(label, members);
}

//! Ends the calling thread (PTX `exit`); warp-synchronous operations after it must not name it.
STRATA_DEVICE STRATA_FORCEINLINE void ThreadExit()
{
  asm volatile("exit;");
}

namespace detail
{
//! Asks L2 to fetch `bytes` bytes at `ptr` from global memory, without waiting and without
//! loading anything into registers (sm_90 and later: one bulk prefetch; nothing before). `ptr`
//! and `bytes` must be multiples of 16.
STRATA_DEVICE STRATA_FORCEINLINE void PrefetchL2([[maybe_unused]] const void* ptr, [[maybe_unused]] unsigned int bytes)
{
  NV_IF_TARGET(NV_PROVIDES_SM_90, (asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(ptr), "r"(bytes)
                                                : "memory");));
}
} // namespace detail

STRATA_NAMESPACE_END

// strata/block/block_radix_sort.cuh: BlockRadixSort, a stable block-wide radix sort of keys or
// key-value pairs held in a blocked arrangement.
#pragma once

#include <strata/config.cuh>
#include <strata/block/block_radix_rank.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/util_ptx.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Sorts the keys of a thread block (ITEMS_PER_THREAD per thread, a blocked arrangement), or
//! keys with values, by their bits from `begin_bit` to `end_bit`: one pass per RADIX_BITS bits,
//! each ranking the keys by one digit with BlockRadixRank and exchanging keys (and values)
//! through shared memory into their ranked places. The sort is stable. Floating-point keys sort
//! by value with -0.0 equal to +0.0 (their order is kept), negative NaNs before -inf and positive
//! NaNs after +inf. Key types that are not arithmetic are sorted through a decomposer: a functor
//! returning a `cuda::std::tuple` of references to the key's arithmetic members, most significant
//! first; bit ranges then count from the least significant bit of the last member.
//!
//! Sort and SortDescending leave a blocked arrangement (thread t holds sorted items
//! t * ITEMS_PER_THREAD ...); the BlockedToStriped members leave a striped one (thread t holds
//! sorted items t, t + BLOCK_THREADS, ...), which stores coalesced. Every member synchronizes the
//! block and must be called by all its threads; call `__syncthreads()` before the same
//! TempStorage is used again.
//!
//! \code
//! // 128 threads, 4 keys each
//! using BlockRadixSortT = strata::BlockRadixSort<int, 128, 4>;
//! __shared__ BlockRadixSortT::TempStorage temp_storage;
//! int keys[4];
//! BlockRadixSortT(temp_storage).Sort(keys); // thread t: the sorted keys 4t .. 4t + 3
//! \endcode
//!
//! \tparam RADIX_BITS           bits per pass
//! \tparam MEMOIZE_OUTER_SCAN   see BlockRadixRank
//! \tparam INNER_SCAN_ALGORITHM see BlockRadixRank
//! \tparam SMEM_CONFIG          see BlockRadixRank (counters packed in 4- or 8-byte words)
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixSort
{
  using traits           = detail::radix::traits_t<KeyT>;
  using bit_ordered_type = typename traits::bit_ordered_type;

  template <bool IS_DESCENDING>
  using RankT = BlockRadixRank<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, MEMOIZE_OUTER_SCAN, INNER_SCAN_ALGORITHM,
                               SMEM_CONFIG, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE_ITEMS    = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr bool KEYS_ONLY    = ::cuda::std::is_same_v<ValueT, NullType>;
  //! One padding slot every 32 items: threads reading ITEMS_PER_THREAD apart (a blocked
  //! arrangement) then hit different banks when ITEMS_PER_THREAD is even.
  static constexpr bool PADDED     = ITEMS_PER_THREAD % 2 == 0;
  static constexpr int SLOTS       = TILE_ITEMS + (PADDED ? TILE_ITEMS / 32 : 0);
  static constexpr int VALUE_SLOTS = KEYS_ONLY ? 1 : SLOTS;

  using RankStorageT = typename RankT<false>::TempStorage;
  static_assert(sizeof(RankStorageT) == sizeof(typename RankT<true>::TempStorage), "both rankers share the storage");

  //! The exchange buffers share the ranking counters' memory (the TempStorage is never larger
  //! than the largest of the three). Keys and values are exchanged together, behind one barrier,
  //! when both buffers fit beside each other in the counters' memory; otherwise one after the
  //! other.
  static constexpr bool JOINT_EXCHANGE =
      KEYS_ONLY || sizeof(bit_ordered_type) * SLOTS + sizeof(ValueT) * SLOTS <= sizeof(RankStorageT);

  struct JointSlots
  {
    Uninitialized<bit_ordered_type[SLOTS]> keys;
    Uninitialized<ValueT[VALUE_SLOTS]> values;
  };

  union _TempStorage
  {
    typename RankT<false>::TempStorage ascending_rank;
    typename RankT<true>::TempStorage descending_rank;
    ::cuda::std::conditional_t<JOINT_EXCHANGE, JointSlots, NullType> joint;
    Uninitialized<bit_ordered_type[SLOTS]> keys;
    Uninitialized<ValueT[VALUE_SLOTS]> values;
  };

  template <typename DecomposerT>
  static constexpr bool is_decomposer_v = !::cuda::std::is_convertible_v<DecomposerT, int>;

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {
  };

  //! Uses a private `__shared__` TempStorage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixSort()
      : temp_storage(detail::PrivateTempStorage<TempStorage>().Alias())
  {
  }

  //! Uses the caller's `temp_storage`.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixSort(TempStorage& temp_storage)
      : temp_storage(temp_storage.Alias())
  {
  }

  //! \name Blocked arrangement out
  //! \{

  //! Sorts keys ascending by bits [begin_bit, end_bit).
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                             int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<false, false>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  //! Sorts keys ascending by bits [begin_bit, end_bit) of their decomposed members.
  //!
  //! \code
  //! struct custom_t { float f; long long ll; };
  //! struct decomposer_t {
  //!   __host__ __device__ cuda::std::tuple<float&, long long&> operator()(custom_t& key) const
  //!   { return {key.f, key.ll}; }
  //! };
  //! BlockRadixSortT(temp_storage).Sort(keys, decomposer_t{}); // by f, then ll
  //! \endcode
  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  Sort(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<false, false>(keys, values, begin_bit, end_bit, decomposer);
  }

  //! Sorts keys ascending by all bits of their decomposed members.
  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  Sort(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer)
  {
    Sort(keys, decomposer, 0, traits::default_end_bit(decomposer));
  }

  //! Sorts key-value pairs ascending by key bits [begin_bit, end_bit).
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                                             int begin_bit = 0, int end_bit = sizeof(KeyT) * 8)
  {
    SortImpl<false, false>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit,
       int end_bit)
  {
    SortImpl<false, false>(keys, values, begin_bit, end_bit, decomposer);
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer)
  {
    Sort(keys, values, decomposer, 0, traits::default_end_bit(decomposer));
  }

  //! Sorts keys descending by bits [begin_bit, end_bit) (stable: equal keys keep their order).
  STRATA_DEVICE STRATA_FORCEINLINE void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                       int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<true, false>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<true, false>(keys, values, begin_bit, end_bit, decomposer);
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer)
  {
    SortDescending(keys, decomposer, 0, traits::default_end_bit(decomposer));
  }

  STRATA_DEVICE STRATA_FORCEINLINE void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD],
                                                       ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                       int end_bit = sizeof(KeyT) * 8)
  {
    SortImpl<true, false>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
                 int begin_bit, int end_bit)
  {
    SortImpl<true, false>(keys, values, begin_bit, end_bit, decomposer);
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer)
  {
    SortDescending(keys, values, decomposer, 0, traits::default_end_bit(decomposer));
  }

  //! \}
  //! \name Striped arrangement out
  //! \{

  //! Sorts keys ascending; thread t ends with sorted keys t, t + BLOCK_THREADS, ...
  STRATA_DEVICE STRATA_FORCEINLINE void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                             int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<false, true>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<false, true>(keys, values, begin_bit, end_bit, decomposer);
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer)
  {
    SortBlockedToStriped(keys, decomposer, 0, traits::default_end_bit(decomposer));
  }

  STRATA_DEVICE STRATA_FORCEINLINE void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD],
                                                             ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                             int end_bit = sizeof(KeyT) * 8)
  {
    SortImpl<false, true>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer,
                       int begin_bit, int end_bit)
  {
    SortImpl<false, true>(keys, values, begin_bit, end_bit, decomposer);
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], DecomposerT decomposer)
  {
    SortBlockedToStriped(keys, values, decomposer, 0, traits::default_end_bit(decomposer));
  }

  //! Sorts keys descending; thread t ends with sorted keys t, t + BLOCK_THREADS, ...
  STRATA_DEVICE STRATA_FORCEINLINE void
  SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<true, true>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer, int begin_bit, int end_bit)
  {
    NullType values[ITEMS_PER_THREAD];
    SortImpl<true, true>(keys, values, begin_bit, end_bit, decomposer);
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], DecomposerT decomposer)
  {
    SortDescendingBlockedToStriped(keys, decomposer, 0, traits::default_end_bit(decomposer));
  }

  STRATA_DEVICE STRATA_FORCEINLINE void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD],
                                                                       ValueT (&values)[ITEMS_PER_THREAD],
                                                                       int begin_bit = 0,
                                                                       int end_bit   = sizeof(KeyT) * 8)
  {
    SortImpl<true, true>(keys, values, begin_bit, end_bit, detail::identity_decomposer_t{});
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                                 DecomposerT decomposer, int begin_bit, int end_bit)
  {
    SortImpl<true, true>(keys, values, begin_bit, end_bit, decomposer);
  }

  template <typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE ::cuda::std::enable_if_t<is_decomposer_v<DecomposerT>>
  SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                                 DecomposerT decomposer)
  {
    SortDescendingBlockedToStriped(keys, values, decomposer, 0, traits::default_end_bit(decomposer));
  }

  //! \}

private:
  _TempStorage& temp_storage;

  //! One digit pass per RADIX_BITS bits, least significant first. Keys travel as their
  //! order-preserving bits; the last pass scatters into the requested arrangement.
  template <bool IS_DESCENDING, bool TO_STRIPED, typename ValuesT, typename DecomposerT>
  STRATA_DEVICE STRATA_FORCEINLINE void SortImpl(KeyT (&keys)[ITEMS_PER_THREAD], ValuesT (&values)[ITEMS_PER_THREAD],
                                                 int begin_bit, int end_bit, DecomposerT decomposer)
  {
    bit_ordered_type bits[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      bits[i] = traits::to_bit_ordered(decomposer, ::cuda::std::bit_cast<bit_ordered_type>(keys[i]));
    }

    // At least one pass runs: an empty bit range keeps every key in place (ranked by position),
    // but a striped result still needs its exchange.
    int ranks[ITEMS_PER_THREAD];
    for (;;)
    {
      const int pass_bits = end_bit - begin_bit < RADIX_BITS ? end_bit - begin_bit : RADIX_BITS;
      if (pass_bits > 0)
      {
        auto digits = traits::template digit_extractor<BFEDigitExtractor<KeyT>>(begin_bit, pass_bits, decomposer);
        if constexpr (IS_DESCENDING)
        {
          RankT<true>(temp_storage.descending_rank).RankKeys(bits, ranks, digits);
        }
        else
        {
          RankT<false>(temp_storage.ascending_rank).RankKeys(bits, ranks, digits);
        }
      }
      else
      {
        const int first = RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z) * ITEMS_PER_THREAD;
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          ranks[i] = first + i;
        }
      }
      begin_bit += RADIX_BITS;
      __syncthreads(); // the exchange reuses the ranking counters
      if (begin_bit >= end_bit)
      {
        break;
      }
      Exchange<false>(bits, values, ranks);
      __syncthreads(); // the next ranking reuses the exchange buffers
    }
    Exchange<TO_STRIPED>(bits, values, ranks);

#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      keys[i] = ::cuda::std::bit_cast<KeyT>(traits::from_bit_ordered(decomposer, bits[i]));
    }
  }

  //! Whether the slots of a thread's blocked run are its first slot plus compile-time offsets: the
  //! run meets padding only at fixed item indices (ITEMS_PER_THREAD divides 32, or 32 divides it).
  static constexpr bool BLOCKED_RUN_SLOTS = !PADDED || 32 % ITEMS_PER_THREAD == 0 || ITEMS_PER_THREAD % 32 == 0;

  STRATA_DEVICE STRATA_FORCEINLINE static int Slot(int position)
  {
    return PADDED ? position + position / 32 : position;
  }

  //! Moves every key (and value) to its rank: thread t then holds ranks t * ITEMS_PER_THREAD + i
  //! (blocked) or i * BLOCK_THREADS + t (striped).
  template <bool TO_STRIPED, typename ValuesT>
  STRATA_DEVICE STRATA_FORCEINLINE void Exchange(bit_ordered_type (&bits)[ITEMS_PER_THREAD],
                                                 ValuesT (&values)[ITEMS_PER_THREAD],
                                                 const int (&ranks)[ITEMS_PER_THREAD])
  {
    constexpr bool WITH_VALUES = !::cuda::std::is_same_v<ValuesT, NullType>;
    if constexpr (WITH_VALUES && JOINT_EXCHANGE)
    {
      Scatter(temp_storage.joint.keys.Alias(), bits, ranks);
      Scatter(temp_storage.joint.values.Alias(), values, ranks);
      __syncthreads();
      Gather<TO_STRIPED>(temp_storage.joint.keys.Alias(), bits);
      Gather<TO_STRIPED>(temp_storage.joint.values.Alias(), values);
    }
    else
    {
      Scatter(temp_storage.keys.Alias(), bits, ranks);
      __syncthreads();
      Gather<TO_STRIPED>(temp_storage.keys.Alias(), bits);
      if constexpr (WITH_VALUES)
      {
        __syncthreads(); // the values reuse the keys' buffer
        Scatter(temp_storage.values.Alias(), values, ranks);
        __syncthreads();
        Gather<TO_STRIPED>(temp_storage.values.Alias(), values);
      }
    }
  }

  template <typename T>
  STRATA_DEVICE STRATA_FORCEINLINE static void Scatter(T* slots, const T (&items)[ITEMS_PER_THREAD],
                                                       const int (&ranks)[ITEMS_PER_THREAD])
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      slots[Slot(ranks[i])] = items[i];
    }
  }

  template <bool TO_STRIPED, typename T>
  STRATA_DEVICE STRATA_FORCEINLINE static void Gather(const T* slots, T (&items)[ITEMS_PER_THREAD])
  {
    const int tid = RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z);
    if constexpr (!TO_STRIPED && BLOCKED_RUN_SLOTS)
    {
      // One address per thread: written per item, the slots are loop-invariant addresses that the
      // compiler hoists out of the pass loop, ITEMS_PER_THREAD registers held by every pass
      // (72 instead of 94 registers for 128 threads x 16 keys, as many as CUB's).
      const T* run = slots + Slot(tid * ITEMS_PER_THREAD);
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = run[i + (PADDED ? i / 32 : 0)];
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = slots[Slot(TO_STRIPED ? i * BLOCK_THREADS + tid : tid * ITEMS_PER_THREAD + i)];
      }
    }
  }
};

STRATA_NAMESPACE_END

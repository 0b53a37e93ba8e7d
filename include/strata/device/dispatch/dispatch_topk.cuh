// strata/device/dispatch/dispatch_topk.cuh: the kernels of DeviceTopK, and DispatchTopK, which
// picks the policy for the device, sizes and carves the temporary storage, and launches: one
// counting pass per digit of the k-th best item's rank (its key's bits, then its index's where
// keys tie), each followed by the one-block choice of that digit, a last pass that emits the
// remaining winners, a sort of the k winners (best first, earlier first among equal keys) and
// the writing of keys and values.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_topk.cuh>
#include <strata/detail/device_arguments.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/dispatch_radix_sort.cuh>
#include <strata/device/dispatch/tuning/tuning_topk.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>
#include <strata/util_temporary_storage.cuh>
#include <strata/util_type.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

STRATA_NAMESPACE_BEGIN

STRATA_KERNELS_BEGIN

//! One pass over the candidates (AgentTopK): emits for the digit `previous` where `emit`, counts
//! the digit `digit` where `count`.
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyInputIteratorT, typename KeyT, typename OffsetT,
          typename DecomposerT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::TopKPolicy::BLOCK_THREADS) void DeviceTopKPassKernel(
    KeyInputIteratorT d_keys_in, OffsetT num_items,
    detail::topk::State<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_state,
    OffsetT* d_bins,
    detail::topk::Candidate<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_buffer0,
    detail::topk::Candidate<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_buffer1,
    detail::topk::Candidate<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_winners,
    OffsetT k, OffsetT capacity, bool emit, detail::topk::RankDigit previous, bool count, detail::topk::RankDigit digit,
    DecomposerT decomposer)
{
  using PolicyT = typename MaxPolicyT::ActivePolicy::TopKPolicy;
  using AgentT  = AgentTopK<PolicyT, SELECT, KeyInputIteratorT, KeyT, OffsetT, DecomposerT>;
  using SelectT = AgentTopKSelectDigit<PolicyT::BLOCK_THREADS, PolicyT::RADIX_BITS,
                                       typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>;
  __shared__ union
  {
    typename AgentT::TempStorage pass;
    typename SelectT::TempStorage select;
  } temp_storage;
  const auto state = *d_state;
  AgentT agent(temp_storage.pass, d_keys_in, num_items, k, capacity, state, d_state, d_bins, d_buffer0, d_buffer1,
               d_winners, decomposer);
  agent.Process(emit, previous, count, digit);
  // The last block to end picks the digit from every block's counts (or, where this pass emitted
  // every winner left, marks the selection finished).
  if (count && !state.finished && agent.LastBlock())
  {
    if (threadIdx.x == 0)
    {
      d_state->blocks_done = 0;
    }
    __syncthreads(); // the pass's shared memory becomes the choice's
    SelectT(temp_storage.select).Process(d_state, d_bins, k, capacity, digit);
  }
}

//! The filter pass (AgentTopK::Filter): the input's items at or above the sampled threshold to
//! buffer 0, and the choice of where the passes read.
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyInputIteratorT, typename KeyT, typename OffsetT,
          typename DecomposerT>
STRATA_KERNEL_ATTRIBUTES
__launch_bounds__(MaxPolicyT::ActivePolicy::TopKPolicy::BLOCK_THREADS) void DeviceTopKFilterKernel(
    KeyInputIteratorT d_keys_in, OffsetT num_items,
    detail::topk::State<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_state,
    detail::topk::Candidate<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_buffer0,
    OffsetT k, OffsetT capacity, DecomposerT decomposer)
{
  using AgentT =
      AgentTopK<typename MaxPolicyT::ActivePolicy::TopKPolicy, SELECT, KeyInputIteratorT, KeyT, OffsetT, DecomposerT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT(temp_storage, d_keys_in, num_items, k, capacity, *d_state, d_state, nullptr, d_buffer0, nullptr, nullptr,
         decomposer)
      .Filter();
}

//! The sample and its threshold (AgentTopKSample), one block.
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyInputIteratorT, typename KeyT, typename OffsetT,
          typename DecomposerT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SAMPLE_THREADS) void DeviceTopKSampleKernel(
    KeyInputIteratorT d_keys_in, OffsetT num_items, int rank,
    detail::topk::State<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_state,
    DecomposerT decomposer)
{
  using AgentT =
      AgentTopKSample<MaxPolicyT::ActivePolicy::SAMPLE_THREADS,
                      detail::topk::sample_chunks_v<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type>,
                      SELECT, KeyInputIteratorT, KeyT, OffsetT, DecomposerT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT(temp_storage).Process(d_keys_in, num_items, rank, d_state, decomposer);
}

//! Sorts the winners in one block and writes their keys and values (AgentTopKSortWrite), where k
//! is at most the block's tile.
template <typename MaxPolicyT, detail::topk::select SELECT, typename KeyT, typename OffsetT, typename DecomposerT,
          typename KeyOutputIteratorT, typename ValueInputIteratorT, typename ValueOutputIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SORT_THREADS) void DeviceTopKSortWriteKernel(
    const detail::topk::Candidate<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_winners,
    int k, KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in, ValueOutputIteratorT d_values_out,
    DecomposerT decomposer)
{
  constexpr int THREADS = MaxPolicyT::ActivePolicy::SORT_THREADS;
  using AgentT          = AgentTopKSortWrite<
      THREADS,
      detail::topk::sort_items_v<THREADS, typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>,
      SELECT, KeyT, OffsetT, KeyOutputIteratorT, ValueInputIteratorT, ValueOutputIteratorT, DecomposerT>;
  __shared__ typename AgentT::TempStorage temp_storage;
  AgentT::Process(temp_storage, d_winners, k, d_keys_out, d_values_in, d_values_out, decomposer);
}

//! Writes the sorted winners' keys and values (AgentTopKWrite).
template <detail::topk::select SELECT, typename KeyT, typename OffsetT, typename DecomposerT,
          typename KeyOutputIteratorT, typename ValueInputIteratorT, typename ValueOutputIteratorT>
STRATA_KERNEL_ATTRIBUTES void DeviceTopKWriteKernel(
    const detail::topk::Candidate<typename detail::topk::RankBits<SELECT, KeyT, DecomposerT>::type, OffsetT>* d_winners,
    OffsetT k, KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in, ValueOutputIteratorT d_values_out,
    DecomposerT decomposer)
{
  AgentTopKWrite<SELECT, KeyT, OffsetT, KeyOutputIteratorT, ValueInputIteratorT, ValueOutputIteratorT,
                 DecomposerT>::Process(d_winners, k, d_keys_out, d_values_in, d_values_out, decomposer);
}

STRATA_KERNELS_END

namespace detail
{
namespace topk
{
//! Runs (or sizes) a top-k: the k best of `num_items` keys in order, best first, ties to the
//! earlier item; values (NullType* iterators for keys only) follow their keys.
template <select SELECT, typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
          typename ValueOutputIteratorT, typename OffsetT, typename DecomposerT = identity_decomposer_t,
          typename PolicyHub = policy_hub<it_value_t<KeyInputIteratorT>>>
struct DispatchTopK
{
  using KeyT             = it_value_t<KeyInputIteratorT>;
  using max_policy_t     = typename PolicyHub::MaxPolicy;
  using RankBitsT        = RankBits<SELECT, KeyT, DecomposerT>;
  using bit_ordered_type = typename RankBitsT::type;
  using CandidateT       = Candidate<bit_ordered_type, OffsetT>;
  using StateT           = State<bit_ordered_type, OffsetT>;
  using SortT            = DispatchRadixSort<SortOrder::Descending, CandidateT, NullType, OffsetT, CandidateDecomposer>;
  static constexpr bool KEYS_ONLY = ::cuda::std::is_same_v<ValueOutputIteratorT, NullType*>;
  static constexpr int KEY_BITS   = RankBitsT::BITS;
  static constexpr int MAX_DIGITS = 2 * int(sizeof(bit_ordered_type) * 8 + sizeof(OffsetT) * 8);

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyInputIteratorT d_keys_in;
  KeyOutputIteratorT d_keys_out;
  ValueInputIteratorT d_values_in;
  ValueOutputIteratorT d_values_out;
  OffsetT num_items;
  OffsetT k;
  cudaStream_t stream;
  DecomposerT decomposer;

  //! Candidates a buffer holds: all of a small input, else a 32nd of it (at least 2^16). A pass
  //! whose candidates are more reads the input again.
  STRATA_HOST_DEVICE static OffsetT BufferCapacity(OffsetT num_items)
  {
    constexpr OffsetT small = OffsetT(1) << 16;
    return num_items <= small ? num_items : (num_items / 32 > small ? num_items / 32 : small);
  }

  //! The rank in the sample whose key is the filter pass's threshold (ThresholdRank); 0 (no filter
  //! pass) for small inputs, and where the items it would keep may not fit a buffer.
  STRATA_RUNTIME_FUNCTION static int SampleRank(OffsetT num_items, OffsetT k, OffsetT capacity)
  {
    constexpr int SAMPLES = sample_chunks_v<bit_ordered_type> * 32;
    if (num_items < (OffsetT(1) << 16))
    {
      return 0;
    }
    double kept       = 0.0;
    const double rank = ThresholdRank(double(k), double(SAMPLES), double(num_items), kept);
    return rank <= SAMPLES / 2 && 4.0 * kept <= double(capacity) ? int(rank) : 0;
  }

  //! The digits of the rank, most significant first: the key's bits, then those of the index
  //! that tell `num_items` items apart. Returns how many.
  template <int RADIX_BITS>
  STRATA_RUNTIME_FUNCTION static int RankDigits(OffsetT num_items, RankDigit (&digits)[MAX_DIGITS])
  {
    int count      = 0;
    auto add_range = [&](int part, int bits_total)
    {
      for (int top = bits_total; top > 0; top -= RADIX_BITS)
      {
        const int bits  = top < RADIX_BITS ? top : RADIX_BITS;
        digits[count++] = RankDigit{part, top - bits, bits};
      }
    };
    add_range(0, KEY_BITS);
    add_range(1, num_items > 1
                     ? int(::cuda::std::bit_width(static_cast<::cuda::std::make_unsigned_t<OffsetT>>(num_items - 1)))
                     : 0);
    return count;
  }

  template <typename ActivePolicyT>
  STRATA_RUNTIME_FUNCTION cudaError_t Invoke()
  {
    using PassPolicyT          = typename ActivePolicyT::TopKPolicy;
    constexpr int RADIX_DIGITS = 1 << PassPolicyT::RADIX_BITS;
    constexpr int TILE_ITEMS   = PassPolicyT::BLOCK_THREADS * PassPolicyT::ITEMS_PER_THREAD;
    constexpr int SORT_TILE =
        ActivePolicyT::SORT_THREADS * sort_items_v<ActivePolicyT::SORT_THREADS, bit_ordered_type, OffsetT>;
    const bool work           = k > 0;
    const bool one_block_sort = k <= OffsetT(SORT_TILE);
    const OffsetT capacity    = work ? BufferCapacity(num_items) : OffsetT(0);
    const OffsetT winners     = work ? k : OffsetT(0);
    const OffsetT winners2    = work && !one_block_sort ? k : OffsetT(0);
    size_t sort_bytes         = 0;
    cudaError_t error         = cudaSuccess;
    // The radix sort of the winners (best first): sized here, run after the passes.
    auto sort_winners = [&](void* d_storage, DoubleBuffer<CandidateT>& keys)
    {
      DoubleBuffer<NullType> values;
      return SortT::Dispatch(d_storage, sort_bytes, keys, values, k, 0,
                             radix::traits_t<CandidateT>::default_end_bit(CandidateDecomposer{}), true, stream,
                             CandidateDecomposer{});
    };
    if (work && !one_block_sort)
    {
      DoubleBuffer<CandidateT> sort_keys;
      error = sort_winners(nullptr, sort_keys);
      if (error != cudaSuccess)
      {
        return error;
      }
    }
    StateT* d_state        = nullptr;
    OffsetT* d_bins        = nullptr;
    CandidateT* d_buffer0  = nullptr;
    CandidateT* d_buffer1  = nullptr;
    CandidateT* d_winners  = nullptr;
    CandidateT* d_winners2 = nullptr;
    char* d_sort_storage   = nullptr;
    error                  = CarveTemporaryStorage(d_temp_storage, temp_storage_bytes, Slot(d_state, work ? 1 : 0),
                                                   Slot(d_bins, work ? RADIX_DIGITS : 0), Slot(d_buffer0, capacity),
                                                   Slot(d_buffer1, capacity), Slot(d_winners, winners), Slot(d_winners2, winners2),
                                                   Slot(d_sort_storage, sort_bytes));
    if (error != cudaSuccess || d_temp_storage == nullptr || !work)
    {
      return error;
    }

    // The state and the counts start at zero: no digit decided, candidates read from the input.
    error = cudaMemsetAsync(d_state, 0, sizeof(StateT), stream);
    if (error == cudaSuccess)
    {
      error = cudaMemsetAsync(d_bins, 0, sizeof(OffsetT) * RADIX_DIGITS, stream);
    }
    int sm_count = 0;
    if (error == cudaSuccess)
    {
      error = detail::SmCount(sm_count);
    }
    if (error != cudaSuccess)
    {
      return error;
    }
    const OffsetT tiles = num_items / TILE_ITEMS + (num_items % TILE_ITEMS != 0);
    const OffsetT most  = OffsetT(sm_count) * OffsetT(ActivePolicyT::BLOCKS_PER_SM);
    const int grid      = int(tiles < most ? tiles : most);
    RankDigit digits[MAX_DIGITS];
    const int num_digits = RankDigits<PassPolicyT::RADIX_BITS>(num_items, digits);
    auto pass_kernel     = DeviceTopKPassKernel<max_policy_t, SELECT, KeyInputIteratorT, KeyT, OffsetT, DecomposerT>;
    // Where a sample of the keys can tell which few items may be winners, one pass over the input
    // keeps those alone, and the passes below read them instead of the input.
    const int rank = SampleRank(num_items, k, capacity);
    if (rank > 0)
    {
      error = LaunchKernel(false,
                           DeviceTopKSampleKernel<max_policy_t, SELECT, KeyInputIteratorT, KeyT, OffsetT, DecomposerT>,
                           1, ActivePolicyT::SAMPLE_THREADS, stream, d_keys_in, num_items, rank, d_state, decomposer);
      if (error == cudaSuccess)
      {
        error = LaunchKernel(
            false, DeviceTopKFilterKernel<max_policy_t, SELECT, KeyInputIteratorT, KeyT, OffsetT, DecomposerT>, grid,
            PassPolicyT::BLOCK_THREADS, stream, d_keys_in, num_items, d_state, d_buffer0, k, capacity, decomposer);
      }
    }
    for (int p = 0; p <= num_digits && error == cudaSuccess; ++p)
    {
      const bool count = p < num_digits;
      error = LaunchKernel(false, pass_kernel, grid, PassPolicyT::BLOCK_THREADS, stream, d_keys_in, num_items, d_state,
                           d_bins, d_buffer0, d_buffer1, d_winners, k, capacity, p > 0,
                           p > 0 ? digits[p - 1] : RankDigit{}, count, count ? digits[p] : RankDigit{}, decomposer);
    }
    if (error != cudaSuccess)
    {
      return error;
    }

    // The winners in order: the best key first, the earlier item first among equal keys.
    if (one_block_sort)
    {
      return LaunchKernel(false,
                          DeviceTopKSortWriteKernel<max_policy_t, SELECT, KeyT, OffsetT, DecomposerT,
                                                    KeyOutputIteratorT, ValueInputIteratorT, ValueOutputIteratorT>,
                          1, ActivePolicyT::SORT_THREADS, stream, static_cast<const CandidateT*>(d_winners), int(k),
                          d_keys_out, d_values_in, d_values_out, decomposer);
    }
    DoubleBuffer<CandidateT> sort_keys(d_winners, d_winners2);
    error = sort_winners(d_sort_storage, sort_keys);
    if (error != cudaSuccess)
    {
      return error;
    }
    constexpr int WRITE_THREADS = 256;
    const OffsetT write_blocks  = k / WRITE_THREADS + (k % WRITE_THREADS != 0);
    return LaunchKernel(false,
                        DeviceTopKWriteKernel<SELECT, KeyT, OffsetT, DecomposerT, KeyOutputIteratorT,
                                              ValueInputIteratorT, ValueOutputIteratorT>,
                        int(write_blocks < OffsetT(4096) ? write_blocks : OffsetT(4096)), WRITE_THREADS, stream,
                        static_cast<const CandidateT*>(sort_keys.Current()), k, d_keys_out, d_values_in, d_values_out,
                        decomposer);
  }

  //! Validates the arguments (counts, k within them, buffers present), picks the policy for the
  //! current device and runs (or sizes) the top-k.
  template <typename NumItemsT, typename NumOutItemsT>
  STRATA_RUNTIME_FUNCTION static cudaError_t
  Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out,
           ValueInputIteratorT d_values_in, ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,
           cudaStream_t stream, DecomposerT decomposer = {})
  {
    static_assert(::cuda::std::is_integral_v<NumItemsT> && ::cuda::std::is_integral_v<NumOutItemsT>,
                  "num_items and k are integers");
    if (!IsValidCount(num_items))
    {
      return STRATA_INVALID_ARGUMENT("num_items is negative");
    }
    if (!IsValidCount(k))
    {
      return STRATA_INVALID_ARGUMENT("k is negative");
    }
    if (static_cast<::cuda::std::uint64_t>(k) > static_cast<::cuda::std::uint64_t>(num_items))
    {
      return STRATA_INVALID_ARGUMENT("k is larger than num_items");
    }
    if (d_temp_storage != nullptr && k > 0
        && (IsNullPointer(d_keys_in) || IsNullPointer(d_keys_out)
            || (!KEYS_ONLY && (IsNullPointer(d_values_in) || IsNullPointer(d_values_out)))))
    {
      return STRATA_INVALID_ARGUMENT("d_keys_in, d_keys_out, d_values_in or d_values_out is null");
    }
    return InvokeForCurrentDevice<max_policy_t>(
        [&](int)
        {
          return DispatchTopK{d_temp_storage,
                              temp_storage_bytes,
                              d_keys_in,
                              d_keys_out,
                              d_values_in,
                              d_values_out,
                              static_cast<OffsetT>(num_items),
                              static_cast<OffsetT>(k),
                              stream,
                              decomposer};
        });
  }
};
} // namespace topk
} // namespace detail

STRATA_NAMESPACE_END

// The dispatch-layer names of CUB 3.0.1, spelled as CUB spells them (with `lib` for the namespace),
// so that a missing or differently spelled one fails to compile: DeviceTransform's
// TransformStableArgumentAddresses, DispatchReduce / DispatchTransformReduce / DispatchScan /
// DispatchScanByKey / DispatchRadixSort / DispatchMergeSort / DispatchSegmentedSort /
// DispatchSegmentedRadixSort / DispatchReduceByKey / DeviceRleDispatch with CUB's template
// parameter lists and a user's policy hub of CUB's shape, DispatchBatchMemcpy (and CopyAlg) and
// DispatchSegmentedReduce with CUB's template parameter lists and Dispatch signatures, the agent
// policies with CUB's parameter lists, and the tile state of the single-pass scans (also
// ReduceByKeyScanTileState<ValueT, KeyT>). The GPU cases run the dispatch classes with those hubs
// against host references (test_device_memcpy_behaviour runs DispatchBatchMemcpy,
// test_device_segmented_reduce_behaviour DispatchSegmentedReduce).
#include <strata/agent/agent_radix_sort_downsweep.cuh>
#include <strata/agent/agent_radix_sort_histogram.cuh>
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/agent/agent_radix_sort_upsweep.cuh>
#include <strata/agent/agent_merge_sort.cuh>
#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_reduce_by_key.cuh>
#include <strata/agent/agent_rle.cuh>
#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/device/dispatch/dispatch_common.cuh>
#include <strata/device/dispatch/dispatch_histogram.cuh>
#include <strata/device/dispatch/dispatch_merge_sort.cuh>
#include <strata/device/dispatch/dispatch_radix_sort.cuh>
#include <strata/device/dispatch/dispatch_reduce.cuh>
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/device/dispatch/dispatch_rle.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/device/dispatch/dispatch_scan_by_key.cuh>
#include <strata/device/dispatch/dispatch_segmented_sort.cuh>
#include <strata/device/dispatch/dispatch_adjacent_difference.cuh>
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>
#include <strata/device/dispatch/dispatch_segmented_reduce.cuh>
#include <strata/device/dispatch/dispatch_select_if.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/array>
#include <cuda/std/functional>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <vector>

namespace lib = strata;

namespace
{
// --- policy hubs as a CUB user writes them ---------------------------------------------------

//! A reduction hub of CUB's shape: a ReducePolicy and a SingleTilePolicy and nothing else (none of
//! strata's grid knobs), one with CUB's scaling parameter.
template <typename T>
struct user_reduce_hub
{
  struct Policy500 : lib::ChainedPolicy<500, Policy500, Policy500>
  {
    using ReducePolicy     = lib::AgentReducePolicy<128, 8, T, 2, lib::BLOCK_REDUCE_RAKING, lib::LOAD_DEFAULT,
                                                lib::MemBoundScaling<128, 8, T>>;
    using SingleTilePolicy = lib::AgentReducePolicy<256, 4, T, 4, lib::BLOCK_REDUCE_WARP_REDUCTIONS, lib::LOAD_LDG>;
  };
  using MaxPolicy = Policy500;
};

//! A scan hub of CUB's shape: ScanPolicyT, an AgentScanPolicy with CUB's parameter list.
template <typename T>
struct user_scan_hub
{
  struct Policy600 : lib::ChainedPolicy<600, Policy600, Policy600>
  {
    using ScanPolicyT = lib::AgentScanPolicy<128, 12, T, lib::BLOCK_LOAD_WARP_TRANSPOSE, lib::LOAD_DEFAULT,
                                             lib::BLOCK_STORE_WARP_TRANSPOSE, lib::BLOCK_SCAN_WARP_SCANS,
                                             lib::MemBoundScaling<128, 12, T>>;
  };
  using MaxPolicy = Policy600;
};

//! A scan-by-key hub of CUB's shape: ScanByKeyPolicyT, an AgentScanByKeyPolicy.
struct user_scan_by_key_hub
{
  struct Policy520 : lib::ChainedPolicy<520, Policy520, Policy520>
  {
    using ScanByKeyPolicyT = lib::AgentScanByKeyPolicy<96, 7, lib::BLOCK_LOAD_WARP_TRANSPOSE, lib::LOAD_DEFAULT,
                                                       lib::BLOCK_SCAN_WARP_SCANS, lib::BLOCK_STORE_WARP_TRANSPOSE>;
  };
  using MaxPolicy = Policy520;
};

//! A radix sort hub of CUB's shape: every policy CUB's DispatchRadixSort names (strata runs the
//! onesweep, histogram and single-tile ones), with small tiles so that few keys take many.
template <typename KeyT>
struct user_radix_hub
{
  struct Policy600 : lib::ChainedPolicy<600, Policy600, Policy600>
  {
    using UpsweepPolicy    = lib::AgentRadixSortUpsweepPolicy<128, 8, KeyT, lib::LOAD_DEFAULT, 6>;
    using AltUpsweepPolicy = lib::AgentRadixSortUpsweepPolicy<128, 8, KeyT, lib::LOAD_DEFAULT, 5>;
    using ScanPolicy       = lib::AgentScanPolicy<512, 4, int, lib::BLOCK_LOAD_VECTORIZE, lib::LOAD_DEFAULT,
                                            lib::BLOCK_STORE_VECTORIZE, lib::BLOCK_SCAN_RAKING_MEMOIZE>;
    using DownsweepPolicy  = lib::AgentRadixSortDownsweepPolicy<128, 8, KeyT, lib::BLOCK_LOAD_DIRECT, lib::LOAD_DEFAULT,
                                                               lib::RADIX_RANK_BASIC, lib::BLOCK_SCAN_WARP_SCANS, 6>;
    using AltDownsweepPolicy = DownsweepPolicy;
    using SingleTilePolicy = lib::AgentRadixSortDownsweepPolicy<128, 8, KeyT, lib::BLOCK_LOAD_DIRECT, lib::LOAD_DEFAULT,
                                                                lib::RADIX_RANK_MEMOIZE, lib::BLOCK_SCAN_WARP_SCANS, 4>;
    using SegmentedPolicy  = DownsweepPolicy;
    using AltSegmentedPolicy = DownsweepPolicy;
    using HistogramPolicy    = lib::AgentRadixSortHistogramPolicy<128, 8, 1, KeyT, 8>;
    using ExclusiveSumPolicy = lib::AgentRadixSortExclusiveSumPolicy<256, 8>;
    using OnesweepPolicy =
        lib::AgentRadixSortOnesweepPolicy<256, 8, KeyT, 1, lib::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                          lib::BLOCK_SCAN_WARP_SCANS, lib::RADIX_SORT_STORE_DIRECT, 8>;
  };
  using MaxPolicy = Policy600;
};

//! A merge sort hub of CUB's shape: MergeSortPolicy alone, a small odd tile (128 x 7), so that a
//! few thousand keys take several merge passes.
struct user_merge_sort_hub
{
  struct Policy600 : lib::ChainedPolicy<600, Policy600, Policy600>
  {
    using MergeSortPolicy = lib::AgentMergeSortPolicy<128, 7, lib::BLOCK_LOAD_WARP_TRANSPOSE, lib::LOAD_LDG,
                                                      lib::BLOCK_STORE_WARP_TRANSPOSE>;
  };
  using MaxPolicy = Policy600;
};

//! A reduce-by-key hub of CUB's shape: ReduceByKeyPolicyT, an AgentReduceByKeyPolicy with CUB's
//! first five parameters (128 threads of 6 items: tiles of 768, which no strata policy has).
struct user_reduce_by_key_hub
{
  struct Policy500 : lib::ChainedPolicy<500, Policy500, Policy500>
  {
    using ReduceByKeyPolicyT =
        lib::AgentReduceByKeyPolicy<128, 6, lib::BLOCK_LOAD_DIRECT, lib::LOAD_LDG, lib::BLOCK_SCAN_WARP_SCANS>;
  };
  using MaxPolicy = Policy500;
};

//! A run-length hub of CUB's shape: RleSweepPolicyT, an AgentRlePolicy with CUB's first six
//! parameters (128 threads of 6 items, stores time-sliced among warps).
struct user_rle_hub
{
  struct Policy500 : lib::ChainedPolicy<500, Policy500, Policy500>
  {
    using RleSweepPolicyT =
        lib::AgentRlePolicy<128, 6, lib::BLOCK_LOAD_DIRECT, lib::LOAD_LDG, true, lib::BLOCK_SCAN_WARP_SCANS>;
  };
  using MaxPolicy = Policy500;
};

struct square
{
  template <typename T>
  __host__ __device__ T operator()(T x) const
  {
    return x * x;
  }
};

//! a + the item after a in its sequence, reached through a's address.
struct next_sum
{
  __device__ int operator()(const int& a) const
  {
    return a + (&a)[1];
  }
};

// --- the agent policies ---------------------------------------------------------------------

using reduce_policy_t = lib::AgentReducePolicy<256, 16, double, 4, lib::BLOCK_REDUCE_WARP_REDUCTIONS, lib::LOAD_LDG,
                                               lib::MemBoundScaling<256, 16, double>>;
static_assert(reduce_policy_t::BLOCK_THREADS == lib::MemBoundScaling<256, 16, double>::BLOCK_THREADS);
static_assert(reduce_policy_t::ITEMS_PER_THREAD == lib::MemBoundScaling<256, 16, double>::ITEMS_PER_THREAD);
static_assert(reduce_policy_t::VECTOR_LOAD_LENGTH == 4 && reduce_policy_t::LOAD_MODIFIER == lib::LOAD_LDG);
// strata's own scaling without the parameter (int8 keeps the nominal items).
static_assert(lib::AgentReducePolicy<256, 16, std::int8_t, 4, lib::BLOCK_REDUCE_RAKING, lib::LOAD_LDG>::ITEMS_PER_THREAD
              == 16);

using scan_policy_t = lib::AgentScanPolicy<128, 12, int, lib::BLOCK_LOAD_WARP_TRANSPOSE, lib::LOAD_DEFAULT,
                                           lib::BLOCK_STORE_WARP_TRANSPOSE, lib::BLOCK_SCAN_WARP_SCANS>;
static_assert(scan_policy_t::BLOCK_THREADS == 128 && scan_policy_t::ITEMS_PER_THREAD == 12);
static_assert(scan_policy_t::LOAD_ALGORITHM == lib::BLOCK_LOAD_WARP_TRANSPOSE);
static_assert(scan_policy_t::STORE_ALGORITHM == lib::BLOCK_STORE_WARP_TRANSPOSE);
static_assert(scan_policy_t::SCAN_ALGORITHM == lib::BLOCK_SCAN_WARP_SCANS);
static_assert(scan_policy_t::LOAD_MODIFIER == lib::LOAD_DEFAULT);
static_assert(scan_policy_t::MIN_BLOCKS_PER_SM == 1 && scan_policy_t::PREFETCH_BYTES == 0);

using scan_by_key_policy_t = lib::AgentScanByKeyPolicy<256>;
static_assert(scan_by_key_policy_t::BLOCK_THREADS == 256 && scan_by_key_policy_t::ITEMS_PER_THREAD == 1);
static_assert(scan_by_key_policy_t::LOAD_ALGORITHM == lib::BLOCK_LOAD_DIRECT);
static_assert(scan_by_key_policy_t::LOAD_MODIFIER == lib::LOAD_DEFAULT);
static_assert(scan_by_key_policy_t::SCAN_ALGORITHM == lib::BLOCK_SCAN_WARP_SCANS);
static_assert(scan_by_key_policy_t::STORE_ALGORITHM == lib::BLOCK_STORE_DIRECT);

using onesweep_policy_t =
    lib::AgentRadixSortOnesweepPolicy<384, 21, std::uint64_t, 1, lib::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                      lib::BLOCK_SCAN_WARP_SCANS, lib::RADIX_SORT_STORE_DIRECT, 8>;
static_assert(onesweep_policy_t::BLOCK_THREADS == lib::RegBoundScaling<384, 21, std::uint64_t>::BLOCK_THREADS);
static_assert(onesweep_policy_t::ITEMS_PER_THREAD == lib::RegBoundScaling<384, 21, std::uint64_t>::ITEMS_PER_THREAD);
static_assert(onesweep_policy_t::RADIX_BITS == 8 && onesweep_policy_t::RANK_NUM_PARTS == 1);
static_assert(onesweep_policy_t::RANK_ALGORITHM == lib::RADIX_RANK_MATCH_EARLY_COUNTS_ANY);
static_assert(onesweep_policy_t::STORE_ALGORITHM == lib::RADIX_SORT_STORE_DIRECT);
// Histogram parts: nominal for keys of up to 4 bytes, fewer for wider ones, at least one.
static_assert(lib::AgentRadixSortHistogramPolicy<128, 16, 4, std::uint32_t, 8>::NUM_PARTS == 4);
static_assert(lib::AgentRadixSortHistogramPolicy<128, 16, 4, std::uint64_t, 8>::NUM_PARTS == 2);
static_assert(lib::AgentRadixSortHistogramPolicy<128, 16, 1, std::uint64_t, 8>::NUM_PARTS == 1);
static_assert(lib::AgentRadixSortExclusiveSumPolicy<256, 8>::BLOCK_THREADS == 256);
static_assert(lib::AgentRadixSortUpsweepPolicy<128, 8, int, lib::LOAD_LDG, 6>::LOAD_MODIFIER == lib::LOAD_LDG);
static_assert(lib::RADIX_SORT_STORE_DIRECT != lib::RADIX_SORT_STORE_ALIGNED);
using merge_sort_policy_t = lib::AgentMergeSortPolicy<64>; // CUB's defaults
static_assert(merge_sort_policy_t::ITEMS_PER_THREAD == 1 && merge_sort_policy_t::ITEMS_PER_TILE == 64);
static_assert(merge_sort_policy_t::LOAD_ALGORITHM == lib::BLOCK_LOAD_DIRECT);
static_assert(merge_sort_policy_t::LOAD_MODIFIER == lib::LOAD_LDG);
static_assert(merge_sort_policy_t::STORE_ALGORITHM == lib::BLOCK_STORE_DIRECT);

// --- the dispatch classes, with CUB's defaults ------------------------------------------------

using reduce_t = lib::DispatchReduce<const std::int8_t*, int*, std::uint32_t, cuda::std::plus<>>;
static_assert(cuda::std::is_same_v<decltype(reduce_t::init), int>); // the output's value type
static_assert(cuda::std::is_same_v<decltype(reduce_t::transform_op), cuda::std::identity>);
static_assert(cuda::std::is_same_v<
              decltype(lib::DispatchReduce<const float*, lib::DiscardOutputIterator<>, int, cuda::std::plus<>>::init),
              float>); // the input's, where the output has none

using reduce_spelled_t =
    lib::DispatchReduce<const int*, int*, int, cuda::std::plus<>, int, int, cuda::std::identity, user_reduce_hub<int>,
                        lib::detail::DefaultKernelSource, lib::detail::TripleChevronFactory>;
static_assert(cuda::std::is_same_v<reduce_spelled_t::MaxPolicyT, user_reduce_hub<int>::MaxPolicy>);

using transform_reduce_t = lib::DispatchTransformReduce<const float*, double*, int, cuda::std::plus<>, square, double>;
static_assert(
    cuda::std::is_same_v<transform_reduce_t,
                         lib::DispatchReduce<const float*, double*, int, cuda::std::plus<>, double, double, square>>);

static_assert(lib::ForceInclusive::Yes != lib::ForceInclusive::No);
static_assert(lib::SortOrder::Ascending != lib::SortOrder::Descending && lib::MayAlias::Yes != lib::MayAlias::No);
using radix_t = lib::DispatchRadixSort<lib::SortOrder::Descending, float, lib::NullType, std::uint32_t>;
static_assert(radix_t::KEYS_ONLY && radix_t::IS_DESCENDING);
using radix_spelled_t = lib::DispatchRadixSort<lib::SortOrder::Ascending, int, double, std::uint64_t,
                                               lib::detail::identity_decomposer_t, user_radix_hub<int>>;
static_assert(cuda::std::is_same_v<radix_spelled_t::max_policy_t, user_radix_hub<int>::MaxPolicy>);
using merge_sort_t = lib::DispatchMergeSort<const int*, const float*, int*, float*, std::uint32_t, cuda::std::less<>>;
static_assert(!merge_sort_t::KEYS_ONLY);
using merge_sort_keys_t =
    lib::DispatchMergeSort<const int*, lib::NullType*, int*, lib::NullType*, std::uint64_t, cuda::std::less<>,
                           user_merge_sort_hub, lib::detail::DefaultKernelSource, lib::detail::TripleChevronFactory>;
static_assert(merge_sort_keys_t::KEYS_ONLY);
static_assert(cuda::std::is_same_v<merge_sort_keys_t::MaxPolicyT, user_merge_sort_hub::MaxPolicy>);
using scan_t =
    lib::DispatchScan<const std::int16_t*, int*, cuda::std::plus<>, lib::detail::InputValue<int>, std::uint32_t>;
static_assert(cuda::std::is_same_v<lib::ScanTileState<int>, scan_t::TileStateT>); // AccumT: int
static_assert(!scan_t::FORCE_INCLUSIVE);
using scan_spelled_t =
    lib::DispatchScan<const int*, int*, cuda::std::plus<>, lib::NullType, std::uint32_t, int, lib::ForceInclusive::Yes,
                      user_scan_hub<int>, lib::detail::DefaultKernelSource, lib::detail::TripleChevronFactory>;
static_assert(scan_spelled_t::FORCE_INCLUSIVE);

using scan_by_key_t = lib::DispatchScanByKey<const int*, const std::int8_t*, int*, cuda::std::equal_to<>,
                                             cuda::std::plus<>, lib::NullType, std::uint32_t>;
static_assert(cuda::std::is_same_v<lib::ScanTileState<int>, scan_by_key_t::TileStateT>);

// CUB's defaults: AccumT is the reduction's result over two values, the hub is keyed on the
// reduction, AccumT and the key (the unique output's value type where it has one), and the run
// lengths' hub on the length and item types.
using reduce_by_key_t = lib::DispatchReduceByKey<const int*, int*, const float*, double*, int*, cuda::std::equal_to<>,
                                                 cuda::std::plus<>, int>;
static_assert(
    cuda::std::is_same_v<reduce_by_key_t,
                         lib::DispatchReduceByKey<
                             const int*, int*, const float*, double*, int*, cuda::std::equal_to<>, cuda::std::plus<>,
                             int, float, lib::detail::reduce_by_key::policy_hub<cuda::std::plus<>, float, int>,
                             lib::detail::DefaultKernelSource, lib::detail::TripleChevronFactory>>);
using reduce_by_key_spelled_t =
    lib::DispatchReduceByKey<const int*, int*, const float*, double*, int*, cuda::std::equal_to<>, cuda::std::plus<>,
                             int, double, user_reduce_by_key_hub>;
static_assert(cuda::std::is_same_v<reduce_by_key_spelled_t::MaxPolicyT, user_reduce_by_key_hub::MaxPolicy>);
using rle_spelled_t = lib::DeviceRleDispatch<const int*, int*, int*, int*, cuda::std::equal_to<>, int, user_rle_hub,
                                             lib::detail::DefaultKernelSource, lib::detail::TripleChevronFactory>;
static_assert(cuda::std::is_same_v<rle_spelled_t::MaxPolicyT, user_rle_hub::MaxPolicy>);
using rle_t = lib::DeviceRleDispatch<const std::int16_t*, int*, std::uint64_t*, int*, cuda::std::equal_to<>, int>;
static_assert(cuda::std::is_same_v<
              rle_t, lib::DeviceRleDispatch<const std::int16_t*, int*, std::uint64_t*, int*, cuda::std::equal_to<>, int,
                                            lib::detail::rle::non_trivial_runs::policy_hub<std::uint64_t, std::int16_t>,
                                            lib::detail::DefaultKernelSource, lib::detail::TripleChevronFactory>>);

// The batched copies: CopyAlg at namespace scope as cub::CopyAlg, and detail::DispatchBatchMemcpy
// with CUB's <InputBufferIt, OutputBufferIt, BufferSizeIteratorT, BlockOffsetT, CopyAlg MemcpyOpt =
// CopyAlg::Memcpy, PolicyHub> (DeviceMemcpy::Batched and DeviceCopy::Batched pass BlockOffsetT
// uint32_t) and CUB's static Dispatch. Its policy hubs are strata's own (BatchMemcpyPolicyT, not
// CUB's AgentSmallBufferPolicyT and AgentLargeBufferPolicyT).
static_assert(lib::CopyAlg::Memcpy != lib::CopyAlg::Copy);
using batch_memcpy_t =
    lib::detail::DispatchBatchMemcpy<const void* const*, void* const*, const std::uint32_t*, std::uint32_t>;
static_assert(cuda::std::is_same_v<
              batch_memcpy_t, lib::detail::DispatchBatchMemcpy<const void* const*, void* const*, const std::uint32_t*,
                                                               std::uint32_t, lib::CopyAlg::Memcpy>>);
static_assert(cuda::std::is_same_v<decltype(&batch_memcpy_t::Dispatch),
                                   cudaError_t (*)(void*, std::size_t&, const void* const*, void* const*,
                                                   const std::uint32_t*, cuda::std::int64_t, cudaStream_t)>);
using batch_copy_t =
    lib::detail::DispatchBatchMemcpy<const int* const*, int* const*, const int*, std::uint32_t, lib::CopyAlg::Copy>;
static_assert(cuda::std::is_same_v<decltype(&batch_copy_t::Dispatch),
                                   cudaError_t (*)(void*, std::size_t&, const int* const*, int* const*, const int*,
                                                   cuda::std::int64_t, cudaStream_t)>);

// The segmented reductions: DispatchSegmentedReduce with CUB's <InputIteratorT, OutputIteratorT,
// BeginOffsetIteratorT, EndOffsetIteratorT, OffsetT, ReductionOpT, InitT = the output's value type
// (the input's where the output has none), AccumT = the reduction's result over InitT and the
// input, PolicyHub keyed on AccumT, OffsetT and the reduction, KernelSource, KernelLauncherFactory>
// and CUB's static Dispatch (without CUB's trailing kernel source, launcher factory and policy
// arguments). Its policy hubs are strata's own (SegmentedReducePolicy, an
// AgentSegmentedReducePolicy; CUB's hubs hold AgentReducePolicy ones).
using segmented_reduce_t =
    lib::DispatchSegmentedReduce<const std::int8_t*, int*, const int*, const int*, int, cuda::std::plus<>>;
static_assert(cuda::std::is_same_v<decltype(&segmented_reduce_t::Dispatch), // InitT: int, the output's value type
                                   cudaError_t (*)(void*, std::size_t&, const std::int8_t*, int*, cuda::std::int64_t,
                                                   const int*, const int*, cuda::std::plus<>, int, cudaStream_t)>);
static_assert(cuda::std::is_same_v<segmented_reduce_t::MaxPolicyT, // AccumT: int, the sum of int and int8
                                   lib::detail::segmented_reduce::policy_hub<int, int, cuda::std::plus<>>::MaxPolicy>);
static_assert(cuda::std::is_same_v<
              decltype(&lib::DispatchSegmentedReduce<const float*, lib::DiscardOutputIterator<>, const long long*,
                                                     const long long*, long long, cuda::std::plus<>>::Dispatch),
              cudaError_t (*)(void*, std::size_t&, const float*, lib::DiscardOutputIterator<>, cuda::std::int64_t,
                              const long long*, const long long*, cuda::std::plus<>, float, cudaStream_t)>);
using segmented_reduce_spelled_t =
    lib::DispatchSegmentedReduce<const int*, double*, const int*, const int*, int, cuda::std::plus<>, double, double,
                                 lib::detail::segmented_reduce::policy_hub<double, int, cuda::std::plus<>>,
                                 lib::detail::DefaultKernelSource, lib::detail::TripleChevronFactory>;
static_assert(cuda::std::is_same_v<segmented_reduce_spelled_t,
                                   lib::DispatchSegmentedReduce<const int*, double*, const int*, const int*, int,
                                                                cuda::std::plus<>, double>>);

// --- the tile state of the single-pass scans ----------------------------------------------------

// The descriptors of a reduction by key: CUB's <ValueT, KeyT> order, a (key, value) pair inside.
static_assert(cuda::std::is_same_v<lib::ReduceByKeyScanTileState<double, int>,
                                   lib::ScanTileState<lib::KeyValuePair<int, double>>>);
static_assert(cuda::std::is_same_v<typename lib::ReduceByKeyScanTileState<int, std::uint32_t>::StatusValueT,
                                   lib::KeyValuePair<std::uint32_t, int>>);

static_assert(lib::MemoryOrder::relaxed != lib::MemoryOrder::acquire_release);
static_assert(cuda::std::is_integral_v<lib::ScanTileState<int>::StatusWord>);
static_assert(cuda::std::is_integral_v<lib::ScanTileState<lib::KeyValuePair<int, double>>::StatusWord>);
static_assert(sizeof(lib::ScanTileState<int>::TxnWord) == 8);
static_assert(sizeof(lib::ScanTileState<double>::TxnWord) == 16);

using prefix_op_t = lib::TilePrefixCallbackOp<int, cuda::std::plus<>, lib::ScanTileState<int>>;
static_assert(cuda::std::is_same_v<prefix_op_t::StatusWord, lib::ScanTileState<int>::StatusWord>);

__global__ void init_status(lib::ScanTileState<int> tile_state, int num_tiles)
{
  tile_state.InitializeStatus(num_tiles);
}

//! Tile t (block t) finds its exclusive prefix with the 3-argument TilePrefixCallbackOp and
//! writes its inclusive prefix to out[t] if the op's public members agree. Tile 0 publishes
//! in[0] (with CUB's memory-order argument), then waits for each other tile's inclusive prefix
//! with the StatusWord form of WaitForValid and writes it to out[num_tiles + t - 1] if LoadValid
//! reads the same value.
__global__ void publish_and_read(const int* in, int* out, lib::ScanTileState<int> tile_state, int num_tiles)
{
  __shared__ prefix_op_t::TempStorage temp_storage;
  const int tile = int(blockIdx.x);
  if (tile == 0)
  {
    if (threadIdx.x == 0)
    {
      tile_state.SetInclusive<lib::MemoryOrder::acquire_release>(0, in[0]);
      out[0] = in[0];
      for (int other = 1; other < num_tiles; ++other)
      {
        lib::ScanTileState<int>::StatusWord status = 0;
        int value                                  = 0;
        do
        {
          tile_state.WaitForValid(other, status, value);
        } while (status != lib::ScanTileState<int>::StatusWord(lib::SCAN_TILE_INCLUSIVE));
        out[num_tiles + other - 1] = tile_state.LoadValid(other) == value ? value : -1;
      }
    }
    return;
  }
  if (threadIdx.x < 32)
  {
    prefix_op_t prefix_op(tile_state, temp_storage, cuda::std::plus<>{});
    const int exclusive = prefix_op(in[tile]);
    if (threadIdx.x == 0)
    {
      out[tile] =
          prefix_op.tile_idx == tile && prefix_op.exclusive_prefix == exclusive ? prefix_op.inclusive_prefix : -1;
    }
  }
}

template <typename T>
std::vector<T> random_items(std::size_t n, std::uint64_t salt)
{
  return strata_test::random_vector<T>(n, strata_test::seed(salt), 0.0, 1000.0);
}

template <typename DispatchT, typename... ArgTs>
void run_dispatch(ArgTs... args)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(DispatchT::Dispatch(nullptr, bytes, args...));
  strata_test::device_buffer<unsigned char> temp(bytes);
  STRATA_TEST_CUDA(DispatchT::Dispatch(temp.data(), bytes, args...));
  strata_test::check_launch();
}

const std::vector<std::size_t> dispatch_sizes = {1, 1000, 1024, 1025, 100003, (1 << 20) + 7};
} // namespace

TEST_CASE("DeviceTransform::TransformStableArgumentAddresses has CUB's four overloads", "[device][cub_names]")
{
  using op_t                                                  = cuda::std::plus<>;
  using tuple_t                                               = cuda::std::tuple<const int*, const int*>;
  cudaError_t (*many)(tuple_t, int*, int, op_t, cudaStream_t) = &lib::DeviceTransform::TransformStableArgumentAddresses;
  cudaError_t (*many_temp)(void*, std::size_t&, tuple_t, int*, int, op_t, cudaStream_t) =
      &lib::DeviceTransform::TransformStableArgumentAddresses;
  cudaError_t (*one)(const int*, int*, std::int64_t, square, cudaStream_t) =
      &lib::DeviceTransform::TransformStableArgumentAddresses;
  cudaError_t (*one_temp)(void*, std::size_t&, const int*, int*, int, square, cudaStream_t) =
      &lib::DeviceTransform::TransformStableArgumentAddresses;
  CHECK(many != nullptr);
  CHECK(many_temp != nullptr);
  CHECK(one != nullptr);
  CHECK(one_temp != nullptr);

  std::size_t bytes = 0;
  CHECK(lib::DeviceTransform::TransformStableArgumentAddresses(nullptr, bytes, static_cast<const int*>(nullptr),
                                                               static_cast<int*>(nullptr), 10, square{})
        == cudaSuccess);
  CHECK(bytes >= 1);
  CHECK(lib::DeviceTransform::TransformStableArgumentAddresses(static_cast<const int*>(nullptr),
                                                               static_cast<int*>(nullptr), -1, square{})
        == cudaErrorInvalidValue);
}

TEST_CASE("TransformStableArgumentAddresses passes the items themselves", "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  for (const std::size_t n : {std::size_t(2), std::size_t(1000), std::size_t(100003), std::size_t(1 << 20)})
  {
    INFO("n = " << n);
    const std::vector<int> a = random_items<int>(n, 1);
    const std::vector<int> b = random_items<int>(n, 2);
    std::vector<int> expected_next(n - 1);
    std::vector<int> expected_sum(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      expected_sum[i] = a[i] + b[i];
      if (i + 1 < n)
      {
        expected_next[i] = a[i] + a[i + 1];
      }
    }
    strata_test::device_buffer<int> d_a(a);
    strata_test::device_buffer<int> d_b(b);
    strata_test::device_buffer<int> d_out(n);
    d_out.poison();
    // The documented example: n - 1 items, each added to its neighbour through its address.
    STRATA_TEST_CUDA(lib::DeviceTransform::TransformStableArgumentAddresses(
        static_cast<const int*>(d_a.data()), d_out.data(), static_cast<int>(n - 1), next_sum{}));
    strata_test::check_launch();
    std::vector<int> next = d_out.download();
    int poison            = 0;
    std::memset(&poison, strata_test::poison_byte, sizeof(poison));
    CHECK(next.back() == poison); // the item past the range is never written
    next.pop_back();
    strata_test::check_equal(expected_next, next);

    d_out.poison();
    std::size_t bytes = 0;
    const auto inputs = cuda::std::make_tuple(static_cast<const int*>(d_a.data()), static_cast<const int*>(d_b.data()));
    STRATA_TEST_CUDA(lib::DeviceTransform::TransformStableArgumentAddresses(nullptr, bytes, inputs, d_out.data(), n,
                                                                            cuda::std::plus<>{}));
    strata_test::device_buffer<unsigned char> temp(bytes);
    STRATA_TEST_CUDA(lib::DeviceTransform::TransformStableArgumentAddresses(temp.data(), bytes, inputs, d_out.data(), n,
                                                                            cuda::std::plus<>{}));
    strata_test::check_launch();
    strata_test::check_equal(expected_sum, d_out.download());
  }
}

TEMPLATE_TEST_CASE("DispatchReduce and DispatchTransformReduce run a user's CUB-shaped policy hub",
                   "[device][cub_names]", std::uint32_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using T = TestType;
  for (const std::size_t n : dispatch_sizes)
  {
    INFO("n = " << n);
    const std::vector<T> in = random_items<T>(n, 3);
    const T init            = in[n / 2] + 1;
    T sum                   = init;
    T squares               = init;
    for (const T x : in)
    {
      sum += x; // unsigned: wraps as the device's sum does
      squares += x * x;
    }
    strata_test::device_buffer<T> d_in(in);
    strata_test::device_buffer<T> d_out(1);

    d_out.poison();
    using reduce_t =
        lib::DispatchReduce<const T*, T*, int, cuda::std::plus<>, T, T, cuda::std::identity, user_reduce_hub<T>>;
    run_dispatch<reduce_t>(static_cast<const T*>(d_in.data()), d_out.data(), int(n), cuda::std::plus<>{}, init,
                           cudaStream_t{});
    CHECK(d_out.download()[0] == sum);

    d_out.poison();
    using transform_reduce_t =
        lib::DispatchTransformReduce<const T*, T*, int, cuda::std::plus<>, square, T, T, user_reduce_hub<T>>;
    run_dispatch<transform_reduce_t>(static_cast<const T*>(d_in.data()), d_out.data(), int(n), cuda::std::plus<>{},
                                     init, cudaStream_t{}, square{});
    CHECK(d_out.download()[0] == squares);
  }
}

TEMPLATE_TEST_CASE("DispatchScan and DispatchScanByKey run a user's CUB-shaped policy hub", "[device][cub_names]",
                   std::uint32_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using T = TestType;
  for (const std::size_t n : dispatch_sizes)
  {
    INFO("n = " << n);
    const std::vector<T> in = random_items<T>(n, 4);
    const T init            = in[n / 3] + 5;
    std::vector<T> exclusive(n);
    std::vector<T> inclusive(n);
    T running = init;
    for (std::size_t i = 0; i < n; ++i)
    {
      exclusive[i] = running;
      running += in[i];
      inclusive[i] = running;
    }
    strata_test::device_buffer<T> d_in(in);
    strata_test::device_buffer<T> d_out(n);
    const auto offset = static_cast<std::uint32_t>(n);

    d_out.poison();
    using exclusive_t = lib::DispatchScan<const T*, T*, cuda::std::plus<>, lib::detail::InputValue<T>, std::uint32_t, T,
                                          lib::ForceInclusive::No, user_scan_hub<T>>;
    run_dispatch<exclusive_t>(static_cast<const T*>(d_in.data()), d_out.data(), cuda::std::plus<>{},
                              lib::detail::InputValue<T>(init), offset, cudaStream_t{});
    strata_test::check_equal(exclusive, d_out.download());

    d_out.poison();
    using inclusive_t = lib::DispatchScan<const T*, T*, cuda::std::plus<>, lib::detail::InputValue<T>, std::uint32_t, T,
                                          lib::ForceInclusive::Yes, user_scan_hub<T>>;
    run_dispatch<inclusive_t>(static_cast<const T*>(d_in.data()), d_out.data(), cuda::std::plus<>{},
                              lib::detail::InputValue<T>(init), offset, cudaStream_t{});
    strata_test::check_equal(inclusive, d_out.download());

    // By key: runs of 1 to 9 equal keys, an inclusive sum restarting at each run.
    std::vector<int> keys(n);
    std::vector<T> by_key(n);
    const std::vector<int> run_lengths = strata_test::random_vector<int>(n, strata_test::seed(5), 1.0, 10.0);
    int key                            = 0;
    for (std::size_t i = 0, left = 0; i < n; ++i, --left)
    {
      if (left == 0)
      {
        ++key;
        left = std::size_t(run_lengths[i]);
      }
      keys[i]   = key;
      by_key[i] = (i > 0 && keys[i - 1] == key ? by_key[i - 1] : T(0)) + in[i];
    }
    strata_test::device_buffer<int> d_keys(keys);
    d_out.poison();
    using by_key_t = lib::DispatchScanByKey<const int*, const T*, T*, cuda::std::equal_to<>, cuda::std::plus<>,
                                            lib::NullType, std::uint32_t, T, user_scan_by_key_hub>;
    run_dispatch<by_key_t>(static_cast<const int*>(d_keys.data()), static_cast<const T*>(d_in.data()), d_out.data(),
                           cuda::std::equal_to<>{}, cuda::std::plus<>{}, lib::NullType{}, offset, cudaStream_t{});
    strata_test::check_equal(by_key, d_out.download());
  }
}

TEST_CASE("ScanTileState and TilePrefixCallbackOp with CUB's signatures", "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  for (const int num_tiles : {2, 33, 300})
  {
    INFO("tiles = " << num_tiles);
    const std::vector<int> in = random_items<int>(std::size_t(num_tiles), 6);
    std::vector<int> expected(2 * std::size_t(num_tiles) - 1); // the prefixes, then those of tiles 1, 2, ...
    int running = 0;
    for (int tile = 0; tile < num_tiles; ++tile)
    {
      running += in[std::size_t(tile)];
      expected[std::size_t(tile)] = running;
      if (tile > 0)
      {
        expected[std::size_t(num_tiles + tile - 1)] = running;
      }
    }
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(lib::ScanTileState<int>::AllocationSize(num_tiles, bytes));
    strata_test::device_buffer<unsigned char> storage(bytes);
    lib::ScanTileState<int> tile_state;
    STRATA_TEST_CUDA(tile_state.Init(num_tiles, storage.data(), bytes));
    init_status<<<1, 512>>>(tile_state, num_tiles);
    strata_test::check_launch();
    strata_test::device_buffer<int> d_in(in);
    strata_test::device_buffer<int> d_out(expected.size());
    d_out.poison();
    // Tile 0's block waits for every other tile, so all of them must be resident at once.
    publish_and_read<<<num_tiles, 64>>>(d_in.data(), d_out.data(), tile_state, num_tiles);
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());
  }
}

TEST_CASE("DispatchRadixSort runs a user's CUB-shaped policy hub", "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  using dispatch_t = lib::DispatchRadixSort<lib::SortOrder::Ascending, std::uint32_t, std::uint32_t, std::uint32_t,
                                            lib::detail::identity_decomposer_t, user_radix_hub<std::uint32_t>>;
  // One tile of the hub's one-block sort is 1024 keys; its onesweep tiles are 2048.
  for (const std::size_t n : {std::size_t(1000), std::size_t(1025), std::size_t(100003)})
  {
    INFO("n = " << n);
    const std::vector<std::uint32_t> keys = random_items<std::uint32_t>(n, 5);
    std::vector<std::uint32_t> positions(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      positions[i] = std::uint32_t(i);
    }
    std::vector<std::uint32_t> order(positions);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    strata_test::device_buffer<std::uint32_t> d_keys(keys);
    strata_test::device_buffer<std::uint32_t> d_keys_alt(n);
    strata_test::device_buffer<std::uint32_t> d_values(positions);
    strata_test::device_buffer<std::uint32_t> d_values_alt(n);
    lib::DoubleBuffer<std::uint32_t> key_buffers(d_keys.data(), d_keys_alt.data());
    lib::DoubleBuffer<std::uint32_t> value_buffers(d_values.data(), d_values_alt.data());
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(dispatch_t::Dispatch(nullptr, bytes, key_buffers, value_buffers, std::uint32_t(n), 0, 32, true,
                                          cudaStream_t{}));
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(dispatch_t::Dispatch(d_temp.data(), bytes, key_buffers, value_buffers, std::uint32_t(n), 0, 32,
                                          true, cudaStream_t{}));
    strata_test::check_launch();
    CHECK(key_buffers.selector == value_buffers.selector);
    const auto& values_out = value_buffers.selector == 0 ? d_values : d_values_alt;
    strata_test::check_equal(order, values_out.download());
  }
}

TEST_CASE("DispatchMergeSort runs a user's CUB-shaped policy hub", "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  using dispatch_t = lib::DispatchMergeSort<const std::int32_t*, const std::uint32_t*, std::int32_t*, std::uint32_t*,
                                            std::uint32_t, cuda::std::less<>, user_merge_sort_hub>;
  // The hub's tile is 896 keys: one tile, one tile + 1, and 112 tiles (7 merge passes).
  for (const std::size_t n : {std::size_t(896), std::size_t(897), std::size_t(100003)})
  {
    INFO("n = " << n);
    const std::vector<std::int32_t> keys = random_items<std::int32_t>(n, 7);
    std::vector<std::uint32_t> positions(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      positions[i] = std::uint32_t(i);
    }
    std::vector<std::uint32_t> order(positions);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    strata_test::device_buffer<std::int32_t> d_keys(keys);
    strata_test::device_buffer<std::int32_t> d_keys_out(n);
    strata_test::device_buffer<std::uint32_t> d_values(positions);
    strata_test::device_buffer<std::uint32_t> d_values_out(n);
    d_values_out.poison();
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(dispatch_t::Dispatch(nullptr, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                          d_values_out.data(), std::uint32_t(n), cuda::std::less<>{}, cudaStream_t{}));
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(dispatch_t::Dispatch(d_temp.data(), bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                          d_values_out.data(), std::uint32_t(n), cuda::std::less<>{}, cudaStream_t{}));
    strata_test::check_launch();
    strata_test::check_equal(order, d_values_out.download());
  }
}

TEST_CASE("DispatchSegmentedSort and DispatchSegmentedRadixSort sort segments with CUB's template lists",
          "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  // CUB's spellings: <Order, Key, Value, Offset, Begin, End> and <Order, Key, Value, Begin, End, Offset>.
  using sort_t =
      lib::DispatchSegmentedSort<lib::SortOrder::Descending, std::int32_t, std::uint32_t, int, const int*, const int*>;
  using radix_t = lib::DispatchSegmentedRadixSort<lib::SortOrder::Ascending, std::int32_t, std::uint32_t, const int*,
                                                  const int*, int>;
  // Segments of every bin: 0, 1, 20, 200, 2000, 5000 and 30000 items.
  const std::vector<int> offsets{0, 0, 1, 21, 221, 2221, 7221, 37221};
  const std::size_t n                  = std::size_t(offsets.back());
  const std::vector<std::int32_t> keys = random_items<std::int32_t>(n, 11);
  std::vector<std::uint32_t> positions(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    positions[i] = std::uint32_t(i);
  }
  strata_test::device_buffer<int> d_offsets(offsets);
  for (const bool radix : {false, true})
  {
    INFO((radix ? "DispatchSegmentedRadixSort, bits [8, 24)" : "DispatchSegmentedSort, descending"));
    const std::uint32_t mask = radix ? 0x00FFFF00u : 0xFFFFFFFFu;
    std::vector<std::uint32_t> order(positions);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    {
      std::stable_sort(order.begin() + offsets[s], order.begin() + offsets[s + 1],
                       [&](std::uint32_t a, std::uint32_t b)
                       {
                         const std::uint32_t x = std::uint32_t(keys[a]) & mask;
                         const std::uint32_t y = std::uint32_t(keys[b]) & mask;
                         return radix ? x < y : keys[a] > keys[b];
                       });
    }
    strata_test::device_buffer<std::int32_t> d_keys(keys);
    strata_test::device_buffer<std::int32_t> d_keys_alt(n);
    strata_test::device_buffer<std::uint32_t> d_values(positions);
    strata_test::device_buffer<std::uint32_t> d_values_alt(n);
    lib::DoubleBuffer<std::int32_t> key_buffers(d_keys.data(), d_keys_alt.data());
    lib::DoubleBuffer<std::uint32_t> value_buffers(d_values.data(), d_values_alt.data());
    const int segments = int(offsets.size()) - 1;
    auto run           = [&](void* d_temp, std::size_t& bytes)
    {
      return radix ? radix_t::Dispatch(d_temp, bytes, key_buffers, value_buffers, int(n), segments, d_offsets.data(),
                                       d_offsets.data() + 1, 8, 24, true, cudaStream_t{})
                   : sort_t::Dispatch(d_temp, bytes, key_buffers, value_buffers, std::int64_t(n), segments,
                                      d_offsets.data(), d_offsets.data() + 1, true, cudaStream_t{});
    };
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(run(nullptr, bytes));
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(run(d_temp.data(), bytes));
    strata_test::check_launch();
    CHECK(key_buffers.selector == value_buffers.selector);
    const auto& values_out = value_buffers.selector == 0 ? d_values : d_values_alt;
    strata_test::check_equal(order, values_out.download());
  }
}

namespace
{
struct below_1000
{
  __host__ __device__ bool operator()(std::int32_t x) const
  {
    return x < 1000;
  }
};
struct above_3000
{
  __host__ __device__ bool operator()(std::int32_t x) const
  {
    return x > 3000;
  }
};
} // namespace

TEST_CASE("DispatchSelectIf, DispatchUniqueByKey, DispatchThreeWayPartitionIf and DispatchAdjacentDifference with "
          "CUB's template lists",
          "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::size_t n             = 50000;
  std::vector<std::int32_t> items = random_items<std::int32_t>(n, 12);
  for (std::size_t i = 0; i < n; ++i)
  {
    // Items in [0, 4000], and a third of them repeating the item before (runs for UniqueByKey).
    items[i] = i > 0 && items[i] % 3 == 0 ? items[i - 1] : items[i] * 4;
  }
  strata_test::device_buffer<std::int32_t> d_in(items);
  strata_test::device_buffer<std::int32_t> d_out(n);
  strata_test::device_buffer<std::int32_t> d_out2(n);
  strata_test::device_buffer<std::int32_t> d_out3(n);
  strata_test::device_buffer<long long> d_count(2);
  auto two_phase = [&](auto run)
  {
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(run(nullptr, bytes));
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(run(d_temp.data(), bytes));
    strata_test::check_launch();
  };

  SECTION("DispatchSelectIf partitions with SelectImpl::Partition")
  {
    using dispatch_t = lib::DispatchSelectIf<const std::int32_t*, lib::NullType*, std::int32_t*, long long*, below_1000,
                                             lib::NullType, std::int64_t, lib::SelectImpl::Partition>;
    two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return dispatch_t::Dispatch(d_temp, bytes, d_in.data(), nullptr, d_out.data(), d_count.data(), below_1000{},
                                      lib::NullType{}, std::int64_t(n), cudaStream_t{});
        });
    std::vector<std::int32_t> expected;
    std::copy_if(items.begin(), items.end(), std::back_inserter(expected), below_1000{});
    const std::size_t selected = expected.size();
    for (std::size_t i = n; i-- > 0;)
    {
      if (!below_1000{}(items[i]))
      {
        expected.push_back(items[i]);
      }
    }
    CHECK(d_count.download()[0] == (long long)selected);
    strata_test::check_equal(expected, d_out.download());
  }
  SECTION("DispatchUniqueByKey keeps the first of each run")
  {
    using dispatch_t = lib::DispatchUniqueByKey<const std::int32_t*, const std::int32_t*, std::int32_t*, std::int32_t*,
                                                long long*, cuda::std::equal_to<>, std::int64_t>;
    strata_test::device_buffer<std::int32_t> d_positions(n);
    std::vector<std::int32_t> positions(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      positions[i] = std::int32_t(i);
    }
    d_positions.upload(positions);
    two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return dispatch_t::Dispatch(d_temp, bytes, d_in.data(), d_positions.data(), d_out.data(), d_out2.data(),
                                      d_count.data(), cuda::std::equal_to<>{}, std::int64_t(n), cudaStream_t{});
        });
    std::vector<std::int32_t> keys;
    std::vector<std::int32_t> firsts;
    for (std::size_t i = 0; i < n; ++i)
    {
      if (i == 0 || items[i] != items[i - 1])
      {
        keys.push_back(items[i]);
        firsts.push_back(std::int32_t(i));
      }
    }
    CHECK(d_count.download()[0] == (long long)keys.size());
    std::vector<std::int32_t> keys_out   = d_out.download();
    std::vector<std::int32_t> firsts_out = d_out2.download();
    keys_out.resize(keys.size());
    firsts_out.resize(keys.size());
    strata_test::check_equal(keys, keys_out);
    strata_test::check_equal(firsts, firsts_out);
  }
  SECTION("DispatchThreeWayPartitionIf splits in three")
  {
    using dispatch_t =
        lib::DispatchThreeWayPartitionIf<const std::int32_t*, std::int32_t*, std::int32_t*, std::int32_t*, long long*,
                                         below_1000, above_3000, std::int64_t>;
    two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return dispatch_t::Dispatch(d_temp, bytes, d_in.data(), d_out.data(), d_out2.data(), d_out3.data(),
                                      d_count.data(), below_1000{}, above_3000{}, std::int64_t(n), cudaStream_t{});
        });
    std::vector<std::int32_t> first, second, rest;
    for (const std::int32_t x : items)
    {
      (below_1000{}(x) ? first : above_3000{}(x) ? second : rest).push_back(x);
    }
    const std::vector<long long> counts = d_count.download();
    CHECK(counts[0] == (long long)first.size());
    CHECK(counts[1] == (long long)second.size());
    std::vector<std::int32_t> a = d_out.download(), b = d_out2.download(), c = d_out3.download();
    a.resize(first.size());
    b.resize(second.size());
    c.resize(rest.size());
    strata_test::check_equal(first, a);
    strata_test::check_equal(second, b);
    strata_test::check_equal(rest, c);
  }
  SECTION("DispatchAdjacentDifference in place, reading to the right")
  {
    using dispatch_t = lib::DispatchAdjacentDifference<std::int32_t*, std::int32_t*, cuda::std::minus<>, std::uint32_t,
                                                       lib::MayAlias::Yes, lib::ReadOption::Right>;
    two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return dispatch_t::Dispatch(d_temp, bytes, d_in.data(), d_in.data(), std::uint32_t(n), cuda::std::minus<>{},
                                      cudaStream_t{});
        });
    std::vector<std::int32_t> expected(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = i + 1 < n ? items[i] - items[i + 1] : items[i];
    }
    strata_test::check_equal(expected, d_in.download());
  }
}

namespace
{
template <typename TileStateT>
__global__ void init_pair_status(TileStateT tile_state, int num_tiles)
{
  tile_state.InitializeStatus(num_tiles);
}

//! Tile t (block t) gets the (runs, value) prefix of the tiles before it through a
//! TilePrefixCallbackOp with CUB's ReduceBySegmentOp, as CUB's reduction by key does, and writes
//! its inclusive prefix to out[t]. Tile 0 publishes its pair as its inclusive prefix.
template <typename PairT, typename TileStateT>
__global__ void segmented_prefixes(const PairT* in, PairT* out, TileStateT tile_state)
{
  using op_t     = lib::ReduceBySegmentOp<cuda::std::plus<>>;
  using prefix_t = lib::TilePrefixCallbackOp<PairT, op_t, TileStateT>;
  __shared__ typename prefix_t::TempStorage temp_storage;
  const int tile = int(blockIdx.x);
  if (tile == 0)
  {
    if (threadIdx.x == 0)
    {
      tile_state.SetInclusive(0, in[0]);
      out[0] = in[0];
    }
    return;
  }
  if (threadIdx.x < 32)
  {
    prefix_t prefix_op(tile_state, temp_storage, op_t{});
    prefix_op(in[tile]);
    if (threadIdx.x == 0)
    {
      out[tile] = prefix_op.inclusive_prefix;
    }
  }
}

//! The tile prefixes of ReduceByKeyScanTileState<ValueT, KeyT> for random (runs started, value)
//! pairs of 2, 33 and 300 tiles against a host scan of them.
template <typename ValueT, typename KeyT>
void check_reduce_by_key_tile_state()
{
  using tile_state_t = lib::ReduceByKeyScanTileState<ValueT, KeyT>;
  using pair_t       = lib::KeyValuePair<KeyT, ValueT>;
  for (const int num_tiles : {2, 33, 300})
  {
    INFO("tiles = " << num_tiles);
    const std::vector<int> starts = random_items<int>(std::size_t(num_tiles), 14);
    const std::vector<int> values = random_items<int>(std::size_t(num_tiles), 15);
    std::vector<pair_t> in(static_cast<std::size_t>(num_tiles));
    std::vector<KeyT> expected_keys(in.size());
    std::vector<ValueT> expected_values(in.size());
    pair_t running{};
    for (std::size_t t = 0; t < in.size(); ++t)
    {
      in[t] = pair_t(KeyT(starts[t] % 3 == 0 ? 1 : 0), ValueT(values[t]));
      // The runs started add up; a tile that starts one (key 1) restarts the value.
      if (t == 0)
      {
        running = in[t];
      }
      else
      {
        running = pair_t(KeyT(running.key + in[t].key), in[t].key != 0 ? in[t].value : running.value + in[t].value);
      }
      expected_keys[t]   = running.key;
      expected_values[t] = running.value;
    }
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(tile_state_t::AllocationSize(num_tiles, bytes));
    strata_test::device_buffer<unsigned char> storage(bytes);
    tile_state_t tile_state;
    STRATA_TEST_CUDA(tile_state.Init(num_tiles, storage.data(), bytes));
    init_pair_status<<<1, 512>>>(tile_state, num_tiles);
    strata_test::check_launch();
    strata_test::device_buffer<pair_t> d_in(in);
    strata_test::device_buffer<pair_t> d_out(in.size());
    d_out.poison();
    segmented_prefixes<<<num_tiles, 64>>>(d_in.data(), d_out.data(), tile_state);
    strata_test::check_launch();
    const std::vector<pair_t> out = d_out.download();
    std::vector<KeyT> keys;
    std::vector<ValueT> out_values;
    for (const pair_t& pair : out)
    {
      keys.push_back(pair.key);
      out_values.push_back(pair.value);
    }
    strata_test::check_equal(expected_keys, keys);
    strata_test::check_equal(expected_values, out_values);
  }
}
} // namespace

TEST_CASE("ReduceByKeyScanTileState with CUB's <ValueT, KeyT> carries (runs, value) prefixes", "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  SECTION("<int, int>: a pair that fits one word with its status")
  {
    check_reduce_by_key_tile_state<int, int>();
  }
  SECTION("<double, long long>: a pair of 16 bytes, apart from its status")
  {
    check_reduce_by_key_tile_state<double, long long>();
  }
}

TEST_CASE("DispatchReduceByKey and DeviceRleDispatch with CUB's template lists and user hubs", "[device][cub_names]")
{
  STRATA_TEST_REQUIRE_GPU();
  // Keys in runs of 1 to 9 (a new key after each), values in [0, 1000].
  for (const std::size_t n : dispatch_sizes)
  {
    INFO("n = " << n);
    const std::vector<int> run_lengths      = random_items<int>(n, 16);
    const std::vector<std::uint32_t> values = random_items<std::uint32_t>(n, 17);
    std::vector<int> keys(n);
    std::vector<int> unique;
    std::vector<std::uint32_t> sums;
    std::vector<int> offsets;
    std::vector<int> lengths;
    for (std::size_t i = 0, left = 0; i < n; ++i, --left)
    {
      if (left == 0)
      {
        left = 1 + std::size_t(run_lengths[i] % 9);
        unique.push_back(int(unique.size()) * 7 + 3);
        sums.push_back(0);
        offsets.push_back(int(i));
        lengths.push_back(0);
      }
      keys[i] = unique.back();
      sums.back() += values[i];
      ++lengths.back();
    }
    strata_test::device_buffer<int> d_keys(keys);
    strata_test::device_buffer<std::uint32_t> d_values(values);
    strata_test::device_buffer<int> d_unique(n);
    strata_test::device_buffer<std::uint32_t> d_sums(n);
    strata_test::device_buffer<int> d_lengths(n);
    strata_test::device_buffer<int> d_count(1);
    const auto first = [](std::vector<int> out, std::size_t count)
    {
      out.resize(count);
      return out;
    };

    {
      INFO("DispatchReduceByKey with CUB's defaults");
      using dispatch_t = lib::DispatchReduceByKey<const int*, int*, const std::uint32_t*, std::uint32_t*, int*,
                                                  cuda::std::equal_to<>, cuda::std::plus<>, int>;
      d_unique.poison();
      d_sums.poison();
      d_count.poison();
      run_dispatch<dispatch_t>(static_cast<const int*>(d_keys.data()), d_unique.data(),
                               static_cast<const std::uint32_t*>(d_values.data()), d_sums.data(), d_count.data(),
                               cuda::std::equal_to<>{}, cuda::std::plus<>{}, int(n), cudaStream_t{});
      CHECK(d_count.download()[0] == int(unique.size()));
      strata_test::check_equal(unique, first(d_unique.download(), unique.size()));
      std::vector<std::uint32_t> out_sums = d_sums.download();
      out_sums.resize(sums.size());
      strata_test::check_equal(sums, out_sums);
    }
    {
      INFO("DispatchReduceByKey with a user's CUB-shaped policy hub");
      using dispatch_t =
          lib::DispatchReduceByKey<const int*, int*, const std::uint32_t*, std::uint32_t*, int*, cuda::std::equal_to<>,
                                   cuda::std::plus<>, int, std::uint32_t, user_reduce_by_key_hub>;
      d_unique.poison();
      d_sums.poison();
      d_count.poison();
      run_dispatch<dispatch_t>(static_cast<const int*>(d_keys.data()), d_unique.data(),
                               static_cast<const std::uint32_t*>(d_values.data()), d_sums.data(), d_count.data(),
                               cuda::std::equal_to<>{}, cuda::std::plus<>{}, int(n), cudaStream_t{});
      CHECK(d_count.download()[0] == int(unique.size()));
      strata_test::check_equal(unique, first(d_unique.download(), unique.size()));
      std::vector<std::uint32_t> out_sums = d_sums.download();
      out_sums.resize(sums.size());
      strata_test::check_equal(sums, out_sums);
    }
    std::vector<int> long_offsets;
    std::vector<int> long_lengths;
    for (std::size_t r = 0; r < offsets.size(); ++r)
    {
      if (lengths[r] > 1)
      {
        long_offsets.push_back(offsets[r]);
        long_lengths.push_back(lengths[r]);
      }
    }
    {
      INFO("DeviceRleDispatch: the runs of more than one key");
      using dispatch_t = lib::DeviceRleDispatch<const int*, int*, int*, int*, cuda::std::equal_to<>, int>;
      d_unique.poison();
      d_lengths.poison();
      d_count.poison();
      run_dispatch<dispatch_t>(static_cast<const int*>(d_keys.data()), d_unique.data(), d_lengths.data(),
                               d_count.data(), cuda::std::equal_to<>{}, int(n), cudaStream_t{});
      CHECK(d_count.download()[0] == int(long_offsets.size()));
      strata_test::check_equal(long_offsets, first(d_unique.download(), long_offsets.size()));
      strata_test::check_equal(long_lengths, first(d_lengths.download(), long_lengths.size()));
    }
    {
      INFO("DeviceRleDispatch with a user's CUB-shaped policy hub");
      using dispatch_t = lib::DeviceRleDispatch<const int*, int*, int*, int*, cuda::std::equal_to<>, int, user_rle_hub>;
      d_unique.poison();
      d_lengths.poison();
      d_count.poison();
      run_dispatch<dispatch_t>(static_cast<const int*>(d_keys.data()), d_unique.data(), d_lengths.data(),
                               d_count.data(), cuda::std::equal_to<>{}, int(n), cudaStream_t{});
      CHECK(d_count.download()[0] == int(long_offsets.size()));
      strata_test::check_equal(long_offsets, first(d_unique.download(), long_offsets.size()));
      strata_test::check_equal(long_lengths, first(d_lengths.download(), long_lengths.size()));
    }
  }
}

// DeviceHistogram: DispatchHistogram with CUB's <NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT,
// CounterT, LevelT, OffsetT, PolicyHub = void> and CUB's static DispatchEven / DispatchRange, with
// CUB's trailing is_byte_sample tag (true_type for byte samples, false_type otherwise) and without
// it. Its policy hubs are strata's own (AgentHistogramPolicy<BLOCK_THREADS, PIXELS_PER_THREAD,
// VECTOR_LOADS, LANE_BINS, SHARED_BINS>, not CUB's parameter list). test_device_histogram_behaviour
// runs them.
TEST_CASE("DispatchHistogram has CUB's template parameters and DispatchEven / DispatchRange overloads",
          "[device][cub_names]")
{
  using bytes_t = lib::DispatchHistogram<4, 3, const std::uint8_t*, int, int, int>;
  static_assert(cuda::std::is_same_v<bytes_t, lib::DispatchHistogram<4, 3, const std::uint8_t*, int, int, int, void>>);
  using int3_t = cuda::std::array<int, 3>;

  cudaError_t (*even_bytes)(void*, std::size_t&, const std::uint8_t*, cuda::std::array<int*, 3>, int3_t, int3_t, int3_t,
                            int, int, int, cudaStream_t, cuda::std::true_type) = &bytes_t::DispatchEven;
  cudaError_t (*range_bytes)(void*, std::size_t&, const std::uint8_t*, cuda::std::array<int*, 3>, int3_t,
                             cuda::std::array<const int*, 3>, int, int, int, cudaStream_t, cuda::std::true_type) =
      &bytes_t::DispatchRange;
  using floats_t = lib::DispatchHistogram<1, 1, const float*, unsigned long long, double, std::int64_t>;
  using one_t    = cuda::std::array<double, 1>;

  cudaError_t (*even_floats)(void*, std::size_t&, const float*, cuda::std::array<unsigned long long*, 1>,
                             cuda::std::array<int, 1>, one_t, one_t, std::int64_t, std::int64_t, std::int64_t,
                             cudaStream_t, cuda::std::false_type)                = &floats_t::DispatchEven;
  cudaError_t (*range_floats)(void*, std::size_t&, const float*, cuda::std::array<unsigned long long*, 1>,
                              cuda::std::array<int, 1>, cuda::std::array<const double*, 1>, std::int64_t, std::int64_t,
                              std::int64_t, cudaStream_t, cuda::std::false_type) = &floats_t::DispatchRange;
  CHECK(even_bytes != nullptr);
  CHECK(range_bytes != nullptr);
  CHECK(even_floats != nullptr);
  CHECK(range_floats != nullptr);

  // Fewer than two levels are rejected before the device is asked for anything (an empty Even
  // range is CUB's too and counts nothing; test_device_histogram_behaviour runs the calls).
  std::size_t bytes = 0;
  CHECK(floats_t::DispatchEven(nullptr, bytes, nullptr, {nullptr}, {1}, {1.0}, {2.0}, 100, 1, 100, cudaStream_t{},
                               cuda::std::false_type{})
        == cudaErrorInvalidValue);
  CHECK(floats_t::DispatchRange(nullptr, bytes, nullptr, {nullptr}, {1}, {nullptr}, 100, 1, 100, cudaStream_t{},
                                cuda::std::false_type{})
        == cudaErrorInvalidValue);
}

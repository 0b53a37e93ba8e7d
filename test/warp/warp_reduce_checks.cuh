// test/warp/warp_reduce_checks.cuh: what the WarpReduce tests share: the block layout of logical
// warps, the inputs, kernels that run the WarpReduce members, and the checks of their outputs
// against the host references of common/reference.cuh.
#pragma once

#include "warp_layout.cuh"

#include <strata/util_ptx.cuh>
#include <strata/warp/warp_reduce.cuh>

#include "common/reference.cuh"
#include "common/test_common.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata_test
{
//! Threads per test block unless a test says otherwise: three hardware warps, each with different
//! data.
inline constexpr int reduce_block_threads = 96;

//! The outputs of warp_reduce_kernel, one slot of BLOCK_THREADS values each.
enum reduce_slot : int
{
  slot_sum,
  slot_sum_partial,
  slot_reduce,
  slot_reduce_partial,
  reduce_slot_count
};

//! The outputs of warp_segmented_reduce_kernel, one slot of BLOCK_THREADS values each.
enum segmented_slot : int
{
  slot_head_sum,
  slot_tail_sum,
  slot_head_reduce,
  slot_tail_reduce,
  segmented_slot_count
};

//! Sum and Reduce, whole and partial, called in turn by each logical warp of the block on the
//! same TempStorage (with a __syncwarp in between, as reuse requires). Logical warp w has
//! valid_items[w] valid items; the lanes beyond pass their (random) inputs all the same, which
//! the partial members must ignore.
template <int LOGICAL_WARP_THREADS, int BLOCK_THREADS, typename T, typename OpT>
__global__ void warp_reduce_kernel(const T* in, const int* valid_items, OpT op, T* out)
{
  using layout      = logical_warp_layout<LOGICAL_WARP_THREADS, BLOCK_THREADS>;
  using WarpReduceT = strata::WarpReduce<T, LOGICAL_WARP_THREADS>;
  __shared__ typename WarpReduceT::TempStorage temp_storage[layout::WARPS];

  const int tid = static_cast<int>(threadIdx.x);
  int warp, lane;
  if (!layout::locate(tid, warp, lane))
  {
    return; // in no logical warp
  }
  const unsigned int member_mask = strata::WarpMask<LOGICAL_WARP_THREADS>(strata::LaneId() / LOGICAL_WARP_THREADS);
  const T item                   = in[tid];
  const int valid                = valid_items[warp];
  WarpReduceT warp_reduce(temp_storage[warp]);

  out[slot_sum * BLOCK_THREADS + tid] = warp_reduce.Sum(item);
  __syncwarp(member_mask);
  out[slot_sum_partial * BLOCK_THREADS + tid] = warp_reduce.Sum(item, valid);
  __syncwarp(member_mask);
  out[slot_reduce * BLOCK_THREADS + tid] = warp_reduce.Reduce(item, op);
  __syncwarp(member_mask);
  out[slot_reduce_partial * BLOCK_THREADS + tid] = warp_reduce.Reduce(item, op, valid);
}

//! The four segmented members, called in turn by each logical warp of the block on the same
//! TempStorage, with the same flags as heads and as tails, passed as different flag types.
template <int LOGICAL_WARP_THREADS, int BLOCK_THREADS, typename T, typename OpT>
__global__ void warp_segmented_reduce_kernel(const T* in, const std::uint8_t* flags, OpT op, T* out)
{
  using layout      = logical_warp_layout<LOGICAL_WARP_THREADS, BLOCK_THREADS>;
  using WarpReduceT = strata::WarpReduce<T, LOGICAL_WARP_THREADS>;
  __shared__ typename WarpReduceT::TempStorage temp_storage[layout::WARPS];

  const int tid = static_cast<int>(threadIdx.x);
  int warp, lane;
  if (!layout::locate(tid, warp, lane))
  {
    return; // in no logical warp
  }
  const unsigned int member_mask = strata::WarpMask<LOGICAL_WARP_THREADS>(strata::LaneId() / LOGICAL_WARP_THREADS);
  const T item                   = in[tid];
  const std::uint8_t flag        = flags[tid];
  WarpReduceT warp_reduce(temp_storage[warp]);

  out[slot_head_sum * BLOCK_THREADS + tid] = warp_reduce.HeadSegmentedSum(item, flag);
  __syncwarp(member_mask);
  out[slot_tail_sum * BLOCK_THREADS + tid] = warp_reduce.TailSegmentedSum(item, static_cast<int>(flag));
  __syncwarp(member_mask);
  out[slot_head_reduce * BLOCK_THREADS + tid] = warp_reduce.HeadSegmentedReduce(item, flag != 0, op);
  __syncwarp(member_mask);
  out[slot_tail_reduce * BLOCK_THREADS + tid] = warp_reduce.TailSegmentedReduce(item, flag, op);
}

//! The host reference computes floating-point values in double, everything else in T.
template <typename T>
using reduce_reference_t = std::conditional_t<is_floating_v<T>, double, T>;

//! The lanes of a logical warp where segments start: lane 0, and the flagged lanes (heads) or
//! the lanes after flagged ones (tails).
inline std::vector<bool> segment_starts(const std::vector<std::uint8_t>& flags, bool head_segmented)
{
  std::vector<bool> starts(flags.size());
  for (std::size_t i = 0; i < flags.size(); ++i)
  {
    starts[i] = i == 0 || (head_segmented ? flags[i] != 0 : flags[i - 1] != 0);
  }
  return starts;
}

//! The reduction of each segment of x, at the lane where the segment starts (the lanes where
//! WarpReduce's segmented results are valid), as (lane, value) pairs.
template <typename T, typename OpT>
std::vector<std::pair<int, T>> segment_reductions(const std::vector<T>& x, const std::vector<bool>& starts, OpT op)
{
  std::vector<std::pair<int, T>> results;
  const int n = static_cast<int>(x.size());
  for (int first = 0; first < n; ++first)
  {
    if (starts[static_cast<std::size_t>(first)])
    {
      int last = first;
      while (last + 1 < n && !starts[static_cast<std::size_t>(last + 1)])
      {
        ++last;
      }
      results.emplace_back(first, fold(x, first, last, op));
    }
  }
  return results;
}

//! Inputs: unsigned integers, narrow signed integers, the custom types and affine maps over
//! their whole range (they wrap); 32- and 64-bit signed integers small enough that the host's
//! sums cannot overflow (undefined there); 16-bit floating point small positive integers, whose
//! sums over a warp are exact; float and double positive, so that sums do not cancel and their
//! rounding error stays relative (see reduce_sum_tolerance).
template <typename T>
std::vector<T> reduce_inputs(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, affine_map>)
  {
    return random_words_as<T>(n, seed);
  }
  else if constexpr (is_extended_float_v<T>)
  {
    const std::vector<int> small = random_vector<int>(n, seed, 1.0, 8.0);
    std::vector<T> values(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      values[i] = from_double<T>(small[i]);
    }
    return values;
  }
  else if constexpr (is_floating_v<T>)
  {
    return random_vector<T>(n, seed, 1.0, 100.0);
  }
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) >= 4)
  {
    return random_vector<T>(n, seed, -1e6, 1e6);
  }
  else
  {
    return random_vector<T>(n, seed);
  }
}

//! The relative tolerance of float and double sums: each (positive) input reaches the result
//! through at most 5 roundings of the warp's tree, and the host reference is exact and rounded
//! once, so 8 units of roundoff bound the error. Everything else is exact: integer and custom
//! arithmetic wraps the same way on both sides, 16-bit floating-point sums of the small integers
//! of reduce_inputs are exact, and minimum and maximum never round.
template <typename T, typename OpT>
double reduce_tolerance()
{
  constexpr bool is_sum = std::is_same_v<OpT, ::cuda::std::plus<>> || std::is_same_v<OpT, ::cuda::std::plus<T>>;
  if constexpr (is_sum && std::is_same_v<T, float>)
  {
    return 8 * 0x1p-24;
  }
  else if constexpr (is_sum && std::is_same_v<T, double>)
  {
    return 8 * 0x1p-53;
  }
  else
  {
    return 0.0;
  }
}

//! Runs Sum and Reduce (whole and partial) over a block of logical warps with different random
//! data and valid-item counts, and checks the result of lane 0 of every logical warp (the only
//! one CUB defines) against the host reference; sums use +, reductions `op`.
template <int LOGICAL_WARP_THREADS, typename T, int BLOCK_THREADS = reduce_block_threads, typename OpT>
void check_warp_reduce(OpT op, std::uint64_t salt)
{
  using layout    = logical_warp_layout<LOGICAL_WARP_THREADS, BLOCK_THREADS>;
  constexpr int n = BLOCK_THREADS;
  const auto seed = strata_test::seed(salt * 64 + LOGICAL_WARP_THREADS);
  INFO("logical warp " << LOGICAL_WARP_THREADS << ", block " << BLOCK_THREADS << ", seed " << seed);
  const std::vector<T> in = reduce_inputs<T>(n, seed);
  // Every logical warp its own count: one item, a full warp, and random ones in between.
  std::vector<int> valid_items(layout::WARPS);
  generator<int> counts(seed + 1);
  for (int w = 0; w < layout::WARPS; ++w)
  {
    valid_items[w] = w == 0 ? 1 : w == 1 ? LOGICAL_WARP_THREADS : counts(1, LOGICAL_WARP_THREADS);
  }

  device_buffer<T> d_in(in);
  device_buffer<int> d_valid_items(valid_items);
  device_buffer<T> d_out(static_cast<std::size_t>(reduce_slot_count) * n);
  d_out.poison();
  warp_reduce_kernel<LOGICAL_WARP_THREADS, BLOCK_THREADS>
      <<<1, n>>>(d_in.data(), d_valid_items.data(), op, d_out.data());
  check_launch();
  const std::vector<T> out = d_out.download();

  const char* const names[reduce_slot_count] = {"Sum", "Sum (valid_items)", "Reduce", "Reduce (valid_items)"};
  for (int slot = 0; slot < reduce_slot_count; ++slot)
  {
    std::vector<T> expected, actual;
    for (int w = 0; w < layout::WARPS; ++w)
    {
      const int first  = layout::thread(w, 0);
      const bool whole = slot == slot_sum || slot == slot_reduce;
      const int last   = first + (whole ? LOGICAL_WARP_THREADS : valid_items[w]) - 1;
      const bool sum   = slot == slot_sum || slot == slot_sum_partial;
      expected.push_back(sum ? fold(in, first, last, ::cuda::std::plus<>{}) : fold(in, first, last, op));
      actual.push_back(out[static_cast<std::size_t>(slot) * n + first]);
    }
    INFO(names[slot] << " (lane 0 of each logical warp)");
    check_equal(expected, actual,
                slot == slot_sum || slot == slot_sum_partial ? reduce_tolerance<T, ::cuda::std::plus<>>()
                                                             : reduce_tolerance<T, OpT>());
  }
}

//! Runs the four segmented members over a block of logical warps with different random data and
//! flags (logical warp 0 has no flag, warp 1 every flag, the others random ones), and checks the
//! result of the first lane of every segment against the host reference; sums use +,
//! reductions `op`.
template <int LOGICAL_WARP_THREADS, typename T, int BLOCK_THREADS = reduce_block_threads, typename OpT>
void check_warp_segmented_reduce(OpT op, std::uint64_t salt)
{
  using layout    = logical_warp_layout<LOGICAL_WARP_THREADS, BLOCK_THREADS>;
  constexpr int n = BLOCK_THREADS;
  const auto seed = strata_test::seed(salt * 64 + LOGICAL_WARP_THREADS);
  INFO("logical warp " << LOGICAL_WARP_THREADS << ", block " << BLOCK_THREADS << ", seed " << seed);
  const std::vector<T> in = reduce_inputs<T>(n, seed);
  std::vector<std::uint8_t> flags(n, 0);
  generator<int> coin(seed + 1);
  for (int w = 0; w < layout::WARPS; ++w)
  {
    for (int i = 0; i < LOGICAL_WARP_THREADS; ++i)
    {
      flags[layout::thread(w, i)] = w == 0 ? 0 : w == 1 ? 1 : (coin(0, 2) == 0 ? 1 : 0);
    }
  }

  device_buffer<T> d_in(in);
  device_buffer<std::uint8_t> d_flags(flags);
  device_buffer<T> d_out(static_cast<std::size_t>(segmented_slot_count) * n);
  d_out.poison();
  warp_segmented_reduce_kernel<LOGICAL_WARP_THREADS, BLOCK_THREADS>
      <<<1, n>>>(d_in.data(), d_flags.data(), op, d_out.data());
  check_launch();
  const std::vector<T> out = d_out.download();

  const char* const names[segmented_slot_count] = {"HeadSegmentedSum", "TailSegmentedSum", "HeadSegmentedReduce",
                                                   "TailSegmentedReduce"};
  for (int slot = 0; slot < segmented_slot_count; ++slot)
  {
    const bool head = slot == slot_head_sum || slot == slot_head_reduce;
    const bool sum  = slot == slot_head_sum || slot == slot_tail_sum;
    std::vector<T> expected, actual;
    for (int w = 0; w < layout::WARPS; ++w)
    {
      const int first = layout::thread(w, 0);
      const std::vector<T> x(in.begin() + first, in.begin() + first + LOGICAL_WARP_THREADS);
      const std::vector<std::uint8_t> f(flags.begin() + first, flags.begin() + first + LOGICAL_WARP_THREADS);
      const std::vector<bool> starts = segment_starts(f, head);
      const auto reductions =
          sum ? segment_reductions(x, starts, ::cuda::std::plus<>{}) : segment_reductions(x, starts, op);
      for (const auto& [lane, value] : reductions)
      {
        expected.push_back(value);
        actual.push_back(out[static_cast<std::size_t>(slot) * n + first + lane]);
      }
    }
    INFO(names[slot] << " (first lane of each segment)");
    check_equal(expected, actual, sum ? reduce_tolerance<T, ::cuda::std::plus<>>() : reduce_tolerance<T, OpT>());
  }
}
} // namespace strata_test

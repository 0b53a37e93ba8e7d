// test/warp/warp_scan_checks.cuh: what the WarpScan tests share: the block layout of logical
// warps, a kernel that runs every WarpScan member, and the check of its outputs against the host
// reference of common/reference.cuh.
#pragma once

#include "warp_layout.cuh"

#include <strata/util_ptx.cuh>
#include <strata/warp/warp_scan.cuh>

#include "common/reference.cuh"
#include "common/test_common.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata_test
{
//! Threads per test block unless a test says otherwise: three hardware warps, each with different
//! data.
inline constexpr int scan_block_threads = 96;

//! The outputs of the scan kernel: one slot of BLOCK_THREADS values per member output.
enum scan_slot : int
{
  inclusive_sum,
  inclusive_sum_aggregate,
  exclusive_sum,
  exclusive_sum_aggregate,
  inclusive_scan,
  inclusive_scan_init,
  inclusive_scan_aggregate,
  inclusive_scan_init_aggregate,
  exclusive_scan,
  exclusive_scan_init,
  exclusive_scan_aggregate,
  exclusive_scan_init_aggregate,
  scan_inclusive,
  scan_exclusive,
  scan_init_inclusive,
  scan_init_exclusive,
  broadcast,
  scan_slot_count
};

//! The warp aggregates the kernel writes, one slot of BLOCK_THREADS values each.
enum aggregate_slot : int
{
  aggregate_of_inclusive_sum,
  aggregate_of_exclusive_sum,
  aggregate_of_inclusive_scan,
  aggregate_of_inclusive_scan_init,
  aggregate_of_exclusive_scan,
  aggregate_of_exclusive_scan_init,
  aggregate_slot_count
};

inline std::string scan_slot_name(int slot)
{
  static const char* const names[scan_slot_count] = {"InclusiveSum",
                                                     "InclusiveSum (with aggregate)",
                                                     "ExclusiveSum",
                                                     "ExclusiveSum (with aggregate)",
                                                     "InclusiveScan",
                                                     "InclusiveScan (initial value)",
                                                     "InclusiveScan (aggregate)",
                                                     "InclusiveScan (initial value, aggregate)",
                                                     "ExclusiveScan",
                                                     "ExclusiveScan (initial value)",
                                                     "ExclusiveScan (aggregate)",
                                                     "ExclusiveScan (initial value, aggregate)",
                                                     "Scan: inclusive output",
                                                     "Scan: exclusive output",
                                                     "Scan (initial value): inclusive output",
                                                     "Scan (initial value): exclusive output",
                                                     "Broadcast"};
  return names[slot];
}

inline std::string aggregate_slot_name(int slot)
{
  static const char* const names[aggregate_slot_count] = {
      "InclusiveSum's aggregate",  "ExclusiveSum's aggregate",
      "InclusiveScan's aggregate", "InclusiveScan's aggregate (initial value)",
      "ExclusiveScan's aggregate", "ExclusiveScan's aggregate (initial value)"};
  return names[slot];
}

//! Every member of WarpScan, called in turn by each logical warp of the block on the same
//! TempStorage (with a __syncwarp in between, as reuse requires). Sums use +, scans `op`; the
//! initial value and the broadcast's source lane are those of the logical warp.
template <int LOGICAL_WARP_THREADS, int BLOCK_THREADS, typename T, typename OpT>
__global__ void warp_scan_kernel(const T* in, const T* initial_values, const unsigned int* src_lanes, OpT op, T* out,
                                 T* aggregates)
{
  using layout    = logical_warp_layout<LOGICAL_WARP_THREADS, BLOCK_THREADS>;
  using WarpScanT = strata::WarpScan<T, LOGICAL_WARP_THREADS>;
  __shared__ typename WarpScanT::TempStorage temp_storage[layout::WARPS];

  const int tid = static_cast<int>(threadIdx.x);
  int warp, lane;
  if (!layout::locate(tid, warp, lane))
  {
    return; // in no logical warp
  }
  const unsigned int member_mask = strata::WarpMask<LOGICAL_WARP_THREADS>(strata::LaneId() / LOGICAL_WARP_THREADS);
  const T input                  = in[tid];
  const T initial_value          = initial_values[warp];
  T* const outputs               = out + tid;
  T* const warp_aggregates       = aggregates + tid;
  WarpScanT scan(temp_storage[warp]);

  T item = input; // the in-place calls alias input and output
  T aggregate;
  T exclusive;
  scan.InclusiveSum(item, item);
  outputs[inclusive_sum * BLOCK_THREADS] = item;
  __syncwarp(member_mask);
  scan.InclusiveSum(input, item, aggregate);
  outputs[inclusive_sum_aggregate * BLOCK_THREADS]            = item;
  warp_aggregates[aggregate_of_inclusive_sum * BLOCK_THREADS] = aggregate;
  __syncwarp(member_mask);
  item = input;
  scan.ExclusiveSum(item, item);
  outputs[exclusive_sum * BLOCK_THREADS] = item;
  __syncwarp(member_mask);
  scan.ExclusiveSum(input, item, aggregate);
  outputs[exclusive_sum_aggregate * BLOCK_THREADS]            = item;
  warp_aggregates[aggregate_of_exclusive_sum * BLOCK_THREADS] = aggregate;
  __syncwarp(member_mask);

  item = input;
  scan.InclusiveScan(item, item, op);
  outputs[inclusive_scan * BLOCK_THREADS] = item;
  __syncwarp(member_mask);
  scan.InclusiveScan(input, item, initial_value, op);
  outputs[inclusive_scan_init * BLOCK_THREADS] = item;
  __syncwarp(member_mask);
  scan.InclusiveScan(input, item, op, aggregate);
  outputs[inclusive_scan_aggregate * BLOCK_THREADS]            = item;
  warp_aggregates[aggregate_of_inclusive_scan * BLOCK_THREADS] = aggregate;
  __syncwarp(member_mask);
  item = input;
  scan.InclusiveScan(item, item, initial_value, op, aggregate);
  outputs[inclusive_scan_init_aggregate * BLOCK_THREADS]            = item;
  warp_aggregates[aggregate_of_inclusive_scan_init * BLOCK_THREADS] = aggregate;
  __syncwarp(member_mask);

  item = input;
  scan.ExclusiveScan(item, item, op);
  outputs[exclusive_scan * BLOCK_THREADS] = item;
  __syncwarp(member_mask);
  item = input;
  scan.ExclusiveScan(item, item, initial_value, op);
  outputs[exclusive_scan_init * BLOCK_THREADS] = item;
  __syncwarp(member_mask);
  scan.ExclusiveScan(input, item, op, aggregate);
  outputs[exclusive_scan_aggregate * BLOCK_THREADS]            = item;
  warp_aggregates[aggregate_of_exclusive_scan * BLOCK_THREADS] = aggregate;
  __syncwarp(member_mask);
  scan.ExclusiveScan(input, item, initial_value, op, aggregate);
  outputs[exclusive_scan_init_aggregate * BLOCK_THREADS]            = item;
  warp_aggregates[aggregate_of_exclusive_scan_init * BLOCK_THREADS] = aggregate;
  __syncwarp(member_mask);

  scan.Scan(input, item, exclusive, op);
  outputs[scan_inclusive * BLOCK_THREADS] = item;
  outputs[scan_exclusive * BLOCK_THREADS] = exclusive;
  __syncwarp(member_mask);
  item = input;
  scan.Scan(item, item, exclusive, initial_value, op);
  outputs[scan_init_inclusive * BLOCK_THREADS] = item;
  outputs[scan_init_exclusive * BLOCK_THREADS] = exclusive;
  __syncwarp(member_mask);

  outputs[broadcast * BLOCK_THREADS] = scan.Broadcast(input, src_lanes[warp]);
}

//! The relative tolerance of floating-point sums: the tree order of the warp rounds every
//! output at most 6 times on the path of each (positive) input (5 scan steps, then the initial
//! value), the host reference is exact and rounded once, so 8 units of roundoff bound the error.
template <typename T>
double sum_tolerance()
{
  if constexpr (std::is_same_v<T, float>)
  {
    return 8 * 0x1p-24;
  }
  else if constexpr (std::is_same_v<T, double>)
  {
    return 8 * 0x1p-53;
  }
  else if constexpr (std::is_same_v<T, __half>)
  {
    return 8 * 0x1p-11;
  }
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
  {
    return 8 * 0x1p-8;
  }
  else
  {
    return 0.0;
  }
}

//! Runs every WarpScan member over a block of logical warps with different random data and
//! checks each output that CUB defines (exclusive scans without an initial value leave lane 0
//! undefined) against the host reference; sums use +, scans `op`. Floating-point results of +
//! are compared within sum_tolerance<T>(), everything else exactly.
template <int LOGICAL_WARP_THREADS, typename T, int BLOCK_THREADS = scan_block_threads, typename OpT>
void check_warp_scan(OpT op, std::uint64_t salt)
{
  using layout    = logical_warp_layout<LOGICAL_WARP_THREADS, BLOCK_THREADS>;
  constexpr int n = BLOCK_THREADS;
  // Element `t` of output slot `slot` (as the kernel writes them).
  const auto at   = [](int slot, int t) { return static_cast<std::size_t>(slot) * n + static_cast<std::size_t>(t); };
  const auto seed = strata_test::seed(salt * 64 + LOGICAL_WARP_THREADS);
  INFO("logical warp " << LOGICAL_WARP_THREADS << ", block " << BLOCK_THREADS << ", seed " << seed);
  const std::vector<T> in             = scan_inputs<T>(n, seed);
  const std::vector<T> initial_values = scan_inputs<T>(layout::WARPS, seed + 1);
  std::vector<unsigned int> src_lanes(layout::WARPS);
  generator<unsigned int> lanes(seed + 2);
  for (auto& s : src_lanes)
  {
    s = lanes(0, LOGICAL_WARP_THREADS - 1);
  }

  std::vector<T> expected(at(scan_slot_count, 0), T{});
  std::vector<T> expected_aggregates(at(aggregate_slot_count, 0), T{});
  std::vector<bool> defined(at(scan_slot_count, 0), false);
  std::vector<bool> defined_aggregate(n, false);
  for (int w = 0; w < layout::WARPS; ++w)
  {
    std::vector<T> x;
    for (int i = 0; i < LOGICAL_WARP_THREADS; ++i)
    {
      x.push_back(in[layout::thread(w, i)]);
    }
    const scan_reference<T, ::cuda::std::plus<>> sums(x, T{}, ::cuda::std::plus<>{});
    const scan_reference<T, OpT> scans(x, initial_values[w], op);
    for (int i = 0; i < LOGICAL_WARP_THREADS; ++i)
    {
      const int t = layout::thread(w, i);
      auto expect = [&](int slot, const T& value, bool is_defined = true)
      {
        expected[at(slot, t)] = value;
        defined[at(slot, t)]  = is_defined;
      };
      expect(inclusive_sum, sums.inclusive[i]);
      expect(inclusive_sum_aggregate, sums.inclusive[i]);
      expect(exclusive_sum, sums.exclusive_init[i]); // seeded with zero, so lane 0 is defined
      expect(exclusive_sum_aggregate, sums.exclusive_init[i]);
      expect(inclusive_scan, scans.inclusive[i]);
      expect(inclusive_scan_init, scans.inclusive_init[i]);
      expect(inclusive_scan_aggregate, scans.inclusive[i]);
      expect(inclusive_scan_init_aggregate, scans.inclusive_init[i]);
      expect(exclusive_scan, scans.exclusive[i], i > 0);
      expect(exclusive_scan_init, scans.exclusive_init[i]);
      expect(exclusive_scan_aggregate, scans.exclusive[i], i > 0);
      expect(exclusive_scan_init_aggregate, scans.exclusive_init[i]);
      expect(scan_inclusive, scans.inclusive[i]);
      expect(scan_exclusive, scans.exclusive[i], i > 0);
      expect(scan_init_inclusive, scans.inclusive_init[i]);
      expect(scan_init_exclusive, scans.exclusive_init[i]);
      expect(broadcast, x[src_lanes[w]]);
      defined_aggregate[t] = true;
      for (int a = 0; a < aggregate_slot_count; ++a)
      {
        const bool is_sum             = a <= aggregate_of_exclusive_sum;
        expected_aggregates[at(a, t)] = is_sum ? sums.aggregate : scans.aggregate;
      }
    }
  }

  device_buffer<T> d_in(in);
  device_buffer<T> d_initial_values(initial_values);
  device_buffer<unsigned int> d_src_lanes(src_lanes);
  device_buffer<T> d_out(expected.size());
  device_buffer<T> d_aggregates(expected_aggregates.size());
  d_out.poison();
  d_aggregates.poison();
  warp_scan_kernel<LOGICAL_WARP_THREADS, BLOCK_THREADS>
      <<<1, n>>>(d_in.data(), d_initial_values.data(), d_src_lanes.data(), op, d_out.data(), d_aggregates.data());
  check_launch();
  const std::vector<T> out        = d_out.download();
  const std::vector<T> aggregates = d_aggregates.download();

  // Each output is compared on the lanes where it is defined (the others keep the poison).
  const bool is_sum_op = std::is_same_v<OpT, ::cuda::std::plus<>>;
  for (int slot = 0; slot < scan_slot_count; ++slot)
  {
    const bool uses_plus = slot <= exclusive_sum_aggregate || (is_sum_op && slot != broadcast);
    std::vector<T> want, got;
    for (int t = 0; t < n; ++t)
    {
      if (defined[at(slot, t)])
      {
        want.push_back(expected[at(slot, t)]);
        got.push_back(out[at(slot, t)]);
      }
    }
    INFO(scan_slot_name(slot));
    check_equal(want, got, uses_plus ? sum_tolerance<T>() : 0.0);
  }
  for (int slot = 0; slot < aggregate_slot_count; ++slot)
  {
    const bool uses_plus = slot <= aggregate_of_exclusive_sum || is_sum_op;
    std::vector<T> want, got;
    for (int t = 0; t < n; ++t)
    {
      if (defined_aggregate[t])
      {
        want.push_back(expected_aggregates[at(slot, t)]);
        got.push_back(aggregates[at(slot, t)]);
      }
    }
    INFO(aggregate_slot_name(slot));
    check_equal(want, got, uses_plus ? sum_tolerance<T>() : 0.0);
  }
}
} // namespace strata_test

namespace Catch
{
template <>
struct StringMaker<strata_test::mat2x2>
{
  static std::string convert(const strata_test::mat2x2& m)
  {
    return "[[" + std::to_string(m.a) + ", " + std::to_string(m.b) + "], [" + std::to_string(m.c) + ", "
           + std::to_string(m.d) + "]]";
  }
};
} // namespace Catch

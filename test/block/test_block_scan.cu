// Tests of strata/block/block_scan.cuh: CUB's documented examples with their exact outputs
// (every algorithm), TempStorage in a union shared by the three algorithms, and compile-time
// properties. Every member over block shapes, item counts and types: test_block_scan_raking.cu
// and test_block_scan_warp_scans.cu.
#include <strata/block/block_scan.cuh>

#include "common/test_common.cuh"

#include <cuda/functional>

#include <climits>
#include <type_traits>
#include <vector>

namespace
{
constexpr int example_threads = 128;
//! Room for every example's output: two tiles of 128 threads x 4 items.
constexpr int example_slot = 2 * example_threads * 4;

//! CUB's running-total prefix callback: returns the total so far, then adds the block aggregate.
struct running_total_op
{
  int running_total;
  __device__ int operator()(int block_aggregate)
  {
    const int old_prefix = running_total;
    running_total += block_aggregate;
    return old_prefix;
  }
};

//! CUB's running-maximum prefix callback.
struct running_max_op
{
  int running_total;
  __device__ int operator()(int block_aggregate)
  {
    const int old_prefix = running_total;
    running_total        = block_aggregate > old_prefix ? block_aggregate : old_prefix;
    return old_prefix;
  }
};

//! The documented inputs: all ones, or 0, -1, 2, -3, ... by position in the input.
__host__ __device__ int example_input(int position, bool alternating)
{
  return !alternating ? 1 : position % 2 == 0 ? position : -position;
}

//! The calling thread's IPT consecutive items of tile `tile`.
template <int IPT>
__device__ void load_example(int (&items)[IPT], int tile, bool alternating)
{
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    items[i] = example_input((tile * example_threads + static_cast<int>(threadIdx.x)) * IPT + i, alternating);
  }
}

template <int IPT>
__device__ void store_example(int* out, int tile, const int (&items)[IPT])
{
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    out[(tile * example_threads + static_cast<int>(threadIdx.x)) * IPT + i] = items[i];
  }
}

//! The documented examples, in the order of the kernel below.
enum example : int
{
  class_exclusive_sum,           // ExclusiveSum of 4 ones per thread (the class example)
  exclusive_sum,                 // ExclusiveSum of one 1 per thread
  exclusive_sum_aggregate,       //   ... with block_aggregate
  exclusive_sum_callback,        //   ... with a running total over two tiles
  exclusive_sum_items_aggregate, // ExclusiveSum of 4 ones per thread, block_aggregate
  exclusive_sum_items_callback,  //   ... with a running total over two tiles
  exclusive_max,                 // ExclusiveScan max from INT_MIN of 0, -1, 2, -3, ...
  exclusive_max_aggregate,       //   ... with block_aggregate
  exclusive_max_callback,        //   ... seeded by a running maximum over two tiles
  exclusive_max_items,           // the same with 4 items per thread
  exclusive_max_items_aggregate, //   ... with block_aggregate
  exclusive_max_items_callback,  //   ... seeded by a running maximum over two tiles
  inclusive_sum,                 // InclusiveSum of one 1 per thread
  inclusive_sum_aggregate,       //   ... with block_aggregate
  inclusive_sum_callback,        //   ... with a running total over two tiles
  inclusive_sum_items,           // InclusiveSum of 4 ones per thread
  inclusive_sum_items_aggregate, //   ... with block_aggregate
  inclusive_sum_items_callback,  //   ... with a running total over two tiles
  inclusive_max,                 // InclusiveScan max of 0, -1, 2, -3, ...
  inclusive_max_aggregate,       //   ... with block_aggregate
  inclusive_max_callback,        //   ... with a running maximum from INT_MIN over two tiles
  inclusive_max_items,           // the same with 4 items per thread
  inclusive_max_items_aggregate, //   ... with block_aggregate
  inclusive_max_items_callback,  //   ... with a running maximum from 0 over two tiles
  example_count
};

//! Every documented example of BlockScan<int, 128, ALGORITHM>, one after the other on one
//! TempStorage. Each writes its tiles to its slot of `out`; the ones with an aggregate write
//! every thread's to `aggregates`.
template <strata::BlockScanAlgorithm ALGORITHM>
__global__ void __launch_bounds__(example_threads) documented_examples_kernel(int* out, int* aggregates)
{
  using BlockScanT = strata::BlockScan<int, example_threads, ALGORITHM>;
  __shared__ typename BlockScanT::TempStorage temp_storage;
  const auto slot      = [&](int e) { return out + e * example_slot; };
  const auto aggregate = [&](int e) -> int& { return aggregates[e * example_threads + threadIdx.x]; };
  int item[1];
  int items[4];
  int block_aggregate;

  load_example(items, 0, false);
  BlockScanT(temp_storage).ExclusiveSum(items, items);
  store_example(slot(class_exclusive_sum), 0, items);
  __syncthreads();

  load_example(item, 0, false);
  BlockScanT(temp_storage).ExclusiveSum(item[0], item[0]);
  store_example(slot(exclusive_sum), 0, item);
  __syncthreads();
  load_example(item, 0, false);
  BlockScanT(temp_storage).ExclusiveSum(item[0], item[0], block_aggregate);
  store_example(slot(exclusive_sum_aggregate), 0, item);
  aggregate(exclusive_sum_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_total_op prefix_op{0};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(item, tile, false);
      BlockScanT(temp_storage).ExclusiveSum(item[0], item[0], prefix_op);
      __syncthreads();
      store_example(slot(exclusive_sum_callback), tile, item);
    }
  }
  load_example(items, 0, false);
  BlockScanT(temp_storage).ExclusiveSum(items, items, block_aggregate);
  store_example(slot(exclusive_sum_items_aggregate), 0, items);
  aggregate(exclusive_sum_items_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_total_op prefix_op{0};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(items, tile, false);
      BlockScanT(temp_storage).ExclusiveSum(items, items, prefix_op);
      __syncthreads();
      store_example(slot(exclusive_sum_items_callback), tile, items);
    }
  }

  load_example(item, 0, true);
  BlockScanT(temp_storage).ExclusiveScan(item[0], item[0], INT_MIN, cuda::maximum<>{});
  store_example(slot(exclusive_max), 0, item);
  __syncthreads();
  load_example(item, 0, true);
  BlockScanT(temp_storage).ExclusiveScan(item[0], item[0], INT_MIN, cuda::maximum<>{}, block_aggregate);
  store_example(slot(exclusive_max_aggregate), 0, item);
  aggregate(exclusive_max_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_max_op prefix_op{INT_MIN};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(item, tile, true);
      BlockScanT(temp_storage).ExclusiveScan(item[0], item[0], cuda::maximum<>{}, prefix_op);
      __syncthreads();
      store_example(slot(exclusive_max_callback), tile, item);
    }
  }
  load_example(items, 0, true);
  BlockScanT(temp_storage).ExclusiveScan(items, items, INT_MIN, cuda::maximum<>{});
  store_example(slot(exclusive_max_items), 0, items);
  __syncthreads();
  load_example(items, 0, true);
  BlockScanT(temp_storage).ExclusiveScan(items, items, INT_MIN, cuda::maximum<>{}, block_aggregate);
  store_example(slot(exclusive_max_items_aggregate), 0, items);
  aggregate(exclusive_max_items_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_max_op prefix_op{INT_MIN};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(items, tile, true);
      BlockScanT(temp_storage).ExclusiveScan(items, items, cuda::maximum<>{}, prefix_op);
      __syncthreads();
      store_example(slot(exclusive_max_items_callback), tile, items);
    }
  }

  load_example(item, 0, false);
  BlockScanT(temp_storage).InclusiveSum(item[0], item[0]);
  store_example(slot(inclusive_sum), 0, item);
  __syncthreads();
  load_example(item, 0, false);
  BlockScanT(temp_storage).InclusiveSum(item[0], item[0], block_aggregate);
  store_example(slot(inclusive_sum_aggregate), 0, item);
  aggregate(inclusive_sum_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_total_op prefix_op{0};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(item, tile, false);
      BlockScanT(temp_storage).InclusiveSum(item[0], item[0], prefix_op);
      __syncthreads();
      store_example(slot(inclusive_sum_callback), tile, item);
    }
  }
  load_example(items, 0, false);
  BlockScanT(temp_storage).InclusiveSum(items, items);
  store_example(slot(inclusive_sum_items), 0, items);
  __syncthreads();
  load_example(items, 0, false);
  BlockScanT(temp_storage).InclusiveSum(items, items, block_aggregate);
  store_example(slot(inclusive_sum_items_aggregate), 0, items);
  aggregate(inclusive_sum_items_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_total_op prefix_op{0};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(items, tile, false);
      BlockScanT(temp_storage).InclusiveSum(items, items, prefix_op);
      __syncthreads();
      store_example(slot(inclusive_sum_items_callback), tile, items);
    }
  }

  load_example(item, 0, true);
  BlockScanT(temp_storage).InclusiveScan(item[0], item[0], cuda::maximum<>{});
  store_example(slot(inclusive_max), 0, item);
  __syncthreads();
  load_example(item, 0, true);
  BlockScanT(temp_storage).InclusiveScan(item[0], item[0], cuda::maximum<>{}, block_aggregate);
  store_example(slot(inclusive_max_aggregate), 0, item);
  aggregate(inclusive_max_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_max_op prefix_op{INT_MIN};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(item, tile, true);
      BlockScanT(temp_storage).InclusiveScan(item[0], item[0], cuda::maximum<>{}, prefix_op);
      __syncthreads();
      store_example(slot(inclusive_max_callback), tile, item);
    }
  }
  load_example(items, 0, true);
  BlockScanT(temp_storage).InclusiveScan(items, items, cuda::maximum<>{});
  store_example(slot(inclusive_max_items), 0, items);
  __syncthreads();
  load_example(items, 0, true);
  BlockScanT(temp_storage).InclusiveScan(items, items, cuda::maximum<>{}, block_aggregate);
  store_example(slot(inclusive_max_items_aggregate), 0, items);
  aggregate(inclusive_max_items_aggregate) = block_aggregate;
  __syncthreads();
  {
    running_max_op prefix_op{0};
    for (int tile = 0; tile < 2; ++tile)
    {
      load_example(items, tile, true);
      BlockScanT(temp_storage).InclusiveScan(items, items, cuda::maximum<>{}, prefix_op);
      __syncthreads();
      store_example(slot(inclusive_max_items_callback), tile, items);
    }
  }
}

//! CUB's 64-thread example of InclusiveScan over 2 items per thread seeded with 1 (max), with
//! and without block_aggregate.
template <strata::BlockScanAlgorithm ALGORITHM>
__global__ void __launch_bounds__(64) inclusive_init_example_kernel(int* out, int* out_with_aggregate, int* aggregates)
{
  using BlockScanT = strata::BlockScan<int, 64, ALGORITHM>;
  __shared__ typename BlockScanT::TempStorage temp_storage;
  const int t       = static_cast<int>(threadIdx.x);
  int thread_data[] = {2 * t, -(2 * t + 1)}; // {[0, -1], [2, -3], ..., [126, -127]}
  BlockScanT(temp_storage).InclusiveScan(thread_data, thread_data, 1, cuda::maximum<>{});
  out[2 * t]     = thread_data[0];
  out[2 * t + 1] = thread_data[1];
  __syncthreads();
  int more_data[] = {2 * t, -(2 * t + 1)};
  int block_aggregate;
  BlockScanT(temp_storage).InclusiveScan(more_data, more_data, 1, cuda::maximum<>{}, block_aggregate);
  out_with_aggregate[2 * t]     = more_data[0];
  out_with_aggregate[2 * t + 1] = more_data[1];
  aggregates[t]                 = block_aggregate;
}

//! The documented output of each example over `positions` consecutive items (both tiles of the
//! callback examples).
struct expected_example
{
  int positions;
  int (*value)(int position); // the output at a position
  int aggregate;              // every thread's block_aggregate, where the example has one
};

int exclusive_count(int g)
{
  return g;
}
int inclusive_count(int g)
{
  return g + 1;
}
// Maxima of 0, -1, 2, -3, ...: inclusive up to g is the largest even position <= g; exclusive is
// that of g - 1, or the seed at 0.
int inclusive_even(int g)
{
  return g / 2 * 2;
}
int exclusive_even(int g)
{
  return g == 0 ? INT_MIN : (g - 1) / 2 * 2;
}

expected_example expected_output(int e)
{
  constexpr int one_tile     = example_threads;
  constexpr int four_tile    = 4 * example_threads;
  constexpr int no_aggregate = 0;
  switch (e)
  {
  case class_exclusive_sum:
    return {four_tile, exclusive_count, no_aggregate};
  case exclusive_sum:
    return {one_tile, exclusive_count, no_aggregate};
  case exclusive_sum_aggregate:
    return {one_tile, exclusive_count, 128};
  case exclusive_sum_callback:
    return {2 * one_tile, exclusive_count, no_aggregate};
  case exclusive_sum_items_aggregate:
    return {four_tile, exclusive_count, 512};
  case exclusive_sum_items_callback:
    return {2 * four_tile, exclusive_count, no_aggregate};
  case exclusive_max:
    return {one_tile, exclusive_even, no_aggregate};
  case exclusive_max_aggregate:
    return {one_tile, exclusive_even, 126};
  case exclusive_max_callback:
    return {2 * one_tile, exclusive_even, no_aggregate};
  case exclusive_max_items:
    return {four_tile, exclusive_even, no_aggregate};
  case exclusive_max_items_aggregate:
    return {four_tile, exclusive_even, 510};
  case exclusive_max_items_callback:
    return {2 * four_tile, exclusive_even, no_aggregate};
  case inclusive_sum:
    return {one_tile, inclusive_count, no_aggregate};
  case inclusive_sum_aggregate:
    return {one_tile, inclusive_count, 128};
  case inclusive_sum_callback:
    return {2 * one_tile, inclusive_count, no_aggregate};
  case inclusive_sum_items:
    return {four_tile, inclusive_count, no_aggregate};
  case inclusive_sum_items_aggregate:
    return {four_tile, inclusive_count, 512};
  case inclusive_sum_items_callback:
    return {2 * four_tile, inclusive_count, no_aggregate};
  case inclusive_max:
    return {one_tile, inclusive_even, no_aggregate};
  case inclusive_max_aggregate:
    return {one_tile, inclusive_even, 126};
  case inclusive_max_callback:
    return {2 * one_tile, inclusive_even, no_aggregate};
  case inclusive_max_items:
    return {four_tile, inclusive_even, no_aggregate};
  case inclusive_max_items_aggregate:
    return {four_tile, inclusive_even, 510};
  default:
    return {2 * four_tile, inclusive_even, no_aggregate};
  }
}

template <strata::BlockScanAlgorithm ALGORITHM>
void check_documented_examples()
{
  INFO("algorithm " << static_cast<int>(ALGORITHM));
  strata_test::device_buffer<int> d_out(example_count * example_slot);
  strata_test::device_buffer<int> d_aggregates(example_count * example_threads);
  d_out.poison();
  d_aggregates.poison();
  documented_examples_kernel<ALGORITHM><<<1, example_threads>>>(d_out.data(), d_aggregates.data());
  strata_test::check_launch();
  const std::vector<int> out        = d_out.download();
  const std::vector<int> aggregates = d_aggregates.download();
  for (int e = 0; e < example_count; ++e)
  {
    INFO("example " << e);
    const expected_example expected = expected_output(e);
    std::vector<int> want(static_cast<std::size_t>(expected.positions));
    for (int g = 0; g < expected.positions; ++g)
    {
      want[static_cast<std::size_t>(g)] = expected.value(g);
    }
    const auto first = out.begin() + e * example_slot;
    strata_test::check_equal(want, std::vector<int>(first, first + expected.positions));
    if (expected.aggregate != 0)
    {
      const auto agg = aggregates.begin() + e * example_threads;
      strata_test::check_equal(std::vector<int>(example_threads, expected.aggregate),
                               std::vector<int>(agg, agg + example_threads));
    }
  }

  strata_test::device_buffer<int> d_init(128), d_init_aggregate(128), d_init_aggregates(64);
  d_init.poison();
  d_init_aggregate.poison();
  d_init_aggregates.poison();
  inclusive_init_example_kernel<ALGORITHM><<<1, 64>>>(d_init.data(), d_init_aggregate.data(), d_init_aggregates.data());
  strata_test::check_launch();
  // {[1, 1], [2, 2], [4, 4], ..., [126, 126]}, block_aggregate 126
  std::vector<int> want(128);
  for (int g = 0; g < 128; ++g)
  {
    want[static_cast<std::size_t>(g)] = g < 2 ? 1 : g / 2 * 2;
  }
  INFO("InclusiveScan of 2 items per thread seeded with 1");
  strata_test::check_equal(want, d_init.download());
  strata_test::check_equal(want, d_init_aggregate.download());
  strata_test::check_equal(std::vector<int>(64, 126), d_init_aggregates.download());
}

//! One TempStorage union for the three algorithms of a 256-thread block, reused after
//! __syncthreads(): each algorithm's inclusive sum of 3 items per thread goes to its own output.
__global__ void __launch_bounds__(256) union_kernel(const int* in, int* out)
{
  using RakingT   = strata::BlockScan<int, 256, strata::BLOCK_SCAN_RAKING>;
  using MemoizeT  = strata::BlockScan<int, 256, strata::BLOCK_SCAN_RAKING_MEMOIZE>;
  using WarpScanT = strata::BlockScan<int, 256, strata::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union
  {
    RakingT::TempStorage raking;
    MemoizeT::TempStorage memoize;
    WarpScanT::TempStorage warp_scans;
  } temp_storage;
  const int t = static_cast<int>(threadIdx.x);
  int items[3];
  const auto load = [&]
  {
#pragma unroll
    for (int i = 0; i < 3; ++i)
    {
      items[i] = in[3 * t + i];
    }
  };
  const auto store = [&](int pass)
  {
#pragma unroll
    for (int i = 0; i < 3; ++i)
    {
      out[pass * 768 + 3 * t + i] = items[i];
    }
  };
  load();
  RakingT(temp_storage.raking).InclusiveSum(items, items);
  store(0);
  __syncthreads();
  load();
  WarpScanT(temp_storage.warp_scans).InclusiveSum(items, items);
  store(1);
  __syncthreads();
  load();
  MemoizeT(temp_storage.memoize).InclusiveSum(items, items);
  store(2);
  __syncthreads();
  load();
  WarpScanT(temp_storage.warp_scans).InclusiveSum(items, items);
  store(3);
}
} // namespace

TEST_CASE("BlockScan: CUB's documented examples, with every algorithm", "[block][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_documented_examples<strata::BLOCK_SCAN_RAKING>();
  check_documented_examples<strata::BLOCK_SCAN_RAKING_MEMOIZE>();
  check_documented_examples<strata::BLOCK_SCAN_WARP_SCANS>();
}

TEST_CASE("BlockScan: one TempStorage union for every algorithm, reused after __syncthreads", "[block][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(3);
  INFO("seed " << seed);
  const std::vector<int> in = strata_test::random_vector<int>(768, seed, -1000, 1000);
  std::vector<int> sums(768);
  int running = 0;
  for (int g = 0; g < 768; ++g)
  {
    running += in[static_cast<std::size_t>(g)];
    sums[static_cast<std::size_t>(g)] = running;
  }
  strata_test::device_buffer<int> d_in(in), d_out(4 * 768);
  d_out.poison();
  union_kernel<<<1, 256>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  std::vector<int> expected;
  for (int pass = 0; pass < 4; ++pass)
  {
    expected.insert(expected.end(), sums.begin(), sums.end());
  }
  strata_test::check_equal(expected, d_out.download());
}

TEST_CASE("BlockScan: algorithm values, TempStorage fit for unions, raking for blocks of partial warps",
          "[block][scan]")
{
  STATIC_REQUIRE(strata::BLOCK_SCAN_RAKING == 0);
  STATIC_REQUIRE(strata::BLOCK_SCAN_RAKING_MEMOIZE == 1);
  STATIC_REQUIRE(strata::BLOCK_SCAN_WARP_SCANS == 2);
  // A union member and a __shared__ variable need a trivial default constructor.
  STATIC_REQUIRE(std::is_trivially_default_constructible_v<strata::BlockScan<__half, 96>::TempStorage>);
  STATIC_REQUIRE(std::is_trivially_default_constructible_v<
                 strata::BlockScan<strata_test::custom_t, 128, strata::BLOCK_SCAN_WARP_SCANS>::TempStorage>);
  STATIC_REQUIRE(std::is_trivially_default_constructible_v<
                 strata::BlockScan<double, 8, strata::BLOCK_SCAN_RAKING_MEMOIZE, 4, 2>::TempStorage>);
  // WARP_SCANS needs whole warps; 80 threads fall back to raking (one shared-memory grid), while
  // 96 threads keep three warp aggregates and no grid.
  STATIC_REQUIRE(sizeof(strata::BlockScan<int, 80, strata::BLOCK_SCAN_WARP_SCANS>::TempStorage)
                 == sizeof(strata::BlockScan<int, 80, strata::BLOCK_SCAN_RAKING>::TempStorage));
  STATIC_REQUIRE(sizeof(strata::BlockScan<int, 96, strata::BLOCK_SCAN_WARP_SCANS>::TempStorage)
                 < sizeof(strata::BlockScan<int, 96, strata::BLOCK_SCAN_RAKING>::TempStorage));
}

// test/block/block_scan_checks.cuh: what the BlockScan member tests share: a test configuration
// (algorithm, block shape, items per thread, type, operator), a kernel that runs every BlockScan
// member over several tiles per block, and the check of its outputs against a sequential host
// reference (common/reference.cuh's, which also gives the non-commutative matrix product).
#pragma once

#include "common/reference.cuh"
#include "common/shapes.cuh"

#include <strata/block/block_scan.cuh>
#include <strata/util_ptx.cuh>

#include "common/test_common.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! Blocks per grid and tiles per block of every member test: each block scans its tiles in turn,
//! carrying the prefix callbacks' running prefixes from tile to tile.
inline constexpr int scan_blocks = 3;
inline constexpr int scan_tiles  = 3;

//! One member test: BlockScan<T, BX, ALGORITHM, BY, BZ> over IPT items per thread; sums use +,
//! scans `OpT`.
template <typename T, strata::BlockScanAlgorithm ALGORITHM, int BX, int BY, int BZ, int IPT, typename OpT>
struct scan_config : block_shape<BX, BY, BZ, IPT>
{
  using type                                            = T;
  using op                                              = OpT;
  static constexpr strata::BlockScanAlgorithm algorithm = ALGORITHM;
};

//! The members, in the order the kernel calls them. Scalar members scan the first `threads`
//! items of a tile (thread t takes item t), array members the whole tile (blocked).
enum scan_member : int
{
  scalar_exclusive_sum,
  scalar_exclusive_sum_aggregate,
  scalar_exclusive_sum_callback,
  scalar_exclusive_scan_init,
  scalar_exclusive_scan_init_aggregate,
  scalar_exclusive_scan_callback,
  scalar_exclusive_scan,
  scalar_exclusive_scan_aggregate,
  scalar_inclusive_sum,
  scalar_inclusive_sum_aggregate,
  scalar_inclusive_sum_callback,
  scalar_inclusive_scan,
  scalar_inclusive_scan_aggregate,
  scalar_inclusive_scan_callback,
  array_exclusive_sum,
  array_exclusive_sum_aggregate,
  array_exclusive_sum_callback,
  array_exclusive_scan_init,
  array_exclusive_scan_init_aggregate,
  array_exclusive_scan_callback,
  array_exclusive_scan,
  array_exclusive_scan_aggregate,
  array_inclusive_sum,
  array_inclusive_sum_aggregate,
  array_inclusive_sum_callback,
  array_inclusive_scan,
  array_inclusive_scan_init,
  array_inclusive_scan_aggregate,
  array_inclusive_scan_init_aggregate,
  array_inclusive_scan_callback,
  scan_member_count
};

//! How a member is seeded.
enum class scan_seed
{
  none,          //!< exclusive: the first item's output is undefined
  zero,          //!< sums: T{}
  initial_value, //!< the tile's initial value
  callback       //!< the running prefix of the member's callback
};

//! What the host reference needs to know about a member.
struct scan_member_info
{
  const char* name;
  bool array;
  bool sum;
  bool inclusive;
  scan_seed seed;
  int aggregate_slot; //!< where its block_aggregate goes, or -1
  int callback_slot;  //!< which prefix callback it uses, or -1
};

inline constexpr int scan_aggregate_slots = 11;
inline constexpr int scan_callback_slots  = 8;

inline const scan_member_info& member_info(int member)
{
  using s                                                  = scan_seed;
  static const scan_member_info members[scan_member_count] = {
      {"ExclusiveSum(item)", false, true, false, s::zero, -1, -1},
      {"ExclusiveSum(item, aggregate)", false, true, false, s::zero, 0, -1},
      {"ExclusiveSum(item, callback)", false, true, false, s::callback, -1, 0},
      {"ExclusiveScan(item, init)", false, false, false, s::initial_value, -1, -1},
      {"ExclusiveScan(item, init, aggregate)", false, false, false, s::initial_value, 1, -1},
      {"ExclusiveScan(item, callback)", false, false, false, s::callback, -1, 1},
      {"ExclusiveScan(item)", false, false, false, s::none, -1, -1},
      {"ExclusiveScan(item, aggregate)", false, false, false, s::none, 2, -1},
      {"InclusiveSum(item)", false, true, true, s::none, -1, -1},
      {"InclusiveSum(item, aggregate)", false, true, true, s::none, 3, -1},
      {"InclusiveSum(item, callback)", false, true, true, s::callback, -1, 2},
      {"InclusiveScan(item)", false, false, true, s::none, -1, -1},
      {"InclusiveScan(item, aggregate)", false, false, true, s::none, 4, -1},
      {"InclusiveScan(item, callback)", false, false, true, s::callback, -1, 3},
      {"ExclusiveSum(items)", true, true, false, s::zero, -1, -1},
      {"ExclusiveSum(items, aggregate)", true, true, false, s::zero, 5, -1},
      {"ExclusiveSum(items, callback)", true, true, false, s::callback, -1, 4},
      {"ExclusiveScan(items, init)", true, false, false, s::initial_value, -1, -1},
      {"ExclusiveScan(items, init, aggregate)", true, false, false, s::initial_value, 6, -1},
      {"ExclusiveScan(items, callback)", true, false, false, s::callback, -1, 5},
      {"ExclusiveScan(items)", true, false, false, s::none, -1, -1},
      {"ExclusiveScan(items, aggregate)", true, false, false, s::none, 7, -1},
      {"InclusiveSum(items)", true, true, true, s::none, -1, -1},
      {"InclusiveSum(items, aggregate)", true, true, true, s::none, 8, -1},
      {"InclusiveSum(items, callback)", true, true, true, s::callback, -1, 6},
      {"InclusiveScan(items)", true, false, true, s::none, -1, -1},
      {"InclusiveScan(items, init)", true, false, true, s::initial_value, -1, -1},
      {"InclusiveScan(items, aggregate)", true, false, true, s::none, 9, -1},
      {"InclusiveScan(items, init, aggregate)", true, false, true, s::initial_value, 10, -1},
      {"InclusiveScan(items, callback)", true, false, true, s::callback, -1, 7},
  };
  return members[member];
}

//! A stateful prefix callback as in CUB's examples: returns the running prefix and then folds
//! the block aggregate into it. Only thread 0's return value may seed the scan, so the other
//! threads return something else (the aggregate). The running prefix lives in global memory (one
//! per thread), which keeps the test kernel's registers free; `*calls` counts the calls.
template <typename T, typename OpT>
struct running_prefix
{
  T* running;
  int rank;
  int* calls;

  __device__ T operator()(T block_aggregate)
  {
    ++*calls;
    const T prefix = *running;
    *running       = static_cast<T>(OpT{}(prefix, block_aggregate));
    return rank == 0 ? prefix : block_aggregate;
  }
};

//! The kernel's buffers. Chunk c = block * scan_tiles + tile.
template <typename T>
struct scan_buffers
{
  const T* in;             //!< [chunk][tile items]
  const T* initial_values; //!< [chunk]
  const T* callback_seeds; //!< [callback slot][block]: each callback's first prefix
  T* out;                  //!< [member][chunk][tile items]; scalar members fill the first `threads`
  T* aggregates;           //!< [aggregate slot][chunk][thread]
  T* running_prefixes;     //!< [callback slot][block][thread]: the callbacks' running prefixes
  int* calls;              //!< [block][thread]: prefix callback calls
};

template <int IPT, typename T>
__device__ void store_tile_items(T* chunk_out, int rank, const T (&items)[IPT])
{
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    chunk_out[rank * IPT + i] = items[i];
  }
}

//! Every BlockScan member, called in turn by every block on each of its tiles: most calls on one
//! TempStorage, nine of them on the private storage of the default constructor, always with
//! __syncthreads() in between; outputs alias inputs in about half of them.
template <typename ConfigT>
__global__ void __launch_bounds__(ConfigT::threads) every_member_kernel(scan_buffers<typename ConfigT::type> buf)
{
  using T               = typename ConfigT::type;
  using OpT             = typename ConfigT::op;
  using plus            = ::cuda::std::plus<>;
  constexpr int IPT     = ConfigT::items;
  constexpr int THREADS = ConfigT::threads;
  constexpr int TILE    = ConfigT::tile;
  constexpr int CHUNKS  = scan_blocks * scan_tiles;
  using BlockScanT =
      strata::BlockScan<T, ConfigT::block_dim_x, ConfigT::algorithm, ConfigT::block_dim_y, ConfigT::block_dim_z>;
  __shared__ typename BlockScanT::TempStorage temp_storage;

  const int rank     = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block    = static_cast<int>(blockIdx.x);
  int* const calls   = buf.calls + block * THREADS + rank;
  *calls             = 0;
  const auto running = [&](int slot) { return buf.running_prefixes + (slot * scan_blocks + block) * THREADS + rank; };
  for (int slot = 0; slot < scan_callback_slots; ++slot)
  {
    *running(slot) = buf.callback_seeds[slot * scan_blocks + block];
  }
  // The prefix callbacks of the sum members (plus) and of the scan members (op).
  const auto sum_prefix  = [&](int slot) { return running_prefix<T, plus>{running(slot), rank, calls}; };
  const auto scan_prefix = [&](int slot) { return running_prefix<T, OpT>{running(slot), rank, calls}; };
  OpT op{};

  for (int tile = 0; tile < scan_tiles; ++tile)
  {
    const int chunk      = block * scan_tiles + tile;
    const T* const x     = buf.in + chunk * TILE;
    const T input        = x[rank];
    const T init         = buf.initial_values[chunk];
    const auto out       = [&](int member) { return buf.out + (member * CHUNKS + chunk) * TILE; };
    const auto aggregate = [&](int slot) -> T& { return buf.aggregates[(slot * CHUNKS + chunk) * THREADS + rank]; };
    T items[IPT];
    T result[IPT];
    const auto load = [&]
    {
#pragma unroll
      for (int i = 0; i < IPT; ++i)
      {
        items[i] = x[rank * IPT + i];
      }
    };
    T y = input;
    T agg;

    BlockScanT(temp_storage).ExclusiveSum(y, y);
    out(scalar_exclusive_sum)[rank] = y;
    __syncthreads();
    BlockScanT(temp_storage).ExclusiveSum(input, y, agg);
    out(scalar_exclusive_sum_aggregate)[rank] = y;
    aggregate(0)                              = agg;
    __syncthreads();
    auto prefix_op0 = sum_prefix(0);
    BlockScanT().ExclusiveSum(input, y, prefix_op0);
    out(scalar_exclusive_sum_callback)[rank] = y;
    __syncthreads();
    y = input;
    BlockScanT(temp_storage).ExclusiveScan(y, y, init, op);
    out(scalar_exclusive_scan_init)[rank] = y;
    __syncthreads();
    BlockScanT(temp_storage).ExclusiveScan(input, y, init, op, agg);
    out(scalar_exclusive_scan_init_aggregate)[rank] = y;
    aggregate(1)                                    = agg;
    __syncthreads();
    auto prefix_op1 = scan_prefix(1);
    BlockScanT().ExclusiveScan(input, y, op, prefix_op1);
    out(scalar_exclusive_scan_callback)[rank] = y;
    __syncthreads();
    y = input;
    BlockScanT(temp_storage).ExclusiveScan(y, y, op);
    out(scalar_exclusive_scan)[rank] = y;
    __syncthreads();
    BlockScanT(temp_storage).ExclusiveScan(input, y, op, agg);
    out(scalar_exclusive_scan_aggregate)[rank] = y;
    aggregate(2)                               = agg;
    __syncthreads();
    BlockScanT().InclusiveSum(input, y);
    out(scalar_inclusive_sum)[rank] = y;
    __syncthreads();
    y = input;
    BlockScanT(temp_storage).InclusiveSum(y, y, agg);
    out(scalar_inclusive_sum_aggregate)[rank] = y;
    aggregate(3)                              = agg;
    __syncthreads();
    auto prefix_op2 = sum_prefix(2);
    BlockScanT(temp_storage).InclusiveSum(input, y, prefix_op2);
    out(scalar_inclusive_sum_callback)[rank] = y;
    __syncthreads();
    BlockScanT().InclusiveScan(input, y, op);
    out(scalar_inclusive_scan)[rank] = y;
    __syncthreads();
    BlockScanT(temp_storage).InclusiveScan(input, y, op, agg);
    out(scalar_inclusive_scan_aggregate)[rank] = y;
    aggregate(4)                               = agg;
    __syncthreads();
    y               = input;
    auto prefix_op3 = scan_prefix(3);
    BlockScanT(temp_storage).InclusiveScan(y, y, op, prefix_op3);
    out(scalar_inclusive_scan_callback)[rank] = y;
    __syncthreads();

    load();
    BlockScanT(temp_storage).ExclusiveSum(items, items);
    store_tile_items(out(array_exclusive_sum), rank, items);
    __syncthreads();
    load();
    BlockScanT().ExclusiveSum(items, result, agg);
    store_tile_items(out(array_exclusive_sum_aggregate), rank, result);
    aggregate(5) = agg;
    __syncthreads();
    auto prefix_op4 = sum_prefix(4);
    BlockScanT(temp_storage).ExclusiveSum(items, items, prefix_op4);
    store_tile_items(out(array_exclusive_sum_callback), rank, items);
    __syncthreads();
    load();
    BlockScanT(temp_storage).ExclusiveScan(items, result, init, op);
    store_tile_items(out(array_exclusive_scan_init), rank, result);
    __syncthreads();
    BlockScanT().ExclusiveScan(items, items, init, op, agg);
    store_tile_items(out(array_exclusive_scan_init_aggregate), rank, items);
    aggregate(6) = agg;
    __syncthreads();
    load();
    auto prefix_op5 = scan_prefix(5);
    BlockScanT(temp_storage).ExclusiveScan(items, result, op, prefix_op5);
    store_tile_items(out(array_exclusive_scan_callback), rank, result);
    __syncthreads();
    BlockScanT(temp_storage).ExclusiveScan(items, result, op);
    store_tile_items(out(array_exclusive_scan), rank, result);
    __syncthreads();
    BlockScanT().ExclusiveScan(items, items, op, agg);
    store_tile_items(out(array_exclusive_scan_aggregate), rank, items);
    aggregate(7) = agg;
    __syncthreads();
    load();
    BlockScanT(temp_storage).InclusiveSum(items, result);
    store_tile_items(out(array_inclusive_sum), rank, result);
    __syncthreads();
    BlockScanT(temp_storage).InclusiveSum(items, result, agg);
    store_tile_items(out(array_inclusive_sum_aggregate), rank, result);
    aggregate(8) = agg;
    __syncthreads();
    auto prefix_op6 = sum_prefix(6);
    BlockScanT().InclusiveSum(items, items, prefix_op6);
    store_tile_items(out(array_inclusive_sum_callback), rank, items);
    __syncthreads();
    load();
    BlockScanT(temp_storage).InclusiveScan(items, result, op);
    store_tile_items(out(array_inclusive_scan), rank, result);
    __syncthreads();
    BlockScanT(temp_storage).InclusiveScan(items, result, init, op);
    store_tile_items(out(array_inclusive_scan_init), rank, result);
    __syncthreads();
    BlockScanT().InclusiveScan(items, result, op, agg);
    store_tile_items(out(array_inclusive_scan_aggregate), rank, result);
    aggregate(9) = agg;
    __syncthreads();
    BlockScanT(temp_storage).InclusiveScan(items, result, init, op, agg);
    store_tile_items(out(array_inclusive_scan_init_aggregate), rank, result);
    aggregate(10) = agg;
    __syncthreads();
    auto prefix_op7 = scan_prefix(7);
    BlockScanT(temp_storage).InclusiveScan(items, items, op, prefix_op7);
    store_tile_items(out(array_inclusive_scan_callback), rank, items);
    __syncthreads();
  }
}

//! The largest magnitude of the inputs of a test whose sums must be exact: floating-point sums
//! are exact when every partial sum is an integer the type represents exactly (2^24 for float,
//! 2^11 for __half, 2^8 for __nv_bfloat16), whatever order the block adds in. A callback's running
//! prefix adds up to scan_tiles tiles plus its seed and an initial value.
template <typename T>
int exact_input_bound(int tile)
{
  const double exact = std::is_same_v<T, __half>          ? 0x1p11
                       : std::is_same_v<T, __nv_bfloat16> ? 0x1p8
                       : std::is_same_v<T, float>         ? 0x1p24
                                                          : 0x1p53;
  const double bound = exact / (scan_tiles * tile + 2);
  return bound < 100 ? static_cast<int>(bound) : 100;
}

//! Inputs of a member test: unsigned integers, custom_t and matrices over their whole range (they
//! wrap); int8_t/int16_t too (their sums are computed in int and wrap when converted back);
//! int32_t/int64_t small enough not to overflow; floating point integers in
//! [-exact_input_bound, exact_input_bound], so that sums are exact.
template <typename T>
std::vector<T> member_inputs(std::size_t n, std::uint64_t seed, int tile)
{
  if constexpr (std::is_same_v<T, mat2x2>)
  {
    return scan_inputs<mat2x2>(n, seed);
  }
  else if constexpr (is_floating_v<T>)
  {
    const int bound                 = exact_input_bound<T>(tile);
    const std::vector<int> integers = random_vector<int>(n, seed, -bound, bound);
    std::vector<T> values(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      values[i] = from_double<T>(integers[i]);
    }
    return values;
  }
  else if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>)
  {
    return random_vector<T>(n, seed, -1000.0, 1000.0);
  }
  else
  {
    return random_vector<T>(n, seed);
  }
}

//! The host reference's a op b (floating point in double, exact here; everything else in T).
template <typename T, typename OpT>
T combine(const T& a, const T& b, OpT op)
{
  return from_reference<T>(static_cast<reference_t<T>>(op(to_reference(a), to_reference(b))));
}

//! The reference outputs of `member` over x (seeded with `seed` where the member has a seed),
//! and the reduction of x in `aggregate`.
template <typename T, typename OpT>
std::vector<T> reference_outputs(const std::vector<T>& x, const T& seed, OpT op, const scan_member_info& info,
                                 T& aggregate)
{
  const scan_reference<T, OpT> ref(x, seed, op);
  aggregate         = ref.aggregate;
  const bool seeded = info.seed != scan_seed::none;
  return info.inclusive ? (seeded ? ref.inclusive_init : ref.inclusive) : (seeded ? ref.exclusive_init : ref.exclusive);
}

//! Runs every member of BlockScan for ConfigT and checks every output CUB defines: each tile's
//! scans, each thread's block aggregates, thread 0's running prefix after the last tile, and
//! that the prefix callbacks ran in thread 0 once per call and never outside the first warp.
template <typename ConfigT>
void check_every_member(std::uint64_t salt)
{
  using T               = typename ConfigT::type;
  using OpT             = typename ConfigT::op;
  using plus            = ::cuda::std::plus<>;
  constexpr int THREADS = ConfigT::threads;
  constexpr int TILE    = ConfigT::tile;
  constexpr int CHUNKS  = scan_blocks * scan_tiles;
  const auto seed       = strata_test::seed(salt);
  INFO("algorithm " << static_cast<int>(ConfigT::algorithm) << ", block " << ConfigT::block_dim_x << "x"
                    << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", " << ConfigT::items
                    << " items per thread, seed " << seed);
  if constexpr (is_floating_v<T>)
  {
    REQUIRE(exact_input_bound<T>(TILE) >= 2); // the configuration is small enough for exact sums
  }

  const std::vector<T> in             = member_inputs<T>(static_cast<std::size_t>(CHUNKS) * TILE, seed, TILE);
  const std::vector<T> initial_values = member_inputs<T>(CHUNKS, seed + 1, TILE);
  const std::vector<T> callback_seeds = member_inputs<T>(scan_callback_slots * scan_blocks, seed + 2, TILE);

  const auto out_at = [](int member, int chunk, int i)
  { return (static_cast<std::size_t>(member) * CHUNKS + chunk) * TILE + i; };
  const auto aggregate_at = [](int slot, int chunk, int t)
  { return (static_cast<std::size_t>(slot) * CHUNKS + chunk) * THREADS + t; };
  std::vector<T> expected(out_at(scan_member_count, 0, 0));
  std::vector<bool> defined(expected.size(), false);
  std::vector<T> expected_aggregates(aggregate_at(scan_aggregate_slots, 0, 0));
  std::vector<T> expected_final(scan_callback_slots * scan_blocks); // [slot][block]

  for (int block = 0; block < scan_blocks; ++block)
  {
    std::vector<T> prefixes(scan_callback_slots);
    for (int slot = 0; slot < scan_callback_slots; ++slot)
    {
      prefixes[slot] = callback_seeds[slot * scan_blocks + block];
    }
    for (int tile = 0; tile < scan_tiles; ++tile)
    {
      const int chunk = block * scan_tiles + tile;
      const std::vector<T> items(in.begin() + chunk * TILE, in.begin() + (chunk + 1) * TILE);
      const std::vector<T> scalars(items.begin(), items.begin() + THREADS);
      for (int member = 0; member < scan_member_count; ++member)
      {
        const scan_member_info& info = member_info(member);
        const std::vector<T>& x      = info.array ? items : scalars;
        const T seed_value           = info.seed == scan_seed::initial_value ? initial_values[chunk]
                                       : info.seed == scan_seed::callback    ? prefixes[info.callback_slot]
                                                                             : T{};
        T aggregate{};
        const std::vector<T> scanned = info.sum ? reference_outputs(x, seed_value, plus{}, info, aggregate)
                                                : reference_outputs(x, seed_value, OpT{}, info, aggregate);
        for (std::size_t i = 0; i < x.size(); ++i)
        {
          expected[out_at(member, chunk, static_cast<int>(i))] = scanned[i];
          // Without a seed, the first item's exclusive output is undefined.
          defined[out_at(member, chunk, static_cast<int>(i))] = info.inclusive || info.seed != scan_seed::none || i > 0;
        }
        if (info.aggregate_slot >= 0)
        {
          for (int t = 0; t < THREADS; ++t)
          {
            expected_aggregates[aggregate_at(info.aggregate_slot, chunk, t)] = aggregate;
          }
        }
        if (info.callback_slot >= 0)
        {
          T& prefix = prefixes[info.callback_slot];
          prefix    = info.sum ? combine(prefix, aggregate, plus{}) : combine(prefix, aggregate, OpT{});
        }
      }
    }
    for (int slot = 0; slot < scan_callback_slots; ++slot)
    {
      expected_final[slot * scan_blocks + block] = prefixes[slot];
    }
  }

  device_buffer<T> d_in(in), d_initial_values(initial_values), d_callback_seeds(callback_seeds);
  device_buffer<T> d_out(expected.size()), d_aggregates(expected_aggregates.size());
  device_buffer<T> d_running(static_cast<std::size_t>(scan_callback_slots) * scan_blocks * THREADS);
  device_buffer<int> d_calls(static_cast<std::size_t>(scan_blocks) * THREADS);
  d_out.poison();
  d_aggregates.poison();
  d_running.poison();
  d_calls.poison();
  const scan_buffers<T> buffers{d_in.data(),         d_initial_values.data(), d_callback_seeds.data(), d_out.data(),
                                d_aggregates.data(), d_running.data(),        d_calls.data()};
  every_member_kernel<ConfigT>
      <<<scan_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(buffers);
  check_launch();
  const std::vector<T> out        = d_out.download();
  const std::vector<T> aggregates = d_aggregates.download();

  for (int member = 0; member < scan_member_count; ++member)
  {
    std::vector<T> want, got;
    for (int chunk = 0; chunk < CHUNKS; ++chunk)
    {
      for (int i = 0; i < TILE; ++i)
      {
        if (defined[out_at(member, chunk, i)])
        {
          want.push_back(expected[out_at(member, chunk, i)]);
          got.push_back(out[out_at(member, chunk, i)]);
        }
      }
    }
    INFO(member_info(member).name);
    check_equal(want, got);
  }
  for (int member = 0; member < scan_member_count; ++member)
  {
    const int slot = member_info(member).aggregate_slot;
    if (slot >= 0)
    {
      INFO(member_info(member).name << ": block_aggregate");
      const auto first = static_cast<std::ptrdiff_t>(aggregate_at(slot, 0, 0));
      const auto last  = static_cast<std::ptrdiff_t>(aggregate_at(slot + 1, 0, 0));
      check_equal(std::vector<T>(expected_aggregates.begin() + first, expected_aggregates.begin() + last),
                  std::vector<T>(aggregates.begin() + first, aggregates.begin() + last));
    }
  }
  {
    INFO("the callbacks' running prefixes in thread 0 after the last tile");
    const std::vector<T> running = d_running.download();
    std::vector<T> final_prefixes;
    for (std::size_t i = 0; i < expected_final.size(); ++i)
    {
      final_prefixes.push_back(running[i * THREADS]);
    }
    check_equal(expected_final, final_prefixes);
  }
  const std::vector<int> calls = d_calls.download();
  for (int block = 0; block < scan_blocks; ++block)
  {
    INFO("block " << block << ": prefix callback calls in thread 0, and in threads outside the first warp");
    CHECK(calls[static_cast<std::size_t>(block) * THREADS] == scan_callback_slots * scan_tiles);
    int outside_first_warp = 0;
    for (int t = 32; t < THREADS; ++t)
    {
      outside_first_warp += calls[static_cast<std::size_t>(block) * THREADS + t];
    }
    CHECK(outside_first_warp == 0);
  }
}
} // namespace strata_test

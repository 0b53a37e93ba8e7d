// Tests of strata/block/block_reduce.cuh: Sum and Reduce of one item, of an array (blocked) and
// of a partial tile, for every algorithm, every block shape in {32, 80, 128, 256, 1024, 16x8,
// 8x4x2} and every items-per-thread count in {1, 3, 4, 7, 11} (each shape with each count once,
// the algorithm rotating so that each meets every shape and every count), every type with each
// algorithm, and shapes that take the other code paths (1, 20, 90, 96, 160 threads). Several
// blocks per grid, each with its own data and num_valid; a non-commutative operator pins the
// order for BLOCK_REDUCE_RAKING and BLOCK_REDUCE_WARP_REDUCTIONS; CUB's documented example.
#include <strata/block/block_reduce.cuh>

#include "common/test_common.cuh"
#include "common/reference.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace
{
using strata::BLOCK_REDUCE_RAKING;
using strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY;
using strata::BLOCK_REDUCE_WARP_REDUCTIONS;
using strata_test::affine_compose;
using strata_test::affine_map;

//! Blocks per grid: one for each num_valid of block_num_valid.
constexpr int reduce_blocks = 8;

//! What each block's thread 0 writes, one slot per member call.
enum reduce_member : int
{
  slot_sum_items,    // Sum(items)
  slot_reduce_items, // Reduce(items, op), private storage
  slot_sum,          // Sum(item)
  slot_reduce,       // Reduce(item, op), private storage
  slot_sum_valid,    // Sum(item, num_valid)
  slot_reduce_valid, // Reduce(item, op, num_valid)
  reduce_member_count
};

//! Threads of a DX x DY x DZ block.
template <int DX, int DY, int DZ>
inline constexpr int threads_v = DX* DY* DZ;

//! The larger of two values by operator<: a user functor that is not one of the libcu++
//! operators, so integer reductions take the shuffle tree instead of redux.sync.
struct larger_of
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    return a < b ? b : a;
  }
};

//! Every member, in turn, on one block-sized tile per block: thread t (row-major rank) holds
//! items t * ITEMS .. t * ITEMS + ITEMS - 1 of its block's tile as its array, and item
//! BLOCK_THREADS - 1 - t of the tile as its single item, which it receives through shared
//! memory that BlockReduce's TempStorage then reuses (a union, after __syncthreads()). Half of
//! the calls use the private storage of the default constructor.
template <typename T, strata::BlockReduceAlgorithm ALGORITHM, int DX, int DY, int DZ, int ITEMS, typename OpT>
__global__ void __launch_bounds__(threads_v<DX, DY, DZ>)
    block_reduce_kernel(const T* in, const int* num_valid, OpT op, T* out)
{
  using BlockReduceT    = strata::BlockReduce<T, DX, ALGORITHM, DY, DZ>;
  constexpr int THREADS = DX * DY * DZ;
  union shared_t
  {
    typename BlockReduceT::TempStorage reduce;
    strata::Uninitialized<T[THREADS]> staging;
  };
  __shared__ shared_t shared;

  const int rank = static_cast<int>(threadIdx.x + DX * (threadIdx.y + DY * threadIdx.z));
  const T* tile  = in + static_cast<std::size_t>(blockIdx.x) * THREADS * ITEMS;
  T* block_out   = out + static_cast<std::size_t>(blockIdx.x) * reduce_member_count;
  T items[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = tile[rank * ITEMS + i];
  }
  shared.staging.Alias()[rank] = tile[rank];
  __syncthreads();
  const T item = shared.staging.Alias()[THREADS - 1 - rank];
  __syncthreads(); // every thread has read the staging area before BlockReduce overwrites it

  T result = BlockReduceT(shared.reduce).Sum(items);
  if (rank == 0)
  {
    block_out[slot_sum_items] = result;
  }
  result = BlockReduceT().Reduce(items, op);
  if (rank == 0)
  {
    block_out[slot_reduce_items] = result;
  }
  __syncthreads();
  result = BlockReduceT(shared.reduce).Sum(item);
  if (rank == 0)
  {
    block_out[slot_sum] = result;
  }
  __syncthreads();
  result = BlockReduceT().Reduce(item, op);
  if (rank == 0)
  {
    block_out[slot_reduce] = result;
  }
  __syncthreads();
  // The threads from num_valid on pass their items all the same: they must be left out.
  const int valid = num_valid[blockIdx.x];
  result          = BlockReduceT(shared.reduce).Sum(item, valid);
  if (rank == 0)
  {
    block_out[slot_sum_valid] = result;
  }
  __syncthreads();
  result = BlockReduceT(shared.reduce).Reduce(item, op, valid);
  if (rank == 0)
  {
    block_out[slot_reduce_valid] = result;
  }
}

//! num_valid for each block: 1, around a warp, one short of the block, the block, more than the
//! block (a full tile too), and a random count; at least 1 (CUB leaves 0 undefined).
std::vector<int> block_num_valid(int threads, std::uint64_t seed)
{
  std::vector<int> counts = {1,           31,      32,          33,
                             threads - 1, threads, threads + 7, strata_test::generator<int>(seed)(1, threads)};
  for (int& count : counts)
  {
    count = std::max(count, 1);
  }
  return counts;
}

//! Random inputs whose reductions the host computes exactly or within reduce_tolerance:
//! unsigned and narrow integers, custom_t and affine maps over their whole range (they wrap);
//! 32- and 64-bit signed integers small enough that no sum of a tile overflows on the host;
//! float and double positive, so that sums do not cancel; __half and __nv_bfloat16 small
//! positive integers whose every partial sum over `tile` items stays an exactly representable
//! integer (2048 for __half, 256 for __nv_bfloat16).
template <typename T>
std::vector<T> block_reduce_inputs(std::size_t n, int tile, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, affine_map>)
  {
    return strata_test::random_words_as<T>(n, seed);
  }
  else if constexpr (strata_test::is_extended_float_v<T>)
  {
    const int exact              = std::is_same_v<T, __half> ? 2048 : 256;
    const int largest            = std::clamp(exact / tile, 1, 8);
    const std::vector<int> small = strata_test::random_vector<int>(n, seed, 1.0, largest);
    std::vector<T> values(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      values[i] = strata_test::from_double<T>(small[i]);
    }
    return values;
  }
  else if constexpr (strata_test::is_floating_v<T>)
  {
    return strata_test::random_vector<T>(n, seed, 1.0, 100.0);
  }
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) >= 4)
  {
    return strata_test::random_vector<T>(n, seed, -1e5, 1e5);
  }
  else
  {
    return strata_test::random_vector<T>(n, seed);
  }
}

//! The relative tolerance of float and double sums. An input reaches the result through at most
//! 10 additions in its thread's array, 32 in a raking segment and 5 + 5 in the warp trees (the
//! warps' and the aggregates'); the inputs are positive, so the error is below 52 units of
//! roundoff of the result: 64 bound it. Everything else is exact (wrapping integer and custom
//! arithmetic, the small integers of the 16-bit types, minimum and maximum).
template <typename T>
double sum_tolerance()
{
  if constexpr (std::is_same_v<T, float>)
  {
    return 64 * 0x1p-24;
  }
  else if constexpr (std::is_same_v<T, double>)
  {
    return 64 * 0x1p-53;
  }
  else
  {
    return 0.0;
  }
}

//! Runs every member on reduce_blocks blocks with different random data and num_valid, and checks
//! thread 0's results (the only ones CUB defines) against the host reference: sums with +,
//! reductions with `op`, both in the order of the items.
template <typename T, strata::BlockReduceAlgorithm ALGORITHM, int DX, int DY, int DZ, int ITEMS, typename OpT>
void check_block_reduce(OpT op, std::uint64_t salt)
{
  constexpr int threads = DX * DY * DZ;
  constexpr int tile    = threads * ITEMS;
  const auto seed       = strata_test::seed(salt);
  INFO("algorithm " << ALGORITHM << ", block " << DX << "x" << DY << "x" << DZ << ", items per thread " << ITEMS
                    << ", seed " << seed);
  const std::vector<T> in       = block_reduce_inputs<T>(static_cast<std::size_t>(reduce_blocks) * tile, tile, seed);
  const std::vector<int> counts = block_num_valid(threads, seed + 1);

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_num_valid(counts);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(reduce_blocks) * reduce_member_count);
  d_out.poison();
  block_reduce_kernel<T, ALGORITHM, DX, DY, DZ, ITEMS>
      <<<reduce_blocks, dim3(DX, DY, DZ)>>>(d_in.data(), d_num_valid.data(), op, d_out.data());
  strata_test::check_launch();
  const std::vector<T> out = d_out.download();

  std::vector<T> expected(out.size());
  for (int b = 0; b < reduce_blocks; ++b)
  {
    const int first = b * tile;
    // Thread t's single item is item threads - 1 - t of the tile: in rank order, the tile's
    // first `threads` items reversed.
    std::vector<T> singles(threads);
    for (int t = 0; t < threads; ++t)
    {
      singles[static_cast<std::size_t>(t)] = in[static_cast<std::size_t>(first + threads - 1 - t)];
    }
    const std::vector<T> valid_singles(singles.begin(),
                                       singles.begin() + std::min(counts[static_cast<std::size_t>(b)], threads));
    const int last_valid              = static_cast<int>(valid_singles.size()) - 1;
    T* block_expected                 = expected.data() + static_cast<std::size_t>(b) * reduce_member_count;
    block_expected[slot_sum_items]    = strata_test::fold(in, first, first + tile - 1, ::cuda::std::plus<>{});
    block_expected[slot_reduce_items] = strata_test::fold(in, first, first + tile - 1, op);
    block_expected[slot_sum]          = strata_test::fold(singles, 0, threads - 1, ::cuda::std::plus<>{});
    block_expected[slot_reduce]       = strata_test::fold(singles, 0, threads - 1, op);
    block_expected[slot_sum_valid]    = strata_test::fold(valid_singles, 0, last_valid, ::cuda::std::plus<>{});
    block_expected[slot_reduce_valid] = strata_test::fold(valid_singles, 0, last_valid, op);
  }
  const char* const names[reduce_member_count] = {
      "Sum(items)",       "Reduce(items, op)",    "Sum(item)",
      "Reduce(item, op)", "Sum(item, num_valid)", "Reduce(item, op, num_valid)"};
  for (int slot = 0; slot < reduce_member_count; ++slot)
  {
    std::vector<T> expected_slot, actual_slot;
    for (int b = 0; b < reduce_blocks; ++b)
    {
      const std::size_t at = static_cast<std::size_t>(b) * reduce_member_count + static_cast<std::size_t>(slot);
      expected_slot.push_back(expected[at]);
      actual_slot.push_back(out[at]);
    }
    const bool sum = slot == slot_sum_items || slot == slot_sum || slot == slot_sum_valid;
    INFO(names[slot] << " (thread 0 of each block; num_valid per block: 1, 31, 32, 33, block - 1, block, block + 7, "
                     << counts.back() << ")");
    strata_test::check_equal(expected_slot, actual_slot, sum ? sum_tolerance<T>() : 0.0);
  }
}

//! CUB's example: 128 threads, each with items {1, 2, 3, 4}: the block's sum is 1280.
template <strata::BlockReduceAlgorithm ALGORITHM>
__global__ void documented_example_kernel(int* d_out)
{
  using BlockReduceT = strata::BlockReduce<int, 128, ALGORITHM>;
  __shared__ typename BlockReduceT::TempStorage temp_storage;
  int thread_data[4] = {1, 2, 3, 4};
  int aggregate      = BlockReduceT(temp_storage).Sum(thread_data);
  if (threadIdx.x == 0)
  {
    *d_out = aggregate;
  }
}

template <strata::BlockReduceAlgorithm ALGORITHM>
int run_documented_example()
{
  strata_test::device_buffer<int> d_out(1);
  d_out.poison();
  documented_example_kernel<ALGORITHM><<<1, 128>>>(d_out.data());
  strata_test::check_launch();
  return d_out.download()[0];
}
} // namespace

TEST_CASE("BlockReduce: CUB's example, Sum of {1, 2, 3, 4} per thread over 128 threads", "[block][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  CHECK(run_documented_example<BLOCK_REDUCE_WARP_REDUCTIONS>() == 1280);
  CHECK(run_documented_example<BLOCK_REDUCE_RAKING>() == 1280);
  CHECK(run_documented_example<BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>() == 1280);
}

TEST_CASE("BlockReduce: every member, algorithm, block shape, items per thread and type", "[block][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  using cuda::maximum;
  using cuda::minimum;
  using cuda::std::bit_and;
  using cuda::std::bit_or;
  using cuda::std::bit_xor;
  using custom_t   = strata_test::custom_t;
  constexpr auto C = BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY;
  constexpr auto R = BLOCK_REDUCE_RAKING;
  constexpr auto W = BLOCK_REDUCE_WARP_REDUCTIONS;
  // Every shape with every item count; shape s with count i (in the orders of the file comment)
  // uses algorithm (s + i) % 3 (C, R, W), so each algorithm meets every shape and every count.
  // Each type meets every algorithm, here or (int16 C, uint16 R, int32 W, uint64 W) in the next
  // test case. 16-bit floating point only on tiles whose sums stay exact (see
  // block_reduce_inputs).
  check_block_reduce<__nv_bfloat16, C, 32, 1, 1, 1>(maximum<>{}, 1);
  check_block_reduce<__nv_bfloat16, R, 32, 1, 1, 3>(minimum<>{}, 2);
  check_block_reduce<__nv_bfloat16, W, 32, 1, 1, 4>(maximum<>{}, 3);
  check_block_reduce<std::int64_t, C, 32, 1, 1, 7>(minimum<>{}, 4);
  check_block_reduce<__half, R, 32, 1, 1, 11>(minimum<>{}, 5);

  check_block_reduce<std::int8_t, R, 80, 1, 1, 1>(maximum<>{}, 6);
  check_block_reduce<std::int16_t, W, 80, 1, 1, 3>(bit_or<>{}, 7);
  check_block_reduce<custom_t, C, 80, 1, 1, 4>(maximum<>{}, 8);
  check_block_reduce<std::int64_t, R, 80, 1, 1, 7>(bit_xor<>{}, 9);
  check_block_reduce<std::uint32_t, W, 80, 1, 1, 11>(bit_and<>{}, 10);

  check_block_reduce<std::uint16_t, W, 128, 1, 1, 1>(maximum<>{}, 11);
  check_block_reduce<std::int8_t, C, 128, 1, 1, 3>(bit_xor<>{}, 12);
  check_block_reduce<float, R, 128, 1, 1, 4>(maximum<>{}, 13);
  check_block_reduce<custom_t, W, 128, 1, 1, 7>(larger_of{}, 14);
  check_block_reduce<std::uint16_t, C, 128, 1, 1, 11>(bit_or<>{}, 15);

  check_block_reduce<__half, C, 256, 1, 1, 1>(maximum<>{}, 16);
  check_block_reduce<std::uint32_t, R, 256, 1, 1, 3>(minimum<>{}, 17);
  check_block_reduce<std::int8_t, W, 256, 1, 1, 4>(minimum<>{}, 18);
  check_block_reduce<std::uint32_t, C, 256, 1, 1, 7>(larger_of{}, 19);
  check_block_reduce<std::int16_t, R, 256, 1, 1, 11>(maximum<>{}, 20);

  check_block_reduce<double, R, 1024, 1, 1, 1>(minimum<>{}, 21);
  check_block_reduce<std::uint8_t, W, 1024, 1, 1, 3>(bit_and<>{}, 22);
  check_block_reduce<std::uint64_t, C, 1024, 1, 1, 4>(maximum<>{}, 23);
  check_block_reduce<custom_t, R, 1024, 1, 1, 7>(maximum<>{}, 24);
  check_block_reduce<std::int64_t, W, 1024, 1, 1, 11>(maximum<>{}, 25);

  check_block_reduce<__half, W, 16, 8, 1, 1>(minimum<>{}, 26);
  check_block_reduce<std::uint8_t, C, 16, 8, 1, 3>(maximum<>{}, 27);
  check_block_reduce<std::int32_t, R, 16, 8, 1, 4>(bit_xor<>{}, 28);
  check_block_reduce<float, W, 16, 8, 1, 7>(minimum<>{}, 29);
  check_block_reduce<std::int32_t, C, 16, 8, 1, 11>(minimum<>{}, 30);

  check_block_reduce<float, C, 8, 4, 2, 1>(maximum<>{}, 31);
  check_block_reduce<std::uint8_t, R, 8, 4, 2, 3>(minimum<>{}, 32);
  check_block_reduce<double, W, 8, 4, 2, 4>(maximum<>{}, 33);
  check_block_reduce<double, C, 8, 4, 2, 7>(minimum<>{}, 34);
  check_block_reduce<std::uint64_t, R, 8, 4, 2, 11>(bit_or<>{}, 35);
}

TEST_CASE("BlockReduce: blocks that take the other code paths", "[block][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  // One thread: the reduction is the thread's own value.
  check_block_reduce<std::int32_t, BLOCK_REDUCE_RAKING, 1, 1, 1, 3>(cuda::maximum<>{}, 40);
  check_block_reduce<std::uint8_t, BLOCK_REDUCE_WARP_REDUCTIONS, 1, 1, 1, 4>(cuda::maximum<>{}, 41);
  // 20 threads: one warp reduction of a size that is not a power of two (shared memory).
  check_block_reduce<strata_test::custom_t, BLOCK_REDUCE_RAKING, 20, 1, 1, 7>(larger_of{}, 42);
  check_block_reduce<std::uint64_t, BLOCK_REDUCE_WARP_REDUCTIONS, 20, 1, 1, 4>(cuda::std::bit_xor<>{}, 43);
  // 90 threads: a last warp of 26 threads; 96: three whole warps (two-item raking segments).
  check_block_reduce<std::int32_t, BLOCK_REDUCE_WARP_REDUCTIONS, 90, 1, 1, 3>(larger_of{}, 44);
  check_block_reduce<std::uint16_t, BLOCK_REDUCE_RAKING, 96, 1, 1, 1>(cuda::minimum<>{}, 45);
  // 160 threads: commutative raking segments of 4, padded.
  check_block_reduce<std::int16_t, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, 160, 1, 1, 1>(cuda::minimum<>{}, 46);
}

TEST_CASE("BlockReduce: a non-commutative operator keeps the order of the items", "[block][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_block_reduce<affine_map, BLOCK_REDUCE_RAKING, 20, 1, 1, 1>(affine_compose{}, 50);
  check_block_reduce<affine_map, BLOCK_REDUCE_RAKING, 80, 1, 1, 3>(affine_compose{}, 51);
  check_block_reduce<affine_map, BLOCK_REDUCE_RAKING, 8, 4, 2, 4>(affine_compose{}, 52);
  check_block_reduce<affine_map, BLOCK_REDUCE_RAKING, 1024, 1, 1, 1>(affine_compose{}, 53);
  check_block_reduce<affine_map, BLOCK_REDUCE_WARP_REDUCTIONS, 32, 1, 1, 1>(affine_compose{}, 54);
  check_block_reduce<affine_map, BLOCK_REDUCE_WARP_REDUCTIONS, 90, 1, 1, 1>(affine_compose{}, 55);
  check_block_reduce<affine_map, BLOCK_REDUCE_WARP_REDUCTIONS, 16, 8, 1, 7>(affine_compose{}, 56);
  check_block_reduce<affine_map, BLOCK_REDUCE_WARP_REDUCTIONS, 96, 1, 1, 11>(affine_compose{}, 57);
}

TEST_CASE("BlockReduce: algorithm values and the specializations' layouts", "[block][reduce]")
{
  // The enumerators' values are CUB's.
  STATIC_REQUIRE(BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY == 0);
  STATIC_REQUIRE(BLOCK_REDUCE_RAKING == 1);
  STATIC_REQUIRE(BLOCK_REDUCE_WARP_REDUCTIONS == 2);
  // The default algorithm is BLOCK_REDUCE_WARP_REDUCTIONS.
  STATIC_REQUIRE(std::is_same_v<strata::BlockReduce<int, 64>::TempStorage,
                                strata::BlockReduce<int, 64, BLOCK_REDUCE_WARP_REDUCTIONS>::TempStorage>);

  using strata::detail::BlockReduceRakingCommutativeOnly;
  STATIC_REQUIRE(BlockReduceRakingCommutativeOnly<int, 32>::USE_FALLBACK);
  STATIC_REQUIRE(BlockReduceRakingCommutativeOnly<int, 80>::USE_FALLBACK);
  STATIC_REQUIRE_FALSE(BlockReduceRakingCommutativeOnly<int, 64>::USE_FALLBACK);
  STATIC_REQUIRE(BlockReduceRakingCommutativeOnly<int, 128>::SEGMENT_LENGTH == 3);
  STATIC_REQUIRE(BlockReduceRakingCommutativeOnly<int, 1024>::SEGMENT_LENGTH == 31);

  using strata::detail::BlockReduceWarpReductions;
  STATIC_REQUIRE(BlockReduceWarpReductions<int, 90>::WARPS == 3);
  STATIC_REQUIRE(BlockReduceWarpReductions<int, 90>::LAST_WARP_THREADS == 26);
  STATIC_REQUIRE(BlockReduceWarpReductions<int, 1024>::LAST_WARP_THREADS == 32);
  // Aggregates: all 32 lanes where redux.sync applies, else the fewest that tile the warp.
  STATIC_REQUIRE(BlockReduceWarpReductions<int, 96>::AGGREGATE_LANES<cuda::std::plus<>> == 32);
  STATIC_REQUIRE(BlockReduceWarpReductions<float, 96>::AGGREGATE_LANES<cuda::std::plus<>> == 4);
  STATIC_REQUIRE(BlockReduceWarpReductions<int, 1024>::AGGREGATE_LANES<larger_of> == 32);

  // The storage is that of the algorithm: warp aggregates (warp 0's excluded), or a raking grid
  // (with segments of 4 padded to 5), or warp 0's raking of the other warps (3 per lane, no pad).
  STATIC_REQUIRE(sizeof(strata::BlockReduce<int, 128>::TempStorage) >= 3 * sizeof(int));
  STATIC_REQUIRE(sizeof(strata::BlockReduce<int, 128, BLOCK_REDUCE_RAKING>::TempStorage) == 160 * sizeof(int));
  STATIC_REQUIRE(sizeof(strata::BlockReduce<int, 128, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>::TempStorage)
                 == 96 * sizeof(int));
  STATIC_REQUIRE(
      std::is_trivially_default_constructible_v<strata::BlockReduce<double, 16, BLOCK_REDUCE_RAKING, 8>::TempStorage>);
}

TEST_CASE("BlockReduce tests: the host reference and inputs", "[block][reduce]")
{
  // The documented example on the host: 128 threads of {1, 2, 3, 4}.
  std::vector<int> example;
  for (int t = 0; t < 128; ++t)
  {
    example.insert(example.end(), {1, 2, 3, 4});
  }
  CHECK(strata_test::fold(example, 0, 511, cuda::std::plus<>{}) == 1280);
  // The 16-bit floating-point inputs keep every sum of a tile exact.
  for (const int tile : {32, 352, 1024, 1792})
  {
    const std::vector<__half> h = block_reduce_inputs<__half>(static_cast<std::size_t>(tile), tile, 7);
    double total                = 0;
    for (const __half x : h)
    {
      total += strata_test::to_double(x);
    }
    CHECK(total <= 2048);
    CHECK(total >= tile);
  }
  const std::vector<__nv_bfloat16> bf = block_reduce_inputs<__nv_bfloat16>(128, 128, 9);
  double bf_total                     = 0;
  for (const __nv_bfloat16 x : bf)
  {
    bf_total += strata_test::to_double(x);
  }
  CHECK(bf_total <= 256);
  CHECK(bf_total > 128); // not all ones: minimum and maximum see different values
  const std::vector<int> counts = block_num_valid(20, 3);
  CHECK(counts.size() == static_cast<std::size_t>(reduce_blocks));
  CHECK(*std::min_element(counts.begin(), counts.end()) >= 1);
}

// Tests of strata/block/block_load.cuh: every BlockLoad algorithm, full and guarded (items past
// block_items_end kept, or set to oob_default), on five blocks whose tiles have 0, 1, tile - 1,
// tile and a random number of valid items, from an aligned and from a misaligned pointer (where
// BLOCK_LOAD_VECTORIZE falls back to items). Every algorithm runs with block shapes {32, 80 or
// 96, 128, 256, 1024, 16x8, 8x4x2} (80 only where whole warps are not needed), items per thread
// {1, 3, 4, 7, 11} and types, combined pairwise; some cases use the private TempStorage.
// Iterators other than pointers, the documented examples and BlockLoadType have cases of their
// own; test/block/CMakeLists.txt also checks the PTX of vectorized loads and stores.
#include <strata/block/block_load.cuh>
#include <strata/iterator/cache_modified_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "block_move_checks.cuh"

#include <cstdint>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
//! Output regions of the load kernel, one per Load overload.
enum load_slot : int
{
  load_full,
  load_guarded,
  load_guarded_default,
  load_slot_count
};

template <typename T, int DX, int DY, int DZ, int ITEMS_PER_THREAD, strata::BlockLoadAlgorithm ALGORITHM,
          bool PRIVATE_STORAGE = false>
struct load_case
{
  using type                                            = T;
  using tile                                            = strata_test::block_tile<DX, DY, DZ, ITEMS_PER_THREAD>;
  using load                                            = strata::BlockLoad<T, DX, ITEMS_PER_THREAD, ALGORITHM, DY, DZ>;
  static constexpr int items_per_thread                 = ITEMS_PER_THREAD;
  static constexpr strata::BlockLoadAlgorithm algorithm = ALGORITHM;
  static constexpr bool private_storage                 = PRIVATE_STORAGE;
};

template <typename BlockLoadT, bool PRIVATE_STORAGE>
__device__ __forceinline__ BlockLoadT make_load(typename BlockLoadT::TempStorage& temp_storage)
{
  if constexpr (PRIVATE_STORAGE)
  {
    static_cast<void>(temp_storage);
    return BlockLoadT();
  }
  else
  {
    return BlockLoadT(temp_storage);
  }
}

//! Every Load overload in turn on the block's tile (tile b at in + b * TILE), with the
//! __syncthreads() that reuse of the TempStorage requires in between; each result dumped
//! thread-major into its region. Guarded loads start from items that all hold `sentinel`.
template <typename Case, typename T = typename Case::type>
__global__ void __launch_bounds__(Case::tile::THREADS)
    load_kernel(const T* in, const int* valid_items, T sentinel, T oob_default, T* out)
{
  using tile       = typename Case::tile;
  using BlockLoadT = typename Case::load;
  constexpr int N  = Case::items_per_thread;
  __shared__ typename BlockLoadT::TempStorage temp_storage;
  BlockLoadT load = make_load<BlockLoadT, Case::private_storage>(temp_storage);

  const int block   = static_cast<int>(blockIdx.x);
  const int rank    = tile::rank();
  const T* src      = in + block * tile::TILE;
  const int valid   = valid_items[block];
  const auto region = [&](int slot) { return out + (slot * static_cast<int>(gridDim.x) + block) * tile::TILE; };

  T items[N];
  load.Load(src, items);
  strata_test::dump_items(region(load_full), rank, items);
  __syncthreads();

#pragma unroll
  for (int i = 0; i < N; ++i)
  {
    items[i] = sentinel;
  }
  load.Load(src, items, valid);
  strata_test::dump_items(region(load_guarded), rank, items);
  __syncthreads();

#pragma unroll
  for (int i = 0; i < N; ++i)
  {
    items[i] = sentinel;
  }
  load.Load(src, items, valid, oob_default);
  strata_test::dump_items(region(load_guarded_default), rank, items);
}

//! Whether the items a guarded load leaves alone keep their values (the transposing
//! algorithms leave them undefined).
constexpr bool keeps_unloaded(strata::BlockLoadAlgorithm algorithm)
{
  return algorithm == strata::BLOCK_LOAD_DIRECT || algorithm == strata::BLOCK_LOAD_STRIPED
         || algorithm == strata::BLOCK_LOAD_VECTORIZE;
}

//! The tile position thread t's item i holds after a load with `algorithm`.
int loaded_pos(strata::BlockLoadAlgorithm algorithm, int t, int i, int threads, int items)
{
  return algorithm == strata::BLOCK_LOAD_STRIPED ? strata_test::striped_pos(t, i, threads, items)
                                                 : strata_test::blocked_pos(t, i, threads, items);
}

template <typename Case>
void check_load(std::uint64_t salt)
{
  using T                  = typename Case::type;
  using tile               = typename Case::tile;
  constexpr int N          = Case::items_per_thread;
  constexpr auto ALGORITHM = Case::algorithm;
  constexpr int BLOCKS     = 5;
  const auto seed          = strata_test::seed(salt);
  INFO("seed " << seed << ", algorithm " << ALGORITHM << ", block " << tile::THREADS << " threads (" << tile::block().x
               << "x" << tile::block().y << "x" << tile::block().z << "), " << N
               << " items per thread, private storage " << Case::private_storage);

  const std::vector<T> data    = strata_test::random_vector<T>(static_cast<std::size_t>(BLOCKS * tile::TILE + 1), seed);
  const std::vector<int> valid = strata_test::valid_items_per_tile(BLOCKS, tile::TILE, seed + 1);
  const std::vector<T> fills   = strata_test::random_vector<T>(2, seed + 2);
  const T sentinel             = fills[0];
  const T oob_default          = fills[1];

  strata_test::device_buffer<T> d_data(data);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(load_slot_count * BLOCKS * tile::TILE));
  for (const int offset : {0, 1})
  {
    INFO("input offset " << offset);
    d_out.poison();
    load_kernel<Case>
        <<<BLOCKS, tile::block()>>>(d_data.data() + offset, d_valid.data(), sentinel, oob_default, d_out.data());
    strata_test::check_launch();
    const std::vector<T> actual = d_out.download();

    std::vector<T> expected(actual.size());
    for (int b = 0; b < BLOCKS; ++b)
    {
      const T* src = data.data() + offset + b * tile::TILE;
      for (int t = 0; t < tile::THREADS; ++t)
      {
        for (int i = 0; i < N; ++i)
        {
          const int pos       = loaded_pos(ALGORITHM, t, i, tile::THREADS, N);
          const bool in_range = pos < valid[static_cast<std::size_t>(b)];
          const auto at       = [&](int slot)
          { return static_cast<std::size_t>((slot * BLOCKS + b) * tile::TILE + t * N + i); };
          expected[at(load_full)]            = src[pos];
          expected[at(load_guarded)]         = in_range                    ? src[pos]
                                               : keeps_unloaded(ALGORITHM) ? sentinel
                                                                           : actual[at(load_guarded)];
          expected[at(load_guarded_default)] = in_range ? src[pos] : oob_default;
        }
      }
    }
    strata_test::check_equal(expected, actual);
  }
}

using strata_test::custom_t;
// Pairwise: each algorithm with five to eight (type, shape, items per thread) triples; every type,
// shape and items-per-thread value with several algorithms; tiles of the transposing algorithms
// stay within 48 KiB of static shared memory.
using load_cases = std::tuple<load_case<std::int8_t, 32, 1, 1, 7, strata::BLOCK_LOAD_DIRECT>,
                              load_case<custom_t, 80, 1, 1, 3, strata::BLOCK_LOAD_DIRECT>,
                              load_case<double, 16, 8, 1, 4, strata::BLOCK_LOAD_DIRECT>,
                              load_case<std::uint32_t, 1024, 1, 1, 11, strata::BLOCK_LOAD_DIRECT>,
                              load_case<__half, 8, 4, 2, 1, strata::BLOCK_LOAD_DIRECT, true>,
                              load_case<std::int16_t, 80, 1, 1, 11, strata::BLOCK_LOAD_STRIPED>,
                              load_case<float, 256, 1, 1, 4, strata::BLOCK_LOAD_STRIPED, true>,
                              load_case<__nv_bfloat16, 32, 1, 1, 3, strata::BLOCK_LOAD_STRIPED>,
                              load_case<std::uint64_t, 8, 4, 2, 7, strata::BLOCK_LOAD_STRIPED>,
                              load_case<std::int32_t, 1024, 1, 1, 1, strata::BLOCK_LOAD_STRIPED>,
                              // Vector words of 16 bytes (4 ints, 4 custom_t, 8 floats), 8 bytes (4 halves), 4 bytes
                              // (4 int8), none (3 doubles, 7 uint16, 11 bfloat16).
                              load_case<std::int32_t, 128, 1, 1, 4, strata::BLOCK_LOAD_VECTORIZE>,
                              load_case<std::int8_t, 80, 1, 1, 4, strata::BLOCK_LOAD_VECTORIZE>,
                              load_case<__half, 16, 8, 1, 4, strata::BLOCK_LOAD_VECTORIZE>,
                              load_case<double, 256, 1, 1, 3, strata::BLOCK_LOAD_VECTORIZE>,
                              load_case<custom_t, 32, 1, 1, 4, strata::BLOCK_LOAD_VECTORIZE, true>,
                              load_case<std::uint16_t, 1024, 1, 1, 7, strata::BLOCK_LOAD_VECTORIZE>,
                              load_case<__nv_bfloat16, 8, 4, 2, 11, strata::BLOCK_LOAD_VECTORIZE>,
                              load_case<float, 96, 1, 1, 8, strata::BLOCK_LOAD_VECTORIZE>,
                              load_case<std::int64_t, 80, 1, 1, 3, strata::BLOCK_LOAD_TRANSPOSE>,
                              load_case<std::uint8_t, 1024, 1, 1, 11, strata::BLOCK_LOAD_TRANSPOSE, true>,
                              load_case<custom_t, 16, 8, 1, 7, strata::BLOCK_LOAD_TRANSPOSE>,
                              load_case<__half, 32, 1, 1, 4, strata::BLOCK_LOAD_TRANSPOSE>,
                              load_case<float, 8, 4, 2, 11, strata::BLOCK_LOAD_TRANSPOSE>,
                              load_case<std::int32_t, 256, 1, 1, 1, strata::BLOCK_LOAD_TRANSPOSE>,
                              load_case<std::int32_t, 96, 1, 1, 7, strata::BLOCK_LOAD_WARP_TRANSPOSE>,
                              load_case<double, 32, 1, 1, 11, strata::BLOCK_LOAD_WARP_TRANSPOSE>,
                              load_case<std::uint16_t, 256, 1, 1, 3, strata::BLOCK_LOAD_WARP_TRANSPOSE>,
                              load_case<__nv_bfloat16, 8, 4, 2, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE>,
                              load_case<std::int8_t, 1024, 1, 1, 1, strata::BLOCK_LOAD_WARP_TRANSPOSE>,
                              load_case<custom_t, 128, 1, 1, 8, strata::BLOCK_LOAD_WARP_TRANSPOSE, true>,
                              load_case<std::uint32_t, 1024, 1, 1, 11, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>,
                              load_case<float, 96, 1, 1, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, true>,
                              load_case<std::int16_t, 16, 8, 1, 7, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>,
                              load_case<custom_t, 8, 4, 2, 3, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>,
                              load_case<double, 128, 1, 1, 1, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>,
                              load_case<std::uint64_t, 256, 1, 1, 8, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>>;

//! A full load of block b's tile through `first + b * 512`: 128 threads, 4 ints each.
template <strata::BlockLoadAlgorithm ALGORITHM, typename IteratorT>
__global__ void load_iterator_kernel(IteratorT first, int* out)
{
  using BlockLoadT = strata::BlockLoad<int, 128, 4, ALGORITHM>;
  __shared__ typename BlockLoadT::TempStorage temp_storage;
  int items[4];
  BlockLoadT(temp_storage).Load(first + static_cast<int>(blockIdx.x) * 512, items);
  strata_test::dump_items(out + blockIdx.x * 512, static_cast<int>(threadIdx.x), items);
}

//! The documented examples: 128 threads with 4 ints each, BLOCK_LOAD_WARP_TRANSPOSE, on
//! d_data = 0, 1, 2, ...: a full load (slot 0), one guarded by block_items_end = 5 with
//! oob_default -1 (slot 1), and the same with the default given as a short (slot 2).
__global__ void documented_examples_kernel(const int* d_data, int* d_out)
{
  using BlockLoadT = strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE>;
  __shared__ BlockLoadT::TempStorage temp_storage;
  const int t = static_cast<int>(threadIdx.x);
  int thread_data[4];
  BlockLoadT(temp_storage).Load(d_data, thread_data);
  strata_test::dump_items(d_out, t, thread_data);
  __syncthreads();
  BlockLoadT(temp_storage).Load(d_data, thread_data, 5, -1);
  strata_test::dump_items(d_out + 512, t, thread_data);
  __syncthreads();
  BlockLoadT(temp_storage).Load(d_data, thread_data, 5, static_cast<short>(-1));
  strata_test::dump_items(d_out + 1024, t, thread_data);
}

struct load_policy
{
  static constexpr int BLOCK_THREADS                         = 64;
  static constexpr int ITEMS_PER_THREAD                      = 3;
  static constexpr strata::BlockLoadAlgorithm LOAD_ALGORITHM = strata::BLOCK_LOAD_TRANSPOSE;
};
} // namespace

TEMPLATE_LIST_TEST_CASE("BlockLoad: every algorithm, full and guarded", "[block][load]", load_cases)
{
  STRATA_TEST_REQUIRE_GPU();
  using tile = typename TestType::tile;
  check_load<TestType>(
      static_cast<std::uint64_t>(TestType::algorithm * 100000 + tile::THREADS * 100 + TestType::items_per_thread));
}

TEST_CASE("BlockLoad: iterators other than pointers", "[block][load]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(50);
  INFO("seed " << seed);
  const std::vector<int> data = strata_test::random_vector<int>(2 * 512, seed);
  strata_test::device_buffer<int> d_data(data);
  strata_test::device_buffer<int> d_out(2 * 512);

  SECTION("a cache-modified iterator and a pointer to non-const, vectorized")
  {
    d_out.poison();
    load_iterator_kernel<strata::BLOCK_LOAD_VECTORIZE>
        <<<2, 128>>>(strata::CacheModifiedInputIterator<strata::LOAD_CG, int>(d_data.data()), d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(data, d_out.download());

    d_out.poison();
    load_iterator_kernel<strata::BLOCK_LOAD_VECTORIZE><<<2, 128>>>(d_data.data(), d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(data, d_out.download());
  }
  SECTION("a counting iterator, item by item (vectorize), transposed and warp-transposed")
  {
    std::vector<int> expected(2 * 512);
    std::iota(expected.begin(), expected.end(), 1000);
    const strata::CountingInputIterator<int> first(1000);

    d_out.poison();
    load_iterator_kernel<strata::BLOCK_LOAD_VECTORIZE><<<2, 128>>>(first, d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());

    d_out.poison();
    load_iterator_kernel<strata::BLOCK_LOAD_TRANSPOSE><<<2, 128>>>(first, d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());

    d_out.poison();
    load_iterator_kernel<strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED><<<2, 128>>>(first, d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());
  }
}

TEST_CASE("BlockLoad: the documented examples", "[block][load]")
{
  STRATA_TEST_REQUIRE_GPU();
  std::vector<int> identity(512);
  std::iota(identity.begin(), identity.end(), 0);
  strata_test::device_buffer<int> d_data(identity);
  strata_test::device_buffer<int> d_out(3 * 512);
  d_out.poison();
  documented_examples_kernel<<<1, 128>>>(d_data.data(), d_out.data());
  strata_test::check_launch();

  // {[0,1,2,3], [4,5,6,7], ..., [508,509,510,511]}, then {[0,1,2,3], [4,-1,-1,-1], ..., [-1,-1,-1,-1]}.
  std::vector<int> expected(3 * 512, -1);
  std::iota(expected.begin(), expected.begin() + 512, 0);
  for (int k = 0; k < 5; ++k)
  {
    expected[static_cast<std::size_t>(512 + k)]  = k;
    expected[static_cast<std::size_t>(1024 + k)] = k;
  }
  strata_test::check_equal(expected, d_out.download());
}

TEST_CASE("BlockLoad: TempStorage and BlockLoadType", "[block][load]")
{
  // Only the transposing algorithms need shared memory: the tile, or one warp's share of it.
  STATIC_REQUIRE(sizeof(strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_DIRECT>::TempStorage) == 1);
  STATIC_REQUIRE(sizeof(strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_VECTORIZE>::TempStorage) == 1);
  STATIC_REQUIRE(sizeof(strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_TRANSPOSE>::TempStorage) == 128 * 4 * 4);
  STATIC_REQUIRE(sizeof(strata::BlockLoad<int, 16, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE, 8>::TempStorage)
                 == 128 * 4 * 4);
  STATIC_REQUIRE(sizeof(strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>::TempStorage)
                 == 32 * 4 * 4);

  STATIC_REQUIRE(std::is_same_v<strata::BlockLoadType<load_policy, const float*>::type,
                                strata::BlockLoad<float, 64, 3, strata::BLOCK_LOAD_TRANSPOSE>>);
  STATIC_REQUIRE(std::is_same_v<strata::BlockLoadType<load_policy, const float*, double>::type,
                                strata::BlockLoad<double, 64, 3, strata::BLOCK_LOAD_TRANSPOSE>>);
}

TEST_CASE("BlockLoad tests: positions and valid_items", "[block][load]")
{
  CHECK(loaded_pos(strata::BLOCK_LOAD_STRIPED, 5, 2, 80, 3) == 165);
  CHECK(loaded_pos(strata::BLOCK_LOAD_WARP_TRANSPOSE, 5, 2, 96, 3) == 17);
  CHECK(keeps_unloaded(strata::BLOCK_LOAD_VECTORIZE));
  CHECK_FALSE(keeps_unloaded(strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED));

  const std::vector<int> valid = strata_test::valid_items_per_tile(10, 96, strata_test::seed(51));
  REQUIRE(valid.size() == 10);
  CHECK(valid[0] == 0);
  CHECK(valid[1] == 1);
  CHECK(valid[2] == 95);
  CHECK(valid[3] == 96);
  CHECK(valid[5] == 0);
  for (const int v : valid)
  {
    CHECK((v >= 0 && v <= 96));
  }
}

// Tests of strata/block/block_store.cuh: every BlockStore algorithm, full and guarded, on five
// blocks whose tiles have 0, 1, tile - 1, tile and a random number of valid items, to an aligned
// and to a misaligned pointer (where BLOCK_STORE_VECTORIZE falls back to items). Outputs are
// poisoned and checked in full: a guarded store writes nothing past valid_items, and the
// caller's items are left as they are. Every algorithm runs with block shapes {32, 80 or 96,
// 128, 256, 1024, 16x8, 8x4x2} (80 only where whole warps are not needed), items per thread
// {1, 3, 4, 7, 11} and types, combined pairwise; some cases use the private TempStorage. Output
// iterators other than pointers, a BlockLoad and a BlockStore sharing a TempStorage union, the
// documented example and BlockStoreType have cases of their own.
#include <strata/block/block_load.cuh>
#include <strata/block/block_store.cuh>
#include <strata/iterator/cache_modified_output_iterator.cuh>

#include "block_move_checks.cuh"

#include <cstdint>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
//! Output regions of the store kernel: one per Store overload, and the items after both.
enum store_slot : int
{
  store_full,
  store_guarded,
  store_items_after,
  store_slot_count
};

template <typename T, int DX, int DY, int DZ, int ITEMS_PER_THREAD, strata::BlockStoreAlgorithm ALGORITHM,
          bool PRIVATE_STORAGE = false>
struct store_case
{
  using type                            = T;
  using tile                            = strata_test::block_tile<DX, DY, DZ, ITEMS_PER_THREAD>;
  using store                           = strata::BlockStore<T, DX, ITEMS_PER_THREAD, ALGORITHM, DY, DZ>;
  static constexpr int items_per_thread = ITEMS_PER_THREAD;
  static constexpr strata::BlockStoreAlgorithm algorithm = ALGORITHM;
  static constexpr bool private_storage                  = PRIVATE_STORAGE;
};

template <typename BlockStoreT, bool PRIVATE_STORAGE>
__device__ __forceinline__ BlockStoreT make_store(typename BlockStoreT::TempStorage& temp_storage)
{
  if constexpr (PRIVATE_STORAGE)
  {
    static_cast<void>(temp_storage);
    return BlockStoreT();
  }
  else
  {
    return BlockStoreT(temp_storage);
  }
}

//! The calling thread's items are in[block tile + rank * ITEMS_PER_THREAD + i] (thread-major,
//! whatever the arrangement). Stores block b's tile in full to out + b * TILE (region 0) and
//! guarded by valid_items[b] to region 1, then dumps the items into region 2.
template <typename Case, typename T = typename Case::type>
__global__ void __launch_bounds__(Case::tile::THREADS) store_kernel(const T* in, const int* valid_items, T* out)
{
  using tile        = typename Case::tile;
  using BlockStoreT = typename Case::store;
  constexpr int N   = Case::items_per_thread;
  __shared__ typename BlockStoreT::TempStorage temp_storage;
  BlockStoreT store = make_store<BlockStoreT, Case::private_storage>(temp_storage);

  const int block   = static_cast<int>(blockIdx.x);
  const int rank    = tile::rank();
  const auto region = [&](int slot) { return out + (slot * static_cast<int>(gridDim.x) + block) * tile::TILE; };
  T items[N];
#pragma unroll
  for (int i = 0; i < N; ++i)
  {
    items[i] = in[block * tile::TILE + rank * N + i];
  }
  store.Store(region(store_full), items);
  __syncthreads();
  store.Store(region(store_guarded), items, valid_items[block]);
  strata_test::dump_items(region(store_items_after), rank, items);
}

//! The tile position of thread t's item i that a store with `algorithm` takes.
int stored_pos(strata::BlockStoreAlgorithm algorithm, int t, int i, int threads, int items)
{
  return algorithm == strata::BLOCK_STORE_STRIPED ? strata_test::striped_pos(t, i, threads, items)
                                                  : strata_test::blocked_pos(t, i, threads, items);
}

template <typename Case>
void check_store(std::uint64_t salt)
{
  using T                  = typename Case::type;
  using tile               = typename Case::tile;
  constexpr int N          = Case::items_per_thread;
  constexpr auto ALGORITHM = Case::algorithm;
  constexpr int BLOCKS     = 5;
  constexpr int ITEMS      = BLOCKS * tile::TILE;
  const auto seed          = strata_test::seed(salt);
  INFO("seed " << seed << ", algorithm " << ALGORITHM << ", block " << tile::THREADS << " threads (" << tile::block().x
               << "x" << tile::block().y << "x" << tile::block().z << "), " << N
               << " items per thread, private storage " << Case::private_storage);

  const std::vector<T> in      = strata_test::random_vector<T>(static_cast<std::size_t>(ITEMS), seed);
  const std::vector<int> valid = strata_test::valid_items_per_tile(BLOCKS, tile::TILE, seed + 1);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_valid(valid);
  // One item more than the regions, so that they can start one item late.
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(store_slot_count * ITEMS + 1));
  for (const int offset : {0, 1})
  {
    INFO("output offset " << offset);
    d_out.poison();
    store_kernel<Case><<<BLOCKS, tile::block()>>>(d_in.data(), d_valid.data(), d_out.data() + offset);
    strata_test::check_launch();

    std::vector<T> expected(d_out.size(), strata_test::poison_value<T>());
    for (int b = 0; b < BLOCKS; ++b)
    {
      for (int t = 0; t < tile::THREADS; ++t)
      {
        for (int i = 0; i < N; ++i)
        {
          const int pos = stored_pos(ALGORITHM, t, i, tile::THREADS, N);
          const T& item = in[static_cast<std::size_t>(b * tile::TILE + t * N + i)];
          const auto at = [&](int slot, int p)
          { return static_cast<std::size_t>(offset + (slot * BLOCKS + b) * tile::TILE + p); };
          expected[at(store_full, pos)] = item;
          if (pos < valid[static_cast<std::size_t>(b)])
          {
            expected[at(store_guarded, pos)] = item;
          }
          expected[at(store_items_after, t * N + i)] = item;
        }
      }
    }
    strata_test::check_equal(expected, d_out.download());
  }
}

using strata_test::custom_t;
// Pairwise: each algorithm with five to seven (type, shape, items per thread) triples; every
// type, shape and items-per-thread value with several algorithms; tiles of the transposing
// algorithms stay within 48 KiB of static shared memory.
using store_cases =
    std::tuple<store_case<std::uint16_t, 32, 1, 1, 11, strata::BLOCK_STORE_DIRECT>,
               store_case<float, 80, 1, 1, 1, strata::BLOCK_STORE_DIRECT>,
               store_case<custom_t, 16, 8, 1, 3, strata::BLOCK_STORE_DIRECT, true>,
               store_case<std::int64_t, 1024, 1, 1, 4, strata::BLOCK_STORE_DIRECT>,
               store_case<std::int8_t, 8, 4, 2, 7, strata::BLOCK_STORE_DIRECT>,
               store_case<double, 80, 1, 1, 4, strata::BLOCK_STORE_STRIPED>,
               store_case<std::uint8_t, 256, 1, 1, 11, strata::BLOCK_STORE_STRIPED>,
               store_case<__half, 32, 1, 1, 7, strata::BLOCK_STORE_STRIPED>,
               store_case<std::int32_t, 8, 4, 2, 3, strata::BLOCK_STORE_STRIPED, true>,
               store_case<__nv_bfloat16, 1024, 1, 1, 1, strata::BLOCK_STORE_STRIPED>,
               // Vector words of 16 bytes (4 ints, 4 doubles, 4 custom_t, 8 halves), 4 bytes (4 uint8),
               // none (3 floats, 7 int16, 11 uint32).
               store_case<std::int32_t, 128, 1, 1, 4, strata::BLOCK_STORE_VECTORIZE>,
               store_case<double, 32, 1, 1, 4, strata::BLOCK_STORE_VECTORIZE>,
               store_case<std::uint8_t, 80, 1, 1, 4, strata::BLOCK_STORE_VECTORIZE>,
               store_case<custom_t, 8, 4, 2, 4, strata::BLOCK_STORE_VECTORIZE, true>,
               store_case<float, 256, 1, 1, 3, strata::BLOCK_STORE_VECTORIZE>,
               store_case<std::int16_t, 16, 8, 1, 7, strata::BLOCK_STORE_VECTORIZE>,
               store_case<std::uint32_t, 1024, 1, 1, 11, strata::BLOCK_STORE_VECTORIZE>,
               store_case<__half, 96, 1, 1, 8, strata::BLOCK_STORE_VECTORIZE>,
               store_case<std::uint64_t, 80, 1, 1, 7, strata::BLOCK_STORE_TRANSPOSE>,
               store_case<std::int16_t, 1024, 1, 1, 11, strata::BLOCK_STORE_TRANSPOSE>,
               store_case<__nv_bfloat16, 16, 8, 1, 4, strata::BLOCK_STORE_TRANSPOSE, true>,
               store_case<custom_t, 32, 1, 1, 1, strata::BLOCK_STORE_TRANSPOSE>,
               store_case<std::int32_t, 8, 4, 2, 3, strata::BLOCK_STORE_TRANSPOSE>,
               store_case<float, 256, 1, 1, 7, strata::BLOCK_STORE_TRANSPOSE>,
               store_case<std::uint32_t, 96, 1, 1, 3, strata::BLOCK_STORE_WARP_TRANSPOSE>,
               store_case<std::int8_t, 32, 1, 1, 4, strata::BLOCK_STORE_WARP_TRANSPOSE>,
               store_case<double, 16, 8, 1, 11, strata::BLOCK_STORE_WARP_TRANSPOSE>,
               store_case<std::uint16_t, 8, 4, 2, 1, strata::BLOCK_STORE_WARP_TRANSPOSE, true>,
               store_case<__half, 1024, 1, 1, 7, strata::BLOCK_STORE_WARP_TRANSPOSE>,
               store_case<std::int64_t, 256, 1, 1, 8, strata::BLOCK_STORE_WARP_TRANSPOSE>,
               store_case<custom_t, 1024, 1, 1, 3, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>,
               store_case<std::uint8_t, 96, 1, 1, 7, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>,
               store_case<__nv_bfloat16, 128, 1, 1, 11, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED, true>,
               store_case<float, 32, 1, 1, 1, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>,
               store_case<std::uint64_t, 8, 4, 2, 4, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>,
               store_case<std::int32_t, 16, 8, 1, 8, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>>;

//! A load and a store per block, 128 threads with 7 items each, through one TempStorage union
//! (with the __syncthreads() its reuse requires in between): tile b of `in` copied to tile b of
//! `out`, guarded by valid_items[b].
template <strata::BlockLoadAlgorithm LOAD_ALGORITHM, strata::BlockStoreAlgorithm STORE_ALGORITHM>
__global__ void copy_kernel(const std::int64_t* in, const int* valid_items, std::int64_t* out)
{
  using BlockLoadT  = strata::BlockLoad<std::int64_t, 128, 7, LOAD_ALGORITHM>;
  using BlockStoreT = strata::BlockStore<std::int64_t, 128, 7, STORE_ALGORITHM>;
  __shared__ union
  {
    typename BlockLoadT::TempStorage load;
    typename BlockStoreT::TempStorage store;
  } temp_storage;
  const int block = static_cast<int>(blockIdx.x);
  std::int64_t items[7];
  BlockLoadT(temp_storage.load).Load(in + block * 896, items, valid_items[block]);
  __syncthreads();
  BlockStoreT(temp_storage.store).Store(out + block * 896, items, valid_items[block]);
}

//! Stores through `first + b * 512`: 128 threads with 4 ints each, thread t holding
//! 512b + 4t .. 512b + 4t + 3.
template <strata::BlockStoreAlgorithm ALGORITHM, typename IteratorT>
__global__ void store_iterator_kernel(IteratorT first)
{
  using BlockStoreT = strata::BlockStore<int, 128, 4, ALGORITHM>;
  __shared__ typename BlockStoreT::TempStorage temp_storage;
  const int block = static_cast<int>(blockIdx.x);
  int items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = block * 512 + static_cast<int>(threadIdx.x) * 4 + i;
  }
  BlockStoreT(temp_storage).Store(first + block * 512, items);
}

//! The documented example: 128 threads with 4 blocked ints each, thread t holding 4t .. 4t + 3,
//! stored with BLOCK_STORE_WARP_TRANSPOSE.
__global__ void documented_example_kernel(int* d_data)
{
  using BlockStoreT = strata::BlockStore<int, 128, 4, strata::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ BlockStoreT::TempStorage temp_storage;
  int thread_data[4];
  for (int i = 0; i < 4; ++i)
  {
    thread_data[i] = static_cast<int>(threadIdx.x) * 4 + i;
  }
  BlockStoreT(temp_storage).Store(d_data, thread_data);
}

struct store_policy
{
  static constexpr int BLOCK_THREADS                           = 96;
  static constexpr int ITEMS_PER_THREAD                        = 5;
  static constexpr strata::BlockStoreAlgorithm STORE_ALGORITHM = strata::BLOCK_STORE_WARP_TRANSPOSE;
};
} // namespace

TEMPLATE_LIST_TEST_CASE("BlockStore: every algorithm, full and guarded", "[block][store]", store_cases)
{
  STRATA_TEST_REQUIRE_GPU();
  using tile = typename TestType::tile;
  check_store<TestType>(
      static_cast<std::uint64_t>(TestType::algorithm * 100000 + tile::THREADS * 100 + TestType::items_per_thread));
}

TEST_CASE("BlockStore: a BlockLoad and a BlockStore sharing a TempStorage union", "[block][store]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int BLOCKS = 5;
  constexpr int TILE   = 128 * 7;
  const auto seed      = strata_test::seed(60);
  INFO("seed " << seed);
  const std::vector<std::int64_t> in = strata_test::random_vector<std::int64_t>(BLOCKS * TILE, seed);
  const std::vector<int> valid       = strata_test::valid_items_per_tile(BLOCKS, TILE, seed + 1);
  strata_test::device_buffer<std::int64_t> d_in(in);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<std::int64_t> d_out(BLOCKS * TILE);

  std::vector<std::int64_t> expected(in.size(), strata_test::poison_value<std::int64_t>());
  for (int b = 0; b < BLOCKS; ++b)
  {
    for (int k = 0; k < valid[static_cast<std::size_t>(b)]; ++k)
    {
      expected[static_cast<std::size_t>(b * TILE + k)] = in[static_cast<std::size_t>(b * TILE + k)];
    }
  }

  d_out.poison();
  copy_kernel<strata::BLOCK_LOAD_TRANSPOSE, strata::BLOCK_STORE_WARP_TRANSPOSE>
      <<<BLOCKS, 128>>>(d_in.data(), d_valid.data(), d_out.data());
  strata_test::check_launch();
  strata_test::check_equal(expected, d_out.download());

  d_out.poison();
  copy_kernel<strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, strata::BLOCK_STORE_TRANSPOSE>
      <<<BLOCKS, 128>>>(d_in.data(), d_valid.data(), d_out.data());
  strata_test::check_launch();
  strata_test::check_equal(expected, d_out.download());
}

TEST_CASE("BlockStore: output iterators other than pointers to T", "[block][store]")
{
  STRATA_TEST_REQUIRE_GPU();
  std::vector<int> identity(2 * 512);
  std::iota(identity.begin(), identity.end(), 0);

  SECTION("a cache-modified iterator, item by item (vectorize) and transposed")
  {
    strata_test::device_buffer<int> d_out(2 * 512);
    d_out.poison();
    store_iterator_kernel<strata::BLOCK_STORE_VECTORIZE>
        <<<2, 128>>>(strata::CacheModifiedOutputIterator<strata::STORE_CG, int>(d_out.data()));
    strata_test::check_launch();
    strata_test::check_equal(identity, d_out.download());

    d_out.poison();
    store_iterator_kernel<strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>
        <<<2, 128>>>(strata::CacheModifiedOutputIterator<strata::STORE_CG, int>(d_out.data()));
    strata_test::check_launch();
    strata_test::check_equal(identity, d_out.download());
  }
  SECTION("a pointer to a wider type, item by item (vectorize) and transposed")
  {
    const std::vector<long long> expected(identity.begin(), identity.end());
    strata_test::device_buffer<long long> d_out(2 * 512);
    d_out.poison();
    store_iterator_kernel<strata::BLOCK_STORE_VECTORIZE><<<2, 128>>>(d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());

    d_out.poison();
    store_iterator_kernel<strata::BLOCK_STORE_TRANSPOSE><<<2, 128>>>(d_out.data());
    strata_test::check_launch();
    strata_test::check_equal(expected, d_out.download());
  }
}

TEST_CASE("BlockStore: the documented example", "[block][store]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_data(512);
  d_data.poison();
  documented_example_kernel<<<1, 128>>>(d_data.data());
  strata_test::check_launch();
  // {[0,1,2,3], [4,5,6,7], ..., [508,509,510,511]} stored as 0, 1, 2, ..., 511.
  std::vector<int> expected(512);
  std::iota(expected.begin(), expected.end(), 0);
  strata_test::check_equal(expected, d_data.download());
}

TEST_CASE("BlockStore: TempStorage and BlockStoreType", "[block][store]")
{
  // Only the transposing algorithms need shared memory: the tile, or one warp's share of it.
  STATIC_REQUIRE(sizeof(strata::BlockStore<int, 128, 4, strata::BLOCK_STORE_STRIPED>::TempStorage) == 1);
  STATIC_REQUIRE(sizeof(strata::BlockStore<int, 80, 3, strata::BLOCK_STORE_TRANSPOSE>::TempStorage) == 80 * 3 * 4);
  STATIC_REQUIRE(sizeof(strata::BlockStore<int, 8, 4, strata::BLOCK_STORE_WARP_TRANSPOSE, 4, 2>::TempStorage)
                 == 64 * 4 * 4);
  STATIC_REQUIRE(sizeof(strata::BlockStore<double, 256, 8, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>::TempStorage)
                 == (256 + 8) * 8);

  STATIC_REQUIRE(std::is_same_v<strata::BlockStoreType<store_policy, int*>::type,
                                strata::BlockStore<int, 96, 5, strata::BLOCK_STORE_WARP_TRANSPOSE>>);
  STATIC_REQUIRE(std::is_same_v<strata::BlockStoreType<store_policy, int*, short>::type,
                                strata::BlockStore<short, 96, 5, strata::BLOCK_STORE_WARP_TRANSPOSE>>);
}

TEST_CASE("BlockStore tests: positions", "[block][store]")
{
  CHECK(stored_pos(strata::BLOCK_STORE_STRIPED, 5, 2, 80, 3) == 165);
  CHECK(stored_pos(strata::BLOCK_STORE_TRANSPOSE, 5, 2, 80, 3) == 17);
  CHECK(strata_test::poison_value<int>() == static_cast<int>(0xCDCDCDCDu));
}

// Tests of strata/block/block_merge_sort.cuh: BlockMergeSort Sort and StableSort, keys and
// key-value pairs, full and partial tiles (valid_items, oob_default), ascending and with a custom
// (descending) comparator, both constructors, over integers, float (+-0.0 compare equal), double,
// __half and the custom struct, power-of-two blocks from 32 to 1024 threads and 2D/3D shapes,
// items per thread in {1, 3, 4, 5, 7, 11}; against std::stable_sort. Keys repeat a lot, and values
// carry input positions, so stability is checked exactly; partial tiles are checked whole (the
// oob_default copies follow the valid keys). Also one TempStorage reused after __syncthreads(),
// and MergePath and SerialMerge alone. (Blocks of other than a power of two threads, e.g. 96, do
// not compile, as in CUB.)
#include <strata/block/block_merge_sort.cuh>

#include "common/shapes.cuh"
#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace
{
constexpr int merge_blocks = 4;

using strata_test::less_op;

struct greater_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return b < a;
  }
};

enum merge_mode : int
{
  sort_less,           // Sort with less, caller storage
  stable_sort_greater, // StableSort with greater, private storage
  partial_less,        // Sort of valid_items keys, oob_default = the largest key
  partial_stable_greater,
};

template <typename KeyT, bool PAIRS, int BX, int BY, int BZ, int IPT>
struct merge_config : strata_test::block_shape<BX, BY, BZ, IPT>
{
  using key_type              = KeyT;
  using value_type            = std::conditional_t<PAIRS, int, strata::NullType>;
  static constexpr bool pairs = PAIRS;
  using sort_type             = strata::BlockMergeSort<KeyT, BX, IPT, value_type, BY, BZ>;
};

template <typename ConfigT>
__global__ void __launch_bounds__(ConfigT::threads)
    merge_kernel(const typename ConfigT::key_type* keys_in, const int* valid, int mode, typename ConfigT::key_type oob,
                 typename ConfigT::key_type* keys_out, int* values_out)
{
  using KeyT        = typename ConfigT::key_type;
  using SortT       = typename ConfigT::sort_type;
  constexpr int IPT = ConfigT::items;
  __shared__ typename SortT::TempStorage storage;

  const int rank  = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block = static_cast<int>(blockIdx.x);
  const int base  = block * ConfigT::tile;
  KeyT keys[IPT];
  int values[IPT];
  for (int i = 0; i < IPT; ++i)
  {
    keys[i]   = keys_in[base + rank * IPT + i];
    values[i] = rank * IPT + i;
  }
  const int valid_items = valid[block];
  switch (mode)
  {
  case sort_less:
    if constexpr (ConfigT::pairs)
      SortT(storage).Sort(keys, values, less_op{});
    else
      SortT(storage).Sort(keys, less_op{});
    break;
  case stable_sort_greater:
    if constexpr (ConfigT::pairs)
      SortT().StableSort(keys, values, greater_op{});
    else
      SortT().StableSort(keys, greater_op{});
    break;
  case partial_less:
    if constexpr (ConfigT::pairs)
      SortT(storage).Sort(keys, values, less_op{}, valid_items, oob);
    else
      SortT(storage).Sort(keys, less_op{}, valid_items, oob);
    break;
  default:
    if constexpr (ConfigT::pairs)
      SortT(storage).StableSort(keys, values, greater_op{}, valid_items, oob);
    else
      SortT(storage).StableSort(keys, greater_op{}, valid_items, oob);
    break;
  }
  for (int i = 0; i < IPT; ++i)
  {
    keys_out[base + rank * IPT + i] = keys[i];
    if constexpr (ConfigT::pairs)
    {
      values_out[base + rank * IPT + i] = values[i];
    }
  }
}

//! Keys from a small range (many repeats), as T.
template <typename KeyT>
std::vector<KeyT> repeating_keys(std::size_t n, std::uint64_t seed)
{
  strata_test::generator<int> gen(seed);
  std::vector<KeyT> keys(n);
  for (auto& key : keys)
  {
    if constexpr (std::is_same_v<KeyT, strata_test::custom_t>)
    {
      key = strata_test::custom_t{gen(-3, 3), gen(-3, 3), gen(-3, 3)};
    }
    else if constexpr (strata_test::is_floating_v<KeyT>)
    {
      const int v = gen(-20, 20);
      key         = strata_test::from_double<KeyT>(v == 0 && gen(0, 1) ? -0.0 : double(v)); // both zeros
    }
    else
    {
      key = static_cast<KeyT>(gen(std::is_signed_v<KeyT> ? -20 : 0, 40));
    }
  }
  return keys;
}

//! Host order matching the device comparators (the 16-bit floats through double).
template <typename KeyT>
bool host_less(const KeyT& a, const KeyT& b)
{
  if constexpr (strata_test::is_extended_float_v<KeyT>)
  {
    return strata_test::to_double(a) < strata_test::to_double(b);
  }
  else
  {
    return a < b;
  }
}

template <typename KeyT>
KeyT largest_key()
{
  if constexpr (std::is_same_v<KeyT, strata_test::custom_t>)
  {
    return strata_test::custom_t{100, 100, 100};
  }
  else
  {
    return strata_test::from_double<KeyT>(100.0);
  }
}

template <typename KeyT>
KeyT smallest_key()
{
  if constexpr (std::is_same_v<KeyT, strata_test::custom_t>)
  {
    return strata_test::custom_t{-100, -100, -100};
  }
  else
  {
    return strata_test::from_double<KeyT>(std::is_signed_v<KeyT> || strata_test::is_floating_v<KeyT> ? -100.0 : 0.0);
  }
}

template <typename ConfigT>
void check_merge_sort(std::uint64_t salt)
{
  using KeyT               = typename ConfigT::key_type;
  constexpr int TILE       = ConfigT::tile;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO("block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", "
                << ConfigT::items << " items per thread, " << (ConfigT::pairs ? "pairs" : "keys") << ", seed " << seed);
  const std::vector<KeyT> keys = repeating_keys<KeyT>(std::size_t(merge_blocks) * TILE, seed);
  strata_test::generator<int> gen(seed + 1);
  // Partial tiles: one key, all but one, a random count, none.
  const std::vector<int> valid = {1, TILE - 1, gen(0, TILE), 0};

  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<KeyT> d_keys_out(keys.size());
  strata_test::device_buffer<int> d_values_out(keys.size());
  for (int mode : {sort_less, stable_sort_greater, partial_less, partial_stable_greater})
  {
    const bool descending = mode == stable_sort_greater || mode == partial_stable_greater;
    const bool partial    = mode == partial_less || mode == partial_stable_greater;
    INFO("mode " << mode);
    d_keys_out.poison();
    d_values_out.poison();
    const KeyT oob = descending ? smallest_key<KeyT>() : largest_key<KeyT>();
    merge_kernel<ConfigT><<<merge_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(
        d_keys.data(), d_valid.data(), mode, oob, d_keys_out.data(), d_values_out.data());
    strata_test::check_launch();
    const std::vector<KeyT> keys_out  = d_keys_out.download();
    const std::vector<int> values_out = d_values_out.download();
    for (int b = 0; b < merge_blocks; ++b)
    {
      const int count = partial ? valid[b] : TILE;
      INFO("block " << b << ", " << count << " valid items");
      std::vector<int> order(count);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int x, int y)
                       {
                         const KeyT& kx = keys[b * TILE + x];
                         const KeyT& ky = keys[b * TILE + y];
                         return descending ? host_less(ky, kx) : host_less(kx, ky);
                       });
      std::vector<KeyT> expected_keys;
      const std::vector<KeyT> actual_keys(keys_out.begin() + b * TILE, keys_out.begin() + (b + 1) * TILE);
      for (int p : order)
      {
        expected_keys.push_back(keys[b * TILE + p]);
      }
      // The whole tile is sorted: after the valid keys come the oob_default copies, in input order.
      for (int p = count; p < TILE; ++p)
      {
        order.push_back(p);
        expected_keys.push_back(oob);
      }
      // Bitwise: -0.0 and +0.0 must keep their input order.
      std::size_t bit_mismatches = 0;
      for (int p = 0; p < TILE; ++p)
      {
        bit_mismatches += std::memcmp(&expected_keys[p], &actual_keys[p], sizeof(KeyT)) != 0;
      }
      CHECK(bit_mismatches == 0);
      if (ConfigT::pairs)
      {
        const std::vector<int> actual_values(values_out.begin() + b * TILE, values_out.begin() + (b + 1) * TILE);
        strata_test::check_equal(order, actual_values);
      }
    }
  }
}

// clang-format off
using merge_configs = std::tuple<
  merge_config<std::int8_t,            false, 32, 1, 1, 1>,
  merge_config<std::uint16_t,          true,  128, 1, 1, 3>,
  merge_config<std::int32_t,           true,  256, 1, 1, 4>,
  merge_config<std::uint32_t,          false, 1024, 1, 1, 3>,
  merge_config<float,                  true,  16, 8, 1, 11>,
  merge_config<double,                 false, 8, 4, 2, 4>,
  merge_config<__half,                 true,  32, 1, 1, 7>,
  merge_config<strata_test::custom_t,  true,  64, 1, 1, 3>,
  merge_config<std::uint64_t,          true,  128, 1, 1, 7>,
  merge_config<std::int64_t,           true,  256, 1, 1, 11>>;
// clang-format on

__global__ void merge_primitives_kernel(const int* runs, int count1, int count2, int* split_out, int* merged,
                                        int* indices_out)
{
  // Thread t merges outputs [4t, 4t + 4) of runs[0, count1) and runs[count1, count1 + count2).
  constexpr int IPT      = 4;
  const int diag         = static_cast<int>(threadIdx.x) * IPT;
  const int split        = strata::MergePath(runs, runs + count1, count1, count2, diag, less_op{});
  split_out[threadIdx.x] = split;
  int keys[IPT];
  int indices[IPT];
  strata::SerialMerge(runs, split, count1 + diag - split, count1 - split, count2 - (diag - split), keys, indices,
                      less_op{});
  for (int i = 0; i < IPT; ++i)
  {
    merged[diag + i]      = keys[i];
    indices_out[diag + i] = indices[i];
  }
}

//! One TempStorage for two sorts of one block, with a __syncthreads() between them: first the
//! keys of tile 2b ascending, then the pairs of tile 2b + 1 descending, the first valid[b] of them.
constexpr int reuse_threads = 64;
constexpr int reuse_items   = 5;
constexpr int reuse_tile    = reuse_threads * reuse_items;
using reuse_sort            = strata::BlockMergeSort<int, reuse_threads, reuse_items, int>;

__global__ void __launch_bounds__(reuse_threads)
    merge_reuse_kernel(const int* keys_in, const int* valid, int* keys_out, int* values_out)
{
  __shared__ reuse_sort::TempStorage storage;
  const int rank = static_cast<int>(threadIdx.x);
  int keys[reuse_items];
  int values[reuse_items];
  for (int tile = 2 * static_cast<int>(blockIdx.x); tile < 2 * static_cast<int>(blockIdx.x) + 2; ++tile)
  {
    const int base = tile * reuse_tile;
    for (int i = 0; i < reuse_items; ++i)
    {
      keys[i]   = keys_in[base + rank * reuse_items + i];
      values[i] = rank * reuse_items + i;
    }
    if (tile % 2 == 0)
    {
      reuse_sort(storage).Sort(keys, less_op{});
    }
    else
    {
      __syncthreads(); // the first sort's last reads of the storage are done
      reuse_sort(storage).StableSort(keys, values, greater_op{}, valid[blockIdx.x], -1000);
    }
    for (int i = 0; i < reuse_items; ++i)
    {
      keys_out[base + rank * reuse_items + i]   = keys[i];
      values_out[base + rank * reuse_items + i] = values[i];
    }
  }
}
} // namespace

TEMPLATE_LIST_TEST_CASE("BlockMergeSort sorts stably, full and partial tiles", "[block][merge_sort]", merge_configs)
{
  STRATA_TEST_REQUIRE_GPU();
  check_merge_sort<TestType>(131);
}

TEST_CASE("MergePath and SerialMerge merge two sorted runs stably", "[block][merge_sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(137);
  INFO("seed " << seed);
  // Runs of 37 and 91 keys (128 = 32 threads x 4), with keys common to both.
  const int count1 = 37;
  const int count2 = 91;
  strata_test::generator<int> gen(seed);
  std::vector<int> runs(count1 + count2);
  for (int& key : runs)
  {
    key = gen(0, 30);
  }
  std::sort(runs.begin(), runs.begin() + count1);
  std::sort(runs.begin() + count1, runs.end());
  std::vector<int> order(runs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return runs[x] < runs[y]; });

  strata_test::device_buffer<int> d_runs(runs);
  strata_test::device_buffer<int> d_split(32);
  strata_test::device_buffer<int> d_merged(runs.size());
  strata_test::device_buffer<int> d_indices(runs.size());
  d_merged.poison();
  d_indices.poison();
  merge_primitives_kernel<<<1, 32>>>(d_runs.data(), count1, count2, d_split.data(), d_merged.data(), d_indices.data());
  strata_test::check_launch();
  std::vector<int> expected_keys;
  for (int p : order)
  {
    expected_keys.push_back(runs[p]);
  }
  strata_test::check_equal(expected_keys, d_merged.download());
  strata_test::check_equal(order, d_indices.download());
  // The split of output 4t counts the first run's keys among the first 4t merged keys.
  const std::vector<int> splits = d_split.download();
  for (int t = 0; t < 32; ++t)
  {
    const int from_first =
        static_cast<int>(std::count_if(order.begin(), order.begin() + 4 * t, [&](int p) { return p < count1; }));
    CHECK(splits[t] == from_first);
  }
}

TEST_CASE("BlockMergeSort reuses its TempStorage after __syncthreads()", "[block][merge_sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(149);
  INFO("seed " << seed);
  const std::vector<int> keys = repeating_keys<int>(std::size_t(2) * merge_blocks * reuse_tile, seed);
  strata_test::generator<int> gen(seed + 1);
  const std::vector<int> valid = {reuse_tile, reuse_tile - 1, gen(1, reuse_tile), 0};

  strata_test::device_buffer<int> d_keys(keys);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<int> d_keys_out(keys.size());
  strata_test::device_buffer<int> d_values_out(keys.size());
  d_keys_out.poison();
  d_values_out.poison();
  merge_reuse_kernel<<<merge_blocks, reuse_threads>>>(d_keys.data(), d_valid.data(), d_keys_out.data(),
                                                      d_values_out.data());
  strata_test::check_launch();
  const std::vector<int> keys_out   = d_keys_out.download();
  const std::vector<int> values_out = d_values_out.download();
  for (int tile = 0; tile < 2 * merge_blocks; ++tile)
  {
    const bool second = tile % 2 == 1;
    const int count   = second ? valid[tile / 2] : reuse_tile;
    const int base    = tile * reuse_tile;
    INFO("tile " << tile << ", " << count << " valid items");
    std::vector<int> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y)
                     { return second ? keys[base + y] < keys[base + x] : keys[base + x] < keys[base + y]; });
    std::vector<int> expected_keys;
    for (int p : order)
    {
      expected_keys.push_back(keys[base + p]);
    }
    for (int p = count; p < reuse_tile; ++p) // the oob_default copies, in input order
    {
      order.push_back(p);
      expected_keys.push_back(-1000);
    }
    strata_test::check_equal(expected_keys,
                             std::vector<int>(keys_out.begin() + base, keys_out.begin() + base + reuse_tile));
    if (second)
    {
      strata_test::check_equal(order,
                               std::vector<int>(values_out.begin() + base, values_out.begin() + base + reuse_tile));
    }
  }
}

// Tests of strata/device/device_merge.cuh: MergeKeys and MergePairs of int8, int32, uint64, float
// (signed zeros tie across the inputs), double and a 16-byte record with a comparator, against
// std::merge (which puts the first input's equal keys first), at empty, tiny, tile-edge, lopsided
// and large sizes (the large ones take the partition kernel); values tell which input and position
// each output came from. The same merges at the small sizes through the partition kernel (a policy
// hub's PARTITION_MIN_TILES), records of 800 bytes (tiles of one warp), a descending order, keys
// and values read through iterators, misaligned pointers, empty inputs behind null pointers, bad
// arguments (an error code, nothing written), a merge on a stream of its own, and merges of more
// than 2^31 and 2^32 items from iterators, checked in closed form.
#include <strata/device/device_merge.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;

//! A 16-byte record ordered by `key` alone.
struct record
{
  std::int64_t key;
  std::uint32_t a;
  std::uint32_t b;
};
struct record_less
{
  __host__ __device__ bool operator()(const record& x, const record& y) const
  {
    return x.key < y.key;
  }
};

//! A record of 800 bytes: DeviceMerge's tile shrinks to one warp of one record each.
struct big_record
{
  std::int32_t key;
  std::uint32_t words[199];
};
struct big_record_less
{
  __host__ __device__ bool operator()(const big_record& x, const big_record& y) const
  {
    return x.key < y.key;
  }
};

struct greater_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a > b;
  }
};

//! n sorted keys of T (by `compare`), with many equal ones: random in a small range, or (floats)
//! small integers with signed zeros.
template <typename T, typename CompareT>
std::vector<T> sorted_keys(std::size_t n, std::uint64_t seed, CompareT compare)
{
  std::vector<T> keys(n);
  if constexpr (std::is_same_v<T, record>)
  {
    const std::vector<std::int32_t> words = strata_test::random_vector<std::int32_t>(2 * n, seed, -500, 500);
    for (std::size_t i = 0; i < n; ++i)
    {
      keys[i] = record{words[2 * i], std::uint32_t(i), std::uint32_t(words[2 * i + 1])};
    }
  }
  else if constexpr (std::is_same_v<T, big_record>)
  {
    const std::vector<std::int32_t> words = strata_test::random_vector<std::int32_t>(n, seed, -300, 300);
    for (std::size_t i = 0; i < n; ++i)
    {
      keys[i].key = words[i];
      for (std::uint32_t j = 0; j < 99; ++j)
      {
        keys[i].words[j] = std::uint32_t(seed) + std::uint32_t(i) * 99 + j;
      }
    }
  }
  else if constexpr (std::is_floating_point_v<T>)
  {
    const std::vector<std::int32_t> words = strata_test::random_vector<std::int32_t>(n, seed, -50, 50);
    for (std::size_t i = 0; i < n; ++i)
    {
      keys[i] = words[i] == 0 ? (i % 2 == 0 ? T(0) : -T(0)) : T(words[i]) / T(4);
    }
  }
  else
  {
    const double hi = double(std::numeric_limits<T>::max()) < 2000 ? double(std::numeric_limits<T>::max()) : 2000;
    keys            = strata_test::random_vector<T>(n, seed, std::is_signed_v<T> ? -100 : 0, hi);
  }
  std::stable_sort(keys.begin(), keys.end(), compare);
  return keys;
}

//! DeviceMerge's sm_90 tile for KeyT keys and ValueT values, but every merge of at least one tile
//! takes its splits from the partition kernel (PARTITION_MIN_TILES = 1; the sm_90 policy waits for
//! 1024 tiles, about 4 M items), so that merges of tens of thousands of items run that kernel,
//! under the sanitizers too. A chain of one policy: any GPU runs it.
template <typename KeyT, typename ValueT>
struct partition_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using merge_policy = typename strata::detail::merge::policy_hub<KeyT, ValueT>::Policy900::merge_policy;
    static constexpr long long PARTITION_MIN_TILES = 1;
  };
  using max_policy = Policy;
  using MaxPolicy  = Policy;
};

//! The tile of a merge of T keys with ValueT values on sm_90 (NullType: keys only).
template <typename T, typename ValueT = std::uint32_t>
inline constexpr std::size_t merge_tile_v =
    strata::detail::merge::fitted_merge_policy_t<typename strata::detail::merge::policy_hub<T, ValueT>::Policy900, T,
                                                 ValueT>::ITEMS_PER_TILE;

//! The fewest tiles for which the sm_90 policy takes the partition kernel.
inline constexpr long long partition_min_tiles_v =
    strata::detail::merge_sort::partition_min_tiles_v<strata::detail::merge::policy_hub<int, int>::Policy900>;

//! How a checked merge runs: DeviceMerge's MergeKeys and MergePairs, or detail::merge::dispatch_t
//! with partition_hub.
enum class merge_path
{
  public_api,
  partition_kernel
};

//! One call of a checked merge of keys1[0, n1) and keys2[0, n2) (with values) into the outputs.
template <merge_path PATH, typename T, typename CompareT>
cudaError_t run_merge(void* d_temp, std::size_t& bytes, const T* keys1, const std::uint32_t* values1, std::size_t n1,
                      const T* keys2, const std::uint32_t* values2, std::size_t n2, T* keys_out,
                      std::uint32_t* values_out, bool pairs, CompareT compare)
{
  if constexpr (PATH == merge_path::public_api)
  {
    return pairs ? strata::DeviceMerge::MergePairs(d_temp, bytes, keys1, values1, std::int64_t(n1), keys2, values2,
                                                   std::int64_t(n2), keys_out, values_out, compare)
                 : strata::DeviceMerge::MergeKeys(d_temp, bytes, keys1, std::int64_t(n1), keys2, std::int64_t(n2),
                                                  keys_out, compare);
  }
  else
  {
    using null_t = strata::NullType*;
    using keys_t = strata::detail::merge::dispatch_t<const T*, null_t, const T*, null_t, T*, null_t, std::int64_t,
                                                     CompareT, partition_hub<T, strata::NullType>>;
    using pairs_t =
        strata::detail::merge::dispatch_t<const T*, const std::uint32_t*, const T*, const std::uint32_t*, T*,
                                          std::uint32_t*, std::int64_t, CompareT, partition_hub<T, std::uint32_t>>;
    return pairs ? pairs_t::dispatch(d_temp, bytes, keys1, values1, std::int64_t(n1), keys2, values2, std::int64_t(n2),
                                     keys_out, values_out, compare, cudaStream_t{})
                 : keys_t::dispatch(d_temp, bytes, keys1, nullptr, std::int64_t(n1), keys2, nullptr, std::int64_t(n2),
                                    keys_out, nullptr, compare, cudaStream_t{});
  }
}

template <typename T>
bool same_bytes(const std::vector<T>& x, const std::vector<T>& y)
{
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

//! Merges keys1 (values: positions) and keys2 (values: positions with the top bit set) with
//! MergeKeys or MergePairs into poisoned outputs and checks both against std::merge, byte for byte.
//! On the partition kernel's path the temporary storage must hold a split per tile (the public
//! API's small merges ask for a byte), which shows that the hub's PARTITION_MIN_TILES was read.
template <merge_path PATH = merge_path::public_api, typename T, typename CompareT>
void check_merge(const std::vector<T>& keys1, const std::vector<T>& keys2, bool pairs, CompareT compare)
{
  const std::size_t n1 = keys1.size();
  const std::size_t n2 = keys2.size();
  INFO("num_items1 " << n1 << ", num_items2 " << n2 << (pairs ? ", pairs" : ", keys")
                     << (PATH == merge_path::partition_kernel ? ", through the partition kernel" : ""));
  using item_t = std::pair<T, std::uint32_t>;
  std::vector<item_t> items1(n1);
  std::vector<item_t> items2(n2);
  for (std::size_t i = 0; i < n1; ++i)
  {
    items1[i] = {keys1[i], std::uint32_t(i)};
  }
  for (std::size_t i = 0; i < n2; ++i)
  {
    items2[i] = {keys2[i], std::uint32_t(i) | 0x80000000u};
  }
  std::vector<item_t> merged(n1 + n2);
  std::merge(items1.begin(), items1.end(), items2.begin(), items2.end(), merged.begin(),
             [&](const item_t& a, const item_t& b) { return compare(a.first, b.first); });
  std::vector<T> expected_keys(n1 + n2);
  std::vector<std::uint32_t> expected_values(n1 + n2);
  std::vector<std::uint32_t> values1(n1);
  std::vector<std::uint32_t> values2(n2);
  for (std::size_t i = 0; i < n1 + n2; ++i)
  {
    expected_keys[i]   = merged[i].first;
    expected_values[i] = merged[i].second;
  }
  for (std::size_t i = 0; i < n1; ++i)
  {
    values1[i] = items1[i].second;
  }
  for (std::size_t i = 0; i < n2; ++i)
  {
    values2[i] = items2[i].second;
  }

  device_buffer<T> d_keys1(keys1);
  device_buffer<T> d_keys2(keys2);
  device_buffer<std::uint32_t> d_values1(values1);
  device_buffer<std::uint32_t> d_values2(values2);
  device_buffer<T> d_keys_out(n1 + n2 + 5);
  device_buffer<std::uint32_t> d_values_out(n1 + n2 + 5);
  d_keys_out.poison();
  d_values_out.poison();
  const std::vector<T> poisoned_keys               = d_keys_out.download();
  const std::vector<std::uint32_t> poisoned_values = d_values_out.download();
  std::size_t bytes                                = 0;
  const auto call                                  = [&](void* d_temp)
  {
    return run_merge<PATH>(d_temp, bytes, d_keys1.data(), d_values1.data(), n1, d_keys2.data(), d_values2.data(), n2,
                           d_keys_out.data(), d_values_out.data(), pairs, compare);
  };
  STRATA_TEST_CUDA(call(nullptr));
  CHECK(bytes >= 1);
  if constexpr (PATH == merge_path::partition_kernel)
  {
    const std::size_t tile = pairs ? merge_tile_v<T> : merge_tile_v<T, strata::NullType>;
    CHECK(bytes >= (n1 + n2 + tile - 1) / tile * sizeof(std::uint64_t));
  }
  device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison(); // the partition's splits must be written before they are read
  STRATA_TEST_CUDA(call(d_temp.data()));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());

  std::vector<T> keys_out = d_keys_out.download();
  CHECK(std::memcmp(keys_out.data() + n1 + n2, poisoned_keys.data() + n1 + n2, 5 * sizeof(T)) == 0);
  keys_out.resize(n1 + n2);
  CHECK(same_bytes(expected_keys, keys_out));
  std::vector<std::uint32_t> values_out = d_values_out.download();
  if (pairs)
  {
    CHECK(std::equal(values_out.begin() + std::ptrdiff_t(n1 + n2), values_out.end(),
                     poisoned_values.begin() + std::ptrdiff_t(n1 + n2)));
    values_out.resize(n1 + n2);
    strata_test::check_equal(expected_values, values_out);
  }
  else
  {
    CHECK(values_out == poisoned_values); // keys only: no value written
  }
}

//! The small sizes of both inputs of T keys: empty, tiny, around one tile of pairs and of keys,
//! lopsided, and about 10^5 items (the largest that compute-sanitizer runs).
template <typename T>
std::vector<std::pair<std::size_t, std::size_t>> small_merge_sizes()
{
  constexpr std::size_t tile      = merge_tile_v<T>;
  constexpr std::size_t keys_tile = merge_tile_v<T, strata::NullType>;
  return {{0, 0},
          {0, 5},
          {5, 0},
          {1, 1},
          {tile - 1, 1},
          {tile / 2, tile / 2},
          {tile, tile + 1},
          {3 * tile + 7, 5},
          {100003, 7},
          {7, 100003},
          {60001, 40009},
          {keys_tile - 1, 1},
          {keys_tile / 2, keys_tile / 2 + 1}};
}

//! The largest merge of merge_sizes: the sm_90 policy takes the partition kernel for it.
inline constexpr std::size_t large_merge_items = (std::size_t(1) << 22) + 5 + (std::size_t(1) << 23) + 3;

//! The sizes of both inputs: the small ones and, outside compute-sanitizer, 2.5 M items and
//! large_merge_items.
template <typename T>
std::vector<std::pair<std::size_t, std::size_t>> merge_sizes()
{
  std::vector<std::pair<std::size_t, std::size_t>> sizes = small_merge_sizes<T>();
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back({1000003, 1500007});
    sizes.push_back({(std::size_t(1) << 22) + 5, (std::size_t(1) << 23) + 3});
  }
  return sizes;
}

using merge_types = std::tuple<std::int8_t, std::int32_t, std::uint64_t, float, double>;

//! Whether large_merge_items make enough tiles for the sm_90 policy's partition kernel, keys and pairs.
template <typename... Ts>
constexpr bool large_merges_partition(std::tuple<Ts...>*)
{
  return ((large_merge_items / merge_tile_v<Ts> >= std::size_t(partition_min_tiles_v)
           && large_merge_items / merge_tile_v<Ts, strata::NullType> >= std::size_t(partition_min_tiles_v))
          && ...);
}
static_assert(large_merges_partition(static_cast<merge_types*>(nullptr)));

//! The largest merges' inputs: item i of an input of n items has key floor(i * 255 / n), so that
//! both inputs are sorted, every key from 0 to 254 runs through both, and 255 (the outputs'
//! poison) never appears.
struct block_key_op
{
  std::uint64_t n;
  __host__ __device__ std::uint8_t operator()(std::int64_t i) const
  {
    return std::uint8_t(std::uint64_t(i) * 255 / n);
  }
};

//! ... and value a hash of (2i + INPUT) below 255: which input and position an output came from.
template <int INPUT>
struct hash_value_op
{
  __host__ __device__ std::uint8_t operator()(std::int64_t i) const
  {
    return std::uint8_t(((std::uint64_t(2 * i + INPUT) * 0x9E3779B97F4A7C15ull) >> 56) % 255u);
  }
};

using counting_t   = strata::CountingInputIterator<std::int64_t>;
using block_keys_t = strata::TransformInputIterator<std::uint8_t, block_key_op, counting_t>;
template <int INPUT>
using hash_values_t = strata::TransformInputIterator<std::uint8_t, hash_value_op<INPUT>, counting_t>;

//! The merge of two inputs of block_key_op keys (n1 and n2 items; values hash_value_op<0> and <1>)
//! in closed form: the merge of key k holds the first input's items [c1(k), c1(k + 1)), then the
//! second's [c2(k), c2(k + 1)), where c(k) = ceil(k n / 255) items of an input have smaller keys;
//! 255 after the last item. Compares outputs chunk after chunk, from the first item on.
class block_merge_reference
{
public:
  block_merge_reference(std::uint64_t n1, std::uint64_t n2)
      : n1(n1)
      , n2(n2)
  {
  }

  //! The mismatches of output items [begin, begin + count) in `keys` (and `values`, unless null);
  //! `begin` is where the previous call ended.
  std::uint64_t mismatches(std::uint64_t begin, const std::uint8_t* keys, const std::uint8_t* values,
                           std::uint64_t count)
  {
    std::uint64_t wrong = 0;
    for (std::uint64_t j = 0; j < count; ++j)
    {
      const std::uint64_t k = begin + j;
      while (k >= next_start && key < 255)
      {
        Next();
      }
      // Past the last item, key 255 and end == the total: the poison, 255, is expected.
      const std::uint8_t expected_key   = std::uint8_t(key);
      const std::uint8_t expected_value = key == 255   ? std::uint8_t(255)
                                          : k < middle ? hash_value_op<0>{}(std::int64_t(from1 + (k - key_start)))
                                                       : hash_value_op<1>{}(std::int64_t(from2 + (k - middle)));
      const bool bad                    = keys[j] != expected_key || (values != nullptr && values[j] != expected_value);
      first_wrong                       = bad && first_wrong == ~std::uint64_t(0) ? k : first_wrong;
      wrong += bad;
    }
    return wrong;
  }

  std::uint64_t first_wrong = ~std::uint64_t(0);

private:
  static std::uint64_t smaller(std::uint64_t key, std::uint64_t n)
  {
    return (key * n + 254) / 255;
  }

  //! Moves on to the next key: its items start at key_start, the second input's at middle.
  void Next()
  {
    ++key;
    key_start  = next_start;
    from1      = smaller(key, n1);
    from2      = smaller(key, n2);
    middle     = key_start + (key < 255 ? smaller(key + 1, n1) - from1 : 0);
    next_start = key < 255 ? smaller(key + 1, n1) + smaller(key + 1, n2) : ~std::uint64_t(0);
  }

  std::uint64_t n1;
  std::uint64_t n2;
  // The key of the last item compared, the output position of its first item and of its first
  // item from the second input, and the first input positions of its items in both inputs.
  std::uint64_t key        = 0;
  std::uint64_t key_start  = 0;
  std::uint64_t middle     = smaller(1, n1);
  std::uint64_t from1      = 0;
  std::uint64_t from2      = 0;
  std::uint64_t next_start = smaller(1, n1) + smaller(1, n2);
};

//! Checks every output item of a merge of block_key_op inputs and `guard` poisoned bytes after them
//! against block_merge_reference, downloading 64 MiB at a time.
void check_block_merge(const std::uint8_t* d_keys, const std::uint8_t* d_values, std::uint64_t n1, std::uint64_t n2,
                       std::uint64_t guard)
{
  constexpr std::uint64_t chunk = std::uint64_t(1) << 26;
  block_merge_reference reference(n1, n2);
  std::vector<std::uint8_t> keys(chunk);
  std::vector<std::uint8_t> values(chunk);
  std::uint64_t wrong = 0;
  for (std::uint64_t begin = 0; begin < n1 + n2 + guard; begin += chunk)
  {
    const std::uint64_t count = std::min(chunk, n1 + n2 + guard - begin);
    STRATA_TEST_CUDA(cudaMemcpy(keys.data(), d_keys + begin, count, cudaMemcpyDeviceToHost));
    if (d_values != nullptr)
    {
      STRATA_TEST_CUDA(cudaMemcpy(values.data(), d_values + begin, count, cudaMemcpyDeviceToHost));
    }
    wrong += reference.mismatches(begin, keys.data(), d_values != nullptr ? values.data() : nullptr, count);
  }
  INFO(wrong << " of " << n1 + n2 << " items (and " << guard << " guard bytes) differ, the first at "
             << reference.first_wrong);
  CHECK(wrong == 0);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceMerge merges keys and pairs stably", "[device][merge]", merge_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(441);
  INFO("seed " << seed);
  const auto less = strata_test::less_op{};
  for (const auto& [n1, n2] : merge_sizes<T>())
  {
    const std::vector<T> keys1 = sorted_keys<T>(n1, seed + n1, less);
    const std::vector<T> keys2 = sorted_keys<T>(n2, seed + 3 * n2 + 1, less);
    check_merge(keys1, keys2, false, less);
    check_merge(keys1, keys2, true, less);
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceMerge merges keys and pairs stably through the partition kernel", "[device][merge]",
                        merge_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(447);
  INFO("seed " << seed);
  const auto less = strata_test::less_op{};
  for (const auto& [n1, n2] : small_merge_sizes<T>())
  {
    const std::vector<T> keys1 = sorted_keys<T>(n1, seed + n1, less);
    const std::vector<T> keys2 = sorted_keys<T>(n2, seed + 3 * n2 + 1, less);
    check_merge<merge_path::partition_kernel>(keys1, keys2, false, less);
    check_merge<merge_path::partition_kernel>(keys1, keys2, true, less);
  }
}

TEST_CASE("DeviceMerge merges records by a comparator and in descending order", "[device][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(443);
  INFO("seed " << seed);
  for (const auto& [n1, n2] : {std::pair<std::size_t, std::size_t>{1, 1}, {3000, 70001}, {100003, 99991}})
  {
    check_merge(sorted_keys<record>(n1, seed, record_less{}), sorted_keys<record>(n2, seed + 1, record_less{}), true,
                record_less{});
    check_merge(sorted_keys<std::int32_t>(n1, seed + 2, greater_op{}),
                sorted_keys<std::int32_t>(n2, seed + 3, greater_op{}), true, greater_op{});
  }
  check_merge<merge_path::partition_kernel>(sorted_keys<record>(3000, seed + 4, record_less{}),
                                            sorted_keys<record>(70001, seed + 5, record_less{}), true, record_less{});
  check_merge<merge_path::partition_kernel>(sorted_keys<record>(3000, seed + 4, record_less{}),
                                            sorted_keys<record>(70001, seed + 5, record_less{}), false, record_less{});
}

TEST_CASE("DeviceMerge merges records of 800 bytes in tiles of one warp", "[device][merge]")
{
  // One warp searches both splits of a tile where the block has no second warp.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(449);
  INFO("seed " << seed);
  using policy_t = strata::detail::merge::fitted_merge_policy_t<
      typename strata::detail::merge::policy_hub<big_record, strata::NullType>::Policy900, big_record,
      strata::NullType>;
  STATIC_REQUIRE(policy_t::BLOCK_THREADS == 32);
  for (const auto& [n1, n2] : {std::pair<std::size_t, std::size_t>{1, 0}, {31, 2}, {2001, 1003}})
  {
    const std::vector<big_record> keys1 = sorted_keys<big_record>(n1, seed + n1, big_record_less{});
    const std::vector<big_record> keys2 = sorted_keys<big_record>(n2, seed + n2 + 1, big_record_less{});
    check_merge(keys1, keys2, false, big_record_less{});
    check_merge(keys1, keys2, true, big_record_less{});
    check_merge<merge_path::partition_kernel>(keys1, keys2, false, big_record_less{});
    check_merge<merge_path::partition_kernel>(keys1, keys2, true, big_record_less{});
  }
}

TEST_CASE("DeviceMerge reads keys and values through iterators and misaligned pointers", "[device][merge]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(445);
  INFO("seed " << seed);
  // keys2 = 0, 1, 2, ... (a counting iterator); values from counting iterators too.
  const std::size_t n1 = 200003;
  const std::size_t n2 = 150001;
  std::vector<std::int64_t> keys1 =
      strata_test::random_vector<std::int64_t>(n1 + 1, seed, 0, double(n2)); // element 0 is the misalignment
  std::sort(keys1.begin() + 1, keys1.end());
  std::vector<std::int64_t> expected_keys;
  std::vector<std::int64_t> expected_values;
  {
    std::vector<std::pair<std::int64_t, std::int64_t>> a(n1);
    std::vector<std::pair<std::int64_t, std::int64_t>> b(n2);
    for (std::size_t i = 0; i < n1; ++i)
    {
      a[i] = {keys1[i + 1], std::int64_t(i) + 1000};
    }
    for (std::size_t i = 0; i < n2; ++i)
    {
      b[i] = {std::int64_t(i), -std::int64_t(i) - 1};
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> merged(n1 + n2);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin(),
               [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& item : merged)
    {
      expected_keys.push_back(item.first);
      expected_values.push_back(item.second);
    }
  }
  // Values of the second input: -1, -2, ... through a counting iterator's negation is not one
  // iterator of strata's; store them instead.
  std::vector<std::int64_t> values2(n2);
  for (std::size_t i = 0; i < n2; ++i)
  {
    values2[i] = -std::int64_t(i) - 1;
  }
  device_buffer<std::int64_t> d_keys1(keys1);
  device_buffer<std::int64_t> d_values2(values2);
  device_buffer<std::int64_t> d_keys_out(n1 + n2 + 1);
  device_buffer<std::int64_t> d_values_out(n1 + n2 + 1);
  d_keys_out.poison();
  d_values_out.poison();
  const strata::CountingInputIterator<std::int64_t> keys2(0);
  const strata::CountingInputIterator<std::int64_t> values1(1000);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceMerge::MergePairs(nullptr, bytes, d_keys1.data() + 1, values1, std::int64_t(n1), keys2,
                                                   d_values2.data(), std::int64_t(n2), d_keys_out.data() + 1,
                                                   d_values_out.data() + 1));
  device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(strata::DeviceMerge::MergePairs(d_temp.data(), bytes, d_keys1.data() + 1, values1, std::int64_t(n1),
                                                   keys2, d_values2.data(), std::int64_t(n2), d_keys_out.data() + 1,
                                                   d_values_out.data() + 1));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  const std::vector<std::int64_t> keys_out   = d_keys_out.download();
  const std::vector<std::int64_t> values_out = d_values_out.download();
  strata_test::check_equal(expected_keys, std::vector<std::int64_t>(keys_out.begin() + 1, keys_out.end()));
  strata_test::check_equal(expected_values, std::vector<std::int64_t>(values_out.begin() + 1, values_out.end()));
}

TEST_CASE("DeviceMerge rejects bad arguments and writes nothing", "[device][merge]")
{
  std::size_t bytes = 1000;
  int dummy[4]      = {};
  const int* in     = dummy;
  CHECK(strata::DeviceMerge::MergeKeys(nullptr, bytes, in, -1, in, 4, dummy) == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergeKeys(nullptr, bytes, in, 4, in, -1, dummy) == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergeKeys(dummy, bytes, static_cast<const int*>(nullptr), 4, in, 4, dummy)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergeKeys(dummy, bytes, in, 4, in, 4, static_cast<int*>(nullptr))
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceMerge::MergePairs(dummy, bytes, in, in, 4, in, static_cast<const int*>(nullptr), 4, dummy, dummy)
        == cudaErrorInvalidValue);
  CHECK(bytes == 1000);

  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(451);
  INFO("seed " << seed);
  // Too little temporary storage for a merge that takes the sm_90 policy's partition kernel.
  const std::size_t n = 3 * std::size_t(1 << 21);
  STATIC_REQUIRE(2 * 3 * std::size_t(1 << 21)
                     / merge_tile_v<std::int32_t, strata::NullType> >= std::size_t(partition_min_tiles_v));
  const std::vector<std::int32_t> keys1 = sorted_keys<std::int32_t>(n, seed, strata_test::less_op{});
  device_buffer<std::int32_t> d_keys1(keys1);
  device_buffer<std::int32_t> d_out(2 * n);
  d_out.poison();
  const std::vector<std::int32_t> poisoned = d_out.download();
  std::size_t need                         = 0;
  STRATA_TEST_CUDA(strata::DeviceMerge::MergeKeys(nullptr, need, static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), d_out.data()));
  REQUIRE(need > 1);
  device_buffer<unsigned char> d_temp(need);
  std::size_t short_bytes = need - 1;
  CHECK(strata::DeviceMerge::MergeKeys(d_temp.data(), short_bytes, static_cast<const std::int32_t*>(d_keys1.data()),
                                       std::int64_t(n), static_cast<const std::int32_t*>(d_keys1.data()),
                                       std::int64_t(n), d_out.data())
        == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_out.download() == poisoned);

  // The same merge, run on a stream of its own: both copies of each key, in order.
  cudaStream_t stream = strata_test::new_stream();
  STRATA_TEST_CUDA(strata::DeviceMerge::MergeKeys(d_temp.data(), need, static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), static_cast<const std::int32_t*>(d_keys1.data()),
                                                  std::int64_t(n), d_out.data(), strata_test::less_op{}, stream));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
  std::vector<std::int32_t> expected(2 * n);
  std::merge(keys1.begin(), keys1.end(), keys1.begin(), keys1.end(), expected.begin());
  strata_test::check_equal(expected, d_out.download());
}

TEST_CASE("DeviceMerge merges empty inputs behind null pointers", "[device][merge]")
{
  // As CUB's: an empty input's pointers are never read, and a merge of nothing writes nothing.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(453);
  INFO("seed " << seed);
  const std::int32_t* null_in = nullptr;
  std::int32_t* null_out      = nullptr;
  std::size_t bytes           = 0;
  STRATA_TEST_CUDA(
      strata::DeviceMerge::MergePairs(nullptr, bytes, null_in, null_in, 0, null_in, null_in, 0, null_out, null_out));
  CHECK(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  CHECK(strata::DeviceMerge::MergePairs(d_temp.data(), bytes, null_in, null_in, 0, null_in, null_in, 0, null_out,
                                        null_out)
        == cudaSuccess);
  CHECK(strata::DeviceMerge::MergeKeys(d_temp.data(), bytes, null_in, 0, null_in, 0, null_out) == cudaSuccess);

  // One input empty behind null pointers: the output is the other input, keys and values.
  const std::size_t n                    = 3 * merge_tile_v<std::int32_t> + 7;
  const std::vector<std::int32_t> keys   = sorted_keys<std::int32_t>(n, seed, strata_test::less_op{});
  const std::vector<std::int32_t> values = strata_test::random_vector<std::int32_t>(n, seed + 1);
  device_buffer<std::int32_t> d_keys(keys);
  device_buffer<std::int32_t> d_values(values);
  device_buffer<std::int32_t> d_keys_out(n + 5);
  device_buffer<std::int32_t> d_values_out(n + 5);
  for (bool first_empty : {true, false})
  {
    INFO((first_empty ? "the first input empty" : "the second input empty"));
    const std::int32_t* keys1   = first_empty ? null_in : d_keys.data();
    const std::int32_t* values1 = first_empty ? null_in : d_values.data();
    const std::int32_t* keys2   = first_empty ? d_keys.data() : null_in;
    const std::int32_t* values2 = first_empty ? d_values.data() : null_in;
    const std::int64_t n1       = first_empty ? 0 : std::int64_t(n);
    const std::int64_t n2       = first_empty ? std::int64_t(n) : 0;
    for (bool pairs : {false, true})
    {
      INFO((pairs ? "pairs" : "keys"));
      d_keys_out.poison();
      d_values_out.poison();
      const auto call = [&](void* d_temp_storage, std::size_t& b)
      {
        return pairs ? strata::DeviceMerge::MergePairs(d_temp_storage, b, keys1, values1, n1, keys2, values2, n2,
                                                       d_keys_out.data(), d_values_out.data())
                     : strata::DeviceMerge::MergeKeys(d_temp_storage, b, keys1, n1, keys2, n2, d_keys_out.data());
      };
      std::size_t need = 0;
      STRATA_TEST_CUDA(call(nullptr, need));
      device_buffer<unsigned char> d_merge_temp(need);
      STRATA_TEST_CUDA(call(d_merge_temp.data(), need));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<std::int32_t> expected_keys = keys;
      std::vector<std::int32_t> expected_values =
          pairs ? values : std::vector<std::int32_t>(n, strata_test::poison_value<std::int32_t>());
      for (int i = 0; i < 5; ++i)
      {
        expected_keys.push_back(strata_test::poison_value<std::int32_t>());
        expected_values.push_back(strata_test::poison_value<std::int32_t>());
      }
      strata_test::check_equal(expected_keys, d_keys_out.download());
      strata_test::check_equal(expected_values, d_values_out.download());
    }
  }
}

TEST_CASE("DeviceMerge merges more than 2^31 and 2^32 items", "[device][merge][slow]")
{
  // Inputs from iterators; outputs of a byte an item (4.3 GiB at most), poisoned with 255, a key and
  // value no input has, and checked in full (around 2^31 and 2^32, the tail and the guard too).
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^31 items under compute-sanitizer would take hours; the partition kernel runs there at small sizes");
    return;
  }
  constexpr std::uint64_t guard = 64;
  const auto run_two_phase      = [](auto call)
  {
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(call(nullptr, bytes));
    device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(call(d_temp.data(), bytes));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
  };
  {
    // Keys: the first input alone passes 2^31 items, the output 2^32.
    const std::uint64_t n1 = (std::uint64_t(1) << 31) + (1 << 20) + 3;
    const std::uint64_t n2 = (std::uint64_t(1) << 31) + (1 << 21) + 5;
    INFO("MergeKeys of " << n1 << " and " << n2 << " items");
    device_buffer<std::uint8_t> d_keys_out(n1 + n2 + guard);
    STRATA_TEST_CUDA(cudaMemset(d_keys_out.data(), 255, d_keys_out.bytes()));
    const block_keys_t keys1(counting_t(0), block_key_op{n1});
    const block_keys_t keys2(counting_t(0), block_key_op{n2});
    run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceMerge::MergeKeys(d_temp, bytes, keys1, std::int64_t(n1), keys2, std::int64_t(n2),
                                                d_keys_out.data());
        });
    check_block_merge(d_keys_out.data(), nullptr, n1, n2, guard);
  }
  {
    // Pairs: each input over 2^30 items, the output over 2^31.
    const std::uint64_t n1 = (std::uint64_t(1) << 30) + (1 << 19) + 1;
    const std::uint64_t n2 = (std::uint64_t(1) << 30) + (1 << 20) + 3;
    INFO("MergePairs of " << n1 << " and " << n2 << " items");
    device_buffer<std::uint8_t> d_keys_out(n1 + n2 + guard);
    device_buffer<std::uint8_t> d_values_out(n1 + n2 + guard);
    STRATA_TEST_CUDA(cudaMemset(d_keys_out.data(), 255, d_keys_out.bytes()));
    STRATA_TEST_CUDA(cudaMemset(d_values_out.data(), 255, d_values_out.bytes()));
    const block_keys_t keys1(counting_t(0), block_key_op{n1});
    const block_keys_t keys2(counting_t(0), block_key_op{n2});
    const hash_values_t<0> values1(counting_t(0), hash_value_op<0>{});
    const hash_values_t<1> values2(counting_t(0), hash_value_op<1>{});
    run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceMerge::MergePairs(d_temp, bytes, keys1, values1, std::int64_t(n1), keys2, values2,
                                                 std::int64_t(n2), d_keys_out.data(), d_values_out.data());
        });
    check_block_merge(d_keys_out.data(), d_values_out.data(), n1, n2, guard);
  }
}

TEST_CASE("The closed-form reference of the largest merges catches misplaced items", "[device][merge]")
{
  // block_merge_reference on a merge built here item by item, in two chunks: it agrees, and it
  // finds a value swapped across the inputs, a key moved over a key boundary, an item left
  // unwritten and a guard byte written.
  const std::uint64_t n1 = 1000;
  const std::uint64_t n2 = 777;
  std::vector<std::uint8_t> keys;
  std::vector<std::uint8_t> values;
  for (std::uint64_t key = 0; key < 255; ++key)
  {
    for (std::uint64_t i = (key * n1 + 254) / 255; i < ((key + 1) * n1 + 254) / 255; ++i)
    {
      keys.push_back(std::uint8_t(key));
      values.push_back(hash_value_op<0>{}(std::int64_t(i)));
    }
    for (std::uint64_t j = (key * n2 + 254) / 255; j < ((key + 1) * n2 + 254) / 255; ++j)
    {
      keys.push_back(std::uint8_t(key));
      values.push_back(hash_value_op<1>{}(std::int64_t(j)));
    }
  }
  REQUIRE(keys.size() == n1 + n2);
  keys.resize(n1 + n2 + 8, 255);
  values.resize(n1 + n2 + 8, 255);
  const auto mismatches = [&](const std::vector<std::uint8_t>& k, const std::vector<std::uint8_t>& v)
  {
    block_merge_reference reference(n1, n2);
    return reference.mismatches(0, k.data(), v.data(), 900)
           + reference.mismatches(900, k.data() + 900, v.data() + 900, k.size() - 900);
  };
  CHECK(mismatches(keys, values) == 0);
  // Item 1200's key has items from both inputs: swapping its first and last value.
  std::size_t first = 1200;
  while (keys[first - 1] == keys[1200])
  {
    --first;
  }
  std::size_t last = 1200;
  while (keys[last + 1] == keys[1200])
  {
    ++last;
  }
  std::vector<std::uint8_t> swapped = values;
  std::swap(swapped[first], swapped[last]);
  CHECK(mismatches(keys, swapped) == 2);
  std::vector<std::uint8_t> moved = keys;
  moved[last]                     = std::uint8_t(keys[last] + 1);
  CHECK(mismatches(moved, values) == 1);
  std::vector<std::uint8_t> unwritten = keys;
  unwritten[n1 + n2 - 1]              = 255;
  CHECK(mismatches(unwritten, values) == 1);
  std::vector<std::uint8_t> past_end = values;
  past_end[n1 + n2 + 3]              = 7;
  CHECK(mismatches(keys, past_end) == 1);
}

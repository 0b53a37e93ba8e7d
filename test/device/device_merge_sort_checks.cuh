// test/device/device_merge_sort_checks.cuh: what the DeviceMergeSort tests share: key
// distributions, the tiles of the sm_90 policy (for edge sizes), a stable host reference, one
// checked sort (the Copy forms, keys or pairs with their positions as values, into poisoned
// outputs with a guard past the end), and a policy hub whose merge passes all take their splits
// from the partition kernel.
#pragma once

#include <strata/device/device_merge_sort.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

namespace strata_test
{
//! The tiles DeviceMergeSort runs on sm_90 for KeyT keys with ValueT values: the first pass's
//! (`sort`) and the merges' (`merge`).
template <typename KeyT, typename ValueT = strata::NullType>
struct merge_sort_tiles
{
  using hub_t      = strata::detail::merge_sort::policy_hub<KeyT*, ValueT*>;
  using policies_t = strata::detail::merge_sort::agent_policies<typename hub_t::Policy900, KeyT, ValueT>;
  static constexpr std::size_t sort  = policies_t::block_sort_t::ITEMS_PER_TILE;
  static constexpr std::size_t merge = policies_t::merge_t::ITEMS_PER_TILE;
};

//! DeviceMergeSort's sm_90 tiles for KeyT keys and ValueT values, but every merge pass takes its
//! splits from the partition kernel (PARTITION_MIN_TILES = 1; the sm_90 policy waits for passes of
//! 1024 tiles, 4.46 M items), so that sorts of tens of thousands of items run that kernel, under
//! the sanitizers too. A chain of one policy: any GPU runs it.
template <typename KeyT, typename ValueT>
struct merge_sort_partition_hub
{
  using base_t = typename strata::detail::merge_sort::policy_hub<KeyT*, ValueT*>::Policy900;
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using MergeSortPolicy                          = typename base_t::MergeSortPolicy;
    using BlockSortPolicy                          = typename base_t::BlockSortPolicy;
    static constexpr long long PARTITION_MIN_TILES = 1;
  };
  using MaxPolicy = Policy;
};

//! How a checked sort runs: through the public API (SortKeysCopy, SortPairsCopy; a 64-bit count),
//! or through DispatchMergeSort with merge_sort_partition_hub (32-bit offsets, those of an int count).
enum class merge_sort_path
{
  public_api,
  partition_kernel
};

//! One call of a checked sort: keys[0, n) (and values) into keys_out (and values_out) by `compare`.
template <merge_sort_path PATH, typename KeyT, typename CompareT>
cudaError_t run_merge_sort(void* d_temp, std::size_t& bytes, const KeyT* keys, const std::uint32_t* values,
                           KeyT* keys_out, std::uint32_t* values_out, std::size_t n, bool pairs, CompareT compare)
{
  if constexpr (PATH == merge_sort_path::public_api)
  {
    return pairs ? strata::DeviceMergeSort::SortPairsCopy(d_temp, bytes, keys, values, keys_out, values_out, n, compare)
                 : strata::DeviceMergeSort::SortKeysCopy(d_temp, bytes, keys, keys_out, n, compare);
  }
  else
  {
    using null_t  = strata::NullType*;
    using keys_t  = strata::DispatchMergeSort<const KeyT*, null_t, KeyT*, null_t, std::uint32_t, CompareT,
                                             merge_sort_partition_hub<KeyT, strata::NullType>>;
    using pairs_t = strata::DispatchMergeSort<const KeyT*, const std::uint32_t*, KeyT*, std::uint32_t*, std::uint32_t,
                                              CompareT, merge_sort_partition_hub<KeyT, std::uint32_t>>;
    return pairs ? pairs_t::Dispatch(d_temp, bytes, keys, values, keys_out, values_out, std::uint32_t(n), compare,
                                     cudaStream_t{})
                 : keys_t::Dispatch(d_temp, bytes, keys, null_t{}, keys_out, null_t{}, std::uint32_t(n), compare,
                                    cudaStream_t{});
  }
}

enum class merge_keys
{
  random,     //!< the whole range (floats: uniform in [-100, 100] with signed zeros and infinities)
  few_values, //!< 16 values (floats: small integers and both zeros), so that stability shows
  sorted,
  reversed
};

//! `n` keys of a distribution from `seed`.
template <typename KeyT>
std::vector<KeyT> merge_sort_keys(std::size_t n, merge_keys kind, std::uint64_t seed)
{
  std::vector<KeyT> keys =
      kind == merge_keys::few_values ? random_vector<KeyT>(n, seed, 0.0, 15.0) : random_vector<KeyT>(n, seed);
  if constexpr (std::is_floating_point_v<KeyT>)
  {
    generator<std::uint32_t> gen(seed + 7);
    for (std::size_t i = 0; i < n; ++i)
    {
      if (kind == merge_keys::few_values)
      {
        keys[i] = std::floor(keys[i]) - KeyT(8); // -8 .. 7
        if (keys[i] == KeyT(0) && gen() % 2 == 0)
        {
          keys[i] = -KeyT(0); // equal to +0.0 under <: their input order must stay
        }
      }
      else if (gen() % 64 == 0)
      {
        const std::uint32_t pick = gen() % 4;
        keys[i]                  = pick == 0   ? KeyT(0)
                                   : pick == 1 ? -KeyT(0)
                                   : pick == 2 ? std::numeric_limits<KeyT>::infinity()
                                               : -std::numeric_limits<KeyT>::infinity();
      }
    }
  }
  if (kind == merge_keys::sorted || kind == merge_keys::reversed)
  {
    std::sort(keys.begin(), keys.end());
    if (kind == merge_keys::reversed)
    {
      std::reverse(keys.begin(), keys.end());
    }
  }
  return keys;
}

//! Whether two vectors hold the same bytes (so that -0.0 and +0.0 differ).
template <typename T>
void check_same_bits(const std::vector<T>& expected, const std::vector<T>& actual)
{
  REQUIRE(expected.size() == actual.size());
  std::size_t first = expected.size();
  std::size_t count = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    if (std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0)
    {
      first = count == 0 ? i : first;
      ++count;
    }
  }
  INFO(count << " of " << expected.size() << " items differ, the first at " << first);
  CHECK(count == 0);
}

//! The positions of keys[0, n) in the order of a stable sort by `compare`.
template <typename KeyT, typename CompareT>
std::vector<std::uint32_t> stable_order(const std::vector<KeyT>& keys, std::size_t n, CompareT compare)
{
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return compare(keys[a], keys[b]); });
  return order;
}

//! Items [n, n + guard) of a buffer still hold the poison.
template <typename T>
void check_guard(const device_buffer<T>& buffer, std::size_t n)
{
  const std::vector<T> all = buffer.download();
  std::size_t touched      = 0;
  for (std::size_t i = n; i < all.size(); ++i)
  {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&all[i]);
    for (std::size_t b = 0; b < sizeof(T); ++b)
    {
      touched += bytes[b] != poison_byte;
    }
  }
  INFO("bytes written past the output's end: " << touched);
  CHECK(touched == 0);
}

inline constexpr std::size_t merge_sort_guard = 67;

//! Sorts keys[0, n) with SortKeysCopy (or SortPairsCopy, the values being the keys' positions)
//! by `compare` into poisoned outputs and checks them against a stable host sort, bit for bit:
//! the keys, the values (which proves stability), nothing written past n, the input unchanged.
//! On the partition kernel's path (PATH), the temporary storage must also hold a split per merge
//! tile more than the public API's, which shows that the hub's threshold was read.
template <merge_sort_path PATH = merge_sort_path::public_api, typename KeyT, typename CompareT>
void check_merge_sort(const device_buffer<KeyT>& d_keys, const std::vector<KeyT>& keys, std::size_t n, bool pairs,
                      CompareT compare)
{
  INFO("num_items " << n << (pairs ? ", pairs" : ", keys")
                    << (PATH == merge_sort_path::partition_kernel ? ", through the partition kernel" : ""));
  const std::vector<std::uint32_t> order = stable_order(keys, n, compare);
  std::vector<KeyT> expected(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = keys[order[i]];
  }
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);

  device_buffer<KeyT> d_out(n + merge_sort_guard);
  device_buffer<std::uint32_t> d_values(positions);
  device_buffer<std::uint32_t> d_values_out(n + merge_sort_guard);
  d_out.poison();
  d_values_out.poison();
  std::size_t bytes = 0;
  const auto call   = [&](auto path, void* d_temp, std::size_t& b)
  {
    return run_merge_sort<decltype(path)::value>(d_temp, b, d_keys.data(), d_values.data(), d_out.data(),
                                                 d_values_out.data(), n, pairs, compare);
  };
  using path_t = std::integral_constant<merge_sort_path, PATH>;
  STRATA_TEST_CUDA(call(path_t{}, nullptr, bytes));
  CHECK(bytes >= 1);
  if constexpr (PATH == merge_sort_path::partition_kernel)
  {
    std::size_t public_bytes = 0;
    STRATA_TEST_CUDA(
        call(std::integral_constant<merge_sort_path, merge_sort_path::public_api>{}, nullptr, public_bytes));
    const std::size_t merge_tile = pairs ? merge_sort_tiles<KeyT, std::uint32_t>::merge : merge_sort_tiles<KeyT>::merge;
    CHECK(bytes >= public_bytes + (n + merge_tile - 1) / merge_tile * sizeof(std::uint32_t));
  }
  device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison(); // the partition's splits and the buffer must be written before they are read
  STRATA_TEST_CUDA(call(path_t{}, d_temp.data(), bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());

  std::vector<KeyT> actual = d_out.download();
  check_guard(d_out, n);
  actual.resize(n);
  check_same_bits(expected, actual);
  if (pairs)
  {
    std::vector<std::uint32_t> values = d_values_out.download();
    check_guard(d_values_out, n);
    values.resize(n);
    check_equal(order, values);
  }
  std::vector<KeyT> input = d_keys.download();
  input.resize(keys.size());
  check_same_bits(keys, input);
}

//! Every size a key type runs: empty, one, the edges of the tiles of keys and of pairs, several
//! tiles with a run left without a partner, and large non-multiples.
template <typename KeyT>
std::vector<std::size_t> merge_sort_sizes(std::size_t max)
{
  using tiles_t      = merge_sort_tiles<KeyT>;
  using pair_tiles_t = merge_sort_tiles<KeyT, std::uint32_t>;
  std::vector<std::size_t> sizes{0,
                                 1,
                                 2,
                                 31,
                                 tiles_t::merge - 1,
                                 tiles_t::merge + 1,
                                 tiles_t::sort - 1,
                                 tiles_t::sort,
                                 tiles_t::sort + 1,
                                 3 * tiles_t::sort + 5,
                                 5 * tiles_t::sort + 777,
                                 100003,
                                 (std::size_t(1) << 20) + 7};
  if (pair_tiles_t::sort != tiles_t::sort)
  {
    sizes.insert(sizes.end(), {pair_tiles_t::sort - 1, pair_tiles_t::sort, pair_tiles_t::sort + 1});
  }
  sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [&](std::size_t n) { return n > max; }), sizes.end());
  return sizes;
}

//! The largest sort of KeyT keys under compute-sanitizer: 5 first-pass tiles + 777 items, three
//! merge passes (an odd number: the first pass writes the buffer) whose second leaves a run
//! without a partner. Larger sizes only run more passes of the same kernels.
template <typename KeyT>
inline constexpr std::size_t merge_sort_sanitizer_max = 5 * merge_sort_tiles<KeyT>::sort + 777;

//! The cases of one key type: keys and pairs at every size on random keys, the other
//! distributions at two sizes, and (outside compute-sanitizer) 2^20 + 7 items and 2^24 + 13 pairs.
template <typename KeyT>
void run_merge_sort_cases(std::uint64_t seed)
{
  const bool sanitizer         = under_sanitizer();
  const std::size_t max        = sanitizer ? merge_sort_sanitizer_max<KeyT> : (std::size_t(1) << 20) + 7;
  const std::vector<KeyT> keys = merge_sort_keys<KeyT>(max, merge_keys::random, seed);
  const device_buffer<KeyT> d_keys(keys);
  for (std::size_t n : merge_sort_sizes<KeyT>(max))
  {
    check_merge_sort(d_keys, keys, n, false, less_op{});
    check_merge_sort(d_keys, keys, n, true, less_op{});
  }
  for (merge_keys kind : {merge_keys::few_values, merge_keys::sorted, merge_keys::reversed})
  {
    INFO("distribution " << int(kind));
    const std::vector<KeyT> other = merge_sort_keys<KeyT>(max, kind, seed + 1 + std::uint64_t(kind));
    const device_buffer<KeyT> d_other(other);
    for (std::size_t n : {3 * merge_sort_tiles<KeyT>::sort + 5, max})
    {
      check_merge_sort(d_other, other, n, true, less_op{});
    }
  }
  if (!sanitizer)
  {
    const std::size_t n           = (std::size_t(1) << 24) + 13;
    const std::vector<KeyT> large = merge_sort_keys<KeyT>(n, merge_keys::few_values, seed + 9);
    const device_buffer<KeyT> d_large(large);
    check_merge_sort(d_large, large, n, true, less_op{});
  }
}

//! The cases of one key type through the partition kernel (merge_sort_partition_hub), keys and
//! pairs: one merge pass (a run of one item left), two (the first pass writes the output) and
//! three (it writes the buffer; the second leaves a run without a partner), on random keys, and
//! few-valued keys (ties on both sides of every split) at the largest size.
template <typename KeyT>
void run_partition_merge_sort_cases(std::uint64_t seed)
{
  constexpr std::size_t sort   = merge_sort_tiles<KeyT>::sort;
  const std::size_t max        = merge_sort_sanitizer_max<KeyT>;
  const std::vector<KeyT> keys = merge_sort_keys<KeyT>(max, merge_keys::random, seed);
  const device_buffer<KeyT> d_keys(keys);
  for (std::size_t n : {sort + 1, 3 * sort + 5, max})
  {
    check_merge_sort<merge_sort_path::partition_kernel>(d_keys, keys, n, false, less_op{});
    check_merge_sort<merge_sort_path::partition_kernel>(d_keys, keys, n, true, less_op{});
  }
  const std::vector<KeyT> few = merge_sort_keys<KeyT>(max, merge_keys::few_values, seed + 1);
  const device_buffer<KeyT> d_few(few);
  check_merge_sort<merge_sort_path::partition_kernel>(d_few, few, max, false, less_op{});
  check_merge_sort<merge_sort_path::partition_kernel>(d_few, few, max, true, less_op{});
}
} // namespace strata_test

// Tests of strata/block/block_radix_sort.cuh: Sort, SortDescending, SortBlockedToStriped and
// SortDescendingBlockedToStriped, keys and key-value pairs, every key type (integers, float,
// double, __half, __nv_bfloat16 with +-0.0, infinities and NaNs, and a two-member struct through a
// decomposer), full and partial bit ranges, RADIX_BITS 1..8, block shapes from 32 to 1024 threads
// and 2D/3D, against std::stable_sort of the keys' order-preserving bits. Values carry each key's
// input position, so stability is checked exactly; keys are compared bit for bit.
#include <strata/block/block_radix_sort.cuh>

#include "common/shapes.cuh"
#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace
{
constexpr int sort_blocks = 4;

//! A key of two members, sorted by `f` first, then `ll`.
struct pair_key
{
  float f;
  std::int64_t ll;
};

struct pair_key_decomposer
{
  __host__ __device__ cuda::std::tuple<float&, std::int64_t&> operator()(pair_key& key) const
  {
    return {key.f, key.ll};
  }
};

enum sort_mode : int
{
  ascending_blocked,
  descending_blocked,
  ascending_striped,
  descending_striped,
};

template <typename KeyT, bool PAIRS, int BX, int BY, int BZ, int IPT, int BITS, bool MEMO = true,
          strata::BlockScanAlgorithm SCAN = strata::BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM        = cudaSharedMemBankSizeFourByte>
struct sort_config : strata_test::block_shape<BX, BY, BZ, IPT>
{
  using key_type              = KeyT;
  using value_type            = std::conditional_t<PAIRS, int, strata::NullType>;
  static constexpr bool pairs = PAIRS;
  using sort_type             = strata::BlockRadixSort<KeyT, BX, IPT, value_type, BITS, MEMO, SCAN, SMEM, BY, BZ>;
};

template <typename KeyT>
inline constexpr int key_bits = std::is_same_v<KeyT, pair_key> ? 96 : int(sizeof(KeyT) * 8);

//! Calls the member `mode` names; the full bit range uses the overloads without bits.
template <typename ConfigT, typename KeyT, typename ValuesT>
__device__ void sort_tile(typename ConfigT::sort_type::TempStorage& storage, KeyT (&keys)[ConfigT::items],
                          ValuesT& values, int mode, int begin_bit, int end_bit)
{
  using SortT     = typename ConfigT::sort_type;
  const bool full = begin_bit == 0 && end_bit == key_bits<KeyT>;
  auto call       = [&](auto&&... bits_and_decomposer)
  {
    SortT sorter(storage);
    switch (mode)
    {
    case ascending_blocked:
      if constexpr (ConfigT::pairs)
        sorter.Sort(keys, values, bits_and_decomposer...);
      else
        sorter.Sort(keys, bits_and_decomposer...);
      break;
    case descending_blocked:
      if constexpr (ConfigT::pairs)
        sorter.SortDescending(keys, values, bits_and_decomposer...);
      else
        sorter.SortDescending(keys, bits_and_decomposer...);
      break;
    case ascending_striped:
      if constexpr (ConfigT::pairs)
        sorter.SortBlockedToStriped(keys, values, bits_and_decomposer...);
      else
        sorter.SortBlockedToStriped(keys, bits_and_decomposer...);
      break;
    default:
      if constexpr (ConfigT::pairs)
        sorter.SortDescendingBlockedToStriped(keys, values, bits_and_decomposer...);
      else
        sorter.SortDescendingBlockedToStriped(keys, bits_and_decomposer...);
      break;
    }
  };
  if constexpr (std::is_same_v<KeyT, pair_key>)
  {
    if (full)
      call(pair_key_decomposer{});
    else
      call(pair_key_decomposer{}, begin_bit, end_bit);
  }
  else
  {
    if (full)
      call();
    else
      call(begin_bit, end_bit);
  }
}

template <typename ConfigT>
__global__ void __launch_bounds__(ConfigT::threads)
    sort_kernel(const typename ConfigT::key_type* keys_in, const int* bit_ranges, int mode,
                typename ConfigT::key_type* keys_out, int* values_out)
{
  using KeyT        = typename ConfigT::key_type;
  constexpr int IPT = ConfigT::items;
  __shared__ typename ConfigT::sort_type::TempStorage storage;

  const int rank  = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block = static_cast<int>(blockIdx.x);
  const int base  = block * ConfigT::tile;
  KeyT keys[IPT];
  typename ConfigT::value_type values[IPT];
  for (int i = 0; i < IPT; ++i)
  {
    keys[i] = keys_in[base + rank * IPT + i];
    if constexpr (ConfigT::pairs)
    {
      values[i] = rank * IPT + i;
    }
  }
  sort_tile<ConfigT>(storage, keys, values, mode, bit_ranges[2 * block], bit_ranges[2 * block + 1]);
  const bool striped = mode == ascending_striped || mode == descending_striped;
  for (int i = 0; i < IPT; ++i)
  {
    const int position        = striped ? i * ConfigT::threads + rank : rank * IPT + i;
    keys_out[base + position] = keys[i];
    if constexpr (ConfigT::pairs)
    {
      values_out[base + position] = values[i];
    }
  }
}

using wide_bits = unsigned __int128;

//! The bits of a key whose unsigned order is the sort order (-0.0 read as +0.0).
template <typename KeyT>
wide_bits ordered_bits(const KeyT& key)
{
  if constexpr (std::is_same_v<KeyT, pair_key>)
  {
    return (ordered_bits(key.f) << 64) | ordered_bits(key.ll);
  }
  else
  {
    using U = typename strata::Traits<KeyT>::UnsignedBits;
    U bits;
    std::memcpy(&bits, &key, sizeof(U));
    return wide_bits(strata::detail::MergeFloatZeros<KeyT>(strata::Traits<KeyT>::TwiddleIn(bits)));
  }
}

//! Bitwise equality of keys (of the members, for the struct with padding).
template <typename KeyT>
bool same_key(const KeyT& x, const KeyT& y)
{
  if constexpr (std::is_same_v<KeyT, pair_key>)
  {
    return same_key(x.f, y.f) && x.ll == y.ll;
  }
  else
  {
    return std::memcmp(&x, &y, sizeof(KeyT)) == 0;
  }
}

//! Random key bits: every pattern (NaNs and infinities included) is possible.
template <typename KeyT>
KeyT key_from_bits(std::uint64_t low, std::uint64_t high)
{
  KeyT key;
  unsigned char bytes[16];
  std::memcpy(bytes, &low, 8);
  std::memcpy(bytes + 8, &high, 8);
  std::memcpy(static_cast<void*>(&key), bytes, sizeof(KeyT));
  return key;
}

//! Patterns every key type must order right: zero, the sign bit alone (-0.0, the most negative
//! integer), all ones (a negative NaN, -1), all but the sign bit (a NaN, the largest integer),
//! and for floating point +-0.0, +-inf and +-1.
template <typename KeyT>
std::vector<KeyT> special_keys()
{
  std::vector<KeyT> keys;
  if constexpr (std::is_same_v<KeyT, pair_key>)
  {
    for (float f : {0.0f, -0.0f, 1.0f, -INFINITY, INFINITY})
    {
      for (std::int64_t ll : {std::int64_t(0), std::int64_t(-1), std::int64_t(7), INT64_MIN})
      {
        keys.push_back(pair_key{f, ll});
      }
    }
  }
  else
  {
    using U          = typename strata::Traits<KeyT>::UnsignedBits;
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    for (U bits : {U(0), sign, U(~U(0)), U(~sign), U(1), U(sign | 1)})
    {
      keys.push_back(key_from_bits<KeyT>(std::uint64_t(bits), 0));
    }
    if constexpr (strata::Traits<KeyT>::CATEGORY == strata::FLOATING_POINT)
    {
      for (double v : {0.0, -0.0, 1.0, -1.0, double(INFINITY), -double(INFINITY)})
      {
        keys.push_back(strata_test::from_double<KeyT>(v));
      }
    }
  }
  return keys;
}

template <typename KeyT>
std::vector<KeyT> make_keys(std::uint64_t seed, int tile)
{
  std::mt19937_64 engine(seed);
  std::vector<KeyT> keys(static_cast<std::size_t>(sort_blocks) * tile);
  auto random_key = [&]()
  {
    if constexpr (std::is_same_v<KeyT, pair_key>)
    {
      // Few distinct f values, so that ll decides often.
      const float fs[] = {-2.5f, -0.0f, 0.0f, 1.0f, 3.0f};
      return pair_key{fs[engine() % 5], static_cast<std::int64_t>(engine())};
    }
    else
    {
      return key_from_bits<KeyT>(engine(), engine());
    }
  };
  // Block 0 and 3: random; block 1: five distinct keys (long runs of equal keys); block 2: the
  // special patterns mixed with random keys.
  std::vector<KeyT> pool;
  for (int i = 0; i < 5; ++i)
  {
    pool.push_back(random_key());
  }
  const std::vector<KeyT> specials = special_keys<KeyT>();
  for (int i = 0; i < tile; ++i)
  {
    keys[i]            = random_key();
    keys[tile + i]     = pool[engine() % pool.size()];
    keys[2 * tile + i] = engine() % 2 ? specials[engine() % specials.size()] : random_key();
    keys[3 * tile + i] = random_key();
  }
  return keys;
}

template <typename ConfigT>
void check_sort(std::uint64_t salt)
{
  using KeyT               = typename ConfigT::key_type;
  constexpr int TILE       = ConfigT::tile;
  constexpr int BITS       = key_bits<KeyT>;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO("block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", "
                << ConfigT::items << " items per thread, " << (ConfigT::pairs ? "pairs" : "keys") << ", seed " << seed);

  const std::vector<KeyT> keys = make_keys<KeyT>(seed, TILE);
  // Blocks 0 and 2 sort by every bit; 1 and 3 by a random bit range.
  std::mt19937_64 engine(seed + 1);
  std::vector<int> bit_ranges(2 * sort_blocks);
  for (int b = 0; b < sort_blocks; ++b)
  {
    int begin = 0;
    int end   = BITS;
    if (b % 2 == 1)
    {
      begin = static_cast<int>(engine() % BITS);
      end   = begin + 1 + static_cast<int>(engine() % (BITS - begin));
    }
    bit_ranges[2 * b]     = begin;
    bit_ranges[2 * b + 1] = end;
  }

  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<int> d_bit_ranges(bit_ranges);
  strata_test::device_buffer<KeyT> d_keys_out(keys.size());
  strata_test::device_buffer<int> d_values_out(keys.size());
  for (int mode : {ascending_blocked, descending_blocked, ascending_striped, descending_striped})
  {
    const bool descending = mode == descending_blocked || mode == descending_striped;
    INFO("mode " << mode << (descending ? " (descending)" : " (ascending)"));
    d_keys_out.poison();
    d_values_out.poison();
    sort_kernel<ConfigT><<<sort_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(
        d_keys.data(), d_bit_ranges.data(), mode, d_keys_out.data(), d_values_out.data());
    strata_test::check_launch();
    const std::vector<KeyT> keys_out  = d_keys_out.download();
    const std::vector<int> values_out = d_values_out.download();

    for (int b = 0; b < sort_blocks; ++b)
    {
      const int begin = bit_ranges[2 * b];
      const int end   = bit_ranges[2 * b + 1];
      INFO("block " << b << ", bits [" << begin << ", " << end << ")");
      auto sort_bits = [&](int position)
      {
        const wide_bits bits = ordered_bits(keys[b * TILE + position]) >> begin;
        const int width      = end - begin;
        return width >= 128 ? bits : bits & ((wide_bits(1) << width) - 1);
      };
      std::vector<int> order(TILE);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int x, int y)
                       { return descending ? sort_bits(x) > sort_bits(y) : sort_bits(x) < sort_bits(y); });
      std::size_t key_mismatches   = 0;
      std::size_t value_mismatches = 0;
      int first_bad                = -1;
      for (int p = 0; p < TILE; ++p)
      {
        const KeyT& expected = keys[b * TILE + order[p]];
        const KeyT& actual   = keys_out[b * TILE + p];
        if (!same_key(expected, actual))
        {
          ++key_mismatches;
          first_bad = first_bad < 0 ? p : first_bad;
        }
        if (ConfigT::pairs && values_out[b * TILE + p] != order[p])
        {
          ++value_mismatches;
          first_bad = first_bad < 0 ? p : first_bad;
        }
      }
      INFO("first difference at sorted position " << first_bad << " (expected input position "
                                                  << (first_bad >= 0 ? order[first_bad] : -1) << ", got value "
                                                  << (first_bad >= 0 ? values_out[b * TILE + first_bad] : -1) << ")");
      CHECK(key_mismatches == 0);
      CHECK(value_mismatches == 0);
    }
  }
}

constexpr auto raking      = strata::BLOCK_SCAN_RAKING;
constexpr auto warp_scans  = strata::BLOCK_SCAN_WARP_SCANS;
constexpr auto eight_bytes = cudaSharedMemBankSizeEightByte;

// Pairwise: every key type, shape, items-per-thread count and digit width appears; no cross product.
// clang-format off
using sort_configs = std::tuple<
  sort_config<std::uint8_t,  false, 32, 1, 1, 1, 1>,
  sort_config<std::int8_t,   true,  80, 1, 1, 3, 3>,
  sort_config<std::uint16_t, true,  128, 1, 1, 4, 4>,
  sort_config<std::int16_t,  false, 256, 1, 1, 7, 5, false>,
  sort_config<std::uint32_t, true,  1024, 1, 1, 4, 4>,
  sort_config<std::int32_t,  false, 16, 8, 1, 11, 6, true, raking>,
  sort_config<std::uint64_t, true,  8, 4, 2, 3, 7, true, warp_scans, eight_bytes>,
  sort_config<std::int64_t,  false, 32, 1, 1, 11, 8, true, raking, eight_bytes>,
  sort_config<float,         true,  128, 1, 1, 4, 4>,
  sort_config<float,         false, 32, 1, 1, 11, 8>,
  sort_config<double,        false, 96, 1, 1, 7, 2, true, warp_scans, eight_bytes>,
  sort_config<__half,        true,  256, 1, 1, 1, 6>,
  sort_config<__nv_bfloat16, false, 16, 8, 1, 3, 3, false>,
  sort_config<pair_key,      true,  64, 1, 1, 4, 5>>;
// clang-format on
} // namespace

TEMPLATE_LIST_TEST_CASE("BlockRadixSort sorts stably, ascending and descending, blocked and striped",
                        "[block][radix_sort]", sort_configs)
{
  STRATA_TEST_REQUIRE_GPU();
  check_sort<TestType>(53);
}

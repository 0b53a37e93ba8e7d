// Tests of strata/warp/warp_merge_sort.cuh: WarpMergeSort over logical warps of 2, 4, 8, 16 and 32
// lanes, several logical warps per block each sorting its own keys with its own TempStorage,
// keys and key-value pairs, full and partial tiles, ascending and descending comparators, items
// per lane in {1, 3, 4, 7}; against std::stable_sort (values carry input positions).
#include <strata/warp/warp_merge_sort.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{

using strata_test::less_op;

struct greater_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return b < a;
  }
};

template <typename KeyT, bool PAIRS, int LOGICAL, int IPT, int BLOCK_THREADS = 128>
struct warp_sort_config
{
  static constexpr int block_threads = BLOCK_THREADS;
  using key_type                     = KeyT;
  using value_type                   = std::conditional_t<PAIRS, int, strata::NullType>;
  static constexpr bool pairs        = PAIRS;
  static constexpr int logical       = LOGICAL;
  static constexpr int items         = IPT;
  static constexpr int warps         = BLOCK_THREADS / LOGICAL;
  static constexpr int tile          = LOGICAL * IPT; // per logical warp
  using sort_type                    = strata::WarpMergeSort<KeyT, IPT, LOGICAL, value_type>;
};

//! Logical warp w sorts keys[w * TILE ..]; mode 0: Sort with less, 1: StableSort with greater,
//! 2: partial Sort with less (valid[w] keys, oob_default = oob).
template <typename ConfigT>
__global__ void warp_sort_kernel(const typename ConfigT::key_type* keys_in, const int* valid, int mode,
                                 typename ConfigT::key_type oob, typename ConfigT::key_type* keys_out, int* values_out)
{
  using KeyT        = typename ConfigT::key_type;
  using SortT       = typename ConfigT::sort_type;
  constexpr int IPT = ConfigT::items;
  __shared__ typename SortT::TempStorage storage[ConfigT::warps];
  const int warp = static_cast<int>(threadIdx.x) / ConfigT::logical;
  const int lane = static_cast<int>(threadIdx.x) % ConfigT::logical;
  const int base = warp * ConfigT::tile;
  KeyT keys[IPT];
  int values[IPT];
  for (int i = 0; i < IPT; ++i)
  {
    keys[i]   = keys_in[base + lane * IPT + i];
    values[i] = lane * IPT + i;
  }
  SortT sorter(storage[warp]);
  if (mode == 0)
  {
    if constexpr (ConfigT::pairs)
      sorter.Sort(keys, values, less_op{});
    else
      sorter.Sort(keys, less_op{});
  }
  else if (mode == 1)
  {
    if constexpr (ConfigT::pairs)
      sorter.StableSort(keys, values, greater_op{});
    else
      sorter.StableSort(keys, greater_op{});
  }
  else
  {
    if constexpr (ConfigT::pairs)
      sorter.Sort(keys, values, less_op{}, valid[warp], oob);
    else
      sorter.Sort(keys, less_op{}, valid[warp], oob);
  }
  for (int i = 0; i < IPT; ++i)
  {
    keys_out[base + lane * IPT + i] = keys[i];
    if constexpr (ConfigT::pairs)
    {
      values_out[base + lane * IPT + i] = values[i];
    }
  }
}

template <typename ConfigT>
void check_warp_sort(std::uint64_t salt)
{
  using KeyT               = typename ConfigT::key_type;
  constexpr int TILE       = ConfigT::tile;
  constexpr int WARPS      = ConfigT::warps;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO(ConfigT::logical << "-lane warps, " << ConfigT::items << " items per lane, "
                        << (ConfigT::pairs ? "pairs" : "keys") << ", seed " << seed);
  strata_test::generator<int> gen(seed);
  std::vector<KeyT> keys(std::size_t(WARPS) * TILE);
  for (auto& key : keys)
  {
    key = static_cast<KeyT>(gen(0, 12)); // many repeats
  }
  std::vector<int> valid(WARPS);
  for (int w = 0; w < WARPS; ++w)
  {
    valid[w] = w == 0 ? 0 : w == 1 ? TILE : gen(1, TILE);
  }
  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<KeyT> d_keys_out(keys.size());
  strata_test::device_buffer<int> d_values_out(keys.size());
  for (int mode : {0, 1, 2})
  {
    INFO("mode " << mode);
    d_keys_out.poison();
    d_values_out.poison();
    warp_sort_kernel<ConfigT><<<1, ConfigT::block_threads>>>(d_keys.data(), d_valid.data(), mode, KeyT(100),
                                                             d_keys_out.data(), d_values_out.data());
    strata_test::check_launch();
    const std::vector<KeyT> keys_out  = d_keys_out.download();
    const std::vector<int> values_out = d_values_out.download();
    for (int w = 0; w < WARPS; ++w)
    {
      const int count = mode == 2 ? valid[w] : TILE;
      INFO("logical warp " << w << ", " << count << " items");
      std::vector<int> order(count);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int x, int y)
                       {
                         const KeyT kx = keys[w * TILE + x];
                         const KeyT ky = keys[w * TILE + y];
                         return mode == 1 ? ky < kx : kx < ky;
                       });
      std::vector<KeyT> expected;
      for (int p : order)
      {
        expected.push_back(keys[w * TILE + p]);
      }
      strata_test::check_equal(expected,
                               std::vector<KeyT>(keys_out.begin() + w * TILE, keys_out.begin() + w * TILE + count));
      if (ConfigT::pairs)
      {
        strata_test::check_equal(
            order, std::vector<int>(values_out.begin() + w * TILE, values_out.begin() + w * TILE + count));
      }
    }
  }
}

// clang-format off
using warp_sort_configs = std::tuple<
  warp_sort_config<std::int32_t,  true,  32, 4>,
  warp_sort_config<std::uint8_t,  false, 16, 7>,
  warp_sort_config<std::int64_t,  true,  8, 3>,
  warp_sort_config<float,         true,  4, 1>,
  warp_sort_config<std::uint16_t, true,  2, 7>,
  warp_sort_config<double,        false, 32, 3>,
  // Blocks that are not a multiple of 32 threads: a last hardware warp of one logical warp.
  warp_sort_config<std::int32_t,  true,  16, 3, 48>,
  warp_sort_config<std::uint16_t, false, 4, 5, 28>>;
// clang-format on
} // namespace

TEMPLATE_LIST_TEST_CASE("WarpMergeSort sorts each logical warp stably", "[warp][merge_sort]", warp_sort_configs)
{
  STRATA_TEST_REQUIRE_GPU();
  check_warp_sort<TestType>(139);
}

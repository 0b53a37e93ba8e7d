// Tests of strata/device/device_radix_sort.cuh, part 4: onesweep sorts of several portions at
// small sizes. A portion (the keys of one onesweep launch) holds as many tiles as a look-back
// word counts, so only sorts of over 2^28 keys take more than one with the default policies; a
// policy hub of portions of three tiles gives sorts of a few tiles that path, under
// compute-sanitizer too: each portion's digit starts written by the portion before it in the same
// pass, several portions in every pass (the look-back epochs wrap within the sort), a last portion
// of one key, of a tile and a few keys, and a full one, passes in which every key has one digit
// (their later portions' starts from the exclusive sum), keys only in both tiles (of small and of
// large inputs) and pairs, both orders, through pointers and DoubleBuffers.
#include <strata/device/device_radix_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_checks.cuh"

#include <cstdint>
#include <random>
#include <vector>

// A named namespace: nvcc warns of the hub's unused members in an anonymous one.
namespace portions_test
{
//! Tiles of a portion of the hub below.
constexpr int portion_tiles = 3;
//! Keys-only sorts of 32-bit keys from this many keys on take the tile of large inputs.
constexpr long long small_below = 50000;

//! The default policies of KeyT keys with ValueT values (NullType: keys only), with portions of
//! portion_tiles onesweep tiles, and the tile of large inputs from small_below keys on.
template <typename KeyT, typename ValueT>
struct small_portion_hub
{
  using default_policy = typename strata::detail::radix::policy_hub<KeyT, ValueT, std::uint32_t>::Policy900;
  struct Policy750 : strata::ChainedPolicy<750, Policy750, Policy750>
  {
    struct OnesweepPolicy : default_policy::OnesweepPolicy
    {
      static constexpr int PORTION_TILES = portion_tiles;
    };
    struct OnesweepSmallPolicy : default_policy::OnesweepSmallPolicy
    {
      static constexpr int PORTION_TILES = portion_tiles;
    };
    static constexpr long long ONESWEEP_SMALL_BELOW = default_policy::ONESWEEP_SMALL_BELOW > 0 ? small_below : 0;
    using HistogramPolicy                           = typename default_policy::HistogramPolicy;
    using ExclusiveSumPolicy                        = typename default_policy::ExclusiveSumPolicy;
    using SingleTilePolicy                          = typename default_policy::SingleTilePolicy;
  };
  using MaxPolicy = Policy750;
};

static_assert(strata::detail::radix::portion_tiles_v<
                  typename small_portion_hub<std::uint32_t, std::uint32_t>::Policy750::OnesweepPolicy> == portion_tiles,
              "the dispatch reads the hub's portions");

//! Keys of a tile of the hub's policy for KeyT keys with ValueT values: the tile of large inputs,
//! or (SMALL) of small ones.
template <typename ValueT, bool SMALL = false>
constexpr std::size_t hub_tile()
{
  using policy_t = typename small_portion_hub<std::uint32_t, ValueT>::Policy750;
  using tile_t   = std::conditional_t<SMALL, typename policy_t::OnesweepSmallPolicy, typename policy_t::OnesweepPolicy>;
  return std::size_t(tile_t::BLOCK_THREADS) * tile_t::ITEMS_PER_THREAD;
}

//! n u32 keys of random bits, or (one_digit) with bits 16-23 zero: that pass moves no key.
std::vector<std::uint32_t> portion_keys(std::size_t n, std::uint64_t seed, bool one_digit)
{
  std::mt19937_64 engine(seed);
  std::vector<std::uint32_t> keys(n);
  for (auto& key : keys)
  {
    key = std::uint32_t(engine() >> 32) & (one_digit ? 0xff00ffffu : 0xffffffffu);
  }
  return keys;
}

//! Sorts keys[0, n) in every form `forms` names (bit k: order k / 2, form k % 2) through the hub.
void check_portions(const char* what, const std::vector<std::uint32_t>& keys, std::size_t n, bool pairs, unsigned forms)
{
  INFO(what);
  using strata_test::radix_call;
  using strata_test::radix_form;
  for (unsigned k = 0; k < 4; ++k)
  {
    if (forms & (1u << k))
    {
      const radix_call call{k / 2 == 1, pairs, k % 2 == 0 ? radix_form::pointers : radix_form::double_buffer, 0, 32};
      strata_test::check_radix_sort<std::uint32_t, small_portion_hub>(keys, n, call);
    }
  }
}

constexpr unsigned every_form = 0xF;
//! Ascending through pointers, descending through a DoubleBuffer.
constexpr unsigned two_forms = 0x9;
} // namespace portions_test

using namespace portions_test;

TEST_CASE("DeviceRadixSort sorts pairs of several portions (a policy hub of small portions)", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(341);
  INFO("seed " << seed);
  constexpr std::size_t tile    = hub_tile<std::uint32_t>();
  constexpr std::size_t portion = portion_tiles * tile;
  // Few distinct keys (the AND of three random words), so that stability shows across portions.
  const std::vector<std::uint32_t> keys =
      strata_test::radix_keys<std::uint32_t>(3 * portion + tile + 5, strata_test::key_distribution::few_values, seed);
  check_portions("last portion of one key", keys, 2 * portion + 1, true, every_form);
  check_portions("last portion of a tile and five keys", keys, 3 * portion + tile + 5, true, every_form);
  check_portions("last portion full", keys, 3 * portion, true, two_forms);
  check_portions("a pass of one digit", portion_keys(3 * portion + tile + 5, seed + 1, true), 3 * portion + tile + 5,
                 true, two_forms);
}

TEST_CASE("DeviceRadixSort sorts keys of several portions (a policy hub of small portions)", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(343);
  INFO("seed " << seed);
  constexpr std::size_t small_portion = portion_tiles * hub_tile<strata::NullType, true>();
  constexpr std::size_t tile          = hub_tile<strata::NullType>();
  constexpr std::size_t portion       = portion_tiles * tile;
  static_assert(2 * small_portion + 1 < std::size_t(small_below) && 2 * portion > std::size_t(small_below),
                "the first size takes the tile of small inputs, the second that of large ones");
  const std::vector<std::uint32_t> keys = portion_keys(2 * portion + tile + 5, seed, false);
  check_portions("the tile of small inputs, last portion of one key", keys, 2 * small_portion + 1, false, every_form);
  check_portions("the tile of large inputs, last portion of a tile and five keys", keys, 2 * portion + tile + 5, false,
                 every_form);
  const std::vector<std::uint32_t> one_digit = portion_keys(2 * portion + tile + 5, seed + 1, true);
  check_portions("a pass of one digit", one_digit, 2 * portion + tile + 5, false, two_forms);
  if (!strata_test::under_sanitizer())
  {
    // More portions than digits: the exclusive sum's threads each flag several portions of the
    // pass of one digit (a loop that smaller sorts run once).
    const std::size_t n = 257 * portion + tile;
    check_portions("257 portions and a tile", portion_keys(n, seed + 2, true), n, false, two_forms);
  }
}

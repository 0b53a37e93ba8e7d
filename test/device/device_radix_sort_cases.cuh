// test/device/device_radix_sort_cases.cuh: the DeviceRadixSort cases every key type runs (the
// integer and floating-point test programs instantiate them for their types), as four test cases
// per type (each its own compute-sanitizer run) and a [slow] one.
#pragma once

#include "device_radix_sort_checks.cuh"

namespace strata_test
{
//! The largest size of the random-bit cases: 2^20 + 7, or 100003 under compute-sanitizer, whose
//! race check costs much per launch (over ten minutes for the integer keys at every size and
//! form); 100003 still gives every kernel nine and more tiles.
inline std::size_t radix_max_size()
{
  return under_sanitizer() ? std::size_t(100003) : (std::size_t(1) << 20) + 7;
}

//! A size of a few onesweep tiles and a partial one: the size at which the distributions and bit
//! ranges run under compute-sanitizer (larger sizes only take more tiles down the same paths).
template <typename KeyT>
std::size_t radix_few_tiles()
{
  return 5 * radix_tiles<KeyT>::onesweep + 777;
}

//! Random bits at every size up to radix_max_size(), in the four forms of one order (keys or
//! pairs, pointers or DoubleBuffer). Under compute-sanitizer (whose cost is mostly per call) the
//! sizes that only repeat a neighbour's partial tile are left out (radix_sizes), every form runs
//! at the edge sizes (one key, one tile + 1 and the largest) and one form at the others: pairs
//! through pointers ascending, keys through a DoubleBuffer descending.
template <typename KeyT>
void run_radix_sort_sizes(std::uint64_t seed, bool descending)
{
  constexpr int key_bits       = int(sizeof(KeyT)) * 8;
  const bool sanitizer         = under_sanitizer();
  const std::size_t max        = radix_max_size();
  const std::vector<KeyT> keys = radix_keys<KeyT>(max, key_distribution::random_bits, seed);
  for (std::size_t n : radix_sizes<KeyT>(max, sanitizer))
  {
    const bool every_form = !sanitizer || n == 1 || n == radix_tiles<KeyT>::onesweep + 1 || n == max;
    for (bool pairs : {false, true})
    {
      for (radix_form form : {radix_form::pointers, radix_form::double_buffer})
      {
        const bool sampled =
            descending ? !pairs && form == radix_form::double_buffer : pairs && form == radix_form::pointers;
        if (every_form || sampled)
        {
          check_radix_sort(keys, n, radix_call{descending, pairs, form, 0, key_bits});
        }
      }
    }
  }
}

//! Few values, all equal (every pass copied), sorted and reversed keys, pairs through pointers
//! both ways, at a few tiles and at radix_max_size() (not under compute-sanitizer); and a sort by
//! no bits (the output is the input; the DoubleBuffer forms leave it where it is).
template <typename KeyT>
void run_radix_sort_distributions(std::uint64_t seed)
{
  constexpr int key_bits = int(sizeof(KeyT)) * 8;
  std::vector<std::size_t> sizes{radix_few_tiles<KeyT>()};
  if (!under_sanitizer())
  {
    sizes.push_back(radix_max_size());
  }
  for (key_distribution distribution : {key_distribution::few_values, key_distribution::all_equal,
                                        key_distribution::sorted, key_distribution::reversed})
  {
    INFO("distribution " << int(distribution));
    const std::vector<KeyT> keys = radix_keys<KeyT>(sizes.back(), distribution, seed + 1 + std::uint64_t(distribution));
    for (std::size_t n : sizes)
    {
      for (bool descending : {false, true})
      {
        check_radix_sort(keys, n, radix_call{descending, true, radix_form::pointers, 0, key_bits});
      }
    }
  }

  const std::vector<KeyT> keys = radix_keys<KeyT>(100003, key_distribution::random_bits, seed);
  for (radix_form form : {radix_form::pointers, radix_form::double_buffer})
  {
    check_radix_sort(keys, 100003, radix_call{false, true, form, 5, 5});
  }
}

//! Bit ranges that start at 0, 3 and 8 and end at 8, 17, 32, 64 and 128 (within the key): pairs
//! ascending through pointers and descending through a DoubleBuffer, in one tile (3000 keys) and
//! in several (100003). Under compute-sanitizer in a few tiles only, and the two forms take
//! turns from range to range.
template <typename KeyT>
void run_radix_sort_bit_ranges(std::uint64_t seed)
{
  constexpr int key_bits               = int(sizeof(KeyT)) * 8;
  const bool sanitizer                 = under_sanitizer();
  const std::vector<std::size_t> sizes = sanitizer ? std::vector<std::size_t>{radix_few_tiles<KeyT>()}
                                                   : std::vector<std::size_t>{std::size_t(3000), std::size_t(100003)};
  const std::vector<KeyT> keys         = radix_keys<KeyT>(sizes.back(), key_distribution::random_bits, seed);
  int range                            = 0;
  for (int begin_bit : {0, 3, 8})
  {
    for (int end_bit : {8, 17, 32, 64, 128})
    {
      if (begin_bit < end_bit && end_bit <= key_bits)
      {
        for (std::size_t n : sizes)
        {
          if (!sanitizer || range % 2 == 0)
          {
            check_radix_sort(keys, n, radix_call{false, true, radix_form::pointers, begin_bit, end_bit});
          }
          if (!sanitizer || range % 2 == 1)
          {
            check_radix_sort(keys, n, radix_call{true, true, radix_form::double_buffer, begin_bit, end_bit});
          }
        }
        ++range;
      }
    }
  }
}

//! The large size, 2^24 + 13 keys of random bits: pairs ascending through pointers, keys
//! descending through a DoubleBuffer.
template <typename KeyT>
void run_large_radix_sort_cases(std::uint64_t seed)
{
  constexpr int key_bits       = int(sizeof(KeyT)) * 8;
  const std::size_t n          = (std::size_t(1) << 24) + 13;
  const std::vector<KeyT> keys = radix_keys<KeyT>(n, key_distribution::random_bits, seed);
  check_radix_sort(keys, n, radix_call{false, true, radix_form::pointers, 0, key_bits});
  check_radix_sort(keys, n, radix_call{true, false, radix_form::double_buffer, 0, key_bits});
}
} // namespace strata_test

//! The test cases of a key type list (the programs of integer and floating-point keys split the
//! types by width): every size ascending, every size descending, the other distributions, bit
//! ranges, and 2^24 + 13 keys tagged [slow]. KIND names the keys in the cases' names; SALT seeds
//! them.
#define STRATA_RADIX_SORT_KEY_TEST(NAME, TAGS, SALT, CALL, ...)                                                        \
  TEMPLATE_TEST_CASE(NAME, TAGS, __VA_ARGS__)                                                                          \
  {                                                                                                                    \
    STRATA_TEST_REQUIRE_GPU();                                                                                         \
    const std::uint64_t seed = strata_test::seed(SALT);                                                                \
    INFO("seed " << seed);                                                                                             \
    CALL;                                                                                                              \
  }
#define STRATA_RADIX_SORT_KEY_TESTS(KIND, SALT, ...)                                                                   \
  STRATA_RADIX_SORT_KEY_TEST("DeviceRadixSort sorts " KIND " keys ascending", "[device][sort]", SALT,                  \
                             strata_test::run_radix_sort_sizes<TestType>(seed, false), __VA_ARGS__)                    \
  STRATA_RADIX_SORT_KEY_TEST("DeviceRadixSort sorts " KIND " keys descending", "[device][sort]", SALT,                 \
                             strata_test::run_radix_sort_sizes<TestType>(seed, true), __VA_ARGS__)                     \
  STRATA_RADIX_SORT_KEY_TEST("DeviceRadixSort sorts " KIND " keys of few values, one value, sorted and reversed",      \
                             "[device][sort]", SALT + 1, strata_test::run_radix_sort_distributions<TestType>(seed),    \
                             __VA_ARGS__)                                                                              \
  STRATA_RADIX_SORT_KEY_TEST("DeviceRadixSort sorts " KIND " keys by bit ranges", "[device][sort]", SALT + 2,          \
                             strata_test::run_radix_sort_bit_ranges<TestType>(seed), __VA_ARGS__)                      \
  STRATA_RADIX_SORT_KEY_TEST("DeviceRadixSort sorts 2^24 + 13 " KIND " keys", "[device][sort][slow]", SALT + 4,        \
                             strata_test::run_large_radix_sort_cases<TestType>(seed), __VA_ARGS__)

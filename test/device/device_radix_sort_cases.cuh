// test/device/device_radix_sort_cases.cuh: the DeviceRadixSort cases every key type runs (the
// integer and floating-point test programs instantiate them for their types).
#pragma once

#include "device_radix_sort_checks.cuh"

namespace strata_test
{
//! Every form (pointers and DoubleBuffer, keys and pairs, ascending and descending) at every size
//! up to 2^20 + 7 on random bits; the other distributions at two sizes; bit ranges; and an empty
//! bit range. Under compute-sanitizer, whose race check costs much per launch (over ten minutes
//! for the integer keys at every size and form), the sizes stop at 100003 (nine and more tiles
//! of every kernel), every form runs at the edge sizes (one key, one tile + 1 and the largest),
//! and the other sizes run two forms (pairs ascending through pointers, keys descending through
//! a DoubleBuffer) and bit ranges the larger size only.
template <typename KeyT>
void run_radix_sort_cases(std::uint64_t seed)
{
  constexpr int key_bits       = int(sizeof(KeyT)) * 8;
  const bool sanitizer         = under_sanitizer();
  const std::size_t max        = sanitizer ? std::size_t(100003) : (std::size_t(1) << 20) + 7;
  const std::vector<KeyT> keys = radix_keys<KeyT>(max, key_distribution::random_bits, seed);
  for (std::size_t n : radix_sizes<KeyT>(max))
  {
    const bool every_form = !sanitizer || n == 1 || n == radix_tiles<KeyT>::onesweep + 1 || n == max;
    for (bool descending : {false, true})
    {
      for (bool pairs : {false, true})
      {
        for (radix_form form : {radix_form::pointers, radix_form::double_buffer})
        {
          const bool sampled = (!descending && pairs && form == radix_form::pointers)
                            || (descending && !pairs && form == radix_form::double_buffer);
          if (every_form || sampled)
          {
            check_radix_sort(keys, n, radix_call{descending, pairs, form, 0, key_bits});
          }
        }
      }
    }
  }

  for (key_distribution distribution : {key_distribution::few_values, key_distribution::all_equal,
                                        key_distribution::sorted, key_distribution::reversed})
  {
    INFO("distribution " << int(distribution));
    const std::size_t n           = max;
    const std::vector<KeyT> other = radix_keys<KeyT>(n, distribution, seed + 1 + std::uint64_t(distribution));
    for (std::size_t size : {5 * radix_tiles<KeyT>::onesweep + 777, n})
    {
      for (bool descending : {false, true})
      {
        check_radix_sort(other, size, radix_call{descending, true, radix_form::pointers, 0, key_bits});
      }
    }
  }

  for (int begin_bit : {0, 3, 8})
  {
    for (int end_bit : {8, 17, 32, 64, 128})
    {
      if (begin_bit < end_bit && end_bit <= key_bits)
      {
        for (std::size_t n : {std::size_t(3000), std::size_t(100003)})
        {
          if (sanitizer && n == 3000)
          {
            continue;
          }
          check_radix_sort(keys, n, radix_call{false, true, radix_form::pointers, begin_bit, end_bit});
          check_radix_sort(keys, n, radix_call{true, true, radix_form::double_buffer, begin_bit, end_bit});
        }
      }
    }
  }

  // No bits: the output is the input (the DoubleBuffer forms leave it where it is).
  for (radix_form form : {radix_form::pointers, radix_form::double_buffer})
  {
    check_radix_sort(keys, 100003, radix_call{false, true, form, 5, 5});
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

//! The two test cases of a key type list (the programs of integer and floating-point keys split
//! the types by width): run_radix_sort_cases, and run_large_radix_sort_cases tagged [slow]. KIND
//! names the keys in the cases' names; SALT seeds both.
#define STRATA_RADIX_SORT_KEY_TESTS(KIND, SALT, ...)                                                                   \
  TEMPLATE_TEST_CASE("DeviceRadixSort sorts " KIND " keys", "[device][sort]", __VA_ARGS__)                            \
  {                                                                                                                    \
    STRATA_TEST_REQUIRE_GPU();                                                                                         \
    const std::uint64_t seed = strata_test::seed(SALT);                                                                \
    INFO("seed " << seed);                                                                                             \
    strata_test::run_radix_sort_cases<TestType>(seed);                                                                 \
  }                                                                                                                    \
  TEMPLATE_TEST_CASE("DeviceRadixSort sorts 2^24 + 13 " KIND " keys", "[device][sort][slow]", __VA_ARGS__)            \
  {                                                                                                                    \
    STRATA_TEST_REQUIRE_GPU();                                                                                         \
    const std::uint64_t seed = strata_test::seed(SALT + 4);                                                            \
    INFO("seed " << seed);                                                                                             \
    strata_test::run_large_radix_sort_cases<TestType>(seed);                                                           \
  }

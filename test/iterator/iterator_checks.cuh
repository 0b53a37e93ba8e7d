// test/iterator/iterator_checks.cuh: checks shared by the iterator tests: the traits every strata
// iterator exposes, and a kernel that reads through an input iterator at given offsets in three
// ways (indexing, arithmetic then dereference, stepping) and compares iterators on the device.
#pragma once

#include "common/test_common.cuh"

#include <strata/util_type.cuh>

#include <cuda/std/iterator>

#include <iterator>
#include <type_traits>
#include <vector>

namespace iterator_test
{
//! std::iterator_traits, cuda::std::iterator_traits and strata's it_*_t aliases all report It's
//! member types, It is a random-access iterator (as a concept too, where it is readable) and
//! kernels can take it by value.
template <typename It>
void check_traits()
{
  using std_traits  = std::iterator_traits<It>;
  using cuda_traits = ::cuda::std::iterator_traits<It>;
  STATIC_REQUIRE(std::is_same_v<typename It::self_type, It>);
  STATIC_REQUIRE(std::is_same_v<typename It::iterator_category, std::random_access_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<typename std_traits::iterator_category, std::random_access_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<typename cuda_traits::iterator_category, ::cuda::std::random_access_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<typename std_traits::value_type, typename It::value_type>);
  STATIC_REQUIRE(std::is_same_v<typename cuda_traits::value_type, typename It::value_type>);
  STATIC_REQUIRE(std::is_same_v<typename std_traits::difference_type, typename It::difference_type>);
  STATIC_REQUIRE(std::is_same_v<typename cuda_traits::difference_type, typename It::difference_type>);
  STATIC_REQUIRE(std::is_same_v<typename std_traits::pointer, typename It::pointer>);
  STATIC_REQUIRE(std::is_same_v<typename cuda_traits::pointer, typename It::pointer>);
  STATIC_REQUIRE(std::is_same_v<typename std_traits::reference, typename It::reference>);
  STATIC_REQUIRE(std::is_same_v<typename cuda_traits::reference, typename It::reference>);
  STATIC_REQUIRE(std::is_same_v<strata::detail::it_value_t<It>, typename It::value_type>);
  STATIC_REQUIRE(std::is_same_v<strata::detail::it_reference_t<It>, typename It::reference>);
  STATIC_REQUIRE(std::is_same_v<strata::detail::it_difference_t<It>, typename It::difference_type>);
  STATIC_REQUIRE(std::is_same_v<strata::detail::it_pointer_t<It>, typename It::pointer>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<It>);
  if constexpr (!std::is_void_v<typename It::value_type>)
  {
    // What generic code checks before treating It as random access (libcu++'s C++17 concepts).
    STATIC_REQUIRE(::cuda::std::random_access_iterator<It>);
  }
}

//! Every comparison read_kernel makes holds: the value it writes for each offset.
inline constexpr int all_comparisons = 0x3F;

template <typename It>
using value_t = typename It::value_type;
template <typename It>
using difference_t = typename It::difference_type;

//! For each i, reads the item at `offsets[i]` from `it` by indexing, by `it + offset` (or
//! `offset + it`) and by stepping there with every operator; records the distance stepped and a
//! bit for each comparison that holds.
template <typename It>
__global__ void read_kernel(It it, const difference_t<It>* offsets, value_t<It>* by_index, value_t<It>* by_sum,
                            value_t<It>* by_walk, difference_t<It>* distances, int* comparisons, int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n)
  {
    return;
  }
  const difference_t<It> offset = offsets[i];
  by_index[i]                   = it[offset];
  const It moved                = (i % 2 == 0) ? it + offset : offset + it;
  by_sum[i]                     = *moved;

  // Subtracting the negated offset steps backwards for positive offsets, forwards for negative.
  It walk = it;
  walk -= -offset;
  ++walk;
  walk++;
  walk += 3;
  --walk;
  walk--;
  walk -= 3;
  walk         = walk + 2;
  walk         = walk - 2;
  by_walk[i]   = *walk;
  distances[i] = walk - it;

  const It next  = walk + 1;
  comparisons[i] = (walk == moved ? 0x1 : 0) | (walk != moved ? 0 : 0x2) | (next != walk ? 0x4 : 0)
                   | (walk < next ? 0x8 : 0) | (next > walk && !(walk > next) ? 0x10 : 0)
                   | (walk <= moved && walk >= moved && !(next <= walk) && !(walk >= next) ? 0x20 : 0);
}

//! Runs read_kernel over `offsets` and checks every read against `expected` (expected[i] is the
//! item at offsets[i]), every distance against its offset and every comparison.
template <typename It>
void check_device_reads(It it, const std::vector<difference_t<It>>& offsets, const std::vector<value_t<It>>& expected)
{
  using value_type      = value_t<It>;
  using difference_type = difference_t<It>;
  REQUIRE(offsets.size() == expected.size());
  const int n = static_cast<int>(offsets.size());
  strata_test::device_buffer<difference_type> d_offsets(offsets);
  strata_test::device_buffer<value_type> d_by_index(offsets.size());
  strata_test::device_buffer<value_type> d_by_sum(offsets.size());
  strata_test::device_buffer<value_type> d_by_walk(offsets.size());
  strata_test::device_buffer<difference_type> d_distances(offsets.size());
  strata_test::device_buffer<int> d_comparisons(offsets.size());
  d_by_index.poison();
  d_by_sum.poison();
  d_by_walk.poison();
  d_distances.poison();
  d_comparisons.poison();
  read_kernel<<<(n + 127) / 128, 128>>>(it, d_offsets.data(), d_by_index.data(), d_by_sum.data(), d_by_walk.data(),
                                        d_distances.data(), d_comparisons.data(), n);
  strata_test::check_launch();
  strata_test::check_equal(expected, d_by_index.download());
  strata_test::check_equal(expected, d_by_sum.download());
  strata_test::check_equal(expected, d_by_walk.download());
  strata_test::check_equal(offsets, d_distances.download());
  strata_test::check_equal(std::vector<int>(offsets.size(), all_comparisons), d_comparisons.download());
}

//! `n` random offsets in [lo, hi] that include both ends and 0 (lo <= 0 <= hi, n >= 3).
template <typename D>
std::vector<D> random_offsets(std::size_t n, std::uint64_t seed, D lo, D hi)
{
  std::vector<D> offsets = strata_test::random_vector<D>(n, seed, static_cast<double>(lo), static_cast<double>(hi));
  offsets[0]             = lo;
  offsets[n / 2]         = 0;
  offsets[n - 1]         = hi;
  return offsets;
}
} // namespace iterator_test

// Tests of strata/device/device_find.cuh against host references (std::find_if, std::lower_bound,
// std::upper_bound): FindIf over sizes from 0 to 2^24 + 13 with the first match at the start, in
// the middle, at the end, absent, and with many matches, from a misaligned pointer and a counting
// iterator; LowerBound and UpperBound, each also over sorted values, for ranges short and long
// enough to be sampled, with duplicates, values below, between and above the range's items, mixed
// item types under a transparent comparator and a descending range; the single-call forms; and bad
// arguments (refused, nothing written).
#include <strata/device/device_find.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace
{
//! The sizes FindIf runs: a tile is 4096 items; 2^24 + 13 not under the sanitizers.
std::vector<std::size_t> find_sizes()
{
  std::vector<std::size_t> sizes = {0, 1, 2, 4095, 4096, 4097, 100003, std::size_t(1) << 20};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 24) + 13);
  }
  return sizes;
}

template <typename T>
struct equals
{
  T target;
  __host__ __device__ bool operator()(const T& item) const
  {
    return item == target;
  }
};

//! FindIf of `target` in `host` (uploaded) from offset `from` of the device copy; checks the index.
template <typename T>
void check_find(const std::vector<T>& host, T target, std::size_t from = 0)
{
  strata_test::device_buffer<T> in(host);
  strata_test::device_buffer<std::int64_t> out(1);
  out.poison();
  const std::size_t n = host.size() - from;
  size_t bytes        = 0;
  REQUIRE(strata::DeviceFind::FindIf(nullptr, bytes, in.data() + from, out.data(), equals<T>{target}, n)
          == cudaSuccess);
  strata_test::device_buffer<unsigned char> temp(bytes);
  REQUIRE(strata::DeviceFind::FindIf(temp.data(), bytes, in.data() + from, out.data(), equals<T>{target}, n)
          == cudaSuccess);
  strata_test::check_launch();
  const auto expected = std::find_if(host.begin() + std::ptrdiff_t(from), host.end(), equals<T>{target})
                        - (host.begin() + std::ptrdiff_t(from));
  CHECK(out.download()[0] == std::int64_t(expected));
}

template <typename T>
void check_find_positions(std::size_t n, std::uint64_t seed)
{
  INFO("n " << n);
  // Items in [0, 1000); the target 5000 is placed where the case says.
  std::vector<T> host = strata_test::random_vector<T>(n, seed, 0.0, 1000.0);
  const T target      = T(5000);
  check_find(host, target); // absent
  if (n == 0)
  {
    return;
  }
  for (const std::size_t at : {std::size_t(0), n / 2, n - 1})
  {
    INFO("first match at " << at);
    std::vector<T> with = host;
    with[at]            = target;
    // Later copies must not win.
    for (std::size_t later = at + 1; later < n; later += 1 + n / 7)
    {
      with[later] = target;
    }
    check_find(with, target);
    if (n > 1 && at > 0)
    {
      check_find(with, target, 1); // a misaligned start
    }
  }
}

struct at_least
{
  std::int64_t bound;
  __host__ __device__ bool operator()(std::int64_t item) const
  {
    return item >= bound;
  }
};

//! A sorted range of `n` items in [0, 4 n) (duplicates likely) and values in [-10, 4 n + 10).
template <typename T>
std::vector<T> sorted_range(std::size_t n, std::uint64_t seed)
{
  std::vector<T> range = strata_test::random_vector<T>(n, seed, 0.0, 4.0 * double(n) + 1.0);
  std::sort(range.begin(), range.end());
  return range;
}

enum class which
{
  lower,
  upper,
  lower_sorted,
  upper_sorted
};

template <which WHICH, typename... Args>
cudaError_t bound(Args&&... args) // by reference: temp_storage_bytes is written back
{
  if constexpr (WHICH == which::lower)
  {
    return strata::DeviceFind::LowerBound(std::forward<Args>(args)...);
  }
  else if constexpr (WHICH == which::upper)
  {
    return strata::DeviceFind::UpperBound(std::forward<Args>(args)...);
  }
  else if constexpr (WHICH == which::lower_sorted)
  {
    return strata::DeviceFind::LowerBoundSortedValues(std::forward<Args>(args)...);
  }
  else
  {
    return strata::DeviceFind::UpperBoundSortedValues(std::forward<Args>(args)...);
  }
}

//! The bounds of `values` in `range` (both sorted by comp for the sorted forms) by WHICH, against
//! std::lower_bound / std::upper_bound.
template <which WHICH, typename RangeT, typename ValueT, typename CompareOpT>
void check_bounds(const std::vector<RangeT>& range, const std::vector<ValueT>& values, CompareOpT comp)
{
  INFO("range " << range.size() << ", values " << values.size());
  strata_test::device_buffer<RangeT> d_range(range);
  strata_test::device_buffer<ValueT> d_values(values);
  strata_test::device_buffer<std::int64_t> out(values.size() + 1);
  out.poison();
  size_t bytes = 0;
  REQUIRE(bound<WHICH>(static_cast<void*>(nullptr), bytes, d_range.data(), range.size(), d_values.data(), values.size(),
                       out.data(), comp)
          == cudaSuccess);
  strata_test::device_buffer<unsigned char> temp(bytes);
  REQUIRE(bound<WHICH>(static_cast<void*>(temp.data()), bytes, d_range.data(), range.size(), d_values.data(),
                       values.size(), out.data(), comp)
          == cudaSuccess);
  strata_test::check_launch();
  const std::vector<std::int64_t> got = out.download();
  std::size_t wrong                   = 0;
  std::size_t first_wrong             = values.size();
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    const bool lower        = WHICH == which::lower || WHICH == which::lower_sorted;
    const auto it           = lower ? std::lower_bound(range.begin(), range.end(), values[i], comp)
                                    : std::upper_bound(range.begin(), range.end(), values[i], comp);
    const std::int64_t want = std::int64_t(it - range.begin());
    if (got[i] != want)
    {
      first_wrong = wrong++ == 0 ? i : first_wrong;
    }
  }
  INFO("first wrong at " << first_wrong);
  CHECK(wrong == 0);
  CHECK(got[values.size()] == strata_test::poison_value<std::int64_t>()); // nothing past the end
}

template <which WHICH>
void check_bound_sizes(std::uint64_t seed)
{
  constexpr bool SORTED = WHICH == which::lower_sorted || WHICH == which::upper_sorted;
  for (const std::size_t range_n : {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(4095),
                                    std::size_t(9000), std::size_t(100003), std::size_t(1) << 20})
  {
    for (const std::size_t values_n :
         {std::size_t(0), std::size_t(1), std::size_t(1023), std::size_t(2049), std::size_t(100003)})
    {
      const std::vector<std::int32_t> range = sorted_range<std::int32_t>(range_n, seed + range_n);
      // Values below, within and above the range; a third of them the range's own items.
      std::vector<std::int64_t> values =
          strata_test::random_vector<std::int64_t>(values_n, seed + values_n, -10.0, 4.0 * double(range_n) + 10.0);
      for (std::size_t i = 0; range_n > 0 && i < values_n; i += 3)
      {
        values[i] = range[std::size_t(values[i] < 0 ? -values[i] : values[i]) % range_n];
      }
      if (SORTED)
      {
        std::sort(values.begin(), values.end());
      }
      // Mixed item types under a transparent comparator.
      check_bounds<WHICH>(range, values, cuda::std::less<>{});
    }
  }
  // A descending range (and values) under greater; enough of both that LowerBound and UpperBound
  // sort the values and merge them (as they do above from 2^16 values and range items).
  std::vector<std::uint64_t> range = sorted_range<std::uint64_t>(70000, seed);
  std::reverse(range.begin(), range.end());
  std::vector<std::uint64_t> values = strata_test::random_vector<std::uint64_t>(70001, seed + 1, 0.0, 280010.0);
  if (SORTED)
  {
    std::sort(values.begin(), values.end(), cuda::std::greater<>{});
  }
  check_bounds<WHICH>(range, values, cuda::std::greater<>{});
}

} // namespace

TEMPLATE_TEST_CASE("DeviceFind::FindIf finds the first match", "[device][find]", std::int32_t, std::uint64_t, float)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(401);
  INFO("seed " << seed);
  for (const std::size_t n : find_sizes())
  {
    check_find_positions<TestType>(n, seed + n);
  }
}

TEST_CASE("DeviceFind::FindIf over a counting iterator, and its single-call form", "[device][find]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<std::int64_t> out(1);
  for (const std::int64_t n : {std::int64_t(1), std::int64_t(5000), std::int64_t(3) << 20})
  {
    for (const std::int64_t bound : {std::int64_t(0), n / 3, n - 1, n})
    {
      INFO("n " << n << ", first item >= " << bound);
      out.poison();
      size_t bytes = 0;
      REQUIRE(strata::DeviceFind::FindIf(nullptr, bytes, strata::CountingInputIterator<std::int64_t>(0), out.data(),
                                         at_least{bound}, n)
              == cudaSuccess);
      strata_test::device_buffer<unsigned char> temp(bytes);
      REQUIRE(strata::DeviceFind::FindIf(temp.data(), bytes, strata::CountingInputIterator<std::int64_t>(0), out.data(),
                                         at_least{bound}, n)
              == cudaSuccess);
      CHECK(out.download()[0] == bound);
      out.poison();
      REQUIRE(strata::DeviceFind::FindIf(strata::CountingInputIterator<std::int64_t>(0), out.data(), at_least{bound}, n)
              == cudaSuccess);
      REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
      CHECK(out.download()[0] == bound);
    }
  }
}

TEST_CASE("DeviceFind::LowerBound and UpperBound match std::lower_bound and std::upper_bound", "[device][find]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(409);
  INFO("seed " << seed);
  SECTION("lower")
  {
    check_bound_sizes<which::lower>(seed);
  }
  SECTION("upper")
  {
    check_bound_sizes<which::upper>(seed);
  }
}

TEST_CASE("DeviceFind::LowerBoundSortedValues and UpperBoundSortedValues match the references", "[device][find]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(419);
  INFO("seed " << seed);
  SECTION("lower")
  {
    check_bound_sizes<which::lower_sorted>(seed);
  }
  SECTION("upper")
  {
    check_bound_sizes<which::upper_sorted>(seed);
  }
}

TEST_CASE("DeviceFind's single-call bound forms", "[device][find]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed              = strata_test::seed(421);
  const std::vector<std::int32_t> range = sorted_range<std::int32_t>(70001, seed);
  std::vector<std::int32_t> values      = strata_test::random_vector<std::int32_t>(5000, seed + 1, -5.0, 280010.0);
  std::sort(values.begin(), values.end());
  strata_test::device_buffer<std::int32_t> d_range(range);
  strata_test::device_buffer<std::int32_t> d_values(values);
  strata_test::device_buffer<std::int64_t> lower(values.size());
  strata_test::device_buffer<std::int64_t> upper(values.size());
  strata_test::device_buffer<std::int64_t> lower_sorted(values.size());
  strata_test::device_buffer<std::int64_t> upper_sorted(values.size());
  const cuda::std::less<> less{};
  REQUIRE(
      strata::DeviceFind::LowerBound(d_range.data(), range.size(), d_values.data(), values.size(), lower.data(), less)
      == cudaSuccess);
  REQUIRE(
      strata::DeviceFind::UpperBound(d_range.data(), range.size(), d_values.data(), values.size(), upper.data(), less)
      == cudaSuccess);
  REQUIRE(strata::DeviceFind::LowerBoundSortedValues(d_range.data(), range.size(), d_values.data(), values.size(),
                                                     lower_sorted.data(), less)
          == cudaSuccess);
  REQUIRE(strata::DeviceFind::UpperBoundSortedValues(d_range.data(), range.size(), d_values.data(), values.size(),
                                                     upper_sorted.data(), less)
          == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
  std::vector<std::int64_t> want_lower(values.size());
  std::vector<std::int64_t> want_upper(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    want_lower[i] = std::lower_bound(range.begin(), range.end(), values[i]) - range.begin();
    want_upper[i] = std::upper_bound(range.begin(), range.end(), values[i]) - range.begin();
  }
  CHECK(lower.download() == want_lower);
  CHECK(upper.download() == want_upper);
  CHECK(lower_sorted.download() == want_lower);
  CHECK(upper_sorted.download() == want_upper);
}

TEST_CASE("DeviceFind refuses bad arguments and writes nothing", "[device][find]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<std::int32_t> in(std::vector<std::int32_t>{1, 2, 3, 4});
  strata_test::device_buffer<std::int64_t> out(4);
  strata_test::device_buffer<unsigned char> temp(1024);
  out.poison();
  size_t bytes = temp.bytes();
  CHECK(strata::DeviceFind::FindIf(temp.data(), bytes, in.data(), out.data(), equals<std::int32_t>{2}, -1)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFind::FindIf(temp.data(), bytes, in.data(), static_cast<std::int64_t*>(nullptr),
                                   equals<std::int32_t>{2}, 4)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFind::FindIf(temp.data(), bytes, static_cast<const std::int32_t*>(nullptr), out.data(),
                                   equals<std::int32_t>{2}, 4)
        == cudaErrorInvalidValue);
  const cuda::std::less<> less{};
  CHECK(strata::DeviceFind::LowerBound(temp.data(), bytes, in.data(), -1, in.data(), 4, out.data(), less)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFind::UpperBound(temp.data(), bytes, in.data(), 4, in.data(), -2, out.data(), less)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFind::LowerBoundSortedValues(temp.data(), bytes, static_cast<const std::int32_t*>(nullptr), 4,
                                                   in.data(), 4, out.data(), less)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFind::UpperBoundSortedValues(temp.data(), bytes, in.data(), 4, in.data(), 4,
                                                   static_cast<std::int64_t*>(nullptr), less)
        == cudaErrorInvalidValue);
  // Too little temporary storage for FindIf's state.
  size_t small = 1;
  CHECK(strata::DeviceFind::FindIf(temp.data(), small, in.data(), out.data(), equals<std::int32_t>{2}, 4)
        == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (const std::int64_t v : out.download())
  {
    CHECK(v == strata_test::poison_value<std::int64_t>());
  }
}

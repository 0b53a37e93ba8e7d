// Tests of strata/thread/thread_search.cuh: LowerBound / UpperBound against std::lower_bound /
// std::upper_bound (duplicates, misses at both ends, empty ranges, several value and offset types,
// a pointer and a non-pointer iterator), and MergePathSearch at every diagonal against a stable
// merge in which `a` wins ties; on host and device.
#include <strata/thread/thread_search.cuh>

#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <algorithm>

namespace
{
//! The sequence 0, 1, 4, 9, ... computed on access: a random-access input that is not a pointer.
struct squares
{
  __host__ __device__ long long operator[](long long i) const
  {
    return i * i;
  }
};

//! A coordinate type of the caller's choice, with x and y as MergePathSearch needs.
struct coordinate
{
  std::size_t x;
  std::size_t y;
};

//! Sorted values with many duplicates: n draws from [0, n / 2].
template <typename T>
std::vector<T> sorted_values(int n, std::uint64_t seed)
{
  std::vector<int> raw = strata_test::random_vector<int>(n, seed, 0, n / 2);
  std::sort(raw.begin(), raw.end());
  std::vector<T> values;
  for (int v : raw)
  {
    values.push_back(strata_test::from_double<T>(v));
  }
  return values;
}

//! Every value in the range, the gaps between them (not for integers) and both ends.
template <typename T>
std::vector<T> queries_for(int n)
{
  std::vector<T> queries;
  for (double q = -1.0; q <= n / 2 + 1; q += 0.5)
  {
    if (std::is_integral_v<T> && q != static_cast<int>(q))
    {
      continue;
    }
    queries.push_back(strata_test::from_double<T>(q));
  }
  return queries;
}

template <typename T>
bool less(const T& a, const T& b)
{
  return strata_test::to_double(a) < strata_test::to_double(b);
}

template <typename T, typename OffsetT>
void check_bounds_on_host(std::uint64_t salt)
{
  for (int n : {0, 1, 2, 3, 7, 16, 100, 1000})
  {
    const auto seed = strata_test::seed(salt * 1000 + n);
    INFO("n " << n << ", seed " << seed);
    const std::vector<T> values = sorted_values<T>(n, seed);
    std::vector<OffsetT> expected;
    std::vector<OffsetT> actual;
    for (const T& q : queries_for<T>(n))
    {
      expected.push_back(
          static_cast<OffsetT>(std::lower_bound(values.begin(), values.end(), q, less<T>) - values.begin()));
      expected.push_back(
          static_cast<OffsetT>(std::upper_bound(values.begin(), values.end(), q, less<T>) - values.begin()));
      actual.push_back(strata::LowerBound(values.data(), static_cast<OffsetT>(n), q));
      actual.push_back(strata::UpperBound(values.data(), static_cast<OffsetT>(n), q));
    }
    strata_test::check_equal(expected, actual);
  }
}

//! How many of the first `diagonal` items of the stable merge of a and b (a first on ties) are
//! from a.
template <typename T>
std::size_t merged_from_a(const std::vector<T>& a, const std::vector<T>& b, std::size_t diagonal)
{
  std::size_t i = 0;
  std::size_t j = 0;
  while (i + j < diagonal)
  {
    if (j == b.size() || (i < a.size() && !(b[j] < a[i])))
    {
      ++i;
    }
    else
    {
      ++j;
    }
  }
  return i;
}

__global__ void bounds_kernel(const float* values, int n, const float* queries, int num_queries, int* lower, int* upper,
                              long long* lower_root, long long* upper_root)
{
  const int q = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (q < num_queries)
  {
    lower[q] = strata::LowerBound(values, n, queries[q]);
    upper[q] = strata::UpperBound(values, n, queries[q]);
    // On the squares 0, 1, 4, ..., 999^2, with 64-bit offsets.
    const long long target = static_cast<long long>(q) * q + (q % 2);
    lower_root[q]          = strata::LowerBound(squares{}, 1000LL, target);
    upper_root[q]          = strata::UpperBound(squares{}, 1000LL, target);
  }
}

template <typename OffsetT, typename CoordinateT>
__global__ void merge_path_kernel(const int* a, OffsetT a_len, const int* b, OffsetT b_len, CoordinateT* out)
{
  const OffsetT diagonal = static_cast<OffsetT>(blockIdx.x * blockDim.x + threadIdx.x);
  if (diagonal <= a_len + b_len)
  {
    strata::MergePathSearch(diagonal, a, b, a_len, b_len, out[diagonal]);
  }
}
} // namespace

TEST_CASE("LowerBound and UpperBound: spelled-out example", "[thread][search]")
{
  const int sorted[5] = {1, 3, 3, 5, 7};
  CHECK(strata::LowerBound(sorted, 5, 3) == 1);
  CHECK(strata::UpperBound(sorted, 5, 3) == 3);
  CHECK(strata::LowerBound(sorted, 5, 0) == 0);
  CHECK(strata::UpperBound(sorted, 5, 7) == 5);
  CHECK(strata::LowerBound(sorted, 5, 8) == 5);
  CHECK(strata::LowerBound(sorted, 0, 3) == 0);
  CHECK(strata::UpperBound(sorted, 0u, 3) == 0u);
  STATIC_REQUIRE(std::is_same_v<decltype(strata::LowerBound(sorted, std::size_t{5}, 3)), std::size_t>);
  // The value is compared as given: 2.5 lies between 1 and 3.
  CHECK(strata::LowerBound(sorted, 5, 2.5) == 1);
  CHECK(strata::UpperBound(sorted, 5, 2.5) == 1);
}

TEST_CASE("LowerBound and UpperBound match the standard library (host)", "[thread][search]")
{
  check_bounds_on_host<int, int>(1);
  check_bounds_on_host<int, unsigned>(2);
  check_bounds_on_host<float, long long>(3);
  check_bounds_on_host<double, std::size_t>(4);
  check_bounds_on_host<__half, int>(5);
  check_bounds_on_host<std::int16_t, std::uint16_t>(6);
}

TEST_CASE("LowerBound and UpperBound over an iterator that is not a pointer (host)", "[thread][search]")
{
  for (long long target : {0LL, 1LL, 2LL, 15LL, 16LL, 17LL, 998001LL, 998002LL})
  {
    long long root = 0;
    while (root < 1000 && root * root < target)
    {
      ++root;
    }
    CHECK(strata::LowerBound(squares{}, 1000LL, target) == root);
    CHECK(strata::UpperBound(squares{}, 1000LL, target) == (root < 1000 && root * root == target ? root + 1 : root));
  }
}

TEST_CASE("MergePathSearch splits the stable merge at every diagonal (host)", "[thread][search]")
{
  const auto seed = strata_test::seed(7);
  INFO("seed " << seed);
  int trial = 0;
  for (int a_len : {0, 1, 2, 3, 7, 16, 33})
  {
    for (int b_len : {0, 1, 3, 16, 40})
    {
      ++trial;
      INFO("a_len " << a_len << ", b_len " << b_len);
      const std::vector<int> a = sorted_values<int>(a_len, seed + 2 * trial);
      const std::vector<int> b = sorted_values<int>(b_len, seed + 2 * trial + 1);
      const std::vector<float> af(a.begin(), a.end());
      const std::vector<float> bf(b.begin(), b.end());
      std::vector<std::size_t> expected;
      std::vector<std::size_t> actual;
      for (int d = 0; d <= a_len + b_len; ++d)
      {
        const std::size_t x = merged_from_a(a, b, static_cast<std::size_t>(d));
        int2 split{-1, -1};
        strata::MergePathSearch(d, a.data(), b.data(), a_len, b_len, split);
        coordinate wide{99, 99};
        strata::MergePathSearch(static_cast<std::size_t>(d), af.data(), bf.data(), af.size(), bf.size(), wide);
        expected.insert(expected.end(), {x, d - x, x, d - x});
        actual.insert(actual.end(),
                      {static_cast<std::size_t>(split.x), static_cast<std::size_t>(split.y), wide.x, wide.y});
      }
      strata_test::check_equal(expected, actual);
    }
  }
  // Ties go to a: merging {1, 2} with {2, 3}, the first three merged items are 1, 2 (of a), 2 (of b).
  const int a[2] = {1, 2};
  const int b[2] = {2, 3};
  int2 split{};
  strata::MergePathSearch(2, a, b, 2, 2, split);
  CHECK((split.x == 2 && split.y == 0));
  strata::MergePathSearch(3, a, b, 2, 2, split);
  CHECK((split.x == 2 && split.y == 1));
  strata::MergePathSearch(1, b, a, 2, 2, split); // now {2, 3} is a: 1 (of the other) comes first
  CHECK((split.x == 0 && split.y == 1));
}

TEST_CASE("Searches on the device", "[thread][search][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(8);
  INFO("seed " << seed);
  constexpr int n                  = 777;
  const std::vector<float> values  = sorted_values<float>(n, seed);
  const std::vector<float> queries = queries_for<float>(n);
  const int num_queries            = static_cast<int>(queries.size());
  std::vector<int> lower;
  std::vector<int> upper;
  std::vector<long long> lower_root;
  std::vector<long long> upper_root;
  for (int q = 0; q < num_queries; ++q)
  {
    lower.push_back(static_cast<int>(std::lower_bound(values.begin(), values.end(), queries[q]) - values.begin()));
    upper.push_back(static_cast<int>(std::upper_bound(values.begin(), values.end(), queries[q]) - values.begin()));
    const long long target = static_cast<long long>(q) * q + (q % 2);
    long long root         = 0;
    while (root < 1000 && root * root < target)
    {
      ++root;
    }
    lower_root.push_back(root);
    upper_root.push_back(root < 1000 && root * root == target ? root + 1 : root);
  }
  strata_test::device_buffer<float> d_values(values);
  strata_test::device_buffer<float> d_queries(queries);
  strata_test::device_buffer<int> d_lower(queries.size());
  strata_test::device_buffer<int> d_upper(queries.size());
  strata_test::device_buffer<long long> d_lower_root(queries.size());
  strata_test::device_buffer<long long> d_upper_root(queries.size());
  d_lower.poison();
  d_upper.poison();
  d_lower_root.poison();
  d_upper_root.poison();
  bounds_kernel<<<(num_queries + 127) / 128, 128>>>(d_values.data(), n, d_queries.data(), num_queries, d_lower.data(),
                                                    d_upper.data(), d_lower_root.data(), d_upper_root.data());
  strata_test::check_launch();
  strata_test::check_equal(lower, d_lower.download());
  strata_test::check_equal(upper, d_upper.download());
  strata_test::check_equal(lower_root, d_lower_root.download());
  strata_test::check_equal(upper_root, d_upper_root.download());

  for (const auto& [a_len, b_len] : {std::pair{0, 5}, std::pair{300, 0}, std::pair{1, 1}, std::pair{517, 300}})
  {
    INFO("a_len " << a_len << ", b_len " << b_len);
    const std::vector<int> a = sorted_values<int>(a_len, seed + a_len);
    const std::vector<int> b = sorted_values<int>(b_len, seed + b_len + 1);
    const int diagonals      = a_len + b_len + 1;
    std::vector<int> expected_x;
    std::vector<int> expected_y;
    for (int d = 0; d < diagonals; ++d)
    {
      expected_x.push_back(static_cast<int>(merged_from_a(a, b, static_cast<std::size_t>(d))));
      expected_y.push_back(d - expected_x.back());
    }
    strata_test::device_buffer<int> d_a(a);
    strata_test::device_buffer<int> d_b(b);
    strata_test::device_buffer<int2> d_split(static_cast<std::size_t>(diagonals));
    strata_test::device_buffer<coordinate> d_wide(static_cast<std::size_t>(diagonals));
    d_split.poison();
    d_wide.poison();
    merge_path_kernel<<<(diagonals + 127) / 128, 128>>>(d_a.data(), a_len, d_b.data(), b_len, d_split.data());
    strata_test::check_launch();
    merge_path_kernel<<<(diagonals + 127) / 128, 128>>>(d_a.data(), static_cast<std::size_t>(a_len), d_b.data(),
                                                        static_cast<std::size_t>(b_len), d_wide.data());
    strata_test::check_launch();
    std::vector<int> split_x;
    std::vector<int> split_y;
    for (const int2& s : d_split.download())
    {
      split_x.push_back(s.x);
      split_y.push_back(s.y);
    }
    for (const coordinate& c : d_wide.download())
    {
      split_x.push_back(static_cast<int>(c.x));
      split_y.push_back(static_cast<int>(c.y));
    }
    // Both kernels' results, one after the other.
    const std::vector<int> once_x = expected_x;
    const std::vector<int> once_y = expected_y;
    expected_x.insert(expected_x.end(), once_x.begin(), once_x.end());
    expected_y.insert(expected_y.end(), once_y.begin(), once_y.end());
    strata_test::check_equal(expected_x, split_x);
    strata_test::check_equal(expected_y, split_y);
  }
}

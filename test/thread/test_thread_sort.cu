// Tests of strata/thread/thread_sort.cuh: StableOddEvenSort of keys with values and of keys only,
// on host and device, against std::stable_sort; the bitonic networks (detail::ThreadBitonicSort,
// its pairs form, BitonicSortNetwork with a descending compare-exchange, and BitonicMergeNetwork of
// bitonic runs) on the device, against std::sort. Keys are drawn from a handful of values so that
// most keys have duplicates; the values (or, keys only, the part of the key the comparison
// ignores) record the original positions, which proves stability.
#include <strata/thread/thread_sort.cuh>

#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <functional>
#include <numeric>
#include <utility>

namespace
{
using test_lengths = std::integer_sequence<int, 1, 2, 3, 7, 16>;

template <typename F, int... N>
void for_each_length(std::integer_sequence<int, N...>, F&& f)
{
  (f(std::integral_constant<int, N>{}), ...);
}

//! Orders custom_t by its `a` member only: keys equal under it still differ in `b`.
struct by_a
{
  __host__ __device__ bool operator()(const strata_test::custom_t& x, const strata_test::custom_t& y) const
  {
    return x.a < y.a;
  }
};

struct descending
{
  template <typename T>
  __host__ __device__ bool operator()(const T& x, const T& y) const
  {
    return y < x;
  }
};

//! Thread t sorts keys[t * N, (t + 1) * N) with values (pairs) and a custom_t copy keys only.
template <int N, typename KeyT, typename CompareOpT>
__host__ __device__ void sort_one(KeyT* keys, int* values, strata_test::custom_t* custom_keys, CompareOpT compare_op)
{
  KeyT k[N];
  int v[N];
  strata_test::custom_t c[N];
  strata::NullType none[N];
  for (int i = 0; i < N; ++i)
  {
    k[i] = keys[i];
    v[i] = values[i];
    c[i] = custom_keys[i];
  }
  strata::StableOddEvenSort(k, v, compare_op);
  strata::StableOddEvenSort(c, none, by_a{});
  for (int i = 0; i < N; ++i)
  {
    keys[i]        = k[i];
    values[i]      = v[i];
    custom_keys[i] = c[i];
  }
}

template <int N, typename KeyT, typename CompareOpT>
__global__ void sort_kernel(KeyT* keys, int* values, strata_test::custom_t* custom_keys, CompareOpT compare_op,
                            int threads)
{
  const int tid = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (tid < threads)
  {
    sort_one<N>(keys + tid * N, values + tid * N, custom_keys + tid * N, compare_op);
  }
}

template <int N, typename KeyT, typename CompareOpT>
void check_sort(bool on_device, CompareOpT compare_op, std::uint64_t salt)
{
  constexpr int threads = 150;
  const auto seed       = strata_test::seed(salt * 131 + N);
  INFO("N " << N << ", seed " << seed << (on_device ? ", device" : ", host"));
  const std::vector<int> raw = strata_test::random_vector<int>(std::size_t{threads} * N, seed, 1, 4);
  std::vector<KeyT> keys;
  std::vector<int> values(raw.size());
  std::vector<strata_test::custom_t> custom_keys;
  for (std::size_t i = 0; i < raw.size(); ++i)
  {
    keys.push_back(strata_test::from_double<KeyT>(raw[i]));
    values[i] = static_cast<int>(i % N);
    custom_keys.push_back(strata_test::custom_t{raw[raw.size() - 1 - i], static_cast<int>(i % N), 7});
  }

  // The reference: std::stable_sort of (key, value) pairs per thread.
  std::vector<KeyT> expected_keys = keys;
  std::vector<int> expected_values(values.size());
  std::vector<strata_test::custom_t> expected_custom = custom_keys;
  for (int t = 0; t < threads; ++t)
  {
    std::vector<std::pair<KeyT, int>> pairs;
    for (int i = 0; i < N; ++i)
    {
      pairs.emplace_back(keys[t * N + i], values[t * N + i]);
    }
    std::stable_sort(pairs.begin(), pairs.end(),
                     [&](const auto& x, const auto& y) { return compare_op(x.first, y.first); });
    for (int i = 0; i < N; ++i)
    {
      expected_keys[t * N + i]   = pairs[i].first;
      expected_values[t * N + i] = pairs[i].second;
    }
    std::stable_sort(expected_custom.begin() + t * N, expected_custom.begin() + (t + 1) * N, by_a{});
  }

  if (on_device)
  {
    strata_test::device_buffer<KeyT> d_keys(keys);
    strata_test::device_buffer<int> d_values(values);
    strata_test::device_buffer<strata_test::custom_t> d_custom(custom_keys);
    sort_kernel<N><<<(threads + 63) / 64, 64>>>(d_keys.data(), d_values.data(), d_custom.data(), compare_op, threads);
    strata_test::check_launch();
    keys        = d_keys.download();
    values      = d_values.download();
    custom_keys = d_custom.download();
  }
  else
  {
    for (int t = 0; t < threads; ++t)
    {
      sort_one<N>(keys.data() + t * N, values.data() + t * N, custom_keys.data() + t * N, compare_op);
    }
  }
  strata_test::check_equal(expected_keys, keys);
  strata_test::check_equal(expected_values, values);
  strata_test::check_equal(expected_custom, custom_keys);
}
} // namespace

TEST_CASE("StableOddEvenSort: spelled-out example", "[thread][sort]")
{
  int keys[4]    = {3, 1, 3, 0};
  char values[4] = {'a', 'b', 'c', 'd'};
  strata::StableOddEvenSort(keys, values, cuda::std::less<>{});
  CHECK(std::vector<int>(keys, keys + 4) == std::vector<int>{0, 1, 3, 3});
  CHECK(std::string(values, values + 4) == "dbac");
  // Keys only, in reverse order, with a host lambda.
  strata::NullType none[4];
  strata::StableOddEvenSort(keys, none, [](int x, int y) { return x > y; });
  CHECK(std::vector<int>(keys, keys + 4) == std::vector<int>{3, 3, 1, 0});
  // One item: nothing to do.
  double one[1]    = {2.5};
  int one_value[1] = {9};
  strata::StableOddEvenSort(one, one_value, cuda::std::less<>{});
  CHECK((one[0] == 2.5 && one_value[0] == 9));
}

TEST_CASE("StableOddEvenSort equals std::stable_sort (host)", "[thread][sort]")
{
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_sort<N, int>(false, cuda::std::less<>{}, 1);
                    check_sort<N, float>(false, descending{}, 2);
                    check_sort<N, std::uint8_t>(false, cuda::std::less<>{}, 3);
                    check_sort<N, __half>(false, cuda::std::less<>{}, 4);
                  });
}

TEST_CASE("StableOddEvenSort on the device", "[thread][sort][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_sort<N, int>(true, cuda::std::less<>{}, 5);
                  });
  check_sort<7, double>(true, descending{}, 6);
  check_sort<16, std::int64_t>(true, descending{}, 7);
  check_sort<16, __nv_bfloat16>(true, cuda::std::less<>{}, 8);
}

namespace
{
//! Thread t sorts its N keys of `keys` (distinct per thread) four ways, each into its own output:
//! ascending alone, ascending with their positions as values, descending through the network's
//! comparators, and (merge) ascending after the first half is sorted ascending and the second
//! descending, which makes the run bitonic.
template <int N>
__global__ void bitonic_kernel(const unsigned* keys, unsigned* ascending, unsigned* pair_keys, int* pair_values,
                               unsigned* descending, unsigned* merged, int threads)
{
  const int tid = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (tid >= threads)
  {
    return;
  }
  unsigned a[N];
  unsigned p[N];
  int v[N];
  unsigned d[N];
  unsigned m[N];
  for (int i = 0; i < N; ++i)
  {
    a[i] = p[i] = d[i] = m[i] = keys[tid * N + i];
    v[i]                      = i;
  }
  strata::detail::ThreadBitonicSort(a);
  strata::detail::ThreadBitonicSortPairs(p, v);
  strata::detail::BitonicSortNetwork<N>(
      [&](int i, int j, bool up)
      {
        // Descending: the larger first where the network asks for ascending order.
        if ((d[i] < d[j]) == up)
        {
          const unsigned t = d[i];
          d[i]             = d[j];
          d[j]             = t;
        }
      });
  // A bitonic run: the first half ascending, the second descending (odd-even sorts on each half).
  if constexpr (N >= 2)
  {
    unsigned low[N / 2];
    unsigned high[N / 2];
    strata::NullType none[N / 2];
    for (int i = 0; i < N / 2; ++i)
    {
      low[i]  = m[i];
      high[i] = m[N / 2 + i];
    }
    strata::StableOddEvenSort(low, none, cuda::std::less<>{});
    strata::StableOddEvenSort(high, none, cuda::std::greater<>{});
    for (int i = 0; i < N / 2; ++i)
    {
      m[i]         = low[i];
      m[N / 2 + i] = high[i];
    }
  }
  strata::detail::BitonicMergeNetwork<0, N>(
      [&](int i, int j)
      {
        if (m[j] < m[i])
        {
          const unsigned t = m[i];
          m[i]             = m[j];
          m[j]             = t;
        }
      });
  for (int i = 0; i < N; ++i)
  {
    ascending[tid * N + i]   = a[i];
    pair_keys[tid * N + i]   = p[i];
    pair_values[tid * N + i] = v[i];
    descending[tid * N + i]  = d[i];
    merged[tid * N + i]      = m[i];
  }
}

template <int N>
void check_bitonic(std::uint64_t salt)
{
  constexpr int threads = 130;
  const auto seed       = strata_test::seed(salt * 977 + N);
  INFO("N " << N << ", seed " << seed);
  // Distinct keys per thread: a permutation of random values (the networks are not stable).
  std::vector<unsigned> keys(std::size_t{threads} * N);
  const std::vector<int> raw = strata_test::random_vector<int>(keys.size(), seed, 0, 1 << 20);
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    keys[i] = (unsigned(raw[i]) << 8) | unsigned(i % N); // distinct within a thread's N
  }
  strata_test::device_buffer<unsigned> d_keys(keys);
  strata_test::device_buffer<unsigned> d_ascending(keys.size());
  strata_test::device_buffer<unsigned> d_pair_keys(keys.size());
  strata_test::device_buffer<int> d_pair_values(keys.size());
  strata_test::device_buffer<unsigned> d_descending(keys.size());
  strata_test::device_buffer<unsigned> d_merged(keys.size());
  d_ascending.poison();
  d_pair_keys.poison();
  d_pair_values.poison();
  d_descending.poison();
  d_merged.poison();
  bitonic_kernel<N><<<(threads + 63) / 64, 64>>>(d_keys.data(), d_ascending.data(), d_pair_keys.data(),
                                                 d_pair_values.data(), d_descending.data(), d_merged.data(), threads);
  strata_test::check_launch();
  std::vector<unsigned> expected            = keys;
  std::vector<unsigned> expected_descending = keys;
  std::vector<int> expected_values(keys.size());
  for (int t = 0; t < threads; ++t)
  {
    std::sort(expected.begin() + t * N, expected.begin() + (t + 1) * N);
    std::sort(expected_descending.begin() + t * N, expected_descending.begin() + (t + 1) * N, std::greater<>{});
    for (int i = 0; i < N; ++i)
    {
      // The value of the key now at i: that key's position in the input.
      const auto at              = std::find(keys.begin() + t * N, keys.begin() + (t + 1) * N, expected[t * N + i]);
      expected_values[t * N + i] = int(at - (keys.begin() + t * N));
    }
  }
  strata_test::check_equal(expected, d_ascending.download());
  strata_test::check_equal(expected, d_pair_keys.download());
  strata_test::check_equal(expected_values, d_pair_values.download());
  strata_test::check_equal(expected_descending, d_descending.download());
  strata_test::check_equal(expected, d_merged.download());
}
} // namespace

TEST_CASE("Bitonic networks sort and merge on the device", "[thread][sort][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_bitonic<1>(1);
  check_bitonic<2>(2);
  check_bitonic<8>(3);
  check_bitonic<32>(4);
}

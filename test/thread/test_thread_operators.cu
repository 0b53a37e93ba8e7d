// Tests of strata/thread/thread_operators.cuh: ArgMin/ArgMax (ties pick the smaller key whatever
// the combining order), CastOp, InequalityWrapper, SwizzleScanOp with a non-commutative operator,
// the segmented and keyed reduction operators (semantics and associativity), and the detail traits.
#include <strata/thread/thread_operators.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>

#include "common/test_common.cuh"

#include <algorithm>

namespace
{
using affine  = strata_test::affine_map;
using compose = strata_test::affine_compose;

template <typename T>
T value_of(int v)
{
  if constexpr (std::is_same_v<T, strata_test::custom_t>)
  {
    return strata_test::custom_t{v / 3, v % 3, 1};
  }
  else
  {
    return strata_test::from_double<T>(v);
  }
}

template <typename T>
bool less(const T& a, const T& b)
{
  if constexpr (strata_test::is_extended_float_v<T>)
  {
    return strata_test::to_double(a) < strata_test::to_double(b);
  }
  else
  {
    return a < b;
  }
}

//! Reduces `pairs` with `op` in three groupings (left to right, right to left, and a balanced
//! tree) and returns the three results.
template <typename PairT, typename OpT>
std::vector<PairT> reduce_three_ways(const std::vector<PairT>& pairs, OpT op)
{
  PairT forward = pairs.front();
  for (std::size_t i = 1; i < pairs.size(); ++i)
  {
    forward = op(forward, pairs[i]);
  }
  PairT backward = pairs.back();
  for (std::size_t i = pairs.size() - 1; i-- > 0;)
  {
    backward = op(pairs[i], backward);
  }
  std::vector<PairT> level = pairs;
  while (level.size() > 1)
  {
    std::vector<PairT> next;
    for (std::size_t i = 0; i < level.size(); i += 2)
    {
      next.push_back(i + 1 < level.size() ? op(level[i], level[i + 1]) : level[i]);
    }
    level = next;
  }
  return {forward, backward, level.front()};
}
} // namespace

using arg_types = std::tuple<std::int64_t, float, __half, strata_test::custom_t>;

TEMPLATE_LIST_TEST_CASE("ArgMin and ArgMax prefer the smaller key on ties", "[thread][operators]", arg_types)
{
  using T    = TestType;
  using Pair = strata::KeyValuePair<int, T>;
  const Pair low_late(7, value_of<T>(2));
  const Pair low_early(3, value_of<T>(2));
  const Pair high(5, value_of<T>(9));
  for (const auto& [a, b] : {std::pair{low_late, low_early}, std::pair{low_early, low_late}})
  {
    CHECK(strata::ArgMin{}(a, b).key == 3);
    CHECK(strata::ArgMax{}(a, b).key == 3);
  }
  CHECK(strata::ArgMin{}(high, low_late).key == 7);
  CHECK(strata::ArgMin{}(low_late, high).key == 7);
  CHECK(strata::ArgMax{}(high, low_early).key == 5);
  CHECK(strata::ArgMax{}(low_early, high).key == 5);
  STATIC_REQUIRE(std::is_same_v<decltype(strata::ArgMin{}(low_late, high)), Pair>);

  // Over random values with many duplicates, every grouping finds the first extreme item.
  const auto seed = strata_test::seed(1);
  INFO("seed " << seed);
  for (int n : {1, 2, 3, 7, 16, 100})
  {
    const std::vector<int> raw = strata_test::random_vector<int>(n, seed + n, 0, 4);
    std::vector<strata::KeyValuePair<long long, T>> pairs;
    int first_min = 0;
    int first_max = 0;
    for (int i = 0; i < n; ++i)
    {
      pairs.emplace_back(i, value_of<T>(raw[i]));
      first_min = less(pairs[i].value, pairs[first_min].value) ? i : first_min;
      first_max = less(pairs[first_max].value, pairs[i].value) ? i : first_max;
    }
    for (const auto& result : reduce_three_ways(pairs, strata::ArgMin{}))
    {
      CHECK(result.key == first_min);
    }
    for (const auto& result : reduce_three_ways(pairs, strata::ArgMax{}))
    {
      CHECK(result.key == first_max);
    }
  }
}

TEST_CASE("CastOp converts explicitly", "[thread][operators]")
{
  CHECK(strata::CastOp<int>{}(3.9) == 3);
  CHECK(strata::CastOp<int>{}(-3.9f) == -3);
  CHECK(strata::CastOp<unsigned char>{}(300) == 44);
  CHECK(strata::CastOp<double>{}(7) == 7.0);
  CHECK(strata_test::to_double(strata::CastOp<__half>{}(1.5f)) == 1.5);
  STATIC_REQUIRE(std::is_same_v<decltype(strata::CastOp<long>{}(1.0f)), long>);
}

namespace
{
//! Equality of last decimal digits, with a non-const call operator (as users write them).
struct same_last_digit
{
  bool operator()(int a, int b)
  {
    return a % 10 == b % 10;
  }
};
} // namespace

TEST_CASE("InequalityWrapper negates the equality operator", "[thread][operators]")
{
  strata::InequalityWrapper<cuda::std::equal_to<>> not_equal(cuda::std::equal_to<>{});
  CHECK(not_equal(1, 2));
  CHECK_FALSE(not_equal(3, 3));
  strata::InequalityWrapper<same_last_digit> different_digit(same_last_digit{});
  CHECK_FALSE(different_digit(13, 23));
  CHECK(different_digit(13, 14));
}

TEST_CASE("SwizzleScanOp swaps the operands of a non-commutative operator", "[thread][operators]")
{
  strata::SwizzleScanOp<cuda::std::minus<>> swizzled(cuda::std::minus<>{});
  CHECK(swizzled(10, 3) == -7);
  CHECK(swizzled(3, 10) == 7);

  // Reducing the reversed sequence with the swizzled operator gives the forward reduction, while
  // the plain operator over the reversed sequence does not: the operands really are swapped.
  const auto seed = strata_test::seed(2);
  INFO("seed " << seed);
  const std::vector<std::uint32_t> raw = strata_test::random_vector<std::uint32_t>(14, seed);
  affine forward[7];
  affine reversed[7];
  for (int i = 0; i < 7; ++i)
  {
    forward[i]      = affine{raw[2 * i] | 1u, raw[2 * i + 1]};
    reversed[6 - i] = forward[i];
  }
  const affine expected = strata::ThreadReduce(forward, compose{});
  CHECK(strata::ThreadReduce(reversed, strata::SwizzleScanOp<compose>(compose{})) == expected);
  CHECK_FALSE(strata::ThreadReduce(reversed, compose{}) == expected);
}

TEST_CASE("ReduceBySegmentOp: head counts add up, a head restarts the value", "[thread][operators]")
{
  using Pair = strata::KeyValuePair<int, int>;
  strata::ReduceBySegmentOp<cuda::std::minus<>> op(cuda::std::minus<>{});
  CHECK(op(Pair(1, 10), Pair(0, 3)) == Pair(1, 7)); // op(first, second), in that order
  CHECK(op(Pair(1, 10), Pair(1, 3)) == Pair(2, 3));
  CHECK(op(Pair(0, 10), Pair(2, 4)) == Pair(2, 4));
  CHECK(op(Pair(3, 10), Pair(0, 4)) == Pair(3, 6));

  // An inclusive scan over (head flag, value) gives each item its segment count and the running
  // sum within its segment; and the operator is associative (every grouping agrees).
  const auto seed = strata_test::seed(3);
  INFO("seed " << seed);
  const std::vector<int> flags  = strata_test::random_vector<int>(16, seed, 0, 1);
  const std::vector<int> values = strata_test::random_vector<int>(16, seed + 1, -50, 50);
  Pair pairs[16];
  std::vector<Pair> expected;
  int heads   = 0;
  int running = 0;
  for (int i = 0; i < 16; ++i)
  {
    pairs[i] = Pair(flags[i], values[i]);
    heads += flags[i];
    running = (flags[i] != 0 || i == 0) ? values[i] : running + values[i];
    expected.emplace_back(heads, running);
  }
  const std::vector<Pair> all(pairs, pairs + 16);
  const std::vector<Pair> groupings =
      reduce_three_ways(all, strata::ReduceBySegmentOp<cuda::std::plus<>>(cuda::std::plus<>{}));
  CHECK(groupings[0] == expected.back());
  CHECK(groupings[1] == expected.back());
  CHECK(groupings[2] == expected.back());
  strata::ThreadScanInclusive(pairs, pairs, strata::ReduceBySegmentOp<cuda::std::plus<>>{});
  strata_test::check_equal(expected, std::vector<Pair>(pairs, pairs + 16));
}

TEST_CASE("ReduceByKeyOp: equal keys combine, a new key restarts", "[thread][operators]")
{
  using Pair = strata::KeyValuePair<int, int>;
  strata::ReduceByKeyOp<cuda::std::minus<>> op(cuda::std::minus<>{});
  CHECK(op(Pair(2, 10), Pair(2, 3)) == Pair(2, 7)); // op(first, second), in that order
  CHECK(op(Pair(1, 10), Pair(2, 3)) == Pair(2, 3));
  CHECK(op(Pair(2, 10), Pair(1, 3)) == Pair(1, 3));

  // A scan over runs of keys gives the running sum within each run.
  const auto seed = strata_test::seed(4);
  INFO("seed " << seed);
  const std::vector<int> steps  = strata_test::random_vector<int>(16, seed, 0, 1);
  const std::vector<int> values = strata_test::random_vector<int>(16, seed + 1, -50, 50);
  Pair pairs[16];
  std::vector<Pair> expected;
  int key     = 0;
  int running = 0;
  for (int i = 0; i < 16; ++i)
  {
    const bool new_run = i == 0 || steps[i] != 0;
    key += steps[i];
    running  = new_run ? values[i] : running + values[i];
    pairs[i] = Pair(key, values[i]);
    expected.emplace_back(key, running);
  }
  strata::ThreadScanInclusive(pairs, pairs, strata::ReduceByKeyOp<cuda::std::plus<>>{});
  strata_test::check_equal(expected, std::vector<Pair>(pairs, pairs + 16));
}

TEST_CASE("detail::ScanBySegmentOp ORs the head flags", "[thread][operators]")
{
  using Pair = strata::KeyValuePair<int, int>;
  strata::detail::ScanBySegmentOp<cuda::std::minus<>> op(cuda::std::minus<>{});
  CHECK(op(Pair(1, 10), Pair(0, 3)) == Pair(1, 7));
  CHECK(op(Pair(1, 10), Pair(1, 3)) == Pair(1, 3));
  CHECK(op(Pair(0, 10), Pair(0, 3)) == Pair(0, 7));
  CHECK(op(Pair(0, 10), Pair(1, 3)) == Pair(1, 3));
}

TEST_CASE("detail traits: accumulator type and regroupable operators", "[thread][operators]")
{
  using strata::detail::accumulator_t;
  using strata::detail::is_reassociable_for_integers_v;
  STATIC_REQUIRE(std::is_same_v<accumulator_t<cuda::std::plus<>, std::int8_t>, int>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<cuda::minimum<>, std::int8_t>, std::int8_t>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<cuda::std::plus<float>, int>, float>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<cuda::std::plus<>, int, double>, double>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<strata::ArgMin, strata::KeyValuePair<int, float>>,
                                strata::KeyValuePair<int, float>>);
  STATIC_REQUIRE(is_reassociable_for_integers_v<cuda::std::plus<>>);
  STATIC_REQUIRE(is_reassociable_for_integers_v<cuda::minimum<int>>);
  STATIC_REQUIRE(is_reassociable_for_integers_v<cuda::maximum<>>);
  STATIC_REQUIRE(is_reassociable_for_integers_v<cuda::std::bit_or<unsigned>>);
  STATIC_REQUIRE_FALSE(is_reassociable_for_integers_v<cuda::std::minus<>>);
  STATIC_REQUIRE_FALSE(is_reassociable_for_integers_v<strata::ArgMin>);
  STATIC_REQUIRE_FALSE(is_reassociable_for_integers_v<compose>);
}

namespace
{
using pair_t = strata::KeyValuePair<int, float>;

//! Every operator once per thread; the host computes the same with the same code.
struct operator_results
{
  pair_t arg_min;
  pair_t arg_max;
  pair_t by_segment;
  pair_t by_key;
  float swizzled;
  int cast;
  int inequal;

  friend bool operator==(const operator_results& x, const operator_results& y)
  {
    return x.arg_min == y.arg_min && x.arg_max == y.arg_max && x.by_segment == y.by_segment && x.by_key == y.by_key
           && x.swizzled == y.swizzled && x.cast == y.cast && x.inequal == y.inequal;
  }
};

__host__ __device__ operator_results apply_operators(const pair_t& a, const pair_t& b)
{
  operator_results r;
  r.arg_min = strata::ArgMin{}(a, b);
  r.arg_max = strata::ArgMax{}(a, b);
  r.by_segment =
      strata::ReduceBySegmentOp<cuda::std::minus<>>{}(pair_t(a.key % 2, a.value), pair_t(b.key % 2, b.value));
  r.by_key   = strata::ReduceByKeyOp<cuda::std::minus<>>{}(pair_t(a.key % 3, a.value), pair_t(b.key % 3, b.value));
  r.swizzled = strata::SwizzleScanOp<cuda::std::minus<>>(cuda::std::minus<>{})(a.value, b.value);
  r.cast     = strata::CastOp<int>{}(a.value * 1.5f);
  r.inequal  = strata::InequalityWrapper<cuda::std::equal_to<>>(cuda::std::equal_to<>{})(a.value, b.value);
  return r;
}

__global__ void operators_kernel(const pair_t* a, const pair_t* b, operator_results* out, int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    out[i] = apply_operators(a[i], b[i]);
  }
}
} // namespace

TEST_CASE("The operators on the device", "[thread][operators][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed(5);
  INFO("seed " << seed);
  constexpr int n               = 300;
  const std::vector<int> keys   = strata_test::random_vector<int>(2 * n, seed, 0, 5);
  const std::vector<int> values = strata_test::random_vector<int>(2 * n, seed + 1, -3, 3);
  std::vector<pair_t> a;
  std::vector<pair_t> b;
  std::vector<operator_results> expected;
  for (int i = 0; i < n; ++i)
  {
    a.emplace_back(keys[2 * i], values[2 * i] + 0.25f);
    b.emplace_back(keys[2 * i + 1], values[2 * i + 1] + 0.25f);
    expected.push_back(apply_operators(a.back(), b.back()));
  }
  strata_test::device_buffer<pair_t> d_a(a);
  strata_test::device_buffer<pair_t> d_b(b);
  strata_test::device_buffer<operator_results> d_out(n);
  d_out.poison();
  operators_kernel<<<(n + 127) / 128, 128>>>(d_a.data(), d_b.data(), d_out.data(), n);
  strata_test::check_launch();
  strata_test::check_equal(expected, d_out.download());
}

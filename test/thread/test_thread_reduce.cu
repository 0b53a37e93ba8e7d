// Tests of strata/thread/thread_reduce.cuh: ThreadReduce over arrays, cuda::std::array, span and
// pointers, with and without a prefix, on host and device: results equal the sequential fold
// (prefix first), result types follow the operator, and floating point is never regrouped.
#include <strata/thread/thread_reduce.cuh>

#include "thread_test_helpers.cuh"

#include <cuda/std/array>
#include <cuda/std/span>

#include <cmath>
#include <limits>
#include <utility>

namespace
{
using strata_test::for_each_length;
using strata_test::ordered_op;
using test_lengths = strata_test::thread_test_lengths;

template <typename OpT, typename T>
using accum_t = strata::detail::accumulator_t<OpT, T>;
template <typename OpT, typename T, typename PrefixT>
using prefix_accum_t = strata::detail::accumulator_t<OpT, T, PrefixT>;

//! The reference: a chain from the first item (or from the prefix), left to right.
template <typename AccumT, typename T, typename OpT>
AccumT reference_reduce(const T* items, int n, OpT op)
{
  AccumT acc = static_cast<AccumT>(items[0]);
  for (int i = 1; i < n; ++i)
  {
    acc = op(acc, items[i]);
  }
  return acc;
}
template <typename AccumT, typename T, typename OpT, typename PrefixT>
AccumT reference_reduce(const T* items, int n, OpT op, PrefixT prefix)
{
  if (n == 0)
  {
    return static_cast<AccumT>(prefix);
  }
  AccumT acc = static_cast<AccumT>(op(prefix, items[0]));
  for (int i = 1; i < n; ++i)
  {
    acc = op(acc, items[i]);
  }
  return acc;
}

//! Tolerance of device results: 16-bit floats may round differently in native arithmetic.
template <typename T>
constexpr double device_tolerance()
{
  return strata_test::is_extended_float_v<T> ? 1e-2 : 0.0;
}

constexpr int forms = 3; // results per thread and per kind (plain, with prefix)

//! Every form of ThreadReduce over the N items at `in`: three results without a prefix, three
//! with. Shared by the host cases and the kernel.
template <int N, typename T, typename OpT, typename PrefixT>
__host__ __device__ void reduce_forms(const T* in, PrefixT prefix, OpT op, accum_t<OpT, T>* out,
                                      prefix_accum_t<OpT, T, PrefixT>* out_prefix)
{
  T items[N];
  cuda::std::array<T, N> std_items;
  for (int i = 0; i < N; ++i)
  {
    items[i]     = in[i];
    std_items[i] = in[i];
  }
  out[0]        = strata::ThreadReduce(items, op);
  out[1]        = strata::ThreadReduce(std_items, op);
  out[2]        = strata::ThreadReduce<N>(in, op);
  out_prefix[0] = strata::ThreadReduce(items, op, prefix);
  out_prefix[1] = strata::ThreadReduce(cuda::std::span<const T, N>(items), op, prefix);
  out_prefix[2] = strata::ThreadReduce<N>(in, op, prefix);
}

//! Thread t reduces in[t * N, (t + 1) * N) with prefixes[t]; the pointer forms read global memory.
template <int N, typename T, typename OpT, typename PrefixT>
__global__ void reduce_kernel(const T* in, const PrefixT* prefixes, OpT op, accum_t<OpT, T>* out,
                              prefix_accum_t<OpT, T, PrefixT>* out_prefix, int threads)
{
  const int tid = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (tid < threads)
  {
    reduce_forms<N>(in + tid * N, prefixes[tid], op, out + forms * tid, out_prefix + forms * tid);
  }
}

//! Runs every form for `threads` independent inputs of N items (host or device) and checks
//! each result against the sequential reference.
template <int N, typename T, typename OpT, typename PrefixT = T>
void check_reduce(bool on_device, OpT op, std::uint64_t salt)
{
  using AccumT          = accum_t<OpT, T>;
  using PrefixAccumT    = prefix_accum_t<OpT, T, PrefixT>;
  constexpr int threads = 100; // not a multiple of the block size
  const auto seed       = strata_test::seed(salt * 131 + N);
  INFO("N " << N << ", seed " << seed << (on_device ? ", device" : ", host"));
  const std::vector<T> in             = strata_test::thread_test_inputs<T>(std::size_t{threads} * N, seed);
  const std::vector<PrefixT> prefixes = strata_test::thread_test_inputs<PrefixT>(threads, seed + 1);

  std::vector<AccumT> expected(std::size_t{forms} * threads);
  std::vector<PrefixAccumT> expected_prefix(std::size_t{forms} * threads);
  for (int t = 0; t < threads; ++t)
  {
    for (int f = 0; f < forms; ++f)
    {
      expected[forms * t + f]        = reference_reduce<AccumT>(in.data() + t * N, N, op);
      expected_prefix[forms * t + f] = reference_reduce<PrefixAccumT>(in.data() + t * N, N, op, prefixes[t]);
    }
  }

  std::vector<AccumT> actual(expected.size());
  std::vector<PrefixAccumT> actual_prefix(expected_prefix.size());
  if (on_device)
  {
    strata_test::device_buffer<T> d_in(in);
    strata_test::device_buffer<PrefixT> d_prefixes(prefixes);
    strata_test::device_buffer<AccumT> d_out(actual.size());
    strata_test::device_buffer<PrefixAccumT> d_out_prefix(actual_prefix.size());
    d_out.poison();
    d_out_prefix.poison();
    reduce_kernel<N>
        <<<(threads + 63) / 64, 64>>>(d_in.data(), d_prefixes.data(), op, d_out.data(), d_out_prefix.data(), threads);
    strata_test::check_launch();
    actual        = d_out.download();
    actual_prefix = d_out_prefix.download();
  }
  else
  {
    for (int t = 0; t < threads; ++t)
    {
      reduce_forms<N>(in.data() + t * N, prefixes[t], op, actual.data() + forms * t, actual_prefix.data() + forms * t);
    }
  }
  const double tolerance = on_device ? device_tolerance<AccumT>() : 0.0;
  strata_test::check_equal(expected, actual, tolerance);
  strata_test::check_equal(expected_prefix, actual_prefix, tolerance);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("ThreadReduce equals the sequential fold (host)", "[thread][reduce]", strata_test::all_types)
{
  using T = TestType;
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_reduce<N, T>(false, cuda::std::plus<>{}, 1);
                    check_reduce<N, T>(false, cuda::minimum<>{}, 2);
                    check_reduce<N, T>(false, cuda::maximum<>{}, 3);
                  });
}

TEST_CASE("ThreadReduce keeps the order of a non-commutative, non-associative operator (host)", "[thread][reduce]")
{
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_reduce<N, std::uint32_t>(false, ordered_op{}, 4);
                    check_reduce<N, float>(false, ordered_op{}, 5);
                  });
  // Spelled out: ((5 * 3 + 1) * 3 + 2) * 3 + 3 = 153, and the prefix goes first.
  std::uint32_t items[4] = {5, 1, 2, 3};
  CHECK(strata::ThreadReduce(items, ordered_op{}) == 153u);
  CHECK(strata::ThreadReduce(items, ordered_op{}, 7u) == ((((7u * 3 + 5) * 3 + 1) * 3 + 2) * 3 + 3));
}

TEST_CASE("ThreadReduce with typed operators, mixed prefix types and user functors (host)", "[thread][reduce]")
{
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_reduce<N, std::int8_t>(false, cuda::std::plus<std::int8_t>{}, 6);
                    check_reduce<N, std::uint16_t>(false, cuda::minimum<std::uint16_t>{}, 7);
                    check_reduce<N, std::int32_t, cuda::std::plus<>, std::int64_t>(false, cuda::std::plus<>{}, 8);
                    check_reduce<N, float, cuda::std::plus<>, double>(false, cuda::std::plus<>{}, 9);
                    check_reduce<N, std::uint64_t>(false, cuda::std::bit_xor<>{}, 10);
                  });
  // A host lambda is an operator too.
  const int items[3] = {4, 9, 2};
  CHECK(strata::ThreadReduce(items, [](int a, int b) { return a > b ? a : b; }) == 9);
}

TEST_CASE("ThreadReduce result types follow the operator", "[thread][reduce]")
{
  using i8  = const std::int8_t(&)[3];
  using f   = const float(&)[3];
  using u16 = const std::uint16_t(&)[2];
  STATIC_REQUIRE(std::is_same_v<decltype(strata::ThreadReduce(std::declval<i8>(), cuda::std::plus<>{})), int>);
  STATIC_REQUIRE(
      std::is_same_v<decltype(strata::ThreadReduce(std::declval<i8>(), cuda::std::plus<std::int8_t>{})), std::int8_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(strata::ThreadReduce(std::declval<i8>(), cuda::minimum<>{})), std::int8_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(strata::ThreadReduce(std::declval<u16>(), cuda::maximum<>{}, 1u)), unsigned>);
  STATIC_REQUIRE(std::is_same_v<decltype(strata::ThreadReduce(std::declval<f>(), cuda::std::plus<>{}, 1.0)), double>);
  STATIC_REQUIRE(
      std::is_same_v<decltype(strata::ThreadReduce<3>(std::declval<const float*>(), cuda::std::plus<>{})), float>);
  STATIC_REQUIRE(
      std::is_same_v<decltype(strata::ThreadReduce<3>(std::declval<const std::int8_t*>(), cuda::std::plus<>{}, 1L)),
                     long>);
  // plus<> over int8_t accumulates in int: no wrap-around at 127.
  std::int8_t big[3] = {100, 100, 100};
  CHECK(strata::ThreadReduce(big, cuda::std::plus<>{}) == 300);
  CHECK(strata::ThreadReduce(big, cuda::std::plus<std::int8_t>{}) == static_cast<std::int8_t>(300));
}

TEST_CASE("ThreadReduce regroups integers only", "[thread][reduce]")
{
  using strata::detail::reduce_as_tree_v;
  STATIC_REQUIRE(reduce_as_tree_v<cuda::std::plus<>, int>);
  STATIC_REQUIRE(reduce_as_tree_v<cuda::std::plus<std::uint8_t>, std::uint8_t>);
  STATIC_REQUIRE(reduce_as_tree_v<cuda::minimum<>, std::int64_t>);
  STATIC_REQUIRE(reduce_as_tree_v<cuda::maximum<unsigned>, unsigned>);
  STATIC_REQUIRE(reduce_as_tree_v<cuda::std::bit_and<>, int>);
  STATIC_REQUIRE_FALSE(reduce_as_tree_v<cuda::std::plus<>, float>);
  STATIC_REQUIRE_FALSE(reduce_as_tree_v<cuda::minimum<>, double>);
  STATIC_REQUIRE_FALSE(reduce_as_tree_v<cuda::maximum<>, __half>);
  STATIC_REQUIRE_FALSE(reduce_as_tree_v<cuda::std::minus<>, int>);
  STATIC_REQUIRE_FALSE(reduce_as_tree_v<ordered_op, std::uint32_t>);
  STATIC_REQUIRE_FALSE(reduce_as_tree_v<cuda::std::plus<>, strata_test::custom_t>);

  // The chain's answer for minimum over {1, 2, NaN, 5} is 5 (min(x, NaN) is NaN, min(NaN, 5) is
  // 5); a tree, (1 min 2) min (NaN min 5), would give 1.
  const float nan      = std::numeric_limits<float>::quiet_NaN();
  const float items[4] = {1.f, 2.f, nan, 5.f};
  CHECK(strata::ThreadReduce(items, cuda::minimum<>{}) == 5.f);
  // And of {+0.0, -0.0}: on a tie minimum keeps its right operand, maximum its left one.
  const double zeros[2] = {0.0, -0.0};
  CHECK(std::signbit(strata::ThreadReduce(zeros, cuda::minimum<>{})));
  CHECK_FALSE(std::signbit(strata::ThreadReduce(zeros, cuda::maximum<>{})));
  CHECK(std::signbit(strata::ThreadReduce(zeros, cuda::maximum<>{}, -0.0)));
}

TEST_CASE("ThreadReduce: the documentation's examples", "[thread][reduce]")
{
  int items[4] = {1, 2, 3, 4};
  CHECK(strata::ThreadReduce(items, cuda::std::plus<>{}) == 10);
  float floats[3] = {1.f, 2.f, 3.f};
  CHECK(strata::ThreadReduce(floats, cuda::std::plus<>{}, 10.f) == 16.f);
}

TEST_CASE("ThreadReduce of no items returns the prefix", "[thread][reduce]")
{
  const cuda::std::array<int, 0> empty{};
  CHECK(strata::ThreadReduce(empty, cuda::std::plus<>{}, 42) == 42);
  CHECK(strata::ThreadReduce(empty, ordered_op{}, 7u) == 7u);
  const int one = 5;
  CHECK(strata::ThreadReduce<0>(&one, cuda::std::plus<>{}, 9L) == 9L);
  // CUB's spelling of the pointer form.
  const int three[3] = {3, 4, 5};
  CHECK(strata::internal::ThreadReduce<3>(three, cuda::std::plus<>{}) == 12);
  CHECK(strata::internal::ThreadReduce<2>(three, cuda::std::plus<>{}, 10) == 17);
}

TEMPLATE_LIST_TEST_CASE("ThreadReduce on the device", "[thread][reduce][gpu]", strata_test::all_types)
{
  STRATA_TEST_REQUIRE_GPU();
  check_reduce<7, TestType>(true, cuda::std::plus<>{}, 11);
}

TEST_CASE("ThreadReduce on the device: lengths, operators and order", "[thread][reduce][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_reduce<N, std::int32_t>(true, cuda::std::plus<>{}, 12);
                    check_reduce<N, float>(true, ordered_op{}, 13);
                  });
  check_reduce<16, std::uint32_t>(true, ordered_op{}, 14);
  check_reduce<7, std::int16_t>(true, cuda::minimum<>{}, 15);
  check_reduce<16, std::uint8_t>(true, cuda::maximum<>{}, 16);
  check_reduce<7, double>(true, cuda::maximum<>{}, 17);
  check_reduce<3, std::int8_t, cuda::std::plus<>, std::int64_t>(true, cuda::std::plus<>{}, 18);
}

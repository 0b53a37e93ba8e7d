// Tests of strata/thread/thread_scan.cuh: ThreadScanInclusive / ThreadScanExclusive, array and
// pointer forms, with and without a prefix (applied or not), in place and out of place, on host
// and device, against a sequential reference; a non-commutative operator pins down the order.
#include <strata/thread/thread_scan.cuh>

#include "thread_test_helpers.cuh"

#include <utility>

namespace
{
using strata_test::for_each_length;
using strata_test::ordered_op;
using test_lengths = strata_test::thread_test_lengths;

// The six forms each thread runs; every form writes N outputs and returns one aggregate.
enum form
{
  inclusive_array,            // ThreadScanInclusive(items, result, op)
  inclusive_array_in_place,   // ThreadScanInclusive(items, items, op)
  inclusive_pointer_prefix,   // ThreadScanInclusive<N>(in, out, op, prefix, apply)
  inclusive_array_prefix,     // ThreadScanInclusive(items, items, op, prefix, apply), in place
  exclusive_array_prefix,     // ThreadScanExclusive(items, result, op, prefix, apply)
  exclusive_pointer_in_place, // ThreadScanExclusive<N>(out, out, op, prefix, apply)
  form_count
};

//! Whether thread t applies its prefix (one thread in three does not, like thread 0 of a block).
__host__ __device__ bool applies_prefix(int t)
{
  return t % 3 != 0;
}

//! Runs every form over the N items at `in`; `out` receives form_count * N outputs, `aggregates`
//! form_count values. The pointer forms use `in` and `out` directly (global memory on the device).
template <int N, typename T, typename OpT>
__host__ __device__ void scan_forms(const T* in, T prefix, bool apply, OpT op, T* out, T* aggregates)
{
  T items[N];
  T result[N];
  auto load = [&]
  {
    for (int i = 0; i < N; ++i)
    {
      items[i] = in[i];
    }
  };
  auto store = [&](const T(&values)[N], form f)
  {
    for (int i = 0; i < N; ++i)
    {
      out[f * N + i] = values[i];
    }
  };
  load();
  aggregates[inclusive_array] = strata::ThreadScanInclusive(items, result, op);
  store(result, inclusive_array);
  aggregates[inclusive_array_in_place] = strata::ThreadScanInclusive(items, items, op);
  store(items, inclusive_array_in_place);
  aggregates[inclusive_pointer_prefix] =
      strata::ThreadScanInclusive<N>(in, out + inclusive_pointer_prefix * N, op, prefix, apply);
  load();
  aggregates[inclusive_array_prefix] = strata::ThreadScanInclusive(items, items, op, prefix, apply);
  store(items, inclusive_array_prefix);
  load();
  aggregates[exclusive_array_prefix] = strata::ThreadScanExclusive(items, result, op, prefix, apply);
  store(result, exclusive_array_prefix);
  store(items, exclusive_pointer_in_place);
  T* in_place                            = out + exclusive_pointer_in_place * N;
  aggregates[exclusive_pointer_in_place] = strata::ThreadScanExclusive<N>(in_place, in_place, op, prefix, apply);
}

template <int N, typename T, typename OpT>
__global__ void scan_kernel(const T* in, const T* prefixes, OpT op, T* out, T* aggregates, int threads)
{
  const int tid = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (tid < threads)
  {
    scan_forms<N>(in + tid * N, prefixes[tid], applies_prefix(tid), op, out + tid * form_count * N,
                  aggregates + tid * form_count);
  }
}

//! The reference of one form: the running value kept in T, left to right, prefix first.
template <typename T, typename OpT>
T reference_scan(const T* x, int n, OpT op, bool inclusive, bool seeded, T prefix, bool apply, T* out)
{
  T running = (seeded && apply) ? static_cast<T>(op(prefix, x[0])) : x[0];
  if (inclusive)
  {
    out[0] = running;
  }
  else
  {
    out[0] = prefix;
  }
  for (int i = 1; i < n; ++i)
  {
    const T next = static_cast<T>(op(running, x[i]));
    out[i]       = inclusive ? next : running;
    running      = next;
  }
  return running;
}

template <typename T>
constexpr double device_tolerance()
{
  return strata_test::is_extended_float_v<T> ? 1e-2 : 0.0;
}

template <int N, typename T, typename OpT>
void check_scan(bool on_device, OpT op, std::uint64_t salt)
{
  constexpr int threads = 100; // not a multiple of the block size
  const auto seed       = strata_test::seed(salt * 131 + N);
  INFO("N " << N << ", seed " << seed << (on_device ? ", device" : ", host"));
  const std::vector<T> in       = strata_test::thread_test_inputs<T>(std::size_t{threads} * N, seed);
  const std::vector<T> prefixes = strata_test::thread_test_inputs<T>(threads, seed + 1);

  std::vector<T> expected(std::size_t{threads} * form_count * N);
  std::vector<T> expected_aggregates(std::size_t{threads} * form_count);
  for (int t = 0; t < threads; ++t)
  {
    const T* x       = in.data() + t * N;
    const bool apply = applies_prefix(t);
    const T prefix   = prefixes[t];
    T* out           = expected.data() + std::size_t{form_count} * N * t;
    T* aggregates    = expected_aggregates.data() + form_count * t;
    for (int f = 0; f < form_count; ++f)
    {
      const bool inclusive = f <= inclusive_array_prefix;
      const bool seeded    = f >= inclusive_pointer_prefix;
      aggregates[f]        = reference_scan(x, N, op, inclusive, seeded, prefix, apply, out + f * N);
    }
  }

  std::vector<T> actual(expected.size());
  std::vector<T> actual_aggregates(expected_aggregates.size());
  if (on_device)
  {
    strata_test::device_buffer<T> d_in(in);
    strata_test::device_buffer<T> d_prefixes(prefixes);
    strata_test::device_buffer<T> d_out(actual.size());
    strata_test::device_buffer<T> d_aggregates(actual_aggregates.size());
    d_out.poison();
    d_aggregates.poison();
    scan_kernel<N>
        <<<(threads + 63) / 64, 64>>>(d_in.data(), d_prefixes.data(), op, d_out.data(), d_aggregates.data(), threads);
    strata_test::check_launch();
    actual            = d_out.download();
    actual_aggregates = d_aggregates.download();
  }
  else
  {
    for (int t = 0; t < threads; ++t)
    {
      scan_forms<N>(in.data() + t * N, prefixes[t], applies_prefix(t), op,
                    actual.data() + std::size_t{form_count} * N * t, actual_aggregates.data() + form_count * t);
    }
  }
  const double tolerance = on_device ? device_tolerance<T>() : 0.0;
  strata_test::check_equal(expected, actual, tolerance);
  strata_test::check_equal(expected_aggregates, actual_aggregates, tolerance);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("Thread scans equal the sequential reference (host)", "[thread][scan]", strata_test::all_types)
{
  for_each_length(test_lengths{},
                  [](auto length) { check_scan<decltype(length)::value, TestType>(false, cuda::std::plus<>{}, 1); });
}

TEST_CASE("Thread scans with other operators (host)", "[thread][scan]")
{
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_scan<N, std::uint32_t>(false, ordered_op{}, 2);
                    check_scan<N, float>(false, ordered_op{}, 3);
                    check_scan<N, std::int16_t>(false, cuda::maximum<>{}, 4);
                    check_scan<N, double>(false, cuda::minimum<>{}, 5);
                  });
}

TEST_CASE("Thread scans: spelled-out examples", "[thread][scan]")
{
  int items[4] = {1, 2, 3, 4};
  int out[4]   = {};
  CHECK(strata::ThreadScanInclusive(items, out, cuda::std::plus<>{}) == 10);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{1, 3, 6, 10});
  CHECK(strata::ThreadScanExclusive(items, out, cuda::std::plus<>{}, 0) == 10);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{0, 1, 3, 6});
  CHECK(strata::ThreadScanInclusive(items, out, cuda::std::plus<>{}, 10) == 20);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{11, 13, 16, 20});
  CHECK(strata::ThreadScanExclusive(items, out, cuda::std::plus<>{}, 100) == 110);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{100, 101, 103, 106});
  // Without the prefix applied, output[0] still receives it; the rest ignores it.
  CHECK(strata::ThreadScanExclusive(items, out, cuda::std::plus<>{}, 100, false) == 10);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{100, 1, 3, 6});
  CHECK(strata::ThreadScanInclusive(items, out, cuda::std::plus<>{}, 100, false) == 10);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{1, 3, 6, 10});
  // In place; the prefix goes first (a non-commutative operator): 7 * 3 + 1, 22 * 3 + 2, ...
  std::uint32_t u[3] = {1, 2, 3};
  CHECK(strata::ThreadScanInclusive(u, u, ordered_op{}, 7u) == 207u);
  CHECK(std::vector<std::uint32_t>(u, u + 3) == std::vector<std::uint32_t>{22, 68, 207});
  // The prefix converts to T (it is not deduced), and a host lambda is an operator.
  std::int8_t small[2] = {3, 4};
  CHECK(strata::ThreadScanInclusive(
            small, small, [](int a, int b) { return a * b; }, 2)
        == 24);
  CHECK(small[0] == 6);
  // CUB's spelling, in `internal`.
  int one[1] = {5};
  CHECK(strata::internal::ThreadScanExclusive<1>(one, one, cuda::std::plus<>{}, 3) == 8);
  CHECK(one[0] == 3);
  CHECK(strata::internal::ThreadScanInclusive(one, one, cuda::std::plus<>{}) == 3);
}

TEMPLATE_LIST_TEST_CASE("Thread scans on the device", "[thread][scan][gpu]", strata_test::all_types)
{
  STRATA_TEST_REQUIRE_GPU();
  check_scan<7, TestType>(true, cuda::std::plus<>{}, 6);
}

TEST_CASE("Thread scans on the device: lengths and order", "[thread][scan][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  for_each_length(test_lengths{},
                  [](auto length)
                  {
                    constexpr int N = decltype(length)::value;
                    check_scan<N, std::int32_t>(true, cuda::std::plus<>{}, 7);
                    check_scan<N, std::uint32_t>(true, ordered_op{}, 8);
                  });
  check_scan<16, float>(true, ordered_op{}, 9);
  check_scan<3, std::int64_t>(true, cuda::maximum<>{}, 10);
}

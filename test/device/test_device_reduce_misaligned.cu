// Tests of strata/device/device_reduce.cuh, part 6: inputs and outputs that are not where the
// vectorized paths want them, and iterators: Sum and Min from `d_in + 1` into `d_out + 1` for 1-,
// 2-, 4- and 8-byte items (the vector loads' fallback), Sum of a CountingInputIterator and of a
// TransformInputIterator over a misaligned pointer, results stored through an output iterator
// that transforms them and through a DiscardOutputIterator; and Sum, Min and Max of __half and
// __nv_bfloat16 (accumulated in their own type: inputs whose every partial sum is exact), in one
// block and over many tiles and blocks.
#include <strata/device/device_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/output_iterators.cuh"
#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::square;
using strata_test::three_x_plus_one;
//! Sizes of these tests: one item, below and above a tile and the single-block limits, 2^20 + 1.
const std::vector<std::size_t> misaligned_sizes = {1, 2, 4095, 4097, 65537, 100003, (std::size_t(1) << 20) + 1};

//! Runs `call(d_temp, bytes, d_out + 1)` (two phases) into the middle of three poisoned OutT and
//! returns all three.
template <typename OutT, typename CallT>
std::vector<OutT> run_into_second(CallT&& call)
{
  strata_test::device_buffer<OutT> d_out(3);
  d_out.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes, d_out.data() + 1));
  REQUIRE(bytes >= 1);
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(call(d_temp.data(), bytes, d_out.data() + 1));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  return d_out.download();
}

//! CHECKs that out[0] and out[2] kept their poison and out[1] is `expected`.
template <typename OutT>
void check_second(const std::vector<OutT>& out, const OutT& expected)
{
  OutT poison;
  std::memset(static_cast<void*>(&poison), strata_test::poison_byte, sizeof(OutT));
  strata_test::check_equal(std::vector<OutT>{poison, expected, poison}, out);
}

using misaligned_types = std::tuple<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceReduce::Sum and Min from d_in + 1 into d_out + 1", "[device][reduce]", misaligned_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(501);
  INFO("seed " << seed);
  const std::size_t size  = misaligned_sizes.back() + 1;
  const std::vector<T> in = strata_test::random_vector<T>(size, seed);
  const strata_test::device_buffer<T> d_in(in);
  for (std::size_t n : misaligned_sizes)
  {
    INFO("num_items " << n);
    // Into int64: the accumulator is the common type of int64 and T, so the sum wraps modulo 2^64.
    std::uint64_t sum = 0;
    T min             = in[1];
    for (std::size_t i = 1; i <= n; ++i)
    {
      sum += static_cast<std::uint64_t>(static_cast<std::int64_t>(in[i]));
      min = std::min(min, in[i]);
    }
    check_second(
        run_into_second<std::int64_t>([&](void* d_temp, std::size_t& bytes, std::int64_t* d_out)
                                      { return strata::DeviceReduce::Sum(d_temp, bytes, d_in.data() + 1, d_out, n); }),
        static_cast<std::int64_t>(sum));
    check_second(run_into_second<T>(
                     [&](void* d_temp, std::size_t& bytes, T* d_out)
                     { return strata::DeviceReduce::Min(d_temp, bytes, d_in.data() + 1, d_out, static_cast<int>(n)); }),
                 min);
  }
}

TEST_CASE("DeviceReduce::Sum of iterators into iterators", "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(503);
  INFO("seed " << seed);
  const std::size_t size             = misaligned_sizes.back() + 1;
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(size, seed, -40000.0, 40000.0);
  const strata_test::device_buffer<std::int32_t> d_in(in);
  using strata_test::transform_output;
  for (std::size_t n : misaligned_sizes)
  {
    INFO("num_items " << n);
    {
      INFO("a CountingInputIterator into an output iterator");
      const std::int64_t start = -123456789;
      const auto count         = static_cast<std::int64_t>(n);
      const std::int64_t sum   = count * start + count * (count - 1) / 2;
      check_second(run_into_second<std::int64_t>(
                       [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out)
                       {
                         return strata::DeviceReduce::Sum(
                             d_temp, bytes, strata::CountingInputIterator<std::int64_t>(start),
                             transform_output<std::int64_t, three_x_plus_one>(d_out, {}), n);
                       }),
                   three_x_plus_one{}(sum));
    }
    {
      INFO("a TransformInputIterator over d_in + 1");
      std::int64_t sum = 0;
      for (std::size_t i = 1; i <= n; ++i)
      {
        sum += square{}(in[i]);
      }
      using SquaresT = strata::TransformInputIterator<std::int64_t, square, const std::int32_t*>;
      check_second(run_into_second<std::int64_t>(
                       [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out) {
                         return strata::DeviceReduce::Sum(d_temp, bytes, SquaresT(d_in.data() + 1, square{}), d_out, n);
                       }),
                   sum);
    }
    {
      INFO("into a DiscardOutputIterator");
      std::size_t bytes = 0;
      const strata::DiscardOutputIterator<> discard;
      STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data() + 1, discard, n));
      strata_test::device_buffer<unsigned char> d_temp(bytes);
      d_temp.poison();
      STRATA_TEST_CUDA(strata::DeviceReduce::Sum(d_temp.data(), bytes, d_in.data() + 1, discard, n));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
    }
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::Sum, Min and Max of 16-bit floating point", "[device][reduce]", __half, __nv_bfloat16)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(507);
  INFO("seed " << seed);
  // Small integers: every partial sum of up to 120 of them is below 2^8 = 256 in magnitude (8
  // significant bits for __nv_bfloat16), hence exact in any order. Odd offsets: misaligned.
  const std::size_t size        = 131;
  const std::vector<int> values = strata_test::random_vector<int>(size, seed, -2.0, 2.0);
  std::vector<T> in(size);
  std::transform(values.begin(), values.end(), in.begin(), [](int x) { return strata_test::from_double<T>(x); });
  const strata_test::device_buffer<T> d_in(in);
  for (std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(3)})
  {
    for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(64), std::size_t(120)})
    {
      INFO("num_items " << n << ", offset " << offset);
      double sum = 0.0;
      double min = strata_test::to_double(in[offset]);
      double max = min;
      for (std::size_t i = offset; i < offset + n; ++i)
      {
        const double x = strata_test::to_double(in[i]);
        sum += x;
        min = std::min(min, x);
        max = std::max(max, x);
      }
      const T* first = d_in.data() + offset;
      const T result =
          strata_test::run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                                     { return strata::DeviceReduce::Sum(d_temp, bytes, first, d_out, n); });
      CHECK(strata_test::to_double(result) == sum);
      const T lo = strata_test::run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                                              { return strata::DeviceReduce::Min(d_temp, bytes, first, d_out, n); });
      CHECK(strata_test::to_double(lo) == min);
      const T hi = strata_test::run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                                              { return strata::DeviceReduce::Max(d_temp, bytes, first, d_out, n); });
      CHECK(strata_test::to_double(hi) == max);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::Sum, Min and Max of 16-bit floating point over many tiles", "[device][reduce]",
                   __half, __nv_bfloat16)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                = TestType;
  using PolicyT          = typename strata::detail::reduce::policy_hub<T, std::uint32_t, cuda::std::plus<>>::Policy900;
  const std::size_t tile = std::size_t(PolicyT::ReducePolicy::BLOCK_THREADS) * PolicyT::ReducePolicy::ITEMS_PER_THREAD;
  const std::uint64_t seed = strata_test::seed(509);
  INFO("seed " << seed);
  // One block of one tile and one more item, of several tiles, up to the single-block limit (65536
  // on sm_90) and one past it (two passes), and large odd sizes; under the sanitizers up to 100003,
  // the two-pass grid with a partial tile (the larger sizes only add blocks).
  std::vector<std::size_t> sizes = {tile + 1, 4 * tile + 1, 65535, 65537, 100003};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back(500009);
    if (std::is_same_v<T, __half>)
    {
      sizes.push_back((std::size_t(1) << 20) + 1);
    }
  }
  // A reduction adds any subsets of the items, so the sum of all |items| must be exact in T: up to
  // 2^11 (__half) or 2^8 (__nv_bfloat16). Zeros but for one item in every half tile, of a value in
  // [1, cap] that keeps the total of the largest size in range: every tile's sum is positive, so a
  // tile dropped or reduced twice changes the result.
  const int exact             = std::is_same_v<T, __half> ? 2048 : 256;
  const std::size_t stride    = tile / 2;
  const std::size_t max_picks = (sizes.back() + stride - 1) / stride;
  const int cap               = int(std::size_t(exact) / max_picks);
  REQUIRE(cap >= 1);
  strata_test::generator<int> gen(seed);
  for (std::size_t k = 0; k < sizes.size(); ++k)
  {
    const std::size_t n      = sizes[k];
    const std::size_t offset = k % 2; // every other size misaligned: the loads' scalar fallback
    INFO("num_items " << n << ", offset " << offset);
    std::vector<T> sparse(n + offset, strata_test::from_double<T>(0.0));
    int total = 0;
    for (std::size_t begin = 0; begin < n; begin += stride)
    {
      const int value = gen(1, cap);
      sparse[offset + begin + std::size_t(gen(0, double(std::min(stride, n - begin) - 1)))] =
          strata_test::from_double<T>(value);
      total += value;
    }
    REQUIRE(total <= exact);
    // Min and Max: integers in [-100, 100] (exact in T) with the one -120 and the one 120 at
    // random positions.
    std::vector<T> mixed(n + offset);
    for (T& x : mixed)
    {
      x = strata_test::from_double<T>(gen(-100, 100));
    }
    const std::size_t lowest  = std::size_t(gen(0, double(n - 1)));
    const std::size_t highest = (lowest + 1 + std::size_t(gen(0, double(n - 2)))) % n;
    mixed[offset + lowest]    = strata_test::from_double<T>(-120);
    mixed[offset + highest]   = strata_test::from_double<T>(120);

    const strata_test::device_buffer<T> d_sparse(sparse);
    const strata_test::device_buffer<T> d_mixed(mixed);
    const T* sparse_first = d_sparse.data() + offset;
    const T* mixed_first  = d_mixed.data() + offset;
    const T sum =
        strata_test::run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                                   { return strata::DeviceReduce::Sum(d_temp, bytes, sparse_first, d_out, n); });
    CHECK(strata_test::to_double(sum) == total);
    const T lo =
        strata_test::run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                                   { return strata::DeviceReduce::Min(d_temp, bytes, mixed_first, d_out, n); });
    CHECK(strata_test::to_double(lo) == -120);
    const T hi =
        strata_test::run_reduce<T>([&](void* d_temp, std::size_t& bytes, T* d_out)
                                   { return strata::DeviceReduce::Max(d_temp, bytes, mixed_first, d_out, n); });
    CHECK(strata_test::to_double(hi) == 120);
  }
}

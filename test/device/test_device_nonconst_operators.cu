// Tests of issue #49, point 2, part 1: the device algorithms take user functors whose call
// operator is not const, as CUB does. DeviceMergeSort (keys, pairs) and DeviceMerge (pairs) with
// such a comparator, DeviceRadixSort with such a decomposer, DeviceAdjacentDifference with such a
// difference operator, DeviceFor (ForEach, ForEachN, ForEachCopy, ForEachCopyN, Bulk) and
// DeviceTransform (one and two inputs) with such operators; each over int items, at one item, a
// few thousand and 100003 (several tiles of every algorithm), against a host reference. Part 2
// (test_device_nonconst_operators_scans.cu) has the reductions, scans and compactions.
#include <strata/device/device_adjacent_difference.cuh>
#include <strata/device/device_for.cuh>
#include <strata/device/device_merge.cuh>
#include <strata/device/device_merge_sort.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_transform.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"

#include <cuda/std/tuple>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::run_two_phase;

// The functors: every call operator is deliberately not const (a user's functor may be written
// so, and CUB accepts it); none keeps state between calls, so each result is defined.

//! a < b.
struct less_nc
{
  __host__ __device__ bool operator()(int a, int b)
  {
    return a < b;
  }
};

//! A user's key of one member, sorted through a decomposer.
struct user_key
{
  int value;
};
struct user_key_decomposer_nc
{
  __host__ __device__ ::cuda::std::tuple<int&> operator()(user_key& key)
  {
    return {key.value};
  }
};

//! a - b (the order of the operands shows).
struct minus_nc
{
  __host__ __device__ int operator()(int a, int b)
  {
    return a - b;
  }
};

//! x = 2 x + 1, in place (ForEach, ForEachN).
struct twice_plus_one_nc
{
  __device__ void operator()(int& x)
  {
    x = 2 * x + 1;
  }
};

//! Counts the items by their low six bits (ForEachCopy, ForEachCopyN).
struct count_low_bits_nc
{
  unsigned* counts;
  __device__ void operator()(int x)
  {
    atomicAdd(counts + (unsigned(x) & 63u), 1u);
  }
};

//! out[i] = 3 i + 1 (Bulk).
struct write_index_nc
{
  int* out;
  __device__ void operator()(int i)
  {
    out[i] = 3 * i + 1;
  }
};

//! x -> a x + b, with the coefficients as members (DeviceTransform of one input).
struct affine_nc
{
  int a;
  int b;
  __host__ __device__ int operator()(int x)
  {
    return a * x + b;
  }
};

//! (x, y) -> x - 2 y (DeviceTransform of two inputs).
struct combine_nc
{
  __host__ __device__ int operator()(int x, int y)
  {
    return x - 2 * y;
  }
};

//! The sizes: one item, a few thousand, and several tiles of every algorithm here.
constexpr int sizes[] = {1, 3001, 100003};

//! n random ints in [lo, hi].
std::vector<int> random_ints(int n, std::uint64_t seed, int lo, int hi)
{
  return strata_test::random_vector<int>(std::size_t(n), seed, lo, hi);
}
} // namespace

TEST_CASE("DeviceMergeSort takes a comparator whose call operator is not const", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4901);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    // Few distinct keys: ties show whether the sort kept their order.
    const std::vector<int> keys = random_ints(n, seed + std::uint64_t(n), -300, 300);
    std::vector<int> positions(static_cast<std::size_t>(n));
    std::iota(positions.begin(), positions.end(), 0);
    std::vector<int> order = positions;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return less_nc{}(keys[a], keys[b]); });
    std::vector<int> sorted_keys(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
    {
      sorted_keys[std::size_t(i)] = keys[std::size_t(order[std::size_t(i)])];
    }
    {
      INFO("StableSortPairs");
      device_buffer<int> d_keys(keys);
      device_buffer<int> d_values(positions);
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes) {
            return strata::DeviceMergeSort::StableSortPairs(d_temp, bytes, d_keys.data(), d_values.data(), n,
                                                            less_nc{});
          });
      strata_test::check_equal(sorted_keys, d_keys.download());
      strata_test::check_equal(order, d_values.download());
    }
    {
      INFO("SortKeysCopy");
      device_buffer<int> d_keys(keys);
      device_buffer<int> d_out(static_cast<std::size_t>(n));
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceMergeSort::SortKeysCopy(d_temp, bytes, static_cast<const int*>(d_keys.data()),
                                                         d_out.data(), n, less_nc{});
          });
      strata_test::check_equal(sorted_keys, d_out.download());
      strata_test::check_equal(keys, d_keys.download());
    }
  }
}

TEST_CASE("DeviceMerge takes a comparator whose call operator is not const", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4902);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const int n1         = n / 3;
    const int n2         = n - n1;
    std::vector<int> in1 = random_ints(n1, seed + std::uint64_t(n), -300, 300);
    std::vector<int> in2 = random_ints(n2, seed + std::uint64_t(n) + 1, -300, 300);
    std::sort(in1.begin(), in1.end());
    std::sort(in2.begin(), in2.end());
    // Values: the positions in the concatenation of both inputs, so that the order of ties shows.
    std::vector<int> values1(static_cast<std::size_t>(n1));
    std::vector<int> values2(static_cast<std::size_t>(n2));
    std::iota(values1.begin(), values1.end(), 0);
    std::iota(values2.begin(), values2.end(), n1);
    // The reference: a stable merge, the first input's keys before the second's where equal.
    std::vector<int> expected_keys;
    std::vector<int> expected_values;
    for (std::size_t i = 0, j = 0; i < in1.size() || j < in2.size();)
    {
      const bool take_second = i == in1.size() || (j < in2.size() && less_nc{}(in2[j], in1[i]));
      expected_keys.push_back(take_second ? in2[j] : in1[i]);
      expected_values.push_back(take_second ? values2[j++] : values1[i++]);
    }
    device_buffer<int> d_in1(in1);
    device_buffer<int> d_in2(in2);
    device_buffer<int> d_values1(values1);
    device_buffer<int> d_values2(values2);
    device_buffer<int> d_keys_out(static_cast<std::size_t>(n));
    device_buffer<int> d_values_out(static_cast<std::size_t>(n));
    d_keys_out.poison();
    d_values_out.poison();
    run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceMerge::MergePairs(d_temp, bytes, d_in1.data(), d_values1.data(), n1, d_in2.data(),
                                                 d_values2.data(), n2, d_keys_out.data(), d_values_out.data(),
                                                 less_nc{});
        });
    strata_test::check_equal(expected_keys, d_keys_out.download());
    strata_test::check_equal(expected_values, d_values_out.download());
  }
}

TEST_CASE("DeviceRadixSort takes a decomposer whose call operator is not const", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4903);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    // Every int, negative ones too: the member's bits must be ordered as a signed int's.
    const std::vector<int> values = strata_test::random_vector<int>(std::size_t(n), seed + std::uint64_t(n));
    std::vector<user_key> keys(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
    {
      keys[std::size_t(i)].value = values[std::size_t(i)];
    }
    std::vector<int> expected = values;
    std::sort(expected.begin(), expected.end());
    device_buffer<user_key> d_keys(keys);
    device_buffer<user_key> d_out(static_cast<std::size_t>(n));
    d_out.poison();
    run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceRadixSort::SortKeys(d_temp, bytes, static_cast<const user_key*>(d_keys.data()),
                                                   d_out.data(), n, user_key_decomposer_nc{});
        });
    const std::vector<user_key> out = d_out.download();
    std::vector<int> got(static_cast<std::size_t>(n));
    std::transform(out.begin(), out.end(), got.begin(), [](const user_key& key) { return key.value; });
    strata_test::check_equal(expected, got);
  }
}

TEST_CASE("DeviceAdjacentDifference takes a difference operator whose call operator is not const",
          "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4904);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> in = random_ints(n, seed + std::uint64_t(n), -1000, 1000);
    std::vector<int> left     = in;
    std::vector<int> right    = in;
    for (int i = 1; i < n; ++i)
    {
      left[std::size_t(i)]      = minus_nc{}(in[std::size_t(i)], in[std::size_t(i - 1)]);
      right[std::size_t(i - 1)] = minus_nc{}(in[std::size_t(i - 1)], in[std::size_t(i)]);
    }
    {
      INFO("SubtractLeftCopy");
      device_buffer<int> d_in(in);
      device_buffer<int> d_out(static_cast<std::size_t>(n));
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, bytes, d_in.data(), d_out.data(), n,
                                                                      minus_nc{});
          });
      strata_test::check_equal(left, d_out.download());
    }
    {
      INFO("SubtractRight (in place)");
      device_buffer<int> d_data(in);
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceAdjacentDifference::SubtractRight(d_temp, bytes, d_data.data(), n, minus_nc{}); });
      strata_test::check_equal(right, d_data.download());
    }
  }
}

TEST_CASE("DeviceFor takes operators whose call operator is not const", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4905);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> in = random_ints(n, seed + std::uint64_t(n), -1000, 1000);
    std::vector<int> doubled  = in;
    std::for_each(doubled.begin(), doubled.end(), [](int& x) { x = 2 * x + 1; });
    {
      INFO("ForEach");
      device_buffer<int> d_data(in);
      STRATA_TEST_CUDA(strata::DeviceFor::ForEach(d_data.data(), d_data.data() + n, twice_plus_one_nc{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_equal(doubled, d_data.download());
    }
    {
      INFO("ForEachN");
      device_buffer<int> d_data(in);
      STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(d_data.data(), n, twice_plus_one_nc{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_equal(doubled, d_data.download());
    }
    // ForEachCopy over all items and ForEachCopyN from the second one (an input that starts off
    // a 16-byte boundary, so that both the items before it and the vectors after it are seen).
    for (int first : {0, 1})
    {
      INFO((first == 0 ? "ForEachCopy" : "ForEachCopyN from the second item"));
      std::vector<unsigned> expected(64, 0u);
      for (int i = first; i < n; ++i)
      {
        ++expected[unsigned(in[std::size_t(i)]) & 63u];
      }
      const device_buffer<int> d_data(in);
      device_buffer<unsigned> d_counts(std::vector<unsigned>(64, 0u));
      const count_low_bits_nc op{d_counts.data()};
      if (first == 0)
      {
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopy(d_data.data(), d_data.data() + n, op));
      }
      else
      {
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(d_data.data() + first, n - first, op));
      }
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_equal(expected, d_counts.download());
      strata_test::check_equal(in, d_data.download());
    }
    {
      INFO("Bulk");
      std::vector<int> expected(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i)
      {
        expected[std::size_t(i)] = 3 * i + 1;
      }
      device_buffer<int> d_out(static_cast<std::size_t>(n));
      d_out.poison();
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(n, write_index_nc{d_out.data()}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_equal(expected, d_out.download());
    }
  }
}

TEST_CASE("DeviceTransform takes operators whose call operator is not const", "[device][transform]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4906);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> x = random_ints(n, seed + std::uint64_t(n), -1000, 1000);
    const std::vector<int> y = random_ints(n, seed + std::uint64_t(n) + 1, -1000, 1000);
    const device_buffer<int> d_x(x);
    const device_buffer<int> d_y(y);
    device_buffer<int> d_out(static_cast<std::size_t>(n));
    {
      INFO("one input");
      std::vector<int> expected(static_cast<std::size_t>(n));
      std::transform(x.begin(), x.end(), expected.begin(), affine_nc{-3, 7});
      d_out.poison();
      STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_x.data(), d_out.data(), n, affine_nc{-3, 7}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_equal(expected, d_out.download());
    }
    {
      INFO("two inputs");
      std::vector<int> expected(static_cast<std::size_t>(n));
      std::transform(x.begin(), x.end(), y.begin(), expected.begin(), combine_nc{});
      d_out.poison();
      STRATA_TEST_CUDA(strata::DeviceTransform::Transform(::cuda::std::make_tuple(d_x.data(), d_y.data()), d_out.data(),
                                                          n, combine_nc{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_equal(expected, d_out.download());
    }
  }
}

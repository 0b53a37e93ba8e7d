// Tests of issue #49, point 2, part 2: the device algorithms take user functors whose call
// operator is not const, as CUB does. DeviceReduce (Reduce, TransformReduce, ReduceByKey with an
// equality operator), DeviceSegmentedReduce::Reduce, DeviceScan (InclusiveScan, ExclusiveScan,
// InclusiveScanInit, InclusiveScanByKey, ExclusiveScanByKey), DeviceSelect (If, FlaggedIf,
// UniqueByKey) and DevicePartition (If, two-way and three-way) with such operators; each over int
// items, at one item, a few thousand and 100003 (several tiles of every algorithm), against a host
// reference. Part 1 (test_device_nonconst_operators.cu) has the sorts, merges and element-wise calls.
#include <strata/device/device_partition.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/device/device_select.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::run_two_phase;

// The functors: every call operator is deliberately not const (a user's functor may be written
// so, and CUB accepts it); none keeps state between calls, so each result is defined.

//! a + b (the items are small: no overflow).
struct plus_nc
{
  __host__ __device__ int operator()(int a, int b)
  {
    return a + b;
  }
};

//! x * x (TransformReduce's transform).
struct square_nc
{
  __host__ __device__ int operator()(int x)
  {
    return x * x;
  }
};

//! Keys are equal when they differ only in their lowest bit (an equivalence on non-negative keys
//! that operator== is not, so that a result shows which of the two was used).
struct same_half_nc
{
  __host__ __device__ bool operator()(int a, int b)
  {
    return (a >> 1) == (b >> 1);
  }
};

//! x < bound, with the bound as a member.
struct below_nc
{
  int bound;
  __host__ __device__ bool operator()(int x)
  {
    return x < bound;
  }
};

//! x is odd.
struct odd_nc
{
  __host__ __device__ bool operator()(int x)
  {
    return (x & 1) != 0;
  }
};

//! The sizes: one item, a few thousand, and several tiles of every algorithm here.
constexpr int sizes[] = {1, 3001, 100003};

//! n random ints in [lo, hi].
std::vector<int> random_ints(int n, std::uint64_t seed, int lo, int hi)
{
  return strata_test::random_vector<int>(std::size_t(n), seed, lo, hi);
}

//! n keys in [0, 99] in runs of 1 to 200 equal keys (neighbouring runs may be equal too, or equal
//! under same_half_nc), so that runs end inside tiles and span tiles.
std::vector<int> run_keys(int n, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::vector<int> keys;
  keys.reserve(static_cast<std::size_t>(n));
  while (int(keys.size()) < n)
  {
    const int key    = int(engine() % 100);
    const int length = std::min(1 + int(engine() % 200), n - int(keys.size()));
    keys.insert(keys.end(), std::size_t(length), key);
  }
  return keys;
}

//! Whether item i starts a run of keys equal under same_half_nc (each compared with the one before).
std::vector<bool> run_heads(const std::vector<int>& keys)
{
  std::vector<bool> heads(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    heads[i] = i == 0 || !same_half_nc{}(keys[i - 1], keys[i]);
  }
  return heads;
}

//! CHECKs the first `count` items of `d_out` against `expected` (which has `count` items) and that
//! the device's count `d_num` is `count`.
void check_prefix(const std::vector<int>& expected, const device_buffer<int>& d_out, const device_buffer<int>& d_num)
{
  const std::vector<int> num = d_num.download();
  REQUIRE(num[0] == int(expected.size()));
  std::vector<int> got = d_out.download();
  got.resize(expected.size());
  strata_test::check_equal(expected, got);
}
} // namespace

TEST_CASE("DeviceReduce::Reduce and TransformReduce take operators whose call operator is not const",
          "[device][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4911);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> in = random_ints(n, seed + std::uint64_t(n), -100, 100);
    const device_buffer<int> d_in(in);
    device_buffer<int> d_out(1);
    {
      INFO("Reduce");
      const int expected = std::accumulate(in.begin(), in.end(), 5, plus_nc{});
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceReduce::Reduce(d_temp, bytes, d_in.data(), d_out.data(), n, plus_nc{}, 5); });
      CHECK(d_out.download()[0] == expected);
    }
    {
      INFO("TransformReduce");
      int expected = 5;
      for (int x : in)
      {
        expected = plus_nc{}(expected, square_nc{}(x));
      }
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceReduce::TransformReduce(d_temp, bytes, d_in.data(), d_out.data(), n, plus_nc{},
                                                         square_nc{}, 5);
          });
      CHECK(d_out.download()[0] == expected);
    }
  }
}

TEST_CASE("DeviceReduce::ReduceByKey takes equality and reduction operators whose call operators are not const",
          "[device][runs]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4912);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> keys   = run_keys(n, seed + std::uint64_t(n));
    const std::vector<int> values = random_ints(n, seed + std::uint64_t(n) + 1, -100, 100);
    const std::vector<bool> heads = run_heads(keys);
    std::vector<int> unique;
    std::vector<int> aggregates;
    for (std::size_t i = 0; i < keys.size(); ++i)
    {
      if (heads[i])
      {
        unique.push_back(keys[i]);
        aggregates.push_back(values[i]);
      }
      else
      {
        aggregates.back() = plus_nc{}(aggregates.back(), values[i]);
      }
    }
    const device_buffer<int> d_keys(keys);
    const device_buffer<int> d_values(values);
    device_buffer<int> d_unique(static_cast<std::size_t>(n));
    device_buffer<int> d_aggregates(static_cast<std::size_t>(n));
    device_buffer<int> d_num_runs(1);
    d_unique.poison();
    d_aggregates.poison();
    d_num_runs.poison();
    run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceReduce::ReduceByKey(d_temp, bytes, d_keys.data(), d_unique.data(), d_values.data(),
                                                   d_aggregates.data(), d_num_runs.data(), same_half_nc{}, plus_nc{},
                                                   n);
        });
    check_prefix(unique, d_unique, d_num_runs);
    check_prefix(aggregates, d_aggregates, d_num_runs);
  }
}

TEST_CASE("DeviceSegmentedReduce::Reduce takes a reduction operator whose call operator is not const",
          "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4913);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("about " << n << " items");
    // Segments empty, short and long (longer than a tile of most algorithms), in random order.
    std::mt19937_64 engine(seed + std::uint64_t(n));
    std::vector<int> offsets{0};
    while (offsets.back() < n)
    {
      const int kind   = int(engine() % 3);
      const int length = kind == 0 ? 0 : kind == 1 ? int(engine() % 40) : int(engine() % 5000);
      offsets.push_back(offsets.back() + length);
    }
    const int items           = offsets.back();
    const int segments        = int(offsets.size()) - 1;
    const std::vector<int> in = random_ints(items, seed + std::uint64_t(n) + 1, -100, 100);
    std::vector<int> expected(static_cast<std::size_t>(segments));
    for (int s = 0; s < segments; ++s)
    {
      expected[std::size_t(s)] =
          std::accumulate(in.begin() + offsets[std::size_t(s)], in.begin() + offsets[std::size_t(s) + 1], 3, plus_nc{});
    }
    const device_buffer<int> d_in(in);
    const device_buffer<int> d_offsets(offsets);
    device_buffer<int> d_out(static_cast<std::size_t>(segments));
    d_out.poison();
    run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSegmentedReduce::Reduce(d_temp, bytes, d_in.data(), d_out.data(), segments,
                                                       d_offsets.data(), d_offsets.data() + 1, plus_nc{}, 3);
        });
    strata_test::check_equal(expected, d_out.download());
  }
}

TEST_CASE("DeviceScan takes a scan operator whose call operator is not const", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4914);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> in = random_ints(n, seed + std::uint64_t(n), -100, 100);
    std::vector<int> inclusive(static_cast<std::size_t>(n));
    std::vector<int> exclusive(static_cast<std::size_t>(n));
    std::vector<int> inclusive_init(static_cast<std::size_t>(n));
    int running      = 0;
    int running_init = 7;
    for (std::size_t i = 0; i < in.size(); ++i)
    {
      exclusive[i]      = running_init;
      running           = i == 0 ? in[i] : plus_nc{}(running, in[i]);
      running_init      = plus_nc{}(running_init, in[i]);
      inclusive[i]      = running;
      inclusive_init[i] = running_init;
    }
    const device_buffer<int> d_in(in);
    device_buffer<int> d_out(static_cast<std::size_t>(n));
    {
      INFO("InclusiveScan");
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceScan::InclusiveScan(d_temp, bytes, d_in.data(), d_out.data(), plus_nc{}, n); });
      strata_test::check_equal(inclusive, d_out.download());
    }
    {
      INFO("ExclusiveScan");
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceScan::ExclusiveScan(d_temp, bytes, d_in.data(), d_out.data(), plus_nc{}, 7, n); });
      strata_test::check_equal(exclusive, d_out.download());
    }
    {
      INFO("InclusiveScanInit");
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceScan::InclusiveScanInit(d_temp, bytes, d_in.data(), d_out.data(), plus_nc{}, 7, n); });
      strata_test::check_equal(inclusive_init, d_out.download());
    }
  }
}

TEST_CASE("DeviceScan by key takes scan and equality operators whose call operators are not const", "[device][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4915);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> keys   = run_keys(n, seed + std::uint64_t(n));
    const std::vector<int> values = random_ints(n, seed + std::uint64_t(n) + 1, -100, 100);
    const std::vector<bool> heads = run_heads(keys);
    std::vector<int> inclusive(static_cast<std::size_t>(n));
    std::vector<int> exclusive(static_cast<std::size_t>(n));
    int running      = 0;
    int running_init = 0;
    for (std::size_t i = 0; i < keys.size(); ++i)
    {
      if (heads[i])
      {
        running_init = 7;
      }
      exclusive[i] = running_init;
      running      = heads[i] ? values[i] : plus_nc{}(running, values[i]);
      running_init = plus_nc{}(running_init, values[i]);
      inclusive[i] = running;
    }
    const device_buffer<int> d_keys(keys);
    const device_buffer<int> d_values(values);
    device_buffer<int> d_out(static_cast<std::size_t>(n));
    {
      INFO("InclusiveScanByKey");
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceScan::InclusiveScanByKey(d_temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                          plus_nc{}, n, same_half_nc{});
          });
      strata_test::check_equal(inclusive, d_out.download());
    }
    {
      INFO("ExclusiveScanByKey");
      d_out.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                          plus_nc{}, 7, n, same_half_nc{});
          });
      strata_test::check_equal(exclusive, d_out.download());
    }
  }
}

TEST_CASE("DeviceSelect takes select and equality operators whose call operators are not const", "[device][select]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4916);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> in    = random_ints(n, seed + std::uint64_t(n), -1000, 1000);
    const std::vector<int> flags = random_ints(n, seed + std::uint64_t(n) + 1, 0, 1000);
    const device_buffer<int> d_in(in);
    const device_buffer<int> d_flags(flags);
    device_buffer<int> d_out(static_cast<std::size_t>(n));
    device_buffer<int> d_num(1);
    {
      INFO("If");
      std::vector<int> expected;
      std::copy_if(in.begin(), in.end(), std::back_inserter(expected), below_nc{100});
      d_out.poison();
      d_num.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes) {
            return strata::DeviceSelect::If(d_temp, bytes, d_in.data(), d_out.data(), d_num.data(), n, below_nc{100});
          });
      check_prefix(expected, d_out, d_num);
    }
    {
      INFO("FlaggedIf");
      std::vector<int> expected;
      for (std::size_t i = 0; i < in.size(); ++i)
      {
        if (odd_nc{}(flags[i]))
        {
          expected.push_back(in[i]);
        }
      }
      d_out.poison();
      d_num.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::FlaggedIf(d_temp, bytes, d_in.data(), d_flags.data(), d_out.data(),
                                                   d_num.data(), n, odd_nc{});
          });
      check_prefix(expected, d_out, d_num);
    }
    {
      INFO("UniqueByKey");
      const std::vector<int> keys   = run_keys(n, seed + std::uint64_t(n) + 2);
      const std::vector<bool> heads = run_heads(keys);
      std::vector<int> expected_keys;
      std::vector<int> expected_values;
      for (std::size_t i = 0; i < keys.size(); ++i)
      {
        if (heads[i])
        {
          expected_keys.push_back(keys[i]);
          expected_values.push_back(in[i]);
        }
      }
      const device_buffer<int> d_keys(keys);
      device_buffer<int> d_keys_out(static_cast<std::size_t>(n));
      d_keys_out.poison();
      d_out.poison();
      d_num.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DeviceSelect::UniqueByKey(d_temp, bytes, d_keys.data(), d_in.data(), d_keys_out.data(),
                                                     d_out.data(), d_num.data(), n, same_half_nc{});
          });
      check_prefix(expected_keys, d_keys_out, d_num);
      check_prefix(expected_values, d_out, d_num);
    }
  }
}

TEST_CASE("DevicePartition takes select operators whose call operators are not const", "[device][partition]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4917);
  INFO("seed " << seed);
  for (int n : sizes)
  {
    INFO("num_items " << n);
    const std::vector<int> in = random_ints(n, seed + std::uint64_t(n), -1000, 1000);
    const device_buffer<int> d_in(in);
    {
      INFO("If, two-way");
      // The selected items in input order, then the others in reverse input order.
      std::vector<int> expected;
      std::copy_if(in.begin(), in.end(), std::back_inserter(expected), below_nc{100});
      const std::size_t selected = expected.size();
      std::copy_if(in.rbegin(), in.rend(), std::back_inserter(expected), [](int x) { return !below_nc{100}(x); });
      device_buffer<int> d_out(static_cast<std::size_t>(n));
      device_buffer<int> d_num(1);
      d_out.poison();
      d_num.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes) {
            return strata::DevicePartition::If(d_temp, bytes, d_in.data(), d_out.data(), d_num.data(), n,
                                               below_nc{100});
          });
      CHECK(d_num.download()[0] == int(selected));
      strata_test::check_equal(expected, d_out.download());
    }
    {
      INFO("If, three-way");
      // The first part: x < -300; the second: odd among the others; each part in input order.
      std::vector<int> first;
      std::vector<int> second;
      std::vector<int> unselected;
      for (int x : in)
      {
        (below_nc{-300}(x) ? first : odd_nc{}(x) ? second : unselected).push_back(x);
      }
      device_buffer<int> d_first(static_cast<std::size_t>(n));
      device_buffer<int> d_second(static_cast<std::size_t>(n));
      device_buffer<int> d_unselected(static_cast<std::size_t>(n));
      device_buffer<int> d_num(2);
      d_first.poison();
      d_second.poison();
      d_unselected.poison();
      d_num.poison();
      run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return strata::DevicePartition::If(d_temp, bytes, d_in.data(), d_first.data(), d_second.data(),
                                               d_unselected.data(), d_num.data(), n, below_nc{-300}, odd_nc{});
          });
      const std::vector<int> num = d_num.download();
      CHECK(num[0] == int(first.size()));
      CHECK(num[1] == int(second.size()));
      for (auto [expected, d_part] :
           {std::pair{&first, &d_first}, std::pair{&second, &d_second}, std::pair{&unselected, &d_unselected}})
      {
        std::vector<int> got = d_part->download();
        got.resize(expected->size());
        strata_test::check_equal(*expected, got);
      }
    }
  }
}

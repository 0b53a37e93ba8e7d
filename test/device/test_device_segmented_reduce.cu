// Tests of strata/device/device_segmented_reduce.cuh, part 1: Sum, Min, Max and Reduce (bitwise
// xor of integers, the largest absolute value of floating point, each with an initial value that
// shows) over int8, int32, uint32, int64, uint64, float and double (Min and Max also __half), over
// every layout of device_segmented_reduce_checks.cuh: no segments, single segments up to 2^24 + 13
// items, pieces cut by chunk borders at every place, 16 big segments, 2^22 tiny ones, power-law
// lengths, mostly and all empty ones, scattered overlapping ones in random order, gaps in
// descending order. Offsets are int pointers; int64 and uint32 ones, and offsets computed by
// iterators (fixed-size segments, windows with gaps or overlapping), run Sum and Max. Every output
// past the last segment must keep its poison. Integer sums wrap as in the accumulator CUB defines
// (random items over the whole range); floating-point items are integers in [-64, 64], so that
// every order of the additions gives the same sum and the check is exact. Int items whose sums
// overflow an int, summed into int64 outputs, must be added in int64 by Sum and by Reduce (whose
// InitT is the output's value type in CUB 3.0.1, whatever the initial value's type).
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_segmented_reduce_checks.cuh"

#include <cuda/std/limits>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::device_segments;
using strata_test::segment_layout;

using sum_types     = std::tuple<std::int8_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
using min_max_types = decltype(std::tuple_cat(sum_types{}, std::tuple<__half>{}));
using offset_types  = std::tuple<std::int64_t, std::uint32_t>;

//! Inputs of the sums: integers over their whole range (sums wrap), floating point random integers
//! in [-64, 64]: the partial sums of any order that does not look at the values stay far below 2^24
//! (2^24 of them add up to about 150000), so every such order gives the same, exact float.
template <typename T>
std::vector<T> sum_inputs(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_floating_point_v<T>)
  {
    const std::vector<std::int32_t> integers = strata_test::random_vector<std::int32_t>(n, seed, -64.0, 64.0);
    return std::vector<T>(integers.begin(), integers.end());
  }
  else
  {
    return strata_test::random_vector<T>(n, seed);
  }
}

//! The sum of every segment as DeviceSegmentedReduce::Sum gives it in T: integers added in the
//! accumulator CUB defines (the type of T + T), wrapping, then converted to T; floating point exact.
template <typename T>
std::vector<T> reference_sum(const std::vector<T>& in, const segment_layout& layout)
{
  if constexpr (std::is_floating_point_v<T>)
  {
    const std::vector<double> sums =
        strata_test::reference_reduce(in, layout, 0.0, [](double acc, T x) { return acc + double(x); });
    return std::vector<T>(sums.begin(), sums.end());
  }
  else
  {
    using AccumT                          = decltype(T{} + T{});
    using WideT                           = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    const std::vector<std::uint64_t> sums = strata_test::reference_reduce(
        in, layout, std::uint64_t(0), [](std::uint64_t acc, T x) { return acc + std::uint64_t(WideT(x)); });
    std::vector<T> out;
    out.reserve(sums.size());
    for (const std::uint64_t sum : sums)
    {
      out.push_back(static_cast<T>(static_cast<AccumT>(sum)));
    }
    return out;
  }
}

//! Bitwise xor: associative and commutative, and every bit of every item counts.
struct bit_xor
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    return static_cast<T>(a ^ b);
  }
};

//! The larger absolute value: associative and commutative.
struct max_abs
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    const T x = a < T(0) ? -a : a;
    const T y = b < T(0) ? -b : b;
    return x < y ? y : x;
  }
};

//! The host references of Min and Max.
struct smaller
{
  template <typename T>
  T operator()(const T& acc, const T& x) const
  {
    return strata_test::value_less(x, acc) ? x : acc;
  }
};
struct larger
{
  template <typename T>
  T operator()(const T& acc, const T& x) const
  {
    return strata_test::value_less(acc, x) ? x : acc;
  }
};

//! Reduce's operator and initial value for T: xor from 0x5A... for integers, the largest absolute
//! value from 37 for floating point (larger than every item of many short segments).
template <typename T>
using custom_op = std::conditional_t<std::is_integral_v<T>, bit_xor, max_abs>;

template <typename T>
T custom_init()
{
  if constexpr (std::is_integral_v<T>)
  {
    return static_cast<T>(0x5A5A5A5A5A5A5A5Aull);
  }
  else
  {
    return T(37);
  }
}

//! Calls DeviceSegmentedReduce::Sum (SUM) or Max on every layout with OffsetT offsets and checks
//! the outputs.
template <typename T, typename OffsetT, bool SUM>
void check_layouts(const std::vector<segment_layout>& layouts, const std::vector<T>& in)
{
  const device_buffer<T> d_in(in);
  const T* const in_ptr = d_in.data();
  for (const segment_layout& layout : layouts)
  {
    const std::int64_t n = layout.segments();
    INFO(layout.name << ": " << n << " segments");
    const device_segments<OffsetT> d_segments(layout);
    const auto call = [&](void* d_temp, std::size_t& bytes, T* d_out)
    {
      if constexpr (SUM)
      {
        return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(),
                                                  d_segments.end());
      }
      else
      {
        return strata::DeviceSegmentedReduce::Max(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(),
                                                  d_segments.end());
      }
    };
    const std::vector<T> out = strata_test::run_segmented<T>(n, call);
    if constexpr (SUM)
    {
      strata_test::check_equal(reference_sum(in, layout), out);
    }
    else
    {
      strata_test::check_equal(
          strata_test::reference_reduce(in, layout, cuda::std::numeric_limits<T>::lowest(), larger{}), out);
    }
  }
}

//! i * step (a segment's begin offset).
struct times
{
  int step;
  __host__ __device__ int operator()(int i) const
  {
    return i * step;
  }
};

//! i * step + length (a segment's end offset).
struct times_plus
{
  int step;
  int length;
  __host__ __device__ int operator()(int i) const
  {
    return i * step + length;
  }
};

using counting_t = strata::CountingInputIterator<int>;
using begin_it   = strata::TransformInputIterator<int, times, counting_t>;
using end_it     = strata::TransformInputIterator<int, times_plus, counting_t>;

//! Int items in [2^30, 2^31) (every sum of two or more overflows an int) in 2000 segments of 0 to
//! 3000 items, for the cases of wide outputs; `run(d_temp, bytes, d_in, d_out, n, begin, end)`
//! reduces them into int64 outputs, which must hold init + the exact sum of every segment.
template <typename RunT>
void check_wide_sums(std::uint64_t seed, std::int64_t init, RunT run)
{
  const segment_layout layout = strata_test::contiguous_layout(
      "lengths uniform in [0, 3000]",
      strata_test::random_lengths(2000, seed,
                                  [](std::mt19937_64& e) { return strata_test::uniform_length(e, 0, 3000); }));
  const std::vector<std::int32_t> in =
      strata_test::random_vector<std::int32_t>(layout.items(), seed + 10, double(1 << 30), 2147483647.0);
  const device_buffer<std::int32_t> d_in(in);
  const std::int32_t* const in_ptr = d_in.data();
  const device_segments<int> d_segments(layout);
  const std::int64_t n                = layout.segments();
  const std::vector<std::int64_t> out = strata_test::run_segmented<std::int64_t>(
      n, [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out)
      { return run(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end()); });
  strata_test::check_equal(
      strata_test::reference_reduce(in, layout, init, [](std::int64_t acc, std::int32_t x) { return acc + x; }), out);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::Sum over segments of every shape", "[device][segmented_reduce]",
                        sum_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(1101);
  INFO("seed " << seed);
  const std::vector<segment_layout> layouts = strata_test::segment_shapes(seed);
  check_layouts<T, int, true>(layouts, sum_inputs<T>(strata_test::items_of(layouts), seed + 10));
}

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::Min and Max over segments of every shape", "[device][segmented_reduce]",
                        min_max_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(1103);
  INFO("seed " << seed);
  const std::vector<segment_layout> layouts = strata_test::segment_shapes(seed);
  // Integers over their whole range, floating point in [-100, 100].
  const std::vector<T> in = strata_test::random_vector<T>(strata_test::items_of(layouts), seed + 10);
  const device_buffer<T> d_in(in);
  const T* const in_ptr = d_in.data();
  for (const segment_layout& layout : layouts)
  {
    const std::int64_t n = layout.segments();
    INFO(layout.name << ": " << n << " segments");
    const device_segments<int> d_segments(layout);
    const auto minimum = [&](void* d_temp, std::size_t& bytes, T* d_out) {
      return strata::DeviceSegmentedReduce::Min(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end());
    };
    const auto maximum = [&](void* d_temp, std::size_t& bytes, T* d_out) {
      return strata::DeviceSegmentedReduce::Max(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end());
    };
    {
      INFO("Min (the type's largest value for an empty segment)");
      strata_test::check_equal(
          strata_test::reference_reduce(in, layout, cuda::std::numeric_limits<T>::max(), smaller{}),
          strata_test::run_segmented<T>(n, minimum));
    }
    INFO("Max (the type's lowest value for an empty segment)");
    strata_test::check_equal(
        strata_test::reference_reduce(in, layout, cuda::std::numeric_limits<T>::lowest(), larger{}),
        strata_test::run_segmented<T>(n, maximum));
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::Reduce with a custom operator and an initial value",
                        "[device][segmented_reduce]", sum_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  using OpT                = custom_op<T>;
  const std::uint64_t seed = strata_test::seed(1105);
  INFO("seed " << seed);
  const std::vector<segment_layout> layouts = strata_test::segment_shapes(seed);
  const std::vector<T> in                   = sum_inputs<T>(strata_test::items_of(layouts), seed + 10);
  const device_buffer<T> d_in(in);
  const T* const in_ptr = d_in.data();
  const T init          = custom_init<T>();
  for (const segment_layout& layout : layouts)
  {
    const std::int64_t n = layout.segments();
    INFO(layout.name << ": " << n << " segments");
    const device_segments<int> d_segments(layout);
    const auto reduce = [&](void* d_temp, std::size_t& bytes, T* d_out)
    {
      return strata::DeviceSegmentedReduce::Reduce(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(),
                                                   d_segments.end(), OpT{}, init);
    };
    const std::vector<T> out = strata_test::run_segmented<T>(n, reduce);
    strata_test::check_equal(strata_test::reference_reduce(in, layout, init, OpT{}), out);
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::Sum and Max with int64 and uint32 offsets",
                        "[device][segmented_reduce]", offset_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using OffsetT            = TestType;
  const std::uint64_t seed = strata_test::seed(1107);
  INFO("seed " << seed);
  const std::vector<segment_layout> layouts = strata_test::segment_shapes(seed);
  const std::size_t items                   = strata_test::items_of(layouts);
  {
    INFO("Sum of uint64");
    check_layouts<std::uint64_t, OffsetT, true>(layouts, sum_inputs<std::uint64_t>(items, seed + 10));
  }
  INFO("Max of float");
  check_layouts<float, OffsetT, false>(layouts, strata_test::random_vector<float>(items, seed + 11));
}

TEST_CASE("DeviceSegmentedReduce::Sum and Max with offsets computed by iterators", "[device][segmented_reduce]")
{
  // Fixed-size segments: begin = s * size, end = begin + 1 (the next segment's begin); and windows
  // of `length` items every `step` items, through two iterator types: gaps where length < step,
  // overlaps where length > step.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1109);
  INFO("seed " << seed);
  const bool full              = !strata_test::under_sanitizer();
  const std::size_t items      = full ? (std::size_t(1) << 24) + 13 : (std::size_t(1) << 20) + 7;
  const std::vector<int> in    = sum_inputs<int>(items, seed + 10);
  const std::vector<float> fin = strata_test::random_vector<float>(items, seed + 11);
  const device_buffer<int> d_in(in);
  const device_buffer<float> d_fin(fin);
  const int* const in_ptr    = d_in.data();
  const float* const fin_ptr = d_fin.data();
  struct window
  {
    int step;
    int length;
  };
  std::vector<window> windows;
  for (const int size :
       {1, int(strata_test::sr_lane), int(strata_test::sr_lane) + 1, 1000, int(strata_test::sr_chunk), 4097, 1 << 20})
  {
    windows.push_back({size, size}); // fixed-size segments
  }
  windows.push_back({100, 37});                                                        // gaps
  windows.push_back({33, 1000});                                                       // overlapping
  windows.push_back({int(strata_test::sr_chunk), int(strata_test::sr_chunk) * 3 + 5}); // overlapping, long
  for (const window w : windows)
  {
    const bool fixed     = w.step == w.length;
    const std::int64_t n = (std::int64_t(items) - w.length) / w.step + 1;
    INFO((fixed ? "fixed-size segments of " : "windows of ")
         << w.length << " items every " << w.step << ": " << n << " segments");
    segment_layout layout{"", {}, {}, false};
    for (std::int64_t s = 0; s < n; ++s)
    {
      layout.begin.push_back(s * w.step);
      layout.end.push_back(s * w.step + w.length);
    }
    const begin_it begins(counting_t(0), times{w.step});
    const end_it ends(counting_t(0), times_plus{w.step, w.length});
    {
      INFO("Sum of int");
      const std::vector<int> out = strata_test::run_segmented<int>(
          n,
          [&](void* d_temp, std::size_t& bytes, int* d_out)
          {
            return fixed ? strata::DeviceSegmentedReduce::Sum(d_temp, bytes, in_ptr, d_out, n, begins, begins + 1)
                         : strata::DeviceSegmentedReduce::Sum(d_temp, bytes, in_ptr, d_out, n, begins, ends);
          });
      strata_test::check_equal(reference_sum(in, layout), out);
    }
    INFO("Max of float");
    const std::vector<float> out = strata_test::run_segmented<float>(
        n,
        [&](void* d_temp, std::size_t& bytes, float* d_out)
        {
          return fixed ? strata::DeviceSegmentedReduce::Max(d_temp, bytes, fin_ptr, d_out, n, begins, begins + 1)
                       : strata::DeviceSegmentedReduce::Max(d_temp, bytes, fin_ptr, d_out, n, begins, ends);
        });
    strata_test::check_equal(
        strata_test::reference_reduce(fin, layout, cuda::std::numeric_limits<float>::lowest(), larger{}), out);
  }
}

TEST_CASE("DeviceSegmentedReduce::Sum of int items into int64 outputs adds in int64", "[device][segmented_reduce]")
{
  // Sum's accumulator is the sum of an item and the output's value type (CUB's too).
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1111);
  INFO("seed " << seed);
  check_wide_sums(seed, 0,
                  [](void* d_temp, std::size_t& bytes, const std::int32_t* d_in, std::int64_t* d_out, std::int64_t n,
                     const int* begin, const int* end)
                  { return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, d_in, d_out, n, begin, end); });
}

TEST_CASE("DeviceSegmentedReduce::Reduce adds in the output's value type as CUB's does (its initial value converted)",
          "[device][segmented_reduce]")
{
  // CUB 3.0.1's DeviceSegmentedReduce::Reduce dispatches with InitT = the output's value type, not
  // the initial value's type (its DeviceReduce::Reduce takes the latter): int items reduced with
  // cuda::std::plus<> from the int 5 into int64 outputs are added in int64.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1113);
  INFO("seed " << seed);
  check_wide_sums(seed, 5,
                  [](void* d_temp, std::size_t& bytes, const std::int32_t* d_in, std::int64_t* d_out, std::int64_t n,
                     const int* begin, const int* end) {
                    return strata::DeviceSegmentedReduce::Reduce(d_temp, bytes, d_in, d_out, n, begin, end,
                                                                 cuda::std::plus<>{}, 5);
                  });
}

// Tests of strata/device/device_segmented_reduce.cuh, part 2: ArgMin and ArgMax (KeyValuePair<int, T>
// outputs: the position in the segment of its first extreme item and that item; {1, the type's
// largest / lowest value} for an empty segment, as CUB documents) over int8, int32, uint32, int64,
// uint64, float, double and __half, over every layout of device_segmented_reduce_checks.cuh. Ties
// are placed on purpose: items are integers in [-100, 100] (shifted by 128 for unsigned types)
// with the extremes -110 and 110 at one position in 61 each, so that every segment of more than a
// few hundred items holds each extreme many times, on both sides of chunk borders and in parts of
// one lane and of whole warps; and a constant input makes every part of every segment a tie
// (every key must be 0). Segments holding nothing but the type's largest or lowest value (the
// values of an empty segment) must report position 0. Offsets are int pointers; int64 and uint32
// ones, and offsets computed by iterators, run too. Every output past the last segment must keep
// its poison.
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_segmented_reduce_checks.cuh"

#include <cuda/std/limits>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::arg_reference;
using strata_test::device_buffer;
using strata_test::device_segments;
using strata_test::segment_layout;

using arg_types =
    std::tuple<std::int8_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double, __half>;
using offset_types = std::tuple<std::int64_t, std::uint32_t>;

template <typename T>
using pair_t = strata::KeyValuePair<int, T>;

//! Integers in [-100, 100] with -110 and 110 at one position in 61 each (all shifted by 128 for
//! unsigned T), as T.
template <typename T>
std::vector<T> tied_inputs(std::size_t n, std::uint64_t seed)
{
  const double shift = std::is_unsigned_v<T> ? 128.0 : 0.0;
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> pick(0, 60);
  std::uniform_int_distribution<int> value(-100, 100);
  std::vector<T> in(n);
  for (auto& x : in)
  {
    const int p = pick(engine);
    x           = strata_test::from_double<T>(shift + (p == 0 ? -110.0 : p == 1 ? 110.0 : double(value(engine))));
  }
  return in;
}

//! ArgMin (MINIMUM) or ArgMax of every segment of `layout` with OffsetT offsets.
template <bool MINIMUM, typename OffsetT, typename T>
std::vector<pair_t<T>> run_arg(const T* d_in, const segment_layout& layout)
{
  const std::int64_t n = layout.segments();
  const device_segments<OffsetT> d_segments(layout);
  const auto call = [&](void* d_temp, std::size_t& bytes, pair_t<T>* d_out)
  {
    if constexpr (MINIMUM)
    {
      return strata::DeviceSegmentedReduce::ArgMin(d_temp, bytes, d_in, d_out, n, d_segments.begin(), d_segments.end());
    }
    else
    {
      return strata::DeviceSegmentedReduce::ArgMax(d_temp, bytes, d_in, d_out, n, d_segments.begin(), d_segments.end());
    }
  };
  return strata_test::run_segmented<pair_t<T>>(n, call);
}

//! ArgMin (MINIMUM) or ArgMax of T over every layout of segment_shapes, with tied inputs and with a
//! constant input.
template <bool MINIMUM, typename T>
void check_shapes(std::uint64_t seed)
{
  const std::vector<segment_layout> layouts = strata_test::segment_shapes(seed);
  const std::size_t items                   = strata_test::items_of(layouts);
  for (const bool constant : {false, true})
  {
    INFO((constant ? "a constant input (7)" : "tied inputs"));
    const std::vector<T> in =
        constant ? std::vector<T>(items, strata_test::from_double<T>(7.0)) : tied_inputs<T>(items, seed + 10);
    const device_buffer<T> d_in(in);
    for (const segment_layout& layout : layouts)
    {
      INFO(layout.name << ": " << layout.segments() << " segments");
      strata_test::check_pairs(arg_reference<T>(in, layout, MINIMUM),
                               run_arg<MINIMUM, int>(static_cast<const T*>(d_in.data()), layout));
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

using counting_t = strata::CountingInputIterator<int>;
using begin_it   = strata::TransformInputIterator<int, times, counting_t>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::ArgMin reports the first smallest item of every segment",
                        "[device][segmented_reduce]", arg_types)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1201);
  INFO("seed " << seed);
  check_shapes<true, TestType>(seed);
}

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::ArgMax reports the first largest item of every segment",
                        "[device][segmented_reduce]", arg_types)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1203);
  INFO("seed " << seed);
  check_shapes<false, TestType>(seed);
}

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::ArgMin and ArgMax of segments holding only the type's extremes",
                        "[device][segmented_reduce]", arg_types)
{
  // The values an empty segment reports, as items: a segment of them still reports position 0.
  // Segments of 1, 2, 33, 1025 and 3000 items of the largest value, the same of the lowest, the
  // two mixed (the lowest last, or first), and empty ones between them.
  STRATA_TEST_REQUIRE_GPU();
  using T      = TestType;
  const T high = cuda::std::numeric_limits<T>::max();
  const T low  = cuda::std::numeric_limits<T>::lowest();
  std::vector<T> in;
  std::vector<std::int64_t> lengths;
  const auto add = [&](std::int64_t length, T value, std::int64_t other_at, T other)
  {
    for (std::int64_t i = 0; i < length; ++i)
    {
      in.push_back(i == other_at ? other : value);
    }
    lengths.push_back(length);
    lengths.push_back(0);
  };
  for (const std::int64_t length : {1, 2, 33, 1025, 3000})
  {
    add(length, high, -1, high);
    add(length, low, -1, low);
    add(length, high, length - 1, low);
    add(length, low, 0, high);
  }
  const segment_layout layout = strata_test::contiguous_layout("extremes", lengths);
  const device_buffer<T> d_in(in);
  const T* const in_ptr = d_in.data();
  {
    INFO("ArgMin");
    strata_test::check_pairs(arg_reference<T>(in, layout, true), run_arg<true, int>(in_ptr, layout));
  }
  INFO("ArgMax");
  strata_test::check_pairs(arg_reference<T>(in, layout, false), run_arg<false, int>(in_ptr, layout));
}

TEMPLATE_LIST_TEST_CASE("DeviceSegmentedReduce::ArgMin and ArgMax with int64 and uint32 offsets",
                        "[device][segmented_reduce]", offset_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using OffsetT            = TestType;
  const std::uint64_t seed = strata_test::seed(1205);
  INFO("seed " << seed);
  const std::vector<segment_layout> layouts = strata_test::segment_shapes(seed);
  const std::vector<double> in              = tied_inputs<double>(strata_test::items_of(layouts), seed + 10);
  const device_buffer<double> d_in(in);
  const double* const in_ptr = d_in.data();
  for (const segment_layout& layout : layouts)
  {
    INFO(layout.name << ": " << layout.segments() << " segments");
    {
      INFO("ArgMin of double");
      strata_test::check_pairs(arg_reference<double>(in, layout, true), run_arg<true, OffsetT>(in_ptr, layout));
    }
    INFO("ArgMax of double");
    strata_test::check_pairs(arg_reference<double>(in, layout, false), run_arg<false, OffsetT>(in_ptr, layout));
  }
}

TEST_CASE("DeviceSegmentedReduce::ArgMin and ArgMax of fixed-size segments with offsets computed by iterators",
          "[device][segmented_reduce]")
{
  // begin = s * size from a TransformInputIterator over a CountingInputIterator, end = begin + 1.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1207);
  INFO("seed " << seed);
  const std::size_t items   = strata_test::under_sanitizer() ? (std::size_t(1) << 20) + 7 : (std::size_t(1) << 24) + 13;
  const std::vector<int> in = tied_inputs<int>(items, seed + 10);
  const device_buffer<int> d_in(in);
  const int* const in_ptr = d_in.data();
  for (const int size :
       {1, int(strata_test::sr_lane), int(strata_test::sr_lane) + 1, 1000, int(strata_test::sr_chunk), 4097, 1 << 20})
  {
    const std::int64_t n = std::int64_t(items) / size;
    INFO(n << " segments of " << size << " items");
    segment_layout layout{"", {}, {}, false};
    for (std::int64_t s = 0; s < n; ++s)
    {
      layout.begin.push_back(s * size);
      layout.end.push_back((s + 1) * size);
    }
    const begin_it begins(counting_t(0), times{size});
    for (const bool minimum : {true, false})
    {
      INFO((minimum ? "ArgMin" : "ArgMax"));
      const std::vector<pair_t<int>> out = strata_test::run_segmented<pair_t<int>>(
          n,
          [&](void* d_temp, std::size_t& bytes, pair_t<int>* d_out)
          {
            return minimum ? strata::DeviceSegmentedReduce::ArgMin(d_temp, bytes, in_ptr, d_out, n, begins, begins + 1)
                           : strata::DeviceSegmentedReduce::ArgMax(d_temp, bytes, in_ptr, d_out, n, begins, begins + 1);
          });
      strata_test::check_pairs(arg_reference<int>(in, layout, minimum), out);
    }
  }
}

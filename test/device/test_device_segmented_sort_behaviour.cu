// Tests of strata/device/device_segmented_radix_sort.cuh and device_segmented_sort.cuh, part 3:
// what is not a key type: the host reference itself, bad arguments (an error code, nothing
// written), the size query, empty shapes (no segments, no items, only empty or backwards
// segments), one segment of every item, 2^20 segments of 0 to 16 items, fixed-size segments from
// a transform of a counting iterator, CUB's aliased offsets (d_offsets, d_offsets + 1), bit
// ranges, DoubleBuffers whatever their selector (and without buffers where no bit is sorted by,
// as CUB takes them), misaligned buffers, more than 2^31 items (DeviceSegmentedSort with a
// segment of more than 2^31, DeviceSegmentedRadixSort with one across item 2^31), long segments
// across several onesweep launch windows, and sorts on two streams at once and captured in a
// CUDA graph.
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/test_common.cuh"
#include "device_segmented_sort_checks.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::segment_layout;
using strata_test::segmented_api;
using strata_test::segmented_call;
using strata_test::sort_form;

//! i -> i * size: the offsets of segments of `size` items each.
struct times_size
{
  std::int64_t size;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const
  {
    return i * size;
  }
};
using fixed_offsets_t =
    strata::TransformInputIterator<std::int64_t, times_size, strata::CountingInputIterator<std::int64_t>>;

segmented_call make_call(segmented_api api, bool descending, sort_form form)
{
  segmented_call call;
  call.api        = api;
  call.descending = descending;
  call.form       = form;
  return call;
}

//! The two-phase call of `call(d_temp, bytes)`: the size query, then the call in temporary
//! storage of that size.
template <typename CallT>
cudaError_t run_two_phase(CallT call)
{
  std::size_t bytes = 0;
  cudaError_t error = call(nullptr, bytes);
  if (error != cudaSuccess)
  {
    return error;
  }
  device_buffer<unsigned char> d_temp(bytes);
  error = call(d_temp.data(), bytes);
  if (error == cudaSuccess)
  {
    error = cudaDeviceSynchronize();
  }
  return error;
}
} // namespace

TEST_CASE("The segmented sorts' reference sorts each segment stably in radix order and leaves the rest",
          "[device][sort]")
{
  using strata_test::segmented_reference;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // Segments [0, 8), [9, 11), [13, 14) and a backwards one (13, 11): items 8, 11 and 12 are in none.
  const std::vector<float> keys{1.0f, -0.0f, nan, -nan, 0.0f, -inf, inf, -1.0f, 7.0f, 3.0f, 2.0f, 5.0f, 4.0f, 9.0f};
  const segment_layout layout{"hand-made", 14, {0, 9, 13, 13}, {8, 11, 14, 11}};
  CHECK(segmented_reference(keys, layout, 0, 32, false)
        == std::vector<std::int64_t>{3, 5, 7, 1, 4, 0, 6, 2, -1, 10, 9, -1, -1, 13});
  CHECK(segmented_reference(keys, layout, 0, 32, true)
        == std::vector<std::int64_t>{2, 6, 0, 1, 4, 7, 5, 3, -1, 9, 10, -1, -1, 13});
  CHECK(segmented_reference(keys, layout, 0, 0, true)
        == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, -1, 9, 10, -1, -1, 13});

  const std::vector<std::int8_t> bytes{-128, 127, 0, -1, 5};
  const segment_layout one{"one", 5, {0}, {5}};
  CHECK(segmented_reference(bytes, one, 0, 8, false) == std::vector<std::int64_t>{0, 3, 2, 4, 1});
  // Bits [4, 8) of 0x1f, 0x10, 0x2a, 0x15, 0x0f: digits 1, 1, 2, 1, 0.
  const std::vector<std::uint8_t> digits{0x1f, 0x10, 0x2a, 0x15, 0x0f};
  CHECK(segmented_reference(digits, one, 4, 8, false) == std::vector<std::int64_t>{4, 0, 1, 3, 2});
  CHECK(segmented_reference(digits, one, 4, 8, true) == std::vector<std::int64_t>{2, 0, 1, 3, 4});
}

TEST_CASE("DeviceSegmentedRadixSort and DeviceSegmentedSort reject bad arguments and write nothing", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(521);
  INFO("seed " << seed);
  using radix_t                         = strata::DeviceSegmentedRadixSort;
  using sort_t                          = strata::DeviceSegmentedSort;
  const std::int64_t n                  = 20000;
  const std::vector<std::uint32_t> keys = strata_test::random_vector<std::uint32_t>(std::size_t(n), seed);
  const std::vector<std::uint8_t> bytes = strata_test::random_bytes(std::size_t(n), seed + 1);
  const std::vector<std::int64_t> begins{0, 5000, 5007};
  const std::vector<std::int64_t> ends{5000, 5007, n};
  device_buffer<std::uint32_t> d_keys_in(keys);
  device_buffer<std::uint32_t> d_keys_out(static_cast<std::size_t>(n));
  device_buffer<std::uint32_t> d_values_in(keys);
  device_buffer<std::uint32_t> d_values_out(static_cast<std::size_t>(n));
  device_buffer<std::uint8_t> d_bytes_in(bytes);
  device_buffer<std::uint8_t> d_bytes_out(static_cast<std::size_t>(n));
  device_buffer<std::int64_t> d_begin_buffer(begins);
  device_buffer<std::int64_t> d_end_buffer(ends);
  const std::int64_t* d_begin    = d_begin_buffer.data();
  const std::int64_t* d_end      = d_end_buffer.data();
  const std::uint32_t* keys_in   = d_keys_in.data();
  const std::uint32_t* values_in = d_values_in.data();
  const std::uint8_t* bytes_in   = d_bytes_in.data();
  std::uint32_t* keys_out        = d_keys_out.data();
  std::uint32_t* values_out      = d_values_out.data();
  std::uint8_t* bytes_out        = d_bytes_out.data();

  std::size_t bytes_needed = 0;
  STRATA_TEST_CUDA(
      radix_t::SortPairs(nullptr, bytes_needed, keys_in, keys_out, values_in, values_out, n, 3, d_begin, d_end));
  std::size_t keys_bytes_needed = 0;
  STRATA_TEST_CUDA(sort_t::SortKeys(nullptr, keys_bytes_needed, bytes_in, bytes_out, n, 3, d_begin, d_end));
  // Enough for either sort below, were its arguments right.
  device_buffer<unsigned char> d_temp(std::max(bytes_needed, keys_bytes_needed));
  void* temp                  = d_temp.data();
  const std::size_t temp_size = d_temp.size();

  // Nothing written: the outputs keep their poison, the inputs their values, and no error is left
  // pending.
  const auto check_untouched = [&]
  {
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(d_keys_out.download()
          == std::vector<std::uint32_t>(std::size_t(n), strata_test::poison_value<std::uint32_t>()));
    CHECK(d_values_out.download()
          == std::vector<std::uint32_t>(std::size_t(n), strata_test::poison_value<std::uint32_t>()));
    CHECK(d_bytes_out.download() == std::vector<std::uint8_t>(std::size_t(n), strata_test::poison_byte));
    CHECK(d_keys_in.download() == keys);
    CHECK(d_values_in.download() == keys);
    CHECK(d_bytes_in.download() == bytes);
  };
  const auto poison = [&]
  {
    d_keys_out.poison();
    d_values_out.poison();
    d_bytes_out.poison();
  };
  // Rejected in the size query and in the sort.
  const auto expect_rejected = [&](auto call)
  {
    poison();
    std::size_t query = 0;
    CHECK(call(nullptr, query) == cudaErrorInvalidValue);
    std::size_t given = temp_size;
    CHECK(call(temp, given) == cudaErrorInvalidValue);
    check_untouched();
  };
  const auto radix_pairs = [&](std::int64_t items, std::int64_t segments, int begin_bit, int end_bit)
  {
    return [=](void* d_temp_storage, std::size_t& temp_bytes)
    {
      return radix_t::SortPairs(d_temp_storage, temp_bytes, keys_in, keys_out, values_in, values_out, items, segments,
                                d_begin, d_end, begin_bit, end_bit);
    };
  };

  SECTION("negative counts")
  {
    expect_rejected(radix_pairs(-1, 3, 0, 32));
    expect_rejected(radix_pairs(n, -1, 0, 32));
    expect_rejected(radix_pairs(std::numeric_limits<std::int64_t>::min(), 3, 0, 32));
    expect_rejected(
        [&](void* d_temp_storage, std::size_t& temp_bytes)
        {
          return sort_t::SortPairsDescending(d_temp_storage, temp_bytes, keys_in, keys_out, values_in, values_out, -5,
                                             3, d_begin, d_end);
        });
    expect_rejected(
        [&](void* d_temp_storage, std::size_t& temp_bytes)
        { return sort_t::StableSortKeys(d_temp_storage, temp_bytes, bytes_in, bytes_out, n, -3, d_begin, d_end); });
  }
  SECTION("bit ranges outside the key")
  {
    expect_rejected(radix_pairs(n, 3, 8, 4));
    expect_rejected(radix_pairs(n, 3, 0, 33));
    expect_rejected(radix_pairs(n, 3, -1, 32));
    expect_rejected(radix_pairs(n, 3, 33, 33));
    expect_rejected(
        [&](void* d_temp_storage, std::size_t& temp_bytes)
        { return radix_t::SortKeys(d_temp_storage, temp_bytes, bytes_in, bytes_out, n, 3, d_begin, d_end, 0, 9); });
  }
  SECTION("null pointers where items are read or written")
  {
    poison();
    std::size_t given = temp_size;
    CHECK(radix_t::SortPairs(temp, given, static_cast<const std::uint32_t*>(nullptr), keys_out, values_in, values_out,
                             n, 3, d_begin, d_end)
          == cudaErrorInvalidValue);
    CHECK(radix_t::SortPairs(temp, given, keys_in, static_cast<std::uint32_t*>(nullptr), values_in, values_out, n, 3,
                             d_begin, d_end)
          == cudaErrorInvalidValue);
    CHECK(radix_t::SortPairs(temp, given, keys_in, keys_out, static_cast<const std::uint32_t*>(nullptr), values_out, n,
                             3, d_begin, d_end)
          == cudaErrorInvalidValue);
    CHECK(sort_t::StableSortPairs(temp, given, keys_in, keys_out, values_in, static_cast<std::uint32_t*>(nullptr), n, 3,
                                  d_begin, d_end)
          == cudaErrorInvalidValue);
    CHECK(sort_t::SortKeys(temp, given, static_cast<const std::uint8_t*>(nullptr), bytes_out, n, 3, d_begin, d_end)
          == cudaErrorInvalidValue);
    CHECK(radix_t::SortKeys(temp, given, bytes_in, static_cast<std::uint8_t*>(nullptr), n, 3, d_begin, d_end)
          == cudaErrorInvalidValue);
    // DoubleBuffers missing a buffer: rejected, their selectors left as they were.
    strata::DoubleBuffer<std::uint32_t> key_buffers(d_keys_in.data(), nullptr);
    strata::DoubleBuffer<std::uint32_t> value_buffers(d_values_in.data(), values_out);
    CHECK(radix_t::SortPairs(temp, given, key_buffers, value_buffers, n, 3, d_begin, d_end) == cudaErrorInvalidValue);
    key_buffers.d_buffers[1]   = keys_out;
    value_buffers.d_buffers[1] = nullptr;
    CHECK(sort_t::StableSortPairsDescending(temp, given, key_buffers, value_buffers, n, 3, d_begin, d_end)
          == cudaErrorInvalidValue);
    CHECK(key_buffers.selector == 0);
    CHECK(value_buffers.selector == 0);
    strata::DoubleBuffer<std::uint8_t> byte_buffers(nullptr, bytes_out);
    CHECK(sort_t::SortKeys(temp, given, byte_buffers, n, 3, d_begin, d_end) == cudaErrorInvalidValue);
    CHECK(byte_buffers.selector == 0);
    check_untouched();
  }
  SECTION("too little temporary storage")
  {
    poison();
    REQUIRE(bytes_needed >= 1);
    std::size_t short_bytes = bytes_needed - 1;
    CHECK(radix_t::SortPairs(temp, short_bytes, keys_in, keys_out, values_in, values_out, n, 3, d_begin, d_end)
          == cudaErrorInvalidValue);
    check_untouched();
  }
}

TEST_CASE("The segmented sorts' size queries launch nothing, take null pointers and ask for enough", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(523);
  INFO("seed " << seed);
  const std::vector<std::int64_t> lengths = strata_test::bin_edge_lengths<std::uint32_t, std::uint32_t>(seed, true);
  const segment_layout layout             = strata_test::contiguous_layout("every bin", lengths);
  device_buffer<std::int64_t> d_begin(layout.begin);
  device_buffer<std::int64_t> d_end(layout.end);
  const std::int64_t n        = layout.num_items;
  const std::int64_t segments = layout.num_segments();
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        // Null items: a size query reads and writes none.
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(strata::DeviceSegmentedRadixSort::SortPairs(
            nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
            static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr), n, segments,
            static_cast<const std::int64_t*>(d_begin.data()), static_cast<const std::int64_t*>(d_end.data()), 0, 32,
            stream));
        CHECK(bytes >= 1);
        bytes = 0;
        strata::DoubleBuffer<std::uint32_t> keys;
        strata::DoubleBuffer<std::uint32_t> values;
        STRATA_TEST_CUDA(strata::DeviceSegmentedSort::StableSortPairsDescending(
            nullptr, bytes, keys, values, n, segments, static_cast<const std::int64_t*>(d_begin.data()),
            static_cast<const std::int64_t*>(d_end.data()), stream));
        CHECK(bytes >= 1);
        CHECK(keys.selector == 0);
        bytes = 0;
        STRATA_TEST_CUDA(strata::DeviceSegmentedSort::SortKeys(
            nullptr, bytes, static_cast<const std::uint8_t*>(nullptr), static_cast<std::uint8_t*>(nullptr), n, segments,
            static_cast<const std::int64_t*>(d_begin.data()), static_cast<const std::int64_t*>(d_end.data()), stream));
        CHECK(bytes >= 1);
      });
  // A sort in exactly the storage its query asked for (poisoned): every check of these tests
  // does so; here the sizes of a pointer form and a DoubleBuffer form of one sort.
  const std::vector<std::uint32_t> keys =
      strata_test::segmented_keys<std::uint32_t>(layout, strata_test::segment_keys::mixed, seed);
  strata_test::check_segmented_sort<std::uint32_t>(keys, layout,
                                                   make_call(segmented_api::radix, false, sort_form::pointers));
  strata_test::check_segmented_sort<std::uint32_t>(keys, layout,
                                                   make_call(segmented_api::radix, false, sort_form::double_buffer));
}

TEST_CASE("The segmented sorts handle no segments, no items, and only empty segments", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(525);
  INFO("seed " << seed);
  // Items but no segment; segments that are all empty (begin == end), some at the same place;
  // backwards segments only. Nothing may be written, in either buffer.
  const std::int64_t n = 5000;
  std::vector<segment_layout> layouts;
  layouts.push_back(segment_layout{"no segments", n, {}, {}});
  segment_layout empty{"every segment empty", n, {}, {}};
  segment_layout backwards{"every segment backwards", n, {}, {}};
  for (std::int64_t i = 0; i < 300; ++i)
  {
    const std::int64_t at = (i * 977) % (n + 1);
    empty.begin.push_back(at);
    empty.end.push_back(at);
    backwards.begin.push_back(std::min(n, at + 1 + i % 40));
    backwards.end.push_back(at);
  }
  empty.begin.push_back(0);
  empty.end.push_back(0);
  layouts.push_back(empty);
  layouts.push_back(backwards);
  for (const segment_layout& layout : layouts)
  {
    const std::vector<std::uint32_t> keys =
        strata_test::segmented_keys<std::uint32_t>(layout, strata_test::segment_keys::random, seed);
    for (segmented_api api : {segmented_api::radix, segmented_api::sort})
    {
      for (sort_form form : {sort_form::pointers, sort_form::double_buffer})
      {
        strata_test::check_segmented_sort<std::uint32_t>(keys, layout,
                                                         make_call(api, api == segmented_api::sort, form));
      }
    }
  }

  // No segments: the offsets are never read, so they may be null.
  {
    const std::vector<std::uint32_t> keys = strata_test::random_vector<std::uint32_t>(std::size_t(n), seed + 1);
    strata_test::segmented_sort_case<std::uint32_t, std::uint32_t> no_segments(
        keys, layouts[0], make_call(segmented_api::radix, false, sort_form::pointers));
    INFO(no_segments.name() << ", null offsets");
    no_segments.reset();
    no_segments.sort(static_cast<const std::int64_t*>(nullptr), static_cast<const std::int64_t*>(nullptr));
    no_segments.verify();
  }

  // No items: the item pointers are never read or written, so they may be null; the segments
  // are empty.
  const std::vector<std::int64_t> zeros(7, 0);
  device_buffer<std::int64_t> d_zeros(zeros);
  const std::int64_t* offsets = d_zeros.data();
  for (std::int64_t segments : {std::int64_t(0), std::int64_t(7)})
  {
    INFO("no items, " << segments << " segments");
    const auto null_keys = static_cast<const std::uint32_t*>(nullptr);
    const auto null_out  = static_cast<std::uint32_t*>(nullptr);
    CHECK(run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return strata::DeviceSegmentedRadixSort::SortPairs(d_temp, bytes, null_keys, null_out, null_keys,
                                                                   null_out, 0, segments, offsets, offsets);
              })
          == cudaSuccess);
    CHECK(run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return strata::DeviceSegmentedSort::StableSortKeys(
                    d_temp, bytes, static_cast<const std::uint8_t*>(nullptr), static_cast<std::uint8_t*>(nullptr), 0,
                    segments, offsets, offsets);
              })
          == cudaSuccess);
    strata::DoubleBuffer<std::uint32_t> keys;
    strata::DoubleBuffer<std::uint32_t> values;
    CHECK(run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return strata::DeviceSegmentedSort::SortPairsDescending(d_temp, bytes, keys, values, 0, segments,
                                                                        offsets, offsets);
              })
          == cudaSuccess);
  }
}

TEST_CASE("The segmented sorts sort one segment of every item", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(527);
  INFO("seed " << seed);
  const std::int64_t n       = strata_test::under_sanitizer() ? 100003 : (std::int64_t(1) << 21) + 3;
  const segment_layout whole = strata_test::contiguous_layout("one segment", {n});
  const std::vector<std::uint32_t> keys =
      strata_test::segmented_keys<std::uint32_t>(whole, strata_test::segment_keys::random, seed);
  strata_test::check_segmented_sort<std::uint32_t>(keys, whole,
                                                   make_call(segmented_api::radix, false, sort_form::pointers));
  strata_test::check_segmented_sort<std::uint32_t>(keys, whole,
                                                   make_call(segmented_api::sort, true, sort_form::double_buffer));
  // Few distinct keys, so the order of equal ones shows.
  const std::vector<std::uint32_t> few =
      strata_test::segmented_keys<std::uint32_t>(whole, strata_test::segment_keys::few_values, seed + 1);
  segmented_call call = make_call(segmented_api::stable_sort, false, sort_form::double_buffer);
  call.first_selector = 1;
  strata_test::check_segmented_sort<std::uint32_t>(few, whole, call);
  // The same segment amid gaps.
  const segment_layout amid = strata_test::gapped_layout("one segment amid gaps", {n}, seed + 2, 1000);
  const std::vector<std::uint32_t> amid_keys =
      strata_test::segmented_keys<std::uint32_t>(amid, strata_test::segment_keys::few_values, seed + 3);
  strata_test::check_segmented_sort<std::uint32_t>(amid_keys, amid,
                                                   make_call(segmented_api::radix, true, sort_form::pointers));
}

TEST_CASE("The segmented sorts sort 2^20 segments of 0 to 16 items", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(529);
  INFO("seed " << seed);
  const std::int64_t count  = strata_test::under_sanitizer() ? std::int64_t(1) << 16 : std::int64_t(1) << 20;
  const segment_layout tiny = strata_test::contiguous_layout("tiny segments", strata_test::tiny_lengths(count, seed));
  const std::vector<std::uint32_t> keys =
      strata_test::segmented_keys<std::uint32_t>(tiny, strata_test::segment_keys::mixed, seed + 1);
  strata_test::check_segmented_sort<std::uint32_t>(keys, tiny,
                                                   make_call(segmented_api::radix, false, sort_form::pointers));
  strata_test::check_segmented_sort<std::uint32_t>(
      keys, tiny, make_call(segmented_api::stable_sort, true, sort_form::double_buffer));
  const segment_layout gaps = strata_test::gapped_layout("tiny segments with gaps",
                                                         strata_test::tiny_lengths(count / 4, seed + 2), seed + 3, 3);
  const std::vector<std::uint32_t> few =
      strata_test::segmented_keys<std::uint32_t>(gaps, strata_test::segment_keys::few_values, seed + 4);
  strata_test::check_segmented_sort<std::uint32_t>(few, gaps,
                                                   make_call(segmented_api::sort, true, sort_form::pointers));
  strata_test::check_segmented_sort<std::uint32_t>(few, gaps,
                                                   make_call(segmented_api::radix, false, sort_form::double_buffer));
}

TEST_CASE("The segmented sorts take fixed-size segments from a TransformInputIterator over a CountingInputIterator",
          "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(531);
  INFO("seed " << seed);
  // Under compute-sanitizer 2^16 items of each size, and no segments of 100003 items (8193 items
  // already take onesweep chains).
  const bool reduced       = strata_test::under_sanitizer();
  const std::int64_t total = reduced ? std::int64_t(1) << 16 : std::int64_t(1) << 20;
  int round                = 0;
  for (std::int64_t size : {1, 17, 32, 33, 256, 257, 2048, 2049, 4097, 8193, 100003})
  {
    if (reduced && size == 100003)
    {
      continue;
    }
    const std::int64_t count = std::max<std::int64_t>(total / size, 2);
    const fixed_offsets_t d_begin(strata::CountingInputIterator<std::int64_t>(0), times_size{size});
    const fixed_offsets_t d_end(strata::CountingInputIterator<std::int64_t>(1), times_size{size});
    // The host's layout from the same iterators; 5 items after the last segment stay as they are.
    segment_layout layout{"segments of " + std::to_string(size) + " items", count * size + 5, {}, {}};
    for (std::int64_t i = 0; i < count; ++i)
    {
      layout.begin.push_back(d_begin[i]);
      layout.end.push_back(d_end[i]);
    }
    const std::vector<std::uint32_t> keys = strata_test::segmented_keys<std::uint32_t>(
        layout, strata_test::segment_keys::mixed, seed + std::uint64_t(size));
    const segmented_api api = round % 3 == 0   ? segmented_api::radix
                              : round % 3 == 1 ? segmented_api::sort
                                               : segmented_api::stable_sort;
    const bool descending   = round % 2 == 1;
    ++round;
    strata_test::check_segmented_sort<std::uint32_t>(keys, layout, make_call(api, descending, sort_form::pointers),
                                                     d_begin, d_end);
    strata_test::check_segmented_sort<std::uint32_t>(
        keys, layout, make_call(api, !descending, sort_form::double_buffer), d_begin, d_end);
  }
}

TEST_CASE("The segmented sorts take CUB's aliased offsets (d_offsets, d_offsets + 1) of int", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(533);
  INFO("seed " << seed);
  const std::int64_t total = strata_test::under_sanitizer() ? std::int64_t(1) << 17 : std::int64_t(1) << 21;
  const segment_layout layout =
      strata_test::contiguous_layout("power law", strata_test::power_law_lengths(total, 300000, seed));
  std::vector<int> offsets(layout.begin.begin(), layout.begin.end());
  offsets.push_back(int(layout.num_items));
  device_buffer<int> d_offsets(offsets);
  const int* d_begin = d_offsets.data();
  const int* d_end   = d_offsets.data() + 1;
  const std::vector<std::uint32_t> keys =
      strata_test::segmented_keys<std::uint32_t>(layout, strata_test::segment_keys::mixed, seed + 1);
  strata_test::check_segmented_sort<std::uint32_t>(
      keys, layout, make_call(segmented_api::radix, false, sort_form::pointers), d_begin, d_end);
  strata_test::check_segmented_sort<std::uint32_t>(
      keys, layout, make_call(segmented_api::sort, true, sort_form::double_buffer), d_begin, d_end);
  strata_test::check_segmented_sort<std::uint32_t>(
      keys, layout, make_call(segmented_api::stable_sort, false, sort_form::double_buffer), d_begin, d_end);
}

namespace
{
//! Mixed keys on segments of every bin with gaps (seeded by `seed`).
std::pair<segment_layout, std::vector<std::uint32_t>> mixed_gaps(std::uint64_t seed, std::int64_t max_gap)
{
  segment_layout gaps = strata_test::gapped_layout(
      "every bin with gaps",
      strata_test::bin_edge_lengths<std::uint32_t, std::uint32_t>(seed, strata_test::under_sanitizer()), seed + 1,
      max_gap);
  std::vector<std::uint32_t> keys =
      strata_test::segmented_keys<std::uint32_t>(gaps, strata_test::segment_keys::mixed, seed + 2);
  return {std::move(gaps), std::move(keys)};
}
} // namespace

TEST_CASE("DeviceSegmentedRadixSort sorts by bit ranges, and DoubleBuffers hold the result whatever their selector",
          "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(535);
  INFO("seed " << seed);
  const bool reduced      = strata_test::under_sanitizer();
  const auto [gaps, keys] = mixed_gaps(seed, 50);
  // [4, 20): keys equal in those bits keep their order; [0, 0) and [9, 9): each segment as it
  // is; [0, 32): the whole key.
  const std::pair<int, int> ranges[] = {{4, 20}, {0, 0}, {9, 9}, {0, 32}};
  for (const auto& range : ranges)
  {
    for (bool descending : {false, true})
    {
      for (sort_form form : {sort_form::pointers, sort_form::double_buffer})
      {
        for (int selector = 0; selector < (form == sort_form::pointers ? 1 : 2); ++selector)
        {
          if (reduced && (descending != (selector == 1)))
          {
            continue;
          }
          segmented_call call = make_call(segmented_api::radix, descending, form);
          call.begin_bit      = range.first;
          call.end_bit        = range.second;
          call.first_selector = selector;
          strata_test::check_segmented_sort<std::uint32_t>(keys, gaps, call);
        }
      }
    }
  }
}

TEST_CASE("DeviceSegmentedSort's DoubleBuffers hold the result whatever their selector", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(535);
  INFO("seed " << seed);
  const auto [gaps, keys] = mixed_gaps(seed, 50);
  for (segmented_api api : {segmented_api::sort, segmented_api::stable_sort})
  {
    for (int selector = 0; selector < 2; ++selector)
    {
      segmented_call call = make_call(api, selector == 1, sort_form::double_buffer);
      call.first_selector = selector;
      strata_test::check_segmented_sort<std::uint32_t>(keys, gaps, call);
    }
  }
}

TEST_CASE("DeviceSegmentedRadixSort takes DoubleBuffers without buffers when it sorts by no bits", "[device][sort]")
{
  // As CUB's: with no bits to sort by, the DoubleBuffer forms read and write nothing (each
  // segment is sorted where it is), so their buffers may be null; the selectors stay.
  STRATA_TEST_REQUIRE_GPU();
  const std::vector<std::int64_t> offsets{0, 100, 5000, 9000};
  device_buffer<std::int64_t> d_offsets(offsets);
  const std::int64_t* d_begin = d_offsets.data();
  const std::int64_t* d_end   = d_offsets.data() + 1;
  strata::DoubleBuffer<std::uint32_t> keys;
  strata::DoubleBuffer<std::uint64_t> values;
  for (int bit : {0, 7, 32})
  {
    INFO("bits [" << bit << ", " << bit << ")");
    CHECK(run_two_phase(
              [&](void* d_temp, std::size_t& bytes) {
                return strata::DeviceSegmentedRadixSort::SortPairs(d_temp, bytes, keys, values, 9000, 3, d_begin, d_end,
                                                                   bit, bit);
              })
          == cudaSuccess);
    CHECK(run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return strata::DeviceSegmentedRadixSort::SortKeysDescending(d_temp, bytes, keys, 9000, 3, d_begin,
                                                                            d_end, bit, bit);
              })
          == cudaSuccess);
    CHECK(keys.selector == 0);
    CHECK(values.selector == 0);
  }
  // With bits to sort by they are still rejected.
  device_buffer<unsigned char> d_temp(1 << 20);
  std::size_t bytes = d_temp.size();
  CHECK(strata::DeviceSegmentedRadixSort::SortKeys(d_temp.data(), bytes, keys, 9000, 3, d_begin, d_end, 0, 1)
        == cudaErrorInvalidValue);
}

TEST_CASE("The segmented sorts read and write through misaligned pointers", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(537);
  INFO("seed " << seed);
  const bool reduced        = strata_test::under_sanitizer();
  const segment_layout gaps = strata_test::gapped_layout(
      "every bin with gaps", strata_test::bin_edge_lengths<std::uint32_t, std::uint32_t>(seed, reduced), seed + 1, 9);
  const std::vector<std::uint32_t> keys =
      strata_test::segmented_keys<std::uint32_t>(gaps, strata_test::segment_keys::mixed, seed + 2);
  for (segmented_call call : strata_test::every_form(reduced))
  {
    call.shift          = 1;
    call.first_selector = call.descending ? 1 : 0;
    strata_test::check_segmented_sort<std::uint32_t>(keys, gaps, call);
  }
  const std::vector<std::uint8_t> bytes =
      strata_test::segmented_keys<std::uint8_t>(gaps, strata_test::segment_keys::mixed, seed + 3);
  for (int shift : {1, 3})
  {
    segmented_call call = make_call(segmented_api::sort, false, sort_form::pointers);
    call.shift          = shift;
    strata_test::check_segmented_sort<strata::NullType>(bytes, gaps, call);
  }
}

TEST_CASE("DeviceSegmentedSort sorts more than 2^31 items, one segment larger than 2^31", "[device][sort][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^31 items under compute-sanitizer would take hours; the sizes above it run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(539);
  INFO("seed " << seed);
  // Segments listed out of order, with gaps between them, an empty one and one of 2^31 + 4099
  // items.
  const std::int64_t big       = (std::int64_t(1) << 31) + 4099;
  const std::int64_t huge_at   = 1000 + 13;
  const std::int64_t after_big = huge_at + big + 64;
  const std::int64_t last_at   = after_big + 70001 + 7;
  const std::vector<std::int64_t> begins{after_big, huge_at, 0, last_at, last_at - 3};
  const std::vector<std::int64_t> ends{after_big + 70001, huge_at + big, 1000, last_at + 33, last_at - 3};
  const std::int64_t n = last_at + 33 + 5;

  device_buffer<std::int64_t> d_begin(begins);
  device_buffer<std::int64_t> d_end(ends);
  const std::int64_t* begin_offsets = d_begin.data();
  const std::int64_t* end_offsets   = d_end.data();
  std::size_t bytes                 = 0;
  STRATA_TEST_CUDA(strata::DeviceSegmentedSort::SortKeys(nullptr, bytes, static_cast<const std::uint8_t*>(nullptr),
                                                         static_cast<std::uint8_t*>(nullptr), n,
                                                         std::int64_t(begins.size()), begin_offsets, end_offsets));
  std::size_t free_bytes  = 0;
  std::size_t total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = 2 * std::size_t(n) + bytes + (std::size_t(256) << 20);
  if (free_bytes < needed)
  {
    SKIP("the sort of " << n << " items needs " << needed / (1 << 20) << " MiB of GPU memory; "
                        << free_bytes / (1 << 20) << " MiB are free");
  }

  const std::vector<std::uint8_t> keys = strata_test::random_bytes(std::size_t(n), seed);
  std::vector<std::uint8_t> sorted;
  {
    device_buffer<std::uint8_t> d_keys_in(keys);
    device_buffer<std::uint8_t> d_keys_out(static_cast<std::size_t>(n));
    d_keys_out.poison();
    device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(strata::DeviceSegmentedSort::SortKeys(
        d_temp.data(), bytes, static_cast<const std::uint8_t*>(d_keys_in.data()), d_keys_out.data(), n,
        std::int64_t(begins.size()), begin_offsets, end_offsets));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    sorted = d_keys_out.download();
  }
  std::vector<bool> inside(std::size_t(n), false);
  for (std::size_t s = 0; s < begins.size(); ++s)
  {
    INFO("segment [" << begins[s] << ", " << ends[s] << ")");
    const auto first = std::ptrdiff_t(begins[s]);
    const auto last  = std::ptrdiff_t(std::max(begins[s], ends[s]));
    const std::vector<std::size_t> counts =
        strata_test::byte_counts(std::vector<std::uint8_t>(keys.begin() + first, keys.begin() + last));
    CHECK(strata_test::sorted_bytes_mismatches(counts,
                                               std::vector<std::uint8_t>(sorted.begin() + first, sorted.begin() + last))
          == 0);
    std::fill(inside.begin() + first, inside.begin() + last, true);
  }
  std::size_t gaps_written = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i)
  {
    gaps_written += !inside[i] && sorted[i] != strata_test::poison_byte;
  }
  CHECK(gaps_written == 0);
}

namespace
{
//! Items of `got` that differ from a stable sort of each segment of `keys` by the bits
//! [begin_bit, end_bit) of the key, descending where asked, checked in O(n) (a counting sort by
//! the bits walks the input and compares each key with the place it must take); items outside
//! every segment must hold their input (gaps_hold_input) or the poison.
std::size_t sorted_segment_mismatches(const std::vector<std::uint8_t>& keys, const std::vector<std::uint8_t>& got,
                                      const std::vector<std::int64_t>& begins, const std::vector<std::int64_t>& ends,
                                      int begin_bit, int end_bit, bool descending, bool gaps_hold_input)
{
  const unsigned mask = (1u << (end_bit - begin_bit)) - 1u;
  std::vector<bool> inside(keys.size(), false);
  std::size_t wrong = 0;
  for (std::size_t s = 0; s < begins.size(); ++s)
  {
    const std::size_t first = std::size_t(begins[s]);
    const std::size_t last  = std::size_t(std::max(begins[s], ends[s]));
    std::size_t starts[256] = {};
    for (std::size_t i = first; i < last; ++i)
    {
      ++starts[(keys[i] >> begin_bit) & mask];
    }
    std::size_t at = first;
    for (unsigned k = 0; k <= mask; ++k)
    {
      const unsigned field    = descending ? mask - k : k;
      const std::size_t count = starts[field];
      starts[field]           = at;
      at += count;
    }
    for (std::size_t i = first; i < last; ++i)
    {
      wrong += got[starts[(keys[i] >> begin_bit) & mask]++] != keys[i];
      inside[i] = true;
    }
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    wrong += !inside[i] && got[i] != (gaps_hold_input ? keys[i] : strata_test::poison_byte);
  }
  return wrong;
}
} // namespace

TEST_CASE("DeviceSegmentedRadixSort sorts more than 2^31 items, a segment across item 2^31", "[device][sort][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^31 items under compute-sanitizer would take hours; the sizes above it run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(545);
  INFO("seed " << seed);
  // Segments listed out of order, with gaps: 1000 items; 2^31 - 4013 items, up to just below item
  // 2^31; 2^20 + 2995 items across item 2^31 (its tiles span both sides); 333 items past 2^31 + 2^20
  // (a block's sorter at a 64-bit offset); an empty one. 2 GiB of u8 keys in each buffer.
  const std::int64_t two31 = std::int64_t(1) << 31;
  const std::int64_t mib   = std::int64_t(1) << 20;
  const std::vector<std::int64_t> begins{two31 - 3000 + 5, 0, 1013, two31 + mib + 7, 500};
  const std::vector<std::int64_t> ends{two31 + mib, 1000, two31 - 3000, two31 + mib + 7 + 333, 500};
  const std::int64_t n = two31 + mib + 400;
  device_buffer<std::int64_t> d_begin(begins);
  device_buffer<std::int64_t> d_end(ends);
  const std::int64_t* begin_offsets = d_begin.data();
  const std::int64_t* end_offsets   = d_end.data();
  const std::int64_t segments       = std::int64_t(begins.size());

  const std::vector<std::uint8_t> keys = strata_test::random_bytes(std::size_t(n), seed);
  device_buffer<std::uint8_t> d_keys_in(keys);
  device_buffer<std::uint8_t> d_keys_out(static_cast<std::size_t>(n));
  {
    INFO("SortKeys through pointers, ascending by every bit");
    d_keys_out.poison();
    STRATA_TEST_CUDA(run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSegmentedRadixSort::SortKeys(d_temp, bytes,
                                                            static_cast<const std::uint8_t*>(d_keys_in.data()),
                                                            d_keys_out.data(), n, segments, begin_offsets, end_offsets);
        }));
    CHECK(sorted_segment_mismatches(keys, d_keys_out.download(), begins, ends, 0, 8, false, false) == 0);
    CHECK(d_keys_in.download() == keys);
  }
  {
    INFO("SortKeysDescending through a DoubleBuffer, by bits [1, 7)");
    d_keys_out.poison();
    strata::DoubleBuffer<std::uint8_t> buffers(d_keys_in.data(), d_keys_out.data());
    STRATA_TEST_CUDA(run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSegmentedRadixSort::SortKeysDescending(d_temp, bytes, buffers, n, segments,
                                                                      begin_offsets, end_offsets, 1, 7);
        }));
    REQUIRE((buffers.Current() == d_keys_in.data() || buffers.Current() == d_keys_out.data()));
    const bool in_input = buffers.Current() == d_keys_in.data();
    CHECK(sorted_segment_mismatches(keys, (in_input ? d_keys_in : d_keys_out).download(), begins, ends, 1, 7, true,
                                    in_input)
          == 0);
  }
}

TEST_CASE("The segmented sorts sort pairs of long segments across more than one onesweep launch",
          "[device][sort][slow]")
{
  // Over 2^28 items in long segments: their onesweep tiles fill more than one launch window (a
  // look-back portion), so some segment's tiles straddle two launches in every pass. Checked in
  // O(n) instead of by a host sort: each segment a permutation of its items (the values are the
  // positions), its keys in order, equal keys in input order, the gaps untouched.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^28 pairs under compute-sanitizer would take hours; the sizes above it run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(543);
  INFO("seed " << seed);
  const std::int64_t quarter  = std::int64_t(1) << 26;
  const segment_layout layout = strata_test::gapped_layout(
      "long segments", {quarter + 3, 17, quarter + 5, quarter + 7, 9000, quarter + 9, 1 << 20, quarter + 11}, seed, 5);
  const std::size_t n = std::size_t(layout.num_items);
  std::vector<std::uint32_t> keys(n);
  std::mt19937_64 engine(seed);
  for (auto& key : keys)
  {
    key = std::uint32_t(engine() >> 32) & 0xff00ffffu; // one pass of a single digit; duplicates
  }
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  device_buffer<std::uint32_t> d_keys_in(keys);
  device_buffer<std::uint32_t> d_values_in(positions);
  device_buffer<std::uint32_t> d_keys_out(n);
  device_buffer<std::uint32_t> d_values_out(n);
  device_buffer<std::int64_t> d_begin(layout.begin);
  device_buffer<std::int64_t> d_end(layout.end);
  for (bool double_buffer : {false, true})
  {
    const bool descending = double_buffer;
    INFO((double_buffer ? "DoubleBuffer, descending" : "pointers, ascending"));
    d_keys_in.upload(keys);
    d_values_in.upload(positions);
    d_keys_out.poison();
    d_values_out.poison();
    strata::DoubleBuffer<std::uint32_t> key_buffers(d_keys_in.data(), d_keys_out.data());
    strata::DoubleBuffer<std::uint32_t> value_buffers(d_values_in.data(), d_values_out.data());
    segmented_call call = make_call(double_buffer ? segmented_api::sort : segmented_api::radix, descending,
                                    double_buffer ? sort_form::double_buffer : sort_form::pointers);
    STRATA_TEST_CUDA(run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata_test::call_segmented_sort(
              call, d_temp, bytes, key_buffers, value_buffers, layout.num_items, layout.num_segments(),
              static_cast<const std::int64_t*>(d_begin.data()), static_cast<const std::int64_t*>(d_end.data()));
        }));
    const bool flipped = double_buffer && key_buffers.selector == 1;
    CHECK(key_buffers.selector == value_buffers.selector);
    const std::vector<std::uint32_t> got_keys   = (flipped || !double_buffer ? d_keys_out : d_keys_in).download();
    const std::vector<std::uint32_t> got_values = (flipped || !double_buffer ? d_values_out : d_values_in).download();
    // What the result's buffer held before, outside every segment.
    const std::uint32_t poison = strata_test::poison_value<std::uint32_t>();
    const bool was_input       = double_buffer && !flipped;
    std::vector<bool> inside(n, false);
    // Misplaced: a value from outside the segment or a key not its own; then out of order,
    // equal keys out of input order, an input position given twice, items outside the segments
    // changed.
    std::size_t misplaced = 0, unordered = 0, unstable = 0, repeated = 0, gaps = 0;
    std::ostringstream first_wrong;
    int reported      = 0;
    const auto report = [&](std::size_t s, std::size_t i, const char* what)
    {
      if (reported++ < 8)
      {
        first_wrong << "  " << what << " at item " << i << " (segment " << s << " [" << layout.begin[s] << ", "
                    << layout.end[s] << "), offset " << i - std::size_t(layout.begin[s]) << "): key " << got_keys[i]
                    << ", value " << got_values[i] << "\n";
      }
    };
    for (std::size_t s = 0; s < layout.begin.size(); ++s)
    {
      const std::size_t first = std::size_t(layout.begin[s]);
      const std::size_t last  = std::size_t(std::max(layout.begin[s], layout.end[s]));
      for (std::size_t i = first; i < last; ++i)
      {
        inside[i]                 = true;
        const std::uint32_t index = got_values[i];
        if (index < first || index >= last || keys[index] != got_keys[i])
        {
          ++misplaced;
          report(s, i, "misplaced");
          continue;
        }
        if (i > first)
        {
          const std::uint32_t a = got_keys[i - 1];
          const std::uint32_t b = got_keys[i];
          if (descending ? a < b : a > b)
          {
            ++unordered;
            report(s, i, "out of order");
          }
          else if (a == b && got_values[i - 1] >= index)
          {
            ++unstable;
            report(s, i, "unstable");
          }
        }
      }
    }
    std::vector<std::uint8_t> seen(n, 0);
    for (std::size_t i = 0; i < n; ++i)
    {
      if (inside[i] && got_values[i] < n)
      {
        repeated += seen[got_values[i]]++ != 0;
      }
      else if (!inside[i])
      {
        gaps += got_keys[i] != (was_input ? keys[i] : poison) || got_values[i] != (was_input ? positions[i] : poison);
      }
    }
    INFO("misplaced " << misplaced << ", out of order " << unordered << ", unstable " << unstable << ", repeated "
                      << repeated << ", gaps changed " << gaps << " (selector after: " << key_buffers.selector << ")\n"
                      << first_wrong.str());
    CHECK(misplaced + unordered + unstable + repeated + gaps == 0);
  }
}

namespace
{
//! The default policies with launch windows of WINDOW tiles: long segments then have chains in
//! many windows, as only sorts of over 2^28 items have with the default windows.
template <long long WINDOW>
struct small_window_hub
{
  struct Policy900 : strata::detail::segmented_sort::policy_hub<std::uint32_t, std::uint32_t>::Policy900
  {
    static constexpr long long WINDOW_TILES = WINDOW;
    using ActivePolicy                      = Policy900;
  };
  using MaxPolicy = Policy900;
};

template <bool DESCENDING, long long WINDOW>
cudaError_t sort_small_windows(void* d_temp, std::size_t& bytes, strata::DoubleBuffer<std::uint32_t>& keys,
                               strata::DoubleBuffer<std::uint32_t>& values, std::int64_t num_items,
                               const segment_layout& layout, const std::int64_t* d_begin, const std::int64_t* d_end,
                               int begin_bit, int end_bit)
{
  using DispatchT =
      strata::detail::segmented_sort::dispatch_t<DESCENDING, std::uint32_t, std::uint32_t, const std::int64_t*,
                                                 const std::int64_t*, small_window_hub<WINDOW>>;
  return DispatchT{d_temp,  bytes, keys,      values,  false,          std::uint64_t(num_items), layout.num_segments(),
                   d_begin, d_end, begin_bit, end_bit, cudaStream_t(0)}
      .template Invoke<typename small_window_hub<WINDOW>::Policy900>();
}
} // namespace

namespace
{
//! Pairs of u32 keys (a pass of one digit, and equal keys) on long segments sorted with launch
//! windows of three tiles, checked against a stable host sort of each segment, for each (descending,
//! begin_bit, end_bit) shape. A segment's tiles in several windows form several look-back chains;
//! a later chain's digit starts in a pass depend on where the pass before left the keys (not on
//! the input's counts). Under compute-sanitizer the segment of 100000 items (chains in six
//! windows; 50000 items have them in three) and most random lengths are left out.
void check_small_windows(std::uint64_t seed, const std::vector<std::tuple<bool, int, int>>& shapes)
{
  const bool reduced = strata_test::under_sanitizer();
  std::mt19937_64 engine(seed);
  std::vector<std::int64_t> lengths = {20000, 17, 9000, 50000, 8193, 3, 30000};
  if (!reduced)
  {
    lengths.push_back(100000);
  }
  const int extra = reduced ? 4 : 30;
  for (int i = 0; i < extra; ++i)
  {
    lengths.push_back(8193 + std::int64_t(engine() % 40000));
  }
  const segment_layout layout = strata_test::gapped_layout("long segments", lengths, seed + 1, 4);
  const std::size_t n         = std::size_t(layout.num_items);
  std::vector<std::uint32_t> keys(n);
  for (auto& key : keys)
  {
    key = std::uint32_t(engine() >> 32) & 0xff00ffffu; // a pass of one digit, and equal keys
  }
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  device_buffer<std::uint32_t> d_keys(keys);
  device_buffer<std::uint32_t> d_values(positions);
  device_buffer<std::uint32_t> d_keys_out(n);
  device_buffer<std::uint32_t> d_values_out(n);
  device_buffer<std::int64_t> d_begin(layout.begin);
  device_buffer<std::int64_t> d_end(layout.end);
  for (const auto& shape : shapes)
  {
    const bool descending = std::get<0>(shape);
    const int begin_bit   = std::get<1>(shape);
    const int end_bit     = std::get<2>(shape);
    INFO((descending ? "descending" : "ascending") << ", bits [" << begin_bit << ", " << end_bit << ")");
    d_keys_out.poison();
    d_values_out.poison();
    strata::DoubleBuffer<std::uint32_t> key_buffers(d_keys.data(), d_keys_out.data());
    strata::DoubleBuffer<std::uint32_t> value_buffers(d_values.data(), d_values_out.data());
    const auto run = [&](void* d_temp, std::size_t& bytes)
    {
      return descending ? sort_small_windows<true, 3>(d_temp, bytes, key_buffers, value_buffers, layout.num_items,
                                                      layout, d_begin.data(), d_end.data(), begin_bit, end_bit)
                        : sort_small_windows<false, 3>(d_temp, bytes, key_buffers, value_buffers, layout.num_items,
                                                       layout, d_begin.data(), d_end.data(), begin_bit, end_bit);
    };
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(run(nullptr, bytes));
    device_buffer<unsigned char> d_temp(bytes);
    d_temp.poison(); // the chains' look-back words must not rely on zeroed memory
    STRATA_TEST_CUDA(run(d_temp.data(), bytes));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const std::vector<std::uint32_t> got_keys   = d_keys_out.download();
    const std::vector<std::uint32_t> got_values = d_values_out.download();
    const std::uint32_t mask = end_bit - begin_bit >= 32 ? ~0u : ((1u << (end_bit - begin_bit)) - 1u) << begin_bit;
    std::size_t wrong        = 0;
    std::vector<bool> inside(n, false);
    for (std::size_t s = 0; s < layout.begin.size(); ++s)
    {
      if (layout.end[s] <= layout.begin[s])
      {
        continue;
      }
      std::fill(inside.begin() + layout.begin[s], inside.begin() + layout.end[s], true);
      std::vector<std::uint32_t> expected(positions.begin() + layout.begin[s], positions.begin() + layout.end[s]);
      std::stable_sort(expected.begin(), expected.end(),
                       [&](std::uint32_t a, std::uint32_t b) {
                         return descending ? (keys[a] & mask) > (keys[b] & mask) : (keys[a] & mask) < (keys[b] & mask);
                       });
      for (std::size_t i = 0; i < expected.size(); ++i)
      {
        const std::size_t at = std::size_t(layout.begin[s]) + i;
        wrong += got_values[at] != expected[i] || got_keys[at] != keys[expected[i]];
      }
    }
    // Items outside every segment keep the output's poison.
    const std::uint32_t poison = strata_test::poison_value<std::uint32_t>();
    for (std::size_t i = 0; i < n; ++i)
    {
      wrong += !inside[i] && (got_keys[i] != poison || got_values[i] != poison);
    }
    CHECK(wrong == 0);
  }
}
} // namespace

TEST_CASE("Long segments whose tiles fill several launch windows sort as in one window", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(811);
  INFO("seed " << seed);
  check_small_windows(seed, {{false, 0, 32}, {true, 0, 32}});
}

TEST_CASE("Long segments whose tiles fill several launch windows sort by bit ranges as in one window", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(811);
  INFO("seed " << seed);
  check_small_windows(seed, {{false, 4, 28}, {true, 16, 24}});
}

namespace
{
//! Two sorts (DeviceSegmentedRadixSort of pairs over every bin with gaps, StableSortPairsDescending
//! over power-law lengths) on two streams at once, then a third (a DoubleBuffer form) on a stream
//! of its own; or (graph) both captured in a CUDA graph and replayed.
void check_concurrent_sorts(std::uint64_t seed, bool graph)
{
  const bool reduced        = strata_test::under_sanitizer();
  const segment_layout bins = strata_test::gapped_layout(
      "every bin with gaps", strata_test::bin_edge_lengths<std::uint32_t, std::uint32_t>(seed, reduced), seed + 1, 20);
  const segment_layout power = strata_test::contiguous_layout(
      "power law", strata_test::power_law_lengths(reduced ? 1 << 17 : 1 << 20, 200000, seed + 2));
  using case_t = strata_test::segmented_sort_case<std::uint32_t, std::uint32_t>;
  case_t a(strata_test::segmented_keys<std::uint32_t>(bins, strata_test::segment_keys::mixed, seed + 3), bins,
           make_call(segmented_api::radix, false, sort_form::pointers));
  case_t b(strata_test::segmented_keys<std::uint32_t>(power, strata_test::segment_keys::few_values, seed + 4), power,
           make_call(segmented_api::stable_sort, true, sort_form::pointers));
  a.reset();
  b.reset();
  std::size_t bytes_a = 0;
  std::size_t bytes_b = 0;
  STRATA_TEST_CUDA(a.run(nullptr, bytes_a));
  STRATA_TEST_CUDA(b.run(nullptr, bytes_b));
  device_buffer<unsigned char> d_temp_a(bytes_a);
  device_buffer<unsigned char> d_temp_b(bytes_b);
  d_temp_a.poison();
  d_temp_b.poison();

  const strata_test::stream_pair streams;
  if (!graph)
  {
    INFO("two streams");
    strata_test::run_on_two_streams(
        streams, [&](cudaStream_t s) { return a.run(d_temp_a.data(), bytes_a, s); },
        [&](cudaStream_t s) { return b.run(d_temp_b.data(), bytes_b, s); });
    a.verify();
    b.verify();
  }
  else
  {
    INFO("a CUDA graph of both sorts");
    strata_test::check_graph_replay(
        streams[0],
        [&](cudaStream_t s)
        {
          const cudaError_t first  = a.run(d_temp_a.data(), bytes_a, s);
          const cudaError_t second = b.run(d_temp_b.data(), bytes_b, s);
          return first != cudaSuccess ? first : second;
        },
        [&]
        {
          a.reset();
          b.reset();
        },
        [&]
        {
          a.verify();
          b.verify();
        });
  }
  if (!graph)
  {
    INFO("a DoubleBuffer form on a stream of its own");
    case_t c(strata_test::segmented_keys<std::uint32_t>(bins, strata_test::segment_keys::random, seed + 5), bins,
             make_call(segmented_api::sort, true, sort_form::double_buffer));
    c.reset();
    std::size_t bytes_c = 0;
    STRATA_TEST_CUDA(c.run(nullptr, bytes_c, streams[1]));
    device_buffer<unsigned char> d_temp_c(bytes_c);
    d_temp_c.poison();
    STRATA_TEST_CUDA(c.run(d_temp_c.data(), bytes_c, streams[1]));
    STRATA_TEST_CUDA(cudaStreamSynchronize(streams[1]));
    c.verify();
  }
}
} // namespace

TEST_CASE("The segmented sorts run on two streams at once", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(541);
  INFO("seed " << seed);
  check_concurrent_sorts(seed, false);
}

TEST_CASE("The segmented sorts are captured in a CUDA graph and replayed", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(541);
  INFO("seed " << seed);
  check_concurrent_sorts(seed, true);
}

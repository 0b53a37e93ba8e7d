// Tests of strata/device/device_batched_topk.cuh: the k best keys (and values) of each segment,
// best first and the earlier item first among equal keys, checked against a stable sort on the
// host; segment sizes and k uniform or per segment (device iterators), segments that fit a block's
// buffer, that a sample filters into it, and that are read from global memory a window of ranks at
// a time; a k above its segment's size, misaligned segments, ties, poisoned outputs, bad arguments,
// and a segment of more than 2^31 keys ([slow]).
#include <strata/device/device_batched_topk.cuh>
#include <strata/iterator/constant_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"
#include "topk_test_common.cuh"

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

using namespace topk_test;
using strata_test::device_buffer;

namespace
{
//! The candidates a block keeps for 4-byte keys (32 KiB of 8-byte candidates).
constexpr std::size_t buffer_items = 4096;

//! A value that tells an item's position in the batch's key buffer.
std::uint32_t value_of(std::size_t position)
{
  return std::uint32_t(position * 2654435761u + 12345u);
}

//! One batch: the keys of each segment and each segment's requested k (negative, or above the
//! segment's size, where the test says so).
template <typename T>
struct batch
{
  std::vector<std::vector<T>> segments;
  std::vector<long long> ks;
};

//! How a call passes segment sizes and k: one plain integer for all, or a device iterator.
enum class form
{
  uniform,
  per_segment
};

template <bool MAX, bool PAIRS, typename T, typename SizesT, typename KsT>
cudaError_t call_batched(void* d_temp, std::size_t& bytes, const T* const* d_in, T* const* d_out,
                         const std::uint32_t* const* d_values_in, std::uint32_t* const* d_values_out, SizesT sizes,
                         KsT ks, std::int64_t num_segments)
{
  if constexpr (PAIRS)
  {
    return MAX ? strata::DeviceBatchedTopK::MaxPairs(d_temp, bytes, d_in, d_out, d_values_in, d_values_out, sizes, ks,
                                                     num_segments)
               : strata::DeviceBatchedTopK::MinPairs(d_temp, bytes, d_in, d_out, d_values_in, d_values_out, sizes, ks,
                                                     num_segments);
  }
  else
  {
    return MAX ? strata::DeviceBatchedTopK::MaxKeys(d_temp, bytes, d_in, d_out, sizes, ks, num_segments)
               : strata::DeviceBatchedTopK::MinKeys(d_temp, bytes, d_in, d_out, sizes, ks, num_segments);
  }
}

//! Runs one batch through DeviceBatchedTopK and checks every segment's output and the poison past
//! it. `misalign` items of padding come before each segment (so that 16-byte loads do not fit),
//! and SizeT is the type of the segment sizes (64 bits: 64-bit indices within a segment).
template <bool MAX, bool PAIRS, typename SizeT, typename T>
void check_batch(const batch<T>& b, form sizes_form, form k_form, std::size_t misalign)
{
  const std::size_t num_segments = b.segments.size();
  std::vector<std::size_t> in_offsets(num_segments);
  std::vector<std::size_t> out_offsets(num_segments);
  std::vector<std::size_t> k_of(num_segments);
  std::vector<T> keys;
  std::size_t out_items = 0;
  for (std::size_t s = 0; s < num_segments; ++s)
  {
    keys.resize(keys.size() + misalign, T{});
    in_offsets[s] = keys.size();
    keys.insert(keys.end(), b.segments[s].begin(), b.segments[s].end());
    const long long size = static_cast<long long>(b.segments[s].size());
    k_of[s]              = std::size_t(std::clamp(b.ks[s], 0ll, size));
    out_offsets[s]       = out_items;
    out_items += k_of[s] + slack;
  }
  std::vector<std::uint32_t> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    values[i] = value_of(i);
  }
  device_buffer<T> d_keys(keys);
  device_buffer<std::uint32_t> d_values(values);
  device_buffer<T> d_out(out_items + 1);
  device_buffer<std::uint32_t> d_values_out(out_items + 1);
  std::vector<const T*> in_ptrs(num_segments);
  std::vector<T*> out_ptrs(num_segments);
  std::vector<const std::uint32_t*> value_in_ptrs(num_segments);
  std::vector<std::uint32_t*> value_out_ptrs(num_segments);
  std::vector<SizeT> sizes(num_segments);
  std::vector<long long> ks(b.ks);
  for (std::size_t s = 0; s < num_segments; ++s)
  {
    in_ptrs[s]        = d_keys.data() + in_offsets[s];
    out_ptrs[s]       = d_out.data() + out_offsets[s];
    value_in_ptrs[s]  = d_values.data() + in_offsets[s];
    value_out_ptrs[s] = d_values_out.data() + out_offsets[s];
    sizes[s]          = SizeT(b.segments[s].size());
  }
  device_buffer<const T*> d_in_ptrs(in_ptrs);
  device_buffer<T*> d_out_ptrs(out_ptrs);
  device_buffer<const std::uint32_t*> d_value_in_ptrs(value_in_ptrs);
  device_buffer<std::uint32_t*> d_value_out_ptrs(value_out_ptrs);
  device_buffer<SizeT> d_sizes(sizes);
  device_buffer<long long> d_ks(ks);
  d_out.poison();
  d_values_out.poison();

  auto run = [&](auto sizes_param, auto k_param)
  {
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return call_batched<MAX, PAIRS>(d_temp, bytes, static_cast<const T* const*>(d_in_ptrs.data()),
                                          static_cast<T* const*>(d_out_ptrs.data()),
                                          static_cast<const std::uint32_t* const*>(d_value_in_ptrs.data()),
                                          static_cast<std::uint32_t* const*>(d_value_out_ptrs.data()), sizes_param,
                                          k_param, std::int64_t(num_segments));
        });
  };
  const SizeT uniform_size  = num_segments > 0 ? sizes[0] : SizeT(0);
  const long long uniform_k = num_segments > 0 ? ks[0] : 0;
  if (sizes_form == form::uniform && k_form == form::uniform)
  {
    run(uniform_size, uniform_k);
  }
  else if (sizes_form == form::uniform)
  {
    run(uniform_size, static_cast<const long long*>(d_ks.data()));
  }
  else if (k_form == form::uniform)
  {
    run(static_cast<const SizeT*>(d_sizes.data()), uniform_k);
  }
  else
  {
    run(static_cast<const SizeT*>(d_sizes.data()), static_cast<const long long*>(d_ks.data()));
  }

  const std::vector<T> out              = d_out.download();
  const std::vector<std::uint32_t> vout = d_values_out.download();
  const T poison                        = strata_test::poison_value<T>();
  const std::uint32_t value_poison      = strata_test::poison_value<std::uint32_t>();
  std::size_t wrong                     = 0;
  for (std::size_t s = 0; s < num_segments; ++s)
  {
    const std::vector<std::size_t> order = reference_order(b.segments[s], MAX);
    for (std::size_t i = 0; i < k_of[s] + slack; ++i)
    {
      const std::size_t at = out_offsets[s] + i;
      const bool winner    = i < k_of[s];
      const bool key_ok =
          winner ? bits_of(out[at]) == bits_of(b.segments[s][order[i]]) : bits_of(out[at]) == bits_of(poison);
      const bool value_ok =
          !PAIRS || (winner ? vout[at] == value_of(in_offsets[s] + order[i]) : vout[at] == value_poison);
      if ((!key_ok || !value_ok) && wrong++ < 3)
      {
        FAIL_CHECK("segment " << s << " (" << b.segments[s].size() << " items, k " << k_of[s] << "): output " << i
                              << (winner ? "" : " (past k)") << (key_ok ? "" : " has the wrong key")
                              << (value_ok ? "" : " has the wrong value"));
      }
    }
  }
  CHECK(wrong == 0);
}

//! A batch of segments of the given sizes and requested k, keys of the given shape.
template <typename T>
batch<T> make_batch(const std::vector<std::size_t>& sizes, const std::vector<long long>& ks, shape s,
                    std::uint64_t seed)
{
  batch<T> b;
  for (std::size_t i = 0; i < sizes.size(); ++i)
  {
    b.segments.push_back(make_keys<T>(sizes[i], s, seed + i));
  }
  b.ks = ks;
  return b;
}

//! Segments of every path: sizes around the block's buffer, a segment the sample filters, one
//! read a window of ranks at a time (k above the buffer), empty and one-item segments, k of 0, k
//! above the size and a negative k.
inline std::vector<std::size_t> mixed_sizes()
{
  if (strata_test::under_sanitizer())
  {
    return {0, 1, 64, buffer_items + 1, 20000, 10000};
  }
  return {0, 1, 2, 33, 64, 255, buffer_items - 1, buffer_items, buffer_items + 1, 20000, 300000, 10000, 9000, 70001};
}
inline std::vector<long long> mixed_ks()
{
  if (strata_test::under_sanitizer())
  {
    return {5, 1, 8, 50, 100, 9000};
  }
  return {5, 1, 3, 40, 8, -4, buffer_items - 1, 1000, buffer_items + 1, 50, 64, 9000, 0, 4097 + 4096};
}

template <typename T>
void check_mixed()
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(901);
  INFO("seed " << seed);
  for (shape s : {shape::random_bits, shape::duplicates, shape::all_equal})
  {
    INFO(shape_name(s));
    const batch<T> b = make_batch<T>(mixed_sizes(), mixed_ks(), s, seed + std::uint64_t(s));
    // Plain calls, not Catch2 sections: sections inside a loop would run for its first turn only.
    check_batch<true, false, int>(b, form::per_segment, form::per_segment, 0);
    check_batch<false, false, int>(b, form::per_segment, form::per_segment, 1); // misaligned segments
  }
}
} // namespace

TEMPLATE_TEST_CASE("DeviceBatchedTopK returns each segment's k best keys, best first (per-segment sizes and k)",
                   "[device][topk][batched]", float, std::uint32_t, __half, std::int8_t, double)
{
  check_mixed<TestType>();
}

TEST_CASE("DeviceBatchedTopK::MaxPairs and MinPairs move each winner's value", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(902);
  INFO("seed " << seed);
  for (shape s : {shape::random_bits, shape::few_values})
  {
    INFO(shape_name(s));
    const batch<float> b = make_batch<float>(mixed_sizes(), mixed_ks(), s, seed + std::uint64_t(s));
    check_batch<true, true, int>(b, form::per_segment, form::per_segment, 1);
    check_batch<false, true, int>(b, form::per_segment, form::per_segment, 0);
  }
  // 64-bit keys: the small-segment path orders (key, index) pairs that do not fit one word.
  const batch<double> wide = make_batch<double>(mixed_sizes(), mixed_ks(), shape::few_values, seed + 7);
  check_batch<true, true, int>(wide, form::per_segment, form::per_segment, 0);
}

TEST_CASE("DeviceBatchedTopK takes a uniform segment size and k as plain integers (a thread or a block per segment)",
          "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(903);
  INFO("seed " << seed);
  // Segments of at most 2048 keys with k of at most 32 take a thread each (K = 8, 16 or 32), the
  // rest a block: sizes and k on both sides of those limits.
  const std::vector<std::size_t> sizes =
      strata_test::under_sanitizer() ? std::vector<std::size_t>{64, 2049, buffer_items + 1}
                                     : std::vector<std::size_t>{1, 33, 64, 1024, 2048, 2049, buffer_items + 1, 100000};
  const std::vector<std::size_t> small_ks = strata_test::under_sanitizer()
                                                ? std::vector<std::size_t>{1, 9, 17, 33}
                                                : std::vector<std::size_t>{1, 8, 9, 16, 17, 32, 33};
  for (std::size_t n : sizes)
  {
    std::vector<std::size_t> ks = small_ks;
    ks.push_back(n / 2 + 1);
    ks.push_back(n);
    for (std::size_t k : ks)
    {
      if (k > n)
      {
        continue; // a uniform k above a uniform size is a bad argument
      }
      INFO("segments of " << n << ", k " << k);
      const std::size_t num_segments = n >= 4096 ? 3 : 37;
      const batch<float> b           = make_batch<float>(std::vector<std::size_t>(num_segments, n),
                                               std::vector<long long>(num_segments, static_cast<long long>(k)),
                                               shape::duplicates, seed + n + k);
      check_batch<true, false, int>(b, form::uniform, form::uniform, 0);
      check_batch<false, true, unsigned>(b, form::uniform, form::uniform, 1);
      check_batch<true, false, int>(b, form::per_segment, form::uniform, 0);
      check_batch<false, false, int>(b, form::uniform, form::per_segment, 0);
    }
  }
}

TEST_CASE("DeviceBatchedTopK selects many small segments", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(904);
  INFO("seed " << seed);
  const std::size_t num_segments = strata_test::under_sanitizer() ? 300 : 20000;
  const batch<float> b           = make_batch<float>(std::vector<std::size_t>(num_segments, 64),
                                           std::vector<long long>(num_segments, 8), shape::random_bits, seed);
  check_batch<true, false, int>(b, form::uniform, form::uniform, 0);
}

TEST_CASE("DeviceBatchedTopK takes many segments of per-segment sizes and k, small and large",
          "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(907);
  INFO("seed " << seed);
  // Most segments go a thread each, those of more than 2048 keys or k above 32 to the list that
  // the block kernel works through: many warps append to it at once.
  const std::size_t num_segments = strata_test::under_sanitizer() ? 300 : 6000;
  std::mt19937 engine{std::uint32_t(seed)};
  std::vector<std::size_t> sizes(num_segments);
  std::vector<long long> ks(num_segments);
  for (std::size_t i = 0; i < num_segments; ++i)
  {
    sizes[i] = std::uniform_int_distribution<std::size_t>(0, 2600)(engine);
    ks[i]    = std::uniform_int_distribution<long long>(-1, 40)(engine);
  }
  const batch<float> b = make_batch<float>(sizes, ks, shape::duplicates, seed);
  check_batch<true, false, int>(b, form::per_segment, form::per_segment, 0);
  check_batch<false, true, int>(b, form::per_segment, form::per_segment, 1);
}

TEST_CASE("DeviceBatchedTopK falls back from a sample that misleads", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(905);
  INFO("seed " << seed);
  // The sample reads items n * s / 4096: where those hold the largest keys, the threshold keeps
  // fewer than k items; where they hold the smallest, it keeps more than the buffer holds.
  const std::size_t n = 200000;
  batch<float> b;
  for (bool sampled_best : {true, false})
  {
    std::mt19937 engine(std::uint32_t(seed + sampled_best));
    std::vector<float> keys(n);
    for (float& key : keys)
    {
      key = std::uniform_real_distribution<float>(1.0f, 2.0f)(engine);
    }
    for (std::size_t s = 0; s < buffer_items; ++s)
    {
      keys[n * s / buffer_items] = sampled_best ? 10.0f + float(s) : -1.0f;
    }
    b.segments.push_back(keys);
    b.ks.push_back(300); // small enough that the sample's threshold is used at all
  }
  check_batch<true, true, int>(b, form::per_segment, form::per_segment, 0);
}

TEST_CASE("DeviceBatchedTopK indexes segments with 64-bit sizes", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(906);
  INFO("seed " << seed);
  const batch<std::int64_t> b = make_batch<std::int64_t>(mixed_sizes(), mixed_ks(), shape::duplicates, seed);
  check_batch<true, false, std::int64_t>(b, form::per_segment, form::per_segment, 0);
}

namespace
{
//! Key i of the iterator segments: i mod 101, so that every key occurs many times.
struct mod_101
{
  __host__ __device__ std::int8_t operator()(std::int64_t i) const
  {
    return std::int8_t(i % 101);
  }
};
} // namespace

TEST_CASE("DeviceBatchedTopK selects from a segment of more than 2^31 keys", "[device][topk][batched][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  // Every segment's keys are i mod 101 for its positions i (no memory); values are the positions.
  // The first segment has more than 2^31 items (64-bit indices), the second 1000.
  using counting = strata::CountingInputIterator<std::int64_t>;
  using keys_it  = strata::TransformInputIterator<std::int8_t, mod_101, counting>;
  const strata::ConstantInputIterator<keys_it> segments_in(keys_it(counting(0), mod_101{}));
  const strata::ConstantInputIterator<counting> values_in(counting(0));
  const std::vector<std::int64_t> sizes = {(std::int64_t(1) << 31) + 4097, 1000};
  const std::vector<std::int64_t> ks    = {1000, 7};
  device_buffer<std::int64_t> d_sizes(sizes);
  device_buffer<std::int64_t> d_ks(ks);
  device_buffer<std::int8_t> d_keys_out(2 * (1000 + slack));
  device_buffer<std::int64_t> d_values_out(2 * (1000 + slack));
  const std::vector<std::int8_t*> key_ptrs    = {d_keys_out.data(), d_keys_out.data() + 1000 + slack};
  const std::vector<std::int64_t*> value_ptrs = {d_values_out.data(), d_values_out.data() + 1000 + slack};
  device_buffer<std::int8_t*> d_key_ptrs(key_ptrs);
  device_buffer<std::int64_t*> d_value_ptrs(value_ptrs);
  d_keys_out.poison();
  d_values_out.poison();
  strata_test::run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      {
        return strata::DeviceBatchedTopK::MaxPairs(
            d_temp, bytes, segments_in, d_key_ptrs.data(), values_in, d_value_ptrs.data(),
            static_cast<const std::int64_t*>(d_sizes.data()), static_cast<const std::int64_t*>(d_ks.data()), 2);
      });
  const std::vector<std::int8_t> keys_out    = d_keys_out.download();
  const std::vector<std::int64_t> values_out = d_values_out.download();
  // The host's order of the second segment; the first's winners are the positions of key 100.
  std::vector<std::int8_t> second(1000);
  for (std::size_t i = 0; i < second.size(); ++i)
  {
    second[i] = mod_101{}(std::int64_t(i));
  }
  const std::vector<std::size_t> order = reference_order(second, true);
  std::size_t wrong                    = 0;
  for (std::size_t i = 0; i < 1000; ++i)
  {
    wrong += keys_out[i] != 100 || values_out[i] != 100 + 101 * std::int64_t(i);
  }
  for (std::size_t i = 0; i < 7; ++i)
  {
    const std::size_t at = 1000 + slack + i;
    wrong += keys_out[at] != second[order[i]] || values_out[at] != std::int64_t(order[i]);
  }
  CHECK(wrong == 0);
  CHECK(keys_out[1000] == strata_test::poison_value<std::int8_t>());
  CHECK(keys_out[1000 + slack + 7] == strata_test::poison_value<std::int8_t>());
}

TEST_CASE("DeviceBatchedTopK rejects bad arguments before it writes anything", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  device_buffer<const float*> d_in(1);
  device_buffer<float*> d_out(1);
  std::size_t bytes      = 0;
  const float* const* in = d_in.data();
  float* const* out      = d_out.data();
  CHECK(strata::DeviceBatchedTopK::MaxKeys(nullptr, bytes, in, out, 10, 3, -1) == cudaErrorInvalidValue);
  CHECK(strata::DeviceBatchedTopK::MaxKeys(nullptr, bytes, in, out, -10, 3, 1) == cudaErrorInvalidValue);
  CHECK(strata::DeviceBatchedTopK::MaxKeys(nullptr, bytes, in, out, 10, -3, 1) == cudaErrorInvalidValue);
  CHECK(strata::DeviceBatchedTopK::MaxKeys(nullptr, bytes, in, out, 10, 11, 1) == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceBatchedTopK::MaxKeys(nullptr, bytes, in, out, 10, 3, 1) == cudaSuccess);
  CHECK(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  CHECK(
      strata::DeviceBatchedTopK::MaxKeys(d_temp.data(), bytes, static_cast<const float* const*>(nullptr), out, 10, 3, 1)
      == cudaErrorInvalidValue);
  CHECK(strata::DeviceBatchedTopK::MaxKeys(d_temp.data(), bytes, in, out, static_cast<const int*>(nullptr), 3, 1)
        == cudaErrorInvalidValue);
  std::size_t too_few = 0;
  CHECK(strata::DeviceBatchedTopK::MaxKeys(d_temp.data(), too_few, in, out, 10, 3, 1) == cudaErrorInvalidValue);
  // No segments, or k = 0: nothing to do, and nothing read.
  CHECK(strata::DeviceBatchedTopK::MaxKeys(d_temp.data(), bytes, in, out, 10, 3, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

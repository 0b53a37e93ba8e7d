// Tests of strata/device/device_batched_topk.cuh, the part of test_device_batched_topk.cu's cases
// that takes other keys (split so that each file compiles in about half the time): the narrowest
// and the widest keys, MaxPairs and MinPairs, segments indexed with 64-bit sizes, and a segment of
// more than 2^31 keys ([slow]).
#include <strata/iterator/constant_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "batched_topk_test_common.cuh"

using namespace batched_topk_test;

TEMPLATE_TEST_CASE(
    "DeviceBatchedTopK returns each segment's k best keys, best first (per-segment sizes and k, other keys)",
    "[device][topk][batched]", std::int8_t, double)
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
    check_batch<true, true, int, form::per_segment, form::per_segment>(b, 1);
    check_batch<false, true, int, form::per_segment, form::per_segment>(b, 0);
  }
  // 64-bit keys: the small-segment path orders (key, index) pairs that do not fit one word.
  const batch<double> wide = make_batch<double>(mixed_sizes(), mixed_ks(), shape::few_values, seed + 7);
  check_batch<true, true, int, form::per_segment, form::per_segment>(wide, 0);
}

TEST_CASE("DeviceBatchedTopK indexes segments with 64-bit sizes", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(906);
  INFO("seed " << seed);
  const batch<std::int64_t> b = make_batch<std::int64_t>(mixed_sizes(), mixed_ks(), shape::duplicates, seed);
  check_batch<true, false, std::int64_t, form::per_segment, form::per_segment>(b, 0);
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

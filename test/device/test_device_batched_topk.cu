// Tests of strata/device/device_batched_topk.cuh: the k best keys (and values) of each segment,
// best first and the earlier item first among equal keys, checked against a stable sort on the
// host, with segment sizes and k per segment (device iterators): segments that fit a block's
// buffer, that a sample filters into it, and that are read from global memory a window of ranks at
// a time; a k above its segment's size, misaligned segments, ties, poisoned outputs and bad
// arguments. test_device_batched_topk_other_keys.cu takes the narrowest and widest keys, pairs,
// 64-bit sizes and a segment of more than 2^31 keys; test_device_batched_topk_uniform.cu takes
// sizes and k as plain integers.
#include "batched_topk_test_common.cuh"

using namespace batched_topk_test;

TEMPLATE_TEST_CASE("DeviceBatchedTopK returns each segment's k best keys, best first (per-segment sizes and k)",
                   "[device][topk][batched]", float, std::uint32_t, __half)
{
  check_mixed<TestType>();
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
  check_batch<true, false, int, form::per_segment, form::per_segment>(b, 0);
  check_batch<false, true, int, form::per_segment, form::per_segment>(b, 1);
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

// Tests of strata/device/device_batched_topk.cuh with the segment size and k as plain integers
// (the same for every segment): a thread per small segment (K = 8, 16 or 32), a block per larger
// one, several blocks filtering each large one, and samples that mislead the filter.
#include "batched_topk_test_common.cuh"

using namespace batched_topk_test;

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
      check_batch<true, false, int, form::uniform, form::uniform>(b, 0);
      check_batch<false, true, unsigned, form::uniform, form::uniform>(b, 1);
      check_batch<true, false, int, form::per_segment, form::uniform>(b, 0);
      check_batch<false, false, int, form::uniform, form::per_segment>(b, 0);
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
  check_batch<true, false, int, form::uniform, form::uniform>(b, 0);
}

TEST_CASE("DeviceBatchedTopK falls back from a sample that misleads", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(905);
  INFO("seed " << seed);
  // The sample reads items n * s / 4096. Where those hold the largest keys, both thresholds keep
  // fewer than k items; where they hold the smallest, more than the buffer holds: the block reads
  // the segment instead. In the third segment the samples' 40 best (100 - s) set the thresholds at
  // 80 (the 21st best, k = 300 of 200000 keys) and 87 (the 14th); 5000 other keys of 85 and 1000
  // of 95 make the first keep too many, and the second, higher one keeps 1014.
  const std::size_t n = 200000;
  batch<float> b;
  for (int layout = 0; layout < 3; ++layout)
  {
    std::mt19937 engine(std::uint32_t(seed + std::uint64_t(layout)));
    std::vector<float> keys(n);
    for (float& key : keys)
    {
      key = std::uniform_real_distribution<float>(1.0f, 2.0f)(engine);
    }
    std::vector<bool> sampled(n, false);
    for (std::size_t s = 0; s < buffer_items; ++s)
    {
      const std::size_t at = n * s / buffer_items;
      sampled[at]          = true;
      keys[at]             = layout == 0 ? 10.0f + float(s) : layout == 1 ? -1.0f : (s < 40 ? 100.0f - float(s) : 1.5f);
    }
    if (layout == 2)
    {
      std::size_t placed = 0;
      for (std::size_t i = 7; i < n && placed < 6000; i += 13)
      {
        if (!sampled[i])
        {
          keys[i] = placed < 5000 ? 85.0f : 95.0f;
          ++placed;
        }
      }
    }
    b.segments.push_back(keys);
    b.ks.push_back(300); // small enough that the sample's threshold is used at all
  }
  check_batch<true, true, int, form::per_segment, form::per_segment>(b, 0);
  // The same as a uniform size and k: several blocks filter each segment, then select from the
  // candidates of the second threshold or fall back.
  check_batch<true, true, int, form::uniform, form::uniform>(b, 0);
}

TEST_CASE("DeviceBatchedTopK filters large uniform segments with several blocks each", "[device][topk][batched]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(908);
  INFO("seed " << seed);
  // Uniform segments of at least 2^17 keys are filtered by a block per 2^16 keys (f32): sizes at
  // that limit, between parts and of many parts; k small, larger than a block, and 1.
  const std::vector<std::size_t> sizes = strata_test::under_sanitizer()
                                             ? std::vector<std::size_t>{131072, 200001}
                                             : std::vector<std::size_t>{131071, 131072, 200001, 1 << 20};
  for (std::size_t n : sizes)
  {
    for (std::size_t k : {std::size_t(1), std::size_t(64), std::size_t(1000)})
    {
      for (shape s : {shape::random_bits, shape::duplicates})
      {
        INFO("segments of " << n << ", k " << k << ", " << shape_name(s));
        const std::size_t num_segments = n > 500000 ? 3 : 5;
        const batch<float> b           = make_batch<float>(std::vector<std::size_t>(num_segments, n),
                                                 std::vector<long long>(num_segments, static_cast<long long>(k)), s,
                                                 seed + n + k + std::uint64_t(s));
        check_batch<true, false, int, form::uniform, form::uniform>(b, 0);
        check_batch<false, true, unsigned, form::uniform, form::uniform>(b, 1);
      }
    }
  }
}

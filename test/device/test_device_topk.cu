// Tests of strata/device/device_topk.cuh against a host stable sort of the indices by key (keys
// ordered by their bits as DeviceRadixSort orders them, the earlier item first among equal keys)
// cut after k (topk_test_common.cuh): keys of float, __half and int8 from random bit patterns
// (NaNs, infinities and both zeros among them), from a few distinct values (long runs of ties)
// and all equal; sizes from 0 through both sides of a tile to 2^20 + 123; k from 0 to num_items.
// Outputs past k must keep their poison. Also: pairs (values follow keys, ties go to the earlier
// item), the single-call forms, iterator inputs, a stream and bad arguments. The other key types,
// graphs, streams and 2^31 keys are in test_device_topk_wide.cu, user key types in
// test_device_topk_user.cu.
#include <strata/device/device_topk.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"
#include "topk_test_common.cuh"

#include <cuda/std/tuple>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using namespace topk_test;
using strata_test::device_buffer;

TEMPLATE_TEST_CASE("DeviceTopK::MaxKeys and MinKeys return the k best keys, best first (narrow keys)", "[device][topk]",
                   float, __half, std::int8_t)
{
  check_max_min_keys<TestType>();
}

TEST_CASE("DeviceTopK::MaxPairs and MinPairs move each key's value and give ties to the earlier item", "[device][topk]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(813);
  INFO("seed " << seed);
  std::vector<std::size_t> pair_sizes = {1, 33, tile + 1, 70001};
  if (!strata_test::under_sanitizer())
  {
    pair_sizes.push_back(3000017); // more candidates than a buffer holds: passes read the input again
  }
  for (std::size_t n : pair_sizes)
  {
    for (shape s : shapes())
    {
      INFO("num_items " << n << ", " << shape_name(s));
      const std::vector<float> keys = make_keys<float>(n, s, seed + n + std::uint64_t(s));
      std::vector<std::uint32_t> values(n);
      std::iota(values.begin(), values.end(), std::uint32_t(0));
      device_buffer<float> d_keys(keys);
      device_buffer<std::uint32_t> d_values(values);
      for (bool max : {true, false})
      {
        INFO((max ? "MaxPairs" : "MinPairs"));
        const std::vector<std::size_t> order = reference_order(keys, max);
        for (std::size_t k : ks_for(n))
        {
          INFO("k " << k);
          device_buffer<float> d_keys_out(k + slack);
          device_buffer<std::uint32_t> d_values_out(k + slack);
          d_keys_out.poison();
          d_values_out.poison();
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return max ? strata::DeviceTopK::MaxPairs(d_temp, bytes, static_cast<const float*>(d_keys.data()),
                                                          d_keys_out.data(),
                                                          static_cast<const std::uint32_t*>(d_values.data()),
                                                          d_values_out.data(), std::int64_t(n), std::int64_t(k))
                           : strata::DeviceTopK::MinPairs(d_temp, bytes, static_cast<const float*>(d_keys.data()),
                                                          d_keys_out.data(),
                                                          static_cast<const std::uint32_t*>(d_values.data()),
                                                          d_values_out.data(), std::int64_t(n), std::int64_t(k));
              });
          check_keys(keys, order, k, d_keys_out.download());
          const std::vector<std::uint32_t> got = d_values_out.download();
          std::size_t wrong                    = 0;
          for (std::size_t i = 0; i < k; ++i)
          {
            wrong += got[i] != std::uint32_t(order[i]);
          }
          CHECK(wrong == 0);
          for (std::size_t i = k; i < k + slack; ++i)
          {
            CHECK(got[i] == strata_test::poison_value<std::uint32_t>());
          }
        }
      }
    }
  }
}

TEST_CASE("DeviceTopK's single-call forms take iterators and a stream", "[device][topk]")
{
  STRATA_TEST_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int n = 100000;
  const int k = 100;
  // The keys 0, 1, ..., n - 1 from an iterator: the largest are n - 1 downwards, the smallest 0 up.
  strata::CountingInputIterator<int> keys(0);
  device_buffer<int> d_keys_out(k);
  device_buffer<long long> d_values_out(k);
  strata::CountingInputIterator<long long> values(1000);
  STRATA_TEST_CUDA(strata::DeviceTopK::MaxPairs(keys, d_keys_out.data(), values, d_values_out.data(), n, k, stream));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  std::vector<int> got_keys         = d_keys_out.download();
  std::vector<long long> got_values = d_values_out.download();
  for (int i = 0; i < k; ++i)
  {
    CHECK(got_keys[i] == n - 1 - i);
    CHECK(got_values[i] == 1000 + n - 1 - i);
  }
  STRATA_TEST_CUDA(strata::DeviceTopK::MinKeys(keys, d_keys_out.data(), n, k, stream));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  got_keys = d_keys_out.download();
  for (int i = 0; i < k; ++i)
  {
    CHECK(got_keys[i] == i);
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceTopK rejects bad arguments before writing anything", "[device][topk]")
{
  std::size_t bytes = 0;
  float* d_in       = reinterpret_cast<float*>(std::uintptr_t(256));
  float* d_out      = reinterpret_cast<float*>(std::uintptr_t(512));
  void* d_temp      = reinterpret_cast<void*>(std::uintptr_t(1024));
  std::size_t big   = 1 << 20;
  CHECK(strata::DeviceTopK::MaxKeys(nullptr, bytes, d_in, d_out, -1, 0) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTopK::MaxKeys(nullptr, bytes, d_in, d_out, 10, -1) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTopK::MinKeys(nullptr, bytes, d_in, d_out, 10, 11) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTopK::MaxKeys(d_temp, big, static_cast<const float*>(nullptr), d_out, 10, 3)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceTopK::MaxKeys(d_temp, big, d_in, static_cast<float*>(nullptr), 10, 3) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTopK::MaxPairs(d_temp, big, d_in, d_out, static_cast<const int*>(nullptr),
                                     reinterpret_cast<int*>(d_out), 10, 3)
        == cudaErrorInvalidValue);
  if (strata_test::gpu_available())
  {
    // Too little temporary storage: refused, and the output keeps its poison.
    device_buffer<float> d_keys(std::vector<float>(1000, 1.0f));
    device_buffer<float> d_top(10);
    d_top.poison();
    std::size_t need = 0;
    STRATA_TEST_CUDA(
        strata::DeviceTopK::MaxKeys(nullptr, need, static_cast<const float*>(d_keys.data()), d_top.data(), 1000, 10));
    device_buffer<unsigned char> d_small(need);
    std::size_t less = need - 1;
    CHECK(strata::DeviceTopK::MaxKeys(d_small.data(), less, static_cast<const float*>(d_keys.data()), d_top.data(),
                                      1000, 10)
          == cudaErrorInvalidValue);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    for (float x : d_top.download())
    {
      CHECK(bits_of(x) == bits_of(strata_test::poison_value<float>()));
    }
  }
}

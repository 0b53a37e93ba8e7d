// Tests of strata/device/device_topk.cuh (see test_device_topk.cu): keys of double, uint32 and
// int64; two calls on two streams at once, graph capture, more than 2^31 keys ([slow]) and a
// sample whose threshold keeps fewer than k items.
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

TEMPLATE_TEST_CASE("DeviceTopK::MaxKeys and MinKeys return the k best keys, best first (wide keys)", "[device][topk]",
                   double, std::uint32_t, std::int64_t)
{
  check_max_min_keys<TestType>();
}

TEST_CASE("DeviceTopK runs inside a captured graph and on two streams at once", "[device][topk]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(815);
  INFO("seed " << seed);
  const std::size_t n             = 200003;
  const std::size_t k             = 1000;
  const std::vector<float> keys_a = make_keys<float>(n, shape::random_bits, seed);
  const std::vector<float> keys_b = make_keys<float>(n, shape::few_values, seed + 1);
  device_buffer<float> d_keys_a(keys_a);
  device_buffer<float> d_keys_b(keys_b);
  device_buffer<float> d_out_a(k + slack);
  device_buffer<float> d_out_b(k + slack);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(
      strata::DeviceTopK::MaxKeys(nullptr, bytes, static_cast<const float*>(d_keys_a.data()), d_out_a.data(), n, k));
  device_buffer<unsigned char> d_temp_a(bytes);
  device_buffer<unsigned char> d_temp_b(bytes);
  cudaStream_t stream_a = nullptr;
  cudaStream_t stream_b = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream_a, cudaStreamNonBlocking));
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream_b, cudaStreamNonBlocking));

  // Two calls in flight at once, each with its own temporary storage.
  d_out_a.poison();
  d_out_b.poison();
  STRATA_TEST_CUDA(strata::DeviceTopK::MaxKeys(d_temp_a.data(), bytes, static_cast<const float*>(d_keys_a.data()),
                                               d_out_a.data(), n, k, stream_a));
  STRATA_TEST_CUDA(strata::DeviceTopK::MinKeys(d_temp_b.data(), bytes, static_cast<const float*>(d_keys_b.data()),
                                               d_out_b.data(), n, k, stream_b));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream_a));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream_b));
  check_keys(keys_a, reference_order(keys_a, true), k, d_out_a.download());
  check_keys(keys_b, reference_order(keys_b, false), k, d_out_b.download());

  // The same calls captured into a graph (the two-phase form and the single-call form, whose
  // stream-ordered allocation becomes part of the graph), then launched twice.
  d_out_a.poison();
  d_out_b.poison();
  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream_a, cudaStreamCaptureModeThreadLocal));
  const cudaError_t two_phase = strata::DeviceTopK::MaxKeys(
      d_temp_a.data(), bytes, static_cast<const float*>(d_keys_a.data()), d_out_a.data(), n, k, stream_a);
  const cudaError_t single_call =
      strata::DeviceTopK::MinKeys(static_cast<const float*>(d_keys_b.data()), d_out_b.data(), n, k, stream_a);
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream_a, &graph));
  STRATA_TEST_CUDA(two_phase);
  STRATA_TEST_CUDA(single_call);
  cudaGraphExec_t exec = nullptr;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 2; ++launch)
  {
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream_a));
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream_a));
    check_keys(keys_a, reference_order(keys_a, true), k, d_out_a.download());
    check_keys(keys_b, reference_order(keys_b, false), k, d_out_b.download());
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream_a));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream_b));
}

TEST_CASE("DeviceTopK of more than 2^31 keys from an iterator", "[device][topk][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  // The keys 0, 1, ..., n - 1 (no memory): the largest are n - 1 downwards, with 64-bit offsets.
  const std::int64_t n = (std::int64_t(1) << 31) + 4097;
  const std::int64_t k = 1000;
  strata::CountingInputIterator<std::int64_t> keys(0);
  device_buffer<std::int64_t> d_out(std::size_t(k) + slack);
  d_out.poison();
  strata_test::run_two_phase([&](void* d_temp, std::size_t& bytes)
                             { return strata::DeviceTopK::MaxKeys(d_temp, bytes, keys, d_out.data(), n, k); });
  const std::vector<std::int64_t> got = d_out.download();
  std::size_t wrong                   = 0;
  for (std::int64_t i = 0; i < k; ++i)
  {
    wrong += got[std::size_t(i)] != n - 1 - i;
  }
  CHECK(wrong == 0);
}

TEST_CASE("DeviceTopK finds the k best where the sampled threshold keeps fewer than k items", "[device][topk]")
{
  STRATA_TEST_REQUIRE_GPU();
  // The filter pass of large inputs keeps the items at or above a key of a sample of runs of 32
  // keys, the run c of 256 starting at (n - 32) * c / 255 for 4-byte keys. Here the sampled keys
  // are the largest, and fewer than k: the threshold keeps too few items, and the passes must read
  // the whole input instead.
  const std::uint64_t seed = strata_test::seed(817);
  INFO("seed " << seed);
  const std::size_t n = std::size_t(1) << 20;
  std::mt19937_64 engine(seed);
  std::vector<float> keys(n);
  for (float& x : keys)
  {
    x = float(engine() % 1000000) / 1000.0f; // below 1000
  }
  for (std::size_t c = 0; c < 256; ++c)
  {
    const std::size_t first = (n - 32) * c / 255;
    for (std::size_t i = 0; i < 32; ++i)
    {
      keys[first + i] = 5000.0f + float(engine() % 1000);
    }
  }
  device_buffer<float> d_keys(keys);
  const std::vector<std::size_t> order = reference_order(keys, true);
  for (std::size_t k : {std::size_t(8192 + 1000), std::size_t(10000)})
  {
    INFO("k " << k);
    device_buffer<float> d_out(k + slack);
    d_out.poison();
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes) {
          return strata::DeviceTopK::MaxKeys(d_temp, bytes, static_cast<const float*>(d_keys.data()), d_out.data(), n,
                                             k);
        });
    check_keys(keys, order, k, d_out.download());
  }
}

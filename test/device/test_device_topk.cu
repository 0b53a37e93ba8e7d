// Tests of strata/device/device_topk.cuh: DeviceTopK::{Max,Min}{Keys,Pairs} against a host stable
// sort of the indices by key (keys ordered by their bits as DeviceRadixSort orders them, the
// earlier item first among equal keys) cut after k. Keys of float, double, __half, uint32, int64
// and int8, from random bit patterns (NaNs, infinities and both zeros among them), from a few
// distinct values (long runs of ties) and all equal; sizes from 0 through both sides of a tile to
// 2^20 + 123 and 3 * 10^6 + 17 (candidates that overflow the on-device buffers); k from 0 to
// num_items. Outputs past k must keep their poison. Also: pairs (values follow keys, ties go to
// the earlier item), the single-call forms, iterator inputs, a stream, two streams at once, graph
// capture, more than 2^31 keys ([slow]) and bad arguments.
#include <strata/device/device_topk.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"

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

namespace
{
using strata_test::device_buffer;

using key_types = std::tuple<float, double, __half, std::uint32_t, std::int64_t, std::int8_t>;

//! Items the passes of a tile hold (256 threads of 16 four-byte keys).
constexpr std::size_t tile = 4096;
//! Outputs past k that must keep their poison.
constexpr std::size_t slack = 7;

//! The unsigned integer of T's width.
template <typename T>
using bits_t = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                  std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                     std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <typename T>
bits_t<T> bits_of(const T& key)
{
  bits_t<T> bits;
  std::memcpy(&bits, static_cast<const void*>(&key), sizeof(T));
  return bits;
}

template <typename T>
T from_bits(bits_t<T> bits)
{
  T key;
  std::memcpy(static_cast<void*>(&key), &bits, sizeof(T));
  return key;
}

//! The host's own order of keys (that of DeviceRadixSort): an unsigned integer that grows with the
//! key. Floating point: negative keys (sign bit set) in reverse bit order below the positive ones.
template <typename T>
bits_t<T> order_of(const T& key)
{
  using U          = bits_t<T>;
  const U bits     = bits_of(key);
  constexpr U sign = U(U(1) << (sizeof(T) * 8 - 1));
  if constexpr (std::is_unsigned_v<T>)
  {
    return bits;
  }
  else if constexpr (std::is_integral_v<T>)
  {
    return U(bits ^ sign);
  }
  else
  {
    return (bits & sign) != 0 ? U(~bits) : U(bits | sign);
  }
}

enum class shape
{
  random_bits, // any bit pattern
  duplicates,  // about 16 copies of each key: ties at the k-th key, among few candidates
  few_values,  // four distinct keys
  all_equal
};

const char* shape_name(shape s)
{
  return s == shape::random_bits  ? "random bits"
         : s == shape::duplicates ? "16 copies of each key"
         : s == shape::few_values ? "four distinct keys"
                                  : "all equal";
}

template <typename T>
std::vector<T> make_keys(std::size_t n, shape s, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::vector<T> keys(n);
  std::vector<T> values;
  const std::size_t distinct = s == shape::duplicates ? n / 16 + 1 : 4;
  for (std::size_t i = 0; i < distinct; ++i)
  {
    values.push_back(from_bits<T>(bits_t<T>(engine())));
  }
  for (std::size_t i = 0; i < n; ++i)
  {
    keys[i] = s == shape::random_bits ? from_bits<T>(bits_t<T>(engine()))
              : s == shape::all_equal ? values[0]
                                      : values[engine() % distinct];
  }
  return keys;
}

//! The indices of the items in the order DeviceTopK returns them: the best key first (largest
//! for Max, smallest for Min), the earlier item first among equal keys.
template <typename T>
std::vector<std::size_t> reference_order(const std::vector<T>& keys, bool max)
{
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b)
                   { return max ? order_of(keys[a]) > order_of(keys[b]) : order_of(keys[a]) < order_of(keys[b]); });
  return order;
}

//! The values of k to try with n items.
std::vector<std::size_t> ks_for(std::size_t n)
{
  std::vector<std::size_t> ks;
  for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(32),
                        std::size_t(33), tile - 1, tile + 1, std::size_t(65536), n / 2, n - 1, n})
  {
    if (k <= n && std::find(ks.begin(), ks.end(), k) == ks.end() && (k != n - 1 || n > 0))
    {
      ks.push_back(k);
    }
  }
  return ks;
}

std::vector<std::size_t> sizes()
{
  if (strata_test::under_sanitizer())
  {
    return {0, 1, 33, tile + 1, 70001};
  }
  return {0, 1, 2, 31, 32, 33, tile - 1, tile, tile + 1, 70001, (std::size_t(1) << 20) + 123};
}

//! Checks that the keys (and values) of `out` are the first k of `order`, and that the slack
//! past them kept its poison.
template <typename T>
void check_keys(const std::vector<T>& keys, const std::vector<std::size_t>& order, std::size_t k,
                const std::vector<T>& out)
{
  REQUIRE(out.size() == k + slack);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < k; ++i)
  {
    if (bits_of(out[i]) != bits_of(keys[order[i]]))
    {
      if (wrong++ == 0)
      {
        FAIL_CHECK("key " << i << " of " << k << ": expected bits " << std::uint64_t(bits_of(keys[order[i]]))
                          << ", got " << std::uint64_t(bits_of(out[i])));
      }
    }
  }
  CHECK(wrong == 0);
  const T poison = strata_test::poison_value<T>();
  for (std::size_t i = k; i < k + slack; ++i)
  {
    CHECK(bits_of(out[i]) == bits_of(poison));
  }
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceTopK::MaxKeys and MinKeys return the k best keys, best first", "[device][topk]",
                        key_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(811);
  INFO("seed " << seed);
  for (std::size_t n : sizes())
  {
    for (shape s : {shape::random_bits, shape::duplicates, shape::few_values, shape::all_equal})
    {
      INFO("num_items " << n << ", " << shape_name(s));
      const std::vector<T> keys = make_keys<T>(n, s, seed + n + std::uint64_t(s));
      device_buffer<T> d_keys(keys);
      for (bool max : {true, false})
      {
        INFO((max ? "MaxKeys" : "MinKeys"));
        const std::vector<std::size_t> order = reference_order(keys, max);
        for (std::size_t k : ks_for(n))
        {
          INFO("k " << k);
          device_buffer<T> d_out(k + slack);
          d_out.poison();
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return max ? strata::DeviceTopK::MaxKeys(d_temp, bytes, static_cast<const T*>(d_keys.data()),
                                                         d_out.data(), n, k)
                           : strata::DeviceTopK::MinKeys(d_temp, bytes, static_cast<const T*>(d_keys.data()),
                                                         d_out.data(), n, k);
              });
          check_keys(keys, order, k, d_out.download());
        }
      }
    }
  }
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
    for (shape s : {shape::random_bits, shape::duplicates, shape::few_values, shape::all_equal})
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

namespace
{
//! A user's key of two members, ordered by `major`, then `minor` (64 bits).
struct pair_key
{
  std::int32_t major;
  float minor;
};
struct pair_key_decomposer
{
  __host__ __device__ cuda::std::tuple<std::int32_t&, float&> operator()(pair_key& key) const
  {
    return {key.major, key.minor};
  }
};
//! A user's key of 96 bits: the selection packs it into 128.
struct wide_key
{
  double first;
  std::uint32_t second;
};
struct wide_key_decomposer
{
  __host__ __device__ cuda::std::tuple<double&, std::uint32_t&> operator()(wide_key& key) const
  {
    return {key.first, key.second};
  }
};

template <typename KeyT, typename DecomposerT, typename MakeT>
void check_user_keys(std::uint64_t seed, MakeT make)
{
  for (std::size_t n : {std::size_t(1), std::size_t(33), tile + 1, std::size_t(70001)})
  {
    INFO("num_items " << n);
    std::mt19937_64 engine(seed + n);
    std::vector<KeyT> keys(n);
    for (KeyT& key : keys)
    {
      key = make(engine);
    }
    // The host's order: member by member, each as order_of orders it.
    const auto ranks = [](const KeyT& key)
    {
      KeyT copy    = key;
      auto members = DecomposerT{}(copy);
      return std::make_pair(order_of(cuda::std::get<0>(members)), order_of(cuda::std::get<1>(members)));
    };
    device_buffer<KeyT> d_keys(keys);
    std::vector<std::uint32_t> values(n);
    std::iota(values.begin(), values.end(), std::uint32_t(0));
    device_buffer<std::uint32_t> d_values(values);
    for (bool max : {true, false})
    {
      INFO((max ? "MaxPairs" : "MinKeys"));
      std::vector<std::size_t> order(n);
      std::iota(order.begin(), order.end(), std::size_t(0));
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b)
                       { return max ? ranks(keys[a]) > ranks(keys[b]) : ranks(keys[a]) < ranks(keys[b]); });
      for (std::size_t k : {std::size_t(1), std::size_t(33), n / 2, n})
      {
        INFO("k " << k);
        device_buffer<KeyT> d_out(k + slack);
        device_buffer<std::uint32_t> d_values_out(k + slack);
        d_out.poison();
        d_values_out.poison();
        strata_test::run_two_phase(
            [&](void* d_temp, std::size_t& bytes)
            {
              const KeyT* in = d_keys.data();
              return max ? strata::DeviceTopK::MaxPairs(d_temp, bytes, in, d_out.data(),
                                                        static_cast<const std::uint32_t*>(d_values.data()),
                                                        d_values_out.data(), n, k, DecomposerT{})
                         : strata::DeviceTopK::MinKeys(d_temp, bytes, in, d_out.data(), n, k, DecomposerT{});
            });
        const std::vector<KeyT> got               = d_out.download();
        const std::vector<std::uint32_t> got_vals = d_values_out.download();
        std::size_t wrong                         = 0;
        for (std::size_t i = 0; i < k; ++i)
        {
          wrong += std::memcmp(&got[i], &keys[order[i]], sizeof(KeyT)) != 0;
          wrong += max && got_vals[i] != std::uint32_t(order[i]);
        }
        CHECK(wrong == 0);
      }
    }
  }
}
} // namespace

TEST_CASE("DeviceTopK of a user's key type orders it through its decomposer", "[device][topk]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(819);
  INFO("seed " << seed);
  // Few majors, so that the minor members decide among many keys.
  check_user_keys<pair_key, pair_key_decomposer>(
      seed,
      [](std::mt19937_64& engine) {
        return pair_key{std::int32_t(engine() % 7) - 3, float(std::int64_t(engine() % 2001) - 1000) / 8.0f};
      });
  check_user_keys<wide_key, wide_key_decomposer>(
      seed + 1,
      [](std::mt19937_64& engine) {
        return wide_key{double(std::int64_t(engine() % 5) - 2) * 0.5, std::uint32_t(engine() % 100)};
      });
}

// test/device/device_scan_checks.cuh: what the DeviceScan tests share: the sizes every function
// runs at (around the tile size of the policy the H100 runs), one two-phase call into a poisoned
// output (with poisoned temporary storage), host references, a sampled check of outputs of more
// than 2^31 items, and non-commutative operators.
#pragma once

#include <strata/device/device_scan.cuh>

#include "common/test_common.cuh"

#include <catch2/catch_get_random_seed.hpp>
#include <catch2/catch_tostring.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata_test
{
//! The largest input of the scan tests.
inline constexpr std::size_t scan_max_items = (std::size_t(1) << 24) + 13;

//! Items per tile of DeviceScan's SM 9.0 policy for AccumT.
template <typename AccumT>
constexpr std::size_t scan_tile_items()
{
  using PolicyT =
      typename strata::detail::scan::policy_hub<AccumT, std::uint32_t, cuda::std::plus<>>::Policy900::ScanPolicy;
  return std::size_t(PolicyT::BLOCK_THREADS) * PolicyT::ITEMS_PER_THREAD;
}

//! Items per tile of the scans by key's SM 9.0 policy.
template <typename KeyT, typename AccumT>
constexpr std::size_t scan_by_key_tile_items()
{
  using PolicyT =
      typename strata::detail::scan_by_key::policy_hub<KeyT, AccumT, cuda::std::plus<>>::Policy900::ScanPolicy;
  return std::size_t(PolicyT::BLOCK_THREADS) * PolicyT::ITEMS_PER_THREAD;
}

//! Sizes up to `available`: empty, one item, around one tile, 37 tiles and a remainder (the
//! look-back crosses its 32-tile window), an odd size, 2^20 and 2^24 + 13 (not under the sanitizers:
//! one block a tile, so it runs 2^20's code paths again).
inline std::vector<std::size_t> scan_sizes(std::size_t tile, std::size_t available)
{
  std::vector<std::size_t> sizes;
  for (std::size_t n : {std::size_t(0), std::size_t(1), tile - 1, tile, tile + 1, 37 * tile + 1234, std::size_t(100003),
                        std::size_t(1) << 20, scan_max_items})
  {
    if (n <= available && !(n == scan_max_items && under_sanitizer()))
    {
      sizes.push_back(n);
    }
  }
  return sizes;
}

//! The items the scan tests generate: as many as the largest of scan_sizes in this run (2^20
//! under the sanitizers, where 2^24 + 13 is left out).
inline std::size_t scan_input_items()
{
  return under_sanitizer() ? std::size_t(1) << 20 : scan_max_items;
}

//! Runs a two-phase device call `call(d_temp, bytes)` (size query, then the run with exactly that
//! much storage, poisoned: a run that relies on zeroed storage fails) after poisoning `d_out`;
//! returns all of `d_out`.
template <typename OutT, typename CallT>
std::vector<OutT> run_scan(device_buffer<OutT>& d_out, CallT&& call)
{
  d_out.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes));
  REQUIRE(bytes >= 1);
  device_buffer<unsigned char> d_temp(bytes);
  d_temp.poison();
  STRATA_TEST_CUDA(call(d_temp.data(), bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  return d_out.download();
}

//! CHECKs the first n outputs against the reference and that no output past them was written.
template <typename T>
void check_scan(const std::vector<T>& expected, const std::vector<T>& actual, std::size_t n, double rel_tol = 0.0)
{
  REQUIRE(expected.size() >= n);
  REQUIRE(actual.size() >= n);
  check_equal(std::vector<T>(expected.begin(), expected.begin() + std::ptrdiff_t(n)),
              std::vector<T>(actual.begin(), actual.begin() + std::ptrdiff_t(n)), rel_tol);
  std::size_t written = 0;
  const auto* bytes   = reinterpret_cast<const unsigned char*>(actual.data());
  for (std::size_t i = n * sizeof(T); i < actual.size() * sizeof(T); ++i)
  {
    written += bytes[i] != poison_byte;
  }
  INFO("bytes written past the last output");
  CHECK(written == 0);
}

//! The stride of check_sampled's sample of a large output: one item in 4097.
inline constexpr std::uint64_t sample_stride = 4097;

//! CHECKs an output too large to download (more than 2^31 items) against `expected(i)`, a closed
//! form: every 4097th item (gathered on the device), the first and the last `window` items, the
//! `window` items on both sides of every multiple of 2^31 below n (with `window` a few tiles, the
//! tile boundaries near them), and that the items of d_out past n kept their poison.
template <typename T, typename ExpectedF>
void check_sampled(const device_buffer<T>& d_out, std::uint64_t n, std::uint64_t window, ExpectedF expected)
{
  REQUIRE(d_out.size() >= n);
  std::size_t checked    = 0;
  std::size_t mismatches = 0;
  std::ostringstream report;
  auto check_one = [&](std::uint64_t i, const T& actual)
  {
    ++checked;
    const T want = expected(i);
    if (!(actual == want))
    {
      if (mismatches < 8)
      {
        report << "  [" << i << "] expected " << Catch::Detail::stringify(want) << ", got "
               << Catch::Detail::stringify(actual) << "\n";
      }
      ++mismatches;
    }
  };
  const std::uint64_t strided = (n + sample_stride - 1) / sample_stride;
  device_buffer<T> d_sample(strided);
  STRATA_TEST_CUDA(cudaMemcpy2D(d_sample.data(), sizeof(T), d_out.data(), sample_stride * sizeof(T), sizeof(T), strided,
                                cudaMemcpyDeviceToDevice));
  const std::vector<T> sample = d_sample.download();
  for (std::uint64_t k = 0; k < strided; ++k)
  {
    check_one(k * sample_stride, sample[k]);
  }
  // The windows: the head, the tail and around every multiple of 2^31.
  window = std::min(window, n);

  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {{0, window}, {n - window, n}};
  for (std::uint64_t boundary = std::uint64_t(1) << 31; boundary < n; boundary += std::uint64_t(1) << 31)
  {
    ranges.emplace_back(boundary - std::min(boundary, window), std::min(boundary + window, n));
  }
  for (const auto& [begin, end] : ranges)
  {
    std::vector<T> part(end - begin);
    STRATA_TEST_CUDA(cudaMemcpy(part.data(), d_out.data() + begin, part.size() * sizeof(T), cudaMemcpyDeviceToHost));
    for (std::uint64_t i = begin; i < end; ++i)
    {
      check_one(i, part[i - begin]);
    }
  }
  INFO(mismatches << " of " << checked << " sampled outputs differ (rerun with --rng-seed " << Catch::getSeed()
                  << "):\n"
                  << report.str());
  CHECK(mismatches == 0);
  std::vector<unsigned char> past((d_out.size() - n) * sizeof(T));
  STRATA_TEST_CUDA(cudaMemcpy(past.data(), d_out.data() + n, past.size(), cudaMemcpyDeviceToHost));
  INFO("bytes written past the last output");
  CHECK(std::count(past.begin(), past.end(), poison_byte) == std::ptrdiff_t(past.size()));
}

//! Fills d[0, n) with `block` repeated (the items' pattern must repeat with the block's length),
//! by copies from the host: inputs of a few GiB without a kernel of the library under test.
template <typename T>
void upload_repeated(T* d, std::uint64_t n, const std::vector<T>& block)
{
  for (std::uint64_t begin = 0; begin < n; begin += block.size())
  {
    const std::uint64_t count = std::min<std::uint64_t>(block.size(), n - begin);
    STRATA_TEST_CUDA(cudaMemcpy(d + begin, block.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  }
}

//! a + b in the two's complement of T (integer sums that overflow wrap, as on the GPU).
template <typename T>
T wrapping_add(T a, T b)
{
  if constexpr (std::is_integral_v<T>)
  {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  }
  else
  {
    return a + b;
  }
}

//! The host references' operators: wrapping addition and maximum in T.
template <typename T>
struct host_plus
{
  T operator()(T a, T b) const
  {
    return wrapping_add(a, b);
  }
};

template <typename T>
struct host_max
{
  T operator()(T a, T b) const
  {
    return a < b ? b : a;
  }
};

//! A sequential exclusive (INCLUSIVE = false) or inclusive scan of `in` in AccumT, each result
//! converted to OutT; `op` combines (AccumT, AccumT). Inclusive scans start from `init` if given.
template <bool INCLUSIVE, typename OutT, typename AccumT, typename InT, typename OpT>
std::vector<OutT> reference_scan(const std::vector<InT>& in, OpT op, const AccumT* init)
{
  std::vector<OutT> out(in.size());
  AccumT running{};
  bool have = init != nullptr;
  if (have)
  {
    running = *init;
  }
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    if constexpr (!INCLUSIVE)
    {
      out[i] = static_cast<OutT>(running);
    }
    running = have ? op(running, static_cast<AccumT>(in[i])) : static_cast<AccumT>(in[i]);
    have    = true;
    if constexpr (INCLUSIVE)
    {
      out[i] = static_cast<OutT>(running);
    }
  }
  return out;
}

//! Keys in runs of random length in [1, max_run], each run's key different from the one before
//! (also for 8-bit keys, which wrap).
template <typename KeyT>
std::vector<KeyT> run_keys(std::size_t n, std::uint64_t seed, int max_run = 15)
{
  std::vector<KeyT> keys(n);
  generator<int> gen(seed);
  KeyT key        = KeyT(gen(0, 100));
  std::size_t end = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (i == end)
    {
      end = i + std::size_t(gen(1, max_run));
      key = KeyT(key + 1 + gen(0, 2));
    }
    keys[i] = key;
  }
  return keys;
}

//! A sequential scan by key (keys equal by ==) in AccumT, each result converted to OutT:
//! exclusive from `*init` at every run's head, or inclusive where init is null.
template <typename OutT, typename AccumT, typename KeyT, typename ValueT, typename OpT>
std::vector<OutT> reference_scan_by_key(const std::vector<KeyT>& keys, const std::vector<ValueT>& values, OpT op,
                                        const AccumT* init)
{
  std::vector<OutT> out(values.size());
  AccumT running{};
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    const bool head = i == 0 || !(keys[i - 1] == keys[i]);
    if (init != nullptr)
    {
      running = head ? *init : op(running, static_cast<AccumT>(values[i - 1]));
    }
    else
    {
      running = head ? static_cast<AccumT>(values[i]) : op(running, static_cast<AccumT>(values[i]));
    }
    out[i] = static_cast<OutT>(running);
  }
  return out;
}

//! x -> p * x + h over 32-bit words, composed left to right: associative, not commutative (the
//! polynomial hash of a concatenation). With custom_t: a = p, b = h, c counts the items.
struct affine_op
{
  __host__ __device__ custom_t operator()(const custom_t& l, const custom_t& r) const
  {
    const std::uint32_t p  = std::uint32_t(l.a) * std::uint32_t(r.a);
    const std::uint32_t h  = std::uint32_t(l.b) * std::uint32_t(r.a) + std::uint32_t(r.b);
    const std::uint32_t cs = std::uint32_t(l.c) + std::uint32_t(r.c);
    return custom_t{std::int32_t(p), std::int32_t(h), std::int32_t(cs)};
  }
};

//! A 2x2 matrix of 32-bit words (16 bytes: its descriptor takes the two-word path).
struct matrix2
{
  std::uint32_t m[4];
  friend __host__ __device__ bool operator==(const matrix2& x, const matrix2& y)
  {
    return x.m[0] == y.m[0] && x.m[1] == y.m[1] && x.m[2] == y.m[2] && x.m[3] == y.m[3];
  }
};

//! The matrix product modulo 2^32: associative, not commutative.
struct matrix_product
{
  __host__ __device__ matrix2 operator()(const matrix2& x, const matrix2& y) const
  {
    return matrix2{{x.m[0] * y.m[0] + x.m[1] * y.m[2], x.m[0] * y.m[1] + x.m[1] * y.m[3],
                    x.m[2] * y.m[0] + x.m[3] * y.m[2], x.m[2] * y.m[1] + x.m[3] * y.m[3]}};
  }
};
} // namespace strata_test

namespace Catch
{
template <>
struct StringMaker<strata_test::matrix2>
{
  static std::string convert(const strata_test::matrix2& x)
  {
    return "[" + std::to_string(x.m[0]) + " " + std::to_string(x.m[1]) + "; " + std::to_string(x.m[2]) + " "
           + std::to_string(x.m[3]) + "]";
  }
};
} // namespace Catch

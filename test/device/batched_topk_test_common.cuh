// test/device/batched_topk_test_common.cuh: what the DeviceBatchedTopK tests share: a batch of
// segments, the call in either form of sizes and k, and check_batch, which runs a batch and checks
// every segment against a stable sort on the host.
#pragma once

#include <strata/device/device_batched_topk.cuh>

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

namespace batched_topk_test
{
using namespace topk_test;
using strata_test::device_buffer;

//! The candidates a block keeps for 4-byte keys (32 KiB of 8-byte candidates).
constexpr std::size_t buffer_items = 4096;

//! A value that tells an item's position in the batch's key buffer.
inline std::uint32_t value_of(std::size_t position)
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
//! and SizeT is the type of the segment sizes (64 bits: 64-bit indices within a segment). The forms
//! are template arguments so that each instantiation compiles only the dispatch it calls.
template <bool MAX, bool PAIRS, typename SizeT, form SIZES_FORM, form K_FORM, typename T>
void check_batch(const batch<T>& b, std::size_t misalign)
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
  [[maybe_unused]] const SizeT uniform_size  = num_segments > 0 ? sizes[0] : SizeT(0);
  [[maybe_unused]] const long long uniform_k = num_segments > 0 ? ks[0] : 0;
  if constexpr (SIZES_FORM == form::uniform && K_FORM == form::uniform)
  {
    run(uniform_size, uniform_k);
  }
  else if constexpr (SIZES_FORM == form::uniform)
  {
    run(uniform_size, static_cast<const long long*>(d_ks.data()));
  }
  else if constexpr (K_FORM == form::uniform)
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
    check_batch<true, false, int, form::per_segment, form::per_segment>(b, 0);
    check_batch<false, false, int, form::per_segment, form::per_segment>(b, 1); // misaligned segments
  }
}
} // namespace batched_topk_test

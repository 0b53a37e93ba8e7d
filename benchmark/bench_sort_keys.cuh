// benchmark/bench_sort_keys.cuh: sort keys of three distributions in rotating buffers, shared by
// the radix sort benchmark and its tuning sweep.
#pragma once

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

namespace bench
{
//! The key distributions of the sort benchmarks (their second argument).
enum sort_key_distribution : int
{
  uniform  = 0, //!< random bits (fill_random's: standard normal values for float and double)
  reduced  = 1, //!< the AND of two such words: fewer distinct digits, longer runs
  constant = 2  //!< every key the same (bytes 0x5A)
};

//! a[i] &= b[i] over `words` 32-bit words.
__global__ void and_words(std::uint32_t* a, const std::uint32_t* b, std::size_t words)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < words;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    a[i] &= b[i];
  }
}

//! Rotating keys of one distribution: random ones are the shared rotating buffer (so strata's and
//! CUB's runs read the same data); the others are made from a rotating buffer of their own.
template <typename T>
rotating_buffer<T>& sort_key_buffer(std::size_t n, int dist)
{
  if (dist == uniform)
  {
    return shared_rotating_buffer<T>(n);
  }
  static std::map<std::pair<std::size_t, int>, std::unique_ptr<rotating_buffer<T>>> buffers;
  auto& slot = buffers[{n, dist}];
  if (!slot)
  {
    slot                  = std::make_unique<rotating_buffer<T>>(n, 4099 + n * sizeof(T) + dist);
    const std::size_t all = n * slot->copies();
    T* data               = slot->next();
    if (dist == constant)
    {
      check(cudaMemset(data, 0x5A, all * sizeof(T)), "cudaMemset keys");
    }
    else
    {
      device_buffer<T> other(all);
      fill_random(other, 7919 + n);
      and_words<<<1024, 256>>>(reinterpret_cast<std::uint32_t*>(data),
                               reinterpret_cast<const std::uint32_t*>(other.data()), all * sizeof(T) / 4);
      check(cudaDeviceSynchronize(), "and_words");
    }
  }
  return *slot;
}
} // namespace bench

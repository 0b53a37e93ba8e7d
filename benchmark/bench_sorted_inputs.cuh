// Sorted random inputs for the benchmarks of merges: random bits sorted once at setup with CUB's
// radix sort (setup only, never timed).
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include "bench_common.cuh"

#include <cstddef>
#include <cstdint>

namespace bench
{
//! Fills `keys` with random bits from `seed`, sorted ascending.
template <typename T>
void fill_sorted_random(device_buffer<T>& keys, std::uint64_t seed)
{
  device_buffer<T> unsorted(keys.size());
  fill_random(unsorted, seed);
  std::size_t bytes = 0;
  check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, unsorted.data(), keys.data(), keys.size()), "sort");
  device_buffer<unsigned char> temp(bytes);
  check(cub::DeviceRadixSort::SortKeys(temp.data(), bytes, unsorted.data(), keys.data(), keys.size()), "sort");
  check(cudaDeviceSynchronize(), "sort");
}
} // namespace bench

// benchmark/bench_run_keys.cuh: u32 keys in runs of random lengths, for the benchmarks of the
// run-based algorithms (bench_device_select's Unique rows, bench_device_run_length_encode).
#pragma once

#include "bench_common.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace bench
{
//! 2^28 keys in runs of random lengths 1 to 15 (mean 8), each run a random value other than the
//! one before, from `seed`; a benchmark of n items reads n of them from a rotating offset, so that
//! small inputs do not sit in L2 either.
class run_keys
{
public:
  static constexpr std::size_t max_items = std::size_t(1) << 28;

  explicit run_keys(std::uint32_t seed)
      : keys_(max_items)
  {
    std::vector<std::uint32_t> host(max_items);
    std::mt19937 engine(seed);
    std::uniform_int_distribution<int> length(1, 15);
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < max_items;)
    {
      std::uint32_t next_value = value;
      while (next_value == value)
      {
        next_value = std::uint32_t(engine());
      }
      value                 = next_value;
      const std::size_t end = std::min(max_items, i + std::size_t(length(engine)));
      std::fill(host.begin() + std::ptrdiff_t(i), host.begin() + std::ptrdiff_t(end), value);
      i = end;
    }
    check(cudaMemcpy(keys_.data(), host.data(), keys_.bytes(), cudaMemcpyHostToDevice), "keys upload");
  }

  const std::uint32_t* next(std::size_t n)
  {
    const std::size_t slots = max_items / n;
    return keys_.data() + (turn_++ % slots) * n;
  }

private:
  device_buffer<std::uint32_t> keys_;
  std::size_t turn_ = 0;
};

//! The run keys of SEED, made on first use.
template <std::uint32_t SEED>
run_keys& keys_in_runs()
{
  static run_keys keys(SEED);
  return keys;
}
} // namespace bench

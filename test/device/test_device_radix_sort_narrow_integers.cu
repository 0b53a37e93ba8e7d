// Tests of strata/device/device_radix_sort.cuh, part 1a: integer keys of 8 and 16 bits and bool
// keys with 4-byte values (their input positions, so stability is checked exactly), every form,
// sizes 0 to 2^24 + 13, five key distributions and bit ranges. (The integer keys are split over
// three programs, which the suite runs side by side.)
#include <strata/device/device_radix_sort.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_cases.cuh"

#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

STRATA_RADIX_SORT_KEY_TESTS("integer", 301, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t)

TEST_CASE("DeviceRadixSort sorts bool keys", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(303);
  INFO("seed " << seed);
  // std::vector<bool> packs bits, so the keys are bytes of 0 and 1 copied into bool buffers.
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(1000003)})
  {
    INFO("num_items " << n);
    std::mt19937_64 engine(seed + n);
    std::vector<std::uint8_t> bytes(n);
    for (auto& byte : bytes)
    {
      byte = std::uint8_t(engine() & 1);
    }
    std::vector<std::uint32_t> positions(n);
    std::iota(positions.begin(), positions.end(), 0u);
    for (bool descending : {false, true})
    {
      strata_test::device_buffer<std::uint8_t> d_keys_in(bytes);
      strata_test::device_buffer<std::uint8_t> d_keys_out(n);
      strata_test::device_buffer<std::uint32_t> d_values_in(positions);
      strata_test::device_buffer<std::uint32_t> d_values_out(n);
      d_keys_out.poison();
      d_values_out.poison();
      const bool* keys_in = reinterpret_cast<const bool*>(d_keys_in.data());
      bool* keys_out      = reinterpret_cast<bool*>(d_keys_out.data());
      auto run            = [&](void* d_temp, std::size_t& temp_bytes)
      {
        return descending ? strata::DeviceRadixSort::SortPairsDescending(d_temp, temp_bytes, keys_in, keys_out,
                                                                         d_values_in.data(), d_values_out.data(), n)
                          : strata::DeviceRadixSort::SortPairs(d_temp, temp_bytes, keys_in, keys_out,
                                                               d_values_in.data(), d_values_out.data(), n);
      };
      std::size_t temp_bytes = 0;
      STRATA_TEST_CUDA(run(nullptr, temp_bytes));
      strata_test::device_buffer<unsigned char> d_temp(temp_bytes);
      STRATA_TEST_CUDA(run(d_temp.data(), temp_bytes));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      // The reference: a stable partition, falses first (trues first when descending).
      std::vector<std::uint32_t> expected_values;
      for (int pass = 0; pass < 2; ++pass)
      {
        const std::uint8_t wanted = std::uint8_t(descending ? 1 - pass : pass);
        for (std::size_t i = 0; i < n; ++i)
        {
          if (bytes[i] == wanted)
          {
            expected_values.push_back(std::uint32_t(i));
          }
        }
      }
      std::vector<std::uint8_t> expected_keys(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected_keys[i] = bytes[expected_values[i]];
      }
      strata_test::check_equal(expected_keys, d_keys_out.download());
      strata_test::check_equal(expected_values, d_values_out.download());
    }
  }
}

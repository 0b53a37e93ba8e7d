// Tests of strata/device/device_for.cuh, part 2: ForEachN, ForEach, ForEachCopyN and ForEachCopy
// over a TransformInputIterator that reads a misaligned pointer (`d_in + 1`), at sizes around the
// tiles and up to 2^20 + 3: the operator must see every transformed item exactly once.
#include <strata/device/device_for.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace
{
//! A position p -> 2 p + 1 (odd: an item that skipped the transform shows).
struct odd_of
{
  __host__ __device__ std::int64_t operator()(std::int32_t p) const
  {
    return 2 * std::int64_t(p) + 1;
  }
};

//! Counts each visit of the item made from position p in counts[p]; anything not odd or out of
//! range counts in counts[n] instead.
struct count_visit
{
  unsigned int* counts;
  std::int64_t n;
  __device__ void operator()(std::int64_t x) const
  {
    const std::int64_t p = (x - 1) / 2;
    const bool valid     = x % 2 == 1 && p >= 0 && p < n;
    atomicAdd(counts + (valid ? p : n), 1u);
  }
};
} // namespace

TEST_CASE("DeviceFor over a TransformInputIterator of a misaligned pointer", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1101);
  INFO("seed " << seed);
  using ItemsT = strata::TransformInputIterator<std::int64_t, odd_of, const std::int32_t*>;
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(4095), std::size_t(4097), std::size_t(100003),
                        (std::size_t(1) << 20) + 3})
  {
    INFO("num_items " << n);
    // d_in[1 + i] is a random permutation of the positions [0, n).
    std::vector<std::int32_t> in(n + 1);
    std::iota(in.begin() + 1, in.end(), 0);
    std::mt19937_64 engine(seed + n);
    std::shuffle(in.begin() + 1, in.end(), engine);
    in[0] = -1;
    const strata_test::device_buffer<std::int32_t> d_in(in);
    strata_test::device_buffer<unsigned int> d_counts(n + 1);
    const ItemsT first(d_in.data() + 1, odd_of{});
    const count_visit op{d_counts.data(), static_cast<std::int64_t>(n)};
    for (int form = 0; form < 4; ++form)
    {
      INFO((form == 0 ? "ForEachN" : form == 1 ? "ForEach" : form == 2 ? "ForEachCopyN" : "ForEachCopy"));
      STRATA_TEST_CUDA(cudaMemset(d_counts.data(), 0, d_counts.bytes()));
      const auto count = static_cast<std::int64_t>(n);
      switch (form)
      {
      case 0:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(first, count, op));
        break;
      case 1:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEach(first, first + count, op));
        break;
      case 2:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(first, count, op));
        break;
      default:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopy(first, first + count, op));
        break;
      }
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<unsigned int> expected(n + 1, 1u);
      expected[n] = 0; // no invalid item
      strata_test::check_equal(expected, d_counts.download());
    }
  }
}

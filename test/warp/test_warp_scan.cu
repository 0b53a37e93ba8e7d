// Tests of strata/warp/warp_scan.cuh: every WarpScan member over blocks of logical warps with
// different data, against a sequential host reference: sums over every type (each with two
// logical warp sizes, each size with several types), a non-commutative matrix product that pins
// the order of the lanes, minimum/maximum with initial values, and the documented example.
#include "warp_scan_checks.cuh"

#include <climits>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace
{
using strata_test::mat2x2;
using strata_test::mat2x2_product;

//! The logical warp sizes each type's sums are tested with: every type gets a power of two
//! (shuffles) and most a size that is not (shared memory); every size in {1, 2, 4, 7, 8, 16, 19,
//! 32} gets at least three types.
template <typename T>
struct sum_sizes;
template <>
struct sum_sizes<std::int8_t> : std::integer_sequence<int, 7, 32>
{
};
template <>
struct sum_sizes<std::uint8_t> : std::integer_sequence<int, 1, 16>
{
};
template <>
struct sum_sizes<std::int16_t> : std::integer_sequence<int, 4, 19>
{
};
template <>
struct sum_sizes<std::uint16_t> : std::integer_sequence<int, 2, 8>
{
};
template <>
struct sum_sizes<std::int32_t> : std::integer_sequence<int, 1, 7, 32>
{
};
template <>
struct sum_sizes<std::uint32_t> : std::integer_sequence<int, 16, 19>
{
};
template <>
struct sum_sizes<std::int64_t> : std::integer_sequence<int, 2, 8>
{
};
template <>
struct sum_sizes<std::uint64_t> : std::integer_sequence<int, 4, 32>
{
};
template <>
struct sum_sizes<float> : std::integer_sequence<int, 19, 32>
{
};
template <>
struct sum_sizes<double> : std::integer_sequence<int, 7, 16>
{
};
template <>
struct sum_sizes<__half> : std::integer_sequence<int, 1, 8>
{
};
template <>
struct sum_sizes<__nv_bfloat16> : std::integer_sequence<int, 2, 4>
{
};
template <>
struct sum_sizes<strata_test::custom_t> : std::integer_sequence<int, 7, 32>
{
};

template <typename T, int... SIZES>
void check_sums(std::integer_sequence<int, SIZES...>)
{
  (strata_test::check_warp_scan<SIZES, T>(cuda::std::plus<>{}, 1), ...);
}

//! The class documentation's example: ExclusiveSum with the aggregate, four 32-lane warps.
__global__ void documented_example_kernel(const int* d_in, int* d_prefix, int* d_total)
{
  using WarpScanT = strata::WarpScan<int>;
  __shared__ WarpScanT::TempStorage temp_storage[4];
  int item = d_in[threadIdx.x];
  int prefix, total;
  WarpScanT(temp_storage[threadIdx.x / 32]).ExclusiveSum(item, prefix, total);
  d_prefix[threadIdx.x] = prefix;
  d_total[threadIdx.x]  = total;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("WarpScan: every member over sums", "[warp][scan]", strata_test::all_types)
{
  STRATA_TEST_REQUIRE_GPU();
  check_sums<TestType>(sum_sizes<TestType>{});
}

TEST_CASE("WarpScan: every member over a non-commutative matrix product", "[warp][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::check_warp_scan<2, mat2x2>(mat2x2_product{}, 2);
  strata_test::check_warp_scan<7, mat2x2>(mat2x2_product{}, 2);
  strata_test::check_warp_scan<16, mat2x2>(mat2x2_product{}, 2);
  strata_test::check_warp_scan<19, mat2x2>(mat2x2_product{}, 2);
  strata_test::check_warp_scan<32, mat2x2>(mat2x2_product{}, 2);
}

TEST_CASE("WarpScan: every member over minimum and maximum", "[warp][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::check_warp_scan<32, std::int16_t>(cuda::maximum<>{}, 3);
  strata_test::check_warp_scan<7, double>(cuda::minimum<>{}, 4);
}

TEST_CASE("WarpScan: several logical warps per hardware warp, blocks that are not multiples of 32", "[warp][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  // Each logical warp of a size up to 16 shares its hardware warp with others and has a
  // TempStorage of its own; lanes past the last whole group (and the threads of a partial last
  // hardware warp that fill none) sit out. The matrix product pins the order of the lanes.
  using strata_test::check_warp_scan;
  check_warp_scan<1, mat2x2, 14>(mat2x2_product{}, 8);
  check_warp_scan<2, std::int32_t, 14>(cuda::std::plus<>{}, 8);
  check_warp_scan<3, mat2x2, 30>(mat2x2_product{}, 8);
  check_warp_scan<5, std::uint64_t, 28>(cuda::maximum<>{}, 8);
  check_warp_scan<7, mat2x2, 28>(mat2x2_product{}, 8); // four logical warps in one hardware warp
  check_warp_scan<7, std::int32_t, 14>(cuda::std::plus<>{}, 8);
  check_warp_scan<8, float, 48>(cuda::std::plus<>{}, 8);
  check_warp_scan<12, mat2x2, 48>(mat2x2_product{}, 8);
  check_warp_scan<16, std::int16_t, 48>(cuda::minimum<>{}, 8);
  check_warp_scan<31, mat2x2, 31>(mat2x2_product{}, 8);
  check_warp_scan<32, std::uint32_t, 48>(cuda::std::plus<>{}, 8);
}

TEST_CASE("WarpScan: the documented example", "[warp][scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int threads = 128;
  strata_test::device_buffer<int> d_in(std::vector<int>(threads, 1));
  strata_test::device_buffer<int> d_prefix(threads), d_total(threads);
  d_prefix.poison();
  d_total.poison();
  documented_example_kernel<<<1, threads>>>(d_in.data(), d_prefix.data(), d_total.data());
  strata_test::check_launch();
  std::vector<int> prefix(threads);
  for (int t = 0; t < threads; ++t)
  {
    prefix[t] = t % 32;
  }
  strata_test::check_equal(prefix, d_prefix.download());
  strata_test::check_equal(std::vector<int>(threads, 32), d_total.download());
}

TEST_CASE("WarpScan tests: the matrix product is associative but not commutative", "[warp][scan]")
{
  const auto seed = strata_test::seed(5);
  INFO("seed " << seed);
  const std::vector<mat2x2> m = strata_test::scan_inputs<mat2x2>(3, seed);
  mat2x2_product op;
  CHECK(op(op(m[0], m[1]), m[2]) == op(m[0], op(m[1], m[2])));
  CHECK(op(m[0], m[1]) != op(m[1], m[0]));
  CHECK(op(mat2x2{1, 2, 3, 4}, mat2x2{5, 6, 7, 8}) == mat2x2{19, 22, 43, 50});
}

TEST_CASE("WarpScan tests: the host reference on CUB's documented examples", "[warp][scan]")
{
  // {0, -1, 2, -3, ...} scanned with maximum: inclusive {0, 0, 2, 2, ...}, exclusive seeded
  // with INT_MIN {INT_MIN, 0, 0, 2, 2, ...}, aggregate 30.
  std::vector<int> x(32);
  for (int i = 0; i < 32; ++i)
  {
    x[i] = i % 2 == 0 ? i : -i;
  }
  const strata_test::scan_reference<int, cuda::maximum<>> max_scan(x, INT_MIN, cuda::maximum<>{});
  for (int i = 0; i < 32; ++i)
  {
    CHECK(max_scan.inclusive[i] == i / 2 * 2);
    CHECK(max_scan.exclusive_init[i] == (i == 0 ? INT_MIN : (i - 1) / 2 * 2));
    CHECK(max_scan.inclusive_init[i] == i / 2 * 2);
  }
  CHECK(max_scan.aggregate == 30);
  // Ones summed with initial value 3: inclusive {4, 5, ...}, exclusive {3, 4, ...}, aggregate 32.
  const strata_test::scan_reference<int, cuda::std::plus<>> sums(std::vector<int>(32, 1), 3, cuda::std::plus<>{});
  for (int i = 0; i < 32; ++i)
  {
    CHECK(sums.inclusive[i] == i + 1);
    CHECK(sums.inclusive_init[i] == i + 4);
    CHECK(sums.exclusive_init[i] == i + 3);
    CHECK((i == 0 || sums.exclusive[i] == i));
  }
  CHECK(sums.aggregate == 32);
}

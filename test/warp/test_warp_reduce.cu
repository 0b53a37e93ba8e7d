// Tests of strata/warp/warp_reduce.cuh, whole and partial reductions (Sum, Reduce): every type
// with two or three logical warp sizes and an operator of its own (each size gets several
// types), a non-commutative operator that pins the order of the lanes, the documented example,
// and which reductions take the hardware path. The segmented members are tested in
// test_warp_reduce_segmented.cu.
#include "warp_reduce_checks.cuh"

#include <cstdint>
#include <utility>
#include <vector>

namespace
{
using strata_test::affine_compose;
using strata_test::affine_map;

//! The logical warp sizes and the Reduce operator each type is tested with. Every type gets a
//! power of two (shuffles) and most a size that is not (shared memory); every size in {1, 2, 4,
//! 7, 8, 16, 19, 32} gets at least three types. The integers' operators are those of redux.sync,
//! which sm_80+ takes for logical warps of 17 to 32 lanes (alone in their hardware warp).
template <typename T>
struct reduce_case;
template <>
struct reduce_case<std::int8_t> : std::integer_sequence<int, 7, 32>
{
  using op_t = cuda::maximum<>;
};
template <>
struct reduce_case<std::uint8_t> : std::integer_sequence<int, 1, 16>
{
  using op_t = cuda::minimum<>;
};
template <>
struct reduce_case<std::int16_t> : std::integer_sequence<int, 4, 19>
{
  using op_t = cuda::std::bit_or<>;
};
template <>
struct reduce_case<std::uint16_t> : std::integer_sequence<int, 2, 8>
{
  using op_t = cuda::std::bit_and<>;
};
template <>
struct reduce_case<std::int32_t> : std::integer_sequence<int, 1, 7, 32>
{
  using op_t = cuda::minimum<std::int32_t>;
};
template <>
struct reduce_case<std::uint32_t> : std::integer_sequence<int, 16, 19>
{
  using op_t = cuda::std::bit_xor<>;
};
template <>
struct reduce_case<std::int64_t> : std::integer_sequence<int, 2, 8>
{
  using op_t = cuda::maximum<>;
};
template <>
struct reduce_case<std::uint64_t> : std::integer_sequence<int, 4, 32>
{
  using op_t = cuda::std::bit_xor<>;
};
template <>
struct reduce_case<float> : std::integer_sequence<int, 19, 32>
{
  using op_t = cuda::minimum<>;
};
template <>
struct reduce_case<double> : std::integer_sequence<int, 7, 16>
{
  using op_t = cuda::maximum<>;
};
template <>
struct reduce_case<__half> : std::integer_sequence<int, 1, 8>
{
  using op_t = cuda::maximum<>;
};
template <>
struct reduce_case<__nv_bfloat16> : std::integer_sequence<int, 2, 4>
{
  using op_t = cuda::minimum<>;
};
template <>
struct reduce_case<strata_test::custom_t> : std::integer_sequence<int, 7, 32>
{
  using op_t = cuda::maximum<>; // lexicographic, through custom_t's operator<
};

template <typename T, int... SIZES>
void check_case(std::integer_sequence<int, SIZES...>)
{
  (strata_test::check_warp_reduce<SIZES, T>(typename reduce_case<T>::op_t{}, 1), ...);
}

//! The class documentation's example: Sum over four 32-lane warps.
__global__ void documented_example_kernel(const int* d_in, int* d_out)
{
  using WarpReduceT = strata::WarpReduce<int>;
  __shared__ WarpReduceT::TempStorage temp_storage[4];
  int item           = d_in[threadIdx.x];
  int total          = WarpReduceT(temp_storage[threadIdx.x / 32]).Sum(item);
  d_out[threadIdx.x] = total;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("WarpReduce: Sum and Reduce, whole and partial", "[warp][reduce]", strata_test::all_types)
{
  STRATA_TEST_REQUIRE_GPU();
  check_case<TestType>(reduce_case<TestType>{});
}

TEST_CASE("WarpReduce: Sum and Reduce over a non-commutative operator", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::check_warp_reduce<2, affine_map>(affine_compose{}, 2);
  strata_test::check_warp_reduce<7, affine_map>(affine_compose{}, 2);
  strata_test::check_warp_reduce<19, affine_map>(affine_compose{}, 2);
  strata_test::check_warp_reduce<32, affine_map>(affine_compose{}, 2);
}

TEST_CASE("WarpReduce: every redux.sync operation, whole and partial", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  // The hardware path (sm_80+: a logical warp alone in its hardware warp, 17 to 32 lanes) with each
  // operation, on 32-bit and on widened narrow integers; the sums of these calls add redux.sync's
  // addition. Logical warp 0 has one valid item, so a wrong identity for the lanes beyond
  // valid_items shows.
  strata_test::check_warp_reduce<32, std::uint32_t>(cuda::minimum<>{}, 6);
  strata_test::check_warp_reduce<32, std::uint32_t>(cuda::maximum<std::uint32_t>{}, 6);
  strata_test::check_warp_reduce<32, std::int32_t>(cuda::maximum<>{}, 6);
  strata_test::check_warp_reduce<32, std::uint32_t>(cuda::std::bit_and<>{}, 6);
  strata_test::check_warp_reduce<19, std::int32_t>(cuda::std::bit_or<std::int32_t>{}, 6);
  strata_test::check_warp_reduce<32, std::uint8_t>(cuda::std::bit_and<>{}, 6);
  strata_test::check_warp_reduce<21, std::uint16_t>(cuda::maximum<>{}, 6);
  strata_test::check_warp_reduce<32, std::int16_t>(cuda::std::bit_xor<>{}, 6);
}

TEST_CASE("WarpReduce: several logical warps per hardware warp, blocks that are not multiples of 32", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  // Each logical warp of a size up to 16 shares its hardware warp with others and has a
  // TempStorage of its own; lanes past the last whole group (and the threads of a partial last
  // hardware warp that fill none) sit out. The affine maps pin the order of the lanes.
  using strata_test::check_warp_reduce;
  check_warp_reduce<1, std::int32_t, 14>(cuda::maximum<>{}, 7);
  check_warp_reduce<2, affine_map, 14>(affine_compose{}, 7);
  check_warp_reduce<3, affine_map, 30>(affine_compose{}, 7);
  check_warp_reduce<5, std::int32_t, 28>(cuda::minimum<>{}, 7);
  check_warp_reduce<7, std::int32_t, 28>(cuda::maximum<>{}, 7); // four logical warps in one hardware warp
  check_warp_reduce<7, affine_map, 14>(affine_compose{}, 7);
  check_warp_reduce<8, std::uint32_t, 48>(cuda::std::bit_xor<>{}, 7);
  check_warp_reduce<12, affine_map, 48>(affine_compose{}, 7);
  check_warp_reduce<16, float, 48>(cuda::maximum<>{}, 7);
  check_warp_reduce<31, std::int32_t, 31>(cuda::minimum<>{}, 7);
  check_warp_reduce<32, double, 48>(cuda::minimum<>{}, 7);
}

TEST_CASE("WarpReduce: the documented example", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int threads = 128;
  std::vector<int> in(threads);
  for (int t = 0; t < threads; ++t)
  {
    in[t] = t;
  }
  strata_test::device_buffer<int> d_in(in);
  strata_test::device_buffer<int> d_out(threads);
  d_out.poison();
  documented_example_kernel<<<1, threads>>>(d_in.data(), d_out.data());
  strata_test::check_launch();
  const std::vector<int> out = d_out.download();
  CHECK(out[0] == 496);
  CHECK(out[32] == 1520);
  CHECK(out[64] == 2544);
  CHECK(out[96] == 3568);
}

TEST_CASE("WarpReduce: the redux.sync operation of each type and operator", "[warp][reduce]")
{
  using strata::detail::warp_redux_v;
  using strata::detail::WarpRedux;
  CHECK(warp_redux_v<int, cuda::std::plus<>> == WarpRedux::ADD);
  CHECK(warp_redux_v<std::int8_t, cuda::std::plus<std::int8_t>> == WarpRedux::ADD);
  CHECK(warp_redux_v<std::uint16_t, cuda::minimum<>> == WarpRedux::MIN);
  CHECK(warp_redux_v<std::int32_t, cuda::maximum<std::int32_t>> == WarpRedux::MAX);
  CHECK(warp_redux_v<std::uint32_t, cuda::std::bit_and<>> == WarpRedux::AND);
  CHECK(warp_redux_v<char, cuda::std::bit_or<char>> == WarpRedux::OR);
  CHECK(warp_redux_v<std::int16_t, cuda::std::bit_xor<>> == WarpRedux::XOR);
  // Too wide, not integers, or an operator that is not exactly one of them.
  CHECK(warp_redux_v<std::int64_t, cuda::std::plus<>> == WarpRedux::NONE);
  CHECK(warp_redux_v<float, cuda::minimum<>> == WarpRedux::NONE);
  CHECK(warp_redux_v<bool, cuda::std::bit_or<>> == WarpRedux::NONE);
  CHECK(warp_redux_v<std::int8_t, cuda::minimum<unsigned int>> == WarpRedux::NONE);
  CHECK(warp_redux_v<int, cuda::std::multiplies<>> == WarpRedux::NONE);
  CHECK(warp_redux_v<int, affine_compose> == WarpRedux::NONE);
}

TEST_CASE("WarpReduce tests: composing affine maps is associative but not commutative", "[warp][reduce]")
{
  const auto seed = strata_test::seed(5);
  INFO("seed " << seed);
  const std::vector<affine_map> f = strata_test::reduce_inputs<affine_map>(3, seed);
  affine_compose op;
  CHECK(op(op(f[0], f[1]), f[2]) == op(f[0], op(f[1], f[2])));
  CHECK(op(f[0], f[1]) != op(f[1], f[0]));
  // x -> 2x + 1, then x -> 3x + 4: x -> 6x + 7.
  CHECK(op(affine_map{2, 1}, affine_map{3, 4}) == affine_map{6, 7});
  CHECK(strata_test::fold(std::vector<affine_map>{{2, 1}, {3, 4}, {1, 5}}, 0, 2, op) == affine_map{6, 12});
}

TEST_CASE("WarpReduce tests: the host reference on CUB's documented examples", "[warp][reduce]")
{
  // {0, 1, 2, ...}: the sum of 32 items is 496; of the first 4 (valid_items 4) 6; their maximum 3.
  std::vector<int> x(32);
  for (int i = 0; i < 32; ++i)
  {
    x[i] = i;
  }
  CHECK(strata_test::fold(x, 0, 31, cuda::std::plus<>{}) == 496);
  CHECK(strata_test::fold(x, 0, 3, cuda::std::plus<>{}) == 6);
  CHECK(strata_test::fold(x, 0, 3, cuda::maximum<>{}) == 3);
  // Narrow integers wrap as the device's do; 16-bit floating point adds in double, rounds once.
  CHECK(strata_test::fold(std::vector<std::int8_t>{100, 100}, 0, 1, cuda::std::plus<>{}) == std::int8_t{-56});
  const std::vector<__half> halves{__float2half(1.5f), __float2half(2.25f)};
  CHECK(strata_test::to_double(strata_test::fold(halves, 0, 1, cuda::std::plus<>{})) == 3.75);
}

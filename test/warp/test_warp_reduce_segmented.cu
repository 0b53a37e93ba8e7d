// Tests of strata/warp/warp_reduce.cuh, segmented reductions (HeadSegmentedSum/Reduce,
// TailSegmentedSum/Reduce): every type with one or two logical warp sizes and an operator of its
// own (each size gets several types), a non-commutative operator that pins the order of the lanes
// within segments, and the documented examples.
#include "warp_reduce_checks.cuh"

#include <cstdint>
#include <utility>
#include <vector>

namespace
{
using strata_test::affine_compose;
using strata_test::affine_map;

//! The logical warp sizes and the segmented-reduction operator each type is tested with; the
//! pairs differ from test_warp_reduce.cu's, and every size in {1, 2, 4, 7, 8, 16, 19, 32} gets at
//! least two types (1, where a lane is its own segment, only two).
template <typename T>
struct segmented_case;
template <>
struct segmented_case<std::int8_t> : std::integer_sequence<int, 16>
{
  using op_t = cuda::maximum<>;
};
template <>
struct segmented_case<std::uint8_t> : std::integer_sequence<int, 2, 7>
{
  using op_t = cuda::std::bit_xor<>;
};
template <>
struct segmented_case<std::int16_t> : std::integer_sequence<int, 4, 32>
{
  using op_t = cuda::minimum<>;
};
template <>
struct segmented_case<std::uint16_t> : std::integer_sequence<int, 19>
{
  using op_t = cuda::std::plus<std::uint16_t>;
};
template <>
struct segmented_case<std::int32_t> : std::integer_sequence<int, 8, 19>
{
  using op_t = cuda::maximum<>;
};
template <>
struct segmented_case<std::uint32_t> : std::integer_sequence<int, 1, 32>
{
  using op_t = cuda::minimum<>;
};
template <>
struct segmented_case<std::int64_t> : std::integer_sequence<int, 1, 7>
{
  using op_t = cuda::minimum<>;
};
template <>
struct segmented_case<std::uint64_t> : std::integer_sequence<int, 16>
{
  using op_t = cuda::maximum<>;
};
template <>
struct segmented_case<float> : std::integer_sequence<int, 4, 7>
{
  using op_t = cuda::maximum<>;
};
template <>
struct segmented_case<double> : std::integer_sequence<int, 32>
{
  using op_t = cuda::minimum<>;
};
template <>
struct segmented_case<__half> : std::integer_sequence<int, 19>
{
  using op_t = cuda::minimum<>;
};
template <>
struct segmented_case<__nv_bfloat16> : std::integer_sequence<int, 8>
{
  using op_t = cuda::maximum<>;
};
template <>
struct segmented_case<strata_test::custom_t> : std::integer_sequence<int, 2, 16>
{
  using op_t = cuda::maximum<>; // lexicographic, through custom_t's operator<
};

template <typename T, int... SIZES>
void check_case(std::integer_sequence<int, SIZES...>)
{
  (strata_test::check_warp_segmented_reduce<SIZES, T>(typename segmented_case<T>::op_t{}, 3), ...);
}

//! CUB's documented examples, one 32-lane warp: items {0, 1, ..., 31} with a head flag on every
//! fourth lane from 0 and, the same segments, a tail flag on every fourth lane from 3.
__global__ void documented_examples_kernel(int* d_out)
{
  using WarpReduceT = strata::WarpReduce<int>;
  __shared__ WarpReduceT::TempStorage temp_storage;
  const int lane      = static_cast<int>(threadIdx.x);
  const int head_flag = lane % 4 == 0;
  const int tail_flag = lane % 4 == 3;
  WarpReduceT warp_reduce(temp_storage);
  d_out[lane] = warp_reduce.HeadSegmentedSum(lane, head_flag);
  __syncwarp();
  d_out[lane + 32] = warp_reduce.TailSegmentedSum(lane, tail_flag);
  __syncwarp();
  d_out[lane + 64] = warp_reduce.HeadSegmentedReduce(lane, head_flag, cuda::maximum<>{});
  __syncwarp();
  d_out[lane + 96] = warp_reduce.TailSegmentedReduce(lane, tail_flag, cuda::maximum<>{});
}
} // namespace

TEMPLATE_LIST_TEST_CASE("WarpReduce: head- and tail-segmented sums and reductions", "[warp][reduce]",
                        strata_test::all_types)
{
  STRATA_TEST_REQUIRE_GPU();
  check_case<TestType>(segmented_case<TestType>{});
}

TEST_CASE("WarpReduce: segmented reductions over a non-commutative operator", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::check_warp_segmented_reduce<8, affine_map>(affine_compose{}, 4);
  strata_test::check_warp_segmented_reduce<19, affine_map>(affine_compose{}, 4);
  strata_test::check_warp_segmented_reduce<32, affine_map>(affine_compose{}, 4);
}

TEST_CASE("WarpReduce: segmented reductions of several logical warps per hardware warp", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  // A head flag in the first lane of a logical warp must not end the segment of the logical warp
  // before it in the same hardware warp; blocks that are not multiples of 32 threads.
  strata_test::check_warp_segmented_reduce<3, affine_map, 30>(affine_compose{}, 9);
  strata_test::check_warp_segmented_reduce<5, std::int32_t, 28>(cuda::std::plus<>{}, 9);
  strata_test::check_warp_segmented_reduce<7, affine_map, 28>(affine_compose{}, 9);
  strata_test::check_warp_segmented_reduce<12, affine_map, 48>(affine_compose{}, 9);
  strata_test::check_warp_segmented_reduce<16, std::uint32_t, 48>(cuda::maximum<>{}, 9);
}

TEST_CASE("WarpReduce: the documented segmented examples", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_out(128);
  d_out.poison();
  documented_examples_kernel<<<1, 32>>>(d_out.data());
  strata_test::check_launch();
  const std::vector<int> out = d_out.download();
  std::vector<int> sums, maxima;
  std::vector<int> expected_sums, expected_maxima;
  for (int lane = 0; lane < 32; lane += 4)
  {
    expected_sums.push_back(4 * lane + 6); // lane + (lane + 1) + (lane + 2) + (lane + 3)
    expected_maxima.push_back(lane + 3);
  }
  for (int slot = 0; slot < 4; ++slot)
  {
    std::vector<int> actual;
    for (int lane = 0; lane < 32; lane += 4)
    {
      actual.push_back(out[slot * 32 + lane]);
    }
    INFO("slot " << slot << " (head sum, tail sum, head maximum, tail maximum)");
    strata_test::check_equal(slot < 2 ? expected_sums : expected_maxima, actual);
  }
}

TEST_CASE("WarpReduce tests: segments of the host reference", "[warp][reduce]")
{
  // Flags on lanes 1 and 4 of 6: heads start segments {0}, {1, 2, 3}, {4, 5}; tails end
  // segments {0, 1}, {2, 3, 4}, {5}.
  const std::vector<std::uint8_t> flags{0, 1, 0, 0, 1, 0};
  const std::vector<int> x{1, 2, 3, 4, 5, 6};
  using result_t = std::vector<std::pair<int, int>>;
  const result_t head =
      strata_test::segment_reductions(x, strata_test::segment_starts(flags, true), cuda::std::plus<>{});
  const result_t tail =
      strata_test::segment_reductions(x, strata_test::segment_starts(flags, false), cuda::std::plus<>{});
  CHECK(head == result_t{{0, 1}, {1, 9}, {4, 11}});
  CHECK(tail == result_t{{0, 3}, {2, 12}, {5, 6}});
  // A flag on lane 0 changes nothing for heads; a tail on the last lane nothing for tails.
  CHECK(strata_test::segment_starts({1, 0, 0}, true) == strata_test::segment_starts({0, 0, 0}, true));
  CHECK(strata_test::segment_starts({0, 0, 1}, false) == strata_test::segment_starts({0, 0, 0}, false));
}

// Tests of strata/block/block_adjacent_difference.cuh: SubtractLeft, SubtractRight (with and
// without tile predecessor / successor items) and their PartialTile variants (valid items 0, 1,
// tile - 1, tile, random and beyond the tile), separate and in place, over every type, every
// block shape in {32, 80, 128, 256, 1024, 16x8, 8x4x2} and every items-per-thread count in
// {1, 3, 4, 7, 11}, combined pairwise, with a non-commutative difference and output types that
// differ from the input's; and the documented examples with their exact outputs. Several blocks
// per grid, each with its own data; each launch calls three members in turn: two on one
// TempStorage (reused after __syncthreads, inside a union), one on the private storage.
#include <strata/block/block_adjacent_difference.cuh>

#include "common/shapes.cuh"
#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace
{
constexpr int adjacent_blocks = 6;

enum adjacent_call : int
{
  left,              // SubtractLeft(input, output, op)
  left_pred,         // SubtractLeft(input, output, op, tile_predecessor_item)
  left_partial,      // SubtractLeftPartialTile(input, output, op, valid_items)
  left_partial_pred, // SubtractLeftPartialTile(input, output, op, valid_items, tile_predecessor_item)
  right,             // SubtractRight(input, output, op)
  right_succ,        // SubtractRight(input, output, op, tile_successor_item)
  right_partial,     // SubtractRightPartialTile(input, output, op, valid_items)
  call_count
};

constexpr const char* call_names[call_count] = {
    "SubtractLeft",  "SubtractLeft(pred)",  "SubtractLeftPartialTile", "SubtractLeftPartialTile(pred)",
    "SubtractRight", "SubtractRight(succ)", "SubtractRightPartialTile"};

//! The documentation's difference operator, which takes its operands by non-const reference.
struct CustomDifference
{
  template <typename DataType>
  __host__ __device__ DataType operator()(DataType& lhs, DataType& rhs)
  {
    return lhs - rhs;
  }
};

//! A non-commutative "difference" for custom_t (which has no minus): a + 2b, wrapping.
struct plus_twice_right
{
  __host__ __device__ strata_test::custom_t operator()(const strata_test::custom_t& a,
                                                       const strata_test::custom_t& b) const
  {
    return a + b + b;
  }
};

//! Calls member `call` of `block` (a temporary, hence the forwarding reference).
template <typename BlockT, typename T, typename OutputT, int IPT, typename DifferenceOpT>
__device__ void apply_call(BlockT&& block, int call, T (&input)[IPT], OutputT (&output)[IPT], DifferenceOpT op,
                           int valid_items, T pred, T succ)
{
  switch (call)
  {
  case left:
    block.SubtractLeft(input, output, op);
    break;
  case left_pred:
    block.SubtractLeft(input, output, op, pred);
    break;
  case left_partial:
    block.SubtractLeftPartialTile(input, output, op, valid_items);
    break;
  case left_partial_pred:
    block.SubtractLeftPartialTile(input, output, op, valid_items, pred);
    break;
  case right:
    block.SubtractRight(input, output, op);
    break;
  case right_succ:
    block.SubtractRight(input, output, op, succ);
    break;
  default:
    block.SubtractRightPartialTile(input, output, op, valid_items);
    break;
  }
}

//! One block shape, items-per-thread count, input and output type and difference operator.
template <typename T, typename OutputT, int BX, int BY, int BZ, int IPT, typename DifferenceOpT>
struct adjacent_config : strata_test::block_shape<BX, BY, BZ, IPT>
{
  using type          = T;
  using output_type   = OutputT;
  using difference_op = DifferenceOpT;
};

//! Pass p (0, 1, 2) calls member calls[p]: pass 0 on the kernel's TempStorage into a separate
//! array, pass 1 on the same TempStorage and pass 2 on the private one, both in place when the
//! output type is the input type. Only thread 0 passes the real tile predecessor item and only
//! the last thread the real tile successor item; the others pass their first item instead.
template <typename ConfigT, typename T = typename ConfigT::type, typename OutputT = typename ConfigT::output_type>
__global__ void __launch_bounds__(ConfigT::threads)
    adjacent_difference_kernel(const T* in, const OutputT* fill, const T* tile_items, const int* valid_items,
                               int3 calls, OutputT* out)
{
  using BlockT = strata::BlockAdjacentDifference<T, ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z>;
  constexpr int THREADS = ConfigT::threads;
  constexpr int IPT     = ConfigT::items;
  constexpr int TILE    = ConfigT::tile;
  const typename ConfigT::difference_op op{};
  __shared__ union
  {
    typename BlockT::TempStorage adjacent_difference;
    int other[THREADS];
  } storage;

  const int rank  = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block = static_cast<int>(blockIdx.x);
  const int first = block * TILE + rank * IPT;
  const int valid = valid_items[block];
  const T pred    = rank == 0 ? tile_items[2 * block] : in[first];
  const T succ    = rank == THREADS - 1 ? tile_items[2 * block + 1] : in[first];

  for (int pass = 0; pass < 3; ++pass)
  {
    const int call   = pass == 0 ? calls.x : pass == 1 ? calls.y : calls.z;
    OutputT* results = out + pass * adjacent_blocks * TILE + first;
    T items[IPT];
#pragma unroll
    for (int i = 0; i < IPT; ++i)
    {
      items[i] = in[first + i];
    }
    if (pass == 0 || !std::is_same_v<T, OutputT>)
    {
      OutputT output[IPT];
#pragma unroll
      for (int i = 0; i < IPT; ++i)
      {
        output[i] = fill[first + i];
      }
      if (pass < 2)
      {
        apply_call(BlockT(storage.adjacent_difference), call, items, output, op, valid, pred, succ);
      }
      else
      {
        apply_call(BlockT(), call, items, output, op, valid, pred, succ);
      }
#pragma unroll
      for (int i = 0; i < IPT; ++i)
      {
        results[i] = output[i];
      }
    }
    else if constexpr (std::is_same_v<T, OutputT>)
    {
      if (pass < 2)
      {
        apply_call(BlockT(storage.adjacent_difference), call, items, items, op, valid, pred, succ);
      }
      else
      {
        apply_call(BlockT(), call, items, items, op, valid, pred, succ);
      }
#pragma unroll
      for (int i = 0; i < IPT; ++i)
      {
        results[i] = items[i];
      }
    }
    __syncthreads();
  }
}

//! Inputs of one launch: the tiles, per block the tile predecessor and successor items and the
//! valid items, and the values outputs hold before the call.
template <typename ConfigT>
struct adjacent_inputs
{
  std::vector<typename ConfigT::type> in;
  std::vector<typename ConfigT::output_type> fill;
  std::vector<typename ConfigT::type> tile_items;
  std::vector<int> valid_items;
};

template <typename ConfigT>
std::array<std::vector<typename ConfigT::output_type>, 3>
run_adjacent_difference(const adjacent_inputs<ConfigT>& inputs, std::array<int, 3> calls)
{
  using T             = typename ConfigT::type;
  using OutputT       = typename ConfigT::output_type;
  const std::size_t n = adjacent_blocks * ConfigT::tile;
  strata_test::device_buffer<T> d_in(inputs.in), d_tile_items(inputs.tile_items);
  strata_test::device_buffer<OutputT> d_fill(inputs.fill), d_out(3 * n);
  strata_test::device_buffer<int> d_valid(inputs.valid_items);
  d_out.poison();
  adjacent_difference_kernel<ConfigT>
      <<<adjacent_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(
          d_in.data(), d_fill.data(), d_tile_items.data(), d_valid.data(), int3{calls[0], calls[1], calls[2]},
          d_out.data());
  strata_test::check_launch();
  const std::vector<OutputT> out = d_out.download();
  std::array<std::vector<OutputT>, 3> result;
  for (std::size_t pass = 0; pass < 3; ++pass)
  {
    result[pass].assign(out.begin() + pass * n, out.begin() + (pass + 1) * n);
  }
  return result;
}

//! What member `call` writes for every tile.
template <typename ConfigT>
std::vector<typename ConfigT::output_type> adjacent_reference(int call, const adjacent_inputs<ConfigT>& inputs)
{
  using T            = typename ConfigT::type;
  using OutputT      = typename ConfigT::output_type;
  constexpr int TILE = ConfigT::tile;
  typename ConfigT::difference_op op{};
  // Copies, since the operator may take non-const references.
  auto difference = [&](T a, T b) { return static_cast<OutputT>(op(a, b)); };
  std::vector<OutputT> expected(inputs.in.size());
  for (int b = 0; b < adjacent_blocks; ++b)
  {
    const T* x         = inputs.in.data() + b * TILE;
    const T pred       = inputs.tile_items[2 * b];
    const T succ       = inputs.tile_items[2 * b + 1];
    const int valid    = inputs.valid_items[b];
    const bool partial = call == left_partial || call == left_partial_pred || call == right_partial;
    const int limit    = partial ? std::min(valid, TILE) : TILE; // items past it are copied
    for (int g = 0; g < TILE; ++g)
    {
      OutputT& result = expected[static_cast<std::size_t>(b * TILE + g)];
      result          = static_cast<OutputT>(x[g]);
      if (call == right || call == right_succ || call == right_partial)
      {
        if (g + 1 < limit)
        {
          result = difference(x[g], x[g + 1]);
        }
        else if (call == right_succ)
        {
          result = difference(x[g], succ);
        }
      }
      else if (g < limit)
      {
        if (g > 0)
        {
          result = difference(x[g], x[g - 1]);
        }
        else if (call == left_pred || call == left_partial_pred)
        {
          result = difference(x[0], pred);
        }
      }
    }
  }
  return expected;
}

//! Integers in [-100, 100] ([0, 200] for unsigned types) as T, so that every difference is exact
//! in every type; custom_t over its whole range (its addition wraps).
template <typename T>
std::vector<T> small_values(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, strata_test::custom_t>)
  {
    return strata_test::random_vector<T>(n, seed);
  }
  else
  {
    const int lo = std::is_unsigned_v<T> ? 0 : -100;
    strata_test::generator<int> gen(seed);
    std::vector<T> values(n);
    for (auto& v : values)
    {
      v = strata_test::from_double<T>(gen(lo, lo + 200));
    }
    return values;
  }
}

template <typename ConfigT>
void check_block_adjacent_difference(std::uint64_t salt)
{
  using T                  = typename ConfigT::type;
  using OutputT            = typename ConfigT::output_type;
  constexpr int TILE       = ConfigT::tile;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO("block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", "
                << ConfigT::items << " items per thread, seed " << seed);
  const std::size_t n = adjacent_blocks * TILE;
  adjacent_inputs<ConfigT> inputs;
  inputs.in         = small_values<T>(n, seed);
  inputs.fill       = strata_test::random_vector<OutputT>(n, seed + 1);
  inputs.tile_items = small_values<T>(2 * adjacent_blocks, seed + 2);
  strata_test::generator<int> gen(seed + 3);
  inputs.valid_items = {0, 1, TILE - 1, TILE, gen(0, TILE), TILE + 7};
  INFO("valid items per block " << Catch::Detail::stringify(inputs.valid_items));

  for (int call = 0; call < call_count; ++call)
  {
    // Every member runs once in each pass, each time after a different one.
    const std::array<int, 3> calls = {call, (call + 2) % call_count, (call + 5) % call_count};
    const auto actual              = run_adjacent_difference(inputs, calls);
    for (std::size_t pass = 0; pass < 3; ++pass)
    {
      INFO(call_names[calls[pass]] << (pass == 0   ? " into a separate array on the caller's TempStorage"
                                       : pass == 1 ? " on the caller's TempStorage (in place if the types match)"
                                                   : " on the private storage (in place if the types match)"));
      strata_test::check_equal(adjacent_reference(calls[pass], inputs), actual[pass]);
    }
  }
}

using std::int16_t;
using std::int32_t;
using std::int64_t;
using std::int8_t;
using std::uint16_t;
using std::uint32_t;
using std::uint64_t;
using std::uint8_t;
using strata_test::custom_t;
using minus_op = cuda::std::minus<>;

// Each type once; shapes cycle through 7 values and item counts through 5. Two configurations
// write another output type (uint8_t differences into int, float differences into double).
using c00 = adjacent_config<int8_t, int8_t, 32, 1, 1, 1, minus_op>;
using c01 = adjacent_config<uint8_t, int, 80, 1, 1, 3, minus_op>;
using c02 = adjacent_config<int16_t, int16_t, 128, 1, 1, 4, minus_op>;
using c03 = adjacent_config<uint16_t, uint16_t, 256, 1, 1, 7, minus_op>;
using c04 = adjacent_config<int32_t, int32_t, 1024, 1, 1, 11, minus_op>;
using c05 = adjacent_config<uint32_t, uint32_t, 16, 8, 1, 1, minus_op>;
using c06 = adjacent_config<int64_t, int64_t, 8, 4, 2, 3, minus_op>;
using c07 = adjacent_config<uint64_t, uint64_t, 32, 1, 1, 4, minus_op>;
using c08 = adjacent_config<float, float, 80, 1, 1, 7, minus_op>;
using c09 = adjacent_config<double, double, 128, 1, 1, 11, minus_op>;
using c10 = adjacent_config<__half, __half, 256, 1, 1, 1, minus_op>;
using c11 = adjacent_config<__nv_bfloat16, __nv_bfloat16, 1024, 1, 1, 3, minus_op>;
using c12 = adjacent_config<custom_t, custom_t, 16, 8, 1, 4, plus_twice_right>;
using c13 = adjacent_config<float, double, 8, 4, 2, 7, minus_op>;

//! The documented examples: 128 threads of 4 ints, the documentation's CustomDifference.
using documented = adjacent_config<int, int, 128, 1, 1, 4, CustomDifference>;

//! The documented input in every block: threads 0 .. 3 and 124 .. 127 hold { [4,2,1,1],
//! [1,1,1,1], [2,3,3,3], [3,4,1,4] }, the threads between end with 3 (the "...3]" before thread
//! 124 in the SubtractRight examples).
adjacent_inputs<documented> documented_inputs(int tile_item, int valid_items)
{
  const int ends[4][4] = {{4, 2, 1, 1}, {1, 1, 1, 1}, {2, 3, 3, 3}, {3, 4, 1, 4}};
  adjacent_inputs<documented> inputs;
  inputs.in.resize(adjacent_blocks * 512);
  for (int b = 0; b < adjacent_blocks; ++b)
  {
    for (int t = 0; t < 128; ++t)
    {
      for (int i = 0; i < 4; ++i)
      {
        const int middle               = i == 3 ? 3 : (t * (i + 2)) % 7;
        inputs.in[b * 512 + 4 * t + i] = t < 4 ? ends[t][i] : t >= 124 ? ends[t - 124][i] : middle;
      }
    }
  }
  inputs.fill        = std::vector<int>(inputs.in.size(), -1000);
  inputs.tile_items  = std::vector<int>(2 * adjacent_blocks, tile_item);
  inputs.valid_items = std::vector<int>(adjacent_blocks, valid_items);
  return inputs;
}

//! Items 4t .. 4t + 3 of the first tile.
std::vector<int> thread_items(const std::vector<int>& tile, int t)
{
  return std::vector<int>(tile.begin() + 4 * t, tile.begin() + 4 * t + 4);
}

using items4 = std::vector<int>;

//! Runs `call` in all three passes on the documented input, checks every pass against the host
//! reference and returns pass 1's output (in place, as in the documentation's snippets).
std::vector<int> run_documented(int call, int tile_item, int valid_items)
{
  INFO(call_names[call]);
  const adjacent_inputs<documented> inputs = documented_inputs(tile_item, valid_items);
  const auto actual                        = run_adjacent_difference(inputs, {call, call, call});
  for (const auto& pass : actual)
  {
    strata_test::check_equal(adjacent_reference(call, inputs), pass);
  }
  return actual[1];
}
} // namespace

TEMPLATE_TEST_CASE("BlockAdjacentDifference: every member over block shapes, item counts and types",
                   "[block][adjacent_difference]", c00, c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, c11, c12, c13)
{
  STRATA_TEST_REQUIRE_GPU();
  check_block_adjacent_difference<TestType>(TestType::threads * 16 + TestType::items);
}

TEST_CASE("BlockAdjacentDifference: the documented SubtractLeft examples", "[block][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  {
    const auto out = run_documented(left, 0, 0);
    CHECK(thread_items(out, 0) == items4{4, -2, -1, 0});
    CHECK(thread_items(out, 1) == items4{0, 0, 0, 0});
    CHECK(thread_items(out, 2) == items4{1, 1, 0, 0});
    CHECK(thread_items(out, 3) == items4{0, 1, -3, 3});
  }
  {
    const auto out = run_documented(left_pred, 3, 0);
    CHECK(thread_items(out, 0) == items4{1, -2, -1, 0});
    CHECK(thread_items(out, 1) == items4{0, 0, 0, 0});
    CHECK(thread_items(out, 2) == items4{1, 1, 0, 0});
    CHECK(thread_items(out, 3) == items4{0, 1, -3, 3});
  }
  {
    const auto out = run_documented(left_partial, 0, 9);
    CHECK(thread_items(out, 0) == items4{4, -2, -1, 0});
    CHECK(thread_items(out, 1) == items4{0, 0, 0, 0});
    CHECK(thread_items(out, 2) == items4{1, 3, 3, 3});
    CHECK(thread_items(out, 3) == items4{3, 4, 1, 4});
  }
  {
    const auto out = run_documented(left_partial_pred, 4, 9);
    CHECK(thread_items(out, 0) == items4{0, -2, -1, 0});
    CHECK(thread_items(out, 1) == items4{0, 0, 0, 0});
    CHECK(thread_items(out, 2) == items4{1, 3, 3, 3});
    CHECK(thread_items(out, 3) == items4{3, 4, 1, 4});
  }
}

TEST_CASE("BlockAdjacentDifference: the documented SubtractRight examples", "[block][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  {
    const auto out = run_documented(right, 0, 0);
    CHECK(out[4 * 123 + 3] == -1);
    CHECK(thread_items(out, 124) == items4{2, 1, 0, 0});
    CHECK(thread_items(out, 125) == items4{0, 0, 0, -1});
    CHECK(thread_items(out, 126) == items4{-1, 0, 0, 0});
    CHECK(thread_items(out, 127) == items4{-1, 3, -3, 4});
  }
  {
    const auto out = run_documented(right_succ, 3, 0);
    CHECK(out[4 * 123 + 3] == -1);
    CHECK(thread_items(out, 124) == items4{2, 1, 0, 0});
    CHECK(thread_items(out, 125) == items4{0, 0, 0, -1});
    CHECK(thread_items(out, 126) == items4{-1, 0, 0, 0});
    CHECK(thread_items(out, 127) == items4{-1, 3, -3, 1});
  }
  {
    const auto out = run_documented(right_partial, 0, 507);
    CHECK(out[4 * 123 + 3] == -1);
    CHECK(thread_items(out, 124) == items4{2, 1, 0, 0});
    CHECK(thread_items(out, 125) == items4{0, 0, 0, -1});
    CHECK(thread_items(out, 126) == items4{-1, 0, 3, 3});
    CHECK(thread_items(out, 127) == items4{3, 4, 1, 4});
  }
}

TEST_CASE("BlockAdjacentDifference tests: the host reference on the documented examples",
          "[block][adjacent_difference]")
{
  const auto left_out = adjacent_reference(left_partial_pred, documented_inputs(4, 9));
  CHECK(thread_items(left_out, 0) == items4{0, -2, -1, 0});
  CHECK(thread_items(left_out, 2) == items4{1, 3, 3, 3});
  const auto right_out = adjacent_reference(right_partial, documented_inputs(0, 507));
  CHECK(thread_items(right_out, 126) == items4{-1, 0, 3, 3});
  CHECK(thread_items(right_out, 127) == items4{3, 4, 1, 4});
  const auto succ_out = adjacent_reference(right_succ, documented_inputs(3, 0));
  CHECK(thread_items(succ_out, 127) == items4{-1, 3, -3, 1});
  // The difference is not commutative for custom_t either.
  const custom_t a{1, 2, 3};
  const custom_t b{4, 5, 6};
  CHECK(!(plus_twice_right{}(a, b) == plus_twice_right{}(b, a)));
}

// Tests of strata/block/block_discontinuity.cuh: all ten FlagHeads / FlagTails /
// FlagHeadsAndTails overloads (with and without tile predecessor and successor items, with and
// without the predecessors output), with flag operators of both arities (a, b) and (a, b, index),
// over every type, every block shape in {32, 80, 128, 256, 1024, 16x8, 8x4x2}, every
// items-per-thread count in {1, 3, 4, 7, 11} and several flag types, combined pairwise; and the
// documented examples with their exact outputs. Several blocks per grid, each with its own data
// and tile items; each launch calls three overloads in turn: two on one TempStorage (reused
// after __syncthreads, inside a union), one on the private storage.
#include <strata/block/block_discontinuity.cuh>

#include "common/shapes.cuh"
#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace
{
constexpr int discontinuity_blocks = 4;

//! The overloads, in the order of the header.
enum discontinuity_call : int
{
  heads,                 // FlagHeads(head_flags, input, flag_op)
  heads_pred,            // FlagHeads(head_flags, input, flag_op, tile_predecessor_item)
  heads_preds,           // FlagHeads(head_flags, input, preds, flag_op)
  heads_preds_pred,      // FlagHeads(head_flags, input, preds, flag_op, tile_predecessor_item)
  tails,                 // FlagTails(tail_flags, input, flag_op)
  tails_succ,            // FlagTails(tail_flags, input, flag_op, tile_successor_item)
  heads_tails,           // FlagHeadsAndTails(head_flags, tail_flags, input, flag_op)
  heads_tails_succ,      // FlagHeadsAndTails(head_flags, tail_flags, tile_successor_item, input, flag_op)
  heads_pred_tails,      // FlagHeadsAndTails(head_flags, tile_predecessor_item, tail_flags, input, flag_op)
  heads_pred_tails_succ, // FlagHeadsAndTails(head_flags, tile_predecessor_item, tail_flags, tile_successor_item, ...)
  call_count
};

constexpr const char* call_names[call_count] = {"FlagHeads",
                                                "FlagHeads(pred)",
                                                "FlagHeads(preds)",
                                                "FlagHeads(preds, pred)",
                                                "FlagTails",
                                                "FlagTails(succ)",
                                                "FlagHeadsAndTails",
                                                "FlagHeadsAndTails(succ)",
                                                "FlagHeadsAndTails(pred)",
                                                "FlagHeadsAndTails(pred, succ)"};

constexpr bool has_heads(int call)
{
  return call != tails && call != tails_succ;
}
constexpr bool has_tails(int call)
{
  return call >= tails;
}
constexpr bool has_preds(int call)
{
  return call == heads_preds || call == heads_preds_pred;
}
constexpr bool has_pred(int call)
{
  return call == heads_pred || call == heads_preds_pred || call == heads_pred_tails || call == heads_pred_tails_succ;
}
constexpr bool has_succ(int call)
{
  return call == tails_succ || call == heads_tails_succ || call == heads_pred_tails_succ;
}

//! A flag operator of arity 2: inequality.
using two_arg_op = cuda::std::not_equal_to<>;

//! A flag operator of arity 3: inequality, inverted at the ranks a hash selects, so that a wrong
//! `b_index` changes about half of the flags. Takes the index as CUB documents it (unsigned).
struct indexed_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b, unsigned int b_index) const
  {
    const bool invert = ((b_index * 2654435761u) >> 13) & 1u;
    return (a != b) != invert;
  }
};

//! The value a flag array holds before the call, to catch flags left unwritten.
template <typename FlagT>
__host__ __device__ constexpr FlagT flag_sentinel()
{
  return static_cast<FlagT>(2);
}
template <>
__host__ __device__ constexpr bool flag_sentinel<bool>()
{
  return true;
}

template <typename T>
struct discontinuity_outputs
{
  int* heads; // per item and pass
  int* tails; // per item and pass
  T* preds;   // per item and pass
};

//! Calls overload `call` of `block` (a temporary, hence the forwarding reference).
template <typename BlockT, typename T, typename FlagT, int IPT, typename FlagOpT>
__device__ void apply_call(BlockT&& block, int call, T (&items)[IPT], FlagT (&head_flags)[IPT],
                           FlagT (&tail_flags)[IPT], T (&preds)[IPT], FlagOpT flag_op, T pred, T succ)
{
  switch (call)
  {
  case heads:
    block.FlagHeads(head_flags, items, flag_op);
    break;
  case heads_pred:
    block.FlagHeads(head_flags, items, flag_op, pred);
    break;
  case heads_preds:
    block.FlagHeads(head_flags, items, preds, flag_op);
    break;
  case heads_preds_pred:
    block.FlagHeads(head_flags, items, preds, flag_op, pred);
    break;
  case tails:
    block.FlagTails(tail_flags, items, flag_op);
    break;
  case tails_succ:
    block.FlagTails(tail_flags, items, flag_op, succ);
    break;
  case heads_tails:
    block.FlagHeadsAndTails(head_flags, tail_flags, items, flag_op);
    break;
  case heads_tails_succ:
    block.FlagHeadsAndTails(head_flags, tail_flags, succ, items, flag_op);
    break;
  case heads_pred_tails:
    block.FlagHeadsAndTails(head_flags, pred, tail_flags, items, flag_op);
    break;
  default:
    block.FlagHeadsAndTails(head_flags, pred, tail_flags, succ, items, flag_op);
    break;
  }
}

//! One block shape, items-per-thread count, item type and flag type.
template <typename T, typename FlagT, int BX, int BY, int BZ, int IPT, typename FlagOpT>
struct discontinuity_config : strata_test::block_shape<BX, BY, BZ, IPT>
{
  using type      = T;
  using flag_type = FlagT;
  using flag_op   = FlagOpT;
};

//! Pass p (0, 1, 2) calls overload calls[p]: passes 0 and 1 on the kernel's TempStorage, pass 2
//! on the private one. Only thread 0 passes the real tile predecessor item and only the last
//! thread the real tile successor item; the others pass wrong ones that must not matter.
template <typename ConfigT, typename T = typename ConfigT::type>
__global__ void __launch_bounds__(ConfigT::threads)
    discontinuity_kernel(const T* in, const T* fill, const T* tile_items, int3 calls, discontinuity_outputs<T> out)
{
  using BlockT = strata::BlockDiscontinuity<T, ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z>;
  using FlagT  = typename ConfigT::flag_type;
  constexpr int THREADS = ConfigT::threads;
  constexpr int IPT     = ConfigT::items;
  constexpr int TILE    = ConfigT::tile;
  const typename ConfigT::flag_op flag_op{};
  __shared__ union
  {
    typename BlockT::TempStorage discontinuity;
    int other[THREADS];
  } storage;

  const int rank  = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block = static_cast<int>(blockIdx.x);
  const T pred    = rank == 0 ? tile_items[2 * block] : fill[block * TILE + rank * IPT];
  const T succ    = rank == THREADS - 1 ? tile_items[2 * block + 1] : fill[block * TILE + rank * IPT];

  for (int pass = 0; pass < 3; ++pass)
  {
    const int call   = pass == 0 ? calls.x : pass == 1 ? calls.y : calls.z;
    const int offset = (pass * discontinuity_blocks + block) * TILE + rank * IPT;
    T items[IPT];
    T preds[IPT];
    FlagT head_flags[IPT];
    FlagT tail_flags[IPT];
#pragma unroll
    for (int i = 0; i < IPT; ++i)
    {
      items[i]      = in[block * TILE + rank * IPT + i];
      preds[i]      = fill[block * TILE + rank * IPT + i];
      head_flags[i] = flag_sentinel<FlagT>();
      tail_flags[i] = flag_sentinel<FlagT>();
    }
    if (pass < 2)
    {
      apply_call(BlockT(storage.discontinuity), call, items, head_flags, tail_flags, preds, flag_op, pred, succ);
      __syncthreads();
    }
    else
    {
      apply_call(BlockT(), call, items, head_flags, tail_flags, preds, flag_op, pred, succ);
    }
#pragma unroll
    for (int i = 0; i < IPT; ++i)
    {
      out.heads[offset + i] = static_cast<int>(head_flags[i]);
      out.tails[offset + i] = static_cast<int>(tail_flags[i]);
      out.preds[offset + i] = preds[i];
    }
  }
}

//! What one launch wrote: per pass, the flags (as int) and the predecessors of every tile.
template <typename T>
struct discontinuity_result
{
  std::vector<int> heads;
  std::vector<int> tails;
  std::vector<T> preds;
};

template <typename ConfigT>
std::array<discontinuity_result<typename ConfigT::type>, 3>
run_discontinuity(const std::vector<typename ConfigT::type>& in, const std::vector<typename ConfigT::type>& fill,
                  const std::vector<typename ConfigT::type>& tile_items, std::array<int, 3> calls)
{
  using T             = typename ConfigT::type;
  constexpr int TILE  = ConfigT::tile;
  const std::size_t n = discontinuity_blocks * TILE;
  strata_test::device_buffer<T> d_in(in), d_fill(fill), d_tile_items(tile_items);
  strata_test::device_buffer<int> d_heads(3 * n), d_tails(3 * n);
  strata_test::device_buffer<T> d_preds(3 * n);
  d_heads.poison();
  d_tails.poison();
  d_preds.poison();
  discontinuity_kernel<ConfigT>
      <<<discontinuity_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(
          d_in.data(), d_fill.data(), d_tile_items.data(), int3{calls[0], calls[1], calls[2]},
          discontinuity_outputs<T>{d_heads.data(), d_tails.data(), d_preds.data()});
  strata_test::check_launch();
  const std::vector<int> heads = d_heads.download();
  const std::vector<int> tails = d_tails.download();
  const std::vector<T> preds   = d_preds.download();
  std::array<discontinuity_result<T>, 3> result;
  for (std::size_t pass = 0; pass < 3; ++pass)
  {
    result[pass].heads.assign(heads.begin() + pass * n, heads.begin() + (pass + 1) * n);
    result[pass].tails.assign(tails.begin() + pass * n, tails.begin() + (pass + 1) * n);
    result[pass].preds.assign(preds.begin() + pass * n, preds.begin() + (pass + 1) * n);
  }
  return result;
}

template <typename T, typename FlagOpT>
bool host_flag(FlagOpT flag_op, const T& a, const T& b, int b_index)
{
  if constexpr (strata::detail::binary_op_has_idx_param_v<T, FlagOpT>)
  {
    return flag_op(a, b, static_cast<unsigned int>(b_index));
  }
  else
  {
    return flag_op(a, b);
  }
}

//! What overload `call` writes for every tile (flags that it does not compute keep the
//! sentinel, predecessors that it does not return keep `fill`).
template <typename ConfigT>
discontinuity_result<typename ConfigT::type>
discontinuity_reference(int call, const std::vector<typename ConfigT::type>& in,
                        const std::vector<typename ConfigT::type>& fill,
                        const std::vector<typename ConfigT::type>& tile_items)
{
  using T            = typename ConfigT::type;
  constexpr int TILE = ConfigT::tile;
  const int sentinel = static_cast<int>(flag_sentinel<typename ConfigT::flag_type>());
  typename ConfigT::flag_op flag_op{};
  discontinuity_result<T> expected{std::vector<int>(in.size(), sentinel), std::vector<int>(in.size(), sentinel), fill};
  for (int b = 0; b < discontinuity_blocks; ++b)
  {
    const T* x = in.data() + b * TILE;
    for (int g = 0; g < TILE; ++g)
    {
      const std::size_t slot = static_cast<std::size_t>(b * TILE + g);
      if (has_heads(call))
      {
        if (g > 0)
        {
          expected.heads[slot] = host_flag(flag_op, x[g - 1], x[g], g);
        }
        else
        {
          expected.heads[slot] = has_pred(call) ? host_flag(flag_op, tile_items[2 * b], x[0], 0) : 1;
        }
      }
      if (has_tails(call))
      {
        if (g < TILE - 1)
        {
          expected.tails[slot] = host_flag(flag_op, x[g], x[g + 1], g + 1);
        }
        else
        {
          expected.tails[slot] = has_succ(call) ? host_flag(flag_op, x[g], tile_items[2 * b + 1], TILE) : 1;
        }
      }
      if (has_preds(call) && (g > 0 || has_pred(call)))
      {
        expected.preds[slot] = g > 0 ? x[g - 1] : tile_items[2 * b];
      }
    }
  }
  return expected;
}

template <typename T>
void check_result(const discontinuity_result<T>& expected, const discontinuity_result<T>& actual)
{
  {
    INFO("head flags");
    strata_test::check_equal(expected.heads, actual.heads);
  }
  {
    INFO("tail flags");
    strata_test::check_equal(expected.tails, actual.tails);
  }
  {
    INFO("predecessors");
    strata_test::check_equal(expected.preds, actual.preds);
  }
}

//! Items from a three-value alphabet, so that about a third of all neighbours are equal
//! (custom_t's values differ in its first or its last member only).
template <typename T>
std::vector<T> few_values(std::size_t n, std::uint64_t seed)
{
  strata_test::generator<int> gen(seed);
  std::vector<T> values(n);
  for (auto& v : values)
  {
    const int k = gen(0, 2);
    if constexpr (std::is_same_v<T, strata_test::custom_t>)
    {
      v = strata_test::custom_t{k == 2, 0, k == 1};
    }
    else
    {
      v = strata_test::from_double<T>(k);
    }
  }
  return values;
}

template <typename ConfigT>
void check_block_discontinuity(std::uint64_t salt)
{
  using T                  = typename ConfigT::type;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO(
      "block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", "
               << ConfigT::items << " items per thread, "
               << (strata::detail::binary_op_has_idx_param_v<T, typename ConfigT::flag_op> ? "(a, b, index)" : "(a, b)")
               << " flag operator, seed " << seed);
  const std::size_t n       = discontinuity_blocks * ConfigT::tile;
  const std::vector<T> in   = few_values<T>(n, seed);
  const std::vector<T> fill = strata_test::random_vector<T>(n, seed + 1);
  // Per block: a tile predecessor and a tile successor item.
  const std::vector<T> tile_items = few_values<T>(2 * discontinuity_blocks, seed + 2);

  for (int call = 0; call < call_count; ++call)
  {
    // Every overload runs once in each pass, each time after a different one.
    const std::array<int, 3> calls = {call, (call + 3) % call_count, (call + 7) % call_count};
    const auto actual              = run_discontinuity<ConfigT>(in, fill, tile_items, calls);
    for (std::size_t pass = 0; pass < 3; ++pass)
    {
      INFO(call_names[calls[pass]] << (pass < 2 ? " on the caller's TempStorage (pass "
                                                : " on the private storage (pass ")
                                   << pass << ")");
      check_result(discontinuity_reference<ConfigT>(calls[pass], in, fill, tile_items), actual[pass]);
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

// Each type once (custom_t twice); shapes cycle through 7 values, item counts through 5 and the
// operator's arity through 2, so every shape and every item count meets both arities.
using c00 = discontinuity_config<int8_t, int, 32, 1, 1, 1, two_arg_op>;
using c01 = discontinuity_config<uint8_t, uint8_t, 80, 1, 1, 3, indexed_op>;
using c02 = discontinuity_config<int16_t, int64_t, 128, 1, 1, 4, two_arg_op>;
using c03 = discontinuity_config<uint16_t, bool, 256, 1, 1, 7, indexed_op>;
using c04 = discontinuity_config<int32_t, int, 1024, 1, 1, 11, two_arg_op>;
using c05 = discontinuity_config<uint32_t, int, 16, 8, 1, 1, indexed_op>;
using c06 = discontinuity_config<int64_t, uint8_t, 8, 4, 2, 3, two_arg_op>;
using c07 = discontinuity_config<uint64_t, int, 32, 1, 1, 4, indexed_op>;
using c08 = discontinuity_config<float, int, 80, 1, 1, 7, two_arg_op>;
using c09 = discontinuity_config<double, int64_t, 128, 1, 1, 11, indexed_op>;
using c10 = discontinuity_config<__half, int, 256, 1, 1, 1, two_arg_op>;
using c11 = discontinuity_config<__nv_bfloat16, int, 1024, 1, 1, 3, indexed_op>;
using c12 = discontinuity_config<custom_t, int, 16, 8, 1, 4, two_arg_op>;
using c13 = discontinuity_config<custom_t, int16_t, 8, 4, 2, 7, indexed_op>;

//! The documented examples: 128 threads of 4 ints, flagged with inequality.
using documented = discontinuity_config<int, int, 128, 1, 1, 4, two_arg_op>;

//! The documented input: { [0,0,1,1], [1,1,1,1], [2,3,3,3], [3,4,4,4], ..., [124,125,125,125] }
//! (threads 3 .. 123 hold [t, t+1, t+1, t+1], threads 124 .. 126 [124,124,124,124]), in every
//! block, with tile predecessor item 0 and tile successor item 125.
std::vector<int> documented_input()
{
  std::vector<int> x(discontinuity_blocks * 512);
  for (int b = 0; b < discontinuity_blocks; ++b)
  {
    for (int t = 0; t < 128; ++t)
    {
      std::array<int, 4> items{};
      if (t == 0)
      {
        items = {0, 0, 1, 1};
      }
      else if (t == 1)
      {
        items = {1, 1, 1, 1};
      }
      else if (t <= 123)
      {
        items = {t, t + 1, t + 1, t + 1};
      }
      else if (t <= 126)
      {
        items = {124, 124, 124, 124};
      }
      else
      {
        items = {124, 125, 125, 125};
      }
      for (int i = 0; i < 4; ++i)
      {
        x[b * 512 + 4 * t + i] = items[i];
      }
    }
  }
  return x;
}

//! Thread t's four flags of the first block.
std::vector<int> thread_flags(const std::vector<int>& flags, int t)
{
  return std::vector<int>(flags.begin() + 4 * t, flags.begin() + 4 * t + 4);
}
} // namespace

TEMPLATE_TEST_CASE("BlockDiscontinuity: every overload over block shapes, item counts, types and operator arities",
                   "[block][discontinuity]", c00, c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, c11, c12, c13)
{
  STRATA_TEST_REQUIRE_GPU();
  check_block_discontinuity<TestType>(TestType::threads * 16 + TestType::items);
}

TEST_CASE("BlockDiscontinuity: the documented examples", "[block][discontinuity]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::vector<int> in         = documented_input();
  const std::vector<int> fill       = strata_test::random_vector<int>(in.size(), strata_test::seed(3));
  const std::vector<int> tile_items = {0, 125, 0, 125, 0, 125, 0, 125};
  using flags                       = std::vector<int>;
  const flags heads_doc[4]          = {{1, 0, 1, 0}, {0, 0, 0, 0}, {1, 1, 0, 0}, {0, 1, 0, 0}};
  const flags heads_pred_doc[4]     = {{0, 0, 1, 0}, {0, 0, 0, 0}, {1, 1, 0, 0}, {0, 1, 0, 0}};

  for (int call = 0; call < call_count; ++call)
  {
    INFO(call_names[call]);
    const auto actual = run_discontinuity<documented>(in, fill, tile_items, {call, call, call});
    for (const auto& pass : actual)
    {
      check_result(discontinuity_reference<documented>(call, in, fill, tile_items), pass);
    }
    const discontinuity_result<int>& result = actual[0];
    if (has_heads(call))
    {
      for (int t = 0; t < 4; ++t)
      {
        CHECK(thread_flags(result.heads, t) == (has_pred(call) ? heads_pred_doc[t] : heads_doc[t]));
      }
    }
    if (has_tails(call))
    {
      CHECK(thread_flags(result.tails, 0) == flags{0, 1, 0, 0});
      CHECK(thread_flags(result.tails, 1) == flags{0, 0, 0, 1});
      CHECK(flags(result.tails.begin() + 8, result.tails.begin() + 11) == flags{1, 0, 0});
      CHECK(thread_flags(result.tails, 127) == (has_succ(call) ? flags{1, 0, 0, 0} : flags{1, 0, 0, 1}));
    }
  }
}

TEST_CASE("BlockDiscontinuity: flag operators with and without an index are told apart", "[block][discontinuity]")
{
  STATIC_REQUIRE(strata::detail::binary_op_has_idx_param_v<int, indexed_op>);
  STATIC_REQUIRE_FALSE(strata::detail::binary_op_has_idx_param_v<int, two_arg_op>);
  STATIC_REQUIRE(strata::detail::binary_op_has_idx_param_v<strata_test::custom_t, indexed_op>);
  // An operator with both forms is called with the index, as in CUB.
  struct both_forms
  {
    bool operator()(int, int) const
    {
      return false;
    }
    bool operator()(int, int, int) const
    {
      return true;
    }
  };
  STATIC_REQUIRE(strata::detail::binary_op_has_idx_param_v<int, both_forms>);
}

TEST_CASE("BlockDiscontinuity tests: the host reference on the documented example", "[block][discontinuity]")
{
  const std::vector<int> in = documented_input();
  const std::vector<int> fill(in.size(), -1);
  const std::vector<int> tile_items = {0, 125, 0, 125, 0, 125, 0, 125};
  const auto expected               = discontinuity_reference<documented>(heads_pred_tails, in, fill, tile_items);
  CHECK(thread_flags(expected.heads, 0) == std::vector<int>{0, 0, 1, 0});
  CHECK(thread_flags(expected.heads, 2) == std::vector<int>{1, 1, 0, 0});
  CHECK(thread_flags(expected.tails, 1) == std::vector<int>{0, 0, 0, 1});
  CHECK(thread_flags(expected.tails, 127) == std::vector<int>{1, 0, 0, 1});
  CHECK(expected.preds == fill);
  // The indexed operator inverts the flags at about half of the ranks it is given.
  int inverted = 0;
  for (int rank = 0; rank < 512; ++rank)
  {
    CHECK(host_flag(indexed_op{}, 3, 3, rank) == indexed_op{}(3, 3, static_cast<unsigned int>(rank)));
    inverted += host_flag(indexed_op{}, 3, 3, rank) ? 1 : 0;
  }
  CHECK(inverted > 128);
  CHECK(inverted < 384);
}

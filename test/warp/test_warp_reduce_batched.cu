// Tests of strata/warp/warp_reduce_batched.cuh against host folds in lane order: int32 sums
// (also Sum, SumToStriped, SumToBlocked), float maxima and a non-commutative operator (composition of
// affine maps, which pins the order of the lanes) through Reduce, ReduceToStriped and
// ReduceToBlocked, for batch counts below, at, above and well above the logical warp size
// (1, 3, 32, 33, 70), logical warps of 32, 16, 4 and 1 lanes, two hardware warps of random items
// a block, and SyncPhysicalWarp.
#include <strata/warp/warp_reduce_batched.cuh>

#include "common/test_common.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstdint>
#include <vector>

namespace
{
constexpr int block_threads = 64;

enum class form
{
  reduce,
  striped,
  blocked,
  sum,         // Sum
  sum_striped, // SumToStriped
  sum_blocked  // SumToBlocked
};

//! Thread t's items are in[t * B, (t + 1) * B); its results go to out[t * M, (t + 1) * M).
template <typename T, int B, int L, bool SYNC, form FORM, typename OpT>
__global__ void __launch_bounds__(block_threads) reduce_batched(const T* in, T* out, OpT op)
{
  using BatchedT  = strata::WarpReduceBatched<T, B, L, SYNC>;
  constexpr int M = BatchedT::MAX_OUT_PER_THREAD;
  __shared__ typename BatchedT::TempStorage storage[block_threads / L];
  T items[B];
  for (int b = 0; b < B; ++b)
  {
    items[b] = in[threadIdx.x * B + b];
  }
  BatchedT batched(storage[threadIdx.x / L]);
  if constexpr (FORM == form::reduce)
  {
    out[threadIdx.x] = batched.Reduce(items, op);
  }
  else if constexpr (FORM == form::sum)
  {
    out[threadIdx.x] = batched.Sum(items);
  }
  else
  {
    T results[M];
    if constexpr (FORM == form::striped)
    {
      batched.ReduceToStriped(items, results, op);
    }
    else if constexpr (FORM == form::blocked)
    {
      batched.ReduceToBlocked(items, results, op);
    }
    else if constexpr (FORM == form::sum_striped)
    {
      batched.SumToStriped(items, results);
    }
    else
    {
      batched.SumToBlocked(items, results);
    }
    for (int t = 0; t < M; ++t)
    {
      out[threadIdx.x * M + t] = results[t];
    }
  }
}

template <typename T, int B, int L, form FORM, bool SYNC = false, typename OpT>
void check_batched(const std::vector<T>& in, OpT op)
{
  INFO("batches " << B << ", logical warp " << L << ", form " << int(FORM) << ", sync " << SYNC);
  constexpr int M   = strata::WarpReduceBatched<T, B, L>::MAX_OUT_PER_THREAD;
  constexpr int OUT = FORM == form::reduce || FORM == form::sum ? 1 : M;
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(std::size_t(block_threads) * OUT);
  d_out.poison();
  reduce_batched<T, B, L, SYNC, FORM><<<1, block_threads>>>(d_in.data(), d_out.data(), op);
  strata_test::check_launch();
  const std::vector<T> got = d_out.download();
  std::size_t wrong        = 0;
  std::size_t checked      = 0;
  for (int thread = 0; thread < block_threads; ++thread)
  {
    const int warp = thread / L;
    const int lane = thread % L;
    for (int t = 0; t < OUT; ++t)
    {
      const int batch = FORM == form::blocked || FORM == form::sum_blocked ? lane * M + t : lane + t * L;
      if (batch >= B)
      {
        continue; // no result here
      }
      T expected = in[std::size_t(warp * L) * B + batch];
      for (int l = 1; l < L; ++l)
      {
        expected = op(expected, in[std::size_t(warp * L + l) * B + batch]);
      }
      ++checked;
      wrong += !(got[std::size_t(thread) * OUT + t] == expected);
    }
  }
  CHECK(checked == std::size_t(block_threads / L) * B);
  CHECK(wrong == 0);
}

template <int L, typename T, typename OpT>
void check_sizes(const std::vector<T>& in, OpT op)
{
  if constexpr (L >= 1)
  {
    check_batched<T, 1, L, form::reduce>(in, op);
  }
  if constexpr (L >= 3)
  {
    check_batched<T, 3, L, form::reduce>(in, op);
  }
  check_batched<T, 3, L, form::striped>(in, op);
  check_batched<T, 32, L, form::striped>(in, op);
  check_batched<T, 33, L, form::striped>(in, op);
  check_batched<T, 33, L, form::blocked>(in, op);
  check_batched<T, 70, L, form::blocked>(in, op);
  check_batched<T, 70, L, form::striped>(in, op);
}
} // namespace

TEST_CASE("WarpReduceBatched sums int32 batches", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(443);
  INFO("seed " << seed);
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(block_threads * 70, seed);
  check_sizes<32>(in, cuda::std::plus<>{});
  check_sizes<16>(in, cuda::std::plus<>{});
  check_sizes<4>(in, cuda::std::plus<>{});
  check_sizes<1>(in, cuda::std::plus<>{});
  check_batched<std::int32_t, 33, 8, form::blocked, true>(in, cuda::std::plus<>{});
  check_batched<std::int32_t, 5, 8, form::sum>(in, cuda::std::plus<>{});
  check_batched<std::int32_t, 70, 16, form::sum_striped>(in, cuda::std::plus<>{});
  check_batched<std::int32_t, 70, 16, form::sum_blocked>(in, cuda::std::plus<>{});
}

TEST_CASE("WarpReduceBatched takes the maxima of float batches", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(449);
  INFO("seed " << seed);
  const std::vector<float> in = strata_test::random_vector<float>(block_threads * 70, seed, -100.0, 100.0);
  check_sizes<32>(in, cuda::maximum<>{});
  check_sizes<4>(in, cuda::maximum<>{});
}

TEST_CASE("WarpReduceBatched combines each batch in lane order", "[warp][reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(457);
  INFO("seed " << seed);
  const std::vector<std::uint32_t> words = strata_test::random_vector<std::uint32_t>(block_threads * 70 * 2, seed);
  std::vector<strata_test::affine_map> in(block_threads * 70);
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    in[i] = strata_test::affine_map{words[2 * i] | 1u, words[2 * i + 1]};
  }
  check_sizes<32>(in, strata_test::affine_compose{});
  check_sizes<16>(in, strata_test::affine_compose{});
  check_sizes<1>(in, strata_test::affine_compose{});
}

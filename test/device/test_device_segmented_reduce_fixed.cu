// Tests of DeviceSegmentedReduce's fixed-size forms (CUB 3.5: num_segments consecutive segments of
// segment_size items) against host loops: Sum, Min, Max and Reduce of int32 and float items,
// ArgMin and ArgMax (the first of equal items, {1, the type's extreme} for empty segments), for
// segment sizes 0, 1, 7, 32, 33, 1000, 4096 and 4097 and up to 2^18 segments (256 to 4096 items in
// 2048 segments or more: one a warp; fewer, shorter or longer: the cost line), the output past the
// last segment left poisoned, and bad arguments (a negative segment size or count: refused, nothing
// written).
// Segments of 1 to 32 items take tiles of whole segments (AgentSegmentedReduceFixed): every such
// size with counts around its tile's, for items of 1, 4 and 8 bytes, a misaligned input and an
// input iterator.
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace
{
struct max_abs
{
  __host__ __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const
  {
    const std::int32_t x = a < 0 ? -a : a;
    const std::int32_t y = b < 0 ? -b : b;
    return x > y ? x : y;
  }
};

enum class op
{
  sum,
  min,
  max,
  reduce,
  arg_min,
  arg_max
};

template <op OP, typename T, typename OutT>
cudaError_t call(void* d_temp, size_t& bytes, const T* d_in, OutT* d_out, std::int64_t segments, int size)
{
  if constexpr (OP == op::sum)
  {
    return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, d_in, d_out, segments, size);
  }
  else if constexpr (OP == op::min)
  {
    return strata::DeviceSegmentedReduce::Min(d_temp, bytes, d_in, d_out, segments, size);
  }
  else if constexpr (OP == op::max)
  {
    return strata::DeviceSegmentedReduce::Max(d_temp, bytes, d_in, d_out, segments, size);
  }
  else if constexpr (OP == op::reduce)
  {
    return strata::DeviceSegmentedReduce::Reduce(d_temp, bytes, d_in, d_out, segments, size, max_abs{}, T(3));
  }
  else if constexpr (OP == op::arg_min)
  {
    return strata::DeviceSegmentedReduce::ArgMin(d_temp, bytes, d_in, d_out, segments, size);
  }
  else
  {
    return strata::DeviceSegmentedReduce::ArgMax(d_temp, bytes, d_in, d_out, segments, size);
  }
}

//! The host's result of OP over in[s * size, (s + 1) * size).
template <op OP, typename T, typename OutT>
OutT reference(const std::vector<T>& in, std::size_t s, int size)
{
  const std::size_t begin = s * std::size_t(size);
  if constexpr (OP == op::arg_min || OP == op::arg_max)
  {
    OutT best{1, OP == op::arg_min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest()};
    for (int i = 0; i < size; ++i)
    {
      const T x = in[begin + std::size_t(i)];
      if (i == 0 || (OP == op::arg_min ? x < best.value : x > best.value))
      {
        best = OutT{i, x};
      }
    }
    return best;
  }
  else
  {
    OutT acc = OP == op::sum   ? OutT(0)
               : OP == op::min ? OutT(std::numeric_limits<T>::max())
               : OP == op::max ? OutT(std::numeric_limits<T>::lowest())
                               : OutT(3);
    for (int i = 0; i < size; ++i)
    {
      const T x = in[begin + std::size_t(i)];
      acc       = OP == op::sum   ? OutT(acc + x)
                  : OP == op::min ? std::min(acc, OutT(x))
                  : OP == op::max ? std::max(acc, OutT(x))
                                  : OutT(max_abs{}(std::int32_t(acc), std::int32_t(x)));
    }
    return acc;
  }
}

template <typename T>
bool same(const T& a, const T& b)
{
  return a == b;
}
template <typename K, typename V>
bool same(const strata::KeyValuePair<K, V>& a, const strata::KeyValuePair<K, V>& b)
{
  return a.key == b.key && a.value == b.value;
}

template <op OP, typename T, typename OutT = T>
void check_fixed(std::uint64_t seed)
{
  for (const int size : {0, 1, 7, 32, 33, 1000, 4096, 4097})
  {
    for (const std::int64_t segments :
         {std::int64_t(0), std::int64_t(1), std::int64_t(1000), std::int64_t(2048), std::int64_t(1) << 18})
    {
      if (std::int64_t(size) * segments > (std::int64_t(1) << 24))
      {
        continue;
      }
      INFO("segment size " << size << ", segments " << segments);
      // Small integers (exact float sums in any order), ties likely.
      const std::vector<std::int32_t> ints = strata_test::random_vector<std::int32_t>(
          std::size_t(size) * std::size_t(segments), seed + std::uint64_t(size), -50.0, 50.0);
      const std::vector<T> in(ints.begin(), ints.end());
      strata_test::device_buffer<T> d_in(in);
      strata_test::device_buffer<OutT> d_out(std::size_t(segments) + 1);
      d_out.poison();
      size_t bytes = 0;
      REQUIRE(call<OP>(nullptr, bytes, d_in.data(), d_out.data(), segments, size) == cudaSuccess);
      strata_test::device_buffer<unsigned char> temp(bytes);
      REQUIRE(call<OP>(temp.data(), bytes, d_in.data(), d_out.data(), segments, size) == cudaSuccess);
      strata_test::check_launch();
      const std::vector<OutT> got = d_out.download();
      std::size_t wrong           = 0;
      std::int64_t first_wrong    = -1;
      for (std::int64_t s = 0; s < segments; ++s)
      {
        if (!same(got[std::size_t(s)], reference<OP, T, OutT>(in, std::size_t(s), size)))
        {
          first_wrong = wrong++ == 0 ? s : first_wrong;
        }
      }
      INFO("first wrong segment " << first_wrong);
      CHECK(wrong == 0);
      const OutT poison = strata_test::poison_value<OutT>();
      CHECK(std::memcmp(&got[std::size_t(segments)], &poison, sizeof(OutT)) == 0);
    }
  }
}
//! Segments a tile of the fixed-size path holds for items read through InputIteratorT.
template <typename InputIteratorT, typename OutT>
std::int64_t segments_per_tile(int size)
{
  namespace sr  = strata::detail::segmented_reduce;
  using PolicyT = typename sr::policy_hub<OutT, std::int64_t, cuda::std::plus<>>::MaxPolicy::SegmentedReduceFixedPolicy;
  using AgentT  = sr::AgentSegmentedReduceFixed<PolicyT, InputIteratorT, OutT*, cuda::std::plus<>, OutT, OutT,
                                               sr::ConvertItem<OutT>, true>;
  return AgentT::SegmentsPerTile(size);
}

//! Doubles an item on its way in: an input that is no pointer.
struct twice
{
  __host__ __device__ std::int64_t operator()(std::int32_t x) const
  {
    return 2 * std::int64_t(x);
  }
};

//! Sum (or, with ARG, ArgMax) of segments of every size from 1 to 32 items through the tile path, at
//! counts around a tile's: one, a tile less one, a tile, a tile and one, three and a half tiles.
//! The input starts `skew` items into its buffer (not on a 16-byte boundary where skew is odd);
//! with ITERATOR, it is read through a TransformInputIterator that doubles each item.
template <typename T, typename OutT, bool ARG = false, bool ITERATOR = false>
void check_tiles(std::uint64_t seed, std::size_t skew)
{
  using InT     = std::conditional_t<ITERATOR, std::int64_t, T>;
  using ItT     = std::conditional_t<ITERATOR, strata::TransformInputIterator<std::int64_t, twice, const T*>, const T*>;
  using ResultT = std::conditional_t<ARG, strata::KeyValuePair<int, InT>, OutT>;
  const int max_n = 4 * int(segments_per_tile<ItT, OutT>(1)) + 64; // 3.5 tiles of any size
  const std::vector<std::int32_t> ints =
      strata_test::random_vector<std::int32_t>(std::size_t(max_n) + skew, seed, -100.0, 100.0);
  const std::vector<T> in(ints.begin(), ints.end());
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<ResultT> d_out(std::size_t(max_n) + 1);
  strata_test::device_buffer<unsigned char> temp(1 << 20);
  for (int size = 1; size <= 32; ++size)
  {
    const std::int64_t tile = segments_per_tile<ItT, OutT>(size);
    for (const std::int64_t segments : {std::int64_t(1), tile - 1, tile, tile + 1, 3 * tile + tile / 2})
    {
      INFO("segment size " << size << ", segments " << segments << ", a tile " << tile << ", skew " << skew);
      REQUIRE(std::size_t(segments) * std::size_t(size) <= std::size_t(max_n));
      d_out.poison();
      const ItT first = [&]
      {
        if constexpr (ITERATOR)
        {
          return ItT(d_in.data() + skew, twice{});
        }
        else
        {
          return ItT(d_in.data() + skew);
        }
      }();
      size_t bytes = 0;
      cudaError_t error{};
      if constexpr (ARG)
      {
        REQUIRE(strata::DeviceSegmentedReduce::ArgMax(nullptr, bytes, first, d_out.data(), segments, size)
                == cudaSuccess);
        REQUIRE(bytes <= temp.bytes());
        error = strata::DeviceSegmentedReduce::ArgMax(temp.data(), bytes, first, d_out.data(), segments, size);
      }
      else
      {
        REQUIRE(strata::DeviceSegmentedReduce::Sum(nullptr, bytes, first, d_out.data(), segments, size) == cudaSuccess);
        REQUIRE(bytes <= temp.bytes());
        error = strata::DeviceSegmentedReduce::Sum(temp.data(), bytes, first, d_out.data(), segments, size);
      }
      REQUIRE(error == cudaSuccess);
      strata_test::check_launch();
      const std::vector<ResultT> got = d_out.download();
      std::int64_t wrong = 0, first_wrong = -1;
      for (std::int64_t s = 0; s < segments; ++s)
      {
        ResultT want{};
        for (int i = 0; i < size; ++i)
        {
          const T raw = in[skew + std::size_t(s) * std::size_t(size) + std::size_t(i)];
          const InT x = ITERATOR ? InT(2 * std::int64_t(raw)) : InT(raw);
          if constexpr (ARG)
          {
            want = i == 0 || x > want.value ? ResultT{i, x} : want;
          }
          else
          {
            want = ResultT(want + OutT(x));
          }
        }
        if (!same(got[std::size_t(s)], want))
        {
          first_wrong = wrong++ == 0 ? s : first_wrong;
        }
      }
      INFO("first wrong segment " << first_wrong);
      CHECK(wrong == 0);
      const ResultT poison = strata_test::poison_value<ResultT>();
      CHECK(std::memcmp(&got[std::size_t(segments)], &poison, sizeof(ResultT)) == 0);
    }
  }
}
} // namespace

TEST_CASE("DeviceSegmentedReduce's fixed-size forms take segments of up to 32 items a tile at a time",
          "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(443);
  INFO("seed " << seed);
  SECTION("1-byte items summed into int32, aligned and not")
  {
    check_tiles<std::int8_t, std::int32_t>(seed, 0);
    check_tiles<std::int8_t, std::int32_t>(seed + 1, 3);
  }
  SECTION("4-byte items, aligned and not; ArgMax")
  {
    check_tiles<std::int32_t, std::int32_t>(seed + 2, 0);
    check_tiles<float, float>(seed + 3, 1);
    check_tiles<std::int32_t, std::int32_t, true>(seed + 4, 5);
  }
  SECTION("8-byte items, aligned and not")
  {
    check_tiles<std::uint64_t, std::uint64_t>(seed + 5, 0);
    check_tiles<double, double>(seed + 6, 1);
  }
  SECTION("an input iterator")
  {
    check_tiles<std::int32_t, std::int64_t, false, true>(seed + 7, 2);
  }
}

TEST_CASE("DeviceSegmentedReduce's fixed-size forms match the host", "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(439);
  INFO("seed " << seed);
  SECTION("Sum")
  {
    check_fixed<op::sum, std::int32_t>(seed);
    check_fixed<op::sum, float>(seed);
  }
  SECTION("Min and Max")
  {
    check_fixed<op::min, std::int32_t>(seed);
    check_fixed<op::max, float>(seed);
  }
  SECTION("Reduce")
  {
    check_fixed<op::reduce, std::int32_t>(seed);
  }
  SECTION("ArgMin and ArgMax")
  {
    check_fixed<op::arg_min, std::int32_t, strata::KeyValuePair<int, std::int32_t>>(seed);
    check_fixed<op::arg_max, float, strata::KeyValuePair<int, float>>(seed);
  }
}

TEST_CASE("DeviceSegmentedReduce's fixed-size forms refuse bad arguments", "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<std::int32_t> in(std::vector<std::int32_t>{1, 2, 3, 4});
  strata_test::device_buffer<std::int32_t> out(2);
  strata_test::device_buffer<unsigned char> temp(4096);
  out.poison();
  size_t bytes = temp.bytes();
  CHECK(strata::DeviceSegmentedReduce::Sum(temp.data(), bytes, in.data(), out.data(), 2, -1) == cudaErrorInvalidValue);
  CHECK(strata::DeviceSegmentedReduce::Max(temp.data(), bytes, in.data(), out.data(), -2, 2) == cudaErrorInvalidValue);
  // A null input where the segments are not empty; with segment_size 0 it is never read (check_fixed).
  CHECK(strata::DeviceSegmentedReduce::Min(temp.data(), bytes, static_cast<const std::int32_t*>(nullptr), out.data(), 2,
                                           2)
        == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (const std::int32_t v : out.download())
  {
    CHECK(v == strata_test::poison_value<std::int32_t>());
  }
}

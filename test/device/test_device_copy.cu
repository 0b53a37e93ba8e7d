// Tests of strata/device/device_copy.cuh: DeviceCopy::Batched copies every item of its ranges and
// nothing else, for int32, int64, double and a 16-byte record: ranges behind pointers (random
// sizes with empty and negative ones, sizes straddling the chunk of 16384 items, ranges cut by
// chunk boundaries into pieces of 0, 1, 3, 15, 16, 17, lane - 1, lane, lane + 1, 2 lane + 1 and 63
// items, where lane is what one lane copies alone), packed, with gaps, in reversed and in shuffled
// order; run-length decoding with ConstantInputIterators as in the header's example (the example
// itself too); counting sequences from CountingInputIterators written through pointers computed by
// a TransformInputIterator. Outputs are poisoned with 0xAB and compared in full (gaps and the slack
// after the last range too) with a host reference, byte for byte.
#include <strata/device/device_copy.cuh>
#include <strata/iterator/constant_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_memcpy_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::layout;
using strata_test::placement;
using strata_test::size_dist;

//! A 16-byte record of three members (8-byte aligned).
struct record16
{
  std::int64_t key;
  std::int32_t a;
  float b;
};
static_assert(sizeof(record16) == 16);

using copy_types = std::tuple<std::int32_t, std::int64_t, double, record16>;

//! `n` random values of T (doubles in [-1e6, 1e6]) from `seed`.
template <typename T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, record16>)
  {
    const std::vector<std::int64_t> words = strata_test::random_vector<std::int64_t>(2 * n, seed);
    std::vector<record16> values(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      values[i] = record16{words[2 * i], std::int32_t(words[2 * i + 1]), float(words[2 * i + 1] >> 40)};
    }
    return values;
  }
  else if constexpr (std::is_floating_point_v<T>)
  {
    return strata_test::random_vector<T>(n, seed, -1e6, 1e6);
  }
  else
  {
    return strata_test::random_vector<T>(n, seed);
  }
}

//! Both phases of DeviceCopy::Batched, then waits for the copy.
template <typename InputT, typename OutputT, typename SizesT>
void run_batched(InputT inputs, OutputT outputs, SizesT sizes, std::int64_t num_ranges)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceCopy::Batched(nullptr, bytes, inputs, outputs, sizes, num_ranges));
  CHECK(bytes >= 1);
  device_buffer<unsigned char> temp(bytes);
  STRATA_TEST_CUDA(strata::DeviceCopy::Batched(temp.data(), bytes, inputs, outputs, sizes, num_ranges));
  strata_test::check_launch();
}

//! The range's first item as a ConstantInputIterator (run-length decoding, as in the header).
template <typename T>
struct to_constant
{
  __host__ __device__ strata::ConstantInputIterator<T> operator()(const T& value) const
  {
    return strata::ConstantInputIterator<T>(value);
  }
};

//! A counting sequence from the range's start.
template <typename T>
struct to_counting
{
  __host__ __device__ strata::CountingInputIterator<T> operator()(const T& start) const
  {
    return strata::CountingInputIterator<T>(start);
  }
};

//! The output at `offset` items from `base` (null for strata_test::null_offset).
template <typename T, typename OffsetT>
struct at_offset
{
  T* base;
  __host__ __device__ T* operator()(OffsetT offset) const
  {
    return offset == OffsetT(~std::uint64_t(0)) ? nullptr : base + offset;
  }
};

//! The range sizes of one batch: its distribution (negative sizes among the uniform ones).
std::vector<std::int64_t> range_sizes(size_dist dist, std::size_t count, std::uint64_t seed,
                                      const strata_test::copy_split& split)
{
  std::vector<std::int64_t> sizes = strata_test::make_sizes(dist, count, seed, split);
  if (dist == size_dist::uniform)
  {
    strata_test::add_negative_sizes(sizes, seed + 1);
  }
  return sizes;
}

std::vector<int> as_int(const std::vector<std::int64_t>& sizes)
{
  return std::vector<int>(sizes.begin(), sizes.end());
}

//! The batches every typed case runs: (distribution, count, layout) with counts 1 to 10^5, every
//! layout up to 1000 ranges and one of them in turn above; batches of more than `budget` bytes
//! left out (they would repeat the smaller counts' sizes).
struct batch_plan
{
  size_dist dist;
  std::size_t count;
  layout where;
  std::uint64_t seed;
};

template <typename T>
std::vector<batch_plan> plans(std::uint64_t seed, const std::vector<size_dist>& dists)
{
  const strata_test::copy_split split = strata_test::split_of(sizeof(T));
  const std::uint64_t budget          = (strata_test::under_sanitizer() ? std::uint64_t(16) : std::uint64_t(128)) << 20;
  const std::vector<layout> layouts{layout::packed, layout::gapped, layout::reversed, layout::shuffled};
  std::vector<batch_plan> out;
  std::size_t turn           = 0;
  const std::size_t counts[] = {1, 2, 33, 1000, 100000};
  for (const size_dist dist : dists)
  {
    for (const std::size_t count : counts)
    {
      const std::uint64_t batch_seed = seed + 1000 * std::uint64_t(dist) + count;
      if (strata_test::total_units(range_sizes(dist, count, batch_seed, split)) * sizeof(T) > budget)
      {
        continue;
      }
      if (count <= 1000)
      {
        for (const layout l : layouts)
        {
          out.push_back({dist, count, l, batch_seed});
        }
      }
      else
      {
        out.push_back({dist, count, layouts[turn++ % layouts.size()], batch_seed});
      }
    }
  }
  return out;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceCopy::Batched copies ranges behind pointers", "[device][copy]", copy_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(721 + sizeof(T));
  INFO("seed " << seed);
  const strata_test::copy_split split = strata_test::split_of(sizeof(T));
  const T poison                      = strata_test::copy_poison_value<T>();
  const std::vector<size_dist> dists{size_dist::zeros, size_dist::tiny, size_dist::uniform, size_dist::straddle,
                                     size_dist::pieces};
  for (const batch_plan& plan : plans<T>(seed, dists))
  {
    INFO(strata_test::dist_name(plan.dist)
         << ", " << plan.count << " ranges, " << strata_test::layout_name(plan.where));
    const std::vector<std::int64_t> sizes = range_sizes(plan.dist, plan.count, plan.seed, split);
    const placement p                     = strata_test::place(sizes, plan.where, plan.seed + 2);
    const std::vector<T> src              = random_values<T>(p.src_units, plan.seed + 3);
    const std::vector<T> expected         = strata_test::reference_copy(src, sizes, p, poison);
    device_buffer<T> d_src(src);
    device_buffer<T> d_dst(p.dst_units);
    strata_test::poison_arena(d_dst);
    std::vector<const T*> srcs(sizes.size());
    std::vector<T*> dsts(sizes.size());
    for (std::size_t r = 0; r < sizes.size(); ++r)
    {
      srcs[r] = p.src[r] == strata_test::null_offset ? nullptr : d_src.data() + p.src[r];
      dsts[r] = p.dst[r] == strata_test::null_offset ? nullptr : d_dst.data() + p.dst[r];
    }
    device_buffer<const T*> d_srcs(srcs);
    device_buffer<T*> d_dsts(dsts);
    device_buffer<int> d_sizes(as_int(sizes));
    run_batched(static_cast<const T* const*>(d_srcs.data()), static_cast<T* const*>(d_dsts.data()),
                static_cast<const int*>(d_sizes.data()), std::int64_t(sizes.size()));
    strata_test::check_arena(expected, d_dst.download(), sizes, p);
  }
}

namespace
{
//! Run-length decoding of `values` with `lengths` (offsets: their exclusive sum) into a poisoned
//! output of the total and 64 items more, through the iterators of the header's example.
template <typename T>
void check_decode(const std::vector<T>& values, const std::vector<int>& lengths)
{
  const std::size_t runs = values.size();
  std::vector<int> offsets(runs);
  placement p;
  p.src.resize(runs);
  p.dst.resize(runs);
  std::vector<std::int64_t> sizes(runs);
  int total = 0;
  for (std::size_t r = 0; r < runs; ++r)
  {
    offsets[r] = total;
    p.src[r]   = r;
    p.dst[r]   = std::uint64_t(total);
    sizes[r]   = lengths[r];
    total += lengths[r] > 0 ? lengths[r] : 0;
  }
  p.src_units = runs;
  p.dst_units = std::size_t(total) + 64;
  std::vector<T> expected(p.dst_units, strata_test::copy_poison_value<T>());
  for (std::size_t r = 0; r < runs; ++r)
  {
    std::fill_n(expected.begin() + offsets[r], lengths[r] > 0 ? lengths[r] : 0, values[r]);
  }
  device_buffer<T> d_values(values);
  device_buffer<int> d_lengths(lengths);
  device_buffer<int> d_offsets(offsets);
  device_buffer<T> d_out(p.dst_units);
  strata_test::poison_arena(d_out);
  const strata::TransformInputIterator<strata::ConstantInputIterator<T>, to_constant<T>, const T*> inputs(
      d_values.data(), {});
  const strata::TransformInputIterator<T*, at_offset<T, int>, const int*> outputs(d_offsets.data(), {d_out.data()});
  run_batched(inputs, outputs, static_cast<const int*>(d_lengths.data()), std::int64_t(runs));
  strata_test::check_arena(expected, d_out.download(), sizes, p);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceCopy::Batched decodes runs through ConstantInputIterators", "[device][copy]", copy_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(731 + sizeof(T));
  INFO("seed " << seed);
  if constexpr (std::is_same_v<T, std::int32_t>)
  {
    SECTION("the header's example")
    {
      check_decode<T>({1, 7, 3}, {2, 0, 3});
    }
  }
  SECTION("random runs")
  {
    std::vector<std::size_t> counts{1, 33, 1000, 100000};
    for (std::size_t c = 0; c < counts.size(); ++c)
    {
      const std::size_t runs = counts[c];
      INFO(runs << " runs");
      // Lengths of 0 (one in eight), 1 to 8, and one in 200 about a chunk or more.
      std::mt19937_64 engine(seed + c);
      std::uniform_int_distribution<int> kind(0, 199);
      std::uniform_int_distribution<int> small(1, 8);
      std::vector<int> lengths(runs);
      const int long_lengths[] = {16383, 16384, 16385, 40000};
      for (int& length : lengths)
      {
        const int k = kind(engine);
        length      = k < 25 ? 0 : k < 199 ? small(engine) : long_lengths[engine() % 4];
      }
      if (runs == 33)
      {
        lengths[5]  = 16384 + 1; // a long run, whatever the draw
        lengths[17] = -3;        // a negative length decodes nothing
      }
      check_decode<T>(random_values<T>(runs, seed + 10 + c), lengths);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceCopy::Batched writes counting sequences through computed pointers", "[device][copy]",
                   std::int32_t, std::int64_t, double)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(741 + sizeof(T));
  INFO("seed " << seed);
  const strata_test::copy_split split = strata_test::split_of(sizeof(T));
  const std::vector<size_dist> dists{size_dist::tiny, size_dist::uniform, size_dist::pieces};
  for (const batch_plan& plan : plans<T>(seed, dists))
  {
    INFO(strata_test::dist_name(plan.dist)
         << ", " << plan.count << " ranges, " << strata_test::layout_name(plan.where));
    const std::vector<std::int64_t> sizes = range_sizes(plan.dist, plan.count, plan.seed, split);
    const placement p                     = strata_test::place(sizes, plan.where, plan.seed + 2);
    // Starts in [-10^6, 10^6]: exact in every type, and so is each start + i.
    std::vector<T> starts(sizes.size());
    const std::vector<std::int32_t> draws =
        strata_test::random_vector<std::int32_t>(sizes.size(), plan.seed + 3, -1e6, 1e6);
    std::vector<T> expected(p.dst_units, strata_test::copy_poison_value<T>());
    for (std::size_t r = 0; r < sizes.size(); ++r)
    {
      starts[r] = T(draws[r]);
      for (std::int64_t i = 0; i < sizes[r]; ++i)
      {
        expected[p.dst[r] + std::uint64_t(i)] = T(starts[r] + T(i));
      }
    }
    device_buffer<T> d_starts(starts);
    device_buffer<std::uint64_t> d_dst_offsets(p.dst);
    device_buffer<int> d_sizes(as_int(sizes));
    device_buffer<T> d_dst(p.dst_units);
    strata_test::poison_arena(d_dst);
    const strata::TransformInputIterator<strata::CountingInputIterator<T>, to_counting<T>, const T*> inputs(
        d_starts.data(), {});
    const strata::TransformInputIterator<T*, at_offset<T, std::uint64_t>, const std::uint64_t*> outputs(
        d_dst_offsets.data(), {d_dst.data()});
    run_batched(inputs, outputs, static_cast<const int*>(d_sizes.data()), std::int64_t(sizes.size()));
    strata_test::check_arena(expected, d_dst.download(), sizes, p);
  }
}

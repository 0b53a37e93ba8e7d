// Tests of strata/device/device_scan.cuh and strata/device/device_reduce.cuh with accumulators
// that are not trivially copyable, which CUB 3.0.1 takes (issue #49, point 3): InclusiveScan,
// ExclusiveScan, InclusiveScanByKey, ExclusiveScanByKey and DeviceReduce::Reduce over two such
// types, and DeviceReduce::ReduceByKey and DeviceSegmentedReduce::Reduce over the second.
// `accum` is a 64-bit sum with a hand-written copy constructor and copy assignment, read and
// written as itself. `checked_accum` composes affine maps (not commutative; shifts alone where
// the algorithm may combine in any order) and, as the accumulator of CUB's test of complex
// accumulators, notices a value that was stored by assignment into memory where none was
// constructed, or copied from such memory. Random seeded inputs, sizes around one tile up to
// 2^20, poisoned outputs and temporary storage, host references.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_segmented_reduce.cuh>

#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"
#include "device_scan_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::check_scan;
using strata_test::run_scan;
using strata_test::scan_sizes;

//! A 64-bit sum whose copy constructor and copy assignment are user-written (they copy the
//! value, as the implicit ones would), so that it is not trivially copyable.
struct accum
{
  long long value;

  __host__ __device__ accum(long long v = 0)
      : value(v)
  {
  }
  __host__ __device__ accum(const accum& other)
      : value(other.value)
  {
  }
  __host__ __device__ accum& operator=(const accum& other)
  {
    value = other.value;
    return *this;
  }
  friend __host__ __device__ bool operator==(const accum& a, const accum& b)
  {
    return a.value == b.value;
  }
  friend std::ostream& operator<<(std::ostream& out, const accum& a)
  {
    return out << a.value;
  }
};
static_assert(!std::is_trivially_copyable_v<accum>);

struct accum_plus
{
  __host__ __device__ accum operator()(const accum& a, const accum& b) const
  {
    return accum(a.value + b.value);
  }
};

//! The map x -> m * x + h modulo 2^64: checked_accum's items and outputs.
struct affine
{
  std::uint64_t m;
  std::uint64_t h;

  friend __host__ __device__ bool operator==(const affine& a, const affine& b)
  {
    return a.m == b.m && a.h == b.h;
  }
  friend std::ostream& operator<<(std::ostream& out, const affine& f)
  {
    return out << "(" << f.m << ", " << f.h << ")";
  }
};

//! Affine maps composed left to right, in an accumulator that is not trivially copyable and
//! notices misuse. Only its constructors make a value live (a check word); a copy of a value that
//! is not live is not live, and an assignment leaves its left side live only where both sides
//! were. So a value assigned into memory where no checked_accum was constructed (such as poisoned
//! temporary storage), or copied out of it, reaches the output as the map (0, 0), which no
//! result is: items have odd m, and so do their compositions. The default value is live but no
//! identity (even m), so that a default value that enters a result shows too.
class checked_accum
{
  enum : std::uint32_t
  {
    live_check = 0x600dc0deu
  };

public:
  __host__ __device__ checked_accum()
      : m_(2)
      , h_(0x5eed)
      , check_(live_check)
  {
  }
  __host__ __device__ checked_accum(const affine& f)
      : m_(f.m)
      , h_(f.h)
      , check_(live_check)
  {
  }
  __host__ __device__ checked_accum(const checked_accum& other)
      : m_(other.m_)
      , h_(other.h_)
      , check_(other.live() ? std::uint32_t(live_check) : 0u)
  {
  }
  __host__ __device__ checked_accum& operator=(const checked_accum& other)
  {
    const bool both_live = live() && other.live();
    m_                   = other.m_;
    h_                   = other.h_;
    check_               = both_live ? std::uint32_t(live_check) : 0u;
    return *this;
  }

  //! This map, then `next`.
  __host__ __device__ checked_accum then(const checked_accum& next) const
  {
    checked_accum result(affine{m_ * next.m_, h_ * next.m_ + next.h_});
    result.check_ = live() && next.live() ? std::uint32_t(live_check) : 0u;
    return result;
  }

  //! The map, or (0, 0) where this value is not live.
  __host__ __device__ operator affine() const
  {
    return live() ? affine{m_, h_} : affine{0, 0};
  }

private:
  std::uint64_t m_;
  std::uint64_t h_;
  std::uint32_t check_;

  __host__ __device__ bool live() const
  {
    return check_ == live_check;
  }
};
static_assert(!std::is_trivially_copyable_v<checked_accum>);

struct compose
{
  __host__ __device__ checked_accum operator()(const checked_accum& a, const checked_accum& b) const
  {
    return a.then(b);
  }
};

//! Random affine maps with odd m; with `shifts`, maps x -> x + h only, whose composition is
//! commutative (DeviceReduce::Reduce and DeviceSegmentedReduce::Reduce, as CUB's, may combine in
//! any order; the scans and ReduceByKey keep the order).
std::vector<affine> random_maps(std::size_t n, std::uint64_t seed, bool shifts = false)
{
  const std::vector<std::uint64_t> words = strata_test::random_vector<std::uint64_t>(2 * n, seed);
  std::vector<affine> maps(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    maps[i] = affine{shifts ? 1 : words[2 * i] | 1, words[2 * i + 1]};
  }
  return maps;
}

//! Random sums in [-1000, 1000]: no sum of 2^20 of them overflows.
std::vector<accum> random_sums(std::size_t n, std::uint64_t seed)
{
  const std::vector<std::int32_t> values = strata_test::random_vector<std::int32_t>(n, seed, -1000.0, 1000.0);
  return std::vector<accum>(values.begin(), values.end());
}

//! The inputs of every case: 2^20 items.
constexpr std::size_t max_items = std::size_t(1) << 20;

//! Runs `call(d_temp, bytes, d_in, d_out, n)` at every size around DeviceScan's tile for AccumT.
template <typename AccumT, typename InT, typename OutT, typename CallT>
void check_scan_sizes(const std::vector<InT>& in, const std::vector<OutT>& expected, CallT call)
{
  strata_test::device_buffer<InT> d_in(in);
  strata_test::device_buffer<OutT> d_out(in.size());
  for (std::size_t n : scan_sizes(strata_test::scan_tile_items<AccumT>(), in.size()))
  {
    INFO("num_items " << n);
    check_scan(expected,
               run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                        { return call(d_temp, bytes, d_in.data(), d_out.data(), n); }),
               n);
  }
}

//! Runs `call(d_temp, bytes, d_keys, d_values, d_out, n)` at every size around the tile of the
//! scans by key.
template <typename AccumT, typename KeyT, typename InT, typename OutT, typename CallT>
void check_by_key_sizes(const std::vector<KeyT>& keys, const std::vector<InT>& values,
                        const std::vector<OutT>& expected, CallT call)
{
  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<InT> d_values(values);
  strata_test::device_buffer<OutT> d_out(values.size());
  for (std::size_t n : scan_sizes(strata_test::scan_by_key_tile_items<KeyT, AccumT>(), values.size()))
  {
    INFO("num_items " << n);
    check_scan(expected,
               run_scan(d_out, [&](void* d_temp, std::size_t& bytes)
                        { return call(d_temp, bytes, d_keys.data(), d_values.data(), d_out.data(), n); }),
               n);
  }
}

//! Sizes around the tiles of DeviceReduce's sm_90 policy for AccumT over InT items: one block's
//! tile, the largest input one block reduces (one launch) and past it (two), up to `available`.
template <typename AccumT, typename InT, typename OpT>
std::vector<std::size_t> reduce_tile_sizes(std::size_t available)
{
  using PolicyT          = typename strata::detail::reduce::policy_hub<AccumT, std::uint32_t, OpT, InT>::Policy900;
  const std::size_t tile = std::size_t(PolicyT::ReducePolicy::BLOCK_THREADS) * PolicyT::ReducePolicy::ITEMS_PER_THREAD;
  const std::size_t single = std::size_t(PolicyT::SINGLE_BLOCK_MAX_ITEMS);
  std::vector<std::size_t> sizes;
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), tile - 1, tile, tile + 1, single, single + 1, std::size_t(100003), available})
  {
    if (n <= available)
    {
      sizes.push_back(n);
    }
  }
  return sizes;
}

//! DeviceReduce::Reduce of in[0, n) from `init` at every size of reduce_tile_sizes, against a host
//! fold; OutT is what the output holds (AccumT converted).
template <typename OutT, typename AccumT, typename InT, typename OpT>
void check_reduce_sizes(const std::vector<InT>& in, OpT op, const AccumT& init)
{
  strata_test::device_buffer<InT> d_in(in);
  for (std::size_t n : reduce_tile_sizes<AccumT, InT, OpT>(in.size()))
  {
    INFO("num_items " << n);
    AccumT expected = init;
    for (std::size_t i = 0; i < n; ++i)
    {
      expected = op(expected, AccumT(in[i]));
    }
    const OutT actual = strata_test::run_reduce<OutT>(
        [&](void* d_temp, std::size_t& bytes, OutT* d_out)
        { return strata::DeviceReduce::Reduce(d_temp, bytes, d_in.data(), d_out, n, op, init); });
    CHECK(actual == OutT(expected));
  }
}

//! CHECKs that out[0, n) is `expected` and that out[n] kept its poison.
template <typename T>
void check_prefix(const std::vector<T>& expected, const strata_test::device_buffer<T>& d_out, std::size_t n)
{
  const std::vector<T> out = d_out.download();
  REQUIRE(out.size() > n);
  REQUIRE(expected.size() == n);
  strata_test::check_equal(expected, std::vector<T>(out.begin(), out.begin() + std::ptrdiff_t(n)));
  const auto* past = reinterpret_cast<const unsigned char*>(&out[n]);
  INFO("the item past the outputs");
  CHECK(std::count(past, past + sizeof(T), strata_test::poison_byte) == std::ptrdiff_t(sizeof(T)));
}
} // namespace

TEST_CASE("DeviceScan and DeviceReduce with a sum whose copy constructor and assignment are user-written",
          "[device][scan][nontrivial]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4931);
  INFO("seed " << seed);
  const std::vector<accum> in = random_sums(max_items, seed);
  const accum init(1000003);
  const auto op = accum_plus{};
  SECTION("InclusiveScan")
  {
    const auto expected = strata_test::reference_scan<true, accum>(in, op, static_cast<const accum*>(nullptr));
    check_scan_sizes<accum>(in, expected,
                            [&](void* d_temp, std::size_t& bytes, const accum* d_in, accum* d_out, std::size_t n)
                            { return strata::DeviceScan::InclusiveScan(d_temp, bytes, d_in, d_out, op, n); });
  }
  SECTION("ExclusiveScan")
  {
    const auto expected = strata_test::reference_scan<false, accum>(in, op, &init);
    check_scan_sizes<accum>(in, expected,
                            [&](void* d_temp, std::size_t& bytes, const accum* d_in, accum* d_out, std::size_t n)
                            { return strata::DeviceScan::ExclusiveScan(d_temp, bytes, d_in, d_out, op, init, n); });
  }
  SECTION("InclusiveScanByKey and ExclusiveScanByKey")
  {
    // Runs of 1 to 15 keys, and runs of up to 5000 that cross tiles (their look-backs).
    for (int max_run : {15, 5000})
    {
      INFO("runs of up to " << max_run << " keys");
      const std::vector<std::int32_t> keys = strata_test::run_keys<std::int32_t>(in.size(), seed + 1, max_run);
      const auto inclusive =
          strata_test::reference_scan_by_key<accum>(keys, in, op, static_cast<const accum*>(nullptr));
      const auto exclusive = strata_test::reference_scan_by_key<accum>(keys, in, op, &init);
      check_by_key_sizes<accum>(
          keys, in, inclusive,
          [&](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys, const accum* d_values, accum* d_out,
              std::size_t n)
          { return strata::DeviceScan::InclusiveScanByKey(d_temp, bytes, d_keys, d_values, d_out, op, n); });
      check_by_key_sizes<accum>(
          keys, in, exclusive,
          [&](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys, const accum* d_values, accum* d_out,
              std::size_t n)
          { return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, d_keys, d_values, d_out, op, init, n); });
    }
  }
  SECTION("DeviceReduce::Reduce")
  {
    check_reduce_sizes<accum>(in, op, init);
  }
}

TEST_CASE("DeviceScan and DeviceReduce with an accumulator that notices assignments into raw memory",
          "[device][scan][nontrivial]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4933);
  INFO("seed " << seed);
  const std::vector<affine> in = random_maps(max_items, seed);
  const checked_accum init(affine{3, 7});
  const auto op = compose{};
  SECTION("InclusiveScan")
  {
    const auto expected = strata_test::reference_scan<true, affine>(in, op, static_cast<const checked_accum*>(nullptr));
    check_scan_sizes<checked_accum>(
        in, expected,
        [&](void* d_temp, std::size_t& bytes, const affine* d_in, affine* d_out, std::size_t n)
        { return strata::DeviceScan::InclusiveScan(d_temp, bytes, d_in, d_out, op, n); });
  }
  SECTION("ExclusiveScan")
  {
    const auto expected = strata_test::reference_scan<false, affine>(in, op, &init);
    check_scan_sizes<checked_accum>(
        in, expected,
        [&](void* d_temp, std::size_t& bytes, const affine* d_in, affine* d_out, std::size_t n)
        { return strata::DeviceScan::ExclusiveScan(d_temp, bytes, d_in, d_out, op, init, n); });
  }
  SECTION("InclusiveScanByKey and ExclusiveScanByKey")
  {
    for (int max_run : {15, 5000})
    {
      INFO("runs of up to " << max_run << " keys");
      const std::vector<std::int32_t> keys = strata_test::run_keys<std::int32_t>(in.size(), seed + 1, max_run);
      const auto inclusive =
          strata_test::reference_scan_by_key<affine>(keys, in, op, static_cast<const checked_accum*>(nullptr));
      const auto exclusive = strata_test::reference_scan_by_key<affine>(keys, in, op, &init);
      check_by_key_sizes<checked_accum>(
          keys, in, inclusive,
          [&](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys, const affine* d_values, affine* d_out,
              std::size_t n)
          { return strata::DeviceScan::InclusiveScanByKey(d_temp, bytes, d_keys, d_values, d_out, op, n); });
      check_by_key_sizes<checked_accum>(
          keys, in, exclusive,
          [&](void* d_temp, std::size_t& bytes, const std::int32_t* d_keys, const affine* d_values, affine* d_out,
              std::size_t n)
          { return strata::DeviceScan::ExclusiveScanByKey(d_temp, bytes, d_keys, d_values, d_out, op, init, n); });
    }
  }
  SECTION("DeviceReduce::Reduce")
  {
    check_reduce_sizes<affine>(random_maps(max_items, seed + 3, true), op, checked_accum(affine{1, 7}));
  }
}

TEST_CASE("DeviceReduce::ReduceByKey and DeviceSegmentedReduce::Reduce with an accumulator that notices assignments "
          "into raw memory",
          "[device][reduce][nontrivial]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(4935);
  INFO("seed " << seed);
  const std::vector<affine> in = random_maps(max_items, seed);
  const auto op                = compose{};
  SECTION("ReduceByKey")
  {
    for (int max_run : {15, 5000})
    {
      INFO("runs of up to " << max_run << " keys");
      const std::vector<std::int32_t> keys = strata_test::run_keys<std::int32_t>(in.size(), seed + 1, max_run);
      strata_test::device_buffer<std::int32_t> d_keys(keys);
      strata_test::device_buffer<affine> d_in(in);
      strata_test::device_buffer<std::int32_t> d_unique(in.size() + 1);
      strata_test::device_buffer<affine> d_aggregates(in.size() + 1);
      strata_test::device_buffer<int> d_num_runs(2);
      for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(100003), in.size()})
      {
        INFO("num_items " << n);
        std::vector<std::int32_t> unique;
        std::vector<affine> aggregates;
        checked_accum running;
        for (std::size_t i = 0; i < n; ++i)
        {
          if (i == 0 || keys[i] != keys[i - 1])
          {
            if (i > 0)
            {
              aggregates.push_back(affine(running));
            }
            unique.push_back(keys[i]);
            running = checked_accum(in[i]);
          }
          else
          {
            running = op(running, checked_accum(in[i]));
          }
        }
        if (n > 0)
        {
          aggregates.push_back(affine(running));
        }
        d_unique.poison();
        d_aggregates.poison();
        d_num_runs.poison();
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(strata::DeviceReduce::ReduceByKey(nullptr, bytes, d_keys.data(), d_unique.data(), d_in.data(),
                                                           d_aggregates.data(), d_num_runs.data(), op, n));
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        d_temp.poison();
        STRATA_TEST_CUDA(strata::DeviceReduce::ReduceByKey(d_temp.data(), bytes, d_keys.data(), d_unique.data(),
                                                           d_in.data(), d_aggregates.data(), d_num_runs.data(), op, n));
        STRATA_TEST_CUDA(cudaDeviceSynchronize());
        REQUIRE(d_num_runs.download()[0] == int(unique.size()));
        check_prefix(unique, d_unique, unique.size());
        check_prefix(aggregates, d_aggregates, aggregates.size());
      }
    }
  }
  SECTION("DeviceSegmentedReduce::Reduce")
  {
    // Contiguous segments, mostly of 0 to 20 items, one in 64 of 5000 to 60000 (many warps and
    // blocks of the cost line), over all the items.
    std::mt19937_64 engine(seed + 2);
    std::vector<std::int64_t> offsets{0};
    while (offsets.back() < std::int64_t(in.size()))
    {
      const std::int64_t length =
          engine() % 64 == 0 ? std::int64_t(5000 + engine() % 55001) : std::int64_t(engine() % 21);
      offsets.push_back(std::min(offsets.back() + length, std::int64_t(in.size())));
    }
    const std::size_t segments       = offsets.size() - 1;
    const std::vector<affine> shifts = random_maps(in.size(), seed + 3, true);
    const checked_accum init(affine{1, 11});
    std::vector<affine> expected(segments);
    for (std::size_t s = 0; s < segments; ++s)
    {
      checked_accum total = init;
      for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i)
      {
        total = op(total, checked_accum(shifts[std::size_t(i)]));
      }
      expected[s] = affine(total);
    }
    strata_test::device_buffer<affine> d_in(shifts);
    strata_test::device_buffer<std::int64_t> d_offsets(offsets);
    strata_test::device_buffer<affine> d_out(segments + 1);
    d_out.poison();
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(strata::DeviceSegmentedReduce::Reduce(nullptr, bytes, d_in.data(), d_out.data(), segments,
                                                           d_offsets.data(), d_offsets.data() + 1, op, init));
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    d_temp.poison();
    STRATA_TEST_CUDA(strata::DeviceSegmentedReduce::Reduce(d_temp.data(), bytes, d_in.data(), d_out.data(), segments,
                                                           d_offsets.data(), d_offsets.data() + 1, op, init));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    check_prefix(expected, d_out, segments);
  }
}

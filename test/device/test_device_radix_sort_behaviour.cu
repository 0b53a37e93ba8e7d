// Tests of strata/device/device_radix_sort.cuh, part 3: what is not a key type: bad arguments
// (an error code, nothing written) and DoubleBuffers without buffers where no bit is sorted by
// (accepted, as CUB does), keys of a user's struct through a decomposer (with and without a bit
// range; pairs through pointers and DoubleBuffers, keys only through both), the histogram's
// blocks per portion (host only), more than 2^31 keys, pairs of several portions, passes in which
// every key has one digit, sorts on a stream of their own, on two streams at once, and captured
// in a CUDA graph; SortPairs with values read through an iterator. (Several portions at small
// sizes, through a policy hub of small portions: test_device_radix_sort_portions.)
#include <strata/device/device_radix_sort.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_radix_sort_checks.cuh"

#include <cuda/std/tuple>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace
{
//! A key of two members: `f` is the more significant, `ll` the less.
struct pair_key
{
  float f;
  long long ll;
};

struct pair_key_decomposer
{
  __host__ __device__ cuda::std::tuple<float&, long long&> operator()(pair_key& key) const
  {
    return {key.f, key.ll};
  }
};

//! The positions of keys in a stable sort by bits [begin_bit, end_bit) of the 96-bit key (f's
//! order bits above ll's).
std::vector<std::uint32_t> pair_key_order(const std::vector<pair_key>& keys, int begin_bit, int end_bit,
                                          bool descending)
{
  using u128      = unsigned __int128;
  const int bits  = end_bit - begin_bit;
  const u128 mask = bits >= 128 ? ~u128(0) : (u128(1) << bits) - 1;
  std::vector<u128> digits(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    const u128 whole = (u128(strata_test::order_bits(keys[i].f)) << 64) | strata_test::order_bits(keys[i].ll);
    digits[i]        = (whole >> begin_bit) & mask;
  }
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b)
                   { return descending ? digits[a] > digits[b] : digits[a] < digits[b]; });
  return order;
}
} // namespace

TEST_CASE("DeviceRadixSort rejects bad arguments and writes nothing", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(321);
  INFO("seed " << seed);
  const std::size_t n                   = 20000;
  const std::vector<std::uint32_t> keys = strata_test::random_vector<std::uint32_t>(n, seed);
  strata_test::device_buffer<std::uint32_t> d_keys_in(keys);
  strata_test::device_buffer<std::uint32_t> d_keys_out(n);
  strata_test::device_buffer<std::uint32_t> d_values_in(keys);
  strata_test::device_buffer<std::uint32_t> d_values_out(n);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceRadixSort::SortPairs(nullptr, bytes, d_keys_in.data(), d_keys_out.data(),
                                                      d_values_in.data(), d_values_out.data(), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);

  auto expect_rejected = [&](auto call)
  {
    d_keys_out.poison();
    d_values_out.poison();
    std::size_t query = 0;
    CHECK(call(nullptr, query) == cudaErrorInvalidValue);
    std::size_t given = bytes;
    CHECK(call(d_temp.data(), given) == cudaErrorInvalidValue);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    CHECK(cudaGetLastError() == cudaSuccess);
    const auto untouched = strata_test::poison_value<std::uint32_t>();
    CHECK(d_keys_out.download() == std::vector<std::uint32_t>(n, untouched));
    CHECK(d_values_out.download() == std::vector<std::uint32_t>(n, untouched));
  };
  auto pairs_with_bits = [&](int begin_bit, int end_bit)
  {
    return [&, begin_bit, end_bit](void* d_temp_storage, std::size_t& temp_bytes)
    {
      return strata::DeviceRadixSort::SortPairs(d_temp_storage, temp_bytes, d_keys_in.data(), d_keys_out.data(),
                                                d_values_in.data(), d_values_out.data(), n, begin_bit, end_bit);
    };
  };
  SECTION("begin_bit above end_bit")
  {
    expect_rejected(pairs_with_bits(8, 4));
  }
  SECTION("end_bit past the key")
  {
    expect_rejected(pairs_with_bits(0, 33));
  }
  SECTION("negative begin_bit")
  {
    expect_rejected(pairs_with_bits(-1, 32));
  }
  SECTION("negative count")
  {
    expect_rejected(
        [&](void* d_temp_storage, std::size_t& temp_bytes)
        {
          return strata::DeviceRadixSort::SortPairs(d_temp_storage, temp_bytes, d_keys_in.data(), d_keys_out.data(),
                                                    d_values_in.data(), d_values_out.data(), -5);
        });
  }
  SECTION("null buffers and too little temporary storage")
  {
    d_keys_out.poison();
    d_values_out.poison();
    std::size_t given = bytes;
    CHECK(strata::DeviceRadixSort::SortPairs(d_temp.data(), given, static_cast<const std::uint32_t*>(nullptr),
                                             d_keys_out.data(), d_values_in.data(), d_values_out.data(), n)
          == cudaErrorInvalidValue);
    CHECK(strata::DeviceRadixSort::SortPairs(d_temp.data(), given, d_keys_in.data(), d_keys_out.data(),
                                             d_values_in.data(), static_cast<std::uint32_t*>(nullptr), n)
          == cudaErrorInvalidValue);
    std::size_t short_bytes = bytes - 1;
    CHECK(strata::DeviceRadixSort::SortPairs(d_temp.data(), short_bytes, d_keys_in.data(), d_keys_out.data(),
                                             d_values_in.data(), d_values_out.data(), n)
          == cudaErrorInvalidValue);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const auto untouched = strata_test::poison_value<std::uint32_t>();
    CHECK(d_keys_out.download() == std::vector<std::uint32_t>(n, untouched));
    CHECK(d_values_out.download() == std::vector<std::uint32_t>(n, untouched));
  }
}

TEST_CASE("DeviceRadixSort takes DoubleBuffers without buffers when it sorts by no bits", "[device][sort]")
{
  // As CUB's: with no bits to sort by, the DoubleBuffer forms read and write nothing (the result
  // is where it is), so their buffers may be null; the pointer forms copy and need theirs.
  STRATA_TEST_REQUIRE_GPU();
  const std::size_t n = 5000;
  strata::DoubleBuffer<std::uint32_t> keys;
  strata::DoubleBuffer<std::uint64_t> values;
  for (int bit : {0, 7, 32})
  {
    INFO("bits [" << bit << ", " << bit << ")");
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(strata::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, bit, bit));
    REQUIRE(bytes >= 1);
    strata_test::device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(strata::DeviceRadixSort::SortPairs(d_temp.data(), bytes, keys, values, n, bit, bit));
    STRATA_TEST_CUDA(strata::DeviceRadixSort::SortKeysDescending(d_temp.data(), bytes, keys, n, bit, bit));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    CHECK(keys.selector == 0);
    CHECK(values.selector == 0);
  }
  // With bits to sort by they are still rejected.
  strata_test::device_buffer<unsigned char> d_temp(1 << 20);
  std::size_t bytes = d_temp.size();
  CHECK(strata::DeviceRadixSort::SortKeys(d_temp.data(), bytes, keys, n, 0, 1) == cudaErrorInvalidValue);
}

TEST_CASE("DeviceRadixSort sorts a user's struct through a decomposer", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(323);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (std::size_t n : {std::size_t(1000), std::size_t(300007)})
  {
    std::vector<pair_key> keys(n);
    for (auto& key : keys)
    {
      // Few distinct floats (ties leave the order to ll) and random ll.
      key.f  = float(int(engine() % 64) - 32) * 0.5f;
      key.ll = static_cast<long long>(engine());
    }
    std::vector<std::uint32_t> positions(n);
    std::iota(positions.begin(), positions.end(), 0u);
    for (bool descending : {false, true})
    {
      for (const auto& bits : {std::pair{0, 96}, std::pair{40, 80}})
      {
        const int begin_bit = bits.first;
        const int end_bit   = bits.second;
        INFO("num_items " << n << (descending ? ", descending" : ", ascending") << ", bits [" << begin_bit << ", "
                          << end_bit << ")");
        strata_test::device_buffer<pair_key> d_keys_in(keys);
        strata_test::device_buffer<pair_key> d_keys_out(n);
        strata_test::device_buffer<std::uint32_t> d_values_in(positions);
        strata_test::device_buffer<std::uint32_t> d_values_out(n);
        d_keys_out.poison();
        d_values_out.poison();
        const bool whole = begin_bit == 0 && end_bit == 96;
        auto run         = [&](void* d_temp, std::size_t& bytes)
        {
          using strata::DeviceRadixSort;
          if (whole)
          {
            return descending
                       ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                              d_values_in.data(), d_values_out.data(), n,
                                                              pair_key_decomposer{})
                       : DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                    d_values_in.data(), d_values_out.data(), n, pair_key_decomposer{});
          }
          return descending ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                                   d_values_in.data(), d_values_out.data(), n,
                                                                   pair_key_decomposer{}, begin_bit, end_bit)
                            : DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                         d_values_in.data(), d_values_out.data(), n,
                                                         pair_key_decomposer{}, begin_bit, end_bit);
        };
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(run(nullptr, bytes));
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        STRATA_TEST_CUDA(run(d_temp.data(), bytes));
        STRATA_TEST_CUDA(cudaDeviceSynchronize());
        const std::vector<std::uint32_t> order = pair_key_order(keys, begin_bit, end_bit, descending);
        strata_test::check_equal(order, d_values_out.download());
        const std::vector<pair_key> got = d_keys_out.download();
        std::size_t wrong               = 0;
        for (std::size_t i = 0; i < n; ++i)
        {
          // Member by member: the padding after f need not survive a copy.
          const pair_key& expected = keys[order[i]];
          wrong += std::memcmp(&got[i].f, &expected.f, sizeof(float)) != 0 || got[i].ll != expected.ll;
        }
        CHECK(wrong == 0);
      }
    }
  }
}

namespace
{
//! A key of three members of different widths, given to the decomposer in another order than in
//! memory: u is the most significant, then d, then i (104 bits).
struct triple_key
{
  double d;
  std::int32_t i;
  std::uint8_t u;
};

struct triple_key_decomposer
{
  __host__ __device__ cuda::std::tuple<std::uint8_t&, double&, std::int32_t&> operator()(triple_key& key) const
  {
    return {key.u, key.d, key.i};
  }
};

//! Keys with ties at every member: u of four values, d of random bits or (one in four) +0.0, -0.0,
//! 1.5 or a NaN, i random.
std::vector<triple_key> triple_keys(std::size_t n, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  const double specials[] = {0.0, -0.0, 1.5, std::numeric_limits<double>::quiet_NaN()};
  std::vector<triple_key> keys(n);
  for (auto& key : keys)
  {
    const std::uint64_t bits = engine();
    std::memcpy(&key.d, &bits, sizeof(double));
    if (engine() % 4 == 0)
    {
      key.d = specials[engine() % 4];
    }
    key.i = static_cast<std::int32_t>(engine());
    key.u = static_cast<std::uint8_t>(engine() % 4);
  }
  return keys;
}

//! The positions of keys in a stable sort by bits [begin_bit, end_bit) of the 104-bit key.
std::vector<std::uint32_t> triple_key_order(const std::vector<triple_key>& keys, int begin_bit, int end_bit,
                                            bool descending)
{
  using u128      = unsigned __int128;
  const u128 mask = (u128(1) << (end_bit - begin_bit)) - 1;
  std::vector<u128> digits(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    const u128 whole = (u128(keys[i].u) << 96) | (u128(strata_test::order_bits(keys[i].d)) << 32)
                       | u128(strata_test::order_bits(keys[i].i));
    digits[i] = (whole >> begin_bit) & mask;
  }
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b)
                   { return descending ? digits[a] > digits[b] : digits[a] < digits[b]; });
  return order;
}

//! Keys that differ from the reference's, member by member (the padding need not survive a copy).
std::size_t triple_key_mismatches(const std::vector<triple_key>& keys, const std::vector<std::uint32_t>& order,
                                  const std::vector<triple_key>& got)
{
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
  {
    const triple_key& expected = keys[order[i]];
    wrong +=
        std::memcmp(&got[i].d, &expected.d, sizeof(double)) != 0 || got[i].i != expected.i || got[i].u != expected.u;
  }
  return wrong;
}

//! The sizes of the decomposer cases: one tile, and several (fewer under compute-sanitizer).
std::vector<std::size_t> decomposer_sizes()
{
  return {std::size_t(1000), strata_test::under_sanitizer() ? std::size_t(100003) : std::size_t(300007)};
}

//! The bit ranges of the decomposer cases: the whole key (the overloads without bits), bits across
//! all three members, and u's bits alone.
constexpr std::pair<int, int> triple_key_ranges[] = {{0, 104}, {20, 100}, {96, 104}};

//! Whether the decomposer cases run bit range `range` in the `form`-th form at the `size`-th size:
//! always, but under compute-sanitizer (whose cost is mostly per call) one range per form and size,
//! in turns, so that every range still runs in several forms.
bool runs_range(int size, int form, int range)
{
  return !strata_test::under_sanitizer() || (size + form) % 3 == range;
}
} // namespace

TEST_CASE("DeviceRadixSort sorts keys only of a user's struct through a decomposer", "[device][sort]")
{
  // SortKeys and SortKeysDescending through pointers and DoubleBuffers, with and without a bit
  // range; the pointer forms leave the input as it was, the DoubleBuffer forms name the result's
  // buffer (either of the two; a first selector of 1 in the descending sorts).
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(337);
  INFO("seed " << seed);
  using strata::DeviceRadixSort;
  const std::vector<std::size_t> sizes = decomposer_sizes();
  for (int size = 0; size < 2; ++size)
  {
    const std::size_t n                = sizes[std::size_t(size)];
    const std::vector<triple_key> keys = triple_keys(n, seed + n);
    for (bool descending : {false, true})
    {
      for (bool double_buffer : {false, true})
      {
        for (int r = 0; r < 3; ++r)
        {
          if (!runs_range(size, int(descending) * 2 + int(double_buffer), r))
          {
            continue;
          }
          const int begin_bit = triple_key_ranges[r].first;
          const int end_bit   = triple_key_ranges[r].second;
          INFO("num_items " << n << (descending ? ", descending" : ", ascending")
                            << (double_buffer ? ", DoubleBuffer" : ", pointers") << ", bits [" << begin_bit << ", "
                            << end_bit << ")");
          strata_test::device_buffer<triple_key> d_keys_in(keys);
          strata_test::device_buffer<triple_key> d_keys_out(n);
          d_keys_out.poison();
          strata::DoubleBuffer<triple_key> buffers(d_keys_in.data(), d_keys_out.data());
          if (descending)
          {
            buffers          = strata::DoubleBuffer<triple_key>(d_keys_out.data(), d_keys_in.data());
            buffers.selector = 1;
          }
          const bool whole = begin_bit == 0 && end_bit == 104;
          auto run         = [&](void* d_temp, std::size_t& bytes)
          {
            const triple_key_decomposer decomposer{};
            const triple_key* in = d_keys_in.data();
            triple_key* out      = d_keys_out.data();
            if (double_buffer)
            {
              if (whole)
              {
                return descending ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, buffers, n, decomposer)
                                  : DeviceRadixSort::SortKeys(d_temp, bytes, buffers, n, decomposer);
              }
              return descending ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, buffers, n, decomposer, begin_bit,
                                                                      end_bit)
                                : DeviceRadixSort::SortKeys(d_temp, bytes, buffers, n, decomposer, begin_bit, end_bit);
            }
            if (whole)
            {
              return descending ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, in, out, n, decomposer)
                                : DeviceRadixSort::SortKeys(d_temp, bytes, in, out, n, decomposer);
            }
            return descending
                       ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, in, out, n, decomposer, begin_bit, end_bit)
                       : DeviceRadixSort::SortKeys(d_temp, bytes, in, out, n, decomposer, begin_bit, end_bit);
          };
          std::size_t bytes = 0;
          STRATA_TEST_CUDA(run(nullptr, bytes));
          strata_test::device_buffer<unsigned char> d_temp(bytes);
          d_temp.poison();
          STRATA_TEST_CUDA(run(d_temp.data(), bytes));
          STRATA_TEST_CUDA(cudaDeviceSynchronize());
          const std::vector<std::uint32_t> order = triple_key_order(keys, begin_bit, end_bit, descending);
          if (double_buffer)
          {
            REQUIRE((buffers.Current() == d_keys_in.data() || buffers.Current() == d_keys_out.data()));
            const bool in_input = buffers.Current() == d_keys_in.data();
            CHECK(triple_key_mismatches(keys, order, (in_input ? d_keys_in : d_keys_out).download()) == 0);
          }
          else
          {
            CHECK(triple_key_mismatches(keys, order, d_keys_out.download()) == 0);
            std::vector<std::uint32_t> identity(n);
            std::iota(identity.begin(), identity.end(), 0u);
            CHECK(triple_key_mismatches(keys, identity, d_keys_in.download()) == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("DeviceRadixSort sorts pairs of a user's struct through a decomposer in DoubleBuffers", "[device][sort]")
{
  // SortPairs and SortPairsDescending with DoubleBuffers (a first selector of 1 in the descending
  // sorts), with and without a bit range: keys and values (their input positions) end in the
  // buffers the selectors name, which agree.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(339);
  INFO("seed " << seed);
  using strata::DeviceRadixSort;
  const std::vector<std::size_t> sizes = decomposer_sizes();
  for (int size = 0; size < 2; ++size)
  {
    const std::size_t n                = sizes[std::size_t(size)];
    const std::vector<triple_key> keys = triple_keys(n, seed + n);
    std::vector<std::uint32_t> positions(n);
    std::iota(positions.begin(), positions.end(), 0u);
    for (bool descending : {false, true})
    {
      for (int r = 0; r < 3; ++r)
      {
        if (!runs_range(size, int(descending), r))
        {
          continue;
        }
        const int begin_bit = triple_key_ranges[r].first;
        const int end_bit   = triple_key_ranges[r].second;
        INFO("num_items " << n << (descending ? ", descending" : ", ascending") << ", bits [" << begin_bit << ", "
                          << end_bit << ")");
        strata_test::device_buffer<triple_key> d_keys_a(keys);
        strata_test::device_buffer<triple_key> d_keys_b(n);
        strata_test::device_buffer<std::uint32_t> d_values_a(positions);
        strata_test::device_buffer<std::uint32_t> d_values_b(n);
        d_keys_b.poison();
        d_values_b.poison();
        strata::DoubleBuffer<triple_key> key_buffers(d_keys_a.data(), d_keys_b.data());
        strata::DoubleBuffer<std::uint32_t> value_buffers(d_values_a.data(), d_values_b.data());
        if (descending)
        {
          key_buffers            = strata::DoubleBuffer<triple_key>(d_keys_b.data(), d_keys_a.data());
          value_buffers          = strata::DoubleBuffer<std::uint32_t>(d_values_b.data(), d_values_a.data());
          key_buffers.selector   = 1;
          value_buffers.selector = 1;
        }
        const bool whole = begin_bit == 0 && end_bit == 104;
        auto run         = [&](void* d_temp, std::size_t& bytes)
        {
          const triple_key_decomposer decomposer{};
          if (whole)
          {
            return descending
                       ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, key_buffers, value_buffers, n, decomposer)
                       : DeviceRadixSort::SortPairs(d_temp, bytes, key_buffers, value_buffers, n, decomposer);
          }
          return descending ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, key_buffers, value_buffers, n,
                                                                   decomposer, begin_bit, end_bit)
                            : DeviceRadixSort::SortPairs(d_temp, bytes, key_buffers, value_buffers, n, decomposer,
                                                         begin_bit, end_bit);
        };
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(run(nullptr, bytes));
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        d_temp.poison();
        STRATA_TEST_CUDA(run(d_temp.data(), bytes));
        STRATA_TEST_CUDA(cudaDeviceSynchronize());
        REQUIRE((key_buffers.Current() == d_keys_a.data() || key_buffers.Current() == d_keys_b.data()));
        const bool in_a = key_buffers.Current() == d_keys_a.data();
        CHECK(value_buffers.Current() == (in_a ? d_values_a.data() : d_values_b.data()));
        const std::vector<std::uint32_t> order = triple_key_order(keys, begin_bit, end_bit, descending);
        CHECK(triple_key_mismatches(keys, order, (in_a ? d_keys_a : d_keys_b).download()) == 0);
        strata_test::check_equal(order, (in_a ? d_values_a : d_values_b).download());
      }
    }
  }
}

TEST_CASE("DeviceRadixSort shares the histogram's blocks among portions by their keys", "[device][sort]")
{
  using strata::detail::radix::histogram_portion_blocks;
  // One portion: the whole grid, or one block per tile when there are fewer tiles.
  CHECK(histogram_portion_blocks(1584, std::uint64_t(1) << 24, std::uint64_t(1) << 24, 2048) == 1584);
  CHECK(histogram_portion_blocks(1584, 5000, 5000, 2048) == 3);
  CHECK(histogram_portion_blocks(1584, 1, 1, 2048) == 1);
  // 2^28 keys in portions of 268431360 (384 x 30 tiles): the 4096 keys left over get one block.
  const std::uint64_t n = std::uint64_t(1) << 28;
  CHECK(histogram_portion_blocks(1584, 268431360, n, 2048) == 1584);
  CHECK(histogram_portion_blocks(1584, n - 268431360, n, 2048) == 1);

  // Random sorts: every portion gets at least one block, no more than its tiles, the last no more
  // than a full one, and the grid no more than its blocks plus one per portion (the rounding).
  const std::uint64_t seed = strata_test::seed(317);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (int trial = 0; trial < 2000; ++trial)
  {
    const std::uint64_t portion = std::uint64_t(1) + engine() % (std::uint64_t(1) << 28);
    const std::uint64_t items   = std::uint64_t(1) + engine() % (std::uint64_t(1) << 36);
    const std::uint64_t grid    = std::uint64_t(1) + engine() % 5000;
    const int tile              = 1 + int(engine() % 4096);
    INFO("portion " << portion << ", items " << items << ", grid " << grid << ", tile " << tile);
    const std::uint64_t portions = (items + portion - 1) / portion;
    const std::uint64_t first    = items < portion ? items : portion;
    const std::uint64_t last     = items - (portions - 1) * portion;
    const int full_blocks        = histogram_portion_blocks(grid, first, items, tile);
    const int last_blocks        = histogram_portion_blocks(grid, last, items, tile);
    REQUIRE(full_blocks >= 1);
    REQUIRE(last_blocks >= 1);
    REQUIRE(std::uint64_t(full_blocks) <= (first + tile - 1) / tile);
    REQUIRE(std::uint64_t(last_blocks) <= (last + tile - 1) / tile);
    REQUIRE(last_blocks <= full_blocks);
    REQUIRE(std::uint64_t(full_blocks) * (portions - 1) + std::uint64_t(last_blocks) <= grid + portions);
  }
}

TEST_CASE("DeviceRadixSort sorts more than 2^31 keys", "[device][sort][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(325);
  INFO("seed " << seed);
  const std::size_t n                   = (std::size_t(1) << 31) + 1000;
  std::vector<std::uint8_t> keys        = strata_test::random_bytes(n, seed);
  const std::vector<std::size_t> counts = strata_test::byte_counts(keys);
  strata_test::device_buffer<std::uint8_t> d_keys_in(keys);
  strata_test::device_buffer<std::uint8_t> d_keys_out(n);
  d_keys_out.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceRadixSort::SortKeys(nullptr, bytes, d_keys_in.data(), d_keys_out.data(), n));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(strata::DeviceRadixSort::SortKeys(d_temp.data(), bytes, d_keys_in.data(), d_keys_out.data(), n));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  keys = d_keys_out.download();
  CHECK(strata_test::sorted_bytes_mismatches(counts, keys) == 0);
}

TEST_CASE("DeviceRadixSort sorts pairs of more than one portion in every pass", "[device][sort][slow]")
{
  // Two portions (the second short) and four passes: each portion's digit starts depend on the
  // keys the pass before moved into it, and the look-back epochs wrap within the sort.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(326);
  INFO("seed " << seed);
  const bool descending = GENERATE(false, true);
  INFO("descending " << descending);
  const std::size_t n = (std::size_t(1) << 28) + 4097;
  std::vector<std::uint32_t> keys(n);
  std::mt19937_64 engine(seed);
  for (std::size_t i = 0; i < n; ++i)
  {
    keys[i] = std::uint32_t(engine() >> 32) & 0xff00ffffu; // one pass of a single digit; duplicates
  }
  std::vector<std::uint32_t> indices(n);
  std::iota(indices.begin(), indices.end(), 0u);
  strata_test::device_buffer<std::uint32_t> d_keys_in(keys);
  strata_test::device_buffer<std::uint32_t> d_keys_out(n);
  strata_test::device_buffer<std::uint32_t> d_values_in(indices);
  strata_test::device_buffer<std::uint32_t> d_values_out(n);
  d_keys_out.poison();
  d_values_out.poison();
  auto sort = [&](void* temp, std::size_t& bytes)
  {
    return descending ? strata::DeviceRadixSort::SortPairsDescending(temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                                     d_values_in.data(), d_values_out.data(), n)
                      : strata::DeviceRadixSort::SortPairs(temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                           d_values_in.data(), d_values_out.data(), n);
  };
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(sort(nullptr, bytes));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(sort(d_temp.data(), bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  const std::vector<std::uint32_t> got_keys   = d_keys_out.download();
  const std::vector<std::uint32_t> got_values = d_values_out.download();
  // Sorted, stable, and a permutation of the input: every index once, its key with it.
  std::vector<bool> seen(n, false);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    const std::uint32_t index = got_values[i];
    if (index >= n || seen[index] || keys[index] != got_keys[i])
    {
      ++wrong;
      continue;
    }
    seen[index] = true;
    if (i > 0)
    {
      const std::uint32_t a = got_keys[i - 1];
      const std::uint32_t b = got_keys[i];
      wrong += descending ? a < b : a > b;
      wrong += a == b && got_values[i - 1] > index;
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("DeviceRadixSort copies the passes in which every key has one digit", "[device][sort]")
{
  // u64 keys whose six middle bytes are one constant: passes 1-6 move no key, and the last pass
  // reuses the look-back epoch of the first. u32 keys of one low byte: the first pass moves none.
  // Every form at one tile + 1 and at 2^20 + 7 keys; keys only at 2^22 + 5, the tile of large
  // inputs. Under compute-sanitizer (whose cost is mostly per call) 100003 keys replace 2^20 + 7
  // (the same paths in fewer tiles) in two forms, pairs ascending through pointers and keys
  // descending through a DoubleBuffer, and only u32 keys ascending through pointers run at
  // 2^22 + 5 (u64 keys have one tile at every size).
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(335);
  INFO("seed " << seed);
  using strata_test::radix_form;
  std::mt19937_64 engine(seed);
  const bool sanitizer  = strata_test::under_sanitizer();
  const std::size_t max = (std::size_t(1) << 22) + 5;
  static_assert(strata_test::radix_tiles<std::uint32_t, strata::NullType>::small_below < (std::size_t(1) << 22) + 5,
                "the largest size must take the tile of large inputs");
  std::vector<std::uint64_t> wide(max);
  std::vector<std::uint32_t> narrow(max);
  for (std::size_t i = 0; i < max; ++i)
  {
    const std::uint64_t bits = engine();
    wide[i]                  = (bits & 0xff000000000000ffull) | 0x0012345678abcd00ull;
    narrow[i]                = (std::uint32_t(bits >> 32) & 0xffffff00u) | 0x5au;
  }
  const std::size_t one_tile = strata_test::radix_tiles<std::uint64_t>::onesweep + 1;
  const std::size_t middle   = sanitizer ? std::size_t(100003) : (std::size_t(1) << 20) + 7;
  for (std::size_t n : {one_tile, middle, max})
  {
    for (bool descending : {false, true})
    {
      for (bool pairs : {false, true})
      {
        for (radix_form form : {radix_form::pointers, radix_form::double_buffer})
        {
          const bool sampled =
              descending ? !pairs && form == radix_form::double_buffer : pairs && form == radix_form::pointers;
          bool run_wide   = !sanitizer || n == one_tile || sampled;
          bool run_narrow = run_wide;
          if (n == max)
          {
            run_wide   = !pairs && !sanitizer;
            run_narrow = !pairs && (!sanitizer || (!descending && form == radix_form::pointers));
          }
          if (run_wide)
          {
            strata_test::check_radix_sort(wide, n, strata_test::radix_call{descending, pairs, form, 0, 64});
          }
          if (run_narrow)
          {
            strata_test::check_radix_sort(narrow, n, strata_test::radix_call{descending, pairs, form, 0, 32});
          }
        }
      }
    }
  }
}

TEST_CASE("DeviceRadixSort runs on the caller's stream", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(327);
  INFO("seed " << seed);
  const std::size_t n                   = 500009;
  const std::vector<std::uint64_t> keys = strata_test::random_vector<std::uint64_t>(n, seed);
  std::vector<std::uint64_t> expected(keys);
  std::sort(expected.begin(), expected.end());
  cudaStream_t stream;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  strata_test::device_buffer<std::uint64_t> d_keys_in(keys);
  strata_test::device_buffer<std::uint64_t> d_keys_out(n);
  d_keys_out.poison();
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(
      strata::DeviceRadixSort::SortKeys(nullptr, bytes, d_keys_in.data(), d_keys_out.data(), n, 0, 64, stream));
  strata_test::device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(
      strata::DeviceRadixSort::SortKeys(d_temp.data(), bytes, d_keys_in.data(), d_keys_out.data(), n, 0, 64, stream));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
  strata_test::check_equal(expected, d_keys_out.download());
}

TEST_CASE("DeviceRadixSort is captured in a CUDA graph and replayed", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(329);
  INFO("seed " << seed);
  const std::size_t n = 300007;
  cudaStream_t stream;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  strata_test::device_buffer<std::uint32_t> d_keys_in(n);
  strata_test::device_buffer<std::uint32_t> d_keys_out(n);
  strata_test::device_buffer<std::uint32_t> d_values_in(n);
  strata_test::device_buffer<std::uint32_t> d_values_out(n);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceRadixSort::SortPairs(nullptr, bytes, d_keys_in.data(), d_keys_out.data(),
                                                      d_values_in.data(), d_values_out.data(), n, 0, 32, stream));
  strata_test::device_buffer<unsigned char> d_temp(bytes);

  cudaGraph_t graph;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const cudaError_t captured =
      strata::DeviceRadixSort::SortPairs(d_temp.data(), bytes, d_keys_in.data(), d_keys_out.data(), d_values_in.data(),
                                         d_values_out.data(), n, 0, 32, stream);
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph));
  STRATA_TEST_CUDA(captured);
  cudaGraphExec_t exec;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  for (int replay = 0; replay < 2; ++replay)
  {
    INFO("replay " << replay);
    const std::vector<std::uint32_t> keys = strata_test::random_vector<std::uint32_t>(n, seed + replay, 0, 1000);
    d_keys_in.upload(keys);
    d_values_in.upload(positions);
    d_keys_out.poison();
    d_values_out.poison();
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream));
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    const std::vector<std::uint32_t> order = strata_test::reference_order(keys, n, 0, 32, false);
    strata_test::check_equal(order, d_values_out.download());
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceRadixSort sorts on two streams at once", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(331);
  INFO("seed " << seed);
  const std::size_t n = 1000003;
  struct lane
  {
    cudaStream_t stream;
    std::vector<std::uint32_t> keys;
    strata_test::device_buffer<std::uint32_t> in;
    strata_test::device_buffer<std::uint32_t> out;
    strata_test::device_buffer<unsigned char> temp;
  };
  std::vector<lane> lanes(2);
  for (std::size_t i = 0; i < lanes.size(); ++i)
  {
    lane& l = lanes[i];
    STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking));
    l.keys = strata_test::random_vector<std::uint32_t>(n, seed + i);
    l.in   = strata_test::device_buffer<std::uint32_t>(l.keys);
    l.out  = strata_test::device_buffer<std::uint32_t>(n);
    l.out.poison();
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(strata::DeviceRadixSort::SortKeys(nullptr, bytes, l.in.data(), l.out.data(), n, 0, 32, l.stream));
    l.temp = strata_test::device_buffer<unsigned char>(bytes);
  }
  for (lane& l : lanes)
  {
    std::size_t bytes = l.temp.size();
    STRATA_TEST_CUDA(
        strata::DeviceRadixSort::SortKeys(l.temp.data(), bytes, l.in.data(), l.out.data(), n, 0, 32, l.stream));
  }
  for (lane& l : lanes)
  {
    STRATA_TEST_CUDA(cudaStreamSynchronize(l.stream));
    std::vector<std::uint32_t> expected(l.keys);
    std::sort(expected.begin(), expected.end());
    strata_test::check_equal(expected, l.out.download());
    STRATA_TEST_CUDA(cudaStreamDestroy(l.stream));
  }
}

TEST_CASE("DeviceRadixSort::SortPairs reads values through an iterator", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(333);
  INFO("seed " << seed);
  using tiles = strata_test::radix_tiles<float>;
  for (std::size_t n : {std::size_t(1), tiles::single, tiles::single + 1, 3 * tiles::onesweep + 5, std::size_t(300007)})
  {
    // Few distinct keys: the positions of equal keys show the order is stable.
    const std::vector<float> keys = strata_test::random_vector<float>(n, seed + n, -20.0, 20.0);
    for (bool descending : {false, true})
    {
      for (int end_bit : {32, 0})
      {
        INFO("num_items " << n << (descending ? ", descending" : ", ascending") << ", bits [0, " << end_bit << ")");
        strata_test::device_buffer<float> d_keys_in(keys);
        strata_test::device_buffer<float> d_keys_out(n);
        strata_test::device_buffer<std::int64_t> d_values_out(n);
        d_keys_out.poison();
        d_values_out.poison();
        const strata::CountingInputIterator<int> positions(0);
        auto run = [&](void* d_temp, std::size_t& bytes)
        {
          return descending ? strata::DeviceRadixSort::SortPairsDescending(
                     d_temp, bytes, d_keys_in.data(), d_keys_out.data(), positions, d_values_out.data(), n, 0, end_bit)
                            : strata::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in.data(), d_keys_out.data(),
                                                                 positions, d_values_out.data(), n, 0, end_bit);
        };
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(run(nullptr, bytes));
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        STRATA_TEST_CUDA(run(d_temp.data(), bytes));
        STRATA_TEST_CUDA(cudaDeviceSynchronize());
        const std::vector<std::uint32_t> order = strata_test::reference_order(keys, n, 0, end_bit, descending);
        std::vector<std::int64_t> expected(n);
        std::vector<float> expected_keys(n);
        for (std::size_t i = 0; i < n; ++i)
        {
          expected[i]      = std::int64_t(order[i]);
          expected_keys[i] = keys[order[i]];
        }
        strata_test::check_equal(expected, d_values_out.download());
        strata_test::check_equal(expected_keys, d_keys_out.download());
        strata_test::check_equal(keys, d_keys_in.download());
      }
    }
  }
}

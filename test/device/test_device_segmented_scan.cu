// Tests of strata/device/device_segmented_scan.cuh (CUB 3.5's DeviceSegmentedScan) against host
// loops: the five scans (inclusive and exclusive sums, inclusive and exclusive scans, the
// inclusive scan with an initial value), with and without output offsets, of int32, uint8 (summed
// into int32), int64 and float items; segments of every length from empty (and end before begin)
// to several tiles (a tile is 2048 items), in shuffled order with gaps in the input, the gaps of
// the output left poisoned; 2^18 segments of about 16 items; in place; the descriptors' ring
// reused over many rounds (a ring of 4 tiles); and bad arguments, refused with nothing written.
#include <strata/device/device_segmented_scan.cuh>

#include "common/test_common.cuh"
#include "common/two_phase.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using mode = strata::detail::segmented_scan::mode;

//! The larger of two items.
struct maximum
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    return a < b ? b : a;
  }
};

//! Segments of an input: begin and end offsets (end <= begin: empty), and where each writes.
struct layout
{
  std::vector<std::int64_t> begins;
  std::vector<std::int64_t> ends;
  std::vector<std::int64_t> out_begins; // packed in segment order
  std::size_t in_items  = 0;
  std::size_t out_items = 0;
};

//! num_segments segments of the lengths `length(engine)` draws (negative: end before begin), laid
//! in the input in shuffled order with gaps of 0 to 3 items.
template <typename LengthT>
layout make_layout(std::size_t num_segments, std::uint64_t seed, LengthT length)
{
  std::mt19937_64 engine(seed);
  layout l;
  std::vector<std::int64_t> lengths(num_segments);
  for (auto& n : lengths)
  {
    n = length(engine);
  }
  std::vector<std::size_t> order(num_segments);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::shuffle(order.begin(), order.end(), engine);
  l.begins.resize(num_segments);
  l.ends.resize(num_segments);
  l.out_begins.resize(num_segments);
  std::int64_t at = 0;
  for (const std::size_t s : order)
  {
    at += std::int64_t(engine() % 4);
    l.begins[s] = at;
    l.ends[s]   = at + lengths[s]; // before begin where the length is negative
    at += std::max<std::int64_t>(lengths[s], 0);
  }
  l.in_items       = std::size_t(at) + 3;
  std::int64_t out = 0;
  for (std::size_t s = 0; s < num_segments; ++s)
  {
    l.out_begins[s] = out;
    out += std::max<std::int64_t>(l.ends[s] - l.begins[s], 0) + 1; // one poisoned item between
  }
  l.out_items = std::size_t(out) + 1;
  return l;
}

//! The host's results of MODE over every segment, at the positions the device writes (`poison`
//! elsewhere).
template <mode MODE, typename AccumT, typename InT, typename OutT, typename OpT>
std::vector<OutT> reference(const layout& l, const std::vector<InT>& in, bool out_offsets, OpT op, AccumT init,
                            std::size_t out_items, OutT poison)
{
  std::vector<OutT> out(out_items, poison);
  for (std::size_t s = 0; s < l.begins.size(); ++s)
  {
    const std::int64_t to = out_offsets ? l.out_begins[s] : l.begins[s];
    AccumT acc            = init;
    for (std::int64_t i = l.begins[s]; i < l.ends[s]; ++i)
    {
      const std::size_t at = std::size_t(to + (i - l.begins[s]));
      const bool first     = i == l.begins[s];
      if constexpr (MODE == mode::exclusive)
      {
        out[at] = OutT(acc);
        acc     = AccumT(op(acc, AccumT(in[std::size_t(i)])));
      }
      else if constexpr (MODE == mode::inclusive)
      {
        acc     = first ? AccumT(in[std::size_t(i)]) : AccumT(op(acc, AccumT(in[std::size_t(i)])));
        out[at] = OutT(acc);
      }
      else
      {
        acc     = AccumT(op(acc, AccumT(in[std::size_t(i)])));
        out[at] = OutT(acc);
      }
    }
  }
  return out;
}

enum class form
{
  sum,
  scan
};

//! Runs the MODE scan (a sum, or a scan with `maximum`), with or without output offsets, and
//! compares every output item with the host's.
template <mode MODE, form FORM, typename InT, typename OutT>
void check(const layout& l, std::uint64_t seed, bool out_offsets, bool in_place = false)
{
  using AccumT = OutT;
  INFO("segments " << l.begins.size() << ", input " << l.in_items << ", output offsets " << out_offsets << ", in place "
                   << in_place);
  // Small integers: float sums are exact in any order.
  const std::vector<std::int32_t> ints = strata_test::random_vector<std::int32_t>(l.in_items, seed, -20.0, 100.0);
  const std::vector<InT> in(ints.begin(), ints.end());
  device_buffer<InT> d_in(in);
  const std::size_t out_items = in_place ? l.in_items : out_offsets ? l.out_items : l.in_items;
  device_buffer<OutT> d_out_buffer(in_place ? 0 : out_items);
  d_out_buffer.poison();
  OutT* d_out = in_place ? reinterpret_cast<OutT*>(d_in.data()) : d_out_buffer.data();
  device_buffer<std::int64_t> d_begins(l.begins);
  device_buffer<std::int64_t> d_ends(l.ends);
  device_buffer<std::int64_t> d_out_begins(l.out_begins);
  const std::int64_t n = std::int64_t(l.begins.size());
  const AccumT init    = FORM == form::sum ? AccumT(0) : AccumT(-7);
  const auto call      = [&](void* d_temp, std::size_t& bytes) -> cudaError_t
  {
    const std::int64_t* b  = d_begins.data();
    const std::int64_t* e  = d_ends.data();
    const std::int64_t* ob = d_out_begins.data();
    using S                = strata::DeviceSegmentedScan;
    if constexpr (FORM == form::sum && MODE == mode::inclusive)
    {
      return out_offsets ? S::InclusiveSegmentedSum(d_temp, bytes, d_in.data(), d_out, b, e, ob, n)
                         : S::InclusiveSegmentedSum(d_temp, bytes, d_in.data(), d_out, b, e, n);
    }
    else if constexpr (FORM == form::sum)
    {
      return out_offsets ? S::ExclusiveSegmentedSum(d_temp, bytes, d_in.data(), d_out, b, e, ob, n)
                         : S::ExclusiveSegmentedSum(d_temp, bytes, d_in.data(), d_out, b, e, n);
    }
    else if constexpr (MODE == mode::inclusive)
    {
      return out_offsets ? S::InclusiveSegmentedScan(d_temp, bytes, d_in.data(), d_out, b, e, ob, n, maximum{})
                         : S::InclusiveSegmentedScan(d_temp, bytes, d_in.data(), d_out, b, e, n, maximum{});
    }
    else if constexpr (MODE == mode::exclusive)
    {
      return out_offsets ? S::ExclusiveSegmentedScan(d_temp, bytes, d_in.data(), d_out, b, e, ob, n, maximum{}, init)
                         : S::ExclusiveSegmentedScan(d_temp, bytes, d_in.data(), d_out, b, e, n, maximum{}, init);
    }
    else
    {
      return out_offsets
                 ? S::InclusiveSegmentedScanInit(d_temp, bytes, d_in.data(), d_out, b, e, ob, n, maximum{}, init)
                 : S::InclusiveSegmentedScanInit(d_temp, bytes, d_in.data(), d_out, b, e, n, maximum{}, init);
    }
  };
  strata_test::run_two_phase(call);
  const OutT poison = strata_test::poison_value<OutT>();
  std::vector<OutT> want;
  if constexpr (FORM == form::sum)
  {
    want = reference<MODE, AccumT>(l, in, out_offsets, cuda::std::plus<>{}, init, out_items, poison);
  }
  else
  {
    want = reference<MODE, AccumT>(l, in, out_offsets, maximum{}, init, out_items, poison);
  }
  if (in_place)
  {
    // Items of no segment keep their input.
    std::vector<bool> written(out_items, false);
    for (std::size_t s = 0; s < l.begins.size(); ++s)
    {
      for (std::int64_t i = l.begins[s]; i < l.ends[s]; ++i)
      {
        written[std::size_t(i)] = true;
      }
    }
    for (std::size_t i = 0; i < out_items; ++i)
    {
      if (!written[i])
      {
        want[i] = OutT(in[i]);
      }
    }
  }
  std::vector<OutT> got;
  if constexpr (std::is_same_v<InT, OutT>)
  {
    got = in_place ? d_in.download() : d_out_buffer.download();
  }
  else
  {
    got = d_out_buffer.download();
  }
  std::size_t wrong       = 0;
  std::size_t first_wrong = 0;
  for (std::size_t i = 0; i < out_items; ++i)
  {
    if (std::memcmp(&got[i], &want[i], sizeof(OutT)) != 0)
    {
      first_wrong = wrong++ == 0 ? i : first_wrong;
    }
  }
  INFO("first wrong at " << first_wrong);
  CHECK(wrong == 0);
}
} // namespace

//! Lengths of every kind: empty and end-before-begin, one item, around a warp and a tile (2048),
//! and a few of several tiles.
struct mixed_lengths
{
  std::int64_t operator()(std::mt19937_64& engine) const
  {
    switch (engine() % 10)
    {
    case 0:
      return -std::int64_t(engine() % 5); // empty, or end before begin
    case 1:
      return 1;
    case 2:
      return 31 + std::int64_t(engine() % 3);
    case 3:
      return 2047 + std::int64_t(engine() % 3);
    case 4:
      return 5000 + std::int64_t(engine() % 20000);
    default:
      return std::int64_t(engine() % 300);
    }
  }
};

struct about_16
{
  std::int64_t operator()(std::mt19937_64& engine) const
  {
    return 8 + std::int64_t(engine() % 17);
  }
};

TEST_CASE("DeviceSegmentedScan's five scans match the host, with and without output offsets",
          "[device][segmented_scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(461);
  INFO("seed " << seed);
  for (const std::size_t num_segments : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(200)})
  {
    const layout l = make_layout(num_segments, seed + num_segments, mixed_lengths{});
    for (const bool out_offsets : {false, true})
    {
      check<mode::inclusive, form::sum, std::int32_t, std::int32_t>(l, seed + 1, out_offsets);
      check<mode::exclusive, form::sum, std::int32_t, std::int32_t>(l, seed + 2, out_offsets);
      check<mode::inclusive, form::scan, std::int32_t, std::int32_t>(l, seed + 3, out_offsets);
      check<mode::exclusive, form::scan, std::int32_t, std::int32_t>(l, seed + 4, out_offsets);
      check<mode::inclusive_init, form::scan, std::int32_t, std::int32_t>(l, seed + 5, out_offsets);
    }
  }
}

TEST_CASE("DeviceSegmentedScan sums other types: uint8 into int32, int64, integer-valued float",
          "[device][segmented_scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(463);
  INFO("seed " << seed);
  const layout l = make_layout(300, seed, mixed_lengths{});
  check<mode::inclusive, form::sum, std::uint8_t, std::int32_t>(l, seed + 1, true);
  check<mode::exclusive, form::sum, std::int64_t, std::int64_t>(l, seed + 2, false);
  check<mode::inclusive, form::sum, float, float>(l, seed + 3, true);
  check<mode::exclusive, form::scan, std::int64_t, std::int64_t>(l, seed + 4, true);
}

TEST_CASE("DeviceSegmentedScan takes many short segments, and scans in place", "[device][segmented_scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(467);
  INFO("seed " << seed);
  const std::size_t num_segments = strata_test::under_sanitizer() ? (std::size_t(1) << 12) : (std::size_t(1) << 18);
  const layout many              = make_layout(num_segments, seed, about_16{});
  check<mode::inclusive, form::sum, std::int32_t, std::int32_t>(many, seed + 1, false);
  check<mode::exclusive, form::scan, std::int32_t, std::int32_t>(many, seed + 2, true);
  const layout mixed = make_layout(100, seed + 3, mixed_lengths{});
  check<mode::inclusive, form::sum, std::int32_t, std::int32_t>(mixed, seed + 4, false, true);
  check<mode::exclusive, form::sum, std::int32_t, std::int32_t>(mixed, seed + 5, false, true);
}

TEST_CASE("DeviceSegmentedScan reuses its descriptors round after round", "[device][segmented_scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(479);
  INFO("seed " << seed);
  // A ring of 4 tiles: a line of about 600 tiles (about 1.25 M items) runs about 150 rounds.
  const layout l = make_layout(700, seed, mixed_lengths{});
  INFO("line of " << l.in_items << " input items");
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(l.in_items, seed + 1, -20.0, 100.0);
  device_buffer<std::int32_t> d_in(in);
  device_buffer<std::int32_t> d_out(l.out_items);
  device_buffer<std::int64_t> d_begins(l.begins);
  device_buffer<std::int64_t> d_ends(l.ends);
  device_buffer<std::int64_t> d_out_begins(l.out_begins);
  d_out.poison();
  using DispatchT =
      strata::DispatchSegmentedScan<mode::inclusive, const std::int32_t*, std::int32_t*, const std::int64_t*,
                                    const std::int64_t*, const std::int64_t*, cuda::std::plus<>, strata::NullType,
                                    std::int32_t, strata::detail::segmented_scan::policy_hub<std::int32_t>, 4>;
  strata_test::run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      {
        return DispatchT::Dispatch(d_temp, bytes, d_in.data(), d_out.data(), d_begins.data(), d_ends.data(),
                                   d_out_begins.data(), std::int64_t(l.begins.size()), cuda::std::plus<>{},
                                   strata::NullType{}, nullptr);
      });
  const std::vector<std::int32_t> want = reference<mode::inclusive, std::int32_t>(
      l, in, true, cuda::std::plus<>{}, 0, l.out_items, strata_test::poison_value<std::int32_t>());
  CHECK(d_out.download() == want);
}

TEST_CASE("DeviceSegmentedScan's single-call forms", "[device][segmented_scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(487);
  INFO("seed " << seed);
  const layout l                     = make_layout(50, seed, mixed_lengths{});
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(l.in_items, seed + 1, -20.0, 100.0);
  device_buffer<std::int32_t> d_in(in);
  device_buffer<std::int32_t> d_out(l.out_items);
  device_buffer<std::int64_t> d_begins(l.begins);
  device_buffer<std::int64_t> d_ends(l.ends);
  device_buffer<std::int64_t> d_out_begins(l.out_begins);
  d_out.poison();
  REQUIRE(strata::DeviceSegmentedScan::ExclusiveSegmentedScan(d_in.data(), d_out.data(), d_begins.data(), d_ends.data(),
                                                              d_out_begins.data(), std::int64_t(l.begins.size()),
                                                              maximum{}, -7)
          == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(nullptr) == cudaSuccess);
  CHECK(d_out.download()
        == reference<mode::exclusive, std::int32_t>(l, in, true, maximum{}, -7, l.out_items,
                                                    strata_test::poison_value<std::int32_t>()));
}

TEST_CASE("DeviceSegmentedScan refuses bad arguments and writes nothing", "[device][segmented_scan]")
{
  STRATA_TEST_REQUIRE_GPU();
  device_buffer<std::int32_t> in(std::vector<std::int32_t>{1, 2, 3, 4});
  device_buffer<std::int32_t> out(4);
  device_buffer<std::int64_t> offsets(std::vector<std::int64_t>{0, 2, 4});
  out.poison();
  std::size_t bytes = 0;
  using S           = strata::DeviceSegmentedScan;
  CHECK(S::InclusiveSegmentedSum(nullptr, bytes, in.data(), out.data(), offsets.data(), offsets.data() + 1, -1)
        == cudaErrorInvalidValue);
  REQUIRE(S::InclusiveSegmentedSum(nullptr, bytes, in.data(), out.data(), offsets.data(), offsets.data() + 1, 2)
          == cudaSuccess);
  device_buffer<unsigned char> temp(bytes);
  CHECK(S::InclusiveSegmentedSum(temp.data(), bytes, static_cast<const std::int32_t*>(nullptr), out.data(),
                                 offsets.data(), offsets.data() + 1, 2)
        == cudaErrorInvalidValue);
  CHECK(S::ExclusiveSegmentedSum(temp.data(), bytes, in.data(), static_cast<std::int32_t*>(nullptr), offsets.data(),
                                 offsets.data() + 1, 2)
        == cudaErrorInvalidValue);
  std::size_t too_few = bytes - 1;
  CHECK(S::InclusiveSegmentedSum(temp.data(), too_few, in.data(), out.data(), offsets.data(), offsets.data() + 1, 2)
        == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (const std::int32_t v : out.download())
  {
    CHECK(v == strata_test::poison_value<std::int32_t>());
  }
}

// Tests of strata/tile/tile_search.cuh: WarpFindSpan, the last span whose start is at most the
// point, by every lane of the warp, against std::upper_bound. Spans: one, 2, 31, 32, 33, 1000 and
// 2^20 + 3 of them, empty spans among them (equal starts: the last of them holds the point), runs
// of empty spans at both ends, the first start above 0, starts past 2^32; points: every point of
// the line for the smaller counts, every start and the point before it plus random ones for the
// largest. Offsets of uint32, int64 and uint64 (the agents' cost types).
#include <strata/tile/tile_search.cuh>

#include "tile_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace
{
namespace tile = strata::detail::tile;

//! Each warp takes queries q, q + warps, ...: every lane's answer for points[q] to spans[q * 32 + lane].
template <typename OffsetT>
__global__ void find_span_kernel(const OffsetT* starts, long long num_spans, const OffsetT* points, int num_points,
                                 long long* spans)
{
  const int lane  = static_cast<int>(threadIdx.x % 32);
  const int warps = static_cast<int>(gridDim.x * blockDim.x / 32);
  for (int q = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32); q < num_points; q += warps)
  {
    spans[q * 32 + lane] = tile::WarpFindSpan(starts, num_spans, points[q], lane);
  }
}

//! Spans of the given lengths from `first`: num_spans + 1 non-decreasing starts.
template <typename OffsetT>
std::vector<OffsetT> starts_of(OffsetT first, const std::vector<int>& lengths)
{
  std::vector<OffsetT> starts{first};
  for (const int length : lengths)
  {
    starts.push_back(static_cast<OffsetT>(starts.back() + static_cast<OffsetT>(length)));
  }
  return starts;
}

//! Checks the span of every point of `points` (each in [starts[0], starts[num_spans])).
template <typename OffsetT>
void check_find_span(const std::vector<OffsetT>& starts, const std::vector<OffsetT>& points)
{
  const auto num_spans = static_cast<long long>(starts.size()) - 1;
  INFO(num_spans << " spans over [" << starts.front() << ", " << starts.back() << "), " << points.size() << " points");
  strata_test::device_buffer<OffsetT> d_starts(starts);
  strata_test::device_buffer<OffsetT> d_points(points);
  strata_test::device_buffer<long long> d_spans(points.size() * 32);
  d_spans.poison();
  find_span_kernel<<<8, 128>>>(d_starts.data(), num_spans, d_points.data(), static_cast<int>(points.size()),
                               d_spans.data());
  strata_test::check_launch();
  std::vector<long long> expected;
  for (const OffsetT point : points)
  {
    // The last start at most `point` among starts[0, num_spans).
    const auto after = std::upper_bound(starts.begin(), starts.end() - 1, point);
    expected.insert(expected.end(), 32, static_cast<long long>(after - starts.begin()) - 1);
  }
  strata_test::check_equal(expected, d_spans.download());
}

//! Every point of the line.
template <typename OffsetT>
std::vector<OffsetT> every_point(const std::vector<OffsetT>& starts)
{
  std::vector<OffsetT> points;
  for (OffsetT p = starts.front(); p < starts.back(); ++p)
  {
    points.push_back(p);
  }
  return points;
}

template <typename OffsetT>
void check_offsets(OffsetT first, std::uint64_t salt)
{
  const auto seed = strata_test::seed(salt);
  INFO("seed " << seed << ", first start " << first);
  std::mt19937_64 engine(seed);
  const auto random_lengths = [&](std::size_t count, int longest)
  {
    std::vector<int> lengths(count);
    for (auto& length : lengths)
    {
      length = static_cast<int>(engine() % static_cast<unsigned>(longest + 1));
    }
    return lengths;
  };
  // One span; empty spans at both ends and between; 2, 31, 32, 33 and 1000 spans of 0 to 5.
  check_find_span(starts_of<OffsetT>(first, {7}), every_point(starts_of<OffsetT>(first, {7})));
  const std::vector<OffsetT> hollow = starts_of<OffsetT>(first, {0, 0, 0, 5, 0, 0, 3, 1, 0, 0});
  check_find_span(hollow, every_point(hollow));
  for (const std::size_t count : {2, 31, 32, 33, 1000})
  {
    std::vector<int> lengths = random_lengths(count, 5);
    lengths.back() += 1; // the line is not empty
    const std::vector<OffsetT> starts = starts_of<OffsetT>(first, lengths);
    check_find_span(starts, every_point(starts));
  }
  // 2^20 + 3 spans of 0 to 3: every start, the point before it, and random points.
  std::vector<int> lengths = random_lengths((1u << 20) + 3, 3);
  lengths.back() += 1;
  const std::vector<OffsetT> starts = starts_of<OffsetT>(first, lengths);
  std::vector<OffsetT> points;
  for (std::size_t s = 0; s + 1 < starts.size(); s += 1 + engine() % 256)
  {
    points.push_back(starts[s]);
    if (starts[s] > starts.front())
    {
      points.push_back(static_cast<OffsetT>(starts[s] - 1));
    }
  }
  for (int i = 0; i < 4096; ++i)
  {
    points.push_back(static_cast<OffsetT>(starts.front() + engine() % (starts.back() - starts.front())));
  }
  points.push_back(static_cast<OffsetT>(starts.back() - 1));
  check_find_span(starts, points);
}
} // namespace

TEST_CASE("WarpFindSpan: uint32 offsets", "[tile][search]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_offsets<std::uint32_t>(0u, 1);
  check_offsets<std::uint32_t>(1000u, 2);
}

TEST_CASE("WarpFindSpan: int64 offsets", "[tile][search]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_offsets<std::int64_t>(3, 3);
}

TEST_CASE("WarpFindSpan: uint64 offsets past 2^32", "[tile][search]")
{
  STRATA_TEST_REQUIRE_GPU();
  check_offsets<std::uint64_t>((1ull << 40) + 17, 4);
}

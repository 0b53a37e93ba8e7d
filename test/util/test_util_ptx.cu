// Tests of strata/util_ptx.cuh: thread/lane/warp ids, lane masks, WarpMask, ShuffleUp/Down/Index
// of types of 1 to 12 bytes over logical warps, and MatchAny.
#include <strata/util_ptx.cuh>

#include "common/test_common.cuh"

#include <algorithm>
#include <set>

namespace
{
__global__ void ids_kernel(int* row_major, unsigned* lane, unsigned* warp, unsigned* masks)
{
  const int tid =
      strata::RowMajorTid(static_cast<int>(blockDim.x), static_cast<int>(blockDim.y), static_cast<int>(blockDim.z));
  const int linear      = static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  row_major[linear]     = tid;
  lane[linear]          = strata::LaneId();
  warp[linear]          = strata::WarpId();
  masks[4 * linear + 0] = strata::LaneMaskLt();
  masks[4 * linear + 1] = strata::LaneMaskLe();
  masks[4 * linear + 2] = strata::LaneMaskGt();
  masks[4 * linear + 3] = strata::LaneMaskGe();
}

template <int LOGICAL_WARP_THREADS, typename T>
__global__ void shuffle_kernel(const T* in, const int* src_lanes, T* up, T* down, T* index, int offset, int first,
                               int last)
{
  const int t = static_cast<int>(threadIdx.x);
  up[t]       = strata::ShuffleUp<LOGICAL_WARP_THREADS>(in[t], offset, first, 0xFFFFFFFFu);
  down[t]     = strata::ShuffleDown<LOGICAL_WARP_THREADS>(in[t], offset, last, 0xFFFFFFFFu);
  index[t]    = strata::ShuffleIndex<LOGICAL_WARP_THREADS>(in[t], src_lanes[t], 0xFFFFFFFFu);
}

template <int LABEL_BITS>
__global__ void match_kernel(const unsigned* labels, unsigned* masks)
{
  const int t = static_cast<int>(threadIdx.x);
  masks[t]    = strata::MatchAny<LABEL_BITS>(labels[t]);
}

constexpr int block_threads = 64; // two warps with different data

template <int LOGICAL_WARP_THREADS, typename T>
void check_shuffles(std::uint64_t seed)
{
  INFO("logical warp " << LOGICAL_WARP_THREADS << ", seed " << seed);
  const std::vector<T> values = strata_test::random_vector<T>(block_threads, seed);
  strata_test::generator<int> gen(seed + 1);
  const int offset = gen(1, LOGICAL_WARP_THREADS > 1 ? LOGICAL_WARP_THREADS - 1 : 1);
  const int first  = gen(0, LOGICAL_WARP_THREADS - 1);
  const int last   = gen(0, LOGICAL_WARP_THREADS - 1);
  std::vector<int> src_lanes(block_threads);
  for (auto& s : src_lanes)
  {
    s = gen(0, LOGICAL_WARP_THREADS - 1);
  }
  INFO("offset " << offset << ", first " << first << ", last " << last);

  std::vector<T> up(block_threads), down(block_threads), index(block_threads);
  for (int t = 0; t < block_threads; ++t)
  {
    const int warp_base    = t / 32 * 32;
    const int lane         = t % 32;
    const int segment_base = lane / LOGICAL_WARP_THREADS * LOGICAL_WARP_THREADS;
    const int up_src       = lane - offset;
    up[t]                  = up_src >= segment_base + first ? values[warp_base + up_src] : values[t];
    const int down_src     = lane + offset;
    down[t]                = down_src <= segment_base + last ? values[warp_base + down_src] : values[t];
    index[t]               = values[warp_base + segment_base + src_lanes[t]];
  }

  strata_test::device_buffer<T> d_in(values);
  strata_test::device_buffer<int> d_src(src_lanes);
  strata_test::device_buffer<T> d_up(block_threads), d_down(block_threads), d_index(block_threads);
  d_up.poison();
  d_down.poison();
  d_index.poison();
  shuffle_kernel<LOGICAL_WARP_THREADS><<<1, block_threads>>>(d_in.data(), d_src.data(), d_up.data(), d_down.data(),
                                                             d_index.data(), offset, first, last);
  strata_test::check_launch();
  strata_test::check_equal(up, d_up.download());
  strata_test::check_equal(down, d_down.download());
  strata_test::check_equal(index, d_index.download());
}

template <int LABEL_BITS>
void check_match_any(std::uint64_t seed)
{
  INFO("label bits " << LABEL_BITS << ", seed " << seed);
  // Few distinct low bits, so that groups have several members; high bits random.
  std::vector<unsigned> labels = strata_test::random_vector<unsigned>(block_threads, seed);
  strata_test::generator<unsigned> gen(seed + 7);
  for (auto& label : labels)
  {
    label = (label & ~0x7u) | gen(0, 5);
  }
  const unsigned mask = LABEL_BITS == 32 ? 0xFFFFFFFFu : (1u << LABEL_BITS) - 1;
  std::vector<unsigned> expected(block_threads, 0);
  for (int t = 0; t < block_threads; ++t)
  {
    const int warp_base = t / 32 * 32;
    for (int lane = 0; lane < 32; ++lane)
    {
      if ((labels[warp_base + lane] & mask) == (labels[t] & mask))
      {
        expected[t] |= 1u << lane;
      }
    }
  }
  strata_test::device_buffer<unsigned> d_labels(labels);
  strata_test::device_buffer<unsigned> d_masks(block_threads);
  d_masks.poison();
  match_kernel<LABEL_BITS><<<1, block_threads>>>(d_labels.data(), d_masks.data());
  strata_test::check_launch();
  strata_test::check_equal(expected, d_masks.download());
}
} // namespace

TEST_CASE("WarpMask selects the lanes of a logical warp", "[util][ptx]")
{
  STATIC_REQUIRE(strata::WarpMask<32>(0) == 0xFFFFFFFFu);
  STATIC_REQUIRE(strata::WarpMask<16>(1) == 0xFFFF0000u);
  STATIC_REQUIRE(strata::WarpMask<8>(2) == 0x00FF0000u);
  STATIC_REQUIRE(strata::WarpMask<4>(7) == 0xF0000000u);
  STATIC_REQUIRE(strata::WarpMask<1>(5) == 0x20u);
  // Other sizes split the hardware warp from lane 0 too; past its last lane there is no warp.
  STATIC_REQUIRE(strata::WarpMask<7>(0) == 0x7Fu);
  STATIC_REQUIRE(strata::WarpMask<7>(3) == 0x7Fu << 21);
  STATIC_REQUIRE(strata::WarpMask<12>(1) == 0xFFFu << 12);
  STATIC_REQUIRE(strata::WarpMask<19>(0) == 0x7FFFFu);
  STATIC_REQUIRE(strata::WarpMask<31>(2) == 0u);
}

TEST_CASE("RowMajorTid, LaneId, WarpId and lane masks", "[util][ptx][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  for (dim3 block : {dim3(96, 1, 1), dim3(16, 8, 1), dim3(5, 3, 7), dim3(8, 4, 2)})
  {
    const int threads = static_cast<int>(block.x * block.y * block.z);
    INFO("block " << block.x << "x" << block.y << "x" << block.z);
    strata_test::device_buffer<int> d_row_major(threads);
    strata_test::device_buffer<unsigned> d_lane(threads), d_warp(threads), d_masks(4 * threads);
    d_row_major.poison();
    d_lane.poison();
    d_warp.poison();
    d_masks.poison();
    ids_kernel<<<1, block>>>(d_row_major.data(), d_lane.data(), d_warp.data(), d_masks.data());
    strata_test::check_launch();

    std::vector<int> row_major(threads);
    std::vector<unsigned> lane(threads), masks(4 * threads);
    for (int t = 0; t < threads; ++t)
    {
      row_major[t]       = t; // x fastest, then y, then z: the linear index the kernel used
      lane[t]            = static_cast<unsigned>(t % 32);
      const unsigned bit = 1u << lane[t];
      masks[4 * t + 0]   = bit - 1;
      masks[4 * t + 1]   = bit | (bit - 1);
      masks[4 * t + 2]   = ~(bit | (bit - 1));
      masks[4 * t + 3]   = ~(bit - 1);
    }
    strata_test::check_equal(row_major, d_row_major.download());
    strata_test::check_equal(lane, d_lane.download());
    strata_test::check_equal(masks, d_masks.download());

    // Every lane of a warp sees one warp id, and the resident warps of the block all differ.
    const std::vector<unsigned> warp = d_warp.download();
    std::set<unsigned> distinct;
    for (int t = 0; t < threads; ++t)
    {
      CHECK(warp[t] == warp[t / 32 * 32]);
      distinct.insert(warp[t]);
    }
    CHECK(distinct.size() == static_cast<std::size_t>((threads + 31) / 32));
  }
}

using shuffle_types = std::tuple<std::int8_t, __half, std::int32_t, double, strata_test::custom_t>;

TEMPLATE_LIST_TEST_CASE("ShuffleUp, ShuffleDown and ShuffleIndex move values of any size", "[util][ptx][gpu]",
                        shuffle_types)
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  check_shuffles<32, TestType>(seed);
  check_shuffles<8, TestType>(seed + 1);
  check_shuffles<2, TestType>(seed + 2);
}

TEST_CASE("MatchAny groups lanes by the low label bits", "[util][ptx][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const auto seed = strata_test::seed();
  check_match_any<1>(seed);
  check_match_any<3>(seed + 1);
  check_match_any<8>(seed + 2);
  check_match_any<32>(seed + 3);
}

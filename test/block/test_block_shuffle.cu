// Tests of strata/block/block_shuffle.cuh: Offset, Rotate, Up and Down (with and without the
// block suffix / prefix, separate and in place) over every type, every block shape in {32, 80,
// 128, 256, 1024, 16x8, 8x4x2} and every items-per-thread count in {1, 3, 4, 7, 11}, combined
// pairwise. Several blocks per grid, each with its own data and distances; one kernel runs all
// members in turn on one TempStorage (reused after __syncthreads) and on the private storage.
#include <strata/block/block_shuffle.cuh>

#include "common/shapes.cuh"
#include "common/test_common.cuh"

#include <cstdint>
#include <vector>

namespace
{
constexpr int shuffle_blocks = 6;

//! Where the shuffle kernel writes: per-thread results (one per thread of the grid, by block
//! then rank) and per-item results (the tiles, in blocked order).
template <typename T>
struct shuffle_outputs
{
  T* offset;        // per thread: Offset(items[0]) in place
  T* rotate;        // per thread: Rotate(items[0]) with the private storage
  T* up;            // per item: Up into an array pre-filled with `fill`
  T* up_in_place;   // per item: Up in place
  T* suffix;        // per thread: Up's block_suffix
  T* down;          // per item: Down into an array pre-filled with `fill`
  T* down_in_place; // per item: Down in place
  T* prefix;        // per thread: Down's block_prefix
};

template <int IPT, typename T>
__device__ void load_items(const T* tile, int rank, T (&items)[IPT])
{
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    items[i] = tile[rank * IPT + i];
  }
}

template <int IPT, typename T>
__device__ void store_items(T* tile, int rank, const T (&items)[IPT])
{
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    tile[rank * IPT + i] = items[i];
  }
}

//! One block shape, items-per-thread count and type.
template <typename T, int BX, int BY, int BZ, int IPT>
struct shuffle_config : strata_test::block_shape<BX, BY, BZ, IPT>
{
  using type = T;
};

template <typename ConfigT, typename T = typename ConfigT::type>
__global__ void __launch_bounds__(ConfigT::threads)
    shuffle_kernel(const T* in, const T* fill, const int* offsets, const unsigned* rotations, shuffle_outputs<T> out)
{
  using BlockShuffleT   = strata::BlockShuffle<T, ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z>;
  constexpr int THREADS = ConfigT::threads;
  constexpr int IPT     = ConfigT::items;
  constexpr int TILE    = ConfigT::tile;
  __shared__ typename BlockShuffleT::TempStorage temp_storage;

  const int rank        = strata::RowMajorTid(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z);
  const int block       = static_cast<int>(blockIdx.x);
  const int tile_offset = block * TILE;
  const int thread_slot = block * THREADS + rank;

  T items[IPT];
  load_items(in + tile_offset, rank, items);

  T shifted = items[0];
  BlockShuffleT(temp_storage).Offset(shifted, shifted, offsets[block]);
  out.offset[thread_slot] = shifted;
  __syncthreads();

  T rotated;
  BlockShuffleT().Rotate(items[0], rotated, rotations[block]);
  out.rotate[thread_slot] = rotated;

  T prev[IPT];
  load_items(fill + tile_offset, rank, prev);
  BlockShuffleT(temp_storage).Up(items, prev);
  store_items(out.up + tile_offset, rank, prev);
  __syncthreads();

  T up_items[IPT];
  load_items(in + tile_offset, rank, up_items);
  T suffix;
  BlockShuffleT(temp_storage).Up(up_items, up_items, suffix);
  store_items(out.up_in_place + tile_offset, rank, up_items);
  out.suffix[thread_slot] = suffix;
  __syncthreads();

  T next[IPT];
  load_items(fill + tile_offset, rank, next);
  BlockShuffleT(temp_storage).Down(items, next);
  store_items(out.down + tile_offset, rank, next);
  __syncthreads();

  T down_items[IPT];
  load_items(in + tile_offset, rank, down_items);
  T prefix;
  BlockShuffleT(temp_storage).Down(down_items, down_items, prefix);
  store_items(out.down_in_place + tile_offset, rank, down_items);
  out.prefix[thread_slot] = prefix;
}

template <typename ConfigT>
void check_block_shuffle(std::uint64_t salt)
{
  using T                  = typename ConfigT::type;
  constexpr int THREADS    = ConfigT::threads;
  constexpr int IPT        = ConfigT::items;
  constexpr int TILE       = ConfigT::tile;
  const std::uint64_t seed = strata_test::seed(salt);
  INFO("block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", " << IPT
                << " items per thread, seed " << seed);

  const std::vector<T> in   = strata_test::random_vector<T>(shuffle_blocks * TILE, seed);
  const std::vector<T> fill = strata_test::random_vector<T>(shuffle_blocks * TILE, seed + 1);
  strata_test::generator<int> gen(seed + 2);
  // Per block: both directions by one, none, all threads out of range, the farthest in range,
  // and a random distance; rotations likewise.
  const std::vector<int> offsets        = {1, -1, 0, THREADS, -(THREADS - 1), gen(-(THREADS - 1), THREADS - 1)};
  const std::vector<unsigned> rotations = {1u,
                                           0u,
                                           static_cast<unsigned>(THREADS - 1),
                                           static_cast<unsigned>(THREADS / 2),
                                           static_cast<unsigned>(gen(0, THREADS - 1)),
                                           static_cast<unsigned>(gen(0, THREADS - 1))};
  INFO("offset distances " << Catch::Detail::stringify(offsets) << ", rotations "
                           << Catch::Detail::stringify(rotations));

  const std::size_t per_thread = shuffle_blocks * THREADS;
  const std::size_t per_item   = shuffle_blocks * TILE;
  std::vector<T> offset(per_thread), rotate(per_thread), suffix(per_thread), prefix(per_thread);
  std::vector<T> up(per_item), up_in_place(per_item), down(per_item), down_in_place(per_item);
  for (int b = 0; b < shuffle_blocks; ++b)
  {
    const T* x = in.data() + b * TILE;
    for (int t = 0; t < THREADS; ++t)
    {
      const int slot   = b * THREADS + t;
      const int source = t + offsets[b];
      offset[slot]     = source >= 0 && source < THREADS ? x[source * IPT] : x[t * IPT];
      rotate[slot]     = x[((t + static_cast<int>(rotations[b])) % THREADS) * IPT];
      suffix[slot]     = x[TILE - 1];
      prefix[slot]     = x[0];
    }
    for (int g = 0; g < TILE; ++g)
    {
      const int slot      = b * TILE + g;
      up[slot]            = g > 0 ? x[g - 1] : fill[slot];
      up_in_place[slot]   = g > 0 ? x[g - 1] : x[0];
      down[slot]          = g < TILE - 1 ? x[g + 1] : fill[slot];
      down_in_place[slot] = g < TILE - 1 ? x[g + 1] : x[TILE - 1];
    }
  }

  strata_test::device_buffer<T> d_in(in), d_fill(fill);
  strata_test::device_buffer<int> d_offsets(offsets);
  strata_test::device_buffer<unsigned> d_rotations(rotations);
  strata_test::device_buffer<T> d_offset(per_thread), d_rotate(per_thread), d_suffix(per_thread), d_prefix(per_thread);
  strata_test::device_buffer<T> d_up(per_item), d_up_in_place(per_item), d_down(per_item), d_down_in_place(per_item);
  for (auto* buffer : {&d_offset, &d_rotate, &d_suffix, &d_prefix, &d_up, &d_up_in_place, &d_down, &d_down_in_place})
  {
    buffer->poison();
  }
  const shuffle_outputs<T> outputs{d_offset.data(),        d_rotate.data(), d_up.data(),
                                   d_up_in_place.data(),   d_suffix.data(), d_down.data(),
                                   d_down_in_place.data(), d_prefix.data()};
  shuffle_kernel<ConfigT><<<shuffle_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(
      d_in.data(), d_fill.data(), d_offsets.data(), d_rotations.data(), outputs);
  strata_test::check_launch();

  {
    INFO("Offset");
    strata_test::check_equal(offset, d_offset.download());
  }
  {
    INFO("Rotate");
    strata_test::check_equal(rotate, d_rotate.download());
  }
  {
    INFO("Up");
    strata_test::check_equal(up, d_up.download());
  }
  {
    INFO("Up in place");
    strata_test::check_equal(up_in_place, d_up_in_place.download());
  }
  {
    INFO("Up's block_suffix");
    strata_test::check_equal(suffix, d_suffix.download());
  }
  {
    INFO("Down");
    strata_test::check_equal(down, d_down.download());
  }
  {
    INFO("Down in place");
    strata_test::check_equal(down_in_place, d_down_in_place.download());
  }
  {
    INFO("Down's block_prefix");
    strata_test::check_equal(prefix, d_prefix.download());
  }
}

//! The class documentation's snippet: Up on 128 threads of 4 consecutive integers each.
__global__ void __launch_bounds__(128) documented_up_kernel(int* d_prev, int* d_suffix)
{
  using BlockShuffleT = strata::BlockShuffle<int, 128>;
  __shared__ BlockShuffleT::TempStorage temp_storage;
  const int t = static_cast<int>(threadIdx.x);
  int items[4];
  int prev[4] = {-1, -1, -1, -1};
  for (int i = 0; i < 4; ++i)
  {
    items[i] = 4 * t + i;
  }
  int suffix = -1;
  BlockShuffleT(temp_storage).Up(items, prev, suffix);
  for (int i = 0; i < 4; ++i)
  {
    d_prev[4 * t + i] = prev[i];
  }
  d_suffix[t] = suffix;
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

// Each type once (custom_t twice); shapes cycle through 7 values and item counts through 5, so
// every shape meets several item counts and types.
using c00 = shuffle_config<int8_t, 32, 1, 1, 1>;
using c01 = shuffle_config<uint8_t, 80, 1, 1, 3>;
using c02 = shuffle_config<int16_t, 128, 1, 1, 4>;
using c03 = shuffle_config<uint16_t, 256, 1, 1, 7>;
using c04 = shuffle_config<int32_t, 1024, 1, 1, 11>;
using c05 = shuffle_config<uint32_t, 16, 8, 1, 1>;
using c06 = shuffle_config<int64_t, 8, 4, 2, 3>;
using c07 = shuffle_config<uint64_t, 32, 1, 1, 4>;
using c08 = shuffle_config<float, 80, 1, 1, 7>;
using c09 = shuffle_config<double, 128, 1, 1, 11>;
using c10 = shuffle_config<__half, 256, 1, 1, 1>;
using c11 = shuffle_config<__nv_bfloat16, 1024, 1, 1, 3>;
using c12 = shuffle_config<custom_t, 16, 8, 1, 4>;
using c13 = shuffle_config<custom_t, 8, 4, 2, 11>;
} // namespace

TEMPLATE_TEST_CASE("BlockShuffle: every member over block shapes, item counts and types", "[block][shuffle]", c00, c01,
                   c02, c03, c04, c05, c06, c07, c08, c09, c10, c11, c12, c13)
{
  STRATA_TEST_REQUIRE_GPU();
  check_block_shuffle<TestType>(TestType::threads * 16 + TestType::items);
}

TEST_CASE("BlockShuffle: Up of consecutive integers (the class snippet)", "[block][shuffle]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_prev(512), d_suffix(128);
  d_prev.poison();
  d_suffix.poison();
  documented_up_kernel<<<1, 128>>>(d_prev.data(), d_suffix.data());
  strata_test::check_launch();
  // Thread t's prev is {4t - 1, 4t, 4t + 1, 4t + 2}; thread 0 keeps its prev[0] (-1).
  std::vector<int> prev(512);
  for (int g = 0; g < 512; ++g)
  {
    prev[g] = g - 1;
  }
  strata_test::check_equal(prev, d_prev.download());
  strata_test::check_equal(std::vector<int>(128, 511), d_suffix.download());
}

// Tests of strata/block/block_histogram.cuh: BLOCK_HISTO_SORT and BLOCK_HISTO_ATOMIC against a
// host count, over BINS in {1, 8, 32, 256, 1000}, sample types uint8/uint16/int32, every block
// shape in {32, 80, 96, 128, 256, 1024, 16x8, 8x4x2} and items per thread in {1, 3, 4, 7, 11},
// combined pairwise. Every block of a grid gets its own distribution (spread over all bins, one
// bin, a few bins, a cyclic pattern, the two extreme bins) and counts it with Histogram() into
// shared memory, with InitHistogram() + Composite() over several tiles (private storage), with
// Histogram() straight into global memory, and (atomic only) with Composite() of every block into
// one global histogram that already holds counts.
#include <strata/block/block_histogram.cuh>

#include "common/shapes.cuh"
#include "common/test_common.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace
{
constexpr int histogram_blocks = 5; // one per sample distribution
constexpr int histogram_tiles  = 3; // tiles per block for the Composite() loop

template <int IPT, typename T>
__device__ void load_samples(const T* tile, int rank, T (&samples)[IPT])
{
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    samples[i] = tile[rank * IPT + i];
  }
}

template <int BINS, typename CounterT, typename OutT>
__device__ void copy_histogram(const CounterT* histogram, OutT* out, int rank, int threads)
{
  for (int bin = rank; bin < BINS; bin += threads)
  {
    out[bin] = static_cast<OutT>(histogram[bin]);
  }
}

template <typename T, int BX, int BY, int BZ, int IPT, int BINS>
struct histogram_config : strata_test::block_shape<BX, BY, BZ, IPT>
{
  using type                = T;
  static constexpr int bins = BINS;
};

//! Where the kernel writes, per block: BINS counters each (`shared_total` is one histogram of all
//! blocks, composited by the atomic algorithm only).
struct histogram_outputs
{
  unsigned int* single; // Histogram() of tile 0 into shared memory
  unsigned int* tiles;  // InitHistogram() + Composite() of every tile, private TempStorage
  int* global;          // Histogram() of the last tile straight into global memory
  unsigned long long* shared_total;
};

template <typename ConfigT, strata::BlockHistogramAlgorithm ALGORITHM>
__global__ void __launch_bounds__(ConfigT::threads, 1)
    histogram_kernel(const typename ConfigT::type* samples, histogram_outputs out)
{
  using T               = typename ConfigT::type;
  constexpr int BX      = ConfigT::block_dim_x;
  constexpr int BY      = ConfigT::block_dim_y;
  constexpr int BZ      = ConfigT::block_dim_z;
  constexpr int BINS    = ConfigT::bins;
  constexpr int THREADS = ConfigT::threads;
  constexpr int TILE    = ConfigT::tile;
  using BlockHistogramT = strata::BlockHistogram<T, BX, ConfigT::items, BINS, ALGORITHM, BY, BZ>;
  __shared__ typename BlockHistogramT::TempStorage temp_storage;
  __shared__ unsigned int histogram[BINS];

  const int rank            = strata::RowMajorTid(BX, BY, BZ);
  const int block           = static_cast<int>(blockIdx.x);
  const T* block_samples    = samples + block * histogram_tiles * TILE;
  const int histogram_start = block * BINS;

  T items[ConfigT::items];
  load_samples(block_samples, rank, items);
  BlockHistogramT(temp_storage).Histogram(items, histogram);
  __syncthreads();
  copy_histogram<BINS>(histogram, out.single + histogram_start, rank, THREADS);
  __syncthreads();

  BlockHistogramT().InitHistogram(histogram);
  __syncthreads();
  for (int tile = 0; tile < histogram_tiles; ++tile)
  {
    load_samples(block_samples + tile * TILE, rank, items);
    BlockHistogramT().Composite(items, histogram);
    __syncthreads();
  }
  copy_histogram<BINS>(histogram, out.tiles + histogram_start, rank, THREADS);
  __syncthreads();

  load_samples(block_samples + (histogram_tiles - 1) * TILE, rank, items);
  BlockHistogramT(temp_storage).Histogram(items, out.global + histogram_start);

  if constexpr (ALGORITHM == strata::BLOCK_HISTO_ATOMIC)
  {
    __syncthreads();
    load_samples(block_samples, rank, items);
    BlockHistogramT(temp_storage).Composite(items, out.shared_total);
  }
}

//! Samples of all blocks: block b's tiles follow one distribution each (see the file comment).
std::vector<int> histogram_samples(int bins, int tile, std::uint64_t seed)
{
  const int per_block = histogram_tiles * tile;
  std::vector<int> samples(static_cast<std::size_t>(histogram_blocks * per_block));
  strata_test::generator<int> gen(seed);
  const int few[3] = {gen(0, bins - 1), gen(0, bins - 1), gen(0, bins - 1)};
  const int step   = gen(1, 97);
  for (int j = 0; j < per_block; ++j)
  {
    samples[0 * per_block + j] = gen(0, bins - 1);
    samples[1 * per_block + j] = bins - 1;
    samples[2 * per_block + j] = few[gen(0, 2)];
    samples[3 * per_block + j] = static_cast<int>((static_cast<long long>(j) * step + 1) % bins);
    samples[4 * per_block + j] = gen(0, 1) * (bins - 1);
  }
  return samples;
}

//! Counts of samples[begin, begin + count) (host reference).
std::vector<unsigned int> count_bins(const std::vector<int>& samples, std::size_t begin, std::size_t count, int bins)
{
  std::vector<unsigned int> counts(static_cast<std::size_t>(bins), 0u);
  for (std::size_t j = begin; j < begin + count; ++j)
  {
    ++counts[static_cast<std::size_t>(samples[j])];
  }
  return counts;
}

template <typename ConfigT, strata::BlockHistogramAlgorithm ALGORITHM>
void check_block_histogram(std::uint64_t salt)
{
  using T                     = typename ConfigT::type;
  constexpr int BINS          = ConfigT::bins;
  constexpr int TILE          = ConfigT::tile;
  const std::uint64_t seed    = strata_test::seed(salt);
  const std::size_t per_block = static_cast<std::size_t>(histogram_tiles) * TILE;
  INFO((ALGORITHM == strata::BLOCK_HISTO_SORT ? "BLOCK_HISTO_SORT" : "BLOCK_HISTO_ATOMIC")
       << ", block " << ConfigT::block_dim_x << "x" << ConfigT::block_dim_y << "x" << ConfigT::block_dim_z << ", "
       << ConfigT::items << " items per thread, " << BINS << " bins, seed " << seed);

  const std::vector<int> samples = histogram_samples(BINS, TILE, seed);
  std::vector<T> typed(samples.size());
  std::transform(samples.begin(), samples.end(), typed.begin(), [](int s) { return static_cast<T>(s); });

  std::vector<unsigned int> single, tiles;
  std::vector<int> global;
  std::vector<unsigned long long> shared_total(static_cast<std::size_t>(BINS));
  strata_test::generator<unsigned int> base_gen(seed + 1);
  for (auto& count : shared_total)
  {
    count = base_gen(0, 1000);
  }
  const std::vector<unsigned long long> shared_base = shared_total;
  for (int b = 0; b < histogram_blocks; ++b)
  {
    const std::size_t start = b * per_block;
    const auto first_tile   = count_bins(samples, start, TILE, BINS);
    const auto all_tiles    = count_bins(samples, start, per_block, BINS);
    const auto last_tile    = count_bins(samples, start + per_block - TILE, TILE, BINS);
    single.insert(single.end(), first_tile.begin(), first_tile.end());
    tiles.insert(tiles.end(), all_tiles.begin(), all_tiles.end());
    global.insert(global.end(), last_tile.begin(), last_tile.end());
    for (int bin = 0; bin < BINS; ++bin)
    {
      shared_total[bin] += first_tile[bin];
    }
  }

  const std::size_t counters = static_cast<std::size_t>(histogram_blocks) * BINS;
  strata_test::device_buffer<T> d_samples(typed);
  strata_test::device_buffer<unsigned int> d_single(counters), d_tiles(counters);
  strata_test::device_buffer<int> d_global(counters);
  strata_test::device_buffer<unsigned long long> d_shared_total(shared_base);
  d_single.poison();
  d_tiles.poison();
  d_global.poison();
  histogram_kernel<ConfigT, ALGORITHM>
      <<<histogram_blocks, dim3(ConfigT::block_dim_x, ConfigT::block_dim_y, ConfigT::block_dim_z)>>>(
          d_samples.data(), histogram_outputs{d_single.data(), d_tiles.data(), d_global.data(), d_shared_total.data()});
  strata_test::check_launch();

  {
    INFO("Histogram() into shared memory (blocks: spread, one bin, few bins, cyclic, extremes)");
    strata_test::check_equal(single, d_single.download());
  }
  {
    INFO("InitHistogram() + Composite() of " << histogram_tiles << " tiles");
    strata_test::check_equal(tiles, d_tiles.download());
  }
  {
    INFO("Histogram() into global memory");
    strata_test::check_equal(global, d_global.download());
  }
  if constexpr (ALGORITHM == strata::BLOCK_HISTO_ATOMIC)
  {
    INFO("Composite() of every block into one global histogram with initial counts");
    strata_test::check_equal(shared_total, d_shared_total.download());
  }
}

//! The class snippets: 256 bins of 128 threads x 4 byte samples, sample 4t + i of thread t
//! being (4t + i) mod 256, so that every bin counts exactly 2; Histogram(), then
//! InitHistogram() directly followed by Composite() (as CUB's snippet does, which is fine for
//! BLOCK_HISTO_SORT), and a second Composite() of the same tile (4 per bin).
__global__ void __launch_bounds__(128) documented_histogram_kernel(unsigned int* d_once, unsigned int* d_twice)
{
  using BlockHistogramT = strata::BlockHistogram<unsigned char, 128, 4, 256>;
  __shared__ BlockHistogramT::TempStorage temp_storage;
  __shared__ unsigned int smem_histogram[256];
  const int t = static_cast<int>(threadIdx.x);
  unsigned char thread_samples[4];
  for (int i = 0; i < 4; ++i)
  {
    thread_samples[i] = static_cast<unsigned char>((4 * t + i) % 256);
  }
  BlockHistogramT(temp_storage).Histogram(thread_samples, smem_histogram);
  __syncthreads();
  for (int bin = t; bin < 256; bin += 128)
  {
    d_once[bin] = smem_histogram[bin];
  }
  __syncthreads();

  BlockHistogramT(temp_storage).InitHistogram(smem_histogram);
  BlockHistogramT(temp_storage).Composite(thread_samples, smem_histogram);
  __syncthreads();
  BlockHistogramT(temp_storage).Composite(thread_samples, smem_histogram);
  __syncthreads();
  for (int bin = t; bin < 256; bin += 128)
  {
    d_twice[bin] = smem_histogram[bin];
  }
}

using std::int32_t;
using std::uint16_t;
using std::uint8_t;

// Every type meets every BINS value it can hold; shapes and item counts cycle so that every
// shape meets several item counts, bin counts and types.
using h00 = histogram_config<uint8_t, 32, 1, 1, 7, 256>;
using h01 = histogram_config<uint16_t, 32, 1, 1, 1, 1000>;
using h02 = histogram_config<int32_t, 80, 1, 1, 3, 32>;
using h03 = histogram_config<uint8_t, 128, 1, 1, 4, 256>;
using h04 = histogram_config<uint16_t, 256, 1, 1, 11, 8>;
using h05 = histogram_config<int32_t, 1024, 1, 1, 3, 1000>;
using h06 = histogram_config<uint8_t, 16, 8, 1, 11, 32>;
using h07 = histogram_config<int32_t, 8, 4, 2, 4, 8>;
using h08 = histogram_config<uint16_t, 80, 1, 1, 7, 256>;
using h09 = histogram_config<uint8_t, 96, 1, 1, 1, 8>;
using h10 = histogram_config<int32_t, 256, 1, 1, 1, 256>;
using h11 = histogram_config<uint16_t, 16, 8, 1, 3, 1000>;
using h12 = histogram_config<uint8_t, 96, 1, 1, 3, 1>;
} // namespace

TEMPLATE_TEST_CASE("BlockHistogram: both algorithms agree with a host count", "[block][histogram]", h00, h01, h02, h03,
                   h04, h05, h06, h07, h08, h09, h10, h11, h12)
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t salt = TestType::threads * 64 + TestType::items * 8 + TestType::bins;
  check_block_histogram<TestType, strata::BLOCK_HISTO_SORT>(salt);
  check_block_histogram<TestType, strata::BLOCK_HISTO_ATOMIC>(salt);
}

TEST_CASE("BlockHistogram: 256 bins of 512 byte samples (the class snippets)", "[block][histogram]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<unsigned int> d_once(256), d_twice(256);
  d_once.poison();
  d_twice.poison();
  documented_histogram_kernel<<<1, 128>>>(d_once.data(), d_twice.data());
  strata_test::check_launch();
  strata_test::check_equal(std::vector<unsigned int>(256, 2u), d_once.download());
  strata_test::check_equal(std::vector<unsigned int>(256, 4u), d_twice.download());
}

TEST_CASE("BlockHistogram: CUB's enumerators, and TempStorage fits in a union", "[block][histogram]")
{
  STATIC_REQUIRE(strata::BLOCK_HISTO_SORT == 0);
  STATIC_REQUIRE(strata::BLOCK_HISTO_ATOMIC == 1);
  using SortT   = strata::BlockHistogram<std::uint8_t, 128, 4, 256>;
  using AtomicT = strata::BlockHistogram<std::uint8_t, 128, 4, 256, strata::BLOCK_HISTO_ATOMIC>;
  STATIC_REQUIRE(std::is_trivially_default_constructible_v<SortT::TempStorage>);
  STATIC_REQUIRE(std::is_trivially_default_constructible_v<AtomicT::TempStorage>);
  STATIC_REQUIRE(std::is_trivially_destructible_v<SortT::TempStorage>);
  // The sorted tile of byte bins, two run offsets per bin, and at most one counter per digit and
  // warp (plus padding) must fit comfortably for the largest block.
  STATIC_REQUIRE(sizeof(strata::BlockHistogram<std::uint16_t, 1024, 11, 1000>::TempStorage) < 40 * 1024);
}

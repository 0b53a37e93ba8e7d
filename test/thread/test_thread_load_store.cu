// Tests of strata/thread/thread_load.cuh and thread_store.cuh: every CacheLoadModifier with every
// CacheStoreModifier copies values of 1, 2, 4, 8, 12 (custom_t) and 16 bytes and __half through
// global memory intact; the volatile modifiers also work on shared memory; iterators that are not
// pointers are dereferenced. (That each modifier emits its own PTX instruction is checked by
// check_cache_modifiers_ptx.cmake.)
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_store.cuh>
#include <strata/util_type.cuh>

#include "common/test_common.cuh"

#include <cuda/std/iterator>

#include <cstring>
#include <iterator>

namespace
{
//! 16 bytes, 16-byte aligned: moved as one 16-byte word.
struct alignas(16) wide16
{
  std::uint64_t lo;
  std::uint64_t hi;
};

template <typename T>
std::vector<T> values(std::size_t n, std::uint64_t seed)
{
  if constexpr (std::is_same_v<T, wide16>)
  {
    const std::vector<std::uint64_t> words = strata_test::random_vector<std::uint64_t>(2 * n, seed);
    std::vector<T> result(n);
    std::memcpy(static_cast<void*>(result.data()), words.data(), n * sizeof(T));
    return result;
  }
  else
  {
    return strata_test::random_vector<T>(n, seed);
  }
}

constexpr strata::CacheLoadModifier load_modifiers[]   = {strata::LOAD_DEFAULT, strata::LOAD_CA, strata::LOAD_CG,
                                                          strata::LOAD_CS,      strata::LOAD_CV, strata::LOAD_LDG,
                                                          strata::LOAD_VOLATILE};
constexpr strata::CacheStoreModifier store_modifiers[] = {strata::STORE_DEFAULT, strata::STORE_WB,
                                                          strata::STORE_CG,      strata::STORE_CS,
                                                          strata::STORE_WT,      strata::STORE_VOLATILE};

//! ThreadLoad with a modifier chosen at run time (one kernel per type covers them all).
template <typename IteratorT>
__device__ auto load_with(strata::CacheLoadModifier modifier, IteratorT itr)
{
  switch (modifier)
  {
  case strata::LOAD_CA:
    return strata::ThreadLoad<strata::LOAD_CA>(itr);
  case strata::LOAD_CG:
    return strata::ThreadLoad<strata::LOAD_CG>(itr);
  case strata::LOAD_CS:
    return strata::ThreadLoad<strata::LOAD_CS>(itr);
  case strata::LOAD_CV:
    return strata::ThreadLoad<strata::LOAD_CV>(itr);
  case strata::LOAD_LDG:
    return strata::ThreadLoad<strata::LOAD_LDG>(itr);
  case strata::LOAD_VOLATILE:
    return strata::ThreadLoad<strata::LOAD_VOLATILE>(itr);
  default:
    return strata::ThreadLoad<strata::LOAD_DEFAULT>(itr);
  }
}

template <typename IteratorT, typename T>
__device__ void store_with(strata::CacheStoreModifier modifier, IteratorT itr, T value)
{
  switch (modifier)
  {
  case strata::STORE_WB:
    return strata::ThreadStore<strata::STORE_WB>(itr, value);
  case strata::STORE_CG:
    return strata::ThreadStore<strata::STORE_CG>(itr, value);
  case strata::STORE_CS:
    return strata::ThreadStore<strata::STORE_CS>(itr, value);
  case strata::STORE_WT:
    return strata::ThreadStore<strata::STORE_WT>(itr, value);
  case strata::STORE_VOLATILE:
    return strata::ThreadStore<strata::STORE_VOLATILE>(itr, value);
  default:
    return strata::ThreadStore<strata::STORE_DEFAULT>(itr, value);
  }
}

template <typename T>
__global__ void copy_kernel(const T* in, T* out, strata::CacheLoadModifier load, strata::CacheStoreModifier store,
                            int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    store_with(store, out + i, load_with(load, in + i));
  }
}

//! Each thread writes its value to shared memory with a volatile store and reads its mirror
//! image's with a volatile load: the block's values come out reversed.
template <typename T>
__global__ void shared_volatile_kernel(const T* in, T* out)
{
  constexpr int BLOCK = 128;
  __shared__ strata::Uninitialized<T[BLOCK]> storage;
  T(&tile)[BLOCK] = storage.Alias();
  const int t     = static_cast<int>(threadIdx.x);
  const int base  = static_cast<int>(blockIdx.x) * BLOCK;
  strata::ThreadStore<strata::STORE_VOLATILE>(tile + t, in[base + t]);
  __syncthreads();
  out[base + t] = strata::ThreadLoad<strata::LOAD_VOLATILE>(tile + (BLOCK - 1 - t));
}

//! A random-access input iterator that computes 3 * i + 1 at position i.
struct affine_counting_iterator
{
  using value_type        = long long;
  using difference_type   = long long;
  using pointer           = const long long*;
  using reference         = long long;
  using iterator_category = cuda::std::random_access_iterator_tag;

  long long position;

  __host__ __device__ long long operator*() const
  {
    return 3 * position + 1;
  }
  __host__ __device__ affine_counting_iterator operator+(long long offset) const
  {
    return {position + offset};
  }
};

//! An output iterator that stores twice what is assigned through it.
struct doubling_output_iterator
{
  struct proxy
  {
    long long* target;
    __device__ proxy& operator=(long long value)
    {
      *target = 2 * value;
      return *this;
    }
  };
  long long* base;

  __device__ proxy operator*() const
  {
    return {base};
  }
  __device__ doubling_output_iterator operator+(long long offset) const
  {
    return {base + offset};
  }
};

__global__ void iterator_kernel(long long* loaded, long long* stored, strata::CacheLoadModifier load,
                                strata::CacheStoreModifier store, int n)
{
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    loaded[i] = load_with(load, affine_counting_iterator{100} + i);
    store_with(store, doubling_output_iterator{stored} + i, static_cast<long long>(i) - 7);
  }
}

template <typename T>
void check_copies()
{
  constexpr int n = 1000; // not a multiple of the block size
  const auto seed = strata_test::seed(sizeof(T));
  INFO("seed " << seed);
  const std::vector<T> in = values<T>(n, seed);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(n);
  for (strata::CacheLoadModifier load : load_modifiers)
  {
    for (strata::CacheStoreModifier store : store_modifiers)
    {
      INFO("load modifier " << load << ", store modifier " << store);
      d_out.poison();
      copy_kernel<<<(n + 255) / 256, 256>>>(d_in.data(), d_out.data(), load, store, n);
      strata_test::check_launch();
      // Bitwise, which needs no operator== (wide16 and __half compare as bytes).
      const std::vector<T> out = d_out.download();
      CHECK(std::memcmp(static_cast<const void*>(out.data()), static_cast<const void*>(in.data()), n * sizeof(T)) == 0);
    }
  }

  constexpr int blocks         = 3;
  const std::vector<T> tile_in = values<T>(blocks * 128, seed + 1);
  std::vector<T> reversed(tile_in.size());
  for (int b = 0; b < blocks; ++b)
  {
    for (int t = 0; t < 128; ++t)
    {
      reversed[b * 128 + t] = tile_in[b * 128 + 127 - t];
    }
  }
  strata_test::device_buffer<T> d_tile_in(tile_in);
  strata_test::device_buffer<T> d_tile_out(tile_in.size());
  d_tile_out.poison();
  shared_volatile_kernel<<<blocks, 128>>>(d_tile_in.data(), d_tile_out.data());
  strata_test::check_launch();
  const std::vector<T> tile_out = d_tile_out.download();
  CHECK(std::memcmp(static_cast<const void*>(tile_out.data()), static_cast<const void*>(reversed.data()),
                    reversed.size() * sizeof(T))
        == 0);
}
} // namespace

using load_store_types = std::tuple<std::uint8_t, std::int16_t, __half, float, double, strata_test::custom_t, wide16>;

TEST_CASE("Cache modifiers keep CUB's enumerator order", "[thread][load][store]")
{
  STATIC_REQUIRE(strata::LOAD_DEFAULT == 0);
  STATIC_REQUIRE(strata::LOAD_CA == 1);
  STATIC_REQUIRE(strata::LOAD_CG == 2);
  STATIC_REQUIRE(strata::LOAD_CS == 3);
  STATIC_REQUIRE(strata::LOAD_CV == 4);
  STATIC_REQUIRE(strata::LOAD_LDG == 5);
  STATIC_REQUIRE(strata::LOAD_VOLATILE == 6);
  STATIC_REQUIRE(strata::STORE_DEFAULT == 0);
  STATIC_REQUIRE(strata::STORE_WB == 1);
  STATIC_REQUIRE(strata::STORE_CG == 2);
  STATIC_REQUIRE(strata::STORE_CS == 3);
  STATIC_REQUIRE(strata::STORE_WT == 4);
  STATIC_REQUIRE(strata::STORE_VOLATILE == 5);
}

TEMPLATE_LIST_TEST_CASE("ThreadLoad and ThreadStore copy global memory with every modifier",
                        "[thread][load][store][gpu]", load_store_types)
{
  STRATA_TEST_REQUIRE_GPU();
  STATIC_REQUIRE((sizeof(TestType) != 16 || sizeof(typename strata::UnitWord<TestType>::DeviceWord) == 16));
  check_copies<TestType>();
}

TEST_CASE("ThreadLoad and ThreadStore dereference iterators that are not pointers", "[thread][load][store][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int n = 300;
  std::vector<long long> expected_loaded(n);
  std::vector<long long> expected_stored(n);
  for (int i = 0; i < n; ++i)
  {
    expected_loaded[i] = 3 * (100LL + i) + 1;
    expected_stored[i] = 2 * (static_cast<long long>(i) - 7);
  }
  strata_test::device_buffer<long long> d_loaded(n);
  strata_test::device_buffer<long long> d_stored(n);
  for (strata::CacheLoadModifier load : load_modifiers)
  {
    const strata::CacheStoreModifier store = store_modifiers[load % std::size(store_modifiers)];
    INFO("load modifier " << load << ", store modifier " << store);
    d_loaded.poison();
    d_stored.poison();
    iterator_kernel<<<(n + 127) / 128, 128>>>(d_loaded.data(), d_stored.data(), load, store, n);
    strata_test::check_launch();
    strata_test::check_equal(expected_loaded, d_loaded.download());
    strata_test::check_equal(expected_stored, d_stored.download());
  }
}

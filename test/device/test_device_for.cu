// Tests of strata/device/device_for.cuh: Bulk, ForEach, ForEachN, ForEachCopy, ForEachCopyN and
// ForEachInExtents (with and without temporary storage) against host references, over several
// item and count types, aligned and misaligned pointers (ForEachCopy's vector path with its
// head, and its fallback), a fancy iterator, sizes from 0 to 2^24 + 13 around the tiles of the
// policy the device runs, every item outside the range left untouched, Bulk's calls counted per
// index (exactly one each); bad arguments and the size query (host only: they must not reach the
// GPU); a CUDA graph, two streams; more than 2^31 items ([slow]).
#include <strata/device/device_for.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/test_common.cuh"
#include "device_reduce_checks.cuh"

#include <cuda/std/mdspan>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using strata_test::custom_t;

//! The ForPolicy the device runs, read through the policy chain as DispatchFor reads it.
struct for_policy_probe
{
  int block_threads      = 0;
  int items_per_thread   = 0;
  int vectors_per_thread = 0;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    block_threads      = ActivePolicyT::ForPolicy::BLOCK_THREADS;
    items_per_thread   = ActivePolicyT::ForPolicy::ITEMS_PER_THREAD;
    vectors_per_thread = ActivePolicyT::ForPolicy::VECTORS_PER_THREAD;
    return cudaSuccess;
  }
};

for_policy_probe device_policy()
{
  int ptx_version = 0;
  STRATA_TEST_CUDA(strata::PtxVersion(ptx_version));
  for_policy_probe probe;
  STRATA_TEST_CUDA(strata::detail::for_each::policy_hub::MaxPolicy::Invoke(ptx_version, probe));
  return probe;
}

constexpr std::size_t max_items = (std::size_t(1) << 24) + 13;

//! {0, 1, 2, 100003, 2^20, 2^24 + 13} and tile - 1, tile, tile + 1, 2 tiles + 1 for each tile;
//! 2^24 + 13 not under the sanitizers (one block a tile: 2^20's code paths again).
std::vector<std::size_t> sizes_around(std::initializer_list<std::size_t> tiles)
{
  std::vector<std::size_t> sizes = {0, 1, 2, 100003, std::size_t(1) << 20};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back(max_items);
  }
  for (std::size_t tile : tiles)
  {
    for (std::size_t n : {tile - 1, tile, tile + 1, 2 * tile + 1})
    {
      sizes.push_back(n);
    }
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

template <typename T>
__host__ __device__ T one()
{
  if constexpr (std::is_same_v<T, custom_t>)
  {
    return custom_t{1, -2, 3};
  }
  else
  {
    return T(1);
  }
}

//! 2x + 1 (wrapping for integers: computed unsigned, so no signed overflow; x + x is exact in
//! floating point, so the device rounds once, as the host does).
template <typename T>
__host__ __device__ T affine(T x)
{
  if constexpr (std::is_integral_v<T>)
  {
    using U = std::make_unsigned_t<T>;
    return T(U(U(x) + U(x) + U(1)));
  }
  else
  {
    return T(x + x + one<T>());
  }
}

struct affine_in_place
{
  template <typename T>
  __device__ void operator()(T& x) const
  {
    x = affine(x);
  }
};

//! Where an item of a ForEachCopy test goes: its value is (or its first member holds) its index.
template <typename T>
__host__ __device__ std::size_t key(const T& v)
{
  if constexpr (std::is_same_v<T, custom_t>)
  {
    return static_cast<std::size_t>(v.a);
  }
  else
  {
    return static_cast<std::size_t>(v);
  }
}

//! Writes affine(v) at out[key(v)]: items with distinct keys land in distinct slots.
template <typename T>
struct scatter_copy
{
  T* out;
  __device__ void operator()(T v) const
  {
    out[key(v)] = affine(v);
  }
};

//! Counts the items of each value (for small types whose values cannot be distinct indices).
template <typename T>
struct count_values
{
  unsigned int* counts;
  __device__ void operator()(T v) const
  {
    atomicAdd(counts + key(v), 1u);
  }
};

struct bulk_write
{
  std::int64_t* out;
  template <typename I>
  __device__ void operator()(I i) const
  {
    out[i] = std::int64_t(i) * 5 - 3;
  }
};

//! Counts the calls for each index (CUB's tests require one call per index).
struct count_index
{
  unsigned int* counts;
  template <typename I>
  __device__ void operator()(I i) const
  {
    atomicAdd(counts + i, 1u);
  }
};

struct increment_byte
{
  __device__ void operator()(std::uint8_t& x) const
  {
    ++x;
  }
};

//! Traps if it ever runs: calls that must launch nothing get it.
struct must_not_run
{
  template <typename... ArgsT>
  __device__ void operator()(ArgsT&&...) const
  {
    __trap();
  }
};

struct increment_at
{
  std::uint8_t* bytes;
  __device__ void operator()(std::int64_t i) const
  {
    ++bytes[i];
  }
};

//! Counts the items equal to 7, with one atomic per warp (2^31 updates of one counter would be
//! slow).
struct count_sevens
{
  unsigned long long* count;
  __device__ void operator()(std::uint8_t x) const
  {
    const unsigned int lanes  = __activemask();
    const unsigned int sevens = __ballot_sync(lanes, x == 7);
    if (int(threadIdx.x & 31) == __ffs(lanes) - 1)
    {
      atomicAdd(count, static_cast<unsigned long long>(__popc(sevens)));
    }
  }
};

//! The value of an int64 whose bytes are all strata_test::poison_byte.
std::int64_t poisoned_int64()
{
  std::int64_t value;
  std::memset(&value, strata_test::poison_byte, sizeof(value));
  return value;
}

//! Records the linear index and the coordinates of a 3-dimensional index space.
template <typename I, typename L>
struct record_coordinates
{
  std::int64_t* out;
  __device__ void operator()(L i, I a, I b, I c) const
  {
    out[4 * std::int64_t(i)]     = std::int64_t(i);
    out[4 * std::int64_t(i) + 1] = a;
    out[4 * std::int64_t(i) + 2] = b;
    out[4 * std::int64_t(i) + 3] = c;
  }
};

template <typename I, typename L>
struct record_linear
{
  std::int64_t* out;
  __device__ void operator()(L i, I a) const
  {
    out[i] = std::int64_t(a) * 3 + 1;
  }
};

struct record_rank0
{
  std::int64_t* out;
  __device__ void operator()(int i) const
  {
    out[i] = 42;
  }
};

using for_types = std::tuple<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double, __half, custom_t>;
using scatter_types = std::tuple<std::int32_t, std::uint64_t, custom_t>;
using count_types   = std::tuple<std::uint8_t, std::int16_t>;
} // namespace

TEMPLATE_LIST_TEST_CASE("DeviceFor::ForEach and ForEachN modify every item in place", "[device][for]", for_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(151);
  INFO("seed " << seed);
  const for_policy_probe policy = device_policy();
  const std::size_t size        = max_items + 3;
  const std::vector<T> in       = strata_test::random_vector<T>(size, seed); // floating point in [-100, 100]
  strata_test::device_buffer<T> d_data(size);
  std::size_t call = 0;
  for (std::size_t offset : {std::size_t(0), std::size_t(1)})
  {
    for (std::size_t n : sizes_around({std::size_t(policy.block_threads * policy.items_per_thread)}))
    {
      INFO("num_items " << n << ", offset " << offset);
      d_data.upload(in);
      T* first               = d_data.data() + offset;
      const std::size_t form = call++ % 4;
      switch (form)
      {
      case 0:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(first, static_cast<std::int64_t>(n), affine_in_place{}));
        break;
      case 1:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEach(first, first + n, affine_in_place{}));
        break;
      default:
      {
        // The two-phase forms (ForEachN with a 32-bit count, and, as CUB's, accepting a size of 0).
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(strata::DeviceFor::ForEach(nullptr, bytes, first, first + n, affine_in_place{}));
        CHECK(bytes == 1);
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        if (form == 2)
        {
          STRATA_TEST_CUDA(strata::DeviceFor::ForEach(d_temp.data(), bytes, first, first + n, affine_in_place{}));
        }
        else
        {
          std::size_t no_bytes = 0;
          STRATA_TEST_CUDA(
              strata::DeviceFor::ForEachN(d_temp.data(), no_bytes, first, static_cast<int>(n), affine_in_place{}));
        }
        break;
      }
      }
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<T> expected = in;
      for (std::size_t i = offset; i < offset + n; ++i)
      {
        expected[i] = affine(in[i]);
      }
      strata_test::check_equal(expected, d_data.download());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceFor::ForEachCopy and ForEachCopyN hand every item to the operator once", "[device][for]",
                        scatter_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                       = TestType;
  const for_policy_probe policy = device_policy();
  const std::size_t index_tile  = std::size_t(policy.block_threads * policy.items_per_thread);
  const std::size_t vector_tile =
      std::size_t(policy.block_threads * policy.vectors_per_thread) * strata::detail::tile::items_per_vector_v<T>;
  const std::size_t size = max_items + 3;
  // Values are the indices: each item's operator call writes a distinct output slot.
  std::vector<T> in(size);
  for (std::size_t i = 0; i < size; ++i)
  {
    if constexpr (std::is_same_v<T, custom_t>)
    {
      in[i] = custom_t{static_cast<std::int32_t>(i), static_cast<std::int32_t>(i * 7), -3};
    }
    else
    {
      in[i] = T(i);
    }
  }
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(size);
  std::vector<T> expected(size);
  std::size_t call = 0;
  // Offsets 1 and 3 start off a 16-byte boundary: the vector path begins with a head of items.
  for (std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(3)})
  {
    for (std::size_t n : sizes_around({index_tile, vector_tile}))
    {
      INFO("num_items " << n << ", offset " << offset);
      d_out.poison();
      const T* first = d_in.data() + offset;
      const scatter_copy<T> op{d_out.data()};
      switch (call++ % 3)
      {
      case 0:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(first, static_cast<int>(n), op));
        break;
      case 1:
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopy(first, first + n, op));
        break;
      default:
      {
        std::size_t bytes = 0;
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(nullptr, bytes, first, n, op));
        strata_test::device_buffer<unsigned char> d_temp(bytes);
        std::size_t run_bytes = offset == 1 ? 0 : bytes; // CUB's forms accept any size; so do strata's
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(d_temp.data(), run_bytes, first, n, op));
        break;
      }
      }
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::memset(static_cast<void*>(expected.data()), strata_test::poison_byte, size * sizeof(T));
      for (std::size_t i = offset; i < offset + n; ++i)
      {
        expected[i] = affine(in[i]);
      }
      strata_test::check_equal(expected, d_out.download());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("DeviceFor::ForEachCopy over small items counts every value", "[device][for]", count_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                    = TestType;
  constexpr std::size_t bins = 200;
  const std::uint64_t seed   = strata_test::seed(153);
  INFO("seed " << seed);
  const for_policy_probe policy = device_policy();
  const std::size_t vector_tile =
      std::size_t(policy.block_threads * policy.vectors_per_thread) * strata::detail::tile::items_per_vector_v<T>;
  const std::size_t size  = max_items + 15;
  const std::vector<T> in = strata_test::random_vector<T>(size, seed, 0.0, double(bins - 1));
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<unsigned int> d_counts(bins);
  // Offsets 1, 5 and 15 leave heads of 15, 11 and 1 items before a 16-byte boundary (bytes), or
  // 7, 3 and 1 (16-bit items).
  for (std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(5), std::size_t(15)})
  {
    for (std::size_t n : sizes_around({std::size_t(policy.block_threads * policy.items_per_thread), vector_tile}))
    {
      INFO("num_items " << n << ", offset " << offset);
      STRATA_TEST_CUDA(cudaMemset(d_counts.data(), 0, d_counts.bytes()));
      const T* first = d_in.data() + offset;
      if (n % 2 == 0)
      {
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(first, n, count_values<T>{d_counts.data()}));
      }
      else
      {
        STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopy(first, first + n, count_values<T>{d_counts.data()}));
      }
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      std::vector<unsigned int> expected(bins, 0);
      for (std::size_t i = offset; i < offset + n; ++i)
      {
        ++expected[key(in[i])];
      }
      strata_test::check_equal(expected, d_counts.download());
    }
  }
}

TEST_CASE("DeviceFor::ForEachCopyN and ForEachN over a counting iterator", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::size_t size = (std::size_t(1) << 20) + 7;
  strata_test::device_buffer<std::uint64_t> d_out(size);
  d_out.poison();
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(strata::CountingInputIterator<std::uint64_t>(0), size,
                                                   scatter_copy<std::uint64_t>{d_out.data()}));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<std::uint64_t> out = d_out.download();
  std::size_t wrong              = 0;
  for (std::size_t i = 0; i < size; ++i)
  {
    wrong += out[i] != 2 * i + 1;
  }
  CHECK(wrong == 0);

  // ForEach over a non-pointer iterator: the operator takes the (value) item.
  d_out.poison();
  const auto first = strata::CountingInputIterator<std::uint64_t>(0);
  STRATA_TEST_CUDA(strata::DeviceFor::ForEach(first, first + size, scatter_copy<std::uint64_t>{d_out.data()}));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  out   = d_out.download();
  wrong = 0;
  for (std::size_t i = 0; i < size; ++i)
  {
    wrong += out[i] != 2 * i + 1;
  }
  CHECK(wrong == 0);
}

namespace
{
// An iterator whose items are proxy references with a fancy address, shaped as Thrust's
// device_vector iterators are (device_reference: `&r` is a device_ptr, whose get() is the raw
// pointer); the test may not include Thrust.
template <typename T>
struct fancy_pointer
{
  T* raw;
  __host__ __device__ T* get() const
  {
    return raw;
  }
};

template <typename T>
struct proxy_reference
{
  T* raw;
  __host__ __device__ fancy_pointer<T> operator&() const
  {
    return {raw};
  }
  __host__ __device__ operator T() const
  {
    return *raw;
  }
  __host__ __device__ const proxy_reference& operator=(const T& value) const
  {
    *raw = value;
    return *this;
  }
};

template <typename T>
struct proxy_iterator
{
  using value_type        = T;
  using reference         = proxy_reference<T>;
  using pointer           = fancy_pointer<T>;
  using difference_type   = std::ptrdiff_t;
  using iterator_category = std::random_access_iterator_tag;
  T* raw;
  __host__ __device__ reference operator*() const
  {
    return {raw};
  }
  __host__ __device__ reference operator[](difference_type i) const
  {
    return {raw + i};
  }
  __host__ __device__ proxy_iterator operator+(difference_type n) const
  {
    return {raw + n};
  }
  __host__ __device__ difference_type operator-(const proxy_iterator& other) const
  {
    return raw - other.raw;
  }
};
} // namespace

TEST_CASE("DeviceFor::ForEach hands an operator taking T& the item behind a proxy reference", "[device][for]")
{
  // As CUB unwraps Thrust's device_reference: `[] (int& x)` over a device_vector compiles and
  // modifies the vector's items.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(157);
  INFO("seed " << seed);
  const std::size_t size             = 100003; // many tiles of every policy
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(size, seed);
  strata_test::device_buffer<std::int32_t> d_data(size);
  for (const bool counted : {false, true})
  {
    INFO((counted ? "ForEachN" : "ForEach"));
    d_data.upload(in);
    const proxy_iterator<std::int32_t> first{d_data.data() + 1};
    const std::size_t n = size - 2;
    if (counted)
    {
      STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(first, n, affine_in_place{}));
    }
    else
    {
      STRATA_TEST_CUDA(strata::DeviceFor::ForEach(first, first + std::ptrdiff_t(n), affine_in_place{}));
    }
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<std::int32_t> expected = in;
    for (std::size_t i = 1; i <= n; ++i)
    {
      expected[i] = affine(in[i]);
    }
    strata_test::check_equal(expected, d_data.download());
  }
}

TEST_CASE("DeviceFor::Bulk visits every index of the shape once", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  const for_policy_probe policy = device_policy();
  strata_test::device_buffer<std::int64_t> d_bulk(max_items + 1);
  std::vector<std::int64_t> expected(max_items + 1);
  std::size_t call = 0;
  for (std::size_t n : sizes_around({std::size_t(policy.block_threads * policy.items_per_thread)}))
  {
    INFO("shape " << n);
    d_bulk.poison();
    const bulk_write op{d_bulk.data()};
    switch (call++ % 4)
    {
    case 0:
    {
      std::size_t bytes = 0;
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(nullptr, bytes, static_cast<int>(n), op));
      CHECK(bytes == 1);
      strata_test::device_buffer<unsigned char> d_temp(bytes);
      std::size_t run_bytes = n % 2 == 0 ? 0 : bytes; // CUB's forms accept any size; so do strata's
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(d_temp.data(), run_bytes, static_cast<int>(n), op));
      break;
    }
    case 1:
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(static_cast<std::int64_t>(n), op));
      break;
    case 2:
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(n, op));
      break;
    default:
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(static_cast<unsigned>(n), op));
      break;
    }
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    std::memset(static_cast<void*>(expected.data()), strata_test::poison_byte, expected.size() * sizeof(std::int64_t));
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = std::int64_t(i) * 5 - 3;
    }
    strata_test::check_equal(expected, d_bulk.download());
  }

  // Shapes of 8- and 16-bit types, up to their largest values.
  for (const std::size_t n : {1, 100, 127, 65535})
  {
    INFO("shape " << n << " of an 8- or 16-bit type");
    d_bulk.poison();
    if (n <= 127)
    {
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(static_cast<std::int8_t>(n), bulk_write{d_bulk.data()}));
    }
    else
    {
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(static_cast<std::uint16_t>(n), bulk_write{d_bulk.data()}));
    }
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const std::vector<std::int64_t> out = d_bulk.download();
    std::size_t wrong                   = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      wrong += out[i] != std::int64_t(i) * 5 - 3;
    }
    CHECK(wrong == 0);
    CHECK(out[n] == poisoned_int64());
  }
}

TEST_CASE("DeviceFor::Bulk calls the operator exactly once per index", "[device][for]")
{
  // Writes cannot tell a second call from the first; the counts can. The count after the shape
  // must stay 0.
  STRATA_TEST_REQUIRE_GPU();
  const for_policy_probe policy = device_policy();
  strata_test::device_buffer<unsigned int> d_counts(max_items + 1);
  std::size_t call = 0;
  for (std::size_t n : sizes_around({std::size_t(policy.block_threads * policy.items_per_thread)}))
  {
    INFO("shape " << n);
    STRATA_TEST_CUDA(cudaMemset(d_counts.data(), 0, d_counts.bytes()));
    const count_index op{d_counts.data()};
    if (call++ % 2 == 0)
    {
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(static_cast<int>(n), op));
    }
    else
    {
      STRATA_TEST_CUDA(strata::DeviceFor::Bulk(static_cast<std::uint64_t>(n), op));
    }
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<unsigned int> expected(d_counts.size(), 0u);
    std::fill(expected.begin(), expected.begin() + std::ptrdiff_t(n), 1u);
    strata_test::check_equal(expected, d_counts.download());
  }
}

TEST_CASE("DeviceFor::ForEachInExtents visits every coordinate once, the last extent fastest", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  // 3 dimensions, the middle one static: out[4 i .. 4 i + 3] = i, a, b, c.
  for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{0, 5}, {1, 1}, {3, 7}, {37, 129}, {1000, 1031}})
  {
    INFO("extents " << rows << " x 4 x " << cols);
    const cuda::std::extents<int, cuda::std::dynamic_extent, 4, cuda::std::dynamic_extent> extents(rows, cols);
    const std::size_t n = std::size_t(rows) * 4 * std::size_t(cols);
    strata_test::device_buffer<std::int64_t> d_out(4 * n + 4);
    d_out.poison();
    const record_coordinates<int, int> op{d_out.data()};
    if (rows % 2 == 0)
    {
      STRATA_TEST_CUDA(strata::DeviceFor::ForEachInExtents(extents, op));
    }
    else
    {
      std::size_t bytes = 0;
      STRATA_TEST_CUDA(strata::DeviceFor::ForEachInExtents(nullptr, bytes, extents, op));
      CHECK(bytes == 1);
      strata_test::device_buffer<unsigned char> d_temp(bytes);
      std::size_t run_bytes = rows % 4 == 1 ? 0 : bytes; // CUB's forms accept any size; so do strata's
      STRATA_TEST_CUDA(strata::DeviceFor::ForEachInExtents(d_temp.data(), run_bytes, extents, op));
    }
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<std::int64_t> expected(4 * n + 4);
    std::memset(static_cast<void*>(expected.data()), strata_test::poison_byte, expected.size() * sizeof(std::int64_t));
    std::size_t i = 0;
    for (int a = 0; a < rows; ++a)
    {
      for (int b = 0; b < 4; ++b)
      {
        for (int c = 0; c < cols; ++c, ++i)
        {
          expected[4 * i]     = std::int64_t(i);
          expected[4 * i + 1] = a;
          expected[4 * i + 2] = b;
          expected[4 * i + 3] = c;
        }
      }
    }
    strata_test::check_equal(expected, d_out.download());
  }

  // One 64-bit dimension; all-static extents of a 16-bit index type (the linear index promoted
  // to int); no dimensions at all (one index).
  const std::size_t n = (std::size_t(1) << 20) + 3;
  strata_test::device_buffer<std::int64_t> d_out(n + 1);
  d_out.poison();
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachInExtents(cuda::std::dextents<std::int64_t, 1>(std::int64_t(n)),
                                                       record_linear<std::int64_t, std::int64_t>{d_out.data()}));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<std::int64_t> out = d_out.download();
  std::size_t wrong             = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    wrong += out[i] != std::int64_t(i) * 3 + 1;
  }
  CHECK(wrong == 0);
  CHECK(out[n] == poisoned_int64());

  d_out.poison();
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachInExtents(cuda::std::extents<short, 3, 5, 2>{},
                                                       record_coordinates<short, int>{d_out.data()}));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  out   = d_out.download();
  wrong = 0;
  for (std::size_t i = 0; i < 30; ++i)
  {
    wrong += out[4 * i] != std::int64_t(i) || out[4 * i + 1] != std::int64_t(i / 10)
             || out[4 * i + 2] != std::int64_t(i / 2 % 5) || out[4 * i + 3] != std::int64_t(i % 2);
  }
  CHECK(wrong == 0);

  d_out.poison();
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachInExtents(cuda::std::extents<int>{}, record_rank0{d_out.data()}));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  out = d_out.download();
  CHECK(out[0] == 42);
  CHECK(out[1] == poisoned_int64());
}

TEST_CASE("DeviceFor rejects bad arguments without touching the GPU (host)", "[device][for][host]")
{
  int* const null_items = nullptr;
  // A pointer that faults if it is ever used: the checks must come before any launch.
  int* const bogus = reinterpret_cast<int*>(std::uintptr_t(0x10));
  CHECK(strata::DeviceFor::ForEachN(bogus, -1, affine_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachN(bogus, std::int64_t(-5), affine_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachN(null_items, 10, affine_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEach(bogus + 5, bogus, affine_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEach(null_items, null_items + 3, affine_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachCopyN(bogus, -1, must_not_run{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachCopyN(null_items, 7u, must_not_run{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachCopy(bogus + 1, bogus, must_not_run{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::Bulk(-3, must_not_run{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::Bulk(std::int8_t(-1), must_not_run{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachInExtents(cuda::std::dextents<int, 2>(-1, 5), must_not_run{})
        == cudaErrorInvalidValue);
  // 100000 x 100000 indices: the linear index overflows int.
  CHECK(strata::DeviceFor::ForEachInExtents(cuda::std::dextents<int, 2>(100000, 100000), must_not_run{})
        == cudaErrorInvalidValue);
  // A dimension of 0 makes the index space empty however large the others.
  CHECK(strata::DeviceFor::ForEachInExtents(cuda::std::dextents<int, 3>(100000, 0, 100000), must_not_run{})
        == cudaSuccess);

  // No items: success, nothing launched (the operator would fault), with any pointer.
  CHECK(strata::DeviceFor::ForEachN(null_items, 0, must_not_run{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachN(bogus, 0u, must_not_run{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEach(bogus, bogus, must_not_run{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachCopyN(bogus, std::size_t(0), must_not_run{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachCopy(bogus + 1, bogus + 1, must_not_run{}) == cudaSuccess);
  CHECK(strata::DeviceFor::Bulk(0, must_not_run{}) == cudaSuccess);

  // The size query: one byte, whatever the other arguments, and nothing else.
  std::size_t bytes = 0;
  CHECK(strata::DeviceFor::ForEachN(nullptr, bytes, bogus, 1000, must_not_run{}) == cudaSuccess);
  CHECK(bytes == 1);
  bytes = 0;
  CHECK(strata::DeviceFor::ForEach(nullptr, bytes, bogus, bogus + 1000, must_not_run{}) == cudaSuccess);
  CHECK(bytes == 1);
  bytes = 0;
  CHECK(strata::DeviceFor::ForEachCopyN(nullptr, bytes, bogus, 1000, must_not_run{}) == cudaSuccess);
  CHECK(bytes == 1);
  bytes = 0;
  CHECK(strata::DeviceFor::ForEachCopy(nullptr, bytes, bogus, bogus + 1000, must_not_run{}) == cudaSuccess);
  CHECK(bytes == 1);
  bytes = 0;
  CHECK(strata::DeviceFor::Bulk(nullptr, bytes, 1000, must_not_run{}) == cudaSuccess);
  CHECK(bytes == 1);
  bytes = 0;
  CHECK(strata::DeviceFor::ForEachInExtents(nullptr, bytes, cuda::std::dextents<int, 1>(1000), must_not_run{})
        == cudaSuccess);
  CHECK(bytes == 1);

  // The second call accepts any temporary-storage size, 0 included (as CUB's; the runs with 0
  // bytes are in the GPU tests above), but still checks the other arguments before any launch.
  unsigned char storage[1];
  for (std::size_t run_bytes : {std::size_t(0), std::size_t(1)})
  {
    INFO("temp_storage_bytes " << run_bytes);
    bytes = run_bytes;
    CHECK(strata::DeviceFor::ForEachN(storage, bytes, bogus, -1, must_not_run{}) == cudaErrorInvalidValue);
    CHECK(strata::DeviceFor::ForEach(storage, bytes, bogus + 5, bogus, must_not_run{}) == cudaErrorInvalidValue);
    CHECK(strata::DeviceFor::ForEachCopyN(storage, bytes, null_items, 7, must_not_run{}) == cudaErrorInvalidValue);
    CHECK(strata::DeviceFor::ForEachCopy(storage, bytes, bogus + 1, bogus, must_not_run{}) == cudaErrorInvalidValue);
    CHECK(strata::DeviceFor::Bulk(storage, bytes, -1, must_not_run{}) == cudaErrorInvalidValue);
    CHECK(strata::DeviceFor::ForEachInExtents(storage, bytes, cuda::std::dextents<int, 2>(-1, 5), must_not_run{})
          == cudaErrorInvalidValue);
    // No items: success, nothing launched.
    CHECK(strata::DeviceFor::ForEachN(storage, bytes, bogus, 0, must_not_run{}) == cudaSuccess);
    CHECK(strata::DeviceFor::Bulk(storage, bytes, 0, must_not_run{}) == cudaSuccess);
    CHECK(bytes == run_bytes);
  }
}

TEST_CASE("DeviceFor::ExtentsSize counts the indices of an index space (host)", "[device][for][host]")
{
  std::uint64_t size = 0;
  CHECK(strata::detail::for_each::ExtentsSize(cuda::std::extents<int>{}, size));
  CHECK(size == 1);
  CHECK(strata::detail::for_each::ExtentsSize(cuda::std::extents<int, 3, 5>{}, size));
  CHECK(size == 15);
  CHECK(strata::detail::for_each::ExtentsSize(cuda::std::dextents<std::int64_t, 2>(1 << 20, 1 << 20), size));
  CHECK(size == std::uint64_t(1) << 40);
  CHECK(strata::detail::for_each::ExtentsSize(cuda::std::dextents<int, 2>(46340, 46340), size));
  CHECK(size == std::uint64_t(46340) * 46340);
  CHECK_FALSE(strata::detail::for_each::ExtentsSize(cuda::std::dextents<int, 2>(46341, 46341), size));
  CHECK_FALSE(strata::detail::for_each::ExtentsSize(cuda::std::dextents<int, 2>(5, -1), size));
  CHECK(strata::detail::for_each::ExtentsSize(cuda::std::dextents<unsigned, 2>(65536, 65535), size));
  CHECK(size == std::uint64_t(65536) * 65535);
}

TEST_CASE("DeviceFor in CUDA graphs and on two streams", "[device][for]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int n                    = 100003;
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(n, strata_test::seed(157));
  strata_test::device_buffer<std::int32_t> d(in);
  strata_test::device_buffer<std::int32_t> d_other(in);
  strata_test::device_buffer<std::int32_t> d_index(n);
  strata_test::device_buffer<std::int32_t> d_scatter(n);
  const strata_test::stream_pair streams;
  std::vector<std::int32_t> iota(n);
  for (int i = 0; i < n; ++i)
  {
    iota[i] = i;
  }
  d_index.upload(iota);
  device_policy(); // the PTX version is cached before the capture

  // Size queries outside the graph; the second phase of ForEachN and ForEachCopyN captured.
  std::size_t bytes_each = 0;
  std::size_t bytes_copy = 0;
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(nullptr, bytes_each, d.data(), n, affine_in_place{}, streams[0]));
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(nullptr, bytes_copy, d_index.data(), n,
                                                   scatter_copy<std::int32_t>{d_scatter.data()}, streams[0]));
  strata_test::device_buffer<unsigned char> d_temp(std::max(bytes_each, bytes_copy));
  d_scatter.poison();
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeThreadLocal));
  const cudaError_t captured_each =
      strata::DeviceFor::ForEachN(d_temp.data(), bytes_each, d.data(), n, affine_in_place{}, streams[0]);
  const cudaError_t captured_copy = strata::DeviceFor::ForEachCopyN(
      d_temp.data(), bytes_copy, d_index.data(), n, scatter_copy<std::int32_t>{d_scatter.data()}, streams[0]);
  // No items: nothing enters the graph.
  const cudaError_t captured_empty = strata::DeviceFor::ForEachN(d.data(), 0, must_not_run{}, streams[0]);
  STRATA_TEST_CUDA(cudaStreamEndCapture(streams[0], &graph));
  STRATA_TEST_CUDA(captured_each);
  STRATA_TEST_CUDA(captured_copy);
  STRATA_TEST_CUDA(captured_empty);
  std::size_t nodes = 0;
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 2); // one launch per call
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  // Replayed twice: ForEachN's operator applied twice; meanwhile, on the other stream, once.
  STRATA_TEST_CUDA(cudaGraphLaunch(exec, streams[0]));
  STRATA_TEST_CUDA(cudaGraphLaunch(exec, streams[0]));
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(d_other.data(), n, affine_in_place{}, streams[1]));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<std::int32_t> twice(n);
  std::vector<std::int32_t> once(n);
  std::vector<std::int32_t> scattered(n);
  for (int i = 0; i < n; ++i)
  {
    once[i]      = affine(in[i]);
    twice[i]     = affine(once[i]);
    scattered[i] = affine(i);
  }
  strata_test::check_equal(twice, d.download());
  strata_test::check_equal(once, d_other.download());
  strata_test::check_equal(scattered, d_scatter.download());
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
}

TEST_CASE("DeviceFor over more than 2^31 items", "[device][for][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t(1) << 31) + 1000;
  strata_test::device_buffer<std::uint8_t> d(static_cast<std::size_t>(n));
  STRATA_TEST_CUDA(cudaMemset(d.data(), 5, static_cast<std::size_t>(n)));
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(d.data(), n, increment_byte{}));
  // Every byte is now 6: their sum says none was missed or done twice.
  auto sum = [&]
  {
    return strata_test::run_reduce<std::int64_t>(
        [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out)
        { return strata::DeviceReduce::Sum(d_temp, bytes, d.data(), d_out, n); });
  };
  CHECK(sum() == 6 * n);

  // Bulk over a 64-bit shape: one more per byte.
  STRATA_TEST_CUDA(strata::DeviceFor::Bulk(n, increment_at{d.data()}));
  CHECK(sum() == 7 * n);

  // ForEachCopyN (16-byte vectors of bytes, a head of 3) counts the bytes: all of them are 7.
  strata_test::device_buffer<unsigned long long> d_count(1);
  STRATA_TEST_CUDA(cudaMemset(d_count.data(), 0, sizeof(unsigned long long)));
  STRATA_TEST_CUDA(strata::DeviceFor::ForEachCopyN(d.data() + 13, n - 13, count_sevens{d_count.data()}));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_count.download()[0] == static_cast<unsigned long long>(n - 13));
}

TEST_CASE("detail::size counts the indices of extents as CUB's does", "[device][for][host]")
{
  // CUB's ForEachInExtents documentation sizes its output with detail::size(extents).
  static_assert(strata::detail::size(cuda::std::extents<int, 2, 3, 5>{}) == 30u);
  static_assert(std::is_same_v<decltype(strata::detail::size(cuda::std::extents<int, 2>{})), unsigned int>);
  static_assert(strata::detail::size(cuda::std::extents<std::int64_t>{}) == 1u);
  const cuda::std::dextents<std::int64_t, 3> dynamic(7, 11, 13);
  CHECK(strata::detail::size(dynamic) == std::uint64_t(7 * 11 * 13));
  const cuda::std::extents<std::int16_t, cuda::std::dynamic_extent, 4> mixed(9);
  CHECK(strata::detail::size(mixed) == 36u);
  CHECK(strata::detail::size(cuda::std::dextents<int, 2>(0, 5)) == 0u);
}

// test/device/wide_items.cuh: items of 1 to 256 bytes for the device algorithms' tests over item
// sizes. An item's first bytes hold its key; every other byte is a function of the key and its
// place, so a result checked bytewise shows a torn, shifted or half-copied item.
#pragma once

#include "common/test_common.cuh"
#include "common/two_phase.cuh"

#include <cstdint>
#include <vector>

namespace strata_test
{
//! N bytes, aligned as a vector of up to 16 bytes would be.
template <int N>
struct alignas(N < 16 ? N : 16) wide_item
{
  static constexpr int KEY_BYTES          = N < 4 ? N : 4;
  static constexpr std::uint32_t KEY_MASK = N == 1 ? 0xffu : N == 2 ? 0xffffu : 0xffffffffu;
  unsigned char bytes[N];

  __host__ __device__ std::uint32_t key() const
  {
    std::uint32_t k = 0;
    for (int i = 0; i < KEY_BYTES; ++i)
    {
      k |= std::uint32_t(bytes[i]) << (8 * i);
    }
    return k;
  }

  //! The item of key `k` (only its low KEY_BYTES bytes count).
  __host__ __device__ static wide_item of(std::uint32_t k)
  {
    k &= KEY_MASK;
    wide_item item;
    for (int i = 0; i < N; ++i)
    {
      item.bytes[i] = i < KEY_BYTES ? static_cast<unsigned char>(k >> (8 * i))
                                    : static_cast<unsigned char>((k * 2654435761u) >> ((i % 4) * 8)) ^ (i & 0xff);
    }
    return item;
  }

  //! Bytewise (DeviceSelect::Unique's default equality, and the tests' comparisons).
  __host__ __device__ friend bool operator==(const wide_item& a, const wide_item& b)
  {
    for (int i = 0; i < N; ++i)
    {
      if (a.bytes[i] != b.bytes[i])
      {
        return false;
      }
    }
    return true;
  }
  __host__ __device__ friend bool operator!=(const wide_item& a, const wide_item& b)
  {
    return !(a == b);
  }
};

//! The sum of two items' keys (modulo what a key holds): associative and commutative.
struct key_plus
{
  template <typename ItemT>
  __host__ __device__ ItemT operator()(const ItemT& a, const ItemT& b) const
  {
    return ItemT::of(a.key() + b.key());
  }
};

//! Orders items by key.
struct key_less
{
  template <typename ItemT>
  __host__ __device__ bool operator()(const ItemT& a, const ItemT& b) const
  {
    return a.key() < b.key();
  }
};

//! Items equal when their keys are (equal keys make equal items).
struct key_equal
{
  template <typename ItemT>
  __host__ __device__ bool operator()(const ItemT& a, const ItemT& b) const
  {
    return a.key() == b.key();
  }
};

//! Whether an item's key has bit `BIT` set.
template <int BIT>
struct key_bit
{
  template <typename ItemT>
  __host__ __device__ bool operator()(const ItemT& a) const
  {
    return (a.key() >> BIT) & 1u;
  }
};

//! n items of random keys below `limit` (0: any key the item holds).
template <int N>
std::vector<wide_item<N>> random_items(std::size_t n, std::uint64_t seed, std::uint32_t limit = 0)
{
  const std::vector<std::uint32_t> keys = random_vector<std::uint32_t>(n, seed);
  std::vector<wide_item<N>> items(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    const std::uint32_t k = keys[i] & wide_item<N>::KEY_MASK;
    items[i]              = wide_item<N>::of(limit == 0 ? k : k % limit);
  }
  return items;
}

//! A poisoned device buffer of n items (at least one, so that its pointer is never null).
template <typename T>
device_buffer<T> poisoned(std::size_t n)
{
  device_buffer<T> buffer(n > 0 ? n : 1);
  STRATA_TEST_CUDA(cudaMemset(buffer.data(), poison_byte, buffer.bytes()));
  return buffer;
}

//! The number of places among the first expected.size() where `got` and `expected` differ.
template <typename T>
std::size_t mismatches(const std::vector<T>& got, const std::vector<T>& expected)
{
  REQUIRE(got.size() >= expected.size());
  std::size_t count = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    count += got[i] != expected[i];
  }
  return count;
}

//! The sizes each test over item sizes runs: empty, one item, within a tile, and several tiles of
//! every item size (the tiles of 1-byte items hold up to 8192 items; under the sanitizers two of
//! them and a partial one).
inline std::vector<std::size_t> wide_item_sizes()
{
  return {0, 1, 1000, under_sanitizer() ? std::size_t(20011) : std::size_t(30011)};
}

//! wide_item_sizes for the algorithms whose tiles hold about as many bytes whatever the item size
//! (the single-pass family, reductions, element-wise algorithms): under the sanitizers the largest
//! size is about 80 KB of ItemT (between 2011 and 20011 items, still several tiles of every item
//! size), since the sanitizers' time grows with the items while wider ones repeat the same paths.
template <typename ItemT>
std::vector<std::size_t> wide_item_sizes_for()
{
  std::vector<std::size_t> sizes = wide_item_sizes();
  if (under_sanitizer())
  {
    const std::size_t large = std::size_t(80000) / sizeof(ItemT) + 11;
    sizes.back()            = large < 2011 ? std::size_t(2011) : large > 20011 ? std::size_t(20011) : large;
  }
  return sizes;
}
} // namespace strata_test

//! The item types of the tests over item sizes.
#define STRATA_TEST_WIDE_ITEMS                                                                                         \
  strata_test::wide_item<1>, strata_test::wide_item<2>, strata_test::wide_item<4>, strata_test::wide_item<8>,          \
      strata_test::wide_item<16>, strata_test::wide_item<32>, strata_test::wide_item<64>, strata_test::wide_item<128>, \
      strata_test::wide_item<256>

// Tests of the item-wise algorithms over items of 1 to 256 bytes: DeviceAdjacentDifference
// (SubtractLeftCopy, SubtractRightCopy, SubtractLeft in place), DeviceTransform::Transform and
// DeviceFor::ForEachN. Every size must compile and give the host reference's answer, byte for byte.
#include <strata/device/device_adjacent_difference.cuh>
#include <strata/device/device_for.cuh>
#include <strata/device/device_transform.cuh>

#include "wide_items.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
using strata_test::device_buffer;

//! Runs a two-phase call `call(d_temp, bytes)`: the size query, then the run with poisoned
//! temporary storage.
template <typename CallT>
void run_two_phase(CallT call)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes));
  device_buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  STRATA_TEST_CUDA(cudaMemset(temp.data(), strata_test::poison_byte, temp.bytes()));
  STRATA_TEST_CUDA(call(temp.data(), bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

//! A poisoned device buffer of n items (at least one, so that its pointer is never null).
template <typename T>
device_buffer<T> poisoned(std::size_t n)
{
  device_buffer<T> buffer(std::max<std::size_t>(n, 1));
  STRATA_TEST_CUDA(cudaMemset(buffer.data(), strata_test::poison_byte, buffer.bytes()));
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

//! The difference of two items' keys, first minus second (not commutative: the order shows).
struct key_minus
{
  template <typename ItemT>
  __host__ __device__ ItemT operator()(const ItemT& a, const ItemT& b) const
  {
    return ItemT::of(a.key() - b.key());
  }
};

//! An item of three times the key, plus one.
struct key_affine
{
  template <typename ItemT>
  __host__ __device__ ItemT operator()(const ItemT& a) const
  {
    return ItemT::of(a.key() * 3u + 1u);
  }
};

//! Adds 7 to an item's key, in place.
struct add_seven
{
  template <typename ItemT>
  __host__ __device__ void operator()(ItemT& a) const
  {
    a = ItemT::of(a.key() + 7u);
  }
};
} // namespace

TEMPLATE_TEST_CASE("DeviceAdjacentDifference takes differences of items of every size",
                   "[device][adjacent_difference][wide]", STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<ItemT> items = strata_test::random_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT)));
    std::vector<ItemT> left(n), right(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      left[i]  = i == 0 ? items[i] : key_minus{}(items[i], items[i - 1]);
      right[i] = i + 1 == n ? items[i] : key_minus{}(items[i], items[i + 1]);
    }
    const device_buffer<ItemT> d_in(items);
    {
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase([&](void* t, std::size_t& b) {
        return strata::DeviceAdjacentDifference::SubtractLeftCopy(t, b, d_in.data(), d_out.data(), std::int64_t(n),
                                                                  key_minus{});
      });
      CHECK(mismatches(d_out.download(), left) == 0);
    }
    {
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase([&](void* t, std::size_t& b) {
        return strata::DeviceAdjacentDifference::SubtractRightCopy(t, b, d_in.data(), d_out.data(), std::int64_t(n),
                                                                   key_minus{});
      });
      CHECK(mismatches(d_out.download(), right) == 0);
    }
    {
      device_buffer<ItemT> d_data(items);
      run_two_phase([&](void* t, std::size_t& b) {
        return strata::DeviceAdjacentDifference::SubtractLeft(t, b, d_data.data(), std::int64_t(n), key_minus{});
      });
      CHECK(mismatches(d_data.download(), left) == 0);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceTransform and DeviceFor visit items of every size", "[device][transform][for][wide]",
                   STRATA_TEST_WIDE_ITEMS)
{
  STRATA_TEST_REQUIRE_GPU();
  using ItemT = TestType;
  for (const std::size_t n : strata_test::wide_item_sizes())
  {
    CAPTURE(sizeof(ItemT), n);
    const std::vector<ItemT> items = strata_test::random_items<sizeof(ItemT)>(n, strata_test::seed(sizeof(ItemT) + 1));
    std::vector<ItemT> transformed(n), advanced(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      transformed[i] = key_affine{}(items[i]);
      advanced[i]    = ItemT::of(items[i].key() + 7u);
    }
    const device_buffer<ItemT> d_in(items);
    {
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_in.data(), d_out.data(), std::int64_t(n), key_affine{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      CHECK(mismatches(d_out.download(), transformed) == 0);
    }
    {
      device_buffer<ItemT> d_data(items);
      STRATA_TEST_CUDA(strata::DeviceFor::ForEachN(d_data.data(), std::int64_t(n), add_seven{}));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      CHECK(mismatches(d_data.download(), advanced) == 0);
    }
  }
}

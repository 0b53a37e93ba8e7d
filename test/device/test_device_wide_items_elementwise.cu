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
using strata_test::mismatches;
using strata_test::poisoned;
using strata_test::run_two_phase;

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
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
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
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceAdjacentDifference::SubtractLeftCopy(t, b, d_in.data(), d_out.data(), std::int64_t(n),
                                                                      key_minus{});
          });
      CHECK(mismatches(d_out.download(), left) == 0);
    }
    {
      device_buffer<ItemT> d_out = poisoned<ItemT>(n);
      run_two_phase(
          [&](void* t, std::size_t& b)
          {
            return strata::DeviceAdjacentDifference::SubtractRightCopy(t, b, d_in.data(), d_out.data(), std::int64_t(n),
                                                                       key_minus{});
          });
      CHECK(mismatches(d_out.download(), right) == 0);
    }
    {
      device_buffer<ItemT> d_data(items);
      run_two_phase(
          [&](void* t, std::size_t& b) {
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
  for (const std::size_t n : strata_test::wide_item_sizes_for<ItemT>())
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

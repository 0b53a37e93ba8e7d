// Tests of strata/tile/tile_vector.cuh (host only): how many items of each type one 16-byte vector
// holds, which iterators may move as vectors (pointers, not to volatile, to trivially copyable
// items that pack evenly), the vector width several iterators and an items-per-thread count all
// allow, VectorOf's size and alignment, and IsAligned at every address modulo 16.
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/discard_output_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>
#include <strata/tile/tile_vector.cuh>

#include "common/output_iterators.cuh"
#include "tile_checks.cuh"

#include <cstdint>

namespace
{
namespace tile = strata::detail::tile;
using strata_test::custom_t;

//! 32 bytes: wider than one vector.
struct wide_t
{
  double d[4];
};

//! 6 bytes: fits a vector, but not evenly.
struct six_bytes_t
{
  std::uint16_t h[3];
};

//! 4 bytes, but not trivially copyable: may not move as raw vectors.
struct not_trivially_copyable_t
{
  int x;
  __host__ __device__ not_trivially_copyable_t(const not_trivially_copyable_t& other)
      : x(other.x)
  {
  }
};

using counting_t  = strata::CountingInputIterator<int>;
using transform_t = strata::TransformInputIterator<std::int64_t, strata_test::square, const std::int32_t*>;
using discard_t   = strata::DiscardOutputIterator<>;
} // namespace

TEST_CASE("items_per_vector_v: a 16-byte vector's items, 1 for types that do not pack evenly", "[tile][vector]")
{
  STATIC_REQUIRE(tile::max_vector_bytes == 16);
  STATIC_REQUIRE(tile::items_per_vector_v<std::int8_t> == 16);
  STATIC_REQUIRE(tile::items_per_vector_v<std::uint16_t> == 8);
  STATIC_REQUIRE(tile::items_per_vector_v<__half> == 8);
  STATIC_REQUIRE(tile::items_per_vector_v<float> == 4);
  STATIC_REQUIRE(tile::items_per_vector_v<std::int64_t> == 2);
  STATIC_REQUIRE(tile::items_per_vector_v<double> == 2);
  STATIC_REQUIRE(tile::items_per_vector_v<uint4> == 1);
  STATIC_REQUIRE(tile::items_per_vector_v<custom_t> == 1);
  STATIC_REQUIRE(tile::items_per_vector_v<six_bytes_t> == 1);
  STATIC_REQUIRE(tile::items_per_vector_v<wide_t> == 1);
}

TEST_CASE("VectorOf: ITEMS consecutive items, aligned as one access of their size", "[tile][vector]")
{
  STATIC_REQUIRE(sizeof(tile::VectorOf<int, 4>) == 16);
  STATIC_REQUIRE(alignof(tile::VectorOf<int, 4>) == 16);
  STATIC_REQUIRE(sizeof(tile::VectorOf<std::uint8_t, 2>) == 2);
  STATIC_REQUIRE(alignof(tile::VectorOf<std::uint8_t, 2>) == 2);
  STATIC_REQUIRE(alignof(tile::VectorOf<std::uint16_t, 4>) == 8);
  STATIC_REQUIRE(alignof(tile::VectorOf<double, 2>) == 16);
  STATIC_REQUIRE(alignof(tile::VectorOf<std::uint8_t, 16>) == 16);
}

TEST_CASE("PacksIntoVectors and PointerVectorItems: pointers to items that pack evenly, nothing else", "[tile][vector]")
{
  STATIC_REQUIRE(tile::PacksIntoVectors<int*>());
  STATIC_REQUIRE(tile::PacksIntoVectors<const int*>());
  STATIC_REQUIRE(tile::PacksIntoVectors<std::uint8_t*>());
  STATIC_REQUIRE(tile::PacksIntoVectors<const double*>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<volatile int*>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<const volatile int*>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<custom_t*>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<six_bytes_t*>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<wide_t*>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<not_trivially_copyable_t*>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<counting_t>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<transform_t>());
  STATIC_REQUIRE(!tile::PacksIntoVectors<discard_t>());

  STATIC_REQUIRE(tile::PointerVectorItems<int*>() == 4);
  STATIC_REQUIRE(tile::PointerVectorItems<const std::uint8_t*>() == 16);
  STATIC_REQUIRE(tile::PointerVectorItems<__half*>() == 8);
  STATIC_REQUIRE(tile::PointerVectorItems<double*>() == 2);
  STATIC_REQUIRE(tile::PointerVectorItems<uint4*>() == 1);
  STATIC_REQUIRE(tile::PointerVectorItems<volatile int*>() == 1);
  STATIC_REQUIRE(tile::PointerVectorItems<custom_t*>() == 1);
  STATIC_REQUIRE(tile::PointerVectorItems<counting_t>() == 1);
  STATIC_REQUIRE(tile::PointerVectorItems<discard_t>() == 1);
}

TEST_CASE("VectorItems: the widest vector all iterators allow, at most MAX_ITEMS, dividing ITEMS_PER_THREAD",
          "[tile][vector]")
{
  STATIC_REQUIRE(tile::VectorItems<8, 16, int*>() == 4);
  STATIC_REQUIRE(tile::VectorItems<6, 16, int*>() == 2);
  STATIC_REQUIRE(tile::VectorItems<7, 16, int*>() == 1);
  STATIC_REQUIRE(tile::VectorItems<16, 16, std::uint8_t*>() == 16);
  STATIC_REQUIRE(tile::VectorItems<8, 16, std::uint8_t*>() == 8);
  STATIC_REQUIRE(tile::VectorItems<12, 16, std::uint8_t*>() == 4);
  STATIC_REQUIRE(tile::VectorItems<32, 16, std::uint8_t*>() == 16);
  STATIC_REQUIRE(tile::VectorItems<8, 2, int*>() == 2);
  STATIC_REQUIRE(tile::VectorItems<8, 16, int*, const std::uint8_t*>() == 4);
  STATIC_REQUIRE(tile::VectorItems<8, 16, const std::uint8_t*, int*>() == 4);
  STATIC_REQUIRE(tile::VectorItems<8, 16, double*, int*>() == 2);
  STATIC_REQUIRE(tile::VectorItems<8, 16, int*, counting_t>() == 1);
  STATIC_REQUIRE(tile::VectorItems<8, 16, int*, discard_t>() == 1);
  STATIC_REQUIRE(tile::VectorItems<8, 16, custom_t*>() == 1);
  STATIC_REQUIRE(tile::VectorItems<8, 16, volatile int*>() == 1);
}

TEST_CASE("IsAligned: at every address modulo 16, for alignments 1 to 16", "[tile][vector]")
{
  alignas(16) unsigned char bytes[64] = {};
  for (int offset = 0; offset < 48; ++offset)
  {
    INFO("offset " << offset);
    unsigned char* p = bytes + offset;
    CHECK(tile::IsAligned<1>(p));
    CHECK(tile::IsAligned<2>(p) == (offset % 2 == 0));
    CHECK(tile::IsAligned<4>(p) == (offset % 4 == 0));
    CHECK(tile::IsAligned<8>(p) == (offset % 8 == 0));
    CHECK(tile::IsAligned<16>(p) == (offset % 16 == 0));
    CHECK(tile::IsAligned<16>(static_cast<const void*>(p)) == (offset % 16 == 0));
  }
}

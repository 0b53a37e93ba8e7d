// test/common/shapes.cuh: the block shape that every block-collective test configuration
// derives from.
#pragma once

namespace strata_test
{
//! A block of BX x BY x BZ threads holding IPT items each: `threads` threads, `tile` items.
template <int BX, int BY, int BZ, int IPT>
struct block_shape
{
  static constexpr int block_dim_x = BX;
  static constexpr int block_dim_y = BY;
  static constexpr int block_dim_z = BZ;
  static constexpr int items       = IPT;
  static constexpr int threads     = BX * BY * BZ;
  static constexpr int tile        = threads * IPT;
};
} // namespace strata_test

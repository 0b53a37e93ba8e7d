// The operators of the DeviceFor benchmarks (bench_device_for.cu and tuning/tune_for.cu).
#pragma once

#include "bench_common.cuh"

namespace bench
{
//! ForEach: updates every item in place (one read and one write per item).
struct affine_in_place
{
  template <typename T>
  __device__ void operator()(T& x) const
  {
    x = x * T(3) + T(1);
  }
};

//! ForEachCopy: reads every item; writes only if one equals a value random data practically never
//! holds.
template <typename T>
struct find_magic
{
  int* found;
  __device__ void operator()(T x) const
  {
    if (x == T(12345))
    {
      *found = 1;
    }
  }
};

//! Bulk: out[i] = i (one write per index).
template <typename T>
struct write_index
{
  T* out;
  template <typename I>
  __device__ void operator()(I i) const
  {
    out[i] = T(i);
  }
};

//! Where find_magic records a find.
inline int* found_flag()
{
  static device_buffer<int> flag(1);
  return flag.data();
}
} // namespace bench

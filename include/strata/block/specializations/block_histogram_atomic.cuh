// strata/block/specializations/block_histogram_atomic.cuh: BlockHistogram's BLOCK_HISTO_ATOMIC
// algorithm, which adds every sample to its bin with an atomic increment.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

namespace detail
{
//! The bin of a histogram sample: the sample converted to an integer (samples must lie in
//! [0, BINS)).
template <typename T>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int HistogramBin(const T& sample)
{
  return static_cast<unsigned int>(sample);
}

//! Composites samples into a histogram with one device-scope atomicAdd per sample. It needs no
//! shared memory and no barrier; the histogram may live in shared or global memory, and other
//! blocks may update the same histogram at the same time. Its speed depends on how often
//! samples of a warp collide in one bin.
template <int BINS>
class BlockHistogramAtomic
{
public:
  struct TempStorage
  {
  };

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockHistogramAtomic(TempStorage&) {}

  template <typename T, int ITEMS_PER_THREAD, typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      atomicAdd(histogram + HistogramBin(items[i]), static_cast<CounterT>(1));
    }
  }
};
} // namespace detail

STRATA_NAMESPACE_END

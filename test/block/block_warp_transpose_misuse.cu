// Must not compile: the warp-transposing BlockLoad (STRATA_MISUSE 1) and BlockStore
// (STRATA_MISUSE 2) algorithms on 80 threads, which are no whole number of warps. Built only by
// the tests test_block_load_misuse and test_block_store_misuse, which expect the static_assert.
#include <strata/block/block_load.cuh>
#include <strata/block/block_store.cuh>

__global__ void misuse_kernel(int* data)
{
  int items[4] = {};
#if STRATA_MISUSE == 1
  strata::BlockLoad<int, 80, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE>().Load(data, items);
#else
  strata::BlockStore<int, 80, 4, strata::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>().Store(data, items);
#endif
}

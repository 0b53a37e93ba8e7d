// Kernels whose BlockLoad / BlockStore with BLOCK_LOAD_VECTORIZE / BLOCK_STORE_VECTORIZE must
// move 16-byte words (named vector_*: 4 ints or 8 halves from a pointer or a cache-modified
// iterator), and kernels whose loads and stores must go item by item (named items_*: 3 ints,
// guarded tiles, iterators that are not pointers to T). Compiled to PTX only (not linked or run),
// so that check_block_vectorize_ptx.cmake can check their global accesses without a GPU.
#include <strata/block/block_load.cuh>
#include <strata/block/block_store.cuh>
#include <strata/iterator/cache_modified_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

//! Writes the calling thread's items thread-major with scalar stores (the volatile pointer keeps
//! them from being merged into vector stores).
template <typename T, int N>
__device__ void write_out(volatile T* out, const T (&items)[N])
{
#pragma unroll
  for (int i = 0; i < N; ++i)
  {
    out[threadIdx.x * N + i] = items[i];
  }
}

//! 4 ints per thread from a pointer: ld.global.v4.u32 (LDG.E.128 in SASS).
extern "C" __global__ void vector_load_int4(const int* in, volatile int* out)
{
  int items[4];
  strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_VECTORIZE>().Load(in + blockIdx.x * 512, items);
  write_out(out, items);
}

//! 8 halves per thread from a cache-modified iterator: ld.global.cg.v4.
extern "C" __global__ void vector_load_half8_cg(const __half* in, volatile short* out)
{
  __half items[8];
  strata::BlockLoad<__half, 64, 8, strata::BLOCK_LOAD_VECTORIZE>().Load(
      strata::CacheModifiedInputIterator<strata::LOAD_CG, __half>(in), items);
  short bits[8];
  for (int i = 0; i < 8; ++i)
  {
    bits[i] = __half_as_short(items[i]);
  }
  write_out(out, bits);
}

//! 4 ints per thread to a pointer: st.global.v4.u32 (STG.E.128 in SASS).
extern "C" __global__ void vector_store_int4(const volatile int* in, int* out)
{
  int items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = in[threadIdx.x + i * 128];
  }
  strata::BlockStore<int, 128, 4, strata::BLOCK_STORE_VECTORIZE>().Store(out + blockIdx.x * 512, items);
}

//! 3 ints per thread: no word wider than an int divides them.
extern "C" __global__ void items_load_int3(const int* in, volatile int* out)
{
  int items[3];
  strata::BlockLoad<int, 128, 3, strata::BLOCK_LOAD_VECTORIZE>().Load(in, items);
  write_out(out, items);
}

//! A guarded tile, with and without a default.
extern "C" __global__ void items_load_guarded(const int* in, volatile int* out, int valid_items)
{
  int items[4];
  strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_VECTORIZE>().Load(in, items, valid_items, 0);
  write_out(out, items);
  strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_VECTORIZE>().Load(in, items, valid_items);
  write_out(out, items);
}

//! A counting iterator (nothing to vectorize) and ints loaded as long longs (a pointer to another type).
extern "C" __global__ void items_load_iterators(const int* in, volatile long long* out)
{
  long long items[4];
  strata::BlockLoad<long long, 128, 4, strata::BLOCK_LOAD_VECTORIZE>().Load(strata::CountingInputIterator<long long>(7),
                                                                            items);
  write_out(out, items);
  strata::BlockLoad<long long, 128, 4, strata::BLOCK_LOAD_VECTORIZE>().Load(in, items);
  write_out(out, items);
}

//! A guarded store, and ints stored to a pointer to long long.
extern "C" __global__ void items_store(const volatile int* in, int* out, long long* wide_out, int valid_items)
{
  int items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = in[threadIdx.x + i * 128];
  }
  strata::BlockStore<int, 128, 4, strata::BLOCK_STORE_VECTORIZE>().Store(out, items, valid_items);
  strata::BlockStore<int, 128, 4, strata::BLOCK_STORE_VECTORIZE>().Store(wide_out, items);
}

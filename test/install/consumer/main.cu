// A consumer's program: includes all of strata and uses a thread-level collective.
#include <strata/strata.cuh>

#include <cstdio>

__global__ void sum_kernel(const int* in, int* out)
{
  int items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = strata::ThreadLoad<strata::LOAD_LDG>(in + 4 * threadIdx.x + i);
  }
  out[threadIdx.x] = strata::ThreadReduce(items, ::cuda::std::plus<>{});
}

int main()
{
  std::printf("strata %d.%d.%d\n", STRATA_MAJOR_VERSION, STRATA_MINOR_VERSION, STRATA_SUBMINOR_VERSION);
  return 0;
}

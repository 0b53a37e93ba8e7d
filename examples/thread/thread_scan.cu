// Example: thread-level collectives. Each thread loads four consecutive items through the read-only
// cache (ThreadLoad<LOAD_LDG>), scans them in registers (ThreadScanInclusive), and writes its
// running sums with a streaming store (ThreadStore<STORE_CS>) plus its total (ThreadReduce).
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <vector>

constexpr int items_per_thread = 4;

__global__ void scan_per_thread(const int* d_in, int* d_partial_sums, int* d_totals, int num_threads)
{
  const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (t >= num_threads)
  {
    return;
  }
  int items[items_per_thread];
  for (int i = 0; i < items_per_thread; ++i)
  {
    items[i] = strata::ThreadLoad<strata::LOAD_LDG>(d_in + t * items_per_thread + i);
  }
  int sums[items_per_thread];
  strata::ThreadScanInclusive(items, sums, ::cuda::std::plus<>{});
  for (int i = 0; i < items_per_thread; ++i)
  {
    strata::ThreadStore<strata::STORE_CS>(d_partial_sums + t * items_per_thread + i, sums[i]);
  }
  d_totals[t] = strata::ThreadReduce(items, ::cuda::std::plus<>{});
}

int main()
{
  example_require_gpu();
  const int num_threads = 1000;
  const int n           = num_threads * items_per_thread;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i)
  {
    h_in[i] = (i * 37) % 11 - 5; // some positive, some negative
  }

  int* d_in           = nullptr;
  int* d_partial_sums = nullptr;
  int* d_totals       = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_partial_sums, n * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_totals, num_threads * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  scan_per_thread<<<(num_threads + 127) / 128, 128>>>(d_in, d_partial_sums, d_totals, num_threads);
  EXAMPLE_CHECK(cudaGetLastError());

  std::vector<int> h_partial_sums(n);
  std::vector<int> h_totals(num_threads);
  EXAMPLE_CHECK(cudaMemcpy(h_partial_sums.data(), d_partial_sums, n * sizeof(int), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaMemcpy(h_totals.data(), d_totals, num_threads * sizeof(int), cudaMemcpyDeviceToHost));

  int errors = 0;
  for (int t = 0; t < num_threads; ++t)
  {
    int running = 0;
    for (int i = 0; i < items_per_thread; ++i)
    {
      running += h_in[t * items_per_thread + i];
      errors += h_partial_sums[t * items_per_thread + i] != running;
    }
    errors += h_totals[t] != running;
  }
  std::printf("thread 0: items {%d, %d, %d, %d} -> inclusive sums {%d, %d, %d, %d}, total %d\n", h_in[0], h_in[1],
              h_in[2], h_in[3], h_partial_sums[0], h_partial_sums[1], h_partial_sums[2], h_partial_sums[3],
              h_totals[0]);
  std::printf("%s (%d mismatches)\n", errors == 0 ? "correct" : "WRONG", errors);

  EXAMPLE_CHECK(cudaFree(d_in));
  EXAMPLE_CHECK(cudaFree(d_partial_sums));
  EXAMPLE_CHECK(cudaFree(d_totals));
  return errors == 0 ? 0 : 1;
}

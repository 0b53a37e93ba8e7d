// Example: iterators that compute instead of reading memory. A kernel sums f(i) = i * i for
// i in [first, first + n) through a TransformInputIterator over a CountingInputIterator, and
// writes results it does not need to a DiscardOutputIterator.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>

struct Square
{
  __host__ __device__ long long operator()(long long i) const
  {
    return i * i;
  }
};

template <typename InputIteratorT, typename DiscardT>
__global__ void sum_kernel(InputIteratorT in, long long n, unsigned long long* d_sum, DiscardT discard)
{
  long long local = 0;
  for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
  {
    local += in[i];
    discard[i] = in[i]; // writes through a discard iterator go nowhere
  }
  atomicAdd(d_sum, static_cast<unsigned long long>(local));
}

int main()
{
  example_require_gpu();
  const long long first = 1000;
  const long long n     = 100000;

  strata::CountingInputIterator<long long> counting(first);
  strata::TransformInputIterator<long long, Square, strata::CountingInputIterator<long long>> squares(counting,
                                                                                                      Square{});
  unsigned long long* d_sum = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_sum, sizeof(*d_sum)));
  EXAMPLE_CHECK(cudaMemset(d_sum, 0, sizeof(*d_sum)));
  sum_kernel<<<64, 256>>>(squares, n, d_sum, strata::DiscardOutputIterator<>());
  EXAMPLE_CHECK(cudaGetLastError());
  unsigned long long sum = 0;
  EXAMPLE_CHECK(cudaMemcpy(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaFree(d_sum));

  // sum of squares of [a, b] = S(b) - S(a - 1), S(k) = k (k + 1) (2k + 1) / 6
  auto s                          = [](long long k) { return k * (k + 1) * (2 * k + 1) / 6; };
  const unsigned long long expect = static_cast<unsigned long long>(s(first + n - 1) - s(first - 1));
  std::printf("sum of i*i for i in [%lld, %lld) = %llu (expected %llu): %s\n", first, first + n, sum, expect,
              sum == expect ? "correct" : "WRONG");
  return sum == expect ? 0 : 1;
}

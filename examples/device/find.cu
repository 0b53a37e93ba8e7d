// Example: searching. DeviceFind::FindIf gives the index of the first item a predicate accepts
// (the item count where none does); its blocks stop once every tile left lies past a match. Here:
// the first faulty reading (a negative one) among ten million sensor readings. DeviceFind's bound
// searches put values into buckets: UpperBound of each value among sorted bucket edges is the
// number of edges at or below it, its bucket. Here: a million measurements into 1000 buckets of
// uneven width, and the same for the measurements sorted, through UpperBoundSortedValues (a merge
// instead of a binary search per value). The host checks every answer.
#include <strata/device/device_find.cuh>

#include "../example_common.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

struct IsNegative
{
  __host__ __device__ bool operator()(float reading) const
  {
    return reading < 0.0f;
  }
};

int main()
{
  example_require_gpu();
  std::mt19937 generator(11);

  // The first negative reading of ten million, in two-phase form.
  const int num_readings = 10000000;
  std::uniform_real_distribution<float> reading(0.5f, 100.0f);
  std::vector<float> h_readings(num_readings);
  for (float& x : h_readings)
  {
    x = reading(generator);
  }
  h_readings[7654321] = -1.0f;
  h_readings[9000000] = -2.0f; // later faults do not count
  float* d_readings   = nullptr;
  long long* d_first  = nullptr;
  void* d_temp        = nullptr;
  size_t temp_bytes   = 0;
  EXAMPLE_CHECK(cudaMalloc(&d_readings, num_readings * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_first, sizeof(long long)));
  EXAMPLE_CHECK(cudaMemcpy(d_readings, h_readings.data(), num_readings * sizeof(float), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(strata::DeviceFind::FindIf(d_temp, temp_bytes, d_readings, d_first, IsNegative{}, num_readings));
  EXAMPLE_CHECK(cudaMalloc(&d_temp, temp_bytes));
  EXAMPLE_CHECK(strata::DeviceFind::FindIf(d_temp, temp_bytes, d_readings, d_first, IsNegative{}, num_readings));
  long long h_first = -1;
  EXAMPLE_CHECK(cudaMemcpy(&h_first, d_first, sizeof(long long), cudaMemcpyDeviceToHost));
  const long long expected = std::find_if(h_readings.begin(), h_readings.end(), IsNegative{}) - h_readings.begin();
  std::printf("DeviceFind::FindIf: the first negative of %d readings is at %lld\n  %s\n", num_readings, h_first,
              h_first == expected ? "correct" : "WRONG");

  // A million measurements into the buckets between 999 sorted edges (bucket b holds the values
  // from edge b - 1 up to, not including, edge b), with the single-call forms.
  const int num_edges  = 999;
  const int num_values = 1000000;
  std::exponential_distribution<float> spread(0.01f);
  std::vector<float> h_edges(num_edges);
  std::vector<float> h_values(num_values);
  for (float& x : h_edges)
  {
    x = spread(generator);
  }
  for (float& x : h_values)
  {
    x = spread(generator);
  }
  std::sort(h_edges.begin(), h_edges.end());
  float* d_edges       = nullptr;
  float* d_values      = nullptr;
  long long* d_buckets = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_edges, num_edges * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_values, num_values * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_buckets, num_values * sizeof(long long)));
  EXAMPLE_CHECK(cudaMemcpy(d_edges, h_edges.data(), num_edges * sizeof(float), cudaMemcpyHostToDevice));
  bool buckets_correct = true;
  for (const bool sorted : {false, true})
  {
    if (sorted)
    {
      std::sort(h_values.begin(), h_values.end());
    }
    EXAMPLE_CHECK(cudaMemcpy(d_values, h_values.data(), num_values * sizeof(float), cudaMemcpyHostToDevice));
    if (sorted)
    {
      EXAMPLE_CHECK(strata::DeviceFind::UpperBoundSortedValues(d_edges, num_edges, d_values, num_values, d_buckets,
                                                               cuda::std::less<>{}));
    }
    else
    {
      EXAMPLE_CHECK(
          strata::DeviceFind::UpperBound(d_edges, num_edges, d_values, num_values, d_buckets, cuda::std::less<>{}));
    }
    std::vector<long long> h_buckets(num_values);
    EXAMPLE_CHECK(cudaDeviceSynchronize());
    EXAMPLE_CHECK(cudaMemcpy(h_buckets.data(), d_buckets, num_values * sizeof(long long), cudaMemcpyDeviceToHost));
    std::vector<int> counts(num_edges + 1, 0);
    for (int i = 0; i < num_values; ++i)
    {
      const long long want = std::upper_bound(h_edges.begin(), h_edges.end(), h_values[i]) - h_edges.begin();
      buckets_correct      = buckets_correct && h_buckets[i] == want;
      ++counts[want];
    }
    std::printf("DeviceFind::%s: %d values into %d buckets; the first five hold %d %d %d %d %d\n",
                sorted ? "UpperBoundSortedValues" : "UpperBound", num_values, num_edges + 1, counts[0], counts[1],
                counts[2], counts[3], counts[4]);
  }
  std::printf("  %s\n", buckets_correct ? "correct" : "WRONG");

  EXAMPLE_CHECK(cudaFree(d_readings));
  EXAMPLE_CHECK(cudaFree(d_first));
  EXAMPLE_CHECK(cudaFree(d_temp));
  EXAMPLE_CHECK(cudaFree(d_edges));
  EXAMPLE_CHECK(cudaFree(d_values));
  EXAMPLE_CHECK(cudaFree(d_buckets));
  return h_first == expected && buckets_correct ? 0 : 1;
}

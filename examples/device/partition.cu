// Example: partitions. DevicePartition::If with one predicate splits an array in two within one
// output: the items the predicate accepts go to the front in their input order, the others to the
// back in reverse input order, and *d_num_selected receives how many were accepted. With two
// predicates it splits three ways, into three outputs, each in input order: the items the first
// predicate accepts, then those the second accepts, then the rest; d_num_selected[0] and [1]
// receive the sizes of the first two parts. Both take CUB's two-phase call (a size query for the
// temporary storage, then the run). Here a million order amounts are split into refunds
// (negative) and sales, and the sales again into small, large and the rest; the host checks
// every output and prints the counts.
#include <strata/device/device_partition.cuh>

#include "../example_common.cuh"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <random>
#include <vector>

//! The predicates: functors the device can call.
struct is_refund
{
  __host__ __device__ bool operator()(int cents) const
  {
    return cents < 0;
  }
};

struct is_small
{
  __host__ __device__ bool operator()(int cents) const
  {
    return cents >= 0 && cents < 1000;
  }
};

struct is_large
{
  __host__ __device__ bool operator()(int cents) const
  {
    return cents >= 100000;
  }
};

//! A million amounts in cents: one in ten a refund, the sales spread over six orders of magnitude.
std::vector<int> random_amounts()
{
  std::mt19937 generator(2026);
  std::uniform_int_distribution<int> magnitude(0, 5);
  std::uniform_int_distribution<int> digits(1, 999);
  std::bernoulli_distribution refund(0.1);
  std::vector<int> amounts(1000000);
  for (int& cents : amounts)
  {
    int value = digits(generator);
    for (int k = magnitude(generator); k > 0; --k)
    {
      value *= 10;
    }
    cents = refund(generator) ? -value : value;
  }
  return amounts;
}

//! Reads n ints from the device (waiting for the GPU).
std::vector<int> from_device(const int* d_items, int n)
{
  std::vector<int> items(static_cast<std::size_t>(std::max(n, 0)));
  EXAMPLE_CHECK(cudaMemcpy(items.data(), d_items, items.size() * sizeof(int), cudaMemcpyDeviceToHost));
  return items;
}

//! Two ways: refunds to the front of d_out, sales to the back (in reverse order).
bool refunds_and_sales(const std::vector<int>& h_in, const int* d_in)
{
  const int num_items = static_cast<int>(h_in.size());
  int* d_out          = nullptr;
  int* d_num_selected = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_out, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_num_selected, sizeof(int)));

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DevicePartition::If(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
                                            is_refund{}));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DevicePartition::If(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
                                            is_refund{}));

  // The expected output: the refunds in input order, then the sales in reverse input order.
  std::vector<int> expected;
  std::copy_if(h_in.begin(), h_in.end(), std::back_inserter(expected), is_refund{});
  const int refunds = static_cast<int>(expected.size());
  std::copy_if(h_in.rbegin(), h_in.rend(), std::back_inserter(expected), [](int c) { return !is_refund{}(c); });
  const int num_selected = from_device(d_num_selected, 1)[0];
  const bool correct     = num_selected == refunds && from_device(d_out, num_items) == expected;

  for (void* p : {static_cast<void*>(d_out), static_cast<void*>(d_num_selected), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  std::printf("DevicePartition::If: %d refunds at the front, %d sales behind them in reverse order: %s\n", num_selected,
              num_items - num_selected, correct ? "correct" : "WRONG");
  return correct;
}

//! Three ways: small sales, large sales, and the rest (refunds and medium sales), each in order.
bool small_large_and_rest(const std::vector<int>& h_in, const int* d_in)
{
  const int num_items = static_cast<int>(h_in.size());
  int* d_small        = nullptr;
  int* d_large        = nullptr;
  int* d_rest         = nullptr;
  int* d_num_selected = nullptr; // [0]: small, [1]: large
  for (int** d_part : {&d_small, &d_large, &d_rest})
  {
    EXAMPLE_CHECK(cudaMalloc(d_part, num_items * sizeof(int))); // room for every item in each part
  }
  EXAMPLE_CHECK(cudaMalloc(&d_num_selected, 2 * sizeof(int)));

  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DevicePartition::If(d_temp_storage, temp_storage_bytes, d_in, d_small, d_large, d_rest,
                                            d_num_selected, num_items, is_small{}, is_large{}));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DevicePartition::If(d_temp_storage, temp_storage_bytes, d_in, d_small, d_large, d_rest,
                                            d_num_selected, num_items, is_small{}, is_large{}));

  std::vector<int> small, large, rest;
  for (const int cents : h_in)
  {
    (is_small{}(cents) ? small : is_large{}(cents) ? large : rest).push_back(cents);
  }
  const std::vector<int> counts = from_device(d_num_selected, 2);
  const int num_small           = counts[0];
  const int num_large           = counts[1];
  const int num_rest            = num_items - num_small - num_large;
  const bool correct = num_small == static_cast<int>(small.size()) && num_large == static_cast<int>(large.size())
                       && from_device(d_small, num_small) == small && from_device(d_large, num_large) == large
                       && from_device(d_rest, num_rest) == rest;

  for (void* p : {static_cast<void*>(d_small), static_cast<void*>(d_large), static_cast<void*>(d_rest),
                  static_cast<void*>(d_num_selected), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  std::printf("DevicePartition::If (three ways): %d small sales, %d large, %d others, each in input order: %s\n",
              num_small, num_large, num_rest, correct ? "correct" : "WRONG");
  return correct;
}

int main()
{
  example_require_gpu();

  const std::vector<int> h_in = random_amounts();
  int* d_in                   = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, h_in.size() * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(int), cudaMemcpyHostToDevice));

  bool correct = refunds_and_sales(h_in, d_in);
  correct      = small_large_and_rest(h_in, d_in) && correct;
  EXAMPLE_CHECK(cudaFree(d_in));
  return correct ? 0 : 1;
}

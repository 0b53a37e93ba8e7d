// Example: running totals per account. DeviceSegmentedScan scans every segment of an input on
// its own, restarting at each segment's first item. Here: a ledger of transactions grouped by
// account (one segment per account, of any length), the balance after each transaction (an
// inclusive sum per account), then the balance before each one (the exclusive form), written to a
// separate report whose accounts are in another order (output offsets), and the highest balance
// so far (an inclusive scan with a maximum operator, starting from an overdraft limit). The host
// checks every answer.
#include <strata/device/device_segmented_scan.cuh>

#include "../example_common.cuh"

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

struct Maximum
{
  __host__ __device__ long long operator()(long long a, long long b) const
  {
    return a < b ? b : a;
  }
};

int main()
{
  example_require_gpu();
  std::mt19937 generator(23);

  // 100000 accounts of 0 to 400 transactions each (in cents), back to back.
  const int num_accounts = 100000;
  std::vector<int> h_offsets(num_accounts + 1, 0);
  std::uniform_int_distribution<int> length(0, 400);
  for (int a = 0; a < num_accounts; ++a)
  {
    h_offsets[a + 1] = h_offsets[a] + length(generator);
  }
  const int num_items = h_offsets[num_accounts];
  std::uniform_int_distribution<long long> amount(-50000, 60000);
  std::vector<long long> h_amounts(num_items);
  for (long long& x : h_amounts)
  {
    x = amount(generator);
  }
  // The report lists the accounts in reverse order.
  std::vector<int> h_report_offsets(num_accounts);
  int at = 0;
  for (int a = num_accounts - 1; a >= 0; --a)
  {
    h_report_offsets[a] = at;
    at += h_offsets[a + 1] - h_offsets[a];
  }

  long long* d_amounts  = nullptr;
  long long* d_balances = nullptr;
  int* d_offsets        = nullptr;
  int* d_report_offsets = nullptr;
  void* d_temp          = nullptr;
  size_t temp_bytes     = 0;
  EXAMPLE_CHECK(cudaMalloc(&d_amounts, num_items * sizeof(long long)));
  EXAMPLE_CHECK(cudaMalloc(&d_balances, num_items * sizeof(long long)));
  EXAMPLE_CHECK(cudaMalloc(&d_offsets, (num_accounts + 1) * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_report_offsets, num_accounts * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_amounts, h_amounts.data(), num_items * sizeof(long long), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_offsets, h_offsets.data(), (num_accounts + 1) * sizeof(int), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(
      cudaMemcpy(d_report_offsets, h_report_offsets.data(), num_accounts * sizeof(int), cudaMemcpyHostToDevice));

  // The balance after each transaction, in two-phase form.
  EXAMPLE_CHECK(strata::DeviceSegmentedScan::InclusiveSegmentedSum(d_temp, temp_bytes, d_amounts, d_balances, d_offsets,
                                                                   d_offsets + 1, num_accounts));
  EXAMPLE_CHECK(cudaMalloc(&d_temp, temp_bytes));
  EXAMPLE_CHECK(strata::DeviceSegmentedScan::InclusiveSegmentedSum(d_temp, temp_bytes, d_amounts, d_balances, d_offsets,
                                                                   d_offsets + 1, num_accounts));
  std::vector<long long> h_balances(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_balances.data(), d_balances, num_items * sizeof(long long), cudaMemcpyDeviceToHost));
  bool after_correct = true;
  long long richest  = 0;
  for (int a = 0; a < num_accounts; ++a)
  {
    long long balance = 0;
    for (int i = h_offsets[a]; i < h_offsets[a + 1]; ++i)
    {
      balance += h_amounts[i];
      after_correct = after_correct && h_balances[i] == balance;
    }
    richest = std::max(richest, balance);
  }
  std::printf("DeviceSegmentedScan::InclusiveSegmentedSum: %d transactions of %d accounts; the richest ends at "
              "%lld cents\n  %s\n",
              num_items, num_accounts, richest, after_correct ? "correct" : "WRONG");

  // The balance before each transaction, into the report (accounts reversed), single-call form.
  EXAMPLE_CHECK(strata::DeviceSegmentedScan::ExclusiveSegmentedSum(d_amounts, d_balances, d_offsets, d_offsets + 1,
                                                                   d_report_offsets, num_accounts));
  EXAMPLE_CHECK(cudaDeviceSynchronize());
  EXAMPLE_CHECK(cudaMemcpy(h_balances.data(), d_balances, num_items * sizeof(long long), cudaMemcpyDeviceToHost));
  bool before_correct = true;
  for (int a = 0; a < num_accounts; ++a)
  {
    long long balance = 0;
    for (int i = h_offsets[a]; i < h_offsets[a + 1]; ++i)
    {
      before_correct = before_correct && h_balances[h_report_offsets[a] + (i - h_offsets[a])] == balance;
      balance += h_amounts[i];
    }
  }
  std::printf("DeviceSegmentedScan::ExclusiveSegmentedSum: the balance before each transaction, accounts "
              "reversed\n  %s\n",
              before_correct ? "correct" : "WRONG");

  // The highest amount so far in each account, never below the overdraft limit.
  const long long limit = -100000;
  EXAMPLE_CHECK(strata::DeviceSegmentedScan::InclusiveSegmentedScanInit(d_amounts, d_balances, d_offsets, d_offsets + 1,
                                                                        num_accounts, Maximum{}, limit));
  EXAMPLE_CHECK(cudaDeviceSynchronize());
  EXAMPLE_CHECK(cudaMemcpy(h_balances.data(), d_balances, num_items * sizeof(long long), cudaMemcpyDeviceToHost));
  bool max_correct = true;
  for (int a = 0; a < num_accounts; ++a)
  {
    long long best = limit;
    for (int i = h_offsets[a]; i < h_offsets[a + 1]; ++i)
    {
      best        = std::max(best, h_amounts[i]);
      max_correct = max_correct && h_balances[i] == best;
    }
  }
  std::printf("DeviceSegmentedScan::InclusiveSegmentedScanInit: the largest amount so far per account\n  %s\n",
              max_correct ? "correct" : "WRONG");

  EXAMPLE_CHECK(cudaFree(d_amounts));
  EXAMPLE_CHECK(cudaFree(d_balances));
  EXAMPLE_CHECK(cudaFree(d_offsets));
  EXAMPLE_CHECK(cudaFree(d_report_offsets));
  EXAMPLE_CHECK(cudaFree(d_temp));
  return after_correct && before_correct && max_correct ? 0 : 1;
}

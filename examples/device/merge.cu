// Example: two event logs, each sorted by time, become one with strata::DeviceMerge::MergePairs.
// The keys are the events' timestamps, the values say which log and which line an event came from.
// Events at the same time keep the first log's before the second's. The host checks the order.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main()
{
  example_require_gpu();

  const int num_events1 = 300000; // e.g. a server's log
  const int num_events2 = 700000; // and a client's
  std::mt19937 generator(7);
  std::uniform_int_distribution<std::int64_t> time(0, 5000000);
  std::vector<std::int64_t> h_times1(num_events1);
  std::vector<std::int64_t> h_times2(num_events2);
  for (auto& t : h_times1)
  {
    t = time(generator);
  }
  for (auto& t : h_times2)
  {
    t = time(generator);
  }
  std::sort(h_times1.begin(), h_times1.end());
  std::sort(h_times2.begin(), h_times2.end());
  // An event's source: its line number, negative for the second log (-1 is its line 0).
  std::vector<int> h_source1(num_events1);
  std::vector<int> h_source2(num_events2);
  for (int i = 0; i < num_events1; ++i)
  {
    h_source1[i] = i;
  }
  for (int i = 0; i < num_events2; ++i)
  {
    h_source2[i] = -i - 1;
  }

  const int num_events = num_events1 + num_events2;
  std::int64_t *d_times1, *d_times2, *d_times_out;
  int *d_source1, *d_source2, *d_source_out;
  EXAMPLE_CHECK(cudaMalloc(&d_times1, num_events1 * sizeof(std::int64_t)));
  EXAMPLE_CHECK(cudaMalloc(&d_times2, num_events2 * sizeof(std::int64_t)));
  EXAMPLE_CHECK(cudaMalloc(&d_times_out, num_events * sizeof(std::int64_t)));
  EXAMPLE_CHECK(cudaMalloc(&d_source1, num_events1 * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_source2, num_events2 * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_source_out, num_events * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_times1, h_times1.data(), num_events1 * sizeof(std::int64_t), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_times2, h_times2.data(), num_events2 * sizeof(std::int64_t), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_source1, h_source1.data(), num_events1 * sizeof(int), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_source2, h_source2.data(), num_events2 * sizeof(int), cudaMemcpyHostToDevice));

  // Phase 1: the size query. Phase 2: the merge (ordered by cuda::std::less<>, the default).
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceMerge::MergePairs(d_temp_storage, temp_storage_bytes, d_times1, d_source1, num_events1,
                                                d_times2, d_source2, num_events2, d_times_out, d_source_out));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceMerge::MergePairs(d_temp_storage, temp_storage_bytes, d_times1, d_source1, num_events1,
                                                d_times2, d_source2, num_events2, d_times_out, d_source_out));

  std::vector<std::int64_t> h_times(num_events);
  std::vector<int> h_source(num_events);
  EXAMPLE_CHECK(cudaMemcpy(h_times.data(), d_times_out, num_events * sizeof(std::int64_t), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaMemcpy(h_source.data(), d_source_out, num_events * sizeof(int), cudaMemcpyDeviceToHost));
  for (void* p :
       {static_cast<void*>(d_times1), static_cast<void*>(d_times2), static_cast<void*>(d_times_out),
        static_cast<void*>(d_source1), static_cast<void*>(d_source2), static_cast<void*>(d_source_out), d_temp_storage})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }

  // Every event once, at its own time, in time order; at equal times the first log's first and
  // each log's events in their order.
  bool correct          = true;
  int next1             = 0;
  int next2             = 0;
  int both_logs_at_once = 0;
  for (int i = 0; i < num_events && correct; ++i)
  {
    const int source = h_source[i];
    const bool first = source >= 0;
    const int line   = first ? source : -source - 1;
    correct          = first ? line == next1++ : line == next2++;
    correct          = correct && h_times[i] == (first ? h_times1[line] : h_times2[line]);
    if (i > 0)
    {
      correct               = correct && h_times[i - 1] <= h_times[i];
      const bool tie_across = h_times[i - 1] == h_times[i] && (h_source[i - 1] >= 0) != first;
      correct               = correct && !(tie_across && first); // a second-log event never precedes a tie of the first
      both_logs_at_once += tie_across;
    }
  }
  correct = correct && next1 == num_events1 && next2 == num_events2;
  std::printf("merge of %d and %d events by time: %d times seen in both logs, first log first (%zu bytes of temporary "
              "storage): %s\n",
              num_events1, num_events2, both_logs_at_once, temp_storage_bytes, correct ? "correct" : "WRONG");
  return correct ? 0 : 1;
}

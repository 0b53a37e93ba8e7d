// Example: many independent sorts in one call with strata::DeviceSegmentedRadixSort. A segment is
// the range [d_begin_offsets[s], d_end_offsets[s]) of the items; for back-to-back segments both are
// one offsets array, read from its start and from its second entry. Each segment is sorted on its
// own, keys with their values; items outside every segment are left as they were. Here 20000
// users' event logs (0 to 200 events each, in arrival order) are put in time order: the keys are
// 32-bit timestamps and the values event ids. The same call's Descending form then ranks each
// user's events by score, highest first. Two-phase calls as everywhere; the host checks every
// segment against std::stable_sort.
#include <strata/device/device_segmented_radix_sort.cuh>

#include "../example_common.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

//! Sorts the segments of (keys, values) by key with the host, stably, ascending or descending.
void host_sort_segments(std::vector<std::uint32_t>& keys, std::vector<int>& values, const std::vector<int>& offsets,
                        bool descending)
{
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
  {
    std::vector<std::pair<std::uint32_t, int>> items;
    for (int i = offsets[s]; i < offsets[s + 1]; ++i)
    {
      items.emplace_back(keys[i], values[i]);
    }
    std::stable_sort(items.begin(), items.end(),
                     [descending](const auto& a, const auto& b)
                     { return descending ? a.first > b.first : a.first < b.first; });
    for (int i = offsets[s]; i < offsets[s + 1]; ++i)
    {
      keys[i]   = items[i - offsets[s]].first;
      values[i] = items[i - offsets[s]].second;
    }
  }
}

int main()
{
  example_require_gpu();

  // Each user's events: a random count, random timestamps and scores; the ids count up.
  const int num_users = 20000;
  std::mt19937 generator(7);
  std::uniform_int_distribution<int> events(0, 200);
  std::uniform_int_distribution<std::uint32_t> timestamp(1700000000u, 1800000000u);
  std::uniform_int_distribution<std::uint32_t> score(0, 999);
  std::vector<int> h_offsets{0};
  for (int u = 0; u < num_users; ++u)
  {
    h_offsets.push_back(h_offsets.back() + events(generator));
  }
  const int num_items = h_offsets.back();
  std::vector<std::uint32_t> h_times(num_items), h_scores(num_items);
  std::vector<int> h_ids(num_items);
  for (int i = 0; i < num_items; ++i)
  {
    h_times[i]  = timestamp(generator);
    h_scores[i] = score(generator);
    h_ids[i]    = i;
  }

  std::uint32_t* d_keys_in  = nullptr;
  std::uint32_t* d_keys_out = nullptr;
  int* d_ids_in             = nullptr;
  int* d_ids_out            = nullptr;
  int* d_offsets            = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_keys_in, num_items * sizeof(std::uint32_t)));
  EXAMPLE_CHECK(cudaMalloc(&d_keys_out, num_items * sizeof(std::uint32_t)));
  EXAMPLE_CHECK(cudaMalloc(&d_ids_in, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_ids_out, num_items * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_offsets, h_offsets.size() * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_ids_in, h_ids.data(), num_items * sizeof(int), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_offsets, h_offsets.data(), h_offsets.size() * sizeof(int), cudaMemcpyHostToDevice));

  bool correct = true;
  for (const bool by_score : {false, true})
  {
    const std::vector<std::uint32_t>& h_keys = by_score ? h_scores : h_times;
    EXAMPLE_CHECK(cudaMemcpy(d_keys_in, h_keys.data(), num_items * sizeof(std::uint32_t), cudaMemcpyHostToDevice));

    // Phase 1 asks for the temporary storage; phase 2 sorts every user's events at once.
    void* d_temp_storage      = nullptr;
    size_t temp_storage_bytes = 0;
    for (int phase = 0; phase < 2; ++phase)
    {
      if (phase == 1)
      {
        EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
      }
      if (by_score)
      {
        EXAMPLE_CHECK(strata::DeviceSegmentedRadixSort::SortPairsDescending(
            d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_ids_in, d_ids_out, num_items, num_users,
            d_offsets, d_offsets + 1));
      }
      else
      {
        EXAMPLE_CHECK(strata::DeviceSegmentedRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                  d_keys_out, d_ids_in, d_ids_out, num_items, num_users,
                                                                  d_offsets, d_offsets + 1));
      }
    }

    std::vector<std::uint32_t> keys_expected = h_keys;
    std::vector<int> ids_expected            = h_ids;
    host_sort_segments(keys_expected, ids_expected, h_offsets, by_score);
    std::vector<std::uint32_t> keys(num_items);
    std::vector<int> ids(num_items);
    EXAMPLE_CHECK(cudaMemcpy(keys.data(), d_keys_out, num_items * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    EXAMPLE_CHECK(cudaMemcpy(ids.data(), d_ids_out, num_items * sizeof(int), cudaMemcpyDeviceToHost));
    // Equal keys keep their input order (the radix sort is stable), so the ids match exactly.
    const bool sorted_ok = keys == keys_expected && ids == ids_expected;
    correct              = correct && sorted_ok;
    std::printf("DeviceSegmentedRadixSort::%s: %d users' %d events by %s (%zu bytes of temporary storage): %s\n",
                by_score ? "SortPairsDescending" : "SortPairs", num_users, num_items,
                by_score ? "score, highest first" : "time", temp_storage_bytes, sorted_ok ? "correct" : "WRONG");
    EXAMPLE_CHECK(cudaFree(d_temp_storage));
  }

  for (void* p : {static_cast<void*>(d_keys_in), static_cast<void*>(d_keys_out), static_cast<void*>(d_ids_in),
                  static_cast<void*>(d_ids_out), static_cast<void*>(d_offsets)})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return correct ? 0 : 1;
}

// examples/multi_gpu/distributed_sort_plan.hpp: the arithmetic of the distributed sort
// (distributed_sort.cu) that does not need a GPU: where a GPU samples its sorted keys, which of the
// gathered samples become splitters, where a GPU's buckets start, where the runs it receives land,
// and the rounds of pairwise merges that join them. Plain C++ (the sampling and splitter positions
// are host and device functions), so that test/multi_gpu tests it on any machine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__CUDACC__)
#  define DISTRIBUTED_SORT_HOST_DEVICE __host__ __device__
#else
#  define DISTRIBUTED_SORT_HOST_DEVICE
#endif

namespace distributed_sort
{
//! Sample i (of `samples`) of n sorted keys: position (i + 1) n / (samples + 1), the inner points of
//! samples + 1 equal steps (none past the end; positions repeat where n < samples).
DISTRIBUTED_SORT_HOST_DEVICE inline std::int64_t SamplePosition(std::int64_t n, int samples, int i)
{
  return (std::int64_t(i) + 1) * n / (std::int64_t(samples) + 1);
}

//! Splitter j (of parts - 1) among `total` gathered and sorted samples: position (j + 1) total /
//! parts. Bucket j holds the keys below splitter j and at or above splitter j - 1.
DISTRIBUTED_SORT_HOST_DEVICE inline std::int64_t SplitterPosition(std::int64_t total, int parts, int j)
{
  return (std::int64_t(j) + 1) * total / parts;
}

//! The splitters of `parts` buckets from the gathered samples, sorted (the host form of what each
//! GPU computes from its own copy of them).
template <typename KeyT>
std::vector<KeyT> Splitters(const std::vector<KeyT>& sorted_samples, int parts)
{
  std::vector<KeyT> splitters;
  for (int j = 0; j + 1 < parts && !sorted_samples.empty(); ++j)
  {
    splitters.push_back(sorted_samples[std::size_t(SplitterPosition(std::int64_t(sorted_samples.size()), parts, j))]);
  }
  return splitters;
}

//! Where the parts + 1 buckets of n sorted keys start: 0, the first key not below each splitter,
//! n (the host form of the device search).
template <typename KeyT>
std::vector<std::int64_t> BucketStarts(const std::vector<KeyT>& sorted_keys, const std::vector<KeyT>& splitters)
{
  std::vector<std::int64_t> starts{0};
  for (const KeyT& splitter : splitters)
  {
    starts.push_back(std::lower_bound(sorted_keys.begin(), sorted_keys.end(), splitter) - sorted_keys.begin());
  }
  starts.push_back(std::int64_t(sorted_keys.size()));
  return starts;
}

//! Where the runs that GPU `receiver` gets from GPUs 0, 1, ... land in its receive buffer, and (last)
//! their total: an exclusive scan of counts[sender * parts + receiver] over the senders.
inline std::vector<std::int64_t> ReceiveOffsets(const std::vector<std::int64_t>& counts, int parts, int receiver)
{
  std::vector<std::int64_t> offsets{0};
  for (int sender = 0; sender < parts; ++sender)
  {
    offsets.push_back(offsets.back() + counts[std::size_t(sender) * std::size_t(parts) + std::size_t(receiver)]);
  }
  return offsets;
}

//! Where the runs that a GPU receives land when every send starts on a multiple of `align` items
//! (NCCL copies buffers that start on 16-byte boundaries much faster): sender p sends leads[p] items
//! before its bucket too (its bucket start modulo align), so its run is [slots[p] + leads[p],
//! slots[p] + leads[p] + received[p]); every slot starts on a multiple of align. The last entry is
//! the size the receive buffer needs.
inline std::vector<std::int64_t> AlignedSlots(const std::vector<std::int64_t>& received,
                                              const std::vector<std::int64_t>& leads, std::int64_t align)
{
  std::vector<std::int64_t> slots{0};
  for (std::size_t p = 0; p < received.size(); ++p)
  {
    const std::int64_t end = slots.back() + leads[p] + received[p];
    slots.push_back((end + align - 1) / align * align);
  }
  return slots;
}

//! One merge of a round: [first, middle) and [middle, last) of the round's input, both sorted, into
//! [first, last) of its output; a copy where middle == last (an odd run out).
struct Merge
{
  std::int64_t first;
  std::int64_t middle;
  std::int64_t last;
};

//! The rounds that join the sorted runs that start at run_offsets[0], [1], ... (and end at the
//! last offset) into one: each round merges neighbouring runs in pairs, from one buffer into the
//! other, so that equal keys keep the order of the runs. ceil(log2 runs) rounds; none for one run.
inline std::vector<std::vector<Merge>> MergeRounds(std::vector<std::int64_t> run_offsets)
{
  std::vector<std::vector<Merge>> rounds;
  while (run_offsets.size() > 2)
  {
    std::vector<Merge> round;
    std::vector<std::int64_t> next{run_offsets.front()};
    for (std::size_t r = 0; r + 1 < run_offsets.size(); r += 2)
    {
      const std::int64_t middle = run_offsets[r + 1];
      const std::int64_t last   = r + 2 < run_offsets.size() ? run_offsets[r + 2] : middle;
      round.push_back({run_offsets[r], middle, last});
      next.push_back(last);
    }
    rounds.push_back(round);
    run_offsets = next;
  }
  return rounds;
}
} // namespace distributed_sort

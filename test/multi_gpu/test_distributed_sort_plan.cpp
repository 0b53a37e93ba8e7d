// The host-side arithmetic of the distributed sort (examples/multi_gpu/distributed_sort_plan.hpp):
// sample and splitter positions, bucket starts, receive offsets, aligned receive slots and merge
// rounds, and the whole plan run on the host for P simulated GPUs of random keys, against one
// std::stable_sort. Host only: the example itself needs NCCL and GPUs.
#include "common/harness.cuh"

#include "../../examples/multi_gpu/distributed_sort_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace ds = distributed_sort;

TEST_CASE("Sample and splitter positions lie inside, in order, and spread evenly", "[multi_gpu]")
{
  const std::uint64_t seed = strata_test::seed(2101);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (int trial = 0; trial < 200; ++trial)
  {
    const std::int64_t n = std::int64_t(engine() % 100000);
    const int samples    = 1 + int(engine() % 300);
    INFO(n << " keys, " << samples << " samples");
    std::int64_t previous = 0;
    for (int i = 0; i < samples; ++i)
    {
      const std::int64_t position = ds::SamplePosition(n, samples, i);
      CHECK(position >= previous);
      CHECK((n == 0 ? position == 0 : position < n));
      previous = position;
    }
    const int parts = 1 + int(engine() % 16);
    previous        = 0;
    for (int j = 0; j + 1 < parts; ++j)
    {
      const std::int64_t position = ds::SplitterPosition(n, parts, j);
      CHECK(position >= previous);
      CHECK(position <= n);
      CHECK(position * parts <= (j + 1) * n); // floor((j + 1) n / parts)
      CHECK((position + 1) * parts > (j + 1) * n);
      previous = position;
    }
  }
  // 2^40 keys sampled 4096 times: no overflow.
  CHECK(ds::SamplePosition(std::int64_t(1) << 40, 4095, 4094) == (std::int64_t(4095) << 40) / 4096);
}

TEST_CASE("Receive offsets scan the counts sent to one GPU; merge rounds join its runs in order", "[multi_gpu]")
{
  const std::uint64_t seed = strata_test::seed(2102);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (int parts = 1; parts <= 9; ++parts)
  {
    INFO(parts << " GPUs");
    std::vector<std::int64_t> counts(std::size_t(parts * parts));
    for (auto& c : counts)
    {
      c = std::int64_t(engine() % 50); // empty runs too
    }
    for (int receiver = 0; receiver < parts; ++receiver)
    {
      const std::vector<std::int64_t> offsets = ds::ReceiveOffsets(counts, parts, receiver);
      REQUIRE(offsets.size() == std::size_t(parts) + 1);
      std::int64_t total = 0;
      for (int sender = 0; sender < parts; ++sender)
      {
        CHECK(offsets[std::size_t(sender)] == total);
        total += counts[std::size_t(sender * parts + receiver)];
      }
      CHECK(offsets.back() == total);

      // Runs of random sorted keys, each tagged with its run; the rounds must give the stable merge.
      std::vector<std::pair<int, int>> runs; // (key, run)
      for (int r = 0; r < parts; ++r)
      {
        std::vector<int> keys(std::size_t(offsets[std::size_t(r) + 1] - offsets[std::size_t(r)]));
        for (int& k : keys)
        {
          k = int(engine() % 20);
        }
        std::sort(keys.begin(), keys.end());
        for (const int k : keys)
        {
          runs.emplace_back(k, r);
        }
      }
      const auto rounds   = ds::MergeRounds(offsets);
      int expected_rounds = 0;
      while ((1 << expected_rounds) < parts)
      {
        ++expected_rounds;
      }
      CHECK(int(rounds.size()) == expected_rounds);
      std::vector<std::pair<int, int>> in = runs;
      std::vector<std::pair<int, int>> out(in.size());
      const auto by_key = [](const std::pair<int, int>& a, const std::pair<int, int>& b) { return a.first < b.first; };
      for (const auto& round : rounds)
      {
        std::int64_t covered = 0;
        for (const ds::Merge& m : round)
        {
          CHECK(m.first == covered);
          CHECK(m.first <= m.middle);
          CHECK(m.middle <= m.last);
          std::merge(in.begin() + m.first, in.begin() + m.middle, in.begin() + m.middle, in.begin() + m.last,
                     out.begin() + m.first, by_key);
          covered = m.last;
        }
        CHECK(covered == std::int64_t(in.size()));
        std::swap(in, out);
      }
      std::vector<std::pair<int, int>> expected = runs;
      std::stable_sort(expected.begin(), expected.end(), by_key);
      CHECK(in == expected);
    }
  }
}

TEST_CASE("Aligned receive slots start on multiples of the alignment and hold each run whole", "[multi_gpu]")
{
  const std::uint64_t seed = strata_test::seed(2103);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  for (const std::int64_t align : {1, 2, 4})
  {
    for (int parts = 1; parts <= 9; ++parts)
    {
      INFO(parts << " senders, alignment " << align);
      // Each sender's sorted part (values = sender * 1000 + position) and the start and size of
      // the bucket it sends; it sends from the aligned position at or below the start.
      const std::size_t n = static_cast<std::size_t>(parts);
      std::vector<std::int64_t> received(n), leads(n), starts(n);
      for (int p = 0; p < parts; ++p)
      {
        starts[std::size_t(p)]   = std::int64_t(engine() % 40);
        received[std::size_t(p)] = std::int64_t(engine() % 30); // empty runs too
        leads[std::size_t(p)]    = starts[std::size_t(p)] % align;
      }
      const std::vector<std::int64_t> slots = ds::AlignedSlots(received, leads, align);
      REQUIRE(slots.size() == std::size_t(parts) + 1);
      std::vector<std::int64_t> buffer(std::size_t(slots.back()), -1);
      for (int p = 0; p < parts; ++p)
      {
        const std::size_t i = std::size_t(p);
        CHECK(slots[i] % align == 0);
        CHECK(slots[i + 1] >= slots[i] + leads[i] + received[i]);
        CHECK(slots[i + 1] < slots[i] + leads[i] + received[i] + align);
        // The send: leads[p] + received[p] items from starts[p] - leads[p], itself aligned.
        const std::int64_t from = starts[i] - leads[i];
        CHECK(from % align == 0);
        for (std::int64_t k = 0; k < leads[i] + received[i]; ++k)
        {
          CHECK(buffer[std::size_t(slots[i] + k)] == -1); // no two sends overlap
          buffer[std::size_t(slots[i] + k)] = p * 1000 + from + k;
        }
      }
      for (int p = 0; p < parts; ++p)
      {
        const std::size_t i = std::size_t(p);
        for (std::int64_t k = 0; k < received[i]; ++k)
        {
          CHECK(buffer[std::size_t(slots[i] + leads[i] + k)] == p * 1000 + starts[i] + k);
        }
      }
    }
  }
}

TEST_CASE("The whole plan on the host sorts P parts of random keys like one stable sort", "[multi_gpu]")
{
  const std::uint64_t seed = strata_test::seed(2103);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  struct shape
  {
    int parts;
    std::int64_t keys_per_part;
    std::uint32_t key_range; // 0: full 32 bits
    int samples;
  };
  for (const shape s : {shape{1, 1000, 0, 64}, shape{2, 100000, 0, 64}, shape{3, 77777, 0, 31}, shape{4, 50000, 16, 64},
                        shape{8, 20000, 0, 128}, shape{5, 0, 0, 8}, shape{7, 3, 0, 8}, shape{4, 30000, 1, 64}})
  {
    INFO(s.parts << " GPUs, " << s.keys_per_part << " keys each, range " << s.key_range << ", " << s.samples
                 << " samples");
    // (key, global index) pairs: the stable global sort orders equal keys by index.
    std::vector<std::vector<std::pair<std::uint32_t, std::int64_t>>> local(std::size_t(s.parts));
    std::vector<std::pair<std::uint32_t, std::int64_t>> all;
    for (int p = 0; p < s.parts; ++p)
    {
      for (std::int64_t i = 0; i < s.keys_per_part; ++i)
      {
        const std::uint32_t key = s.key_range == 0 ? std::uint32_t(engine()) : std::uint32_t(engine() % s.key_range);
        local[std::size_t(p)].emplace_back(key, p * s.keys_per_part + i);
        all.emplace_back(key, p * s.keys_per_part + i);
      }
    }
    const auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
    // 1. Each GPU sorts its part; 2. samples it; the samples are gathered and sorted everywhere.
    std::vector<std::uint32_t> gathered;
    std::vector<std::vector<std::uint32_t>> sorted_keys(std::size_t(s.parts));
    for (int p = 0; p < s.parts; ++p)
    {
      auto& part = local[std::size_t(p)];
      std::stable_sort(part.begin(), part.end(), by_key);
      for (const auto& item : part)
      {
        sorted_keys[std::size_t(p)].push_back(item.first);
      }
      for (int i = 0; i < s.samples && !part.empty(); ++i)
      {
        gathered.push_back(part[std::size_t(ds::SamplePosition(s.keys_per_part, s.samples, i))].first);
      }
    }
    std::sort(gathered.begin(), gathered.end());
    const std::vector<std::uint32_t> splitters = ds::Splitters(gathered, s.parts);
    CHECK(int(splitters.size()) == (gathered.empty() ? 0 : s.parts - 1));
    // 3. Bucket starts, counts, and the exchange; 4. the merge rounds on every GPU.
    std::vector<std::vector<std::int64_t>> starts(std::size_t(s.parts));
    std::vector<std::int64_t> counts(std::size_t(s.parts * s.parts), 0);
    for (int p = 0; p < s.parts; ++p)
    {
      starts[std::size_t(p)] = ds::BucketStarts(sorted_keys[std::size_t(p)], splitters);
      if (splitters.empty())
      {
        starts[std::size_t(p)].assign(std::size_t(s.parts) + 1, s.keys_per_part);
        starts[std::size_t(p)][0] = 0;
      }
      REQUIRE(starts[std::size_t(p)].size() == std::size_t(s.parts) + 1);
      for (int q = 0; q < s.parts; ++q)
      {
        counts[std::size_t(p * s.parts + q)] =
            starts[std::size_t(p)][std::size_t(q) + 1] - starts[std::size_t(p)][std::size_t(q)];
      }
    }
    std::vector<std::pair<std::uint32_t, std::int64_t>> result;
    std::int64_t largest = 0;
    for (int q = 0; q < s.parts; ++q)
    {
      const std::vector<std::int64_t> offsets = ds::ReceiveOffsets(counts, s.parts, q);
      std::vector<std::pair<std::uint32_t, std::int64_t>> in(std::size_t(offsets.back()));
      for (int p = 0; p < s.parts; ++p)
      {
        const auto& part = local[std::size_t(p)];
        std::copy(part.begin() + starts[std::size_t(p)][std::size_t(q)],
                  part.begin() + starts[std::size_t(p)][std::size_t(q) + 1], in.begin() + offsets[std::size_t(p)]);
      }
      std::vector<std::pair<std::uint32_t, std::int64_t>> out(in.size());
      for (const auto& round : ds::MergeRounds(offsets))
      {
        for (const ds::Merge& m : round)
        {
          std::merge(in.begin() + m.first, in.begin() + m.middle, in.begin() + m.middle, in.begin() + m.last,
                     out.begin() + m.first, by_key);
        }
        std::swap(in, out);
      }
      largest = std::max(largest, std::int64_t(in.size()));
      result.insert(result.end(), in.begin(), in.end());
    }
    std::stable_sort(all.begin(), all.end(), by_key);
    CHECK(result == all);
    // Regular sampling keeps buckets of distinct keys near N / P: within 2 N / P here.
    if (s.key_range == 0 && s.keys_per_part >= 1000)
    {
      CHECK(largest <= 2 * s.keys_per_part);
    }
  }
}

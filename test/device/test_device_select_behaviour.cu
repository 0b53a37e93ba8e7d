// Tests of strata/device/device_select.cuh and device_partition.cuh, part 3: how the calls behave
// rather than what they compute, for every function of both (int items): no items write the
// counts as 0 and nothing else; the size query touches no device data and launches nothing
// (pointers that must never be dereferenced, inside a stream capture that must stay empty); a
// negative count, a null pointer where items are read or written, a null count output (even
// without items) and too little temporary storage give cudaErrorInvalidValue and write nothing;
// the second phase works inside a CUDA graph and on two streams at once; and DeviceSelect::If and
// DevicePartition::If over more than 2^31 uint8 items ([slow]; 4 GiB of GPU memory); and
// DeviceSelect::Unique keeping more than 2^32 and UniqueByKey more than 2^31 of 2^32 + 2^21 + 5
// generated uint8 keys ([slow]; 4.1 GiB).
#include <strata/device/device_partition.cuh>
#include <strata/device/device_select.cuh>

#include "common/streams.cuh"
#include "common/behaviour.cuh"
#include "common/test_common.cuh"
#include "device_select_checks.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace
{
using strata_test::check_rejected;
using strata_test::device_buffer;
using strata_test::query_bytes;
using strata_test::select_percent;

//! The device pointers a call may use. Where a function has fewer outputs, `out` is d_out,
//! d_first_part_out or d_keys_out, `second` d_second_part_out or d_values_out; in place, `in` is
//! d_data.
struct select_args
{
  int* in;
  std::uint8_t* flags;
  int* values;
  int* out;
  int* second;
  int* unselected;
  int* num;
};

//! Which pointers of select_args a call uses (a bad-argument case sets each of them to null).
enum uses : unsigned
{
  USES_IN         = 1u << 0,
  USES_FLAGS      = 1u << 1,
  USES_VALUES     = 1u << 2,
  USES_OUT        = 1u << 3,
  USES_SECOND     = 1u << 4,
  USES_UNSELECTED = 1u << 5,
  USES_NUM        = 1u << 6
};

//! `args` with the pointer that `which` (one bit of uses) names set to null.
select_args without(select_args args, unsigned which)
{
  switch (which)
  {
  case USES_IN:
    args.in = nullptr;
    break;
  case USES_FLAGS:
    args.flags = nullptr;
    break;
  case USES_VALUES:
    args.values = nullptr;
    break;
  case USES_OUT:
    args.out = nullptr;
    break;
  case USES_SECOND:
    args.second = nullptr;
    break;
  case USES_UNSELECTED:
    args.unselected = nullptr;
    break;
  default:
    args.num = nullptr;
    break;
  }
  return args;
}

const char* pointer_name(unsigned which)
{
  switch (which)
  {
  case USES_IN:
    return "d_in (d_data, d_keys_in)";
  case USES_FLAGS:
    return "d_flags";
  case USES_VALUES:
    return "d_values_in";
  case USES_OUT:
    return "d_out (d_first_part_out, d_keys_out)";
  case USES_SECOND:
    return "d_second_part_out (d_values_out)";
  case USES_UNSELECTED:
    return "d_unselected_out";
  default:
    return "d_num_selected_out";
  }
}

using call_fn = std::function<cudaError_t(void*, std::size_t&, const select_args&, std::int64_t, cudaStream_t)>;

//! One function of DeviceSelect or DevicePartition: its name, the pointers it uses, how many
//! counts it writes, and the call.
struct select_call
{
  std::string name;
  unsigned uses;
  int counts;
  call_fn run;
};

//! Every function of both structs over int items (flags: uint8; predicates: about half).
std::vector<select_call> all_calls()
{
  const select_percent op{50, 17};
  const select_percent other_op{50, 18};
  std::vector<select_call> calls;
  calls.push_back({"DeviceSelect::If", USES_IN | USES_OUT | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   { return strata::DeviceSelect::If(t, b, static_cast<const int*>(a.in), a.out, a.num, n, op, s); }});
  calls.push_back({"DeviceSelect::If in place", USES_IN | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   { return strata::DeviceSelect::If(t, b, a.in, a.num, n, op, s); }});
  calls.push_back({"DeviceSelect::Flagged", USES_IN | USES_FLAGS | USES_OUT | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceSelect::Flagged(t, b, static_cast<const int*>(a.in),
                                                          static_cast<const std::uint8_t*>(a.flags), a.out, a.num, n,
                                                          s);
                   }});
  calls.push_back(
      {"DeviceSelect::Flagged in place", USES_IN | USES_FLAGS | USES_NUM, 1,
       [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
       { return strata::DeviceSelect::Flagged(t, b, a.in, static_cast<const std::uint8_t*>(a.flags), a.num, n, s); }});
  calls.push_back({"DeviceSelect::FlaggedIf", USES_IN | USES_FLAGS | USES_OUT | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceSelect::FlaggedIf(t, b, static_cast<const int*>(a.in),
                                                            static_cast<const std::uint8_t*>(a.flags), a.out, a.num, n,
                                                            op, s);
                   }});
  calls.push_back({"DeviceSelect::FlaggedIf in place", USES_IN | USES_FLAGS | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s) {
                     return strata::DeviceSelect::FlaggedIf(t, b, a.in, static_cast<const std::uint8_t*>(a.flags),
                                                            a.num, n, op, s);
                   }});
  calls.push_back({"DeviceSelect::Unique", USES_IN | USES_OUT | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   { return strata::DeviceSelect::Unique(t, b, static_cast<const int*>(a.in), a.out, a.num, n, s); }});
  calls.push_back({"DeviceSelect::UniqueByKey", USES_IN | USES_VALUES | USES_OUT | USES_SECOND | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceSelect::UniqueByKey(t, b, static_cast<const int*>(a.in),
                                                              static_cast<const int*>(a.values), a.out, a.second, a.num,
                                                              n, s);
                   }});
  calls.push_back({"DeviceSelect::UniqueByKey with an equality operator (an int count)",
                   USES_IN | USES_VALUES | USES_OUT | USES_SECOND | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceSelect::UniqueByKey(t, b, static_cast<const int*>(a.in),
                                                              static_cast<const int*>(a.values), a.out, a.second, a.num,
                                                              static_cast<int>(n), strata_test::coarse_equal{}, s);
                   }});
  calls.push_back({"DevicePartition::Flagged", USES_IN | USES_FLAGS | USES_OUT | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DevicePartition::Flagged(t, b, static_cast<const int*>(a.in),
                                                             static_cast<const std::uint8_t*>(a.flags), a.out, a.num, n,
                                                             s);
                   }});
  calls.push_back({"DevicePartition::If", USES_IN | USES_OUT | USES_NUM, 1,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s) {
                     return strata::DevicePartition::If(t, b, static_cast<const int*>(a.in), a.out, a.num, n, op, s);
                   }});
  calls.push_back({"DevicePartition::If three-way", USES_IN | USES_OUT | USES_SECOND | USES_UNSELECTED | USES_NUM, 2,
                   [=](void* t, std::size_t& b, const select_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DevicePartition::If(t, b, static_cast<const int*>(a.in), a.out, a.second,
                                                        a.unselected, a.num, n, op, other_op, s);
                   }});
  return calls;
}

//! Device buffers for every pointer of select_args, `n` items each (four counts): random inputs,
//! poisoned outputs.
class select_buffers
{
public:
  select_buffers(std::size_t n, std::uint64_t seed)
      : in_(strata_test::select_inputs<int>(n, seed))
      , flags_(strata_test::random_flags(n, 50, seed + 1))
      , values_(strata_test::select_inputs<int>(n, seed + 2))
      , out_(strata_test::poisoned_buffer<int>(n))
      , second_(strata_test::poisoned_buffer<int>(n))
      , unselected_(strata_test::poisoned_buffer<int>(n))
      , num_(strata_test::poisoned_buffer<int>(4))
  {
  }

  select_args args() const
  {
    return {in_.data(), flags_.data(), values_.data(), out_.data(), second_.data(), unselected_.data(), num_.data()};
  }

  //! Everything the buffers hold, in the order of select_args.
  std::vector<std::vector<int>> state() const
  {
    const std::vector<std::uint8_t> flags = flags_.download();
    return {in_.download(),     std::vector<int>(flags.begin(), flags.end()),
            values_.download(), out_.download(),
            second_.download(), unselected_.download(),
            num_.download()};
  }

private:
  device_buffer<int> in_;
  device_buffer<std::uint8_t> flags_;
  device_buffer<int> values_;
  device_buffer<int> out_;
  device_buffer<int> second_;
  device_buffer<int> unselected_;
  device_buffer<int> num_;
};

} // namespace

TEST_CASE("DeviceSelect and DevicePartition with no items write zero counts and nothing else",
          "[device][select][partition]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(631);
  INFO("seed " << seed);
  for (const select_call& call : all_calls())
  {
    INFO(call.name);
    const select_buffers buffers(16, seed);
    const select_args args                 = buffers.args();
    std::vector<std::vector<int>> expected = buffers.state();
    std::size_t bytes                      = query_bytes(call, args, 0);
    device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(call.run(d_temp.data(), bytes, args, 0, nullptr));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    for (int c = 0; c < call.counts; ++c)
    {
      expected.back()[static_cast<std::size_t>(c)] = 0;
    }
    CHECK(buffers.state() == expected);
  }
}

TEST_CASE("DeviceSelect and DevicePartition size queries touch no device data and launch nothing",
          "[device][select][partition]")
{
  STRATA_TEST_REQUIRE_GPU();
  const select_args bad{reinterpret_cast<int*>(std::uintptr_t(16)), reinterpret_cast<std::uint8_t*>(std::uintptr_t(24)),
                        reinterpret_cast<int*>(std::uintptr_t(32)), reinterpret_cast<int*>(std::uintptr_t(48)),
                        reinterpret_cast<int*>(std::uintptr_t(64)), reinterpret_cast<int*>(std::uintptr_t(80)),
                        reinterpret_cast<int*>(std::uintptr_t(96))};
  const std::vector<select_call> calls = all_calls();
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (const select_call& call : calls)
        {
          for (std::int64_t n : {std::int64_t(0), std::int64_t(10), std::int64_t(1) << 24})
          {
            INFO(call.name << ", num_items " << n);
            std::size_t bytes = 0;
            CHECK(call.run(nullptr, bytes, bad, n, stream) == cudaSuccess);
            CHECK(bytes >= 1);
          }
        }
      });
}

TEST_CASE("DeviceSelect and DevicePartition reject bad arguments with cudaErrorInvalidValue and write nothing",
          "[device][select][partition]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(633);
  INFO("seed " << seed);
  const std::int64_t n = 100000;
  for (const select_call& call : all_calls())
  {
    INFO(call.name);
    const select_buffers buffers(std::size_t(n), seed);
    const select_args args  = buffers.args();
    const std::size_t bytes = query_bytes(call, args, n);
    device_buffer<unsigned char> d_temp(bytes);
    {
      INFO("a negative item count");
      std::size_t query = 0;
      check_rejected(buffers, [&] { return call.run(nullptr, query, args, -1, nullptr); });
      std::size_t run_bytes = bytes;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, args, -5, nullptr); });
    }
    for (unsigned which = 1; which <= USES_NUM; which <<= 1)
    {
      if ((call.uses & which) != 0)
      {
        INFO("a null " << pointer_name(which) << " with items");
        std::size_t run_bytes = bytes;
        check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, without(args, which), n, nullptr); });
      }
    }
    {
      INFO("a null d_num_selected_out without items");
      std::size_t zero_bytes = query_bytes(call, args, 0);
      device_buffer<unsigned char> d_zero_temp(zero_bytes);
      check_rejected(buffers,
                     [&] { return call.run(d_zero_temp.data(), zero_bytes, without(args, USES_NUM), 0, nullptr); });
    }
    {
      INFO("too little temporary storage");
      std::size_t too_few = bytes - 1;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), too_few, args, n, nullptr); });
    }
  }
}

TEST_CASE("DeviceSelect and DevicePartition run inside a CUDA graph and on two streams at once",
          "[device][select][partition]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(635);
  INFO("seed " << seed);
  const std::size_t n      = 3000017;
  const std::vector<int> a = strata_test::select_inputs<int>(n, seed);
  const std::vector<int> b = strata_test::select_inputs<int>(n, seed + 1);
  const select_percent op{50, seed + 2};
  const std::vector<int> selected_a    = strata_test::reference_select(a, op);
  const std::vector<int> partitioned_b = strata_test::reference_partition(b, op);
  const std::size_t selected_b         = strata_test::reference_select(b, op).size();
  device_buffer<int> d_a(a);
  device_buffer<int> d_b(b);
  device_buffer<int> d_out_a(n + strata_test::select_slack);
  device_buffer<int> d_out_b(n + strata_test::select_slack);
  device_buffer<int> d_num_a(2);
  device_buffer<int> d_num_b(2);
  const auto select_a = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceSelect::If(d_temp, bytes, static_cast<const int*>(d_a.data()), d_out_a.data(), d_num_a.data(),
                                    std::int64_t(n), op, stream);
  };
  const auto partition_b = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DevicePartition::If(d_temp, bytes, static_cast<const int*>(d_b.data()), d_out_b.data(),
                                       d_num_b.data(), std::int64_t(n), op, stream);
  };
  std::size_t bytes_a = 0;
  std::size_t bytes_b = 0;
  STRATA_TEST_CUDA(select_a(nullptr, bytes_a, nullptr));
  STRATA_TEST_CUDA(partition_b(nullptr, bytes_b, nullptr));
  device_buffer<unsigned char> d_temp_a(bytes_a);
  device_buffer<unsigned char> d_temp_b(bytes_b);
  d_temp_a.poison(); // tile descriptors must not rely on zeroed memory
  d_temp_b.poison();
  const auto check_a = [&]
  {
    strata_test::check_counts(d_num_a, {selected_a.size()});
    strata_test::check_selected(selected_a, d_out_a.download());
  };
  const auto check_b = [&]
  {
    strata_test::check_counts(d_num_b, {selected_b});
    strata_test::check_selected(partitioned_b, d_out_b.download());
  };
  const strata_test::stream_pair streams;

  SECTION("DeviceSelect::If in a graph")
  {
    strata_test::check_graph_replay(
        streams[0], [&](cudaStream_t stream) { return select_a(d_temp_a.data(), bytes_a, stream); },
        [&]
        {
          d_out_a.poison();
          d_num_a.poison();
        },
        check_a);
  }
  SECTION("DevicePartition::If in a graph")
  {
    strata_test::check_graph_replay(
        streams[1], [&](cudaStream_t stream) { return partition_b(d_temp_b.data(), bytes_b, stream); },
        [&]
        {
          d_out_b.poison();
          d_num_b.poison();
        },
        check_b);
  }
  SECTION("two streams")
  {
    d_out_a.poison();
    d_num_a.poison();
    d_out_b.poison();
    d_num_b.poison();
    strata_test::run_on_two_streams(
        streams, [&](cudaStream_t stream) { return select_a(d_temp_a.data(), bytes_a, stream); },
        [&](cudaStream_t stream) { return partition_b(d_temp_b.data(), bytes_b, stream); });
    check_a();
    check_b();
  }
}

TEST_CASE("DeviceSelect::If and DevicePartition::If over more than 2^31 uint8 items", "[device][select][partition]"
                                                                                      "[slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^31 items under compute-sanitizer would take hours; the sizes below 2^21 run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(637);
  INFO("seed " << seed);
  const std::int64_t n = (std::int64_t(1) << 31) + (std::int64_t(1) << 20) + 3;
  const select_percent op{50, seed}; // about half of the 256 byte values
  std::size_t select_bytes    = 0;
  std::size_t partition_bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceSelect::If(nullptr, select_bytes, static_cast<const std::uint8_t*>(nullptr),
                                            static_cast<std::uint8_t*>(nullptr), static_cast<std::int64_t*>(nullptr), n,
                                            op));
  STRATA_TEST_CUDA(strata::DevicePartition::If(nullptr, partition_bytes, static_cast<const std::uint8_t*>(nullptr),
                                               static_cast<std::uint8_t*>(nullptr), static_cast<std::int64_t*>(nullptr),
                                               n, op));
  const std::size_t bytes = std::max(select_bytes, partition_bytes);
  std::size_t free_bytes  = 0;
  std::size_t total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = 2 * std::size_t(n) + bytes + (std::size_t(256) << 20);
  if (free_bytes < needed)
  {
    SKIP("the selection of " << n << " items needs " << needed / (1 << 20) << " MiB of GPU memory; "
                             << free_bytes / (1 << 20) << " MiB are free");
  }

  const std::vector<std::uint8_t> in = strata_test::random_bytes(std::size_t(n), seed);
  std::size_t selected               = 0;
  for (std::uint8_t x : in)
  {
    selected += op(x) ? 1 : 0;
  }
  INFO(selected << " of " << n << " items selected");
  device_buffer<std::uint8_t> d_in(in);
  device_buffer<std::uint8_t> d_out(std::size_t(n) + strata_test::select_slack);
  device_buffer<std::int64_t> d_num(2);
  device_buffer<unsigned char> d_temp(bytes);

  const auto count_mismatches = [&](bool partition)
  {
    // One pass over input and output instead of a host reference of 2^31 items: selected items in
    // order from the front; for a partition, rejected ones from the back.
    const std::vector<std::uint8_t> out = d_out.download();
    std::size_t front                   = 0;
    std::size_t back                    = std::size_t(n);
    std::size_t wrong                   = 0;
    for (std::uint8_t x : in)
    {
      if (op(x))
      {
        wrong += out[front++] != x;
      }
      else if (partition)
      {
        wrong += out[--back] != x;
      }
    }
    for (std::size_t i = partition ? std::size_t(n) : front; i < out.size(); ++i)
    {
      wrong += out[i] != strata_test::poison_byte;
    }
    return wrong;
  };

  {
    INFO("DeviceSelect::If");
    d_out.poison();
    d_num.poison();
    std::size_t run_bytes = select_bytes;
    STRATA_TEST_CUDA(strata::DeviceSelect::If(d_temp.data(), run_bytes, static_cast<const std::uint8_t*>(d_in.data()),
                                              d_out.data(), d_num.data(), n, op));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    strata_test::check_counts(d_num, {selected});
    CHECK(count_mismatches(false) == 0);
  }
  {
    INFO("DevicePartition::If");
    d_out.poison();
    d_num.poison();
    std::size_t run_bytes = partition_bytes;
    STRATA_TEST_CUDA(strata::DevicePartition::If(
        d_temp.data(), run_bytes, static_cast<const std::uint8_t*>(d_in.data()), d_out.data(), d_num.data(), n, op));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    strata_test::check_counts(d_num, {selected});
    CHECK(count_mismatches(true) == 0);
  }
}

namespace
{
using strata_test::large_period;

//! A table of keys of period large_period in runs: period position j repeats the key before it
//! where `repeats` positions chosen at random say so (never 0 nor the last, so that every period
//! begins a run), every other key differs from the one before. `heads`: the positions that begin
//! runs, in order.
struct periodic_runs
{
  std::vector<std::uint8_t> keys;
  std::vector<std::size_t> heads;

  //! items[h] for every head h: what a period's runs keep of `items`.
  std::vector<std::uint8_t> first_items(const std::vector<std::uint8_t>& items) const
  {
    std::vector<std::uint8_t> firsts;
    for (const std::size_t h : heads)
    {
      firsts.push_back(items[h]);
    }
    return firsts;
  }

  //! The runs that begin among the first n positions of the periodic sequence.
  std::size_t selected(std::size_t n) const
  {
    const std::size_t period = std::size_t(large_period);
    const std::size_t rest   = n % period;
    return n / period * heads.size() + std::size_t(std::lower_bound(heads.begin(), heads.end(), rest) - heads.begin());
  }
};

periodic_runs make_periodic_runs(std::size_t repeats, std::uint64_t seed)
{
  const std::size_t period = std::size_t(large_period);
  std::mt19937_64 engine(seed);
  std::vector<std::size_t> positions(period - 2);
  std::iota(positions.begin(), positions.end(), std::size_t(1));
  std::shuffle(positions.begin(), positions.end(), engine);
  std::vector<bool> repeat(period, false);
  for (std::size_t k = 0; k < repeats; ++k)
  {
    repeat[positions[k]] = true;
  }
  periodic_runs runs;
  runs.keys.resize(period);
  runs.keys[0] = std::uint8_t(engine());
  for (std::size_t j = 1; j < period; ++j)
  {
    std::uint8_t key = runs.keys[j - 1];
    // The last key differs from the next period's first too.
    while (!repeat[j] && (key == runs.keys[j - 1] || (j + 1 == period && key == runs.keys[0])))
    {
      key = std::uint8_t(engine());
    }
    runs.keys[j] = key;
  }
  for (std::size_t j = 0; j < period; ++j)
  {
    if (!repeat[j])
    {
      runs.heads.push_back(j);
    }
  }
  return runs;
}
} // namespace

TEST_CASE("DeviceSelect::Unique and UniqueByKey keep more than 2^32 and 2^31 of 2^32 + 2^21 + 5 uint8 keys",
          "[device][select][slow]")
{
  // Keys (and values) from periodic_iterators: no input memory. Unique's keys repeat at 16
  // positions of each period (runs of 1 and 2): it keeps more than 2^32 of them, so that its count
  // and output positions need 64 bits. UniqueByKey's repeat at about half (runs of 1 to a few):
  // more than 2^31 keys and values kept, written to the two halves of one buffer. Every item of
  // the buffer is checked, the poison around the outputs too.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^32 items under compute-sanitizer would take hours; the sizes below 2^21 run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(639);
  INFO("seed " << seed);
  const std::size_t n                  = (std::size_t(1) << 32) + (std::size_t(1) << 21) + 5;
  const periodic_runs unique_runs      = make_periodic_runs(16, seed);
  const periodic_runs by_key_runs      = make_periodic_runs(std::size_t(large_period) - 33500, seed + 1);
  const std::vector<std::uint8_t> vals = strata_test::random_vector<std::uint8_t>(std::size_t(large_period), seed + 2);
  const std::size_t unique_selected    = unique_runs.selected(n);
  const std::size_t by_key_selected    = by_key_runs.selected(n);
  REQUIRE(unique_selected > (std::size_t(1) << 32));
  REQUIRE(by_key_selected > (std::size_t(1) << 31));
  const std::size_t half  = by_key_selected + strata_test::select_slack; // where UniqueByKey's values go
  const std::size_t slots = std::max(unique_selected + strata_test::select_slack, 2 * half);
  strata_test::require_free_memory(slots + (std::size_t(64) << 20));
  // What the outputs repeat: the key (and value) of each period's runs, in order.
  const std::vector<std::uint8_t> unique_keys   = unique_runs.first_items(unique_runs.keys);
  const std::vector<std::uint8_t> by_key_keys   = by_key_runs.first_items(by_key_runs.keys);
  const std::vector<std::uint8_t> by_key_values = by_key_runs.first_items(vals);
  const device_buffer<std::uint8_t> d_unique_keys(unique_runs.keys);
  const device_buffer<std::uint8_t> d_by_key_keys(by_key_runs.keys);
  const device_buffer<std::uint8_t> d_values(vals);
  device_buffer<std::uint8_t> d_out(slots);
  device_buffer<std::int64_t> d_num(2);

  {
    INFO("DeviceSelect::Unique: " << unique_selected << " of " << n << " keys");
    d_out.poison();
    d_num.poison();
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSelect::Unique(d_temp, bytes, strata_test::periodic_bytes(d_unique_keys.data()),
                                              d_out.data(), d_num.data(), std::int64_t(n));
        });
    strata_test::check_counts(d_num, {unique_selected});
    strata_test::check_large(d_out.data(), slots,
                             [&](std::size_t at, std::size_t count, std::uint8_t* out)
                             {
                               const std::size_t items =
                                   at < unique_selected ? std::min(count, unique_selected - at) : 0;
                               strata_test::fill_periodic(unique_keys, at % unique_keys.size(), items, out);
                               std::fill(out + items, out + count, strata_test::poison_byte);
                             });
  }
  {
    INFO("DeviceSelect::UniqueByKey: " << by_key_selected << " of " << n << " keys, values from " << half);
    d_out.poison();
    d_num.poison();
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return strata::DeviceSelect::UniqueByKey(d_temp, bytes, strata_test::periodic_bytes(d_by_key_keys.data()),
                                                   strata_test::periodic_bytes(d_values.data()), d_out.data(),
                                                   d_out.data() + half, d_num.data(), std::int64_t(n));
        });
    strata_test::check_counts(d_num, {by_key_selected});
    // The keys from 0, the values from `half`, poison elsewhere.
    strata_test::check_large(d_out.data(), slots,
                             [&](std::size_t at, std::size_t count, std::uint8_t* out)
                             {
                               std::fill(out, out + count, strata_test::poison_byte);
                               for (const std::size_t from : {std::size_t(0), half})
                               {
                                 const std::vector<std::uint8_t>& items = from == 0 ? by_key_keys : by_key_values;
                                 const std::size_t lo                   = std::max(at, from);
                                 const std::size_t hi                   = std::min(at + count, from + by_key_selected);
                                 if (lo < hi)
                                 {
                                   strata_test::fill_periodic(items, (lo - from) % items.size(), hi - lo,
                                                              out + (lo - at));
                                 }
                               }
                             });
  }
}

// Tests of DeviceReduce::ReduceByKey (strata/device/device_reduce.cuh) and DeviceRunLengthEncode
// (strata/device/device_run_length_encode.cuh), and of their dispatch classes DispatchReduceByKey
// and DeviceRleDispatch called directly with CUB's template parameters: how the calls behave rather
// than what they compute (int keys and values). No items write a count of 0 and nothing else; the
// size query touches no device data and launches nothing (pointers that must never be
// dereferenced, inside a stream capture that must stay empty); a negative count, a null pointer
// where items are read or written, a null count output (even without items) and too little
// temporary storage give cudaErrorInvalidValue and write nothing; the second phase works inside a
// CUDA graph and on two streams at once; the dispatch classes compute what the device functions
// do (with CUB's AccumT parameter set wider than the values); and ReduceByKey, Encode and
// NonTrivialRuns over 2^31 + 2^20 + 3, 2^32 - 1 and 2^32 + 2^21 + 5 generated keys ([slow]; runs
// of 13, 5.3 GiB of GPU memory for the outputs).
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_run_length_encode.cuh>
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/device/dispatch/dispatch_rle.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/behaviour.cuh"
#include "common/test_common.cuh"
#include "device_runs_checks.cuh"
#include "device_select_checks.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace
{
using strata_test::check_rejected;
using strata_test::counting_iterator;
using strata_test::device_buffer;
using strata_test::divided_iterator;
using strata_test::equal_op;
using strata_test::query_bytes;
using strata_test::run_shape;

//! The device pointers a call may use. For Encode, `aggregates` receives the run lengths; for
//! NonTrivialRuns and DeviceRleDispatch, `unique` the offsets and `aggregates` the lengths.
struct runs_args
{
  int* keys;
  int* values;
  int* unique;
  int* aggregates;
  int* num;
};

//! Which pointers of runs_args a call uses (a bad-argument case sets each of them to null).
enum uses : unsigned
{
  USES_KEYS       = 1u << 0,
  USES_VALUES     = 1u << 1,
  USES_UNIQUE     = 1u << 2,
  USES_AGGREGATES = 1u << 3,
  USES_NUM        = 1u << 4
};

//! `args` with the pointer that `which` (one bit of uses) names set to null.
runs_args without(runs_args args, unsigned which)
{
  switch (which)
  {
  case USES_KEYS:
    args.keys = nullptr;
    break;
  case USES_VALUES:
    args.values = nullptr;
    break;
  case USES_UNIQUE:
    args.unique = nullptr;
    break;
  case USES_AGGREGATES:
    args.aggregates = nullptr;
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
  case USES_KEYS:
    return "d_keys_in (d_in)";
  case USES_VALUES:
    return "d_values_in";
  case USES_UNIQUE:
    return "d_unique_out (d_offsets_out)";
  case USES_AGGREGATES:
    return "d_aggregates_out (d_counts_out, d_lengths_out)";
  default:
    return "d_num_runs_out";
  }
}

using call_fn = std::function<cudaError_t(void*, std::size_t&, const runs_args&, std::int64_t, cudaStream_t)>;

//! One function: its name, the pointers it uses, and the call.
struct runs_call
{
  std::string name;
  unsigned uses;
  call_fn run;
};

//! CUB's DispatchReduceByKey and DeviceRleDispatch as CUB's device functions name them (int
//! offsets: CUB's DeviceRunLengthEncode counts in int).
using dispatch_reduce_by_key_t = strata::DispatchReduceByKey<const int*, int*, const int*, int*, int*,
                                                             cuda::std::equal_to<>, cuda::std::plus<>, int>;
using dispatch_rle_t           = strata::DeviceRleDispatch<const int*, int*, int*, int*, cuda::std::equal_to<>, int>;

//! Every function over int keys and values.
std::vector<runs_call> all_calls()
{
  constexpr unsigned all = USES_KEYS | USES_VALUES | USES_UNIQUE | USES_AGGREGATES | USES_NUM;
  std::vector<runs_call> calls;
  calls.push_back({"DeviceReduce::ReduceByKey", all,
                   [](void* t, std::size_t& b, const runs_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceReduce::ReduceByKey(t, b, static_cast<const int*>(a.keys), a.unique,
                                                              static_cast<const int*>(a.values), a.aggregates, a.num,
                                                              cuda::std::plus<>{}, n, s);
                   }});
  calls.push_back({"DeviceReduce::ReduceByKey with an equality operator (an int count)", all,
                   [](void* t, std::size_t& b, const runs_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceReduce::ReduceByKey(
                         t, b, static_cast<const int*>(a.keys), a.unique, static_cast<const int*>(a.values),
                         a.aggregates, a.num, strata_test::coarse_equal{}, cuda::std::plus<>{}, static_cast<int>(n), s);
                   }});
  calls.push_back({"DeviceRunLengthEncode::Encode", USES_KEYS | USES_UNIQUE | USES_AGGREGATES | USES_NUM,
                   [](void* t, std::size_t& b, const runs_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceRunLengthEncode::Encode(t, b, static_cast<const int*>(a.keys), a.unique,
                                                                  a.aggregates, a.num, n, s);
                   }});
  calls.push_back({"DeviceRunLengthEncode::NonTrivialRuns", USES_KEYS | USES_UNIQUE | USES_AGGREGATES | USES_NUM,
                   [](void* t, std::size_t& b, const runs_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceRunLengthEncode::NonTrivialRuns(t, b, static_cast<const int*>(a.keys),
                                                                          a.unique, a.aggregates, a.num, n, s);
                   }});
  calls.push_back({"DispatchReduceByKey (CUB's template list, an int offset)", all,
                   [](void* t, std::size_t& b, const runs_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return dispatch_reduce_by_key_t::Dispatch(t, b, a.keys, a.unique, a.values, a.aggregates, a.num,
                                                               cuda::std::equal_to<>{}, cuda::std::plus<>{},
                                                               static_cast<int>(n), s);
                   }});
  calls.push_back({"DeviceRleDispatch (CUB's template list, an int offset)",
                   USES_KEYS | USES_UNIQUE | USES_AGGREGATES | USES_NUM,
                   [](void* t, std::size_t& b, const runs_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return dispatch_rle_t::Dispatch(t, b, a.keys, a.unique, a.aggregates, a.num,
                                                     cuda::std::equal_to<>{}, static_cast<int>(n), s);
                   }});
  return calls;
}

//! Device buffers for every pointer of runs_args, `n` items each (four counts): keys in random
//! runs, values, poisoned outputs.
class runs_buffers
{
public:
  runs_buffers(std::size_t n, std::uint64_t seed)
      : keys_(strata_test::run_inputs<int>(n, run_shape::random, seed))
      , values_(strata_test::runs_values<int>(n, seed + 1))
      , unique_(strata_test::poisoned_buffer<int>(n))
      , aggregates_(strata_test::poisoned_buffer<int>(n))
      , num_(strata_test::poisoned_buffer<int>(4))
  {
  }

  runs_args args() const
  {
    return {keys_.data(), values_.data(), unique_.data(), aggregates_.data(), num_.data()};
  }

  //! Everything the buffers hold, in the order of runs_args.
  std::vector<std::vector<int>> state() const
  {
    return {keys_.download(), values_.download(), unique_.download(), aggregates_.download(), num_.download()};
  }

private:
  device_buffer<int> keys_;
  device_buffer<int> values_;
  device_buffer<int> unique_;
  device_buffer<int> aggregates_;
  device_buffer<int> num_;
};

} // namespace

TEST_CASE("DeviceReduce::ReduceByKey and DeviceRunLengthEncode with no items write a zero count and nothing else",
          "[device][reduce_by_key][run_length_encode]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1501);
  INFO("seed " << seed);
  for (const runs_call& call : all_calls())
  {
    INFO(call.name);
    const runs_buffers buffers(16, seed);
    const runs_args args                   = buffers.args();
    std::vector<std::vector<int>> expected = buffers.state();
    std::size_t bytes                      = query_bytes(call, args, 0);
    device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(call.run(d_temp.data(), bytes, args, 0, nullptr));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    expected.back()[0] = 0;
    CHECK(buffers.state() == expected);
  }
}

TEST_CASE("DeviceReduce::ReduceByKey and DeviceRunLengthEncode size queries touch no device data and launch nothing",
          "[device][reduce_by_key][run_length_encode]")
{
  STRATA_TEST_REQUIRE_GPU();
  const runs_args bad{reinterpret_cast<int*>(std::uintptr_t(16)), reinterpret_cast<int*>(std::uintptr_t(32)),
                      reinterpret_cast<int*>(std::uintptr_t(48)), reinterpret_cast<int*>(std::uintptr_t(64)),
                      reinterpret_cast<int*>(std::uintptr_t(80))};
  const std::vector<runs_call> calls = all_calls();
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (const runs_call& call : calls)
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

TEST_CASE("DeviceReduce::ReduceByKey and DeviceRunLengthEncode reject bad arguments with cudaErrorInvalidValue and "
          "write nothing",
          "[device][reduce_by_key][run_length_encode]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1503);
  INFO("seed " << seed);
  const std::int64_t n = 100000; // 25 tiles or more: a tile counter and tile states to carve
  for (const runs_call& call : all_calls())
  {
    INFO(call.name);
    const runs_buffers buffers(std::size_t(n), seed);
    const runs_args args    = buffers.args();
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
      INFO("a null d_num_runs_out without items");
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

TEST_CASE("DeviceReduce::ReduceByKey and DeviceRunLengthEncode::Encode run inside a CUDA graph and on two streams "
          "at once",
          "[device][reduce_by_key][run_length_encode]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1505);
  INFO("seed " << seed);
  const std::size_t n                    = 3000017;
  const std::vector<int> a               = strata_test::run_inputs<int>(n, run_shape::random, seed);
  const std::vector<int> va              = strata_test::runs_values<int>(n, seed + 1);
  const std::vector<int> b               = strata_test::run_inputs<int>(n, run_shape::long_random, seed + 2);
  const auto reduced_a                   = strata_test::reference_reduce_by_key(a, va, equal_op{}, cuda::std::plus<>{});
  const std::vector<std::size_t> heads_b = strata_test::run_heads(b, equal_op{});
  const std::vector<int> unique_b        = strata_test::gather(b, heads_b);
  const std::vector<int> lengths_b       = strata_test::run_lengths<int>(heads_b, n);
  device_buffer<int> d_a(a);
  device_buffer<int> d_va(va);
  device_buffer<int> d_b(b);
  device_buffer<int> d_unique_a(n + strata_test::select_slack);
  device_buffer<int> d_aggregates_a(n + strata_test::select_slack);
  device_buffer<int> d_unique_b(n + strata_test::select_slack);
  device_buffer<int> d_lengths_b(n + strata_test::select_slack);
  device_buffer<int> d_num_a(2);
  device_buffer<int> d_num_b(2);
  const auto reduce_a = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceReduce::ReduceByKey(d_temp, bytes, static_cast<const int*>(d_a.data()), d_unique_a.data(),
                                             static_cast<const int*>(d_va.data()), d_aggregates_a.data(),
                                             d_num_a.data(), cuda::std::plus<>{}, std::int64_t(n), stream);
  };
  const auto encode_b = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceRunLengthEncode::Encode(d_temp, bytes, static_cast<const int*>(d_b.data()), d_unique_b.data(),
                                                 d_lengths_b.data(), d_num_b.data(), std::int64_t(n), stream);
  };
  std::size_t bytes_a = 0;
  std::size_t bytes_b = 0;
  STRATA_TEST_CUDA(reduce_a(nullptr, bytes_a, nullptr));
  STRATA_TEST_CUDA(encode_b(nullptr, bytes_b, nullptr));
  device_buffer<unsigned char> d_temp_a(bytes_a);
  device_buffer<unsigned char> d_temp_b(bytes_b);
  const auto poison_a = [&]
  {
    d_unique_a.poison();
    d_aggregates_a.poison();
    d_num_a.poison();
  };
  const auto poison_b = [&]
  {
    d_unique_b.poison();
    d_lengths_b.poison();
    d_num_b.poison();
  };
  const auto check_a = [&]
  {
    strata_test::check_counts(d_num_a, {reduced_a.keys.size()});
    strata_test::check_selected(reduced_a.keys, d_unique_a.download());
    strata_test::check_selected(reduced_a.aggregates, d_aggregates_a.download());
  };
  const auto check_b = [&]
  {
    strata_test::check_counts(d_num_b, {unique_b.size()});
    strata_test::check_selected(unique_b, d_unique_b.download());
    strata_test::check_selected(lengths_b, d_lengths_b.download());
  };
  const strata_test::stream_pair streams;

  SECTION("DeviceReduce::ReduceByKey in a graph")
  {
    strata_test::check_graph_replay(
        streams[0], [&](cudaStream_t stream) { return reduce_a(d_temp_a.data(), bytes_a, stream); }, poison_a, check_a);
  }
  SECTION("DeviceRunLengthEncode::Encode in a graph")
  {
    strata_test::check_graph_replay(
        streams[1], [&](cudaStream_t stream) { return encode_b(d_temp_b.data(), bytes_b, stream); }, poison_b, check_b);
  }
  SECTION("two streams")
  {
    poison_a();
    poison_b();
    strata_test::run_on_two_streams(
        streams, [&](cudaStream_t stream) { return reduce_a(d_temp_a.data(), bytes_a, stream); },
        [&](cudaStream_t stream) { return encode_b(d_temp_b.data(), bytes_b, stream); });
    check_a();
    check_b();
  }
}

TEST_CASE("DispatchReduceByKey and DeviceRleDispatch called with CUB's template parameters compute the runs",
          "[device][reduce_by_key][run_length_encode]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1507);
  INFO("seed " << seed);
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(100003)})
  {
    INFO("num_items " << n);
    const std::vector<int> keys   = strata_test::run_inputs<int>(n, run_shape::random, seed + n);
    const std::vector<int> values = strata_test::random_vector<int>(n, seed + 2 * n); // whole range: sums overflow int
    const std::vector<std::size_t> heads = strata_test::run_heads(keys, equal_op{});
    device_buffer<int> d_keys(keys);
    device_buffer<int> d_values(values);
    device_buffer<int> d_unique(n + strata_test::select_slack);
    device_buffer<int> d_lengths(n + strata_test::select_slack);
    device_buffer<long long> d_aggregates(n + strata_test::select_slack);
    device_buffer<int> d_num(2);
    {
      INFO("DispatchReduceByKey with AccumT long long (CUB's ninth parameter) over int values");
      using dispatch_t = strata::DispatchReduceByKey<const int*, int*, const int*, long long*, int*,
                                                     cuda::std::equal_to<>, cuda::std::plus<>, int, long long>;
      std::vector<long long> wide(values.begin(), values.end());
      const auto expected = strata_test::reference_reduce_by_key(keys, wide, equal_op{}, cuda::std::plus<>{});
      d_unique.poison();
      d_aggregates.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return dispatch_t::Dispatch(d_temp, bytes, d_keys.data(), d_unique.data(), d_values.data(),
                                        d_aggregates.data(), d_num.data(), cuda::std::equal_to<>{}, cuda::std::plus<>{},
                                        int(n), cudaStream_t{});
          });
      strata_test::check_counts(d_num, {heads.size()});
      strata_test::check_selected(expected.keys, d_unique.download());
      strata_test::check_selected(expected.aggregates, d_aggregates.download());
    }
    {
      INFO("DeviceRleDispatch");
      const auto expected = strata_test::reference_non_trivial_runs<int, int>(heads, n);
      d_unique.poison();
      d_lengths.poison();
      d_num.poison();
      strata_test::run_two_phase(
          [&](void* d_temp, std::size_t& bytes)
          {
            return dispatch_rle_t::Dispatch(d_temp, bytes, d_keys.data(), d_unique.data(), d_lengths.data(),
                                            d_num.data(), cuda::std::equal_to<>{}, int(n), cudaStream_t{});
          });
      strata_test::check_counts(d_num, {expected.offsets.size()});
      strata_test::check_selected(expected.offsets, d_unique.download());
      strata_test::check_selected(expected.lengths, d_lengths.download());
    }
  }
}

TEST_CASE("DeviceReduce::ReduceByKey and DeviceRunLengthEncode over more than 2^31 and 2^32 items",
          "[device][reduce_by_key][run_length_encode][slow]")
{
  // Keys i / 13 and values i from iterators: no input memory. Run r is key r (offset 13 r) with
  // the sum of its positions, which a position truncated to 32 bits would change. 2^31 + 2^20 + 3
  // items count in 32 bits (more than an int holds), and so do 2^32 - 1 (the most they hold: the
  // last tile ends at 2^32 - 1); 2^32 + 2^21 + 5 count in 64.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^31 items under compute-sanitizer would take hours; the sizes below 2^21 run there");
    return;
  }
  constexpr std::int64_t length = 13;
  const divided_iterator d_keys(counting_iterator(0), strata_test::divide_by{length});
  for (const std::int64_t n : {(std::int64_t(1) << 31) + (std::int64_t(1) << 20) + 3, (std::int64_t(1) << 32) - 1,
                               (std::int64_t(1) << 32) + (std::int64_t(1) << 21) + 5})
  {
    INFO("num_items " << n);
    const std::int64_t runs       = (n + length - 1) / length;
    const std::size_t slots       = std::size_t(runs) + strata_test::select_slack;
    const auto run_length         = [&](std::int64_t r) { return std::min(n, (r + 1) * length) - r * length; };
    std::size_t reduce_bytes      = 0;
    std::size_t encode_bytes      = 0;
    std::size_t non_trivial_bytes = 0;
    STRATA_TEST_CUDA(strata::DeviceReduce::ReduceByKey(
        nullptr, reduce_bytes, d_keys, static_cast<std::int64_t*>(nullptr), counting_iterator(0),
        static_cast<std::int64_t*>(nullptr), static_cast<std::int64_t*>(nullptr), cuda::std::plus<>{}, n));
    STRATA_TEST_CUDA(strata::DeviceRunLengthEncode::Encode(
        nullptr, encode_bytes, d_keys, static_cast<std::int64_t*>(nullptr), static_cast<std::int64_t*>(nullptr),
        static_cast<std::int64_t*>(nullptr), n));
    STRATA_TEST_CUDA(strata::DeviceRunLengthEncode::NonTrivialRuns(
        nullptr, non_trivial_bytes, d_keys, static_cast<std::int64_t*>(nullptr), static_cast<std::int64_t*>(nullptr),
        static_cast<std::int64_t*>(nullptr), n));
    const std::size_t bytes = std::max({reduce_bytes, encode_bytes, non_trivial_bytes});
    std::size_t free_bytes  = 0;
    std::size_t total_bytes = 0;
    STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t needed = 2 * slots * sizeof(std::int64_t) + bytes + (std::size_t(256) << 20);
    if (free_bytes < needed)
    {
      SKIP("the runs of " << n << " items need " << needed / (1 << 20) << " MiB of GPU memory; "
                          << free_bytes / (1 << 20) << " MiB are free");
    }
    device_buffer<std::int64_t> d_first(slots);
    device_buffer<std::int64_t> d_second(slots);
    device_buffer<std::int64_t> d_num(2);
    device_buffer<unsigned char> d_temp(bytes);

    // Counts the items of d_first and d_second that differ from first(r) and second(r) for the
    // `count` runs, or that lost their poison past them.
    const auto count_mismatches = [&](std::int64_t count, auto first, auto second)
    {
      const std::vector<std::int64_t> out_first  = d_first.download();
      const std::vector<std::int64_t> out_second = d_second.download();
      const std::int64_t poison                  = strata_test::poison_value<std::int64_t>();
      std::size_t wrong                          = 0;
      for (std::size_t i = 0; i < slots; ++i)
      {
        const std::int64_t r = std::int64_t(i);
        wrong += r < count ? (out_first[i] != first(r)) + (out_second[i] != second(r))
                           : (out_first[i] != poison) + (out_second[i] != poison);
      }
      return wrong;
    };
    const auto poison_outputs = [&]
    {
      d_first.poison();
      d_second.poison();
      d_num.poison();
    };
    {
      INFO("DeviceReduce::ReduceByKey: the keys and the sums of the positions");
      poison_outputs();
      std::size_t run_bytes = reduce_bytes;
      STRATA_TEST_CUDA(strata::DeviceReduce::ReduceByKey(d_temp.data(), run_bytes, d_keys, d_first.data(),
                                                         counting_iterator(0), d_second.data(), d_num.data(),
                                                         cuda::std::plus<>{}, n));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_counts(d_num, {std::size_t(runs)});
      CHECK(count_mismatches(
                runs, [](std::int64_t r) { return r; },
                [&](std::int64_t r) { return strata_test::sum_of_range(r * length, r * length + run_length(r)); })
            == 0);
    }
    {
      INFO("DeviceRunLengthEncode::Encode: the keys and the run lengths");
      poison_outputs();
      std::size_t run_bytes = encode_bytes;
      STRATA_TEST_CUDA(strata::DeviceRunLengthEncode::Encode(d_temp.data(), run_bytes, d_keys, d_first.data(),
                                                             d_second.data(), d_num.data(), n));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_counts(d_num, {std::size_t(runs)});
      CHECK(count_mismatches(
                runs, [](std::int64_t r) { return r; }, run_length)
            == 0);
    }
    {
      // Every run but perhaps the last has 13 items.
      INFO("DeviceRunLengthEncode::NonTrivialRuns: the offsets and the run lengths");
      const std::int64_t non_trivial = run_length(runs - 1) > 1 ? runs : runs - 1;
      poison_outputs();
      std::size_t run_bytes = non_trivial_bytes;
      STRATA_TEST_CUDA(strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp.data(), run_bytes, d_keys, d_first.data(),
                                                                     d_second.data(), d_num.data(), n));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      strata_test::check_counts(d_num, {std::size_t(non_trivial)});
      CHECK(count_mismatches(
                non_trivial, [](std::int64_t r) { return r * length; }, run_length)
            == 0);
    }
  }
}

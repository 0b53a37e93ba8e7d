// Tests of strata/device/device_segmented_reduce.cuh and of its dispatch class DispatchSegmentedReduce
// called directly with CUB's template parameters: how the calls behave rather than what they compute
// (int items, int offsets), for every function (Reduce, Sum, Min, Max, ArgMin, ArgMax) and the
// dispatch class. The size query touches no device data and launches nothing (pointers that must
// never be dereferenced, null ones too, inside a stream capture that must stay empty); a negative
// segment count (both phases; CUB returns success there), a null input, output, begin or end
// offsets on the second call with segments, and one byte too little temporary storage give
// cudaErrorInvalidValue and write nothing; no segments write nothing, null pointers or not;
// temporary storage at an odd address works; the second phase works inside a CUDA graph and on two
// streams at once; DispatchSegmentedReduce computes with CUB's defaults, with an AccumT wider than
// the items, and with a user's policy hub of small chunks (many chunk borders in every segment);
// Sum and ArgMax over more than 2^31 and 2^32 input items from an iterator, with int64 and uint32
// offsets ([slow]); and Reduce, Min, Max, ArgMin (int64 keys) and ArgMax over 2^32 + 2^21 + 5 int8
// items in device memory (16-byte vector loads), with int64 and uint32 offsets ([slow]; 4 GiB).
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/device/dispatch/dispatch_segmented_reduce.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/behaviour.cuh"
#include "common/test_common.cuh"
#include "device_segmented_reduce_checks.cuh"

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/limits>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace
{
using strata_test::check_rejected;
using strata_test::device_buffer;
using strata_test::device_segments;
using strata_test::query_bytes;
using strata_test::segment_layout;

using pair_t = strata::KeyValuePair<int, int>;

//! The device pointers a call uses; `out` points to int or, for ArgMin and ArgMax, pair_t outputs.
struct segment_args
{
  const int* in;
  void* out;
  const int* begin;
  const int* end;
};

//! Which pointer of segment_args `which` (0 to 3) names.
const char* pointer_name(int which)
{
  constexpr const char* names[] = {"d_in", "d_out", "d_begin_offsets", "d_end_offsets"};
  return names[which];
}

segment_args without(segment_args args, int which)
{
  switch (which)
  {
  case 0:
    args.in = nullptr;
    break;
  case 1:
    args.out = nullptr;
    break;
  case 2:
    args.begin = nullptr;
    break;
  default:
    args.end = nullptr;
    break;
  }
  return args;
}

//! Bitwise xor, Reduce's operator here.
struct bit_xor
{
  __host__ __device__ int operator()(int a, int b) const
  {
    return a ^ b;
  }
};

//! The sum of two ints as the device adds them: wrapping.
struct wrapping_plus
{
  int operator()(int a, int b) const
  {
    return int(unsigned(a) + unsigned(b));
  }
};

//! CUB's DispatchSegmentedReduce as CUB's DeviceSegmentedReduce::Sum names it for int items and
//! offsets (InitT, AccumT and the policy hub from CUB's defaults).
using dispatch_sum_t =
    strata::DispatchSegmentedReduce<const int*, int*, const int*, const int*, int, cuda::std::plus<>>;

using call_fn = std::function<cudaError_t(void*, std::size_t&, const segment_args&, std::int64_t, cudaStream_t)>;

//! One function: its name and the call.
struct segment_call
{
  std::string name;
  call_fn run;
};

//! Every function, and the dispatch class, over int items and int offsets.
std::vector<segment_call> all_calls()
{
  std::vector<segment_call> calls;
  calls.push_back({"DeviceSegmentedReduce::Reduce",
                   [](void* t, std::size_t& b, const segment_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return strata::DeviceSegmentedReduce::Reduce(t, b, a.in, static_cast<int*>(a.out), n, a.begin,
                                                                  a.end, bit_xor{}, 0x5A5A5A5A, s);
                   }});
  calls.push_back(
      {"DeviceSegmentedReduce::Sum", [](void* t, std::size_t& b, const segment_args& a, std::int64_t n, cudaStream_t s)
       { return strata::DeviceSegmentedReduce::Sum(t, b, a.in, static_cast<int*>(a.out), n, a.begin, a.end, s); }});
  calls.push_back(
      {"DeviceSegmentedReduce::Min", [](void* t, std::size_t& b, const segment_args& a, std::int64_t n, cudaStream_t s)
       { return strata::DeviceSegmentedReduce::Min(t, b, a.in, static_cast<int*>(a.out), n, a.begin, a.end, s); }});
  calls.push_back(
      {"DeviceSegmentedReduce::Max", [](void* t, std::size_t& b, const segment_args& a, std::int64_t n, cudaStream_t s)
       { return strata::DeviceSegmentedReduce::Max(t, b, a.in, static_cast<int*>(a.out), n, a.begin, a.end, s); }});
  calls.push_back({"DeviceSegmentedReduce::ArgMin",
                   [](void* t, std::size_t& b, const segment_args& a, std::int64_t n, cudaStream_t s) {
                     return strata::DeviceSegmentedReduce::ArgMin(t, b, a.in, static_cast<pair_t*>(a.out), n, a.begin,
                                                                  a.end, s);
                   }});
  calls.push_back({"DeviceSegmentedReduce::ArgMax",
                   [](void* t, std::size_t& b, const segment_args& a, std::int64_t n, cudaStream_t s) {
                     return strata::DeviceSegmentedReduce::ArgMax(t, b, a.in, static_cast<pair_t*>(a.out), n, a.begin,
                                                                  a.end, s);
                   }});
  calls.push_back({"DispatchSegmentedReduce (CUB's template list of Sum)",
                   [](void* t, std::size_t& b, const segment_args& a, std::int64_t n, cudaStream_t s)
                   {
                     return dispatch_sum_t::Dispatch(t, b, a.in, static_cast<int*>(a.out), n, a.begin, a.end,
                                                     cuda::std::plus<>{}, 0, s);
                   }});
  return calls;
}

//! Scattered segments of a few thousand items (separate begin and end offsets, gaps, overlaps and
//! reversed ones), at most `items` of input.
segment_layout scattered_layout(std::size_t segments, std::int64_t items, std::uint64_t seed)
{
  segment_layout layout{"scattered segments", {}, {}, false};
  std::mt19937_64 engine(seed);
  for (std::size_t s = 0; s < segments; ++s)
  {
    const std::int64_t begin  = strata_test::uniform_length(engine, 0, items - 1);
    const std::int64_t length = strata_test::uniform_length(engine, 0, 3000);
    layout.begin.push_back(begin);
    layout.end.push_back(s % 20 == 7 ? begin - length : std::min(items, begin + length));
  }
  return layout;
}

//! Device buffers for every pointer of segment_args: random items, the begin and end offsets of a
//! scattered layout, and outputs for its segments and one more (pairs), poisoned.
class segment_buffers
{
public:
  segment_buffers(std::size_t segments, std::uint64_t seed)
      : layout_(scattered_layout(segments, 100000, seed))
      , in_(strata_test::random_vector<int>(100000, seed + 1))
      , begin_(std::vector<int>(layout_.begin.begin(), layout_.begin.end()))
      , end_(std::vector<int>(layout_.end.begin(), layout_.end.end()))
      , out_((segments + 1) * sizeof(pair_t))
  {
    out_.poison();
  }

  segment_args args() const
  {
    return {in_.data(), out_.data(), begin_.data(), end_.data()};
  }
  std::int64_t segments() const
  {
    return layout_.segments();
  }

  //! Everything the buffers hold, as bytes, in the order of segment_args.
  std::vector<std::vector<unsigned char>> state() const
  {
    return {bytes_of(in_), out_.download(), bytes_of(begin_), bytes_of(end_)};
  }

private:
  static std::vector<unsigned char> bytes_of(const device_buffer<int>& buffer)
  {
    const std::vector<int> items = buffer.download();
    std::vector<unsigned char> bytes(items.size() * sizeof(int));
    std::memcpy(bytes.data(), items.data(), bytes.size());
    return bytes;
  }

  segment_layout layout_;
  device_buffer<int> in_;
  device_buffer<int> begin_;
  device_buffer<int> end_;
  device_buffer<unsigned char> out_;
};

//! A policy hub of DeviceSegmentedReduce's shape (a hub of CUB's, holding AgentReducePolicy ones,
//! does not fit strata's chunked reduction) with small chunks: 64 threads, 2 chunks a warp, chunks of at
//! least 64 units, a segment costing 8 more, parts of up to 32 items in one lane, 2 loads a lane.
struct small_chunk_hub
{
  struct Policy500 : strata::ChainedPolicy<500, Policy500, Policy500>
  {
    using SegmentedReducePolicy = strata::detail::segmented_reduce::AgentSegmentedReducePolicy<64, 2, 64, 8, 32, 2, 1>;
  };
  using MaxPolicy = Policy500;
};

//! Positions as items, i % 1009, from an iterator: no input memory.
struct mod_1009
{
  __host__ __device__ std::int64_t operator()(std::int64_t i) const
  {
    return i % 1009;
  }
};
using position_iterator =
    strata::TransformInputIterator<std::int64_t, mod_1009, strata::CountingInputIterator<std::int64_t>>;

//! The sum of i % 1009 for i in [0, x).
std::int64_t mod_prefix(std::int64_t x)
{
  const std::int64_t rest = x % 1009;
  return x / 1009 * (1008 * 1009 / 2) + rest * (rest - 1) / 2;
}
} // namespace

TEST_CASE("DeviceSegmentedReduce size queries touch no device data and launch nothing", "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const segment_args bad{reinterpret_cast<const int*>(std::uintptr_t(16)), reinterpret_cast<void*>(std::uintptr_t(32)),
                         reinterpret_cast<const int*>(std::uintptr_t(48)),
                         reinterpret_cast<const int*>(std::uintptr_t(64))};
  const segment_args null{nullptr, nullptr, nullptr, nullptr};
  const std::vector<segment_call> calls = all_calls();
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (const segment_call& call : calls)
        {
          for (const segment_args& args : {bad, null})
          {
            for (const std::int64_t n :
                 {std::int64_t(0), std::int64_t(10), std::int64_t(1) << 24, (std::int64_t(1) << 31) + 5})
            {
              INFO(call.name << ", num_segments " << n << (args.in == nullptr ? ", null pointers" : ""));
              std::size_t bytes = 0;
              CHECK(call.run(nullptr, bytes, args, n, stream) == cudaSuccess);
              CHECK(bytes >= 1);
            }
          }
        }
      });
}

TEST_CASE("DeviceSegmentedReduce rejects bad arguments with cudaErrorInvalidValue and writes nothing",
          "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1301);
  INFO("seed " << seed);
  for (const segment_call& call : all_calls())
  {
    INFO(call.name);
    const segment_buffers buffers(3000, seed);
    const segment_args args = buffers.args();
    const std::int64_t n    = buffers.segments();
    const std::size_t bytes = query_bytes(call, args, n);
    device_buffer<unsigned char> d_temp(bytes);
    {
      INFO("a negative segment count (CUB returns success: nothing to do)");
      for (const std::int64_t negative :
           {std::int64_t(-1), std::int64_t(-5), cuda::std::numeric_limits<std::int64_t>::min()})
      {
        INFO("num_segments " << negative);
        std::size_t query = 0;
        check_rejected(buffers, [&] { return call.run(nullptr, query, args, negative, nullptr); });
        std::size_t run_bytes = bytes;
        check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, args, negative, nullptr); });
      }
    }
    for (int which = 0; which < 4; ++which)
    {
      INFO("a null " << pointer_name(which) << " with segments");
      std::size_t run_bytes = bytes;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, without(args, which), n, nullptr); });
    }
    {
      INFO("too little temporary storage");
      std::size_t too_few = bytes - 1;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), too_few, args, n, nullptr); });
    }
  }
}

TEST_CASE("DeviceSegmentedReduce with no segments writes nothing", "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1303);
  INFO("seed " << seed);
  for (const segment_call& call : all_calls())
  {
    INFO(call.name);
    const segment_buffers buffers(100, seed);
    for (const segment_args& args : {buffers.args(), segment_args{nullptr, nullptr, nullptr, nullptr}})
    {
      INFO((args.in == nullptr ? "null pointers" : "valid pointers"));
      const std::vector<std::vector<unsigned char>> before = buffers.state();
      std::size_t bytes                                    = query_bytes(call, args, 0);
      device_buffer<unsigned char> d_temp(bytes);
      CHECK(call.run(d_temp.data(), bytes, args, 0, nullptr) == cudaSuccess);
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      CHECK(buffers.state() == before);
    }
  }
}

TEST_CASE("DeviceSegmentedReduce takes temporary storage at an odd address", "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1305);
  INFO("seed " << seed);
  const segment_layout layout = scattered_layout(5000, 100000, seed);
  const std::vector<int> in   = strata_test::random_vector<int>(100000, seed + 1);
  const device_buffer<int> d_in(in);
  const int* const in_ptr = d_in.data();
  const device_segments<int> d_segments(layout);
  const std::int64_t n = layout.segments();
  const auto odd       = [](auto call)
  {
    return [call](void* d_temp, std::size_t& bytes, auto* d_out)
    {
      if (d_temp == nullptr)
      {
        const cudaError_t error = call(nullptr, bytes, d_out);
        ++bytes; // room for the shift below
        return error;
      }
      std::size_t shifted = bytes - 1;
      return call(static_cast<unsigned char*>(d_temp) + 1, shifted, d_out);
    };
  };
  const auto sum = [&](void* d_temp, std::size_t& bytes, int* d_out)
  { return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end()); };
  const auto arg_max = [&](void* d_temp, std::size_t& bytes, pair_t* d_out)
  {
    return strata::DeviceSegmentedReduce::ArgMax(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end());
  };
  {
    INFO("Sum");
    strata_test::check_equal(strata_test::reference_reduce(in, layout, 0, wrapping_plus{}),
                             strata_test::run_segmented<int>(n, odd(sum)));
  }
  INFO("ArgMax");
  strata_test::check_pairs(strata_test::arg_reference<int>(in, layout, false),
                           strata_test::run_segmented<pair_t>(n, odd(arg_max)));
}

TEST_CASE("DeviceSegmentedReduce runs inside a CUDA graph and on two streams at once", "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1307);
  INFO("seed " << seed);
  constexpr std::int64_t items  = 1 << 20;
  const segment_layout layout_a = scattered_layout(20000, items, seed);
  const segment_layout layout_b = strata_test::contiguous_layout(
      "power-law lengths", strata_test::random_lengths(5000, seed + 1,
                                                       [](std::mt19937_64& e)
                                                       {
                                                         const double u = double((e() >> 11) + 1) / double(1ull << 53);
                                                         return std::int64_t(std::min(2000.0, 1.0 / (u * u)));
                                                       }));
  const std::vector<int> in = strata_test::random_vector<int>(std::max(std::size_t(items), layout_b.items()), seed + 2);
  const device_buffer<int> d_in(in);
  const int* const in_ptr = d_in.data();
  const device_segments<int> segments_a(layout_a);
  const device_segments<int> segments_b(layout_b);
  const std::int64_t n_a = layout_a.segments();
  const std::int64_t n_b = layout_b.segments();
  device_buffer<int> d_out_a(std::size_t(n_a) + 1);
  device_buffer<pair_t> d_out_b(std::size_t(n_b) + 1);
  const std::vector<int> sums = strata_test::reference_reduce(in, layout_a, 0, wrapping_plus{});
  const strata_test::arg_reference<int> arg_max(in, layout_b, false);
  const auto sum_a = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, in_ptr, d_out_a.data(), n_a, segments_a.begin(),
                                              segments_a.end(), stream);
  };
  const auto arg_max_b = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceSegmentedReduce::ArgMax(d_temp, bytes, in_ptr, d_out_b.data(), n_b, segments_b.begin(),
                                                 segments_b.end(), stream);
  };
  std::size_t bytes_a = 0;
  std::size_t bytes_b = 0;
  STRATA_TEST_CUDA(sum_a(nullptr, bytes_a, nullptr));
  STRATA_TEST_CUDA(arg_max_b(nullptr, bytes_b, nullptr));
  device_buffer<unsigned char> d_temp_a(bytes_a);
  device_buffer<unsigned char> d_temp_b(bytes_b);
  const auto check_a = [&]
  {
    std::vector<int> out = d_out_a.download();
    CHECK(strata_test::is_poison(out.back()));
    out.pop_back();
    strata_test::check_equal(sums, out);
  };
  const auto check_b = [&]
  {
    std::vector<pair_t> out = d_out_b.download();
    CHECK(strata_test::is_poison(out.back()));
    out.pop_back();
    strata_test::check_pairs(arg_max, out);
  };
  const strata_test::stream_pair streams;

  SECTION("Sum in a graph")
  {
    strata_test::check_graph_replay(
        streams[0], [&](cudaStream_t stream) { return sum_a(d_temp_a.data(), bytes_a, stream); },
        [&] { d_out_a.poison(); }, check_a);
  }
  SECTION("ArgMax in a graph")
  {
    strata_test::check_graph_replay(
        streams[1], [&](cudaStream_t stream) { return arg_max_b(d_temp_b.data(), bytes_b, stream); },
        [&] { d_out_b.poison(); }, check_b);
  }
  SECTION("two streams")
  {
    d_out_a.poison();
    d_out_b.poison();
    strata_test::run_on_two_streams(
        streams, [&](cudaStream_t stream) { return sum_a(d_temp_a.data(), bytes_a, stream); },
        [&](cudaStream_t stream) { return arg_max_b(d_temp_b.data(), bytes_b, stream); });
    check_a();
    check_b();
  }
}

TEST_CASE("DispatchSegmentedReduce called with CUB's template parameters computes the reductions",
          "[device][segmented_reduce]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1309);
  INFO("seed " << seed);
  const std::vector<segment_layout> layouts = strata_test::segment_shapes(seed);
  const std::vector<int> in                 = strata_test::random_vector<int>(strata_test::items_of(layouts), seed + 1);
  const device_buffer<int> d_in(in);
  const int* const in_ptr = d_in.data();
  for (const segment_layout& layout : layouts)
  {
    const std::int64_t n = layout.segments();
    INFO(layout.name << ": " << n << " segments");
    const device_segments<int> d_segments(layout);
    {
      INFO("CUB's defaults: InitT and AccumT int (the output's value type and the sum of int)");
      const std::vector<int> out = strata_test::run_segmented<int>(
          n,
          [&](void* d_temp, std::size_t& bytes, int* d_out)
          {
            return dispatch_sum_t::Dispatch(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end(),
                                            cuda::std::plus<>{}, 0, cudaStream_t{});
          });
      strata_test::check_equal(strata_test::reference_reduce(in, layout, 0, wrapping_plus{}), out);
    }
    {
      INFO("InitT and AccumT long long over int items: sums wider than an int, from 7");
      using dispatch_t = strata::DispatchSegmentedReduce<const int*, long long*, const int*, const int*, int,
                                                         cuda::std::plus<>, long long, long long>;
      const std::vector<long long> out = strata_test::run_segmented<long long>(
          n,
          [&](void* d_temp, std::size_t& bytes, long long* d_out)
          {
            return dispatch_t::Dispatch(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end(),
                                        cuda::std::plus<>{}, 7LL, cudaStream_t{});
          });
      strata_test::check_equal(
          strata_test::reference_reduce(in, layout, 7LL, [](long long acc, int x) { return acc + x; }), out);
    }
    INFO("a user's policy hub of small chunks (AccumT and the hub spelled out), xor from 0x5A5A5A5A");
    using dispatch_t = strata::DispatchSegmentedReduce<const int*, int*, const int*, const int*, int, bit_xor, int, int,
                                                       small_chunk_hub>;
    const std::vector<int> out = strata_test::run_segmented<int>(
        n,
        [&](void* d_temp, std::size_t& bytes, int* d_out)
        {
          return dispatch_t::Dispatch(d_temp, bytes, in_ptr, d_out, n, d_segments.begin(), d_segments.end(), bit_xor{},
                                      0x5A5A5A5A, cudaStream_t{});
        });
    strata_test::check_equal(strata_test::reference_reduce(in, layout, 0x5A5A5A5A, bit_xor{}), out);
  }
}

TEST_CASE("DeviceSegmentedReduce::Sum and ArgMax over more than 2^31 and 2^32 items",
          "[device][segmented_reduce][slow]")
{
  // Items i % 1009 for positions i from an iterator: no input memory. A segment of more than 2^31
  // items, segments across 2^31 and 2^32 and beyond 2^32, an empty one there, with int64 offsets
  // (inputs of 2^32 + 2^21 + 5 items); segments up to 2^32 - 1 with uint32 offsets. ArgMax (its
  // positions are ints, as CUB's) runs on the segments of fewer than 2^31 items: its answer, the
  // first position holding 1008, shows where a segment begins.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^32 items under compute-sanitizer would take hours; the type tests' segments run there");
    return;
  }
  const position_iterator d_in(strata::CountingInputIterator<std::int64_t>(0), mod_1009{});
  constexpr std::int64_t two31 = std::int64_t(1) << 31;
  constexpr std::int64_t two32 = std::int64_t(1) << 32;
  const auto check             = [&](const segment_layout& layout, auto offset, bool arg_max)
  {
    using OffsetT        = decltype(offset);
    const std::int64_t n = layout.segments();
    const device_segments<OffsetT> d_segments(layout);
    {
      INFO("Sum into int64");
      const std::vector<std::int64_t> out = strata_test::run_segmented<std::int64_t>(
          n,
          [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out) {
            return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, d_in, d_out, n, d_segments.begin(),
                                                      d_segments.end());
          });
      std::vector<std::int64_t> expected;
      for (std::size_t s = 0; s < layout.begin.size(); ++s)
      {
        const std::int64_t b = layout.begin[s];
        const std::int64_t e = layout.end[s];
        expected.push_back(e > b ? mod_prefix(e) - mod_prefix(b) : 0);
      }
      strata_test::check_equal(expected, out);
    }
    if (arg_max)
    {
      INFO("ArgMax");
      using PairT = strata::KeyValuePair<int, std::int64_t>;
      const std::vector<PairT> out =
          strata_test::run_segmented<PairT>(n,
                                            [&](void* d_temp, std::size_t& bytes, PairT* d_out) {
                                              return strata::DeviceSegmentedReduce::ArgMax(
                                                  d_temp, bytes, d_in, d_out, n, d_segments.begin(), d_segments.end());
                                            });
      std::vector<int> keys;
      std::vector<int> expected_keys;
      std::vector<std::int64_t> values;
      std::vector<std::int64_t> expected_values;
      for (std::size_t s = 0; s < layout.begin.size(); ++s)
      {
        const std::int64_t b = layout.begin[s];
        const std::int64_t e = layout.end[s];
        keys.push_back(out[s].key);
        values.push_back(out[s].value);
        if (e <= b)
        {
          expected_keys.push_back(1);
          expected_values.push_back(cuda::std::numeric_limits<std::int64_t>::lowest());
          continue;
        }
        // The first position holding 1008; a segment too short to reach one rises to its last item.
        const std::int64_t first = (1008 - b % 1009 + 1009) % 1009;
        const std::int64_t key   = first < e - b ? first : e - b - 1;
        expected_keys.push_back(int(key));
        expected_values.push_back((b + key) % 1009);
      }
      strata_test::check_equal(expected_keys, keys);
      strata_test::check_equal(expected_values, values);
    }
  };
  {
    INFO("int64 offsets, a segment of 2^31 + 2^20 + 3 items");
    segment_layout layout{"", {0}, {two31 + (1 << 20) + 3}, false};
    check(layout, std::int64_t{}, false);
  }
  {
    INFO("int64 offsets, segments across 2^31 and 2^32 and beyond");
    const segment_layout layout{
        "",
        {two31 - 1000, two32 - 5000, two32 + 17, two32, 3 * (two31 / 2), two32 + 1000},
        {two31 + 1000, two32 + (1 << 21) + 5, two32 + 17 + 900, two32, two32 + (1 << 21) + 5, two32 + 1500},
        false};
    check(layout, std::int64_t{}, true);
  }
  INFO("uint32 offsets up to 2^32 - 1");
  const segment_layout layout{"",
                              {two31 - 1000, two32 - 5000, two32 - 1000, 3 * (two31 / 2)},
                              {two32 - 1, two32 - 1, two32 - 1 - 600, two32 - 1},
                              false};
  check(layout, std::uint32_t{}, false);
  const segment_layout short_ones{
      "", {two31 + 5, two32 - 5000, two32 - 700}, {two31 + 800, two32 - 1, two32 - 1}, false};
  check(short_ones, std::uint32_t{}, true);
}

namespace
{
//! The period of the device-memory input of the large case below (a prime: positions 2^31 or
//! 2^32 apart hold different items).
constexpr std::uint64_t int8_period = 65521;

//! out[i] = table[i % int8_period] for i in [0, n).
__global__ void fill_periodic(std::int8_t* out, std::uint64_t n, const std::int8_t* table)
{
  const std::uint64_t threads = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += threads)
  {
    out[i] = table[i % int8_period];
  }
}

//! The input of that case on the host side: a periodic table of items in [-100, 100] with a few
//! items replaced by extremes no table item has (`planted`).
struct planted_input
{
  std::vector<std::int8_t> table;
  std::map<std::int64_t, std::int8_t> planted;
  std::vector<std::int64_t> prefix; // prefix[r]: the sum of table[0, r)
  std::int64_t period_sum;

  std::int8_t at(std::int64_t i) const
  {
    const auto p = planted.find(i);
    return p != planted.end() ? p->second : table[std::size_t(std::uint64_t(i) % int8_period)];
  }
  //! The sum of the items [0, x).
  std::int64_t sum_to(std::int64_t x) const
  {
    const auto period = std::int64_t(int8_period);
    std::int64_t sum  = x / period * period_sum + prefix[std::size_t(x % period)];
    for (auto p = planted.begin(); p != planted.end() && p->first < x; ++p)
    {
      sum += p->second - table[std::size_t(p->first % period)];
    }
    return sum;
  }
  //! The first position of the smallest (`less`: a < b) or largest (`less`: a > b) item of the
  //! non-empty [b, e): every table item lies in the first period of it (or a period after a
  //! planted one there; no two are a period apart), the planted ones anywhere.
  template <typename LessT>
  std::int64_t first_extreme(std::int64_t b, std::int64_t e, LessT less) const
  {
    const auto period = std::int64_t(int8_period);
    std::int64_t best = b;
    for (std::int64_t i = b + 1; i < std::min(e, b + period); ++i)
    {
      best = less(at(i), at(best)) ? i : best;
    }
    for (auto p = planted.lower_bound(b); p != planted.end() && p->first < e; ++p)
    {
      best = less(p->second, at(best)) ? p->first : best;
      if (p->first < b + period && p->first + period < e)
      {
        best = less(at(p->first + period), at(best)) ? p->first + period : best;
      }
    }
    return best;
  }
};
} // namespace

TEST_CASE("DeviceSegmentedReduce over more than 2^32 int8 items in device memory", "[device][segmented_reduce][slow]")
{
  // A pointer input, so that parts of segments are read as 16-byte vectors at positions past 2^31
  // and 2^32 (the other large case reads an iterator): a periodic table of items with extremes no
  // table item has planted past 2^31 and 2^32, at a segment's last item and at the input's. Reduce
  // (a sum in int64 from an initial value that shows), Min, Max and ArgMin with a KeyValuePair of
  // int64 keys (a minimum more than 2^31 items into a segment, twice: the first counts) over
  // segments of more than 2^31 items, across 2^31 and 2^32, past 2^32, at odd positions, empty and
  // reversed, with int64 offsets; ArgMax (int keys) over those of fewer than 2^31 items; Min and
  // Max with uint32 offsets up to 2^32 - 1.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^32 items under compute-sanitizer would take hours; the type tests' segments run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(1313);
  INFO("seed " << seed);
  constexpr std::int64_t two31 = std::int64_t(1) << 31;
  constexpr std::int64_t two32 = std::int64_t(1) << 32;
  constexpr std::int64_t n     = two32 + (std::int64_t(1) << 21) + 5;
  std::size_t free_bytes       = 0;
  std::size_t total_bytes      = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < std::size_t(n) + (std::size_t(256) << 20))
  {
    SKIP("the input of " << n << " items needs " << (std::size_t(n) >> 20) << " MiB of GPU memory and 256 more; "
                         << (free_bytes >> 20) << " MiB are free");
  }

  planted_input input;
  input.table   = strata_test::random_vector<std::int8_t>(std::size_t(int8_period), seed, -100, 100);
  input.planted = {{5, -127},         {two31 - 3, 127},    {two31 + 80, -128},  {two31 + 3 + (1 << 19), -128},
                   {two32 - 2, -128}, {two32 + 916, -128}, {two32 + 2000, 127}, {n - 1, 127}};
  input.prefix.assign(1, 0);
  for (const std::int8_t item : input.table)
  {
    input.prefix.push_back(input.prefix.back() + item);
  }
  input.period_sum = input.prefix.back();
  const device_buffer<std::int8_t> d_table(input.table);
  device_buffer<std::int8_t> d_in(static_cast<std::size_t>(n));
  fill_periodic<<<1024, 256>>>(d_in.data(), std::uint64_t(n), d_table.data());
  strata_test::check_launch();
  for (const auto& [position, item] : input.planted)
  {
    STRATA_TEST_CUDA(cudaMemcpy(d_in.data() + position, &item, 1, cudaMemcpyHostToDevice));
  }
  const std::int8_t* in = d_in.data();

  const segment_layout wide{"",
                            {3, two31 - 1000, two32 - 5000, two32 + 17, two32 + 1, two32 + 100, 3 * (two31 / 2) + 5,
                             n - 40, two31 + (1 << 20) + 8, two32 + (1 << 20) + 1},
                            {3 + two31 + (1 << 20) + 5, two31 + 1000, two32 + 3000, two32 + 917, two32 + 1, two32 + 50,
                             n, n, n - 7, two32 + (1 << 20) + 34},
                            false};
  // The segments of fewer than 2^31 items (ArgMax's int keys count them).
  segment_layout narrow{"", {}, {}, false};
  for (std::size_t s = 0; s < wide.begin.size(); ++s)
  {
    if (wide.end[s] - wide.begin[s] < two31)
    {
      narrow.begin.push_back(wide.begin[s]);
      narrow.end.push_back(wide.end[s]);
    }
  }
  const segment_layout below_two32{
      "", {5, two31 + 7, two32 - 3, two31 - 1000, 7}, {two32 - 1, two32 - 1, two32 - 1, two31 + 1000, 7}, false};

  const auto less    = [](std::int8_t a, std::int8_t b) { return a < b; };
  const auto greater = [](std::int8_t a, std::int8_t b) { return a > b; };
  // The smallest or largest item of each segment (`empty` for an empty one), and where it first is.
  const auto extremes =
      [&](const segment_layout& layout, auto order, std::int8_t empty, std::vector<std::int64_t>* keys = nullptr)
  {
    std::vector<int> items;
    for (std::size_t s = 0; s < layout.begin.size(); ++s)
    {
      const std::int64_t b  = layout.begin[s];
      const std::int64_t e  = layout.end[s];
      const std::int64_t at = e > b ? input.first_extreme(b, e, order) : b - 1;
      items.push_back(e > b ? input.at(at) : empty);
      if (keys != nullptr)
      {
        keys->push_back(at - b);
      }
    }
    return items;
  };
  const auto as_ints = [](const std::vector<std::int8_t>& items)
  { return std::vector<int>(items.begin(), items.end()); };
  const auto run_min_max = [&](const segment_layout& layout, auto offset)
  {
    const device_segments<decltype(offset)> d_segments(layout);
    const std::int64_t segments = layout.segments();
    {
      INFO("Min");
      const std::vector<std::int8_t> out = strata_test::run_segmented<std::int8_t>(
          segments,
          [&](void* d_temp, std::size_t& bytes, std::int8_t* d_out)
          {
            return strata::DeviceSegmentedReduce::Min(d_temp, bytes, in, d_out, segments, d_segments.begin(),
                                                      d_segments.end());
          });
      strata_test::check_equal(extremes(layout, less, 127), as_ints(out));
    }
    {
      INFO("Max");
      const std::vector<std::int8_t> out = strata_test::run_segmented<std::int8_t>(
          segments,
          [&](void* d_temp, std::size_t& bytes, std::int8_t* d_out)
          {
            return strata::DeviceSegmentedReduce::Max(d_temp, bytes, in, d_out, segments, d_segments.begin(),
                                                      d_segments.end());
          });
      strata_test::check_equal(extremes(layout, greater, -128), as_ints(out));
    }
  };

  {
    INFO("int64 offsets");
    const device_segments<std::int64_t> d_segments(wide);
    const std::int64_t segments = wide.segments();
    {
      INFO("Reduce: plus in int64 from 1000000007");
      constexpr std::int64_t init         = 1000000007;
      const std::vector<std::int64_t> out = strata_test::run_segmented<std::int64_t>(
          segments,
          [&](void* d_temp, std::size_t& bytes, std::int64_t* d_out)
          {
            return strata::DeviceSegmentedReduce::Reduce(d_temp, bytes, in, d_out, segments, d_segments.begin(),
                                                         d_segments.end(), cuda::std::plus<>{}, init);
          });
      std::vector<std::int64_t> expected;
      for (std::size_t s = 0; s < wide.begin.size(); ++s)
      {
        const std::int64_t b = wide.begin[s];
        const std::int64_t e = wide.end[s];
        expected.push_back(init + (e > b ? input.sum_to(e) - input.sum_to(b) : 0));
      }
      strata_test::check_equal(expected, out);
    }
    {
      INFO("ArgMin into KeyValuePair<int64_t, int8_t>");
      using PairT                  = strata::KeyValuePair<std::int64_t, std::int8_t>;
      const std::vector<PairT> out = strata_test::run_segmented<PairT>(
          segments,
          [&](void* d_temp, std::size_t& bytes, PairT* d_out)
          {
            return strata::DeviceSegmentedReduce::ArgMin(d_temp, bytes, in, d_out, segments, d_segments.begin(),
                                                         d_segments.end());
          });
      std::vector<std::int64_t> expected_keys;
      const std::vector<int> expected_items = extremes(wide, less, 127, &expected_keys);
      std::vector<std::int64_t> keys;
      std::vector<int> items;
      for (std::size_t s = 0; s < out.size(); ++s)
      {
        // An empty segment gives {1, the largest int8}, as CUB documents.
        expected_keys[s] = wide.end[s] > wide.begin[s] ? expected_keys[s] : 1;
        keys.push_back(out[s].key);
        items.push_back(out[s].value);
      }
      strata_test::check_equal(expected_keys, keys);
      strata_test::check_equal(expected_items, items);
    }
    run_min_max(wide, std::int64_t{});
  }
  {
    INFO("int64 offsets, segments of fewer than 2^31 items: ArgMax into KeyValuePair<int, int8_t>");
    const device_segments<std::int64_t> d_segments(narrow);
    const std::int64_t segments  = narrow.segments();
    using PairT                  = strata::KeyValuePair<int, std::int8_t>;
    const std::vector<PairT> out = strata_test::run_segmented<PairT>(segments,
                                                                     [&](void* d_temp, std::size_t& bytes, PairT* d_out)
                                                                     {
                                                                       return strata::DeviceSegmentedReduce::ArgMax(
                                                                           d_temp, bytes, in, d_out, segments,
                                                                           d_segments.begin(), d_segments.end());
                                                                     });
    std::vector<std::int64_t> expected_keys;
    const std::vector<int> expected_items = extremes(narrow, greater, -128, &expected_keys);
    std::vector<std::int64_t> keys;
    std::vector<int> items;
    for (std::size_t s = 0; s < out.size(); ++s)
    {
      expected_keys[s] = narrow.end[s] > narrow.begin[s] ? expected_keys[s] : 1;
      keys.push_back(out[s].key);
      items.push_back(out[s].value);
    }
    strata_test::check_equal(expected_keys, keys);
    strata_test::check_equal(expected_items, items);
  }
  {
    INFO("uint32 offsets up to 2^32 - 1");
    run_min_max(below_two32, std::uint32_t{});
  }
}

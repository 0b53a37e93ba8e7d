// Tests of strata/device/device_adjacent_difference.cuh, part 2: how the four functions behave
// rather than what they compute, over uint32 items: no items succeed and write nothing (null
// pointers included); the size query touches no device data and launches nothing (pointers that
// must never be dereferenced, inside a stream capture that must stay empty); a negative count, a
// null input or output with items and too little temporary storage give cudaErrorInvalidValue and
// write nothing; the second phase works inside a CUDA graph and on two streams at once (in place
// four times in a row on each, so each call must see the one before it); counts of type int,
// int64_t and uint32_t, and the defaults of the operator and the stream; inputs from a
// CountingInputIterator and a TransformInputIterator, outputs through an output iterator that
// transforms what it stores; the operator called exactly once per pair of neighbours (uint32 and
// uint64 items, counted in the operator); and all four over 2^32 - 1 (a uint32_t count) and
// 2^32 + 2^21 + 5 (an int64_t count) uint8 items ([slow]; 4 GiB of GPU memory).
#include <strata/device/device_adjacent_difference.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/output_iterators.cuh"
#include "common/streams.cuh"
#include "common/behaviour.cuh"
#include "common/test_common.cuh"
#include "device_adjacent_difference_checks.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace
{
using strata_test::adjacent_slack;
using strata_test::both_sides;
using strata_test::check_rejected;
using strata_test::device_buffer;
using strata_test::query_bytes;
using strata_test::side;
using u32 = std::uint32_t;

//! The device pointers a call may use; in place, `in` is d_input, read and written.
struct adjacent_args
{
  u32* in;
  u32* out;
};

using call_fn = std::function<cudaError_t(void*, std::size_t&, const adjacent_args&, std::int64_t, cudaStream_t)>;

//! One function of DeviceAdjacentDifference: its name, whether it writes to `out`, and the call.
struct adjacent_call
{
  std::string name;
  bool copy;
  call_fn run;
};

//! The four functions with int64_t counts, and two with int counts (a negative int must be
//! rejected too).
std::vector<adjacent_call> all_calls()
{
  const ::cuda::std::minus<> op{};
  std::vector<adjacent_call> calls;
  for (side s : both_sides)
  {
    calls.push_back({strata_test::function_name(s, true), true,
                     [=](void* t, std::size_t& b, const adjacent_args& a, std::int64_t n, cudaStream_t stream) {
                       return strata_test::subtract_copy(s, t, b, static_cast<const u32*>(a.in), a.out, n, op, stream);
                     }});
    calls.push_back({strata_test::function_name(s, false), false,
                     [=](void* t, std::size_t& b, const adjacent_args& a, std::int64_t n, cudaStream_t stream)
                     { return strata_test::subtract_in_place(s, t, b, a.in, n, op, stream); }});
  }
  calls.push_back({"DeviceAdjacentDifference::SubtractLeftCopy (an int count)", true,
                   [=](void* t, std::size_t& b, const adjacent_args& a, std::int64_t n, cudaStream_t stream)
                   {
                     return strata::DeviceAdjacentDifference::SubtractLeftCopy(t, b, static_cast<const u32*>(a.in),
                                                                               a.out, static_cast<int>(n), op, stream);
                   }});
  calls.push_back(
      {"DeviceAdjacentDifference::SubtractRight (an int count)", false,
       [=](void* t, std::size_t& b, const adjacent_args& a, std::int64_t n, cudaStream_t stream)
       { return strata::DeviceAdjacentDifference::SubtractRight(t, b, a.in, static_cast<int>(n), op, stream); }});
  return calls;
}

//! An input of n random items and a poisoned output of n items.
class adjacent_buffers
{
public:
  adjacent_buffers(std::size_t n, std::uint64_t seed)
      : in_(strata_test::adjacent_inputs<u32>(n, seed))
      , out_(strata_test::poisoned_buffer<u32>(n))
  {
  }
  adjacent_args args() const
  {
    return {in_.data(), out_.data()};
  }
  //! Everything the buffers hold: the input, then the output.
  std::vector<std::vector<u32>> state() const
  {
    return {in_.download(), out_.download()};
  }

private:
  device_buffer<u32> in_;
  device_buffer<u32> out_;
};

//! `rounds` adjacent differences of side `s` in a row, each of the result of the one before.
std::vector<u32> repeated_difference(std::vector<u32> items, side s, int rounds)
{
  for (int round = 0; round < rounds; ++round)
  {
    items = strata_test::reference_difference<u32>(items, s, std::minus<>{});
  }
  return items;
}

//! Poisons `buffer`, copies `host` to its first items and waits: a copy from pageable memory may
//! return before it has landed, and work on a non-blocking stream does not wait for it.
void upload_prefix_and_wait(device_buffer<u32>& buffer, const std::vector<u32>& host)
{
  strata_test::upload_prefix(buffer, host);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

//! The sizes of the count-type and iterator tests (2^20 + 7 outside compute-sanitizer).
std::vector<std::size_t> behaviour_sizes()
{
  std::vector<std::size_t> sizes{0, 1, 2, 1025, 4097, 8193, 100003};
  if (!strata_test::under_sanitizer())
  {
    sizes.push_back((std::size_t(1) << 20) + 7);
  }
  return sizes;
}

//! a - b (wrapping), counting its calls in counters[0]. Where `step` is not 0 the input is a
//! sequence (each item one more than the one before): the calls on items that are not neighbours
//! there (a - b != step) count in counters[1] too.
template <typename T>
struct counting_minus
{
  unsigned long long* counters;
  T step;

  __device__ T operator()(const T& a, const T& b) const
  {
    atomicAdd(counters, 1ull);
    const T difference = T(a - b);
    if (step != T(0) && difference != step)
    {
      atomicAdd(counters + 1, 1ull);
    }
    return difference;
  }
};

//! Reads the tile size of a DeviceAdjacentDifference policy (an agent's tile is BLOCK_THREADS
//! times ITEMS_PER_THREAD items).
struct adjacent_tile_probe
{
  std::size_t tile_items = 0;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using PolicyT = typename ActivePolicyT::AdjacentDifferencePolicy;
    tile_items    = std::size_t(PolicyT::BLOCK_THREADS) * std::size_t(PolicyT::ITEMS_PER_THREAD);
    return cudaSuccess;
  }
};

//! The tile size for items of T on this device, of the copying forms or (MAY_ALIAS) the in-place
//! ones, read through the policy chain as the dispatch reads it.
template <typename T, bool MAY_ALIAS>
std::size_t adjacent_tile_items()
{
  int ptx_version = 0;
  STRATA_TEST_CUDA(strata::PtxVersion(ptx_version));
  adjacent_tile_probe probe;
  using MaxPolicyT = typename strata::detail::adjacent_difference::policy_hub<T, MAY_ALIAS>::MaxPolicy;
  STRATA_TEST_CUDA(MaxPolicyT::Invoke(ptx_version, probe));
  return probe.tile_items;
}

//! The sizes of the call-count test: 0 to 3; one tile less one, one and plus one, two tiles less and
//! plus one and three tiles of either form's policy; 100003; outside compute-sanitizer the two
//! sizes of issue #49 (449913 and 934640), 999983 and 2^20 + 7. Most leave a partial last tile.
template <typename T>
std::vector<std::size_t> call_count_sizes()
{
  std::vector<std::size_t> sizes{0, 1, 2, 3, 100003};
  for (std::size_t tile : {adjacent_tile_items<T, false>(), adjacent_tile_items<T, true>()})
  {
    for (std::size_t n : {tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1, 3 * tile})
    {
      sizes.push_back(n);
    }
  }
  if (!strata_test::under_sanitizer())
  {
    sizes.insert(sizes.end(), {449913, 934640, 999983, (std::size_t(1) << 20) + 7});
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}
} // namespace

TEST_CASE("DeviceAdjacentDifference with no items succeeds and writes nothing", "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1211);
  INFO("seed " << seed);
  for (const adjacent_call& call : all_calls())
  {
    INFO(call.name);
    const adjacent_buffers buffers(16, seed);
    const adjacent_args args                   = buffers.args();
    const std::vector<std::vector<u32>> before = buffers.state();
    std::size_t bytes                          = query_bytes(call, args, 0);
    device_buffer<unsigned char> d_temp(bytes);
    STRATA_TEST_CUDA(call.run(d_temp.data(), bytes, args, 0, nullptr));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    CHECK(buffers.state() == before);
    {
      INFO("null input and output (nothing to read or write)");
      STRATA_TEST_CUDA(call.run(d_temp.data(), bytes, adjacent_args{nullptr, nullptr}, 0, nullptr));
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      CHECK(buffers.state() == before);
    }
  }
}

TEST_CASE("DeviceAdjacentDifference size queries touch no device data and launch nothing",
          "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const adjacent_args bad{reinterpret_cast<u32*>(std::uintptr_t(16)), reinterpret_cast<u32*>(std::uintptr_t(48))};
  const std::vector<adjacent_call> calls = all_calls();
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (const adjacent_call& call : calls)
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

TEST_CASE("DeviceAdjacentDifference rejects bad arguments with cudaErrorInvalidValue and writes nothing",
          "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1213);
  INFO("seed " << seed);
  const std::int64_t n = 100000;
  for (const adjacent_call& call : all_calls())
  {
    INFO(call.name);
    const adjacent_buffers buffers(std::size_t(n), seed);
    const adjacent_args args = buffers.args();
    const std::size_t bytes  = query_bytes(call, args, n);
    device_buffer<unsigned char> d_temp(bytes);
    {
      INFO("a negative item count");
      std::size_t query = 0;
      check_rejected(buffers, [&] { return call.run(nullptr, query, args, -1, nullptr); });
      std::size_t run_bytes = bytes;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, args, -5, nullptr); });
    }
    {
      INFO("a null d_input with items");
      std::size_t run_bytes = bytes;
      const adjacent_args without_input{nullptr, args.out};
      check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, without_input, n, nullptr); });
    }
    if (call.copy)
    {
      INFO("a null d_output with items");
      std::size_t run_bytes = bytes;
      const adjacent_args without_output{args.in, nullptr};
      check_rejected(buffers, [&] { return call.run(d_temp.data(), run_bytes, without_output, n, nullptr); });
    }
    {
      INFO("too little temporary storage (" << bytes - 1 << " bytes of " << bytes << ")");
      std::size_t too_few = bytes - 1;
      check_rejected(buffers, [&] { return call.run(d_temp.data(), too_few, args, n, nullptr); });
    }
  }
}

TEST_CASE("DeviceAdjacentDifference runs inside a CUDA graph and on two streams at once",
          "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1215);
  INFO("seed " << seed);
  const std::size_t n      = 3000017;
  const std::vector<u32> a = strata_test::adjacent_inputs<u32>(n, seed);
  const std::vector<u32> b = strata_test::adjacent_inputs<u32>(n, seed + 1);
  device_buffer<u32> d_a(n + adjacent_slack);
  device_buffer<u32> d_b(b);
  device_buffer<u32> d_out_b(n + adjacent_slack);
  // SubtractLeft in place in d_a, SubtractRightCopy from d_b to d_out_b.
  const auto left_a = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceAdjacentDifference::SubtractLeft(d_temp, bytes, d_a.data(), std::int64_t(n),
                                                          ::cuda::std::minus<>{}, stream);
  };
  const auto right_b = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
  {
    return strata::DeviceAdjacentDifference::SubtractRightCopy(d_temp, bytes, static_cast<const u32*>(d_b.data()),
                                                               d_out_b.data(), std::int64_t(n), ::cuda::std::minus<>{},
                                                               stream);
  };
  std::size_t bytes_a = 0;
  std::size_t bytes_b = 0;
  STRATA_TEST_CUDA(left_a(nullptr, bytes_a, nullptr));
  STRATA_TEST_CUDA(right_b(nullptr, bytes_b, nullptr));
  device_buffer<unsigned char> d_temp_a(bytes_a);
  device_buffer<unsigned char> d_temp_b(bytes_b);
  const strata_test::stream_pair streams;

  SECTION("SubtractLeft in place in a graph")
  {
    const std::vector<u32> expected = repeated_difference(a, side::left, 1);
    strata_test::check_graph_replay(
        streams[0], [&](cudaStream_t stream) { return left_a(d_temp_a.data(), bytes_a, stream); },
        [&] { upload_prefix_and_wait(d_a, a); }, [&] { strata_test::check_selected(expected, d_a.download()); });
  }
  SECTION("SubtractRightCopy in a graph")
  {
    const std::vector<u32> expected = repeated_difference(b, side::right, 1);
    strata_test::check_graph_replay(
        streams[1], [&](cudaStream_t stream) { return right_b(d_temp_b.data(), bytes_b, stream); },
        [&] { d_out_b.poison(); }, [&] { strata_test::check_selected(expected, d_out_b.download()); });
  }
  SECTION("SubtractLeft and SubtractRight in place, four times each, on two streams at once")
  {
    // Each stream's four calls read what the call before wrote: four differences in a row.
    device_buffer<u32> d_c(n + adjacent_slack);
    const auto right_c = [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
    {
      return strata::DeviceAdjacentDifference::SubtractRight(d_temp, bytes, d_c.data(), std::int64_t(n),
                                                             ::cuda::std::minus<>{}, stream);
    };
    std::size_t bytes_c = 0;
    STRATA_TEST_CUDA(right_c(nullptr, bytes_c, nullptr));
    device_buffer<unsigned char> d_temp_c(bytes_c);
    upload_prefix_and_wait(d_a, a);
    upload_prefix_and_wait(d_c, b);
    strata_test::run_on_two_streams(
        streams, [&](cudaStream_t stream) { return left_a(d_temp_a.data(), bytes_a, stream); },
        [&](cudaStream_t stream) { return right_c(d_temp_c.data(), bytes_c, stream); });
    strata_test::check_selected(repeated_difference(a, side::left, 4), d_a.download());
    strata_test::check_selected(repeated_difference(b, side::right, 4), d_c.download());
  }
}

TEMPLATE_TEST_CASE("DeviceAdjacentDifference takes counts of type int, int64_t and uint32_t",
                   "[device][adjacent_difference]", int, std::int64_t, std::uint32_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using NumItemsT          = TestType;
  const std::uint64_t seed = strata_test::seed(1217);
  INFO("seed " << seed);
  for (std::size_t n : behaviour_sizes())
  {
    const std::vector<u32> in = strata_test::adjacent_inputs<u32>(n, seed + n);
    const auto count          = static_cast<NumItemsT>(n);
    device_buffer<u32> d_in(in);
    device_buffer<u32> d_out(n + adjacent_slack);
    for (side s : both_sides)
    {
      const std::vector<u32> expected = strata_test::reference_difference<u32>(in, s, std::minus<>{});
      {
        INFO(strata_test::function_name(s, true) << ", num_items " << n);
        strata_test::check_copy(d_out, expected, 0,
                                [&](void* d_temp, std::size_t& bytes) {
                                  return strata_test::subtract_copy(
                                      s, d_temp, bytes, static_cast<const u32*>(d_in.data()), d_out.data(), count);
                                });
      }
      {
        INFO(strata_test::function_name(s, false) << ", num_items " << n);
        strata_test::check_in_place(d_out, in, expected, 0,
                                    [&](void* d_temp, std::size_t& bytes)
                                    { return strata_test::subtract_in_place(s, d_temp, bytes, d_out.data(), count); });
      }
    }
    {
      INFO("SubtractLeftCopy and SubtractLeft with the default operator and stream, num_items " << n);
      const std::vector<u32> expected = strata_test::reference_difference<u32>(in, side::left, std::minus<>{});
      strata_test::check_copy(d_out, expected, 0,
                              [&](void* d_temp, std::size_t& bytes)
                              {
                                return strata::DeviceAdjacentDifference::SubtractLeftCopy(
                                    d_temp, bytes, static_cast<const u32*>(d_in.data()), d_out.data(), count);
                              });
      strata_test::check_in_place(
          d_out, in, expected, 0,
          [&](void* d_temp, std::size_t& bytes)
          { return strata::DeviceAdjacentDifference::SubtractLeft(d_temp, bytes, d_out.data(), count); });
    }
  }
}

TEST_CASE("DeviceAdjacentDifference reads a CountingInputIterator", "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1219);
  INFO("seed " << seed);
  using counting_t         = strata::CountingInputIterator<std::int64_t>;
  const std::int64_t start = (std::int64_t(1) << 40) + std::int64_t(seed % 100000);
  for (std::size_t n : behaviour_sizes())
  {
    std::vector<std::int64_t> in(n);
    std::iota(in.begin(), in.end(), start);
    device_buffer<std::int64_t> d_out(n + adjacent_slack);
    for (side s : both_sides)
    {
      INFO(strata_test::function_name(s, true) << " with a - 2 b, num_items " << n);
      strata_test::check_copy(d_out, strata_test::reference_difference<std::int64_t>(in, s, strata_test::minus_twice{}),
                              0,
                              [&](void* d_temp, std::size_t& bytes)
                              {
                                return strata_test::subtract_copy(s, d_temp, bytes, counting_t(start), d_out.data(),
                                                                  std::int64_t(n), strata_test::minus_twice{});
                              });
    }
  }
}

TEST_CASE("DeviceAdjacentDifference reads a TransformInputIterator and writes through an output iterator",
          "[device][adjacent_difference]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(1221);
  INFO("seed " << seed);
  using square_it = strata::TransformInputIterator<std::int64_t, strata_test::square, const std::int32_t*>;
  using out_it    = strata_test::transform_output<std::int64_t, strata_test::three_x_plus_one>;
  for (std::size_t n : behaviour_sizes())
  {
    const std::vector<std::int32_t> x = strata_test::random_vector<std::int32_t>(n, seed + n);
    std::vector<std::int64_t> squares(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      squares[i] = strata_test::square{}(x[i]);
    }
    device_buffer<std::int32_t> d_x(x);
    device_buffer<std::int64_t> d_out(n + adjacent_slack);
    for (side s : both_sides)
    {
      INFO(strata_test::function_name(s, true) << " of squares, stored as 3 d + 1, num_items " << n);
      std::vector<std::int64_t> expected = strata_test::reference_difference<std::int64_t>(squares, s, std::minus<>{});
      for (auto& d : expected)
      {
        d = strata_test::three_x_plus_one{}(d);
      }
      strata_test::check_copy(d_out, expected, 0,
                              [&](void* d_temp, std::size_t& bytes)
                              {
                                return strata_test::subtract_copy(
                                    s, d_temp, bytes, square_it(d_x.data(), strata_test::square{}),
                                    out_it(d_out.data(), strata_test::three_x_plus_one{}), std::uint32_t(n));
                              });
    }
  }
}

TEMPLATE_TEST_CASE("DeviceAdjacentDifference calls the operator exactly once per pair of neighbours",
                   "[device][adjacent_difference]", std::uint32_t, std::uint64_t)
{
  // CUB's tests count the calls: num_items - 1, none for fewer than two items. The padding of a
  // partial last tile must not reach the operator, nor may a tile's edge take it twice. Over
  // random items the results are checked against the host reference (poison around them); over a
  // sequence the operator also counts the calls whose two items are not neighbours.
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(1225);
  INFO("seed " << seed);
  device_buffer<unsigned long long> d_counters(2);
  for (std::size_t n : call_count_sizes<T>())
  {
    std::vector<T> sequence(n);
    std::iota(sequence.begin(), sequence.end(), static_cast<T>(seed + n)); // unsigned: wraps
    const std::vector<T> random_items = strata_test::adjacent_inputs<T>(n, seed + n);
    device_buffer<T> d_out(n + adjacent_slack);
    for (const bool is_sequence : {false, true})
    {
      const std::vector<T>& in = is_sequence ? sequence : random_items;
      const device_buffer<T> d_in(in);
      for (side s : both_sides)
      {
        const std::vector<T> expected = strata_test::reference_difference<T>(in, s, std::minus<>{});
        // Neighbours in a sequence differ by +1 (left: a - b) or -1 (right), wrapping.
        const T step = is_sequence ? (s == side::left ? T(1) : static_cast<T>(~T(0))) : T(0);
        const counting_minus<T> op{d_counters.data(), step};
        for (const bool copy : {true, false})
        {
          INFO(strata_test::function_name(s, copy)
               << ", num_items " << n << (is_sequence ? ", a sequence" : ", random items"));
          STRATA_TEST_CUDA(cudaMemset(d_counters.data(), 0, d_counters.bytes()));
          if (copy)
          {
            strata_test::check_copy(d_out, expected, 0,
                                    [&](void* d_temp, std::size_t& bytes)
                                    {
                                      return strata_test::subtract_copy(s, d_temp, bytes,
                                                                        static_cast<const T*>(d_in.data()),
                                                                        d_out.data(), std::int64_t(n), op);
                                    });
          }
          else
          {
            strata_test::check_in_place(
                d_out, in, expected, 0,
                [&](void* d_temp, std::size_t& bytes)
                { return strata_test::subtract_in_place(s, d_temp, bytes, d_out.data(), std::uint32_t(n), op); });
          }
          const std::vector<unsigned long long> counters = d_counters.download();
          CHECK(counters[0] == (n < 2 ? 0ull : static_cast<unsigned long long>(n - 1)));
          CHECK(counters[1] == 0ull);
        }
      }
    }
  }
}

TEST_CASE("DeviceAdjacentDifference over more than 2^31 and 2^32 uint8 items", "[device][adjacent_difference][slow]")
{
  // Items from a periodic_iterator (a random table of prime period): no input memory. Each copying
  // form writes 2^32 - 1 items (a uint32_t count: 32-bit offsets, the last tile ending at the
  // largest count they hold) and 2^32 + 2^21 + 5 items (an int64_t count: 64-bit offsets) into one
  // buffer, and the in-place form of the other side then runs on what it wrote (the pointer and
  // vector path; its tile edges saved first). Every item of the buffer is checked, the poison
  // after the items too.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^32 items under compute-sanitizer would take hours; the sizes below 2^21 run there");
    return;
  }
  using strata_test::large_period;
  const std::uint64_t seed = strata_test::seed(1223);
  INFO("seed " << seed);
  const std::size_t largest = (std::size_t(1) << 32) + (std::size_t(1) << 21) + 5;
  strata_test::require_free_memory(largest + adjacent_slack + (std::size_t(16) << 20));
  const std::vector<std::uint8_t> x = strata_test::random_vector<std::uint8_t>(std::size_t(large_period), seed);
  const device_buffer<std::uint8_t> d_table(x);
  const strata_test::periodic_iterator in = strata_test::periodic_bytes(d_table.data());
  device_buffer<std::uint8_t> d_data(largest + adjacent_slack);

  // The item of period position r and its neighbours'; the differences every item but the first
  // (left) or last (right) gets, and what two differences of opposite sides give inside.
  const auto at = [&](std::int64_t r) { return x[std::size_t((r + large_period) % large_period)]; };
  std::vector<std::uint8_t> left(x.size());
  std::vector<std::uint8_t> right(x.size());
  std::vector<std::uint8_t> both(x.size());
  for (std::int64_t r = 0; r < large_period; ++r)
  {
    left[std::size_t(r)]  = std::uint8_t(at(r) - at(r - 1));
    right[std::size_t(r)] = std::uint8_t(at(r) - at(r + 1));
    both[std::size_t(r)]  = std::uint8_t(2 * at(r) - at(r - 1) - at(r + 1));
  }
  // CHECKs d_data: `inside` by period position for items 1 to n - 2, `first` and `last` at 0 and
  // n - 1, the poison after n.
  const auto check_data =
      [&](std::size_t n, const std::vector<std::uint8_t>& inside, std::uint8_t first, std::uint8_t last)
  {
    strata_test::check_large(d_data.data(), d_data.size(),
                             [&](std::size_t at, std::size_t count, std::uint8_t* out)
                             {
                               const std::size_t items = at < n ? std::min(count, n - at) : 0;
                               strata_test::fill_periodic(inside, at % inside.size(), items, out);
                               std::fill(out + items, out + count, strata_test::poison_byte);
                               if (at == 0)
                               {
                                 out[0] = first;
                               }
                               if (at < n && n - 1 - at < count)
                               {
                                 out[n - 1 - at] = last;
                               }
                             });
  };
  const auto run = [&](auto count, side s, bool copy)
  {
    strata_test::run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          return copy ? strata_test::subtract_copy(s, d_temp, bytes, in, d_data.data(), count)
                      : strata_test::subtract_in_place(s, d_temp, bytes, d_data.data(), count);
        });
  };
  const auto check_count = [&](auto count)
  {
    const std::size_t n      = std::size_t(count);
    const std::int64_t tail  = std::int64_t(n % std::size_t(large_period));
    const std::uint8_t x0    = at(0);
    const std::uint8_t x1    = at(1);
    const std::uint8_t xlast = at(tail - 1);
    const std::uint8_t xprev = at(tail - 2);
    {
      INFO("SubtractLeftCopy, then SubtractRight in place, num_items " << n);
      d_data.poison();
      run(count, side::left, true);
      check_data(n, left, x0, std::uint8_t(xlast - xprev));
      run(count, side::right, false);
      check_data(n, both, std::uint8_t(2 * x0 - x1), std::uint8_t(xlast - xprev));
    }
    {
      INFO("SubtractRightCopy, then SubtractLeft in place, num_items " << n);
      d_data.poison();
      run(count, side::right, true);
      check_data(n, right, std::uint8_t(x0 - x1), xlast);
      run(count, side::left, false);
      check_data(n, both, std::uint8_t(x0 - x1), std::uint8_t(2 * xlast - xprev));
    }
  };
  check_count(std::uint32_t(0xFFFFFFFFu));
  check_count(std::int64_t(largest));
}

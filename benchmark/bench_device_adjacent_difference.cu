// DeviceAdjacentDifference (SubtractLeftCopy, SubtractRightCopy and SubtractLeft in place, with
// the default ::cuda::std::minus<>), strata and CUB side by side on the same device buffers, at
// 2^16, 2^20, 2^24 and 2^28 items of u32 (int64_t counts), with cudaMemcpy device to device of
// the same bytes as the bandwidth ceiling. Every run takes the next copy of a rotating buffer
// (bench_common.cuh), so none finds its input in L2; the in-place rows work on those copies
// themselves (their contents do not matter to the time). Bytes: every item read once and written
// once. The temp_bytes counter is each library's temporary storage. strata's row first compares,
// once per configuration, its output with CUB's on the same input (in place: on two copies of it).
#include <strata/device/device_adjacent_difference.cuh>

#include <cub/device/device_adjacent_difference.cuh>

#include "bench_common.cuh"

#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using u32 = std::uint32_t;

//! The function a row measures.
enum class form
{
  left_copy,
  right_copy,
  left_in_place
};

//! One two-phase call of FORM by strata (STRATA) or CUB; the signatures are the same. In place,
//! d_in is the data and d_out is not used.
template <form FORM, bool STRATA>
cudaError_t subtract(void* d_temp, std::size_t& temp_bytes, u32* d_in, u32* d_out, std::int64_t n, cudaStream_t stream)
{
  using AdjacentDifferenceT =
      std::conditional_t<STRATA, strata::DeviceAdjacentDifference, cub::DeviceAdjacentDifference>;
  const ::cuda::std::minus<> op{};
  if constexpr (FORM == form::left_copy)
  {
    return AdjacentDifferenceT::SubtractLeftCopy(d_temp, temp_bytes, static_cast<const u32*>(d_in), d_out, n, op,
                                                 stream);
  }
  else if constexpr (FORM == form::right_copy)
  {
    return AdjacentDifferenceT::SubtractRightCopy(d_temp, temp_bytes, static_cast<const u32*>(d_in), d_out, n, op,
                                                  stream);
  }
  else
  {
    static_cast<void>(d_out);
    return AdjacentDifferenceT::SubtractLeft(d_temp, temp_bytes, d_in, n, op, stream);
  }
}

//! One call of FORM by strata (STRATA) or CUB on the n items at d_source, and what it wrote: a
//! copy into a poisoned output (bench::scratch slot 0), in place on a copy of d_source (slot 1).
template <form FORM, bool STRATA>
std::vector<u32> subtract_once(u32* d_source, std::size_t n)
{
  u32* d_out = static_cast<u32*>(bench::scratch(0, n * sizeof(u32)));
  u32* d_in  = d_source;
  if constexpr (FORM == form::left_in_place)
  {
    d_in = static_cast<u32*>(bench::scratch(1, n * sizeof(u32)));
    bench::check(cudaMemcpy(d_in, d_source, n * sizeof(u32), cudaMemcpyDeviceToDevice), "copy of the input");
  }
  else
  {
    bench::poison(d_out, n);
  }
  std::size_t temp_bytes = 0;
  bench::check(subtract<FORM, STRATA>(nullptr, temp_bytes, d_in, d_out, std::int64_t(n), cudaStream_t(0)),
               "size query");
  bench::check(
      subtract<FORM, STRATA>(bench::scratch(3, temp_bytes), temp_bytes, d_in, d_out, std::int64_t(n), cudaStream_t(0)),
      "DeviceAdjacentDifference");
  bench::check(cudaDeviceSynchronize(), "DeviceAdjacentDifference");
  return bench::download(FORM == form::left_in_place ? d_in : d_out, n);
}

//! The name of FORM's function.
constexpr const char* function_name(form f)
{
  return f == form::left_copy    ? "DeviceAdjacentDifference::SubtractLeftCopy"
         : f == form::right_copy ? "DeviceAdjacentDifference::SubtractRightCopy"
                                 : "DeviceAdjacentDifference::SubtractLeft";
}

//! Times strata's (STRATA) or CUB's call of FORM over rotating inputs of state.range(0) items.
template <form FORM, bool STRATA>
void run(benchmark::State& state)
{
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& data   = bench::shared_rotating_buffer<u32>(n);
  if constexpr (STRATA)
  {
    const std::string configuration = std::string(function_name(FORM)) + "/u32/" + std::to_string(n);
    if (bench::first_run(configuration))
    {
      u32* d_source = data.next();
      if (!bench::record(
              state, configuration,
              bench::compare_exact(subtract_once<FORM, true>(d_source, n), subtract_once<FORM, false>(d_source, n))))
      {
        return;
      }
    }
  }
  u32* d_out             = static_cast<u32*>(bench::scratch(0, n * sizeof(u32)));
  std::size_t temp_bytes = 0;
  bench::check(subtract<FORM, STRATA>(nullptr, temp_bytes, data.next(), d_out, std::int64_t(n), cudaStream_t(0)),
               "size query");
  void* d_temp = bench::scratch(3, temp_bytes);
  bench::time_iterations(state,
                         [&](cudaStream_t stream)
                         {
                           bench::check(
                               subtract<FORM, STRATA>(d_temp, temp_bytes, data.next(), d_out, std::int64_t(n), stream),
                               "DeviceAdjacentDifference");
                         });
  bench::set_throughput(state, n, 2 * n * sizeof(u32));
  state.counters["temp_bytes"] = double(temp_bytes);
}
} // namespace

// Rows '<algorithm>/strata/u32/<items>' and '<algorithm>/cub/u32/<items>', which
// scripts/bench-summary and scripts/bench-report pair into a strata/CUB ratio.
#define STRATA_BENCH_ADJACENT_DIFFERENCE(FORM, NAME)                                                                   \
  STRATA_BENCH_REGISTER((run<form::FORM, true>), "DeviceAdjacentDifference::" NAME "/strata/u32");                     \
  STRATA_BENCH_REGISTER((run<form::FORM, false>), "DeviceAdjacentDifference::" NAME "/cub/u32")

STRATA_BENCH_ADJACENT_DIFFERENCE(left_copy, "SubtractLeftCopy");
STRATA_BENCH_ADJACENT_DIFFERENCE(right_copy, "SubtractRightCopy");
STRATA_BENCH_ADJACENT_DIFFERENCE(left_in_place, "SubtractLeft");
STRATA_BENCH_REGISTER(bench::memcpy_d2d<u32>, "cudaMemcpy/u32");

STRATA_BENCH_MAIN()

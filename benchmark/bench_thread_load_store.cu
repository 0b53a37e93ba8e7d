// Copy bandwidth through strata's and CUB's ThreadLoad/ThreadStore with each cache-operator pair,
// against cudaMemcpy (the ceiling), on the same buffers: 2^26 16-byte items (1 GiB each way,
// far beyond the 50 MB L2). strata's rows first compare their output with CUB's.
#include <strata/strata.cuh>

#include <cub/cub.cuh>

#include "bench_common.cuh"

#include <cstddef>
#include <string>

namespace
{
using item_t                = uint4;
constexpr std::size_t items = std::size_t(1) << 26;

struct buffers
{
  bench::device_buffer<item_t> in{items};
  bench::device_buffer<item_t> out{items};
  buffers()
  {
    bench::fill_random(in, 2026);
  }
};

buffers& shared_buffers()
{
  static buffers b;
  return b;
}

template <strata::CacheLoadModifier LOAD, strata::CacheStoreModifier STORE>
__global__ void strata_copy(const item_t* in, item_t* out, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    strata::ThreadStore<STORE>(out + i, strata::ThreadLoad<LOAD>(in + i));
  }
}

template <cub::CacheLoadModifier LOAD, cub::CacheStoreModifier STORE>
__global__ void cub_copy(const item_t* in, item_t* out, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    cub::ThreadStore<STORE>(out + i, cub::ThreadLoad<LOAD>(const_cast<item_t*>(in + i)));
  }
}

// A grid-stride loop over enough blocks to fill every SM: 8 blocks of 256 threads per SM.
int grid_size()
{
  static const int grid = []
  {
    int device = 0;
    int sms    = 0;
    bench::check(cudaGetDevice(&device), "cudaGetDevice");
    bench::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    return sms * 8;
  }();
  return grid;
}

void memcpy_d2d(benchmark::State& state)
{
  buffers& b = shared_buffers();
  bench::time_iterations(
      state,
      [&](cudaStream_t stream)
      {
        bench::check(cudaMemcpyAsync(b.out.data(), b.in.data(), b.in.bytes(), cudaMemcpyDeviceToDevice, stream),
                     "cudaMemcpyAsync");
      });
  bench::set_throughput(state, items, 2 * b.in.bytes());
}

//! strata's copy with LOAD and STORE and CUB's with the same modifiers (the enumerators have CUB's
//! values) write the same output, checked once per pair.
template <strata::CacheLoadModifier LOAD, strata::CacheStoreModifier STORE>
bool copies_agree(benchmark::State& state)
{
  const std::string configuration = "copy/" + std::to_string(int(LOAD)) + "/" + std::to_string(int(STORE));
  if (!bench::first_run(configuration))
  {
    return true;
  }
  buffers& b     = shared_buffers();
  auto copy_once = [&](auto launch)
  {
    bench::poison(b.out.data(), items);
    launch<<<grid_size(), 256>>>(b.in.data(), b.out.data(), items);
    bench::check(cudaGetLastError(), "copy launch");
    bench::check(cudaDeviceSynchronize(), "copy");
    return bench::download(b.out.data(), items);
  };
  const auto strata_out = copy_once(strata_copy<LOAD, STORE>);
  const auto cub_out =
      copy_once(cub_copy<static_cast<cub::CacheLoadModifier>(LOAD), static_cast<cub::CacheStoreModifier>(STORE)>);
  return bench::record(state, configuration, bench::compare_exact(strata_out, cub_out));
}

template <strata::CacheLoadModifier LOAD, strata::CacheStoreModifier STORE>
void copy_strata(benchmark::State& state)
{
  if (!copies_agree<LOAD, STORE>(state))
  {
    return;
  }
  buffers& b = shared_buffers();
  bench::time_iterations(state,
                         [&](cudaStream_t stream) {
                           strata_copy<LOAD, STORE><<<grid_size(), 256, 0, stream>>>(b.in.data(), b.out.data(), items);
                         });
  bench::set_throughput(state, items, 2 * b.in.bytes());
}

template <cub::CacheLoadModifier LOAD, cub::CacheStoreModifier STORE>
void copy_cub(benchmark::State& state)
{
  buffers& b = shared_buffers();
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { cub_copy<LOAD, STORE><<<grid_size(), 256, 0, stream>>>(b.in.data(), b.out.data(), items); });
  bench::set_throughput(state, items, 2 * b.in.bytes());
}
} // namespace

BENCHMARK(memcpy_d2d)->Name("copy/memcpy")->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_strata<strata::LOAD_DEFAULT, strata::STORE_DEFAULT>)
    ->Name("copy/strata/DEFAULT")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_cub<cub::LOAD_DEFAULT, cub::STORE_DEFAULT>)
    ->Name("copy/cub/DEFAULT")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_strata<strata::LOAD_LDG, strata::STORE_CS>)
    ->Name("copy/strata/LDG_CS")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_cub<cub::LOAD_LDG, cub::STORE_CS>)
    ->Name("copy/cub/LDG_CS")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_strata<strata::LOAD_CS, strata::STORE_CS>)
    ->Name("copy/strata/CS_CS")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_cub<cub::LOAD_CS, cub::STORE_CS>)
    ->Name("copy/cub/CS_CS")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_strata<strata::LOAD_CG, strata::STORE_CG>)
    ->Name("copy/strata/CG_CG")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(copy_cub<cub::LOAD_CG, cub::STORE_CG>)
    ->Name("copy/cub/CG_CG")
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

STRATA_BENCH_MAIN()

// DeviceMemcpy::Batched, strata and CUB side by side on the same device buffers: 2^20 buffers of
// power-law sizes (min(65536, floor(1 / u^2)) bytes for u uniform in (0, 1]: 1 B to 64 KiB, mean
// about 512 B, about 512 MiB in all), once with every destination at its source's offset in its
// arena and once with the destinations 1 byte further (no source and destination then share their
// address modulo 4); 64 buffers of 16 MiB; 2^20 buffers of uniform sizes 1 to 4096 B. Buffers lie
// back to back in both arenas; sizes are u32, pointers come from device arrays. Every input is at
// least 512 MiB, far beyond the 50 MB L2, so nothing rotates. The row 'cudaMemcpy/u8/1073741824'
// copies the 16 MiB row's 1 GiB with one cudaMemcpyAsync: the ceiling of that row. Bytes count
// every byte read and written once (twice the bytes copied); items are buffers. The temp_bytes
// counter is each library's temporary storage. strata's row first checks, once per configuration,
// each library's copy on the device: after a run into a destination poisoned with 0xCD, every
// destination byte must equal its source byte and every byte outside the destinations (the shift,
// 64 bytes after the last one) must keep the poison.
#include <strata/device/device_memcpy.cuh>

#include <cub/device/device_memcpy.cuh>

#include "bench_common.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using u8  = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

//! The batches the rows copy.
enum class shape
{
  power_law,         //!< 2^20 power-law sizes, destinations at their sources' offsets
  power_law_shifted, //!< the same sizes and bytes, destinations 1 byte further
  large,             //!< 64 buffers of 16 MiB
  uniform            //!< 2^20 sizes uniform in [1, 4096]
};

//! The buffer sizes of a shape, from a fixed seed (both power-law shapes get the same).
std::vector<u32> sizes_of(shape s)
{
  constexpr std::size_t many = std::size_t(1) << 20;
  std::mt19937_64 engine(2083);
  std::vector<u32> sizes;
  if (s == shape::large)
  {
    sizes.assign(64, u32(16) << 20);
  }
  else if (s == shape::uniform)
  {
    std::uniform_int_distribution<u32> size(1, 4096);
    sizes.resize(many);
    std::generate(sizes.begin(), sizes.end(), [&] { return size(engine); });
  }
  else
  {
    sizes.resize(many);
    std::generate(sizes.begin(), sizes.end(),
                  [&]
                  {
                    const double u = double((engine() >> 11) + 1) / double(u64(1) << 53); // (0, 1]
                    return u32(std::min(65536.0, std::floor(1.0 / (u * u))));
                  });
  }
  return sizes;
}

//! Bytes of poison after the last destination, checked like the rest of the destination arena.
constexpr std::size_t slack = 64;

//! One shape's buffers, built once and kept for the program's life: random source bytes packed
//! back to back, a destination arena of `shift` bytes, the same layout and `slack` bytes, and device
//! arrays of the buffers' source pointers, destination pointers and sizes.
class batch
{
public:
  batch(const std::vector<u32>& sizes, std::size_t shift)
      : buffers_(sizes.size())
      , total_(total_of(sizes))
      , shift_(shift)
      , src_((total_ + 3) / 4)
      , dst_(shift + total_ + slack)
      , srcs_(sizes.size())
      , dsts_(sizes.size())
      , sizes_(sizes.size())
  {
    bench::fill_random(src_, 2087 + total_);
    std::vector<const void*> srcs(buffers_);
    std::vector<void*> dsts(buffers_);
    const u8* src = reinterpret_cast<const u8*>(src_.data());
    u64 offset    = 0;
    for (std::size_t b = 0; b < buffers_; ++b)
    {
      srcs[b] = src + offset;
      dsts[b] = dst_.data() + shift + offset;
      offset += sizes[b];
    }
    bench::check(cudaMemcpy(srcs_.data(), srcs.data(), srcs_.bytes(), cudaMemcpyHostToDevice), "sources upload");
    bench::check(cudaMemcpy(dsts_.data(), dsts.data(), dsts_.bytes(), cudaMemcpyHostToDevice), "destinations upload");
    bench::check(cudaMemcpy(sizes_.data(), sizes.data(), sizes_.bytes(), cudaMemcpyHostToDevice), "sizes upload");
  }

  std::size_t buffers() const
  {
    return buffers_;
  }
  //! The bytes the batch copies.
  std::size_t total() const
  {
    return total_;
  }
  std::size_t shift() const
  {
    return shift_;
  }
  const u8* src() const
  {
    return reinterpret_cast<const u8*>(src_.data());
  }
  u8* dst() const
  {
    return dst_.data();
  }
  std::size_t dst_bytes() const
  {
    return dst_.bytes();
  }
  const void* const* srcs() const
  {
    return srcs_.data();
  }
  void* const* dsts() const
  {
    return dsts_.data();
  }
  const u32* sizes() const
  {
    return sizes_.data();
  }

private:
  static std::size_t total_of(const std::vector<u32>& sizes)
  {
    std::size_t total = 0;
    for (const u32 size : sizes)
    {
      total += size;
    }
    return total;
  }

  std::size_t buffers_;
  std::size_t total_;
  std::size_t shift_;
  bench::device_buffer<u32> src_; // total_ bytes of random words
  bench::device_buffer<u8> dst_;
  bench::device_buffer<const void*> srcs_;
  bench::device_buffer<void*> dsts_;
  bench::device_buffer<u32> sizes_;
};

batch& batch_of(shape s)
{
  static std::map<shape, std::unique_ptr<batch>> made;
  auto& slot = made[s];
  if (!slot)
  {
    slot = std::make_unique<batch>(sizes_of(s), s == shape::power_law_shifted ? 1 : 0);
  }
  return *slot;
}

//! One two-phase call by strata (STRATA) or CUB; the signatures are the same.
template <bool STRATA>
cudaError_t invoke(void* d_temp, std::size_t& temp_bytes, const batch& b, cudaStream_t stream)
{
  using MemcpyT = std::conditional_t<STRATA, strata::DeviceMemcpy, cub::DeviceMemcpy>;
  return MemcpyT::Batched(d_temp, temp_bytes, b.srcs(), b.dsts(), b.sizes(), std::int64_t(b.buffers()), stream);
}

//! Counts the bytes of the destination arena `dst` (n bytes) that a correct copy would not leave:
//! byte i must be src[i - shift] for i in [shift, shift + total), the poison 0xCD elsewhere.
//! wrong[0] gets the count, wrong[1] the lowest such i (start it at ~0).
__global__ void count_wrong_bytes(const u8* src, const u8* dst, u64 n, u64 shift, u64 total, unsigned long long* wrong)
{
  unsigned long long count = 0;
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += u64(gridDim.x) * blockDim.x)
  {
    const u8 expected = i >= shift && i - shift < total ? src[i - shift] : u8(0xCD);
    if (dst[i] != expected)
    {
      ++count;
      atomicMin(&wrong[1], static_cast<unsigned long long>(i));
    }
  }
  if (count > 0)
  {
    atomicAdd(&wrong[0], count);
  }
}

//! One call by strata (STRATA) or CUB into the poisoned destination arena; "" when every byte of
//! the arena is what a correct copy leaves, else how many are not and the first.
template <bool STRATA>
std::string copy_once(const batch& b)
{
  bench::poison(b.dst(), b.dst_bytes());
  std::size_t temp_bytes = 0;
  bench::check(invoke<STRATA>(nullptr, temp_bytes, b, cudaStream_t(0)), "size query");
  bench::check(invoke<STRATA>(bench::scratch(3, temp_bytes), temp_bytes, b, cudaStream_t(0)), "copy");
  static bench::device_buffer<unsigned long long> wrong(2);
  const unsigned long long start[2] = {0, ~0ull};
  bench::check(cudaMemcpy(wrong.data(), start, sizeof(start), cudaMemcpyHostToDevice), "count reset");
  count_wrong_bytes<<<1024, 256>>>(b.src(), b.dst(), b.dst_bytes(), b.shift(), b.total(), wrong.data());
  bench::check(cudaGetLastError(), "count_wrong_bytes");
  const std::vector<unsigned long long> counts = bench::download(wrong.data(), 2);
  if (counts[0] == 0)
  {
    return "";
  }
  return std::string(STRATA ? "strata" : "CUB") + ": " + std::to_string(counts[0]) + " of "
         + std::to_string(b.dst_bytes()) + " destination bytes wrong, first at " + std::to_string(counts[1]);
}

//! Times strata's (STRATA) or CUB's copy of shape `s`. strata's row first checks both libraries'
//! copies, once per configuration.
template <bool STRATA>
void memcpy_row(benchmark::State& state, shape s, const std::string& configuration)
{
  const batch& b = batch_of(s);
  if constexpr (STRATA)
  {
    if (bench::first_run(configuration))
    {
      const std::string cub_wrong    = copy_once<false>(b);
      const std::string strata_wrong = copy_once<true>(b);
      const std::string mismatch = strata_wrong + (!strata_wrong.empty() && !cub_wrong.empty() ? "; " : "") + cub_wrong;
      if (!bench::record(state, configuration, mismatch))
      {
        return;
      }
    }
  }
  std::size_t temp_bytes = 0;
  bench::check(invoke<STRATA>(nullptr, temp_bytes, b, cudaStream_t(0)), "size query");
  void* d_temp = bench::scratch(3, temp_bytes);
  bench::time_iterations(state, [&](cudaStream_t stream)
                         { bench::check(invoke<STRATA>(d_temp, temp_bytes, b, stream), "copy"); });
  bench::set_throughput(state, b.buffers(), 2 * b.total());
  state.counters["temp_bytes"] = double(temp_bytes);
}

//! cudaMemcpyAsync of the 16 MiB row's bytes, source arena to destination arena.
void memcpy_ceiling(benchmark::State& state)
{
  const batch& b = batch_of(shape::large);
  bench::time_iterations(state,
                         [&](cudaStream_t stream) {
                           bench::check(cudaMemcpyAsync(b.dst(), b.src(), b.total(), cudaMemcpyDeviceToDevice, stream),
                                        "cudaMemcpyAsync");
                         });
  bench::set_throughput(state, b.total(), 2 * b.total());
}

//! Registers 'DeviceMemcpy::Batched/<library>/<type>/<buffers>' for strata (STRATA) or CUB.
template <bool STRATA>
void register_row(const std::string& type, shape s)
{
  const std::string configuration = "DeviceMemcpy::Batched/" + type;
  const std::string name =
      bench::mode_name(std::string("DeviceMemcpy::Batched") + (STRATA ? "/strata/" : "/cub/") + type);
  auto* row = benchmark::RegisterBenchmark(name.c_str(), [s, configuration](benchmark::State& state)
                                           { memcpy_row<STRATA>(state, s, configuration); });
  row->Arg(s == shape::large ? 64 : 1 << 20)->UseManualTime()->Unit(benchmark::kMicrosecond);
}

[[maybe_unused]] const bool registered = []
{
  const std::pair<const char*, shape> shapes[] = {{"power_law", shape::power_law},
                                                  {"power_law_dst+1", shape::power_law_shifted},
                                                  {"16MiB", shape::large},
                                                  {"uniform_1_4096", shape::uniform}};
  for (const auto& [type, s] : shapes)
  {
    register_row<true>(type, s);
    register_row<false>(type, s);
  }
  benchmark::RegisterBenchmark(bench::mode_name("cudaMemcpy/u8").c_str(), memcpy_ceiling)
      ->Arg(1 << 30)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  return true;
}();
} // namespace

STRATA_BENCH_MAIN()

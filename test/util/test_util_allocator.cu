// Tests of strata/util_allocator.cuh: the bin arithmetic, argument checks, and on the GPU the
// caching, reuse and release rules of CachingDeviceAllocator, including many threads at once.
#include <strata/util_allocator.cuh>

#include "common/fd_capture.cuh"
#include "common/test_common.cuh"

#include <cuda/ptx>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace
{
using strata::CachingDeviceAllocator;
constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kib      = 1024;
constexpr std::size_t mib      = 1024 * kib;
constexpr std::size_t gib      = 1024 * mib;

// The word a block filled for `tag` holds at index i: for a fixed i, different tags give
// different words (tag * odd is a bijection), so a block overwritten by another owner shows.
__host__ __device__ std::uint32_t pattern(std::uint32_t tag, std::size_t i)
{
  return (tag * 0x9E3779B1u) ^ static_cast<std::uint32_t>(i);
}

__global__ void fill_kernel(std::uint32_t* words, std::size_t n, std::uint32_t tag)
{
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
  {
    words[i] = pattern(tag, i);
  }
}

// Counts the words that differ from the pattern of `tag`, after waiting about `delay_ns`: a block
// that another owner got too early is then likely overwritten before it is read.
__global__ void verify_kernel(const std::uint32_t* words, std::size_t n, std::uint32_t tag, unsigned int* errors,
                              std::uint64_t delay_ns)
{
  const std::uint64_t start = ::cuda::ptx::get_sreg_globaltimer();
  while (::cuda::ptx::get_sreg_globaltimer() - start < delay_ns)
  {
    __nanosleep(500);
  }
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
  {
    if (words[i] != pattern(tag, i))
    {
      atomicAdd(errors, 1u);
    }
  }
}

// Spins until the host sets *flag (or 10 s have passed, so that a failed test cannot hang).
__global__ void wait_for_flag_kernel(const volatile int* flag)
{
  const std::uint64_t start = ::cuda::ptx::get_sreg_globaltimer();
  while (*flag == 0 && ::cuda::ptx::get_sreg_globaltimer() - start < 10'000'000'000ull)
  {
    __nanosleep(1000);
  }
}

constexpr int fill_threads = 256;

int fill_blocks(std::size_t n)
{
  return static_cast<int>(std::min<std::size_t>((n + fill_threads - 1) / fill_threads, 128));
}

void launch_fill(void* block, std::size_t words, std::uint32_t tag, cudaStream_t stream)
{
  fill_kernel<<<fill_blocks(words), fill_threads, 0, stream>>>(static_cast<std::uint32_t*>(block), words, tag);
}

std::vector<std::uint32_t> expected_pattern(std::size_t words, std::uint32_t tag)
{
  std::vector<std::uint32_t> expected(words);
  for (std::size_t i = 0; i < words; ++i)
  {
    expected[i] = pattern(tag, i);
  }
  return expected;
}

std::vector<std::uint32_t> download_words(const void* block, std::size_t words)
{
  std::vector<std::uint32_t> host(words);
  STRATA_TEST_CUDA(cudaMemcpy(host.data(), block, words * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  return host;
}

// True when no allocation covers `ptr` any more (it was given back to the runtime).
bool is_released(const void* ptr)
{
  cudaPointerAttributes attributes{};
  const cudaError_t error = cudaPointerGetAttributes(&attributes, ptr);
  static_cast<void>(cudaGetLastError());
  return error == cudaSuccess && attributes.type == cudaMemoryTypeUnregistered;
}

// The device a pointer's device allocation lives on, or -1.
int device_of(const void* ptr)
{
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess || attributes.type != cudaMemoryTypeDevice)
  {
    static_cast<void>(cudaGetLastError());
    return -1;
  }
  return attributes.device;
}

// Catch2 assertions written in the constructor of a class that has a destructor make cudafe++
// (CUDA 13.0) hang in an anonymous namespace: such constructors assert through this function.
void require(bool condition, const std::string& what)
{
  INFO(what);
  REQUIRE(condition);
}

class stream_t
{
public:
  stream_t()
  {
    const cudaError_t error = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    require(error == cudaSuccess, "cudaStreamCreateWithFlags: " + strata_test::describe(error));
  }
  stream_t(const stream_t&)            = delete;
  stream_t& operator=(const stream_t&) = delete;
  ~stream_t()
  {
    static_cast<void>(cudaStreamDestroy(stream_));
  }
  operator cudaStream_t() const
  {
    return stream_;
  }

private:
  cudaStream_t stream_ = nullptr;
};

} // namespace

TEST_CASE("CachingDeviceAllocator: bin arithmetic (host)", "[util][allocator]")
{
  using strata::detail::RoundUpToBin;
  using strata::detail::SaturatingPow;
  constexpr unsigned int invalid = CachingDeviceAllocator::INVALID_BIN;

  STATIC_REQUIRE(SaturatingPow(8, 0) == 1);
  STATIC_REQUIRE(SaturatingPow(8, 3) == 512);
  STATIC_REQUIRE(SaturatingPow(8, 7) == 2 * mib);
  STATIC_REQUIRE(SaturatingPow(2, 63) == std::size_t(1) << 63);
  STATIC_REQUIRE(SaturatingPow(2, 64) == size_max);
  STATIC_REQUIRE(SaturatingPow(8, invalid) == size_max);
  STATIC_REQUIRE(SaturatingPow(1, invalid) == 1);
  STATIC_REQUIRE(SaturatingPow(0, 0) == 1);
  STATIC_REQUIRE(SaturatingPow(0, 5) == 0);

  struct case_t
  {
    unsigned int growth, min_bin, max_bin;
    std::size_t bytes;
    unsigned int bin;
    std::size_t rounded;
  };
  const case_t cases[] = {
      {8, 3, 7, 0, 3, 512},
      {8, 3, 7, 1, 3, 512},
      {8, 3, 7, 512, 3, 512},
      {8, 3, 7, 513, 4, 4096},
      {8, 3, 7, 4096, 4, 4096},
      {8, 3, 7, 2 * mib, 7, 2 * mib},
      {8, 3, 7, 2 * mib + 1, invalid, 2 * mib + 1},
      {8, 3, 7, size_max, invalid, size_max},
      {3, 0, 10, 10, 3, 27},
      {3, 0, 10, 1, 0, 1},
      {2, 0, 0, 1, 0, 1},
      {2, 0, 0, 2, invalid, 2},
      {2, 0, invalid, std::size_t(1) << 63, 63, std::size_t(1) << 63},
      {2, 0, invalid, (std::size_t(1) << 63) + 1, invalid, (std::size_t(1) << 63) + 1},
      {2, 5, 3, 1, invalid, 1},        // a smallest bin above the largest: nothing is cached
      {2, 70, invalid, 1, invalid, 1}, // a smallest bin beyond size_t
  };
  for (const case_t& c : cases)
  {
    INFO("growth " << c.growth << " bins " << c.min_bin << ".." << c.max_bin << " bytes " << c.bytes);
    const strata::detail::AllocationBin result = RoundUpToBin(c.growth, c.min_bin, c.max_bin, c.bytes);
    CHECK(result.bin == c.bin);
    CHECK(result.bytes == c.rounded);
  }

  // Against a direct definition, on random sizes and configurations.
  const auto seed = strata_test::seed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 20000; ++trial)
  {
    const unsigned int growth  = 2 + static_cast<unsigned int>(rng() % 15);
    const unsigned int min_bin = static_cast<unsigned int>(rng() % 6);
    const unsigned int max_bin = min_bin + static_cast<unsigned int>(rng() % 8);
    const std::size_t bytes    = rng() >> (rng() % 64);
    unsigned int bin           = min_bin;
    while (bin <= max_bin && SaturatingPow(growth, bin) < bytes)
    {
      ++bin;
    }
    const strata::detail::AllocationBin result = RoundUpToBin(growth, min_bin, max_bin, bytes);
    INFO("growth " << growth << " bins " << min_bin << ".." << max_bin << " bytes " << bytes);
    if (bin <= max_bin && SaturatingPow(growth, bin) != size_max)
    {
      REQUIRE(result.bin == bin);
      REQUIRE(result.bytes == SaturatingPow(growth, bin));
    }
    else
    {
      REQUIRE(result.bin == invalid);
      REQUIRE(result.bytes == bytes);
    }
  }
}

TEST_CASE("CachingDeviceAllocator: configuration (host)", "[util][allocator]")
{
  STATIC_REQUIRE(CachingDeviceAllocator::INVALID_BIN == ~0u);
  STATIC_REQUIRE(CachingDeviceAllocator::INVALID_SIZE == size_max);
  STATIC_REQUIRE(CachingDeviceAllocator::INVALID_DEVICE_ORDINAL == -1);

  {
    CachingDeviceAllocator allocator;
    CHECK(allocator.bin_growth == 8);
    CHECK(allocator.min_bin == 3);
    CHECK(allocator.max_bin == 7);
    CHECK(allocator.min_bin_bytes == 512);
    CHECK(allocator.max_bin_bytes == 2 * mib);
    CHECK(allocator.max_cached_bytes == 6'291'455);
    CHECK_FALSE(allocator.skip_cleanup);
    CHECK_FALSE(allocator.debug);
    CHECK(allocator.cached_bytes.empty());
    CHECK(allocator.SetMaxCachedBytes(1234) == cudaSuccess);
    CHECK(allocator.max_cached_bytes == 1234);
  }
  {
    CachingDeviceAllocator allocator(true, true);
    CHECK(allocator.skip_cleanup);
    CHECK(allocator.debug);
  }
  {
    CachingDeviceAllocator allocator(4u);
    CHECK(allocator.bin_growth == 4);
    CHECK(allocator.min_bin == 1);
    CHECK(allocator.max_bin == CachingDeviceAllocator::INVALID_BIN);
    CHECK(allocator.min_bin_bytes == 4);
    CHECK(allocator.max_bin_bytes == size_max);
    CHECK(allocator.max_cached_bytes == CachingDeviceAllocator::INVALID_SIZE);
    CHECK_FALSE(allocator.skip_cleanup);
    CHECK_FALSE(allocator.debug);
  }
  {
    CachingDeviceAllocator allocator(2u, 10, 20, 3000, true);
    CHECK(allocator.min_bin_bytes == kib);
    CHECK(allocator.max_bin_bytes == mib);
    CHECK(allocator.max_cached_bytes == 3000);
    CHECK(allocator.skip_cleanup);
  }
}

TEST_CASE("CachingDeviceAllocator: invalid arguments (host)", "[util][allocator]")
{
  CachingDeviceAllocator allocator;
  int host_object = 0;
  void* d_ptr     = &host_object;
  CHECK(allocator.DeviceAllocate(nullptr, 16) == cudaErrorInvalidValue);
  CHECK(allocator.DeviceAllocate(-5, &d_ptr, 16) == cudaErrorInvalidDevice);
  CHECK(d_ptr == nullptr);

  // Not a block of this allocator: rejected without touching it (or any device).
  CHECK(allocator.DeviceFree(0, &host_object) == cudaErrorInvalidValue);
  CHECK(allocator.DeviceFree(-3, &host_object) == cudaErrorInvalidDevice);
  CHECK(allocator.DeviceFree(0, nullptr) == cudaSuccess);
  CHECK(allocator.DeviceFree(nullptr) == cudaSuccess);

  CachingDeviceAllocator no_growth(1u, 0, 4);
  d_ptr = &host_object;
  CHECK(no_growth.DeviceAllocate(0, &d_ptr, 16) == cudaErrorInvalidValue);
  CHECK(d_ptr == nullptr);
  CHECK(allocator.cached_bytes.empty());
}

TEST_CASE("CachingDeviceAllocator: a freed block is reused for its bin on its stream", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int device = strata::CurrentDevice();
  REQUIRE(device >= 0);
  CachingDeviceAllocator allocator;
  stream_t stream;

  void* a = nullptr;
  REQUIRE(allocator.DeviceAllocate(&a, 1000, stream) == cudaSuccess);
  REQUIRE(a != nullptr);
  CHECK(device_of(a) == device);
  CHECK(allocator.cached_bytes[device].live == 4096);
  CHECK(allocator.cached_bytes[device].free == 0);

  // The whole rounded-up bin is usable.
  launch_fill(a, 1024, 7, stream);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  strata_test::check_launch();
  strata_test::check_equal(expected_pattern(1024, 7), download_words(a, 1024));

  REQUIRE(allocator.DeviceFree(a) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].live == 0);
  CHECK(allocator.cached_bytes[device].free == 4096);
  CHECK_FALSE(is_released(a));

  void* b = nullptr;
  REQUIRE(allocator.DeviceAllocate(&b, 3000, stream) == cudaSuccess);
  CHECK(b == a);
  CHECK(allocator.cached_bytes[device].live == 4096);
  CHECK(allocator.cached_bytes[device].free == 0);

  // Zero bytes: a block of the smallest bin, distinct from the live one.
  void* c = nullptr;
  REQUIRE(allocator.DeviceAllocate(&c, 0, stream) == cudaSuccess);
  CHECK(c != nullptr);
  CHECK(c != b);
  CHECK(allocator.cached_bytes[device].live == 4096 + 512);

  REQUIRE(allocator.DeviceFree(b) == cudaSuccess);
  REQUIRE(allocator.DeviceFree(c) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 4096 + 512);
  CHECK(allocator.cached_bytes[device].live == 0);

  // A second free of the same block is an error and changes nothing.
  CHECK(allocator.DeviceFree(b) == cudaErrorInvalidValue);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 4096 + 512);

  // The default stream works like any other.
  void* d = nullptr;
  REQUIRE(allocator.DeviceAllocate(&d, 100) == cudaSuccess);
  CHECK(d != nullptr);
  REQUIRE(allocator.DeviceFree(d) == cudaSuccess);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("CachingDeviceAllocator: requests above the largest bin are exact and never cached", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int device = strata::CurrentDevice();
  CachingDeviceAllocator allocator;

  void* large = nullptr;
  REQUIRE(allocator.DeviceAllocate(&large, 2 * mib + 1) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].live == 2 * mib + 1);
  REQUIRE(allocator.DeviceFree(large) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].live == 0);
  CHECK(allocator.cached_bytes[device].free == 0);
  CHECK(is_released(large));

  // The largest bin itself is cached.
  void* largest_bin = nullptr;
  REQUIRE(allocator.DeviceAllocate(&largest_bin, 2 * mib) == cudaSuccess);
  REQUIRE(allocator.DeviceFree(largest_bin) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 2 * mib);
  CHECK_FALSE(is_released(largest_bin));

  // Without a largest bin, large requests are rounded up and cached too.
  CachingDeviceAllocator unbounded(2u);
  void* rounded = nullptr;
  REQUIRE(unbounded.DeviceAllocate(&rounded, 5 * mib) == cudaSuccess);
  CHECK(unbounded.cached_bytes[device].live == 8 * mib);
  REQUIRE(unbounded.DeviceFree(rounded) == cudaSuccess);
  CHECK(unbounded.cached_bytes[device].free == 8 * mib);
}

TEST_CASE("CachingDeviceAllocator: a device caches at most max_cached_bytes", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int device = strata::CurrentDevice();
  CachingDeviceAllocator allocator(2u, 10, 20, 3000); // bins of 1 KiB to 1 MiB
  stream_t stream;

  void* blocks[3]               = {};
  const std::size_t requests[3] = {1000, 1024, 1};
  for (int i = 0; i < 3; ++i)
  {
    REQUIRE(allocator.DeviceAllocate(&blocks[i], requests[i], stream) == cudaSuccess);
  }
  CHECK(allocator.cached_bytes[device].live == 3 * kib);
  REQUIRE(allocator.DeviceFree(blocks[0]) == cudaSuccess);
  REQUIRE(allocator.DeviceFree(blocks[1]) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 2 * kib);
  // A third cached KiB would exceed 3000 bytes: released instead.
  REQUIRE(allocator.DeviceFree(blocks[2]) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 2 * kib);
  CHECK(allocator.cached_bytes[device].live == 0);
  CHECK(is_released(blocks[2]));
  CHECK_FALSE(is_released(blocks[0]));
  CHECK_FALSE(is_released(blocks[1]));

  // Lowering the limit frees nothing now, but nothing more is cached.
  REQUIRE(allocator.SetMaxCachedBytes(0) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 2 * kib);
  void* reused = nullptr;
  REQUIRE(allocator.DeviceAllocate(&reused, 512, stream) == cudaSuccess);
  REQUIRE((reused == blocks[0] || reused == blocks[1]));
  void* other = reused == blocks[0] ? blocks[1] : blocks[0];
  CHECK(allocator.cached_bytes[device].free == kib);
  REQUIRE(allocator.DeviceFree(reused) == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == kib);
  CHECK(is_released(reused));

  REQUIRE(allocator.FreeAllCached() == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 0);
  CHECK(is_released(other));
}

TEST_CASE("CachingDeviceAllocator: another stream reuses a block only after its work is done", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  CachingDeviceAllocator allocator;
  stream_t first;
  stream_t second;
  int* flag = nullptr;
  STRATA_TEST_CUDA(cudaMallocHost(&flag, sizeof(int)));
  *flag = 0;

  void* a = nullptr;
  REQUIRE(allocator.DeviceAllocate(&a, 1000, first) == cudaSuccess);
  wait_for_flag_kernel<<<1, 1, 0, first>>>(flag);
  STRATA_TEST_CUDA(cudaGetLastError());
  REQUIRE(allocator.DeviceFree(a) == cudaSuccess);

  // `first` is still busy: the other stream gets a new block, `first` itself the cached one.
  // (Nothing here may synchronize the device until the flag is set.)
  void* b                   = nullptr;
  const cudaError_t b_error = allocator.DeviceAllocate(&b, 1000, second);
  // Finding the cached block busy is not an error a caller should see later.
  const cudaError_t b_pending      = cudaPeekAtLastError();
  void* c                          = nullptr;
  const cudaError_t c_error        = allocator.DeviceAllocate(&c, 1000, first);
  const cudaError_t c_free_error   = allocator.DeviceFree(c);
  const cudaError_t first_status   = cudaStreamQuery(first);
  *const_cast<volatile int*>(flag) = 1;
  STRATA_TEST_CUDA(cudaStreamSynchronize(first));

  CHECK(b_error == cudaSuccess);
  CHECK(b_pending == cudaSuccess);
  CHECK(c_error == cudaSuccess);
  CHECK(c_free_error == cudaSuccess);
  CHECK(first_status == cudaErrorNotReady);
  CHECK(b != a);
  CHECK(c == a);

  // Now that `first` is idle, `second` may have its block (b is still live, so a is the only
  // cached one of the bin).
  void* d = nullptr;
  REQUIRE(allocator.DeviceAllocate(&d, 1000, second) == cudaSuccess);
  CHECK(d == a);
  CHECK(allocator.DeviceFree(b) == cudaSuccess);
  CHECK(allocator.DeviceFree(d) == cudaSuccess);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  STRATA_TEST_CUDA(cudaFreeHost(flag));
}

TEST_CASE("CachingDeviceAllocator: FreeAllCached and the destructor", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int device             = strata::CurrentDevice();
  void* kept_after_destruction = nullptr;
  void* released_by_destructor = nullptr;
  {
    CachingDeviceAllocator allocator;
    void* small[3]             = {};
    const std::size_t sizes[3] = {512, 4 * kib, 32 * kib};
    for (int i = 0; i < 3; ++i)
    {
      REQUIRE(allocator.DeviceAllocate(&small[i], sizes[i]) == cudaSuccess);
    }
    void* live = nullptr;
    REQUIRE(allocator.DeviceAllocate(&live, 256 * kib) == cudaSuccess);
    for (void* block : small)
    {
      REQUIRE(allocator.DeviceFree(block) == cudaSuccess);
    }
    CHECK(allocator.cached_bytes[device].free == 512 + 4 * kib + 32 * kib);

    REQUIRE(allocator.FreeAllCached() == cudaSuccess);
    CHECK(allocator.cached_bytes[device].free == 0);
    CHECK(allocator.cached_bytes[device].live == 256 * kib);
    for (void* block : small)
    {
      CHECK(is_released(block));
    }
    // A live block survives FreeAllCached.
    CHECK_FALSE(is_released(live));
    STRATA_TEST_CUDA(cudaMemset(live, 1, 256 * kib));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());

    REQUIRE(allocator.DeviceFree(live) == cudaSuccess);
    CHECK(allocator.cached_bytes[device].free == 256 * kib);
    released_by_destructor = live;
  }
  CHECK(is_released(released_by_destructor));

  {
    CachingDeviceAllocator allocator(true);
    REQUIRE(allocator.DeviceAllocate(&kept_after_destruction, 100) == cudaSuccess);
    REQUIRE(allocator.DeviceFree(kept_after_destruction) == cudaSuccess);
  }
  // skip_cleanup: the cached block outlives the allocator.
  CHECK_FALSE(is_released(kept_after_destruction));
  STRATA_TEST_CUDA(cudaFree(kept_after_destruction));
}

TEST_CASE("CachingDeviceAllocator: explicit devices", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  STRATA_TEST_CUDA(cudaSetDevice(0));
  CachingDeviceAllocator allocator;

  void* a = nullptr;
  REQUIRE(allocator.DeviceAllocate(0, &a, 100) == cudaSuccess);
  CHECK(device_of(a) == 0);
  CHECK(allocator.cached_bytes[0].live == 512);
  REQUIRE(allocator.DeviceFree(0, a) == cudaSuccess);
  CHECK(allocator.cached_bytes[0].free == 512);
  // The current device is device 0: the same block, without naming it.
  void* b = nullptr;
  REQUIRE(allocator.DeviceAllocate(&b, 200) == cudaSuccess);
  CHECK(b == a);
  REQUIRE(allocator.DeviceFree(b) == cudaSuccess);

  const int count = strata::DeviceCount();
  void* bad       = &allocator;
  CHECK(allocator.DeviceAllocate(count, &bad, 100) == cudaErrorInvalidDevice);
  CHECK(bad == nullptr);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK(allocator.cached_bytes.count(count) == 0);
  CHECK(strata::CurrentDevice() == 0);

  if (count >= 2)
  {
    // Another device is current: a block on device 0, then one on device 1, and the current
    // device is never changed.
    STRATA_TEST_CUDA(cudaSetDevice(1));
    void* on_zero = nullptr;
    REQUIRE(allocator.DeviceAllocate(0, &on_zero, 100) == cudaSuccess);
    CHECK(on_zero == a);
    CHECK(strata::CurrentDevice() == 1);
    void* on_one = nullptr;
    REQUIRE(allocator.DeviceAllocate(&on_one, 100) == cudaSuccess);
    CHECK(device_of(on_one) == 1);
    CHECK(allocator.DeviceFree(on_zero) == cudaErrorInvalidValue); // not a block of device 1
    CHECK(allocator.DeviceFree(0, on_zero) == cudaSuccess);
    CHECK(allocator.DeviceFree(on_one) == cudaSuccess);
    CHECK(strata::CurrentDevice() == 1);
    CHECK(allocator.FreeAllCached() == cudaSuccess);
    CHECK(strata::CurrentDevice() == 1);
    CHECK(allocator.cached_bytes[0].free == 0);
    CHECK(allocator.cached_bytes[1].free == 0);
    STRATA_TEST_CUDA(cudaSetDevice(0));
  }
}

TEST_CASE("CachingDeviceAllocator: pointers it did not hand out are rejected", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  CachingDeviceAllocator allocator;
  void* foreign = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&foreign, 4096));
  CHECK(allocator.DeviceFree(foreign) == cudaErrorInvalidValue);
  // Left alone: still allocated, and still ours to free.
  CHECK_FALSE(is_released(foreign));
  STRATA_TEST_CUDA(cudaFree(foreign));

  void* block = nullptr;
  REQUIRE(allocator.DeviceAllocate(&block, 4096) == cudaSuccess);
  CHECK(allocator.DeviceFree(static_cast<char*>(block) + 16) == cudaErrorInvalidValue);
  CHECK(allocator.cached_bytes[strata::CurrentDevice()].live == 4096);
  CHECK(allocator.DeviceFree(block) == cudaSuccess);
}

TEST_CASE("CachingDeviceAllocator: out of memory releases the cache and retries", "[util][allocator][gpu][serial]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int device = strata::CurrentDevice();
  // Bins of 1 MiB to 16 GiB, no cache limit.
  CachingDeviceAllocator allocator(2u, 20, 34);

  void* cached = nullptr;
  REQUIRE(allocator.DeviceAllocate(&cached, gib) == cudaSuccess);
  REQUIRE(allocator.DeviceFree(cached) == cudaSuccess);
  REQUIRE(allocator.cached_bytes[device].free == gib);

  // Leave about 1.5 GiB free: a 2 GiB block fits only once the cached GiB is released.
  std::size_t free_bytes  = 0;
  std::size_t total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  REQUIRE(free_bytes > 2 * gib);
  void* ballast = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&ballast, free_bytes - 3 * gib / 2));

  void* large             = nullptr;
  const cudaError_t error = allocator.DeviceAllocate(&large, 2 * gib);
  CHECK(error == cudaSuccess);
  CHECK(large != nullptr);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 0);
  CHECK(allocator.cached_bytes[device].live == (error == cudaSuccess ? 2 * gib : 0));

  // When even releasing the cache does not help, the error comes back (and is not left pending).
  void* small = nullptr;
  REQUIRE(allocator.DeviceAllocate(&small, mib) == cudaSuccess);
  REQUIRE(allocator.DeviceFree(small) == cudaSuccess);
  if (error == cudaSuccess)
  {
    REQUIRE(allocator.DeviceFree(large) == cudaSuccess);
  }
  REQUIRE(allocator.cached_bytes[device].free == (error == cudaSuccess ? 2 * gib + mib : mib));
  void* impossible = &allocator;
  CHECK(allocator.DeviceAllocate(&impossible, 1024 * gib) == cudaErrorMemoryAllocation);
  CHECK(impossible == nullptr);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 0);
  STRATA_TEST_CUDA(cudaFree(ballast));
}

TEST_CASE("CachingDeviceAllocator: debug mode reports every event on stderr", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  CachingDeviceAllocator allocator(false, true);
  CachingDeviceAllocator quiet;
  void* block           = nullptr;
  void* large           = nullptr;
  void* quiet_block     = nullptr;
  cudaError_t errors[7] = {};
  std::string text;
  {
    strata_test::fd_capture capture(2);
    errors[0] = allocator.DeviceAllocate(&block, 1000);
    errors[1] = allocator.DeviceFree(block);
    errors[2] = allocator.DeviceAllocate(&block, 1000);
    errors[3] = allocator.DeviceFree(block);
    errors[4] = allocator.DeviceAllocate(&large, 2 * mib + 1);
    errors[5] = allocator.DeviceFree(large);
    errors[6] = quiet.DeviceAllocate(&quiet_block, 1000);
    text      = capture.text();
  }
  for (const cudaError_t error : errors)
  {
    CHECK(error == cudaSuccess);
  }
  INFO(text);
  CHECK(strata_test::contains(text, "strata: CachingDeviceAllocator: device"));
  CHECK(strata_test::contains(text, "allocated 4096 bytes"));
  CHECK(strata_test::contains(text, "cached 4096 bytes"));
  CHECK(strata_test::contains(text, "reused 4096 bytes"));
  CHECK(strata_test::contains(text, "allocated 2097153 bytes"));
  CHECK(strata_test::contains(text, "freed 2097153 bytes"));
  // Six lines from the debug allocator, none from the quiet one.
  CHECK(std::count(text.begin(), text.end(), '\n') == 6);
  CHECK(quiet.DeviceFree(quiet_block) == cudaSuccess);

  // A debug allocator destroyed with blocks still live says so.
  void* leaked = nullptr;
  std::string leak_report;
  {
    auto leaky = std::make_unique<CachingDeviceAllocator>(false, true);
    REQUIRE(leaky->DeviceAllocate(&leaked, 100) == cudaSuccess);
    REQUIRE(leaky->DeviceAllocate(&block, 5000) == cudaSuccess);
    REQUIRE(leaky->DeviceFree(block) == cudaSuccess);
    strata_test::fd_capture capture(2);
    leaky.reset();
    leak_report = capture.text();
  }
  INFO(leak_report);
  CHECK(strata_test::contains(leak_report, "512 bytes in 1 blocks never freed"));
  CHECK(strata_test::contains(leak_report, "freed 32768 bytes"));
  STRATA_TEST_CUDA(cudaFree(leaked));
}

namespace
{
// Live address ranges of every stress-test thread: a range handed out twice is a bug.
class live_ranges
{
public:
  bool insert(const void* ptr, std::size_t bytes)
  {
    const auto begin = reinterpret_cast<std::uintptr_t>(ptr);
    const auto end   = begin + bytes;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto next = ranges_.lower_bound(begin);
    if (next != ranges_.end() && next->first < end)
    {
      return false;
    }
    if (next != ranges_.begin() && std::prev(next)->second > begin)
    {
      return false;
    }
    ranges_.emplace(begin, end);
    return true;
  }
  void erase(const void* ptr)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_.erase(reinterpret_cast<std::uintptr_t>(ptr));
  }

private:
  std::mutex mutex_;
  std::map<std::uintptr_t, std::uintptr_t> ranges_;
};

struct stress_block
{
  void* ptr;
  std::size_t words;
  std::uint32_t tag;
};

// One thread of the stress test, on its own stream: random allocations (about 1 in 100 above
// the largest bin), each filled with a pattern of its own, verified on the device (after a random
// delay of up to 20 us) and freed in random order while up to four are live. Catch2's assertions are not thread-safe:
// failures are reported in `failure`.
void stress_worker(CachingDeviceAllocator& allocator, live_ranges& ranges, int device, std::uint32_t thread,
                   std::uint64_t seed, int cycles, unsigned int* d_errors, std::string& failure)
{
  const auto fail = [&](const std::string& what, cudaError_t error)
  {
    if (failure.empty())
    {
      failure = "thread " + std::to_string(thread) + ": " + what + ": " + strata_test::describe(error);
    }
  };
  cudaError_t error   = cudaSetDevice(device);
  cudaStream_t stream = nullptr;
  if (error == cudaSuccess)
  {
    error = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  }
  if (error != cudaSuccess)
  {
    fail("setup", error);
    return;
  }
  std::mt19937_64 rng(seed);
  std::vector<stress_block> live;
  const auto release = [&](std::size_t index)
  {
    const stress_block block = live[index];
    live[index]              = live.back();
    live.pop_back();
    verify_kernel<<<fill_blocks(block.words), fill_threads, 0, stream>>>(
        static_cast<const std::uint32_t*>(block.ptr), block.words, block.tag, d_errors + thread, rng() % 20'000);
    const cudaError_t launch_error = cudaGetLastError();
    if (launch_error != cudaSuccess)
    {
      fail("verify launch", launch_error);
    }
    // Forget the range first: once freed, another thread may get it at once.
    ranges.erase(block.ptr);
    const cudaError_t free_error = allocator.DeviceFree(block.ptr);
    if (free_error != cudaSuccess)
    {
      fail("DeviceFree", free_error);
    }
  };

  for (int cycle = 0; cycle < cycles && failure.empty(); ++cycle)
  {
    if (live.size() < 4 && (live.empty() || rng() % 2 == 0))
    {
      const std::size_t words = rng() % 100 == 0 ? 600'000 : 1 + rng() % 70'000;
      void* ptr               = nullptr;
      error                   = allocator.DeviceAllocate(&ptr, words * sizeof(std::uint32_t), stream);
      if (error != cudaSuccess || ptr == nullptr)
      {
        fail("DeviceAllocate", error);
        break;
      }
      if (!ranges.insert(ptr, words * sizeof(std::uint32_t)))
      {
        fail("overlapping live blocks", cudaSuccess);
      }
      const std::uint32_t tag = (thread << 24) | static_cast<std::uint32_t>(cycle);
      launch_fill(ptr, words, tag, stream);
      error = cudaGetLastError();
      if (error != cudaSuccess)
      {
        fail("fill launch", error);
      }
      live.push_back(stress_block{ptr, words, tag});
    }
    else
    {
      release(static_cast<std::size_t>(rng() % live.size()));
    }
    if (rng() % 64 == 0)
    {
      error = cudaStreamSynchronize(stream);
      if (error != cudaSuccess)
      {
        fail("cudaStreamSynchronize", error);
      }
    }
  }
  while (!live.empty())
  {
    release(live.size() - 1);
  }
  error = cudaStreamSynchronize(stream);
  if (error != cudaSuccess)
  {
    fail("final cudaStreamSynchronize", error);
  }
  static_cast<void>(cudaStreamDestroy(stream));
}
} // namespace

TEST_CASE("CachingDeviceAllocator: many threads at once", "[util][allocator][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int thread_count = 8;
  // Under a sanitizer every allocation and launch costs much more; 400 cycles a thread still
  // fill and drain both caches many times over (the small one releases blocks within a few).
  const int cycles = strata_test::under_sanitizer() ? 400 : 3000;
  const int device = strata::CurrentDevice();
  const int config = GENERATE(0, 1);
  INFO("config " << config);
  // The default bins, and a small cache (bins of 1 KiB to 256 KiB, 1 MiB per device) that
  // often has to release blocks.
  CachingDeviceAllocator default_allocator;
  CachingDeviceAllocator small_allocator(4u, 5, 9, mib);
  CachingDeviceAllocator& allocator = config == 0 ? default_allocator : small_allocator;

  const auto seed = strata_test::seed(static_cast<std::uint64_t>(config));
  INFO("seed " << seed);
  strata_test::device_buffer<unsigned int> d_errors(thread_count);
  STRATA_TEST_CUDA(cudaMemset(d_errors.data(), 0, d_errors.bytes()));
  live_ranges ranges;
  std::vector<std::string> failures(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t)
  {
    threads.emplace_back(stress_worker, std::ref(allocator), std::ref(ranges), device, static_cast<std::uint32_t>(t),
                         seed + static_cast<std::uint64_t>(t), cycles, d_errors.data(), std::ref(failures[t]));
  }
  for (std::thread& thread : threads)
  {
    thread.join();
  }
  for (const std::string& failure : failures)
  {
    INFO(failure);
    CHECK(failure.empty());
  }
  strata_test::check_launch();
  strata_test::check_equal(std::vector<unsigned int>(thread_count, 0u), d_errors.download());
  CHECK(allocator.cached_bytes[device].live == 0);
  CHECK(allocator.cached_bytes[device].free <= allocator.max_cached_bytes);
  CHECK(allocator.cached_bytes[device].free > 0);
  CHECK(allocator.FreeAllCached() == cudaSuccess);
  CHECK(allocator.cached_bytes[device].free == 0);
}

// Tests of strata/util_device.cuh: the device queries against the CUDA runtime, invalid ordinals,
// concurrent callers, and detail::PerDeviceCache on its own (host only).
#include <strata/util_device.cuh>

#include "common/test_common.cuh"

#include <cuda/ptx>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace
{
// The PTX version the runtime picks on a device of `sm_version`: the newest architecture this
// program was compiled for that is not newer than the device.
int expected_ptx_version(int sm_version)
{
  const int compiled[] = {__CUDA_ARCH_LIST__};
  int best             = 0;
  for (const int arch : compiled)
  {
    if (arch <= sm_version)
    {
      best = std::max(best, arch);
    }
  }
  return best;
}

__global__ void small_kernel(int* out)
{
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}

__global__ void dynamic_smem_kernel(int* out)
{
  extern __shared__ int smem[];
  smem[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = smem[blockDim.x - 1 - threadIdx.x];
}

// Waits about `nanoseconds` on the device, then sets *flag: a stream that is really waited for.
__global__ void delayed_store_kernel(volatile int* flag, std::uint64_t nanoseconds)
{
  const std::uint64_t start = ::cuda::ptx::get_sreg_globaltimer();
  while (::cuda::ptx::get_sreg_globaltimer() - start < nanoseconds)
  {
    __nanosleep(1000);
  }
  *flag = 1;
}

// Sets a single flag once `ready` reaches `count`, so that threads start their work together.
void wait_for_all(std::atomic<int>& ready, int count)
{
  ready.fetch_add(1);
  while (ready.load() < count)
  {
    std::this_thread::yield();
  }
}
} // namespace

TEST_CASE("DeviceCount and CurrentDevice agree with the runtime", "[util][device]")
{
  int count               = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  static_cast<void>(cudaGetLastError());
  const int expected_count = error == cudaSuccess ? count : -1;
  CHECK(strata::DeviceCountUncached() == expected_count);
  CHECK(strata::DeviceCount() == expected_count);
  CHECK(strata::DeviceCount() == strata::DeviceCount());

  int device                = -1;
  const cudaError_t current = cudaGetDevice(&device);
  static_cast<void>(cudaGetLastError());
  CHECK(strata::CurrentDevice() == (current == cudaSuccess ? device : -1));
  if (!strata_test::gpu_available())
  {
    CHECK(strata::DeviceCount() <= 0);
  }
}

TEST_CASE("Device queries reject ordinals that name no device", "[util][device]")
{
  // Runs with and without a GPU: without one, every ordinal is invalid.
  const int before  = strata::CurrentDevice();
  const int invalid = std::max(strata::DeviceCount(), 0);
  for (const int device : {-1, invalid})
  {
    INFO("device " << device);
    int value = 12345;
    CHECK(strata::PtxVersion(value, device) == cudaErrorInvalidDevice);
    CHECK(strata::SmVersion(value, device) == cudaErrorInvalidDevice);
    CHECK(value == 12345);
    CHECK(strata::CurrentDevice() == before);
  }
}

TEST_CASE("Uncached device queries report invalid ordinals and keep the current device", "[util][device][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int before = strata::CurrentDevice();
  for (const int device : {-1, strata::DeviceCount()})
  {
    INFO("device " << device);
    int value = 0;
    CHECK(strata::PtxVersionUncached(value, device) == cudaErrorInvalidDevice);
    CHECK(strata::SmVersionUncached(value, device) == cudaErrorInvalidDevice);
    CHECK(strata::CurrentDevice() == before);
    static_cast<void>(cudaGetLastError());
  }
}

TEST_CASE("PtxVersion: the compiled architecture the runtime runs", "[util][device][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  const int before = strata::CurrentDevice();
  for (int device = 0; device < strata::DeviceCount(); ++device)
  {
    INFO("device " << device);
    int sm_version = 0;
    REQUIRE(strata::SmVersion(sm_version, device) == cudaSuccess);
    int cached   = 0;
    int uncached = 0;
    REQUIRE(strata::PtxVersion(cached, device) == cudaSuccess);
    REQUIRE(strata::PtxVersionUncached(uncached, device) == cudaSuccess);
    CHECK(cached == uncached);
    // E.g. 900 on an H100 when built for sm_90.
    CHECK(cached == expected_ptx_version(sm_version));
    CHECK(cached % 10 == 0);
    CHECK(strata::CurrentDevice() == before);
  }

  int current_cached   = 0;
  int current_uncached = 0;
  int by_ordinal       = 0;
  REQUIRE(strata::PtxVersion(current_cached) == cudaSuccess);
  REQUIRE(strata::PtxVersionUncached(current_uncached) == cudaSuccess);
  REQUIRE(strata::PtxVersion(by_ordinal, before) == cudaSuccess);
  CHECK(current_cached == current_uncached);
  CHECK(current_cached == by_ordinal);
}

// PtxVersion only asks the runtime about EmptyKernel; a launch of it must work as well (CUB users
// launch theirs, e.g. to initialise a context), and lets the sanitizer runs reach every kernel.
TEST_CASE("EmptyKernel launches and does nothing", "[util][device][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata::detail::EmptyKernel<void><<<2, 64>>>();
  strata_test::check_launch();
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("SmVersion: the compute capability", "[util][device][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  for (int device = 0; device < strata::DeviceCount(); ++device)
  {
    INFO("device " << device);
    int major = 0;
    int minor = 0;
    STRATA_TEST_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    STRATA_TEST_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    int cached   = 0;
    int uncached = 0;
    REQUIRE(strata::SmVersion(cached, device) == cudaSuccess);
    REQUIRE(strata::SmVersionUncached(uncached, device) == cudaSuccess);
    CHECK(cached == major * 100 + minor * 10);
    CHECK(uncached == cached);
  }
  int current  = 0;
  int expected = 0;
  REQUIRE(strata::SmVersion(current) == cudaSuccess);
  REQUIRE(strata::SmVersionUncached(expected, strata::CurrentDevice()) == cudaSuccess);
  CHECK(current == expected);
}

TEST_CASE("MaxSmOccupancy agrees with the occupancy calculator", "[util][device][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  int max_threads_per_sm = 0;
  STRATA_TEST_CUDA(
      cudaDeviceGetAttribute(&max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, strata::CurrentDevice()));

  for (const int block_threads : {32, 128, 1024})
  {
    INFO("block_threads " << block_threads);
    int occupancy = 0;
    int expected  = 0;
    REQUIRE(strata::MaxSmOccupancy(occupancy, small_kernel, block_threads) == cudaSuccess);
    STRATA_TEST_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&expected, small_kernel, block_threads, 0));
    CHECK(occupancy == expected);
    CHECK(occupancy > 0);
    CHECK(occupancy * block_threads <= max_threads_per_sm);
  }

  int without_smem = 0;
  int with_smem    = 0;
  int expected     = 0;
  REQUIRE(strata::MaxSmOccupancy(without_smem, dynamic_smem_kernel, 128) == cudaSuccess);
  REQUIRE(strata::MaxSmOccupancy(with_smem, dynamic_smem_kernel, 128, 40 * 1024) == cudaSuccess);
  STRATA_TEST_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&expected, dynamic_smem_kernel, 128, 40 * 1024));
  CHECK(with_smem == expected);
  CHECK(with_smem > 0);
  CHECK(with_smem < without_smem);
}

TEST_CASE("SyncStream waits for the stream's work", "[util][device][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int* flag = nullptr;
  STRATA_TEST_CUDA(cudaMallocHost(&flag, sizeof(int)));
  *flag = 0;
  delayed_store_kernel<<<1, 1, 0, stream>>>(flag, 50'000'000); // 50 ms
  STRATA_TEST_CUDA(cudaGetLastError());
  CHECK(strata::SyncStream(stream) == cudaSuccess);
  CHECK(*static_cast<volatile int*>(flag) == 1);
  CHECK(cudaStreamQuery(stream) == cudaSuccess);
  STRATA_TEST_CUDA(cudaFreeHost(flag));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("PtxVersion and SmVersion from many threads at once", "[util][device][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int thread_count = 16;
  constexpr int calls        = 2000;
  const int device           = strata::CurrentDevice();
  int expected_ptx           = 0;
  int expected_sm            = 0;
  REQUIRE(strata::PtxVersionUncached(expected_ptx, device) == cudaSuccess);
  REQUIRE(strata::SmVersionUncached(expected_sm, device) == cudaSuccess);

  std::atomic<int> ready{0};
  std::vector<int> mismatches(thread_count, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t)
  {
    threads.emplace_back(
        [&, t]
        {
          if (cudaSetDevice(device) != cudaSuccess)
          {
            mismatches[t] = calls;
            return;
          }
          wait_for_all(ready, thread_count);
          for (int i = 0; i < calls; ++i)
          {
            int ptx_current = 0;
            int ptx_ordinal = 0;
            int sm          = 0;
            const bool ok   = strata::PtxVersion(ptx_current) == cudaSuccess
                            && strata::PtxVersion(ptx_ordinal, device) == cudaSuccess
                            && strata::SmVersion(sm, device) == cudaSuccess;
            if (!ok || ptx_current != expected_ptx || ptx_ordinal != expected_ptx || sm != expected_sm)
            {
              ++mismatches[t];
            }
          }
        });
  }
  for (std::thread& thread : threads)
  {
    thread.join();
  }
  strata_test::check_equal(std::vector<int>(thread_count, 0), mismatches);
}

TEST_CASE("PerDeviceCache: one computation per device (host)", "[util][device]")
{
  strata::detail::PerDeviceCache cache;
  int calls          = 0;
  const auto compute = [&calls](int device, int& value)
  {
    ++calls;
    value = 10 * device + 7;
    return cudaSuccess;
  };
  int value = 0;
  CHECK(cache.Get(0, value, compute) == cudaSuccess);
  CHECK(value == 7);
  CHECK(calls == 1);
  value = 0;
  CHECK(cache.Get(0, value, compute) == cudaSuccess);
  CHECK(value == 7);
  CHECK(calls == 1);
  CHECK(cache.Get(3, value, compute) == cudaSuccess);
  CHECK(value == 37);
  CHECK(calls == 2);
  CHECK(cache.Get(STRATA_MAX_DEVICES - 1, value, compute) == cudaSuccess);
  CHECK(value == 10 * (STRATA_MAX_DEVICES - 1) + 7);
  CHECK(calls == 3);
  CHECK(cache.Get(3, value, compute) == cudaSuccess);
  CHECK(cache.Get(0, value, compute) == cudaSuccess);
  CHECK(value == 7);
  CHECK(calls == 3);

  // Ordinals the cache has no room for are computed every time.
  for (const int device : {-1, STRATA_MAX_DEVICES})
  {
    INFO("device " << device);
    const int before = calls;
    CHECK(cache.Get(device, value, compute) == cudaSuccess);
    CHECK(value == 10 * device + 7);
    CHECK(cache.Get(device, value, compute) == cudaSuccess);
    CHECK(calls == before + 2);
  }
}

TEST_CASE("PerDeviceCache: failures are not cached (host)", "[util][device]")
{
  strata::detail::PerDeviceCache cache;
  int calls          = 0;
  const auto compute = [&calls](int, int& value)
  {
    ++calls;
    value = 42;
    return calls == 1 ? cudaErrorInvalidValue : cudaSuccess;
  };
  int value = 0;
  CHECK(cache.Get(1, value, compute) == cudaErrorInvalidValue);
  CHECK(calls == 1);
  CHECK(cache.Get(1, value, compute) == cudaSuccess);
  CHECK(value == 42);
  CHECK(calls == 2);
  value = 0;
  CHECK(cache.Get(1, value, compute) == cudaSuccess);
  CHECK(value == 42);
  CHECK(calls == 2);
}

TEST_CASE("PerDeviceCache: many threads at once (host)", "[util][device]")
{
  constexpr int thread_count = 16;
  constexpr int devices      = 4;
  constexpr int calls        = 500;
  strata::detail::PerDeviceCache cache;
  std::atomic<int> computations{0};
  // Slow enough that threads meet while an entry is being computed.
  const auto compute = [&computations](int device, int& value)
  {
    computations.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    value = 1000 + device;
    return cudaSuccess;
  };

  std::atomic<int> ready{0};
  std::vector<int> mismatches(thread_count, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t)
  {
    threads.emplace_back(
        [&, t]
        {
          wait_for_all(ready, thread_count);
          for (int i = 0; i < calls; ++i)
          {
            const int device = (t + i) % devices;
            int value        = -1;
            if (cache.Get(device, value, compute) != cudaSuccess || value != 1000 + device)
            {
              ++mismatches[t];
            }
          }
        });
  }
  for (std::thread& thread : threads)
  {
    thread.join();
  }
  strata_test::check_equal(std::vector<int>(thread_count, 0), mismatches);
  // Every device was computed at least once, and every entry is cached now.
  const int after_threads = computations.load();
  CHECK(after_threads >= devices);
  CHECK(after_threads < thread_count * calls);
  for (int device = 0; device < devices; ++device)
  {
    int value = -1;
    CHECK(cache.Get(device, value, compute) == cudaSuccess);
    CHECK(value == 1000 + device);
  }
  CHECK(computations.load() == after_threads);
}

// test/common/harness.cuh: what every strata test uses: GPU detection and skipping, CUDA error
// checks, an RAII device buffer with poisoning, and the test seed.
#pragma once

#include <catch2/catch_get_random_seed.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace strata_test
{
//! What a test case needing a GPU does on this machine (decided once per process).
struct gpu_verdict
{
  bool available;     //!< a CUDA device can be used: run the case
  bool fail;          //!< no usable device, and that is an error: fail the case with `reason`
  std::string reason; //!< why the case does not run (empty when it does)
};

//! Decides whether GPU test cases run, skip or fail. They skip only when the machine genuinely
//! has no GPU: cudaGetDeviceCount reports cudaErrorNoDevice or zero devices, or it reports
//! cudaErrorInsufficientDriver while no driver is installed at all (cudaDriverGetVersion gives 0)
//! and no NVIDIA device node exists. Any other error fails them, and so does "no GPU" when the
//! environment variable STRATA_TEST_EXPECT_GPU is set to 1 (scripts/gpu-check sets it).
const gpu_verdict& gpu_check();

//! True when a CUDA device can be used (asked once per process).
bool gpu_available();

//! The seed of this run (Catch2's --rng-seed; printed by Catch2 at start and by every failing
//! check of this harness), mixed with `salt` so that inputs of different buffers differ.
std::uint64_t seed(std::uint64_t salt = 0);

//! True when the program runs under compute-sanitizer for scripts/gpu-check (the environment
//! variable STRATA_TEST_UNDER_SANITIZER is 1): tests whose largest sizes only repeat code paths
//! that smaller sizes cover leave those sizes to the plain run of the suite.
bool under_sanitizer();

//! A short description of a CUDA error code for failure messages.
std::string describe(cudaError_t error);

//! The byte pattern written into outputs before a run: every element an algorithm fails to
//! write keeps a value that no correct result is likely to have.
inline constexpr unsigned char poison_byte = 0xCD;

//! A T whose bytes are all poison_byte: what a poisoned output keeps where nothing is written.
template <typename T>
T poison_value()
{
  T value;
  std::memset(static_cast<void*>(&value), poison_byte, sizeof(T));
  return value;
}

//! The valid item counts of `tiles` tiles of `tile` items each (a block's, a warp's): 0, 1,
//! tile - 1, tile and a random count in [0, tile], in turn.
inline std::vector<int> valid_items_per_tile(int tiles, int tile, std::uint64_t seed)
{
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> random_count(0, tile);
  std::vector<int> valid(static_cast<std::size_t>(tiles));
  for (int t = 0; t < tiles; ++t)
  {
    const int choices[5]               = {0, 1, tile - 1, tile, random_count(engine)};
    valid[static_cast<std::size_t>(t)] = choices[t % 5];
  }
  return valid;
}

//! An RAII device allocation of `size` elements of T (none for size 0).
template <typename T>
class device_buffer
{
public:
  device_buffer() = default;
  explicit device_buffer(std::size_t size)
      : size_(size)
  {
    if (size_ > 0)
    {
      const cudaError_t error = cudaMalloc(&data_, size_ * sizeof(T));
      INFO("cudaMalloc of " << size_ * sizeof(T) << " bytes: " << describe(error));
      REQUIRE(error == cudaSuccess);
    }
  }
  explicit device_buffer(const std::vector<T>& host)
      : device_buffer(host.size())
  {
    upload(host);
  }
  device_buffer(const device_buffer&)            = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr))
      , size_(std::exchange(other.size_, 0))
  {
  }
  device_buffer& operator=(device_buffer&& other) noexcept
  {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~device_buffer()
  {
    if (data_ != nullptr)
    {
      static_cast<void>(cudaFree(data_));
    }
  }

  T* data() const
  {
    return data_;
  }
  std::size_t size() const
  {
    return size_;
  }
  std::size_t bytes() const
  {
    return size_ * sizeof(T);
  }

  void upload(const std::vector<T>& host)
  {
    REQUIRE(host.size() == size_);
    if (size_ > 0)
    {
      const cudaError_t error = cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice);
      INFO("upload: " << describe(error));
      REQUIRE(error == cudaSuccess);
    }
  }
  std::vector<T> download() const
  {
    std::vector<T> host(size_);
    if (size_ > 0)
    {
      const cudaError_t error = cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost);
      INFO("download: " << describe(error));
      REQUIRE(error == cudaSuccess);
    }
    return host;
  }
  //! Fills every byte with poison_byte, and waits for it: cudaMemset may return before it ran,
  //! and work on a non-blocking stream does not wait for it (a value written there just after
  //! could be overwritten by the poison).
  void poison()
  {
    if (size_ > 0)
    {
      cudaError_t error = cudaMemset(data_, poison_byte, bytes());
      if (error == cudaSuccess)
      {
        error = cudaDeviceSynchronize();
      }
      INFO("poison: " << describe(error));
      REQUIRE(error == cudaSuccess);
    }
  }

private:
  T* data_          = nullptr;
  std::size_t size_ = 0;
};

//! After a kernel launch: the launch succeeded and the kernel ran to completion without error.
void check_launch();
} // namespace strata_test

//! Runs the rest of the test case only with a usable CUDA device: skips it (Catch2 SKIP) on a
//! machine without a GPU and fails it when the GPU cannot be used (see gpu_check()).
#define STRATA_TEST_REQUIRE_GPU()                                                                                      \
  do                                                                                                                   \
  {                                                                                                                    \
    const ::strata_test::gpu_verdict& strata_test_gpu_ = ::strata_test::gpu_check();                                   \
    if (strata_test_gpu_.fail)                                                                                         \
    {                                                                                                                  \
      FAIL(strata_test_gpu_.reason);                                                                                   \
    }                                                                                                                  \
    if (!strata_test_gpu_.available)                                                                                   \
    {                                                                                                                  \
      SKIP(strata_test_gpu_.reason);                                                                                   \
    }                                                                                                                  \
  } while (false)

//! REQUIREs that a CUDA runtime call returns cudaSuccess, naming the call and the error.
#define STRATA_TEST_CUDA(call)                                                                                         \
  do                                                                                                                   \
  {                                                                                                                    \
    const cudaError_t strata_test_error_ = (call);                                                                     \
    INFO(#call << ": " << ::strata_test::describe(strata_test_error_));                                                \
    REQUIRE(strata_test_error_ == cudaSuccess);                                                                        \
  } while (false)

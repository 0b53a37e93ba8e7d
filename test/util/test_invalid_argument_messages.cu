// Tests of STRATA_INVALID_ARGUMENT (util_debug.cuh) as device calls use it: with STRATA_STDERR
// defined (here), a call that refuses an argument returns cudaErrorInvalidValue and prints why,
// with the file and line of the check. The host cases need no GPU: each check they reach comes
// before the call's first CUDA runtime call (the device query).
#define STRATA_STDERR
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_temporary_storage.cuh>

#include "common/fd_capture.cuh"
#include "common/test_common.cuh"

#include <cstddef>
#include <cstdint>
#include <string>

namespace
{
const std::string prefix = "strata: invalid argument: ";

//! The one message `text` must hold: `reason`, then " at " a path ending in `file`, ':', a line
//! number and a newline.
void check_message(const std::string& text, const std::string& reason, const std::string& file)
{
  INFO("stderr: " << text);
  const std::string head = prefix + reason + " (cudaErrorInvalidValue) at ";
  REQUIRE(text.rfind(head, 0) == 0);
  const std::size_t colon = text.find(file + ":", head.size());
  REQUIRE(colon != std::string::npos);
  const std::size_t digits = colon + file.size() + 1;
  const std::size_t end    = text.find_first_not_of("0123456789", digits);
  CHECK(end > digits);
  CHECK(end == text.size() - 1);
  CHECK(text.back() == '\n');
}

__global__ void invalid_argument_kernel(int* result)
{
  *result = static_cast<int>(STRATA_INVALID_ARGUMENT("a reason from the device"));
}
} // namespace

TEST_CASE("STRATA_INVALID_ARGUMENT returns cudaErrorInvalidValue and prints the reason (host)",
          "[util][debug][invalid_argument]")
{
  cudaError_t result = cudaSuccess;
  int line           = 0;
  std::string text;
  {
    strata_test::fd_capture capture(2);
    // clang-format off
    line = __LINE__; result = STRATA_INVALID_ARGUMENT("num_items is negative");
    // clang-format on
    text = capture.text();
  }
  CHECK(result == cudaErrorInvalidValue);
  CHECK(text
        == prefix + "num_items is negative (cudaErrorInvalidValue) at " + __FILE__ + ":" + std::to_string(line) + "\n");
}

TEST_CASE("DeviceReduce::Sum with a negative num_items prints why (host)", "[device][reduce][invalid_argument]")
{
  std::size_t temp_storage_bytes = 12345;
  std::string query;
  cudaError_t query_result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    query_result = strata::DeviceReduce::Sum(nullptr, temp_storage_bytes, static_cast<const int*>(nullptr),
                                             static_cast<int*>(nullptr), -1);
    query        = capture.text();
  }
  CHECK(query_result == cudaErrorInvalidValue);
  CHECK(temp_storage_bytes == 12345);
  check_message(query, "num_items is negative", "device_reduce.cuh");

  // The second phase refuses it too, before looking at the (bogus) temporary storage.
  int in[4]{};
  int out                  = 0;
  unsigned char storage[1] = {};
  std::string run;
  cudaError_t run_result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    run_result = strata::DeviceReduce::Sum(storage, temp_storage_bytes, in, &out, std::int64_t{-5});
    run        = capture.text();
  }
  CHECK(run_result == cudaErrorInvalidValue);
  check_message(run, "num_items is negative", "device_reduce.cuh");
}

TEST_CASE("DeviceReduce::Sum with a null d_in prints why (host)", "[device][reduce][invalid_argument]")
{
  // The storage is never looked at: the null input is refused first.
  unsigned char storage[1]       = {};
  std::size_t temp_storage_bytes = sizeof(storage);
  int out                        = 0;
  std::string text;
  cudaError_t result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    result = strata::DeviceReduce::Sum(storage, temp_storage_bytes, static_cast<const int*>(nullptr), &out, 4);
    text   = capture.text();
  }
  CHECK(result == cudaErrorInvalidValue);
  check_message(text, "d_in or d_out is null", "dispatch_reduce.cuh");
}

TEST_CASE("DeviceRadixSort::SortKeys with a negative num_items or a bad bit range prints why (host)",
          "[device][radix_sort][invalid_argument]")
{
  std::size_t temp_storage_bytes = 0;
  std::string negative;
  cudaError_t negative_result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    negative_result = strata::DeviceRadixSort::SortKeys(nullptr, temp_storage_bytes, static_cast<const int*>(nullptr),
                                                        static_cast<int*>(nullptr), -3);
    negative        = capture.text();
  }
  CHECK(negative_result == cudaErrorInvalidValue);
  check_message(negative, "num_items is negative", "device_radix_sort.cuh");

  std::string bits;
  cudaError_t bits_result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    bits_result = strata::DeviceRadixSort::SortKeys(nullptr, temp_storage_bytes, static_cast<const int*>(nullptr),
                                                    static_cast<int*>(nullptr), 0, 0, 33);
    bits        = capture.text();
  }
  CHECK(bits_result == cudaErrorInvalidValue);
  check_message(bits, "begin_bit/end_bit out of range", "dispatch_radix_sort.cuh");
}

TEST_CASE("Too little temporary storage prints why (host)", "[util][temporary_storage][invalid_argument]")
{
  // What every device call's second phase does with its temporary storage (no CUDA call).
  alignas(16) unsigned char storage[64] = {};
  std::size_t temp_storage_bytes        = 1;
  int* slot                             = nullptr;
  std::string text;
  cudaError_t result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    result = strata::detail::CarveTemporaryStorage(storage, temp_storage_bytes, strata::detail::Slot(slot, 8));
    text   = capture.text();
  }
  CHECK(result == cudaErrorInvalidValue);
  check_message(text, "d_temp_storage is too small: temp_storage_bytes is less than the call needs",
                "util_temporary_storage.cuh");
}

TEST_CASE("DeviceReduce::Sum with too little temporary storage prints why", "[device][reduce][invalid_argument][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  constexpr int num_items = 1 << 20; // more than one block reduces: the call needs temporary storage
  strata_test::device_buffer<int> d_in(num_items);
  strata_test::device_buffer<int> d_out(1);
  std::size_t temp_storage_bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, temp_storage_bytes, d_in.data(), d_out.data(), num_items));
  REQUIRE(temp_storage_bytes > 1);
  strata_test::device_buffer<unsigned char> d_temp(temp_storage_bytes);
  std::size_t too_few = temp_storage_bytes - 1;
  std::string text;
  cudaError_t result = cudaSuccess;
  {
    strata_test::fd_capture capture(2);
    result = strata::DeviceReduce::Sum(d_temp.data(), too_few, d_in.data(), d_out.data(), num_items);
    text   = capture.text();
  }
  CHECK(result == cudaErrorInvalidValue);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  check_message(text, "d_temp_storage is too small: temp_storage_bytes is less than the call needs",
                "util_temporary_storage.cuh");
}

TEST_CASE("STRATA_INVALID_ARGUMENT in device code prints the reason with block and thread",
          "[util][debug][invalid_argument][gpu]")
{
  STRATA_TEST_REQUIRE_GPU();
  strata_test::device_buffer<int> d_result(1);
  d_result.poison();
  std::string text;
  cudaError_t launch = cudaSuccess;
  cudaError_t sync   = cudaSuccess;
  {
    // Device printf reaches stdout when the host synchronizes.
    strata_test::fd_capture capture(1);
    invalid_argument_kernel<<<1, 1>>>(d_result.data());
    launch = cudaGetLastError();
    sync   = cudaDeviceSynchronize();
    text   = capture.text();
  }
  INFO("stdout: " << text);
  CHECK(launch == cudaSuccess);
  CHECK(sync == cudaSuccess);
  CHECK(d_result.download()[0] == static_cast<int>(cudaErrorInvalidValue));
  CHECK(strata_test::contains(text, prefix + "a reason from the device (cudaErrorInvalidValue) at "));
  CHECK(strata_test::contains(text, "test_invalid_argument_messages.cu:"));
  CHECK(strata_test::contains(text, " [block (0,0,0), thread (0,0,0)]\n"));
}

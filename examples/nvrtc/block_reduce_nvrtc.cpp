// Example: strata's BlockReduce in a kernel compiled at run time with NVRTC (as CuPy's RawModule,
// Numba or a database engine compiles its kernels). The kernel is a string; NVRTC compiles it
// with strata's and libcu++'s include folders for this GPU; the CUDA runtime loads the CUBIN
// (cudaLibraryLoadData) and launches it. Only the thread, warp, block and iterator layers compile
// under NVRTC; the device layer (DeviceReduce and the rest) is nvcc-only.
#include "../example_common.cuh"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

// STRATA_EXAMPLE_NVRTC_INCLUDE_DIRS: strata's include folder, libcu++'s and the toolkit's,
// separated by ';', written by CMake (a program of your own knows or finds its own).
#include "example_nvrtc_paths.h"

// 128 threads of 4 items: each block sums its 512 ints and writes the sum.
const char* kernel_source = R"(
#include <strata/block/block_load.cuh>
#include <strata/block/block_reduce.cuh>

extern "C" __global__ void block_sum(const int* d_in, int* d_out)
{
  constexpr int threads = 128;
  constexpr int items   = 4;
  using BlockReduce     = strata::BlockReduce<int, threads>;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  int thread_items[items];
  strata::LoadDirectBlocked(static_cast<int>(threadIdx.x), d_in + blockIdx.x * threads * items, thread_items);
  const int sum = BlockReduce(temp_storage).Sum(thread_items);
  if (threadIdx.x == 0)
  {
    d_out[blockIdx.x] = sum;
  }
}
)";

#define NVRTC_CHECK(call)                                                                                              \
  do                                                                                                                   \
  {                                                                                                                    \
    const nvrtcResult nvrtc_result_ = (call);                                                                          \
    if (nvrtc_result_ != NVRTC_SUCCESS)                                                                                \
    {                                                                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, nvrtcGetErrorString(nvrtc_result_));          \
      std::exit(1);                                                                                                    \
    }                                                                                                                  \
  } while (false)

int main()
{
  example_require_gpu();
  int device = 0;
  cudaDeviceProp prop{};
  EXAMPLE_CHECK(cudaGetDevice(&device));
  EXAMPLE_CHECK(cudaGetDeviceProperties(&prop, device));

  // Compile for this GPU: C++17, device code by default, the include folders.
  std::vector<std::string> options = {"-std=c++17", "-default-device",
                                      "-arch=sm_" + std::to_string(prop.major * 10 + prop.minor)};
  std::stringstream dirs(STRATA_EXAMPLE_NVRTC_INCLUDE_DIRS);
  for (std::string dir; std::getline(dirs, dir, ';');)
  {
    options.push_back("-I" + dir);
  }
  std::vector<const char*> option_pointers;
  for (const std::string& option : options)
  {
    option_pointers.push_back(option.c_str());
  }
  nvrtcProgram program = nullptr;
  NVRTC_CHECK(nvrtcCreateProgram(&program, kernel_source, "block_sum.cu", 0, nullptr, nullptr));
  const nvrtcResult compiled = nvrtcCompileProgram(program, int(option_pointers.size()), option_pointers.data());
  std::size_t log_size       = 0;
  NVRTC_CHECK(nvrtcGetProgramLogSize(program, &log_size));
  if (compiled != NVRTC_SUCCESS)
  {
    std::string log(log_size, '\0');
    NVRTC_CHECK(nvrtcGetProgramLog(program, log.data()));
    std::fprintf(stderr, "NVRTC failed:\n%s\n", log.c_str());
    return 1;
  }
  std::size_t cubin_size = 0;
  NVRTC_CHECK(nvrtcGetCUBINSize(program, &cubin_size));
  std::vector<char> cubin(cubin_size);
  NVRTC_CHECK(nvrtcGetCUBIN(program, cubin.data()));
  NVRTC_CHECK(nvrtcDestroyProgram(&program));

  // Load it and launch: a cudaKernel_t goes to cudaLaunchKernel as its function.
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel   = nullptr;
  EXAMPLE_CHECK(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  EXAMPLE_CHECK(cudaLibraryGetKernel(&kernel, library, "block_sum"));

  const int blocks = 100;
  const int tile   = 128 * 4;
  std::vector<int> h_in(blocks * tile);
  for (int i = 0; i < static_cast<int>(h_in.size()); ++i)
  {
    h_in[i] = (i * 7) % 13 - 6;
  }
  int* d_in  = nullptr;
  int* d_out = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_in, h_in.size() * sizeof(int)));
  EXAMPLE_CHECK(cudaMalloc(&d_out, blocks * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(int), cudaMemcpyHostToDevice));
  void* args[] = {&d_in, &d_out};
  EXAMPLE_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(blocks), dim3(128), args, 0, nullptr));
  EXAMPLE_CHECK(cudaGetLastError());
  std::vector<int> h_out(blocks);
  EXAMPLE_CHECK(cudaMemcpy(h_out.data(), d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaFree(d_in));
  EXAMPLE_CHECK(cudaFree(d_out));
  EXAMPLE_CHECK(cudaLibraryUnload(library));

  int errors = 0;
  for (int b = 0; b < blocks; ++b)
  {
    int expected = 0;
    for (int i = 0; i < tile; ++i)
    {
      expected += h_in[b * tile + i];
    }
    errors += h_out[b] != expected;
  }
  std::printf("NVRTC-compiled BlockReduce (%zu bytes of CUBIN for sm_%d%d): block 0 sums to %d; %s\n", cubin_size,
              prop.major, prop.minor, h_out[0], errors == 0 ? "all 100 block sums correct" : "WRONG");
  return errors == 0 ? 0 : 1;
}

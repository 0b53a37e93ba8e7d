// strata under NVRTC (run-time compilation): test/nvrtc/nvrtc_collectives.cuh, kernels that each
// use one collective of the thread, warp, block or iterator layer, compiles with NVRTC for every
// architecture CUDA 13 supports (no GPU needed); including a device-layer header stops with one
// clear error; and on a GPU, every kernel as NVRTC compiled it (loaded with cudaLibraryLoadData)
// writes what nvcc's build of the same source (included here) writes from the same random input,
// which for the sums and the sorts is also checked against the host.
#include "common/test_common.cuh"
#include "nvrtc_collectives.cuh"
#include "nvrtc_paths.h"

#include <nvrtc.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace
{
struct nvrtc_output
{
  nvrtcResult result = NVRTC_SUCCESS;
  std::string log;
  std::vector<char> cubin;
};

std::string read_file(const std::string& path)
{
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

//! Compiles `source` with NVRTC for `arch` (e.g. "sm_90") as a user would: C++17, functions
//! device code by default, the include folders of strata, libcu++ and the toolkit.
nvrtc_output compile(const std::string& source, const std::string& arch)
{
  nvrtc_output out;
  nvrtcProgram program = nullptr;
  out.result           = nvrtcCreateProgram(&program, source.c_str(), "strata_nvrtc_test.cu", 0, nullptr, nullptr);
  if (out.result != NVRTC_SUCCESS)
  {
    return out;
  }
  std::vector<std::string> options = {"-std=c++17", "-arch=" + arch, "-default-device"};
  std::stringstream dirs(STRATA_NVRTC_INCLUDE_DIRS);
  for (std::string dir; std::getline(dirs, dir, ';');)
  {
    if (!dir.empty())
    {
      options.push_back("-I" + dir);
    }
  }
  std::vector<const char*> pointers;
  for (const std::string& option : options)
  {
    pointers.push_back(option.c_str());
  }
  out.result      = nvrtcCompileProgram(program, int(pointers.size()), pointers.data());
  std::size_t log = 0;
  if (nvrtcGetProgramLogSize(program, &log) == NVRTC_SUCCESS && log > 1)
  {
    out.log.resize(log);
    nvrtcGetProgramLog(program, out.log.data());
  }
  std::size_t cubin = 0;
  if (out.result == NVRTC_SUCCESS && nvrtcGetCUBINSize(program, &cubin) == NVRTC_SUCCESS && cubin > 0)
  {
    out.cubin.resize(cubin);
    nvrtcGetCUBIN(program, out.cubin.data());
  }
  nvrtcDestroyProgram(&program);
  return out;
}

std::size_t count_of(const std::string& text, const std::string& what)
{
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
  {
    ++count;
  }
  return count;
}

//! Ints each kernel may write: a tile and a few past it.
constexpr int out_items = nvrtc_test::TILE + 64;
} // namespace

TEST_CASE("strata's thread, warp, block and iterator layers compile under NVRTC for every architecture", "[nvrtc]")
{
  const std::string source = read_file(STRATA_NVRTC_COLLECTIVES);
  REQUIRE(!source.empty());
  for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"})
  {
    INFO("-arch=" << arch);
    const nvrtc_output out = compile(source, arch);
    INFO(out.log);
    CHECK(out.result == NVRTC_SUCCESS);
    CHECK(!out.cubin.empty());
  }
}

TEST_CASE("A device-layer header under NVRTC stops with one clear error", "[nvrtc]")
{
  for (const char* header : {"strata/device/device_reduce.cuh", "strata/device/device_radix_sort.cuh",
                             "strata/util_device.cuh", "strata/util_allocator.cuh"})
  {
    INFO(header);
    const nvrtc_output out = compile(std::string("#include <") + header + ">\n", "sm_90");
    INFO(out.log);
    CHECK(out.result == NVRTC_ERROR_COMPILATION);
    CHECK(count_of(out.log, "is host code (the device layer)") >= 1);
    CHECK(count_of(out.log, "error:") == 1); // one diagnostic (NVRTC echoes its line), not a cascade
  }
}

TEST_CASE("Kernels NVRTC compiled write what nvcc's build of the same source writes", "[nvrtc]")
{
  STRATA_TEST_REQUIRE_GPU();
  int device = 0;
  cudaDeviceProp prop{};
  STRATA_TEST_CUDA(cudaGetDevice(&device));
  STRATA_TEST_CUDA(cudaGetDeviceProperties(&prop, device));
  const std::string arch = "sm_" + std::to_string(prop.major * 10 + prop.minor);
  INFO("-arch=" << arch);
  const nvrtc_output out = compile(read_file(STRATA_NVRTC_COLLECTIVES), arch);
  INFO(out.log);
  REQUIRE(out.result == NVRTC_SUCCESS);
  cudaLibrary_t library = nullptr;
  STRATA_TEST_CUDA(cudaLibraryLoadData(&library, out.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));

  const std::uint64_t seed = strata_test::seed(4801);
  INFO("seed " << seed);
  std::mt19937_64 engine(seed);
  std::vector<int> input(nvrtc_test::TILE + 64);
  for (int& x : input)
  {
    x = int(engine() % 2000001) - 1000000;
  }
  strata_test::device_buffer<int> d_in(input);
  strata_test::device_buffer<int> d_nvcc(out_items);
  strata_test::device_buffer<int> d_nvrtc(out_items);

  struct kernel
  {
    const char* name;
    void (*nvcc)(const int*, int*);
  };
#define STRATA_NVRTC_KERNEL_ENTRY(name) kernel{#name, &name},
  const std::vector<kernel> kernels = {NVRTC_KERNELS(STRATA_NVRTC_KERNEL_ENTRY)};
#undef STRATA_NVRTC_KERNEL_ENTRY
  std::vector<int> by_nvcc;
  for (const kernel& k : kernels)
  {
    INFO("kernel " << k.name);
    cudaKernel_t compiled = nullptr;
    STRATA_TEST_CUDA(cudaLibraryGetKernel(&compiled, library, k.name));
    d_nvcc.poison();
    d_nvrtc.poison();
    const int* in = d_in.data();
    int* nvcc_out = d_nvcc.data();
    k.nvcc<<<1, nvrtc_test::THREADS>>>(in, nvcc_out);
    strata_test::check_launch();
    int* nvrtc_out = d_nvrtc.data();
    void* args[]   = {&in, &nvrtc_out};
    STRATA_TEST_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(compiled), dim3(1), dim3(nvrtc_test::THREADS), args,
                                      0, nullptr));
    strata_test::check_launch();
    by_nvcc                         = d_nvcc.download();
    const std::vector<int> by_nvrtc = d_nvrtc.download();
    CHECK(by_nvrtc == by_nvcc);

    // Not two equal mistakes: the host's own results where they are simple.
    const std::string name = k.name;
    if (name == "reduce_raking" || name == "reduce_warp_reductions")
    {
      CHECK(by_nvcc[0] == std::accumulate(input.begin(), input.begin() + nvrtc_test::TILE, 0));
      CHECK(by_nvcc[1] == *std::max_element(input.begin(), input.begin() + nvrtc_test::TILE));
    }
    if (name == "radix_sort_keys" || name == "merge_sort")
    {
      std::vector<int> sorted(input.begin(), input.begin() + nvrtc_test::TILE);
      std::sort(sorted.begin(), sorted.end());
      CHECK(std::equal(sorted.begin(), sorted.end(), by_nvcc.begin()));
    }
  }
  STRATA_TEST_CUDA(cudaLibraryUnload(library));
}

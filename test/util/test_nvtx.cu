// Tests of strata/detail/nvtx.cuh: an NVTX tool linked into this program (NVTX's static
// injection) records what strata tells NVTX: a scope opens one range in the domain "strata" and
// closes it at its end, a call site registers its name once, STRATA_NVTX_RANGE_SCOPE_IF(false)
// opens nothing, every DeviceFor call (no items: no GPU needed) opens a range named after it and
// its size query none (this file is compiled with STRATA_ENABLE_NVTX), and without
// STRATA_ENABLE_NVTX (test_nvtx_disabled.cu) the ranges are compiled out.
// Skipped when another NVTX tool is attached (e.g. NVTX_INJECTION64_PATH is set).

// This program is the NVTX tool: the loader finds the (strong) InitializeInjectionNvtx2_fnptr
// defined below instead of its weak default, which NVTX_STATIC_INJECTION_IMPL leaves out. The
// loader needs it declared before the NVTX headers (NVTX_API is empty on Linux).
#define NVTX_STATIC_INJECTION_IMPL
#include <cstdint>
extern "C" int (*InitializeInjectionNvtx2_fnptr)(const void* (*)(std::uint32_t));

#include <strata/detail/nvtx.cuh>
#include <strata/device/device_for.cuh>

#include "common/test_common.cuh"

#include <cuda/std/mdspan>

#include <deque>
#include <mutex>
#include <string>
#include <vector>

bool StrataTestNvtxDisabledScope(); // test_nvtx_disabled.cu

#if defined(STRATA_HAS_NVTX)
namespace
{
//! What the tool saw, as lines "domain NAME", "register DOMAIN NAME", "push DOMAIN NAME",
//! "pop DOMAIN".
struct nvtx_log
{
  std::mutex mutex;
  bool attached = false;
  std::deque<std::string> names; // domain and string handles point at these
  std::vector<std::string> events;

  std::vector<std::string> take()
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::string> taken;
    taken.swap(events);
    return taken;
  }
};

nvtx_log& log()
{
  static nvtx_log instance;
  return instance;
}

const std::string& name_of(const void* handle)
{
  static const std::string none = "?";
  return handle != nullptr ? *static_cast<const std::string*>(handle) : none;
}

nvtxDomainHandle_t NVTX_API DomainCreateA(const char* name)
{
  std::lock_guard<std::mutex> lock(log().mutex);
  log().names.emplace_back(name);
  log().events.push_back("domain " + log().names.back());
  return reinterpret_cast<nvtxDomainHandle_t>(&log().names.back());
}

nvtxStringHandle_t NVTX_API DomainRegisterStringA(nvtxDomainHandle_t domain, const char* name)
{
  std::lock_guard<std::mutex> lock(log().mutex);
  log().names.emplace_back(name);
  log().events.push_back("register " + name_of(domain) + " " + log().names.back());
  return reinterpret_cast<nvtxStringHandle_t>(&log().names.back());
}

int NVTX_API DomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
  std::lock_guard<std::mutex> lock(log().mutex);
  const std::string message = attributes->messageType == NVTX_MESSAGE_TYPE_REGISTERED
                                  ? name_of(attributes->message.registered)
                                  : std::string("(not registered)");
  log().events.push_back("push " + name_of(domain) + " " + message);
  return 0;
}

int NVTX_API DomainRangePop(nvtxDomainHandle_t domain)
{
  std::lock_guard<std::mutex> lock(log().mutex);
  log().events.push_back("pop " + name_of(domain));
  return 0;
}

int NVTX_API AttachTool(NvtxGetExportTableFunc_t get_export_table)
{
  const auto* callbacks   = static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable table = nullptr;
  unsigned int size       = 0;
  if (callbacks == nullptr || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size)
      || size <= NVTX_CBID_CORE2_DomainCreateA)
  {
    return 0;
  }
  *table[NVTX_CBID_CORE2_DomainCreateA]         = reinterpret_cast<NvtxFunctionPointer>(&DomainCreateA);
  *table[NVTX_CBID_CORE2_DomainRegisterStringA] = reinterpret_cast<NvtxFunctionPointer>(&DomainRegisterStringA);
  *table[NVTX_CBID_CORE2_DomainRangePushEx]     = reinterpret_cast<NvtxFunctionPointer>(&DomainRangePushEx);
  *table[NVTX_CBID_CORE2_DomainRangePop]        = reinterpret_cast<NvtxFunctionPointer>(&DomainRangePop);
  log().attached                                = true;
  return 1;
}

//! Opens a range (the first one also initializes NVTX, attaching the tool) and skips the test
//! case if the tool is not the one attached; the events so far are dropped.
void require_tool()
{
  {
    STRATA_NVTX_RANGE_SCOPE("strata::test::warm_up");
  }
  if (!log().attached)
  {
    SKIP("another NVTX tool is attached");
  }
  log().take();
}

void scoped(int& inside)
{
  STRATA_NVTX_RANGE_SCOPE("strata::test::scoped");
  inside = static_cast<int>(log().events.size());
}

struct increment
{
  __device__ void operator()(int& x) const
  {
    ++x;
  }
};

struct ignore
{
  template <typename... ArgsT>
  __device__ void operator()(ArgsT...) const
  {
  }
};
} // namespace

extern "C" NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = &AttachTool;

TEST_CASE("STRATA_NVTX_RANGE_SCOPE opens one range in the strata domain for its scope (host)", "[util][nvtx][host]")
{
  require_tool();
  int inside = 0;
  scoped(inside);
  scoped(inside);
  const std::vector<std::string> expected = {"register strata strata::test::scoped", "push strata strata::test::scoped",
                                             "pop strata", "push strata strata::test::scoped", "pop strata"};
  CHECK(log().take() == expected);
  CHECK(inside == 4); // the second call's range was open inside its scope
}

TEST_CASE("STRATA_NVTX_RANGE_SCOPE_IF opens a range only if its condition holds (host)", "[util][nvtx][host]")
{
  require_tool();
  for (const bool open : {false, true, false})
  {
    STRATA_NVTX_RANGE_SCOPE_IF(open, "strata::test::conditional");
  }
  const std::vector<std::string> expected = {"register strata strata::test::conditional",
                                             "push strata strata::test::conditional", "pop strata"};
  CHECK(log().take() == expected);
}

TEST_CASE("Every DeviceFor call opens a range named after it; size queries none (host)", "[util][nvtx][host]")
{
  require_tool();
  int* const none = nullptr;
  unsigned char storage[1];
  std::size_t bytes = 0;
  // No items: no launch, so no GPU is needed.
  CHECK(strata::DeviceFor::ForEachN(none, 0, increment{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEach(none, none, increment{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachCopyN(none, 0, ignore{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachCopy(none, none, ignore{}) == cudaSuccess);
  CHECK(strata::DeviceFor::Bulk(0, ignore{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachInExtents(cuda::std::dextents<int, 2>(0, 3), ignore{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachN(nullptr, bytes, none, 0, increment{}) == cudaSuccess);
  CHECK(strata::DeviceFor::ForEachN(storage, bytes, none, 0, increment{}) == cudaSuccess);
  std::vector<std::string> pushed;
  for (const std::string& event : log().take())
  {
    if (event.rfind("push ", 0) == 0)
    {
      pushed.push_back(event);
    }
  }
  const std::vector<std::string> expected = {
      "push strata strata::DeviceFor::ForEachN",     "push strata strata::DeviceFor::ForEach",
      "push strata strata::DeviceFor::ForEachCopyN", "push strata strata::DeviceFor::ForEachCopy",
      "push strata strata::DeviceFor::Bulk",         "push strata strata::DeviceFor::ForEachInExtents",
      "push strata strata::DeviceFor::ForEachN"};
  CHECK(pushed == expected);
}

TEST_CASE("Without STRATA_ENABLE_NVTX the ranges are compiled out (host)", "[util][nvtx][host]")
{
  require_tool();
  CHECK_FALSE(StrataTestNvtxDisabledScope());
  CHECK(log().take().empty());
}
#else
TEST_CASE("NVTX ranges (host)", "[util][nvtx][host]")
{
  CHECK_FALSE(StrataTestNvtxDisabledScope());
  SKIP("the toolkit has no NVTX v3 headers: strata's ranges are compiled out");
}
#endif

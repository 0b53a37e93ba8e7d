// test/tools/launch_log.cpp: a CUDA injection library (CUDA_INJECTION64_PATH) that writes the name of
// every kernel a program launches, once, to the file named by STRATA_LAUNCH_LOG. scripts/gpu-check
// runs each program so with the arguments of its sanitizer runs, to know which of strata's kernels
// those runs reach. It listens to the driver's launch calls, which every runtime launch (also one
// captured into a graph) goes through.
#include <cupti.h>

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_set>

namespace
{
std::mutex log_mutex;
std::unordered_set<std::string>* seen = nullptr;
std::FILE* log_file                   = nullptr;

std::string demangled(const char* name)
{
  int status       = 0;
  char* readable   = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string text = status == 0 && readable != nullptr ? readable : name;
  std::free(readable);
  return text;
}

void CUPTIAPI on_launch(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void* data)
{
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (call->callbackSite != CUPTI_API_ENTER || call->symbolName == nullptr)
  {
    return;
  }
  std::lock_guard<std::mutex> lock(log_mutex);
  if (seen->insert(call->symbolName).second)
  {
    // Written at once and flushed: a program that crashes later still leaves what it launched.
    std::fprintf(log_file, "%s\n", demangled(call->symbolName).c_str());
    std::fflush(log_file);
  }
}
} // namespace

extern "C" int InitializeInjection()
{
  const char* path = std::getenv("STRATA_LAUNCH_LOG");
  if (path == nullptr || (log_file = std::fopen(path, "a")) == nullptr)
  {
    std::fprintf(stderr, "launch_log: STRATA_LAUNCH_LOG names no writable file\n");
    return 0;
  }
  seen = new std::unordered_set<std::string>;
  CUpti_SubscriberHandle subscriber;
  if (cuptiSubscribe(&subscriber, on_launch, nullptr) != CUPTI_SUCCESS)
  {
    std::fprintf(stderr, "launch_log: cuptiSubscribe failed\n");
    return 0;
  }
  const CUpti_CallbackId launches[] = {
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
  };
  for (const CUpti_CallbackId id : launches)
  {
    if (cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id) != CUPTI_SUCCESS)
    {
      std::fprintf(stderr, "launch_log: cannot listen to driver call %u\n", static_cast<unsigned>(id));
      return 0;
    }
  }
  // The first line says that the log is live: an empty log could also mean a failed start.
  std::fprintf(log_file, "# launch log\n");
  std::fflush(log_file);
  return 1;
}

// strata/util_device.cuh: device queries (PtxVersion, SmVersion, DeviceCount, CurrentDevice,
// MaxSmOccupancy) with a per-device cache that is safe to use from many host threads, and
// ChainedPolicy, the per-architecture tuning chain of the dispatch layer. A host compiler may
// read it: the device queries are host functions, and what launches kernels needs a CUDA compiler.
#pragma once

#if defined(__CUDACC_RTC__)
#  error                                                                                                               \
      "strata/util_device.cuh is host code (the device layer): NVRTC compiles the thread, warp, block and iterator layers only; compile device-wide algorithms with nvcc"
#endif

#include <strata/version.cuh>
#include <strata/util_macro.cuh>
#include <strata/util_namespace.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_debug.cuh>

#include <cuda/std/type_traits>

#include <nv/target>

#include <atomic>

#include <cuda_runtime.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
#if defined(__CUDACC__)
//! A kernel that does nothing: PtxVersion asks the runtime which of its images would run.
STRATA_KERNELS_BEGIN
template <typename T>
STRATA_KERNEL_ATTRIBUTES void EmptyKernel()
{
}
STRATA_KERNELS_END
#endif

//! Makes `device` current for the lifetime of the object and restores the previous one.
class SwitchDevice
{
public:
  STRATA_HOST explicit SwitchDevice(int device)
  {
    error_ = cudaGetDevice(&previous_);
    if (error_ == cudaSuccess && previous_ != device)
    {
      error_    = cudaSetDevice(device);
      switched_ = error_ == cudaSuccess;
    }
  }
  SwitchDevice(const SwitchDevice&)            = delete;
  SwitchDevice& operator=(const SwitchDevice&) = delete;
  STRATA_HOST ~SwitchDevice()
  {
    if (switched_)
    {
      static_cast<void>(cudaSetDevice(previous_));
    }
  }
  //! cudaSuccess if `device` is current now.
  STRATA_HOST cudaError_t error() const
  {
    return error_;
  }

private:
  int previous_      = -1;
  bool switched_     = false;
  cudaError_t error_ = cudaSuccess;
};

//! One int per device, computed on first use. Concurrent readers never block: a thread that
//! finds another one computing the entry computes the value itself, uncached. Failed
//! computations are not cached, so a transient error is retried next time.
class PerDeviceCache
{
public:
  template <typename ComputeT>
  STRATA_HOST cudaError_t Get(int device, int& value, ComputeT compute)
  {
    if (device < 0 || device >= STRATA_MAX_DEVICES)
    {
      return compute(device, value);
    }
    Entry& entry = entries_[device];
    if (entry.state.load(std::memory_order_acquire) == ready)
    {
      value = entry.value;
      return cudaSuccess;
    }
    int expected = empty;
    if (!entry.state.compare_exchange_strong(expected, busy, std::memory_order_acq_rel))
    {
      return compute(device, value);
    }
    const cudaError_t error = compute(device, entry.value);
    value                   = entry.value;
    // The release store publishes entry.value to threads that acquire `ready`.
    entry.state.store(error == cudaSuccess ? ready : empty, std::memory_order_release);
    return error;
  }

private:
  static constexpr int empty = 0;
  static constexpr int busy  = 1;
  static constexpr int ready = 2;
  struct Entry
  {
    std::atomic<int> state{empty};
    int value = 0;
  };
  Entry entries_[STRATA_MAX_DEVICES];
};

STRATA_HOST inline PerDeviceCache& PtxVersionCache()
{
  static PerDeviceCache cache;
  return cache;
}

STRATA_HOST inline PerDeviceCache& SmVersionCache()
{
  static PerDeviceCache cache;
  return cache;
}

STRATA_HOST inline PerDeviceCache& SmCountCache()
{
  static PerDeviceCache cache;
  return cache;
}
} // namespace detail

//! The ordinal of the calling thread's current device, or -1 if it cannot be determined.
STRATA_RUNTIME_FUNCTION inline int CurrentDevice()
{
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess)
  {
    return -1;
  }
  return device;
}

//! The number of visible devices, asked of the runtime each time; -1 on error (e.g. no driver).
STRATA_RUNTIME_FUNCTION inline int DeviceCountUncached()
{
  int count = -1;
  if (cudaGetDeviceCount(&count) != cudaSuccess)
  {
    static_cast<void>(cudaGetLastError());
    return -1;
  }
  return count;
}

//! The number of visible devices; asked once per process on the host (it cannot change).
STRATA_RUNTIME_FUNCTION inline int DeviceCount()
{
  NV_IF_TARGET(NV_IS_HOST, (static const int count = DeviceCountUncached(); return count;),
               (return DeviceCountUncached();));
}

#if defined(__CUDACC__)
//! Writes the PTX version (e.g. 900) of strata's code that runs on the current device: the
//! architecture of the fatbinary image the runtime picks, which selects tuning policies.
STRATA_RUNTIME_FUNCTION inline cudaError_t PtxVersionUncached(int& ptx_version)
{
  // Named outside NV_IF_TARGET so that the device pass compiles the kernel too: otherwise the
  // fatbinary holds no image of it for cudaFuncGetAttributes to find.
  [[maybe_unused]] void (*const empty_kernel)() = detail::EmptyKernel<void>;
  NV_IF_TARGET(NV_IS_HOST,
               (cudaFuncAttributes attributes{};
                const cudaError_t error = cudaFuncGetAttributes(&attributes, detail::EmptyKernel<void>);
                ptx_version             = attributes.ptxVersion * 10; return error;),
               (ptx_version = __CUDA_ARCH__; return cudaSuccess;));
}
#else
//! A translation unit of a host compiler holds no device code whose PTX version the runtime could
//! name: writes 0 and returns cudaErrorInvalidDeviceFunction.
STRATA_RUNTIME_FUNCTION inline cudaError_t PtxVersionUncached(int& ptx_version)
{
  ptx_version = 0;
  return cudaErrorInvalidDeviceFunction;
}
#endif

namespace detail
{
STRATA_HOST inline cudaError_t PtxVersionOfDevice(int& ptx_version, int device)
{
  SwitchDevice guard(device);
  if (guard.error() != cudaSuccess)
  {
    return guard.error();
  }
  return PtxVersionUncached(ptx_version);
}
} // namespace detail

//! Like PtxVersionUncached(int&), for `device`; the current device is restored afterwards.
STRATA_RUNTIME_FUNCTION inline cudaError_t PtxVersionUncached(int& ptx_version, int device)
{
  NV_IF_TARGET(NV_IS_HOST, (return detail::PtxVersionOfDevice(ptx_version, device);),
               (static_cast<void>(device); return PtxVersionUncached(ptx_version);));
}

//! Cached PtxVersion for `device` (cudaErrorInvalidDevice if it does not exist).
STRATA_RUNTIME_FUNCTION inline cudaError_t PtxVersion(int& ptx_version, int device)
{
  if (device < 0 || device >= DeviceCount())
  {
    return cudaErrorInvalidDevice;
  }
  NV_IF_TARGET(NV_IS_HOST,
               (return detail::PtxVersionCache().Get(device, ptx_version,
                                                     [](int dev, int& out) { return PtxVersionUncached(out, dev); });),
               (return PtxVersionUncached(ptx_version, device);));
}

//! Cached PtxVersion for the current device.
STRATA_RUNTIME_FUNCTION inline cudaError_t PtxVersion(int& ptx_version)
{
  const int device = CurrentDevice();
  if (device < 0)
  {
    return cudaErrorInvalidDevice;
  }
  return PtxVersion(ptx_version, device);
}

//! Writes the compute capability of `device` as major * 100 + minor * 10 (e.g. 900), uncached.
STRATA_RUNTIME_FUNCTION inline cudaError_t SmVersionUncached(int& sm_version, int device = CurrentDevice())
{
  int major         = 0;
  int minor         = 0;
  cudaError_t error = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (error == cudaSuccess)
  {
    error = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  }
  if (error == cudaSuccess)
  {
    sm_version = major * 100 + minor * 10;
  }
  return error;
}

//! Cached SmVersion of `device` (cudaErrorInvalidDevice if it does not exist).
STRATA_RUNTIME_FUNCTION inline cudaError_t SmVersion(int& sm_version, int device = CurrentDevice())
{
  if (device < 0 || device >= DeviceCount())
  {
    return cudaErrorInvalidDevice;
  }
  NV_IF_TARGET(NV_IS_HOST,
               (return detail::SmVersionCache().Get(device, sm_version,
                                                    [](int dev, int& out) { return SmVersionUncached(out, dev); });),
               (return SmVersionUncached(sm_version, device);));
}

namespace detail
{
//! The number of SMs of `device` (the current one by default), cached on the host.
STRATA_RUNTIME_FUNCTION inline cudaError_t SmCount(int& sm_count, int device = CurrentDevice())
{
  NV_IF_TARGET(NV_IS_HOST,
               (return SmCountCache().Get(device, sm_count,
                                          [](int dev, int& out) {
                                            return cudaDeviceGetAttribute(&out, cudaDevAttrMultiProcessorCount, dev);
                                          });),
               (return cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);));
}
} // namespace detail

//! Waits for `stream` on the host; on the device (with RDC) there is nothing to wait for.
STRATA_RUNTIME_FUNCTION inline cudaError_t SyncStream([[maybe_unused]] cudaStream_t stream)
{
  NV_IF_TARGET(NV_IS_HOST, (return cudaStreamSynchronize(stream);), (return cudaSuccess;));
}

//! Writes how many blocks of `block_threads` threads (and `dynamic_smem_bytes` of dynamic shared
//! memory) of `kernel_ptr` can be resident on one SM of the current device.
template <typename KernelPtr>
STRATA_RUNTIME_FUNCTION inline cudaError_t MaxSmOccupancy(int& max_sm_occupancy, KernelPtr kernel_ptr,
                                                          int block_threads, int dynamic_smem_bytes = 0)
{
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&max_sm_occupancy, kernel_ptr, block_threads,
                                                       static_cast<size_t>(dynamic_smem_bytes));
}

#if defined(__CUDACC__)
namespace detail
{
//! Programmatic dependent launch (sm_90 and later): a kernel launched by LaunchKernel with
//! `programmatic` may start while the stream's previous kernel still runs, once every block of
//! that one has called TriggerDependentLaunch (or ended); it must call WaitForPrimaryGrid before
//! it touches what the previous kernel writes. Both are no-ops before sm_90, and the wait is one
//! for a kernel launched the ordinary way.
STRATA_DEVICE STRATA_FORCEINLINE void TriggerDependentLaunch()
{
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaTriggerProgrammaticLaunchCompletion();));
}
STRATA_DEVICE STRATA_FORCEINLINE void WaitForPrimaryGrid()
{
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();));
}

//! The one launch path of the device algorithms: kernel<<<grid, block, dynamic_smem_bytes,
//! stream>>>(args...), as a programmatic dependent launch where `programmatic` (from the host;
//! device-side launches are ordinary; only for a kernel that calls WaitForPrimaryGrid first and
//! runs code that has it, PTX version 900 or later). Returns the launch's error, and with
//! STRATA_DEBUG_SYNC the kernel's (DebugSyncStream).
template <typename... ParamTs, typename... ArgTs>
STRATA_RUNTIME_FUNCTION cudaError_t LaunchKernel([[maybe_unused]] bool programmatic, int dynamic_smem_bytes,
                                                 void (*kernel)(ParamTs...), int grid, int block, cudaStream_t stream,
                                                 ArgTs... args)
{
  cudaError_t error = cudaSuccess;
  NV_IF_TARGET(NV_IS_HOST,
               (cudaLaunchAttribute attribute[1]; attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
                attribute[0].val.programmaticStreamSerializationAllowed = 1; cudaLaunchConfig_t config{};
                config.gridDim = dim3(unsigned(grid)); config.blockDim = dim3(unsigned(block));
                config.dynamicSmemBytes = size_t(dynamic_smem_bytes); config.stream = stream;
                config.attrs = programmatic ? attribute : nullptr; config.numAttrs = programmatic ? 1u : 0u;
                error = cudaLaunchKernelEx(&config, kernel, args...);),
               (kernel<<<grid, block, dynamic_smem_bytes, stream>>>(args...); error = cudaPeekAtLastError();));
  return error != cudaSuccess ? error : DebugSyncStream(stream);
}

//! LaunchKernel without dynamic shared memory.
template <typename... ParamTs, typename... ArgTs>
STRATA_RUNTIME_FUNCTION cudaError_t LaunchKernel(bool programmatic, void (*kernel)(ParamTs...), int grid, int block,
                                                 cudaStream_t stream, ArgTs... args)
{
  return LaunchKernel(programmatic, 0, kernel, grid, block, stream, args...);
}

//! Picks the policy of the current device from the chain that ends in MaxPolicyT (its PTX
//! version, cached per device) and runs `make_dispatch(ptx_version).Invoke<Policy>()` with it:
//! the one way a device algorithm goes from its arguments to its policy.
template <typename MaxPolicyT, typename MakeDispatchT>
STRATA_RUNTIME_FUNCTION cudaError_t InvokeForCurrentDevice(MakeDispatchT make_dispatch)
{
  int ptx_version   = 0;
  cudaError_t error = PtxVersion(ptx_version);
  if (error != cudaSuccess)
  {
    return error;
  }
  auto dispatch = make_dispatch(ptx_version);
  return MaxPolicyT::Invoke(ptx_version, dispatch);
}
} // namespace detail
#endif

namespace detail
{
//! The architecture of this compilation pass (__CUDA_ARCH__, e.g. 900), 0 in the host pass: the
//! one place where a policy chain looks at it.
#if defined(__CUDA_ARCH__)
inline constexpr int policy_pass_arch = __CUDA_ARCH__;
#else
inline constexpr int policy_pass_arch = 0;
#endif
} // namespace detail

//! A link of a policy chain: PolicyT is tuned for PTX_VERSION (e.g. 900 for sm_90) and later,
//! PrevPolicyT covers older devices (the first link names itself).
//!
//! - `ActivePolicy` is the policy of the current device-compilation pass (the newest link whose
//!   PTX_VERSION is at most __CUDA_ARCH__; the oldest link in the host pass). Kernels are
//!   templated on the chain's newest link and take ActivePolicy inside, so each kernel is
//!   compiled once per architecture.
//! - `Invoke(device_ptx_version, op)` walks down to the newest link at most device_ptx_version
//!   and calls `op.template Invoke<PolicyT>()` there: the host side of the same choice.
template <int PTX_VERSION, typename PolicyT, typename PrevPolicyT>
struct ChainedPolicy
{
  using ActivePolicy =
      ::cuda::std::conditional_t<(detail::policy_pass_arch < PTX_VERSION), typename PrevPolicyT::ActivePolicy, PolicyT>;

  template <typename FunctorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Invoke(int device_ptx_version, FunctorT& op)
  {
    if (device_ptx_version < PTX_VERSION)
    {
      return PrevPolicyT::Invoke(device_ptx_version, op);
    }
    return op.template Invoke<PolicyT>();
  }
};

//! The oldest link of a chain: it serves every older device too.
template <int PTX_VERSION, typename PolicyT>
struct ChainedPolicy<PTX_VERSION, PolicyT, PolicyT>
{
  using ActivePolicy = PolicyT;

  template <typename FunctorT>
  STRATA_RUNTIME_FUNCTION static cudaError_t Invoke(int, FunctorT& op)
  {
    return op.template Invoke<PolicyT>();
  }
};

STRATA_NAMESPACE_END

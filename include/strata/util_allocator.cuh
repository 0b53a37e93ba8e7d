// strata/util_allocator.cuh: CachingDeviceAllocator, a thread-safe caching allocator of device memory
// with geometric size bins, per-stream reuse and per-device cache limits.
#pragma once

#if defined(__CUDACC_RTC__)
#  error                                                                                                               \
      "strata/util_allocator.cuh is host code (the device layer): NVRTC compiles the thread, warp, block and iterator layers only; compile device-wide algorithms with nvcc"
#endif

#include <strata/version.cuh>
#include <strata/util_macro.cuh>
#include <strata/util_namespace.cuh>
#include <strata/util_arch.cuh>
#include <strata/util_debug.cuh>
#include <strata/util_device.cuh>

#include <cuda/std/limits>

#include <cstddef>
#include <cstdio>
#include <map>

#if defined(_WIN32)
#  include <mutex>
#else
#  include <pthread.h>
#endif

STRATA_NAMESPACE_BEGIN
namespace detail
{
//! The allocator's lock. On POSIX systems it is the pthread mutex that std::mutex wraps there,
//! which spares every includer <mutex>'s headers (<chrono>, <string>, <system_error>).
class AllocatorMutex
{
public:
  AllocatorMutex()                                 = default;
  AllocatorMutex(const AllocatorMutex&)            = delete;
  AllocatorMutex& operator=(const AllocatorMutex&) = delete;
#if defined(_WIN32)
  STRATA_HOST void lock()
  {
    mutex_.lock();
  }
  STRATA_HOST void unlock()
  {
    mutex_.unlock();
  }

private:
  std::mutex mutex_;
#else
  STRATA_HOST ~AllocatorMutex()
  {
    pthread_mutex_destroy(&mutex_);
  }
  STRATA_HOST void lock()
  {
    pthread_mutex_lock(&mutex_);
  }
  STRATA_HOST void unlock()
  {
    pthread_mutex_unlock(&mutex_);
  }

private:
  pthread_mutex_t mutex_ = PTHREAD_MUTEX_INITIALIZER;
#endif
};

//! Holds an AllocatorMutex for its scope.
class AllocatorLock
{
public:
  STRATA_HOST explicit AllocatorLock(AllocatorMutex& mutex)
      : mutex_(mutex)
  {
    mutex_.lock();
  }
  STRATA_HOST ~AllocatorLock()
  {
    mutex_.unlock();
  }
  AllocatorLock(const AllocatorLock&)            = delete;
  AllocatorLock& operator=(const AllocatorLock&) = delete;

private:
  AllocatorMutex& mutex_;
};

//! The bin number of requests too large for any bin (CachingDeviceAllocator::INVALID_BIN).
inline constexpr unsigned int invalid_allocation_bin = ::cuda::std::numeric_limits<unsigned int>::max();

//! `base` to the power `exponent`, or SIZE_MAX when that does not fit in size_t.
STRATA_HOST constexpr std::size_t SaturatingPow(unsigned int base, unsigned int exponent)
{
  constexpr std::size_t max_size = ::cuda::std::numeric_limits<std::size_t>::max();
  if (base < 2)
  {
    // Powers of 0 and 1 never grow: answer them without looping over a large exponent.
    return (exponent == 0 || base == 1) ? 1 : 0;
  }
  std::size_t result = 1;
  for (unsigned int i = 0; i < exponent; ++i)
  {
    if (result > max_size / base)
    {
      return max_size;
    }
    result *= base;
  }
  return result;
}

//! Where a request of some size is served from: `bytes` is the size actually allocated.
struct AllocationBin
{
  unsigned int bin;
  std::size_t bytes;
};

//! The bin of a request of `bytes`: the smallest `bin >= min_bin` with `bin_growth^bin >= bytes`,
//! and `bin_growth^bin` bytes. A request that needs a bin above `max_bin` (or one whose size
//! does not fit in size_t) gets `{invalid_allocation_bin, bytes}`: it is allocated exactly and
//! never cached. Requires `bin_growth >= 2`.
STRATA_HOST constexpr AllocationBin RoundUpToBin(unsigned int bin_growth, unsigned int min_bin, unsigned int max_bin,
                                                 std::size_t bytes)
{
  const std::size_t growth_limit = ::cuda::std::numeric_limits<std::size_t>::max() / bin_growth;
  unsigned int bin               = 0;
  std::size_t rounded_bytes      = 1;
  while (bin < min_bin || rounded_bytes < bytes)
  {
    if (bin >= max_bin || rounded_bytes > growth_limit)
    {
      return AllocationBin{invalid_allocation_bin, bytes};
    }
    rounded_bytes *= bin_growth;
    ++bin;
  }
  return AllocationBin{bin, rounded_bytes};
}

//! One device allocation handed out by a CachingDeviceAllocator.
struct AllocatorBlock
{
  void* d_ptr       = nullptr;
  std::size_t bytes = 0;
  unsigned int bin  = invalid_allocation_bin;
  //! The stream the block was last allocated for: work on it may still use the block.
  cudaStream_t stream = nullptr;
  //! Recorded on `stream` when the block was freed: once complete, any stream may reuse it.
  cudaEvent_t ready_event = nullptr;
};

//! Bytes of one device: cached for reuse (`free`) and handed out to callers (`live`).
struct AllocatorTotalBytes
{
  std::size_t free = 0;
  std::size_t live = 0;
};

//! The blocks of one device, live ones by address and cached ones by bin, kept consistent with
//! the device's byte totals. Not synchronized: the allocator's mutex guards every call.
class DeviceBlockCache
{
public:
  //! Moves a cached block of `bin` that work on `stream` may use now into the live set. A block
  //! cached by `stream` itself is preferred (stream order already protects it); a block of
  //! another stream qualifies once its ready event has completed. False if none qualifies.
  STRATA_HOST bool TakeCached(unsigned int bin, cudaStream_t stream, AllocatorTotalBytes& totals, AllocatorBlock& block)
  {
    const auto [first, last] = cached_.equal_range(bin);
    auto chosen              = last;
    for (auto it = first; it != last; ++it)
    {
      if (it->second.stream == stream)
      {
        chosen = it;
        break;
      }
      if (chosen == last && IsIdle(it->second.ready_event))
      {
        chosen = it;
      }
    }
    if (chosen == last)
    {
      return false;
    }
    block        = chosen->second;
    block.stream = stream;
    cached_.erase(chosen);
    totals.free -= block.bytes;
    AddLive(block, totals);
    return true;
  }

  STRATA_HOST void AddLive(const AllocatorBlock& block, AllocatorTotalBytes& totals)
  {
    live_.emplace(block.d_ptr, block);
    totals.live += block.bytes;
  }

  //! Removes the live block at `d_ptr` into `block`; false if no live block starts there.
  STRATA_HOST bool TakeLive(void* d_ptr, AllocatorTotalBytes& totals, AllocatorBlock& block)
  {
    const auto it = live_.find(d_ptr);
    if (it == live_.end())
    {
      return false;
    }
    block = it->second;
    live_.erase(it);
    totals.live -= block.bytes;
    return true;
  }

  STRATA_HOST void AddCached(const AllocatorBlock& block, AllocatorTotalBytes& totals)
  {
    cached_.emplace(block.bin, block);
    totals.free += block.bytes;
  }

  //! Removes every cached block (and its bytes from `totals.free`), returned by bin.
  STRATA_HOST std::multimap<unsigned int, AllocatorBlock> TakeAllCached(AllocatorTotalBytes& totals)
  {
    std::multimap<unsigned int, AllocatorBlock> blocks;
    blocks.swap(cached_);
    for (const auto& entry : blocks)
    {
      totals.free -= entry.second.bytes;
    }
    return blocks;
  }

  STRATA_HOST bool HasCached() const
  {
    return !cached_.empty();
  }

  STRATA_HOST std::size_t LiveCount() const
  {
    return live_.size();
  }

private:
  STRATA_HOST static bool IsIdle(cudaEvent_t ready_event)
  {
    const cudaError_t status = cudaEventQuery(ready_event);
    if (status == cudaErrorNotReady)
    {
      return false;
    }
    // An event that cannot be queried gives no guarantee about the block: leave it cached.
    return STRATA_DETAIL_REPORT(status) == cudaSuccess;
  }

  std::multimap<unsigned int, AllocatorBlock> cached_;
  std::map<void*, AllocatorBlock> live_;
};
} // namespace detail

//! \brief A thread-safe caching allocator of device memory, with CUB's interface and behaviour.
//!
//! - Requests are rounded up to geometric bins `bin_growth^min_bin, ..., bin_growth^max_bin`
//!   bytes; a freed block is cached and handed out again only for requests of the same bin.
//! - Requests above `bin_growth^max_bin` bytes are allocated exactly and released to the CUDA
//!   runtime when freed, never cached.
//! - A block belongs to the stream it was allocated for. Once freed, it may be reused at once
//!   by work on that stream (stream order protects it), and by other streams only after the work
//!   submitted to its stream before the free has completed (an event recorded at the free).
//! - Each device caches at most `max_cached_bytes`; a freed block that does not fit is released.
//! - When the runtime runs out of memory, the device's cached blocks are released and the
//!   allocation is retried once.
//!
//! Every member function may be called from any host thread; errors are returned (never thrown)
//! and the calling thread's current device is the same afterwards.
//!
//! \code
//! strata::CachingDeviceAllocator allocator; // bins of 512 B, 4 KiB, 32 KiB, 256 KiB, 2 MiB
//! void* d_temp_storage = nullptr;
//! if (allocator.DeviceAllocate(&d_temp_storage, temp_storage_bytes, stream) == cudaSuccess)
//! {
//!   // ... launch work on `stream` that uses d_temp_storage ...
//!   allocator.DeviceFree(d_temp_storage); // reusable by `stream` at once, by others when done
//! }
//! \endcode
struct CachingDeviceAllocator
{
  //! The bin of requests that are too large to be cached; as `max_bin`: no largest bin.
  static constexpr unsigned int INVALID_BIN = detail::invalid_allocation_bin;
  //! As `max_cached_bytes`: no limit.
  static constexpr std::size_t INVALID_SIZE = ::cuda::std::numeric_limits<std::size_t>::max();
  //! As a device argument: the calling thread's current device.
  static constexpr int INVALID_DEVICE_ORDINAL = -1;

  //! Bytes of one device: cached for reuse (`free`) and handed out to callers (`live`).
  using TotalBytes = detail::AllocatorTotalBytes;
  //! TotalBytes of each device the allocator has served.
  using GpuCachedBytes = std::map<int, TotalBytes>;

  //! Geometric growth factor of bin sizes (at least 2, or every allocation fails).
  unsigned int bin_growth;
  //! Smallest bin: smaller requests are rounded up to `bin_growth^min_bin` bytes.
  unsigned int min_bin;
  //! Largest bin: larger requests are allocated exactly and never cached.
  unsigned int max_bin;
  //! `bin_growth^min_bin` (SIZE_MAX if that does not fit).
  std::size_t min_bin_bytes;
  //! `bin_growth^max_bin` (SIZE_MAX if that does not fit).
  std::size_t max_bin_bytes;
  //! Largest number of bytes cached per device; change it with SetMaxCachedBytes.
  std::size_t max_cached_bytes;
  //! Whether the destructor leaves cached blocks alone (for allocators that outlive the CUDA
  //! runtime, such as ones with static storage duration).
  const bool skip_cleanup;
  //! Whether every allocation, reuse, caching and release is reported on stderr.
  bool debug;
  //! Cached and live bytes of each device; read it only while no other thread uses the allocator.
  GpuCachedBytes cached_bytes;

  //! An allocator with bins `bin_growth^min_bin, ..., bin_growth^max_bin` that caches at most
  //! `max_cached_bytes` per device (INVALID_BIN: no largest bin; INVALID_SIZE: no limit).
  STRATA_HOST CachingDeviceAllocator(unsigned int bin_growth, unsigned int min_bin = 1,
                                     unsigned int max_bin = INVALID_BIN, std::size_t max_cached_bytes = INVALID_SIZE,
                                     bool skip_cleanup = false)
      : bin_growth(bin_growth)
      , min_bin(min_bin)
      , max_bin(max_bin)
      , min_bin_bytes(detail::SaturatingPow(bin_growth, min_bin))
      , max_bin_bytes(detail::SaturatingPow(bin_growth, max_bin))
      , max_cached_bytes(max_cached_bytes)
      , skip_cleanup(skip_cleanup)
      , debug(false)
  {
  }

  //! The default configuration: `bin_growth` 8, bins 3 to 7 (512 B, 4 KiB, 32 KiB, 256 KiB and
  //! 2 MiB) and at most `3 * 2 MiB - 1` = 6,291,455 cached bytes per device.
  STRATA_HOST CachingDeviceAllocator(bool skip_cleanup = false, bool debug = false)
      : bin_growth(8)
      , min_bin(3)
      , max_bin(7)
      , min_bin_bytes(detail::SaturatingPow(8, 3))
      , max_bin_bytes(detail::SaturatingPow(8, 7))
      , max_cached_bytes(3 * detail::SaturatingPow(8, 7) - 1)
      , skip_cleanup(skip_cleanup)
      , debug(debug)
  {
  }

  CachingDeviceAllocator(const CachingDeviceAllocator&)            = delete;
  CachingDeviceAllocator& operator=(const CachingDeviceAllocator&) = delete;

  //! Releases every cached block unless `skip_cleanup`; blocks still live are not touched.
  STRATA_HOST virtual ~CachingDeviceAllocator()
  {
    if (!skip_cleanup)
    {
      static_cast<void>(FreeAllCached());
    }
    if (debug)
    {
      for (const auto& [device, cache] : device_caches_)
      {
        if (cache.LiveCount() > 0)
        {
          std::fprintf(stderr, "strata: CachingDeviceAllocator: device %d: %zu bytes in %zu blocks never freed\n",
                       device, cached_bytes[device].live, cache.LiveCount());
        }
      }
    }
  }

  //! Sets the per-device limit on cached bytes. Frees nothing: blocks already cached stay until
  //! reused or released by FreeAllCached; the limit applies to blocks freed from now on.
  STRATA_HOST cudaError_t SetMaxCachedBytes(std::size_t max_cached_bytes_)
  {
    detail::AllocatorLock lock(mutex_);
    if (debug)
    {
      std::fprintf(stderr, "strata: CachingDeviceAllocator: max_cached_bytes %zu -> %zu\n", max_cached_bytes,
                   max_cached_bytes_);
    }
    max_cached_bytes = max_cached_bytes_;
    return cudaSuccess;
  }

  //! Writes to `*d_ptr` a block of at least `bytes` bytes on `device` (INVALID_DEVICE_ORDINAL: the
  //! current device) for use by work on `active_stream`, or nullptr on error. A zero-byte request
  //! gets a block of the smallest bin. Errors: cudaErrorInvalidValue (`d_ptr` null, `bin_growth`
  //! below 2), cudaErrorInvalidDevice, and the runtime's (cudaErrorMemoryAllocation when even
  //! releasing the device's cached blocks does not make room).
  STRATA_HOST cudaError_t DeviceAllocate(int device, void** d_ptr, std::size_t bytes, cudaStream_t active_stream = 0)
  {
    if (d_ptr == nullptr)
    {
      return STRATA_INVALID_ARGUMENT("d_ptr is null");
    }
    *d_ptr = nullptr;
    if (bin_growth < 2)
    {
      return STRATA_INVALID_ARGUMENT("bin_growth is less than 2");
    }
    cudaError_t error = ResolveDevice(device);
    if (error != cudaSuccess)
    {
      return error;
    }

    const detail::AllocationBin request = detail::RoundUpToBin(bin_growth, min_bin, max_bin, bytes);
    detail::AllocatorBlock block;
    if (request.bin != INVALID_BIN)
    {
      detail::AllocatorLock lock(mutex_);
      const auto cache = device_caches_.find(device);
      if (cache != device_caches_.end()
          && cache->second.TakeCached(request.bin, active_stream, cached_bytes[device], block))
      {
        Log("reused", device, block);
        *d_ptr = block.d_ptr;
        return cudaSuccess;
      }
    }

    detail::SwitchDevice guard(device);
    if (guard.error() != cudaSuccess)
    {
      return STRATA_DETAIL_REPORT(guard.error());
    }
    block.bytes  = request.bytes;
    block.bin    = request.bin;
    block.stream = active_stream;
    error        = cudaMalloc(&block.d_ptr, block.bytes);
    if (error == cudaErrorMemoryAllocation)
    {
      // Out of memory is not sticky: clear it, make room and try once more.
      static_cast<void>(cudaGetLastError());
      {
        detail::AllocatorLock lock(mutex_);
        error = ReleaseCachedBlocks(device);
      }
      if (error == cudaSuccess)
      {
        error = cudaMalloc(&block.d_ptr, block.bytes);
      }
    }
    if (STRATA_DETAIL_REPORT(error) != cudaSuccess)
    {
      return error;
    }
    error = STRATA_DETAIL_REPORT(cudaEventCreateWithFlags(&block.ready_event, cudaEventDisableTiming));
    if (error != cudaSuccess)
    {
      static_cast<void>(STRATA_DETAIL_REPORT(cudaFree(block.d_ptr)));
      return error;
    }

    detail::AllocatorLock lock(mutex_);
    device_caches_[device].AddLive(block, cached_bytes[device]);
    Log("allocated", device, block);
    *d_ptr = block.d_ptr;
    return cudaSuccess;
  }

  //! DeviceAllocate on the calling thread's current device.
  STRATA_HOST cudaError_t DeviceAllocate(void** d_ptr, std::size_t bytes, cudaStream_t active_stream = 0)
  {
    return DeviceAllocate(INVALID_DEVICE_ORDINAL, d_ptr, bytes, active_stream);
  }

  //! Returns the block at `d_ptr`, allocated by this allocator on `device` (INVALID_DEVICE_ORDINAL:
  //! the current device), to the cache, or releases it to the runtime if it is too large for a
  //! bin or the device's cache is full. Work already submitted to the block's stream may still use
  //! it: the free is ordered after that work. A null `d_ptr` is ignored. Errors:
  //! cudaErrorInvalidValue if `d_ptr` is not a live block of this allocator on `device` (the
  //! pointer is left alone), and the runtime's.
  STRATA_HOST cudaError_t DeviceFree(int device, void* d_ptr)
  {
    if (d_ptr == nullptr)
    {
      return cudaSuccess;
    }
    cudaError_t error = ResolveDevice(device);
    if (error != cudaSuccess)
    {
      return error;
    }
    detail::AllocatorBlock block;
    {
      detail::AllocatorLock lock(mutex_);
      const auto cache = device_caches_.find(device);
      if (cache == device_caches_.end() || !cache->second.TakeLive(d_ptr, cached_bytes[device], block))
      {
        return STRATA_INVALID_ARGUMENT("d_ptr is not a live block of this allocator on device");
      }
    }

    // Stream 0 names the current device's default stream: the block's device must be current.
    detail::SwitchDevice guard(device);
    error = STRATA_DETAIL_REPORT(guard.error());
    if (error == cudaSuccess && block.bin != INVALID_BIN)
    {
      // Recorded before the block enters the cache, so that no other thread can see the block
      // with an event that predates this free.
      error = STRATA_DETAIL_REPORT(cudaEventRecord(block.ready_event, block.stream));
    }
    {
      detail::AllocatorLock lock(mutex_);
      TotalBytes& totals = cached_bytes[device];
      if (error == cudaSuccess && block.bin != INVALID_BIN && totals.free + block.bytes <= max_cached_bytes)
      {
        device_caches_[device].AddCached(block, totals);
        Log("cached", device, block);
        return cudaSuccess;
      }
      Log("freed", device, block);
    }
    const cudaError_t release_error = ReleaseBlock(block);
    return error != cudaSuccess ? error : release_error;
  }

  //! DeviceFree on the calling thread's current device.
  STRATA_HOST cudaError_t DeviceFree(void* d_ptr)
  {
    return DeviceFree(INVALID_DEVICE_ORDINAL, d_ptr);
  }

  //! Releases every cached block on every device to the CUDA runtime; live blocks stay valid.
  //! Returns the first error (blocks after it are still released where possible).
  STRATA_HOST cudaError_t FreeAllCached()
  {
    detail::AllocatorLock lock(mutex_);
    cudaError_t first_error = cudaSuccess;
    for (auto& entry : device_caches_)
    {
      if (!entry.second.HasCached())
      {
        continue;
      }
      detail::SwitchDevice guard(entry.first);
      cudaError_t error = STRATA_DETAIL_REPORT(guard.error());
      if (error == cudaSuccess)
      {
        error = ReleaseCachedBlocks(entry.first);
      }
      if (first_error == cudaSuccess)
      {
        first_error = error;
      }
    }
    return first_error;
  }

private:
  //! Replaces INVALID_DEVICE_ORDINAL by the current device; rejects other negative ordinals.
  STRATA_HOST static cudaError_t ResolveDevice(int& device)
  {
    if (device == INVALID_DEVICE_ORDINAL)
    {
      return STRATA_DETAIL_REPORT(cudaGetDevice(&device));
    }
    return device < 0 ? STRATA_DETAIL_REPORT(cudaErrorInvalidDevice) : cudaSuccess;
  }

  //! Gives the block's memory and event back to the runtime. cudaFree waits for all work on the
  //! device, so work still using the block finishes first.
  STRATA_HOST static cudaError_t ReleaseBlock(const detail::AllocatorBlock& block)
  {
    const cudaError_t free_error  = STRATA_DETAIL_REPORT(cudaFree(block.d_ptr));
    const cudaError_t event_error = STRATA_DETAIL_REPORT(cudaEventDestroy(block.ready_event));
    return free_error != cudaSuccess ? free_error : event_error;
  }

  //! Releases every cached block of `device`. The caller holds the lock and has made `device`
  //! current.
  STRATA_HOST cudaError_t ReleaseCachedBlocks(int device)
  {
    cudaError_t first_error = cudaSuccess;
    for (const auto& entry : device_caches_[device].TakeAllCached(cached_bytes[device]))
    {
      const detail::AllocatorBlock& block = entry.second;
      Log("freed", device, block);
      const cudaError_t error = ReleaseBlock(block);
      if (first_error == cudaSuccess)
      {
        first_error = error;
      }
    }
    return first_error;
  }

  //! Reports one event in debug mode. The caller holds the lock (the totals are read here).
  STRATA_HOST void Log(const char* event, int device, const detail::AllocatorBlock& block)
  {
    if (debug)
    {
      const TotalBytes& totals = cached_bytes[device];
      std::fprintf(stderr,
                   "strata: CachingDeviceAllocator: device %d %s %zu bytes at %p (stream %p); "
                   "%zu bytes cached, %zu bytes live\n",
                   device, event, block.bytes, block.d_ptr, static_cast<void*>(block.stream), totals.free, totals.live);
    }
  }

  detail::AllocatorMutex mutex_;
  std::map<int, detail::DeviceBlockCache> device_caches_;
};

STRATA_NAMESPACE_END

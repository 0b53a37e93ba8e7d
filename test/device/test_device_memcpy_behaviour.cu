// Tests of strata/device/device_memcpy.cuh and device_copy.cuh, part 2: how the batched copies
// behave rather than what they copy, for DeviceMemcpy::Batched (bytes behind void pointers,
// uint32 sizes) and DeviceCopy::Batched (int ranges behind pointers, int sizes): the size query
// touches no device data and launches nothing (pointers that must never be dereferenced, inside a
// stream capture that must stay empty), null iterators included; a negative count (both phases),
// a null iterator of each of the three on the second call with buffers, and one byte too little
// temporary storage give cudaErrorInvalidValue and write nothing; an empty batch writes nothing,
// null iterators or not; temporary storage at an odd address works; the second phase works inside
// a CUDA graph and on two streams at once; and detail::DispatchBatchMemcpy runs with CUB's
// template parameter lists, CopyAlg::Memcpy and CopyAlg::Copy.
#include <strata/device/device_copy.cuh>
#include <strata/device/device_memcpy.cuh>
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>

#include "common/streams.cuh"
#include "common/behaviour.cuh"
#include "common/test_common.cuh"
#include "device_memcpy_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::layout;
using strata_test::placement;
using strata_test::query_bytes;

//! The iterators of a batched call (a bad-argument case sets each of them to null in turn).
struct batch_args
{
  const void* inputs;
  void* outputs;
  const void* sizes;
};

//! Which of batch_args' members `which` (0, 1, 2) names.
const char* iterator_name(int which)
{
  constexpr const char* names[] = {"input iterator", "output iterator", "sizes"};
  return names[which];
}

batch_args without(batch_args args, int which)
{
  switch (which)
  {
  case 0:
    args.inputs = nullptr;
    break;
  case 1:
    args.outputs = nullptr;
    break;
  default:
    args.sizes = nullptr;
    break;
  }
  return args;
}

using call_fn = std::function<cudaError_t(void*, std::size_t&, const batch_args&, std::int64_t, cudaStream_t)>;

//! DeviceMemcpy::Batched over `const void*` sources, `void*` destinations and uint32 sizes.
cudaError_t memcpy_call(void* d_temp, std::size_t& bytes, const batch_args& a, std::int64_t n, cudaStream_t stream)
{
  return strata::DeviceMemcpy::Batched(d_temp, bytes, static_cast<const void* const*>(a.inputs),
                                       static_cast<void* const*>(a.outputs), static_cast<const std::uint32_t*>(a.sizes),
                                       n, stream);
}

//! DeviceCopy::Batched over `const int*` inputs, `int*` outputs and int sizes.
cudaError_t copy_call(void* d_temp, std::size_t& bytes, const batch_args& a, std::int64_t n, cudaStream_t stream)
{
  return strata::DeviceCopy::Batched(d_temp, bytes, static_cast<const int* const*>(a.inputs),
                                     static_cast<int* const*>(a.outputs), static_cast<const int*>(a.sizes), n, stream);
}

//! A batch of `n` buffers of T in device memory (uniform sizes 0 to 4096 units, some negative
//! where SizeT is signed; the gapped layout, null pointers for some empty buffers): random sources,
//! a poisoned destination arena, and arrays of the pointers and of the sizes (SizeT).
template <typename T, typename SizeT>
class batch
{
public:
  batch(std::size_t n, std::uint64_t seed)
      : sizes_(sizes_of(n, seed))
      , placement_(strata_test::place(sizes_, layout::gapped, seed + 2))
      , src_(strata_test::random_vector<T>(placement_.src_units, seed + 3))
      , d_src_(src_)
      , d_dst_(placement_.dst_units)
      , d_srcs_(sizes_.size())
      , d_dsts_(sizes_.size())
      , d_sizes_(std::vector<SizeT>(sizes_.begin(), sizes_.end()))
  {
    std::vector<const T*> srcs(sizes_.size());
    std::vector<T*> dsts(sizes_.size());
    for (std::size_t b = 0; b < sizes_.size(); ++b)
    {
      srcs[b] = placement_.src[b] == strata_test::null_offset ? nullptr : d_src_.data() + placement_.src[b];
      dsts[b] = placement_.dst[b] == strata_test::null_offset ? nullptr : d_dst_.data() + placement_.dst[b];
    }
    d_srcs_.upload(srcs);
    d_dsts_.upload(dsts);
    poison();
  }

  batch_args args() const
  {
    return {d_srcs_.data(), d_dsts_.data(), d_sizes_.data()};
  }
  std::int64_t size() const
  {
    return std::int64_t(sizes_.size());
  }
  void poison() const
  {
    strata_test::poison_arena(d_dst_);
  }
  //! CHECKs that the destination arena holds the batch's copies and poison elsewhere.
  void check_copied() const
  {
    strata_test::check_arena(strata_test::reference_copy(src_, sizes_, placement_, strata_test::copy_poison_value<T>()),
                             d_dst_.download(), sizes_, placement_);
  }
  //! CHECKs that nothing was written: the destination arena holds poison only, the sources and
  //! the sizes are what they were.
  void check_untouched() const
  {
    strata_test::check_arena(std::vector<T>(placement_.dst_units, strata_test::copy_poison_value<T>()),
                             d_dst_.download(), sizes_, placement_);
    CHECK(d_src_.download() == src_);
    CHECK(d_sizes_.download() == std::vector<SizeT>(sizes_.begin(), sizes_.end()));
  }

private:
  static std::vector<std::int64_t> sizes_of(std::size_t n, std::uint64_t seed)
  {
    std::vector<std::int64_t> sizes =
        strata_test::make_sizes(strata_test::size_dist::uniform, n, seed, strata_test::split_of(sizeof(T)));
    if (std::is_signed_v<SizeT>)
    {
      strata_test::add_negative_sizes(sizes, seed + 1);
    }
    return sizes;
  }

  std::vector<std::int64_t> sizes_;
  placement placement_;
  std::vector<T> src_;
  device_buffer<T> d_src_;
  device_buffer<T> d_dst_;
  device_buffer<const T*> d_srcs_;
  device_buffer<T*> d_dsts_;
  device_buffer<SizeT> d_sizes_;
};

using memcpy_batch = batch<std::uint8_t, std::uint32_t>;
using copy_batch   = batch<int, int>;

//! CHECKs that `call()` returns cudaErrorInvalidValue and that nothing was written.
template <typename BatchT, typename CallT>
void check_rejected(const BatchT& b, CallT call)
{
  CHECK(call() == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  b.check_untouched();
}

//! The bad-argument cases of one call on one batch.
template <typename BatchT>
void check_bad_arguments(const call_fn& call, const BatchT& b)
{
  const batch_args args   = b.args();
  const std::int64_t n    = b.size();
  const std::size_t bytes = query_bytes(call, args, n);
  device_buffer<unsigned char> d_temp(bytes);
  {
    INFO("a negative count");
    std::size_t query = 0;
    check_rejected(b, [&] { return call(nullptr, query, args, -1, nullptr); });
    std::size_t run_bytes = bytes;
    check_rejected(b, [&] { return call(d_temp.data(), run_bytes, args, -5, nullptr); });
  }
  for (int which = 0; which < 3; ++which)
  {
    INFO("a null " << iterator_name(which) << " with buffers");
    std::size_t run_bytes = bytes;
    check_rejected(b, [&] { return call(d_temp.data(), run_bytes, without(args, which), n, nullptr); });
  }
  {
    INFO("too little temporary storage");
    std::size_t too_few = bytes - 1;
    check_rejected(b, [&] { return call(d_temp.data(), too_few, args, n, nullptr); });
  }
}

//! Both phases of `call` on `stream`, then waits for it.
template <typename CallT>
void two_phase(CallT call, cudaStream_t stream = nullptr)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes, stream));
  device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(call(d_temp.data(), bytes, stream));
  strata_test::check_launch();
}
} // namespace

TEST_CASE("DeviceMemcpy::Batched and DeviceCopy::Batched size queries touch no device data and launch nothing",
          "[device][memcpy][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const batch_args bad{reinterpret_cast<const void*>(std::uintptr_t(16)), reinterpret_cast<void*>(std::uintptr_t(32)),
                       reinterpret_cast<const void*>(std::uintptr_t(48))};
  const batch_args null{nullptr, nullptr, nullptr};
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        for (const bool memcpy : {true, false})
        {
          const call_fn call = memcpy ? call_fn(memcpy_call) : call_fn(copy_call);
          for (const batch_args& args : {bad, null})
          {
            for (const std::int64_t n :
                 {std::int64_t(0), std::int64_t(10), std::int64_t(1) << 24, (std::int64_t(1) << 31) + 5})
            {
              INFO((memcpy ? "DeviceMemcpy" : "DeviceCopy")
                   << "::Batched, num_buffers " << n << (args.inputs == nullptr ? ", null iterators" : ""));
              std::size_t bytes = 0;
              CHECK(call(nullptr, bytes, args, n, stream) == cudaSuccess);
              CHECK(bytes >= 1);
            }
          }
        }
      });
}

TEST_CASE("DeviceMemcpy::Batched and DeviceCopy::Batched reject bad arguments with cudaErrorInvalidValue and write "
          "nothing",
          "[device][memcpy][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(751);
  INFO("seed " << seed);
  {
    INFO("DeviceMemcpy::Batched");
    const memcpy_batch b(3000, seed);
    check_bad_arguments(memcpy_call, b);
  }
  {
    INFO("DeviceCopy::Batched");
    const copy_batch b(2000, seed + 10);
    check_bad_arguments(copy_call, b);
  }
}

TEST_CASE("DeviceMemcpy::Batched and DeviceCopy::Batched with no buffers write nothing", "[device][memcpy][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(753);
  INFO("seed " << seed);
  const memcpy_batch bytes_batch(100, seed);
  const copy_batch items_batch(100, seed + 10);
  const auto check_empty = [](const call_fn& call, const auto& b)
  {
    for (const batch_args& args : {b.args(), batch_args{nullptr, nullptr, nullptr}})
    {
      INFO((args.inputs == nullptr ? "null iterators" : "valid iterators"));
      std::size_t bytes = query_bytes(call, args, 0);
      device_buffer<unsigned char> d_temp(bytes);
      CHECK(call(d_temp.data(), bytes, args, 0, nullptr) == cudaSuccess);
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      b.check_untouched();
    }
  };
  {
    INFO("DeviceMemcpy::Batched");
    check_empty(memcpy_call, bytes_batch);
  }
  {
    INFO("DeviceCopy::Batched");
    check_empty(copy_call, items_batch);
  }
}

TEST_CASE("DeviceMemcpy::Batched and DeviceCopy::Batched take temporary storage at an odd address",
          "[device][memcpy][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(755);
  INFO("seed " << seed);
  const memcpy_batch bytes_batch(3000, seed);
  const copy_batch items_batch(2000, seed + 10);
  const auto check_odd = [](const call_fn& call, const auto& b)
  {
    std::size_t bytes = query_bytes(call, b.args(), b.size());
    device_buffer<unsigned char> d_temp(bytes + 1);
    STRATA_TEST_CUDA(call(d_temp.data() + 1, bytes, b.args(), b.size(), nullptr));
    strata_test::check_launch();
    b.check_copied();
  };
  {
    INFO("DeviceMemcpy::Batched");
    check_odd(memcpy_call, bytes_batch);
  }
  {
    INFO("DeviceCopy::Batched");
    check_odd(copy_call, items_batch);
  }
}

TEST_CASE("DeviceMemcpy::Batched and DeviceCopy::Batched run inside a CUDA graph and on two streams at once",
          "[device][memcpy][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(757);
  INFO("seed " << seed);
  const memcpy_batch a(20000, seed);
  const copy_batch b(5000, seed + 10);
  std::size_t bytes_a = query_bytes(memcpy_call, a.args(), a.size());
  std::size_t bytes_b = query_bytes(copy_call, b.args(), b.size());
  device_buffer<unsigned char> d_temp_a(bytes_a);
  device_buffer<unsigned char> d_temp_b(bytes_b);
  const auto copy_a = [&](cudaStream_t stream)
  { return memcpy_call(d_temp_a.data(), bytes_a, a.args(), a.size(), stream); };
  const auto copy_b = [&](cudaStream_t stream)
  { return copy_call(d_temp_b.data(), bytes_b, b.args(), b.size(), stream); };
  const strata_test::stream_pair streams;

  SECTION("DeviceMemcpy::Batched in a graph")
  {
    strata_test::check_graph_replay(
        streams[0], copy_a, [&] { a.poison(); }, [&] { a.check_copied(); });
  }
  SECTION("DeviceCopy::Batched in a graph")
  {
    strata_test::check_graph_replay(
        streams[1], copy_b, [&] { b.poison(); }, [&] { b.check_copied(); });
  }
  SECTION("two streams")
  {
    a.poison();
    b.poison();
    strata_test::run_on_two_streams(streams, copy_a, copy_b);
    a.check_copied();
    b.check_copied();
  }
}

TEST_CASE("detail::DispatchBatchMemcpy runs with CUB's template parameter lists", "[device][memcpy][copy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(759);
  INFO("seed " << seed);
  SECTION("CopyAlg::Memcpy (the default): DeviceMemcpy's, with BlockOffsetT uint32_t")
  {
    using dispatch_t =
        strata::detail::DispatchBatchMemcpy<const void* const*, void* const*, const std::uint32_t*, std::uint32_t>;
    const memcpy_batch b(3000, seed);
    const batch_args a = b.args();
    two_phase(
        [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
        {
          return dispatch_t::Dispatch(d_temp, bytes, static_cast<const void* const*>(a.inputs),
                                      static_cast<void* const*>(a.outputs), static_cast<const std::uint32_t*>(a.sizes),
                                      b.size(), stream);
        });
    b.check_copied();
  }
  SECTION("CopyAlg::Copy: DeviceCopy's, with BlockOffsetT uint32_t")
  {
    using dispatch_t = strata::detail::DispatchBatchMemcpy<const int* const*, int* const*, const int*, std::uint32_t,
                                                           strata::CopyAlg::Copy>;
    const copy_batch b(2000, seed + 10);
    const batch_args a = b.args();
    two_phase(
        [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
        {
          return dispatch_t::Dispatch(d_temp, bytes, static_cast<const int* const*>(a.inputs),
                                      static_cast<int* const*>(a.outputs), static_cast<const int*>(a.sizes), b.size(),
                                      stream);
        });
    b.check_copied();
  }
}

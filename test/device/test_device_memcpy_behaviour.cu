// Tests of strata/device/device_memcpy.cuh and device_copy.cuh, part 2: how the batched copies
// behave rather than what they copy, for DeviceMemcpy::Batched (bytes behind void pointers,
// uint32 sizes) and DeviceCopy::Batched (int ranges behind pointers, int sizes): the size query
// touches no device data and launches nothing (pointers that must never be dereferenced, inside a
// stream capture that must stay empty), null iterators included; a negative count (both phases),
// a null iterator of each of the three on the second call with buffers, and one byte too little
// temporary storage give cudaErrorInvalidValue and write nothing; an empty batch writes nothing,
// null iterators or not; temporary storage at an odd address works; the second phase works inside
// a CUDA graph and on two streams at once; detail::DispatchBatchMemcpy runs with CUB's template
// parameter lists, CopyAlg::Memcpy and CopyAlg::Copy; DeviceCopy::Batched takes ranges behind
// iterators that are not trivially copyable, as CUB does; and batches of more than 2^32 bytes (or
// items) holding a buffer of more than 2^31 ([slow]; 4 GiB of GPU memory).
#include <strata/device/device_copy.cuh>
#include <strata/device/device_memcpy.cuh>
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/streams.cuh"
#include "common/behaviour.cuh"
#include "common/test_common.cuh"
#include "device_memcpy_checks.cuh"
#include "device_select_checks.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <random>
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

namespace
{
//! A pointer to T with a copy constructor of its own, so that it is not trivially copyable (as
//! thrust::transform_iterator is not): a range DeviceCopy::Batched must not copy bytewise.
template <typename T>
class handle_iterator
{
public:
  using value_type        = std::remove_const_t<T>;
  using difference_type   = std::ptrdiff_t;
  using pointer           = T*;
  using reference         = T&;
  using iterator_category = std::random_access_iterator_tag;

  __host__ __device__ explicit handle_iterator(T* at)
      : at_(at)
  {
  }
  __host__ __device__ handle_iterator(const handle_iterator& other)
      : at_(other.at_)
  {
  }
  __host__ __device__ handle_iterator& operator=(const handle_iterator& other)
  {
    at_ = other.at_;
    return *this;
  }
  __host__ __device__ T& operator*() const
  {
    return *at_;
  }
  __host__ __device__ T& operator[](difference_type i) const
  {
    return at_[i];
  }
  __host__ __device__ handle_iterator operator+(difference_type i) const
  {
    return handle_iterator(at_ + i);
  }

private:
  T* at_;
};
static_assert(!std::is_trivially_copyable_v<handle_iterator<int>>, "the case needs an iterator CUB takes and a shuffle "
                                                                   "may not move");

//! The range of buffer i: a handle_iterator at its offset in an arena (null for null_offset).
template <typename T>
struct range_at
{
  T* arena;
  const std::uint64_t* offsets;
  __host__ __device__ handle_iterator<T> operator()(std::int64_t i) const
  {
    return handle_iterator<T>(offsets[i] == strata_test::null_offset ? nullptr : arena + offsets[i]);
  }
};

template <typename T>
using ranges_iterator =
    strata::TransformInputIterator<handle_iterator<T>, range_at<T>, strata::CountingInputIterator<std::int64_t>>;
} // namespace

TEST_CASE("DeviceCopy::Batched takes ranges behind iterators that are not trivially copyable", "[device][copy]")
{
  // CUB 3.0.1 takes them: a warp that copies a large part of a range must read the range's
  // iterator again rather than shuffle its bytes from the lane that found it.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(765);
  INFO("seed " << seed);
  const std::vector<std::int64_t> sizes =
      strata_test::make_sizes(strata_test::size_dist::uniform, 3000, seed, strata_test::split_of(sizeof(int)));
  const placement p          = strata_test::place(sizes, layout::gapped, seed + 1);
  const std::vector<int> src = strata_test::random_vector<int>(p.src_units, seed + 2);
  device_buffer<int> d_src(src);
  device_buffer<int> d_dst(p.dst_units);
  const device_buffer<std::uint64_t> d_src_offsets(p.src);
  const device_buffer<std::uint64_t> d_dst_offsets(p.dst);
  const device_buffer<int> d_sizes(std::vector<int>(sizes.begin(), sizes.end()));
  const strata::CountingInputIterator<std::int64_t> buffers(0);
  const ranges_iterator<const int> inputs(buffers, range_at<const int>{d_src.data(), d_src_offsets.data()});
  const ranges_iterator<int> outputs(buffers, range_at<int>{d_dst.data(), d_dst_offsets.data()});
  strata_test::poison_arena(d_dst);
  two_phase(
      [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
      {
        return strata::DeviceCopy::Batched(d_temp, bytes, inputs, outputs, d_sizes.data(), std::int64_t(sizes.size()),
                                           stream);
      });
  strata_test::check_arena(strata_test::reference_copy(src, sizes, p, strata_test::copy_poison_value<int>()),
                           d_dst.download(), sizes, p);
}

namespace
{
//! The arena of the cases of more than 2^32 bytes: 4 GiB and 4 MiB.
constexpr std::size_t large_arena = (std::size_t(1) << 32) + (std::size_t(1) << 22);

//! What the batches of those cases copy in all: 2^32 + 2^21 + 5 units.
constexpr std::int64_t large_total = (std::int64_t(1) << 32) + (std::int64_t(1) << 21) + 5;

//! Destination offsets of buffers of `sizes` laid out in the arena in reverse order (the cost
//! line's first buffer last), with random gaps of 0 to 40 units before each.
std::vector<std::size_t> reversed_with_gaps(const std::vector<std::int64_t>& sizes, std::mt19937_64& engine)
{
  std::uniform_int_distribution<std::size_t> gap(0, 40);
  std::vector<std::size_t> dst(sizes.size());
  std::size_t cursor = 0;
  for (std::size_t b = sizes.size(); b-- > 0;)
  {
    cursor += gap(engine);
    dst[b] = cursor;
    cursor += std::size_t(sizes[b]);
  }
  REQUIRE(cursor + 64 <= large_arena);
  return dst;
}
} // namespace

TEST_CASE("DeviceMemcpy::Batched copies more than 2^32 bytes in one batch and a buffer of more than 2^31 bytes",
          "[device][memcpy][slow]")
{
  // First a batch of 2^32 + 2^21 + 5 bytes: buffers of 32 to 64 MiB between small ones (0 to 300
  // bytes), each read from a random offset of a 64 MiB random source, written in reverse order
  // with gaps into a 4 GiB arena (the cost line's first buffer at its end); int64 sizes. Then one
  // buffer of 2^31 + 2^20 + 3 bytes (a uint32 size, more than an int holds) from the start of the
  // arena to its second half. The whole arena is checked after each call, gaps included.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("4 GiB of copies under compute-sanitizer would take hours; batches up to 32 MiB run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(761);
  INFO("seed " << seed);
  constexpr std::size_t source_bytes = (std::size_t(1) << 26) + 4093;
  strata_test::require_free_memory(large_arena + source_bytes + (std::size_t(64) << 20));
  std::mt19937_64 engine(seed);
  const std::vector<std::uint8_t> source = strata_test::random_vector<std::uint8_t>(source_bytes, seed + 1);
  std::vector<std::int64_t> sizes;
  std::int64_t total = 0;
  std::uniform_int_distribution<std::int64_t> large(std::int64_t(1) << 25, std::int64_t(1) << 26);
  std::uniform_int_distribution<std::int64_t> small(0, 300);
  while (total < large_total)
  {
    const std::int64_t size = std::min(sizes.size() % 2 == 0 ? large(engine) : small(engine), large_total - total);
    sizes.push_back(size);
    total += size;
  }
  std::vector<std::size_t> src(sizes.size());
  for (std::size_t b = 0; b < sizes.size(); ++b)
  {
    src[b] = std::uniform_int_distribution<std::size_t>(0, source_bytes - std::size_t(sizes[b]))(engine);
  }
  const std::vector<std::size_t> dst = reversed_with_gaps(sizes, engine);
  const device_buffer<std::uint8_t> d_source(source);
  device_buffer<std::uint8_t> d_arena(large_arena);
  std::vector<const void*> srcs(sizes.size());
  std::vector<void*> dsts(sizes.size());
  for (std::size_t b = 0; b < sizes.size(); ++b)
  {
    srcs[b] = d_source.data() + src[b];
    dsts[b] = d_arena.data() + dst[b];
  }
  const device_buffer<const void*> d_srcs(srcs);
  const device_buffer<void*> d_dsts(dsts);
  const device_buffer<std::int64_t> d_sizes(sizes);

  // The arena after the batch: each buffer's source bytes at its destination, poison elsewhere.
  const auto after_batch = [&](std::size_t first, std::size_t bytes, std::uint8_t* out)
  {
    std::memset(out, strata_test::copy_poison, bytes);
    for (std::size_t b = 0; b < sizes.size(); ++b)
    {
      const std::size_t lo = std::max(first, dst[b]);
      const std::size_t hi = std::min(first + bytes, dst[b] + std::size_t(sizes[b]));
      if (lo < hi)
      {
        std::memcpy(out + (lo - first), source.data() + src[b] + (lo - dst[b]), hi - lo);
      }
    }
  };
  {
    INFO(sizes.size() << " buffers of " << total << " bytes in all");
    strata_test::poison_arena(d_arena);
    two_phase(
        [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
        {
          return strata::DeviceMemcpy::Batched(d_temp, bytes, d_srcs.data(), d_dsts.data(), d_sizes.data(),
                                               std::int64_t(sizes.size()), stream);
        });
    strata_test::check_large(d_arena.data(), d_arena.size(), after_batch);
  }
  // Then the buffer of more than 2^31 bytes, three times: to destinations 0, 8 and 3 bytes past a
  // multiple of 16 from its source (16-byte words, 4-byte words, words cut from pairs). Its source
  // is never written: each copy overwrites the one before where they overlap.
  const std::size_t length = (std::size_t(1) << 31) + (std::size_t(1) << 20) + 3;
  const std::size_t from   = 1 + std::size_t(seed % 61);
  std::vector<std::size_t> copied_to;
  for (const std::size_t shift : {std::size_t(0), std::size_t(8), std::size_t(3)})
  {
    const std::size_t to = from + length + (shift + 16 - length % 16) % 16 + 16;
    INFO("one buffer of " << length << " bytes from arena byte " << from << " to " << to);
    const device_buffer<const void*> d_from(std::vector<const void*>{d_arena.data() + from});
    const device_buffer<void*> d_to(std::vector<void*>{d_arena.data() + to});
    const device_buffer<std::uint32_t> d_length(std::vector<std::uint32_t>{std::uint32_t(length)});
    two_phase(
        [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
        {
          return strata::DeviceMemcpy::Batched(d_temp, bytes, d_from.data(), d_to.data(), d_length.data(),
                                               std::int64_t(1), stream);
        });
    copied_to.push_back(to);
    strata_test::check_large(d_arena.data(), d_arena.size(),
                             [&](std::size_t first, std::size_t bytes, std::uint8_t* out)
                             {
                               after_batch(first, bytes, out);
                               for (const std::size_t at : copied_to)
                               {
                                 const std::size_t lo = std::max(first, at);
                                 const std::size_t hi = std::min(first + bytes, at + length);
                                 if (lo < hi)
                                 {
                                   after_batch(from + (lo - at), hi - lo, out + (lo - first));
                                 }
                               }
                             });
  }
}

TEST_CASE("DeviceCopy::Batched copies more than 2^32 items in one batch and a range of more than 2^31",
          "[device][copy][slow]")
{
  // uint8 ranges from periodic_iterators that start at random positions past 2^32 (no input
  // memory): ranges of up to 128 Mi items around one of 2^31 + 2^20 + 3 (its part of the cost line
  // crossing 2^31 and 2^32), 2^32 + 2^21 + 5 items in all, int64 sizes, written in reverse order
  // with gaps into a 4 GiB arena through pointers. The whole arena is checked, gaps included.
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("4 GiB of copies under compute-sanitizer would take hours; batches up to 16 MiB run there");
    return;
  }
  using strata_test::large_period;
  const std::uint64_t seed = strata_test::seed(763);
  INFO("seed " << seed);
  strata_test::require_free_memory(large_arena + (std::size_t(64) << 20));
  std::mt19937_64 engine(seed);
  const std::vector<std::uint8_t> table = strata_test::random_vector<std::uint8_t>(std::size_t(large_period), seed + 1);
  constexpr std::int64_t big            = (std::int64_t(1) << 31) + (std::int64_t(1) << 20) + 3;
  // Ranges up to just below 2^31 items, the large one (to just past 2^32), ranges up to the total.
  std::vector<std::int64_t> sizes;
  std::int64_t total = 0;
  std::uniform_int_distribution<std::int64_t> size(0, std::int64_t(1) << 27);
  for (const std::int64_t until : {(std::int64_t(1) << 31) - (std::int64_t(1) << 19) - 7, large_total})
  {
    while (total < until)
    {
      sizes.push_back(std::min(size(engine), until - total));
      total += sizes.back();
    }
    if (until != large_total)
    {
      sizes.push_back(big);
      total += big;
    }
  }
  std::vector<std::int64_t> starts(sizes.size());
  for (std::int64_t& start : starts)
  {
    start = std::uniform_int_distribution<std::int64_t>(std::int64_t(1) << 32, std::int64_t(1) << 40)(engine);
  }
  const std::vector<std::size_t> dst = reversed_with_gaps(sizes, engine);
  const device_buffer<std::uint8_t> d_table(table);
  device_buffer<std::uint8_t> d_arena(large_arena);
  std::vector<strata_test::periodic_iterator> inputs;
  std::vector<std::uint8_t*> outputs;
  for (std::size_t r = 0; r < sizes.size(); ++r)
  {
    inputs.push_back(strata_test::periodic_bytes(d_table.data()) + starts[r]);
    outputs.push_back(d_arena.data() + dst[r]);
  }
  const device_buffer<strata_test::periodic_iterator> d_inputs(inputs);
  const device_buffer<std::uint8_t*> d_outputs(outputs);
  const device_buffer<std::int64_t> d_sizes(sizes);
  INFO(sizes.size() << " ranges of " << total << " items in all");
  strata_test::poison_arena(d_arena);
  two_phase(
      [&](void* d_temp, std::size_t& bytes, cudaStream_t stream)
      {
        return strata::DeviceCopy::Batched(d_temp, bytes, d_inputs.data(), d_outputs.data(), d_sizes.data(),
                                           std::int64_t(sizes.size()), stream);
      });
  strata_test::check_large(d_arena.data(), d_arena.size(),
                           [&](std::size_t first, std::size_t bytes, std::uint8_t* out)
                           {
                             std::memset(out, strata_test::copy_poison, bytes);
                             for (std::size_t r = 0; r < sizes.size(); ++r)
                             {
                               const std::size_t lo = std::max(first, dst[r]);
                               const std::size_t hi = std::min(first + bytes, dst[r] + std::size_t(sizes[r]));
                               if (lo < hi)
                               {
                                 strata_test::fill_periodic(
                                     table, std::size_t((starts[r] + std::int64_t(lo - dst[r])) % large_period),
                                     hi - lo, out + (lo - first));
                               }
                             }
                           });
}

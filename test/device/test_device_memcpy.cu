// Tests of strata/device/device_memcpy.cuh: DeviceMemcpy::Batched copies every byte of random
// batches and nothing else. Random source bytes; 1 to 10^6 buffers (10^6 not under
// compute-sanitizer) of sizes all zero, tiny (copied by one lane), uniform in [0, 4096], power law
// (1 B to 64 KiB), straddling multiples of the policy's chunk (16 KiB), and cut by chunk boundaries
// into pieces of 0, 1, 3, 15, 16, 17, lane - 1, lane, lane + 1, 2 lane + 1 and 63 bytes (lane: the
// policy's largest part copied by one lane, 32 bytes); laid out packed at the same offsets in source
// and destination, with the destination shifted by 1, 2, 3, 4 and 8 bytes (every relation of the
// addresses modulo 16 and 4 the copy distinguishes), with gaps, in reversed and in shuffled order;
// sizes of int, int64, uint32 and size_t (negative sizes among the signed ones copy nothing);
// pointers from arrays or computed by a TransformInputIterator; empty buffers with null pointers.
// Destinations are poisoned with 0xAB, and the whole destination arena (gaps and the 64 bytes
// after the last destination too) is compared byte for byte with a host reference. Also three
// buffers of 20 MiB and odd sizes between small ones, and sizes read through a
// CountingInputIterator.
#include <strata/device/device_memcpy.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_memcpy_checks.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::layout;
using strata_test::placement;
using strata_test::size_dist;

//! The pointer `offset` bytes after `base`, null for strata_test::null_offset: buffer pointers
//! computed on the fly from offsets.
template <typename PointerT>
struct pointer_at
{
  PointerT base;
  __host__ __device__ PointerT operator()(std::uint64_t offset) const
  {
    return offset == ~std::uint64_t(0) ? nullptr : base + offset;
  }
};

//! How the buffers' pointers reach the call.
enum class pointer_form
{
  arrays,  //!< device arrays of const void* and void*
  computed //!< TransformInputIterators over device arrays of offsets
};

//! Both phases of DeviceMemcpy::Batched, then waits for the copy.
template <typename InputT, typename OutputT, typename SizesT>
void run_batched(InputT inputs, OutputT outputs, SizesT sizes, std::int64_t num_buffers)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceMemcpy::Batched(nullptr, bytes, inputs, outputs, sizes, num_buffers));
  CHECK(bytes >= 1);
  device_buffer<unsigned char> temp(bytes);
  STRATA_TEST_CUDA(strata::DeviceMemcpy::Batched(temp.data(), bytes, inputs, outputs, sizes, num_buffers));
  strata_test::check_launch();
}

//! Copies a batch of `sizes` (as SizeT) laid out as `l` with pointers of `form`, and checks the
//! whole destination arena.
template <typename SizeT>
void check_batch(const std::vector<std::int64_t>& sizes, layout l, pointer_form form, std::uint64_t seed)
{
  const placement p                        = strata_test::place(sizes, l, seed);
  const std::vector<std::uint8_t> src      = strata_test::random_bytes(p.src_units, seed + 1);
  const std::vector<std::uint8_t> expected = strata_test::reference_copy(src, sizes, p, strata_test::copy_poison);
  device_buffer<std::uint8_t> d_src(src);
  device_buffer<std::uint8_t> d_dst(p.dst_units);
  strata_test::poison_arena(d_dst);
  std::vector<SizeT> typed_sizes(sizes.size());
  std::transform(sizes.begin(), sizes.end(), typed_sizes.begin(), [](std::int64_t size) { return SizeT(size); });
  device_buffer<SizeT> d_sizes(typed_sizes);
  const auto n = std::int64_t(sizes.size());
  if (form == pointer_form::arrays)
  {
    std::vector<const void*> srcs(sizes.size());
    std::vector<void*> dsts(sizes.size());
    for (std::size_t b = 0; b < sizes.size(); ++b)
    {
      srcs[b] = p.src[b] == strata_test::null_offset ? nullptr : d_src.data() + p.src[b];
      dsts[b] = p.dst[b] == strata_test::null_offset ? nullptr : d_dst.data() + p.dst[b];
    }
    device_buffer<const void*> d_srcs(srcs);
    device_buffer<void*> d_dsts(dsts);
    run_batched(d_srcs.data(), d_dsts.data(), static_cast<const SizeT*>(d_sizes.data()), n);
  }
  else
  {
    device_buffer<std::uint64_t> d_src_offsets(p.src);
    device_buffer<std::uint64_t> d_dst_offsets(p.dst);
    using src_at = pointer_at<const std::uint8_t*>;
    using dst_at = pointer_at<std::uint8_t*>;
    const strata::TransformInputIterator<const std::uint8_t*, src_at, const std::uint64_t*> srcs(d_src_offsets.data(),
                                                                                                 src_at{d_src.data()});
    const strata::TransformInputIterator<std::uint8_t*, dst_at, const std::uint64_t*> dsts(d_dst_offsets.data(),
                                                                                           dst_at{d_dst.data()});
    run_batched(srcs, dsts, static_cast<const SizeT*>(d_sizes.data()), n);
  }
  strata_test::check_arena(expected, d_dst.download(), sizes, p);
}

const char* form_name(pointer_form form)
{
  return form == pointer_form::arrays ? "pointer arrays" : "pointers computed by a TransformInputIterator";
}
} // namespace

TEMPLATE_TEST_CASE("DeviceMemcpy::Batched copies random batches byte for byte", "[device][memcpy]", int, std::int64_t,
                   std::uint32_t, std::size_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using SizeT              = TestType;
  constexpr bool SIGNED    = std::is_signed_v<SizeT>;
  const std::uint64_t seed = strata_test::seed(701 + sizeof(SizeT) + (SIGNED ? 1 : 0));
  INFO("seed " << seed);
  const strata_test::copy_split split = strata_test::split_of(1);
  std::vector<std::size_t> counts{1, 2, 31, 32, 33, 1000, 100000};
  if (!strata_test::under_sanitizer())
  {
    counts.push_back(1000000);
  }
  // Batches larger than this leave out only buffers of the sizes the smaller counts have.
  const std::uint64_t budget = (strata_test::under_sanitizer() ? std::uint64_t(32) : std::uint64_t(256)) << 20;
  // Each size type starts its rotation of layouts and pointer forms elsewhere.
  std::size_t turn = sizeof(SizeT) + (SIGNED ? 1 : 0);
  for (const size_dist dist : strata_test::all_dists())
  {
    for (std::size_t c = 0; c < counts.size(); ++c)
    {
      const std::size_t count         = counts[c];
      const std::uint64_t batch_seed  = seed + 1000 * std::uint64_t(dist) + 10 * c;
      std::vector<std::int64_t> sizes = strata_test::make_sizes(dist, count, batch_seed, split);
      if (SIGNED && (dist == size_dist::tiny || dist == size_dist::uniform || dist == size_dist::power_law))
      {
        strata_test::add_negative_sizes(sizes, batch_seed + 1);
      }
      if (strata_test::total_units(sizes) > budget)
      {
        continue;
      }
      const std::vector<layout>& all    = strata_test::all_layouts();
      const std::vector<layout> layouts = count <= 1000 ? all : std::vector<layout>{all[turn % all.size()]};
      for (const layout l : layouts)
      {
        const pointer_form form = turn++ % 2 == 0 ? pointer_form::arrays : pointer_form::computed;
        INFO(strata_test::dist_name(dist)
             << ", " << count << " buffers, " << strata_test::layout_name(l) << ", " << form_name(form));
        check_batch<SizeT>(sizes, l, form, batch_seed + 2 + turn);
      }
    }
  }
}

TEST_CASE("DeviceMemcpy::Batched copies three buffers of 20 MiB and odd sizes among small ones", "[device][memcpy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(711);
  INFO("seed " << seed);
  // Under compute-sanitizer 2 MiB: as many chunks per warp as the copy kernel's grid allows either way.
  const std::int64_t big = std::int64_t(strata_test::under_sanitizer() ? 2 : 20) << 20;
  const std::vector<std::int64_t> sizes{5, big + 1, 0, 17, big + 3, 16, 1, big + 7, 3};
  for (const layout l :
       {layout::packed, layout::shifted_1, layout::shifted_3, layout::shifted_4, layout::shifted_8, layout::shuffled})
  {
    INFO(strata_test::layout_name(l));
    check_batch<std::size_t>(sizes, l, pointer_form::arrays, seed + std::uint64_t(l));
    check_batch<std::int64_t>(sizes, l, pointer_form::computed, seed + 100 + std::uint64_t(l));
  }
}

TEST_CASE("DeviceMemcpy::Batched reads the sizes through a CountingInputIterator", "[device][memcpy]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(713);
  INFO("seed " << seed);
  // Buffer b has b bytes: sizes grow through every length up to a few chunks.
  const std::size_t n = 3000;
  std::vector<std::int64_t> sizes(n);
  for (std::size_t b = 0; b < n; ++b)
  {
    sizes[b] = std::int64_t(b);
  }
  for (const layout l : {layout::packed, layout::shifted_2, layout::shuffled})
  {
    INFO(strata_test::layout_name(l));
    const placement p                        = strata_test::place(sizes, l, seed + std::uint64_t(l));
    const std::vector<std::uint8_t> src      = strata_test::random_bytes(p.src_units, seed + 10 + std::uint64_t(l));
    const std::vector<std::uint8_t> expected = strata_test::reference_copy(src, sizes, p, strata_test::copy_poison);
    device_buffer<std::uint8_t> d_src(src);
    device_buffer<std::uint8_t> d_dst(p.dst_units);
    strata_test::poison_arena(d_dst);
    std::vector<const void*> srcs(n);
    std::vector<void*> dsts(n);
    for (std::size_t b = 0; b < n; ++b)
    {
      srcs[b] = p.src[b] == strata_test::null_offset ? nullptr : d_src.data() + p.src[b];
      dsts[b] = p.dst[b] == strata_test::null_offset ? nullptr : d_dst.data() + p.dst[b];
    }
    device_buffer<const void*> d_srcs(srcs);
    device_buffer<void*> d_dsts(dsts);
    run_batched(d_srcs.data(), d_dsts.data(), strata::CountingInputIterator<int>(0), std::int64_t(n));
    strata_test::check_arena(expected, d_dst.download(), sizes, p);
  }
}

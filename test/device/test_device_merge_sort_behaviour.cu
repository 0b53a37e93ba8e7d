// Tests of strata/device/device_merge_sort.cuh, part 3: what is not a key type: bad arguments (an
// error code, nothing written), empty sorts (any temporary storage and pointers, as CUB's), the
// temporary storage of one tile, every in-place and Stable form, a descending order, 16-byte
// records ordered by one member, records large enough to shrink the tiles (to one warp), keys and
// values read through iterators, misaligned pointers, more than 2^31 keys, DispatchMergeSort with
// CUB's whole argument list, and sorts on a stream of their own, on two streams at once and
// captured in a CUDA graph. Records also sort through the partition kernel (a policy hub's
// PARTITION_MIN_TILES), as the key types do in parts 1 and 2.
#include <strata/device/device_merge_sort.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "common/streams.cuh"
#include "device_merge_sort_checks.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace
{
using strata_test::device_buffer;

//! `a > b`: a descending order.
struct greater_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a > b;
  }
};

//! A 16-byte record ordered by `key` alone: the other members show whether equal keys kept their order.
struct record
{
  std::uint64_t key;
  std::uint32_t a;
  std::uint32_t b;
};
struct record_less
{
  __host__ __device__ bool operator()(const record& x, const record& y) const
  {
    return x.key < y.key;
  }
};

//! A record of 8 + 4 WORDS bytes: its tiles must shrink to fit in shared memory.
template <int WORDS>
struct big_record
{
  std::uint32_t key;
  std::uint32_t position;
  std::uint32_t payload[WORDS];
};
struct big_record_less
{
  template <typename RecordT>
  __host__ __device__ bool operator()(const RecordT& x, const RecordT& y) const
  {
    return x.key < y.key;
  }
};

struct negate_op
{
  __host__ __device__ std::int64_t operator()(std::uint32_t x) const
  {
    return -std::int64_t(x);
  }
};

std::vector<record> random_records(std::size_t n, std::uint64_t seed)
{
  const std::vector<std::uint32_t> words = strata_test::random_vector<std::uint32_t>(2 * n, seed);
  std::vector<record> records(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    records[i] = record{words[2 * i] % 5000, std::uint32_t(i), words[2 * i + 1]};
  }
  return records;
}

//! The two-phase call of `call(d_temp, bytes)`.
template <typename CallT>
void run_two_phase(CallT call, cudaStream_t stream = 0)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes));
  device_buffer<unsigned char> d_temp(bytes);
  STRATA_TEST_CUDA(call(d_temp.data(), bytes));
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
}

template <typename T>
bool same_bytes(const std::vector<T>& x, const std::vector<T>& y)
{
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

using strata_test::merge_sort_path;

//! A two-phase SortKeys of `keys` in place by `compare` (a callable of (d_temp, bytes)):
//! DeviceMergeSort's, or on the partition kernel's path DispatchMergeSort's with
//! strata_test::merge_sort_partition_hub.
template <merge_sort_path PATH, typename KeyT, typename CompareT>
auto keys_sorter(KeyT* keys, std::size_t n, CompareT compare)
{
  return [=](void* d_temp, std::size_t& bytes)
  {
    if constexpr (PATH == merge_sort_path::public_api)
    {
      return strata::DeviceMergeSort::SortKeys(d_temp, bytes, keys, n, compare);
    }
    else
    {
      using dispatch_t =
          strata::DispatchMergeSort<KeyT*, strata::NullType*, KeyT*, strata::NullType*, std::uint32_t, CompareT,
                                    strata_test::merge_sort_partition_hub<KeyT, strata::NullType>>;
      return dispatch_t::Dispatch(d_temp, bytes, keys, nullptr, keys, nullptr, std::uint32_t(n), compare, 0);
    }
  };
}

//! A two-phase SortPairs of `keys` and `values` in place, as keys_sorter.
template <merge_sort_path PATH, typename KeyT, typename ValueT, typename CompareT>
auto pairs_sorter(KeyT* keys, ValueT* values, std::size_t n, CompareT compare)
{
  return [=](void* d_temp, std::size_t& bytes)
  {
    if constexpr (PATH == merge_sort_path::public_api)
    {
      return strata::DeviceMergeSort::SortPairs(d_temp, bytes, keys, values, n, compare);
    }
    else
    {
      using dispatch_t = strata::DispatchMergeSort<KeyT*, ValueT*, KeyT*, ValueT*, std::uint32_t, CompareT,
                                                   strata_test::merge_sort_partition_hub<KeyT, ValueT>>;
      return dispatch_t::Dispatch(d_temp, bytes, keys, values, keys, values, std::uint32_t(n), compare, 0);
    }
  };
}

//! Runs a sorter of PATH; on the partition kernel's path its temporary storage must first hold a
//! split per merge tile (MERGE_TILE items) more than the public API's (`public_sorter`), which
//! shows that the hub's PARTITION_MIN_TILES was read.
template <merge_sort_path PATH, std::size_t MERGE_TILE, typename SorterT, typename PublicSorterT>
void run_sorter(SorterT sorter, PublicSorterT public_sorter, std::size_t n)
{
  if constexpr (PATH == merge_sort_path::partition_kernel)
  {
    std::size_t public_bytes = 0;
    std::size_t bytes        = 0;
    STRATA_TEST_CUDA(public_sorter(nullptr, public_bytes));
    STRATA_TEST_CUDA(sorter(nullptr, bytes));
    CHECK(bytes >= public_bytes + (n + MERGE_TILE - 1) / MERGE_TILE * sizeof(std::uint32_t));
  }
  run_two_phase(sorter);
}

template <merge_sort_path PATH, typename KeyT, typename CompareT>
void sort_keys(KeyT* keys, std::size_t n, CompareT compare)
{
  run_sorter<PATH, strata_test::merge_sort_tiles<KeyT>::merge>(
      keys_sorter<PATH>(keys, n, compare), keys_sorter<merge_sort_path::public_api>(keys, n, compare), n);
}

template <merge_sort_path PATH, typename KeyT, typename ValueT, typename CompareT>
void sort_pairs(KeyT* keys, ValueT* values, std::size_t n, CompareT compare)
{
  run_sorter<PATH, strata_test::merge_sort_tiles<KeyT, ValueT>::merge>(
      pairs_sorter<PATH>(keys, values, n, compare), pairs_sorter<merge_sort_path::public_api>(keys, values, n, compare),
      n);
}
} // namespace

TEST_CASE("DeviceMergeSort rejects bad arguments before it needs a device", "[device][sort]")
{
  std::size_t bytes = 1000;
  int dummy[4]      = {};
  // A negative count, and null pointers in the second phase: cudaErrorInvalidValue.
  CHECK(strata::DeviceMergeSort::SortKeys(nullptr, bytes, dummy, -1, strata_test::less_op{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceMergeSort::SortKeysCopy(dummy, bytes, static_cast<const int*>(nullptr), dummy, 4,
                                              strata_test::less_op{})
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceMergeSort::SortKeysCopy(dummy, bytes, static_cast<const int*>(dummy), static_cast<int*>(nullptr),
                                              4, strata_test::less_op{})
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceMergeSort::SortPairs(dummy, bytes, dummy, static_cast<int*>(nullptr), 4, strata_test::less_op{})
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceMergeSort::SortPairsCopy(dummy, bytes, static_cast<const int*>(dummy),
                                               static_cast<const int*>(nullptr), dummy, dummy, 4,
                                               strata_test::less_op{})
        == cudaErrorInvalidValue);
  CHECK(bytes == 1000);
}

namespace
{
//! SortKeys of n random int32 keys on PATH: one byte less than the query's answer is refused with
//! nothing written (on the partition kernel's path the last byte is the last tile's split), and
//! exactly the query's answer sorts them.
template <merge_sort_path PATH>
void check_temporary_storage_bound(std::size_t n, std::uint64_t seed)
{
  INFO("num_items " << n << (PATH == merge_sort_path::partition_kernel ? ", through the partition kernel" : ""));
  const std::vector<std::int32_t> keys = strata_test::random_vector<std::int32_t>(n, seed);
  device_buffer<std::int32_t> d_keys(keys);
  const auto sorter = keys_sorter<PATH>(d_keys.data(), n, strata_test::less_op{});
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(sorter(nullptr, bytes));
  REQUIRE(bytes > n * sizeof(std::int32_t)); // more than one tile: a buffer of the keys
  device_buffer<unsigned char> d_temp(bytes);
  std::size_t short_bytes = bytes - 1;
  CHECK(sorter(d_temp.data(), short_bytes) == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(same_bytes(keys, d_keys.download()));

  STRATA_TEST_CUDA(sorter(d_temp.data(), bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<std::int32_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  strata_test::check_equal(expected, d_keys.download());
}
} // namespace

TEST_CASE("DeviceMergeSort needs exactly the temporary storage it asks for", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(421);
  INFO("seed " << seed);
  const std::size_t n = strata_test::merge_sort_sanitizer_max<std::int32_t>;
  check_temporary_storage_bound<merge_sort_path::public_api>(n, seed);
  check_temporary_storage_bound<merge_sort_path::partition_kernel>(n, seed + 1);

  // A sort of one tile needs no buffer; the size queries launch nothing.
  device_buffer<std::int32_t> d_keys(n);
  std::size_t one_tile_bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceMergeSort::SortKeys(nullptr, one_tile_bytes, d_keys.data(),
                                                     strata_test::merge_sort_tiles<std::int32_t>::sort,
                                                     strata_test::less_op{}));
  CHECK(one_tile_bytes >= 1);
  CHECK(one_tile_bytes <= 512);
  strata_test::check_capture_stays_empty(
      [&](cudaStream_t stream)
      {
        std::size_t b = 0;
        STRATA_TEST_CUDA(strata::DeviceMergeSort::SortPairs(nullptr, b, d_keys.data(), d_keys.data(), n,
                                                            strata_test::less_op{}, stream));
      });
}

TEST_CASE("DeviceMergeSort sorts nothing with any temporary storage and pointers, as CUB's", "[device][sort]")
{
  // CUB 3.0.1 asks for no temporary storage when there is nothing to sort and then takes any; strata
  // asks for a byte (a device call never reports zero) and takes any too, null pointers included.
  STRATA_TEST_REQUIRE_GPU();
  std::vector<std::int32_t> poisoned(4);
  std::memset(poisoned.data(), strata_test::poison_byte, poisoned.size() * sizeof(std::int32_t));
  device_buffer<std::int32_t> d_keys(poisoned);
  device_buffer<unsigned char> d_temp(1);
  const auto less             = strata_test::less_op{};
  std::int32_t* null_keys     = nullptr;
  const std::int32_t* null_in = nullptr;
  for (std::int32_t* keys : {d_keys.data(), null_keys})
  {
    INFO((keys == nullptr ? "null pointers" : "poisoned buffers"));
    const std::int32_t* in  = keys;
    std::size_t empty_bytes = 0;
    STRATA_TEST_CUDA(strata::DeviceMergeSort::SortKeys(nullptr, empty_bytes, keys, 0, less));
    CHECK(empty_bytes >= 1);
    for (std::size_t bytes : {std::size_t(0), empty_bytes})
    {
      INFO("temp_storage_bytes " << bytes);
      std::size_t b = bytes;
      CHECK(strata::DeviceMergeSort::SortKeys(d_temp.data(), b, keys, 0, less) == cudaSuccess);
      CHECK(strata::DeviceMergeSort::SortPairs(d_temp.data(), b, keys, keys, std::int64_t(0), less) == cudaSuccess);
      CHECK(strata::DeviceMergeSort::SortKeysCopy(d_temp.data(), b, in, keys, 0u, less) == cudaSuccess);
      CHECK(strata::DeviceMergeSort::SortPairsCopy(d_temp.data(), b, in, in, keys, keys, 0, less) == cudaSuccess);
      CHECK(strata::DeviceMergeSort::StableSortPairs(d_temp.data(), b, keys, keys, 0, less) == cudaSuccess);
      CHECK(strata::DeviceMergeSort::StableSortKeys(d_temp.data(), b, keys, 0, less) == cudaSuccess);
      CHECK(strata::DeviceMergeSort::StableSortKeysCopy(d_temp.data(), b, null_in, keys, 0, less) == cudaSuccess);
      CHECK(b == bytes);
    }
  }
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(same_bytes(poisoned, d_keys.download()));
}

TEST_CASE("DispatchMergeSort takes CUB's whole argument list and Invoke's policy argument", "[device][sort]")
{
  // CUB's Dispatch ends with a kernel source, a launcher factory and the hub's MaxPolicy; its
  // Invoke takes the policy as an argument (ChainedPolicy calls Invoke<Policy>()).
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(422);
  INFO("seed " << seed);
  using hub_t         = strata_test::merge_sort_partition_hub<std::int32_t, std::uint32_t>;
  using dispatch_t    = strata::DispatchMergeSort<std::int32_t*, std::uint32_t*, std::int32_t*, std::uint32_t*,
                                               std::uint32_t, strata_test::less_op, hub_t>;
  const std::size_t n = 3 * strata_test::merge_sort_tiles<std::int32_t, std::uint32_t>::sort + 5;
  const std::vector<std::int32_t> keys   = strata_test::random_vector<std::int32_t>(n, seed, -500, 500);
  const std::vector<std::uint32_t> order = strata_test::stable_order(keys, n, strata_test::less_op{});
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  int ptx_version = 0;
  STRATA_TEST_CUDA(strata::PtxVersion(ptx_version));
  for (bool by_invoke : {false, true})
  {
    INFO((by_invoke ? "Invoke(policy)" : "Dispatch"));
    device_buffer<std::int32_t> d_keys(keys);
    device_buffer<std::uint32_t> d_values(positions);
    run_two_phase(
        [&](void* d_temp, std::size_t& bytes)
        {
          if (by_invoke)
          {
            dispatch_t dispatch(d_temp, bytes, d_keys.data(), d_values.data(), d_keys.data(), d_values.data(),
                                std::uint32_t(n), strata_test::less_op{}, cudaStream_t{}, ptx_version);
            return dispatch.Invoke(hub_t::Policy{});
          }
          return dispatch_t::Dispatch(d_temp, bytes, d_keys.data(), d_values.data(), d_keys.data(), d_values.data(),
                                      std::uint32_t(n), strata_test::less_op{}, cudaStream_t{},
                                      strata::detail::DefaultKernelSource{}, strata::detail::TripleChevronFactory{},
                                      hub_t::MaxPolicy{});
        });
    strata_test::check_equal(order, d_values.download());
  }
}

TEST_CASE("DeviceMergeSort sorts in place and by every name, ascending and descending", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(423);
  INFO("seed " << seed);
  // Under compute-sanitizer three merge passes of keys, four of pairs (larger sizes: more passes).
  const std::size_t max =
      strata_test::under_sanitizer() ? strata_test::merge_sort_sanitizer_max<std::int32_t> : 1000003;
  const std::vector<std::int32_t> all = strata_test::random_vector<std::int32_t>(max, seed, -3000, 3000);
  for (std::size_t n : {std::size_t(1), std::size_t(5000), max})
  {
    INFO("num_items " << n);
    const std::vector<std::int32_t> keys(all.begin(), all.begin() + std::ptrdiff_t(n));
    std::vector<std::uint32_t> positions(n);
    std::iota(positions.begin(), positions.end(), 0u);
    for (bool descending : {false, true})
    {
      INFO("descending " << descending);
      const std::vector<std::uint32_t> order = descending ? strata_test::stable_order(keys, n, greater_op{})
                                                          : strata_test::stable_order(keys, n, strata_test::less_op{});
      std::vector<std::int32_t> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected[i] = keys[order[i]];
      }
      for (int form = 0; form < 5; ++form)
      {
        INFO("form " << form);
        device_buffer<std::int32_t> d_keys(keys);
        device_buffer<std::uint32_t> d_values(positions);
        device_buffer<std::int32_t> d_out(n);
        d_out.poison();
        const auto sort = [&](auto compare)
        {
          run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                switch (form)
                {
                case 0:
                  return strata::DeviceMergeSort::SortKeys(d_temp, bytes, d_keys.data(), n, compare);
                case 1:
                  return strata::DeviceMergeSort::StableSortKeys(d_temp, bytes, d_keys.data(), n, compare);
                case 2:
                  return strata::DeviceMergeSort::SortPairs(d_temp, bytes, d_keys.data(), d_values.data(), n, compare);
                case 3:
                  return strata::DeviceMergeSort::StableSortPairs(d_temp, bytes, d_keys.data(), d_values.data(), n,
                                                                  compare);
                default:
                  return strata::DeviceMergeSort::StableSortKeysCopy(
                      d_temp, bytes, static_cast<const std::int32_t*>(d_keys.data()), d_out.data(), n, compare);
                }
              });
        };
        if (descending)
        {
          sort(greater_op{});
        }
        else
        {
          sort(strata_test::less_op{});
        }
        if (form == 4)
        {
          strata_test::check_equal(expected, d_out.download());
          strata_test::check_equal(keys, d_keys.download()); // the input stays
        }
        else
        {
          strata_test::check_equal(expected, d_keys.download());
        }
        if (form == 2 || form == 3)
        {
          strata_test::check_equal(order, d_values.download());
        }
      }
    }
  }
}

namespace
{
//! Sorts n random 16-byte records by key (SortKeys), and as the values of their keys (SortPairs),
//! in place on PATH, checked byte for byte against std::stable_sort.
template <merge_sort_path PATH>
void check_record_sorts(std::size_t n, std::uint64_t seed)
{
  INFO("num_items " << n << (PATH == merge_sort_path::partition_kernel ? ", through the partition kernel" : ""));
  const std::vector<record> records = random_records(n, seed);
  std::vector<record> expected      = records;
  std::stable_sort(expected.begin(), expected.end(), record_less{});

  device_buffer<record> d_records(records);
  sort_keys<PATH>(d_records.data(), n, record_less{});
  CHECK(same_bytes(expected, d_records.download()));

  std::vector<std::uint64_t> keys(n);
  std::transform(records.begin(), records.end(), keys.begin(), [](const record& r) { return r.key; });
  device_buffer<std::uint64_t> d_keys(keys);
  d_records.upload(records);
  sort_pairs<PATH>(d_keys.data(), d_records.data(), n, strata_test::less_op{});
  CHECK(same_bytes(expected, d_records.download()));
}

//! Sorts n records of 8 + 4 WORDS bytes (keys in [0, 300]: many ties) in place on PATH.
template <int WORDS, merge_sort_path PATH>
void check_big_record_sort(std::size_t n, std::uint64_t seed)
{
  INFO(
      sizeof(big_record<WORDS>) << "-byte records, num_items " << n
                                << (PATH == merge_sort_path::partition_kernel ? ", through the partition kernel" : ""));
  const std::vector<std::uint32_t> words = strata_test::random_vector<std::uint32_t>(n, seed, 0, 300);
  std::vector<big_record<WORDS>> records(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    records[i].key      = words[i];
    records[i].position = std::uint32_t(i);
    for (std::uint32_t j = 0; j < WORDS; ++j)
    {
      records[i].payload[j] = words[i] * WORDS + j;
    }
  }
  std::vector<big_record<WORDS>> expected = records;
  std::stable_sort(expected.begin(), expected.end(), big_record_less{});
  device_buffer<big_record<WORDS>> d_records(records);
  sort_keys<PATH>(d_records.data(), n, big_record_less{});
  CHECK(same_bytes(expected, d_records.download()));
}
} // namespace

TEST_CASE("DeviceMergeSort sorts 16-byte records by one member, stably", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(425);
  INFO("seed " << seed);
  // Under compute-sanitizer three merge passes (larger sizes run the same kernels, more passes).
  const std::size_t max = strata_test::merge_sort_sanitizer_max<record>;
  check_record_sorts<merge_sort_path::public_api>(strata_test::under_sanitizer() ? max : (std::size_t(1) << 20) + 3,
                                                  seed);
  check_record_sorts<merge_sort_path::partition_kernel>(max, seed + 1);
}

TEST_CASE("DeviceMergeSort sorts records too large for its usual tiles", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(427);
  INFO("seed " << seed);
  // 200 bytes: tiles of 128 threads of one record (256 of them would need 50 KiB of shared
  // memory). Under compute-sanitizer 40 tiles, six merge passes (more tiles only add passes).
  using policies_t = strata_test::merge_sort_tiles<big_record<48>>::policies_t;
  STATIC_REQUIRE(policies_t::merge_t::BLOCK_THREADS == 128);
  STATIC_REQUIRE(policies_t::merge_t::ITEMS_PER_TILE == 128);
  const std::size_t n = strata_test::under_sanitizer() ? 5003 : 20011;
  check_big_record_sort<48, merge_sort_path::public_api>(n, seed);
  check_big_record_sort<48, merge_sort_path::partition_kernel>(n, seed + 1);
}

TEST_CASE("DeviceMergeSort sorts records of 800 bytes in tiles of one warp", "[device][sort]")
{
  // Tiles of 32 threads of one record: one warp searches both splits of a merge tile. Under
  // compute-sanitizer 63 tiles, six merge passes.
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(428);
  INFO("seed " << seed);
  using policies_t = strata_test::merge_sort_tiles<big_record<198>>::policies_t;
  STATIC_REQUIRE(policies_t::merge_t::BLOCK_THREADS == 32);
  STATIC_REQUIRE(policies_t::merge_t::ITEMS_PER_TILE == 32);
  const std::size_t n = strata_test::under_sanitizer() ? 2003 : 5003;
  check_big_record_sort<198, merge_sort_path::public_api>(n, seed);
  check_big_record_sort<198, merge_sort_path::partition_kernel>(n, seed + 1);
}

TEST_CASE("DeviceMergeSort reads keys and values through iterators", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(429);
  INFO("seed " << seed);
  // Under compute-sanitizer three merge passes (larger sizes: more passes of the same kernels).
  const std::size_t n = strata_test::under_sanitizer() ? strata_test::merge_sort_sanitizer_max<std::int64_t> : 300007;
  const std::vector<std::uint32_t> words = strata_test::random_vector<std::uint32_t>(n, seed, 0, 100000);
  std::vector<std::int64_t> keys(n);
  std::transform(words.begin(), words.end(), keys.begin(), negate_op{});
  const std::vector<std::uint32_t> order = strata_test::stable_order(keys, n, strata_test::less_op{});
  std::vector<std::int64_t> expected(n);
  std::vector<std::int64_t> expected_values(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i]        = keys[order[i]];
    expected_values[i] = std::int64_t(order[i]) + 7;
  }

  device_buffer<std::uint32_t> d_words(words);
  device_buffer<std::int64_t> d_keys_out(n);
  device_buffer<std::int64_t> d_values_out(n);
  d_keys_out.poison();
  d_values_out.poison();
  const strata::TransformInputIterator<std::int64_t, negate_op, const std::uint32_t*> keys_in(d_words.data(),
                                                                                              negate_op{});
  const strata::CountingInputIterator<std::int64_t> values_in(7);
  run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      {
        return strata::DeviceMergeSort::SortPairsCopy(d_temp, bytes, keys_in, values_in, d_keys_out.data(),
                                                      d_values_out.data(), n, strata_test::less_op{});
      });
  strata_test::check_equal(expected, d_keys_out.download());
  strata_test::check_equal(expected_values, d_values_out.download());
}

TEST_CASE("DeviceMergeSort sorts through misaligned pointers", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(431);
  INFO("seed " << seed);
  // Under compute-sanitizer three merge passes (larger sizes: more passes of the same kernels).
  const std::size_t n = strata_test::under_sanitizer() ? strata_test::merge_sort_sanitizer_max<std::uint64_t> : 200003;
  const std::vector<std::uint64_t> all_keys = strata_test::random_vector<std::uint64_t>(n + 1, seed, 0, 1u << 20);
  const std::vector<std::uint64_t> keys(all_keys.begin() + 1, all_keys.end());
  const std::vector<std::uint32_t> order = strata_test::stable_order(keys, n, strata_test::less_op{});
  std::vector<std::uint64_t> expected(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = keys[order[i]];
  }
  std::vector<std::uint32_t> positions(n + 1);
  std::iota(positions.begin(), positions.end(), 0u); // position i + 1 at element i + 1
  std::vector<std::uint32_t> expected_values(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected_values[i] = order[i] + 1;
  }
  device_buffer<std::uint64_t> d_keys(all_keys);
  device_buffer<std::uint32_t> d_values(positions);
  device_buffer<std::uint64_t> d_keys_out(n + 1);
  device_buffer<std::uint32_t> d_values_out(n + 1);
  d_keys_out.poison();
  d_values_out.poison();
  run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      {
        return strata::DeviceMergeSort::SortPairsCopy(
            d_temp, bytes, static_cast<const std::uint64_t*>(d_keys.data() + 1),
            static_cast<const std::uint32_t*>(d_values.data() + 1), d_keys_out.data() + 1, d_values_out.data() + 1, n,
            strata_test::less_op{});
      });
  std::vector<std::uint64_t> keys_out   = d_keys_out.download();
  std::vector<std::uint32_t> values_out = d_values_out.download();
  const std::uint64_t poison_key        = keys_out[0];
  const std::uint32_t poison_value      = values_out[0];
  std::uint64_t poison_check_key        = 0;
  std::uint32_t poison_check_value      = 0;
  std::memset(&poison_check_key, strata_test::poison_byte, sizeof(poison_check_key));
  std::memset(&poison_check_value, strata_test::poison_byte, sizeof(poison_check_value));
  CHECK(poison_key == poison_check_key);
  CHECK(poison_value == poison_check_value);
  strata_test::check_equal(expected, std::vector<std::uint64_t>(keys_out.begin() + 1, keys_out.end()));
  strata_test::check_equal(expected_values, std::vector<std::uint32_t>(values_out.begin() + 1, values_out.end()));

  // In place at the same misalignment.
  run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      {
        return strata::DeviceMergeSort::SortPairs(d_temp, bytes, d_keys.data() + 1, d_values.data() + 1, n,
                                                  strata_test::less_op{});
      });
  keys_out   = d_keys.download();
  values_out = d_values.download();
  CHECK(keys_out[0] == all_keys[0]);
  strata_test::check_equal(expected, std::vector<std::uint64_t>(keys_out.begin() + 1, keys_out.end()));
  strata_test::check_equal(expected_values, std::vector<std::uint32_t>(values_out.begin() + 1, values_out.end()));
}

TEST_CASE("The byte-count reference of the large sorts catches wrong orders and sizes", "[device][sort]")
{
  const std::vector<std::uint8_t> keys  = strata_test::random_bytes(1003, 17);
  const std::vector<std::size_t> counts = strata_test::byte_counts(keys);
  std::vector<std::uint8_t> sorted      = keys;
  std::sort(sorted.begin(), sorted.end());
  CHECK(strata_test::sorted_bytes_mismatches(counts, sorted) == 0);
  std::vector<std::uint8_t> swapped = sorted;
  std::swap(swapped.front(), swapped.back());
  CHECK(strata_test::sorted_bytes_mismatches(counts, swapped) == 2);
  sorted.pop_back();
  CHECK(strata_test::sorted_bytes_mismatches(counts, sorted) == 1);
}

TEST_CASE("DeviceMergeSort sorts more than 2^31 keys", "[device][sort][slow]")
{
  STRATA_TEST_REQUIRE_GPU();
  if (strata_test::under_sanitizer())
  {
    SUCCEED("2^31 keys under compute-sanitizer would take hours; the sizes above it run there");
    return;
  }
  const std::uint64_t seed = strata_test::seed(433);
  INFO("seed " << seed);
  const std::size_t n                   = (std::size_t(1) << 31) + 1000;
  std::vector<std::uint8_t> keys        = strata_test::random_bytes(n, seed);
  const std::vector<std::size_t> counts = strata_test::byte_counts(keys);
  device_buffer<std::uint8_t> d_keys(keys);
  run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      { return strata::DeviceMergeSort::StableSortKeys(d_temp, bytes, d_keys.data(), n, strata_test::less_op{}); });
  keys = d_keys.download();
  CHECK(strata_test::sorted_bytes_mismatches(counts, keys) == 0);
}

TEST_CASE("DeviceMergeSort runs on its stream, on two streams at once and in a CUDA graph", "[device][sort]")
{
  STRATA_TEST_REQUIRE_GPU();
  const std::uint64_t seed = strata_test::seed(435);
  INFO("seed " << seed);
  // Eight sorts and three graph replays: under compute-sanitizer three merge passes each.
  const std::size_t n = strata_test::under_sanitizer() ? strata_test::merge_sort_sanitizer_max<std::uint32_t> : 300007;
  const std::vector<std::uint32_t> keys_a = strata_test::random_vector<std::uint32_t>(n, seed, 0, 1000);
  const std::vector<std::uint32_t> keys_b = strata_test::random_vector<std::uint32_t>(n, seed + 1);
  std::vector<std::uint32_t> sorted_a     = keys_a;
  std::vector<std::uint32_t> sorted_b     = keys_b;
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_b.begin(), sorted_b.end());
  device_buffer<std::uint32_t> d_in_a(keys_a);
  device_buffer<std::uint32_t> d_in_b(keys_b);
  device_buffer<std::uint32_t> d_out_a(n);
  device_buffer<std::uint32_t> d_out_b(n);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceMergeSort::SortKeysCopy(
      nullptr, bytes, static_cast<const std::uint32_t*>(d_in_a.data()), d_out_a.data(), n, strata_test::less_op{}));
  device_buffer<unsigned char> d_temp_a(bytes);
  device_buffer<unsigned char> d_temp_b(bytes);
  const auto sort = [&](const device_buffer<std::uint32_t>& in, device_buffer<std::uint32_t>& out,
                        device_buffer<unsigned char>& temp, cudaStream_t stream)
  {
    std::size_t b = bytes;
    return strata::DeviceMergeSort::SortKeysCopy(temp.data(), b, static_cast<const std::uint32_t*>(in.data()),
                                                 out.data(), n, strata_test::less_op{}, stream);
  };

  const strata_test::stream_pair streams;
  d_out_a.poison();
  d_out_b.poison();
  strata_test::run_on_two_streams(
      streams, [&](cudaStream_t s) { return sort(d_in_a, d_out_a, d_temp_a, s); },
      [&](cudaStream_t s) { return sort(d_in_b, d_out_b, d_temp_b, s); });
  strata_test::check_equal(sorted_a, d_out_a.download());
  strata_test::check_equal(sorted_b, d_out_b.download());

  strata_test::check_graph_replay(
      streams[0], [&](cudaStream_t s) { return sort(d_in_b, d_out_a, d_temp_a, s); }, [&] { d_out_a.poison(); },
      [&] { strata_test::check_equal(sorted_b, d_out_a.download()); });
}

// Tests of the pipelined single pass (detail::single_pass::Skeleton, Pipeline::STAGED): the dispatch
// classes of DeviceSelect, DevicePartition and DeviceReduce::ReduceByKey with a policy whose blocks
// take tile after tile, the next tile's inputs staged in shared memory by bulk copy. If, Flagged,
// Unique, two- and three-way partition and UniqueByKey of uint8, uint32, uint64 and a 16-byte record, against
// the host references of the other select tests; ReduceByKey of uint32 and uint64 keys with
// values behind a pointer (both inputs staged) and from a ConstantInputIterator (keys alone
// staged); RunLengthEncode's Encode and NonTrivialRuns of the same keys. Sizes from 0 through both sides of the tile to
// 2^20 + 7 (more tiles than the device holds blocks at once, so that blocks take several), aligned and misaligned (d_in
// + 1: the tiles are read from global memory, the loop stays the same).
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/device/dispatch/dispatch_rle.cuh>
#include <strata/device/dispatch/dispatch_select_if.cuh>
#include <strata/iterator/constant_input_iterator.cuh>

#include "common/test_common.cuh"
#include "device_select_checks.cuh"

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::select_percent;

//! One policy for every architecture: 128 threads of 4 items (a small tile) and one block an SM
//! (the persistent launch's), so that 100003 items (the largest size under the sanitizer) give
//! some blocks two tiles and 2^20 items every block about sixteen; no L2 prefetch; staged.
template <typename InputT>
struct pipelined_hub
{
  struct Policy : strata::ChainedPolicy<750, Policy, Policy>
  {
    using SelectIfPolicyT =
        strata::AgentSelectIfPolicy<128, 4, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT,
                                    strata::BLOCK_SCAN_WARP_SCANS, strata::detail::DefaultLookbackPolicy, 1, 0,
                                    strata::detail::single_pass::Pipeline::STAGED>;
    using ThreeWayPartitionPolicy = SelectIfPolicyT;
  };
  using MaxPolicy = Policy;
};

using pipelined_types = std::tuple<std::uint8_t, std::uint32_t, std::uint64_t, strata_test::item16>;

//! ReduceByKey's: 128 threads of 4 items, one block an SM, staged.
struct pipelined_by_key_hub
{
  struct Policy : strata::ChainedPolicy<750, Policy, Policy>
  {
    using ReduceByKeyPolicyT =
        strata::AgentReduceByKeyPolicy<128, 4, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT,
                                       strata::BLOCK_SCAN_WARP_SCANS, strata::detail::DefaultLookbackPolicy, 1, 0,
                                       strata::detail::single_pass::Pipeline::STAGED>;
  };
  using MaxPolicy = Policy;
};

//! RunLengthEncode's: 128 threads of 4 items, one block an SM, staged.
struct pipelined_rle_hub
{
  struct Policy : strata::ChainedPolicy<750, Policy, Policy>
  {
    using RleSweepPolicyT = strata::AgentRlePolicy<128, 4, strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT, true,
                                                   strata::BLOCK_SCAN_WARP_SCANS, strata::detail::DefaultLookbackPolicy,
                                                   1, 0, strata::detail::single_pass::Pipeline::STAGED>;
  };
  using MaxPolicy = Policy;
};

//! The runs of `keys` (equal neighbours under ==) and the sums of their values, as wrapping
//! unsigned sums.
template <typename KeyT, typename ValueT>
void reference_reduce_by_key(const std::vector<KeyT>& keys, const std::vector<ValueT>& values,
                             std::vector<KeyT>& unique, std::vector<ValueT>& sums)
{
  unique.clear();
  sums.clear();
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    if (i == 0 || !(keys[i - 1] == keys[i]))
    {
      unique.push_back(keys[i]);
      sums.push_back(ValueT(0));
    }
    sums.back() = ValueT(sums.back() + values[i]);
  }
}

template <typename T, typename FlagsT, typename SelectOpT, typename EqualityOpT, strata::SelectImpl IMPL>
using select_dispatch_t =
    strata::DispatchSelectIf<const T*, FlagsT, T*, int*, SelectOpT, EqualityOpT, std::int64_t, IMPL, pipelined_hub<T>>;

//! Runs a pipelined compaction (IMPL) of the n items at d_in, with flags (or null) and a select
//! and equality operator, into d_out, its count into d_num.
template <strata::SelectImpl IMPL, typename T, typename FlagsT, typename SelectOpT,
          typename EqualityOpT = strata::NullType>
void run_select(const T* d_in, FlagsT d_flags, device_buffer<T>& d_out, device_buffer<int>& d_num, std::size_t n,
                SelectOpT select_op, EqualityOpT equality_op = {})
{
  strata_test::run_two_phase(
      [&](void* d_temp, std::size_t& bytes)
      {
        return select_dispatch_t<T, FlagsT, SelectOpT, EqualityOpT, IMPL>::Dispatch(
            d_temp, bytes, d_in, d_flags, d_out.data(), d_num.data(), select_op, equality_op, std::int64_t(n), nullptr);
      });
}

//! The sizes of the pipelined tests: the select tests' (under the sanitizer up to 100003 items).
std::vector<std::size_t> pipelined_sizes()
{
  return strata_test::select_sizes();
}
} // namespace

TEMPLATE_LIST_TEST_CASE("A pipelined DeviceSelect::If, Flagged and DevicePartition::If (two- and three-way) match "
                        "the references",
                        "[device][select][partition]", pipelined_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(641);
  INFO("seed " << seed);
  const std::vector<std::size_t> sizes = pipelined_sizes();
  for (std::size_t s = 0; s < sizes.size(); ++s)
  {
    const std::size_t n = sizes[s];
    for (std::size_t shift : {std::size_t(0), std::size_t(1)})
    {
      INFO("num_items " << n << ", inputs shifted by " << shift << " items");
      const std::vector<T> in = strata_test::select_inputs<T>(n + shift, seed + n);
      const std::vector<T> items(in.begin() + std::ptrdiff_t(shift), in.end());
      device_buffer<T> d_in(in);
      device_buffer<std::uint8_t> d_flags(n + shift);
      device_buffer<T> d_out(n + strata_test::select_slack);
      device_buffer<T> d_second(n + strata_test::select_slack);
      device_buffer<T> d_unselected(n + strata_test::select_slack);
      device_buffer<int> d_num(3);
      const T* d_items = static_cast<const T*>(d_in.data()) + shift;
      for (std::uint32_t percent : strata_test::select_percents(s))
      {
        INFO(percent << " % selected");
        const select_percent op{percent, seed};
        {
          INFO("If");
          const std::vector<T> expected = strata_test::reference_select(items, op);
          d_out.poison();
          d_num.poison();
          run_select<strata::SelectImpl::Select>(d_items, static_cast<strata::NullType*>(nullptr), d_out, d_num, n, op);
          strata_test::check_counts(d_num, {expected.size()});
          strata_test::check_selected(expected, d_out.download());
        }
        {
          INFO("Flagged");
          std::vector<std::uint8_t> flags = strata_test::random_flags(n + shift, percent, seed + 7 * n + percent);
          d_flags.upload(flags);
          const std::vector<std::uint8_t> item_flags(flags.begin() + std::ptrdiff_t(shift), flags.end());
          const std::vector<T> expected =
              strata_test::reference_select_flagged(items, item_flags, [](std::uint8_t f) { return f != 0; });
          d_out.poison();
          d_num.poison();
          const std::uint8_t* d_item_flags = static_cast<const std::uint8_t*>(d_flags.data()) + shift;
          run_select<strata::SelectImpl::Select>(d_items, d_item_flags, d_out, d_num, n, strata::NullType{});
          strata_test::check_counts(d_num, {expected.size()});
          strata_test::check_selected(expected, d_out.download());
        }
        {
          INFO("Partition");
          const std::vector<T> expected = strata_test::reference_partition(items, op);
          d_out.poison();
          d_num.poison();
          run_select<strata::SelectImpl::Partition>(d_items, static_cast<strata::NullType*>(nullptr), d_out, d_num, n,
                                                    op);
          strata_test::check_counts(d_num, {strata_test::reference_select(items, op).size()});
          const std::vector<T> out = d_out.download();
          strata_test::check_items(expected, out);
          strata_test::check_untouched(out, n, out.size());
        }
        {
          INFO("three-way Partition, half of the others in the second part");
          const select_percent second_op{50, seed + 2};
          std::vector<T> first;
          std::vector<T> second;
          std::vector<T> unselected;
          for (const T& item : items)
          {
            (op(item) ? first : second_op(item) ? second : unselected).push_back(item);
          }
          d_out.poison();
          d_second.poison();
          d_unselected.poison();
          d_num.poison();
          using DispatchT = strata::DispatchThreeWayPartitionIf<const T*, T*, T*, T*, int*, select_percent,
                                                                select_percent, std::int64_t, pipelined_hub<T>>;
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return DispatchT::Dispatch(d_temp, bytes, d_items, d_out.data(), d_second.data(), d_unselected.data(),
                                           d_num.data(), op, second_op, std::int64_t(n), nullptr);
              });
          strata_test::check_counts(d_num, {first.size(), second.size()});
          strata_test::check_selected(first, d_out.download());
          strata_test::check_selected(second, d_second.download());
          strata_test::check_selected(unselected, d_unselected.download());
        }
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("A pipelined DeviceSelect::Unique and UniqueByKey match the references", "[device][select]",
                        pipelined_types)
{
  STRATA_TEST_REQUIRE_GPU();
  using T                  = TestType;
  const std::uint64_t seed = strata_test::seed(643);
  INFO("seed " << seed);
  for (std::size_t n : pipelined_sizes())
  {
    for (strata_test::run_shape shape : strata_test::run_shapes)
    {
      INFO("num_items " << n << ", runs " << strata_test::run_shape_name(shape));
      const std::vector<T> keys = strata_test::run_inputs<T>(n + 1, shape, seed + n);
      std::vector<std::uint32_t> values(n + 1);
      for (std::size_t i = 0; i < values.size(); ++i)
      {
        values[i] = std::uint32_t(strata_test::mix64(seed ^ i));
      }
      device_buffer<T> d_keys(keys);
      device_buffer<std::uint32_t> d_values(values);
      device_buffer<T> d_keys_out(n + strata_test::select_slack);
      device_buffer<std::uint32_t> d_values_out(n + strata_test::select_slack);
      device_buffer<int> d_num(2);
      for (std::size_t shift : {std::size_t(0), std::size_t(1)})
      {
        INFO("inputs shifted by " << shift << " items");
        const std::vector<T> in(keys.begin() + std::ptrdiff_t(shift), keys.begin() + std::ptrdiff_t(shift + n));
        const std::vector<std::uint32_t> in_values(values.begin() + std::ptrdiff_t(shift),
                                                   values.begin() + std::ptrdiff_t(shift + n));
        const std::vector<std::size_t> heads = strata_test::run_heads(in, strata_test::coarse_equal{});
        const T* d_in                        = static_cast<const T*>(d_keys.data()) + shift;
        {
          INFO("Unique");
          d_keys_out.poison();
          d_num.poison();
          run_select<strata::SelectImpl::Select>(d_in, static_cast<strata::NullType*>(nullptr), d_keys_out, d_num, n,
                                                 strata::NullType{}, strata_test::coarse_equal{});
          strata_test::check_counts(d_num, {heads.size()});
          strata_test::check_selected(strata_test::gather(in, heads), d_keys_out.download());
        }
        {
          INFO("UniqueByKey");
          d_keys_out.poison();
          d_values_out.poison();
          d_num.poison();
          using DispatchT = strata::DispatchUniqueByKey<const T*, const std::uint32_t*, T*, std::uint32_t*, int*,
                                                        strata_test::coarse_equal, std::int64_t, pipelined_hub<T>>;
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return DispatchT::Dispatch(
                    d_temp, bytes, d_in, static_cast<const std::uint32_t*>(d_values.data()) + shift, d_keys_out.data(),
                    d_values_out.data(), d_num.data(), strata_test::coarse_equal{}, std::int64_t(n), nullptr);
              });
          strata_test::check_counts(d_num, {heads.size()});
          strata_test::check_selected(strata_test::gather(in, heads), d_keys_out.download());
          strata_test::check_selected(strata_test::gather(in_values, heads), d_values_out.download());
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("A pipelined DeviceReduce::ReduceByKey matches the reference", "[device][reduce_by_key]",
                   std::uint32_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using KeyT               = TestType;
  using ValueT             = std::uint32_t;
  const std::uint64_t seed = strata_test::seed(647);
  INFO("seed " << seed);
  for (std::size_t n : pipelined_sizes())
  {
    for (strata_test::run_shape shape : strata_test::run_shapes)
    {
      INFO("num_items " << n << ", runs " << strata_test::run_shape_name(shape));
      const std::vector<KeyT> keys = strata_test::run_inputs<KeyT>(n + 1, shape, seed + n);
      std::vector<ValueT> values(n + 1);
      for (std::size_t i = 0; i < values.size(); ++i)
      {
        values[i] = ValueT(strata_test::mix64(seed ^ (3 * i)));
      }
      device_buffer<KeyT> d_keys(keys);
      device_buffer<ValueT> d_values(values);
      device_buffer<KeyT> d_unique(n + strata_test::select_slack);
      device_buffer<ValueT> d_sums(n + strata_test::select_slack);
      device_buffer<int> d_num(2);
      for (std::size_t shift : {std::size_t(0), std::size_t(1)})
      {
        INFO("inputs shifted by " << shift << " items");
        const std::vector<KeyT> in(keys.begin() + std::ptrdiff_t(shift), keys.begin() + std::ptrdiff_t(shift + n));
        const KeyT* d_in = static_cast<const KeyT*>(d_keys.data()) + shift;
        std::vector<KeyT> unique;
        std::vector<ValueT> sums;
        {
          INFO("values behind a pointer");
          const std::vector<ValueT> in_values(values.begin() + std::ptrdiff_t(shift),
                                              values.begin() + std::ptrdiff_t(shift + n));
          reference_reduce_by_key(in, in_values, unique, sums);
          d_unique.poison();
          d_sums.poison();
          d_num.poison();
          using DispatchT =
              strata::DispatchReduceByKey<const KeyT*, KeyT*, const ValueT*, ValueT*, int*, cuda::std::equal_to<>,
                                          cuda::std::plus<>, std::int64_t, ValueT, pipelined_by_key_hub>;
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return DispatchT::Dispatch(d_temp, bytes, d_in, d_unique.data(),
                                           static_cast<const ValueT*>(d_values.data()) + shift, d_sums.data(),
                                           d_num.data(), cuda::std::equal_to<>{}, cuda::std::plus<>{}, std::int64_t(n),
                                           nullptr);
              });
          strata_test::check_counts(d_num, {unique.size()});
          strata_test::check_selected(unique, d_unique.download());
          strata_test::check_selected(sums, d_sums.download());
        }
        {
          INFO("values from a ConstantInputIterator (run lengths)");
          reference_reduce_by_key(in, std::vector<ValueT>(n, ValueT(1)), unique, sums);
          d_unique.poison();
          d_sums.poison();
          d_num.poison();
          using OnesT     = strata::ConstantInputIterator<ValueT, std::int64_t>;
          using DispatchT = strata::DispatchReduceByKey<const KeyT*, KeyT*, OnesT, ValueT*, int*, cuda::std::equal_to<>,
                                                        cuda::std::plus<>, std::int64_t, ValueT, pipelined_by_key_hub>;
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return DispatchT::Dispatch(d_temp, bytes, d_in, d_unique.data(), OnesT(ValueT(1)), d_sums.data(),
                                           d_num.data(), cuda::std::equal_to<>{}, cuda::std::plus<>{}, std::int64_t(n),
                                           nullptr);
              });
          strata_test::check_counts(d_num, {unique.size()});
          strata_test::check_selected(unique, d_unique.download());
          strata_test::check_selected(sums, d_sums.download());
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("A pipelined DeviceRunLengthEncode::Encode and NonTrivialRuns match the reference",
                   "[device][run_length_encode]", std::uint32_t, std::uint64_t)
{
  STRATA_TEST_REQUIRE_GPU();
  using KeyT               = TestType;
  const std::uint64_t seed = strata_test::seed(653);
  INFO("seed " << seed);
  for (std::size_t n : pipelined_sizes())
  {
    for (strata_test::run_shape shape : strata_test::run_shapes)
    {
      INFO("num_items " << n << ", runs " << strata_test::run_shape_name(shape));
      const std::vector<KeyT> keys = strata_test::run_inputs<KeyT>(n + 1, shape, seed + n);
      device_buffer<KeyT> d_keys(keys);
      device_buffer<KeyT> d_unique(n + strata_test::select_slack);
      device_buffer<std::uint32_t> d_offsets(n + strata_test::select_slack);
      device_buffer<std::uint32_t> d_lengths(n + strata_test::select_slack);
      device_buffer<int> d_num(2);
      for (std::size_t shift : {std::size_t(0), std::size_t(1)})
      {
        INFO("inputs shifted by " << shift << " items");
        const std::vector<KeyT> in(keys.begin() + std::ptrdiff_t(shift), keys.begin() + std::ptrdiff_t(shift + n));
        const KeyT* d_in = static_cast<const KeyT*>(d_keys.data()) + shift;
        std::vector<KeyT> unique;
        std::vector<std::uint32_t> lengths;
        std::vector<std::uint32_t> long_offsets;
        std::vector<std::uint32_t> long_lengths;
        for (std::size_t i = 0; i < in.size(); ++i)
        {
          if (i == 0 || !(in[i - 1] == in[i]))
          {
            unique.push_back(in[i]);
            lengths.push_back(0);
          }
          ++lengths.back();
        }
        std::size_t start = 0;
        for (std::uint32_t length : lengths)
        {
          if (length > 1)
          {
            long_offsets.push_back(std::uint32_t(start));
            long_lengths.push_back(length);
          }
          start += length;
        }
        // Encode writes each run's first item and length, NonTrivialRuns each longer run's offset and
        // length.
        const auto encode = [&](auto non_trivial, auto& d_first, const auto& expected_first,
                                const std::vector<std::uint32_t>& expected_lengths)
        {
          constexpr bool NON_TRIVIAL = decltype(non_trivial)::value;
          INFO((NON_TRIVIAL ? "NonTrivialRuns" : "Encode"));
          d_first.poison();
          d_lengths.poison();
          d_num.poison();
          strata_test::run_two_phase(
              [&](void* d_temp, std::size_t& bytes)
              {
                return strata::detail::rle::Dispatch<pipelined_rle_hub::MaxPolicy, NON_TRIVIAL>(
                    d_temp, bytes, d_in, d_first.data(), d_lengths.data(), d_num.data(), cuda::std::equal_to<>{},
                    std::int64_t(n), nullptr);
              });
          strata_test::check_counts(d_num, {expected_lengths.size()});
          strata_test::check_selected(expected_first, d_first.download());
          strata_test::check_selected(expected_lengths, d_lengths.download());
        };
        encode(std::false_type{}, d_unique, unique, lengths);
        encode(std::true_type{}, d_offsets, long_offsets, long_lengths);
      }
    }
  }
}

// Tests of ChainedPolicy (strata/util_device.cuh): Invoke walks down a chain to the newest link
// not newer than the device's PTX version (host only: any version can be asked for), errors of the
// chosen link come back unchanged, a one-link chain serves every version, the host pass's
// ActivePolicy is the oldest link, and on the GPU a kernel's ActivePolicy is the link that Invoke
// picks for the device.
#include <strata/util_device.cuh>

#include "common/test_common.cuh"

#include <type_traits>
#include <utility>
#include <vector>

namespace
{
template <int VALUE_>
struct tag
{
  static constexpr int VALUE = VALUE_;
};

// A chain with CUB's shape: 750 <- 800 <- 900 <- 1000.
struct hub
{
  struct Policy750 : strata::ChainedPolicy<750, Policy750, Policy750>, tag<750>
  {
  };
  struct Policy800 : strata::ChainedPolicy<800, Policy800, Policy750>, tag<800>
  {
  };
  struct Policy900 : strata::ChainedPolicy<900, Policy900, Policy800>, tag<900>
  {
  };
  struct Policy1000 : strata::ChainedPolicy<1000, Policy1000, Policy900>, tag<1000>
  {
  };
  using MaxPolicy = Policy1000;
};

// A chain with a gap and a link newer than any device here: 600 <- 860 <- 1200.
struct gap_hub
{
  struct Policy600 : strata::ChainedPolicy<600, Policy600, Policy600>, tag<600>
  {
  };
  struct Policy860 : strata::ChainedPolicy<860, Policy860, Policy600>, tag<860>
  {
  };
  struct Policy1200 : strata::ChainedPolicy<1200, Policy1200, Policy860>, tag<1200>
  {
  };
  using MaxPolicy = Policy1200;
};

struct one_link_hub
{
  struct Policy900 : strata::ChainedPolicy<900, Policy900, Policy900>, tag<900>
  {
  };
  using MaxPolicy = Policy900;
};

// Records which link Invoke reached, and how often; returns `result`.
struct record_policy
{
  int chosen         = -1;
  int calls          = 0;
  cudaError_t result = cudaSuccess;

  template <typename PolicyT>
  cudaError_t Invoke()
  {
    chosen = PolicyT::VALUE;
    ++calls;
    return result;
  }
};

template <typename MaxPolicyT>
int chosen_for(int ptx_version)
{
  record_policy op;
  const cudaError_t error = MaxPolicyT::Invoke(ptx_version, op);
  CHECK(error == cudaSuccess);
  CHECK(op.calls == 1);
  return op.chosen;
}

template <typename MaxPolicyT>
__global__ void active_policy_kernel(int* out)
{
  *out = MaxPolicyT::ActivePolicy::VALUE;
}
} // namespace

TEST_CASE("ChainedPolicy::Invoke picks the newest link not newer than the device", "[util][policy][host]")
{
  struct expectation
  {
    int ptx_version;
    int chosen;
  };
  const std::vector<expectation> cases = {{0, 750},   {350, 750}, {520, 750},   {749, 750},   {750, 750},
                                          {799, 750}, {800, 800}, {860, 800},   {890, 800},   {899, 800},
                                          {900, 900}, {999, 900}, {1000, 1000}, {1200, 1000}, {100000, 1000}};
  for (const expectation& e : cases)
  {
    INFO("device PTX version " << e.ptx_version);
    CHECK(chosen_for<hub::MaxPolicy>(e.ptx_version) == e.chosen);
  }
}

TEST_CASE("ChainedPolicy::Invoke over a chain with gaps, and over one link", "[util][policy][host]")
{
  const std::vector<std::pair<int, int>> cases = {{500, 600}, {600, 600},  {750, 600},  {859, 600},   {860, 860},
                                                  {900, 860}, {1000, 860}, {1199, 860}, {1200, 1200}, {1300, 1200}};
  for (const auto& [ptx_version, chosen] : cases)
  {
    INFO("device PTX version " << ptx_version);
    CHECK(chosen_for<gap_hub::MaxPolicy>(ptx_version) == chosen);
  }
  for (const int ptx_version : {0, 750, 900, 1000})
  {
    INFO("device PTX version " << ptx_version);
    CHECK(chosen_for<one_link_hub::MaxPolicy>(ptx_version) == 900);
  }
}

TEST_CASE("ChainedPolicy::Invoke returns the chosen link's error", "[util][policy][host]")
{
  for (const cudaError_t result : {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation})
  {
    record_policy op;
    op.result = result;
    CHECK(hub::MaxPolicy::Invoke(800, op) == result);
    CHECK(op.calls == 1);
    CHECK(op.chosen == 800);
  }
}

TEST_CASE("ChainedPolicy::ActivePolicy in the host pass is the oldest link", "[util][policy][host]")
{
  // Host code sees the host pass's type (the device pass sees its own architecture's link).
  CHECK(std::is_same_v<hub::MaxPolicy::ActivePolicy, hub::Policy750>);
  CHECK(std::is_same_v<gap_hub::MaxPolicy::ActivePolicy, gap_hub::Policy600>);
  CHECK(std::is_same_v<one_link_hub::MaxPolicy::ActivePolicy, one_link_hub::Policy900>);
  // Every link's ActivePolicy is taken from the links at and below it.
  CHECK(std::is_same_v<hub::Policy900::ActivePolicy, hub::Policy750>);
}

TEST_CASE("ChainedPolicy: a kernel's ActivePolicy is the link Invoke picks for the device", "[util][policy]")
{
  STRATA_TEST_REQUIRE_GPU();
  int ptx_version = 0;
  STRATA_TEST_CUDA(strata::PtxVersion(ptx_version));
  INFO("PTX version " << ptx_version);
  strata_test::device_buffer<int> d_out(1);
  d_out.poison();
  active_policy_kernel<hub::MaxPolicy><<<1, 1>>>(d_out.data());
  strata_test::check_launch();
  CHECK(d_out.download()[0] == chosen_for<hub::MaxPolicy>(ptx_version));
  d_out.poison();
  active_policy_kernel<gap_hub::MaxPolicy><<<1, 1>>>(d_out.data());
  strata_test::check_launch();
  CHECK(d_out.download()[0] == chosen_for<gap_hub::MaxPolicy>(ptx_version));
}

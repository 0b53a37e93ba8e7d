// strata/device/dispatch/tuning/tuning_histogram.cuh: the tuning policies of DeviceHistogram, one
// per SM generation, chained from the newest down.
#pragma once

#include <strata/config.cuh>
#include <strata/agent/agent_histogram.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util_device.cuh>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace histogram
{
//! Policies of DeviceHistogram (CUB's template parameters, which do not change them):
//! AgentHistogramPolicyT. 1024 threads (64 registers); 8 pixels per thread and round one sample at
//! a time, or 4 16-byte vectors, streaming loads; lane columns up to 768 bins (96 KiB, the three
//! 256-bin channels of RGBA), one set of shared counters up to 8192 bins. docs/performance.md has
//! the sweep.
template <typename SampleT, typename CounterT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, bool IS_EVEN>
struct policy_hub
{
  struct Policy750 : ChainedPolicy<750, Policy750, Policy750>
  {
    using AgentHistogramPolicyT = AgentHistogramPolicy<1024, 8, 4, 768, 8192, 1, LOAD_CS>;
  };
  using Policy800  = Policy750;
  using Policy900  = Policy750;
  using Policy1000 = Policy750;
  using MaxPolicy  = Policy750;
};
} // namespace histogram
} // namespace detail

STRATA_NAMESPACE_END

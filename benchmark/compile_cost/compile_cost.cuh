// What every translation unit of scripts/compile-cost starts with: the library a user includes
// (its umbrella header) under the one name `lib`, strata by default, CUB with -DCOMPILE_COST_CUB.
#pragma once

#if defined(COMPILE_COST_CUB)
#  include <cub/cub.cuh>
namespace lib = cub;
#else
#  include <strata/strata.cuh>
namespace lib = strata;
#endif

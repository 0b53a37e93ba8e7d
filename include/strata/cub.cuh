// strata/cub.cuh: includes all of strata, as strata/strata.cuh does. It is the umbrella header
// under the name a mechanical rewrite of `#include <cub/cub.cuh>` produces.
#pragma once

#include <strata/strata.cuh>

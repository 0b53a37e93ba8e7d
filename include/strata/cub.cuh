// strata/cub.cuh: includes all of strata, as strata/strata.cuh does. It is the umbrella header
// under the name that CUB code gets when its include prefix `cub/` is rewritten to `strata/`.
#pragma once

#include <strata/strata.cuh>

// A host-compiled translation unit of the consumer: strata's host headers need only the include
// directories strata::strata brings (the toolkit's and libcu++'s), and no CUDA runtime library of
// strata's choosing.
#include <strata/util_device.cuh>
#include <strata/version.cuh>

int host_strata_version()
{
  return STRATA_VERSION;
}

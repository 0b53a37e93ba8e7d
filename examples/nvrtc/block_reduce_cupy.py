#!/usr/bin/env python3
"""strata's BlockReduce from Python: CuPy's RawModule compiles the kernel with NVRTC, given strata's
include folder (the first argument) and libcu++'s (CuPy passes the toolkit's own). Exits with 77
(CTest: skipped) where CuPy or a GPU is missing."""
import sys

try:
    import cupy
except ImportError:
    print("CuPy is not installed: example skipped")
    sys.exit(77)

SOURCE = r"""
#include <strata/block/block_load.cuh>
#include <strata/block/block_reduce.cuh>

extern "C" __global__ void block_sum(const int* d_in, int* d_out)
{
  using BlockReduce = strata::BlockReduce<int, 128>;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  int items[4];
  strata::LoadDirectBlocked(static_cast<int>(threadIdx.x), d_in + blockIdx.x * 512, items);
  const int sum = BlockReduce(temp_storage).Sum(items);
  if (threadIdx.x == 0)
  {
    d_out[blockIdx.x] = sum;
  }
}
"""


def main():
    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            raise RuntimeError("no device")
    except Exception:  # CuPy raises its own error type where no driver or device is present
        print("no CUDA device: example skipped")
        return 77
    include_dirs = [d for d in sys.argv[1:] if d]
    options = ("-std=c++17",) + tuple("-I" + d for d in include_dirs)
    module = cupy.RawModule(code=SOURCE, options=options, backend="nvrtc")
    kernel = module.get_function("block_sum")
    blocks = 100
    values = (cupy.arange(blocks * 512, dtype=cupy.int32) * 7) % 13 - 6
    sums = cupy.empty(blocks, dtype=cupy.int32)
    kernel((blocks,), (128,), (values, sums))
    expected = values.reshape(blocks, 512).sum(axis=1)
    correct = bool((sums == expected).all())
    print("CuPy RawModule with strata's BlockReduce: block 0 sums to %d; %s"
          % (int(sums[0]), "all 100 block sums correct" if correct else "WRONG"))
    return 0 if correct else 1


if __name__ == "__main__":
    sys.exit(main())

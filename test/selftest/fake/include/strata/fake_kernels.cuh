// The kernels of the fake library: every one must be reached by each sanitizer tool.
#define STRATA_KERNEL_ATTRIBUTES __global__
template <typename T, int N>
STRATA_KERNEL_ATTRIBUTES void FakeKernel(T*, long);
template <typename T, int N>
STRATA_KERNEL_ATTRIBUTES void FakeOtherKernel(T*, long);

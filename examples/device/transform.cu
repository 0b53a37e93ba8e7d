// Example: elementwise work. DeviceTransform::Transform writes op(in0[i], in1[i], ...) to out[i]
// for every i, reading any number of inputs given as a cuda::std::tuple (one input may be passed
// alone); inputs may be iterators, such as a CountingInputIterator. DeviceFor::ForEachN calls an
// op on every item in place. Neither needs temporary storage, and both are asynchronous: they
// return once the work is queued on the stream. Here: z = a x + y over a million floats (two
// inputs), the squares of 0 .. n - 1 from a counting iterator (no input array at all), and a
// clamp of z's negative items to zero in place; the host checks each result.
#include <strata/device/device_for.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/iterator/counting_input_iterator.cuh>

#include <cuda/std/tuple>

#include "../example_common.cuh"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

//! z = a x + y: a functor of two items that carries a. One fused multiply-add (rounded once) on
//! both the device and the host, so that the host's check can ask for equality.
struct axpy
{
  float a;

  __host__ __device__ float operator()(float x, float y) const
  {
    return fmaf(a, x, y);
  }
};

struct square
{
  __host__ __device__ long long operator()(int i) const
  {
    return static_cast<long long>(i) * i;
  }
};

//! Sets a negative item to zero.
struct clamp_negative
{
  __device__ void operator()(float& item) const
  {
    item = item < 0.0f ? 0.0f : item;
  }
};

int main()
{
  example_require_gpu();

  const int num_items = 1000000;
  const float a       = 2.5f;
  std::mt19937 generator(42);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> h_x(num_items), h_y(num_items);
  for (int i = 0; i < num_items; ++i)
  {
    h_x[i] = value(generator);
    h_y[i] = value(generator);
  }

  float* d_x           = nullptr;
  float* d_y           = nullptr;
  float* d_z           = nullptr;
  long long* d_squares = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_x, num_items * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_y, num_items * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_z, num_items * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_squares, num_items * sizeof(long long)));
  EXAMPLE_CHECK(cudaMemcpy(d_x, h_x.data(), num_items * sizeof(float), cudaMemcpyHostToDevice));
  EXAMPLE_CHECK(cudaMemcpy(d_y, h_y.data(), num_items * sizeof(float), cudaMemcpyHostToDevice));

  // z = a x + y: two inputs in a tuple, one output.
  EXAMPLE_CHECK(strata::DeviceTransform::Transform(cuda::std::make_tuple(d_x, d_y), d_z, num_items, axpy{a}));
  std::vector<float> h_z(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_z.data(), d_z, num_items * sizeof(float), cudaMemcpyDeviceToHost)); // waits
  bool axpy_correct = true;
  for (int i = 0; i < num_items; ++i)
  {
    axpy_correct = axpy_correct && h_z[i] == axpy{a}(h_x[i], h_y[i]);
  }
  std::printf("DeviceTransform::Transform: z = %.1f x + y over %d floats: %s\n", a, num_items,
              axpy_correct ? "correct" : "WRONG");

  // Squares of 0 .. n - 1: the input is an iterator that counts, so no input array is read.
  EXAMPLE_CHECK(
      strata::DeviceTransform::Transform(strata::CountingInputIterator<int>(0), d_squares, num_items, square{}));
  std::vector<long long> h_squares(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_squares.data(), d_squares, num_items * sizeof(long long), cudaMemcpyDeviceToHost));
  bool squares_correct = true;
  for (int i = 0; i < num_items; ++i)
  {
    squares_correct = squares_correct && h_squares[i] == static_cast<long long>(i) * i;
  }
  std::printf("DeviceTransform::Transform: the squares of 0 .. %d from a counting iterator (last %lld): %s\n",
              num_items - 1, h_squares.back(), squares_correct ? "correct" : "WRONG");

  // z's negative items set to zero, in place.
  EXAMPLE_CHECK(strata::DeviceFor::ForEachN(d_z, num_items, clamp_negative{}));
  std::vector<float> h_clamped(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_clamped.data(), d_z, num_items * sizeof(float), cudaMemcpyDeviceToHost));
  bool clamp_correct = true;
  int zeroed         = 0;
  for (int i = 0; i < num_items; ++i)
  {
    const bool negative = h_z[i] < 0.0f;
    zeroed += negative ? 1 : 0;
    clamp_correct = clamp_correct && h_clamped[i] == (negative ? 0.0f : h_z[i]);
  }
  std::printf("DeviceFor::ForEachN: %d negative items of z set to zero in place: %s\n", zeroed,
              clamp_correct ? "correct" : "WRONG");

  for (void* p :
       {static_cast<void*>(d_x), static_cast<void*>(d_y), static_cast<void*>(d_z), static_cast<void*>(d_squares)})
  {
    EXAMPLE_CHECK(cudaFree(p));
  }
  return axpy_correct && squares_correct && clamp_correct ? 0 : 1;
}

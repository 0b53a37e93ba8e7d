// Example: histograms of an image. A 1920 x 1080 RGBA image (8 bits per channel, generated on the
// host) lies in device memory with a row pitch larger than its rows, as in a sub-image or a padded
// allocation, so the 2-D forms of DeviceHistogram read it: num_rows rows of num_row_pixels pixels,
// row_stride_bytes apart. MultiHistogramEven<4, 3> counts R, G and B in 256 bins each (levels 0 to
// 256: bin v holds the value v) and ignores A. HistogramEven then counts the luminance, computed
// per pixel on the device by a TransformInputIterator over the pixels (uchar4 -> luma, a uint8_t),
// into 256 bins. Both take CUB's two-phase call: a size query for the temporary storage, then the
// run. main checks the histograms against the host's and prints a few bins.
#include <strata/device/device_histogram.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include <cuda/std/array>

#include "../example_common.cuh"

#include <cstdint>
#include <cstdio>
#include <vector>

//! Luma of a pixel, (77 R + 150 G + 29 B) / 256: the weights add up to 256, so it fits a byte.
struct luma
{
  __host__ __device__ std::uint8_t operator()(const uchar4& pixel) const
  {
    return static_cast<std::uint8_t>((77 * pixel.x + 150 * pixel.y + 29 * pixel.z) >> 8);
  }
};

int main()
{
  example_require_gpu();

  const int width          = 1920;
  const int height         = 1080;
  const size_t pitch_bytes = width * sizeof(uchar4) + 256; // every row starts 256 bytes after the last pixel

  // A synthetic image: gradients with a pattern of stripes on top, A = 255.
  std::vector<uchar4> h_image(pitch_bytes / sizeof(uchar4) * height);
  for (int y = 0; y < height; ++y)
  {
    for (int x = 0; x < width; ++x)
    {
      const int stripe = (x / 40 + y / 30) % 3 == 0 ? 60 : 0;
      h_image[y * pitch_bytes / sizeof(uchar4) + x] =
          make_uchar4(static_cast<unsigned char>(x * 195 / width + stripe),
                      static_cast<unsigned char>(y * 255 / height), static_cast<unsigned char>((x + y) % 256), 255);
    }
  }
  uchar4* d_image = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_image, pitch_bytes * height));
  EXAMPLE_CHECK(cudaMemcpy(d_image, h_image.data(), pitch_bytes * height, cudaMemcpyHostToDevice));
  int* d_counts = nullptr; // R, G, B, luminance: 256 counters each
  EXAMPLE_CHECK(cudaMalloc(&d_counts, 4 * 256 * sizeof(int)));

  // R, G and B: the samples are the image's bytes, four to a pixel, of which the first three count.
  const auto* d_samples                     = reinterpret_cast<const unsigned char*>(d_image);
  const cuda::std::array<int*, 3> d_rgb     = {d_counts, d_counts + 256, d_counts + 512};
  const cuda::std::array<int, 3> num_levels = {257, 257, 257};
  const cuda::std::array<int, 3> lower      = {0, 0, 0};
  const cuda::std::array<int, 3> upper      = {256, 256, 256};
  void* d_temp_storage                      = nullptr;
  size_t temp_storage_bytes                 = 0;
  EXAMPLE_CHECK((strata::DeviceHistogram::MultiHistogramEven<4, 3>(
      d_temp_storage, temp_storage_bytes, d_samples, d_rgb, num_levels, lower, upper, width, height, pitch_bytes)));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK((strata::DeviceHistogram::MultiHistogramEven<4, 3>(
      d_temp_storage, temp_storage_bytes, d_samples, d_rgb, num_levels, lower, upper, width, height, pitch_bytes)));
  EXAMPLE_CHECK(cudaFree(d_temp_storage));

  // Luminance: the samples are the iterator's luma values, one per pixel. The row stride is in
  // bytes of the samples the iterator yields (one byte each), so a row of the iterator is
  // pitch_bytes / sizeof(uchar4) of them apart.
  const strata::TransformInputIterator<std::uint8_t, luma, const uchar4*> d_luma(d_image, luma{});
  const size_t luma_stride_bytes = pitch_bytes / sizeof(uchar4) * sizeof(std::uint8_t);
  d_temp_storage                 = nullptr;
  temp_storage_bytes             = 0;
  EXAMPLE_CHECK(strata::DeviceHistogram::HistogramEven(d_temp_storage, temp_storage_bytes, d_luma, d_counts + 768, 257,
                                                       0, 256, width, height, luma_stride_bytes));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceHistogram::HistogramEven(d_temp_storage, temp_storage_bytes, d_luma, d_counts + 768, 257,
                                                       0, 256, width, height, luma_stride_bytes));

  std::vector<int> h_counts(4 * 256);
  EXAMPLE_CHECK(cudaMemcpy(h_counts.data(), d_counts, h_counts.size() * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> expected(4 * 256, 0);
  for (int y = 0; y < height; ++y)
  {
    for (int x = 0; x < width; ++x)
    {
      const uchar4 pixel = h_image[y * pitch_bytes / sizeof(uchar4) + x];
      ++expected[pixel.x];
      ++expected[256 + pixel.y];
      ++expected[512 + pixel.z];
      ++expected[768 + luma{}(pixel)];
    }
  }
  const bool correct = h_counts == expected;

  const char* names[4] = {"R", "G", "B", "luma"};
  for (int c = 0; c < 4; ++c)
  {
    std::printf("%-4s bins 0, 64, 128, 192, 255:", names[c]);
    for (int bin : {0, 64, 128, 192, 255})
    {
      std::printf(" %7d", h_counts[c * 256 + bin]);
    }
    std::printf("\n");
  }
  std::printf("DeviceHistogram over %d x %d pixels, rows %zu bytes apart: %s\n", width, height, pitch_bytes,
              correct ? "correct" : "WRONG");
  EXAMPLE_CHECK(cudaFree(d_temp_storage));
  EXAMPLE_CHECK(cudaFree(d_counts));
  EXAMPLE_CHECK(cudaFree(d_image));
  return correct ? 0 : 1;
}

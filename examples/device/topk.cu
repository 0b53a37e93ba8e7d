// Example: top-k. DeviceTopK::MaxPairs returns the k largest keys of an input, largest first, each
// with its value; among equal keys the earlier item comes first, so the result is the same on
// every run. With a CountingInputIterator as the values, the values are the keys' positions (an
// "arg top-k"). Here: the 10 largest of ten million scores with their positions, and top-k
// sampling for a batch of 8 rows of 32000 logits: DeviceBatchedTopK::MaxPairs finds each row's 50
// largest logits and their token ids in one call, then one token is drawn per row from the softmax
// of those 50. The host checks each top-k against a partial sort.
#include <strata/device/device_batched_topk.cuh>
#include <strata/device/device_topk.cuh>
#include <strata/iterator/constant_input_iterator.cuh>
#include <strata/iterator/counting_input_iterator.cuh>
#include <strata/iterator/transform_input_iterator.cuh>

#include "../example_common.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

//! The positions of the k largest of `keys`, largest first, the earlier first among equal keys.
static std::vector<int> host_topk(const float* keys, int n, int k)
{
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int a, int b) { return keys[a] > keys[b] || (keys[a] == keys[b] && a < b); });
  order.resize(k);
  return order;
}

//! Row `row` of a row-major matrix of `width` columns: the segment iterators of a batched call.
template <typename T>
struct RowStart
{
  T* base;
  int width;
  __host__ __device__ T* operator()(int row) const
  {
    return base + size_t(row) * size_t(width);
  }
};

int main()
{
  example_require_gpu();
  std::mt19937 generator(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);

  // The 10 largest of ten million scores, with their positions, in two-phase form.
  const int num_items = 10000000;
  const int k         = 10;
  std::vector<float> h_scores(num_items);
  for (float& x : h_scores)
  {
    x = normal(generator);
  }
  float* d_scores   = nullptr;
  float* d_top      = nullptr;
  int* d_positions  = nullptr;
  void* d_temp      = nullptr;
  size_t temp_bytes = 0;
  EXAMPLE_CHECK(cudaMalloc(&d_scores, num_items * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_top, k * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_positions, k * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_scores, h_scores.data(), num_items * sizeof(float), cudaMemcpyHostToDevice));
  strata::CountingInputIterator<int> positions(0);
  EXAMPLE_CHECK(
      strata::DeviceTopK::MaxPairs(d_temp, temp_bytes, d_scores, d_top, positions, d_positions, num_items, k));
  EXAMPLE_CHECK(cudaMalloc(&d_temp, temp_bytes));
  EXAMPLE_CHECK(
      strata::DeviceTopK::MaxPairs(d_temp, temp_bytes, d_scores, d_top, positions, d_positions, num_items, k));
  std::vector<float> h_top(k);
  std::vector<int> h_positions(k);
  EXAMPLE_CHECK(cudaMemcpy(h_top.data(), d_top, k * sizeof(float), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaMemcpy(h_positions.data(), d_positions, k * sizeof(int), cudaMemcpyDeviceToHost));
  const std::vector<int> expected = host_topk(h_scores.data(), num_items, k);
  bool top_correct                = h_positions == expected;
  std::printf("DeviceTopK::MaxPairs: the %d largest of %d scores:", k, num_items);
  for (int i = 0; i < k; ++i)
  {
    top_correct = top_correct && h_top[i] == h_scores[expected[i]];
    std::printf(" %.3f@%d", h_top[i], h_positions[i]);
  }
  std::printf("\n  %s\n", top_correct ? "correct" : "WRONG");

  // Top-k sampling: each row's 50 largest logits and their token ids in one batched call (the
  // single-call form, which allocates its temporary storage on the stream), then a draw from their
  // softmax on the host. Row r's keys start at d_logits + r * vocab, its outputs at r * top; every
  // row's values are the token ids 0, 1, 2, ...
  const int rows  = 8;
  const int vocab = 32000;
  const int top   = 50;
  std::vector<float> h_logits(size_t(rows) * vocab);
  for (float& x : h_logits)
  {
    x = 3.0f * normal(generator);
  }
  float* d_logits   = nullptr;
  float* d_row_top  = nullptr;
  int* d_row_tokens = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_logits, h_logits.size() * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_row_top, size_t(rows) * top * sizeof(float)));
  EXAMPLE_CHECK(cudaMalloc(&d_row_tokens, size_t(rows) * top * sizeof(int)));
  EXAMPLE_CHECK(cudaMemcpy(d_logits, h_logits.data(), h_logits.size() * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream = nullptr;
  EXAMPLE_CHECK(cudaStreamCreate(&stream));
  using Rows = strata::CountingInputIterator<int>;
  strata::TransformInputIterator<const float*, RowStart<const float>, Rows> row_logits(
      Rows(0), RowStart<const float>{d_logits, vocab});
  strata::TransformInputIterator<float*, RowStart<float>, Rows> row_top(Rows(0), RowStart<float>{d_row_top, top});
  strata::TransformInputIterator<int*, RowStart<int>, Rows> row_tokens(Rows(0), RowStart<int>{d_row_tokens, top});
  strata::ConstantInputIterator<strata::CountingInputIterator<int>> token_ids(strata::CountingInputIterator<int>(0));
  EXAMPLE_CHECK(
      strata::DeviceBatchedTopK::MaxPairs(row_logits, row_top, token_ids, row_tokens, vocab, top, rows, stream));
  std::vector<float> h_row_top(size_t(rows) * top);
  std::vector<int> h_row_tokens(size_t(rows) * top);
  EXAMPLE_CHECK(cudaStreamSynchronize(stream));
  EXAMPLE_CHECK(cudaMemcpy(h_row_top.data(), d_row_top, h_row_top.size() * sizeof(float), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(
      cudaMemcpy(h_row_tokens.data(), d_row_tokens, h_row_tokens.size() * sizeof(int), cudaMemcpyDeviceToHost));
  bool rows_correct = true;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::printf("Top-%d sampling of %d rows of %d logits, the drawn tokens:", top, rows, vocab);
  for (int r = 0; r < rows; ++r)
  {
    const float* logits           = h_logits.data() + size_t(r) * vocab;
    const std::vector<int> tokens = host_topk(logits, vocab, top);
    double total                  = 0.0;
    std::vector<double> weights(top);
    for (int i = 0; i < top; ++i)
    {
      rows_correct =
          rows_correct && h_row_tokens[r * top + i] == tokens[i] && h_row_top[r * top + i] == logits[tokens[i]];
      weights[i] = std::exp(double(h_row_top[r * top + i] - h_row_top[r * top])); // the largest first: no overflow
      total += weights[i];
    }
    double draw = uniform(generator) * total;
    int chosen  = 0;
    while (chosen < top - 1 && draw >= weights[chosen])
    {
      draw -= weights[chosen++];
    }
    std::printf(" %d", h_row_tokens[r * top + chosen]);
  }
  std::printf("\n  %s\n", rows_correct ? "correct" : "WRONG");

  EXAMPLE_CHECK(cudaStreamDestroy(stream));
  EXAMPLE_CHECK(cudaFree(d_scores));
  EXAMPLE_CHECK(cudaFree(d_top));
  EXAMPLE_CHECK(cudaFree(d_positions));
  EXAMPLE_CHECK(cudaFree(d_temp));
  EXAMPLE_CHECK(cudaFree(d_logits));
  EXAMPLE_CHECK(cudaFree(d_row_top));
  EXAMPLE_CHECK(cudaFree(d_row_tokens));
  return top_correct && rows_correct ? 0 : 1;
}

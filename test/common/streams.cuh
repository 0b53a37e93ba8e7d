// test/common/streams.cuh: how the device tests check an algorithm inside a CUDA graph and on two
// streams at once.
#pragma once

#include "harness.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace strata_test
{
//! A new non-blocking stream.
inline cudaStream_t new_stream()
{
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}

//! Two non-blocking streams for the lifetime of the object. (No Catch2 assertion in the class
//! itself: with one in its constructor, nvcc 13.0's front end does not finish compiling the
//! scan behaviour test.)
class stream_pair
{
public:
  stream_pair()
      : first_(new_stream())
      , second_(new_stream())
  {
  }
  ~stream_pair()
  {
    cudaStreamDestroy(first_);
    cudaStreamDestroy(second_);
  }
  stream_pair(const stream_pair&)            = delete;
  stream_pair& operator=(const stream_pair&) = delete;
  cudaStream_t operator[](int i) const
  {
    return i == 0 ? first_ : second_;
  }

private:
  cudaStream_t first_;
  cudaStream_t second_;
};

//! Calls `queries(stream)` inside a stream capture on a new non-blocking stream and checks that
//! the captured graph stays empty: size queries (null temporary storage) must launch nothing.
template <typename QueriesT>
void check_capture_stays_empty(QueriesT queries)
{
  cudaStream_t stream = new_stream();
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  queries(stream);
  cudaGraph_t graph;
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph));
  std::size_t nodes = 0;
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 0);
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

//! Captures `run(stream)` (an algorithm's second call, returning its cudaError_t) into a graph,
//! then replays the graph three times: `before()` ahead of each replay (to poison the outputs),
//! `check()` after it.
template <typename RunT, typename BeforeT, typename CheckT>
void check_graph_replay(cudaStream_t stream, RunT run, BeforeT before, CheckT check)
{
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const cudaError_t captured = run(stream);
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph));
  STRATA_TEST_CUDA(captured);
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 3; ++replay)
  {
    before();
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream));
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    check();
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
}

//! Calls `run_a(streams[0])` and `run_b(streams[1])` (each returning a cudaError_t) four times
//! each, alternating, without waiting in between, then waits for the device.
template <typename RunA, typename RunB>
void run_on_two_streams(const stream_pair& streams, RunA run_a, RunB run_b)
{
  for (int round = 0; round < 4; ++round)
  {
    STRATA_TEST_CUDA(run_a(streams[0]));
    STRATA_TEST_CUDA(run_b(streams[1]));
  }
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}
} // namespace strata_test

#include "step_timing.hpp"

#include "busy_gpu.hpp"
#include "cuda_check.hpp"
#include "gpu.hpp"
#include "kernel_durations.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

namespace ch08::step_bench {
namespace {

constexpr int kWarmup = 10;
// The spin ahead of an event-timed step: far longer than the host takes to issue one.
constexpr double kBusyMicroseconds = 100;
// Steps back to back between one pair of events (kernel_warm): as the official kernels are timed,
// so that the events' own few microseconds are shared out.
constexpr int kBackToBack = 20;

// A start and a stop event on the default stream, destroyed with the pair.
class EventPair {
 public:
  EventPair() {
    CUDA_CHECK(cudaEventCreate(&start_));
    try {
      CUDA_CHECK(cudaEventCreate(&stop_));
    } catch (...) {
      cudaEventDestroy(start_);
      throw;
    }
  }
  ~EventPair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;

  void start() { CUDA_CHECK(cudaEventRecord(start_)); }
  // Records the stop event, waits for it and returns the span in milliseconds.
  double stop() {
    CUDA_CHECK(cudaEventRecord(stop_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Events around `launches` calls of `launch` (on the default stream), each repetition issued behind
// a spinning kernel so that the host has issued every call before the GPU reaches the start event;
// the L2 flushed first where `flush` is given. The time of one call: the events' span ÷ launches.
template <class Launch>
common::TimingStats time_on_gpu(Launch&& launch, L2Flush* flush, int repetitions, int launches = 1) {
  EventPair events;
  std::vector<double> samples, issue_ms;
  for (int i = 0; i < kWarmup; ++i) launch();
  for (int i = 0; i < repetitions; ++i) {
    CUDA_CHECK(cudaDeviceSynchronize());
    if (flush) (*flush)();
    ch08::grid::keep_gpu_busy(kBusyMicroseconds * launches);
    events.start();
    const auto issued_from = std::chrono::steady_clock::now();
    for (int k = 0; k < launches; ++k) launch();
    issue_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - issued_from).count());
    samples.push_back(events.stop() / launches);
  }
  if (common::summarize(issue_ms).median_ms > kBusyMicroseconds * launches / 1000)
    throw std::runtime_error("a step took longer to issue than the GPU was kept busy ahead of it");
  return common::summarize(std::move(samples));
}

// Events around one call on an idle GPU, as triton_bench.py's median_ms times the official call:
// the start event, the call, the stop event, a wait for it; nothing keeps the GPU busy ahead of the
// call, so the span holds the host's issue of it, and the L2 is as the call before left it.
template <class Launch>
common::TimingStats time_as_official_call(Launch&& launch, int repetitions) {
  EventPair events;
  std::vector<double> samples;
  for (int i = 0; i < kWarmup; ++i) launch();
  for (int i = 0; i < repetitions; ++i) {
    CUDA_CHECK(cudaDeviceSynchronize());
    events.start();
    launch();
    samples.push_back(events.stop());
  }
  return common::summarize(std::move(samples));
}

// The host's clock around `call` (which returns once the GPU is done), from an idle GPU: the
// flush ahead of each repetition is waited for before the clock starts.
template <class Call>
common::TimingStats time_on_host(Call&& call, L2Flush& flush, int repetitions) {
  for (int i = 0; i < kWarmup; ++i) call();
  std::vector<double> samples;
  samples.reserve(std::size_t(repetitions));
  for (int i = 0; i < repetitions; ++i) {
    flush();
    CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    call();
    samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return common::summarize(std::move(samples));
}

// One step captured into a CUDA graph on a stream of its own (global capture mode, as a
// generation loop captures: any call the step made that capture forbids would fail here).
class CapturedStep {
 public:
  explicit CapturedStep(const selective_scan::StepParams& params) {
    try {
      CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal));
      try {
        selective_scan::step(params, stream_);
      } catch (...) {
        cudaStreamEndCapture(stream_, &graph_);  // ends the capture; the step's error is the one thrown
        throw;
      }
      CUDA_CHECK(cudaStreamEndCapture(stream_, &graph_));
      CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
    } catch (...) {
      release();
      throw;
    }
  }
  ~CapturedStep() { release(); }
  CapturedStep(const CapturedStep&) = delete;
  CapturedStep& operator=(const CapturedStep&) = delete;

  void replay_and_wait() {
    CUDA_CHECK(cudaGraphLaunch(exec_, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  void release() {  // no throw: also from the destructor
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    if (stream_) cudaStreamDestroy(stream_);
    exec_ = nullptr, graph_ = nullptr, stream_ = nullptr;
  }

  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace

L2Flush::L2Flush()
    : scratch_(2 * std::max<std::size_t>(common::gpu_status().device.l2_cache_bytes, std::size_t(1) << 20)) {}

void L2Flush::operator()() { CUDA_CHECK(cudaMemsetAsync(scratch_.data(), 0, scratch_.bytes())); }

StepTimes time_step(const selective_scan::StepParams& params, L2Flush& flush, int repetitions) {
  StepTimes t;
  const auto launch = [&] { selective_scan::step(params); };
  t.kernel = time_on_gpu(launch, &flush, repetitions);
  t.kernel_warm = time_on_gpu(launch, nullptr, repetitions, kBackToBack);
  KernelDurations durations;
  for (int i = 0; i < kWarmup; ++i) launch();
  durations.start();
  for (int i = 0; i < repetitions; ++i) launch();
  std::vector<double> own = durations.stop("step_kernel");
  if (own.size() != std::size_t(repetitions))
    throw std::runtime_error("the profiler recorded " + std::to_string(own.size()) + " step kernels of " +
                             std::to_string(repetitions));
  t.own = common::summarize(std::move(own));
  t.call = time_on_host(
      [&] {
        selective_scan::step(params);
        CUDA_CHECK(cudaStreamSynchronize(nullptr));
      },
      flush, repetitions);
  t.call_events = time_as_official_call(launch, repetitions);
  // The graph's own stream does not wait for the legacy default stream's flush: the synchronise
  // in time_on_host does.
  CapturedStep graph(params);
  t.graph = time_on_host([&] { graph.replay_and_wait(); }, flush, repetitions);
  return t;
}

}  // namespace ch08::step_bench

// Timing kernels with CUDA events, and the copy bandwidth every kernel is held to.
//
// The rules, as in the book's benchmarks everywhere: warm up first (module load and first-
// touch costs stay out); flush the L2 cache before every repetition (otherwise a problem
// that fits in L2 measures the cache, not memory); report the median with min and max;
// compare against a device-to-device copy of the same bytes measured in the same run,
// because absolute figures drift from machine to machine.
#pragma once

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "stats.hpp"

#include <chrono>
#include <cstddef>
#include <vector>

namespace common {

struct TimingOptions {
  int warmup = 3;
  int repetitions = 20;
  bool flush_l2 = true;
};

class GpuTimer {
 public:
  explicit GpuTimer(TimingOptions options = {});
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  // Times `launch()` (which enqueues work on the default stream and checks its launches).
  template <class Launch>
  TimingStats time(Launch&& launch) {
    for (int i = 0; i < options_.warmup; ++i) launch();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> samples;
    samples.reserve(options_.repetitions);
    for (int i = 0; i < options_.repetitions; ++i) {
      flush_l2();
      CUDA_CHECK(cudaEventRecord(start_));
      launch();
      CUDA_CHECK(cudaEventRecord(stop_));
      CUDA_CHECK(cudaEventSynchronize(stop_));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
      samples.push_back(ms);
    }
    return summarize(std::move(samples));
  }

  const TimingOptions& options() const { return options_; }

 private:
  void flush_l2();

  TimingOptions options_;
  DeviceBuffer<char> l2_scratch_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// A device-to-device cudaMemcpyAsync of `bytes` between two fresh buffers, timed by `timer`:
// the memory roof, timed the way the kernels held to it are.
TimingStats time_device_copy(std::size_t bytes, GpuTimer& timer);

// The memory roof: GB/s of a device-to-device cudaMemcpyAsync of `bytes`, counting the
// bytes read plus the bytes written (2 × bytes), the same way kernels count theirs.
double measure_copy_bandwidth(std::size_t bytes, TimingOptions options = {});

// The same statistics for host code, with a steady clock.
template <class Work>
TimingStats time_cpu(Work&& work, int warmup = 1, int repetitions = 5) {
  for (int i = 0; i < warmup; ++i) work();
  std::vector<double> samples;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return summarize(std::move(samples));
}

}  // namespace common

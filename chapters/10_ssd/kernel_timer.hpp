// kernel_timer.hpp: a call timed the way triton_bench.py times the official kernels' "kernels"
// column, by the sum of the GPU's own durations of the kernels it runs (CUPTI's records, through
// chapter 08's KernelDurations; torch.profiler reads the same records). CUDA events around the
// call (common::GpuTimer) add the gaps between its launches, which the official column leaves out.
// As common::GpuTimer: warm-ups first, the L2 flushed before each repetition, the median.
#pragma once

#include "device_buffer.hpp"
#include "kernel_durations.hpp"
#include "stats.hpp"
#include "timing.hpp"

#include <numeric>
#include <vector>

namespace ch10 {

class KernelTimer {
 public:
  explicit KernelTimer(common::TimingOptions options = {});

  // Times `launch()` (which enqueues work on the default stream and checks its launches).
  template <class Launch>
  common::TimingStats time(Launch&& launch) {
    for (int i = 0; i < options_.warmup; ++i) launch();
    std::vector<double> samples;
    samples.reserve(options_.repetitions);
    for (int i = 0; i < options_.repetitions; ++i) {
      flush_l2();  // before the recording starts: the flush's own work is not the call's
      durations_.start();
      launch();
      const std::vector<double> kernels = durations_.stop("");
      samples.push_back(std::accumulate(kernels.begin(), kernels.end(), 0.0));
    }
    return common::summarize(std::move(samples));
  }

 private:
  void flush_l2();

  common::TimingOptions options_;
  common::DeviceBuffer<char> l2_scratch_;
  ch08::step_bench::KernelDurations durations_;
};

}  // namespace ch10

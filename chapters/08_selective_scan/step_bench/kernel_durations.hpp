// kernel_durations.hpp: the GPU's own durations of the kernels launched in a window, from CUPTI's
// activity records (end - start of each kernel as the GPU ran it) -- how torch.profiler takes the
// official kernels' times, so that a step's kernel is timed the way the official one is: no gaps
// between launches, no events, only the kernel.
#pragma once

#include <string>
#include <vector>

namespace ch08::step_bench {

class KernelDurations {
 public:
  KernelDurations();  // one recorder at a time in a process: CUPTI's buffers are the process's
  ~KernelDurations();
  KernelDurations(const KernelDurations&) = delete;
  KernelDurations& operator=(const KernelDurations&) = delete;

  void start();  // records every kernel launched from now on
  // Waits for the GPU, stops recording, and returns the durations (ms) of the kernels whose
  // (mangled) name contains `name`, in the order they ran.
  std::vector<double> stop(const std::string& name);
};

}  // namespace ch08::step_bench

// step_timing.hpp: a step timed six ways, each the median of `repetitions` after 10 warm-up calls:
//   kernel       the GPU's time alone, the L2 cache flushed (written over) first: CUDA events
//                around step() on the default stream, issued behind a spinning kernel
//                (grid/busy_gpu.hpp) so that the events see the kernel, not the host's issue;
//   kernel_warm  20 steps back to back between one pair of events, the span ÷ 20, the L2 cache as
//                the step before left it (the state in it where it fits), the gaps between the
//                launches included;
//   own          the kernel's own duration as the profiler records it (CUPTI's activity records,
//                kernel_durations.hpp), steps back to back, the L2 warm: exactly how torch.profiler
//                takes the official kernels' times, without the gaps between launches that the
//                events of kernel_warm also count;
//   call         what a caller waits: the host's clock around step() and a stream synchronise, from
//                an idle GPU, the L2 flushed first (validation, planning, launch, run and wake-up);
//   call_events  what the official call's time counts: CUDA events around step() on an idle GPU
//                (triton_bench.py's median_ms), the L2 warm; the host's issue of the call and the
//                kernel, not the wake-up after it;
//   graph        the generation loop's form: the step captured once into a CUDA graph, each
//                repetition one replay, timed as the call is (the host's clock around the graph's
//                launch and a synchronise).
#pragma once

#include "device_buffer.hpp"
#include "stats.hpp"
#include "step.hpp"

namespace ch08::step_bench {

// Writes over twice the L2 cache, asynchronously on the default stream.
class L2Flush {
 public:
  L2Flush();
  void operator()();

 private:
  common::DeviceBuffer<char> scratch_;
};

struct StepTimes {
  common::TimingStats kernel, kernel_warm, own, call, call_events, graph;
};

StepTimes time_step(const selective_scan::StepParams& params, L2Flush& flush, int repetitions);

}  // namespace ch08::step_bench

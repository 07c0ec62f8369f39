// Summaries of repeated timings, and bandwidth from a stated byte count.
#pragma once

#include <cstddef>
#include <vector>

namespace common {

struct TimingStats {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  std::size_t repetitions = 0;
};

// Median (the mean of the middle two for an even count), min and max. The median, not the
// mean: one preempted repetition should not move the figure we report.
TimingStats summarize(std::vector<double> samples_ms);

// GB/s (10^9 bytes per second) for `bytes` moved in `ms` milliseconds.
double gigabytes_per_second(double bytes, double ms);

}  // namespace common

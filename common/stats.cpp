#include "stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace common {

TimingStats summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("summarize: no timing samples");
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  const double median = n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  return {median, samples_ms.front(), samples_ms.back(), n};
}

double gigabytes_per_second(double bytes, double ms) {
  if (!(ms > 0)) throw std::invalid_argument("gigabytes_per_second: time must be positive");
  return bytes / (ms * 1e-3) / 1e9;
}

}  // namespace common

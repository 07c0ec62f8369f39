#include "causal_conv1d.hpp"

namespace ch09 {

// [snippet:causal_conv1d_forward]
void causal_conv1d_forward(std::span<const double> x, std::span<const double> weight, double bias,
                           std::span<double> out) {
  const long taps = long(weight.size()), length = long(x.size());
  for (long t = 0; t < length; ++t) {
    double sum = bias;
    for (long k = 0; k < taps; ++k) {
      const long s = t - (taps - 1) + k;  // the input tap k reads
      if (s >= 0) sum += weight[std::size_t(k)] * x[std::size_t(s)];
    }
    out[std::size_t(t)] = sum;
  }
}
// [/snippet:causal_conv1d_forward]

}  // namespace ch09

// The causal depthwise convolution's backward for one channel (exercise 1's solution).
#include "causal_conv1d.hpp"

namespace ch09 {

// [snippet:conv1d_backward]
void causal_conv1d_backward(std::span<const double> x, std::span<const double> weight, std::span<const double> dout,
                            std::span<double> dx, std::span<double> dweight, double& dbias) {
  // out_t uses x_s with s = t-(W-1)+k, so x_s reaches the outputs t = s+(W-1)-k that exist:
  // the same taps run backwards in time (a correlation looking ahead instead of behind).
  const long taps = long(weight.size()), length = long(x.size());
  for (long s = 0; s < length; ++s) {
    double sum = 0.0;
    for (long k = 0; k < taps; ++k) {
      const long t = s + (taps - 1) - k;
      if (t < length) sum += weight[std::size_t(k)] * dout[std::size_t(t)];
    }
    dx[std::size_t(s)] = sum;
  }
  for (long t = 0; t < length; ++t) {
    dbias += dout[std::size_t(t)];
    for (long k = 0; k < taps; ++k) {
      const long s = t - (taps - 1) + k;
      if (s >= 0) dweight[std::size_t(k)] += dout[std::size_t(t)] * x[std::size_t(s)];
    }
  }
}
// [/snippet:conv1d_backward]

}  // namespace ch09

#include "unrolled.hpp"

#include <stdexcept>

namespace rnn {

// [snippet:causal_convolution]
std::vector<double> causal_convolution(const std::vector<double>& K, const std::vector<double>& x) {
  if (K.size() < x.size()) throw std::invalid_argument("causal_convolution: kernel shorter than the input");
  std::vector<double> y(x.size(), 0.0);
  for (std::size_t t = 0; t < x.size(); ++t)
    for (std::size_t k = 0; k <= t; ++k) y[t] += K[k] * x[t - k];
  return y;
}
// [/snippet:causal_convolution]

}  // namespace rnn

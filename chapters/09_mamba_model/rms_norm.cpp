#include "rms_norm.hpp"

#include <cmath>

namespace ch09 {

double rms_norm_forward(std::span<const double> x, std::span<const double> weight, std::span<double> out) {
  double sum_squares = 0.0;
  for (double v : x) sum_squares += v * v;
  const double inv_rms = 1.0 / std::sqrt(sum_squares / double(x.size()) + kRmsEps);
  for (std::size_t c = 0; c < x.size(); ++c) out[c] = x[c] * inv_rms * weight[c];
  return inv_rms;
}

}  // namespace ch09

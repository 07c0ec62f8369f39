// The RMSNorm backward at one position (exercise 2's solution).
#include "rms_norm.hpp"

namespace ch09 {

// [snippet:rms_norm_backward]
void rms_norm_backward(std::span<const double> x, std::span<const double> weight, double inv_rms,
                       std::span<const double> dout, std::span<double> dx, std::span<double> dweight) {
  // n_c = x_c r w_c with r = (mean x² + eps)^(-1/2), so ∂r/∂x_i = -r³ x_i / C. With g_c = dout_c w_c
  // (the gradient reaching x_c r): dx_i = r g_i + (∂r/∂x_i) Σ_c g_c x_c = r g_i - r³ x_i Σ_c g_c x_c / C.
  const double channels = double(x.size());
  double g_dot_x = 0.0;
  for (std::size_t c = 0; c < x.size(); ++c) {
    dweight[c] += dout[c] * x[c] * inv_rms;
    g_dot_x += dout[c] * weight[c] * x[c];
  }
  const double r3 = inv_rms * inv_rms * inv_rms;
  for (std::size_t i = 0; i < x.size(); ++i) dx[i] = inv_rms * dout[i] * weight[i] - r3 * x[i] * g_dot_x / channels;
}
// [/snippet:rms_norm_backward]

}  // namespace ch09

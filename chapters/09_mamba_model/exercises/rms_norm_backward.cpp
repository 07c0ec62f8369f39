// Exercise 2: the RMSNorm backward at one position.
//
// The forward computes n_c = x_c · r · w_c with r = 1 / sqrt(mean_c x_c² + eps), over the C
// channels of one column. Given dout = ∂L/∂n, write dx = ∂L/∂x (every x_c moves r, so each dx_i
// has a term from every channel) and ADD ∂L/∂w_c into dweight.
// Test it with:  scripts/exercise ch09_mamba_model 2
#include "rms_norm.hpp"

namespace ch09 {

// [snippet:exercise]
void rms_norm_backward(std::span<const double> x, std::span<const double> weight, double inv_rms,
                       std::span<const double> dout, std::span<double> dx, std::span<double> dweight) {
  // TODO(exercise): write dx and add into dweight.
  // [/snippet:exercise]
  (void)x;
  (void)weight;
  (void)inv_rms;
  (void)dout;
  (void)dweight;
  for (double& v : dx) v = 0.0;
}

}  // namespace ch09

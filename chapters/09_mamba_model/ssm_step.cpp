// One recurrent step of one channel's SSM (exercise 3's solution).
#include "ssm_step.hpp"

#include <cmath>

namespace ch09 {

// [snippet:ssm_step]
double ssm_step(std::span<double> h, std::span<const double> A, std::span<const double> B, std::span<const double> C,
                double delta, double D, double u, double z) {
  // Zero-order hold for A (Ā = exp(δA)), the simpler δB for B: the discretization of Mamba's scan.
  double y = D * u;
  for (std::size_t n = 0; n < h.size(); ++n) {
    h[n] = std::exp(delta * A[n]) * h[n] + delta * B[n] * u;
    y += C[n] * h[n];
  }
  const double silu_z = z / (1.0 + std::exp(-z));
  return y * silu_z;
}
// [/snippet:ssm_step]

}  // namespace ch09

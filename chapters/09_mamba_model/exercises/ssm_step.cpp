// Exercise 3: one recurrent step of one channel's SSM, the whole of inference's scan.
//
// With the state h (N numbers) from the previous token, the step size δ (already through the
// softplus), this channel's A (N), the token's B and C (N each), D, the input u and the gate z:
// update h in place to exp(δ A_n) h_n + δ B_n u, and return (Σ_n C_n h_n + D u) · silu(z),
// where silu(z) = z / (1 + e^(-z)). The parallel scan of chapter 08 must agree step by step.
// Test it with:  scripts/exercise ch09_mamba_model 3
#include "ssm_step.hpp"

namespace ch09 {

// [snippet:exercise]
double ssm_step(std::span<double> h, std::span<const double> A, std::span<const double> B, std::span<const double> C,
                double delta, double D, double u, double z) {
  // TODO(exercise): update h and return the gated output.
  // [/snippet:exercise]
  (void)h;
  (void)A;
  (void)B;
  (void)C;
  (void)delta;
  (void)D;
  (void)u;
  (void)z;
  return 0.0;
}

}  // namespace ch09

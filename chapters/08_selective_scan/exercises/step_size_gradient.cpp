// Exercise 1: the step size's gradient through softplus.
//
// The forward takes δ = softplus(x) with x = delta_raw + delta_bias, where softplus(x) =
// log(1 + e^x) for x ≤ 20 and x itself past that cut; without softplus δ = x. Given
// ddelta = ∂L/∂δ, return ∂L/∂delta_raw = ddelta · dδ/dx. Find dδ/dx on both sides of the cut.
// Test it with:  scripts/exercise ch08_selective_scan 1
#include "reference.hpp"

namespace ch08 {

// [snippet:exercise]
double step_size_gradient(double ddelta, double x, bool softplus) {
  // TODO(exercise): return ∂L/∂delta_raw.
  // [/snippet:exercise]
  (void)ddelta;
  (void)x;
  (void)softplus;
  return 0.0;
}

}  // namespace ch08

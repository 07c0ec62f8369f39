// Exercise 2: one step of the backward's reverse scan.
//
// Step t receives q_{t+1}, what the later steps hand back to h_t (zero after the last step), and
// c_t = s dy_t conj(C_t), what reaches h_t through its own output. Return g_t = ∂L/∂h_t and q_t,
// what step t hands back to h_{t−1} through h_t = Ā_t h_{t−1} + Δ_t B_t u_t. Mind the
// conjugate: a complex gradient passes back through a product w = a·v as conj(a)·(gradient of w).
// Test it with:  scripts/exercise ch08_selective_scan 2
#include "reference.hpp"

namespace ch08 {

// [snippet:exercise]
ReverseStep reverse_step(Complex A_bar, Complex c, Complex q_next) {
  ReverseStep step{};
  // TODO(exercise): fill step.g and step.q.
  // [/snippet:exercise]
  (void)A_bar;
  (void)c;
  (void)q_next;
  return step;
}

}  // namespace ch08
